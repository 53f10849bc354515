package epk

import (
	"math"
	"math/bits"
	"strings"
)

// Range is a physical partition's [MinInclusive, MaxExclusive) EPK range;
// "" is the minimum EPK and "FF" the maximum.
type Range struct {
	MinInclusive, MaxExclusive string
}

const (
	minEPK = ""
	maxEPK = "FF"
)

// maxRanges bounds Ranges' n so that no input can exhaust memory; it is far
// beyond any real container.
const maxRanges = 1 << 20

// Ranges returns the evenly split layout a new container starts with for n
// physical partitions, as the .NET SDK's
// PartitionKeyInternal.GetMinInclusiveEffectivePartitionKey(i, n) and
// GetMaxExclusiveEffectivePartitionKey(i, n) compute it. For V2 (and
// MultiHash) boundary i is (0x3FFF…FF / n) * i over 128 bits, as 32 hex
// digits; for V1 it is the binary encoding of the number (2^32-1) / n * i;
// both use integer division. Any version other than V1 gets the V2 layout.
// n is clamped to [1, 2^20].
func Ranges(v Version, n int) []Range {
	n = min(max(n, 1), maxRanges)
	rs := make([]Range, n)
	lo := minEPK
	for i := range n {
		hi := maxEPK
		if i < n-1 {
			hi = boundary(v, uint64(i+1), uint64(n))
		}
		rs[i] = Range{lo, hi}
		lo = hi
	}
	return rs
}

// boundary returns the EPK where partition i of n starts, 0 < i < n.
func boundary(v Version, i, n uint64) string {
	if v == V1 {
		return BoundaryV1(float64(math.MaxUint32 / n * i))
	}
	// The largest V2 EPK is 0x3FFF…FF: a digest's first byte is masked with
	// 0x3F. Divide that 128-bit value by n, then multiply by i (< n, so the
	// product cannot overflow).
	const hi, lo = 1<<62 - 1, math.MaxUint64
	qhi, r := hi/n, hi%n
	qlo, _ := bits.Div64(r, lo, n)
	carry, vlo := bits.Mul64(qlo, i)
	vhi := qhi*i + carry
	var out [32]byte
	for k := range 16 {
		out[k] = hexDigits[vhi>>(60-4*k)&0x0F]
		out[16+k] = hexDigits[vlo>>(60-4*k)&0x0F]
	}
	return string(out[:])
}

// Locate returns the index of the range in ranges that holds epk, or -1 if
// none does. ranges must be sorted and contiguous, as [Ranges] returns them
// and as the service lists a container's partition key ranges; the search is
// binary. EPKs and boundaries are compared as strings, ordinally, as the SDKs
// do by default, so both must use the same (upper-case) hex digits. (For
// hierarchical keys the service may pad a boundary with zeros; the .NET SDK's
// optional length-aware comparer treats such trailing zeros as insignificant,
// Locate does not.)
func Locate(ranges []Range, epk string) int {
	i, _ := search(ranges, func(bound string) int {
		if epk >= bound {
			return 1
		}
		return -1
	})
	return i
}

// LocateHead is Locate for a V2 or MultiHash EPK known only by its head, its
// first 16 hex digits as HeadV2 gives them: placing a value needs no more
// of its hash unless a boundary starts with the same 16 digits, and then ok
// is false and the whole EPK must be located.
func LocateHead(ranges []Range, head uint64) (i int, ok bool) {
	var digits [16]byte
	for k := range digits {
		digits[k] = hexDigits[head>>(60-4*k)&0x0F]
	}
	return search(ranges, func(bound string) int {
		n := min(len(bound), len(digits))
		if c := strings.Compare(string(digits[:n]), bound[:n]); c != 0 {
			return c
		}
		// The EPK is longer than its head: above a boundary the head
		// starts with and that is no longer than it; otherwise undecided.
		if len(bound) <= len(digits) {
			return 1
		}
		return 0
	})
}

// search finds the range that holds an EPK by a binary search, given how
// the EPK compares with a boundary: 1 at or above it, -1 below it, 0 when
// that cannot be told (then ok is false). i is -1 when no range holds it.
func search(ranges []Range, compare func(bound string) int) (i int, ok bool) {
	// Find the last range whose minimum is at or below the EPK.
	lo, hi := 0, len(ranges)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch compare(ranges[mid].MinInclusive) {
		case 0:
			return -1, false
		case 1:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	i = lo - 1
	if i < 0 {
		return -1, true
	}
	switch compare(ranges[i].MaxExclusive) {
	case 0:
		return -1, false
	case 1:
		return -1, true // at or above the maximum, which is exclusive
	}
	return i, true
}

// HeadNumberV1 reads the number a V1 EPK or range boundary starts with:
// the key value's hash, 0 to 2^32 - 1, in the binary encoding
// (appendNumber), whose order the EPKs' order follows. "" gives 0 and "FF",
// the end of the key space, 2^32; ok is false for text that does not start
// with an encoded number.
func HeadNumberV1(s string) (f float64, ok bool) {
	switch s {
	case "":
		return 0, true
	case "FF":
		return 1 << 32, true
	}
	digit := func(i int) (byte, bool) {
		if i+1 >= len(s) {
			return 0, false
		}
		h, ok1 := hexValue(s[i])
		l, ok2 := hexValue(s[i+1])
		return h<<4 | l, ok1 && ok2
	}
	if m, ok := digit(0); !ok || m != markerNumber {
		return 0, false
	}
	top, ok := digit(2)
	if !ok {
		return 0, false
	}
	u := uint64(top) << 56
	for k, i := 0, 4; ; k, i = k+1, i+2 {
		c, ok := digit(i)
		if !ok || k > 7 {
			return 0, false
		}
		u |= uint64(c>>1) << (49 - 7*k)
		if c&1 == 0 {
			break
		}
	}
	if u >= 1<<63 {
		u ^= 1 << 63 // positive
	} else {
		u = ^(u - 1)
	}
	return math.Float64frombits(u), true
}

// BoundaryV1 is the V1 EPK of the number x alone, as the service writes a
// V1 range boundary (Ranges): every key value whose hash is x or more sorts
// at or after it.
func BoundaryV1(x float64) string {
	var buf [10]byte
	return hexString(appendNumber(buf[:0], x))
}

func hexValue(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}
