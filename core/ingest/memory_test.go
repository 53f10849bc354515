package ingest

import (
	"io"
	"runtime"
	"strings"
	"testing"
)

// generated is an input made as it is read, of parts each a text repeated:
// 400 MB of it without 400 MB in memory. Every 4 MB it hands out, it takes
// the heap in use, to find the most a reader held while reading it.
type generated struct {
	parts []genPart
	part  int
	done  int64 // bytes of the current part handed out
	since int64 // bytes handed out since the heap was last measured
	peak  uint64
}

type genPart struct {
	text  string
	times int64
	block string // text repeated to about 64 KB, to copy from
}

func generate(parts ...genPart) *generated {
	for i := range parts {
		p := &parts[i]
		if p.text == "" {
			p.times = 0
			continue
		}
		p.block = strings.Repeat(p.text, max(1, 64<<10/len(p.text)))
	}
	g := &generated{parts: parts}
	g.measure()
	return g
}

func (g *generated) measure() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	g.peak = max(g.peak, m.HeapInuse)
}

func (g *generated) Read(b []byte) (int, error) {
	n := 0
	for n < len(b) && g.part < len(g.parts) {
		p := &g.parts[g.part]
		size := int64(len(p.text)) * p.times
		if g.done == size {
			g.part++
			g.done = 0
			continue
		}
		from := int(g.done % int64(len(p.text)))
		m := copy(b[n:], p.block[from:])
		m = int(min(int64(m), size-g.done))
		n += m
		g.done += int64(m)
	}
	if g.since += int64(n); g.since >= 4<<20 {
		g.since = 0
		g.measure()
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// heapBound is the most a reader may hold above the heap in use before it
// starts, reading a 400 MB number or field: a few buffers of the 2 MB an
// item holds, not the token.
const heapBound = 64 << 20

// measured is what readMeasured read: documents are counted, not kept,
// but for the lines of all and the text of the last.
type measured struct {
	docs  int
	lines []int
	last  string
	errs  []string
}

// readMeasured reads all of next's documents and errors, and fails the
// test if the heap in use rose by more than heapBound meanwhile.
func readMeasured(t *testing.T, g *generated, next func() (*Document, error)) (res measured) {
	t.Helper()
	if testing.Short() || runtime.GOARCH == "wasm" {
		t.Skip("reads 400 MB")
	}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base := m.HeapInuse
	g.peak = base
	for {
		d, err := next()
		if err == io.EOF {
			break
		}
		if e, ok := err.(*Error); ok {
			res.errs = append(res.errs, e.Error())
		} else if err != nil {
			t.Fatal(err)
		} else {
			res.docs++
			res.lines = append(res.lines, d.Line)
			res.last = d.Root.JSON()
		}
	}
	g.measure()
	t.Logf("heap in use: %d MB before, at most %d MB while reading", base>>20, g.peak>>20)
	if g.peak-base > heapBound {
		t.Errorf("the heap in use rose by %d MB, over %d MB", (g.peak-base)>>20, heapBound>>20)
	}
	return res
}

const mb400 = 400 << 20

// TestLongNumberMemory: a number of 400 MB is read over, never held: it
// skips its document, and the documents around it are read.
func TestLongNumberMemory(t *testing.T) {
	for _, projected := range []bool{false, true} {
		g := generate(genPart{text: "{\"id\":\"1\"}\n{\"id\":\"2\",\"n\":1", times: 1}, genPart{text: "0", times: mb400},
			genPart{text: "}\n{\"id\":\"3\"}\n", times: 1})
		r := NewReader(g)
		if projected {
			r.Project([][]string{{"id"}, {"n"}})
		}
		res := readMeasured(t, g, r.Next)
		if res.docs != 2 || res.lines[0] != 1 || res.last != `{"id":"3"}` {
			t.Errorf("projected %v: %d documents, the last %s", projected, res.docs, res.last)
		}
		want := "line 2, column 15 (document 2): document holds a number longer than the 2 MB Cosmos DB allows for a whole item; skipped"
		if len(res.errs) != 1 || res.errs[0] != want {
			t.Errorf("projected %v: errors %v", projected, res.errs)
		}
	}
}

// TestCSVLongFieldMemory: a CSV field of 400 MB, of digits or quoted, is
// read over, never held.
func TestCSVLongFieldMemory(t *testing.T) {
	field2 := "field 2 takes the row past 2 MB of text, more than the 2 MB Cosmos DB allows for an item; skipped"
	for _, tt := range []struct {
		name       string
		head, tail string
		fill       string
		docs       int
		errs       []string
	}{
		{"digits", "id,n\n1,", "\n2,5\n", "9", 1, []string{"line 2, column 3 (document 1): " + field2}},
		{"a quoted field", "id,note\n1,\"", "\",x\n2,5\n", "a\"\"", 1, []string{"line 2, column 3 (document 1): " + field2}},
		// A quote that never closes on one line of 400 MB: nothing follows
		// it to read.
		{"a quote that never closes", "id,note\n1,a\n2,\"", "", "x", 1, []string{"line 3, column 3 (document 2): " + field2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := generate(genPart{text: tt.head, times: 1}, genPart{text: tt.fill, times: mb400 / int64(len(tt.fill))}, genPart{text: tt.tail, times: 1})
			res := readMeasured(t, g, NewCSVReader(g).Next)
			if res.docs != tt.docs || strings.Join(res.errs, "\n") != strings.Join(tt.errs, "\n") {
				t.Errorf("%d documents, errors\n%s\nwant %d and\n%s", res.docs, strings.Join(res.errs, "\n"), tt.docs, strings.Join(tt.errs, "\n"))
			}
		})
	}
}

// TestCSVOpenQuoteMemory: a quote that never closes, followed by 400 MB of
// lines, is given up 2 MB in, and the lines after it are read as rows:
// the scanner keeps no more than that of them to go back to.
func TestCSVOpenQuoteMemory(t *testing.T) {
	line := "," + strings.Repeat("x", 1<<20-2) + "\n" // a row of 1 MB
	g := generate(genPart{text: "id,note\n1,\"5 screen\n", times: 1}, genPart{text: line, times: 400}, genPart{text: "3,end\n", times: 1})
	res := readMeasured(t, g, NewCSVReader(g).Next)
	want := `line 2, column 3 (document 1): the quoted field that starts here runs on over 3 lines and past 2 MB, more than the 2 MB Cosmos DB allows for an item: is its closing '"' missing?; skipped, and reading goes on at line 3, after the quote's line`
	if len(res.errs) != 1 || res.errs[0] != want {
		t.Errorf("errors %v", res.errs)
	}
	if res.docs != 401 || res.lines[0] != 3 || res.lines[400] != 403 || res.last != `{"id":3,"note":"end"}` {
		t.Errorf("%d documents, the last %.100s", res.docs, res.last)
	}
}
