package analysis

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/paths"
	"github.com/pkcalc/pkcalc/core/sample"
)

// heldWindow reads the documents of data and holds them as the window
// does, returning them with the estimate (hold) and the heap they take,
// measured.
func heldWindow(t testing.TB, data []byte) (docs []*ingest.Document, estimate, measured, jsonBytes int) {
	t.Helper()
	r := ingest.NewReader(bytes.NewReader(data))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for {
		d, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		estimate += hold(d)
		jsonBytes += d.Bytes
		docs = append(docs, d)
	}
	r = nil
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(docs)
	runtime.KeepAlive(data) // counted in before: it must be in after too
	return docs, estimate, int(after.HeapAlloc) - int(before.HeapAlloc), jsonBytes
}

// TestHoldEstimate: the window's limit holds only if hold's estimate of a
// document's memory does not fall short of what it takes; too far above,
// the window holds fewer documents than it could.
func TestHoldEstimate(t *testing.T) {
	for _, tt := range []struct {
		name string
		text string
	}{
		{"orders", sample.OrdersText(20_000)},
		{"telemetry", sample.TelemetryText(20_000)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			docs, estimate, measured, _ := heldWindow(t, []byte(tt.text))
			if estimate < measured || float64(estimate) > 1.5*float64(measured) {
				t.Errorf("%d documents held take %d bytes; hold estimates %d", len(docs), measured, estimate)
			}
			for _, d := range docs {
				if items := key.Lookup(&d.Root, []string{"items"}); tt.name == "orders" && (items == nil || items.Kind != jsontree.Array || items.Elems != nil) {
					t.Fatalf("an order's items are %+v: held, an array keeps its kind and lets go of its elements", items)
				}
			}
		})
	}
}

// BenchmarkWindow is reading and holding a window of 100,000 documents,
// and reports the heap it costs per document and per byte of JSON, held as
// the analysis holds it, and how many documents windowHeap holds: for the
// 100 MB set's orders and the telemetry sample's small readings.
func BenchmarkWindow(b *testing.B) {
	for _, tt := range []struct {
		name string
		text func() []byte
	}{
		{"orders", func() []byte { return []byte(sample.OrdersText(windowDocs)) }},
		{"telemetry", func() []byte { return []byte(sample.TelemetryText(windowDocs)) }},
	} {
		b.Run(tt.name, func(b *testing.B) {
			data := tt.text()
			held, estimate, measured, jsonBytes := heldWindow(b, data)
			docs := len(held)
			held = nil
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				heldWindow(b, data)
			}
			b.ReportMetric(float64(measured)/float64(docs), "heap-B/doc")
			b.ReportMetric(float64(measured)/float64(jsonBytes), "heap-B/json-B")
			b.ReportMetric(float64(estimate)/float64(measured), "estimate/heap")
			b.ReportMetric(float64(windowHeap)/(float64(estimate)/float64(docs)), "docs/window")
		})
	}
}

// TestSortedBy: a path whose values never fall (or never rise) over the
// window, with three distinct values or more in half its documents, is
// what the window is in order of; one turn, or too few values, and it is
// not.
func TestSortedBy(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		// /n rises, /s falls (as text: "z" before "y"), /state rises with
		// repeats, /flip turns once, /two has two values, /rare is in too few.
		fmt.Fprintf(&b, `{"n":%d,"s":"%c","state":"%c","flip":%d,"two":%v`, i, 'z'-i/2, 'A'+i/10, min(i, 39-i), i >= 20)
		if i%5 == 0 {
			fmt.Fprintf(&b, `,"rare":%d`, i)
		}
		b.WriteString("}\n")
	}
	r := ingest.NewReader(strings.NewReader(b.String()))
	c := paths.New(paths.Options{})
	var window []*ingest.Document
	for {
		d, err := r.Next()
		if err != nil {
			break
		}
		c.Add(&d.Root, d.Bytes)
		hold(d)
		window = append(window, d)
	}
	var got []string
	for _, o := range sortedBy(c.Paths(), window) {
		got = append(got, fmt.Sprintf("%s %v %s..%s", o.path, o.rising, o.first.JSON(), o.last.JSON()))
	}
	want := []string{`/n true 0..39`, `/s false "z".."g"`, `/state true "A".."D"`}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("sorted by %q, want %q", got, want)
	}
}
