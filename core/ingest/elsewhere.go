package ingest

// Reading a chunk elsewhere: in another Web Worker.
//
// In the browser an engine has one thread, so a Parallel there hands each
// chunk to a ReadChunk function instead of reading it on a goroutine. The
// function sends the chunk as a job (the Reader's settings, where the
// chunk starts, the projection and the chunk's bytes) to a ChunkReader in
// another Web Worker and returns its answer: whether the chunk read
// cleanly and, if it did, its documents with their trees written out.
// Decoding an answer costs the engine far less than reading the JSON
// would: there is no white space, escape or number to read, and past the
// window only the projected values come back. An answer that does not
// come, or does not decode, makes the chunk one that is not clean, which
// the Reader reads itself from its start: the documents, errors and notes
// are the Reader's whatever becomes of the other worker.
//
// The wire: integers are varints (cursor fields signed, the rest
// unsigned), strings a length and their bytes.
//
//	job:    version, format, state (between documents or in an array),
//	        csvRemedy, pages, careful, unseen (count, names),
//	        cursor (offset, lineStart, crEnd, bomEnd, spaceFrom, line),
//	        projection (0: none; 1, then count, each path as count and names),
//	        the chunk's bytes to the end
//	answer: version, clean, documents (count, each Index, Line, Offset, Bytes, value)
//	value:  kind, then for a boolean 0 or 1; a number its 8 bytes (IEEE 754,
//	        little-endian) and Str; a string Str; an object count, each name
//	        and value; an array count and values

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"

	"github.com/pkcalc/pkcalc/core/jsontree"
)

// ReadChunk reads a chunk elsewhere: it hands job to a ChunkReader's Read
// in another Web Worker and returns the answer, or an error when there is
// none. It may be called from several goroutines at once.
type ReadChunk func(job []byte) ([]byte, error)

// wireVersion starts every job and answer. Helpers run the module the
// engine posts them, so it only guards against a wire changed on one side.
const wireVersion = 1

// maxWireDepth bounds the nesting an answer may have: the Reader's limit
// (MaxDepth) and the root.
const maxWireDepth = MaxDepth + 1

// ParallelElsewhere is Parallel with each chunk read by read, on workers
// goroutines that wait for it, rather than on the goroutines themselves;
// with read nil, it is Parallel.
func (r *Reader) ParallelElsewhere(workers int, read ReadChunk) (*Parallel, bool) {
	return r.parallel(workers, read)
}

// readElsewhere reads the chunk by read, as chunk.read would, with the
// Reader's settings as appendSettings wrote them.
func (c *chunk) readElsewhere(settings []byte, proj *projection, read ReadChunk) {
	defer close(c.parsed)
	c.proj = proj
	c.mem.reset()
	if !c.whole {
		return
	}
	c.job = appendJob(append(c.job[:0], settings...), proj, c.at, c.data)
	answer, err := read(c.job)
	if err != nil || !c.decode(answer) {
		c.docs, c.clean = c.docs[:0], false
	}
}

// appendSettings appends a job's start: the wire's version and like's
// settings, the same for every chunk of a Parallel.
func appendSettings(b []byte, like *Reader) []byte {
	b = append(b, wireVersion)
	b = appendString(b, like.format)
	b = append(b, byte(like.state))
	b = appendString(b, like.csvRemedy)
	b = appendBool(b, like.pages)
	b = appendBool(b, like.careful)
	unseen := make([]string, 0, len(like.unseen))
	for name := range like.unseen {
		unseen = append(unseen, name)
	}
	slices.Sort(unseen)
	b = binary.AppendUvarint(b, uint64(len(unseen)))
	for _, name := range unseen {
		b = appendString(b, name)
	}
	return b
}

// appendJob appends the rest of the job of reading data, which starts at
// at, with proj, to its start (appendSettings).
func appendJob(b []byte, proj *projection, at cursor, data []byte) []byte {
	for _, v := range [...]int64{at.offset, at.lineStart, at.crEnd, at.bomEnd, at.spaceFrom, int64(at.line)} {
		b = binary.AppendVarint(b, v)
	}
	if proj == nil {
		b = append(b, 0)
	} else {
		b = append(append(b, 1), proj.wire...)
	}
	return append(b, data...)
}

// appendPaths appends paths as a job holds them.
func appendPaths(b []byte, paths [][]string) []byte {
	b = binary.AppendUvarint(b, uint64(len(paths)))
	for _, p := range paths {
		b = binary.AppendUvarint(b, uint64(len(p)))
		for _, name := range p {
			b = appendString(b, name)
		}
	}
	return b
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// A ChunkReader reads the chunks of jobs, in the Web Worker a ReadChunk
// hands them to. Its memory serves every job; it is not safe for
// concurrent use.
type ChunkReader struct {
	c      chunk
	wire   []byte      // the paths proj was made from
	proj   *projection // the last job's
	answer []byte
}

// errJob is the error of a job that does not decode.
var errJob = errors.New("ingest: a chunk's job does not decode")

// Read reads the chunk of job and returns the answer, valid until the
// next Read.
func (cr *ChunkReader) Read(job []byte) ([]byte, error) {
	d := wire{b: job}
	if d.byte() != wireVersion {
		return nil, errors.New("ingest: a chunk's job of another version of pkcalc")
	}
	like := &Reader{format: d.string(), state: state(d.byte()), csvRemedy: d.string(), pages: d.bool(), careful: d.bool()}
	if like.state != stTop && like.state != stArray {
		return nil, errJob
	}
	if n := d.count(); n > 0 {
		like.unseen = make(map[string]struct{}, n)
		for range n {
			like.unseen[d.string()] = struct{}{}
		}
	}
	var at cursor
	at.offset, at.lineStart, at.crEnd, at.bomEnd, at.spaceFrom = d.varint(), d.varint(), d.varint(), d.varint(), d.varint()
	at.line = int(d.varint())
	proj := (*projection)(nil)
	if d.bool() {
		proj = cr.projection(&d)
	}
	if d.bad {
		return nil, errJob
	}
	c := &cr.c
	*c = chunk{data: d.b, at: at, whole: true, docs: c.docs[:0], mem: c.mem, parsed: make(chan struct{})}
	c.read(like, proj)
	cr.answer = c.appendAnswer(cr.answer[:0])
	return cr.answer, nil
}

// projection reads a job's paths and returns their projection, the last
// job's when they are the same.
func (cr *ChunkReader) projection(d *wire) *projection {
	start := d.b
	paths := make([][]string, d.count())
	for i := range paths {
		paths[i] = make([]string, d.count())
		for j := range paths[i] {
			paths[i][j] = d.string()
		}
	}
	if d.bad {
		return nil
	}
	given := start[:len(start)-len(d.b)]
	if cr.proj == nil || string(given) != string(cr.wire) {
		var r Reader
		r.Project(paths)
		cr.proj, cr.wire = r.proj, slices.Clone(given)
	}
	return cr.proj
}

// appendAnswer appends the chunk's answer, once read.
func (c *chunk) appendAnswer(b []byte) []byte {
	b = append(b, wireVersion)
	b = appendBool(b, c.clean)
	if !c.clean {
		return append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(c.docs)))
	for _, d := range c.docs {
		for _, v := range [...]int{d.Index, d.Line, int(d.Offset), d.Bytes} {
			b = binary.AppendUvarint(b, uint64(v))
		}
		b = appendValue(b, &d.Root)
	}
	return b
}

func appendValue(b []byte, v *jsontree.Value) []byte {
	b = append(b, byte(v.Kind))
	switch v.Kind {
	case jsontree.Bool:
		b = appendBool(b, v.Bool)
	case jsontree.Number:
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Num))
		b = appendString(b, v.Str)
	case jsontree.String:
		b = appendString(b, v.Str)
	case jsontree.Object:
		b = binary.AppendUvarint(b, uint64(len(v.Members)))
		for i := range v.Members {
			b = appendString(b, v.Members[i].Key)
			b = appendValue(b, &v.Members[i].Value)
		}
	case jsontree.Array:
		b = binary.AppendUvarint(b, uint64(len(v.Elems)))
		for i := range v.Elems {
			b = appendValue(b, &v.Elems[i])
		}
	}
	return b
}

// decode reads the chunk's documents from an answer, into its memory, and
// says whether the answer decoded and the chunk read cleanly.
func (c *chunk) decode(answer []byte) bool {
	d := wire{b: answer, budget: len(answer)}
	if d.byte() != wireVersion || !d.bool() {
		return false
	}
	n := d.values()
	for i := range n {
		doc := c.mem.doc()
		*doc = Document{Index: d.int(), Line: d.int(), Offset: int64(d.int()), Bytes: d.int()}
		c.value(&d, &doc.Root, 0)
		// An answer that decodes but is not of this chunk is no answer.
		if d.bad || doc.Index != i+1 || doc.Root.Kind != jsontree.Object ||
			doc.Offset < c.at.offset || doc.Offset >= c.after.offset {
			return false
		}
		c.docs = append(c.docs, doc)
	}
	c.clean = !d.bad && len(d.b) == 0
	return c.clean
}

// value decodes a value into v, at the given depth.
func (c *chunk) value(d *wire, v *jsontree.Value, depth int) {
	*v = jsontree.Value{Kind: jsontree.Kind(d.byte())}
	switch v.Kind {
	case jsontree.Null:
	case jsontree.Bool:
		v.Bool = d.bool()
	case jsontree.Number:
		v.Num = math.Float64frombits(d.uint64())
		v.Str = d.string()
	case jsontree.String:
		v.Str = c.text(d.bytes())
	case jsontree.Object:
		n := d.values()
		if depth == maxWireDepth {
			d.bad = true
			return
		}
		v.Members = c.members(n)
		for i := range v.Members {
			v.Members[i].Key = c.text(d.bytes())
			c.value(d, &v.Members[i].Value, depth+1)
		}
	case jsontree.Array:
		n := d.values()
		if depth == maxWireDepth {
			d.bad = true
			return
		}
		v.Elems = make([]jsontree.Value, n)
		for i := range v.Elems {
			c.value(d, &v.Elems[i], depth+1)
		}
	default:
		d.bad = true
	}
}

// members is room for an object's n members: in the chunk's arenas under
// a projection, where the chunk's memory is used again; the Reader makes
// the members of a value projected whole on their own, which nothing
// past the next document keeps either way.
func (c *chunk) members(n int) []jsontree.Member {
	if n == 0 {
		return nil
	}
	if c.proj == nil || n > keptMembers {
		return make([]jsontree.Member, n)
	}
	return c.mem.members(n)
}

// text is a name's or a string value's text: short ones from the chunk's
// recentTexts, as the Reader keeps them.
func (c *chunk) text(b []byte) string {
	if c.recent == nil {
		c.recent = new(recentTexts)
	}
	return c.recent.text(b)
}

// wire reads a job or an answer; past the first thing that does not
// decode, bad is set and every read gives zero.
type wire struct {
	b      []byte
	bad    bool
	budget int // values an answer may still hold: each takes a byte at least
}

func (d *wire) byte() byte {
	if len(d.b) == 0 {
		d.bad = true
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *wire) bool() bool { return d.byte() == 1 }

func (d *wire) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.bad, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

// varint is binary.AppendVarint's: zig-zag over uvarint.
func (d *wire) varint() int64 {
	u := d.uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

func (d *wire) int() int {
	v := d.uvarint()
	if v > 1<<52 {
		d.bad = true
	}
	return int(v)
}

// count is a number of things to follow, each at least a byte.
func (d *wire) count() int {
	v := d.uvarint()
	if v > uint64(len(d.b)) {
		d.bad, d.b = true, nil
		return 0
	}
	return int(v)
}

// values is a number of values to follow, within the answer's budget,
// so that garbage cannot make the engine allocate more than it holds.
func (d *wire) values() int {
	n := d.count()
	if d.budget -= n; d.budget < 0 {
		d.bad, d.b = true, nil
		return 0
	}
	return n
}

func (d *wire) uint64() uint64 {
	if len(d.b) < 8 {
		d.bad, d.b = true, nil
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b)
	d.b = d.b[8:]
	return v
}

func (d *wire) bytes() []byte {
	n := d.count()
	s := d.b[:n]
	d.b = d.b[n:]
	return s
}

func (d *wire) string() string { return string(d.bytes()) }
