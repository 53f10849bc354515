package ingest

import (
	"io"
	"unicode"
	"unicode/utf8"
)

// csvScanner reads the records of CSV text as encoding/csv reads them, with
// its leniencies (a last line without a line end, blank lines skipped,
// TrimLeadingSpace) and errors (a bare '"', text after a closing '"'), and
// three things encoding/csv has not:
//
//   - A line ends at "\n", "\r\n" or a "\r" alone, the line end of CSV
//     saved on a Mac by older Excel and by some exporters: encoding/csv
//     takes the whole of such a file for one line. A line end inside a
//     quoted field reads as "\n", whichever it is.
//   - No record holds more than MaxDocumentBytes of text: a row with more
//     cannot be an item, whose JSON holds every character of its cells
//     and more (quotes, names). Past that the rest of the row is read
//     over, not kept; encoding/csv keeps a field whole, however long.
//   - A quoted field that fails after a line end in it (it never closes,
//     runs past the limit, or meets a quote followed by other text) most
//     likely opens with a stray quote (5" screen written "5 screen): the
//     rows on the lines after it were read as its text. Its row is skipped
//     and reading goes back to the line after the quote's own, which the
//     scanner keeps from the first line end in the field (no more than the
//     limit's worth), so those rows are read, not lost. encoding/csv takes
//     all the rest of the input into the field, or all up to the next
//     quote.
//
// It knows where every field starts (line, column and offset), which
// encoding/csv reports only as lines and columns.
type csvScanner struct {
	src   io.Reader
	err   error // a read error, kept
	eof   bool
	empty int // reads in a row that returned nothing
	buf   []byte
	pos   int
	end   int
	base  int64 // input offset of buf[0]
	keep  int64 // input from this offset on is kept, to go back to; -1 for none
	high  int64 // the furthest offset read to, before going back

	comma   byte
	trim    bool      // TrimLeadingSpace
	special [256]bool // the bytes that end a run of an unquoted field's text

	line      int
	lineStart int64 // after a byte order mark on line 1

	// The record being read.
	text      []byte   // its fields' text, one after another
	ends      []int    // where each field's text ends in text
	starts    []csvPos // where each field starts in the input
	fields    []string
	recLine   int   // the line it starts on
	recOffset int64 // the offset of that line
}

// csvPos is a place in the input: line and column from 1, the column in
// bytes from the start of the line, and the offset from 0.
type csvPos struct {
	line, col int
	off       int64
}

// faultKind is what is wrong with a record.
type faultKind uint8

const (
	faultBareQuote faultKind = iota + 1 // a '"' in a field that does not start with one
	faultQuote                          // text after a quoted field's closing '"'
	faultOpen                           // a quoted field that never closes
	faultLong                           // more text than an item can hold
	faultRead                           // the input failed: err
)

// csvFault is a record that could not be read. The scanner is past it,
// at the next line, or back at resume.
type csvFault struct {
	kind   faultKind
	at     csvPos // the bad quote; the opening quote; the field past the limit
	field  int    // the field it is in, from 0
	lines  int    // faultLong in a quoted field: the lines it ran over; faultQuote going back: the line of the quote followed by text
	resume int    // the line reading goes back to, after a quoted field's opening quote; 0 if none
	err    error
}

func newCSVScanner(src io.Reader) *csvScanner {
	return &csvScanner{src: src, buf: make([]byte, 64<<10), keep: -1, line: 1, comma: ','}
}

// setComma sets the delimiter and TrimLeadingSpace.
func (s *csvScanner) setComma(comma byte, trim bool) {
	s.comma, s.trim = comma, trim
	s.special = [256]bool{}
	s.special['\n'], s.special['\r'], s.special['"'], s.special[comma] = true, true, true, true
}

// fill makes n unread bytes available if the input has them.
func (s *csvScanner) fill(n int) bool {
	for s.end-s.pos < n {
		if s.eof {
			return false
		}
		keep := s.pos
		if s.keep >= 0 {
			keep = int(s.keep - s.base)
		}
		if keep > 0 {
			copy(s.buf, s.buf[keep:s.end])
			s.base += int64(keep)
			s.end -= keep
			s.pos -= keep
		}
		if s.end == len(s.buf) {
			nb := make([]byte, 2*len(s.buf))
			copy(nb, s.buf[:s.end])
			s.buf = nb
		}
		m, err := s.src.Read(s.buf[s.end:])
		if m < 0 || m > len(s.buf)-s.end {
			m = 0 // a broken reader must not break the scanner
		}
		s.end += m
		if m == 0 && err == nil {
			if s.empty++; s.empty >= 100 {
				err = io.ErrNoProgress
			}
		} else {
			s.empty = 0
		}
		if err != nil {
			s.eof = true
			if err != io.EOF {
				s.err = err
			}
		}
	}
	return true
}

func (s *csvScanner) peek() (byte, bool) {
	if s.pos < s.end || s.fill(1) {
		return s.buf[s.pos], true
	}
	return 0, false
}

// head returns up to n unread bytes without consuming them.
func (s *csvScanner) head(n int) []byte {
	s.fill(n)
	return s.buf[s.pos:min(s.end, s.pos+n)]
}

func (s *csvScanner) offset() int64 { return s.base + int64(s.pos) }

// consumed is how far the input has been read, never less than before.
func (s *csvScanner) consumed() int64 { return max(s.high, s.offset()) }

func (s *csvScanner) here() csvPos {
	off := s.offset()
	return csvPos{line: s.line, col: int(off-s.lineStart) + 1, off: off}
}

// skipBOM passes over a UTF-8 byte order mark at the start: columns on the
// first line count from after it.
func (s *csvScanner) skipBOM() bool {
	if string(s.head(3)) != "\xEF\xBB\xBF" {
		return false
	}
	s.pos += 3
	s.lineStart = s.offset()
	return true
}

// lineEnd passes over the line end at the current position: "\n", "\r",
// or "\r\n".
func (s *csvScanner) lineEnd() {
	c := s.buf[s.pos]
	s.pos++
	if c == '\r' {
		if c, ok := s.peek(); ok && c == '\n' {
			s.pos++
		}
	}
	s.line++
	s.lineStart = s.offset()
}

// skipLine passes over the rest of the line and its line end.
func (s *csvScanner) skipLine() {
	for {
		if s.pos >= s.end && !s.fill(1) {
			return
		}
		b := s.buf[s.pos:s.end]
		for i, c := range b {
			if c == '\n' || c == '\r' {
				s.pos += i
				s.lineEnd()
				return
			}
		}
		s.pos = s.end
	}
}

// readFault is the input's error, if it failed, else nil.
func (s *csvScanner) readFault() *csvFault {
	if s.err != nil {
		return &csvFault{kind: faultRead, err: s.err}
	}
	return nil
}

// record reads the next record: its fields, valid until the next call, or
// what is wrong with it. Both are nil at the end of the input.
func (s *csvScanner) record() ([]string, *csvFault) {
	for {
		c, ok := s.peek()
		if !ok {
			return nil, s.readFault()
		}
		if c != '\n' && c != '\r' {
			break
		}
		s.lineEnd() // a blank line
	}
	s.text, s.ends, s.starts = s.text[:0], s.ends[:0], s.starts[:0]
	s.recLine, s.recOffset = s.line, s.lineStart
	for {
		if s.trim {
			s.trimSpace()
		}
		at := s.here()
		s.starts = append(s.starts, at)
		var more bool
		var f *csvFault
		if c, ok := s.peek(); ok && c == '"' {
			more, f = s.quoted(at)
		} else {
			more, f = s.unquoted(at)
		}
		if f != nil {
			f.field = len(s.ends)
			s.keep = -1
			return nil, f
		}
		s.ends = append(s.ends, len(s.text))
		if !more {
			break
		}
	}
	// One string for the record, its fields slices of it, as encoding/csv
	// does.
	all := string(s.text)
	s.fields = s.fields[:0]
	from := 0
	for _, e := range s.ends {
		s.fields = append(s.fields, all[from:e])
		from = e
	}
	return s.fields, nil
}

// trimSpace passes over white space at the start of a field, as
// TrimLeadingSpace does (unicode.IsSpace), but not over a line end.
func (s *csvScanner) trimSpace() {
	for s.fill(1) {
		c := s.buf[s.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
			s.pos++
			continue
		case c < utf8.RuneSelf:
			return
		}
		s.fill(utf8.UTFMax)
		r, n := utf8.DecodeRune(s.buf[s.pos:s.end])
		if !unicode.IsSpace(r) {
			return
		}
		s.pos += n
	}
}

// unquoted reads a field that does not start with a quote, from at; more
// reports that a delimiter ends it.
func (s *csvScanner) unquoted(at csvPos) (more bool, f *csvFault) {
	for {
		if s.pos >= s.end && !s.fill(1) {
			return false, s.readFault() // the end of the input ends the record
		}
		b := s.buf[s.pos:s.end]
		i := 0
		for i < len(b) && !s.special[b[i]] {
			i++
		}
		s.text = append(s.text, b[:i]...)
		s.pos += i
		if len(s.text) > MaxDocumentBytes {
			return false, s.long(at, false)
		}
		if i == len(b) {
			continue
		}
		switch b[i] {
		case '"':
			q := s.here()
			s.skipLine()
			return false, &csvFault{kind: faultBareQuote, at: q}
		case '\n', '\r':
			s.lineEnd()
			return false, nil
		default: // the delimiter
			s.pos++
			return true, nil
		}
	}
}

// quoted reads a field that starts with the quote at at.
func (s *csvScanner) quoted(at csvPos) (more bool, f *csvFault) {
	s.pos++
	resume := 0 // the line after the quote's, once the field has crossed a line end
	for {
		if s.pos >= s.end && !s.fill(1) {
			if f := s.readFault(); f != nil {
				return false, f
			}
			f := &csvFault{kind: faultOpen, at: at}
			if resume > 0 && s.goBack(resume) {
				f.resume = resume
			}
			return false, f
		}
		b := s.buf[s.pos:s.end]
		i := 0
		for i < len(b) && b[i] != '"' && b[i] != '\n' && b[i] != '\r' {
			i++
		}
		s.text = append(s.text, b[:i]...)
		s.pos += i
		if len(s.text) > MaxDocumentBytes {
			if lines := s.line - at.line + 1; resume > 0 && s.goBack(resume) {
				return false, &csvFault{kind: faultLong, at: at, lines: lines, resume: resume}
			}
			return false, s.long(at, true)
		}
		if i == len(b) {
			continue
		}
		if c := b[i]; c == '\n' || c == '\r' {
			s.lineEnd()
			s.text = append(s.text, '\n')
			if resume == 0 {
				// Kept from here, in case the quote turns out to be
				// stray (see csvScanner).
				resume, s.keep = s.line, s.lineStart
			}
			continue
		}
		q := s.here()
		s.pos++ // the quote
		c, ok := s.peek()
		switch {
		case ok && c == '"':
			s.pos++
			s.text = append(s.text, '"')
		case ok && c == s.comma:
			s.pos++
			s.keep = -1
			return true, nil
		case ok && (c == '\n' || c == '\r'):
			s.lineEnd()
			s.keep = -1
			return false, nil
		case !ok:
			s.keep = -1
			return false, s.readFault()
		default:
			if resume > 0 && s.goBack(resume) {
				// Text after a quote lines after the field's own: its
				// opening quote is the stray one, more likely than not.
				return false, &csvFault{kind: faultQuote, at: at, lines: q.line, resume: resume}
			}
			s.keep = -1
			s.skipLine()
			return false, &csvFault{kind: faultQuote, at: q}
		}
	}
}

// long passes over the rest of a row whose field at at takes it past
// MaxDocumentBytes of text, keeping none of it: in a quoted field
// (inQuote) to its closing quote or a line end, then to the end of the
// line.
func (s *csvScanner) long(at csvPos, inQuote bool) *csvFault {
	s.keep = -1
	for inQuote {
		if s.pos >= s.end && !s.fill(1) {
			break
		}
		c := s.buf[s.pos]
		if c == '\n' || c == '\r' {
			s.lineEnd()
			return &csvFault{kind: faultLong, at: at}
		}
		s.pos++
		if c == '"' {
			if c, ok := s.peek(); !ok || c != '"' {
				break // the closing quote
			}
			s.pos++ // a doubled quote
		}
	}
	s.skipLine()
	return &csvFault{kind: faultLong, at: at}
}

// goBack returns to the start of line, kept since a quoted field crossed
// its line end, and reports whether anything but blank lines follows
// there to read again.
func (s *csvScanner) goBack(line int) bool {
	s.high = max(s.high, s.offset())
	from := int(s.keep - s.base)
	s.keep = -1
	rest := s.buf[from:s.end]
	for _, c := range rest {
		if c != '\n' && c != '\r' {
			s.pos, s.line, s.lineStart = from, line, s.base+int64(from)
			return true
		}
	}
	return false
}
