package ingest

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pkcalc/pkcalc/core/jsontree"
)

// CSVReader reads the rows of a CSV file with a header row as documents:
// one object per row, one property per column. It is for people planning a
// move from relational tables, who have them exported as CSV or TSV. It is
// not safe for concurrent use.
//
// A Document's Index counts the rows after the header, skipped ones
// included; Line is the line the row starts on (rows can span lines inside
// quotes); Offset is the byte offset of that line; Bytes is the length of
// Root as compact JSON, len(Root.JSON()).
//
// How cells become values:
//
//   - A cell whose whole text is a JSON number (-?digits(.digits)?(e±digits)?)
//     is a number. Leading zeros ("007", "00") and a leading "+" keep a cell
//     a string: they are codes, not quantities. So does an integer beyond
//     ±2^53 ("12345678901234567890", a card or order number): a double would
//     not hold it exactly, and neither would Cosmos DB. So does a number
//     beyond the range of a double ("1e999"). As from the JSON Reader, a
//     number keeps its literal in Value.Str where the double would not
//     print it back ("1e5", "12.50").
//   - true and false, in any case (TRUE, False), are booleans; null in any
//     case (NULL, as SQL exports write it) is null.
//   - An empty cell is a missing property: the property is not written at
//     all, the way a row with a NULL column usually becomes a document
//     without that property. An object all of whose cells are empty (see
//     dotted headers) is left out too. A row of empty cells is {}.
//   - Everything else is a string, exactly as written: no trimming.
//   - encoding/csv does not say whether a cell was quoted, so "42" in quotes
//     is the number 42 like 42 without them, and "" in quotes is empty.
//   - Cells must be read whole as one of these: " 42" is a string.
//   - Under SetJSONCells, cells are JSON text instead: see there.
//
// How headers become property names:
//
//   - Spaces around a header name are dropped ("id, name" gives "name").
//   - A name with dots nests: address.city and address.zip make
//     {"address":{"city":..,"zip":..}}. A name with an empty part (".a",
//     "a..b", "a.") does not nest; neither does one that another column
//     makes impossible (columns "address" and "address.city": the second
//     is the flat property "address.city", with a note), nor one nested
//     deeper than MaxDepth.
//   - A repeated name is renamed name_2 (name_3, ... if that is taken). A
//     column without a name (the index column pandas writes) is read as
//     column_N, N its 1-based position.
//   - Each such change of a name is a note at the header line, in the
//     Notes of the first document: the rows are still read whole. So is a
//     name that holds a character that does not show as itself (a second
//     byte order mark, a zero-width space: human.Unseen).
//   - A JSON table's header follows the same rules (table.go).
//
// The delimiter is the one of comma, semicolon and tab that the first
// non-blank line (the header) holds most of, outside quotes: a comma on a
// tie, and a comma when there is none (a single column). When every
// delimiter in that line is followed by a space ("id, name, city"), the
// leading spaces of all cells are dropped (encoding/csv's
// TrimLeadingSpace), so that `1, "a, b"` still reads as two cells; not
// with tabs, which that would trim away. A UTF-8 byte order mark at the
// start is skipped; columns on the first line count from after it.
//
// Errors: a row whose number of cells differs from the header's, a '"' in
// a cell that does not start with one, or a quoted cell that goes on after
// its closing quote is an *Error with the line and column, the row is
// skipped and reading goes on at the next line (a stray quote is reported,
// not silently kept, as encoding/csv's LazyQuotes would). So is a row of
// more than MaxDocumentBytes (2 MB) of text, which no item can hold (its
// JSON has every character of its cells and more): it is read over, never
// held in memory, however long. A quoted cell that fails after a line end
// in it (it never closes, runs on past 2 MB, or meets a quote followed by
// text) most likely opens with a stray quote: its row is skipped and
// reading goes on at the line after the quote's (csvScanner), so the rows
// taken into the cell are read. Invalid UTF-8
// reads as U+FFFD with a note on the document. There is no cap on the
// number of errors: each is confined to its row.
//
// Lines end at "\n", "\r\n" or "\r" alone (CSV saved with classic Mac
// line ends); a line end inside a quoted cell reads as "\n". Other details
// follow encoding/csv: blank lines are skipped (so in a one-column file an
// empty cell is a skipped line, not a row), and one row is held in memory
// at a time.
type CSVReader struct {
	s *csvScanner

	format     string
	started    bool
	done       bool
	cols       *columns // the shape of a document, from the header
	pending    []error  // header problems not yet returned
	rows       int      // rows numbered so far, counting skipped ones
	notes      []*Error // notes of the row being read
	jsonRemedy string   // how to read JSON instead (SetJSONRemedy)
	quoteHint  string   // what to add to the message on a misplaced quote (SetQuoteRemedy)
	jsonCells  *Reader  // reads cells as JSON text (SetJSONCells); nil: typed as above
	cellText   []byte   // the cell jsonCells reads
	names      []string // the header's names, trimmed (Header)
	headerLine int
}

// NewCSVReader returns a CSVReader of documents from src. Nothing is read
// until the first call to Next.
func NewCSVReader(src io.Reader) *CSVReader {
	return &CSVReader{s: newCSVScanner(src)}
}

// SetJSONRemedy sets what the message for an input that looks like JSON,
// not CSV, tells the user to do, in the words of the front end reading it.
// The default is "read it as JSON, from a file not named .csv or sent as
// application/json".
func (c *CSVReader) SetJSONRemedy(s string) { c.jsonRemedy = s }

// SetQuoteRemedy sets what the message for a misplaced quote adds, such as
// how to make the program that wrote the file double its quotes.
func (c *CSVReader) SetQuoteRemedy(s string) { c.quoteHint = s }

// SetJSONCells makes the cells of the rows hold JSON text, as a query
// engine writes a JSON value into CSV: a cell that is one JSON value
// ("contoso" with its quotes, 42, true, null, an object) is that value,
// read as the JSON Reader reads a value in a document; any other cell is a
// string as written, and an empty cell is still a missing property. So
// "007" and TRUE are strings, and 12345678901234567890 a number.
func (c *CSVReader) SetJSONCells(on bool) {
	c.jsonCells = nil
	if on {
		c.jsonCells = newValueReader()
	}
}

// Header reads the header row if Next has not, and returns its names,
// trimmed as property names are but before an empty or a repeated one is
// renamed, and the line it is on. It returns nil for an input without a
// header (empty, or not CSV, or a header that cannot be read): Next says
// which.
func (c *CSVReader) Header() (names []string, line int) {
	if !c.started {
		c.start()
	}
	return c.names, c.headerLine
}

// Format is "CSV", "CSV (semicolon-separated)" or "TSV", settled by the
// first call to Next; "CSV" before it and for an empty input.
func (c *CSVReader) Format() string {
	if c.format == "" {
		return "CSV"
	}
	return c.format
}

// Offset is the number of input bytes consumed so far: the end of the last
// row read (or of the input read past a quote that never closes, before
// going back to the rows it took in).
func (c *CSVReader) Offset() int64 { return c.s.consumed() }

// Next returns the next row as a document. At the end of the input it
// returns io.EOF. A problem returns an *Error; calling Next again goes on
// with the next row. Problems with the header come first, with Document 0.
// An error from the underlying reader is returned as it is, and io.EOF
// after it.
func (c *CSVReader) Next() (*Document, error) {
	if !c.started {
		c.start()
	}
	if len(c.pending) > 0 {
		err := c.pending[0]
		c.pending = c.pending[1:]
		return nil, err
	}
	if c.done {
		return nil, io.EOF
	}
	rec, f := c.s.record()
	switch {
	case f != nil && f.kind == faultRead:
		c.done = true
		return nil, f.err
	case f != nil:
		c.rows++
		return nil, c.fault(f, c.rows)
	case rec == nil:
		c.done = true
		return nil, io.EOF
	}
	c.rows++
	return c.row(rec)
}

// start strips a byte order mark, settles the delimiter and reads the
// header.
func (c *CSVReader) start() {
	c.started = true
	c.s.skipBOM()
	// A file that is not CSV text at all (a workbook, gzip, UTF-16) is
	// one problem, not a header of garbage and no rows.
	head := bytes.TrimLeft(c.s.head(sniffBytes), " \t\r\n")
	msg := NotText(head, "CSV")
	if msg == "" && looksJSON(head) {
		remedy := c.jsonRemedy
		if remedy == "" {
			remedy = "read it as JSON, from a file not named .csv or sent as application/json"
		}
		msg = "the input looks like JSON, not CSV: " + remedy
	}
	if msg != "" {
		c.done = true
		c.format = "CSV"
		c.pending = append(c.pending, &Error{Line: 1, Column: 1, Offset: c.s.offset(), Msg: msg + "; no rows read"})
		return
	}
	comma, spaced := sniff(c.s)
	switch comma {
	case ';':
		c.format = "CSV (semicolon-separated)"
	case '\t':
		c.format = "TSV"
	default:
		c.format = "CSV"
	}
	c.s.setComma(comma, spaced)
	rec, f := c.s.record()
	switch {
	case f != nil && f.kind == faultRead:
		c.done = true
		c.pending = append(c.pending, f.err)
	case f != nil:
		c.done = true
		c.pending = append(c.pending, c.fault(f, 0))
	case rec == nil:
		c.done = true
	default:
		c.header(rec)
	}
}

// header turns the names of the columns into the shape of the documents.
func (c *CSVReader) header(rec []string) {
	c.cols = newColumns(rec, c.s.starts)
	c.names = c.cols.names
	c.headerLine = c.s.starts[0].line
}

// row makes a document of a record.
func (c *CSVReader) row(rec []string) (*Document, error) {
	line, start := c.s.recLine, c.s.recOffset
	width := c.cols.width
	if len(rec) != width {
		e := &Error{Document: c.rows, Line: line, Column: 1, Offset: start, Skipped: true,
			Msg: fmt.Sprintf("%d fields, the header has %d; skipped", len(rec), width)}
		if len(rec) > width {
			// Point at the first cell too many.
			at := c.s.starts[width]
			e.Line, e.Column, e.Offset = at.line, at.col, at.off
		}
		return nil, e
	}
	c.notes = nil
	root := buildRow(c.cols.root, csvCells{c, rec})
	size := root.CompactLen() // len(root.JSON()), without building it
	if size > MaxDocumentBytes {
		return nil, &Error{Document: c.rows, Line: line, Column: 1, Offset: start, Skipped: true,
			Msg: fmt.Sprintf("row is %.1f MB as JSON, over the 2 MB Cosmos DB allows for an item; skipped", float64(size)/(1<<20))}
	}
	notes := c.notes
	if c.cols.notes != nil {
		notes = append(c.cols.notes, notes...)
		c.cols.notes = nil
	}
	return &Document{Index: c.rows, Line: line, Offset: start, Bytes: size, Root: root, Notes: notes}, nil
}

// csvCells are the cells of a record, typed as CSVReader types them.
type csvCells struct {
	c   *CSVReader
	rec []string
}

func (r csvCells) cell(i int) (jsontree.Value, bool) { return r.c.cell(r.rec, i) }

func (c *CSVReader) cell(rec []string, i int) (jsontree.Value, bool) {
	s := rec[i]
	if s == "" {
		return jsontree.Value{}, false
	}
	if c.jsonCells != nil {
		c.cellText = append(c.cellText[:0], s...) // valueOf's values do not keep it
		if v, ok := c.jsonCells.valueOf(c.cellText); ok {
			for _, n := range c.jsonCells.notes {
				c.cellNote(i, "the cell in column %d: %s", i+1, n.Msg)
			}
			return v, true
		}
	}
	if !utf8.ValidString(s) {
		c.cellNote(i, "the cell in column %d is not valid UTF-8; the bad bytes read as U+FFFD", i+1)
		return jsontree.Value{Kind: jsontree.String, Str: strings.ToValidUTF8(s, "\uFFFD")}, true
	}
	if c.jsonCells != nil {
		return jsontree.Value{Kind: jsontree.String, Str: s}, true
	}
	return cellValue(s), true
}

// cellNote notes a problem with the cell in column i of the row being
// read, at the cell's start; past 10 a row's notes are dropped.
func (c *CSVReader) cellNote(i int, format string, args ...any) {
	if len(c.notes) < 10 {
		at := c.s.starts[i]
		c.notes = append(c.notes, &Error{Document: c.rows, Line: at.line, Column: at.col, Offset: at.off,
			Msg: fmt.Sprintf(format, args...)})
	}
}

// cellValue types the text of a non-empty cell.
func cellValue(s string) jsontree.Value {
	switch s[0] {
	case 't', 'T', 'f', 'F', 'n', 'N':
		switch {
		case asciiFold(s, "true"):
			return jsontree.Value{Kind: jsontree.Bool, Bool: true}
		case asciiFold(s, "false"):
			return jsontree.Value{Kind: jsontree.Bool}
		case asciiFold(s, "null"):
			return jsontree.Value{Kind: jsontree.Null}
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if v, ok := cellNumber(s); ok {
			return v
		}
	}
	return jsontree.Value{Kind: jsontree.String, Str: s}
}

// asciiFold reports whether s is the lower-case ASCII word w in any case.
// (strings.EqualFold would also take "falſe", with a long s.)
func asciiFold(s, w string) bool {
	if len(s) != len(w) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i]|0x20 != w[i] {
			return false
		}
	}
	return true
}

// cellNumber reads s as a number when all of it is JSON number syntax with
// no leading zeros, and a double holds it: integers to ±2^53 exactly,
// others within range.
func cellNumber(s string) (jsontree.Value, bool) {
	digits := func(i int) int {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i
	}
	i := 0
	if s[0] == '-' {
		i++
	}
	start := i
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(i)
	default:
		return jsontree.Value{}, false
	}
	intDigits := i - start
	integer := true
	if i < len(s) && s[i] == '.' {
		integer = false
		j := digits(i + 1)
		if j == i+1 {
			return jsontree.Value{}, false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		integer = false
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return jsontree.Value{}, false
		}
		i = j
	}
	if i != len(s) {
		return jsontree.Value{}, false // "007", "1.2.3", "12abc"
	}
	if integer && intDigits > 15 {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n > 1<<53 || n < -(1<<53) {
			return jsontree.Value{}, false
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return jsontree.Value{}, false
	}
	v := jsontree.Value{Kind: jsontree.Number, Num: f}
	if !(integer && intDigits <= 15) && v.JSON() != s { // short integers print back as written
		v.Str = s // keep the literal where the double does not print it back (1e5, 12.50)
	}
	return v, true
}

// fault describes a record that could not be read: a row, numbered doc,
// or the header (doc 0), which ends the reading.
func (c *CSVReader) fault(f *csvFault, doc int) *Error {
	e := &Error{Document: doc, Line: f.at.line, Column: f.at.col, Offset: f.at.off, Skipped: doc > 0}
	quote := true
	switch {
	case f.kind == faultBareQuote:
		e.Msg = `a '"' inside a field that does not start with one: quote the whole field and double the quotes in it ("5"" screen")`
	case f.kind == faultQuote && f.resume > 0:
		e.Msg = fmt.Sprintf(`the quoted field that starts here runs on to line %d, where a '"' is followed by other text: is its closing '"' missing?`, f.lines)
	case f.kind == faultQuote:
		e.Msg = `a quoted field goes on after its closing '"' (a '"' inside a quoted field must be doubled)`
	case f.kind == faultOpen:
		e.Msg = `the quoted field that starts here never closes: the input ends before its closing '"'`
	case f.kind == faultLong && f.resume > 0:
		e.Msg = fmt.Sprintf(`the quoted field that starts here runs on over %d lines and past 2 MB, more than the 2 MB Cosmos DB allows for an item: is its closing '"' missing?`, f.lines)
	default: // faultLong
		quote = false
		e.Msg = fmt.Sprintf("field %d takes the row past 2 MB of text, more than the 2 MB Cosmos DB allows for an item", f.field+1)
	}
	if c.quoteHint != "" && quote {
		e.Msg += "; " + c.quoteHint
	}
	switch {
	case doc == 0:
		e.Msg = "the header row cannot be read: " + e.Msg + "; no rows read"
	case f.resume > 0:
		e.Msg += fmt.Sprintf("; skipped, and reading goes on at line %d, after the quote's line", f.resume)
	default:
		e.Msg += "; skipped"
	}
	return e
}

// looksJSON reports an input that starts as JSON documents do: an object
// with a property name or none, or an array of them, which no CSV header
// does.
func looksJSON(head []byte) bool {
	if len(head) < 2 || head[0] != '{' && head[0] != '[' {
		return false
	}
	rest := bytes.TrimLeft(head[1:], " \t\r\n")
	if len(rest) == 0 {
		return false
	}
	switch rest[0] {
	case '"', '}':
		return head[0] == '{'
	case '{', '[', ']':
		return head[0] == '['
	}
	return false
}

// sniff looks at the first non-blank line without consuming it and returns
// the delimiter it uses, and whether every delimiter in it is followed by
// a space (and it is not a tab). It looks no further than 64 KB.
func sniff(s *csvScanner) (comma byte, spaced bool) {
	delims := [3]byte{',', ';', '\t'}
	var count, followed [3]int
	last := -1 // the delimiter just before the current byte
	inQuote, content := false, false
scan:
	for n := 0; n < 64<<10 && s.fill(n+1); n++ {
		ch := s.buf[s.pos+n]
		if last >= 0 && ch == ' ' {
			followed[last]++
		}
		last = -1
		switch {
		case ch == '"':
			inQuote = !inQuote
			content = true
		case inQuote:
		case ch == '\n' || ch == '\r':
			if content {
				break scan
			}
		default:
			content = true
			if k := bytes.IndexByte(delims[:], ch); k >= 0 {
				count[k]++
				last = k
			}
		}
	}
	best := 0
	for k := 1; k < len(delims); k++ {
		if count[k] > count[best] {
			best = k
		}
	}
	return delims[best], best != 2 && count[best] > 0 && followed[best] == count[best]
}
