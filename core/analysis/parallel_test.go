package analysis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/sample"
	"github.com/pkcalc/pkcalc/internal/shared"
)

// TestWorkers checks that the report is byte for byte the same whether
// JSON Lines and arrays are read on 1, 2 or 8 goroutines: on the
// sample's orders past the window, on the same with problems amid them,
// and on a shared dataset of real readings as JSON Lines.
func TestWorkers(t *testing.T) {
	var orders bytes.Buffer
	sample.Orders(&orders, 60_000)
	lines := strings.SplitAfter(orders.String(), "\n")
	dirty := strings.Join(lines[:45_000], "") + "{\"id\": oops}\nnot json\n" +
		strings.Join(lines[45_000:52_000], "") + "{\"id\":\"dup\",\"id\":\"dup2\",\"tenantId\":\"t\"}\n" +
		strings.Join(lines[52_000:], "")
	cases := map[string][]byte{
		"orders": orders.Bytes(),
		"dirty":  []byte(dirty),
		"iot":    jsonLines(t, readFile(t, shared.File(t, "datasets", "iot-env-sensor-telemetry.json"))),
		// JSON arrays: one order a line, and the dataset as published, one line.
		"orders array": []byte("[" + strings.Join(strings.Split(strings.TrimSuffix(orders.String(), "\n"), "\n"), ",\n") + "]"),
		"iot array":    readFile(t, shared.File(t, "datasets", "iot-env-sensor-telemetry.json")),
	}
	for name, input := range cases {
		// The workers read from the third document on: the window too, and
		// past a window of 2,000 documents most of each input.
		for _, window := range []int{2_000, 0} {
			testWorkers(t, fmt.Sprintf("%s, window %d", name, window), input, window)
		}
	}
}

// testWorkers checks input's report for 1, 2 and 8 workers, reading on
// goroutines and, as in the browser, elsewhere (ingest.ChunkReader).
func testWorkers(t *testing.T, name string, input []byte, window int) {
	var want []byte
	for _, c := range []struct {
		workers   int
		elsewhere bool
	}{{1, false}, {2, false}, {8, false}, {2, true}, {8, true}} {
		workers := c.workers
		opts := Options{Window: window, Workers: workers}
		var calls atomic.Int64
		if c.elsewhere {
			read := chunkReaders(workers)
			opts.ReadChunk = func(job []byte) ([]byte, error) { calls.Add(1); return read(job) }
		}
		rep, err := Analyze(bytes.NewReader(input), opts)
		if c.elsewhere && len(input) > 4<<20 && calls.Load() == 0 {
			t.Errorf("%s: no chunk was read elsewhere", name)
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = got
		} else if !bytes.Equal(got, want) {
			t.Errorf("%s: the report with %d workers (elsewhere %t) differs from the one with 1", name, workers, c.elsewhere)
		}
	}
}

// chunkReaders is a ReadChunk served by n ChunkReaders, each one job at a
// time, as the page's Web Workers serve the engine.
func chunkReaders(n int) ingest.ReadChunk {
	free := make(chan *ingest.ChunkReader, n)
	for range n {
		free <- new(ingest.ChunkReader)
	}
	return func(job []byte) ([]byte, error) {
		cr := <-free
		defer func() { free <- cr }()
		answer, err := cr.Read(job)
		return bytes.Clone(answer), err
	}
}

// jsonLines writes a JSON array's documents one per line.
func jsonLines(t *testing.T, data []byte) []byte {
	var docs []json.RawMessage
	if err := json.Unmarshal(data, &docs); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, d := range docs {
		var c bytes.Buffer
		if err := json.Compact(&c, d); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s\n", c.Bytes())
	}
	return b.Bytes()
}

func readFile(t *testing.T, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
