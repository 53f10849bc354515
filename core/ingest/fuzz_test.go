package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"time"
	"unicode/utf8"

	"github.com/pkcalc/pkcalc/core/jsontree"
)

// fuzzRead is what a Reader made of one input: every document and error in
// order, as text, with the checks every document and error must pass.
type fuzzRead struct {
	events []string
	docs   []*Document
	errs   []*Error
	format string
}

func readFuzz(t *testing.T, in []byte, src io.Reader, set ...func(*Reader)) fuzzRead {
	t.Helper()
	r := NewReader(src)
	for _, f := range set {
		f(r)
	}
	var out fuzzRead
	// Every document or error consumes input, and the Reader stops after
	// maxErrors errors: more calls than this means it does not end.
	limit := 3*len(in) + maxErrors + 10
	for i := 0; ; i++ {
		if i > limit {
			t.Fatalf("Next did not reach io.EOF after %d calls on %d bytes", i, len(in))
		}
		d, err := r.Next()
		if err == io.EOF {
			if d != nil {
				t.Fatalf("a document with io.EOF: %+v", d)
			}
			break
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Next returned %T %v, not an *Error", err, err)
			}
			if d != nil {
				t.Fatalf("a document with an error: %v", err)
			}
			checkProblem(t, in, "error", e)
			if e.Msg == "" {
				t.Fatalf("an error without a message: %+v", e)
			}
			out.errs = append(out.errs, e)
			out.events = append(out.events, fmt.Sprintf("error %s offset=%d skipped=%v", e.Error(), e.Offset, e.Skipped))
			continue
		}
		if d == nil {
			t.Fatal("Next returned neither a document nor an error")
		}
		if d.Root.Kind != jsontree.Object {
			t.Fatalf("document %d is %s, not an object: %s", d.Index, d.Root.Kind, d.Root.JSON())
		}
		if d.Bytes <= 0 || d.Bytes > MaxDocumentBytes {
			t.Fatalf("document %d has Bytes %d", d.Index, d.Bytes)
		}
		if d.Index < 1 || d.Line < 1 || d.Offset < 0 || d.Offset > int64(len(in)) {
			t.Fatalf("document at index %d line %d offset %d in %d bytes", d.Index, d.Line, d.Offset, len(in))
		}
		text := d.Root.JSON()
		if !json.Valid([]byte(text)) {
			t.Fatalf("document %d prints as invalid JSON: %s", d.Index, text)
		}
		if !utf8.ValidString(text) {
			t.Fatalf("document %d prints as invalid UTF-8: %q", d.Index, text)
		}
		if n := d.Root.CompactLen(); n != len(text) {
			t.Fatalf("compactLen %d, JSON text %d bytes: %s", n, len(text), text)
		}
		ev := fmt.Sprintf("document %d line %d offset %d bytes %d %s", d.Index, d.Line, d.Offset, d.Bytes, text)
		for _, n := range d.Notes {
			checkProblem(t, in, "note", n)
			ev += "\n  note " + n.Error()
		}
		out.docs = append(out.docs, d)
		out.events = append(out.events, ev)
	}
	out.format = r.Format()
	return out
}

// checkProblem checks that a problem is positioned: line and column from
// 1, at its offset.
func checkProblem(t *testing.T, in []byte, what string, e *Error) {
	t.Helper()
	if e.Line < 1 || e.Column < 1 {
		t.Fatalf("%s at line %d, column %d: %v", what, e.Line, e.Column, e)
	}
	checkPosition(t, in, what+" "+e.Error(), e.Line, e.Column, e.Offset)
}

// plain turns a Value into what encoding/json decodes the same JSON to.
func plain(v *jsontree.Value) any {
	switch v.Kind {
	case jsontree.Bool:
		return v.Bool
	case jsontree.Number:
		return v.Num
	case jsontree.String:
		return v.Str
	case jsontree.Object:
		m := make(map[string]any, len(v.Members))
		for i := range v.Members {
			m[v.Members[i].Key] = plain(&v.Members[i].Value)
		}
		return m
	case jsontree.Array:
		a := make([]any, len(v.Elems))
		for i := range v.Elems {
			a[i] = plain(&v.Elems[i])
		}
		return a
	}
	return nil
}

func depthOf(v any) int {
	d := 0
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			d = max(d, depthOf(e))
		}
		return d + 1
	case []any:
		for _, e := range v {
			d = max(d, depthOf(e))
		}
		return d + 1
	}
	return 0
}

// reference decodes in with encoding/json when it is plain, valid JSON that
// the Reader must read without a problem and give back value for value: a
// JSON array of objects, or objects one after another where the first has
// no array property (so it cannot be a wrapper). ok is false otherwise.
func reference(in []byte) (docs []any, ok bool) {
	if !utf8.Valid(in) || bytes.Contains(in, []byte(`"$`)) || bytes.Contains(in, []byte(`\u0024`)) {
		return nil, false // Extended JSON is rewritten; invalid UTF-8 is replaced per run, not per byte
	}
	dec := json.NewDecoder(bytes.NewReader(in))
	var values []any
	for {
		var v any
		err := dec.Decode(&v)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, false
		}
		values = append(values, v)
	}
	if len(values) == 1 {
		if a, isArray := values[0].([]any); isArray {
			values = a
		} else if m, isObject := values[0].(map[string]any); isObject {
			for _, e := range m {
				if _, isArray := e.([]any); isArray {
					return nil, false
				}
			}
		}
	} else if len(values) > 1 {
		if m, isObject := values[0].(map[string]any); isObject {
			for _, e := range m {
				if _, isArray := e.([]any); isArray {
					return nil, false
				}
			}
		}
	}
	for _, v := range values {
		if _, isObject := v.(map[string]any); !isObject || depthOf(v) > MaxDepth {
			return nil, false
		}
	}
	return values, true
}

// FuzzReader: any bytes read to the end without a panic or a hang; every
// problem is positioned (line and column from 1, matching its offset);
// every document is an object of a valid size that prints as valid JSON;
// reading one byte at a time gives the same documents and problems; and
// where encoding/json reads the input as documents, the Reader gives the
// same values without a problem.
func FuzzReader(f *testing.F) {
	for _, s := range []string{
		"",
		" \n\t\r\n",
		`[{"a":1},{"a":2}]`,
		"{\"a\":1}\n{\"a\":2}\r\n{\"a\":3}",
		`{"a":1}{"a":2} {"a":3}`,
		`{"_rid":"x","Documents":[{"id":"1"},{"id":"2"}],"_count":2}`,
		`{"orders":[{"id":1},{"id":2}]}`,
		`{"Documents":[],"_count":0}`,
		"\xEF\xBB\xBF[{\"a\":1}]",
		"{\"a\":1}\n{\"a\":\xEF\xBB\xBF2}",
		`{"_id":{"$oid":"5f1b"},"n":{"$numberLong":"9007199254740993"},"d":{"$date":{"$numberLong":"1709294400000"}}}`,
		`{"a":{"$numberDecimal":"+1"},"b":{"$numberInt":".5"}}`,
		`{"$oid":"x"}`,
		`[{"$oid":"x"},{"a":1}]`,
		`{"a":"\ud800\ud83d\ude00","b":"\udc00","c":"\ud800x"}`,
		"{\"a\":\"x\xffy\"}",
		`{"a":1,"b":2,"a":3}`,
		`{"a":NaN}` + "\n" + `{"a":Infinity}` + "\n" + `{"a":-Infinity}`,
		`{"a":1e999,"b":-1e999,"c":123456789012345678901234567890}`,
		"[{\"a\":1},\n{\"a\":2},\n{\"a\": tru}]",
		"{\"a\":1}\n{\"a\":2,}\n{\"a\":3}\n",
		"[{\"a\":1},{\"a\":2},{\"a\":",
		"[{\"a\":1}, 42, \"x\", {\"a\":2}]",
		"[{\"a\":\"x\ny\"}]",
		`{"a":012}`, `{"a":"\x"}`, `{a:1}`, `{'a':'b'}`, `[{"a":1},]`,
		"{\"a\":1} // comment\n{\"a\":2}",
		"[{\"a\":1}] x",
		"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
		"\x1f\x8b\x08\x00\x00\x00\x00\x00",
		"{\"a\":\"\x00\"}\x00",
		"[]", "[[]]", "{}", "1", `"x"`, "null", "true",
		strings.Repeat("[", 130) + strings.Repeat("]", 130),
		strings.Repeat(`{"a":`, 129) + "1" + strings.Repeat("}", 129),
		strings.Repeat(`{"a":`, 1300) + "1",
		`{"a":"\u00`, `{"a":"\ud800\u`, `{"a":-`, `{"a":1.`, `{"a":1e`, `{"a":1.5e+`,
	} {
		f.Add([]byte(s))
	}
	// The shared corpus of hostile inputs.
	files, _ := filepath.Glob("../../testdata/hostile/*")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil && !strings.HasSuffix(name, ".md") && len(b) < 64<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		// A Reader that loops inside Next is caught here: the fuzzing engine
		// does not time inputs out by itself.
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				buf := make([]byte, 1<<16)
				panic(fmt.Sprintf("reading %d bytes took over 10 s: %q\n%s", len(in), in[:min(len(in), 200)], buf[:runtime.Stack(buf, true)]))
			}
		}()
		whole := readFuzz(t, in, bytes.NewReader(in))
		one := readFuzz(t, in, iotest.OneByteReader(bytes.NewReader(in)))
		if a, b := strings.Join(whole.events, "\n"), strings.Join(one.events, "\n"); a != b || whole.format != one.format {
			t.Fatalf("read whole (%s):\n%s\none byte at a time (%s):\n%s", whole.format, a, one.format, b)
		}
		pages := func(r *Reader) { r.SetPages(true) }
		paged := readFuzz(t, in, bytes.NewReader(in), pages)
		onePaged := readFuzz(t, in, iotest.OneByteReader(bytes.NewReader(in)), pages)
		if a, b := strings.Join(paged.events, "\n"), strings.Join(onePaged.events, "\n"); a != b {
			t.Fatalf("with SetPages, read whole:\n%s\none byte at a time:\n%s", a, b)
		}
		want, ok := reference(in)
		if !ok {
			return
		}
		if len(whole.errs) > 0 {
			t.Fatalf("encoding/json reads %d documents; the Reader says %v", len(want), whole.errs[0])
		}
		if len(whole.docs) != len(want) {
			t.Fatalf("encoding/json reads %d documents, the Reader %d", len(want), len(whole.docs))
		}
		for i, d := range whole.docs {
			if got := plain(&d.Root); !reflect.DeepEqual(got, want[i]) {
				t.Fatalf("document %d:\n got %#v\nwant %#v", i+1, got, want[i])
			}
		}
	})
}

// TestFuzzRegressions keeps what fuzzing and the hostile corpus found
// wrong with the Reader, each with its fix.
func TestFuzzRegressions(t *testing.T) {
	read := func(t *testing.T, in string) fuzzRead {
		t.Helper()
		whole := readFuzz(t, []byte(in), strings.NewReader(in))
		one := readFuzz(t, []byte(in), iotest.OneByteReader(strings.NewReader(in)))
		if a, b := strings.Join(whole.events, "\n"), strings.Join(one.events, "\n"); a != b {
			t.Fatalf("read whole:\n%s\none byte at a time:\n%s", a, b)
		}
		return whole
	}
	docs := func(r fuzzRead) string {
		var out []string
		for _, d := range r.docs {
			out = append(out, d.Root.JSON())
		}
		return strings.Join(out, "\n")
	}
	t.Run("surrogate after an unpaired surrogate", func(t *testing.T) {
		// The second escape was dropped, and with it the emoji it began.
		r := read(t, `{"a":"\ud800\ud83d\ude00","b":"\udc00\ud800\udc00","c":"\ud800\ud800"}`)
		if got, want := docs(r), "{\"a\":\"\uFFFD😀\",\"b\":\"\uFFFD𐀀\",\"c\":\"\uFFFD\uFFFD\"}"; got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
		if n := len(r.docs[0].Notes); n != 4 {
			t.Errorf("%d notes, want one per unpaired surrogate: %v", n, r.docs[0].Notes)
		}
	})
	t.Run("extended json root", func(t *testing.T) {
		// A document that is one $-property was turned into a string: a
		// single object became a document that is not an object, and in an
		// array it was skipped as "an object is not a document".
		for _, in := range []string{`{"$oid":"x"}`, `[{"$oid":"x"},{"$date":{"$numberLong":"0"}}]`, "{\"$numberInt\":\"1\"}\n{\"$oid\":\"y\"}"} {
			r := read(t, in)
			if len(r.errs) != 0 {
				t.Errorf("%s: %v", in, r.errs)
			}
			for _, d := range r.docs {
				if d.Root.Kind != jsontree.Object || len(d.Root.Members) != 1 || d.Root.Members[0].Key[0] != '$' {
					t.Errorf("%s: document %s", in, d.Root.JSON())
				}
			}
		}
		// Inside a document, the wrappers still stand for their values.
		if got := docs(read(t, `{"_id":{"$oid":"x"},"n":{"$numberInt":"1"}}`)); got != `{"_id":"x","n":1}` {
			t.Errorf("nested: %s", got)
		}
	})
	t.Run("extended json numbers JSON cannot spell", func(t *testing.T) {
		// "+1" and ".5" were kept as the literal, so the document printed
		// as invalid JSON and the report could not be encoded.
		r := read(t, `{"a":{"$numberDecimal":"+1"},"b":{"$numberInt":".5"},"c":{"$numberDouble":"1."},"d":{"$numberLong":"007"},"e":{"$numberDecimal":"12.50"}}`)
		if got, want := docs(r), `{"a":1,"b":0.5,"c":1,"d":7,"e":12.50}`; got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	})
	t.Run("-Infinity", func(t *testing.T) {
		r := read(t, "{\"a\":1}\n{\"a\":-Infinity}\n{\"a\":2}")
		if len(r.errs) != 1 || r.errs[0].Error() != "line 2, column 6 (document 2): -Infinity is not valid JSON: numbers must be finite; write null instead" {
			t.Errorf("errors %v", r.errs)
		}
		if len(r.docs) != 2 {
			t.Errorf("%d documents", len(r.docs))
		}
	})
	t.Run("long text in messages", func(t *testing.T) {
		// A message named a megabyte-long property name or number in full.
		long := strings.Repeat("k", 100000)
		r := read(t, `{"`+long+`" 1}`+"\n"+`{"n":1`+strings.Repeat("0", 5000)+`,"`+long+`":1,"`+long+`":2}`)
		if len(r.errs) != 1 || r.errs[0].Msg != `expected ':' after property name "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk…" (100000 bytes), found '1'` {
			t.Errorf("errors %v", r.errs)
		}
		if len(r.docs) != 1 || len(r.docs[0].Notes) != 2 {
			t.Fatalf("documents %d", len(r.docs))
		}
		for _, n := range r.docs[0].Notes {
			if len(n.Msg) > 200 {
				t.Errorf("note of %d bytes: %.100s", len(n.Msg), n.Msg)
			}
		}
		if got := r.docs[0].Notes[0].Msg; !strings.HasPrefix(got, "number 1000000000000000000000000000000000000000… (5001 bytes) is beyond") {
			t.Errorf("note %q", got)
		}
		if got := quoteClip("a" + strings.Repeat("é", 30)); got != `"a`+strings.Repeat("é", 19)+`…" (61 bytes)` {
			t.Errorf("quoteClip cuts inside a character: %s", got)
		}
	})
}

// TestNotePositions: a note points at the start of the number or string it
// is about (it pointed past its end), and a number too small for a double
// is noted as the one too large is.
func TestNotePositions(t *testing.T) {
	in := "{\"id\":\"1\",\n  \"a\": 1e400, \"b\": 1e-400, \"c\": 0.0e-999, \"d\": \"x\xffy\", \"e\": \"ok \\ud800\"}"
	r := readFuzz(t, []byte(in), strings.NewReader(in))
	if len(r.docs) != 1 {
		t.Fatalf("%d documents, errors %v", len(r.docs), r.errs)
	}
	var got []string
	for _, n := range r.docs[0].Notes {
		got = append(got, n.Error())
	}
	want := []string{
		"line 2, column 8 (document 1): number 1e400 is beyond the range of a double, which Cosmos DB uses for every number",
		"line 2, column 20 (document 1): number 1e-400 is too small for a double, which Cosmos DB uses for every number: it reads as 0",
		"line 2, column 48 (document 1): a string that is not valid UTF-8; the bad bytes read as U+FFFD",
		"line 2, column 64 (document 1): a \\u escape with an unpaired surrogate; it reads as U+FFFD",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
