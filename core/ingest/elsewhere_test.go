package ingest

import (
	"encoding/binary"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pkcalc/pkcalc/core/jsontree"
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
	job := appendJob(appendSettings(nil, &Reader{format: "JSON Lines"}), r.proj, cursor{crEnd: -1, bomEnd: -1, line: 1}, data)
	var cr ChunkReader
	answer, err := cr.Read(job)
	if err != nil {
		t.Fatal(err)
	}
	answer = append([]byte(nil), answer...)
	of := func() *chunk { return &chunk{proj: r.proj, after: cursor{offset: int64(len(data))}} }
	for n := range len(answer) {
		c := of()
		if c.decode(answer[:n]) {
			t.Fatalf("an answer cut to %d of %d bytes decoded", n, len(answer))
		}
	}
	c := of()
	if !c.decode(answer) || len(c.docs) != 20 || c.docs[19].Root.JSON() != `{"id":"19","o":{"x":1}}` {
		t.Fatalf("the whole answer: clean %t, %d documents", c.clean, len(c.docs))
	}
	// Answers that decode but are not this chunk's, and garbage that
	// claims more values than it has bytes (each nesting level asking for
	// as many again), are refused.
	doc := func(index, offset int) []byte {
		b := []byte{wireVersion, 1, 1, byte(index), 1}
		b = binary.AppendUvarint(b, uint64(offset))
		return append(b, 9, byte(jsontree.Object), 0)
	}
	deep := []byte{wireVersion, 1, 1, 1, 1, 0, 9}
	for range 100 {
		deep = append(deep, byte(jsontree.Array), 0xff, 0x3f) // 8,191 elements
	}
	for name, a := range map[string][]byte{
		"this chunk's":        doc(1, 5),
		"numbered from 2":     doc(2, 5),
		"past its end":        doc(1, 1<<20),
		"a string, no object": {wireVersion, 1, 1, 1, 1, 0, 9, byte(jsontree.String), 0},
		"deep counts":         deep,
	} {
		c := of()
		if got, want := c.decode(a), name == "this chunk's"; got != want {
			t.Errorf("an answer %s decoded %t", name, got)
		}
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
	job := appendJob(appendSettings(nil, &Reader{format: "JSON Lines"}), r.proj, cursor{crEnd: -1, bomEnd: -1, line: 1}, []byte(buf.String()))
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
			c := &chunk{proj: proj, after: cursor{offset: int64(len(job))}}
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

// TestParallelArrays checks that JSON arrays as exports write them (one
// element a line, all on one line, pretty) are read in chunks, not only
// by the Reader after a chunk that failed: most chunks read cleanly.
func TestParallelArrays(t *testing.T) {
	defer func(n int) { chunkBytes = n }(chunkBytes)
	defer func() { elsewhere = nil }()
	chunkBytes = 2000
	inputs := arrayInputs()
	for _, name := range []string{"one line", "pretty", "one a line, crlf", "array of clean"} {
		input := inputs[name]
		var clean, all atomic.Int32
		read := chunkReaders(2)
		elsewhere = func(job []byte) ([]byte, error) {
			a, err := read(job)
			all.Add(1)
			if err == nil && len(a) > 1 && a[1] == 1 {
				clean.Add(1)
			}
			return a, err
		}
		readParallel(t, input, 2, 2, nil, nil)
		if chunks := int32(len(input) / chunkBytes); clean.Load() < chunks-2 {
			t.Errorf("%s: %d of %d chunks read cleanly, of some %d", name, clean.Load(), all.Load(), chunks)
		}
	}
}

// BenchmarkElementCut is the splitter's work for a megabyte of an array
// of orders, on one line and one a line: in the browser it runs on the
// engine's thread.
func BenchmarkElementCut(b *testing.B) {
	var buf strings.Builder
	sample.Orders(&buf, 3500)
	for _, c := range []struct {
		name string
		sep  string
		cut  func([]byte) int
	}{{"one line", ",", elementCut}, {"one a line", ",\n", elementLineCut}} {
		b.Run(c.name, func(b *testing.B) {
			data := []byte(strings.ReplaceAll(buf.String(), "\n", c.sep))
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				c.cut(data)
			}
		})
	}
}
