package ingest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/jsontree"
)

// A table is rows of values under a header row that names the columns: a
// CSV file (CSVReader), or JSON whose first value is an array of names and
// whose values after it are arrays of values (the Reader, below). Both read
// the header by one rule (newColumns) and make each row a document by
// another (buildRow).

// columns is the shape a header row gives a table's documents.
type columns struct {
	width int
	root  *column
	names []string // the header's names, trimmed, before an empty or repeated one is renamed
	// Notes on the header (a column read under another name, a name that
	// does not show as itself), for the first document: at most 10, the
	// rest counted in the tenth.
	notes []*Error
	more  int
	at    []csvPos // where each name starts
}

// column is a property of the documents: a column (col >= 0) or an object
// of columns whose headers share a dotted prefix (col < 0).
type column struct {
	name string
	col  int
	kids []*column
}

// newColumns reads a header row, its names starting at the places at, by
// the rules CSVReader's documentation gives: names trimmed, a dotted name
// nested, an empty or repeated name renamed, each change noted.
func newColumns(rec []string, at []csvPos) *columns {
	c := &columns{width: len(rec), at: at}
	names := make([]string, len(rec))
	taken := make(map[string]bool, len(rec)) // the names as written
	for i, s := range rec {
		if !utf8.ValidString(s) {
			c.note(i, "the name of column %d is not valid UTF-8; the bad bytes read as U+FFFD", i+1)
			s = strings.ToValidUTF8(s, "\uFFFD")
		}
		names[i] = strings.TrimSpace(s)
		taken[names[i]] = true
		if strings.ContainsFunc(names[i], human.Unseen) {
			c.note(i, "%s", unseenMessage(fmt.Sprintf("the name of column %d, %s,", i+1, quoteClip(names[i])), names[i]))
		}
	}
	c.names = slices.Clone(names)
	used := make(map[string]int, len(rec)) // final name -> column
	next := make(map[string]int)           // base -> the suffix to try next, so that many repeats stay linear
	fresh := func(base string) string {
		k := max(next[base], 2)
		for ; ; k++ {
			if s := base + "_" + strconv.Itoa(k); !taken[s] {
				if _, ok := used[s]; !ok {
					next[base] = k + 1
					return s
				}
			}
		}
	}
	for i, name := range names {
		if name == "" {
			n := "column_" + strconv.Itoa(i+1)
			if _, ok := used[n]; taken[n] || ok {
				n = fresh(n)
			}
			c.note(i, "column %d has no name; it is read as %q", i+1, n)
			names[i] = n
		} else if j, ok := used[name]; ok {
			n := fresh(name)
			c.note(i, "column %d repeats the name %q of column %d; it is read as %q", i+1, name, j+1, n)
			names[i] = n
		}
		used[names[i]] = i
	}

	c.root = &column{col: -1}
	groups := make(map[string]*column)
	for i, name := range names {
		parts := strings.Split(name, ".")
		if len(parts) > 1 && !slices.Contains(parts, "") {
			if len(parts) > MaxDepth {
				c.note(i, "column %d %q would nest deeper than the %d levels Cosmos DB allows; it is read as the property %q", i+1, name, MaxDepth, name)
				parts = []string{name}
			} else {
				for k := 1; k < len(parts); k++ {
					prefix := strings.Join(parts[:k], ".")
					if j, ok := used[prefix]; ok {
						c.note(i, "column %d %q cannot nest under %q, which column %d holds; it is read as the property %q", i+1, name, prefix, j+1, name)
						parts = []string{name}
						break
					}
				}
			}
		} else {
			parts = []string{name}
		}
		parent := c.root
		for k := 0; k < len(parts)-1; k++ {
			key := strings.Join(parts[:k+1], ".")
			g := groups[key]
			if g == nil {
				g = &column{name: parts[k], col: -1}
				groups[key] = g
				parent.kids = append(parent.kids, g)
			}
			parent = g
		}
		parent.kids = append(parent.kids, &column{name: parts[len(parts)-1], col: i})
	}
	if c.more > 0 {
		c.notes[len(c.notes)-1].Msg += fmt.Sprintf("; and %d more notes on the header's names", c.more)
	}
	c.at = nil
	return c
}

// note notes a change in reading the name of column col, or a name that
// does not show as itself: the rows are still read whole, so it comes with
// the first document, as a note on a value read with a change does, not
// as a problem. Past 10, as for a document's notes, they are only counted.
func (c *columns) note(col int, format string, args ...any) {
	if len(c.notes) == 10 {
		c.more++
		return
	}
	at := c.at[col]
	c.notes = append(c.notes, &Error{Line: at.line, Column: at.col, Offset: at.off, Msg: fmt.Sprintf(format, args...)})
}

// rowCells are the values of one row: cell is the value in column i, or
// false for an empty cell, a missing property.
type rowCells interface {
	cell(i int) (jsontree.Value, bool)
}

// buildRow makes the document of a row: an object of n's columns, empty if
// all its cells are.
func buildRow[C rowCells](n *column, row C) jsontree.Value {
	v, ok := buildObject(n, row)
	if !ok {
		return jsontree.Value{Kind: jsontree.Object, Members: []jsontree.Member{}}
	}
	return v
}

// buildObject builds the object of node n, and reports false when all its
// cells are empty: an object of them is left out, as a cell is.
func buildObject[C rowCells](n *column, row C) (jsontree.Value, bool) {
	var members []jsontree.Member
	for _, k := range n.kids {
		var v jsontree.Value
		var ok bool
		if k.col >= 0 {
			v, ok = row.cell(k.col)
		} else {
			v, ok = buildObject(k, row)
		}
		if ok {
			if members == nil {
				members = make([]jsontree.Member, 0, len(n.kids))
			}
			members = append(members, jsontree.Member{Key: k.name, Value: v})
		}
	}
	if members == nil {
		return jsontree.Value{}, false
	}
	return jsontree.Value{Kind: jsontree.Object, Members: members}, true
}

// A JSON table is the rows of a table as JSON arrays, as exports write
// them (a query's result as a header row and rows, a data frame's values,
// jq -c '[...]'): JSON Lines whose first line is an array of the column
// names and whose later lines are arrays of values, or one JSON array of
// such arrays ([["id","city"],["1","Oslo"]]). The Reader reads it as a
// CSV file is read: the names are the header row (newColumns: trimmed,
// dotted names nested, an empty or repeated name renamed, each change
// noted), and every row of as many values is a document with those names
// as its properties, its values as they are (a nested object or array
// stays one, null stays null); a row of another length is an error, and
// the rows after it are read. A note, on the first document, says the
// input was read so. A first array of strings followed by anything but an
// array is not a table: its strings are each no document, as before; one
// alone is one error, which says what would make it a table.

// tableKind is what tableAhead finds.
type tableKind uint8

const (
	noTable     tableKind = iota
	linesTable            // ["a","b"] then [1,2] ...
	arrayTable            // [["a","b"],[1,2],...]
	headerAlone           // ["a","b"] and the end of the input
)

// maxHeaderBytes is how far tableAhead looks for the end of a header row.
const maxHeaderBytes = 1 << 20

// tableAhead looks, without consuming anything, at the array at the
// current position, the input's first value, for a table's header row: an
// array of strings, then another array (linesTable) or nothing
// (headerAlone), or an array whose first element is an array of strings
// followed by ',' and another array (arrayTable). It returns where each
// name starts, for notes on them.
func (r *Reader) tableAhead() (kind tableKind, at []csvPos) {
	i := 1 // past '['
	line, lineStart := r.line, r.lineStart
	cr := false // the last byte was '\r'
	more := func() bool { return i < maxHeaderBytes && r.ensure(i+1) }
	space := func() (byte, bool) {
		for more() {
			c := r.buf[r.pos+i]
			switch c {
			case '\n':
				if !cr {
					line++
				}
				lineStart = r.Offset() + int64(i) + 1
			case '\r':
				line++
				lineStart = r.Offset() + int64(i) + 1
			case ' ', '\t':
			default:
				return c, true
			}
			cr = c == '\r'
			i++
		}
		return 0, false
	}
	c, ok := space()
	outer := ok && c == '['
	if outer {
		i++
		c, ok = space()
	}
	if !ok || c != '"' {
		return noTable, nil
	}
	for {
		off := r.Offset() + int64(i)
		at = append(at, csvPos{line: line, col: int(off-lineStart) + 1, off: off})
		for i++; ; i++ { // the string: escapes are checked when it is read
			if !more() {
				return noTable, nil
			}
			c := r.buf[r.pos+i]
			if c == '"' {
				break
			}
			if c == '\\' {
				i++
			} else if c < 0x20 {
				return noTable, nil
			}
		}
		i++
		if c, ok = space(); !ok || c != ',' && c != ']' {
			return noTable, nil
		}
		i++
		if c == ']' {
			break
		}
		if c, ok = space(); !ok || c != '"' {
			return noTable, nil
		}
	}
	c, ok = space()
	switch {
	case outer && ok && c == ',':
		i++
		if c, ok = space(); ok && c == '[' {
			return arrayTable, at
		}
	case !outer && ok && c == '[':
		return linesTable, at
	case !outer && !ok && i < maxHeaderBytes:
		return headerAlone, at
	}
	return noTable, nil
}

// tableHeader reads the header row tableAhead found, its names at at, and
// makes the Reader read the arrays after it as rows; what is where the
// names are, for the note.
func (r *Reader) tableHeader(at []csvPos, what string) error {
	r.startDoc()
	r.node = nil
	start, line, col := r.docStart, r.line, r.docCol
	v, err := r.value()
	if err != nil {
		return r.recover(err)
	}
	names := make([]string, len(v.Elems))
	for i, e := range v.Elems {
		names[i] = e.Str
	}
	r.table = newColumns(names, at)
	note := &Error{Line: line, Column: col, Offset: start, Msg: fmt.Sprintf(
		"%s is an array of %d %s and the %s after it arrays of values: read as a table, as a CSV file is, each row a document with those names as its properties",
		what, len(names), human.Plural(int64(len(names)), "name", "names"), afterIt(what))}
	r.tableNotes = append(append([]*Error{note}, r.notes...), r.table.notes...)
	r.table.notes = nil
	return nil
}

func afterIt(what string) string {
	if strings.Contains(what, "element") {
		return "elements"
	}
	return "lines"
}

// headerAlone reads an array of strings that nothing follows: no
// document, and no table either, without rows.
func (r *Reader) headerAlone() error {
	r.docs++
	r.startDoc()
	r.node = nil // to count its strings
	start, line := r.docStart, r.line
	v, err := r.value()
	if err != nil {
		return r.recover(err)
	}
	n := len(v.Elems)
	return r.skippedErrorAt(start, line, fmt.Sprintf("an array of %d %s is not a document: documents are JSON objects, or the rows of a table after a header row of names, which it would be with arrays of values after it; skipped",
		n, human.Plural(int64(n), "string", "strings")))
}

// tableRow makes the document of a row of the table.
func (r *Reader) tableRow(start int64, line int, v jsontree.Value, notes []*Error) (*Document, error) {
	t := r.table
	if len(v.Elems) != t.width {
		return nil, r.skippedErrorAt(start, line, fmt.Sprintf("a row of %d %s, and the header row names %d %s; skipped",
			len(v.Elems), human.Plural(int64(len(v.Elems)), "value", "values"), t.width, human.Plural(int64(t.width), "column", "columns")))
	}
	root := buildRow(t.root, jsonCells(v.Elems))
	size := root.CompactLen()
	if size > MaxDocumentBytes {
		return nil, r.skippedErrorAt(start, line, fmt.Sprintf("row is %s as a document, over the 2 MB Cosmos DB allows for an item; skipped", sizeText(int64(size))))
	}
	if r.tableNotes != nil {
		for _, n := range r.tableNotes {
			n.Document = r.docs
		}
		notes = append(r.tableNotes, notes...)
		r.tableNotes = nil
	}
	d := &r.projected // reused under a projection: see Project
	if r.proj == nil {
		d = new(Document)
	}
	*d = Document{Index: r.docs, Line: line, Offset: start, Bytes: size, Root: root, Notes: notes}
	return d, nil
}

// jsonCells are the values of a row of a JSON table: every cell holds one.
type jsonCells []jsontree.Value

func (c jsonCells) cell(i int) (jsontree.Value, bool) { return c[i], true }
