package ingest

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/pkcalc/pkcalc/core/sample"
	"github.com/pkcalc/pkcalc/internal/shared"
)

// BenchmarkReader reads the IoT telemetry dataset (2.4 MB, 9,995 documents).
func BenchmarkReader(b *testing.B) {
	data, err := os.ReadFile(shared.File(b, "datasets", "iot-env-sensor-telemetry.json"))
	if err != nil {
		b.Fatal(err)
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

// BenchmarkProjectedReader reads the built-in sample's orders (about
// 10 MB) keeping only the paths the default candidates read, as an analysis
// does past its window.
func BenchmarkProjectedReader(b *testing.B) {
	var buf bytes.Buffer
	sample.Orders(&buf, 33_000)
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader(bytes.NewReader(data))
		r.Project([][]string{{"id"}, {"tenantId"}, {"customerId"}, {"orderDate"}, {"status"}, {"region"}})
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
}
