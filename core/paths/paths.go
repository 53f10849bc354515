// Package paths discovers the property paths of JSON documents, in the
// syntax Cosmos DB uses for partition key paths (/a/b, /"a b"), and
// describes each one: its types, how many documents have it, how many
// distinct values it takes and which are most common, and whether it can be
// a partition key at all.
//
// It counts exactly up to a number of distinct values per path and says
// when it stopped; it does not hash or place keys (that is epk and
// partition).
package paths

import (
	"cmp"
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/jsontree"
)

// Cosmos DB's system properties, set by the service on every item.
var systemProperties = map[string]string{
	"_rid":         "resource id, set by Cosmos DB",
	"_self":        "resource link, set by Cosmos DB",
	"_etag":        "entity tag for optimistic concurrency, set by Cosmos DB",
	"_attachments": "attachments link, set by Cosmos DB",
	"_ts":          "last-modified time in epoch seconds, set by Cosmos DB",
	"_lsn":         "log sequence number, set by Cosmos DB",
}

// SystemProperty says what the property at names is when it is one of
// Cosmos DB's system properties (/_ts: "last-modified time in epoch
// seconds, set by Cosmos DB"), and "" when it is not.
func SystemProperty(names []string) string {
	if len(names) != 1 {
		return ""
	}
	return systemProperties[names[0]]
}

// Path describes one property path.
type Path struct {
	Path      string   // Cosmos DB syntax, e.g. /customer/id; array elements as /tags/[]/name
	Segments  []string // property names from the root; nil for a path inside an array
	Documents int      // documents in which the path occurs
	Types     [6]int   // values seen, by jsontree.Kind
	Distinct  int      // distinct scalar values, exact unless DistinctCapped
	// DistinctCapped is set when the path had more distinct values than the
	// collector keeps; Distinct is then a lower bound and Top is taken from
	// the values kept: those of the smallest hashes, the same in any order
	// of the documents (a common value outside them is not in Top).
	DistinctCapped bool
	Top            []ValueCount // most common scalar values, most frequent first
	// Heaviest is the value of the documents of the most bytes, which a
	// key of the path fills its largest logical partition with: not
	// always among Top (16 log sources of 2,000 lines each, some lines
	// longer). Of a DistinctCapped path, of the values kept.
	Heaviest ValueCount
	InArray  bool   // the path is inside an array
	System   string // what the system property is, if it is one
	Usable   bool   // the path can be a partition key
	Reason   string // why it cannot be, when Usable is false
}

// ValueCount is a scalar value and the number of times it occurs.
type ValueCount struct {
	Value string // compact JSON text: strings are quoted, so "null" and null differ; see EscapeJSON
	Count int
	// Bytes is the size of the documents that hold it (Collector.Add), the
	// data a key of the path stores under the value.
	Bytes int64
}

// Options tune a Collector.
type Options struct {
	MaxDistinct int // distinct values kept exactly per path; default 10,000
	Top         int // most common values reported per path; default 5
	MaxPaths    int // distinct paths described; default MaxPaths
}

// MaxPaths is how many distinct paths a Collector describes by default.
// Each takes a few hundred bytes and its values, and documents of names of
// their own (a map keyed by user ids, 100 names a document) made 1,000,000
// paths of 10,000 documents: 1.9 GB and a table of 108 MB of JSON. Real
// schemas hold tens to hundreds; past the limit paths new to the table
// are counted (Omitted), not described.
const MaxPaths = 10_000

// Collector accumulates paths over documents. The zero value is not usable;
// call New.
//
// What it describes does not depend on the order of the documents: the
// paths are listed by where documents put them (see Paths), and past
// MaxDistinct values a path keeps those of the smallest hashes.
type Collector struct {
	opts     Options
	root     *node
	docs     int
	bytes    int64  // the documents' sizes (Add), and docBytes the last one's
	key      []byte // scratch for value keys
	docBytes int64
	paths    int // nodes below the root: the paths described
	// Past MaxPaths: the paths not described, by their identities' hashes,
	// and the documents that hold one.
	omitted        *distinctSketch
	omittedDocs    int
	omittedLastDoc int
}

type node struct {
	id       uint64 // the path's identity: a hash of its names from the root (pathID)
	name     string
	parent   *node
	children map[string]*node
	// atPlace is the child last met at each place in its object: documents
	// that list their properties alike find each one there, not by name.
	atPlace []*node
	elems   *node // the elements of an array at this path
	inArray bool
	lastDoc int
	docs    int
	types   [6]int
	// place sums the property's place in its object over every time it
	// occurs, from 0 for the first to placeScale for the last, for Paths.
	place  int64
	values map[string]*valueCount
	// kept is values as a heap, largest hash on top, once values is full.
	kept   keptHeap
	capped bool
}

// valueCount is a value and its count. Its text is made only for the
// table (see text): of a path past MaxDistinct, most values kept for a
// while are put out again.
type valueCount struct {
	key   string // the key in node.values (count)
	hash  uint64 // of key
	lit   string // a number's literal as written, when its double would not print it back
	count int
	bytes int64 // of the documents counted
}

// New returns a Collector.
func New(opts Options) *Collector {
	if opts.MaxDistinct <= 0 {
		opts.MaxDistinct = 10000
	}
	if opts.Top <= 0 {
		opts.Top = 5
	}
	if opts.MaxPaths <= 0 {
		opts.MaxPaths = MaxPaths
	}
	return &Collector{opts: opts, root: &node{}}
}

// Documents returns the number of documents added.
func (c *Collector) Documents() int { return c.docs }

// Bytes returns the sizes of the documents added, summed.
func (c *Collector) Bytes() int64 { return c.bytes }

// Add records the paths of one document of the given size in bytes, which
// each of its values is counted with (ValueCount.Bytes).
func (c *Collector) Add(doc *jsontree.Value, bytes int) {
	c.docs++
	c.bytes += int64(bytes)
	c.docBytes = int64(bytes)
	c.walk(c.root, doc)
}

// placeScale is the place of an object's last property (see node.place):
// integer places sum the same in any order, where fractions would not.
const placeScale = 1 << 20

func (c *Collector) walk(parent *node, v *jsontree.Value) {
	switch v.Kind {
	case jsontree.Object:
		last := int64(max(1, len(v.Members)-1))
		for i := range v.Members {
			m := &v.Members[i]
			var n *node
			if i < len(parent.atPlace) && parent.atPlace[i] != nil && parent.atPlace[i].name == m.Key {
				n = parent.atPlace[i]
			} else if n = c.child(parent, m.Key); n != nil {
				if i >= len(parent.atPlace) {
					parent.atPlace = append(parent.atPlace, make([]*node, i+1-len(parent.atPlace))...)
				}
				parent.atPlace[i] = n
			}
			if n == nil {
				c.omit(pathID(parent.id, m.Key), &m.Value)
				continue
			}
			n.place += int64(i) * placeScale / last
			c.visit(n, &m.Value)
		}
	case jsontree.Array:
		if len(v.Elems) == 0 {
			return
		}
		n := parent.elems
		if n == nil {
			if c.paths >= c.opts.MaxPaths {
				c.omit(pathID(parent.id, elemsName), v)
				return
			}
			c.paths++
			n = &node{id: pathID(parent.id, elemsName), parent: parent, inArray: true}
			parent.elems = n
		}
		for i := range v.Elems {
			c.visit(n, &v.Elems[i])
		}
	}
}

// elemsName stands for an array's elements in a path's identity: no
// property name holds a NUL and brackets.
const elemsName = "\x00[]"

// pathID is the identity of the path name under the path parent.
func pathID(parent uint64, name string) uint64 {
	return xxhash.Sum64String(name) ^ bits.RotateLeft64(parent*0x9E3779B97F4A7C15, 29)
}

// omit counts a path past MaxPaths, id, and the paths inside its value v,
// without describing them.
func (c *Collector) omit(id uint64, v *jsontree.Value) {
	if c.omitted == nil {
		c.omitted = new(distinctSketch)
	}
	if c.omittedLastDoc != c.docs {
		c.omittedLastDoc = c.docs
		c.omittedDocs++
	}
	c.omitted.add(xxhash8(id))
	switch v.Kind {
	case jsontree.Object:
		for i := range v.Members {
			c.omit(pathID(id, v.Members[i].Key), &v.Members[i].Value)
		}
	case jsontree.Array:
		if len(v.Elems) > 0 {
			e := pathID(id, elemsName)
			for i := range v.Elems {
				c.omit(e, &v.Elems[i])
			}
		}
	}
}

// xxhash8 spreads a path's identity over every bit, as HyperLogLog reads
// them.
func xxhash8(x uint64) uint64 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], x)
	return xxhash.Sum64(b[:])
}

// Omitted is how many distinct paths the documents hold past MaxPaths,
// estimated (within about 2 %: distinctSketch), and how many documents hold one; 0 and 0
// when the table describes every path.
func (c *Collector) Omitted() (paths, documents int) {
	if c.omitted == nil {
		return 0, 0
	}
	return max(1, c.omitted.count()), c.omittedDocs
}

// distinctSketch estimates how many distinct hashes it was given: a
// HyperLogLog of 4,096 registers (about 1.6 % error, exact-ish by linear
// counting while few), written here rather than taken from package sketch
// so that this package, which the page links, needs no engine package.
type distinctSketch [sketchRegisters]uint8

const sketchRegisters = 1 << 12

func (s *distinctSketch) add(h uint64) {
	i := h >> 52                                        // the top 12 bits choose the register
	rank := uint8(bits.LeadingZeros64(h<<12|1<<11)) + 1 // the rest, its first set bit
	s[i] = max(s[i], rank)
}

func (s *distinctSketch) count() int {
	const m = float64(sketchRegisters)
	sum, zeros := 0.0, 0
	for _, r := range s {
		sum += math.Ldexp(1, -int(r))
		if r == 0 {
			zeros++
		}
	}
	e := 0.7213 / (1 + 1.079/m) * m * m / sum
	if e <= 2.5*m && zeros > 0 {
		e = m * math.Log(m/float64(zeros))
	}
	return int(math.Round(e))
}

func (c *Collector) visit(n *node, v *jsontree.Value) {
	if n.lastDoc != c.docs {
		n.lastDoc = c.docs
		n.docs++
	}
	n.types[v.Kind]++
	if v.Kind.Scalar() {
		c.count(n, v)
		return
	}
	c.walk(n, v)
}

func (c *Collector) child(parent *node, name string) *node {
	if n, ok := parent.children[name]; ok {
		return n
	}
	if c.paths >= c.opts.MaxPaths {
		return nil
	}
	c.paths++
	if parent.children == nil {
		parent.children = make(map[string]*node)
	}
	n := &node{id: pathID(parent.id, name), name: name, parent: parent, inArray: parent.inArray}
	parent.children[name] = n
	return n
}

// count tallies a scalar value under a key that compares values as Cosmos
// DB does: numbers by their double value (so 1 and 1.0 are one value),
// strings by their text, and the kinds apart.
func (c *Collector) count(n *node, v *jsontree.Value) {
	var buf [9]byte
	var key []byte
	switch v.Kind {
	case jsontree.Null:
		key = buf[:1]
		buf[0] = 'n'
	case jsontree.Bool:
		key = buf[:1]
		buf[0] = 'f'
		if v.Bool {
			buf[0] = 't'
		}
	case jsontree.Number:
		buf[0] = '#'
		binary.LittleEndian.PutUint64(buf[1:], math.Float64bits(v.Num))
		key = buf[:9]
	case jsontree.String:
		// Reuse one buffer: the map lookup below does not keep it.
		c.key = append(append(c.key[:0], 's'), v.Str...)
		key = c.key
	}
	if vc, ok := n.values[string(key)]; ok {
		vc.count++
		vc.bytes += c.docBytes
		return
	}
	h := xxhash.Sum64(key)
	if len(n.values) >= c.opts.MaxDistinct {
		// Full: keep the values of the smallest hashes. Whatever the order,
		// the values kept at the end are the same, each counted from its
		// first occurrence (a value that ends up kept was never put out).
		n.capped = true
		if n.kept == nil {
			n.kept = make(keptHeap, 0, len(n.values))
			for _, vc := range n.values {
				n.kept = append(n.kept, keptValue{vc.hash, vc})
			}
			n.kept.init()
		}
		top := n.kept[0].vc
		if !less(h, string(key), top.hash, top.key) {
			return
		}
		// The value put out makes room for this one, in its memory.
		delete(n.values, top.key)
		*top = valueCount{key: string(key), hash: h, lit: literal(v), count: 1, bytes: c.docBytes}
		n.values[top.key] = top
		n.kept[0].hash = h
		n.kept.down(0)
		return
	}
	if n.values == nil {
		n.values = make(map[string]*valueCount)
	}
	vc := &valueCount{key: string(key), hash: h, lit: literal(v), count: 1, bytes: c.docBytes}
	n.values[vc.key] = vc
}

// literal is what valueCount keeps of v beside its key: a number's
// literal, when there is one (jsontree.Value.Str).
func literal(v *jsontree.Value) string {
	if v.Kind == jsontree.Number {
		return v.Str
	}
	return ""
}

// text is the value as the table shows it: compact JSON, each unseen
// character escaped (EscapeJSON), made again from its key.
func (vc *valueCount) text() string {
	var v jsontree.Value
	switch vc.key[0] {
	case 'n':
		v.Kind = jsontree.Null
	case 't', 'f':
		v.Kind, v.Bool = jsontree.Bool, vc.key[0] == 't'
	case '#':
		v.Kind, v.Num, v.Str = jsontree.Number, math.Float64frombits(binary.LittleEndian.Uint64([]byte(vc.key[1:]))), vc.lit
		if math.IsInf(v.Num, 0) || math.IsNaN(v.Num) {
			// JSON has no infinities: show them as Extended JSON does.
			word := "NaN"
			switch {
			case math.IsInf(v.Num, 1):
				word = "Infinity"
			case math.IsInf(v.Num, -1):
				word = "-Infinity"
			}
			return `{"$numberDouble":"` + word + `"}`
		}
	case 's':
		v.Kind, v.Str = jsontree.String, vc.key[1:]
	}
	return EscapeJSON(v.JSON())
}

// less orders values by hash, then by key for the rare equal hashes, so
// that the values kept never depend on the order they came in.
func less(h1 uint64, k1 string, h2 uint64, k2 string) bool {
	return h1 < h2 || h1 == h2 && k1 < k2
}

// keptHeap is a node's values with the largest hash on top: each
// entry's hash is its value's, held beside the pointer so that sifting
// compares without following it (but for equal hashes).
type keptHeap []keptValue

type keptValue struct {
	hash uint64
	vc   *valueCount
}

// above reports whether entry i belongs above entry j: a larger hash, or
// the same and a larger key (less).
func (h keptHeap) above(i, j int) bool {
	if h[i].hash != h[j].hash {
		return h[i].hash > h[j].hash
	}
	return less(h[j].hash, h[j].vc.key, h[i].hash, h[i].vc.key)
}

func (h keptHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// down moves entry i down until neither child belongs above it.
func (h keptHeap) down(i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if r := c + 1; r < len(h) && h.above(r, c) {
			c = r
		}
		if !h.above(c, i) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// Paths returns every path seen, each followed by the paths inside it: an
// array's elements first, then the properties in the order documents put
// them, by their average place in their object (first 0, last 1), ties by
// name. Documents that list their properties alike give that order; no
// order of the documents changes it.
func (c *Collector) Paths() []Path {
	var out []Path
	var walk func(n *node)
	walk = func(n *node) {
		if n != c.root {
			out = append(out, c.describe(n))
		}
		if n.elems != nil {
			walk(n.elems)
		}
		kids := make([]*node, 0, len(n.children))
		for _, k := range n.children {
			kids = append(kids, k)
		}
		slices.SortFunc(kids, func(a, b *node) int {
			if c := cmp.Compare(a.meanPlace(), b.meanPlace()); c != 0 {
				return c
			}
			return strings.Compare(a.name, b.name)
		})
		for _, k := range kids {
			walk(k)
		}
	}
	walk(c.root)
	if out == nil {
		out = []Path{}
	}
	return out
}

// meanPlace is a property's average place in its object, from 0 to
// placeScale.
func (n *node) meanPlace() float64 {
	seen := 0
	for _, t := range n.types {
		seen += t
	}
	return float64(n.place) / float64(max(1, seen))
}

func (c *Collector) describe(n *node) Path {
	var segs []string
	var text []string
	for p := n; p != c.root; p = p.parent {
		if p == p.parent.elems {
			text = append(text, "[]")
			continue
		}
		segs = append(segs, p.name)
		text = append(text, quote(p.name))
	}
	slices.Reverse(segs)
	slices.Reverse(text)
	if n.inArray {
		segs = nil
	}
	p := Path{
		Path:           "/" + strings.Join(text, "/"),
		Segments:       segs,
		Documents:      n.docs,
		Types:          n.types,
		Distinct:       len(n.values),
		DistinctCapped: n.capped,
		InArray:        n.inArray,
	}
	p.System = SystemProperty(segs)
	// The Top most common, ties by text, kept in order as they are met: a
	// value less common than all of them needs no text.
	order := func(a, b ValueCount) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return cmp.Compare(a.Value, b.Value)
	}
	top := make([]ValueCount, 0, c.opts.Top+1)
	var heaviest *valueCount // ties by key, which orders as the text does not need to
	for _, vc := range n.values {
		if heaviest == nil || vc.bytes > heaviest.bytes || vc.bytes == heaviest.bytes && vc.key < heaviest.key {
			heaviest = vc
		}
		if len(top) == c.opts.Top && vc.count < top[len(top)-1].Count {
			continue
		}
		vc := ValueCount{Value: vc.text(), Count: vc.count, Bytes: vc.bytes}
		if i, _ := slices.BinarySearchFunc(top, vc, order); i < c.opts.Top {
			top = slices.Insert(top, i, vc)
			top = top[:min(len(top), c.opts.Top)]
		}
	}
	p.Top = top
	if heaviest != nil {
		p.Heaviest = ValueCount{Value: heaviest.text(), Count: heaviest.count, Bytes: heaviest.bytes}
	}
	p.Usable, p.Reason = usable(&p)
	return p
}

func usable(p *Path) (bool, string) {
	switch {
	case p.InArray:
		return false, "inside an array: a partition key takes one value per item"
	case p.System != "":
		return false, "system property: " + p.System
	}
	if n := p.Types[jsontree.Object] + p.Types[jsontree.Array]; n > 0 {
		what := "objects"
		if p.Types[jsontree.Object] == 0 {
			what = "arrays"
		} else if p.Types[jsontree.Array] > 0 {
			what = "objects and arrays"
		}
		docs := " documents"
		if n == 1 {
			docs = " document"
		}
		return false, "holds " + what + " in " + human.Count(int64(n)) + docs + ": a key value must be a string, number, boolean or null"
	}
	return true, ""
}

// TypeMix returns the kinds a path holds with their counts, most common first.
func (p Path) TypeMix() []KindCount {
	var out []KindCount
	for k, n := range p.Types {
		if n > 0 {
			out = append(out, KindCount{Kind: jsontree.Kind(k), Count: n})
		}
	}
	slices.SortStableFunc(out, func(a, b KindCount) int { return b.Count - a.Count })
	return out
}

// KindCount is one entry of a type mix.
type KindCount struct {
	Kind  jsontree.Kind
	Count int
}
