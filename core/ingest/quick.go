package ingest

import (
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/pkcalc/pkcalc/core/jsontree"
)

// Quick reading: under a projection most documents are plain (property
// names and the strings built without escapes, no $ names, numbers that
// fit a double, no duplicate names) and need none of the Reader's
// care for what can go wrong. quickDocument reads such a document in one
// loop over the buffer, with no call per token; at the first thing that is
// not plain it gives up, having changed nothing, and the document is read
// the careful way. So every error, note and limit still comes from the one
// careful reader, and a plain document reads the same either way
// (TestQuick and FuzzProject check both ways against each other).

// quickDepth is the nesting past which a document is read carefully.
const quickDepth = 32

// stringByte marks the bytes a plain string runs over: all but the quote,
// the backslash and control characters. asciiByte is the same less the
// bytes from 0x80, which are checked as UTF-8 when the string closes.
var stringByte, asciiByte = func() (t, a [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
		a[c] = t[c] && c < 0x80
	}
	return t, a
}()

// quickFrame is an object or array being skipped.
type quickFrame struct {
	object bool
	names  int       // first of its names in quickRead.names
	seen   [4]uint64 // which nameSlots its names took, to find duplicates cheaply
}

// quickName is a property name of an object being read: where it lies in
// the buffer, and its slot.
type quickName struct {
	start, end int
	slot       uint8
}

// quickDocument reads the object at r.pos if it is plain and already in
// the buffer, as document would, and returns it; or returns nil with
// nothing read. It never reads input: one document in a bufferful runs
// past its end and is read carefully, which fills the buffer again.
func (r *Reader) quickDocument(start int64, line int) *Document {
	q := quickRead{r: r, b: r.buf[r.pos:r.end], arena: len(r.arena), members: len(r.members), elems: len(r.elems),
		names: r.quickNames[:0], frames: r.quickFrames[:0], crEnd: -1}
	var v jsontree.Value
	var ok bool
	if r.proj == nil {
		v, ok = q.wholeObject(1)
	} else {
		v, ok = q.object(r.proj, 1)
	}
	r.quickNames, r.quickFrames = q.names[:0], q.frames[:0] // kept for the next document
	if ok {
		from := r.pos
		r.pos += q.i
		r.ws = int64(q.ws)
		d, err := r.finishDocument(start, line, v, nil)
		if err == nil {
			if q.lines > 0 {
				r.line += q.lines
				r.lineStart = r.base + int64(from+q.lineStart)
			}
			if q.crEnd >= 0 {
				r.crEnd = r.base + int64(from+q.crEnd)
			}
			return d
		}
		r.pos = from // over the size limit: the careful reader says so
		r.ws = 0
	}
	clear(r.arena[q.arena:])
	r.arena = r.arena[:q.arena]
	r.popMembers(q.members)
	r.popElems(q.elems)
	return nil
}

// quickRead is the state of one quickDocument.
type quickRead struct {
	r         *Reader
	b         []byte // the buffered input from the document's start
	i         int    // next byte of b
	ws        int    // white space read between tokens
	lines     int    // line ends among it, the last one ending at lineStart
	lineStart int
	crEnd     int // just past the last '\r' among it, or -1
	arena     int // len(r.arena) and len(r.members) before, to undo
	members   int
	elems     int          // and len(r.elems), for whole documents
	names     []quickName  // of the objects being read, innermost last
	frames    []quickFrame // of the objects and arrays being skipped
}

// space skips white space, counting lines as skipSpaces does; false at
// the end of the buffer.
func (q *quickRead) space() bool {
	for q.i < len(q.b) {
		switch q.b[q.i] {
		case ' ', '\t':
			q.i++
			q.ws++
		case '\n':
			if q.i != q.crEnd { // else the LF of a CRLF, counted at its CR
				q.lines++
			}
			q.i++
			q.ws++
			q.lineStart = q.i
		case '\r':
			q.i++
			q.ws++
			q.lines++
			q.lineStart = q.i
			q.crEnd = q.i
		default:
			return true
		}
	}
	return false
}

// str reads a plain string whose opening quote is at q.i and returns where
// its text lies, and whether it holds bytes past ASCII; ok is false if it
// is not plain.
func (q *quickRead) str() (start, end int, high, ok bool) {
	b := q.b
	i := q.i + 1
	start = i
	for i < len(b) && asciiByte[b[i]] {
		i++
	}
	if i < len(b) && b[i] >= 0x80 {
		high = true
		for i < len(b) && stringByte[b[i]] {
			i++
		}
		if i < len(b) && !utf8.Valid(b[start:i]) {
			return 0, 0, false, false // noted by the careful reader
		}
	}
	if i >= len(b) || b[i] != '"' {
		return 0, 0, false, false // an escape, a control character or the end of the buffer
	}
	q.i = i + 1
	return start, i, high, true
}

// skipString passes over a string in skip mode, its escapes checked but
// not decoded; false if it is not plain but for escapes the careful reader
// takes without a note.
func (q *quickRead) skipString() bool {
	b := q.b
	i := q.i + 1
	start, high := i, false
	for {
		for i < len(b) && asciiByte[b[i]] {
			i++
		}
		if i >= len(b) {
			return false
		}
		switch c := b[i]; {
		case c == '"':
			// Escapes decode to whole characters, so the text is valid
			// UTF-8 exactly when its bytes as written are.
			if high && !utf8.Valid(b[start:i]) {
				return false
			}
			q.i = i + 1
			return true
		case c == '\\':
			n := escapeLen(b[i:])
			if n == 0 {
				return false
			}
			i += n
		case c >= 0x80:
			high = true
			i++
		default:
			return false // a control character
		}
	}
}

// escapeLen is the length of the escape at the start of b, or 0 if the
// careful reader would stop or note there: an invalid escape, one cut by
// the end of the buffer, or a \u escape of an unpaired surrogate.
func escapeLen(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	switch b[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		r1, ok := hexRune(b[2:])
		if !ok {
			return 0
		}
		if !utf16.IsSurrogate(r1) {
			return 6
		}
		if r1 >= 0xDC00 || len(b) < 12 || b[6] != '\\' || b[7] != 'u' {
			return 0
		}
		if r2, ok := hexRune(b[8:]); !ok || r2 < 0xDC00 || r2 > 0xDFFF {
			return 0
		}
		return 12
	}
	return 0
}

// hexRune reads the four hex digits of a \u escape.
func hexRune(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var v rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | rune(c)
	}
	return v, true
}

// name reads a property name and its colon; false if the name is not plain
// or starts with $ (Extended JSON), or if it is past ASCII and new to the
// Reader: the careful reader notes a name that does not show as itself
// (noteUnseen) where it first meets it.
func (q *quickRead) name() (quickName, bool) {
	if !q.space() || q.b[q.i] != '"' {
		return quickName{}, false
	}
	start, end, high, ok := q.str()
	if !ok || (end > start && q.b[start] == '$') {
		return quickName{}, false
	}
	if high {
		if _, known := q.r.keys[string(q.b[start:end])]; !known {
			return quickName{}, false
		}
	}
	if !q.space() || q.b[q.i] != ':' {
		return quickName{}, false
	}
	q.i++
	return quickName{start: start, end: end, slot: keySlot(q.b[start:end])}, true
}

// shapeName is a property name of the last document read quickly, in
// order (Reader.quickShape): documents of one kind repeat their names, and
// a name found where the last document had it needs neither its hash nor a
// search of the projection, nor a test for duplicates (the names before it
// are those of the last document, which had none).
type shapeName struct {
	text  string
	slot  uint8
	child *projection
}

// expect reads the property name and colon of sn if they come next, and
// records the name for the duplicate test of the names that may follow;
// false, with nothing read but white space, if another name comes.
func (q *quickRead) expect(f *quickFrame, sn *shapeName) bool {
	if !q.space() || q.b[q.i] != '"' {
		return false
	}
	start := q.i + 1
	end := start + len(sn.text)
	if end >= len(q.b) || q.b[end] != '"' || string(q.b[start:end]) != sn.text {
		return false
	}
	i, ws, lines, lineStart, crEnd := q.i, q.ws, q.lines, q.lineStart, q.crEnd
	q.i = end + 1
	if !q.space() || q.b[q.i] != ':' {
		// For name to read the same and give up there.
		q.i, q.ws, q.lines, q.lineStart, q.crEnd = i, ws, lines, lineStart, crEnd
		return false
	}
	q.i++
	f.seen[sn.slot>>6] |= 1 << (sn.slot & 63)
	q.names = append(q.names, quickName{start: start, end: end, slot: sn.slot})
	return true
}

// shapeOf is the shape of a document's names, their text shared through
// the Reader's names (as strIntern shares them).
func (q *quickRead) shapeOf(node *projection, names []quickName, shape []shapeName) []shapeName {
	for _, n := range names {
		sn := shapeName{text: q.intern(n), slot: n.slot}
		if node != nil { // nil for a whole document
			sn.child = node.childAt(q.b[n.start:n.end], n.slot)
		}
		shape = append(shape, sn)
	}
	return shape
}

// unique adds a name to the object of frame f unless one of its names is
// the same: duplicates are noted by the careful reader.
func (q *quickRead) unique(f *quickFrame, n quickName) bool {
	bit := uint64(1) << (n.slot & 63)
	w := &f.seen[n.slot>>6]
	names := q.names
	if *w&bit != 0 {
		text := string(q.b[n.start:n.end])
		for _, m := range names[f.names:] {
			if m.slot == n.slot && string(q.b[m.start:m.end]) == text {
				return false
			}
		}
	}
	*w |= bit
	q.names = append(names, n)
	return true
}

// object reads an object under projection node at depth (1 for the
// document), building its projected members as objectBody does.
func (q *quickRead) object(node *projection, depth int) (jsontree.Value, bool) {
	r := q.r
	q.i++ // '{'
	base := len(r.members)
	frame := quickFrame{object: true, names: len(q.names)}
	if !q.space() {
		return jsontree.Value{}, false
	}
	if q.b[q.i] == '}' {
		q.i++
		return r.partialObject(node, nil, nil, jsontree.Value{}), true
	}
	// A document's names are those of the last one, in order, as long as
	// they match (see quickShape).
	var shape []shapeName
	if depth == 1 {
		shape = r.quickShape
	}
	same := 0 // names so far that match the shape
	for {
		var child *projection
		if same == len(q.names)-frame.names && same < len(shape) && q.expect(&frame, &shape[same]) {
			child = shape[same].child
			same++
		} else {
			n, ok := q.name()
			if !ok || !q.unique(&frame, n) {
				return jsontree.Value{}, false
			}
			child = node.childAt(q.b[n.start:n.end], n.slot)
		}
		if !q.space() {
			return jsontree.Value{}, false
		}
		if child == nil {
			if !q.skip(depth) {
				return jsontree.Value{}, false
			}
		} else if c := q.b[q.i]; c == '{' && !child.whole {
			if depth >= quickDepth {
				return jsontree.Value{}, false
			}
			v, ok := q.object(child, depth+1)
			if !ok {
				return jsontree.Value{}, false
			}
			// The projection's own name: the same text as the one read.
			r.members = append(r.members, jsontree.Member{Key: child.name, Value: v})
		} else {
			// Built in place, field by field, in the slot past the
			// stack's top, which is zero (popMembers clears what it
			// pops): in WebAssembly every copy of a Value is a call to
			// copy memory, and natively a Member built aside is read back
			// in wider words than it was written, which stalls.
			if !q.scalar(r.pushMember(child.name)) {
				return jsontree.Value{}, false
			}
		}
		if closed, ok := q.after('}'); !ok {
			return jsontree.Value{}, false
		} else if closed {
			v := r.partialObject(node, nil, r.members[base:], jsontree.Value{})
			r.popMembers(base)
			if depth == 1 && (same != len(shape) || len(q.names)-frame.names != same) {
				r.quickShape = q.shapeOf(node, q.names[frame.names:], r.quickShape[:0])
			}
			q.names = q.names[:frame.names]
			return v, true
		}
	}
}

// pushMember pushes a member named key on the Reader's stack and returns
// its zero value, to be built in place (see object).
func (r *Reader) pushMember(key string) *jsontree.Value {
	ms := slices.Grow(r.members, 1)
	ms = ms[:len(ms)+1]
	m := &ms[len(ms)-1]
	m.Key = key
	r.members = ms
	return &m.Value
}

// after reads what follows a member or an element: a comma, or close,
// which it reports; false for anything else.
func (q *quickRead) after(close byte) (closed, ok bool) {
	if !q.space() {
		return false, false
	}
	switch q.b[q.i] {
	case ',':
		q.i++
		return false, true
	case close:
		q.i++
		return true, true
	}
	return false, false
}

// scalar reads a string, number, true, false or null into the zero v, as
// value would build it; false for anything else or anything not plain.
func (q *quickRead) scalar(v *jsontree.Value) bool {
	b := q.b
	switch c := b[q.i]; c {
	case '"':
		start, end, _, ok := q.str()
		if ok {
			v.Kind, v.Str = jsontree.String, q.r.recentValues.text(b[start:end])
		}
		return ok
	case 't', 'f', 'n':
		return q.word(v)
	default:
		return (c == '-' || c >= '0' && c <= '9') && q.number(v)
	}
}

// number reads a number into v, as number does, or only checks it when v
// is nil; false if it is invalid, may go on past the buffer, or would be
// noted (beyond a double, or too small).
func (q *quickRead) number(v *jsontree.Value) bool {
	b := q.b[q.i:]
	n, simple, msg := scanNumber(b)
	if msg != "" || n == len(b) {
		return false
	}
	lit := b[:n]
	if v == nil && (simple || plainFits(lit)) {
		q.i += n
		return true // it fits a double: nothing to note
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil || (f == 0 && !zero(lit)) {
		return false
	}
	q.i += n
	if v != nil {
		v.Kind, v.Num = jsontree.Number, f
		if !simple {
			v.Str = string(lit)
		}
	}
	return true
}

// word reads true, false or null into v, or only checks it when v is nil.
func (q *quickRead) word(v *jsontree.Value) bool {
	var w jsontree.Value
	rest := q.b[q.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		q.i += 4
		w = jsontree.Value{Kind: jsontree.Bool, Bool: true}
	case len(rest) >= 5 && string(rest[:5]) == "false":
		q.i += 5
		w = jsontree.Value{Kind: jsontree.Bool}
	case len(rest) >= 4 && string(rest[:4]) == "null":
		q.i += 4
		w = jsontree.Value{Kind: jsontree.Null}
	default:
		return false
	}
	if v != nil {
		v.Kind, v.Bool = w.Kind, w.Bool
	}
	return true
}

// skip passes over the value at q.i, in an object at depth, without
// building it, as skipValue does. Nested objects and arrays are followed
// on a stack of frames rather than by recursion: most of what is skipped
// is small arrays of small objects.
func (q *quickRead) skip(depth int) bool {
	b := q.b
	q.frames = q.frames[:0]
	for {
		// A value.
		switch c := b[q.i]; {
		case c == '"':
			if !q.skipString() {
				return false
			}
		case c == '{' || c == '[':
			if depth+len(q.frames) >= quickDepth {
				return false
			}
			q.i++
			// Pushed in place, field by field: a frame appended whole was
			// built aside and copied in (3 % of projected reading).
			q.frames = slices.Grow(q.frames, 1)[:len(q.frames)+1]
			fr := &q.frames[len(q.frames)-1]
			fr.object, fr.names, fr.seen = c == '{', len(q.names), [4]uint64{}
			if !q.space() {
				return false
			}
			if q.b[q.i] == c+2 { // '{'+2 is '}', '['+2 is ']'
				q.i++
				q.frames = q.frames[:len(q.frames)-1]
				break
			}
			if c == '{' {
				f := &q.frames[len(q.frames)-1]
				n, ok := q.name()
				if !ok || !q.unique(f, n) || !q.space() {
					return false
				}
			}
			continue // its first member or element
		case c == 't' || c == 'f' || c == 'n':
			if !q.word(nil) {
				return false
			}
		default:
			if !q.number(nil) {
				return false
			}
		}
		// What follows it: the next member or element, or the ends of
		// the frames it closes.
		for {
			if len(q.frames) == 0 {
				return true
			}
			if !q.space() {
				return false
			}
			f := &q.frames[len(q.frames)-1]
			c := b[q.i]
			q.i++
			switch {
			case c == ',':
				if f.object {
					n, ok := q.name()
					if !ok || !q.unique(f, n) {
						return false
					}
				}
				if !q.space() {
					return false
				}
			case f.object && c == '}', !f.object && c == ']':
				q.names = q.names[:f.names]
				q.frames = q.frames[:len(q.frames)-1]
				continue
			default:
				return false
			}
			break
		}
	}
}

// recentTexts are short texts by valueSlot. Short values repeat (a
// status, a region, a tenant): text gives the one string made for them,
// for str, the quick reader and an answer decoded (elsewhere.go), rather
// than a new one in every document.
type recentTexts [4096]string

// text is b as a string: a short one from t.
func (t *recentTexts) text(b []byte) string {
	if len(b) == 0 || len(b) > 32 {
		return string(b)
	}
	slot := &t[valueSlot(b)]
	if *slot != string(b) {
		*slot = string(b)
	}
	return *slot
}
