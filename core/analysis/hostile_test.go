package analysis

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/internal/hostile"
)

// hostileWant is what pkcalc must make of each input: the documents it
// keeps, the problems it reports (errors skip input, notes change a value
// but keep its document), and the first of them: where it is
// ("line:column", or "" when there is none) and what it says.
var hostileWant = map[string]struct {
	docs, errors, notes int
	at, says            string
}{
	"empty.json":                    {0, 0, 0, "", ""},
	"whitespace-only.json":          {0, 0, 0, "", ""},
	"bom-only.json":                 {0, 0, 0, "", ""},
	"empty-array.json":              {0, 0, 0, "", ""},
	"truncated-array.json":          {2, 1, 0, "1:72", "the input ends inside an object: expected ',' or '}'"},
	"truncated-object.json":         {0, 1, 0, "1:36", "the input ends inside an array: expected ',' or ']'"},
	"truncated-jsonl.jsonl":         {2, 1, 0, "3:15", "the input ends inside a string"},
	"truncated-wrapper.json":        {2, 1, 0, "1:88", "the input ends inside an object: expected ',' or '}'"},
	"unterminated-string.jsonl":     {1, 1, 0, "1:22", "control character U+000A inside a string: it must be escaped (strings cannot span lines)"},
	"unterminated-string-eof.json":  {1, 1, 0, "1:43", "the input ends inside a string"},
	"invalid-utf8.jsonl":            {3, 0, 3, "1:20", "a string that is not valid UTF-8; the bad bytes read as U+FFFD"},
	"utf16le-bom.json":              {0, 1, 0, "1:1", "the input is UTF-16 text: save it as UTF-8"},
	"utf16le-nobom.jsonl":           {0, 1, 0, "1:1", "the input is UTF-16 text: save it as UTF-8"},
	"nan-infinity.jsonl":            {2, 3, 0, "2:15", "NaN is not valid JSON: numbers must be finite; write null instead"},
	"numbers-beyond-double.jsonl":   {5, 0, 4, "1:15", "number 1e400 is beyond the range of a double, which Cosmos DB uses for every number"},
	"bad-numbers.jsonl":             {2, 7, 0, "2:15", "JSON numbers take no '+' sign: remove it"},
	"duplicate-keys.jsonl":          {2, 0, 2, "1:37", `property "tenant" appears more than once in an object; the last one counts`},
	"bom-start.jsonl":               {2, 0, 0, "", ""},
	"bom-middle.jsonl":              {3, 0, 0, "", ""}, // where a file joined after another begins
	"bom-in-value.jsonl":            {2, 1, 0, "2:7", "a byte order mark (U+FEFF) in the middle of the input"},
	"image.png":                     {0, 1, 0, "1:1", "the input is a PNG image, not JSON"},
	"documents.json.gz":             {0, 1, 0, "1:1", "the input is gzip-compressed: decompress it first (gunzip FILE)"},
	"workbook.xlsx":                 {0, 1, 0, "1:1", "the input is an Excel workbook, not JSON: save the sheet as CSV UTF-8 and read that"},
	"mongodump.bson":                {0, 1, 0, "1:1", "the input is BSON (a mongodump file), not JSON"},
	"not-object-number.json":        {0, 1, 0, "1:1", "a number is not a document: documents are JSON objects; skipped"},
	"not-object-string.json":        {0, 1, 0, "1:1", "a string is not a document"},
	"not-object-null.json":          {0, 1, 0, "1:1", "a null is not a document"},
	"array-of-scalars.json":         {0, 5, 0, "1:2", "a number is not a document"},
	"array-of-arrays.json":          {0, 2, 0, "1:2", "an array is not a document"},
	"mixed-types.jsonl":             {7, 0, 0, "", ""},
	"special-keys.json":             {2, 0, 0, "", ""},
	"lone-surrogates.json":          {4, 0, 3, "1:17", `a \u escape with an unpaired surrogate; it reads as U+FFFD`},
	"control-characters.jsonl":      {1, 2, 0, "1:19", "control character U+0009 inside a string"},
	"crlf-mix.jsonl":                {5, 1, 0, "6:11", "a trailing comma before '}': remove the comma after the last property"}, // the lone CR of line 3 ends it
	"nul-bytes.jsonl":               {2, 2, 0, "2:1", "expected a JSON value, found byte 0x00"},
	"comments.json":                 {1, 2, 0, "1:1", "JSON has no comments: remove the // comment"},
	"comment-lines.jsonl":           {2, 1, 0, "2:1", "JSON has no comments: remove the # comment"},
	"trailing-comma-array.json":     {2, 1, 0, "1:24", "a trailing comma before ']': remove the comma after the last document"},
	"trailing-comma-object.jsonl":   {1, 1, 0, "1:24", "a trailing comma before '}': remove the comma after the last property"},
	"single-quotes.json":            {0, 1, 0, "1:3", "strings and property names take double quotes, not single quotes"},
	"smart-quotes.json":             {0, 1, 0, "2:4", "a curly quote “ (U+201C): JSON takes straight double quotes"},
	"unquoted-keys.jsonl":           {1, 1, 0, "1:2", `property names must be in double quotes: write "id"`},
	"python-literals.jsonl":         {1, 1, 0, "1:16", "True is Python's spelling: JSON writes true"},
	"mongo-shell.json":              {0, 1, 0, "3:5", "this is MongoDB shell output (_id: ObjectId(...)), not JSON: export with mongoexport instead"},
	"mongo-legacy-shell.jsonl":      {1, 2, 0, "1:11", "ObjectId(...) is MongoDB shell syntax, not JSON"},
	"missing-comma.json":            {1, 1, 0, "3:3", "a comma is missing between the documents: put ',' before this one"},
	"missing-colon.jsonl":           {1, 1, 0, "1:7", `expected ':' after property name "id", found '"'`},
	"unbalanced-brackets.jsonl":     {2, 2, 0, "1:11", "an extra '}' that closes nothing: remove it"},
	"garbage-after-array.json":      {1, 1, 0, "1:14", `"trailing" is not a JSON value`},
	"bad-escapes.jsonl":             {1, 2, 0, "1:17", `invalid escape \x in a string`},
	"html-page.html":                {0, 1, 0, "1:1", "the input is an HTML page, not JSON"},
	"csv-as-json.csv":               {0, 1, 0, "1:1", `the input looks like CSV (first line "id,tenant"), not JSON: read it as CSV`},
	"json-seq.json":                 {0, 1, 0, "1:1", "the input is a JSON text sequence (RFC 7464): remove the 0x1E byte before each document"},
	"script-payloads.jsonl":         {3, 0, 0, "", ""},
	"extended-json-edge.jsonl":      {3, 0, 0, "", ""},
	"deep-128.json":                 {1, 0, 0, "", ""},
	"deep-129.json":                 {0, 1, 0, "1:1", "document is nested deeper than the 128 levels Cosmos DB allows; skipped"},
	"deep-129-arrays.jsonl":         {2, 1, 0, "2:1", "document is nested deeper than the 128 levels Cosmos DB allows; skipped"},
	"deep-10000.jsonl":              {2, 1, 0, "2:1", "document is nested deeper than the 128 levels Cosmos DB allows; skipped"},
	"deep-10000-unclosed.json":      {0, 1, 0, "1:10001", "the input ends inside a value nested 9999 levels deep"}, // the first [ is the array of documents
	"string-10mb.jsonl":             {2, 1, 0, "2:1", "document holds a string longer than the 2 MB Cosmos DB allows for a whole item; skipped"},
	"number-500k-digits.json":       {1, 0, 2, "1:15", "number 1000000000000000000000000000000000000000… (500001 bytes) is beyond the range of a double"},
	"document-3mb.jsonl":            {2, 1, 0, "2:1", "document is larger than the 2 MB Cosmos DB allows for an item; skipped"},
	"document-3mb-single.json":      {0, 1, 0, "1:1", "document holds a string longer than the 2 MB Cosmos DB allows for a whole item; skipped"},
	"array-100k-empty-objects.json": {100000, 0, 0, "", ""},
	"long-line.jsonl":               {1, 1, 0, "2:11", "a trailing comma before '}'"},
	"garbage-lines.jsonl":           {0, 100, 0, "1:1", `"not" is not a JSON value (expected null)`}, // every line is read: 100 errors before any document stop the reading
	"many-bad-documents.jsonl":      {0, 100, 0, "1:11", "a trailing comma before '}': remove the comma after the last property"},
	"blank-lines.jsonl":             {0, 1, 0, "100001:11", "the input ends inside an object: expected a property name"},
	"wide-document.json":            {1, 0, 0, "", ""},
	"cut-after-colon.jsonl":         {2, 1, 0, "1:20", "the line ends after ':' with no value: document 1 is cut off here; skipped, and line 2, a document of its own, is read as one"},
	"cut-after-bracket.jsonl":       {2, 1, 0, "2:32", "the line ends inside an array: document 2 is cut off here; skipped, and line 3, a document of its own, is read as one"},
	"cut-after-comma.jsonl":         {2, 2, 0, "1:36", "the line ends inside an array: document 1 is cut off here; skipped, and line 2, a document of its own, is read as one"},
	"cut-after-brace.jsonl":         {1, 1, 0, "2:1", "a new document starts here while document 1, begun on line 1, is still open: is a '}' or ']' missing at the end of line 1?"},
	"cut-before-last-line.jsonl":    {2, 1, 0, "2:20", "the line ends after ':' with no value: document 2 is cut off here; skipped, and line 3, a document of its own, is read as one"},
	"cut-crlf.jsonl":                {2, 1, 0, "1:20", "the line ends after ':' with no value: document 1 is cut off here; skipped, and line 2, a document of its own, is read as one"},
	"non-document-lines.jsonl":      {1, 6, 0, "1:24", "a trailing comma before '}': remove the comma after the last property"},
	"pretty-bad-then-garbage.json":  {1, 2, 0, "2:13", "expected a property name in double quotes, found ','"},
	"concatenated-after-error.json": {2, 1, 0, "1:30", "a trailing comma before '}': remove the comma after the last property"},
	"cr-only.jsonl":                 {2, 1, 0, "2:24", "a trailing comma before '}': remove the comma after the last property"},
	"cr-only-open-string.jsonl":     {1, 1, 0, "1:25", "control character U+000D inside a string: it must be escaped (strings cannot span lines)"},
	"mixed-line-ends.jsonl":         {4, 1, 0, "5:24", "a trailing comma before '}': remove the comma after the last property"},
	"duplicate-wrapper.json":        {3, 0, 1, "1:75", "property \"Documents\" appears again in the wrapper object; the documents of both arrays are read (JSON would keep only the last)"},
	"second-wrapper-array.json":     {2, 0, 1, "1:52", "the wrapper object holds a second array of documents, \"items\"; its documents are read too"},
	"duplicate-array-property.json": {1, 0, 1, "1:72", "property \"myDocs\" appears more than once in an object; the last one counts"},
	"number-3mb.jsonl":              {2, 1, 0, "2:28", "document holds a number longer than the 2 MB Cosmos DB allows for a whole item; skipped"},
	"number-3mb-in-array.json":      {2, 1, 0, "1:53", "document holds a number longer than the 2 MB Cosmos DB allows for a whole item; skipped"},
	"c1-control-name.jsonl":         {6, 0, 1, "1:11", `property name "tenant\u009b31m" holds a control character (U+009B) inside "tenant31m"`},
	"bidi-override-value.jsonl":     {8, 0, 0, "", ""},
	"bidi-isolate-name.jsonl":       {8, 0, 2, "1:11", `property name "\u2066region\u2069" holds a bidirectional control (U+2066) and a bidirectional control (U+2069) around "region"`},
	"backtick-names.jsonl":          {8, 0, 0, "", ""},
	"pipe-and-newline-names.jsonl":  {8, 0, 1, "1:23", `property name "line\nbreak" holds a line feed (U+000A) inside "linebreak"`},
	"markdown-injection.jsonl":      {8, 0, 0, "", ""},
	"terminal-escape-value.jsonl":   {8, 0, 0, "", ""},
	"extreme-numbers.jsonl":         {8, 0, 0, "", ""},
	"zero-width-lookalikes.jsonl":   {8, 0, 2, "1:11", `property name "tenant\u200bId" holds a zero-width space (U+200B) inside "tenantId": it reads as "tenantId" but is another name`},
	"table-lines.jsonl":             {5, 2, 1, "5:1", "a row of 3 values, and the header row names 6 columns; skipped"},
	"table-array.json":              {4, 0, 1, "2:3", "the array's first element is an array of 4 names and the elements after it arrays of values: read as a table, as a CSV file is"},
	"table-header-names.jsonl":      {4, 0, 4, "1:1", "the first line is an array of 6 names and the lines after it arrays of values: read as a table"},
	"table-header-alone.jsonl":      {0, 1, 0, "1:1", "an array of 3 strings is not a document: documents are JSON objects, or the rows of a table after a header row of names"},
	"bom-in-name.jsonl":             {6, 0, 1, "1:2", `property name "\ufeffISO" holds a byte order mark (U+FEFF) before "ISO": it reads as "ISO" but is another name, and a key or query naming "ISO" does not find it (noted where the name first occurs)`},
	"invisible-names.jsonl":         {6, 0, 4, "1:11", `property name "tenant\u00a0Id" holds a no-break space (U+00A0) inside "tenantId"`},
	"bom-twice.csv":                 {3, 0, 1, "1:1", `the name of column 1, "\ufeffISO", holds a byte order mark (U+FEFF) before "ISO"`},
	"nul-in-names.jsonl":            {6, 0, 2, "1:11", `property name "a\x00b" holds a control character (U+0000) inside "ab"`},
	"path-syntax-names.jsonl":       {6, 0, 0, "", ""},
	"id-refused-characters.jsonl":   {8, 0, 0, "", ""},
	"noncharacter-names.jsonl":      {6, 0, 0, "", ""},
	"many-property-names":           {3000, 0, 0, "", ""},
	"number-beyond-double.jsonl":    {4, 0, 4, "1:15", "number 1e400 is beyond the range of a double"},
	"lone-surrogates.jsonl":         {6, 0, 18, "1:12", "a \\u escape with an unpaired surrogate; it reads as U+FFFD"},
	"garbage-amid-documents.jsonl":  {2, 150, 0, "2:2", "expected a JSON value, found 'a'"},
	"cr-only.csv":                   {3, 0, 0, "", ""},
	"mixed-line-ends.csv":           {4, 0, 0, "", ""},
	"unclosed-quote.csv":            {3, 1, 0, "3:5", "the quoted field that starts here never closes: the input ends before its closing '\"'; skipped, and reading goes on at line 4, after the quote's line"},
	"stray-quote.csv":               {4, 1, 0, "3:5", "the quoted field that starts here runs on to line 5, where a '\"' is followed by other text: is its closing '\"' missing?; skipped, and reading goes on at line 4, after the quote's line"},
	"csv-digits-3mb.csv":            {1, 1, 0, "2:5", "field 3 takes the row past 2 MB of text, more than the 2 MB Cosmos DB allows for an item; skipped"},
	"csv-quote-3mb-one-line.csv":    {1, 1, 0, "2:5", "field 3 takes the row past 2 MB of text, more than the 2 MB Cosmos DB allows for an item; skipped"},
	"csv-open-quote-lines.csv":      {50001, 1, 0, "2:5", "the quoted field that starts here runs on over 32769 lines and past 2 MB, more than the 2 MB Cosmos DB allows for an item: is its closing '\"' missing?; skipped, and reading goes on at line 3, after the quote's line"},
}

// TestHostile runs every hostile input through the whole analysis: no
// panic, a bounded time, the documents before (and where possible after) a
// fault are analysed, the report encodes in every format, and the first
// problem says where it is and what is wrong.
func TestHostile(t *testing.T) {
	cases := hostile.Cases(t)
	if len(cases) < 40 {
		t.Errorf("%d hostile inputs; the corpus has at least 40", len(cases))
	}
	seen := map[string]bool{}
	var rows []string
	for i, c := range cases {
		seen[c.Name] = true
		t.Run(c.Name, func(t *testing.T) {
			want, ok := hostileWant[c.Name]
			if !ok {
				t.Fatalf("no expectation for %s in hostileWant", c.Name)
			}
			in := c.Input(t)
			rep, took := analyzeBounded(t, in, c.Format == "csv")
			if rep.Documents != int64(want.docs) || rep.Input.ErrorCount != want.errors || rep.Input.Notes != want.notes {
				t.Errorf("%d documents, %d errors, %d notes; want %d, %d, %d (errors: %v)",
					rep.Documents, rep.Input.ErrorCount, rep.Input.Notes, want.docs, want.errors, want.notes, rep.Input.Errors)
			}
			if len(rep.Input.Errors) != min(rep.Input.ErrorCount, 100) {
				t.Errorf("%d errors listed of %d", len(rep.Input.Errors), rep.Input.ErrorCount)
			}
			for _, p := range rep.Input.Errors {
				if p.Line < 1 || p.Column < 1 || p.Message == "" || len(p.Message) > 300 {
					t.Errorf("a problem without a place or a short message: %+v", p)
				}
			}
			at, says := "", ""
			if len(rep.Input.Errors) > 0 {
				p := rep.Input.Errors[0]
				at, says = fmt.Sprintf("%d:%d", p.Line, p.Column), p.Message
			} else if n := firstNote(t, in, c.Format == "csv"); n != nil {
				at, says = fmt.Sprintf("%d:%d", n.Line, n.Column), n.Msg
			}
			if at != want.at || !strings.Contains(says, want.says) || (want.says == "") != (says == "") {
				t.Errorf("first problem at %s: %q\nwant at %s: %q", at, says, want.at, want.says)
			}
			if c.Name == "many-bad-documents.jsonl" && !strings.HasSuffix(rep.Input.Errors[99].Message, "; stopped after 100 errors in a row") {
				t.Errorf("the 100th error does not say reading stopped: %q", rep.Input.Errors[99].Message)
			}
			checkEncodes(t, rep)
			rows = append(rows, manifestRow(i+1, c, in, rep, firstNote(t, in, c.Format == "csv")))
			t.Logf("%d bytes in %v: %d documents, %d errors, %d notes", len(in), took.Round(time.Millisecond), rep.Documents, rep.Input.ErrorCount, rep.Input.Notes)
		})
	}
	for name := range hostileWant {
		if !seen[name] {
			t.Errorf("hostileWant has %s, which cases.json does not list", name)
		}
	}
	if t.Failed() {
		return
	}
	// The manifest lists every input with what pkcalc says of it: it is
	// written from these very results, so it cannot go stale.
	readme := filepath.Join(hostile.Dir(t), "README.md")
	got := manifest(rows)
	if *update {
		if err := os.WriteFile(readme, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if b, err := os.ReadFile(readme); err != nil || string(b) != got {
		t.Errorf("%s is not what pkcalc says of the inputs (%v): run go test ./core/analysis -run TestHostile -update", readme, err)
	}
}

// manifestRow is the line of testdata/hostile/README.md for one input.
func manifestRow(n int, c hostile.Case, in []byte, rep *report.Report, note *ingest.Error) string {
	name := "[" + c.Name + "](" + c.Name + ")"
	if c.File == "" {
		name = c.Name + " (generated, " + sizeText(len(in)) + ")"
	}
	if c.Format == "csv" {
		name += ", read as CSV"
	}
	says := "nothing: no problem"
	switch {
	case len(rep.Input.Errors) > 0:
		p := rep.Input.Errors[0]
		says = code(fmt.Sprintf("line %d, column %d (document %d): %s", p.Line, p.Column, p.Document, p.Message))
		if more := rep.Input.ErrorCount - 1; more > 0 {
			says += fmt.Sprintf(" and %d more", more)
		}
	case note != nil:
		says = "a note (the document is kept): " + code(note.Error())
		if more := rep.Input.Notes - 1; more > 0 {
			says += fmt.Sprintf(" and %d more", more)
		}
	}
	status := 200
	switch {
	case len(in) > 8<<20:
		status = 413
	case rep.Documents == 0:
		status = 400 // nothing could be read, or there was nothing
	}
	return fmt.Sprintf("| %d | %s | %s | %d | %s | %d |", n, name, cell(c.Wrong), rep.Documents, cell(says), status)
}

func sizeText(n int) string {
	switch {
	case n >= 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MB"
	case n >= 1<<10:
		return strconv.Itoa(n>>10) + " KB"
	}
	return strconv.Itoa(n) + " bytes"
}

// code is text as a Markdown code span.
func code(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func manifest(rows []string) string {
	return `# Hostile and broken inputs

pkcalc's shared corpus of inputs that are broken, hostile or at the limits of Cosmos DB. The small
ones are the files in this folder; the large ones (10 MB strings, 10,000 levels of nesting, a
500,000-digit number, 100,000 documents) are generated by the tests from ` + "`cases.json`" + `, which lists
every input.

They run through:

- ` + "`core/analysis`" + ` ` + "`TestHostile`" + `: the whole analysis, in a bounded time; the documents kept, the problems
  counted and the first one's line, column and message, per input; the report encodes as JSON, text,
  Markdown and CSV. It writes this table from its results (` + "`go test ./core/analysis -run TestHostile -update`" + `),
  and fails when the table is not what pkcalc says.
- ` + "`core/api`" + ` ` + "`TestHostile`" + `: the HTTP API (` + "`api.Handler(api.Config{MaxBodyBytes: 8 << 20})`" + `): a JSON body for every
  answer, 200 with the problems listed, 400 when no document could be read, 413 over the body
  limit; never a 5xx.
- ` + "`e2e`" + ` ` + "`TestHostile`" + `: a selection pasted into the page in Chromium, and given to ` + "`window.pkcalc.analyze`" + `
  as a Blob.
- ` + "`core/ingest`" + ` ` + "`FuzzReader`" + `: the small files are seeds of the fuzz target.
- ` + "`core/telemetry`" + ` ` + "`TestHostile`" + `: each reader of a live container's exports (the ranges, the RU and
  storage logs, the metric), in a bounded time; every problem placed, and no document taken for an
  export's row.

Problems are of two kinds. An **error** skips input: the document it is in is not analysed; in an
array reading goes on at the next element, in a sequence of documents (JSON Lines) after the bad
document or at the next line, which is read whatever it holds (so a line that is no document is an
error of its own), in CSV at the next line. A **note** keeps the document with a value changed (bad
UTF-8 reads as U+FFFD, a number beyond a double as infinity, the last of duplicate properties
counts); the report counts notes, and the table gives the first. Lines end at LF, CRLF or a lone
CR; lines and columns count from 1; columns are bytes from the start of the line, after a byte
order mark on line 1. Inputs read as CSV are sent to the HTTP API as text/csv.

| # | input | what is wrong | documents kept | what pkcalc says first (where: what) | HTTP API |
|---|---|---|---|---|---|
` + strings.Join(rows, "\n") + "\n"
}

// analyzeBounded analyses in, as CSV or JSON, failing the test if that
// takes too long.
func analyzeBounded(t *testing.T, in []byte, csv bool) (*report.Report, time.Duration) {
	t.Helper()
	type result struct {
		rep *report.Report
		err error
	}
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		var src Source = ingest.NewReader(bytes.NewReader(in))
		if csv {
			src = ingest.NewCSVReader(bytes.NewReader(in))
		}
		rep, err := AnalyzeSource(src, Options{})
		done <- result{rep, err}
	}()
	// Generous for WebAssembly on a slow machine: natively each input
	// takes well under a second.
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("Analyze: %v", r.err)
		}
		return r.rep, time.Since(start)
	case <-time.After(2 * time.Minute):
		t.Fatalf("Analyze of %d bytes did not finish in 2 minutes", len(in))
	}
	return nil, 0
}

// firstNote is the first note the Reader (or CSVReader) makes on in: the
// report counts notes but does not list them.
func firstNote(t *testing.T, in []byte, csv bool) *ingest.Error {
	t.Helper()
	var r interface {
		Next() (*ingest.Document, error)
	} = ingest.NewReader(bytes.NewReader(in))
	if csv {
		r = ingest.NewCSVReader(bytes.NewReader(in))
	}
	for {
		d, err := r.Next()
		if err == io.EOF {
			return nil
		}
		var e *ingest.Error
		if err != nil && !errors.As(err, &e) {
			t.Fatal(err)
		}
		if d != nil && len(d.Notes) > 0 {
			return d.Notes[0]
		}
	}
}

// checkEncodes writes the report in every format; the JSON must read back.
func checkEncodes(t *testing.T, rep *report.Report) {
	t.Helper()
	var b bytes.Buffer
	if err := report.WriteJSON(&b, rep); err != nil {
		t.Fatalf("WriteJSON: %v", err)
	}
	var back report.Report
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("the JSON report does not read back: %v", err)
	}
	if back.Documents != rep.Documents || len(back.Input.Errors) != len(rep.Input.Errors) || len(back.Candidates) != len(rep.Candidates) {
		t.Errorf("the JSON report reads back as %d documents, %d errors, %d candidates", back.Documents, len(back.Input.Errors), len(back.Candidates))
	}
	outputs := map[string][]byte{"json": b.Bytes()}
	for name, write := range map[string]func(io.Writer, *report.Report) error{"text": report.WriteText, "markdown": report.WriteMarkdown, "csv": report.WriteCSV} {
		var out bytes.Buffer
		if err := write(&out, rep); err != nil {
			t.Errorf("Write %s: %v", name, err)
		}
		outputs[name] = out.Bytes()
	}
	// Nothing of the input drives a terminal or reorders what a reader
	// sees: no C0 or C1 control but line ends and tabs, no bidi control.
	for name, out := range outputs {
		for i, r := range string(out) {
			if r < 0x20 && r != '\n' && r != '\t' && r != '\r' || r >= 0x7f && r <= 0x9f || r == 0x61c || r == 0x200e || r == 0x200f ||
				r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
				t.Errorf("the %s report holds U+%04X raw at byte %d", name, r, i)
				break
			}
		}
	}
}
