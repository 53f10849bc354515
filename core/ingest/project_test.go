package ingest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// projectedRead is every document and problem of one read, with each
// document's values at the projected paths.
type projectedRead struct {
	events []string // what must not change with a projection
	docs   []*Document
}

// readProjected reads src under a projection of paths (nil: none) and
// calls each with every document as it is read: under a projection a
// Document is valid only until the next Next.
func readProjected(t *testing.T, src io.Reader, paths [][]string, each func(i int, d *Document)) projectedRead {
	t.Helper()
	r := NewReader(src)
	if paths != nil {
		r.Project(paths)
	}
	var out projectedRead
	for i := 0; ; i++ {
		if i > 1<<20 {
			t.Fatal("Next does not end")
		}
		d, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			out.events = append(out.events, "error "+err.Error())
			continue
		}
		ev := fmt.Sprintf("document %d line %d offset %d bytes %d", d.Index, d.Line, d.Offset, d.Bytes)
		for _, n := range d.Notes {
			ev += "\n  note " + n.Error()
		}
		out.events = append(out.events, ev)
		if each != nil {
			each(len(out.docs), d)
		}
		out.docs = append(out.docs, d)
	}
	out.events = append(out.events, "format "+r.Format())
	return out
}

// objectPaths lists the property paths of documents, arrays not entered,
// in the order first seen.
func objectPaths(docs []*Document, limit int) [][]string {
	var out [][]string
	seen := map[string]bool{}
	var walk func(v *Value, prefix []string)
	walk = func(v *Value, prefix []string) {
		for i := range v.Members {
			if len(out) >= limit {
				return
			}
			p := append(slices.Clone(prefix), v.Members[i].Key)
			if k := strings.Join(p, "\x00"); !seen[k] {
				seen[k] = true
				out = append(out, p)
			}
			if v.Members[i].Value.Kind == Object {
				walk(&v.Members[i].Value, p)
			}
		}
	}
	for _, d := range docs {
		walk(&d.Root, nil)
	}
	return out
}

func lookupPath(v *Value, path []string) *Value {
	for _, name := range path {
		if v.Kind != Object {
			return nil
		}
		var ok bool
		if v, ok = v.Get(name); !ok {
			return nil
		}
	}
	return v
}

// checkProjection reads in whole and under projections of its own paths,
// and checks that a projection changes no document, size, note, error or
// format, and no value at a projected path.
func checkProjection(t *testing.T, in []byte) {
	t.Helper()
	whole := readProjected(t, bytes.NewReader(in), nil, nil)
	all := objectPaths(whole.docs, 40)
	sets := [][][]string{{}, all, {{"no such"}, {"a", "no such"}}}
	for i, p := range all {
		if i < 8 {
			sets = append(sets, [][]string{p})
		}
	}
	for _, paths := range sets {
		for _, src := range []io.Reader{bytes.NewReader(in), iotest.OneByteReader(bytes.NewReader(in))} {
			got := readProjected(t, src, paths, func(i int, d *Document) {
				if i >= len(whole.docs) {
					return // told below
				}
				for _, p := range paths {
					w, g := lookupPath(&whole.docs[i].Root, p), lookupPath(&d.Root, p)
					if !reflect.DeepEqual(w, g) {
						t.Fatalf("document %d, path %q under projection %q:\n got %s\nwant %s", d.Index, p, paths, show(g), show(w))
					}
				}
			})
			if a, b := strings.Join(whole.events, "\n"), strings.Join(got.events, "\n"); a != b {
				t.Fatalf("projection %q changes the read:\nwhole:\n%s\nprojected:\n%s", paths, a, b)
			}
		}
	}
}

func show(v *Value) string {
	if v == nil {
		return "missing"
	}
	return v.JSON()
}

func TestProject(t *testing.T) {
	for _, in := range []string{
		`{"id":"1","customer":{"id":"c1","name":"x"},"tags":["a","b"],"n":1.50}` + "\n" + `{"id":"2","customer":{"id":"c2"},"n":2}`,
		`{"a":1,"b":2,"a":3}` + "\n" + `{"x":{"y":1,"y":2},"a":0}`,
		`{"_id":{"$oid":"5f1b"},"n":{"$numberLong":"9007199254740993"},"d":{"$date":{"$numberLong":"1709294400000"}},"x":{"$numberLong":"NaN"}}`,
		`{"a":{"$numberDecimal":"+1"},"b":{"$numberInt":".5"},"c":{"$oid":"x","y":1}}`,
		`[{"a":"x\xffy","b":"\ud800"},{"a":1e999,"b":1e-999,"c":123456789012345678901234567890}]`,
		`{"a":[{"b":1},{"b":2}],"c":{"d":[]},"e":{}}` + "\n" + `{"a":{"b":3}}`,
		"[{\"a\":1},\n{\"a\":2},\n{\"a\": tru},{\"a\":3}]",
		"{\"a\":1}\n{\"a\":2,}\n{\"a\":3,\"b\":{\"c\":[1,2,}}\n{\"a\":4}\n",
		`{"a":"` + strings.Repeat("x", MaxDocumentBytes) + `"}` + "\n" + `{"a":1}`,
		`{"a":[` + strings.Repeat(`"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",`, 60000) + `1]}` + "\n" + `{"a":2}`,
		strings.Repeat(`{"a":`, 129) + "1" + strings.Repeat("}", 129) + "\n" + `{"a":1}`,
		strings.Repeat(`{"a":`, 1300) + "1",
		`{"Documents":[{"id":"1","k":{"x":1}},{"id":"2","k":{"x":2}}],"_count":2}`,
	} {
		checkProjection(t, []byte(in))
	}
	files, _ := filepath.Glob("../../testdata/hostile/*")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil && !strings.HasSuffix(name, ".md") && len(b) < 1<<20 {
			t.Run(filepath.Base(name), func(t *testing.T) { checkProjection(t, b) })
		}
	}
}

// FuzzProject: a projection never changes what is read, only what is built.
func FuzzProject(f *testing.F) {
	f.Add([]byte(`{"id":"1","customer":{"id":"c1","name":"x"},"tags":["a","b"],"n":1.50}`))
	f.Add([]byte(`{"a":1,"b":2,"a":3}` + "\n" + `{"x":{"y":1,"y":2},"a":0}`))
	f.Add([]byte(`{"_id":{"$oid":"5f1b"},"x":{"$numberLong":"NaN"},"y":{"a":{"$date":1}}}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > 1<<16 {
			return
		}
		checkProjection(t, in)
	})
}
