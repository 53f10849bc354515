package ingest

import "github.com/pkcalc/pkcalc/core/jsontree"

// ValueReader reads JSON text that another value holds, such as a log's
// partition key `["contoso",42]` written into a string column, as a value
// inside a document is read: with the Reader's lexer, limits and Extended
// JSON. It is not safe for concurrent use.
type ValueReader struct {
	r   *Reader
	buf []byte
}

// NewValueReader returns a ValueReader.
func NewValueReader() *ValueReader { return &ValueReader{r: newValueReader()} }

// Read reads all of text as one JSON value; ok is false if text is
// anything else, or holds a value over the item limits.
func (v *ValueReader) Read(text string) (jsontree.Value, bool) {
	v.buf = append(v.buf[:0], text...) // valueOf's values do not keep it
	return v.r.valueOf(v.buf)
}
