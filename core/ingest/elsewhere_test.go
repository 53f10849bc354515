package ingest

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pkcalc/pkcalc/core/sample"
	"github.com/pkcalc/pkcalc/internal/hostile"
)

// chunkReaders is a ReadChunk served by n ChunkReaders, as a page's Web
// Workers serve the engine's jobs, each one at a time.
func chunkReaders(n int) ReadChunk {
	free := make(chan *ChunkReader, n)
	for range n {
		free <- new(ChunkReader)
	}
	return func(job []byte) ([]byte, error) {
		cr := <-free
		defer func() { free <- cr }()
		answer, err := cr.Read(job)
		// The answer crosses to another worker: a copy, as postMessage makes.
		return append([]byte(nil), answer...), err
	}
}

// TestParallelElsewhere checks that chunks read by ChunkReaders give what
// the Reader reads, as TestParallel and TestParallelProject check the
// goroutines' own reading.
func TestParallelElsewhere(t *testing.T) {
	defer func(n int) { chunkBytes = n }(chunkBytes)
	defer func() { elsewhere = nil }()
	inputs := parallelInputs()
	for _, c := range hostile.Cases(t) {
		inputs["hostile "+c.Name] = c.Input(t)
	}
	proj := [][]string{{"id"}, {"tenant"}, {"o", "x"}}
	for name, input := range inputs {
		for _, window := range []int{2, 40} {
			elsewhere = nil
			want := readParallelAt(t, input, 2, window, 1, proj, nil)
			wantWhole := readParallel(t, input, 2, 1, nil, nil)
			for _, size := range []int{7, 300, 4096} {
				chunkBytes = size
				for _, workers := range []int{2, 3} {
					elsewhere = chunkReaders(workers)
					got := readParallelAt(t, input, 2, window, workers, proj, nil)
					if name == "clean" && !strings.Contains(got, "(parallel)") {
						t.Fatalf("clean input not read elsewhere")
					}
					if got = strings.Replace(got, "(parallel)\n", "", 1); got != want {
						t.Fatalf("%s, projected from %d, chunks of %d, %d readers:\n%s", name, window, size, workers, firstDiff(want, got))
					}
					got = strings.Replace(readParallel(t, input, 2, workers, nil, nil), "(parallel)\n", "", 1)
					if got != wantWhole {
						t.Fatalf("%s, whole, chunks of %d, %d readers:\n%s", name, size, workers, firstDiff(wantWhole, got))
					}
				}
			}
		}
	}
}

// TestParallelElsewhereFails checks that a reader that fails (a worker
// that stopped, an answer cut short or of another build) costs only
// speed: the Reader reads on from the chunk it failed on.
func TestParallelElsewhereFails(t *testing.T) {
	defer func(n int) { chunkBytes = n }(chunkBytes)
	defer func() { elsewhere = nil }()
	chunkBytes = 500
	input := parallelInputs()["clean"]
	want := readParallelAt(t, input, 2, 40, 1, [][]string{{"id"}}, nil)
	good := chunkReaders(2)
	for _, c := range []struct {
		name string
		bad  func(answer []byte, err error) ([]byte, error)
	}{
		{"stopped", func([]byte, error) ([]byte, error) { return nil, errors.New("the worker stopped") }},
		{"cut short", func(a []byte, err error) ([]byte, error) { return a[:len(a)/2], err }},
		{"one byte more", func(a []byte, err error) ([]byte, error) { return append(a, 0), err }},
		{"another build", func(a []byte, err error) ([]byte, error) { a[0]++; return a, err }},
		{"empty", func([]byte, error) ([]byte, error) { return nil, nil }},
	} {
		var calls atomic.Int32
		elsewhere = func(job []byte) ([]byte, error) {
			a, err := good(job)
			if calls.Add(1) == 3 {
				return c.bad(a, err)
			}
			return a, err
		}
		got := readParallelAt(t, input, 2, 40, 2, [][]string{{"id"}}, nil)
		if got = strings.Replace(got, "(parallel)\n", "", 1); got != want {
			t.Errorf("%s:\n%s", c.name, firstDiff(want, got))
		}
	}
}

// TestChunkAnswerCut checks that an answer cut anywhere does not decode,
// and that a job cut anywhere is refused, without a panic.
func TestChunkAnswerCut(t *testing.T) {
	var r Reader
	r.Project([][]string{{"id"}, {"o", "x"}})
	data := []byte(strings.Join(strings.SplitAfter(string(parallelInputs()["clean"]), "\n")[:20], ""))
	job := appendJob(nil, &Reader{format: "JSON Lines"}, r.proj, cursor{crEnd: -1, bomEnd: -1, line: 1}, data)
	var cr ChunkReader
	answer, err := cr.Read(job)
	if err != nil {
		t.Fatal(err)
	}
	answer = append([]byte(nil), answer...)
	for n := range len(answer) {
		c := &chunk{proj: r.proj}
		if c.decode(answer[:n]) {
			t.Fatalf("an answer cut to %d of %d bytes decoded", n, len(answer))
		}
	}
	c := &chunk{proj: r.proj}
	if !c.decode(answer) || len(c.docs) != 20 || c.docs[19].Root.JSON() != `{"id":"19","o":{"x":1}}` {
		t.Fatalf("the whole answer: clean %t, %d documents", c.clean, len(c.docs))
	}
	// A job cut within its settings is refused; cut within its data, it
	// reads what is there.
	for n := range 12 {
		if _, err := cr.Read(job[:n]); err == nil {
			t.Errorf("a job cut to %d bytes was read", n)
		}
	}
}

// chunkBench is a megabyte of orders as a chunk's job, under the
// projection of the default analysis' keys.
func chunkBench(b *testing.B, projected bool) (*ChunkReader, []byte, *projection) {
	var buf strings.Builder
	if err := sample.Orders(&buf, 3500); err != nil {
		b.Fatal(err)
	}
	var r Reader
	if projected {
		r.Project([][]string{{"id"}, {"tenantId"}, {"customerId"}, {"orderDate"}, {"status"}, {"region"}, {"currency"}, {"total"}})
	}
	job := appendJob(nil, &Reader{format: "JSON Lines"}, r.proj, cursor{crEnd: -1, bomEnd: -1, line: 1}, []byte(buf.String()))
	b.SetBytes(int64(buf.Len()))
	return new(ChunkReader), job, r.proj
}

// BenchmarkChunkRead is what a worker does for a chunk: read and answer.
func BenchmarkChunkRead(b *testing.B) {
	for _, projected := range []bool{false, true} {
		b.Run(map[bool]string{false: "whole", true: "projected"}[projected], func(b *testing.B) {
			cr, job, _ := chunkBench(b, projected)
			for b.Loop() {
				if _, err := cr.Read(job); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkChunkDecode is what the engine does for a chunk read elsewhere.
func BenchmarkChunkDecode(b *testing.B) {
	for _, projected := range []bool{false, true} {
		b.Run(map[bool]string{false: "whole", true: "projected"}[projected], func(b *testing.B) {
			cr, job, proj := chunkBench(b, projected)
			answer, err := cr.Read(job)
			if err != nil {
				b.Fatal(err)
			}
			c := &chunk{proj: proj}
			for b.Loop() {
				c.docs, c.clean = c.docs[:0], false
				c.mem.reset()
				if !c.decode(answer) {
					b.Fatal("did not decode")
				}
			}
		})
	}
}
