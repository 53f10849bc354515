package analysis

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"testing"

	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/sample"
)

// bench100 is a deterministic 100 MB NDJSON set: the built-in sample's
// orders, 330,000 of them.
var bench100 = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	sample.Orders(&b, 330_000)
	return b.Bytes()
})

// BenchmarkAnalyze is the whole analysis with default candidates, as
// pkcalc analyze runs it.
func BenchmarkAnalyze(b *testing.B) {
	data := bench100()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Analyze(bytes.NewReader(data), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIngest is reading the documents alone.
func BenchmarkIngest(b *testing.B) {
	data := bench100()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := ingest.NewReader(bytes.NewReader(data))
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkAnalyzeWorkers is BenchmarkAnalyze with the input past the
// window read on one goroutine and on two (ingest.Parallel).
func BenchmarkAnalyzeWorkers(b *testing.B) {
	data := bench100()
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Analyze(bytes.NewReader(data), Options{Workers: workers}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
