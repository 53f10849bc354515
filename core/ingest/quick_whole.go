package ingest

import (
	"slices"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/pkcalc/pkcalc/core/jsontree"
)

// Quick reading of whole documents: with no projection (the window of an
// analysis, which builds every value) a plain document is read by the
// loop of quick.go too, building what objectBody and array would build,
// member for member, element for element. Strings may hold escapes here,
// decoded as strBytes decodes them: whole documents are read for their
// text, which has newlines and quotes in it. What quick.go gives up on,
// this gives up on, and the careful reader reads the document instead
// (TestQuickWhole, and checkQuick under no projection).

// wholeObject reads the object at q.i, at depth (1 for the document), with
// every member built.
func (q *quickRead) wholeObject(depth int) (jsontree.Value, bool) {
	r := q.r
	q.i++ // '{'
	base := len(r.members)
	frame := quickFrame{object: true, names: len(q.names)}
	if !q.space() {
		return jsontree.Value{}, false
	}
	if q.b[q.i] == '}' {
		q.i++
		return jsontree.Value{Kind: jsontree.Object, Members: []jsontree.Member{}}, true
	}
	var shape []shapeName
	if depth == 1 {
		shape = r.quickShape
	}
	same := 0
	for {
		var key string
		if same == len(q.names)-frame.names && same < len(shape) && q.expect(&frame, &shape[same]) {
			key = shape[same].text
			same++
		} else {
			n, ok := q.name()
			if !ok || !q.unique(&frame, n) {
				return jsontree.Value{}, false
			}
			key = q.intern(n)
		}
		if !q.space() {
			return jsontree.Value{}, false
		}
		if c := q.b[q.i]; c == '{' || c == '[' {
			// Built before its member: building it grows the stacks.
			v, ok := q.wholeNested(depth)
			if !ok {
				return jsontree.Value{}, false
			}
			r.members = append(r.members, jsontree.Member{Key: key, Value: v})
		} else if !q.wholeScalar(r.pushMember(key)) {
			return jsontree.Value{}, false
		}
		if closed, ok := q.after('}'); !ok {
			return jsontree.Value{}, false
		} else if closed {
			v := jsontree.Value{Kind: jsontree.Object, Members: slices.Clone(r.members[base:])}
			r.popMembers(base)
			if depth == 1 && (same != len(shape) || len(q.names)-frame.names != same) {
				r.quickShape = q.shapeOf(nil, q.names[frame.names:], r.quickShape[:0])
			}
			q.names = q.names[:frame.names]
			return v, true
		}
	}
}

// wholeNested reads the object or array at q.i, inside a value at depth.
func (q *quickRead) wholeNested(depth int) (jsontree.Value, bool) {
	if depth >= quickDepth {
		return jsontree.Value{}, false
	}
	if q.b[q.i] == '{' {
		return q.wholeObject(depth + 1)
	}
	return q.wholeArray(depth + 1)
}

// wholeArray reads the array at q.i, at depth, with every element built.
func (q *quickRead) wholeArray(depth int) (jsontree.Value, bool) {
	r := q.r
	q.i++ // '['
	base := len(r.elems)
	if !q.space() {
		return jsontree.Value{}, false
	}
	if q.b[q.i] == ']' {
		q.i++
		return jsontree.Value{Kind: jsontree.Array, Elems: []jsontree.Value{}}, true
	}
	for {
		if !q.space() {
			return jsontree.Value{}, false
		}
		if c := q.b[q.i]; c == '{' || c == '[' {
			v, ok := q.wholeNested(depth)
			if !ok {
				return jsontree.Value{}, false
			}
			r.elems = append(r.elems, v)
		} else {
			es := slices.Grow(r.elems, 1)
			es = es[:len(es)+1]
			r.elems = es
			if !q.wholeScalar(&es[len(es)-1]) {
				return jsontree.Value{}, false
			}
		}
		if closed, ok := q.after(']'); !ok {
			return jsontree.Value{}, false
		} else if closed {
			v := jsontree.Value{Kind: jsontree.Array, Elems: append(make([]jsontree.Value, 0, len(r.elems)-base), r.elems[base:]...)}
			r.popElems(base)
			return v, true
		}
	}
}

// wholeScalar is scalar, with strings that hold escapes decoded.
func (q *quickRead) wholeScalar(v *jsontree.Value) bool {
	if q.b[q.i] != '"' {
		return q.scalar(v)
	}
	start, end, _, ok := q.str()
	if !ok {
		return q.escaped(v)
	}
	v.Kind, v.Str = jsontree.String, q.r.recentValues.text(q.b[start:end])
	return true
}

// escaped reads a string at q.i that holds escapes, decoding them as
// escape does; false where the careful reader would note or stop: an
// escape escapeLen refuses, a control character, bytes that are not
// UTF-8, the end of the buffer.
func (q *quickRead) escaped(v *jsontree.Value) bool {
	b := q.b
	out := q.r.scratch[:0]
	high := false
	for i := q.i + 1; i < len(b); {
		switch c := b[i]; {
		case c == '"':
			q.r.scratch = out[:0]
			if high && !utf8.Valid(out) {
				return false
			}
			q.i = i + 1
			v.Kind, v.Str = jsontree.String, q.r.recentValues.text(out)
			return true
		case c == '\\':
			n := escapeLen(b[i:])
			if n == 0 {
				return false
			}
			out = appendEscape(out, b[i:i+n])
			i += n
		case c < 0x20:
			return false
		default:
			high = high || c >= 0x80
			out = append(out, c)
			i++
		}
	}
	return false
}

// appendEscape appends what the escape e, which escapeLen accepts, stands
// for.
func appendEscape(out, e []byte) []byte {
	switch e[1] {
	case 'b':
		return append(out, '\b')
	case 'f':
		return append(out, '\f')
	case 'n':
		return append(out, '\n')
	case 'r':
		return append(out, '\r')
	case 't':
		return append(out, '\t')
	case 'u':
		r1, _ := hexRune(e[2:])
		if len(e) == 12 {
			r2, _ := hexRune(e[8:])
			r1 = utf16.DecodeRune(r1, r2)
		}
		return utf8.AppendRune(out, r1)
	}
	return append(out, e[1]) // '"', '\\', '/'
}

// intern is the text of a property name, shared through the Reader's
// names as strIntern shares them.
func (q *quickRead) intern(n quickName) string {
	b := q.b[n.start:n.end]
	if s, ok := q.r.keys[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(q.r.keys) < 1<<16 && len(s) <= 1<<10 {
		q.r.keys[s] = s
	}
	return s
}
