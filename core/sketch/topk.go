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
	items []Item[V] // entries, each in a fixed slot
	table []int32   // hash → 1 + slot, open addressing with linear probing; 0 is empty
	// Entries are kept in groups of equal Docs, a list ordered by Docs,
	// each group a queue in the order its entries reached that count
	// (Metwally et al.'s "Stream-Summary"): the entry to evict is the head
	// of the first group, found without a search, and a count that grows
	// by one moves its entry to the next group in a few steps.
	slots  []slot  // beside items: the entry's group and its neighbours in it
	groups []group // by index; free ones are chained through next
	first  int32   // the group with the fewest Docs, or -1
	free   int32   // a free group, or -1
	docs   int64   // totals over all Adds
	bytes  int64
}

// slot links an entry into its group's queue.
type slot struct {
	group      int32
	prev, next int32 // entries of the same group, -1 at the ends
}

// group is the entries with one count of Docs, oldest first.
type group struct {
	docs       int64
	head, tail int32 // entries
	prev, next int32 // groups with fewer and more Docs, -1 at the ends
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
	t.table = make([]int32, tableSize(n))
	t.slots = make([]slot, 0, n)
	t.groups = make([]group, 0, n)
	t.first, t.free = -1, -1
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
	if t.table == nil {
		t.init()
	}
	if s, ok := t.lookup(hash); ok {
		it := &t.items[s]
		it.Docs += docs
		it.Bytes += bytes
		t.moveUp(s)
		return
	}
	if len(t.items) < t.k {
		var v V
		if value != nil {
			v = value(v)
		}
		s := int32(len(t.items))
		t.items = append(t.items, Item[V]{Hash: hash, Value: v, Docs: docs, Bytes: bytes})
		t.slots = append(t.slots, slot{group: -1, prev: -1, next: -1})
		if 4*len(t.items) > len(t.table) {
			t.rehash(tableSize(len(t.items))) // indexes the new entry too
		} else {
			t.insert(hash, s)
		}
		t.place(s, -1)
		return
	}
	// Full: the key takes the entry that has waited longest among those
	// with the fewest documents. Any earlier documents of the key were
	// counted in an entry since evicted, whose count was at most this
	// one's, so the inherited count bounds them.
	s := t.groups[t.first].head
	it := &t.items[s]
	t.remove(it.Hash)
	t.insert(hash, s)
	var v V
	if value != nil {
		v = value(it.Value)
	}
	// Field by field: a whole Item written at once is built aside and
	// copied with its pointers' write barriers.
	floor := it.Docs
	it.Hash, it.Value, it.Docs, it.Bytes, it.DocsError = hash, v, floor+docs, bytes, floor
	t.moveUp(s)
}

// moveUp moves entry s, whose Docs grew, to the group of its new count.
func (t *TopK[V]) moveUp(s int32) {
	from := t.slots[s].group
	t.unlink(s)
	if t.groups[from].head < 0 {
		// The group emptied: place from its predecessor, then free it.
		prev := t.groups[from].prev
		t.dropGroup(from)
		t.place(s, prev)
		return
	}
	t.place(s, from)
}

// place appends entry s, in no group, to the group of its Docs, searching
// forward from group after (-1: from the first), whose Docs are fewer.
func (t *TopK[V]) place(s int32, after int32) {
	docs := t.items[s].Docs
	g := t.first
	if after >= 0 {
		g = t.groups[after].next
	}
	prev := after
	for g >= 0 && t.groups[g].docs < docs {
		prev, g = g, t.groups[g].next
	}
	if g < 0 || t.groups[g].docs != docs {
		g = t.newGroup(docs, prev, g)
	}
	gr := &t.groups[g]
	t.slots[s] = slot{group: g, prev: gr.tail, next: -1}
	if gr.tail >= 0 {
		t.slots[gr.tail].next = s
	} else {
		gr.head = s
	}
	gr.tail = s
}

// unlink takes entry s out of its group's queue.
func (t *TopK[V]) unlink(s int32) {
	sl := t.slots[s]
	gr := &t.groups[sl.group]
	if sl.prev >= 0 {
		t.slots[sl.prev].next = sl.next
	} else {
		gr.head = sl.next
	}
	if sl.next >= 0 {
		t.slots[sl.next].prev = sl.prev
	} else {
		gr.tail = sl.prev
	}
}

// newGroup makes an empty group of docs between groups prev and next.
func (t *TopK[V]) newGroup(docs int64, prev, next int32) int32 {
	g := t.free
	if g >= 0 {
		t.free = t.groups[g].next
	} else {
		g = int32(len(t.groups))
		t.groups = append(t.groups, group{})
	}
	t.groups[g] = group{docs: docs, head: -1, tail: -1, prev: prev, next: next}
	if prev >= 0 {
		t.groups[prev].next = g
	} else {
		t.first = g
	}
	if next >= 0 {
		t.groups[next].prev = g
	}
	return g
}

// dropGroup unlinks empty group g and frees it.
func (t *TopK[V]) dropGroup(g int32) {
	gr := t.groups[g]
	if gr.prev >= 0 {
		t.groups[gr.prev].next = gr.next
	} else {
		t.first = gr.next
	}
	if gr.next >= 0 {
		t.groups[gr.next].prev = gr.prev
	}
	t.groups[g] = group{next: t.free}
	t.free = g
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

// The index of entries by hash is a table of its own rather than a Go map:
// in a stream of mostly new keys every Add looks up, removes and inserts,
// and the table does each in a few instructions (BenchmarkTopKAdd, with
// the min-heap this summary had before its groups: 115 ns an update
// against 134 with a map, and 34 against 42 for a hit).

// tableSize is the table for n entries: a power of two, at most a quarter
// full. Past the limit nearly every Add evicts, and remove's backward shift
// walks the run after the hole: at half full, the runs made remove a ninth
// of the cost of a new key (BenchmarkTopKAdd/zipf1.1: 81 ns, 65 now).
func tableSize(n int) int {
	size := 8
	for size < 4*n {
		size *= 2
	}
	return size
}

func (t *TopK[V]) lookup(hash uint64) (int32, bool) {
	mask := uint64(len(t.table) - 1)
	for i := hash & mask; ; i = (i + 1) & mask {
		s := t.table[i]
		if s == 0 {
			return 0, false
		}
		if t.items[s-1].Hash == hash {
			return s - 1, true
		}
	}
}

// insert indexes slot s under hash, which is not indexed; items[s] need
// not hold it yet. The table has room: it is kept at most a quarter full.
func (t *TopK[V]) insert(hash uint64, s int32) {
	mask := uint64(len(t.table) - 1)
	i := hash & mask
	for t.table[i] != 0 {
		i = (i + 1) & mask
	}
	t.table[i] = s + 1
}

func (t *TopK[V]) rehash(size int) {
	t.table = make([]int32, size)
	mask := uint64(size - 1)
	for s := range t.items {
		i := t.items[s].Hash & mask
		for t.table[i] != 0 {
			i = (i + 1) & mask
		}
		t.table[i] = int32(s) + 1
	}
}

// remove drops hash from the index, moving back the entries after it that
// would otherwise no longer be found (backward-shift deletion).
func (t *TopK[V]) remove(hash uint64) {
	mask := uint64(len(t.table) - 1)
	i := hash & mask
	for {
		s := t.table[i]
		if s == 0 {
			return
		}
		if t.items[s-1].Hash == hash {
			break
		}
		i = (i + 1) & mask
	}
	for j := (i + 1) & mask; t.table[j] != 0; j = (j + 1) & mask {
		home := t.items[t.table[j]-1].Hash & mask
		// The entry at j may move to the hole at i unless its home lies
		// cyclically in (i, j].
		if (i < j && i < home && home <= j) || (i > j && (i < home || home <= j)) {
			continue
		}
		t.table[i] = t.table[j]
		i = j
	}
	t.table[i] = 0
}
