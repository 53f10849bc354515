package ingest

import (
	"bytes"
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
// however many, nor does a block of lines that are no documents amid them;
// only a run of errors before any document (input that is not documents)
// does.
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
	// A stack trace pasted amid the documents: each of its lines is an
	// error, and the documents after it are read.
	res = readAll(t, strings.NewReader("{\"a\":1}\n"+strings.Repeat("\tat com.example.Main(Main.java:1)\n", 150)+"{\"a\":2}\n"))
	if len(res.docs) != 2 || len(res.errs) != 150 || res.errs[149].Line != 151 {
		t.Errorf("%d documents and %d errors, the last %v", len(res.docs), len(res.errs), res.errs[len(res.errs)-1])
	}
}

// TestNothingLost: where input is bad, no good document near it is lost
// without a word, and every one that is lost is an error with its place:
// a line of JSON Lines cut short does not take the next line's document
// with it, lines after an error are read (and reported when they are no
// documents), lines end at "\r" too, a wrapper's second array of
// documents is read, a number too long for an item skips its document
// without being held. Each input is read whole, one byte at a time and
// under a projection (quick and skip reading), to the same effect.
func TestNothingLost(t *testing.T) {
	long := strings.Repeat("0", 3<<20) // a number of 3 MB, past any item
	tests := []struct {
		name  string
		in    string
		docs  []string // the documents kept, as compact JSON
		errs  []string // each error: "line:column doc=N" and a part of its message
		notes []string // each note of the documents, the same way
	}{
		// A line cut short after each of : [ , {
		{
			name: "cut after a colon",
			in:   "{\"id\":\"1\",\"tenant\":\n{\"id\":\"2\",\"tenant\":\"b\"}\n{\"id\":\"3\",\"tenant\":\"c\"}\n",
			docs: []string{`{"id":"2","tenant":"b"}`, `{"id":"3","tenant":"c"}`},
			errs: []string{"1:20 doc=1 the line ends after ':' with no value: document 1 is cut off here; skipped, and line 2, a document of its own, is read as one"},
		},
		{
			name: "cut after a bracket",
			in:   "{\"id\":\"1\"}\n{\"id\":\"2\",\"tags\":[\n{\"id\":\"3\"}\n",
			docs: []string{`{"id":"1"}`, `{"id":"3"}`},
			errs: []string{"2:19 doc=2 the line ends inside an array: document 2 is cut off here; skipped, and line 3, a document of its own, is read as one"},
		},
		{
			name: "cut after a comma in an array",
			in:   "{\"id\":\"1\",\"tags\":[\"a\",\n{\"id\":\"2\"}\n",
			docs: []string{`{"id":"2"}`},
			errs: []string{"1:23 doc=1 the line ends inside an array: document 1 is cut off here"},
		},
		{
			name: "cut after a comma in an object",
			in:   "{\"id\":\"1\",\n{\"id\":\"2\"}\n",
			docs: []string{`{"id":"2"}`},
			errs: []string{"2:1 doc=1 a new document starts here while document 1, begun on line 1, is still open"},
		},
		{
			name: "cut after a brace",
			in:   "{\"id\":\"1\",\"a\":{\n{\"id\":\"2\"}\n",
			docs: []string{`{"id":"2"}`},
			errs: []string{"2:1 doc=1 a new document starts here while document 1, begun on line 1, is still open"},
		},
		{
			name: "cut before the last line, which has no line end",
			in:   "{\"id\":\"1\"}\n{\"id\":\"2\",\"x\":\n{\"id\":\"3\"}",
			docs: []string{`{"id":"1"}`, `{"id":"3"}`},
			errs: []string{"2:15 doc=2 the line ends after ':' with no value"},
		},
		{
			name: "cut before an array of documents",
			in:   "{\"id\":\"1\",\"x\":\n[{\"id\":\"2\"},{\"id\":\"3\"}]\n",
			docs: []string{`{"id":"2"}`, `{"id":"3"}`},
			errs: []string{"1:15 doc=1 the line ends after ':' with no value"},
		},
		{
			name: "cut, with CRLF line ends",
			in:   "{\"id\":\"1\",\"x\":\r\n{\"id\":\"2\"}\r\n{\"id\":\"3\"}\r\n",
			docs: []string{`{"id":"2"}`, `{"id":"3"}`},
			errs: []string{"1:15 doc=1 the line ends after ':' with no value"},
		},
		{
			name: "cut, with CR line ends",
			in:   "{\"id\":\"1\",\"x\":\r{\"id\":\"2\"}\r{\"id\":\"3\"}\r",
			docs: []string{`{"id":"2"}`, `{"id":"3"}`},
			errs: []string{"1:15 doc=1 the line ends after ':' with no value"},
		},
		{
			name: "cut, then a bad line",
			in:   "{\"id\":\"1\",\"x\":\n{\"id\":\"2\",}\n{\"id\":\"3\"}\n",
			docs: []string{`{"id":"3"}`},
			errs: []string{"2:11 doc=1 a trailing comma before '}'"},
		},
		// Laid out over lines, a document that goes on after the value on
		// the next line is not cut.
		{
			name: "a value on the next line, then the rest",
			in:   "{\"id\":\"1\",\"a\":\n{\"b\":1}\n}\n{\"id\":\"2\"}\n",
			docs: []string{`{"id":"1","a":{"b":1}}`, `{"id":"2"}`},
		},
		{
			name: "an array of objects one per line",
			in:   "{\"id\":\"1\",\"a\":[\n{\"b\":1},\n{\"b\":2}\n]}\n{\"id\":\"2\"}\n",
			docs: []string{`{"id":"1","a":[{"b":1},{"b":2}]}`, `{"id":"2"}`},
		},
		{
			name: "a value on the next line that does not end it",
			in:   "{\"id\":\"1\",\"a\":\n{\"b\":1} x\n{\"id\":\"2\"}\n",
			docs: []string{`{"id":"2"}`},
			errs: []string{"2:9 doc=1 expected ',' or '}' after a property, found 'x'"},
		},
		// After an error, every line is read: those that are no documents
		// are said to be so.
		{
			name: "lines that are no documents after an error",
			in:   "{\"id\":\"1\",}\nnot json\n42\n\"text\"\n]\n# note\n\n{\"id\":\"2\"}\n",
			docs: []string{`{"id":"2"}`},
			errs: []string{
				"1:11 doc=1 a trailing comma before '}'",
				`2:1 doc=2 "not" is not a JSON value`,
				"3:1 doc=3 a number is not a document",
				"4:1 doc=4 a string is not a document",
				"5:1 doc=5 an extra ']' that closes nothing",
				"6:1 doc=6 JSON has no comments: remove the # comment",
			},
		},
		{
			name: "a line left open, then lines that are no documents",
			in:   "{\"id\":\"1\",\"s\":\"open\nnot json\n{\"id\":\"2\"}\n",
			docs: []string{`{"id":"2"}`},
			errs: []string{"1:20 doc=1 control character U+000A inside a string", `2:1 doc=2 "not" is not a JSON value`},
		},
		{
			name: "documents one after another on a line",
			in:   "{\"id\":\"1\",}{\"id\":\"2\"} {\"id\":\"3\"}  oops\n{\"id\":\"4\"}",
			docs: []string{`{"id":"2"}`, `{"id":"3"}`, `{"id":"4"}`},
			errs: []string{"1:11 doc=1 a trailing comma before '}'", `1:35 doc=4 expected a JSON value, found 'o'`},
		},
		{
			name: "words, then a document on their line",
			in:   "{\"id\":\"1\"} xyz {\"id\":\"2\"}\nnot \"{\" json [1] {\"id\":\"3\"}\n",
			docs: []string{`{"id":"1"}`, `{"id":"2"}`, `{"id":"3"}`},
			errs: []string{
				"1:12 doc=2 expected a JSON value, found 'x'",
				`2:1 doc=4 "not" is not a JSON value`,
				"2:15 doc=5 a number is not a document", // in the array [1], read as documents

			},
		},
		{
			name: "a pretty-printed document: its own lines are skipped with it",
			in:   "{\n  \"id\": \"1\",,\n  \"x\": [\n    2\n  ]\n}\n{\n  \"id\": \"2\"\n}\n",
			docs: []string{`{"id":"2"}`},
			errs: []string{"2:13 doc=1 expected a property name in double quotes, found ','"},
		},
		{
			name: "a pretty-printed document, then a line that is none",
			in:   "{\n  \"id\": \"1\",,\n  \"x\": 2\n}\noops\n{\n  \"id\": \"2\"\n}\n",
			docs: []string{`{"id":"2"}`},
			errs: []string{"2:13 doc=1 expected a property name", "5:1 doc=2 expected a JSON value, found 'o'"},
		},
		// A carriage return ends a line: positions count it, and reading
		// goes on at the line after a bad one.
		{
			name: "CR line ends",
			in:   "{\"id\":\"1\"}\r{\"id\":\"2\",}\r{\"id\":\"3\"}\r",
			docs: []string{`{"id":"1"}`, `{"id":"3"}`},
			errs: []string{"2:11 doc=2 a trailing comma before '}'"},
		},
		{
			name: "CR line ends and a string left open",
			in:   "{\"id\":\"1\",\"s\":\"open\r{\"id\":\"2\"}\r",
			docs: []string{`{"id":"2"}`},
			errs: []string{"1:20 doc=1 control character U+000D inside a string"},
		},
		{
			name: "CR, LF and CRLF line ends",
			in:   "{\"id\":\"1\"}\r{\"id\":\"2\"}\n{\"id\":\"3\"}\r\n\r\n{\"id\":\"4\",}\r{\"id\":\"5\"}\n\r{\"id\":\"6\",}",
			docs: []string{`{"id":"1"}`, `{"id":"2"}`, `{"id":"3"}`, `{"id":"5"}`},
			errs: []string{"5:11 doc=4 a trailing comma before '}'", "8:11 doc=6 a trailing comma before '}'"},
		},
		// A wrapper's second array of documents is read too.
		{
			name:  "a wrapper's array twice",
			in:    `{"Documents":[{"id":"1"},{"id":"2"}],"_count":2,"Documents":[{"id":"3"}]}`,
			docs:  []string{`{"id":"1"}`, `{"id":"2"}`, `{"id":"3"}`},
			notes: []string{`1:49 doc=3 property "Documents" appears again in the wrapper object; the documents of both arrays are read (JSON would keep only the last)`},
		},
		{
			name:  "a wrapper with a second array under another name",
			in:    `{"value":[{"id":"1"}],"nextLink":null,"items":[{"id":"2"}]}`,
			docs:  []string{`{"id":"1"}`, `{"id":"2"}`},
			notes: []string{`1:39 doc=2 the wrapper object holds a second array of documents, "items"; its documents are read too`},
		},
		{
			name:  "a wrapper's second array, empty, then a third",
			in:    `{"Documents":[{"id":"1"}],"Documents":[],"Documents":[{"id":"3"}]}`,
			docs:  []string{`{"id":"1"}`, `{"id":"3"}`},
			notes: []string{`1:42 doc=2 property "Documents" appears again`},
		},
		{
			name:  "a wrapper's second array, a bad document first",
			in:    `{"Documents":[{"id":"1"}],"Documents":[5,{"id":"2"}]}`,
			docs:  []string{`{"id":"1"}`, `{"id":"2"}`},
			errs:  []string{"1:40 doc=2 a number is not a document"},
			notes: []string{`1:27 doc=3 property "Documents" appears again`},
		},
		{
			// Read whole, the wrapper keeps JSON's rule: the last counts.
			name:  "a wrapper read whole, its array twice",
			in:    `{"myDocs":[{"id":"1"}],"myDocs":[{"id":"2"}]}`,
			docs:  []string{`{"id":"2"}`},
			notes: []string{`1:46 doc=1 property "myDocs" appears more than once in an object; the last one counts`},
		},
		// A number longer than an item can hold skips its document.
		{
			name: "a number of 3 MB",
			in:   "{\"id\":\"1\"}\n{\"id\":\"2\",\"n\":1" + long + "}\n{\"id\":\"3\"}\n",
			docs: []string{`{"id":"1"}`, `{"id":"3"}`},
			errs: []string{"2:15 doc=2 document holds a number longer than the 2 MB Cosmos DB allows for a whole item; skipped"},
		},
		{
			name: "a number of 3 MB with a fraction and an exponent, in an array",
			in:   "[{\"id\":\"1\"},{\"id\":\"2\",\"a\":[-0." + long + "e+5,2]},{\"id\":\"3\"}]",
			docs: []string{`{"id":"1"}`, `{"id":"3"}`},
			errs: []string{"1:28 doc=2 document holds a number longer than the 2 MB"},
		},
		{
			name: "a number of 3 MB as a document",
			in:   "{\"id\":\"1\"}\n1" + long + "\n{\"id\":\"3\"}\n",
			docs: []string{`{"id":"1"}`, `{"id":"3"}`},
			errs: []string{"2:1 doc=2 document holds a number longer than the 2 MB"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := []byte(tt.in)
			whole := readFuzz(t, in, bytes.NewReader(in))
			if len(in) < 1<<20 {
				one := readFuzz(t, in, iotest.OneByteReader(bytes.NewReader(in)))
				if a, b := strings.Join(whole.events, "\n"), strings.Join(one.events, "\n"); a != b {
					t.Fatalf("read whole:\n%s\none byte at a time:\n%s", a, b)
				}
			}
			var docs, errs, notes []string
			for _, d := range whole.docs {
				docs = append(docs, d.Root.JSON())
				for _, n := range d.Notes {
					notes = append(notes, fmt.Sprintf("%d:%d doc=%d %s", n.Line, n.Column, n.Document, n.Msg))
				}
			}
			for _, e := range whole.errs {
				errs = append(errs, fmt.Sprintf("%d:%d doc=%d %s", e.Line, e.Column, e.Document, e.Msg))
			}
			check := func(what string, got, want []string) {
				t.Helper()
				ok := len(got) == len(want)
				for i := 0; ok && i < len(got); i++ {
					ok = strings.HasPrefix(got[i], want[i])
				}
				if !ok {
					t.Errorf("%s:\n%s\nwant\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
			check("documents", docs, tt.docs)
			check("errors", errs, tt.errs)
			check("notes", notes, tt.notes)
			// Under a projection the same documents are read, with the
			// same errors.
			projected := readFuzz(t, in, bytes.NewReader(in), func(r *Reader) { r.Project([][]string{{"id"}}) })
			var pdocs, perrs []string
			for _, d := range projected.docs {
				pdocs = append(pdocs, d.Root.JSON())
			}
			for _, e := range projected.errs {
				perrs = append(perrs, fmt.Sprintf("%d:%d doc=%d %s", e.Line, e.Column, e.Document, e.Msg))
			}
			if strings.Join(perrs, "\n") != strings.Join(errs, "\n") || len(pdocs) != len(docs) {
				t.Errorf("projected: documents\n%s\nerrors\n%s", strings.Join(pdocs, "\n"), strings.Join(perrs, "\n"))
			}
		})
	}
}

// TestUnseenNames: a property name holding a character that does not show
// as itself (a byte order mark, a zero-width space, a no-break space, a
// control) is noted once, where it first occurs, whatever document or
// object it is in; names that show as they are, in any script, are not.
func TestUnseenNames(t *testing.T) {
	in := "{\"\ufeffISO\":\"FR\",\"id\":\"1\",\"größe\":1}\n" +
		"{\"\ufeffISO\":\"DE\",\"id\":\"2\",\"x\":{\"\ufeffISO\":1,\"tenant\\u200bId\":2}}\n" +
		"[{\"a\u00a0\":1,\"\\u200b\":2,\"l\\nf\":3}]\n"
	want := []string{
		`note line 1, column 2 (document 1): property name "\ufeffISO" holds a byte order mark (U+FEFF) before "ISO": it reads as "ISO" but is another name, and a key or query naming "ISO" does not find it (noted where the name first occurs)`,
		`note line 2, column 41 (document 2): property name "tenant\u200bId" holds a zero-width space (U+200B) inside "tenantId": it reads as "tenantId" but is another name, and a key or query naming "tenantId" does not find it (noted where the name first occurs)`,
		`note line 3, column 3 (document 3): property name "a\u00a0" holds a no-break space (U+00A0) after "a": it reads as "a" but is another name, and a key or query naming "a" does not find it (noted where the name first occurs)`,
		`note line 3, column 11 (document 3): property name "\u200b" holds only a zero-width space (U+200B), which shows as nothing (noted where the name first occurs)`,
		`note line 3, column 22 (document 3): property name "l\nf" holds a line feed (U+000A) inside "lf": it reads as "lf" but is another name, and a key or query naming "lf" does not find it (noted where the name first occurs)`,
	}
	for _, careful := range []bool{false, true} {
		res := readAll(t, strings.NewReader(in), func(r *Reader) { r.careful = careful })
		if got := strings.Join(res.problems(), "\n"); got != strings.Join(want, "\n") {
			t.Errorf("problems\n%s\nwant\n%s", got, strings.Join(want, "\n"))
		}
		for _, d := range res.docs {
			for _, n := range d.Notes {
				checkPosition(t, []byte(in), n.Error(), n.Line, n.Column, n.Offset)
			}
		}
	}
	// Under a projection, quick reading notes them as careful reading does,
	// and as a whole read does.
	checkProjection(t, []byte(in))
	checkProjection(t, []byte(strings.Repeat("{\"id\":\"1\",\"a\":{\"b\":1}}\n", 3)+"{\"id\":\"2\",\"a\":{\"b\u200b\":1},\"c\u00ad\":2}\n"))
}

// TestBOMLines: a byte order mark at the start of the input, or at the
// start of a line between documents, where a file joined after another
// begins, is skipped; anywhere else, and a second one after it, it is an
// error.
func TestBOMLines(t *testing.T) {
	const bom = "\ufeff"
	for _, tt := range []struct {
		name, in, format string
		docs             int
		problems         []string
	}{
		{"at the start", bom + "{\"a\":1}\n{\"a\":2}\n", "JSON Lines", 2, nil},
		{"files joined", bom + "{\"a\":1}\n" + bom + "{\"a\":2}\r\n" + bom + "{\"a\":3}\n", "JSON Lines", 3, nil},
		{"arrays joined", bom + "[{\"a\":1}]\n" + bom + "[{\"a\":2}]\n", "JSON array", 2, nil},
		{"after a blank line", "{\"a\":1}\n\n" + bom + "{\"a\":2}\n", "JSON Lines", 2, nil},
		{"two at the start", bom + bom + "{\"a\":1}\n", "concatenated JSON", 1,
			[]string{"error line 1, column 1 (document 1): a byte order mark (U+FEFF) in the middle of the input; it is allowed only at the start of the input, or of a line between documents, where a file joined after another begins"}},
		{"two on a later line", "{\"a\":1}\n" + bom + bom + "{\"a\":2}\n", "concatenated JSON", 2,
			[]string{"error line 2, column 4 (document 2): a byte order mark (U+FEFF) in the middle of the input; it is allowed only at the start of the input, or of a line between documents, where a file joined after another begins"}},
		{"inside a line", "{\"a\":1} " + bom + "{\"a\":2}\n", "concatenated JSON", 2,
			[]string{"error line 1, column 9 (document 2): a byte order mark (U+FEFF) in the middle of the input; it is allowed only at the start of the input, or of a line between documents, where a file joined after another begins"}},
		{"inside an array", "[{\"a\":1},\n" + bom + "{\"a\":2}]\n", "JSON array", 1,
			[]string{"error line 2, column 1 (document 2): a byte order mark (U+FEFF) in the middle of the input; it is allowed only at the start of the input, or of a line between documents, where a file joined after another begins"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := readAll(t, strings.NewReader(tt.in))
			if len(res.docs) != tt.docs || res.format != tt.format {
				t.Errorf("%d documents read as %s, want %d as %s", len(res.docs), res.format, tt.docs, tt.format)
			}
			if got := strings.Join(res.problems(), "\n"); got != strings.Join(tt.problems, "\n") {
				t.Errorf("problems\n%s\nwant\n%s", got, strings.Join(tt.problems, "\n"))
			}
			for _, e := range res.errs {
				checkPosition(t, []byte(tt.in), e.Error(), e.Line, e.Column, e.Offset)
			}
		})
	}
}
