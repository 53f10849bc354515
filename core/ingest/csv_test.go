package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"
	"unicode/utf8"

	"github.com/pkcalc/pkcalc/core/jsontree"
)

type csvResult struct {
	docs   []*Document
	errs   []*Error
	other  []error  // errors that are not *Error
	events []string // everything Next returned, in order, for comparing two reads
	format string
	offset int64 // Offset() at the end
}

// readCSV reads src to io.EOF, checking what must hold for any input;
// set sets the reader's options.
func readCSV(t testing.TB, in []byte, src io.Reader, set ...func(*CSVReader)) csvResult {
	t.Helper()
	r := NewCSVReader(src)
	for _, f := range set {
		f(r)
	}
	var res csvResult
	lastIndex, lastOffset := 0, int64(0)
	for i := 0; ; i++ {
		if i > len(in)+10 {
			t.Fatalf("Next did not reach io.EOF after %d calls", i)
		}
		before := r.Offset()
		d, err := r.Next()
		if r.Offset() < before || r.Offset() > int64(len(in)) {
			t.Fatalf("Offset went from %d to %d (input %d bytes)", before, r.Offset(), len(in))
		}
		if err == io.EOF {
			if d != nil {
				t.Fatal("a document with io.EOF")
			}
			break
		}
		if err != nil {
			if d != nil {
				t.Fatal("a document with an error")
			}
			var e *Error
			if !errors.As(err, &e) {
				res.other = append(res.other, err)
				res.events = append(res.events, "read error: "+err.Error())
				continue
			}
			res.errs = append(res.errs, e)
			res.events = append(res.events, fmt.Sprintf("error %v offset=%d skipped=%v", e, e.Offset, e.Skipped))
			checkPosition(t, in, "error "+e.Error(), e.Line, e.Column, e.Offset)
			if e.Document != 0 {
				if e.Document <= lastIndex {
					t.Fatalf("error for document %d after document %d", e.Document, lastIndex)
				}
				lastIndex = e.Document
			}
			continue
		}
		res.docs = append(res.docs, d)
		text := d.Root.JSON()
		res.events = append(res.events, fmt.Sprintf("doc %d line=%d offset=%d bytes=%d %s notes=%v", d.Index, d.Line, d.Offset, d.Bytes, text, d.Notes))
		if d.Root.Kind != jsontree.Object {
			t.Fatalf("document %d is %v", d.Index, d.Root.Kind)
		}
		if d.Bytes != len(text) {
			t.Fatalf("document %d: Bytes %d, len(Root.JSON()) %d", d.Index, d.Bytes, len(text))
		}
		if !json.Valid([]byte(text)) || !utf8.ValidString(text) {
			t.Fatalf("document %d is not valid JSON: %q", d.Index, text)
		}
		if d.Index <= lastIndex {
			t.Fatalf("document %d after %d", d.Index, lastIndex)
		}
		lastIndex = d.Index
		if d.Offset < lastOffset {
			t.Fatalf("document %d at offset %d, before %d", d.Index, d.Offset, lastOffset)
		}
		lastOffset = d.Offset
		checkPosition(t, in, fmt.Sprintf("document %d", d.Index), d.Line, 1, d.Offset)
		for _, n := range d.Notes {
			checkPosition(t, in, "note "+n.Error(), n.Line, n.Column, n.Offset)
		}
	}
	res.format = r.Format()
	res.offset = r.Offset()
	return res
}

// checkPosition checks that a byte offset is at the line and column given,
// columns on the first line counting from after a byte order mark.
func checkPosition(t testing.TB, in []byte, what string, line, col int, off int64) {
	t.Helper()
	if off < 0 || off > int64(len(in)) {
		t.Fatalf("%s: offset %d outside the input", what, off)
	}
	// A line ends at '\n', at '\r' and at both together.
	l, start := 1, int64(0)
	for i, c := range in[:off] {
		if c == '\n' || c == '\r' && (i+1 == len(in) || in[i+1] != '\n') {
			l, start = l+1, int64(i)+1
		}
	}
	if l == 1 && bytes.HasPrefix(in, []byte("\xEF\xBB\xBF")) {
		start += 3
	}
	if l != line || int(off-start)+1 != col {
		t.Fatalf("%s: offset %d is line %d column %d, want line %d column %d", what, off, l, off-start+1, line, col)
	}
}

// readBoth reads in whole and one byte at a time, and checks that both
// give the same.
func readBoth(t testing.TB, in string, set ...func(*CSVReader)) csvResult {
	t.Helper()
	whole := readCSV(t, []byte(in), strings.NewReader(in), set...)
	one := readCSV(t, []byte(in), iotest.OneByteReader(strings.NewReader(in)), set...)
	if a, b := strings.Join(whole.events, "\n"), strings.Join(one.events, "\n"); a != b || whole.format != one.format || whole.offset != one.offset {
		t.Fatalf("read whole:\n%s\n%s %d\none byte at a time:\n%s\n%s %d", a, whole.format, whole.offset, b, one.format, one.offset)
	}
	if len(whole.other) > 0 {
		t.Fatalf("errors: %v", whole.other)
	}
	if stopped := strings.Contains(whole.errTexts(), "no rows read"); !stopped && whole.offset != int64(len(in)) {
		t.Errorf("Offset at the end is %d, want %d", whole.offset, len(in))
	}
	return whole
}

func (r csvResult) texts() string {
	var out []string
	for _, d := range r.docs {
		out = append(out, d.Root.JSON())
	}
	return strings.Join(out, "\n")
}

func (r csvResult) errTexts() string {
	var out []string
	for _, e := range r.errs {
		out = append(out, e.Error())
	}
	return strings.Join(out, "\n")
}

type csvCase struct {
	name   string
	in     string
	format string   // "" for "CSV"
	want   []string // the documents as JSON
	lines  []int    // their lines, when given
	errs   []string // the errors, as Error() prints them
	notes  []string // the notes of all documents, as Error() prints them
}

func runCSVCases(t *testing.T, tests []csvCase) {
	t.Helper()
	runCSVCasesWith(t, tests)
}

// runCSVCasesWith runs tests on readers set by set.
func runCSVCasesWith(t *testing.T, tests []csvCase, set ...func(*CSVReader)) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := readBoth(t, tt.in, set...)
			format := tt.format
			if format == "" {
				format = "CSV"
			}
			if res.format != format {
				t.Errorf("format %q, want %q", res.format, format)
			}
			if got, want := res.texts(), strings.Join(tt.want, "\n"); got != want {
				t.Errorf("documents\n%s\nwant\n%s", got, want)
			}
			if got, want := res.errTexts(), strings.Join(tt.errs, "\n"); got != want {
				t.Errorf("errors\n%s\nwant\n%s", got, want)
			}
			var notes []string
			for _, d := range res.docs {
				for _, n := range d.Notes {
					notes = append(notes, n.Error())
				}
			}
			if got, want := strings.Join(notes, "\n"), strings.Join(tt.notes, "\n"); got != want {
				t.Errorf("notes\n%s\nwant\n%s", got, want)
			}
			if tt.lines != nil {
				var lines []int
				for _, d := range res.docs {
					lines = append(lines, d.Line)
				}
				if fmt.Sprint(lines) != fmt.Sprint(tt.lines) {
					t.Errorf("lines %v, want %v", lines, tt.lines)
				}
			}
		})
	}
}

func TestCSVTyping(t *testing.T) {
	tests := []struct {
		cell string // as written in the file
		want string // the value as JSON; "" for a missing property
	}{
		{"42", `42`},
		{"-7", `-7`},
		{"0", `0`},
		{"-0", `-0`},
		{"3.14", `3.14`},
		{"0.5", `0.5`},
		{"12.50", `12.50`},
		{"1e5", `1e5`},
		{"1E-2", `1E-2`},
		{"-2.5e+3", `-2.5e+3`},
		{"1e-400", `1e-400`},
		{"123456789012345", `123456789012345`},
		{"9007199254740992", `9007199254740992`},
		{"-9007199254740992", `-9007199254740992`},
		{"9007199254740993", `"9007199254740993"`},
		{"12345678901234567890", `"12345678901234567890"`},
		{"1234567890123456789012.5", `1234567890123456789012.5`},
		{"1e999", `"1e999"`},
		{"007", `"007"`},
		{"00", `"00"`},
		{"-01", `"-01"`},
		{"0.50", `0.50`},
		{"+5", `"+5"`},
		{".5", `".5"`},
		{"5.", `"5."`},
		{"1e", `"1e"`},
		{"1e+", `"1e+"`},
		{"-", `"-"`},
		{"--1", `"--1"`},
		{"1.2.3", `"1.2.3"`},
		{"0x1F", `"0x1F"`},
		{"1_000", `"1_000"`},
		{"12abc", `"12abc"`},
		{"NaN", `"NaN"`},
		{"Infinity", `"Infinity"`},
		{"-Infinity", `"-Infinity"`},
		{"١٢", `"١٢"`},
		{" 42", `" 42"`},
		{"42 ", `"42 "`},
		{`"42"`, `42`},
		{"true", `true`},
		{"TRUE", `true`},
		{"True", `true`},
		{"false", `false`},
		{"FALSE", `false`},
		{"fAlSe", `false`},
		{"falſe", `"falſe"`},
		{"truer", `"truer"`},
		{"t", `"t"`},
		{"yes", `"yes"`},
		{"null", `null`},
		{"NULL", `null`},
		{"Null", `null`},
		{"nul", `"nul"`},
		{"None", `"None"`},
		{`\N`, `"\\N"`},
		{"", ``},
		{`""`, ``},
		{"  ", `"  "`},
		{`"a,b"`, `"a,b"`},
		{`"say ""hi"""`, `"say \"hi\""`},
		{"Zoë", `"Zoë"`},
		{"a\tb", `"a\tb"`},
		{"\"two\nlines\"", `"two\nlines"`},
		{"2024-03-01", `"2024-03-01"`},
	}
	for _, tt := range tests {
		t.Run(tt.cell, func(t *testing.T) {
			in := "v,k\n" + tt.cell + ",x\n"
			res := readBoth(t, in)
			if len(res.docs) != 1 || len(res.errs) != 0 {
				t.Fatalf("docs %q errs %v", res.texts(), res.errs)
			}
			want := `{"k":"x"}`
			if tt.want != "" {
				want = `{"v":` + tt.want + `,"k":"x"}`
			}
			if got := res.texts(); got != want {
				t.Errorf("got %s want %s", got, want)
			}
		})
	}
}

// TestCSVJSONCells: under SetJSONCells a cell that is one JSON value is
// that value, and any other cell a string as written.
func TestCSVJSONCells(t *testing.T) {
	tests := []struct {
		cell string // as written in the file
		want string // the value as JSON; "" for a missing property
	}{
		{`"""contoso"""`, `"contoso"`},
		{`"""42"""`, `"42"`},
		{"42", `42`},
		{"-0", `-0`},
		{"12.50", `12.50`},
		{"12345678901234567890", `12345678901234567890`},
		{"007", `"007"`},
		{"+5", `"+5"`},
		{"true", `true`},
		{"TRUE", `"TRUE"`},
		{"null", `null`},
		{"NULL", `"NULL"`},
		{"contoso", `"contoso"`},
		{`" 7 "`, `7`},
		{`"[1,2"`, `"[1,2"`},
		{`"[1,""a""]"`, `[1,"a"]`},
		{`"{""a"":1}"`, `{"a":1}`},
		{`"{""$numberLong"":""5""}"`, `5`},
		{`"""a""b"`, `"\"a\"b"`},
		{`"""\"""`, `"\"\\\""`},
		{"", ``},
		{"  ", `"  "`},
	}
	for _, tt := range tests {
		t.Run(tt.cell, func(t *testing.T) {
			res := readBoth(t, "v,k\n"+tt.cell+",x\n", func(r *CSVReader) { r.SetJSONCells(true) })
			if len(res.docs) != 1 || len(res.errs) != 0 {
				t.Fatalf("docs %q errs %v", res.texts(), res.errs)
			}
			want := `{"k":"x"}`
			if tt.want != "" {
				want = `{"v":` + tt.want + `,"k":"x"}`
			}
			if got := res.texts(); got != want {
				t.Errorf("got %s want %s", got, want)
			}
		})
	}
	// The JSON reader's notes are the cell's, at its start.
	runCSVCasesWith(t, []csvCase{
		{
			name:  "notes",
			in:    "a,b\n1e999,\"\"\"\xff\"\"\"\n",
			want:  []string{"{\"a\":1e999,\"b\":\"\uFFFD\"}"},
			notes: []string{"line 2, column 1 (document 1): the cell in column 1: number 1e999 is beyond the range of a double, which Cosmos DB uses for every number", "line 2, column 7 (document 1): the cell in column 2: a string that is not valid UTF-8; the bad bytes read as U+FFFD"},
		},
	}, func(r *CSVReader) { r.SetJSONCells(true) })
}

// TestCSVHeaderNames: Header gives the header as written, trimmed, and
// the line it is on, before any row is read.
func TestCSVHeaderNames(t *testing.T) {
	for _, tt := range []struct {
		in    string
		names []string
		line  int
	}{
		{"\n\r\n id , Name,id,,a.b\n1,2,3,4,5\n", []string{"id", "Name", "id", "", "a.b"}, 3},
		{"\xEF\xBB\xBFk0;documents\n1;2\n", []string{"k0", "documents"}, 1},
		{"", nil, 0},
		{"\n\n", nil, 0},
		{"\"a\nb", nil, 0},
		{"[{\"a\":1}]", nil, 0},
	} {
		r := NewCSVReader(strings.NewReader(tt.in))
		names, line := r.Header()
		if fmt.Sprintf("%q", names) != fmt.Sprintf("%q", tt.names) || line != tt.line {
			t.Errorf("%q: header %q on line %d, want %q on line %d", tt.in, names, line, tt.names, tt.line)
		}
		if names == nil {
			continue
		}
		// The rows are read as before.
		if d, err := r.Next(); err != nil || d.Index != 1 {
			t.Errorf("%q: then %v, %v", tt.in, d, err)
		}
	}
}

// TestCSVQuoteRemedy: SetQuoteRemedy adds to the messages on quotes.
func TestCSVQuoteRemedy(t *testing.T) {
	runCSVCasesWith(t, []csvCase{
		{
			name: "quotes",
			in:   "a,b\nx\"y,1\n\"x\"y,2\n3,4\n\"open,5\n",
			want: []string{`{"a":3,"b":4}`},
			errs: []string{
				`line 2, column 2 (document 1): a '"' inside a field that does not start with one: quote the whole field and double the quotes in it ("5"" screen"); do so; skipped`,
				`line 3, column 3 (document 2): a quoted field goes on after its closing '"' (a '"' inside a quoted field must be doubled); do so; skipped`,
				`line 5, column 1 (document 4): the quoted field that starts here never closes: the input ends before its closing '"'; do so; skipped`,
			},
		},
	}, func(r *CSVReader) { r.SetQuoteRemedy("do so") })
}

func TestCSVNumberValues(t *testing.T) {
	res := readBoth(t, "a,b,c,d\n42,1e5,12.50,-0\n")
	want := []jsontree.Value{
		{Kind: jsontree.Number, Num: 42},
		{Kind: jsontree.Number, Num: 100000, Str: "1e5"},
		{Kind: jsontree.Number, Num: 12.5, Str: "12.50"},
		{Kind: jsontree.Number, Num: 0},
	}
	for i, m := range res.docs[0].Root.Members {
		if v := m.Value; v.Kind != want[i].Kind || v.Num != want[i].Num || v.Str != want[i].Str {
			t.Errorf("%s: %+v, want %+v", m.Key, v, want[i])
		}
	}
}

func TestCSVDelimiters(t *testing.T) {
	runCSVCases(t, []csvCase{
		{name: "comma", in: "a,b\n1,x\n", want: []string{`{"a":1,"b":"x"}`}},
		{name: "semicolon", in: "a;b;c\n1,5;x;\n", format: "CSV (semicolon-separated)", want: []string{`{"a":"1,5","b":"x"}`}},
		{name: "tab", in: "a\tb\n1\tx, y\n", format: "TSV", want: []string{`{"a":1,"b":"x, y"}`}},
		{name: "tab keeps spaces", in: "a\t b\n1\t x\n", format: "TSV", want: []string{`{"a":1,"b":" x"}`}},
		{name: "quoted delimiters in the header", in: "\"x,y\";\"z,w\";v\n1;2;3\n", format: "CSV (semicolon-separated)", want: []string{`{"x,y":1,"z,w":2,"v":3}`}},
		{name: "more semicolons than commas", in: "a;b;c,d\n1;2;3,4\n", format: "CSV (semicolon-separated)", want: []string{`{"a":1,"b":2,"c,d":"3,4"}`}},
		{name: "tie goes to comma", in: "a,b;c\n1,2;3\n", want: []string{`{"a":1,"b;c":"2;3"}`}},
		{name: "one column", in: "name\nalice\nbob\n", want: []string{`{"name":"alice"}`, `{"name":"bob"}`}},
		{name: "delimiter after blank lines", in: "\r\n\nx;y\n1;2\n", format: "CSV (semicolon-separated)", want: []string{`{"x":1,"y":2}`}, lines: []int{4}},
		{
			name: "space after every comma",
			in:   "id, name, note\n1, Alice, \"a, b\"\n2,Bob,  c\n",
			want: []string{`{"id":1,"name":"Alice","note":"a, b"}`, `{"id":2,"name":"Bob","note":"c"}`},
		},
		{
			name: "space after some commas",
			in:   "id, name,x\n1, y,z\n",
			want: []string{`{"id":1,"name":" y","x":"z"}`},
		},
	})
}

func TestCSVBOMAndCRLF(t *testing.T) {
	runCSVCases(t, []csvCase{
		{name: "bom and crlf", in: "\xEF\xBB\xBFid,name\r\n1,a\r\n2,b\r\n", want: []string{`{"id":1,"name":"a"}`, `{"id":2,"name":"b"}`}, lines: []int{2, 3}},
		{name: "crlf inside quotes", in: "id,note\r\n1,\"x\r\ny\"\r\n2,z\r\n", want: []string{`{"id":1,"note":"x\ny"}`, `{"id":2,"note":"z"}`}, lines: []int{2, 4}},
		{name: "no newline at the end", in: "id,name\n1,a", want: []string{`{"id":1,"name":"a"}`}},
		{name: "carriage return at the end", in: "id,name\r\n1,a\r", want: []string{`{"id":1,"name":"a"}`}},
		{name: "bom only", in: "\xEF\xBB\xBF"},
		{name: "bom and semicolons", in: "\xEF\xBB\xBFa;b\r\n1;2\r\n", format: "CSV (semicolon-separated)", want: []string{`{"a":1,"b":2}`}},
		{name: "bom in the header is not a name", in: "\xEF\xBB\xBF\"id\",x\n1,2\n", want: []string{`{"id":1,"x":2}`}},
		{name: "empty", in: ""},
		{name: "blank lines", in: "\n\nid\n\n1\n\r\n2\n\n", want: []string{`{"id":1}`, `{"id":2}`}, lines: []int{5, 7}},
		{name: "header only", in: "id,name\n"},
		{name: "header only, no newline", in: "id,name"},
		// A carriage return alone ends a line, as in CSV saved with
		// classic Mac line ends.
		{name: "carriage return alone is a line break", in: "a,b\r1\n3,4\n", want: []string{`{"a":3,"b":4}`}, lines: []int{3},
			errs: []string{"line 2, column 1 (document 1): 1 fields, the header has 2; skipped"}},
	})
}

func TestCSVHeader(t *testing.T) {
	deep := strings.Repeat("a.", MaxDepth) + "b"
	runCSVCases(t, []csvCase{
		{
			name: "nested",
			in:   "id,address.city,address.zip,name\n1,Paris,75001,Ann\n2,,,Bob\n3,Lyon,,Cy\n",
			want: []string{`{"id":1,"address":{"city":"Paris","zip":75001},"name":"Ann"}`, `{"id":2,"name":"Bob"}`, `{"id":3,"address":{"city":"Lyon"},"name":"Cy"}`},
		},
		{name: "nested, apart", in: "a.x,b,a.y\n1,2,3\n", want: []string{`{"a":{"x":1,"y":3},"b":2}`}},
		{name: "nested deeper", in: "a.b.c,a.b.d,a.e,f\n1,2,3,4\n,,,\n", want: []string{`{"a":{"b":{"c":1,"d":2},"e":3},"f":4}`, `{}`}},
		{
			name: "a column where an object would be",
			in:   "address,address.city,address.zip\nx,y,z\n",
			want: []string{`{"address":"x","address.city":"y","address.zip":"z"}`},
			notes: []string{
				`line 1, column 9: column 2 "address.city" cannot nest under "address", which column 1 holds; it is read as the property "address.city"`,
				`line 1, column 22: column 3 "address.zip" cannot nest under "address", which column 1 holds; it is read as the property "address.zip"`,
			},
		},
		{
			name:  "an object where a column would be, later",
			in:    "a.b.c,a.b\n1,2\n",
			want:  []string{`{"a.b.c":1,"a":{"b":2}}`},
			notes: []string{`line 1, column 1: column 1 "a.b.c" cannot nest under "a.b", which column 2 holds; it is read as the property "a.b.c"`},
		},
		{name: "empty parts do not nest", in: ".a,a.,a..b,a.b\n1,2,3,4\n", want: []string{`{".a":1,"a.":2,"a..b":3,"a":{"b":4}}`}},
		{
			name:  "too deep",
			in:    deep + ",x\n1,2\n",
			want:  []string{`{"` + deep + `":1,"x":2}`},
			notes: []string{fmt.Sprintf(`line 1, column 1: column 1 %q would nest deeper than the 128 levels Cosmos DB allows; it is read as the property %q`, deep, deep)},
		},
		{name: "deepest allowed", in: strings.Repeat("a.", MaxDepth-1) + "b\n1\n", want: []string{strings.Repeat(`{"a":`, MaxDepth-1) + `{"b":1}` + strings.Repeat("}", MaxDepth-1)}},
		{
			name: "duplicates",
			in:   "id,name,id,id\n1,a,2,3\n",
			want: []string{`{"id":1,"name":"a","id_2":2,"id_3":3}`},
			notes: []string{
				`line 1, column 9: column 3 repeats the name "id" of column 1; it is read as "id_2"`,
				`line 1, column 12: column 4 repeats the name "id" of column 1; it is read as "id_3"`,
			},
		},
		{
			name:  "renamed around a name that is taken",
			in:    "id,id,id_2\n1,2,3\n",
			want:  []string{`{"id":1,"id_3":2,"id_2":3}`},
			notes: []string{`line 1, column 4: column 2 repeats the name "id" of column 1; it is read as "id_3"`},
		},
		{
			name:  "nested duplicate",
			in:    "a.b,a.b\n1,2\n",
			want:  []string{`{"a":{"b":1,"b_2":2}}`},
			notes: []string{`line 1, column 5: column 2 repeats the name "a.b" of column 1; it is read as "a.b_2"`},
		},
		{
			name:  "duplicates after trimming",
			in:    "\"id\",\" id\"\n1,2\n",
			want:  []string{`{"id":1,"id_2":2}`},
			notes: []string{`line 1, column 6: column 2 repeats the name "id" of column 1; it is read as "id_2"`},
		},
		{
			name:  "no name",
			in:    "a,,c\n1,2,3\n",
			want:  []string{`{"a":1,"column_2":2,"c":3}`},
			notes: []string{`line 1, column 3: column 2 has no name; it is read as "column_2"`},
		},
		{
			name:  "trailing comma on every line",
			in:    "a,b,\n1,2,\n",
			want:  []string{`{"a":1,"b":2}`},
			notes: []string{`line 1, column 5: column 3 has no name; it is read as "column_3"`},
		},
		{
			name:  "no name, and the fallback is taken",
			in:    ",column_1\n1,2\n",
			want:  []string{`{"column_1_2":1,"column_1":2}`},
			notes: []string{`line 1, column 1: column 1 has no name; it is read as "column_1_2"`},
		},
		{name: "names are trimmed", in: "\" id \",\"na me \"\n1,x\n", want: []string{`{"id":1,"na me":"x"}`}},
		{
			name:  "invalid utf-8 in a name",
			in:    "\xEF\xBB\xBFn\xffm,x\n1,2\n",
			want:  []string{"{\"n\uFFFDm\":1,\"x\":2}"},
			notes: []string{`line 1, column 1: the name of column 1 is not valid UTF-8; the bad bytes read as U+FFFD`},
		},
		{
			// A second byte order mark, as a program that did not expect
			// the first writes it again, stays in the first name; a
			// zero-width space inside another does not show either.
			name: "names that do not show as themselves",
			in:   "\ufeff\ufeffISO,ten\u200bant,n\n1,2,3\n",
			want: []string{"{\"\ufeffISO\":1,\"ten\u200bant\":2,\"n\":3}"},
			notes: []string{
				`line 1, column 1: the name of column 1, "\ufeffISO", holds a byte order mark (U+FEFF) before "ISO": it reads as "ISO" but is another name, and a key or query naming "ISO" does not find it`,
				`line 1, column 8: the name of column 2, "ten\u200bant", holds a zero-width space (U+200B) inside "tenant": it reads as "tenant" but is another name, and a key or query naming "tenant" does not find it`,
			},
		},
	})
}

func TestCSVErrors(t *testing.T) {
	runCSVCases(t, []csvCase{
		{
			name:  "ragged rows",
			in:    "a,b,c,d\n1,2,3,4\n1,2,3\n\n1,2,3,4,5\n5,6,7,8\n1,2,3,4,5\n9,9,9,9\n",
			want:  []string{`{"a":1,"b":2,"c":3,"d":4}`, `{"a":5,"b":6,"c":7,"d":8}`, `{"a":9,"b":9,"c":9,"d":9}`},
			lines: []int{2, 6, 8},
			errs: []string{
				"line 3, column 1 (document 2): 3 fields, the header has 4; skipped",
				"line 5, column 9 (document 3): 5 fields, the header has 4; skipped",
				"line 7, column 9 (document 5): 5 fields, the header has 4; skipped",
			},
		},
		{
			name:  "ragged row after a quoted newline",
			in:    "a,b\n\"x\ny\",1,2\n3,4\n",
			want:  []string{`{"a":3,"b":4}`},
			lines: []int{4},
			errs:  []string{"line 3, column 6 (document 1): 3 fields, the header has 2; skipped"},
		},
		{
			name:  "bare quote",
			in:    "id,size\n1,5\" screen\n2,ok\n",
			want:  []string{`{"id":2,"size":"ok"}`},
			lines: []int{3},
			errs:  []string{`line 2, column 4 (document 1): a '"' inside a field that does not start with one: quote the whole field and double the quotes in it ("5"" screen"); skipped`},
		},
		{
			name:  "text after a closing quote",
			in:    "id,s\n1,\"ab\"c\n2,x\n",
			want:  []string{`{"id":2,"s":"x"}`},
			errs:  []string{`line 2, column 6 (document 1): a quoted field goes on after its closing '"' (a '"' inside a quoted field must be doubled); skipped`},
			lines: []int{3},
		},
		{
			name: "text after a closing quote on the last line",
			in:   "id,s\n1,\"ab\"c",
			errs: []string{`line 2, column 6 (document 1): a quoted field goes on after its closing '"' (a '"' inside a quoted field must be doubled); skipped`},
		},
		{
			name: "text after a closing quote on the last line, crlf",
			in:   "id,s\r\n1,\"ab\"cd\r\n",
			errs: []string{`line 2, column 6 (document 1): a quoted field goes on after its closing '"' (a '"' inside a quoted field must be doubled); skipped`},
		},
		// A quote that never closes is stray: the rows on the lines after
		// it are read, not taken into its field.
		{
			name:  "a quote that never closes",
			in:    "id,s\n1,a\n2,\"open\n3,x\n\n4,y\n",
			want:  []string{`{"id":1,"s":"a"}`, `{"id":3,"s":"x"}`, `{"id":4,"s":"y"}`},
			lines: []int{2, 4, 6},
			errs:  []string{`line 3, column 3 (document 2): the quoted field that starts here never closes: the input ends before its closing '"'; skipped, and reading goes on at line 4, after the quote's line`},
		},
		{
			name: "a quote that never closes, on the last line",
			in:   "id,s\n1,\"abc",
			errs: []string{`line 2, column 3 (document 1): the quoted field that starts here never closes: the input ends before its closing '"'; skipped`},
		},
		{
			name: "a quote that never closes, before a carriage return",
			in:   "id,s\n1,\"abc\r",
			errs: []string{`line 2, column 3 (document 1): the quoted field that starts here never closes: the input ends before its closing '"'; skipped`},
		},
		{
			name:  "errors after quoted newlines keep their lines",
			in:    "id,note,n\n1,\"a\nb\nc\",1\n2,x,2\n3,\"y\"z,3\n4,\"p\nq\"r,4\n5,ok,5\n",
			want:  []string{`{"id":1,"note":"a\nb\nc","n":1}`, `{"id":2,"note":"x","n":2}`, `{"id":5,"note":"ok","n":5}`},
			lines: []int{2, 5, 9},
			errs: []string{
				`line 6, column 5 (document 3): a quoted field goes on after its closing '"' (a '"' inside a quoted field must be doubled); skipped`,
				// A quote followed by text a line after the field's own
				// makes its opening quote the suspect: the line after it
				// is read again, on its own.
				`line 7, column 3 (document 4): the quoted field that starts here runs on to line 8, where a '"' is followed by other text: is its closing '"' missing?; skipped, and reading goes on at line 8, after the quote's line`,
				`line 8, column 2 (document 5): a '"' inside a field that does not start with one: quote the whole field and double the quotes in it ("5"" screen"); skipped`,
			},
		},
		// A file that is not text is one problem, said as what it is.
		{name: "utf-16", in: "\xff\xfei\x00d\x00,\x00s\x00\n\x001\x00", errs: []string{"line 1, column 1: the input is UTF-16 text: save it as UTF-8 (Windows PowerShell's > writes UTF-16; pipe to Out-File -Encoding utf8 instead); no rows read"}},
		{name: "utf-16 without a byte order mark", in: "i\x00d\x00,\x00s\x00\n\x001\x00", errs: []string{"line 1, column 1: the input is UTF-16 text: save it as UTF-8 (Windows PowerShell's > writes UTF-16; pipe to Out-File -Encoding utf8 instead); no rows read"}},
		{name: "gzip", in: "\x1f\x8b\x08\x00\x00\x00\x00\x00", errs: []string{"line 1, column 1: the input is gzip-compressed: decompress it first (gunzip FILE); no rows read"}},
		{name: "excel", in: "PK\x03\x04\x14\x00\x06\x00[Content_Types].xml xl/workbook.xml", errs: []string{"line 1, column 1: the input is an Excel workbook, not CSV: save the sheet as CSV UTF-8 and read that; no rows read"}},
		{name: "a pdf", in: "%PDF-1.7\n", errs: []string{"line 1, column 1: the input is a PDF document, not CSV: choose the CSV file; no rows read"}},
		{name: "a 7-zip archive", in: "7z\xbc\xaf\x27\x1c\x00\x04", errs: []string{"line 1, column 1: the input is a 7-Zip archive: extract the CSV file from it first; no rows read"}},
		// JSON read as CSV is said to be JSON, not a bad header.
		{name: "a json array", in: "[\n  {\"a\": 1}\n]\n", errs: []string{"line 1, column 1: the input looks like JSON, not CSV: read it as JSON, from a file not named .csv or sent as application/json; no rows read"}},
		{name: "json lines", in: "{\"a\":1}\n{\"a\":2}\n", errs: []string{"line 1, column 1: the input looks like JSON, not CSV: read it as JSON, from a file not named .csv or sent as application/json; no rows read"}},
		{name: "a header in brackets", in: "[id],{name}\n1,a\n", want: []string{`{"[id]":1,"{name}":"a"}`}},
		// A stray NUL is a character of its cell, not a binary file.
		{name: "a NUL in a cell", in: "id,s\n1,a\x00b\n2,c\n", want: []string{`{"id":1,"s":"a\u0000b"}`, `{"id":2,"s":"c"}`}},
		{
			name: "header that cannot be read",
			in:   "id,si\"ze\n1,2\n",
			errs: []string{`line 1, column 6: the header row cannot be read: a '"' inside a field that does not start with one: quote the whole field and double the quotes in it ("5"" screen"); no rows read`},
		},
	})
}

func TestCSVHeaderErrorStops(t *testing.T) {
	r := NewCSVReader(strings.NewReader("a\"b\n1\n"))
	if _, err := r.Next(); err == nil {
		t.Fatal("want an error")
	} else if e := err.(*Error); e.Skipped || e.Document != 0 {
		t.Errorf("%+v", e)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("then io.EOF, got %v", err)
	}
}

func TestCSVNotes(t *testing.T) {
	res := readBoth(t, "id,s,t\n1,a\xffb,\xfe\n2,ok,ok\n")
	if got, want := res.texts(), "{\"id\":1,\"s\":\"a\uFFFDb\",\"t\":\"\uFFFD\"}\n{\"id\":2,\"s\":\"ok\",\"t\":\"ok\"}"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	notes := res.docs[0].Notes
	if len(notes) != 2 || notes[0].Error() != "line 2, column 3 (document 1): the cell in column 2 is not valid UTF-8; the bad bytes read as U+FFFD" ||
		notes[1].Line != 2 || notes[1].Column != 7 {
		t.Errorf("notes %v", notes)
	}
	if len(res.docs[1].Notes) != 0 {
		t.Errorf("notes on the second row: %v", res.docs[1].Notes)
	}
}

func TestCSVLargeRow(t *testing.T) {
	in := "id,s\n1," + strings.Repeat("x", 3<<20) + "\n2,ok\n"
	res := readCSV(t, []byte(in), strings.NewReader(in))
	if res.texts() != `{"id":2,"s":"ok"}` {
		t.Errorf("kept %.100s", res.texts())
	}
	if res.errTexts() != "line 2, column 3 (document 1): field 2 takes the row past 2 MB of text, more than the 2 MB Cosmos DB allows for an item; skipped" {
		t.Errorf("errors: %s", res.errTexts())
	}
}

func TestCSVDocuments(t *testing.T) {
	in := "\xEF\xBB\xBFid,note\r\n\r\n1,\"a\r\n\"\"b\"\"\"\r\n2,c\r\n"
	res := readBoth(t, in)
	if len(res.docs) != 2 {
		t.Fatalf("docs %s", res.texts())
	}
	for i, want := range []struct {
		index, line int
		offset      int64
		text        string
	}{
		{1, 3, 14, `{"id":1,"note":"a\n\"b\""}`},
		{2, 5, 28, `{"id":2,"note":"c"}`},
	} {
		d := res.docs[i]
		if d.Index != want.index || d.Line != want.line || d.Offset != want.offset || d.Root.JSON() != want.text || d.Bytes != len(want.text) {
			t.Errorf("document %d: index %d line %d offset %d bytes %d %s", i+1, d.Index, d.Line, d.Offset, d.Bytes, d.Root.JSON())
		}
	}
}

func TestCSVOffset(t *testing.T) {
	in := "id\n1\n22\n333\n"
	r := NewCSVReader(strings.NewReader(in))
	if r.Offset() != 0 || r.Format() != "CSV" {
		t.Fatalf("before reading: %d %q", r.Offset(), r.Format())
	}
	for _, want := range []int64{5, 8, 12} {
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
		if r.Offset() != want {
			t.Errorf("Offset %d, want %d", r.Offset(), want)
		}
	}
}

func TestCSVReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	for _, tt := range []struct {
		name string
		in   string
		docs int
	}{
		{"before anything", "", 0},
		{"inside the header", "id,na", 0},
		{"after a row", "id\n1\n", 1},
		{"inside a row", "id\n1\n2", 1},
		{"inside a quoted field", "id\n1\n\"2\n", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := NewCSVReader(io.MultiReader(iotest.OneByteReader(strings.NewReader(tt.in)), iotest.ErrReader(boom)))
			for i := 0; i < tt.docs; i++ {
				if d, err := r.Next(); err != nil || d == nil {
					t.Fatalf("document %d: %v", i+1, err)
				}
			}
			if _, err := r.Next(); !errors.Is(err, boom) {
				t.Fatalf("want the read error, got %v", err)
			}
			if _, err := r.Next(); err != io.EOF {
				t.Fatalf("then io.EOF, got %v", err)
			}
		})
	}
}

// TestCSVFile reads an export with a byte order mark, CRLF line ends, SQL
// NULLs, codes with leading zeros, a quoted CRLF and two bad rows.
func TestCSVFile(t *testing.T) {
	in, err := os.ReadFile("testdata/csv-orders.csv")
	if err != nil {
		t.Fatal(err)
	}
	res := readBoth(t, string(in))
	want := []string{
		`{"OrderId":1001,"CustomerId":"C-0042","Status":"Shipped","Total":129.90,"Currency":"EUR","PostalCode":"07001","Address":{"City":"Paris","Country":"FR"},"Shipped":true,"DeletedAt":null}`,
		`{"OrderId":1002,"CustomerId":"C-0007","Status":"Pending","Total":15,"Currency":"USD","PostalCode":"02139","Address":{"City":"Cambridge","Country":"US"},"Shipped":false,"Notes":"Leave at the door, please","DeletedAt":null}`,
		`{"OrderId":1003,"CustomerId":"C-0042","Status":"Cancelled","Total":0.00,"Currency":"EUR","PostalCode":75001,"Shipped":false,"Notes":"Customer wrote:\n\"cancel it\"","DeletedAt":"2024-03-01T10:00:00Z"}`,
		`{"OrderId":1004,"CustomerId":"C-0100","Status":"Shipped","Total":1e3,"Currency":"GBP","PostalCode":"SW1A 1AA","Address":{"City":"London","Country":"GB"},"Shipped":true}`,
		`{"OrderId":1007,"CustomerId":"C-0102","Status":"Shipped","Total":-3.20,"Currency":"EUR","PostalCode":1000,"Address":{"City":"Bruxelles","Country":"BE"},"Shipped":true,"Notes":"Remboursé","DeletedAt":null}`,
	}
	if got := res.texts(); got != strings.Join(want, "\n") {
		t.Errorf("documents\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	wantErrs := []string{
		`line 7, column 58 (document 5): a quoted field goes on after its closing '"' (a '"' inside a quoted field must be doubled); skipped`,
		`line 8, column 58 (document 6): 12 fields, the header has 11; skipped`,
	}
	if got := res.errTexts(); got != strings.Join(wantErrs, "\n") {
		t.Errorf("errors\n%s\nwant\n%s", got, strings.Join(wantErrs, "\n"))
	}
	var lines []int
	for _, d := range res.docs {
		lines = append(lines, d.Line)
	}
	if fmt.Sprint(lines) != "[2 3 4 6 9]" {
		t.Errorf("lines %v", lines)
	}
}

func FuzzCSV(f *testing.F) {
	for _, s := range []string{
		"",
		"id,name\n1,a\n2,b\n",
		"\xEF\xBB\xBFid;x.y;x.z\r\n1;2;\r\n",
		"a\tb\n1\t\"x\ny\"\n",
		"a,a,,a.b\n1,2,3,4,5\n\"x\"y,2\n",
		"id, n\n1, \"a, b\"\n2,\"open\n",
		"k,v\n1,007\n2,1e999\n3,NULL\n4,true\n5,9007199254740993\n",
		"a\n\"\n",
		"\r\r\n\"\"\r\n",
	} {
		f.Add([]byte(s))
	}
	if b, err := os.ReadFile("testdata/csv-orders.csv"); err == nil {
		f.Add(b)
	}
	// The CSV of the shared corpus of hostile inputs.
	files, _ := filepath.Glob("../../testdata/hostile/*.csv")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, set := range [][]func(*CSVReader){nil, {func(r *CSVReader) { r.SetJSONCells(true) }}} {
			whole := readCSV(t, in, bytes.NewReader(in), set...)
			one := readCSV(t, in, iotest.OneByteReader(bytes.NewReader(in)), set...)
			if a, b := strings.Join(whole.events, "\n"), strings.Join(one.events, "\n"); a != b || whole.offset != one.offset || whole.format != one.format {
				t.Fatalf("read whole:\n%s\none byte at a time:\n%s", a, b)
			}
			if len(whole.other) > 0 {
				t.Fatalf("errors: %v", whole.other)
			}
		}
	})
}

func BenchmarkCSVReader(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString("id,customer.id,customer.name,status,total,created,note\n")
	for i := 0; buf.Len() < 4<<20; i++ {
		fmt.Fprintf(&buf, "%d,C-%05d,Customer %d,%s,%d.%02d,2024-03-%02dT10:00:00Z,\"note, %d\"\n", i, i%997, i%997, []string{"open", "shipped", "NULL"}[i%3], i%500, i%100, 1+i%28, i)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewCSVReader(bytes.NewReader(data))
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
}

func TestCSVWideHeader(t *testing.T) {
	// Many repeated names, dotted names and empty names stay fast.
	const n = 100000
	var hdr strings.Builder
	for i := 0; i < n; i++ {
		hdr.WriteString([]string{"a,", "b.c,", ","}[i%3])
	}
	hdr.WriteString("z\n")
	in := hdr.String() + strings.Repeat("1,", n) + "2\n"
	start := time.Now()
	r := NewCSVReader(strings.NewReader(in))
	docs, errs := 0, 0
	var notes []*Error
	for {
		d, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			errs++
		} else if docs++; len(d.Root.Members) != 66669 {
			t.Errorf("properties %d", len(d.Root.Members))
		} else {
			notes = d.Notes
		}
	}
	// The renamed columns are notes, ten and a count of the rest.
	if docs != 1 || errs != 0 || len(notes) != 10 {
		t.Fatalf("docs %d errors %d notes %d", docs, errs, len(notes))
	}
	if want := `; and 99988 more notes on the header's names`; !strings.HasSuffix(notes[9].Error(), want) {
		t.Errorf("last note %v", notes[9])
	}
	// A bound for a hang or a quadratic pass (minutes), not for speed:
	// BenchmarkCSVWideHeader measures that.
	if d := time.Since(start); d > 2*time.Minute {
		t.Errorf("took %v", d)
	}
}

func BenchmarkCSVWideHeader(b *testing.B) {
	const n = 100000
	var hdr strings.Builder
	for i := 0; i < n; i++ {
		hdr.WriteString([]string{"a,", "b.c,", ","}[i%3])
	}
	hdr.WriteString("z\n")
	in := hdr.String() + strings.Repeat("1,", n) + "2\n"
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		r := NewCSVReader(strings.NewReader(in))
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			}
		}
	}
}

func TestCSVBufferStaysSmall(t *testing.T) {
	// Blank lines and rows read are not kept.
	in := "id\n" + strings.Repeat("\n\r\n\r", 200000) + strings.Repeat("1\n", 200000)
	r := NewCSVReader(strings.NewReader(in))
	most := 0
	for {
		if _, err := r.Next(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		most = max(most, cap(r.s.buf))
	}
	if most > 64<<10 {
		t.Errorf("a buffer of up to %d bytes", most)
	}
}

// TestCSVLineEnds: a line ends at "\n", "\r\n" or a "\r" alone, as CSV saved
// with classic Mac line ends has them; encoding/csv read such a file as one
// line, a header and no rows.
func TestCSVLineEnds(t *testing.T) {
	runCSVCases(t, []csvCase{
		{name: "CR line ends", in: "id,tenant\r1,a\r2,b\r3,c\r", want: []string{`{"id":1,"tenant":"a"}`, `{"id":2,"tenant":"b"}`, `{"id":3,"tenant":"c"}`}, lines: []int{2, 3, 4}},
		{name: "CR line ends, no last one", in: "id,tenant\r1,a\r2,b", want: []string{`{"id":1,"tenant":"a"}`, `{"id":2,"tenant":"b"}`}, lines: []int{2, 3}},
		{name: "CR, LF and CRLF", in: "id,tenant\r\n1,a\r2,b\n\r\r\n3,c\n\n4,d", want: []string{`{"id":1,"tenant":"a"}`, `{"id":2,"tenant":"b"}`, `{"id":3,"tenant":"c"}`, `{"id":4,"tenant":"d"}`}, lines: []int{2, 3, 6, 8}},
		{name: "semicolons and CR line ends", in: "id;tenant\r1;a\r", format: "CSV (semicolon-separated)", want: []string{`{"id":1,"tenant":"a"}`}},
		{name: "tabs and CR line ends", in: "id\ttenant\r1\ta\r", format: "TSV", want: []string{`{"id":1,"tenant":"a"}`}},
		// A line end in a quoted cell reads as "\n", whichever it is.
		{name: "CR in a quoted cell", in: "id,note\r1,\"x\ry\"\r2,z\r", want: []string{`{"id":1,"note":"x\ny"}`, `{"id":2,"note":"z"}`}, lines: []int{2, 4}},
		{name: "each line end in quoted cells", in: "id,note\n1,\"a\rb\r\nc\nd\"\n", want: []string{`{"id":1,"note":"a\nb\nc\nd"}`}},
		{name: "CR line ends and errors", in: "id,s\r1,5\" screen\r2,\"ab\"c\r3,x,y\r4,ok\r",
			want: []string{`{"id":4,"s":"ok"}`}, lines: []int{5},
			errs: []string{
				`line 2, column 4 (document 1): a '"' inside a field that does not start with one: quote the whole field and double the quotes in it ("5"" screen"); skipped`,
				`line 3, column 6 (document 2): a quoted field goes on after its closing '"' (a '"' inside a quoted field must be doubled); skipped`,
				"line 4, column 5 (document 3): 3 fields, the header has 2; skipped",
			}},
		{name: "blank lines of CRs", in: "\r\r\nid\r\r\r1\r\r", want: []string{`{"id":1}`}, lines: []int{6}},
		{name: "spaces after commas, CR line ends", in: "id, name\r1, \"a, b\"\r", want: []string{`{"id":1,"name":"a, b"}`}},
	})
}

// TestCSVLimits: no row holds more than 2 MB of text, which no item can
// hold, and a quote that never closes is taken for a stray one: its row
// is skipped, the rows after it read.
func TestCSVLimits(t *testing.T) {
	mb3 := 3 << 20
	var lines100k strings.Builder // 30 rows of 100 KB, 3 MB in all
	for range 30 {
		lines100k.WriteString("," + strings.Repeat("x", 100<<10) + "\n")
	}
	rows100k := make([]string, 30)
	for i := range rows100k {
		rows100k[i] = `{"note":"` + strings.Repeat("x", 100<<10) + `"}`
	}
	runCSVCases(t, []csvCase{
		{
			name: "digits of 3 MB in a cell",
			in:   "id,n\n1," + strings.Repeat("9", mb3) + "\n2,5\n",
			want: []string{`{"id":2,"n":5}`}, lines: []int{3},
			errs: []string{"line 2, column 3 (document 1): field 2 takes the row past 2 MB of text, more than the 2 MB Cosmos DB allows for an item; skipped"},
		},
		{
			name: "many cells of 1 MB",
			in:   "a,b,c\n" + strings.Repeat("x", 1<<20) + "," + strings.Repeat("y", 1<<20) + ",z\n1,2,3\n",
			want: []string{`{"a":1,"b":2,"c":3}`},
			errs: []string{"line 2, column 2097155 (document 1): field 3 takes the row past 2 MB of text, more than the 2 MB Cosmos DB allows for an item; skipped"},
		},
		{
			name: "a quoted cell of 3 MB on one line",
			in:   "id,note,n\n1,\"" + strings.Repeat("a\"\"", mb3/3) + "\",7\n2,ok,8\n",
			want: []string{`{"id":2,"note":"ok","n":8}`},
			errs: []string{"line 2, column 3 (document 1): field 2 takes the row past 2 MB of text, more than the 2 MB Cosmos DB allows for an item; skipped"},
		},
		{
			name: "a quote of 3 MB that never closes on one line",
			in:   "id,note\n1,\"" + strings.Repeat("z", mb3) + "\n2,ok\n",
			want: []string{`{"id":2,"note":"ok"}`},
			errs: []string{"line 2, column 3 (document 1): field 2 takes the row past 2 MB of text, more than the 2 MB Cosmos DB allows for an item; skipped"},
		},
		{
			// Past 2 MB over many lines, the quote is taken for a stray
			// one: the rows on the lines after its own are read.
			name: "a quote that runs past 2 MB over many lines",
			in:   "id,note\n1,\"open\n" + lines100k.String() + "3,end\n",
			want: append(rows100k, `{"id":3,"note":"end"}`),
			errs: []string{`line 2, column 3 (document 1): the quoted field that starts here runs on over 22 lines and past 2 MB, more than the 2 MB Cosmos DB allows for an item: is its closing '"' missing?; skipped, and reading goes on at line 3, after the quote's line`},
		},
		{
			name:  "a quote that never closes, among rows",
			in:    "id,tenant,note\n1,a,ok\n2,b,\"5 screen\n3,c,x\n4,d,\"y\"\n",
			want:  []string{`{"id":1,"tenant":"a","note":"ok"}`, `{"id":3,"tenant":"c","note":"x"}`, `{"id":4,"tenant":"d","note":"y"}`},
			lines: []int{2, 4, 5},
			errs:  []string{`line 3, column 5 (document 2): the quoted field that starts here runs on to line 5, where a '"' is followed by other text: is its closing '"' missing?; skipped, and reading goes on at line 4, after the quote's line`},
		},
		{
			name:  "a quote that never closes, rows after",
			in:    "id,tenant,note\n1,a,ok\n2,b,\"5 screen\n3,c,x\n\n4,d,y\n",
			want:  []string{`{"id":1,"tenant":"a","note":"ok"}`, `{"id":3,"tenant":"c","note":"x"}`, `{"id":4,"tenant":"d","note":"y"}`},
			lines: []int{2, 4, 6},
			errs:  []string{`line 3, column 5 (document 2): the quoted field that starts here never closes: the input ends before its closing '"'; skipped, and reading goes on at line 4, after the quote's line`},
		},
		{
			name:  "a quote that never closes, CR line ends",
			in:    "id,note\r1,\"open\r2,x\r",
			want:  []string{`{"id":2,"note":"x"}`},
			lines: []int{3},
			errs:  []string{`line 2, column 3 (document 1): the quoted field that starts here never closes: the input ends before its closing '"'; skipped, and reading goes on at line 3, after the quote's line`},
		},
		{
			name: "a header of 3 MB",
			in:   "id," + strings.Repeat("h", mb3) + "\n1,2\n",
			errs: []string{"line 1, column 4: the header row cannot be read: field 2 takes the row past 2 MB of text, more than the 2 MB Cosmos DB allows for an item; no rows read"},
		},
		{
			name: "a quote in the header that never closes",
			in:   "id,\"name\n1,a\n",
			errs: []string{`line 1, column 4: the header row cannot be read: the quoted field that starts here never closes: the input ends before its closing '"'; no rows read`},
		},
		{
			// Under 2 MB of text, a row can still be over 2 MB as JSON:
			// a tab takes two bytes there.
			name: "a row under 2 MB of text, over it as JSON",
			in:   "id,s\n1," + strings.Repeat("\t", 3<<19) + "\n2,ok\n",
			want: []string{`{"id":2,"s":"ok"}`},
			errs: []string{"line 2, column 1 (document 1): row is 3.0 MB as JSON, over the 2 MB Cosmos DB allows for an item; skipped"},
		},
	})
}
