package partition

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/pkcalc/pkcalc/core/epk"
)

// Finishing a key sorts tens of thousands of logical partitions and samples
// several times over. A comparison sort calls a closure about n·log n times
// (800,000 for 50,000 partitions) and each call reads strings; here every
// item gets a compact key of three numbers that orders it as its comparison
// does, the keys are sorted by radix, and only items whose keys tie are
// compared. In WebAssembly, where calls are dear, this matters even more.

// sortKey orders items as their comparison does, as far as three numbers
// can: ties go to the comparison itself.
type sortKey [3]uint64

// keyed is an item's sort key and its index.
type keyed struct {
	k sortKey
	i int32
}

// sorter sorts by compact keys (order), keeping its scratch between sorts:
// finishing a key sorts its values and its samples several times over,
// and each sort of tens of thousands of items allocated, and had zeroed,
// two arrays of them. A sorter is for one goroutine at a time.
type sorter struct {
	es, tmp []keyed
}

// order returns the indexes 0..n-1 sorted by compare. key sets the key of
// item i in k, which is zero, and must agree with compare: the key of x is
// below that of y only if compare(x, y) < 0. compare may be nil
// when keys never tie for items compare would tell apart; items with equal
// keys then keep their input order. Otherwise compare should be a total
// order, or the order among items it finds equal should not matter.
func (s *sorter) order(n int, key func(i int, k *sortKey), compare func(i, j int) int) []int32 {
	idx, _ := s.orderKeys(n, key, compare)
	return idx
}

// orderKeys is order that also returns the sorted keys: es[k] is the key
// of item idx[k]. es is the sorter's, valid until its next sort.
func (s *sorter) orderKeys(n int, key func(i int, k *sortKey), compare func(i, j int) int) (idx []int32, es []keyed) {
	es = s.sortedKeys(n, key)
	idx = make([]int32, n)
	for i, e := range es {
		idx[i] = e.i
	}
	if compare == nil {
		return idx, es
	}
	for i := 0; i < n; {
		j := i + 1
		for j < n && es[j].k == es[i].k {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(idx[i:j], func(a, b int32) int { return compare(int(a), int(b)) })
		}
		i = j
	}
	return idx, es
}

// sortedKeys returns the items' keys and indexes sorted by key, equal keys
// in input order; they are the sorter's, valid until its next sort.
func (s *sorter) sortedKeys(n int, key func(i int, k *sortKey)) []keyed {
	if cap(s.es) < n {
		// With a little room: the size order sorts the exact values and
		// the heavy hitters, a few more than the EPK order before it.
		c := n + n/64
		s.es, s.tmp = make([]keyed, c), make([]keyed, c)
	}
	es := s.es[:n]
	var rest uint64 // the keys' second and third words, or'ed
	for i := range es {
		// key fills the entry's key in place: a key returned and copied in
		// went through the stack and was read back in wider words than it
		// was written, which stalls, for every item.
		es[i].k = sortKey{}
		key(i, &es[i].k)
		es[i].i = int32(i)
		rest |= es[i].k[1] | es[i].k[2]
	}
	if rest == 0 && n > 256 {
		return lsd(es, s.tmp[:n])
	}
	msd(es, s.tmp[:n], 0)
	return es
}

// lsd sorts keys that differ in their first word only (positions, times)
// by that word, least significant byte first, skipping the bytes in which
// all agree: a stable sort, so its order is msd's. Positions of 20,000
// samples vary in three bytes, and three passes over them take a third of
// msd's time, which recursed into hundreds of buckets of a dozen keys
// (BenchmarkOrder/samples).
// It returns the sorted keys, in es or in tmp.
func lsd(es, tmp []keyed) []keyed {
	and, or := ^uint64(0), uint64(0)
	for _, e := range es {
		and &= e.k[0]
		or |= e.k[0]
	}
	for shift := 0; shift < 64; shift += 8 {
		if byte((and^or)>>shift) == 0 {
			continue
		}
		var pos [256]int32
		for _, e := range es {
			pos[byte(e.k[0]>>shift)]++
		}
		var sum int32
		for v, c := range pos {
			pos[v] = sum
			sum += c
		}
		for _, e := range es {
			v := byte(e.k[0] >> shift)
			tmp[pos[v]] = e
			pos[v]++
		}
		es, tmp = tmp, es
	}
	return es
}

// msd sorts es by key, lexicographically, keeping equal keys in input
// order: a most-significant-digit radix sort by bytes, which skips the bytes
// in which every key of a bucket agrees (most of them, for counts and sizes)
// and leaves small buckets to an insertion sort. The keys of es agree before
// byte d (byte 0 is the most significant of word 0); tmp, as long as es, is
// scratch.
func msd(es, tmp []keyed, d int) { radix(es, tmp, d, false) }

// radix is msd leaving the result in src, or in dst when toDst. Each level
// scatters its keys from one array into the other and sorts its buckets
// there, so that no level copies its result back (BenchmarkOrder: a tenth
// faster than with the copy).
func radix(src, dst []keyed, d int, toDst bool) {
	if len(src) <= 32 {
		insertion(src)
		if toDst {
			copy(dst, src)
		}
		return
	}
	// Skip the bytes in which every key agrees, found in one pass: sizes
	// and counts share most of their high bytes.
	and := sortKey{^uint64(0), ^uint64(0), ^uint64(0)}
	var or sortKey
	for _, e := range src {
		for w := range e.k {
			and[w] &= e.k[w]
			or[w] |= e.k[w]
		}
	}
	for d < 24 && byte((and[d/8]^or[d/8])>>(8*(7-d%8))) == 0 {
		d++
	}
	if d == 24 {
		if toDst { // all keys are equal
			copy(dst, src)
		}
		return
	}
	w, shift := d/8, 8*(7-d%8)
	var count [256]int32
	for _, e := range src {
		count[byte(e.k[w]>>shift)]++
	}
	var pos [256]int32
	var sum int32
	for v := range 256 {
		pos[v] = sum
		sum += count[v]
	}
	for _, e := range src {
		v := byte(e.k[w] >> shift)
		dst[pos[v]] = e
		pos[v]++
	}
	// The keys are in dst now: each bucket is sorted from there into
	// whichever array the result belongs in.
	start := int32(0)
	for v := range 256 {
		end := start + count[v]
		switch {
		case count[v] > 1:
			radix(dst[start:end], src[start:end], d+1, !toDst)
		case count[v] == 1 && !toDst:
			src[start] = dst[start]
		}
		start = end
	}
}

// insertion sorts a few keys: stable, and quick for so few.
func insertion(es []keyed) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && compareKeys(es[j].k, es[j-1].k) < 0; j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

func compareKeys(a, b sortKey) int {
	for j := range a {
		if a[j] != b[j] {
			return cmpUint(a[j], b[j])
		}
	}
	return 0
}

func cmpUint(a, b uint64) int {
	if a < b {
		return -1
	}
	return 1
}

// descending maps v to a number that sorts the other way round.
func descending(v int64) uint64 { return ^(uint64(v) ^ 1<<63) }

// ascending maps f to a number that sorts as f does; -0 maps as +0, which
// compares equal to it. f must not be NaN.
func ascending(f float64) uint64 {
	if f == 0 {
		return 1 << 63
	}
	u := math.Float64bits(f)
	if u>>63 == 1 {
		return ^u
	}
	return u | 1<<63
}

// valueKey sets k, which is zero, to order key values as Compare does, by
// their first component: its kind, then its number or its string's first
// sixteen bytes.
func valueKey(vals []epk.Value, k *sortKey) {
	if len(vals) == 0 {
		return
	}
	v := &vals[0]
	k[0] = uint64(v.Kind) + 1 // + 1: no value sorts with the empty key
	switch v.Kind {
	case epk.Number:
		k[1] = ascending(v.Num)
	case epk.String:
		var b [16]byte
		copy(b[:], v.Str) // zero padding sorts a prefix first, as Compare does
		k[1] = binary.BigEndian.Uint64(b[:8])
		k[2] = binary.BigEndian.Uint64(b[8:])
	}
}

// epkPrefix is an EPK's first 16 hex digits as a number, padded with
// zeros: it orders EPKs as their text does, except where the digits tie.
func epkPrefix(e string) uint64 {
	var v uint64
	n := min(len(e), 16)
	for i := range n {
		v = v<<4 | uint64(hexDigit[e[i]])
	}
	return v << (4 * (16 - n))
}

// hexDigit is the value of a hex digit, by table: sorting reads tens of
// thousands of EPKs.
var hexDigit = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c >= '0' && c <= '9':
			t[c] = uint8(c - '0')
		case c >= 'A' && c <= 'F':
			t[c] = uint8(c - 'A' + 10)
		case c >= 'a' && c <= 'f':
			t[c] = uint8(c - 'a' + 10)
		default:
			t[c] = uint8(c & 0xF)
		}
	}
	return t
}()
