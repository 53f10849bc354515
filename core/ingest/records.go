package ingest

import (
	"fmt"
	"io"
	"strings"

	"github.com/pkcalc/pkcalc/core/jsontree"
)

// Records reads the records of JSON reports that hold them deep inside
// one large value, as monitoring APIs do: the rows of the Log Analytics
// query API ({"tables": [{"columns": [...], "rows": [[...], ...]}]}), the
// series of Azure Monitor's metrics ({"value": [{"timeseries": [...]}]}),
// the partition key ranges of a Cosmos DB container. A report can be far
// larger than the 2 MB a document may take, and a Reader would skip it
// whole; Records reads one record at a time, with the same lexer, limits
// and messages as the Reader, holding no more than one record and what
// was read on the way to it (Record.Context).
//
// Where the records sit is given by paths (Path). A report may come
// after another (pages saved one after another). A record that cannot be
// read is an *Error, and reading goes on at the next element of its array;
// a record over MaxDocumentBytes or MaxDepth is skipped, unbuilt. A
// problem outside the records, in the report's own structure, ends the
// reading there, as no record after it can be found for sure.
type Records struct {
	r      *Reader
	paths  []Path
	frames []frame
	index  int
	values int      // top-level values begun
	notes  []*Error // notes on the context, for the next record
	done   bool
}

// Each is the step of a Path into every element of an array.
const Each = "[]"

// Path says where records sit, from the top-level value down: the names
// of properties, matched in any case, and Each for every element of an
// array. The value at its end is a record; Path{"tables", Each, "rows",
// Each} gives each row of each table. A path that starts with Each is
// for a report that is an array.
type Path []string

// Record is one value at a Path.
type Record struct {
	Value  jsontree.Value
	Index  int // 1-based among the records of the input, counting skipped ones
	Line   int // where it starts
	Offset int64
	Path   int // the index of its path among those given
	// Context holds, for each object on the path, outermost first, the
	// members read before the step into it: what a report says before its
	// records, such as a table's columns or a series' metric name. Members
	// past MaxDocumentBytes in all at one level are read but not kept.
	Context []jsontree.Value
	Notes   []*Error
}

// frame is an object or array on the way to the records.
type frame struct {
	array   bool
	step    int   // the step of the paths this value is at
	paths   []int // the paths still possible
	opened  bool  // its first member or element has been read
	members []jsontree.Member
	size    int // the compact size of members
}

// NewRecords returns a Records reading the records at paths from src.
func NewRecords(src io.Reader, paths ...Path) *Records {
	r := NewReader(src)
	r.state = stArray // no cut lines (cut.go): records are not lines of JSON Lines
	return &Records{r: r, paths: paths}
}

// Next returns the next record. At the end of the input it returns
// io.EOF. A problem returns an *Error; calling Next again goes on where
// that is possible and returns io.EOF where not. An error from the
// underlying reader is returned as it is.
func (rs *Records) Next() (*Record, error) {
	r := rs.r
	for {
		if rs.done {
			if r.readErr != nil {
				err := r.readErr
				r.readErr = nil
				return nil, err
			}
			return nil, io.EOF
		}
		if len(rs.frames) == 0 {
			if err := rs.report(); err != nil {
				rs.done = true
				return nil, err
			}
			continue
		}
		f := &rs.frames[len(rs.frames)-1]
		closed, err := rs.next(f)
		if err != nil {
			rs.done = true
			return nil, err
		}
		if closed {
			rs.frames = rs.frames[:len(rs.frames)-1]
			continue
		}
		var rec *Record
		var e error
		if f.array {
			rec, e = rs.element(f)
		} else {
			rec, e = rs.member(f)
		}
		if rec != nil || e != nil {
			return rec, e
		}
	}
}

// report starts the next top-level value, or ends the input.
func (rs *Records) report() *Error {
	r := rs.r
	r.skipWS()
	c, ok := r.peek()
	if !ok {
		rs.done = true
		return nil
	}
	if rs.values == 0 {
		if c == 0xEF && r.Offset() == 0 && r.consumeBOM() {
			return nil
		}
		if err := r.sniff(); err != nil {
			return err
		}
	}
	rs.values++
	array := c == '['
	var paths []int
	for i, p := range rs.paths {
		if len(p) > 0 && (p[0] == Each) == array {
			paths = append(paths, i)
		}
	}
	if c != '{' && c != '[' || len(paths) == 0 {
		r.startDoc()
		return r.errorf(0, "expected %s, found %s", rs.expected(0, nil), describe(c))
	}
	r.pos++
	rs.frames = append(rs.frames, frame{array: array, paths: paths})
	return nil
}

// expected says what a value at step of paths (all of them if nil) must
// be: "an object" or "an array", for the messages.
func (rs *Records) expected(step int, paths []int) string {
	obj, arr := false, false
	for i, p := range rs.paths {
		if paths != nil && !containsInt(paths, i) || step >= len(p) {
			continue
		}
		if p[step] == Each {
			arr = true
		} else {
			obj = true
		}
	}
	switch {
	case obj && arr:
		return "an object or an array"
	case arr:
		return "an array"
	}
	return "an object"
}

// next reads what comes before the next member or element of f: nothing
// before the first, else ',' or the closing bracket, which closes f.
func (rs *Records) next(f *frame) (closed bool, err *Error) {
	r := rs.r
	r.skipWS()
	end := byte('}')
	if f.array {
		end = ']'
	}
	c, ok := r.peek()
	if !ok {
		what := "an object: expected ',' or '}'"
		if f.array {
			what = "an array: expected ',' or ']'"
		}
		if !f.opened {
			what = strings.Replace(what, "',' or ", "a value or ", 1)
		}
		return false, r.errorf(0, "the input ends inside %s", what)
	}
	if c == end {
		r.pos++
		return true, nil
	}
	if !f.opened {
		f.opened = true
		return false, nil
	}
	if c != ',' {
		things := "properties"
		if f.array {
			things = "elements"
		}
		if m := r.separatorHint(c, end, things); m != "" {
			return false, r.errorf(0, "%s", m)
		}
		return false, r.errorf(0, "expected ',' or '%c', found %s", end, describe(c))
	}
	r.pos++
	r.skipWS()
	return false, nil
}

// member reads the next member of object f: the way on to the records,
// or a member of the context.
func (rs *Records) member(f *frame) (*Record, error) {
	r := rs.r
	r.skipWS()
	key, err := r.key()
	if err != nil {
		rs.done = true
		return nil, err
	}
	var paths []int
	for _, i := range f.paths {
		if p := rs.paths[i]; strings.EqualFold(p[f.step], key) {
			paths = append(paths, i)
		}
	}
	if len(paths) > 0 {
		return rs.down(f.step+1, paths)
	}
	// Context: read whole, within the item limits.
	r.startDoc()
	v, err := r.value()
	if err != nil {
		rs.done = true
		return nil, err
	}
	rs.note(r.notes, rs.index+1)
	if n := len(key) + 3 + v.CompactLen(); !r.overLimit && f.size+n <= MaxDocumentBytes {
		f.members = append(f.members, jsontree.Member{Key: key, Value: v})
		f.size += n
	}
	return nil, nil
}

// element reads the next element of array f: a record, or the way on to
// records.
func (rs *Records) element(f *frame) (*Record, error) {
	return rs.down(f.step+1, f.paths)
}

// down reads the value at step of paths: a record where a path ends
// there, else an object or array to go into.
func (rs *Records) down(step int, paths []int) (*Record, error) {
	r := rs.r
	r.skipWS()
	for _, i := range paths {
		if len(rs.paths[i]) == step {
			return rs.record(i)
		}
	}
	c, _ := r.peek()
	array := c == '['
	var next []int
	for _, i := range paths {
		if (rs.paths[i][step] == Each) == array {
			next = append(next, i)
		}
	}
	if c != '{' && c != '[' || len(next) == 0 {
		// A value that holds no records where records were due (a null
		// for an empty table): said, and read past.
		r.startDoc()
		e := r.errorf(0, "expected %s, found %s; it holds no records", rs.expected(step, paths), describe(c))
		if err := r.skipValue(); err != nil {
			rs.done = true
			return nil, err
		}
		return nil, e
	}
	r.pos++
	rs.frames = append(rs.frames, frame{array: array, step: step, paths: next})
	return nil, nil
}

// record reads one record, at the current position, of path i.
func (rs *Records) record(i int) (*Record, error) {
	r := rs.r
	rs.index++
	r.docs = rs.index
	r.startDoc()
	start, line := r.docStart, r.line
	v, err := r.value()
	if err != nil {
		e, ok := err.(*Error)
		if !ok {
			return nil, err
		}
		e.Skipped = true
		if !r.skipRest(r.inStr) {
			rs.done = true
		}
		r.inStr = false
		return nil, e
	}
	size := r.Offset() - start - r.ws
	switch {
	case r.overLimit && strings.Contains(r.limitMsg, "deeper"):
		return nil, r.skippedErrorAt(start, line, fmt.Sprintf("record %d is nested deeper than the %d levels pkcalc reads; skipped", rs.index, MaxDepth))
	case r.overLimit || size > MaxDocumentBytes:
		return nil, r.skippedErrorAt(start, line, fmt.Sprintf("record %d is larger than the 2 MB pkcalc reads as one record; skipped", rs.index))
	}
	rs.note(r.notes, rs.index)
	rec := &Record{Value: v, Index: rs.index, Line: line, Offset: start, Path: i, Notes: rs.notes}
	rs.notes = nil
	for _, f := range rs.frames {
		if !f.array {
			rec.Context = append(rec.Context, jsontree.Value{Kind: jsontree.Object, Members: f.members[:len(f.members):len(f.members)]})
		}
	}
	return rec, nil
}

// note keeps notes for record doc, the next, 10 at most, as a document
// keeps.
func (rs *Records) note(notes []*Error, doc int) {
	for _, n := range notes {
		if len(rs.notes) == 10 {
			return
		}
		n.Document = doc
		rs.notes = append(rs.notes, n)
	}
}

func containsInt(s []int, x int) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}
