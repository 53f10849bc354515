package aggregate

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/key"
)

var (
	u    = epk.UndefinedValue
	null = epk.NullValue
	str  = epk.Str
	num  = epk.Num
)

func vals(v ...epk.Value) []epk.Value { return v }

func open(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// checkErrs wants one error per entry, in order, each containing its text.
func checkErrs(t *testing.T, errs []error, want []string) {
	t.Helper()
	if len(errs) != len(want) {
		t.Errorf("got %d errors, want %d:\n%s", len(errs), len(want), joinErrs(errs))
		return
	}
	for i, w := range want {
		if !strings.Contains(errs[i].Error(), w) {
			t.Errorf("error %d = %q, want it to contain %q", i, errs[i], w)
		}
	}
}

func joinErrs(errs []error) string {
	var b strings.Builder
	for _, e := range errs {
		b.WriteString("  " + e.Error() + "\n")
	}
	return b.String()
}

// checkRows compares rows but for their JSON row numbers, which
// TestRowNumbers checks.
func checkRows(t *testing.T, got, want []Row) {
	t.Helper()
	got = slices.Clone(got)
	for i := range got {
		got[i].Row = 0
	}
	if !reflect.DeepEqual(got, want) {
		var b strings.Builder
		for _, r := range got {
			fmt.Fprintf(&b, "  %+v\n", r)
		}
		t.Errorf("rows:\n%swant:\n%+v", b.String(), want)
	}
}

// readCase is an input for Read and what it must give.
type readCase struct {
	name   string
	in     string // inline input, or
	file   string // a file in testdata
	levels int
	rows   []Row
	errs   []string
}

func runReadCases(t *testing.T, tests []readCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r io.Reader = strings.NewReader(tt.in)
			if tt.file != "" {
				r = open(t, tt.file)
			}
			rows, errs := Read(r, tt.levels)
			checkRows(t, rows, tt.rows)
			checkErrs(t, errs, tt.errs)
		})
	}
}

func TestRead(t *testing.T) {
	runReadCases(t, []readCase{
		{
			name: "csv", levels: 1,
			in: "k0,documents,bytes\n\"\"\"contoso\"\"\",120,48000\n42,3,900\n\"\"\"42\"\"\",2,700\ntrue,1,10\nfalse,1,10\nnull,1,250\n,4,1000\n-0,1,1\n",
			rows: []Row{
				{Values: vals(str("contoso")), Documents: 120, Bytes: 48000, Line: 2},
				{Values: vals(num(42)), Documents: 3, Bytes: 900, Line: 3},
				{Values: vals(str("42")), Documents: 2, Bytes: 700, Line: 4},
				{Values: vals(epk.Bool(true)), Documents: 1, Bytes: 10, Line: 5},
				{Values: vals(epk.Bool(false)), Documents: 1, Bytes: 10, Line: 6},
				{Values: vals(null), Documents: 1, Bytes: 250, Line: 7},
				{Values: vals(u), Documents: 4, Bytes: 1000, Line: 8},
				{Values: vals(num(negZero())), Documents: 1, Bytes: 1, Line: 9},
			},
		},
		{
			name: "csv with a BOM, CRLF, spaces, columns in another order and extra columns", levels: 2,
			in: "\uFEFF Documents ,note,K1,k0\r\n 7 ,x,\"\"\"b\"\"\",1\r\n2,,,\r\n",
			rows: []Row{
				{Values: vals(num(1), str("b")), Documents: 7, Line: 2},
				{Values: vals(u, u), Documents: 2, Line: 3},
			},
		},
		{
			name: "csv plain strings", levels: 1,
			in: "k0,documents\ncontoso,1\n\"tab\there\",2\n[1,2,3,1,3\n",
			rows: []Row{
				{Values: vals(str("contoso")), Documents: 1, Line: 2},
				{Values: vals(str("tab\there")), Documents: 2, Line: 3},
			},
			// ingest's words, at the first cell too many.
			errs: []string{"line 4, column 6: 5 fields, the header has 2; skipped"},
		},
		{
			name: "csv separated by semicolons or tabs", levels: 1,
			in:   "k0;documents;bytes\n\"a;b\";2;20\n3;1;10\n",
			rows: []Row{{Values: vals(str("a;b")), Documents: 2, Bytes: 20, Line: 2}, {Values: vals(num(3)), Documents: 1, Bytes: 10, Line: 3}},
		},
		{name: "tsv", levels: 1, in: "k0\tdocuments\n\"a,b\"\t2\n", rows: []Row{{Values: vals(str("a,b")), Documents: 2, Line: 2}}},
		{name: "csv without documents", levels: 1, in: "k0,bytes\n1,2\n", errs: []string{"line 1: the header has no column documents"}},
		{name: "csv without k1", levels: 2, in: "k0,documents\n1,2\n", errs: []string{"line 1: the header has no column k1; a key of 2 levels needs columns k0 to k1"}},
		{name: "csv without k0", levels: 1, in: "documents\n2\n", errs: []string{"line 1: the header has no column k0; a key of 1 level needs column k0"}},
		{name: "csv for another key", levels: 1, in: "k0,k1,documents\n1,2,3\n", errs: []string{"line 1: the header has column k1, but the key has 1 level:"}},
		{name: "csv with a column twice", levels: 1, in: "k0,documents,k0\n1,2,3\n", errs: []string{"line 1: the header names column k0 twice"}},
		{name: "csv header only", levels: 1, in: "k0,documents,bytes\n"},
		{name: "csv after blank lines", levels: 1, in: "\n\r\n  k0,documents\n1,x\n2,2\n", rows: []Row{{Values: vals(num(2)), Documents: 2, Line: 5}}, errs: []string{`line 4: column documents: "x" is not a number`}},
		{name: "csv header error after blank lines", levels: 1, in: "\n\nk0\n", errs: []string{"line 3: the header has no column documents"}},
		{name: "json after blank lines", levels: 1, in: "\n\n[\n{\"documents\":1},\n{\"documents\":-1}]", rows: []Row{{Values: vals(u), Documents: 1, Line: 4}}, errs: []string{"line 5, row 2: field documents: negative count -1"}},
		{name: "empty", levels: 1, in: " \n\t", errs: []string{"the input is empty"}},
		// A file that is not text is said to be what it is, not taken for documents.
		{name: "utf-16", levels: 1, in: "\xff\xfek\x000\x00,\x00d\x00o\x00c\x00", errs: []string{"the input is UTF-16 text: save it as UTF-8"}},
		{name: "utf-16 json without a byte order mark", levels: 1, in: "[\x00{\x00}\x00]\x00", errs: []string{"the input is UTF-16 text"}},
		{name: "gzip", levels: 1, in: "\x1f\x8b\x08\x00\x00\x00", errs: []string{"the input is gzip-compressed: decompress it first"}},
		{name: "excel", levels: 1, in: "PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00[Content_Types].xml xl/workbook.xml", errs: []string{"the input is an Excel workbook, not CSV or JSON: save the sheet as CSV UTF-8"}},
		// Documents given as aggregates: one error for the input, not one per document.
		{name: "documents", file: "documents.jsonl", levels: 1, errs: []string{"the input looks like documents, not per-key aggregates: its first 10 objects have no documents field"}},
		{name: "documents in an array", levels: 1, in: `[{"id":"1"},{"id":"2"}]`, errs: []string{"the input looks like documents, not per-key aggregates: its 2 objects have no documents field"}},
		{name: "many documents", levels: 1, in: strings.Repeat(`{"id":"1","tenantId":"a"}`+"\n", 5000), errs: []string{"its first 10 objects have no documents field"}},
		{name: "documents as CSV", levels: 1, in: "id,tenantId\n1,a\n2,b\n", errs: []string{"the input looks like documents, not per-key aggregates: its CSV header has neither a k0 nor a documents column"}},
		{name: "a row without documents among rows", levels: 1, in: `[{"k0":"a"},{"k0":"b","documents":2}]`, rows: []Row{{Values: vals(str("b")), Documents: 2, Line: 1}}, errs: []string{"line 1, row 1: field documents: missing document count"}},
		{name: "bad levels", levels: 4, in: "k0,documents\n", errs: []string{"1 to 3 levels, not 4"}},
		{
			name: "csv bad rows", file: "read/bad.csv", levels: 1,
			rows: []Row{
				{Values: vals(str("ok1")), Documents: 10, Bytes: 1000, Requests: 2.5, Line: 2},
				{Values: vals(str("plain string")), Documents: 4, Bytes: 400, Line: 9},
				{Values: vals(str("plain\non two lines")), Documents: 1, Bytes: 1, Line: 10},
				{Values: vals(str("ok3")), Documents: 7, Bytes: 1000, Line: 14},
				{Values: vals(str("ok4")), Documents: 1, Bytes: 10, Line: 16},
			},
			errs: []string{
				"line 3: column documents: missing document count",
				"line 4: column documents: negative count -3",
				"line 5, column 1: 2 fields, the header has 4; skipped",
				`line 6: column documents: "12abc" is not a number`,
				"line 7: column documents: 1.5 is not a whole number",
				"line 8: column k0: the key value is an object",
				"line 12: column requests: negative rate -1",
				"line 13: column k0: the number 1e400 is out of range",
				`line 15, column 3: a quoted field goes on after its closing '"' (a '"' inside a quoted field must be doubled); Spark doubles them with .option("escape", '"'); skipped`,
			},
		},
		{
			name: "json array bad rows", file: "read/bad.json", levels: 1,
			rows: []Row{
				{Values: vals(str("ok1")), Documents: 10, Line: 2},
				{Values: vals(str("str")), Documents: 12, Line: 5},
				{Values: vals(str("ok2")), Documents: 2, Bytes: 20, Requests: 0.5, Line: 10},
				{Values: vals(u), Documents: 3, Line: 12},
			},
			errs: []string{
				"line 3, row 2: field documents: missing document count",
				"line 4, row 3: field documents: negative count -1",
				"line 6, row 5: field k0: the key value is an object",
				"line 7, row 6: field k1: the key has 1 level:",
				"line 8, row 7: field documents: expected a number, not true",
				"line 9, column 3, row 8: a number is not a document: documents are JSON objects; skipped",
				"line 11, row 10: field documents: 2.5 is not a whole number",
			},
		},
		{
			name: "json lines", file: "read/rows.jsonl", levels: 2,
			rows: []Row{
				{Values: vals(str("a"), num(1)), Documents: 5, Bytes: 500, Requests: 12.5, Line: 1},
				{Values: vals(str("a"), u), Documents: 1, Line: 2},
				{Values: vals(u, null), Documents: 2, Bytes: 10, Line: 4},
				{Values: vals(str("c"), epk.Bool(false)), Documents: 3, Line: 6},
			},
			errs: []string{"line 5, row 4: field documents: negative count -2"},
		},
		{
			name: "json lines of cosmos pages", levels: 1,
			in: `{"_rid":"x","Documents":[{"k0":"a","documents":1},` + "\n" +
				`{"documents":2}],"_count":2}` + "\n" +
				`{"_rid":"x","Documents":[` + "\n\n" + `{"k0":"b","documents":-1}, {"k0":"c","documents":3}],"_count":2}`,
			rows: []Row{
				{Values: vals(str("a")), Documents: 1, Line: 1},
				{Values: vals(u), Documents: 2, Line: 2},
				{Values: vals(str("c")), Documents: 3, Line: 5},
			},
			errs: []string{"line 5, row 3: field documents: negative count -1"},
		},
		{
			name: "json array of cosmos pages", levels: 1,
			in: "[{\"Documents\":[{\"k0\":1,\"documents\":1}]},\n{\"k0\":2,\"documents\":2}]",
			rows: []Row{
				{Values: vals(num(1)), Documents: 1, Line: 1},
				{Values: vals(num(2)), Documents: 2, Line: 2},
			},
		},
		{
			name: "a page inside a page is a row", levels: 1,
			in:   `{"Documents":[{"Documents":[],"documents":1}]}`,
			rows: []Row{{Values: vals(u), Documents: 1, Line: 1}},
		},
		{
			name: "json syntax error keeps the rows before it", levels: 1,
			in: "[\n{\"k0\":1,\"documents\":1},\n{\"k0\":2,\"documents\":2},\n{\"k0\":3,\"documents\" 3}\n]",
			rows: []Row{
				{Values: vals(num(1)), Documents: 1, Line: 2},
				{Values: vals(num(2)), Documents: 2, Line: 3},
			},
			errs: []string{`line 4, column 21, row 3: expected ':' after property name "documents", found '3'`},
		},
		{
			name: "json lines keep the rows after a syntax error", levels: 1,
			in: "{\"k0\":\"a\",\"documents\":1}\n{\"k0\":\"b\",\"documents\":\n{\"k0\":\"c\",\"documents\":3}\n{\"k0\":\"d\",\"documents\":4}\n{\"k0\":\"d2\",\"documents\":4]\n" +
				"  {\"k0\":\"e\",\"documents\":5}\n{\n  \"k0\": \"f\",\n  \"documents\": x\n}\n{\n  \"k0\": \"g\",\n  \"documents\": 7\n}\n" +
				"{\"k0\":\"h\"," + strings.Repeat("x", 100000) + "\n{\"k0\":\"i\",\"documents\":9}\n{oops",
			// Row b is cut after its ':': row c, on the next line, is a
			// row of its own, not b's value.
			rows: []Row{
				{Values: vals(str("a")), Documents: 1, Line: 1},
				{Values: vals(str("c")), Documents: 3, Line: 3},
				{Values: vals(str("d")), Documents: 4, Line: 4},
				{Values: vals(str("e")), Documents: 5, Line: 6},
				{Values: vals(str("g")), Documents: 7, Line: 11},
				{Values: vals(str("i")), Documents: 9, Line: 16},
			},
			errs: []string{
				"line 2, column 23, row 2: the line ends after ':' with no value: document 2 is cut off here; skipped, and line 3, a document of its own, is read as one",
				"line 5, column 25, row 5: ']' where '}' should close the object: the brackets do not match",
				`line 9, column 16, row 7: x is not a JSON value: text takes double quotes ("x")`,
				`line 15, column 11, row 9: property names must be in double quotes: write "xxxxxxxx`,
				`line 17, column 2, row 11: property names must be in double quotes: write "oops"`,
			},
		},
		{
			name: "rows of a compact json array are numbered", levels: 1,
			in:   `[{"k0":"a","documents":1},{"k0":"b","documents":-1},5,{"k0":"c","documents":2}]`,
			rows: []Row{{Values: vals(str("a")), Documents: 1, Line: 1}, {Values: vals(str("c")), Documents: 2, Line: 1}},
			errs: []string{"line 1, row 2: field documents: negative count -1", "line 1, column 53, row 3: a number is not a document"},
		},
		{
			name: "json array keeps the rows after a syntax error", levels: 1,
			in: "[{\"k0\":\"a\",\"documents\":1},{\"k0\":\"b\",\"documents\":NaN},\n{\"k0\":[[\"x\\\"]\"]],\"documents\":-},\n" +
				"{\"k0\":\"c\",\"documents\":3},{\"k0\":\"d\" \"documents\":4},{\"k0\":\"e\",\"documents\":5},]\n[]",
			rows: []Row{
				{Values: vals(str("a")), Documents: 1, Line: 1},
				{Values: vals(str("c")), Documents: 3, Line: 3},
				{Values: vals(str("e")), Documents: 5, Line: 3},
			},
			errs: []string{
				"line 1, column 49, row 2: NaN is not valid JSON: numbers must be finite; write null instead",
				"line 2, column 31, row 3: invalid number: expected a digit",
				"line 3, column 36, row 5: a comma is missing between the properties: put ',' before this one",
				// The [] after the array is more rows, as ingest reads
				// arrays one after another.
				"line 3, column 76, row 7: a trailing comma before ']': remove the comma after the last document",
			},
		},
		{name: "truncated json", levels: 1, in: "[{\"k0\":1,\"documents\":1},\n{\"k0\":", rows: []Row{{Values: vals(num(1)), Documents: 1, Line: 1}}, errs: []string{"line 2, column 7, row 2: the input ends where a value was expected"}},
		// ingest reads arrays one after another as one sequence of rows.
		{name: "arrays one after another", levels: 1, in: "[{\"k0\":1,\"documents\":1}]\n[]\n[{\"k0\":2,\"documents\":2}]", rows: []Row{{Values: vals(num(1)), Documents: 1, Line: 1}, {Values: vals(num(2)), Documents: 2, Line: 3}}},
		{name: "data after the array", levels: 1, in: "[]\nx", errs: []string{"line 2, column 1, row 1: expected a JSON value, found 'x'"}},
		{name: "string counts and key values", levels: 1, in: `[{"k0":"12","documents":" 12 ","bytes":"1e3","requests":"2"}]`, rows: []Row{{Values: vals(str("12")), Documents: 12, Bytes: 1000, Requests: 2, Line: 1}}},
		{name: "upper-case field names", levels: 1, in: `{"K0":"a","Documents":1}`, rows: []Row{{Values: vals(str("a")), Documents: 1, Line: 1}}},
		{name: "field names that differ in case", levels: 1, in: `{"DOCUMENTS":3,"K0":"b","Documents":2,"k0":"a"}`, rows: []Row{{Values: vals(str("a")), Documents: 3, Line: 1}}},
		{name: "json number out of range", levels: 1, in: `{"k0":1e999,"documents":1}`, errs: []string{"line 1, row 1: field k0: the number 1e999 is out of range"}},
		{name: "json count too large", levels: 1, in: `{"documents":1e19}`, errs: []string{"line 1, row 1: field documents: 1e19 is too large"}},
		{name: "json requests not finite", levels: 1, in: `{"documents":1,"requests":"NaN"}`, errs: []string{"line 1, row 1: field requests: NaN is not a finite number"}},
	})
}

// TestReadAsIngest: aggregates are read by ingest's readers, so they take
// what documents take: any wrapping object, a header sniffed outside
// quotes, ingest's recovery and positions, cells and fields as JSON.
func TestReadAsIngest(t *testing.T) {
	runReadCases(t, []readCase{
		// Wrappers other than Cosmos DB's "Documents".
		{
			name: "a wrapper named value", levels: 1,
			in:   `{"value":[{"k0":"a","documents":5},` + "\n" + `{"k0":"b","documents":7}],"nextLink":null}`,
			rows: []Row{{Values: vals(str("a")), Documents: 5, Line: 1}, {Values: vals(str("b")), Documents: 7, Line: 2}},
		},
		{
			name: "a wrapper after metadata", levels: 1,
			in:   `{"count":1,"results":[{"k0":1,"documents":2,"bytes":30}]}`,
			rows: []Row{{Values: vals(num(1)), Documents: 2, Bytes: 30, Line: 1}},
		},
		{
			name: "pages of any wrapper one after another", levels: 1,
			in:   "{\"_rid\":\"a\",\"items\":[{\"k0\":\"a\",\"documents\":1}]}\n{\"_rid\":\"b\",\"items\":[{\"k0\":\"b\",\"documents\":2}]}",
			rows: []Row{{Values: vals(str("a")), Documents: 1, Line: 1}, {Values: vals(str("b")), Documents: 2, Line: 2}},
		},
		{
			name: "a wrapper of documents is still documents", levels: 1,
			in:   `{"data":[{"id":"1","tenantId":"a"},{"id":"2","tenantId":"b"}]}`,
			errs: []string{"the input looks like documents, not per-key aggregates: its 2 objects have no documents field"},
		},
		// The delimiter is sniffed outside quotes.
		{
			name: "a quoted delimiter in the header", levels: 1,
			in:   "k0,documents,\"note; with; three; semicolons\"\n\"\"\"a\"\"\",3,x\n",
			rows: []Row{{Values: vals(str("a")), Documents: 3, Line: 2}},
		},
		{
			name: "quoted commas in a semicolon header", levels: 1,
			in:   "\"k,0\";k0;\"a,b,c\";documents\n1;\"\"\"x\"\"\";2;3\n",
			rows: []Row{{Values: vals(str("x")), Documents: 3, Line: 2}},
		},
		{
			name: "cells after a comma and a space", levels: 1,
			in:   "k0, documents, bytes\n\"\"\"a, b\"\"\", 2, 20\n",
			rows: []Row{{Values: vals(str("a, b")), Documents: 2, Bytes: 20, Line: 2}},
		},
		// Recovery after a bad row, with ingest's positions.
		{
			name: "csv reads on after a bad row", levels: 1,
			in:   "k0,documents\n\"\"\"a\"\"\",1\n\"x\"y,2\n\"\"\"b\"\"\",2,9\n\"\"\"c\"\"\",3\n",
			rows: []Row{{Values: vals(str("a")), Documents: 1, Line: 2}, {Values: vals(str("c")), Documents: 3, Line: 5}},
			errs: []string{
				`line 3, column 3: a quoted field goes on after its closing '"'`,
				"line 4, column 11: 3 fields, the header has 2; skipped",
			},
		},
		{
			name: "json lines read on after a bad row", levels: 1,
			in:   "{\"k0\":\"a\",\"documents\":1}\n{\"k0\":'b',\"documents\":2}\n{\"k0\":\"c\",\"documents\":3}\n",
			rows: []Row{{Values: vals(str("a")), Documents: 1, Line: 1}, {Values: vals(str("c")), Documents: 3, Line: 3}},
			errs: []string{"line 2, column 7, row 2: strings and property names take double quotes, not single quotes"},
		},
		{
			name: "an array reads on after a bad row", levels: 1,
			in:   "[\n  {\"k0\":\"a\",\"documents\":1},\n  {\"k0\":\"b\",\"documents\":},\n  {\"k0\":\"c\",\"documents\":3}\n]",
			rows: []Row{{Values: vals(str("a")), Documents: 1, Line: 2}, {Values: vals(str("c")), Documents: 3, Line: 4}},
			errs: []string{"line 3, column 25, row 2: expected a JSON value, found '}'"},
		},
		{
			name: "an array left open loses what follows, and says so", levels: 1,
			in:   "{\"k0\":\"a\",\"documents\":1}\n[1,2\n{\"k0\":\"b\",\"documents\":2}\n{\"k0\":\"c\",\"documents\":3}\n",
			rows: []Row{{Values: vals(str("a")), Documents: 1, Line: 1}},
			errs: []string{
				"line 2, column 2, row 2: a number is not a document",
				"line 2, column 4, row 3: a number is not a document",
				"line 5, column 1: the input ends inside the array of documents",
			},
		},
		// Line numbers.
		{
			name: "json lines after a byte order mark, CRLF and blank lines", levels: 1,
			in:   "\uFEFF\r\n{\"k0\":1,\"documents\":1}\r\n\r\n{\"k0\":2,\"documents\":-2}\r\n{\"k0\":3,\"documents\":3}",
			rows: []Row{{Values: vals(num(1)), Documents: 1, Line: 2}, {Values: vals(num(3)), Documents: 3, Line: 5}},
			errs: []string{"line 4, row 2: field documents: negative count -2"},
		},
		{
			name: "a pretty array", levels: 1,
			in:   "[\n  {\n    \"k0\": 1,\n    \"documents\": 1\n  },\n  {\n    \"k0\": 2,\n    \"documents\": 2\n  }\n]\n",
			rows: []Row{{Values: vals(num(1)), Documents: 1, Line: 2}, {Values: vals(num(2)), Documents: 2, Line: 6}},
		},
		{
			name: "csv rows over two lines", levels: 1,
			in:   "k0,documents\r\n\"two\r\nlines\",1\r\n\r\n\"\"\"c\"\"\",x\r\n",
			rows: []Row{{Values: vals(str("two\nlines")), Documents: 1, Line: 2}},
			errs: []string{`line 5: column documents: "x" is not a number`},
		},
		// Cells and fields are JSON as ingest reads it.
		{
			name: "csv cells as JSON text", levels: 1,
			in: "k0,documents,bytes\nTRUE,1,\n007,1,\n12345678901234567890,1,\n\"{\"\"$numberLong\"\":\"\"5\"\"}\",1,\n\"\"\"x\"\"\",\"\"\"12\"\"\",null\n\"\"\"y\"\"\",null,1\n",
			rows: []Row{
				{Values: vals(str("TRUE")), Documents: 1, Line: 2},
				{Values: vals(str("007")), Documents: 1, Line: 3},
				{Values: vals(num(12345678901234567890)), Documents: 1, Line: 4},
				{Values: vals(num(5)), Documents: 1, Line: 5},
				{Values: vals(str("x")), Documents: 12, Line: 6},
			},
			errs: []string{"line 7: column documents: missing document count"},
		},
		{
			name: "extended json fields", levels: 2,
			in:   `[{"k0":{"$numberLong":"5"},"k1":{"$oid":"5f1b"},"documents":{"$numberInt":"3"},"bytes":{"$numberLong":"300"}}]`,
			rows: []Row{{Values: vals(num(5), str("5f1b")), Documents: 3, Bytes: 300, Line: 1}},
		},
		{
			name: "extended json past int64", levels: 1,
			in:   `{"documents":{"$numberLong":"+1e30"}}`,
			errs: []string{"line 1, row 1: field documents: 1e+30 is too large"},
		},
		{
			name: "a field given twice", levels: 1,
			in:   `{"k0":"a","k0":"b","documents":1}`,
			rows: []Row{{Values: vals(str("b")), Documents: 1, Line: 1}},
		},
	})
}

func negZero() float64 {
	z := 0.0
	return -z
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestReadError(t *testing.T) {
	_, errs := Read(failingReader{}, 1)
	checkErrs(t, errs, []string{"reading aggregates: disk on fire"})
	_, errs = Read(io.MultiReader(strings.NewReader("k0,documents\n1,2\n"), failingReader{}), 1)
	checkErrs(t, errs, []string{"reading CSV: disk on fire"})
	// Front ends tell documents apart to say how to analyze them.
	for _, in := range []string{`{"id":"1"}`, "id,name\n1,a\n"} {
		if _, errs = Read(strings.NewReader(in), 1); len(errs) != 1 || !errors.Is(errs[0], ErrDocuments) {
			t.Errorf("%q: %v, want ErrDocuments", in, errs)
		}
	}
}

// TestReadEngineOutput reads hand-written copies of what each engine prints
// for the golden queries run on testdata/documents.jsonl: the columns must
// be the ones the query names, and the rows those key.Extract gives for the
// same documents, except where an engine is known to differ (Spark types
// the tenantId column as a string, so 42 and "42" merge).
func TestReadEngineOutput(t *testing.T) {
	sparkHash := []Row{
		{Values: vals(str("contoso")), Documents: 3, Bytes: 368, Line: 2},
		{Values: vals(str("42")), Documents: 2, Bytes: 238, Line: 3},
		{Values: vals(str("true")), Documents: 1, Bytes: 107, Line: 4},
		{Values: vals(u), Documents: 2, Bytes: 168, Line: 5},
		{Values: vals(str("Zürich")), Documents: 1, Bytes: 128, Line: 6},
		{Values: vals(str(`a,"b"`)), Documents: 1, Bytes: 118, Line: 7},
	}
	sparkHier := []Row{
		{Values: vals(str("contoso"), str("alice"), str("s1")), Documents: 1, Bytes: 129, Line: 2},
		{Values: vals(str("contoso"), str("alice"), str("s2")), Documents: 1, Bytes: 119, Line: 3},
		{Values: vals(str("contoso"), str("bob"), str("s1")), Documents: 1, Bytes: 120, Line: 4},
		{Values: vals(str("42"), str("carol"), str("s1")), Documents: 2, Bytes: 238, Line: 5},
		{Values: vals(str("true"), str("dave"), u), Documents: 1, Bytes: 107, Line: 6},
		{Values: vals(u, str("erin"), str("s9")), Documents: 1, Bytes: 78, Line: 7},
		{Values: vals(u, str("frank"), str("s1")), Documents: 1, Bytes: 90, Line: 8},
		{Values: vals(str("Zürich"), str("gaby"), str("s1")), Documents: 1, Bytes: 128, Line: 9},
		{Values: vals(str(`a,"b"`), str("hal"), str("s1")), Documents: 1, Bytes: 118, Line: 10},
	}
	tests := []struct {
		engine Engine
		name   string // of the golden query
		file   string
		rows   []Row // nil: compare with key.Extract
		bytes  bool  // bytes must match the documents' compact JSON size
	}{
		{DuckDB, "hash", "duckdb-hash.csv", nil, true},
		{DuckDB, "hierarchical", "duckdb-hierarchical.csv", nil, true},
		{DuckDB, "bucket", "duckdb-bucket.csv", nil, true},
		{DuckDB, "suffix", "duckdb-suffix.csv", nil, true},
		{Spark, "hash", "spark-hash.csv", sparkHash, false},
		{Spark, "hierarchical", "spark-hierarchical.csv", sparkHier, false},
		{Spark, "bucket", "spark-bucket.csv", nil, false},
		{Spark, "suffix", "spark-suffix.csv", nil, false},
		{Cosmos, "hash", "cosmos-hash.json", nil, false},
		{Cosmos, "hierarchical", "cosmos-hierarchical.json", nil, false},
		{Cosmos, "bucket", "cosmos-bucket.json", nil, false},
	}
	specs := map[string]string{}
	for _, g := range goldenSpecs {
		specs[g.name] = g.spec
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			spec, err := key.Parse(specs[tt.name])
			if err != nil {
				t.Fatal(err)
			}
			q, err := Query(spec, tt.engine, "")
			if err != nil {
				t.Fatal(err)
			}
			cols := outputColumns(q)
			wantCols := []string{"k0", "k1", "k2"}[:spec.Levels()]
			wantCols = append(wantCols, "documents", "bytes")
			if !reflect.DeepEqual(cols, wantCols) {
				t.Errorf("the query's columns are %q, want %q", cols, wantCols)
			}
			data, err := os.ReadFile(filepath.Join("testdata", "output", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(tt.file, ".csv") {
				if head, _, _ := strings.Cut(string(data), "\n"); head != strings.Join(cols, ",") {
					t.Errorf("the fixture's header is %q, the query's columns %q", head, cols)
				}
			} else {
				for _, f := range regexp.MustCompile(`"(\w+)":`).FindAllStringSubmatch(string(data), -1) {
					if f[1] != "Documents" && f[1] != "_rid" && f[1] != "_count" && !contains(cols, f[1]) {
						t.Errorf("the fixture has field %q, which the query does not name", f[1])
					}
				}
			}

			rows, errs := Read(strings.NewReader(string(data)), spec.Levels())
			checkErrs(t, errs, nil)
			if tt.rows != nil {
				checkRows(t, rows, tt.rows)
				return
			}
			want := extractAll(t, spec)
			got := map[string]Row{}
			for _, r := range rows {
				k := fmt.Sprint(r.Values)
				g := got[k]
				g.Values, g.Documents, g.Bytes = r.Values, g.Documents+r.Documents, g.Bytes+r.Bytes
				got[k] = g
				if r.Bytes <= 0 {
					t.Errorf("line %d: bytes %d", r.Line, r.Bytes)
				}
			}
			if len(got) != len(want) {
				t.Errorf("%d key values, key.Extract gives %d", len(got), len(want))
			}
			for k, w := range want {
				g, ok := got[k]
				switch {
				case !ok:
					t.Errorf("no row for %s", k)
				case g.Documents != w.Documents:
					t.Errorf("%s: %d documents, want %d", k, g.Documents, w.Documents)
				case tt.bytes && g.Bytes != w.Bytes:
					t.Errorf("%s: %d bytes, want %d", k, g.Bytes, w.Bytes)
				}
			}
		})
	}
}

// extractAll aggregates testdata/documents.jsonl by spec as pkcalc does
// with a sample.
func extractAll(t *testing.T, spec key.Spec) map[string]Row {
	t.Helper()
	r := ingest.NewReader(open(t, "documents.jsonl"))
	out := map[string]Row{}
	for {
		doc, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		v, _ := spec.Extract(&doc.Root, nil)
		k := fmt.Sprint(v)
		row := out[k]
		row.Values, row.Documents, row.Bytes = v, row.Documents+1, row.Bytes+int64(doc.Bytes)
		out[k] = row
	}
}

// outputColumns lists the names of the last SELECT's columns in a query.
func outputColumns(q string) []string {
	var code []string
	for _, line := range strings.Split(q, "\n") {
		if !strings.HasPrefix(line, "--") {
			code = append(code, line)
		}
	}
	text := strings.Join(code, "\n")
	sel := text[strings.LastIndex(text, "SELECT ")+len("SELECT "):]
	sel = sel[:strings.Index(sel, "\nFROM")]
	var cols []string
	depth, start := 0, 0
	for i := 0; i <= len(sel); i++ {
		if i < len(sel) {
			switch sel[i] {
			case '(':
				depth++
			case ')':
				depth--
			}
			if sel[i] != ',' || depth > 0 {
				continue
			}
		}
		item := strings.TrimSpace(sel[start:i])
		if j := strings.LastIndex(item, " AS "); j >= 0 {
			item = item[j+len(" AS "):]
		}
		cols = append(cols, item)
		start = i + 1
	}
	return cols
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func FuzzRead(f *testing.F) {
	for _, dir := range []string{"read", "output"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*"))
		for _, name := range files {
			if data, err := os.ReadFile(name); err == nil {
				f.Add(data, uint8(1))
				f.Add(data, uint8(3))
			}
		}
	}
	f.Add([]byte(`{"Documents":[{"k0":1,"documents":1}]}`), uint8(1))
	f.Add([]byte("k0,k1,documents,bytes,requests\n\"[1]\",,1,2,3\n"), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, levels uint8) {
		lv := int(levels % 5) // 0 and 4 are refused
		rows, errs := Read(strings.NewReader(string(data)), lv)
		for _, r := range rows {
			if len(r.Values) != lv || r.Documents < 0 || r.Bytes < 0 || r.Requests < 0 || r.Line < 1 {
				t.Fatalf("bad row %+v for %d levels", r, lv)
			}
		}
		for _, err := range errs {
			if err == nil {
				t.Fatal("nil error")
			}
		}
	})
}

// TestSizeRows: rows without bytes get the average document size; a size
// past int64 is held at its end instead of turning negative.
func TestSizeRows(t *testing.T) {
	rows := []Row{{Documents: 3}, {Documents: 3, Bytes: 10}, {Documents: 1 << 60}}
	SizeRows(rows, 1024)
	if rows[0].Bytes != 3072 || rows[1].Bytes != 10 || rows[2].Bytes != math.MaxInt64 {
		t.Errorf("%+v", rows)
	}
}

// TestRowNumbers: a JSON row keeps its number among the rows, by which a
// later message (a row past the limits) can name it on a line of many.
func TestRowNumbers(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []int
	}{
		{`[{"k0":"a","documents":1},{"k0":"b","documents":2},{"k0":"c","documents":3}]`, []int{1, 2, 3}},
		{`[{"k0":"a","documents":1},{"k0":"b","documents":-1},{"k0":"c","documents":3}]`, []int{1, 3}},
		{"{\"k0\":\"a\",\"documents\":1}\n{\"k0\":\"b\",\"documents\":2}\n", []int{1, 2}},
		{"k0,documents\na,1\nb,2\n", []int{0, 0}},
	} {
		rows, _ := Read(strings.NewReader(tt.in), 1)
		var got []int
		for _, r := range rows {
			got = append(got, r.Row)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: rows numbered %v, want %v", tt.in, got, tt.want)
		}
	}
}
