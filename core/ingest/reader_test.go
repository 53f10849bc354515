package ingest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/internal/shared"
)

type result struct {
	docs   []*Document
	errs   []*Error
	format string
}

// readAll reads src to io.EOF; set sets the reader's options.
func readAll(t *testing.T, src io.Reader, set ...func(*Reader)) result {
	t.Helper()
	r := NewReader(src)
	for _, f := range set {
		f(r)
	}
	var res result
	for i := 0; ; i++ {
		if i > 1e6 {
			t.Fatal("Next did not reach io.EOF")
		}
		d, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Next: %v", err)
			}
			res.errs = append(res.errs, e)
			continue
		}
		res.docs = append(res.docs, d)
	}
	res.format = r.Format()
	return res
}

// texts returns each document as compact JSON.
func (r result) texts() []string {
	var out []string
	for _, d := range r.docs {
		out = append(out, d.Root.JSON())
	}
	return out
}

func TestFormats(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		format string
		want   []string
	}{
		{"array", `[{"a":1},{"a":2}]`, "JSON array", []string{`{"a":1}`, `{"a":2}`}},
		{"empty array", `[]`, "JSON array", nil},
		{"array with spaces", " [ {\"a\" : 1} ,\n {\"a\":2} ] \n", "JSON array", []string{`{"a":1}`, `{"a":2}`}},
		{"json lines", "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n", "JSON Lines", []string{`{"a":1}`, `{"a":2}`, `{"a":3}`}},
		{"json lines crlf", "{\"a\":1}\r\n{\"a\":2}\r\n", "JSON Lines", []string{`{"a":1}`, `{"a":2}`}},
		{"json lines blank lines", "\n{\"a\":1}\n\n\n{\"a\":2}", "JSON Lines", []string{`{"a":1}`, `{"a":2}`}},
		{"concatenated", `{"a":1}{"a":2} {"a":3}`, "concatenated JSON", []string{`{"a":1}`, `{"a":2}`, `{"a":3}`}},
		{"object then array", "{\"a\":1}\n[{\"a\":2},{\"a\":3}]\n", "JSON Lines", []string{`{"a":1}`, `{"a":2}`, `{"a":3}`}},
		{"arrays one after another", `[{"a":1}][{"a":2}]`, "JSON array", []string{`{"a":1}`, `{"a":2}`}},
		{"concatenated pretty", "{\n  \"a\": 1\n}\n{\n  \"a\": 2\n}", "JSON Lines", []string{`{"a":1}`, `{"a":2}`}},
		{"single object", `{"id":"1","items":[{"sku":"x"}]}`, "single object", []string{`{"id":"1","items":[{"sku":"x"}]}`}},
		{"single object without id", `{"orderId":1,"items":[{"sku":"x"}]}`, "single object", []string{`{"orderId":1,"items":[{"sku":"x"}]}`}},
		{"bom", "\xEF\xBB\xBF[{\"a\":1}]", "JSON array", []string{`{"a":1}`}},
		{"bom json lines", "\xEF\xBB\xBF{\"a\":1}\n{\"a\":2}", "JSON Lines", []string{`{"a":1}`, `{"a":2}`}},
		{"cosmos rest wrapper", `{"_rid":"AbCd==","Documents":[{"id":"1"},{"id":"2"}],"_count":2}`, `documents in the "Documents" property`, []string{`{"id":"1"}`, `{"id":"2"}`}},
		{"twitter wrapper", `{"statuses":[{"id":1},{"id":2}],"search_metadata":{"count":2}}`, `documents in the "statuses" property`, []string{`{"id":1}`, `{"id":2}`}},
		{"wrapper after metadata", `{"count":2,"results":[{"id":1},{"id":2}],"next":null}`, `documents in the "results" property`, []string{`{"id":1}`, `{"id":2}`}},
		{"unknown wrapper key", `{"_rid":"x","orders":[{"id":1},{"id":2}]}`, `documents in the "orders" property`, []string{`{"id":1}`, `{"id":2}`}},
		{"empty wrapper", `{"Documents":[],"_count":0}`, `documents in the "Documents" property`, nil},
		{"unicode", `{"name":"Zoë \u00e9\ud83d\ude00","k":"a\"b\\c\/d\n"}`, "single object", []string{`{"name":"Zoë é😀","k":"a\"b\\c/d\n"}`}},
		{"numbers", `{"a":0,"b":-1.5e3,"c":1E-2,"d":123456789012345678901234567890}`, "single object", []string{`{"a":0,"b":-1.5e3,"c":1E-2,"d":123456789012345678901234567890}`}},
		{"literals", `{"t":true,"f":false,"n":null,"e":{},"arr":[]}`, "single object", []string{`{"t":true,"f":false,"n":null,"e":{},"arr":[]}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, src := range []struct {
				name string
				r    io.Reader
			}{{"whole", strings.NewReader(tt.in)}, {"one byte at a time", iotest.OneByteReader(strings.NewReader(tt.in))}} {
				res := readAll(t, src.r)
				if len(res.errs) > 0 {
					t.Fatalf("%s: unexpected errors: %v", src.name, res.errs)
				}
				if res.format != tt.format && !(tt.want == nil && res.format == "empty") {
					t.Errorf("%s: format %q, want %q", src.name, res.format, tt.format)
				}
				if got := res.texts(); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
					t.Errorf("%s: documents\n%s\nwant\n%s", src.name, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
				}
				for i, d := range res.docs {
					if d.Index != i+1 {
						t.Errorf("%s: document %d has Index %d", src.name, i+1, d.Index)
					}
				}
			}
		})
	}
}

func TestExtendedJSON(t *testing.T) {
	in := `{"_id":{"$oid":"5f1b2c3d4e5f6a7b8c9d0e1f"},` +
		`"at":{"$date":"2024-03-01T12:00:00Z"},` +
		`"atMillis":{"$date":{"$numberLong":"1709294400000"}},` +
		`"n64":{"$numberLong":"9007199254740993"},` +
		`"n32":{"$numberInt":"42"},` +
		`"d":{"$numberDouble":"1.5"},` +
		`"dec":{"$numberDecimal":"12.50"},` +
		`"nan":{"$numberDouble":"NaN"},` +
		`"notext":{"$oid":1,"x":2}}`
	res := readAll(t, strings.NewReader(in))
	if len(res.errs) > 0 || len(res.docs) != 1 {
		t.Fatalf("docs %d errs %v", len(res.docs), res.errs)
	}
	want := `{"_id":"5f1b2c3d4e5f6a7b8c9d0e1f","at":"2024-03-01T12:00:00Z","atMillis":"2024-03-01T12:00:00.000Z",` +
		`"n64":9007199254740993,"n32":42,"d":1.5,"dec":12.50,"nan":"NaN","notext":{"$oid":1,"x":2}}`
	if got := res.docs[0].Root.JSON(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	v, _ := res.docs[0].Root.Get("n32")
	if v.Kind != jsontree.Number || v.Num != 42 {
		t.Errorf("$numberInt: %+v", v)
	}
	if len(res.docs[0].Notes) != 1 || !strings.Contains(res.docs[0].Notes[0].Msg, `"NaN" is not a finite number`) {
		t.Errorf("notes: %v", res.docs[0].Notes)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		// The documents kept, then each error as "line:column doc=N message-part".
		want     []string
		errs     []string
		errParts []string
	}{
		{
			name:     "missing comma in array",
			in:       "[\n  {\"a\": 1},\n  {\"a\": 2}\n  {\"a\": 3}\n]",
			want:     []string{`{"a":1}`, `{"a":2}`},
			errs:     []string{"4:3 doc=3"},
			errParts: []string{"a comma is missing between the documents: put ',' before this one"},
		},
		{
			name:     "bad value in third document",
			in:       "[{\"a\":1},\n{\"a\":2},\n{\"a\": tru}]",
			want:     []string{`{"a":1}`, `{"a":2}`},
			errs:     []string{"3:7 doc=3"},
			errParts: []string{`"tru" is not a JSON value`},
		},
		{
			name:     "json lines resumes after a bad line",
			in:       "{\"a\":1}\n{\"a\":2,}\n{\"a\":3}\n",
			want:     []string{`{"a":1}`, `{"a":3}`},
			errs:     []string{"2:8 doc=2"},
			errParts: []string{"a trailing comma before '}': remove the comma after the last property"},
		},
		{
			name:     "json lines unterminated line",
			in:       "{\"a\":1}\n{\"a\":2\n{\"a\":3}\n",
			want:     []string{`{"a":1}`, `{"a":3}`},
			errs:     []string{"3:1 doc=2"},
			errParts: []string{"a new document starts here while document 2, begun on line 2, is still open: is a '}' or ']' missing at the end of line 2?"},
		},
		{
			name:     "json lines line with an open array",
			in:       "{\"a\":1,\"b\":[1,2\n{\"a\":2}\n",
			want:     []string{`{"a":2}`},
			errs:     []string{"2:1 doc=1"},
			errParts: []string{"document 1, begun on line 1, is still open: is a '}' or ']' missing at the end of line 1?"},
		},
		// In an array too, the documents after a bad one are read.
		{
			name:     "array resumes after NaN and Infinity",
			in:       `[{"a":1,"v":1.5},{"a":2,"v":NaN},{"a":3,"v":[2.5]},{"a":4,"v":{"w":-Infinity}},{"a":5}]`,
			want:     []string{`{"a":1,"v":1.5}`, `{"a":3,"v":[2.5]}`, `{"a":5}`},
			errs:     []string{"1:29 doc=2", "1:68 doc=4"},
			errParts: []string{"NaN is not valid JSON", "-Infinity is not valid JSON"},
		},
		{
			name:     "pretty array resumes after a missing value",
			in:       "[\n  {\n    \"a\": 1\n  },\n  {\n    \"a\": \n  },\n  {\n    \"a\": 3\n  }\n]\n",
			want:     []string{`{"a":1}`, `{"a":3}`},
			errs:     []string{"7:3 doc=2"},
			errParts: []string{"expected a JSON value, found '}'"},
		},
		{
			name:     "array resumes after an error inside a string",
			in:       "[{\"s\":\"x\x01, {\\\"q\\\": [1\"},{\"s\":\"bad \\q ]\"},\n{\"a\":3}]",
			want:     []string{`{"a":3}`},
			errs:     []string{"1:9 doc=1", "1:36 doc=2"},
			errParts: []string{"control character U+0001", "invalid escape \\q"},
		},
		{
			name:     "wrapper resumes after a bad document",
			in:       `{"Documents":[{"a":1},{"a":tru},{"a":3}],"_count":3}`,
			want:     []string{`{"a":1}`, `{"a":3}`},
			errs:     []string{"1:28 doc=2"},
			errParts: []string{"is not a JSON value"},
		},
		{
			name:     "array resumes after a value that is no document",
			in:       `[{"a":1}, 5x, "s" {"b":2}, {"a":3}]`,
			want:     []string{`{"a":1}`, `{"a":3}`},
			errs:     []string{"1:11 doc=2", "1:15 doc=3"},
			errParts: []string{"a number is not a document", "a string is not a document"},
		},
		{
			name:     "array with brackets that do not match stops",
			in:       `[{"a":1, {"a":2}, {"a":3}]`,
			errs:     []string{"1:10 doc=1"},
			errParts: []string{"expected a property name in double quotes, found '{'"},
		},
		// Where no ',' or ']' is found after a bad document, the rest is
		// lost: said once documents may be among it.
		{
			name:     "array left open among json lines",
			in:       "{\"a\":1}\n[1,2\n{\"a\":2}\n{\"a\":3}\n",
			want:     []string{`{"a":1}`},
			errs:     []string{"2:2 doc=2", "2:4 doc=3", "5:1 doc=0"},
			errParts: []string{"a number is not a document", "a number is not a document", "the input ends inside the array of documents: the brackets or quotes of the bad document before do not match"},
		},
		{
			name:     "a bracket that closes nothing after a bad document",
			in:       `[{"a":x}}, {"b":1}]`,
			errs:     []string{"1:7 doc=1", "1:9 doc=0"},
			errParts: []string{"x is not a JSON value", "'}' closes nothing in the array of documents"},
		},
		{
			name:     "truncated array",
			in:       "[{\"a\":1},{\"a\":2},{\"a\":",
			want:     []string{`{"a":1}`, `{"a":2}`},
			errs:     []string{"1:23 doc=3"},
			errParts: []string{"the input ends where a value was expected"},
		},
		{
			name:     "not an object",
			in:       "[{\"a\":1}, 42, \"x\", {\"a\":2}]",
			want:     []string{`{"a":1}`, `{"a":2}`},
			errs:     []string{"1:11 doc=2", "1:15 doc=3"},
			errParts: []string{"a number is not a document", "a string is not a document"},
		},
		{
			name:     "NaN",
			in:       "{\"a\":1}\n{\"a\":NaN}\n{\"a\":3}",
			want:     []string{`{"a":1}`, `{"a":3}`},
			errs:     []string{"2:6 doc=2"},
			errParts: []string{"NaN is not valid JSON: numbers must be finite; write null instead"},
		},
		{
			name:     "raw newline in string",
			in:       "[{\"a\":\"x\ny\"}]",
			errs:     []string{"1:9 doc=1"},
			errParts: []string{"control character U+000A inside a string"},
		},
		{
			name:     "bom in the middle",
			in:       "{\"a\":1}\n{\"a\":\xEF\xBB\xBF2}",
			want:     []string{`{"a":1}`},
			errs:     []string{"2:6 doc=2"},
			errParts: []string{"byte order mark"},
		},
		{
			name:     "leading zero",
			in:       `{"a":012}`,
			errs:     []string{"1:7 doc=1"},
			errParts: []string{"leading zero"},
		},
		{
			name:     "bad escape",
			in:       `{"a":"\x"}`,
			errs:     []string{"1:8 doc=1"},
			errParts: []string{`invalid escape \x`},
		},
		{
			name:     "unquoted key",
			in:       `{a:1}`,
			errs:     []string{"1:2 doc=1"},
			errParts: []string{`property names must be in double quotes: write "a"`},
		},
		{
			name:     "trailing garbage after array",
			in:       "[{\"a\":1}] x",
			want:     []string{`{"a":1}`},
			errs:     []string{"1:11 doc=2"},
			errParts: []string{"expected a JSON value, found 'x'"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := readAll(t, iotest.OneByteReader(strings.NewReader(tt.in)))
			if got := res.texts(); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("documents kept:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if len(res.errs) != len(tt.errs) {
				t.Fatalf("errors %v, want %d", res.errs, len(tt.errs))
			}
			for i, e := range res.errs {
				pos := strings.Join([]string{itoa(e.Line), ":", itoa(e.Column), " doc=", itoa(e.Document)}, "")
				if pos != tt.errs[i] {
					t.Errorf("error %d at %s, want %s (%v)", i, pos, tt.errs[i], e)
				}
				if !strings.Contains(e.Error(), tt.errParts[i]) {
					t.Errorf("error %d = %q, want it to contain %q", i, e.Error(), tt.errParts[i])
				}
			}
		})
	}
}

// TestPages: under SetPages every object that wraps documents is read as
// them, in a sequence or an array, and documents are numbered across
// pages; without it only a first wrapper is.
func TestPages(t *testing.T) {
	pages := func(r *Reader) { r.SetPages(true) }
	tests := []struct {
		name string
		in   string
		set  []func(*Reader)
		want []string
		at   []string // each document's line and Index, as "line:index"
		errs []string // as "line:column doc=N"
	}{
		{
			name: "pages one after another",
			in:   "{\"_rid\":\"a\",\"Documents\":[{\"id\":1},\n{\"id\":2}],\"_count\":2}\n{\"_rid\":\"b\",\"Documents\":[\n\n{\"id\":3}],\"_count\":1}\n",
			set:  []func(*Reader){pages},
			want: []string{`{"id":1}`, `{"id":2}`, `{"id":3}`},
			at:   []string{"1:1", "2:2", "5:3"},
		},
		{
			name: "without SetPages a second page is a document",
			in:   "{\"_rid\":\"a\",\"Documents\":[{\"id\":1}]}\n{\"_rid\":\"b\",\"Documents\":[{\"id\":3}]}\n",
			want: []string{`{"id":1}`, `{"_rid":"b","Documents":[{"id":3}]}`},
			at:   []string{"1:1", "2:2"},
		},
		{
			name: "pages in an array are read whole, on the page's line",
			in:   "[{\"Documents\":[{\"id\":1},\n{\"id\":2}]},\n{\"id\":3}]",
			set:  []func(*Reader){pages},
			want: []string{`{"id":1}`, `{"id":2}`, `{"id":3}`},
			at:   []string{"1:1", "1:2", "3:3"},
		},
		{
			name: "pages read whole need not be alone",
			in:   "{\"_rid\":\"x\",\"orders\":[{\"id\":1}]}\n{\"_rid\":\"y\",\"orders\":[{\"id\":2}]}",
			set:  []func(*Reader){pages},
			want: []string{`{"id":1}`, `{"id":2}`},
			at:   []string{"1:1", "2:2"},
		},
		{
			name: "documents with arrays of objects are not pages",
			in:   "{\"id\":\"1\",\"items\":[{\"sku\":\"x\"}]}\n[{\"orderId\":2,\"items\":[{\"sku\":\"y\"}]}]",
			set:  []func(*Reader){pages},
			want: []string{`{"id":"1","items":[{"sku":"x"}]}`, `{"orderId":2,"items":[{"sku":"y"}]}`},
			at:   []string{"1:1", "2:2"},
		},
		{
			name: "a page in a page is a document",
			in:   `{"Documents":[{"Documents":[{"a":1}],"n":1}]}`,
			set:  []func(*Reader){pages},
			want: []string{`{"Documents":[{"a":1}],"n":1}`},
			at:   []string{"1:1"},
		},
		{
			name: "a bad document in a page",
			in:   "{\"Documents\":[{\"a\":1},{\"a\":tru}]}\n{\"Documents\":[{\"a\":3}]}",
			set:  []func(*Reader){pages},
			want: []string{`{"a":1}`, `{"a":3}`},
			at:   []string{"1:1", "2:3"},
			errs: []string{"1:28 doc=2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := readAll(t, iotest.OneByteReader(strings.NewReader(tt.in)), tt.set...)
			if got := res.texts(); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("documents\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			var at []string
			for _, d := range res.docs {
				at = append(at, fmt.Sprintf("%d:%d", d.Line, d.Index))
			}
			if fmt.Sprint(at) != fmt.Sprint(tt.at) {
				t.Errorf("documents at %v, want %v", at, tt.at)
			}
			var errs []string
			for _, e := range res.errs {
				errs = append(errs, fmt.Sprintf("%d:%d doc=%d", e.Line, e.Column, e.Document))
			}
			if fmt.Sprint(errs) != fmt.Sprint(tt.errs) {
				t.Errorf("errors %v, want %v", res.errs, tt.errs)
			}
		})
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func TestNotes(t *testing.T) {
	tests := []struct {
		name, in, want, note string
	}{
		{"invalid utf-8", "{\"a\":\"x\xffy\"}", "{\"a\":\"x\uFFFDy\"}", "not valid UTF-8"},
		{"duplicate key", `{"a":1,"b":2,"a":3}`, `{"b":2,"a":3}`, `property "a" appears more than once`},
		{"lone surrogate", `{"a":"\ud800x"}`, "{\"a\":\"\uFFFDx\"}", "unpaired surrogate"},
		{"huge number", `{"a":1e999}`, `{"a":1e999}`, "beyond the range of a double"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := readAll(t, strings.NewReader(tt.in))
			if len(res.docs) != 1 || len(res.errs) != 0 {
				t.Fatalf("docs %d errs %v", len(res.docs), res.errs)
			}
			if got := res.docs[0].Root.JSON(); got != tt.want {
				t.Errorf("got %s want %s", got, tt.want)
			}
			if n := res.docs[0].Notes; len(n) != 1 || !strings.Contains(n[0].Msg, tt.note) {
				t.Errorf("notes %v, want one containing %q", n, tt.note)
			}
		})
	}
}

func TestLimits(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000)
	big := `{"s":"` + strings.Repeat("x", 3<<20) + `"}`
	in := "{\"id\":1}\n" + deep + "\n" + big + "\n[" + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "]\n{\"id\":2}\n"
	res := readAll(t, strings.NewReader(in))
	if got := strings.Join(res.texts(), " "); got != `{"id":1} {"id":2}` {
		t.Errorf("kept %s", got)
	}
	if len(res.errs) != 3 {
		t.Fatalf("errors: %v", res.errs)
	}
	for i, want := range []string{
		"line 2, column 1 (document 2): document is nested deeper than the 128 levels Cosmos DB allows; skipped",
		"line 3, column 1 (document 3): document holds a string longer than the 2 MB Cosmos DB allows for a whole item; skipped",
		"line 4, column 2 (document 4): document is nested deeper than the 128 levels Cosmos DB allows; skipped",
	} {
		if got := res.errs[i].Error(); got != want || !res.errs[i].Skipped {
			t.Errorf("error %d = %q, want %q", i, got, want)
		}
	}
}

func TestDocumentBytes(t *testing.T) {
	// The same document laid out two ways has the same size: the compact text.
	a := readAll(t, strings.NewReader(`{"id":"1","n":[1,2],"s":"a\"b"}`))
	b := readAll(t, strings.NewReader("{\n  \"id\" : \"1\",\r\n  \"n\" : [ 1, 2 ],\n  \"s\": \"a\\\"b\"\n}\n"))
	want := len(`{"id":"1","n":[1,2],"s":"a\"b"}`)
	if a.docs[0].Bytes != want || b.docs[0].Bytes != want {
		t.Errorf("bytes %d and %d, want %d", a.docs[0].Bytes, b.docs[0].Bytes, want)
	}
}

func TestDatasets(t *testing.T) {
	tests := []struct {
		file   string
		docs   int
		format string
	}{
		{"cosmicworks-v4-product.json", 295, "JSON array"},
		{"dp420-tenant-products.json", 295, "JSON array"},
		{"iot-env-sensor-telemetry.json", 9995, "JSON array"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := os.Open(shared.File(t, "datasets", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			res := readAll(t, f)
			if len(res.errs) != 0 || len(res.docs) != tt.docs || res.format != tt.format {
				t.Errorf("got %d documents, format %q, errors %v", len(res.docs), res.format, res.errs)
			}
		})
	}
}

func TestReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	r := NewReader(io.MultiReader(strings.NewReader(`{"a":1}`+"\n"), iotest.ErrReader(boom)))
	d, err := r.Next()
	if err != nil || d == nil {
		t.Fatalf("first: %v %v", d, err)
	}
	if _, err := r.Next(); !errors.Is(err, boom) {
		t.Fatalf("want the read error, got %v", err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("then io.EOF, got %v", err)
	}
}

// TestErrorsAmongDocuments: problems here and there do not stop the reading,
// however many; only a run of them with no document between (input that is
// not documents) does.
func TestErrorsAmongDocuments(t *testing.T) {
	var b strings.Builder
	for i := range 600 {
		if i%3 == 0 {
			b.WriteString("{\"a\":}\n")
		} else {
			fmt.Fprintf(&b, "{\"a\":%d}\n", i)
		}
	}
	res := readAll(t, strings.NewReader(b.String()))
	if len(res.docs) != 400 || len(res.errs) != 200 {
		t.Errorf("%d documents and %d errors, want 400 and 200", len(res.docs), len(res.errs))
	}
	res = readAll(t, strings.NewReader(strings.Repeat("{\"a\":}\n", 150)+"{\"a\":1}\n"))
	if len(res.docs) != 0 || len(res.errs) != 100 || !strings.HasSuffix(res.errs[99].Error(), "; stopped after 100 errors in a row") {
		t.Errorf("%d documents and %d errors, the last %v", len(res.docs), len(res.errs), res.errs[len(res.errs)-1])
	}
}
