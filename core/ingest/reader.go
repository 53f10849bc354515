// Package ingest reads JSON documents from a stream, the way people have them
// at hand: a JSON array, JSON Lines (NDJSON), documents one after another, a
// single object, an object that wraps the documents in one array property (as
// the Cosmos DB REST API and many exports do; under SetPages, pages of them
// one after another), MongoDB Extended JSON, and a table of JSON arrays, a
// header row of names then rows of values (table.go).
//
// A Reader never needs the whole input in memory: it holds one document at a
// time, and no token longer than an item can hold (a string or a number of
// over MaxDocumentBytes skips its document, and is not kept). Bad input
// yields an *Error with the document number, line and column; the
// documents before it are kept, and the Reader resumes at the next
// document: in a sequence of top-level documents, after the bad one or at
// the next line (resumeTop: every line of JSON Lines is read, so a line
// that is no document is reported, not skipped), the next element in an
// array (past the brackets still open in the bad one, so brackets that do
// not match end the reading there, with an *Error saying so where
// documents may be lost). A line of JSON Lines cut short does not take
// the next line's document with it (cut.go). Lines end at "\n", "\r" or
// "\r\n".
// Messages name the usual mistake (a gzip or UTF-16 file, comments, single
// quotes: hint.go). A property name that does not show as itself (a byte
// order mark or a zero-width space in it) is noted once, where it first
// occurs (noteUnseen).
// Told which property names matter (Project), it builds only those values
// and checks the rest without building it. Past its first documents it
// can read JSON Lines and JSON arrays on several goroutines (parallel.go),
// or have ChunkReaders in other Web Workers read them (elsewhere.go), with
// the same documents, errors and notes.
//
// Ingest knows JSON and the limits of a Cosmos DB item. It knows nothing of
// property paths or partition keys: those are the paths package and later.
package ingest

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/jsontree"
)

// Limits of a Cosmos DB item (docs: concepts-limits, per-item limits).
const (
	MaxDocumentBytes = 2 << 20 // 2 MB, measured as the UTF-8 length of the compact JSON
	MaxDepth         = 128     // nesting of objects and arrays
	MaxIDBytes       = 1023    // the id, a string, in UTF-8 bytes
	IDRefused        = `/\`    // the characters the service refuses in an id: it takes every other Unicode character
	maxErrors        = 100     // after this many errors before a first document, the Reader stops
)

// Error describes one problem in the input and where it is.
type Error struct {
	Document int    // 1-based number of the document it belongs to; 0 if none
	Line     int    // 1-based
	Column   int    // 1-based, in bytes from the start of the line
	Offset   int64  // 0-based byte offset in the input
	Msg      string // what is wrong, in plain words
	Skipped  bool   // the document was not kept
}

func (e *Error) Error() string {
	return human.Position(e.Line, e.Column, e.Document) + ": " + e.Msg
}

// Document is one JSON object read from the input.
type Document struct {
	Index  int            // 1-based position among the documents of the input, counting skipped ones
	Line   int            // where it starts
	Offset int64          // byte offset where it starts
	Bytes  int            // UTF-8 length of its compact JSON text (the input with insignificant white space removed)
	Root   jsontree.Value // an Object
	Notes  []*Error
}

// Reader reads documents one at a time. It is not safe for concurrent use.
type Reader struct {
	src       io.Reader
	csvRemedy string // how to read CSV instead, for the message on JSON that looks like it (SetCSVRemedy)
	pages     bool   // every object that wraps documents is read as them (SetPages)
	buf       []byte
	pos       int   // next unread byte in buf
	end       int   // end of valid bytes in buf
	base      int64 // input offset of buf[0]
	eof       bool
	readErr   error

	line      int
	lineStart int64
	crEnd     int64 // just past the last '\r', which ends a line: a '\n' there ends the same line (CRLF)
	bomEnd    int64 // just past the last byte order mark skipped, at the start of a line (consumeBOM)
	spaceFrom int64 // where the last run of white space began (skipSpaces), for cut

	state      state
	format     string
	values     int  // top-level values seen
	docs       int  // documents numbered so far
	errs       int  // errors returned before the first document
	read       bool // a document has been returned
	done       bool // no more documents can be read
	pending    []jsontree.Value
	pendNotes  []*Error // the notes of the wrapper pending came from, for its first document
	pendingErr error
	pendLine   int
	// A JSON table (table.go): its columns once its header row is read,
	// the notes for its first document, and, in a JSON array of arrays,
	// the header row's names while it is still to be read.
	table      *columns
	tableNotes []*Error
	headerAt   []csvPos

	// Per-document state.
	docStart     int64
	docCol       int
	docLine      int
	inStr        bool  // the last error was inside a string
	ws           int64 // white space bytes inside the current document
	depth        int
	overLimit    bool
	limitMsg     string
	limitAt      *Error // where the limit was passed, if not at the document's start
	notes        []*Error
	colonEnd     int64   // Offset()-ws after the last property's ':', to tell its value from an array element in messages (hint.go)
	cut          cutMark // a document on the next line, maybe taken into this one (cut.go)
	carry        *Error  // a note for the next document of a wrapper's array (finishWrapper)
	wrapperKey   string  // the name of the wrapper's document array
	scratch      []byte
	keys         map[string]string
	unseen       map[string]struct{} // the names noteUnseen noted
	recent       [256]string         // property names by keySlot
	recentValues recentTexts         // short string values
	members      []jsontree.Member   // stack of the members of the objects being read
	names        []string            // stack of the property names of objects read under a projection
	dupNames     []string            // scratch for dedupe
	elems        []jsontree.Value    // stack of the elements of the arrays being read

	// Projection (project.go): proj is what documents keep; node is the
	// projection of the value being read (nil: build it whole), and skip
	// reads it without building anything.
	proj      *projection
	node      *projection
	skip      bool
	arena     []jsontree.Member // the projected members of the current document
	projected Document          // the current document

	// Quick reading (quick.go): its scratch; careful turns it off, for
	// tests that read both ways.
	quickNames  []quickName
	quickFrames []quickFrame
	quickShape  []shapeName // the names of the last document read quickly
	careful     bool

	// keep is set on a chunk's Reader (parallel.go): each document gets
	// its own Document and projected members, which outlive the next.
	keep *kept
}

type state uint8

const (
	stTop          state = iota // between top-level values
	stArray                     // inside a top-level array of documents
	stWrapperArray              // inside the document array of a wrapper object
)

// NewReader returns a Reader of documents from src.
func NewReader(src io.Reader) *Reader {
	return &Reader{
		src:    src,
		buf:    make([]byte, 64<<10),
		line:   1,
		crEnd:  -1,
		bomEnd: -1,
		keys:   make(map[string]string),
	}
}

// SetCSVRemedy sets what the message for an input that looks like CSV, not
// JSON, tells the user to do, in the words of the front end reading it
// (the command line has a flag where the HTTP API has a content type).
// The default is "read it as CSV, from a file named .csv or sent as
// text/csv".
func (r *Reader) SetCSVRemedy(s string) { r.csvRemedy = s }

// SetPages makes the Reader read every object that wraps documents as the
// documents it wraps, not only a first top-level one: pages saved one
// after another from a paged API, such as the Cosmos DB REST API's
// responses, in a sequence or an array. A page in an array is read whole,
// and its documents all get the page's line. It is off by default: in a
// sequence of documents, one that starts with an array of objects
// ({"items": [...], ...}) would be taken for a page.
func (r *Reader) SetPages(on bool) { r.pages = on }

// Format describes how the input was read, for example "JSON array" or
// "JSON Lines". It is settled once the first document has been read.
func (r *Reader) Format() string {
	if r.format == "" {
		return "empty"
	}
	return r.format
}

// Offset is the number of input bytes consumed so far.
func (r *Reader) Offset() int64 { return r.base + int64(r.pos) }

// Next returns the next document. At the end of the input it returns io.EOF.
// A problem returns an *Error; calling Next again continues with the
// documents after it where that is possible, and returns io.EOF where not.
// An error from the underlying reader is returned as it is.
func (r *Reader) Next() (*Document, error) {
	for {
		if r.pendingErr != nil {
			err := r.pendingErr
			r.pendingErr = nil
			return nil, err
		}
		if len(r.pending) > 0 {
			v := r.pending[0]
			r.pending = r.pending[1:]
			r.docs++
			// The wrapper's notes (a duplicate name, bad UTF-8 in a
			// document of it) go with its first document.
			notes := r.pendNotes
			for _, n := range notes {
				n.Document = r.docs
			}
			r.pendNotes = nil
			return &Document{Index: r.docs, Line: r.pendLine, Root: v, Bytes: v.CompactLen(), Notes: notes}, nil
		}
		if r.done {
			if r.readErr != nil {
				err := r.readErr
				r.readErr = nil
				return nil, err
			}
			return nil, io.EOF
		}
		doc, err := r.step()
		if doc != nil && err != nil {
			// Report the document now and the problem after it.
			r.pendingErr = err
			err = nil
		}
		if doc != nil || err != nil {
			// Input that is not documents is soon given up: maxErrors
			// errors before any document stop the reading. Once one is
			// read the input is documents, and bad ones here and there,
			// or lines that are none, are each reported and read past to
			// the end: a block of stray lines amid them loses no more.
			if err == nil {
				r.read = true
			} else if r.errs++; r.errs >= maxErrors && !r.read {
				r.done = true
				if e, ok := err.(*Error); ok {
					e.Msg += fmt.Sprintf("; stopped after %d errors in a row", maxErrors)
				}
			}
			return doc, err
		}
	}
}

// step advances by one unit of input: it returns a document, an error, or
// neither when it only changed state.
func (r *Reader) step() (*Document, error) {
	switch r.state {
	case stTop:
		r.skipWS()
		c, ok := r.peek()
		if !ok {
			r.done = true
			return nil, nil
		}
		r.values++
		if c == 0xEF && r.Offset() == r.lineStart && r.Offset() != r.bomEnd {
			// A UTF-8 byte order mark at the very start is allowed and
			// ignored, and so is one at the start of a line between
			// documents: a file's own, where files joined one after
			// another (cat, or the page's files picked together) begin.
			// Anywhere else, a second one after it too, it is in the
			// middle of the input.
			if r.consumeBOM() {
				r.values--
				return nil, nil
			}
		}
		if r.values == 1 {
			// A file that is not JSON text at all (gzip, UTF-16, CSV) is
			// one problem, not one per line of it.
			if err := r.sniff(); err != nil {
				r.done = true
				return nil, err
			}
		}
		switch c {
		case '[':
			if r.table != nil {
				return r.document() // a row of a JSON table
			}
			if r.values == 1 {
				switch kind, at := r.tableAhead(); kind {
				case linesTable:
					r.setFormat("JSON Lines of arrays")
					return nil, r.tableHeader(at, "the first line")
				case arrayTable:
					r.pos++
					r.setFormat("JSON array of arrays")
					r.state = stArray
					r.headerAt = at
					return nil, nil
				case headerAlone:
					r.setFormat("JSON array")
					return nil, r.headerAlone()
				}
			}
			if r.values >= 2 {
				// An array after a document is more documents, not
				// what a single object or array was said to be.
				r.noteSequenceFormat()
			}
			r.pos++
			r.setFormat("JSON array")
			r.state = stArray
			r.skipWS()
			if c, ok := r.peek(); ok && c == ']' {
				r.pos++
				r.state = stTop
			}
			return nil, nil
		case '{':
			if r.values == 1 {
				return r.topObject()
			}
			r.noteSequenceFormat()
			if r.pages {
				return r.topObject()
			}
			return r.document()
		default:
			r.noteSequenceFormat()
			return r.document()
		}
	case stArray, stWrapperArray:
		r.skipWS()
		var doc *Document
		var err error
		if at := r.headerAt; at != nil {
			r.headerAt = nil
			err = r.tableHeader(at, "the array's first element")
		} else {
			doc, err = r.document()
		}
		if err != nil && r.done {
			return nil, err
		}
		r.skipWS()
		c, ok := r.peek()
		if ok && err != nil && c != ',' && c != ']' {
			// The rest of an element already reported ("5x" after a
			// value that is no document) goes with it.
			if from := r.line; !r.skipRest(false) {
				r.lost(from)
				return nil, err
			}
			c, ok = r.peek()
		}
		switch {
		case !ok:
			r.done = true
			if err == nil {
				err = r.errorf(0, "the input ends inside the array of documents: expected ',' or ']'")
			}
		case c == ',':
			r.pos++
		case c == ']':
			r.pos++
			wrapper := r.state == stWrapperArray
			r.state = stTop
			if wrapper {
				// It may set stWrapperArray again, for a second array.
				if e := r.finishWrapper(); e != nil && err == nil {
					err = e
				}
			}
		default:
			if err == nil {
				msg := r.separatorHint(c, ']', "documents")
				if msg == "" {
					msg = fmt.Sprintf("expected ',' or ']' after document %d, found %s", r.docs, describe(c))
				}
				err = r.errorf(r.docs+1, "%s", msg)
			}
			r.done = true
		}
		return doc, err
	}
	return nil, nil
}

func (r *Reader) setFormat(f string) {
	if r.format == "" {
		r.format = f
	}
}

// noteSequenceFormat names a sequence of top-level values by whether they
// sit one per line.
func (r *Reader) noteSequenceFormat() {
	if r.values == 2 && r.format == "single object" {
		r.format = ""
	}
	if r.format != "" && r.format != "JSON Lines" {
		return
	}
	if r.values >= 2 {
		// A document that starts at column 1 after a newline reads as JSON Lines.
		if r.atLineStart() {
			r.format = "JSON Lines"
		} else {
			r.format = "concatenated JSON"
		}
	}
}

// document reads one top-level document (an object) at the current position.
func (r *Reader) document() (*Document, error) {
	r.docs++
	r.startDoc()
	if r.keep != nil {
		r.arena = r.keep.arena(r.arena)
	} else {
		clear(r.arena) // the previous document's projected members (Project)
		r.arena = r.arena[:0]
	}
	line := r.line
	start := r.docStart
	c, _ := r.peek()
	// A page of a query's results in an array (SetPages) is read
	// carefully, to be found by wrappedDocuments below.
	if c == '{' && !r.careful && (r.proj != nil || !r.pages || r.state != stArray) {
		if d := r.quickDocument(start, line); d != nil {
			return d, nil
		}
	}
	row := c == '[' && r.table != nil
	if row {
		r.node = nil // a row's values are the document's properties: built whole
	}
	v, err := r.value()
	if err != nil {
		return nil, r.recover(err)
	}
	notes := r.notes
	if r.overLimit {
		return nil, r.limitError(start, line)
	}
	if row {
		return r.tableRow(start, line, v, notes)
	}
	if v.Kind != jsontree.Object {
		return nil, r.skippedErrorAt(start, line, fmt.Sprintf("%s is not a document: documents are JSON objects; skipped", article(kindOf(c))))
	}
	if r.pages && r.state == stArray {
		if _, elems, ok := wrappedDocuments(v.Members); ok {
			r.docs--
			r.pending, r.pendLine, r.pendNotes = elems, line, notes
			return nil, nil
		}
	}
	return r.finishDocument(start, line, v, notes)
}

func (r *Reader) startDoc() {
	r.docStart = r.Offset()
	r.docCol = int(r.docStart-r.lineStart) + 1
	r.docLine = r.line
	r.ws = 0
	r.depth = 0
	r.overLimit = false
	r.limitMsg = ""
	r.limitAt = nil
	r.notes = nil
	r.node, r.skip = r.proj, false
	r.cut = cutMark{}
}

// topObject reads the first top-level value when it is an object (under
// SetPages, any top-level object): a single document, or a wrapper holding
// the documents in one array property.
func (r *Reader) topObject() (*Document, error) {
	r.docs++
	r.startDoc()
	r.node = nil // read whole: the first object may be a wrapper
	line := r.line
	start := r.docStart
	r.pos++ // '{'
	r.depth = 1
	var members []jsontree.Member
	seenID := false
	r.skipWS()
	if c, ok := r.peek(); ok && c == '}' {
		r.pos++
	} else {
		for {
			r.skipWS()
			key, err := r.key()
			if err != nil {
				return nil, r.recover(err)
			}
			if key == "id" {
				seenID = true
			}
			if !seenID && isWrapperKey(key) && onlyMetadata(members) && r.arrayOfObjectsAhead() {
				// Stream the documents from here; the other members are metadata.
				r.docs--
				r.setFormat(fmt.Sprintf("documents in the %q property", key))
				r.state = stWrapperArray
				r.wrapperKey = key
				r.skipWS()
				if c, ok := r.peek(); ok && c == ']' {
					r.pos++
					r.state = stTop
					return nil, r.finishWrapper()
				}
				return nil, nil
			}
			v, err := r.value()
			if err != nil {
				return nil, r.recover(err)
			}
			members = append(members, jsontree.Member{Key: key, Value: v})
			closed, err := r.objectNext()
			if err != nil {
				return nil, r.recover(err)
			}
			if closed {
				break
			}
		}
	}
	r.depth = 0
	obj := r.finishObject(members)
	if r.overLimit {
		return nil, r.limitError(start, line)
	}
	// A lone object with no id whose one array property holds objects is a
	// wrapper such as {"_rid":..,"Documents":[..],"_count":2}; under
	// SetPages it need not be alone.
	r.skipWS()
	if _, more := r.peek(); (!more || r.pages) && !seenID {
		if key, elems, ok := wrappedDocuments(obj.Members); ok {
			r.docs--
			r.setFormat(fmt.Sprintf("documents in the %s property", quoteClip(key)))
			r.pending = elems
			r.pendLine = line
			r.pendNotes = r.notes
			return nil, nil
		}
	}
	r.setFormat("single object")
	return r.finishDocument(start, line, obj, r.notes)
}

// Property names under which exports commonly wrap their documents.
var wrapperKeys = []string{"documents", "docs", "items", "data", "results", "records", "rows", "value", "values", "statuses", "hits", "entries", "resources"}

func isWrapperKey(k string) bool {
	for _, w := range wrapperKeys {
		if strings.EqualFold(k, w) {
			return true
		}
	}
	return false
}

// onlyMetadata reports whether the members beside a document array look
// like the metadata of a response ("_rid", "_count", "search_metadata")
// rather than the properties of a document ("orderId").
func onlyMetadata(members []jsontree.Member) bool {
	for _, m := range members {
		if m.Value.Kind == jsontree.Object || strings.HasPrefix(m.Key, "_") || strings.HasPrefix(m.Key, "@") {
			continue
		}
		if m.Value.Kind == jsontree.Array || !isMetadataKey(m.Key) {
			return false
		}
	}
	return true
}

var metadataKeys = []string{"count", "total", "totalCount", "page", "pageSize", "next", "nextLink", "previous", "limit", "offset", "continuation", "continuationToken", "version", "took", "timed_out"}

func isMetadataKey(k string) bool {
	for _, w := range metadataKeys {
		if strings.EqualFold(k, w) {
			return true
		}
	}
	return false
}

func wrappedDocuments(members []jsontree.Member) (string, []jsontree.Value, bool) {
	found := -1
	for i, m := range members {
		if m.Value.Kind != jsontree.Array || len(m.Value.Elems) == 0 {
			if m.Value.Kind.Scalar() && !strings.HasPrefix(m.Key, "_") && !strings.HasPrefix(m.Key, "@") && !isMetadataKey(m.Key) {
				return "", nil, false
			}
			continue
		}
		for _, e := range m.Value.Elems {
			if e.Kind != jsontree.Object {
				return "", nil, false
			}
		}
		if found >= 0 {
			return "", nil, false
		}
		found = i
	}
	if found < 0 {
		return "", nil, false
	}
	return members[found].Key, members[found].Value.Elems, true
}

// arrayOfObjectsAhead consumes ':' '[' when the value that follows is an
// array whose first element is an object, and reports whether it did.
// Otherwise it consumes nothing but the white space and the colon.
func (r *Reader) arrayOfObjectsAhead() bool {
	// The colon has been consumed by key(). Look at '[' then '{' or ']'.
	r.skipWS()
	c, ok := r.peek()
	if !ok || c != '[' {
		return false
	}
	// An empty array is an empty wrapper.
	// Look ahead within the buffer without consuming, refilling as needed,
	// over white space that is not megabytes long.
	i := 1
	for i < 64<<10 {
		if !r.ensure(i + 1) {
			return false
		}
		c := r.buf[r.pos+i]
		if isSpace(c) {
			i++
			continue
		}
		if c == '{' || c == ']' {
			r.pos++ // '['
			return true
		}
		return false
	}
	return false
}

// finishWrapper reads the members of a wrapper object after its document
// array, up to and including the closing brace. They are metadata
// ("_count", "continuation"), skipped, except for another array of
// documents: the same property again ({"Documents":[...],"Documents":
// [...]}, as from pages joined into one object) or another that wraps
// documents. Its documents are read too, with a note on the first of
// them, rather than lost unsaid (JSON would keep only the last of two
// properties of one name, but the first array's documents are read by
// then).
func (r *Reader) finishWrapper() error {
	r.startDoc()
	r.depth = 1
	r.carry = nil // a second array left without a document
	for {
		r.skipWS()
		c, ok := r.peek()
		if !ok {
			r.done = true
			return r.errorf(0, "the input ends inside the wrapper object: expected ',' or '}'")
		}
		r.pos++
		if c == '}' {
			r.depth = 0
			return nil
		}
		if c != ',' {
			r.pos--
			r.done = true
			return r.errorf(0, "expected ',' or '}' in the wrapper object, found %s", describe(c))
		}
		r.skipWS()
		keyLine, keyCol, keyOff := r.line, int(r.Offset()-r.lineStart)+1, r.Offset()
		key, err := r.key()
		if err != nil {
			r.done = true
			return err
		}
		again := strings.EqualFold(key, r.wrapperKey)
		if again || isWrapperKey(key) {
			r.skipWS()
			if c, ok := r.peek(); ok && c == '[' && (again || r.arrayOfObjectsAhead()) {
				if again {
					r.pos++ // '['
				}
				r.skipWS()
				if c, ok := r.peek(); ok && c == ']' {
					r.pos++ // an empty array: no documents to read
					continue
				}
				msg := fmt.Sprintf("the wrapper object holds a second array of documents, %s; its documents are read too", quoteClip(key))
				if again {
					msg = fmt.Sprintf("property %s appears again in the wrapper object; the documents of both arrays are read (JSON would keep only the last)", quoteClip(key))
				}
				r.carry = &Error{Line: keyLine, Column: keyCol, Offset: keyOff, Msg: msg}
				r.state = stWrapperArray
				r.depth = 0
				return nil
			}
		}
		if _, err := r.value(); err != nil {
			r.done = true
			return err
		}
	}
}

// recover turns a failure inside a document into the error to report and
// positions the Reader where reading can go on: in a sequence of top-level
// documents, past the bad document (resumeTop); inside an array, at the
// ',' or ']' after the bad element (skipRest).
func (r *Reader) recover(err error) error {
	var e *Error
	if !errors.As(err, &e) {
		r.done = true
		return err
	}
	e.Skipped = true
	inStr := r.inStr
	r.inStr = false
	cut := r.cut
	r.cut = cutMark{}
	if r.readErr != nil {
		r.done = true
		return e
	}
	if r.state != stTop {
		// In an array the documents after a bad one still count: go on
		// at the ',' or ']' after it.
		if from := r.line; !r.skipRest(inStr) {
			r.lost(from)
		}
		return e
	}
	if cut.on && cut.ended {
		r.cut = cut
		return r.rewindCut(e)
	}
	if r.Offset() == r.lineStart {
		// An error found at the start of a line (a document left open on
		// the line before) resumes right there if a document starts there.
		r.skipSpacesOnLine()
		if c, ok := r.peek(); ok && (c == '{' || c == '[') {
			if (c == '{' || c == '[' && r.table != nil) && e.Line == r.docLine+1 && r.docCol == 1 {
				// A line of JSON Lines left open: the error shows on the
				// next line, so say which line is at fault.
				e.Msg = fmt.Sprintf("a new document starts here while document %d, begun on line %d, is still open: is a '}' or ']' missing at the end of line %d?", e.Document, r.docLine, r.docLine)
			}
			return e
		}
	}
	if !r.resumeTop(r.docCol == 1 && e.Line == r.docLine, inStr) {
		r.done = true
	}
	return e
}

// resumeTop skips the rest of a bad top-level document, from the error in
// it, to where reading can go on; false at the end of the input. It
// follows the brackets and strings of the document, so that what comes
// after the document is not lost with it:
//
//   - where the document closes on a line, reading goes on right after
//     it ({"a":1,}{"b":2} loses only the first); after a bad value that
//     is no document (xyz {"b":2}), at the next '{' or '[' on its line;
//   - at the next line that starts with '{' or '[', however many brackets
//     are open, as a document left open may have lost its closing ones;
//   - at any next line that is not blank, once the document is closed or
//     if it was on one line (oneLine: a line of JSON Lines, each line a
//     document of its own): such a line, which may be no document at
//     all, is read and, if bad, reported in turn, not skipped unsaid.
//
// Past the document, lines that are part of it (those of a pretty-printed
// document after the line of its error) are skipped with it.
func (r *Reader) resumeTop(oneLine, inStr bool) bool {
	open, closed := r.depth, false
	outside := open == 0 // the bad value is no document: no bracket of it is open
	for {
		// The rest of the line.
		for {
			if r.pos >= r.end && !r.ensure(1) {
				return false
			}
			c := r.buf[r.pos]
			if c == '\n' || c == '\r' {
				break
			}
			r.pos++
			if inStr {
				switch c {
				case '\\':
					if c, ok := r.peek(); ok && c != '\n' && c != '\r' {
						r.pos++
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
				if outside && open == 0 {
					r.pos-- // a document may start here
					return true
				}
				open++
			case '}', ']':
				if open--; open == 0 && !closed {
					// The bad document ends here: what follows it on the
					// line is read.
					closed = true
					r.skipSpacesOnLine()
					if c, ok := r.peek(); ok && c != '\n' && c != '\r' {
						return true
					}
				}
			}
		}
		inStr = false
		// The next line that is not blank.
		for {
			if !r.skipLine() {
				return false
			}
			r.skipSpacesOnLine()
			c, ok := r.peek()
			if !ok {
				return false
			}
			if c != '\n' && c != '\r' {
				if c == '{' || c == '[' || oneLine || open <= 0 {
					return true
				}
				break
			}
		}
	}
}

// skipRest skips what is left of an array element after an error in it:
// the rest of the string the error was in, if it was, and of the objects
// and arrays open around it (r.depth), to the ',' or ']' after the
// element. A line break ends a string, which cannot hold one. It reports
// false where no such place is found: the end of the input, or brackets
// that do not match.
func (r *Reader) skipRest(inStr bool) bool {
	open := r.depth
	for {
		if r.pos >= r.end && !r.ensure(1) {
			return false
		}
		c := r.buf[r.pos]
		if c == '\n' || c == '\r' {
			r.pos++
			r.lineEnd(c)
			inStr = false
			continue
		}
		if inStr {
			r.pos++
			switch c {
			case '\\':
				if r.pos < r.end || r.ensure(1) {
					if c := r.buf[r.pos]; c != '\n' && c != '\r' {
						r.pos++
					}
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
			open++
		case '}', ']':
			if open == 0 {
				return c == ']'
			}
			open--
		case ',':
			if open == 0 {
				return true
			}
		}
		r.pos++
	}
}

// lost ends the reading where skipRest, from line from, found no ',' or
// ']' to go on from, and says so after the error in hand where documents
// may have been lost: at a bracket that closes nothing, or at the end of
// the input past the line after the error.
func (r *Reader) lost(from int) {
	r.done = true
	if r.readErr != nil {
		return // the input failed: that error says why
	}
	c, ok := r.peek()
	if !ok && r.line <= from+1 {
		return
	}
	if !ok {
		r.pendingErr = r.errorf(0, "the input ends inside the array of documents: the brackets or quotes of the bad document before do not match, so all that follows it was read as part of it")
		return
	}
	r.pendingErr = r.errorf(0, "%s closes nothing in the array of documents: the brackets of the bad document before do not match; reading stops here", describe(c))
}

// limitError reports a document over the item limits as skipped: at its
// start, or where the limit was passed if that is known (limitAt).
func (r *Reader) limitError(offset int64, line int) *Error {
	if e := r.limitAt; e != nil {
		return &Error{Document: r.docs, Line: e.Line, Column: e.Column, Offset: e.Offset, Msg: r.limitMsg, Skipped: true}
	}
	return r.skippedErrorAt(offset, line, r.limitMsg)
}

// skippedErrorAt reports a whole document as skipped, at its start.
func (r *Reader) skippedErrorAt(offset int64, line int, msg string) *Error {
	return &Error{Document: r.docs, Line: line, Column: r.docCol, Offset: offset, Msg: msg, Skipped: true}
}

// finishDocument checks a document just read. Its size is the input's
// text less the white space between tokens: the compact JSON text, counted
// while reading rather than by walking the document again.
func (r *Reader) finishDocument(start int64, line int, v jsontree.Value, notes []*Error) (*Document, error) {
	size := int(r.Offset() - start - r.ws)
	if size > MaxDocumentBytes {
		return nil, r.skippedErrorAt(start, line, fmt.Sprintf("document is %s, over the 2 MB Cosmos DB allows for an item; skipped", sizeText(int64(size))))
	}
	if r.carry != nil && r.state == stWrapperArray {
		// The first document of a wrapper's second array.
		r.carry.Document = r.docs
		notes = append([]*Error{r.carry}, notes...)
		r.carry = nil
	}
	d := &r.projected // reused under a projection: see Project
	switch {
	case r.keep != nil:
		d = r.keep.doc()
	case r.proj == nil:
		d = new(Document)
	}
	*d = Document{Index: r.docs, Line: line, Offset: start, Bytes: size, Root: v, Notes: notes}
	return d, nil
}

// errorf returns an *Error at the current position.
func (r *Reader) errorf(doc int, format string, args ...any) *Error {
	off := r.Offset()
	return &Error{Document: doc, Line: r.line, Column: int(off-r.lineStart) + 1, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func (r *Reader) note(format string, args ...any) {
	r.noteAt(r.Offset(), format, args...)
}

// noteAt notes a problem at an earlier offset on the current line: the
// start of the number or string it is about.
func (r *Reader) noteAt(off int64, format string, args ...any) {
	if len(r.notes) < 10 {
		r.notes = append(r.notes, &Error{Document: r.docs, Line: r.line, Column: int(off-r.lineStart) + 1, Offset: off, Msg: fmt.Sprintf(format, args...)})
	}
}

// ---- buffer ----

// ensure makes n unread bytes available if the input has them.
func (r *Reader) ensure(n int) bool {
	for r.end-r.pos < n {
		if r.eof {
			return false
		}
		// The input from a cutMark on is kept, to go back to; not past
		// maxCut, which no document can need.
		keep := r.pos
		if r.cut.on {
			if r.Offset()-r.cut.off > maxCut {
				r.cut = cutMark{}
			} else {
				keep = int(r.cut.off - r.base)
			}
		}
		if keep > 0 {
			copy(r.buf, r.buf[keep:r.end])
			r.base += int64(keep)
			r.end -= keep
			r.pos -= keep
		}
		if r.end == len(r.buf) {
			nb := make([]byte, 2*len(r.buf))
			copy(nb, r.buf[:r.end])
			r.buf = nb
		}
		n, err := r.src.Read(r.buf[r.end:])
		r.end += n
		if err != nil {
			r.eof = true
			if err != io.EOF {
				r.readErr = err
			}
		}
	}
	return true
}

func (r *Reader) peek() (byte, bool) {
	if r.pos < r.end || r.ensure(1) {
		return r.buf[r.pos], true
	}
	return 0, false
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

// skipWS skips JSON white space, counting lines. Newlines can only occur
// here (strings may not hold raw control characters), so this is the one
// place that tracks lines. It is called before every token, mostly where
// there is no white space: that case is inlined at the caller.
func (r *Reader) skipWS() {
	if r.pos < r.end && r.buf[r.pos] > ' ' {
		return
	}
	r.skipSpaces()
}

func (r *Reader) skipSpaces() {
	r.spaceFrom = r.Offset()
	for {
		for r.pos < r.end {
			c := r.buf[r.pos]
			if c > ' ' {
				return
			}
			switch c {
			case '\n':
				// A line feed ends a line, unless it is the second byte
				// of a CRLF, whose carriage return ended it.
				off := r.base + int64(r.pos)
				if off != r.crEnd {
					r.line++
				}
				r.lineStart = off + 1
			case '\r':
				// A carriage return ends a line too: files saved with
				// CR line ends (classic Mac OS, some exporters) have no
				// other.
				r.line++
				r.lineStart = r.base + int64(r.pos) + 1
				r.crEnd = r.lineStart
			case ' ', '\t':
			default:
				return
			}
			r.pos++
			r.ws++
		}
		if !r.ensure(1) {
			return
		}
	}
}

// lineEnd counts the line end c, '\n' or '\r', just consumed, as
// skipSpaces does.
func (r *Reader) lineEnd(c byte) {
	off := r.Offset()
	if c == '\n' && off-1 == r.crEnd {
		r.lineStart = off
		return
	}
	r.line++
	r.lineStart = off
	if c == '\r' {
		r.crEnd = off
	}
}

func (r *Reader) skipSpacesOnLine() {
	for {
		c, ok := r.peek()
		if !ok || (c != ' ' && c != '\t') {
			return
		}
		r.pos++
	}
}

// skipLine moves past the next line end ('\n', '\r' or both); false at
// the end of input.
func (r *Reader) skipLine() bool {
	for {
		if r.pos >= r.end && !r.ensure(1) {
			return false
		}
		c := r.buf[r.pos]
		r.pos++
		if c == '\n' || c == '\r' {
			r.lineEnd(c)
			if c == '\r' {
				if c, ok := r.peek(); ok && c == '\n' {
					r.pos++
					r.lineEnd(c)
				}
			}
			return true
		}
	}
}

// consumeBOM skips a byte order mark at the current position, at the
// start of a line. Columns count from after it on line 1, as editors
// count them; on a later line, where it starts a file joined after
// another, they count from the line's start, as everywhere else.
func (r *Reader) consumeBOM() bool {
	if !r.ensure(3) {
		return false
	}
	if r.buf[r.pos] == 0xEF && r.buf[r.pos+1] == 0xBB && r.buf[r.pos+2] == 0xBF {
		r.pos += 3
		if r.line == 1 {
			r.lineStart = r.Offset()
		}
		r.bomEnd = r.Offset()
		return true
	}
	return false
}

// atLineStart reports whether the current position starts a line, or
// follows a byte order mark that does (consumeBOM).
func (r *Reader) atLineStart() bool {
	off := r.Offset()
	return off == r.lineStart || off == r.bomEnd
}

// ---- values ----

// newValueReader returns a Reader for valueOf alone: it reads from no
// input of its own.
func newValueReader() *Reader {
	return &Reader{line: 1, crEnd: -1, bomEnd: -1, eof: true, keys: make(map[string]string)}
}

// valueOf reads all of b as one JSON value, as a value inside a document
// is read (so Extended JSON stands for its value), and reports false if b
// is anything else. Its notes are left in r.notes, placed in b.
func (r *Reader) valueOf(b []byte) (jsontree.Value, bool) {
	r.buf, r.pos, r.end, r.base = b, 0, len(b), 0
	r.line, r.lineStart, r.crEnd = 1, 0, -1
	r.startDoc()
	r.depth = 1 // inside a document
	v, err := r.value()
	r.skipWS()
	if err != nil || r.pos != r.end || r.overLimit {
		return jsontree.Value{}, false
	}
	return v, true
}

// value reads one JSON value. Past the item limits it keeps reading for
// syntax but stops building, so a huge or deep document costs no memory.
func (r *Reader) value() (jsontree.Value, error) {
	r.skipWS()
	if r.line == r.docLine+1 {
		r.markCut()
	}
	c, ok := r.peek()
	if !ok {
		return jsontree.Value{}, r.errorf(r.docs, "the input ends where a value was expected")
	}
	switch c {
	case '{':
		return r.object()
	case '[':
		return r.array()
	case '"':
		r.pos++
		s, err := r.str()
		return jsontree.Value{Kind: jsontree.String, Str: s}, err
	case 't':
		return jsontree.Value{Kind: jsontree.Bool, Bool: true}, r.literal("true")
	case 'f':
		return jsontree.Value{Kind: jsontree.Bool}, r.literal("false")
	case 'n':
		return jsontree.Value{Kind: jsontree.Null}, r.literal("null")
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		v, err := r.number()
		if err != nil && c == '-' {
			if m := r.valueHint(c); m != "" { // -Infinity
				err = r.errorf(r.docs, "%s", m)
			}
		}
		return v, err
	case 0xEF:
		if r.ensure(3) && r.buf[r.pos+1] == 0xBB && r.buf[r.pos+2] == 0xBF {
			return jsontree.Value{}, r.errorf(r.docs, "a byte order mark (U+FEFF) in the middle of the input; it is allowed only at the start of the input, or of a line between documents, where a file joined after another begins")
		}
	}
	if m := r.valueHint(c); m != "" {
		return jsontree.Value{}, r.errorf(r.docs, "%s", m)
	}
	return jsontree.Value{}, r.errorf(r.docs, "expected a JSON value, found %s", describe(c))
}

func (r *Reader) enter() bool {
	r.depth++
	if r.depth > MaxDepth && !r.overLimit {
		r.overLimit = true
		r.limitMsg = fmt.Sprintf("document is nested deeper than the %d levels Cosmos DB allows; skipped", MaxDepth)
	}
	return !r.overLimit
}

func (r *Reader) sizeExceeded() bool {
	if !r.overLimit && r.Offset()-r.docStart-r.ws > MaxDocumentBytes {
		r.overLimit = true
		r.limitMsg = "document is larger than the 2 MB Cosmos DB allows for an item; skipped"
	}
	return r.overLimit
}

func (r *Reader) object() (jsontree.Value, error) {
	// Members gather on a stack shared by all objects and are copied out
	// once, at their exact size: growing a slice per object was the largest
	// cost of reading. Under a projection every name is kept, to find
	// duplicates. Both stacks are popped here rather than by defers in
	// objectBody: with as many returns as it has, the compiler would not
	// inline those defers, and every object would pay for a deferred call.
	base, kbase := len(r.members), len(r.names)
	v, err := r.objectBody()
	r.popMembers(base)
	r.popNames(kbase)
	return v, err
}

func (r *Reader) objectBody() (jsontree.Value, error) {
	r.pos++ // '{'
	build := r.enter()
	if r.depth > 10*MaxDepth {
		// Far past any real document: stop descending to bound the stack.
		return jsontree.Value{}, r.skipNested()
	}
	base, kbase := len(r.members), len(r.names)
	// Under a projection the value of a $ name is kept too, which may make
	// the object Extended JSON; only projected members are built, the
	// others skipped (project.go).
	node := r.node
	partial := node != nil
	var dollar jsontree.Value
	r.skipWS()
	if c, ok := r.peek(); ok && c == '}' {
		r.pos++
		r.depth--
		if partial {
			return r.partialObject(node, nil, nil, dollar), nil
		}
		return r.finishObject(nil), nil
	}
	for {
		r.skipWS()
		key, err := r.key()
		if err != nil {
			return jsontree.Value{}, err
		}
		var v jsontree.Value
		if partial {
			r.memberMode(node, key)
		}
		if r.skip {
			err = r.skipValue()
		} else {
			v, err = r.value()
		}
		r.node, r.skip = node, false
		if err != nil {
			return jsontree.Value{}, err
		}
		if build && !r.sizeExceeded() {
			if !partial {
				r.members = append(r.members, jsontree.Member{Key: key, Value: v})
			} else {
				r.names = append(r.names, key)
				if len(key) > 1 && key[0] == '$' {
					dollar = v
				}
				if node.child(key) != nil {
					r.members = append(r.members, jsontree.Member{Key: key, Value: v})
				}
			}
		}
		closed, err := r.objectNext()
		if err != nil {
			return jsontree.Value{}, err
		}
		if closed {
			break
		}
	}
	r.depth--
	if r.overLimit {
		return jsontree.Value{Kind: jsontree.Object}, nil
	}
	if partial {
		return r.partialObject(node, r.names[kbase:], r.members[base:], dollar), nil
	}
	return r.finishObject(slices.Clone(r.members[base:])), nil
}

func (r *Reader) popNames(base int) {
	clear(r.names[base:])
	r.names = r.names[:base]
}

// objectNext reads what follows a property: ',' or the closing '}'.
func (r *Reader) objectNext() (closed bool, err error) {
	atCut := r.cut.on && r.depth == r.cut.depth
	if atCut && !r.cut.ended {
		r.cutEnds()
	}
	r.skipWS()
	c, ok := r.peek()
	if !ok {
		return false, r.errorf(r.docs, "the input ends inside an object: expected ',' or '}'")
	}
	r.pos++
	if atCut && (c == '}' || c == ',') {
		r.cut = cutMark{} // the document goes on: it was not cut
	}
	if c == '}' {
		return true, nil
	}
	if c != ',' {
		r.pos--
		if m := r.separatorHint(c, '}', "properties"); m != "" {
			return false, r.errorf(r.docs, "%s", m)
		}
		return false, r.errorf(r.docs, "expected ',' or '}' after a property, found %s", describe(c))
	}
	return false, nil
}

// arrayNext reads what follows an element: ',' or the closing ']'.
func (r *Reader) arrayNext() (closed bool, err error) {
	atCut := r.cut.on && r.depth == r.cut.depth
	if atCut && !r.cut.ended {
		r.cutEnds()
	}
	r.skipWS()
	c, ok := r.peek()
	if !ok {
		return false, r.errorf(r.docs, "the input ends inside an array: expected ',' or ']'")
	}
	r.pos++
	if atCut && (c == ']' || c == ',') {
		r.cut = cutMark{}
	}
	if c == ']' {
		return true, nil
	}
	if c != ',' {
		r.pos--
		if m := r.separatorHint(c, ']', "elements"); m != "" {
			return false, r.errorf(r.docs, "%s", m)
		}
		return false, r.errorf(r.docs, "expected ',' or ']' in an array, found %s", describe(c))
	}
	return false, nil
}

// popMembers drops the members above base, clearing them so the stack
// does not keep old documents' strings alive (and quick reading may build
// a member in the zero slot past the top).
func (r *Reader) popMembers(base int) {
	clear(r.members[base:])
	r.members = r.members[:base]
}

func (r *Reader) popElems(base int) {
	clear(r.elems[base:])
	r.elems = r.elems[:base]
}

// key reads a property name and the colon after it.
func (r *Reader) key() (string, error) {
	c, ok := r.peek()
	if !ok {
		return "", r.errorf(r.docs, "the input ends inside an object: expected a property name")
	}
	if c != '"' {
		if m := r.keyHint(c); m != "" {
			return "", r.errorf(r.docs, "%s", m)
		}
		return "", r.errorf(r.docs, "expected a property name in double quotes, found %s", describe(c))
	}
	r.pos++
	k, err := r.strIntern()
	if err != nil {
		return "", err
	}
	r.skipWS()
	c, ok = r.peek()
	if !ok || c != ':' {
		if !ok {
			return "", r.errorf(r.docs, "the input ends after property name %s: expected ':'", quoteClip(k))
		}
		if m := r.colonHint(k, c); m != "" {
			return "", r.errorf(r.docs, "%s", m)
		}
		return "", r.errorf(r.docs, "expected ':' after property name %s, found %s", quoteClip(k), describe(c))
	}
	r.pos++
	r.colonEnd = r.Offset() - r.ws
	return k, nil
}

func (r *Reader) array() (jsontree.Value, error) {
	r.pos++ // '['
	build := r.enter()
	if r.depth > 10*MaxDepth {
		return jsontree.Value{}, r.skipNested()
	}
	base := len(r.elems)
	defer r.popElems(base)
	// Under a projection an array is on no path (paths do not go into
	// arrays): its elements are read in skip mode.
	node := r.node
	hollow := node != nil
	if hollow {
		r.node, r.skip = nil, true
		defer func() { r.node, r.skip = node, false }()
	}
	r.skipWS()
	if c, ok := r.peek(); ok && c == ']' {
		r.pos++
		r.depth--
		return jsontree.Value{Kind: jsontree.Array, Elems: []jsontree.Value{}}, nil
	}
	for {
		if hollow {
			if err := r.skipValue(); err != nil {
				return jsontree.Value{}, err
			}
			if build {
				r.sizeExceeded()
			}
		} else {
			v, err := r.value()
			if err != nil {
				return jsontree.Value{}, err
			}
			if build && !r.sizeExceeded() {
				r.elems = append(r.elems, v)
			}
		}
		closed, err := r.arrayNext()
		if err != nil {
			return jsontree.Value{}, err
		}
		if closed {
			break
		}
	}
	r.depth--
	if hollow {
		return jsontree.Value{Kind: jsontree.Array}, nil
	}
	return jsontree.Value{Kind: jsontree.Array, Elems: append(make([]jsontree.Value, 0, len(r.elems)-base), r.elems[base:]...)}, nil
}

// skipNested skips the rest of a very deep value without recursion,
// checking only that brackets balance and strings close.
func (r *Reader) skipNested() error {
	open := 1
	for open > 0 {
		r.skipWS()
		c, ok := r.peek()
		if !ok {
			return r.errorf(r.docs, "the input ends inside a value nested %d levels deep", r.depth)
		}
		r.pos++
		switch c {
		case '{', '[':
			open++
			r.depth++
		case '}', ']':
			open--
			r.depth--
		case '"':
			if _, err := r.str(); err != nil {
				return err
			}
		}
	}
	r.depth--
	return nil
}

func (r *Reader) literal(word string) error {
	if r.ensure(len(word)) && string(r.buf[r.pos:r.pos+len(word)]) == word {
		r.pos += len(word)
		return nil
	}
	if m := r.valueHint(word[0]); m != "" {
		return r.errorf(r.docs, "%s", m)
	}
	return r.errorf(r.docs, "%s is not a JSON value (expected %s)", r.word(), word)
}

// word returns the run of letters at the current position, for messages.
func (r *Reader) word() string {
	r.ensure(32)
	i := r.pos
	for i < r.end && i-r.pos < 32 {
		c := r.buf[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '+' || c == '.') {
			break
		}
		i++
	}
	if i == r.pos {
		return describe(r.buf[r.pos])
	}
	return strconv.Quote(string(r.buf[r.pos:i]))
}

func (r *Reader) number() (jsontree.Value, error) {
	// Numbers are short: look ahead far enough that the scan below runs
	// over the buffer without bounds juggling; a longer one asks for more.
	start := r.Offset()
	for look := 64; ; look *= 2 {
		avail := r.ensure(look)
		n, simple, msg := scanNumber(r.buf[r.pos:r.end])
		if n > MaxDocumentBytes {
			return r.longNumber(start)
		}
		if n == r.end-r.pos && avail && !r.eof {
			continue // the number may go on past the look-ahead
		}
		if msg != "" {
			r.pos += n
			return jsontree.Value{}, r.errorf(r.docs, "%s", msg)
		}
		lit := r.buf[r.pos : r.pos+n]
		r.pos += n
		if r.skip && (simple || plainFits(lit)) {
			return jsontree.Value{Kind: jsontree.Number}, nil // no note to give: it fits a double
		}
		f, err := strconv.ParseFloat(string(lit), 64) // does not allocate: the string does not escape
		if err != nil {
			r.noteAt(start, "number %s is beyond the range of a double, which Cosmos DB uses for every number", clip(string(lit)))
		} else if f == 0 && !zero(lit) {
			r.noteAt(start, "number %s is too small for a double, which Cosmos DB uses for every number: it reads as 0", clip(string(lit)))
		}
		v := jsontree.Value{Kind: jsontree.Number, Num: f}
		if !simple || err != nil {
			// Keep the literal where printing the double would not give it
			// back (12.50, 1e3, 123456789012345678901).
			v.Str = string(lit)
		}
		return v, nil
	}
}

// longNumber passes over a number longer than a whole item can hold,
// which starts at offset start: it cannot be part of a document Cosmos DB
// stores, so its document is skipped (as for a string that long) and the
// number is not kept, however long it goes on. It keeps no more than a
// bufferful of it: a number is otherwise read whole, to parse it.
func (r *Reader) longNumber(start int64) (jsontree.Value, error) {
	if !r.overLimit {
		r.overLimit = true
		r.limitMsg = "document holds a number longer than the 2 MB Cosmos DB allows for a whole item; skipped"
		r.limitAt = &Error{Line: r.line, Column: int(start-r.lineStart) + 1, Offset: start}
	}
	for {
		if r.pos >= r.end && !r.ensure(1) {
			break
		}
		i := r.pos
		for i < r.end && numberByte(r.buf[i]) {
			i++
		}
		r.pos = i
		if i < r.end {
			break
		}
	}
	return jsontree.Value{Kind: jsontree.Number}, nil
}

// numberByte reports the bytes a JSON number is made of.
func numberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

// zero reports whether a valid JSON number literal is zero: no digit of its
// mantissa is 1 to 9.
func zero(lit []byte) bool {
	for _, c := range lit {
		switch {
		case c == 'e' || c == 'E':
			return true
		case c >= '1' && c <= '9':
			return false
		}
	}
	return true
}

// scanNumber measures the JSON number at the start of b. simple reports
// that it has at most 15 significant digits, no exponent, no trailing zero
// after a decimal point and is not -0, so that the shortest form of its
// double spells it exactly. msg says what is wrong with an invalid one.
func scanNumber(b []byte) (n int, simple bool, msg string) {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	if i >= len(b) {
		return i, false, "the input ends inside a number"
	}
	digits := 0
	switch c := b[i]; {
	case c == '0':
		i++
		if i < len(b) && b[i] >= '0' && b[i] <= '9' {
			return i, false, "invalid number: a leading zero may not be followed by digits"
		}
	case c >= '1' && c <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			digits++
		}
	case c == 'I' && i == 1:
		return 0, false, "-Infinity is not valid JSON: numbers must be finite"
	default:
		return i, false, "invalid number: expected a digit"
	}
	simple = true
	if b[0] == '-' && digits == 0 && (i >= len(b) || b[i] != '.') {
		simple = false // -0
	}
	if i < len(b) && b[i] == '.' {
		i++
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == start {
			return i, false, "invalid number: expected a digit after the decimal point"
		}
		frac := b[start:i]
		if frac[len(frac)-1] == '0' {
			simple = false
		}
		if digits == 0 { // 0.000123: leading zeros are not significant
			k := 0
			for k < len(frac) && frac[k] == '0' {
				k++
			}
			digits = len(frac) - k
		} else {
			digits += len(frac)
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		simple = false
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == start {
			return i, false, "invalid number: expected a digit in the exponent"
		}
	}
	return i, simple && digits <= 15, ""
}

// strIntern reads a property name, sharing one string per distinct name so
// that millions of documents with the same properties do not allocate them.
func (r *Reader) strIntern() (string, error) {
	begin := r.Offset() - 1 // the opening quote
	// Past the item limits strBytes keeps no text: the fast path may not
	// either, or messages would differ with how the input arrives.
	var b []byte
	plain := false
	if !r.overLimit {
		b, plain = r.plainString()
	}
	if !plain {
		var err error
		if b, err = r.strBytes(); err != nil {
			return "", err
		}
	}
	// A small direct-mapped cache in front of the map: documents repeat
	// the same few names, and a hash of a short name plus one compare is
	// a fraction of a map lookup.
	slot := &r.recent[keySlot(b)]
	if *slot == string(b) && len(b) > 0 {
		return *slot, nil
	}
	if s, ok := r.keys[string(b)]; ok {
		*slot = s
		return s, nil
	}
	s := string(b)
	if !plain {
		r.noteUnseen(s, begin)
	}
	if len(r.keys) < 1<<16 && len(s) <= 1<<10 {
		// Long names seldom repeat: kept, 64 Ki of them would hold on
		// to as many megabytes of input.
		r.keys[s] = s
	}
	return s, nil
}

// maxUnseen is how many names noteUnseen notes at most.
const maxUnseen = 100

// noteUnseen notes a property name that holds characters that do not show
// as themselves (human.Unseen: a byte order mark, a zero-width space, a
// no-break space, a control), once a name, where it first occurs: such a
// name reads as another (ISO for "\ufeffISO"), and a key or query naming
// that other finds nothing. It is called where a name is new to the
// Reader, so that the names it has met cost nothing.
func (r *Reader) noteUnseen(name string, at int64) {
	if !strings.ContainsFunc(name, human.Unseen) {
		return
	}
	if _, done := r.unseen[name]; done || len(r.unseen) >= maxUnseen || len(r.notes) >= 10 {
		return
	}
	msg := unseenMessage("property name "+quoteClip(name), name)
	if msg == "" {
		return
	}
	if r.unseen == nil {
		r.unseen = make(map[string]struct{})
	}
	r.unseen[name] = struct{}{}
	r.noteAt(at, "%s (noted where the name first occurs)", msg)
}

// unseenMessage says that what, a name, holds characters that do not show
// as themselves, and which; "" if it holds none.
func unseenMessage(what, name string) string {
	desc, visible := human.UnseenIn(name)
	switch {
	case desc == "":
		return ""
	case visible == "":
		return fmt.Sprintf("%s holds %s, which shows as nothing", what, desc)
	}
	return fmt.Sprintf("%s holds %s: it reads as %s but is another name, and a key or query naming %s does not find it",
		what, desc, quoteClip(visible), quoteClip(visible))
}

func (r *Reader) str() (string, error) {
	var b []byte
	var err error
	plain := false
	if !r.overLimit {
		b, plain = r.plainString()
	}
	if !plain {
		b, err = r.strBytes()
	}
	if r.overLimit {
		return "", err
	}
	if err != nil {
		return string(b), err
	}
	return r.recentValues.text(b), nil
}

// strBytes reads a string after its opening quote. The result aliases a
// scratch buffer valid until the next call. The common case, a run of plain
// bytes inside the buffer, is copied once with no per-byte branching beyond
// the scan.
func (r *Reader) strBytes() ([]byte, error) {
	begin := r.Offset() - 1 // the opening quote
	out := r.scratch[:0]
	ascii := true
	for {
		if r.pos >= r.end && !r.ensure(1) {
			return nil, r.errorf(r.docs, "the input ends inside a string")
		}
		start := r.pos
		i := r.pos
		buf := r.buf[:r.end]
		for i < len(buf) {
			c := buf[i]
			if c == '"' || c == '\\' || c < 0x20 {
				break
			}
			if c >= 0x80 {
				ascii = false
			}
			i++
		}
		if !r.overLimit {
			out = append(out, buf[start:i]...)
			if len(out) > MaxDocumentBytes {
				r.overLimit = true
				r.limitMsg = "document holds a string longer than the 2 MB Cosmos DB allows for a whole item; skipped"
				out = out[:0]
			}
		}
		r.pos = i
		if i == len(buf) {
			continue
		}
		c := buf[i]
		r.pos++
		switch {
		case c == '"':
			r.scratch = out[:0]
			if !ascii && !utf8.Valid(out) {
				r.noteAt(begin, "a string that is not valid UTF-8; the bad bytes read as U+FFFD")
				out = []byte(strings.ToValidUTF8(string(out), "\uFFFD"))
			}
			return out, nil
		case c == '\\':
			var err error
			out, err = r.escape(out)
			if err != nil {
				r.inStr = true
				return nil, err
			}
		default:
			r.pos--
			r.inStr = true
			return nil, r.errorf(r.docs, "control character %U inside a string: it must be escaped (strings cannot span lines)", rune(c))
		}
	}
}

func (r *Reader) escape(out []byte) ([]byte, error) {
	backslash := r.Offset() - 1
	if !r.ensure(1) {
		return out, r.errorf(r.docs, "the input ends inside a string escape")
	}
	c := r.buf[r.pos]
	r.pos++
	switch c {
	case '"', '\\', '/':
		return append(out, c), nil
	case 'b':
		return append(out, '\b'), nil
	case 'f':
		return append(out, '\f'), nil
	case 'n':
		return append(out, '\n'), nil
	case 'r':
		return append(out, '\r'), nil
	case 't':
		return append(out, '\t'), nil
	case 'u':
		r1, err := r.hex4()
		if err != nil {
			return out, err
		}
		if utf16.IsSurrogate(r1) {
			r2 := rune(-1)
			if r.ensure(6) && r.buf[r.pos] == '\\' && r.buf[r.pos+1] == 'u' {
				r.pos += 2
				if r2, err = r.hex4(); err != nil {
					return out, err
				}
			}
			if d := utf16.DecodeRune(r1, r2); d != utf8.RuneError {
				return utf8.AppendRune(out, d), nil
			}
			r.noteAt(backslash, "a \\u escape with an unpaired surrogate; it reads as U+FFFD")
			out = utf8.AppendRune(out, utf8.RuneError)
			if r2 >= 0 && !utf16.IsSurrogate(r2) {
				out = utf8.AppendRune(out, r2)
			} else if r2 >= 0 {
				// Another surrogate: it may begin a pair of its own
				// ("\ud800\ud83d\ude00" is U+FFFD then 😀), so read it
				// again as an escape of its own rather than drop it.
				r.pos -= 6
			}
			return out, nil
		}
		return utf8.AppendRune(out, r1), nil
	}
	r.pos--
	return out, r.errorf(r.docs, "invalid escape \\%c in a string", c)
}

func (r *Reader) hex4() (rune, error) {
	if !r.ensure(4) {
		return 0, r.errorf(r.docs, "the input ends inside a \\u escape")
	}
	var v rune
	for k := 0; k < 4; k++ {
		c := r.buf[r.pos+k]
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			r.pos += k
			return 0, r.errorf(r.docs, "invalid \\u escape: %s is not a hex digit", describe(c))
		}
		v = v<<4 | rune(d)
	}
	r.pos += 4
	return v, nil
}

// finishObject checks duplicate names and turns MongoDB Extended JSON
// wrappers into the plain values they stand for.
func (r *Reader) finishObject(members []jsontree.Member) jsontree.Value {
	if members == nil {
		members = []jsontree.Member{}
	}
	// A document's own root stays an object: {"$oid": "x"} alone is a
	// document with a property named $oid, not a string.
	if r.depth > 0 && len(members) == 1 && len(members[0].Key) > 1 && members[0].Key[0] == '$' {
		if v, ok := r.extended(members[0]); ok {
			return v
		}
	}
	if len(members) > 1 {
		members = r.dedupe(members)
	}
	return jsontree.Value{Kind: jsontree.Object, Members: members}
}

// dedupe keeps the last of duplicate property names, as JavaScript and
// Cosmos DB do, and notes it.
func (r *Reader) dedupe(members []jsontree.Member) []jsontree.Member {
	names := r.dupNames[:0]
	for _, m := range members {
		names = append(names, m.Key)
	}
	dup := firstDuplicate(names)
	clear(names)
	r.dupNames = names[:0]
	if dup == "" {
		return members
	}
	r.noteDuplicate(dup)
	return keepLast(members)
}

// keepLast keeps the last of members with the same name, in place.
func keepLast(members []jsontree.Member) []jsontree.Member {
	last := make(map[string]int, len(members))
	for i, m := range members {
		last[m.Key] = i
	}
	out := members[:0]
	for i, m := range members {
		if last[m.Key] == i {
			out = append(out, m)
		}
	}
	return out
}

func (r *Reader) extended(m jsontree.Member) (jsontree.Value, bool) {
	v := m.Value
	switch m.Key {
	case "$oid", "$symbol", "$uuid":
		if v.Kind == jsontree.String {
			return v, true
		}
	case "$numberLong", "$numberInt", "$numberDouble", "$numberDecimal":
		if v.Kind != jsontree.String {
			return jsontree.Value{}, false
		}
		f, err := strconv.ParseFloat(v.Str, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			r.note("%s %s is not a finite number, which JSON and Cosmos DB cannot store; kept as the string", m.Key, quoteClip(v.Str))
			return v, true
		}
		num := jsontree.Value{Kind: jsontree.Number, Num: f}
		if n, _, msg := scanNumber([]byte(v.Str)); n == len(v.Str) && msg == "" {
			num.Str = v.Str // the literal as written, as for a plain number
		} // else a spelling JSON has no room for (+1, .5, 0x1p-2): print the double
		return num, true
	case "$date":
		switch v.Kind {
		case jsontree.String:
			return v, true
		case jsontree.Number: // milliseconds since the epoch, possibly from {"$numberLong": ...}
			t := time.UnixMilli(int64(v.Num)).UTC()
			return jsontree.Value{Kind: jsontree.String, Str: t.Format("2006-01-02T15:04:05.000Z")}, true
		}
	}
	return jsontree.Value{}, false
}

// ---- messages ----

func describe(c byte) string {
	switch {
	case c == '"':
		return `'"'`
	case c >= 0x21 && c < 0x7F:
		return "'" + string(c) + "'"
	case c == ' ':
		return "a space"
	default:
		return fmt.Sprintf("byte 0x%02X", c)
	}
}

// clip shortens text from the input for a message: a property name or a
// number can be megabytes long, and a message names it, not repeats it.
func clip(s string) string {
	if p, ok := clipped(s); ok {
		return fmt.Sprintf("%s… (%d bytes)", p, len(s))
	}
	return s
}

// quoteClip is clip for text shown in quotes: "abc…" (4096 bytes).
func quoteClip(s string) string {
	if p, ok := clipped(s); ok {
		return fmt.Sprintf("%s (%d bytes)", strconv.Quote(p+"…"), len(s))
	}
	return strconv.Quote(s)
}

func clipped(s string) (string, bool) {
	const max = 40
	if len(s) <= max {
		return s, false
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut], true
}

func kindOf(c byte) jsontree.Kind {
	switch c {
	case '[':
		return jsontree.Array
	case '"':
		return jsontree.String
	case 't', 'f':
		return jsontree.Bool
	case 'n':
		return jsontree.Null
	case '{':
		return jsontree.Object
	}
	return jsontree.Number
}

func article(k jsontree.Kind) string {
	switch k {
	case jsontree.Array, jsontree.Object:
		return "an " + k.String()
	}
	return "a " + k.String()
}

func sizeText(n int64) string {
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}

// keySlot places a property name in Reader.recent.
// It mixes the length with the first and last four bytes: enough to tell
// apart the names and values a document repeats, at a fixed cost.
func keySlot(b []byte) uint8 { return uint8(slotHash(b) >> 24) }

// valueSlot places a short string value in recentTexts, a larger
// table: a key such as a customer id repeats among thousands of values.
func valueSlot(b []byte) uint16 { return uint16(slotHash(b) >> 20) }

func slotHash(b []byte) uint32 {
	n := len(b)
	h := uint32(n) * 0x9E3779B1
	if n >= 4 {
		h ^= binary.LittleEndian.Uint32(b) ^ bits.RotateLeft32(binary.LittleEndian.Uint32(b[n-4:]), 13)
	} else {
		for _, c := range b {
			h = h<<8 | uint32(c)
		}
	}
	return h * 0x85EBCA6B
}

// plainFits reports whether a valid number literal surely reads as a
// double without overflow or underflow: no exponent and too few digits to
// pass 1e308 or fall below the smallest double.
func plainFits(lit []byte) bool {
	if len(lit) > 300 {
		return false
	}
	for _, c := range lit {
		if c == 'e' || c == 'E' {
			return false
		}
	}
	return true
}

// firstDuplicate returns the first name that repeats an earlier one, or "".
func firstDuplicate(names []string) string {
	if len(names) <= 16 {
		for i := 1; i < len(names); i++ {
			for _, earlier := range names[:i] {
				if names[i] == earlier {
					return names[i]
				}
			}
		}
		return ""
	}
	seen := make(map[string]struct{}, len(names))
	for _, n := range names {
		if _, ok := seen[n]; ok {
			return n
		}
		seen[n] = struct{}{}
	}
	return ""
}

func (r *Reader) noteDuplicate(name string) {
	r.note("property %s appears more than once in an object; the last one counts", quoteClip(name))
}
