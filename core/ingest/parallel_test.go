package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/internal/hostile"
)

// readParallel reads every document and error of r (the first window
// documents by the Reader itself, then by a Parallel of workers when
// workers > 1; with proj, projected from document window on) and writes
// down everything a caller can see of them.
func readParallel(t *testing.T, input []byte, window, workers int, proj [][]string, srcErr error) string {
	return readParallelAt(t, input, window, window, workers, proj, srcErr)
}

// elsewhere, when set, reads readParallel's chunks (ParallelElsewhere).
var elsewhere ReadChunk

// readParallelAt is readParallel with the Parallel made after at documents
// and the projection set after window, before or after it.
func readParallelAt(t *testing.T, input []byte, at, window, workers int, proj [][]string, srcErr error) string {
	t.Helper()
	var src io.Reader = bytes.NewReader(input)
	if srcErr != nil {
		src = io.MultiReader(src, errReader{srcErr})
	}
	r := NewReader(src)
	var out strings.Builder
	var next interface {
		Next() (*Document, error)
		Format() string
	} = r
	for n := 0; ; n++ {
		if n == window && proj != nil {
			next.(interface{ Project([][]string) }).Project(proj)
		}
		if n == at {
			var p *Parallel
			var ok bool
			if elsewhere != nil {
				p, ok = r.ParallelElsewhere(workers, elsewhere)
			} else {
				p, ok = r.Parallel(workers)
			}
			if ok {
				next = p
				fmt.Fprintf(&out, "(parallel)\n")
			}
		}
		d, err := next.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				fmt.Fprintf(&out, "error %+v\n", *e)
				continue
			}
			fmt.Fprintf(&out, "read error %v\n", err)
			break
		}
		root := d.Root.JSON()
		if proj != nil && at < window && n >= window {
			// Documents read before Project may keep more than proj.
			root = projectedJSON(&d.Root, proj)
		}
		fmt.Fprintf(&out, "doc %d line %d offset %d bytes %d %s\n", d.Index, d.Line, d.Offset, d.Bytes, root)
		for _, e := range d.Notes {
			fmt.Fprintf(&out, "  note %+v\n", *e)
		}
	}
	fmt.Fprintf(&out, "format %s\n", next.Format())
	return out.String()
}

// projectedJSON is v's values at paths, as JSON, "-" for none.
func projectedJSON(v *jsontree.Value, paths [][]string) string {
	var b strings.Builder
	for _, p := range paths {
		at := v
		for _, name := range p {
			if at, _ = at.Get(name); at == nil {
				break
			}
		}
		if at == nil {
			b.WriteString(" -")
		} else {
			b.WriteString(" " + at.JSON())
		}
	}
	return b.String()
}

// parallelInputs are JSON Lines with each thing the Reader notes or
// reports, at places a chunk may start or end.
func parallelInputs() map[string][]byte {
	var clean, crlf, cr bytes.Buffer
	for i := range 400 {
		line := fmt.Sprintf(`{"id":"%d","tenant":"t%d","n":%d,"tags":["a","b"],"o":{"x":%d}}`, i, i%7, i, i%3)
		clean.WriteString(line + "\n")
		crlf.WriteString(line + "\r\n")
		cr.WriteString(line + "\r")
	}
	c := clean.String()
	lines := strings.SplitAfter(c, "\n")
	with := func(at int, s string) []byte {
		return []byte(strings.Join(lines[:at], "") + s + strings.Join(lines[at:], ""))
	}
	return map[string][]byte{
		"clean":        clean.Bytes(),
		"crlf":         crlf.Bytes(),
		"lone cr":      cr.Bytes(),
		"bad line":     with(200, "{\"id\": oops}\n"),
		"not json":     with(150, "hello\n"),
		"cut line":     with(300, "{\"id\":\"cut\",\"n\":\n"),
		"two on line":  with(250, "{\"id\":\"a\"} {\"id\":\"b\"}\n"),
		"pretty":       with(120, "{\n  \"id\": \"p\",\n  \"n\": 1\n}\n"),
		"duplicate":    with(220, "{\"id\":\"d\",\"id\":\"e\"}\n"),
		"unseen name":  with(180, "{\"id\":\"u\",\"te\u200bnant\":1}\n{\"id\":\"v\",\"te\u200bnant\":2}\n"),
		"bom":          with(210, "\ufeff{\"id\":\"bom\"}\n"),
		"blank lines":  with(230, "\n\n   \n\t\n"),
		"escapes":      with(260, "{\"id\":\"a\\nb\",\"tenant\":\"\\u00e9\"}\n"),
		"array line":   with(270, "[1,2]\n"),
		"no last lf":   []byte(strings.TrimSuffix(c, "\n")),
		"cut at end":   []byte(c + "{\"id\":\"x\","),
		"mongo":        with(190, "{\"_id\":{\"$oid\":\"5f0c1f\"},\"n\":{\"$numberLong\":\"3\"}}\n"),
		"big number":   with(240, "{\"id\":\"big\",\"n\":1"+strings.Repeat("0", 400)+"}\n"),
		"trailing ws":  []byte(c + "   \n\n"),
		"empty after":  []byte(lines[0] + lines[1] + lines[2]),
		"only window":  []byte(lines[0]),
		"deep":         with(280, strings.Repeat("[", 200)+strings.Repeat("]", 200)+"\n"),
		"bad utf8":     with(290, "{\"id\":\"\xff\xfe\"}\n"),
		"comment":      with(160, "// a comment\n"),
		"control char": with(170, "{\"id\":\"a\x01b\"}\n"),
	}
}

// arrayInputs are JSON arrays of documents shaped as exports write them
// (one element a line, on one line, pretty), with what the Reader notes or
// reports, and JSON Lines' inputs made arrays: their lines joined by
// commas.
func arrayInputs() map[string][]byte {
	out := map[string][]byte{}
	for name, input := range parallelInputs() {
		lines := strings.Split(strings.TrimRight(string(input), "\n"), "\n")
		out["array of "+name] = []byte("[" + strings.Join(lines, ",\n") + "]\n")
	}
	var docs []string
	for i := range 300 {
		docs = append(docs, fmt.Sprintf(`{"id":"%d","tenant":"t%d","items":[{"id":"i%d","n":1},{"id":"j","n":2}],"o":{"x":%d}}`, i, i%7, i, i%3))
	}
	line := "[" + strings.Join(docs, ",") + "]"
	pretty := "[\n  " + strings.ReplaceAll(strings.Join(docs, ",\n  "), `,"`, ",\n    \"") + "\n]"
	out["one line"] = []byte(line)
	out["pretty"] = []byte(pretty)
	out["one a line, crlf"] = []byte("[" + strings.Join(docs, ",\r\n") + "]\r\n")
	out["then more"] = []byte(line + "\n" + docs[0] + "\n")
	out["trailing comma"] = []byte("[" + strings.Join(docs, ",\n") + ",\n]")
	out["unclosed"] = []byte("[" + strings.Join(docs, ",\n"))
	out["missing comma"] = []byte("[" + strings.Join(docs[:150], ",\n") + "\n" + strings.Join(docs[150:], ",\n") + "]")
	out["not an object"] = []byte("[" + strings.Join(docs[:150], ",\n") + ",\n7,\n" + strings.Join(docs[150:], ",\n") + "]")
	out["first name other"] = []byte("[" + strings.Join(docs[:150], ",\n") + ",\n{\"n\":1,\"id\":\"z\"},\n" + strings.Join(docs[150:], ",\n") + "]")
	return out
}

// TestParallel checks that a Parallel returns what the Reader itself
// reads, for any number of workers and any chunk size, on clean input and
// on input with every kind of problem, JSON Lines and JSON arrays.
func TestParallel(t *testing.T) {
	defer func(n int) { chunkBytes = n }(chunkBytes)
	inputs := parallelInputs()
	maps.Copy(inputs, arrayInputs())
	for _, c := range hostile.Cases(t) {
		inputs["hostile "+c.Name] = c.Input(t)
	}
	proj := [][]string{{"id"}, {"tenant"}, {"o", "x"}}
	for name, input := range inputs {
		for _, window := range []int{1, 3} {
			for _, p := range [][][]string{nil, proj} {
				want := readParallel(t, input, window, 1, p, nil)
				for _, size := range []int{1, 7, 64, 300, 4096} {
					chunkBytes = size
					for _, workers := range []int{2, 3, 8} {
						got := strings.Replace(readParallel(t, input, window, workers, p, nil), "(parallel)\n", "", 1)
						if got != want {
							t.Fatalf("%s, window %d, projected %t, chunks of %d, %d workers:\n%s", name, window, p != nil, size, workers, firstDiff(want, got))
						}
					}
				}
			}
		}
	}
}

// TestParallelProject checks that a Parallel made before the projection
// is set returns what the Reader reads, the chunks read whole before it
// read again.
func TestParallelProject(t *testing.T) {
	defer func(n int) { chunkBytes = n }(chunkBytes)
	proj := [][]string{{"id"}, {"tenant"}, {"o", "x"}}
	for name, input := range parallelInputs() {
		for _, window := range []int{2, 40, 390} {
			want := readParallelAt(t, input, 2, window, 1, proj, nil)
			for _, size := range []int{7, 300, 4096} {
				chunkBytes = size
				for _, workers := range []int{2, 8} {
					got := strings.Replace(readParallelAt(t, input, 2, window, workers, proj, nil), "(parallel)\n", "", 1)
					if got != want {
						t.Fatalf("%s, projected from %d, chunks of %d, %d workers:\n%s", name, window, size, workers, firstDiff(want, got))
					}
				}
			}
		}
	}
}

// TestParallelProjectApplies checks that Project takes effect on a
// Parallel made before it: past the chunks in flight, documents keep only
// the paths.
func TestParallelProjectApplies(t *testing.T) {
	defer func(n int) { chunkBytes = n }(chunkBytes)
	chunkBytes = 300
	r := NewReader(bytes.NewReader(parallelInputs()["clean"]))
	for range 2 {
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
	}
	p, ok := r.Parallel(2)
	if !ok {
		t.Fatal("clean JSON Lines not read in parallel")
	}
	p.Project([][]string{{"id"}})
	var last string
	for {
		d, err := p.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		last = d.Root.JSON()
	}
	if last != `{"id":"399"}` {
		t.Errorf("last document %s, want only its id", last)
	}
}

// TestParallelReadError checks that an error from the input comes after
// the documents before it, as from the Reader.
func TestParallelReadError(t *testing.T) {
	defer func(n int) { chunkBytes = n }(chunkBytes)
	chunkBytes = 500
	input := parallelInputs()["clean"]
	fail := errors.New("disk on fire")
	want := readParallel(t, input, 2, 1, nil, fail)
	got := readParallel(t, input, 2, 4, nil, fail)
	if !strings.Contains(got, "(parallel)") {
		t.Fatal("the input was not read in parallel")
	}
	if got = strings.Replace(got, "(parallel)\n", "", 1); got != want {
		t.Fatal(firstDiff(want, got))
	}
	if !strings.Contains(got, "read error disk on fire") {
		t.Fatalf("the read error is lost:\n%s", got[len(got)-300:])
	}
}

// TestParallelUsed checks that clean JSON Lines are read in parallel, and
// that what cannot be (a JSON array, concatenated documents) is not.
func TestParallelUsed(t *testing.T) {
	for _, c := range []struct {
		name  string
		input string
		want  bool
	}{
		{"JSON Lines", "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n", true},
		{"array", "[{\"a\":1},\n{\"a\":2},\n{\"a\":3}]", true},
		{"array of arrays", "[[\"a\"],\n[1],\n[2]]", false},
		{"concatenated", "{\"a\":1} {\"a\":2} {\"a\":3}", false},
		{"one worker", "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n", false},
	} {
		workers := 2
		if c.name == "one worker" {
			workers = 1
		}
		got := strings.Contains(readParallel(t, []byte(c.input), 2, workers, nil, nil), "(parallel)")
		if got != c.want {
			t.Errorf("%s: read in parallel %t, want %t", c.name, got, c.want)
		}
	}
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range min(len(w), len(g)) {
		if w[i] != g[i] {
			return fmt.Sprintf("line %d:\nwant %s\n got %s", i+1, w[i], g[i])
		}
	}
	return fmt.Sprintf("want %d lines, got %d", len(w), len(g))
}
