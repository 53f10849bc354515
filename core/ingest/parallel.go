package ingest

// Reading JSON Lines and JSON arrays on several goroutines.
//
// Past the first documents a Reader of JSON Lines or of a JSON array can
// hand the rest of its input to a Parallel, which cuts it into chunks of a
// megabyte at line ends (an array's between its elements: elementCut) and
// reads each chunk on a goroutine of its own with a Reader of the chunk,
// then returns the documents in the input's order, numbered as the
// Reader would number them. A chunk read without an error, a note or a
// change of format is what the Reader would have read, byte for byte; at
// the first chunk that is not, the Reader itself reads on from that
// chunk's start, as it would have read it. So the documents, errors and
// notes are the same for any number of goroutines and any chunk size, and
// only a clean input is read in parallel. In the browser, where the
// engine has one thread, the chunks are read by other Web Workers instead
// (ParallelElsewhere, elsewhere.go), to the same end.
//
// The chunks in flight are at most 2 × workers + 2, and never more than
// maxInFlight, so memory is bounded by the chunk size, not by the input or
// the number of cores. Under a projection a chunk's memory (its input, its
// Documents and their projected members) is used again by a later chunk
// once Next has returned all its documents, as the Reader reuses its one
// Document: little is left for the garbage collector, which would
// otherwise stop every goroutine to mark a chunk's worth of documents
// each time.

import (
	"bytes"
	"io"
	"maps"
	"sync"
	"sync/atomic"

	"github.com/pkcalc/pkcalc/core/jsontree"
)

// chunkBytes is the size of a chunk, before it is extended to the end of
// its last line. It does not depend on the number of workers.
var chunkBytes = 1 << 20 // a variable for tests only

// maxInFlight is the most chunks read or waiting at once: each holds its
// megabyte of input and its documents, projected or, before Project (the
// window of the analysis), whole: some 7 MB for the built-in orders. The
// analysis of the 100 MB set peaked at 150 MB of RSS on one goroutine,
// 197 MB on two (6 chunks) and 365 MB on eight (18); with a bound of 32,
// 571 MB on fifteen, with this one 346 to 379 MB on 8, 15 or 32. 18 keeps
// eight goroutines busy, more than the cores of the machines pkcalc is
// for, and holds the peak there on any number.
const maxInFlight = 18

// Parallel reads the rest of a Reader's input on several goroutines; see
// the comment at the top of this file. Next, Format and Offset are the
// Reader's.
type Parallel struct {
	r     *Reader
	order chan *chunk                // every chunk cut, in input order; closed by the splitter
	spare chan *chunk                // chunks returned whole, whose memory the splitter takes again
	stop  chan struct{}              // closed to make the splitter give up
	slots chan struct{}              // a token for each chunk in flight
	rest  io.Reader                  // the input the splitter has not cut, once it has ended
	proj  atomic.Pointer[projection] // the Reader's, for the chunks read from now on
	err   error                      // the input's read error, once the splitter has ended
	cut   func([]byte) int           // where a chunk of this format may end: lineCut or elementCut

	cur    *chunk
	next   int    // cur.docs[next] is returned next
	docs   int    // documents numbered before cur
	at     cursor // where the chunk after cur starts
	seq    bool   // the Reader reads on
	offset int64
}

// chunk is a piece of the input from a line's start to just past a line
// end (or to the end of the input).
type chunk struct {
	data   []byte
	at     cursor
	after  cursor        // where the next one starts
	parsed chan struct{} // closed once read
	docs   []*Document   // as its Reader numbered them, from 1
	clean  bool          // read with no error, note or change of format
	whole  bool          // it ends where a chunk may: its format's cut (Parallel.cut) or the input's end
	proj   *projection   // what it was read with
	mem    kept          // its documents' memory
	alone  bool          // the only chunk: read here, where a helper would first have to start
	job    []byte        // what it was sent as, read elsewhere (elsewhere.go)
	recent *recentTexts  // the short texts it decoded
}

// kept is the memory of a chunk's documents (Reader.keep): each document
// gets a Document and projected members of its own, which outlive the
// next document, taken in turn from blocks that a later chunk fills again.
//
//	0 <= docs <= keptDocs × len(blocks)
//	0 <= arenas <= len(arenaList)
//	0 <= used <= keptMembers
type kept struct {
	blocks    [][]Document        // of keptDocs each
	docs      int                 // Documents given out
	arenaList [][]jsontree.Member // of keptMembers capacity each
	arenas    int                 // arenas given out
	used      int                 // members the last arena has given out (members)
}

// keptDocs and keptMembers size kept's blocks: a megabyte of orders is
// 3,400 documents of about 30 projected members each.
const (
	keptDocs    = 256
	keptMembers = 4096
)

// doc is a Document for the next document.
func (k *kept) doc() *Document {
	b, i := k.docs/keptDocs, k.docs%keptDocs
	if b == len(k.blocks) {
		k.blocks = append(k.blocks, make([]Document, keptDocs))
	}
	k.docs++
	return &k.blocks[b][i]
}

// arena is the projected members' arena for the next document after a
// document read into a: the rest of a, whose members the earlier
// documents keep, or the next arena when little is left.
func (k *kept) arena(a []jsontree.Member) []jsontree.Member {
	if cap(a)-len(a) >= 64 {
		return a[len(a):len(a)]
	}
	if k.arenas == len(k.arenaList) {
		k.arenaList = append(k.arenaList, make([]jsontree.Member, 0, keptMembers))
	}
	k.arenas++
	return k.arenaList[k.arenas-1][:0]
}

// members is n members, n <= keptMembers, from the last arena given out
// or the next one, for an object decoded (elsewhere.go).
func (k *kept) members(n int) []jsontree.Member {
	if k.arenas == 0 || k.used+n > keptMembers {
		if k.arenas == len(k.arenaList) {
			k.arenaList = append(k.arenaList, make([]jsontree.Member, 0, keptMembers))
		}
		k.arenas++
		k.used = 0
	}
	m := k.arenaList[k.arenas-1][k.used : k.used+n : k.used+n]
	k.used += n
	return m
}

// reset gives every Document and arena out again.
func (k *kept) reset() { k.docs, k.arenas, k.used = 0, 0, 0 }

// cursor is where a chunk starts: what the Reader's position is there.
type cursor struct {
	offset, lineStart, crEnd, bomEnd, spaceFrom int64
	line                                        int
}

// Parallel returns a Parallel reading the rest of r's input on workers
// goroutines, or false where that cannot be done as r would read it: an
// input that is neither JSON Lines nor a JSON array of documents (a table,
// a wrapper's array, pages), a Reader within a document, or one that has
// met the end of its input with an error. r must not be used directly
// afterwards. A Reader knows its format once it has returned a second
// document, so callers ask from then on.
func (r *Reader) Parallel(workers int) (*Parallel, bool) {
	return r.parallel(workers, nil)
}

// parallel is Parallel, each chunk read by read where it is not nil
// (ParallelElsewhere).
func (r *Reader) parallel(workers int, read ReadChunk) (*Parallel, bool) {
	if workers < 2 || r.done || r.readErr != nil || len(r.pending) > 0 || r.pendingErr != nil ||
		r.table != nil || r.cut.on || r.carry != nil || !r.read {
		return nil, false
	}
	var cut func([]byte) int
	switch {
	case r.format == "JSON Lines" && r.state == stTop:
		cut = lineCut
	case r.format == "JSON array" && r.state == stArray && r.headerAt == nil && !r.pages:
		cut = elementCut
		if r.docLine > 1 && r.docLine == r.line {
			// The last document had a line of its own: one a line, as
			// mongoexport --jsonArray writes them.
			cut = elementLineCut
		}
	default:
		return nil, false
	}
	// The bytes r has buffered and not read come first.
	rest := io.Reader(bytes.NewReader(bytes.Clone(r.buf[r.pos:r.end])))
	if !r.eof {
		rest = io.MultiReader(rest, r.src)
	}
	flight := min(2*workers+2, maxInFlight)
	p := &Parallel{
		r:     r,
		order: make(chan *chunk, flight),
		spare: make(chan *chunk, flight),
		stop:  make(chan struct{}),
		slots: make(chan struct{}, flight),
		cut:   cut,
		docs:  r.docs,
		at:    cursor{offset: r.Offset(), lineStart: r.lineStart, crEnd: r.crEnd, bomEnd: r.bomEnd, spaceFrom: r.spaceFrom, line: r.line},
	}
	at := p.at
	jobs := make(chan *chunk, flight)
	// The workers read r's settings from a copy: once a chunk is not
	// clean, r reads on while workers may still be finishing theirs. The
	// projection, which Project may change, is read chunk by chunk.
	like := &Reader{format: r.format, state: r.state, csvRemedy: r.csvRemedy, pages: r.pages, careful: r.careful,
		unseen: maps.Clone(r.unseen)}
	var settings []byte // like's, as a job read elsewhere starts
	if read != nil {
		settings = appendSettings(nil, like)
	}
	p.proj.Store(r.proj)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range jobs {
				select {
				case <-p.stop: // Next has given up the chunks
					close(c.parsed)
				default:
					if read != nil && !c.alone {
						c.readElsewhere(settings, p.proj.Load(), read)
					} else {
						c.read(like, p.proj.Load())
					}
				}
			}
		}()
	}
	go p.split(rest, at, jobs)
	return p, true
}

// split cuts the input into chunks and hands each to the workers and to
// Next, in order, until the input ends or Next gives up.
func (p *Parallel) split(src io.Reader, at cursor, jobs chan<- *chunk) {
	defer close(p.order)
	defer close(jobs)
	var carry []byte // the start of the next chunk, read with the last
	for first := true; ; first = false {
		select {
		case <-p.stop:
			p.rest = io.MultiReader(bytes.NewReader(carry), src)
			return
		default:
		}
		select {
		case p.slots <- struct{}{}:
		case <-p.stop:
			p.rest = io.MultiReader(bytes.NewReader(carry), src)
			return
		}
		c := p.take()
		data, err := fill(src, carry, c.data[:0])
		if err != nil && err != io.EOF {
			p.err = err
		}
		if len(data) == 0 {
			p.rest = bytes.NewReader(nil)
			return
		}
		cut, whole := len(data), true
		if err == nil {
			if cut = p.cut(data); cut == 0 {
				// Nowhere to end (a line longer than a chunk, lines that
				// end at a lone CR, an element longer than a chunk): the
				// Reader reads on from here.
				cut, whole = len(data), false
			}
		}
		c.data, c.at, c.whole = data[:cut], at, whole
		c.alone = first && err != nil
		carry = bytes.Clone(data[cut:])
		at = next(at, c.data)
		c.after = at
		jobs <- c
		p.order <- c
		if err != nil {
			p.rest = bytes.NewReader(carry)
			return
		}
	}
}

// take is a chunk to fill: a spare one, or a new one.
func (p *Parallel) take() *chunk {
	var c *chunk
	select {
	case c = <-p.spare:
		*c = chunk{data: c.data, docs: c.docs[:0], mem: c.mem, job: c.job, recent: c.recent}
	default:
		c = new(chunk)
	}
	c.parsed = make(chan struct{})
	return c
}

// fill reads chunkBytes of src after carry, or to the end of the input,
// into buf if it has the room. A buffer it makes has room for a longer
// carry too, so that a chunk's buffer serves the chunks after it.
func fill(src io.Reader, carry, buf []byte) ([]byte, error) {
	want := len(carry) + chunkBytes
	if cap(buf) < want {
		buf = make([]byte, 0, want+chunkBytes/16)
	}
	data := append(buf[:0], carry...)
	for len(data) < want {
		n, err := src.Read(data[len(data):want])
		data = data[:len(data)+n]
		if err != nil {
			return data, err
		}
	}
	return data, nil
}

// lineCut is where a chunk of JSON Lines ends: past its last line end,
// or 0 for none.
func lineCut(data []byte) int { return bytes.LastIndexByte(data, '\n') + 1 }

// elementCut is where a chunk of a JSON array ends: just past the last
// comma between elements, found by following strings and nesting from the
// chunk's start, which is between elements; 0 for none. Text that is not
// JSON may mislead it: the chunk it ends then reads with an error, and the
// Reader reads on from there. A chunk read cleanly from between elements
// ends between elements, so only right cuts are ever used.
func elementCut(data []byte) int {
	cut, depth := 0, 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			if i = stringEnd(data, i+1); i < 0 {
				return cut
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth < 0 {
				return cut // the array's end: the Reader reads it
			}
		case ',':
			if depth == 0 {
				cut = i + 1
			}
		}
	}
	return cut
}

// stringEnd is the index of the quote that ends the string whose text
// starts at b[i], or -1 where b ends first.
func stringEnd(b []byte, i int) int {
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		j += i
		k := j // the quote is escaped by an odd run of backslashes
		for k > i && b[k-1] == '\\' {
			k--
		}
		if (j-k)%2 == 0 {
			return j
		}
		i = j + 1
	}
}

// elementLineCut is elementCut for an array of one element a line: past
// the last line end after a comma, without following the elements; where
// there is none, elementCut. A line end after a comma within an element
// misleads it only as text that is not JSON misleads elementCut.
func elementLineCut(data []byte) int {
	for end := len(data); ; {
		i := bytes.LastIndexByte(data[:end], '\n')
		if i < 0 {
			return elementCut(data)
		}
		if j := len(bytes.TrimRight(data[:i], " \t\r")); j > 0 && data[j-1] == ',' {
			return i + 1
		}
		end = i
	}
}

// next is the cursor just past b, which starts at at and ends at a line
// end or, in a JSON array, just past the comma after an element, as the
// Reader counts lines: at LF, at CRLF and at a lone CR.
func next(at cursor, b []byte) cursor {
	lines := bytes.Count(b, []byte{'\n'})
	for i := bytes.IndexByte(b, '\r'); i >= 0; {
		if i+1 < len(b) && b[i+1] != '\n' {
			lines++
		}
		j := bytes.IndexByte(b[i+1:], '\r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	end := at.offset + int64(len(b))
	// A chunk of a JSON array may end within a line.
	lineStart := at.lineStart
	if i := bytes.LastIndexAny(b, "\n\r"); i >= 0 {
		lineStart = at.offset + int64(i) + 1
	}
	// The white space before the next chunk began where b's trailing
	// white space does (skipSpaces).
	ws := len(b)
	for ws > 0 && isSpace(b[ws-1]) {
		ws--
	}
	space := at.offset + int64(ws)
	if ws == 0 {
		space = at.spaceFrom
	}
	return cursor{offset: end, lineStart: lineStart, crEnd: -1, bomEnd: -1, spaceFrom: space, line: at.line + lines}
}

// read reads the chunk with a Reader of like's settings and projection
// proj, set where the chunk starts, and says whether it read it cleanly.
func (c *chunk) read(like *Reader, proj *projection) {
	defer close(c.parsed)
	c.proj = proj
	c.mem.reset()
	if !c.whole {
		return
	}
	r := &Reader{
		buf: c.data, end: len(c.data), base: c.at.offset, eof: true,
		line: c.at.line, lineStart: c.at.lineStart, crEnd: c.at.crEnd, bomEnd: c.at.bomEnd, spaceFrom: c.at.spaceFrom,
		format: like.format, state: like.state, values: 2, read: true,
		csvRemedy: like.csvRemedy, pages: like.pages, proj: proj, careful: like.careful,
		keys: make(map[string]string), unseen: maps.Clone(like.unseen), keep: &c.mem,
	}
	for {
		if r.state == stArray && !r.done && r.pendingErr == nil && len(bytes.TrimLeft(r.buf[r.pos:r.end], " \t\r\n")) == 0 {
			break // the chunk ends after an element's comma
		}
		d, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil || len(d.Notes) > 0 || r.state != like.state {
			// An array's end is the Reader's to read, with what follows.
			c.docs = c.docs[:0]
			return
		}
		c.docs = append(c.docs, d)
	}
	c.clean = r.format == like.format
}

// Next returns the next document, as the Reader's Next.
func (p *Parallel) Next() (*Document, error) {
	for !p.seq {
		if p.cur != nil && p.next < len(p.cur.docs) {
			d := p.cur.docs[p.next]
			p.next++
			d.Index += p.docs
			p.offset = d.Offset
			return d, nil
		}
		if p.cur != nil {
			p.docs += len(p.cur.docs)
			p.at = p.cur.after
			p.recycle(p.cur)
			p.cur = nil
			<-p.slots
		}
		c, ok := <-p.order
		if !ok {
			p.resume(nil, p.rest)
			break
		}
		<-c.parsed
		if !c.clean {
			p.resume(c, nil)
			break
		}
		p.cur, p.next = c, 0
	}
	return p.r.Next()
}

// recycle hands a chunk whose documents have all been returned, and are
// done with, to the splitter to fill again: under a projection, as the
// Reader reuses its Document; otherwise its documents are the caller's.
func (p *Parallel) recycle(c *chunk) {
	if c.proj == nil {
		return
	}
	select {
	case p.spare <- c:
	default:
	}
}

// resume makes the Reader read on from chunk c's start (or from the end of
// the chunks, at rest), with the input from there on.
func (p *Parallel) resume(c *chunk, rest io.Reader) {
	p.seq = true
	r, at := p.r, p.at
	if c != nil {
		// Give up the chunks after it; their input is read again.
		close(p.stop)
		parts := []io.Reader{bytes.NewReader(c.data)}
		for d := range p.order {
			parts = append(parts, bytes.NewReader(d.data))
		}
		parts = append(parts, p.rest)
		rest, at = io.MultiReader(parts...), c.at
	}
	if p.err != nil {
		rest = io.MultiReader(rest, errReader{p.err})
	}
	r.src, r.buf, r.pos, r.end, r.base, r.eof = rest, make([]byte, 64<<10), 0, 0, at.offset, false
	r.line, r.lineStart, r.crEnd, r.bomEnd, r.spaceFrom = at.line, at.lineStart, at.crEnd, at.bomEnd, at.spaceFrom
	r.docs = p.docs
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// Project makes the documents of the chunks read from now on keep only
// paths, as the Reader's Project does. The documents of the chunks read
// before, at most the chunks in flight, are returned as they were read:
// whole, or under the projection before, a superset of paths.
func (p *Parallel) Project(paths [][]string) {
	p.r.Project(paths)
	p.proj.Store(p.r.proj)
}

// Format is the Reader's.
func (p *Parallel) Format() string { return p.r.Format() }

// Offset is the input consumed so far, to the start of the last document
// returned while chunks are read in parallel.
func (p *Parallel) Offset() int64 {
	if p.seq {
		return p.r.Offset()
	}
	return p.offset
}
