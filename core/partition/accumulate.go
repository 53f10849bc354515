// Package partition groups documents into the logical partitions a key
// gives them, places those on physical partitions exactly as Cosmos DB does
// (by effective partition key), and measures the result: sizes and skew,
// missing and oversized key values, monotonic keys, write spread over time,
// growth to a target scale, and the load a workload puts on each partition.
//
// An Accumulator takes documents (or per-key aggregates) one at a time and
// keeps one entry per distinct key value up to a limit, after which it keeps
// bounded sketches and says which figures are estimates. It counts documents
// in batches, in order, optionally on a goroutine of its own
// (Options.Background). The EPK of each
// value kept exactly is computed once, at Finish; past the limit only the
// first digits, per document. Scoring and advice are
// package advisor's.
package partition

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/cespare/xxhash/v2"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/sketch"
)

// Key value size limits (docs: concepts-limits).
const (
	MaxKeyBytes   = 2048 // hash V2
	MaxKeyBytesV1 = 101  // hash V1 (no large partition keys)
	v1Chars       = 100  // V1 hashes only the first 100 characters of a string
)

// HashedDocuments is how many documents, the first counted, have their key
// value's hash kept in order (Distribution.ValueHashes), so that a caller
// can tell which share a logical partition, as two items with one id must
// not: 8 bytes a document, 800 KB a key at most.
const HashedDocuments = 100_000

// Options configure an Accumulator.
type Options struct {
	Version     epk.Version // hash version of a hash or synthetic key; MultiHash is always V2
	MaxDistinct int         // distinct key values kept exactly; default 50,000
	TimePath    []string    // a field holding each document's time, for monotonicity and write spread; nil if none
	WeightPath  []string    // a numeric field weighting each document's requests; nil to weigh documents equally
	// NewValuePaths are paths whose values keep coming as the data grows
	// (customers, tenants, devices the input has not met yet): a key on
	// one of them, or on the time field, grows by new values, each value
	// keeping the documents it has (Distribution.NewValueShare).
	NewValuePaths [][]string
	Samples       int // documents kept in the reservoir sample; default 20,000
	// CountOnly counts documents by value and nothing else: no reservoir
	// sample (no monotonicity or write spread) and no value hashes, some
	// 2 MB a key on 100,000 documents. For a grouping that only answers
	// how many documents a value has (Distribution.Matches).
	CountOnly bool
	// Background counts the documents on a goroutine of the Accumulator's
	// own, a batch at a time, while the caller reads on: on a machine with
	// several cores, reading and the keys' counting overlap. Finish must
	// then be called, to end the goroutine.
	Background bool
}

func (o *Options) defaults() {
	if o.Version != epk.V1 {
		o.Version = epk.V2
	}
	if o.MaxDistinct <= 0 {
		// Enough to be exact for most samples; past it memory stays flat,
		// which matters in a browser tab measuring a dozen keys at once.
		o.MaxDistinct = 50_000
	}
	if o.Samples <= 0 {
		o.Samples = 20_000
	}
}

// Accumulator gathers one candidate key's logical partitions.
type Accumulator struct {
	spec key.Spec
	opts Options

	groups groupList
	index  index // xxhash of a key value -> first group in its chain

	docs, bytes      int64
	missing, invalid int64
	notTime          int64  // documents whose time-bucket term holds no time (key.NotTime)
	notTimeExample   string // the first such value, as JSON text
	weighted         bool   // requests were given (aggregates or a weight field)

	// Past MaxDistinct new values go to sketches instead of groups.
	known    filter // the exact values' hashes, once they are all known
	distinct *sketch.HLL
	heavy    *sketch.TopK[[]epk.Value]
	overflow overflow

	keyMax       int   // longest key value, in bytes
	over, overV1 int64 // documents whose key exceeds the V2 / V1 limits
	imprecise    int64 // documents whose key holds a number of 2^53 or more (ImpreciseNumbers)
	samples      []Sample
	copied       []bool                        // by sample: its Values are a copy of its own
	seen         int64                         // documents counted, which orders them
	rng          rand.PCG                      // the reservoir's draws (draw)
	cur          batch                         // documents read but not yet counted
	work         chan batch                    // to the background goroutine, if any
	spare        chan batch                    // from it, counted batches to fill again
	done         chan struct{}                 // closed when it has counted its last batch
	pending      []epk.Value                   // the value being added, for copy
	hashes       []uint64                      // the first HashedDocuments documents' value hashes
	kept         []epk.Value                   // the current chunk of the groups' values (keep)
	text         []byte                        // the current chunk of their strings' text (keepText)
	copy         func([]epk.Value) []epk.Value // copyPending, made once
	same         *sameStrings                  // for a key of one path, until it passes the exact limit
}

type group struct {
	hash        uint64 // of values, by hashValues
	values      []epk.Value
	docs, bytes int64
	requests    float64
	first, last int64
	next        int32 // next group with the same hash, or -1
}

// groupList holds groups in chunks: grown by appending, one array of
// tens of thousands of them was copied, and its successor zeroed, at every
// doubling. The first chunk grows, so that a key of a few values takes
// little; the others are allocated whole.
type groupList struct {
	chunks [][]group
	n      int
}

const groupChunk = 4096 // groups in a chunk, a power of two

func (l *groupList) at(i int32) *group { return &l.chunks[i/groupChunk][i%groupChunk] }

// add appends a zero group and returns it and its index.
func (l *groupList) add() (*group, int32) {
	c := l.n / groupChunk
	if c == len(l.chunks) {
		n := groupChunk
		if c == 0 {
			n = 16
		}
		l.chunks = append(l.chunks, make([]group, 0, n))
	}
	l.chunks[c] = append(l.chunks[c], group{})
	l.n++
	return &l.chunks[c][len(l.chunks[c])-1], int32(l.n - 1)
}

// overflow is what is known of key values past the exact limit: their
// documents and bytes by EPK bucket, so they can still be placed.
type overflow struct {
	docs, bytes int64
	requests    float64
	// By EPK prefix, as a number: V2 and MultiHash prefixes (16 bits, the
	// top two clear) index dense; V1's 32-bit prefixes go to a map.
	dense   []bucket
	buckets map[uint32]*bucket
	pending []pendingBucket // to add to dense (countBuckets)
}

type pendingBucket struct {
	prefix      uint16
	docs, bytes int64
	requests    float64
}

type bucket struct {
	docs, bytes int64
	requests    float64
}

// Sample is one document of the reservoir sample: its position, key value
// and time. Monotonicity and write spread are measured on the sample, which
// holds every document when there are fewer than Options.Samples.
type Sample struct {
	Order  int64
	Values []epk.Value
	Time   float64 // seconds since 1970; NaN when the document has none
	hash   uint64  // of Values, by hashValues, as the document was counted
}

// New returns an Accumulator for spec.
func New(spec key.Spec, opts Options) *Accumulator {
	opts.defaults()
	if spec.Kind == key.MultiHash {
		opts.Version = epk.V2
	}
	a := &Accumulator{
		spec: spec,
		opts: opts,
		// A fixed seed keeps reports byte-for-byte reproducible.
		rng:      *rand.NewPCG(0x706b63616c63, uint64(len(spec.String()))),
		weighted: opts.WeightPath != nil,
	}
	if spec.Kind == key.Hash && len(spec.Paths) == 1 {
		a.same = new(sameStrings)
	}
	if opts.Background {
		a.work = make(chan batch, 1)
		a.spare = make(chan batch, 1)
		a.spare <- batch{}
		a.done = make(chan struct{})
		go a.background()
	}
	return a
}

// Spec returns the key being measured.
func (a *Accumulator) Spec() key.Spec { return a.spec }

// Facts are what an Accumulator needs of a document besides its key value.
// They are the same for every key, so a caller measuring many keys reads
// them once per document (ReadFacts) and passes them to AddFacts.
type Facts struct {
	Time   float64 // seconds since 1970; NaN when the document has none
	Weight float64 // request weight; 1 when requests are not weighted
}

// ReadFacts reads a document's time and weight from the given paths (nil
// for none).
func ReadFacts(d *ingest.Document, timePath, weightPath []string) Facts {
	var at, weight *jsontree.Value
	if timePath != nil {
		at = key.Lookup(&d.Root, timePath)
	}
	if weightPath != nil {
		weight = key.Lookup(&d.Root, weightPath)
	}
	return FactsOf(at, weight, weightPath != nil)
}

// FactsOf is ReadFacts given the values at the time and weight paths, nil
// for a missing one (or for no path); weighted says whether there is a
// weight path.
func FactsOf(at, weight *jsontree.Value, weighted bool) Facts {
	f := Facts{Time: math.NaN(), Weight: 1}
	if weighted {
		f.Weight = 0
		if weight != nil && weight.Kind == jsontree.Number && weight.Num > 0 {
			f.Weight = weight.Num
		}
	}
	// 1970-01-01T00:00:00Z exactly is what a time never set is written
	// as: sixteen MovieLens ratings at 0 stretched the sample's 22 years
	// to 47 and made a bucket of their own. It is no time here; a key's
	// time bucket still reads it, as the application's code would.
	if t, ok := key.Seconds(at); ok && t != 0 {
		f.Time = t
	}
	return f
}

// Add counts one document, reading its facts from Options.TimePath and
// Options.WeightPath.
func (a *Accumulator) Add(d *ingest.Document) {
	a.AddFacts(d, ReadFacts(d, a.opts.TimePath, a.opts.WeightPath))
}

// AddFacts counts one document whose facts are already read.
//
// Its key value is only read here and counted with a batch of later ones
// (see count): a caller measuring ten keys would otherwise interleave ten
// keys' tables, and each document would find the previous key's tables in
// the cache instead of its own.
func (a *Accumulator) AddFacts(d *ingest.Document, f Facts) {
	n := len(a.cur.values)
	vals, st := a.spec.Extract(&d.Root, a.cur.values)
	if st == key.NotTime && a.notTimeExample == "" {
		var read [8]*jsontree.Value
		r := read[:0]
		for _, p := range a.spec.Paths {
			r = append(r, key.Lookup(&d.Root, p))
		}
		a.noteNotTime(r)
	}
	a.stage(vals, n, st, d.Bytes, f)
}

// noteNotTime keeps the value that is not a time of a document whose key
// is key.NotTime, the first one, to show in the report.
func (a *Accumulator) noteNotTime(read []*jsontree.Value) {
	if v := a.spec.NotTimeValue(read); v != nil {
		text := v.JSON()
		if len(text) > 60 {
			cut := 60
			for cut > 0 && !utf8.RuneStart(text[cut]) {
				cut--
			}
			text = text[:cut] + "…"
		}
		a.notTimeExample = text
	}
}

// AddValues is AddFacts given, instead of the document, its values at the
// key's paths (key.Spec.ExtractFrom) and its size: a caller measuring keys
// that share paths looks each up once per document.
func (a *Accumulator) AddValues(read []*jsontree.Value, bytes int, f Facts) {
	n := len(a.cur.values)
	vals, st := a.spec.ExtractFrom(read, a.cur.values)
	if st == key.NotTime && a.notTimeExample == "" {
		a.noteNotTime(read)
	}
	a.stage(vals, n, st, bytes, f)
}

// stage adds a document whose key value is vals[n:] to the current batch.
func (a *Accumulator) stage(vals []epk.Value, n int, st key.Status, bytes int, f Facts) {
	a.cur.values = vals
	// Written in place, field by field: a struct built aside and copied in
	// is read back in wider words than it was written, which stalls (here
	// and for other structs written per document in this package).
	docs := slices.Grow(a.cur.docs, 1)
	docs = docs[:len(docs)+1]
	s := &docs[len(docs)-1]
	s.levels, s.status, s.bytes, s.facts = len(vals)-n, st, int64(bytes), f
	a.cur.docs = docs
	if len(docs) == batchSize {
		a.dispatch()
	}
}

// batchSize is the documents a key's batch holds: enough that its tables
// stay in the cache while it is counted, few enough that the values staged
// for ten keys stay there too.
const batchSize = 1024

// batch is documents read but not yet counted.
type batch struct {
	docs   []stagedDoc
	values []epk.Value // their key values, one after another
}

// stagedDoc is a document of a batch.
type stagedDoc struct {
	levels int // of the batch's values, in order
	status key.Status
	bytes  int64
	facts  Facts
}

// dispatch counts the current batch, or hands it to the background
// goroutine and takes a spare one.
func (a *Accumulator) dispatch() {
	if a.work == nil {
		a.drain()
		return
	}
	a.work <- a.cur
	a.cur = <-a.spare
}

// background counts batches until work is closed. Two batches go round:
// one being read while the other is counted.
func (a *Accumulator) background() {
	defer close(a.done)
	for b := range a.work {
		a.count(b)
		a.spare <- batch{b.docs[:0], b.values[:0]}
	}
}

// drain counts every document read so far: it waits for the background
// goroutine, if any, to count what it was given and ends it (from then on
// batches are counted on the caller's goroutine), then counts the current
// batch.
func (a *Accumulator) drain() {
	if a.work != nil {
		close(a.work)
		<-a.done
		a.work = nil
	}
	a.count(a.cur)
	a.cur = batch{a.cur.docs[:0], a.cur.values[:0]}
}

// count counts a batch, in the order its documents came.
func (a *Accumulator) count(b batch) {
	off := 0
	for k := range b.docs {
		s := &b.docs[k] // not a copy: in WebAssembly that is a call
		vals := b.values[off : off+s.levels : off+s.levels]
		off += s.levels
		a.docs++
		a.bytes += s.bytes
		switch s.status {
		case key.Invalid:
			// Cosmos DB rejects such an item: it has no partition.
			a.invalid++
			a.keepHash(0)
			continue
		case key.Missing:
			a.missing++
		case key.NotTime:
			a.notTime++
		}
		a.keepHash(a.add(vals, 1, s.bytes, s.facts.Weight, s.facts.Time, !a.opts.CountOnly))
	}
	a.countBuckets()
}

// keepHash keeps a document's value hash, 0 for none, while fewer than
// HashedDocuments are kept. The slice doubles: append's smaller steps
// past a few hundred entries left five times its size to collect.
func (a *Accumulator) keepHash(h uint64) {
	n := len(a.hashes)
	if n == HashedDocuments || a.opts.CountOnly {
		return
	}
	if n == cap(a.hashes) {
		a.hashes = slices.Grow(a.hashes, min(max(2*n, 1024), HashedDocuments)-n)
	}
	a.hashes = append(a.hashes, h)
}

// AddAggregate counts documents given as a per-key aggregate: values (one
// per level), their documents and bytes, and optionally their requests.
func (a *Accumulator) AddAggregate(values []epk.Value, docs, bytes int64, requests float64) {
	a.drain() // documents counted earlier come first
	if docs <= 0 {
		return
	}
	a.docs += docs
	a.bytes += bytes
	for _, v := range values {
		if v.Kind == epk.Undefined {
			a.missing += docs
			break
		}
	}
	if requests > 0 {
		a.weighted = true
	}
	a.add(values, docs, bytes, requests, math.NaN(), false)
	a.countBuckets()
}

// add counts docs documents of one key value and returns its hash
// (hashValues). Aggregates are not sampled: their rows have no order or
// time to measure.
func (a *Accumulator) add(vals []epk.Value, docs, bytes int64, requests, t float64, sampled bool) uint64 {
	order := a.seen
	a.seen += docs
	a.checkLength(vals, docs)

	var same *sameEntry
	if a.same != nil && len(vals) == 1 && vals[0].Kind == epk.String && len(vals[0].Str) > 0 {
		same = a.same.entry(vals[0].Str)
		if unsafe.StringData(same.s) == unsafe.StringData(vals[0].Str) && len(same.s) == len(vals[0].Str) {
			g := a.groups.at(same.g)
			a.addTo(g, order, docs, bytes, requests, t, sampled)
			return g.hash
		}
	}
	h := hashValues(vals)
	if a.known != nil && !a.known.has(h) {
		// Past the exact limit most values are new, and the filter says so
		// without a cache miss in the large index.
		a.addOverflow(h, vals, docs, bytes, requests)
		if sampled {
			a.sample(order, h, vals, t, true)
		}
		return h
	}
	head := a.index.find(&a.groups, h)
	for i := head; i >= 0; i = a.groups.at(i).next {
		if g := a.groups.at(i); equal(g.values, vals) {
			a.addTo(g, order, docs, bytes, requests, t, sampled)
			if same != nil {
				same.s, same.g = vals[0].Str, i
			}
			return h
		}
	}
	if a.groups.n < a.opts.MaxDistinct {
		own := a.keep(vals)
		g, i := a.groups.add()
		*g = group{hash: h, values: own, docs: docs, bytes: bytes, requests: requests, first: order, last: order, next: head}
		a.index.set(&a.groups, h, i)
		if same != nil {
			same.s, same.g = vals[0].Str, i
		}
		if sampled {
			a.sample(order, h, own, t, false)
		}
		return h
	}
	a.addOverflow(h, vals, docs, bytes, requests)
	if sampled {
		a.sample(order, h, vals, t, true)
	}
	return h
}

// addTo counts docs documents of group g's value, the latest at order.
func (a *Accumulator) addTo(g *group, order, docs, bytes int64, requests, t float64, sampled bool) {
	g.docs += docs
	g.bytes += bytes
	g.requests += requests
	g.last = order
	if sampled {
		a.sample(order, g.hash, g.values, t, false)
	}
}

// sameStrings finds the group of a key of one string level by the memory
// of the string it arrives in. The reader hands out the same string for a
// short value it has just read (ingest's Reader caches them), so a status
// or a region comes as the very string it came in before, and its group is
// found without hashing or comparing its text. Each entry holds its string,
// so that the memory is not reused for another while it is cached.
type sameStrings [256]sameEntry

type sameEntry struct {
	s string
	g int32
}

func (c *sameStrings) entry(s string) *sameEntry {
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	return &c[(p>>4^p>>12)&255]
}

// keep copies a new group's value into the Accumulator's chunk of values,
// and its strings' text into its chunk of text. Carved from chunks, the
// values of tens of thousands of groups take a few allocations instead of
// one each, and lie side by side in memory, where each document's
// comparison finds them in the cache: the text stayed in the documents'
// strings, scattered over the heap, and comparing a document's value with
// its group's was a cache miss.
func (a *Accumulator) keep(vals []epk.Value) []epk.Value {
	if len(a.kept)+len(vals) > cap(a.kept) {
		a.kept = make([]epk.Value, 0, max(1024, len(vals)))
	}
	n := len(a.kept)
	a.kept = append(a.kept, vals...)
	own := a.kept[n:len(a.kept):len(a.kept)]
	for i := range own {
		if v := &own[i]; v.Kind == epk.String && len(v.Str) > 0 {
			v.Str = a.keepText(v.Str)
		}
	}
	return own
}

// keepText copies s into the Accumulator's chunk of text. The text of a
// chunk is never written again, so the strings made over it stay as they
// are; a long one gets memory of its own.
func (a *Accumulator) keepText(s string) string {
	const chunk = 16 << 10
	if len(s) > chunk/16 {
		return strings.Clone(s)
	}
	if len(s) > cap(a.text)-len(a.text) {
		a.text = make([]byte, 0, chunk)
	}
	n := len(a.text)
	a.text = append(a.text, s...)
	return unsafe.String(&a.text[n], len(s))
}

// addOverflow counts a value past the exact limit: in the sketches, and in
// the bucket of its EPK's first digits, computed per document (only the
// prefix: epk.PrefixV1/PrefixV2), so that it can still be placed.
func (a *Accumulator) addOverflow(h uint64, vals []epk.Value, docs, bytes int64, requests float64) {
	if a.distinct == nil {
		a.distinct = sketch.NewHLL(14)
		a.heavy = sketch.NewTopK[[]epk.Value](64)
		a.overflow.buckets = make(map[uint32]*bucket)
		a.overflow.dense = make([]bucket, 1<<14)
		a.copy = a.copyPending
		a.same = nil // most values are new from now on
		a.known = newFilter(a.groups.n)
		for i := range int32(a.groups.n) {
			h := a.groups.at(i).hash
			a.distinct.Add(h)
			a.known.add(h)
		}
	}
	a.distinct.Add(h)
	a.pending = vals
	a.heavy.Add(h, docs, bytes, a.copy)
	o := &a.overflow
	o.docs += docs
	o.bytes += bytes
	o.requests += requests
	var b *bucket
	if a.opts.Version == epk.V1 && a.spec.Kind != key.MultiHash {
		p := epk.PrefixV1(vals...)
		if b = o.buckets[p]; b == nil {
			b = &bucket{}
			o.buckets[p] = b
		}
	} else {
		levels := vals
		if a.spec.Kind == key.MultiHash {
			levels = vals[:1] // its EPK starts with the first level's hash
		}
		// Counted at the end of the batch (see countBuckets); written in
		// place, field by field (see stage).
		o.pending = slices.Grow(o.pending, 1)[:len(o.pending)+1]
		p := &o.pending[len(o.pending)-1]
		p.prefix, p.docs, p.bytes, p.requests = epk.PrefixV2(levels...), docs, bytes, requests
		return
	}
	b.docs += docs
	b.bytes += bytes
	b.requests += requests
}

// countBuckets adds the batch's overflow documents to their dense buckets.
// The buckets of a key take a few hundred kilobytes and a document's is
// usually not in the cache: counted one after another, with nothing
// between them, their misses overlap instead of stalling the work on each
// document in turn. Each bucket still adds its documents in order, so its
// sums, floating-point ones included, do not change.
func (a *Accumulator) countBuckets() {
	o := &a.overflow
	for _, p := range o.pending {
		b := &o.dense[p.prefix]
		b.docs += p.docs
		b.bytes += p.bytes
		b.requests += p.requests
	}
	o.pending = o.pending[:0]
}

// copyPending copies the value being added, for a heavy hitter's new entry;
// a method value made once costs no allocation per document.
func (a *Accumulator) copyPending(evicted []epk.Value) []epk.Value {
	return append(evicted[:0], a.pending...)
}

// sample keeps a uniform reservoir of documents (Vitter's algorithm R).
// values are copied, only when kept, if they are not the Accumulator's own:
// into the copy the replaced sample made, when it has one long enough
// (nothing else holds it), so that a key with a new value in every
// document does not allocate per replacement.
func (a *Accumulator) sample(order int64, h uint64, values []epk.Value, t float64, borrowed bool) {
	j := len(a.samples)
	if j >= a.opts.Samples {
		if j = int(a.draw(uint64(order) + 1)); j >= a.opts.Samples {
			return
		}
	}
	if j == len(a.samples) {
		if j == cap(a.samples) {
			// Doubling, but to no more than the reservoir holds: the last
			// doubling would take half as much again as it needs.
			n := min(max(2*j, 64), a.opts.Samples)
			a.samples = slices.Grow(a.samples, n-j)
			a.copied = slices.Grow(a.copied, n-j)
		}
		a.samples = append(a.samples, Sample{})
		a.copied = append(a.copied, false)
	}
	s := &a.samples[j] // field by field (see stage)
	if borrowed {
		var into []epk.Value
		if a.copied[j] {
			into = s.Values[:0]
		}
		values = append(into, values...)
	}
	s.Order, s.Values, s.Time, s.hash = order, values, t, h
	a.copied[j] = borrowed
}

// draw returns a number in [0, n), n > 0, as rand.New(&a.rng).Uint64N(n)
// does, and the same one (TestDraw): every document of every key draws,
// and through rand.Rand each draw was an interface call into the PCG.
func (a *Accumulator) draw(n uint64) uint64 {
	if n&(n-1) == 0 {
		return a.rng.Uint64() & (n - 1)
	}
	// Lemire's multiply and reject, as package rand writes it.
	hi, lo := bits.Mul64(a.rng.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(a.rng.Uint64(), n)
		}
	}
	return hi
}

func (a *Accumulator) checkLength(vals []epk.Value, docs int64) {
	n := 0
	for _, v := range vals {
		switch v.Kind {
		case epk.String:
			n += len(v.Str)
		case epk.Number:
			n += 8
			if math.Abs(v.Num) >= 1<<53 {
				a.imprecise += docs
			}
		default:
			n++
		}
	}
	if n > a.keyMax {
		a.keyMax = n
	}
	if n > MaxKeyBytes {
		a.over += docs
	}
	if n > MaxKeyBytesV1 {
		a.overV1 += docs
	}
}

// hash is the EPK of a key value under this key's scheme.
func (a *Accumulator) hash(vals []epk.Value) string { return EPK(a.spec.Kind, a.opts.Version, vals) }

// EPK is the EPK of a key value of a key of kind: MultiHash for
// hierarchical keys, else the container's hash version v.
func EPK(kind key.Kind, v epk.Version, vals []epk.Value) string {
	switch {
	case kind == key.MultiHash:
		return epk.MultiHash(vals...)
	case v == epk.V1:
		return epk.HashV1(vals...)
	}
	return epk.HashV2(vals...)
}

// hashValues hashes a key value for grouping: each component's kind and
// its number's bits or its string's xxhash, folded in order, then the fold
// through xxhash again, so that every bit of the result depends on every
// component (the Bloom filter and HyperLogLog read it in parts). Hashing
// the strings where they lie, rather than encoding the value into a buffer
// first, saves a copy and the stall of reading back bytes just written (for
// a two-level value, 19 ns against 28).
func hashValues(vals []epk.Value) uint64 {
	const prime = 0x9E3779B97F4A7C15
	h := prime ^ uint64(len(vals))
	for _, v := range vals {
		var c uint64
		switch v.Kind {
		case epk.Number:
			c = math.Float64bits(v.Num)
		case epk.String:
			c = xxhash.Sum64String(v.Str)
		}
		h = bits.RotateLeft64((h^(uint64(v.Kind)+1))*prime, 31) ^ c
		h = bits.RotateLeft64(h*prime, 27)
	}
	return xxhash8(h)
}

// xxhash8 is xxhash.Sum64 of x's eight little-endian bytes, written out:
// in WebAssembly, where the xxhash package has no assembly, the call and
// its loops cost more than the arithmetic (TestXXHash8 compares the two).
func xxhash8(x uint64) uint64 {
	const (
		prime1 = 11400714785074694791
		prime2 = 14029467366897019727
		prime3 = 1609587929392839161
		prime4 = 9650029242287828579
		prime5 = 2870177450012600261
	)
	h := uint64(prime5 + 8)
	h ^= bits.RotateLeft64(x*prime2, 31) * prime1
	h = bits.RotateLeft64(h, 27)*prime1 + prime4
	h ^= h >> 33
	h *= prime2
	h ^= h >> 29
	h *= prime3
	h ^= h >> 32
	return h
}

func equal(a, b []epk.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Kind != b[i].Kind || a[i].Str != b[i].Str || math.Float64bits(a[i].Num) != math.Float64bits(b[i].Num) {
			return false
		}
	}
	return true
}

// prefixDigits is the hex digits of an EPK that name its overflow bucket:
// four for V2 and MultiHash (1/16384 of the key space, the first two bits
// always clear), eight for V1, whose EPK starts with the binary-encoded
// hash (PrefixV1).
func (a *Accumulator) prefixDigits() int {
	if a.opts.Version == epk.V1 && a.spec.Kind != key.MultiHash {
		return 8
	}
	return 4
}

// index finds the first group of a hash: open addressing with linear
// probing over the groups' own hashes, at most half full. Every document
// looks a key value up; a Go map would hash the hash again (in WebAssembly,
// without AES instructions, slowly) and hold it a second time.
type index struct {
	slots []int32 // 1 + a group, 0 for none
	used  int
}

// find returns the first group whose hash is h, or -1.
func (x *index) find(groups *groupList, h uint64) int32 {
	if x.slots == nil {
		return -1
	}
	mask := uint64(len(x.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := x.slots[i]
		if s == 0 {
			return -1
		}
		if groups.at(s-1).hash == h {
			return s - 1
		}
	}
}

// set makes g the first group of hash h.
func (x *index) set(groups *groupList, h uint64, g int32) {
	if 2*(x.used+1) > len(x.slots) {
		x.grow(groups)
	}
	mask := uint64(len(x.slots) - 1)
	i := h & mask
	for ; x.slots[i] != 0; i = (i + 1) & mask {
		if groups.at(x.slots[i]-1).hash == h {
			x.slots[i] = g + 1
			return
		}
	}
	x.slots[i] = g + 1
	x.used++
}

// grow doubles the table; each hash keeps its one slot.
func (x *index) grow(groups *groupList) {
	old := x.slots
	x.slots = make([]int32, max(64, 2*len(old)))
	mask := uint64(len(x.slots) - 1)
	for _, s := range old {
		if s == 0 {
			continue
		}
		i := groups.at(s-1).hash & mask
		for x.slots[i] != 0 {
			i = (i + 1) & mask
		}
		x.slots[i] = s
	}
}

// filter is a Bloom filter of 64-bit hashes, one word per hash so that a
// test touches one cache line: at 16 bits per hash it answers "maybe" for
// about 1 % of hashes it was not given, and never "no" for one it was.
type filter []uint64

func newFilter(n int) filter {
	words := 1
	for words*64 < 16*n {
		words *= 2
	}
	return make(filter, words)
}

// bits are four bit positions in a word from the hash's high bits; the
// low bits choose the word.
func (f filter) bits(h uint64) (word int, mask uint64) {
	word = int(h & uint64(len(f)-1))
	mask = 1<<(h>>58) | 1<<(h>>52&63) | 1<<(h>>46&63) | 1<<(h>>40&63)
	return word, mask
}

func (f filter) add(h uint64) {
	w, m := f.bits(h)
	f[w] |= m
}

func (f filter) has(h uint64) bool {
	w, m := f.bits(h)
	return f[w]&m == m
}
