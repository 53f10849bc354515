package ingest

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// BenchmarkReader reads the IoT telemetry dataset (2.4 MB, 9,995 documents).
func BenchmarkReader(b *testing.B) {
	data, err := os.ReadFile("../../../shared/datasets/iot-env-sensor-telemetry.json")
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader(bytes.NewReader(data))
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
}
