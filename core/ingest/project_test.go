package ingest

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/pkcalc/pkcalc/core/jsontree"
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
	return readProjectedBy(t, NewReader(src), paths, each)
}

func readProjectedBy(t *testing.T, r *Reader, paths [][]string, each func(i int, d *Document)) projectedRead {
	t.Helper()
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
	var walk func(v *jsontree.Value, prefix []string)
	walk = func(v *jsontree.Value, prefix []string) {
		for i := range v.Members {
			if len(out) >= limit {
				return
			}
			p := append(slices.Clone(prefix), v.Members[i].Key)
			if k := strings.Join(p, "\x00"); !seen[k] {
				seen[k] = true
				out = append(out, p)
			}
			if v.Members[i].Value.Kind == jsontree.Object {
				walk(&v.Members[i].Value, p)
			}
		}
	}
	for _, d := range docs {
		walk(&d.Root, nil)
	}
	return out
}

func lookupPath(v *jsontree.Value, path []string) *jsontree.Value {
	for _, name := range path {
		if v.Kind != jsontree.Object {
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
		checkQuick(t, in, paths)
	}
	checkQuick(t, in, nil) // whole documents
}

// checkQuick reads in under a projection with quick reading and without,
// and checks that every document, with all it holds, and every problem is
// the same.
func checkQuick(t *testing.T, in []byte, paths [][]string) {
	t.Helper()
	var quick, careful []string
	record := func(out *[]string) func(int, *Document) {
		return func(_ int, d *Document) {
			*out = append(*out, fmt.Sprintf("%d %d %d %d %d %#v", d.Index, d.Line, d.Offset, d.Bytes, len(d.Notes), d.Root))
		}
	}
	q := readProjectedBy(t, NewReader(bytes.NewReader(in)), paths, record(&quick))
	slow := NewReader(bytes.NewReader(in))
	slow.careful = true
	c := readProjectedBy(t, slow, paths, record(&careful))
	if a, b := strings.Join(c.events, "\n"), strings.Join(q.events, "\n"); a != b {
		t.Fatalf("quick reading under %q changes the read:\ncareful:\n%s\nquick:\n%s", paths, a, b)
	}
	for i := range careful {
		if careful[i] != quick[i] {
			t.Fatalf("quick reading under %q changes document %d:\ncareful: %s\n  quick: %s", paths, i+1, careful[i], quick[i])
		}
	}
}

func show(v *jsontree.Value) string {
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
	// Plain documents, read quickly: mutations explore where quick reading
	// must give up.
	f.Add([]byte(`{"id":"1","n":2.50,"x":[{"a":1,"b":[true,null]},{}],"c":{"id":"c1","z":[]}}` + "\n" +
		`{"id":"2","n":-0,"x":[],"c":{"id":"ü"},"e":{}}` + "\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > 1<<16 {
			return
		}
		checkProjection(t, in)
	})
}

// TestQuick: plain documents are read quickly, others carefully, and both
// ways read the same.
func TestQuick(t *testing.T) {
	paths := [][]string{{"id"}, {"n"}, {"c", "id"}, {"t"}}
	for _, c := range []struct {
		doc   string
		quick bool
	}{
		{`{"id":"1","n":2,"x":[{"a":1},{"b":[true,false,null]}],"t":"2025-01-01T00:00:00Z"}`, true},
		{`{ "id" : "1" ,	"n" : 1.50 , "c" : { "id" : -0 , "z" : {} } , "e" : [ ] , "o" : { } }`, true},
		{`{"id":"naïve ☃","n":123456789012345678901,"x":"日本"}`, true},
		{`{"id":null,"n":true,"c":"not an object","x":1e5,"y":-12.5E-3}`, true},
		{`{}`, true},
		{`{"id":"1","x":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11}}`, true},
		{`{"id":"1","n":2,"id":"3"}`, false},                      // duplicate name
		{`{"x":[{"a":1,"a":2}]}`, false},                          // duplicate in a skipped object
		{`{"id":"a\"b"}`, false},                                  // escape
		{`{"x":"a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00é"}`, true}, // escapes, skipped
		{`{"x":["\ud800"]}`, false},                               // unpaired surrogate, skipped
		{`{"x":"\udc00"}`, false},                                 // unpaired surrogate, skipped
		{`{"x":"\udc00\udc00"}`, false},                           // unpaired surrogate, skipped
		{`{"x":"\ud800`, false},                                   // the input ends in an escape
		{`{"x":"\ud800\u`, false},                                 // the input ends in an escape
		{`{"x":"\ud800\u0041"}`, false},                           // unpaired surrogate, skipped
		{`{"x":"\ud800\ud800\udc00"}`, false},                     // unpaired surrogate, skipped
		{`{"x":"\q"}`, false},                                     // invalid escape, skipped
		{`{"x":"\u12"}`, false},                                   // invalid escape, skipped
		{`{"x":"\u12G4"}`, false},                                 // invalid escape, skipped
		{"{\"x\":\"\xc3\\u00a9\"}", false},                        // invalid UTF-8 before an escape
		{"{\"x\":\"a\tb\"}", false},                               // control character, skipped
		{`{"id":"` + "\xff" + `"}`, false},                        // invalid UTF-8
		{`{"x":1e999}`, false},                                    // beyond a double
		{`{"n":1e-999}`, false},                                   // too small
		{`{"_id":{"$oid":"5f1b"}}`, false},                        // Extended JSON
		{`{"x":{"$date":1}}`, false},                              // Extended JSON, skipped
		{`{"c":{"id":"1"},"n":[1]}`, false},                       // a projected array
		{`{"id":{"a":1}}`, false},                                 // a projected object: built whole
		{"{\"id\":\"1\",\n\"n\":2}", true},                        // lines are counted
		{"{\r\n  \"id\": \"1\",\r\n  \"x\": [\r\n    1\r\n  ]\r\n}", true},
		{`{"id":"1","n":2,}`, false},  // a syntax error
		{`{"x":{]}`, false},           // a syntax error, skipped
		{`{"x":[}]}`, false},          // a syntax error, skipped
		{`{"x":[1,]}`, false},         // a syntax error, skipped
		{`{"x":{"a":1,}}`, false},     // a syntax error, skipped
		{`{"x":{"a" 1}}`, false},      // a syntax error, skipped
		{`{"id":"1","n":tru}`, false}, // a syntax error
		{`{"id":"1","n":2`, false},    // the input ends
		{`{"id":"1","n":12`, false},   // a number at the end
		{`{"x":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`, false}, // deep
		{`{"x":"` + strings.Repeat("y", 1<<17) + `"}`, false},                      // past the buffer
	} {
		r := NewReader(strings.NewReader(c.doc))
		r.Project(paths)
		r.peek() // as step does: the buffer holds what there is, up to its size
		r.docs = 1
		r.startDoc()
		d := r.quickDocument(r.docStart, r.line)
		if (d != nil) != c.quick {
			t.Errorf("%.60s: read quickly %v, want %v", c.doc, d != nil, c.quick)
		}
		if d == nil && (r.pos != 0 || len(r.arena) != 0 || len(r.members) != 0) {
			t.Errorf("%.60s: a document not read quickly left position %d, %d members", c.doc, r.pos, len(r.arena)+len(r.members))
		}
		in := []byte(c.doc + "\n" + c.doc)
		checkQuick(t, in, paths)
		checkQuick(t, append([]byte("["), append(bytes.ReplaceAll(in, []byte("\n"), []byte(",")), ']')...), paths)
	}
	// Documents that repeat the names of the one before, or most of them.
	checkQuick(t, []byte(`{"id":"1","n":2,"x":3}
{"id":"2","n":3,"x":4}
{"id":"3","n":4,"x":5,"id":6}
{"id":"4","n":5,"x":6}
{"id":"5","x":6,"n":7}
{"id" "n":2,"x":3}
{"id":"6","n":7,"x":8}
{"id":"7", "n" :8,"x":9}
{"id":"8","n":9}
{"id":"9","n":10,"x":11,"y":12}
{"id":"10","n":11,"x":12,"n":13}
{"id":"11","n":12,"x":13}
{"id":"12","n":13,"x"}
{"id":"13","n":14,"x":15}
{"n":1,"id":"14","n":3}
{"id":"15","n":14,"x":15}
`), paths)
	// Many bufferfuls: documents that run past the buffer's end are read
	// carefully, and the ones after them quickly again.
	var many bytes.Buffer
	for i := range 5000 {
		fmt.Fprintf(&many, `{"id":"doc-%d","n":%d.5,"x":[{"a":%d}],"c":{"id":%d,"pad":"%s"}}`+"\n", i, i, i, i%7, strings.Repeat("p", i%97))
	}
	checkQuick(t, many.Bytes(), paths)
}

// TestQuickReproject: a new projection applies from the next document.
func TestQuickReproject(t *testing.T) {
	in := strings.Repeat(`{"id":"1","n":2,"c":{"id":3}}`+"\n", 3)
	read := func(careful bool) []string {
		r := NewReader(strings.NewReader(in))
		r.careful = careful
		var out []string
		for i, paths := range [][][]string{{{"id"}}, {{"n"}, {"c", "id"}}, {{"id"}, {"n"}}} {
			r.Project(paths)
			d, err := r.Next()
			if err != nil {
				t.Fatalf("document %d: %v", i+1, err)
			}
			out = append(out, fmt.Sprintf("%#v", d.Root))
		}
		return out
	}
	if q, c := read(false), read(true); !slices.Equal(q, c) {
		t.Errorf("quick reading under new projections reads\n%q\ncarefully\n%q", q, c)
	}
}

// TestQuickRandom reads random documents, some plain and some damaged a
// byte at a time, both ways.
func TestQuickRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	atoms := []string{`"id"`, `"n"`, `"c"`, `"t"`, `"x"`, `"y"`, `"$d"`, `"a\"b"`, `"é"`, `1`, `-0`, `2.50`, `1e5`, `1e999`,
		`true`, `false`, `null`, `""`, `"v"`, `"\u0041"`, `"` + "\xff" + `"`, `[]`, `{}`, `"\ud83d\ude00"`, `"\ud800"`, `"x\ny"`, `"\u00e9"`, `"\/"`}
	var value func(depth int) string
	value = func(depth int) string {
		switch k := rng.IntN(8); {
		case k < 5 || depth > 4:
			return atoms[9+rng.IntN(len(atoms)-9)]
		case k < 7:
			var b strings.Builder
			b.WriteByte('{')
			for i := range rng.IntN(4) {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(atoms[rng.IntN(9)] + ":" + value(depth+1))
			}
			b.WriteByte('}')
			return b.String()
		default:
			parts := make([]string, rng.IntN(4))
			for i := range parts {
				parts[i] = value(depth + 1)
			}
			return "[" + strings.Join(parts, ",") + "]"
		}
	}
	damage := []byte{'{', '}', '[', ']', ',', ':', '"', '\\', ' ', '\n', '1', 'e', 0}
	// In inputs of 50 documents: a Reader stops after 100 errors.
	for range 400 {
		quickRandomInput(t, rng, value, damage)
	}
}

func quickRandomInput(t *testing.T, rng *rand.Rand, value func(int) string, damage []byte) {
	t.Helper()
	var in []byte
	for range 50 {
		doc := []byte(`{"x":` + value(1) + `,"id":` + value(3) + "}")
		if rng.IntN(2) == 0 {
			// Mostly where it breaks the structure: a bracket, comma,
			// colon or quote.
			at := rng.IntN(len(doc))
			for range 8 {
				if strings.IndexByte(`{}[],:"`, doc[at]) >= 0 {
					break
				}
				at = rng.IntN(len(doc))
			}
			doc[at] = damage[rng.IntN(len(damage))]
		}
		in = append(append(in, doc...), '\n')
	}
	for _, paths := range [][][]string{{{"id"}, {"n"}, {"c", "id"}, {"t"}}, {{"x"}, {"y", "x"}}, {{"é"}, {"id"}}, nil} {
		checkQuick(t, in, paths)
	}
}

// TestQuickWhole: with no projection, plain documents are read quickly
// whole, escapes and all, and others carefully; both ways read the same.
func TestQuickWhole(t *testing.T) {
	for _, c := range []struct {
		doc   string
		quick bool
	}{
		{`{"id":"1","n":2,"x":[{"a":1},{"b":[true,false,null]}],"t":"2025-01-01T00:00:00Z"}`, true},
		{`{ "id" : "1" ,	"n" : 1.50 , "c" : { "id" : -0 , "z" : {} } , "e" : [ ] , "o" : { } }`, true},
		{`{"id":"naïve ☃","n":123456789012345678901,"x":["日本", 1, [], [[2]]]}`, true},
		{`{}`, true},
		{`{"x":"a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00é"}`, true}, // escapes, decoded
		{`{"x":["\u0000", "\uFFFF", "é\n"]}`, true},
		{`{"id":"a\"b"}`, true},
		{`{"a\"b":1}`, false},                  // an escaped name
		{`{"id":"1","n":2,"id":"3"}`, false},   // duplicate name
		{`{"x":[{"a":1,"a":2}]}`, false},       // duplicate, nested
		{`{"x":["\ud800"]}`, false},            // unpaired surrogate
		{`{"x":"\ud800\u0041"}`, false},        // unpaired surrogate
		{`{"x":"\q"}`, false},                  // invalid escape
		{"{\"x\":\"\xc3\\u00a9\"}", false},     // invalid UTF-8 before an escape
		{"{\"x\":\"a\\n\xff\"}", false},        // invalid UTF-8 after one
		{"{\"x\":\"a\\nb\tc\"}", false},        // control character
		{`{"x":1e999}`, false},                 // beyond a double
		{`{"_id":{"$oid":"5f1b"}}`, false},     // Extended JSON
		{`{"x":[{"$date":1}]}`, false},         // Extended JSON, nested
		{"{\"id\":\"1\",\n\"n\":[\n2]}", true}, // lines are counted
		{"{\r\n  \"id\": \"1\",\r\n  \"x\": [\r\n    1\r\n  ]\r\n}", true},
		{`{"x":[1,]}`, false},                                                      // a syntax error
		{`{"x":[1 2]}`, false},                                                     // a syntax error
		{`{"x":[1`, false},                                                         // the input ends
		{`{"x":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`, false}, // deep
		{`{"x":"` + strings.Repeat("y\\n", 1<<16) + `"}`, false},                   // past the buffer
	} {
		r := NewReader(strings.NewReader(c.doc))
		r.peek()
		r.docs = 1
		r.startDoc()
		d := r.quickDocument(r.docStart, r.line)
		if (d != nil) != c.quick {
			t.Errorf("%.60s: read quickly %v, want %v", c.doc, d != nil, c.quick)
		}
		if d == nil && (r.pos != 0 || len(r.members) != 0 || len(r.elems) != 0) {
			t.Errorf("%.60s: a document not read quickly left position %d, %d members, %d elements", c.doc, r.pos, len(r.members), len(r.elems))
		}
		in := []byte(c.doc + "\n" + c.doc)
		checkQuick(t, in, nil)
		checkQuick(t, append([]byte("["), append(bytes.ReplaceAll(in, []byte("\n"), []byte(",")), ']')...), nil)
	}
}
