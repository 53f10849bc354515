package analysis

// The memory budget (docs/PERFORMANCE.md, Memory): each input and setting
// that grows what an analysis holds is measured here by its heap, not its
// time, against the bound the documentation states for it, and the report
// must say what was cut to stay within it.

import (
	"bytes"
	"fmt"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/options"
	"github.com/pkcalc/pkcalc/core/paths"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/core/sample"
)

// heapPeak runs f and returns the most heap it held (runtime.MemStats'
// HeapAlloc, sampled every millisecond and once f is done, less what was
// held before), what it held at the end after a collection, and what it
// allocated in all. HeapAlloc counts garbage not yet collected too, as the
// memory a process takes does.
func heapPeak(f func()) (peak, held, total uint64) {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var top uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-t.C:
				runtime.ReadMemStats(&m)
				top = max(top, m.HeapAlloc)
			}
		}
	})
	f()
	close(done)
	wg.Wait()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	top = max(top, m.HeapAlloc)
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	sub := func(a, b uint64) uint64 {
		if a < b {
			return 0
		}
		return a - b
	}
	return sub(top, before.HeapAlloc), sub(after.HeapAlloc, before.HeapAlloc), after.TotalAlloc - before.TotalAlloc
}

// memoryCase analyses input with the settings v, as the front ends read
// them, and checks the heap's peak against bound (MB); it returns the
// report and its JSON.
func memoryCase(t *testing.T, input []byte, v url.Values, bound uint64) (*report.Report, []byte) {
	t.Helper()
	if runtime.GOARCH == "wasm" {
		// The same structures, a third of the speed: the browser's
		// benchmark (e2e) measures the tab.
		t.Skip("the memory cases run natively")
	}
	if testing.Short() {
		t.Skip("the memory cases take a few seconds each")
	}
	opts, err := ParseOptions(v)
	if err != nil {
		t.Fatal(err)
	}
	var rep *report.Report
	var out bytes.Buffer
	peak, held, total := heapPeak(func() {
		if rep, err = Analyze(bytes.NewReader(input), opts); err != nil {
			t.Fatal(err)
		}
		if err := report.WriteJSON(&out, rep); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("%s input, %.80q: heap peak %d MB, %d MB held after, %d MB allocated; %s of JSON",
		mb(uint64(len(input))), v.Encode(), peak>>20, held>>20, total>>20, mb(uint64(out.Len())))
	if peak > bound<<20 {
		t.Errorf("the heap peaked at %d MB, past the %d MB docs/PERFORMANCE.md states for this case", peak>>20, bound)
	}
	return rep, out.Bytes()
}

func mb(n uint64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }

func warned(rep *report.Report, code string) *report.Notice {
	for i, w := range rep.Warnings {
		if w.Code == code {
			return &rep.Warnings[i]
		}
	}
	return nil
}

// uniqueDocs are n documents with three values of their own each.
func uniqueDocs(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "{\"id\":\"i%07d\",\"a\":\"a%07d\",\"b\":\"b%07d\"}\n", i, (i*7919)%n, (i*104729)%n)
	}
	return b.Bytes()
}

// TestMemoryExactValues: the most keys, each keeping the most values
// exactly that keys times maxDistinct allows, with suggestions on, on
// documents where every key has more values than that: the values kept
// exactly in all are options.MaxExactValues for the keys named, and
// options.MinAddedExact for each key pkcalc adds, which the report says.
// 24 keys of a million values each took 11 GB.
func TestMemoryExactValues(t *testing.T) {
	keys := []string{"/id", "/a", "/id,/a", "/a,/id", "/id+/a", "/a+/id"}
	for n := 2; len(keys) < options.MaxKeys; n++ {
		keys = append(keys, fmt.Sprintf("/id+hash(/a)%%%d", n), fmt.Sprintf("/a+hash(/id)%%%d", n))
	}
	rep, _ := memoryCase(t, uniqueDocs(60_000), url.Values{"keys": keys}, 800)
	named := 0
	for _, c := range rep.Candidates {
		if c.Named {
			named++
			if !c.LogicalPartitionsEstimated {
				t.Errorf("%s: 60,000 values, not estimated past 50,000", c.Key.Spec)
			}
		}
	}
	w := warned(rep, report.ExactValuesShared)
	switch {
	case named != options.MaxKeys:
		t.Errorf("%d keys named in the report, want %d", named, options.MaxKeys)
	case w == nil:
		t.Fatalf("no %s warning: %+v", report.ExactValuesShared, rep.Warnings)
	case !strings.Contains(w.Message, "kept 5,000 each"):
		t.Errorf("the warning does not say what the keys added kept: %s", w.Message)
	}
}

// TestMemoryPartitions: the most physical partitions the settings allow,
// on the built-in sample, by --partitions and by throughput and target:
// the report lists the busiest and sums the rest, so its JSON stays small
// (it was 300 MB, and the command line took 2.3 GB to write it).
func TestMemoryPartitions(t *testing.T) {
	input := []byte(sample.OrdersText(sample.DefaultOrders))
	for _, v := range []url.Values{
		{"partitions": {"65536"}},
		{"ru": {"655360000"}, "targetGb": {"1000000"}},
	} {
		t.Run(v.Encode(), func(t *testing.T) {
			rep, out := memoryCase(t, input, v, 400)
			if len(out) > 2<<20 {
				t.Errorf("%s of JSON", mb(uint64(len(out))))
			}
			for _, c := range rep.Candidates {
				o := c.PhysicalPartitionsOmitted
				if o == nil || len(c.PhysicalPartitions) != report.MaxPartitionRows || c.PhysicalCount() != c.Projection.PhysicalPartitions {
					t.Fatalf("%s: %d partitions listed of %d, omitted %+v", c.Key.Spec, len(c.PhysicalPartitions), c.Projection.PhysicalPartitions, o)
				}
				if c.DayOne.Omitted == nil || c.DayOne.Omitted.Partitions+len(c.DayOne.Partitions) != c.DayOne.PhysicalPartitions {
					t.Errorf("%s: day one lists %d of %d, omitted %+v", c.Key.Spec, len(c.DayOne.Partitions), c.DayOne.PhysicalPartitions, c.DayOne.Omitted)
				}
				if ws := c.WriteSpread; ws != nil && len(ws.Partitions) != report.MaxPartitionRows {
					t.Errorf("%s: the write spread names %d partitions", c.Key.Spec, len(ws.Partitions))
				}
			}
		})
	}
}

// namesDocs are n documents of names of their own, per each.
func namesDocs(n, per int) []byte {
	var b bytes.Buffer
	for i := range n {
		b.WriteByte('{')
		for j := range per {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "\"p%d_%d\":%d", i, j, j)
		}
		b.WriteString("}\n")
	}
	return b.Bytes()
}

// TestMemoryPaths: documents whose property names are data make a path
// each; the path table describes the first paths.MaxPaths and counts the
// rest (1,000,000 paths took 1.9 GB and 108 MB of JSON).
func TestMemoryPaths(t *testing.T) {
	rep, out := memoryCase(t, namesDocs(10_000, 100), url.Values{}, 300)
	if len(rep.Paths) != paths.MaxPaths || rep.PathsOmitted == nil || warned(rep, report.PathsCapped) == nil {
		t.Fatalf("%d paths, omitted %+v, warnings %+v", len(rep.Paths), rep.PathsOmitted, rep.Warnings)
	}
	want := int(rep.PathsDocuments)*100 - paths.MaxPaths
	if got := rep.PathsOmitted.Paths; got < want*97/100 || got > want*103/100 {
		t.Errorf("%d paths left out, estimated; %d were", got, want)
	}
	if len(out) > 8<<20 {
		t.Errorf("%s of JSON", mb(uint64(len(out))))
	}
}

// TestMemoryPathsCommand: pkcalc paths reads every document into the
// table, with no window; past paths.MaxPaths it counts (200,000 documents
// of 5 names of their own took 2.0 GB).
func TestMemoryPathsCommand(t *testing.T) {
	if runtime.GOARCH == "wasm" || testing.Short() {
		t.Skip("the memory cases run natively, and not with -short")
	}
	input := namesDocs(200_000, 5)
	var s *PathSummary
	peak, _, total := heapPeak(func() {
		var err error
		if s, err = Paths(ingest.NewReader(bytes.NewReader(input))); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("%s: heap peak %d MB, %d MB allocated", mb(uint64(len(input))), peak>>20, total>>20)
	if peak > 100<<20 {
		t.Errorf("the heap peaked at %d MB, past the 100 MB docs/PERFORMANCE.md states", peak>>20)
	}
	if len(s.Paths) != paths.MaxPaths || s.OmittedPaths < 960_000 || s.OmittedPaths > 1_020_000 || s.OmittedDocuments != 198_000 {
		t.Errorf("%d paths, %d left out in %d documents", len(s.Paths), s.OmittedPaths, s.OmittedDocuments)
	}
}

// TestMemoryWorkload: a workload of many filters on paths of their own
// (500 took 2.4 GB): the groupings of the filters with the most requests
// are counted, the other queries load every document at most, and past
// maxOperations the operations are left out with a line that says so.
func TestMemoryWorkload(t *testing.T) {
	var q strings.Builder
	for i := range 500 {
		fmt.Fprintf(&q, "%d SELECT * FROM c WHERE c.p%d = 1\n", 1000-i, i)
	}
	for range maxOperations {
		q.WriteString("1 read /id\n")
	}
	rep, _ := memoryCase(t, []byte(sample.OrdersText(20_000)), url.Values{"queries": {q.String()}}, 300)
	if rep.Operations == nil || rep.Operations.Count != maxOperations || len(rep.Operations.Errors) != 1 || !strings.Contains(rep.Operations.Errors[0], "pkcalc reads the first 1,000") {
		t.Fatalf("operations %+v", rep.Operations)
	}
	v := rep.Candidates[0].Queries.Verdicts
	if v[0].ItemsAtMost || !v[maxGroupings].ItemsAtMost {
		t.Errorf("the heaviest query's items are at most %t, the %dth's %t: want false, true", v[0].ItemsAtMost, maxGroupings+1, v[maxGroupings].ItemsAtMost)
	}
}
