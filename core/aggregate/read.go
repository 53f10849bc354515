package aggregate

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/ingest"
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
// told apart by the first byte that is not a space.
//
// CSV needs a header row naming its columns: k0 up to k{levels-1},
// documents, and optionally bytes and requests; other columns are ignored.
// Cells are separated by commas, or by semicolons or tabs if the header
// has more of those.
// A key cell is JSON text ("contoso" with its quotes, 42, true, null); an
// empty cell is the undefined key (a missing path); a cell that is not JSON
// is taken as a plain string, for convenience.
//
// JSON is an array of objects, or a sequence of objects (JSON Lines), with
// the same field names; k fields hold JSON values and a missing k field is
// the undefined key, as Cosmos DB prints it. Cosmos DB's REST output,
// {"Documents": [...]}, is read too.
//
// Every bad row gives an error naming its line and column or field; the
// other rows are still returned, in input order and not merged.
func Read(r io.Reader, levels int) ([]Row, []error) {
	if levels < 1 || levels > key.MaxLevels {
		return nil, []error{fmt.Errorf("a key has 1 to %d levels, not %d", key.MaxLevels, levels)}
	}
	br := bufio.NewReader(r)
	first, skipped, err := firstByte(br)
	if err != nil {
		if err == io.EOF {
			return nil, []error{errors.New("the input is empty: expected CSV with a header row, or JSON")}
		}
		return nil, []error{fmt.Errorf("reading aggregates: %w", err)}
	}
	// A workbook, gzip or UTF-16 file is not taken for documents.
	head, _ := br.Peek(4096)
	if msg := ingest.NotText(head, "CSV or JSON"); msg != "" {
		return nil, []error{errors.New(msg)}
	}
	rd := &reader{levels: levels, base: skipped}
	if first == '[' || first == '{' {
		rd.readJSON(br, first)
	} else {
		rd.readCSV(br, separator(br))
	}
	if rd.documents() {
		// One error, not one per document: the whole input is the wrong kind.
		n := "its " + strconv.Itoa(rd.objects)
		if rd.objects >= sniffObjects {
			n = "its first " + strconv.Itoa(rd.objects)
		}
		if rd.objects == 1 {
			n = "its one object has"
		} else {
			n += " objects have"
		}
		return nil, []error{fmt.Errorf("%w: %s no documents field, the count per key value that pkcalc aggregate-query's query computes; analyze it as documents instead", ErrDocuments, n)}
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
// for JSON its number among the rows, as a compact array is one line).
type LineError struct {
	Line int
	Row  int // 0 in CSV
	Msg  string
}

func (e *LineError) Error() string {
	if e.Row > 0 {
		return fmt.Sprintf("line %d, row %d: %s", e.Line, e.Row, e.Msg)
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

// ErrDocuments is wrapped by Read's error for input that looks like the
// documents themselves rather than aggregates of them, so that a front end
// can say how to analyze documents.
var ErrDocuments = errors.New("the input looks like documents, not per-key aggregates")

// sniffObjects is how many objects without a documents field, and no row
// before them, make Read take its input for documents and stop.
const sniffObjects = 10

type reader struct {
	levels  int
	base    int // lines skipped before the first byte
	rows    []Row
	errs    []error
	objects int // JSON rows read
	row     int // JSON values read as rows, pages aside
	docless int // ... of which have no documents field
}

// documents reports whether the input looks like documents: no row read,
// and no object so far had a documents field.
func (rd *reader) documents() bool {
	return len(rd.rows) == 0 && rd.objects > 0 && rd.docless == rd.objects
}

func (rd *reader) fail(line int, format string, args ...any) {
	rd.errs = append(rd.errs, &LineError{Line: line, Msg: fmt.Sprintf(format, args...)})
}

// rowFail is fail for a JSON row, which it also numbers: a compact JSON
// array has every row on line 1.
func (rd *reader) rowFail(line int, format string, args ...any) {
	rd.errs = append(rd.errs, &LineError{Line: line, Row: rd.row, Msg: fmt.Sprintf(format, args...)})
}

// firstByte skips white space and a UTF-8 byte order mark, peeks at the
// next byte and counts the lines skipped.
func firstByte(br *bufio.Reader) (byte, int, error) {
	if b, err := br.Peek(3); err == nil && string(b) == "\uFEFF" {
		br.Discard(3)
	}
	lines := 0
	for {
		c, err := br.ReadByte()
		if err != nil {
			return 0, lines, err
		}
		switch c {
		case '\n':
			lines++
			continue
		case ' ', '\t', '\r':
			continue
		}
		return c, lines, br.UnreadByte()
	}
}

// Columns of an aggregate row.
const (
	colDocuments = "documents"
	colBytes     = "bytes"
	colRequests  = "requests"
)

// separator is the one of ',', ';' and tab that the header line uses most:
// a spreadsheet saved as CSV where the decimal mark is a comma separates
// cells with semicolons, and one saved as text with tabs.
func separator(br *bufio.Reader) rune {
	head, _ := br.Peek(br.Size())
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	sep, most := ',', bytes.Count(head, []byte{','})
	for _, c := range []byte{';', '\t'} {
		if n := bytes.Count(head, []byte{c}); n > most {
			sep, most = rune(c), n
		}
	}
	return sep
}

func (rd *reader) readCSV(r io.Reader, sep rune) {
	cr := csv.NewReader(r)
	cr.Comma = sep
	cr.FieldsPerRecord = -1 // counted here, to name the line and keep going
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		rd.errs = append(rd.errs, fmt.Errorf("reading the CSV header: %w", err))
		return
	}
	head = slices.Clone(head) // ReuseRecord: the next Read overwrites it
	cols := map[string]int{}
	for i, name := range head {
		name = strings.ToLower(strings.TrimSpace(name))
		if _, dup := cols[name]; dup && name != "" {
			rd.fail(rd.base+1, "the header names column %s twice", name)
			return
		}
		cols[name] = i
	}
	width := len(head)
	if _, ok := cols[colDocuments]; !ok {
		if _, ok := cols["k0"]; !ok {
			rd.errs = append(rd.errs, fmt.Errorf("%w: its CSV header has neither a k0 nor a documents column; analyze it as documents instead", ErrDocuments))
			return
		}
	}
	keyCols := make([]int, rd.levels)
	for i := range keyCols {
		c, ok := cols[fmt.Sprintf("k%d", i)]
		if !ok {
			rd.fail(rd.base+1, "the header has no column k%d; %s", i, keyColumns(rd.levels))
			return
		}
		keyCols[i] = c
	}
	for i := rd.levels; i < 10; i++ {
		if _, ok := cols[fmt.Sprintf("k%d", i)]; ok {
			rd.fail(rd.base+1, "the header has column k%d, but the key has %s: are these aggregates for another key?", i, levelsText(rd.levels))
			return
		}
	}
	docCol, ok := cols[colDocuments]
	if !ok {
		rd.fail(rd.base+1, "the header has no column documents")
		return
	}
	bytesCol, hasBytes := cols[colBytes]
	reqCol, hasReq := cols[colRequests]

	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				hint := ""
				if errors.Is(pe.Err, csv.ErrQuote) || errors.Is(pe.Err, csv.ErrBareQuote) {
					hint = ` (a quote inside a quoted cell is doubled, as in """contoso"""; Spark needs .option("escape", '"'))`
				}
				rd.fail(rd.base+pe.StartLine, "%v%s", pe.Err, hint)
				continue
			}
			rd.errs = append(rd.errs, fmt.Errorf("reading CSV: %w", err))
			return
		}
		line, _ := cr.FieldPos(0)
		line += rd.base
		if len(rec) != width {
			rd.fail(line, "%d cells, but the header has %d", len(rec), width)
			continue
		}
		row := Row{Values: make([]epk.Value, rd.levels), Line: line}
		bad := func(col int, format string, args ...any) {
			rd.fail(line, "column %s: %s", strings.TrimSpace(head[col]), fmt.Sprintf(format, args...))
		}
		ok := true
		for i, c := range keyCols {
			v, err := keyCell(rec[c])
			if err != nil {
				bad(c, "%v", err)
				ok = false
				break
			}
			row.Values[i] = v
		}
		if !ok {
			continue
		}
		cell := strings.TrimSpace(rec[docCol])
		if cell == "" {
			bad(docCol, "missing document count")
			continue
		}
		if row.Documents, err = count(cell); err != nil {
			bad(docCol, "%v", err)
			continue
		}
		if hasBytes {
			if cell := strings.TrimSpace(rec[bytesCol]); cell != "" {
				if row.Bytes, err = count(cell); err != nil {
					bad(bytesCol, "%v", err)
					continue
				}
			}
		}
		if hasReq {
			if cell := strings.TrimSpace(rec[reqCol]); cell != "" {
				if row.Requests, err = rate(cell); err != nil {
					bad(reqCol, "%v", err)
					continue
				}
			}
		}
		rd.rows = append(rd.rows, row)
	}
}

// keyCell reads a CSV key cell: JSON text, empty for undefined, or else a
// plain string.
func keyCell(s string) (epk.Value, error) {
	if s == "" {
		return epk.UndefinedValue, nil
	}
	if !json.Valid([]byte(s)) {
		return epk.Str(s), nil
	}
	return keyJSON([]byte(s))
}

// keyJSON reads a key component from a JSON value.
func keyJSON(raw []byte) (epk.Value, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && strings.HasPrefix(te.Value, "number") {
			return epk.Value{}, fmt.Errorf("the number %s is out of range", short(bytes.TrimSpace(raw)))
		}
		return epk.Value{}, fmt.Errorf("invalid JSON value %s: %v", short(raw), err)
	}
	switch v := v.(type) {
	case nil:
		return epk.NullValue, nil
	case bool:
		return epk.Bool(v), nil
	case float64:
		return epk.Num(v), nil
	case string:
		return epk.Str(v), nil
	case map[string]any:
		return epk.Value{}, fmt.Errorf("the key value is an object; a partition key value is a string, number, boolean or null")
	}
	return epk.Value{}, fmt.Errorf("the key value is an array; a partition key value is a string, number, boolean or null")
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
		return 0, fmt.Errorf("%q is not a number", short([]byte(s)))
	case f < 0:
		return 0, fmt.Errorf("negative count %s", short([]byte(s)))
	case f != math.Trunc(f):
		return 0, fmt.Errorf("%s is not a whole number", short([]byte(s)))
	case f >= 1<<63:
		return 0, fmt.Errorf("%s is too large", short([]byte(s)))
	}
	return int64(f), nil
}

// rate reads the optional requests column: a number, not negative.
func rate(s string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%q is not a number", short([]byte(s)))
	case math.IsNaN(f) || math.IsInf(f, 0):
		return 0, fmt.Errorf("%s is not a finite number", s)
	case f < 0:
		return 0, fmt.Errorf("negative rate %s", s)
	}
	return f, nil
}

// short cuts a value for a message.
func short(b []byte) string {
	const max = 40
	if len(b) <= max {
		return string(b)
	}
	return string(b[:max]) + "..."
}

// readJSON reads a JSON array of rows, or a sequence of rows (JSON Lines);
// either may hold Cosmos DB's {"Documents": [...]} pages.
func (rd *reader) readJSON(r io.Reader, first byte) {
	lr := &lineReader{r: r, line: rd.base}
	dec := json.NewDecoder(lr)
	// syntax reports err; row says it is in a row, which is numbered.
	syntax := func(err error, row bool) {
		line := lr.lineAt(dec.InputOffset())
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			line = lr.lineAt(se.Offset)
		case err != io.ErrUnexpectedEOF:
			// The input could not be read (a body over its limit): the
			// error keeps its type, for a front end to say so.
			rd.errs = append(rd.errs, fmt.Errorf("reading aggregates: %w", err))
			return
		}
		if err == io.ErrUnexpectedEOF {
			line = lr.lineAt(lr.read)
			err = errors.New("unexpected end of input")
		}
		if row {
			rd.rowFail(line, "invalid JSON: %v", err)
		} else {
			rd.fail(line, "invalid JSON: %v", err)
		}
	}
	// next decodes one value and finds the line it starts on.
	next := func() (json.RawMessage, int, error) {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, 0, err
		}
		return raw, lr.lineAt(dec.InputOffset() - int64(len(raw))), nil
	}
	if first == '[' {
	array:
		if _, err := dec.Token(); err != nil {
			syntax(err, false)
			return
		}
		for dec.More() {
			start := dec.InputOffset() // where the next row starts
			raw, line, err := next()
			if err != nil {
				lr.lineAt(start)
				before := lr.line
				// A ',' before the closing ']' leaves no row to number.
				buf, _ := io.ReadAll(dec.Buffered())
				row := !bytes.HasPrefix(bytes.TrimLeft(buf, " \t\r\n"), []byte("]"))
				if row {
					rd.row++
				}
				syntax(err, row)
				var se *json.SyntaxError
				if !errors.As(err, &se) {
					return
				}
				// The rows after a bad one still count: skip it, and read
				// on as an array from the ',' after it.
				br := bufio.NewReader(io.MultiReader(dec.Buffered(), lr.r))
				closed, ok := skipElement(br, &before)
				if !ok {
					return
				}
				if closed {
					lr = &lineReader{r: br, line: before}
					dec = json.NewDecoder(lr)
					if _, err := dec.Token(); err != io.EOF {
						rd.fail(lr.lineAt(dec.InputOffset()), "unexpected data after the JSON array")
					}
					return
				}
				lr = &lineReader{r: io.MultiReader(strings.NewReader("["), br), line: before}
				dec = json.NewDecoder(lr)
				goto array
			}
			rd.jsonValue(raw, line, true)
			if rd.documents() && rd.objects >= sniffObjects {
				return
			}
		}
		if _, err := dec.Token(); err != nil {
			syntax(err, false)
			return
		}
		if _, err := dec.Token(); err != io.EOF {
			rd.fail(lr.lineAt(dec.InputOffset()), "unexpected data after the JSON array")
		}
		return
	}
	for {
		raw, line, err := next()
		if err == io.EOF {
			return
		}
		if err != nil {
			start := dec.InputOffset() // where the bad row starts
			lr.lineAt(start)
			before := lr.line
			rd.row++
			syntax(err, true)
			var se *json.SyntaxError
			if !errors.As(err, &se) {
				return
			}
			// The rows after a bad one still count: go on at the next
			// line that starts an object, as for documents.
			lr = resync(io.MultiReader(dec.Buffered(), lr.r), before, se.Offset-1-start)
			dec = json.NewDecoder(lr)
			continue
		}
		rd.jsonValue(raw, line, true)
		if rd.documents() && rd.objects >= sniffObjects {
			return
		}
	}
}

// skipElement skips one element of a JSON array, bad as it may be, from
// its start: past its strings and the brackets it opens, to the ',' after
// it (consumed) or the array's ']' (closed). It counts the newlines it
// passes into line, and reports false at the end of the input or at a
// bracket that closes nothing open.
func skipElement(br *bufio.Reader, line *int) (closed, ok bool) {
	depth, inStr := 0, false
	for {
		c, err := br.ReadByte()
		if err != nil {
			return false, false
		}
		if c == '\n' {
			*line++
			inStr = false // a string cannot hold a line break
			continue
		}
		if inStr {
			switch c {
			case '\\':
				if n, err := br.ReadByte(); err == nil && n == '\n' {
					*line++
					inStr = false
				}
			case '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return c == ']', c == ']'
			}
			depth--
		case ',':
			if depth == 0 {
				return false, true
			}
		}
	}
}

// resync skips bad bytes bytes of r, which starts after line newlines,
// then the rest of their line and every line after it up to one that
// starts with '{', and reads on from there.
func resync(r io.Reader, line int, bad int64) *lineReader {
	br := bufio.NewReader(r)
	lineStart := false // an object starting the bad byte's line is the next row
	for ; bad > 0; bad-- {
		c, err := br.ReadByte()
		if err != nil {
			break
		}
		lineStart = c == '\n' || lineStart && (c == ' ' || c == '\t' || c == '\r')
		if c == '\n' {
			line++
		}
	}
	for {
		c, err := br.ReadByte()
		if err != nil {
			break
		}
		switch {
		case c == '\n':
			line++
			lineStart = true
			continue
		case c == ' ' || c == '\t' || c == '\r':
			continue
		case c == '{' && lineStart:
			br.UnreadByte()
		default:
			// The rest of the line, without holding a long one whole.
			for {
				_, err := br.ReadSlice('\n')
				if err != bufio.ErrBufferFull {
					if err == nil {
						line++
					}
					break
				}
			}
			lineStart = true
			continue
		}
		break
	}
	return &lineReader{r: br, line: line}
}

// jsonValue reads one row or, at the top level, the rows of a Cosmos DB
// page.
func (rd *reader) jsonValue(raw json.RawMessage, line int, top bool) {
	if raw[0] != '{' {
		rd.row++
		rd.rowFail(line, "expected an object with fields k0, documents and bytes, not %s", short(raw))
		return
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		rd.row++
		rd.rowFail(line, "%v", err)
		return
	}
	if docs, ok := fields["Documents"]; ok && top && len(docs) > 0 && docs[0] == '[' {
		rd.page(raw, line)
		return
	}
	// Field names match in any case; where two differ only in case the
	// lower-case one wins, else the first in sorted order, so the result
	// never depends on map order.
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	slices.Sort(names)
	lower := make(map[string]json.RawMessage, len(fields))
	for _, name := range names {
		l := strings.ToLower(name)
		if _, taken := lower[l]; !taken || name == l {
			lower[l] = fields[name]
		}
	}
	rd.objects++
	rd.row++
	if _, ok := lower[colDocuments]; !ok {
		rd.docless++
	}
	row := Row{Values: make([]epk.Value, rd.levels), Line: line, Row: rd.row}
	for i := range 10 {
		name := fmt.Sprintf("k%d", i)
		v, ok := lower[name]
		switch {
		case !ok:
			continue // undefined, as Cosmos DB leaves it out
		case i >= rd.levels:
			rd.rowFail(line, "field %s: the key has %s: are these aggregates for another key?", name, levelsText(rd.levels))
			return
		}
		val, err := keyJSON(v)
		if err != nil {
			rd.rowFail(line, "field %s: %v", name, err)
			return
		}
		row.Values[i] = val
	}
	docs := lower[colDocuments]
	if isNull(docs) {
		rd.rowFail(line, "field documents: missing document count")
		return
	}
	var err error
	if row.Documents, err = jsonNumber(docs, count); err != nil {
		rd.rowFail(line, "field documents: %v", err)
		return
	}
	if size := lower[colBytes]; !isNull(size) {
		if row.Bytes, err = jsonNumber(size, count); err != nil {
			rd.rowFail(line, "field bytes: %v", err)
			return
		}
	}
	if req := lower[colRequests]; !isNull(req) {
		if row.Requests, err = jsonNumber(req, rate); err != nil {
			rd.rowFail(line, "field requests: %v", err)
			return
		}
	}
	rd.rows = append(rd.rows, row)
}

// page reads the rows in a Cosmos DB page's Documents array, each with its
// own line.
func (rd *reader) page(raw json.RawMessage, line int) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.Token() // '{': raw is a valid object
	for dec.More() {
		name, _ := dec.Token()
		if name != "Documents" {
			var skip json.RawMessage
			dec.Decode(&skip)
			continue
		}
		dec.Token() // '['
		seen, at := 0, line
		for dec.More() {
			var elem json.RawMessage
			if dec.Decode(&elem) != nil {
				return
			}
			start := int(dec.InputOffset()) - len(elem)
			at += bytes.Count(raw[seen:start], []byte("\n"))
			seen = start
			rd.jsonValue(elem, at, false)
		}
		dec.Token() // ']'
	}
}

func isNull(raw json.RawMessage) bool {
	return raw == nil || string(raw) == "null"
}

// jsonNumber reads a number field with parse; a string holding a number is
// accepted too.
func jsonNumber[T any](raw json.RawMessage, parse func(string) (T, error)) (T, error) {
	var zero T
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return zero, err
		}
		return parse(strings.TrimSpace(s))
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return parse(string(raw))
	}
	return zero, fmt.Errorf("expected a number, not %s", short(raw))
}

// lineReader counts the lines of what a json.Decoder reads, so that a value
// at a byte offset can be given its line. Offsets are asked for in
// increasing order, so only the newlines not yet passed are kept.
type lineReader struct {
	r    io.Reader
	read int64   // bytes read so far
	nl   []int64 // offsets of newlines at or after pos
	line int     // newlines before pos
}

func (l *lineReader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for i, c := range p[:n] {
		if c == '\n' {
			l.nl = append(l.nl, l.read+int64(i))
		}
	}
	l.read += int64(n)
	return n, err
}

// lineAt returns the 1-based line of byte offset at; an offset before one
// already asked for gets that one's line.
func (l *lineReader) lineAt(at int64) int {
	i := 0
	for i < len(l.nl) && l.nl[i] < at {
		i++
	}
	l.line += i
	l.nl = l.nl[i:]
	return l.line + 1
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
