package aggregate

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/key"
)

// Row is one key value's aggregate.
type Row struct {
	Values    []epk.Value // one per level (1 for hash and synthetic keys)
	Documents int64
	Bytes     int64   // 0 when the input has no bytes column
	Requests  float64 // optional column `requests` (per second or a weight); 0 when absent
	Line      int     // where it came from, for messages
	Row       int     // for JSON, its number among the rows (a compact array is all line 1); 0 in CSV
}

// Read reads aggregates for a key with levels components, as CSV or JSON,
// told apart by the first byte that is not a space. Both are read by the
// readers of package ingest, as documents are, so that every input pkcalc
// reads is read the same way: a row is a document with the fields below.
//
// CSV needs a header row naming its columns: k0 up to k{levels-1},
// documents, and optionally bytes and requests, in any case; other columns
// are ignored. Cells are separated by commas, or by semicolons or tabs if
// the header has more of those outside quotes (ingest.CSVReader).
// A cell is JSON text ("contoso" with its quotes, 42, true, null); an
// empty cell is the undefined key (a missing path) or a missing count; a
// cell that is not JSON is taken as a plain string, for convenience
// (ingest.CSVReader.SetJSONCells).
//
// JSON is what ingest.Reader reads: an array of objects, a sequence of
// objects (JSON Lines), or either of those wrapped in an object, such as
// Cosmos DB's REST output {"Documents": [...]}, one page or many. Field
// names match in any case; k fields hold JSON values and a missing k field
// is the undefined key, as Cosmos DB prints it. A count may be a number or
// a string holding one.
//
// Every bad row gives an error naming its line and column or field; the
// other rows are still returned, in input order and not merged.
func Read(r io.Reader, levels int) ([]Row, []error) {
	if levels < 1 || levels > key.MaxLevels {
		return nil, []error{fmt.Errorf("a key has 1 to %d levels, not %d", key.MaxLevels, levels)}
	}
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(br.Size())
	if len(head) == 0 && err != nil && err != io.EOF {
		return nil, []error{fmt.Errorf("reading aggregates: %w", err)}
	}
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\uFEFF")), " \t\r\n")
	if len(head) == 0 && err == io.EOF {
		return nil, []error{errEmpty}
	}
	// A workbook, gzip or UTF-16 file is not taken for documents.
	if msg := ingest.NotText(head, "CSV or JSON"); msg != "" {
		return nil, []error{errors.New(msg)}
	}
	rd := &reader{levels: levels}
	if len(head) > 0 && (head[0] == '[' || head[0] == '{') {
		rd.readJSON(br)
	} else {
		rd.readCSV(br)
	}
	if rd.documents() {
		return nil, []error{rd.documentsError()}
	}
	return rd.rows, rd.errs
}

// SizeRows gives each row without a bytes count (the query can leave that
// column out to save request units) docBytes bytes a document. A size past
// int64 is held at its end, for the report to refuse the row.
func SizeRows(rows []Row, docBytes int64) {
	for i := range rows {
		if rows[i].Bytes != 0 || docBytes <= 0 {
			continue
		}
		if rows[i].Documents > math.MaxInt64/docBytes {
			rows[i].Bytes = math.MaxInt64
		} else {
			rows[i].Bytes = rows[i].Documents * docBytes
		}
	}
}

// LineError is a problem with one row of the aggregates, at its line (and
// for JSON its number among the rows, as a compact array is one line), or
// with the input at a line and column.
type LineError struct {
	Line   int
	Column int // 0 for a problem with a row's field
	Row    int // 0 in CSV
	Msg    string
}

func (e *LineError) Error() string {
	where := "line " + strconv.Itoa(e.Line)
	if e.Column > 0 {
		where += ", column " + strconv.Itoa(e.Column)
	}
	if e.Row > 0 {
		where += ", row " + strconv.Itoa(e.Row)
	}
	return where + ": " + e.Msg
}

// ErrDocuments is wrapped by Read's error for input that looks like the
// documents themselves rather than aggregates of them, so that a front end
// can say how to analyze documents.
var ErrDocuments = errors.New("the input looks like documents, not per-key aggregates")

var errEmpty = errors.New("the input is empty: expected CSV with a header row, or JSON")

// sniffObjects is how many objects without a documents field, and no row
// before them, make Read take its input for documents and stop.
const sniffObjects = 10

// Columns of an aggregate row, besides the key's k0, k1 and k2.
const (
	colDocuments = "documents"
	colBytes     = "bytes"
	colRequests  = "requests"
)

// keyColumn names the columns of a key's levels, and those after them,
// which rows for another key can have.
var keyColumn = [10]string{"k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9"}

type reader struct {
	levels  int
	rows    []Row
	errs    []error
	objects int // JSON rows read
	docless int // ... of which have no documents field
}

// documents reports whether the input looks like documents: no row read,
// and no object so far had a documents field.
func (rd *reader) documents() bool {
	return len(rd.rows) == 0 && rd.objects > 0 && rd.docless == rd.objects
}

// documentsError is Read's one error for such an input, not one per
// document: the whole input is the wrong kind.
func (rd *reader) documentsError() error {
	n := "its " + strconv.Itoa(rd.objects)
	if rd.objects >= sniffObjects {
		n = "its first " + strconv.Itoa(rd.objects)
	}
	if rd.objects == 1 {
		n = "its one object has"
	} else {
		n += " objects have"
	}
	return fmt.Errorf("%w: %s no documents field, the count per key value that pkcalc aggregate-query's query computes; analyze it as documents instead", ErrDocuments, n)
}

func (rd *reader) fail(line, row int, format string, args ...any) {
	rd.errs = append(rd.errs, &LineError{Line: line, Row: row, Msg: fmt.Sprintf(format, args...)})
}

// readError records an error of ingest's reader, and reports whether
// reading can go on: an *ingest.Error is confined to its row or place,
// any other is the input failing (a body over its limit), which keeps its
// type for a front end to say so.
func (rd *reader) readError(err error, what string, row bool) bool {
	var e *ingest.Error
	if !errors.As(err, &e) {
		rd.errs = append(rd.errs, fmt.Errorf("reading %s: %w", what, err))
		return false
	}
	le := &LineError{Line: e.Line, Column: e.Column, Msg: e.Msg}
	if row {
		le.Row = e.Document
	}
	rd.errs = append(rd.errs, le)
	return true
}

// readCSV reads the rows of a CSV file with ingest's CSV reader, its cells
// as JSON text.
func (rd *reader) readCSV(src io.Reader) {
	cr := ingest.NewCSVReader(src)
	cr.SetJSONCells(true)
	cr.SetQuoteRemedy(`Spark doubles them with .option("escape", '"')`)
	names, line := cr.Header()
	if names == nil {
		// Empty, or a header that cannot be read: Next says which.
		if _, err := cr.Next(); err == io.EOF {
			rd.errs = append(rd.errs, errEmpty)
		} else if err != nil {
			rd.readError(err, "CSV", false)
		}
		return
	}
	cols, ok := rd.csvColumns(names, line)
	if !ok {
		return
	}
	for {
		doc, err := cr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			if !rd.readError(err, "CSV", false) {
				return
			}
			continue
		}
		rd.csvRow(doc, cols)
	}
}

// csvColumns checks the header's names and returns those of the columns
// an aggregate row has, as written, by their lower-case names.
func (rd *reader) csvColumns(names []string, line int) (map[string]string, bool) {
	cols := make(map[string]string, len(names))
	for _, name := range names {
		l := strings.ToLower(name)
		if _, dup := cols[l]; dup && l != "" {
			rd.fail(line, 0, "the header names column %s twice", l)
			return nil, false
		}
		cols[l] = name
	}
	_, hasDocs := cols[colDocuments]
	if _, hasKey := cols["k0"]; !hasKey && !hasDocs {
		rd.errs = append(rd.errs, fmt.Errorf("%w: its CSV header has neither a k0 nor a documents column; analyze it as documents instead", ErrDocuments))
		return nil, false
	}
	for i := range rd.levels {
		if _, ok := cols[keyColumn[i]]; !ok {
			rd.fail(line, 0, "the header has no column k%d; %s", i, keyColumns(rd.levels))
			return nil, false
		}
	}
	for i := rd.levels; i < len(keyColumn); i++ {
		if _, ok := cols[keyColumn[i]]; ok {
			rd.fail(line, 0, "the header has column k%d, but the key has %s: are these aggregates for another key?", i, levelsText(rd.levels))
			return nil, false
		}
	}
	if !hasDocs {
		rd.fail(line, 0, "the header has no column documents")
		return nil, false
	}
	return cols, true
}

// csvRow reads the row of one CSV document: its properties are named by
// the header, and an empty cell is a missing one.
func (rd *reader) csvRow(doc *ingest.Document, cols map[string]string) {
	get := func(col string) *jsontree.Value {
		name, ok := cols[col]
		if !ok {
			return nil
		}
		v, _ := doc.Root.Get(name)
		return v
	}
	row := Row{Values: make([]epk.Value, rd.levels), Line: doc.Line}
	if col, err := readValues(&row, get); err != nil {
		rd.fail(doc.Line, 0, "column %s: %v", cols[col], err)
		return
	}
	rd.rows = append(rd.rows, row)
}

// readJSON reads the rows of JSON with ingest's reader, which also reads
// Cosmos DB's pages of them; a row is numbered as ingest numbers its
// documents.
func (rd *reader) readJSON(src io.Reader) {
	jr := ingest.NewReader(src)
	jr.SetPages(true)
	for {
		doc, err := jr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			if !rd.readError(err, "aggregates", true) {
				return
			}
			continue
		}
		rd.jsonRow(doc)
		if rd.documents() && rd.objects >= sniffObjects {
			return
		}
	}
}

// jsonRow reads the row of one JSON object.
func (rd *reader) jsonRow(doc *ingest.Document) {
	get := func(col string) *jsontree.Value { return field(doc.Root.Members, col) }
	rd.objects++
	if get(colDocuments) == nil {
		rd.docless++
	}
	for i := rd.levels; i < len(keyColumn); i++ {
		if get(keyColumn[i]) != nil {
			rd.fail(doc.Line, doc.Index, "field k%d: the key has %s: are these aggregates for another key?", i, levelsText(rd.levels))
			return
		}
	}
	row := Row{Values: make([]epk.Value, rd.levels), Line: doc.Line, Row: doc.Index}
	if col, err := readValues(&row, get); err != nil {
		rd.fail(doc.Line, doc.Index, "field %s: %v", col, err)
		return
	}
	rd.rows = append(rd.rows, row)
}

// field returns the value of the member named col, a lower-case name, in
// any case. Where names differ only in case the lower-case one wins, else
// the first in sorted order, so that the result does not depend on the
// order of the members.
func field(members []jsontree.Member, col string) *jsontree.Value {
	var found *jsontree.Member
	for i := range members {
		m := &members[i]
		switch {
		case m.Key == col:
			return &m.Value
		case strings.ToLower(m.Key) == col && (found == nil || m.Key < found.Key):
			found = m
		}
	}
	if found == nil {
		return nil
	}
	return &found.Value
}

// readValues reads a row's key values and counts; get returns the value
// of a column (k0, documents), nil where the row has none. An error names
// the column it is about.
func readValues(row *Row, get func(col string) *jsontree.Value) (col string, err error) {
	for i := range row.Values {
		if row.Values[i], err = keyValue(get(keyColumn[i])); err != nil {
			return keyColumn[i], err
		}
	}
	docs := get(colDocuments)
	if isNull(docs) {
		return colDocuments, errors.New("missing document count")
	}
	if row.Documents, err = countOf(docs); err != nil {
		return colDocuments, err
	}
	if v := get(colBytes); !isNull(v) {
		if row.Bytes, err = countOf(v); err != nil {
			return colBytes, err
		}
	}
	if v := get(colRequests); !isNull(v) {
		if row.Requests, err = rateOf(v); err != nil {
			return colRequests, err
		}
	}
	return "", nil
}

// keyValue is a key component from a JSON value; nil is the undefined key.
func keyValue(v *jsontree.Value) (epk.Value, error) {
	if v == nil {
		return epk.UndefinedValue, nil
	}
	switch v.Kind {
	case jsontree.Null:
		return epk.NullValue, nil
	case jsontree.Bool:
		return epk.Bool(v.Bool), nil
	case jsontree.Number:
		if math.IsInf(v.Num, 0) {
			return epk.Value{}, fmt.Errorf("the number %s is out of range", short(literal(v)))
		}
		return epk.Num(v.Num), nil
	case jsontree.String:
		return epk.Str(v.Str), nil
	}
	return epk.Value{}, fmt.Errorf("the key value is %s; a partition key value is a string, number, boolean or null", article(v.Kind))
}

// article is a kind of JSON value with its article: "an object".
func article(k jsontree.Kind) string {
	if k == jsontree.Object || k == jsontree.Array {
		return "an " + k.String()
	}
	return "a " + k.String()
}

func isNull(v *jsontree.Value) bool { return v == nil || v.Kind == jsontree.Null }

// literal is a number as written.
func literal(v *jsontree.Value) string {
	if v.Str != "" {
		return v.Str
	}
	return v.JSON()
}

// countOf reads a document or byte count from a number or a string
// holding one.
func countOf(v *jsontree.Value) (int64, error) {
	// A number without its literal prints back as written (ingest keeps
	// the literal of every other), so a whole one is the count.
	if v.Kind == jsontree.Number && v.Str == "" && v.Num >= 0 && v.Num < 1<<63 && v.Num == math.Trunc(v.Num) {
		return int64(v.Num), nil
	}
	s, err := numberText(v)
	if err != nil {
		return 0, err
	}
	return count(s)
}

// rateOf reads the optional requests from a number or a string holding
// one.
func rateOf(v *jsontree.Value) (float64, error) {
	if v.Kind == jsontree.Number && v.Num >= 0 && !math.IsInf(v.Num, 0) {
		return v.Num, nil
	}
	s, err := numberText(v)
	if err != nil {
		return 0, err
	}
	return rate(s)
}

// numberText is the text of a number, or of a string that may hold one.
func numberText(v *jsontree.Value) (string, error) {
	switch v.Kind {
	case jsontree.Number:
		return literal(v), nil
	case jsontree.String:
		return strings.TrimSpace(v.Str), nil
	}
	return "", fmt.Errorf("expected a number, not %s", short(v.JSON()))
}

// count reads a document or byte count: a whole number, not negative.
// Engines print counts as integers, but some tools print 12.0 or 1.2e3.
func count(s string) (int64, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < 0 {
			return 0, fmt.Errorf("negative count %d", n)
		}
		return n, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("%q is not a number", short(s))
	case f < 0:
		return 0, fmt.Errorf("negative count %s", short(s))
	case f != math.Trunc(f):
		return 0, fmt.Errorf("%s is not a whole number", short(s))
	case f >= 1<<63:
		return 0, fmt.Errorf("%s is too large", short(s))
	}
	return int64(f), nil
}

// rate reads the optional requests column: a number, not negative.
func rate(s string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%q is not a number", short(s))
	case math.IsNaN(f) || math.IsInf(f, 0):
		return 0, fmt.Errorf("%s is not a finite number", s)
	case f < 0:
		return 0, fmt.Errorf("negative rate %s", s)
	}
	return f, nil
}

// short cuts a value for a message.
func short(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}

// levelsText is a key's count of levels in words: "1 level", "3 levels".
func levelsText(n int) string {
	return fmt.Sprintf("%d %s", n, human.Plural(int64(n), "level", "levels"))
}

// keyColumns says which columns a key's levels need.
func keyColumns(levels int) string {
	if levels == 1 {
		return "a key of 1 level needs column k0"
	}
	return fmt.Sprintf("a key of %s needs columns k0 to k%d", levelsText(levels), levels-1)
}
