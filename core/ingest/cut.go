package ingest

import "fmt"

// A line of JSON Lines cut short after ':', '[' or ',' leaves its document
// open where a value is due, and the document on the next line reads as
// that value: {"a":  then {"id":"2"} is one document {"a":{"id":"2"} that
// only fails after it, losing the good document with no word. So where a
// document that starts a line (a line of JSON Lines) finds the value it
// waits for at the start of the very next line, and that value is an
// object or array that ends its line, the Reader keeps the input from
// there (cutMark). If the document then fails right after that value, it
// was cut: the error says so, at the end of its line, and reading goes on
// with the value as the next document. A document that goes on after the
// value (",", "}" or "]") is whole, however it is laid out, and reads as
// before.

// cutMark is a value that may be the next document, taken into a document
// cut short on the line before.
type cutMark struct {
	on        bool
	ended     bool  // the value was read and nothing but white space follows it on its line
	off       int64 // where the value starts: reading goes on from there
	line      int
	lineStart int64
	crEnd     int64
	depth     int   // r.depth of the object or array it is in
	colon     bool  // it follows a property's ':', not '[' or ','
	atOff     int64 // where the line was cut: after its last token
	atCol     int
}

// maxCut is how much input a cutMark keeps at most: the value is a whole
// document, which is at most MaxDocumentBytes as compact JSON.
const maxCut = MaxDocumentBytes + 64<<10

// markCut marks the value at the current position if it may be a document
// taken into the current one: see cutMark. It is called where a value is
// due, after white space that crossed a line end.
func (r *Reader) markCut() {
	if r.cut.on || r.state != stTop || r.docCol != 1 || r.line != r.docLine+1 || r.Offset() != r.lineStart || r.spaceFrom < r.docStart || r.depth < 1 {
		return
	}
	if c, ok := r.peek(); !ok || c != '{' && c != '[' {
		return
	}
	r.cut = cutMark{on: true, off: r.Offset(), line: r.line, lineStart: r.lineStart, crEnd: r.crEnd,
		depth: r.depth, colon: r.afterColon(), atOff: r.spaceFrom, atCol: int(r.spaceFrom-r.docStart) + 1}
}

// cutEnds is called where the object or array holding a marked value reads
// what follows it: the mark stays only if nothing but white space follows
// the value on its line.
func (r *Reader) cutEnds() {
	r.cut.ended = true
	for i := 0; i < 4096 && r.ensure(i+1); i++ {
		switch r.buf[r.pos+i] {
		case ' ', '\t':
			continue
		case '\n', '\r':
			return
		}
		r.cut = cutMark{}
		return
	}
	if r.end-r.pos > 4096 {
		r.cut = cutMark{} // megabytes of white space: not a line of JSON Lines
	}
	// else the end of the input
}

// rewindCut, after an error in document e.Document right after a marked
// value, goes back to the value and returns the error to report in e's
// place: the document was cut at the end of its first line.
func (r *Reader) rewindCut(e *Error) *Error {
	m := r.cut
	r.cut = cutMark{}
	r.pos = int(m.off - r.base)
	r.line, r.lineStart, r.crEnd = m.line, m.lineStart, m.crEnd
	what := "inside an array"
	if m.colon {
		what = "after ':' with no value"
	}
	return &Error{Document: e.Document, Line: r.docLine, Column: m.atCol, Offset: m.atOff, Skipped: true,
		Msg: fmt.Sprintf("the line ends %s: document %d is cut off here; skipped, and line %d, a document of its own, is read as one", what, e.Document, m.line)}
}
