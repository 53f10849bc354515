package epk

import (
	"math"
	"math/big"
	"math/bits"
	"strings"
)

// The arithmetic of the V2 key space, by which the split simulation of
// package partition places values and cuts ranges: a V2 (and MultiHash)
// EPK's first 32 hex digits are a number from 0 to 0x3FFF…FF, spread evenly
// by the hash, so where an EPK lies and the EPK between two are fractions of
// that number.

// PositionV2 is where a V2 EPK's first 32 digits lie in the key space, from
// 0 ("") to 1 ("FF"); NaN for what is not such an EPK. Worked out once per
// logical partition, it spares the split simulation a big number per value
// and cut. Every analysis places each kept value, so it is worked out in
// two words, rounded as big.Float would round it (TestPositionV2): with
// big numbers it took a quarter of a 100 MB analysis.
func PositionV2(s string) float64 {
	switch s {
	case minEPK:
		return 0
	case maxEPK:
		return 1
	}
	var hi, lo uint64
	for i := range 32 {
		c := byte('0') // a shorter EPK is padded with zeros, as numberV2 does
		if i < len(s) {
			c = s[i]
		}
		d, ok := hexValue(c)
		if !ok {
			return math.NaN()
		}
		hi = hi<<4 | lo>>60
		lo = lo<<4 | uint64(d)
	}
	if hi == 0 && lo == 0 {
		return 0
	}
	// The top 64 significant bits, with a sticky bit for any below them,
	// round to a float64 as the whole 128 would.
	z := bits.LeadingZeros64(hi)
	if hi == 0 {
		z = 64 + bits.LeadingZeros64(lo)
	}
	var top, rest uint64
	switch {
	case z == 0:
		top, rest = hi, lo
	case z < 64:
		top, rest = hi<<z|lo>>(64-z), lo<<z
	default:
		top, rest = lo<<(z-64), 0
	}
	if rest != 0 {
		top |= 1
	}
	return math.Ldexp(float64(top), 64-z-126)
}

// FractionV2 is where the V2 EPK mid lies between lo and hi, as a fraction
// of the key space between them; ok is false unless it lies strictly
// between.
func FractionV2(lo, mid, hi string) (f float64, ok bool) {
	a, ok1 := numberV2(lo, false)
	m, ok2 := numberV2(mid, false)
	b, ok3 := numberV2(hi, true)
	if !ok1 || !ok2 || !ok3 || b.Cmp(a) <= 0 {
		return 0, false
	}
	num, _ := new(big.Float).SetInt(new(big.Int).Sub(m, a)).Float64()
	den, _ := new(big.Float).SetInt(new(big.Int).Sub(b, a)).Float64()
	f = num / den
	if f <= 0 || f >= 1 {
		return 0, false
	}
	return f, true
}

// MidpointV2 is the V2 EPK halfway between two V2 EPKs, rounded down, as 32
// digits; ok is false when none lies above lo.
func MidpointV2(lo, hi string) (mid string, ok bool) {
	a, ok1 := numberV2(lo, false)
	b, ok2 := numberV2(hi, true)
	if !ok1 || !ok2 {
		return "", false
	}
	m := new(big.Int).Add(a, b)
	m.Rsh(m, 1)
	if m.Cmp(a) <= 0 {
		return "", false
	}
	return digitsV2(m), true
}

// PointV2 is the V2 EPK x of the way from lo to hi (0 ≤ x ≤ 1), rounded
// down, as 32 digits; ok is false when hi is not above lo. The point may be
// lo itself, or hi: the caller decides whether it cuts.
func PointV2(lo, hi string, x float64) (point string, ok bool) {
	a, ok1 := numberV2(lo, false)
	b, ok2 := numberV2(hi, true)
	if !ok1 || !ok2 || b.Cmp(a) <= 0 {
		return "", false
	}
	span := new(big.Float).SetInt(new(big.Int).Sub(b, a))
	at, _ := span.Mul(span, big.NewFloat(x)).Int(nil)
	at.Add(at, a)
	hex := strings.ToUpper(at.Text(16))
	if len(hex) > 32 {
		return "", false
	}
	return strings.Repeat("0", 32-len(hex)) + hex, true
}

// PointMultiHash is the MultiHash EPK y of the way (0 < y < 1) from lo to
// hi, on the hash of the first level below the first that they do not
// share (lo short of it counts as zeros), or, when hi is past the levels
// lo shares with it, to the end of their range; ok is false when no EPK
// lies strictly between them there.
func PointMultiHash(lo, hi string, y float64) (point string, ok bool) {
	n := 32 // digits of the levels kept, the first at least
	for len(lo) >= n+32 && len(hi) >= n+32 && lo[:n+32] == hi[:n+32] {
		n += 32
	}
	if len(lo) < n {
		return "", false
	}
	head := lo[:n]
	a, ok := numberV2(lo[n:], false)
	if !ok {
		return "", false
	}
	b := new(big.Int).Lsh(big.NewInt(1), 126) // past the top of a level's hash
	if len(hi) >= n+32 && hi[:n] == head {
		if b, ok = numberV2(hi[n:n+32], false); !ok {
			return "", false
		}
	}
	if b.Cmp(a) <= 0 {
		return "", false
	}
	span := new(big.Float).SetInt(new(big.Int).Sub(b, a))
	step, _ := span.Mul(span, big.NewFloat(y)).Int(nil)
	m := step.Add(step, a)
	if m.Cmp(a) <= 0 || m.Cmp(b) >= 0 {
		return "", false
	}
	s := head + digitsV2(m)
	if strings.Compare(s, lo) <= 0 || (hi != maxEPK && strings.Compare(s, hi) >= 0) {
		return "", false
	}
	return s, true
}

// numberV2 is a V2 EPK's first 32 digits as a number ("" is 0; "FF", as
// an upper bound, top, the top of the space, 0x3FFF...F + 1).
func numberV2(s string, top bool) (*big.Int, bool) {
	if top && s == maxEPK {
		return new(big.Int).Lsh(big.NewInt(1), 126), true
	}
	s = (s + strings.Repeat("0", 32))[:32]
	return new(big.Int).SetString(s, 16)
}

// digitsV2 is a number below 16^32 as the 32 upper-case hex digits of an
// EPK.
func digitsV2(m *big.Int) string {
	s := strings.ToUpper(m.Text(16))
	return strings.Repeat("0", 32-len(s)) + s
}
