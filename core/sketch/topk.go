package sketch

import (
	"cmp"
	"math"
	"slices"
)

// TopK finds the heaviest keys of a stream, by documents, with the
// Space-Saving algorithm (Metwally, Agrawal and El Abbadi, "Efficient
// computation of frequent and top-k elements in data streams", 2005). It
// keeps at most k entries. While the stream has at most k keys its counts are
// exact. Once full, a new key takes the entry of the key with the fewest
// documents and inherits that count as its possible overcount. Hence:
//
//   - no reported Docs is below the key's true count, nor above it by more
//     than the entry's DocsError;
//   - every key with more than 1/k of all documents has an entry, and a key
//     without an entry has at most as many documents as the smallest entry.
//
// V is what callers keep for display, such as the key's value as a string.
// Keys are told apart by hash alone: values whose hashes collide share an
// entry, which keeps the first value.
//
// The zero TopK keeps one entry.
type TopK[V any] struct {
	k     int
	items []Item[V]        // entries, each in a fixed slot
	index map[uint64]int32 // hash → slot
	heap  []int32          // slots, a min-heap ordered by less
	pos   []int32          // slot → its position in heap
	docs  int64            // totals over all Adds
	bytes int64
}

// Item is one entry of a [TopK].
type Item[V any] struct {
	Hash  uint64
	Value V
	// Docs and Bytes count the key's documents and their bytes. Docs may
	// overcount by at most DocsError: the key's true count lies in
	// [Docs-DocsError, Docs]. Bytes is the size of only the Docs-DocsError
	// documents counted since the key got this entry: it never overcounts,
	// and is exact when DocsError is 0.
	Docs, Bytes int64
	DocsError   int64
}

// NewTopK returns an empty summary that keeps at most k entries. A k below
// 1 is taken as 1.
func NewTopK[V any](k int) *TopK[V] {
	t := &TopK[V]{k: k}
	t.init()
	return t
}

// Up to this many entries are allocated up front; past it, memory grows as
// keys arrive, so that a large k costs only for the keys seen.
const maxPrealloc = 1 << 12

func (t *TopK[V]) init() {
	t.k = min(max(t.k, 1), math.MaxInt32) // slots are int32
	n := min(t.k, maxPrealloc)
	t.items = make([]Item[V], 0, n)
	t.index = make(map[uint64]int32, n)
	t.heap = make([]int32, 0, n)
	t.pos = make([]int32, 0, n)
}

// Add counts docs documents of bytes bytes in all for the key with this hash.
// Negative weights count as zero, and an Add of no documents counts only
// toward Total: entries rank keys by documents. value is called only when the
// key gets a new entry, so that callers pay for building V only then; it is
// given the V of the entry the key takes over (the zero V for a new one),
// whose memory it may reuse. A nil value leaves the zero V.
func (t *TopK[V]) Add(hash uint64, docs, bytes int64, value func(evicted V) V) {
	docs, bytes = max(docs, 0), max(bytes, 0)
	t.docs += docs
	t.bytes += bytes
	if docs == 0 {
		// Taking an entry for no documents would evict a key for nothing,
		// and an entry of 0 documents would let the next key inherit no
		// error while bytes of its own were lost.
		return
	}
	if t.index == nil {
		t.init()
	}
	if s, ok := t.index[hash]; ok {
		it := &t.items[s]
		it.Docs += docs
		it.Bytes += bytes
		t.down(int(t.pos[s]))
		return
	}
	if len(t.items) < t.k {
		var v V
		if value != nil {
			v = value(v)
		}
		s := int32(len(t.items))
		t.items = append(t.items, Item[V]{Hash: hash, Value: v, Docs: docs, Bytes: bytes})
		t.index[hash] = s
		t.pos = append(t.pos, int32(len(t.heap)))
		t.heap = append(t.heap, s)
		t.up(len(t.heap) - 1)
		return
	}
	// Full: the key takes the smallest entry. Any earlier documents of the
	// key were counted in an entry since evicted, whose count was at most
	// this one's, so the inherited count bounds them.
	s := t.heap[0]
	it := &t.items[s]
	delete(t.index, it.Hash)
	t.index[hash] = s
	var v V
	if value != nil {
		v = value(it.Value)
	}
	floor := it.Docs
	*it = Item[V]{Hash: hash, Value: v, Docs: floor + docs, Bytes: bytes, DocsError: floor}
	t.down(0)
}

// Items returns the entries sorted by Docs, most first, then by Hash.
func (t *TopK[V]) Items() []Item[V] {
	items := slices.Clone(t.items)
	slices.SortFunc(items, func(a, b Item[V]) int {
		if c := cmp.Compare(b.Docs, a.Docs); c != 0 {
			return c
		}
		return cmp.Compare(a.Hash, b.Hash)
	})
	return items
}

// Total returns the documents and bytes of every Add, kept or not.
func (t *TopK[V]) Total() (docs, bytes int64) {
	return t.docs, t.bytes
}

// less orders the heap so that its root is the entry that sorts last in
// Items: fewest documents, then highest hash. Breaking ties by hash makes the
// evicted entry depend on the counts alone, not on the heap's shape.
func (t *TopK[V]) less(i, j int) bool {
	a, b := &t.items[t.heap[i]], &t.items[t.heap[j]]
	if a.Docs != b.Docs {
		return a.Docs < b.Docs
	}
	return a.Hash > b.Hash
}

func (t *TopK[V]) swap(i, j int) {
	h := t.heap
	h[i], h[j] = h[j], h[i]
	t.pos[h[i]] = int32(i)
	t.pos[h[j]] = int32(j)
}

func (t *TopK[V]) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !t.less(i, p) {
			return
		}
		t.swap(i, p)
		i = p
	}
}

// down restores the heap below i after i's count grew. Counts only grow, so
// an entry never needs to move up except when it is new.
func (t *TopK[V]) down(i int) {
	n := len(t.heap)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if r := c + 1; r < n && t.less(r, c) {
			c = r
		}
		if !t.less(c, i) {
			return
		}
		t.swap(i, c)
		i = c
	}
}
