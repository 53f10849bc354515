package ingest

import "github.com/pkcalc/pkcalc/core/jsontree"

// Projection: once a caller knows which paths it needs (the candidate keys,
// a time field), building every document's whole tree is most of the cost
// of reading. With a projection the Reader still reads and checks every
// byte the same way, with the same errors, notes, limits and sizes, but
// builds only the values on the projected paths. Everything else is read in
// skip mode: validated, never built.

// projection is a tree of property names; a node marked whole wants its
// value built entirely.
type projection struct {
	name     string   // of the property it is the value of ("" for the root)
	names    []string // few: a list beats a map
	children []*projection
	whole    bool
	wire     []byte // the root's: the paths as a chunk's job holds them (elsewhere.go)
	// bySlot finds a child from a name's keySlot, as quick reading has it:
	// 1 + its index, 0 for none, manySlot when several share the slot.
	bySlot [256]uint8
}

const manySlot = 255

// Project makes the documents read from now on hold only the values at
// paths (each a list of property names from the root) and the objects on
// the way to them; a value at a path is built whole, whatever it holds.
// Every other property is read and checked but left out, so a document's
// Root no longer holds it. Bytes, notes and errors are those of the whole
// document. A nil or empty list builds nothing but the root object.
//
// From then on a Document returned by Next, and what it holds, is valid
// only until the next call to Next: its memory is reused, so that reading
// allocates next to nothing.
func (r *Reader) Project(paths [][]string) {
	r.quickShape = r.quickShape[:0] // its names point into the old projection
	root := &projection{}
	for _, p := range paths {
		n := root
		for _, name := range p {
			c := n.child(name)
			if c == nil {
				c = &projection{name: name}
				n.names = append(n.names, name)
				n.children = append(n.children, c)
				slot := &n.bySlot[keySlot([]byte(name))]
				if *slot == 0 && len(n.children) < manySlot {
					*slot = uint8(len(n.children))
				} else {
					*slot = manySlot
				}
			}
			n = c
		}
		n.whole = true
	}
	if root.whole {
		r.proj = nil // the empty path: the whole document
		return
	}
	root.wire = appendPaths(nil, paths)
	r.proj = root
}

// memberMode sets how the value of the member named key is read, in an
// object read under projection node.
func (r *Reader) memberMode(node *projection, key string) {
	switch c := node.child(key); {
	case len(key) > 1 && key[0] == '$':
		// Extended JSON ({"$oid": ...}) is read whole: what it reads as,
		// and its notes, depend on its value.
		r.node, r.skip = nil, false
	case c == nil:
		r.node, r.skip = nil, true
	case c.whole:
		r.node, r.skip = nil, false
	default:
		r.node, r.skip = c, false
	}
}

func (p *projection) child(key string) *projection {
	if p == nil {
		return nil
	}
	for i, name := range p.names {
		if name == key {
			return p.children[i]
		}
	}
	return nil
}

// childAt is child for a name given as bytes with their keySlot.
func (p *projection) childAt(name []byte, slot uint8) *projection {
	switch i := p.bySlot[slot]; i {
	case 0:
		return nil
	case manySlot:
		return p.child(string(name))
	default:
		if c := p.children[i-1]; c.name == string(name) {
			return c
		}
		return nil
	}
}

// partialObject finishes an object read under projection node, or in skip
// mode when node is nil, as finishObject would finish the whole object:
// names are all its property names, dollar the value of its $ name if it
// has one, members the projected ones.
func (r *Reader) partialObject(node *projection, names []string, members []jsontree.Member, dollar jsontree.Value) jsontree.Value {
	if r.depth > 0 && len(names) == 1 && len(names[0]) > 1 && names[0][0] == '$' {
		if v, ok := r.extended(jsontree.Member{Key: names[0], Value: dollar}); ok {
			return v
		}
	}
	if len(names) > 1 {
		if dup := firstDuplicate(names); dup != "" {
			r.noteDuplicate(dup)
			members = keepLast(members)
		}
	}
	if node == nil {
		return jsontree.Value{Kind: jsontree.Object}
	}
	start := len(r.arena)
	r.arena = append(r.arena, members...)
	return jsontree.Value{Kind: jsontree.Object, Members: r.arena[start:len(r.arena):len(r.arena)]}
}

// plainString reads the rest of a string, after its opening quote, when it
// is plain: printable ASCII without escapes, already in the buffer, within
// the item limit. Such a string can have no note or error; any other is
// left for strBytes. The bytes alias the buffer, valid until it is next
// filled.
func (r *Reader) plainString() ([]byte, bool) {
	buf := r.buf[r.pos:r.end]
	for i, c := range buf {
		switch {
		case c == '"':
			if i > MaxDocumentBytes {
				return nil, false
			}
			r.pos += i + 1
			return buf[:i], true
		case c < 0x20 || c >= 0x80 || c == '\\':
			return nil, false
		}
	}
	return nil, false
}

// skipValue reads one value in skip mode (r.skip set, which number reads
// too): checked exactly as value checks it, with the same errors and
// notes, but nothing built and no Value passed around. It is skip mode's
// one entry: objects, arrays and strings, most of what is skipped, are
// read here; numbers, words and errors go to value.
func (r *Reader) skipValue() error {
	r.skipWS()
	if r.line == r.docLine+1 {
		r.markCut()
	}
	if c, ok := r.peek(); ok {
		switch c {
		case '{':
			return r.skipObject()
		case '[':
			return r.skipArray()
		case '"':
			r.pos++
			if _, ok := r.plainString(); ok {
				return nil
			}
			_, err := r.strBytes()
			return err
		}
	}
	_, err := r.value()
	return err
}

// skipObject is object in skip mode: it keeps only the names, to note
// duplicates, and reads a $ member whole, which may make the object
// Extended JSON with notes of its own.
func (r *Reader) skipObject() error {
	r.pos++ // '{'
	build := r.enter()
	if r.depth > 10*MaxDepth {
		return r.skipNested()
	}
	base := len(r.names)
	defer r.popNames(base)
	var dollar jsontree.Value
	r.skipWS()
	if c, ok := r.peek(); ok && c == '}' {
		r.pos++
		r.depth--
		return nil
	}
	for {
		r.skipWS()
		key, err := r.key()
		if err != nil {
			return err
		}
		isDollar := len(key) > 1 && key[0] == '$'
		var v jsontree.Value
		if isDollar {
			r.skip = false
			v, err = r.value()
			r.skip = true
		} else {
			err = r.skipValue()
		}
		if err != nil {
			return err
		}
		if build && !r.sizeExceeded() {
			r.names = append(r.names, key)
			if isDollar {
				dollar = v
			}
		}
		closed, err := r.objectNext()
		if err != nil {
			return err
		}
		if closed {
			break
		}
	}
	r.depth--
	if !r.overLimit {
		r.partialObject(nil, r.names[base:], nil, dollar) // for its notes
	}
	return nil
}

// skipArray is array in skip mode.
func (r *Reader) skipArray() error {
	r.pos++ // '['
	build := r.enter()
	if r.depth > 10*MaxDepth {
		return r.skipNested()
	}
	r.skipWS()
	if c, ok := r.peek(); ok && c == ']' {
		r.pos++
		r.depth--
		return nil
	}
	for {
		if err := r.skipValue(); err != nil {
			return err
		}
		if build {
			r.sizeExceeded()
		}
		closed, err := r.arrayNext()
		if err != nil {
			return err
		}
		if closed {
			break
		}
	}
	r.depth--
	return nil
}
