package partition

import (
	"container/heap"
	"math"
	"slices"
	"strings"

	"github.com/pkcalc/pkcalc/core/epk"
)

// splitFullest splits the ranges of parts over maxPhysical bytes as
// Project says, and returns them in key order (uniform is the new values'
// bytes over the whole key space, see simRange.bytes).
func (p *Projection) splitFullest(parts []simRange, v epk.Version, maxPhysical int64, uniform float64) []simRange {
	// The fullest range splits first: the result is the same, but past the
	// most partitions simulated the ranges left over the limit are the
	// evenest, not the last ones in key order.
	// Over the limit by more than the rounding of the sums: a target of
	// exactly 4 × 50 GB fills 4 partitions, and a part of a byte more in
	// some of them split them into 5, 6 or 7.
	filled := float64(maxPhysical) * (1 + 1e-9)
	full := &fullest{parts: parts}
	for i := range parts {
		if parts[i].total > filled {
			full.order = append(full.order, i)
		}
	}
	heap.Init(full)
	for full.Len() > 0 {
		i := heap.Pop(full).(int)
		left, right, ok := full.parts[i].split(v, maxPhysical, uniform)
		if !ok || len(full.parts) >= maxSimulated {
			// One logical partition alone is past the limit, or the range
			// cannot be cut: the service could not split it either.
			p.Unsplittable = true
			continue
		}
		left.total, right.total = left.bytes(uniform), right.bytes(uniform)
		full.parts[i] = left
		full.parts = append(full.parts, right)
		p.Splits++
		for _, k := range []int{i, len(full.parts) - 1} {
			if full.parts[k].total > filled {
				heap.Push(full, k)
			}
		}
	}
	parts = full.parts
	slices.SortFunc(parts, func(a, b simRange) int { return strings.Compare(a.min, b.min) })
	return parts
}

// maxSimulated is the most physical partitions the split simulation makes:
// 65,536 of 50 GB hold 3.2 PB.
const maxSimulated = 1 << 16

// fullest is a heap of ranges of parts, the most bytes first.
type fullest struct {
	parts []simRange
	order []int
}

func (f *fullest) Len() int           { return len(f.order) }
func (f *fullest) Less(i, j int) bool { return f.parts[f.order[i]].total > f.parts[f.order[j]].total }
func (f *fullest) Swap(i, j int)      { f.order[i], f.order[j] = f.order[j], f.order[i] }
func (f *fullest) Push(x any)         { f.order = append(f.order, x.(int)) }
func (f *fullest) Pop() any {
	n := len(f.order) - 1
	x := f.order[n]
	f.order = f.order[:n]
	return x
}

// simLogical is what the split simulation needs of a logical partition:
// the part of Logical it reads, so that tens of thousands of them copy
// cheaply.
type simLogical struct {
	EPK              string
	Documents, Bytes int64
	Requests         float64
	// A hierarchical key's new values of the first level that land in the
	// gap from EPK to the next logical partition (or to the end of the
	// first level's range), spread over it.
	GapDocs, GapBytes, GapReq float64
	Phantom                   bool    // no logical partition: the start of a gap cut off from its value
	pos                       float64 // where the EPK lies in the key space (epk.PositionV2); NaN under V1, unplaced until asked
}

// unplaced marks a position not worked out yet: only a range the
// simulation cuts or shares out needs its values' places, and most
// analyses cut none.
const unplaced = -1

// place is l's position, worked out the first time it is asked for.
func (l *simLogical) place() float64 {
	if l.pos == unplaced {
		l.pos = epk.PositionV2(l.EPK)
	}
	return l.pos
}

func (l simLogical) mass() float64 { return float64(l.Bytes) + l.GapBytes }

// simRange is a physical partition during the split simulation.
type simRange struct {
	min, max                                 string
	width                                    float64 // share of the key space
	logical                                  []simLogical
	overflowDocs, overflowBytes, overflowReq float64
	total                                    float64 // bytes, kept so the loop does not sum again
}

func (r simRange) bytes(uniform float64) float64 {
	b := r.overflowBytes + uniform*r.width
	for _, l := range r.logical {
		b += l.mass()
	}
	return b
}

// split divides a range where it halves the bytes the range holds (uniform
// is the new values' bytes over the whole key space, see bytes): between
// two of its logical partitions, within the spread mass between them, or
// within a hierarchical value's gap (see simLogical); with fewer than two
// values and no gap the half falls in, at the middle of its key space (V2
// and MultiHash, whose EPKs are plain hex numbers; within one first level,
// of the next level's hash; V1, of the hashes its EPKs start with). A
// logical partition past maxPhysical
// is cut off from the others, so that it ends alone in a range, which is
// then left as it is: one key value cannot be split, but the values beside
// it can move to partitions of their own, as the service moves them.
func (r simRange) split(v epk.Version, maxPhysical int64, uniform float64) (simRange, simRange, bool) {
	if big := slices.IndexFunc(r.logical, func(l simLogical) bool { return l.Bytes > maxPhysical }); big >= 0 {
		if len(r.logical) == 1 {
			return r, r, false
		}
		k := max(big, 1) // before it, or, when it comes first, after it
		left, right := r.cut(k, v)
		return left, right, true
	}
	if len(r.logical) >= 2 || len(r.logical) == 1 && r.logical[0].GapBytes > 0 {
		// The cut that halves the bytes the range will hold: its values'
		// and the mass spread over its key space (new values, values past
		// the exact limit), which for a key of many values is nearly all of
		// it, so the values alone would cut far from the middle.
		spread := r.overflowBytes + uniform*r.width
		total := spread
		for _, l := range r.logical {
			total += l.mass()
		}
		k, best := 1, math.Inf(1)
		// Bytes and place in the key space before logical partition i;
		// places are known for V2 EPKs apart (not for V1, nor within one
		// first level of a hierarchical key).
		var acc, prev float64
		placed := v != epk.V1
		lo, hi := epk.PositionV2(r.min), epk.PositionV2(r.max)
		for i, l := range r.logical {
			at := (r.logical[i].place() - lo) / (hi - lo)
			placed = placed && at > 0 && at < 1
			// The half may fall between two values, where only the spread
			// mass grows: the service cuts there, not at a value.
			if x := (total/2 - acc) / spread; placed && spread > 0 && x > prev && x < at {
				if left, right, ok := r.cutBetween(i, x); ok {
					return left, right, true
				}
			}
			share := r.shareIn(i, v, lo, hi)
			if i > 0 {
				if d := math.Abs(acc + spread*share - total/2); d < best {
					k, best = i, d
				}
			}
			// Or within the value's gap, where its first level's new
			// values go.
			if before := acc + spread*share + float64(l.Bytes); l.GapBytes > 0 && total/2 > before && total/2 < before+l.GapBytes {
				if left, right, ok := r.cutGap(i, (total/2-before)/l.GapBytes, v); ok {
					return left, right, true
				}
			}
			acc += l.mass()
			prev = at
		}
		if x := (total/2 - acc) / spread; placed && spread > 0 && x > prev && x < 1 {
			if left, right, ok := r.cutBetween(len(r.logical), x); ok {
				return left, right, true
			}
		}
		if len(r.logical) >= 2 {
			left, right := r.cut(k, v)
			return left, right, true
		}
		if l := r.logical[0]; l.mass() > float64(maxPhysical) && float64(l.Bytes) >= l.GapBytes {
			// With its gap more than a partition, and holding the half of
			// that itself: its gap is never cut, nor is it by the middle.
			return r, r, false
		}
		// One value, whose gap the half misses: the middle of the key
		// space, which cuts the spread mass until the half falls in it.
	}
	var mid string
	ok := false
	if v == epk.V1 {
		mid, ok = midpointV1(r.min, r.max)
	} else {
		mid, ok = epk.MidpointV2(r.min, r.max)
	}
	if !ok && v == epk.V1 {
		return r, r, false
	}
	if !ok {
		// A range within one first level of a hierarchical key: the
		// middle of the second level's hash there.
		if mid, ok = epk.PointMultiHash(r.min, r.max, 0.5); !ok {
			return r, r, false
		}
	}
	var ll, rl []simLogical
	for _, l := range r.logical {
		if strings.Compare(l.EPK, mid) < 0 {
			ll = append(ll, l)
		} else {
			rl = append(rl, l)
		}
	}
	h := 0.5
	left := simRange{min: r.min, max: mid, width: r.width * h, logical: ll, overflowDocs: r.overflowDocs * h, overflowBytes: r.overflowBytes * h, overflowReq: r.overflowReq * h}
	right := simRange{min: mid, max: r.max, width: r.width * h, logical: rl, overflowDocs: r.overflowDocs * h, overflowBytes: r.overflowBytes * h, overflowReq: r.overflowReq * h}
	return left, right, true
}

// cut divides a range before its k-th logical partition (0 < k <
// len(r.logical)). The range's other mass (new values, values past the
// exact limit) lies evenly over its key space, so each side takes the share
// of the key space it covers; V1 EPKs are not evenly spread numbers, so
// there each side takes the share its count of logical partitions is of
// the whole.
func (r simRange) cut(k int, v epk.Version) (left, right simRange) {
	mid := r.logical[k].EPK
	share := r.share(k, v)
	left = simRange{min: r.min, max: mid, width: r.width * share, logical: r.logical[:k:k],
		overflowDocs: r.overflowDocs * share, overflowBytes: r.overflowBytes * share, overflowReq: r.overflowReq * share}
	right = simRange{min: mid, max: r.max, width: r.width * (1 - share), logical: r.logical[k:],
		overflowDocs: r.overflowDocs * (1 - share), overflowBytes: r.overflowBytes * (1 - share), overflowReq: r.overflowReq * (1 - share)}
	return left, right
}

// cutBetween divides a V2 range at the point x (0 < x < 1) of its key
// space, which lies before its k-th logical partition and after the one
// before, if they are V2 EPKs that leave room there.
func (r simRange) cutBetween(k int, x float64) (left, right simRange, ok bool) {
	mid, ok := epk.PointV2(r.min, r.max, x)
	if !ok || strings.Compare(mid, r.min) <= 0 || (r.max != "FF" && strings.Compare(mid, r.max) >= 0) ||
		(k > 0 && strings.Compare(mid, r.logical[k-1].EPK) <= 0) ||
		(k < len(r.logical) && strings.Compare(mid, r.logical[k].EPK) >= 0) {
		return r, r, false
	}
	left = simRange{min: r.min, max: mid, width: r.width * x, logical: r.logical[:k:k],
		overflowDocs: r.overflowDocs * x, overflowBytes: r.overflowBytes * x, overflowReq: r.overflowReq * x}
	right = simRange{min: mid, max: r.max, width: r.width * (1 - x), logical: r.logical[k:],
		overflowDocs: r.overflowDocs * (1 - x), overflowBytes: r.overflowBytes * (1 - x), overflowReq: r.overflowReq * (1 - x)}
	return left, right, true
}

// cutGap divides a range at y (0 < y < 1) of the gap of its j-th logical
// partition: the left keeps the value and y of its gap, the right starts
// with the rest of the gap (see simLogical).
func (r simRange) cutGap(j int, y float64, v epk.Version) (left, right simRange, ok bool) {
	l := r.logical[j]
	hi := r.max
	if j+1 < len(r.logical) {
		hi = r.logical[j+1].EPK
	}
	mid, ok := epk.PointMultiHash(l.EPK, hi, y)
	if !ok || strings.Compare(mid, r.min) <= 0 || (r.max != "FF" && strings.Compare(mid, r.max) >= 0) {
		return r, r, false
	}
	share, ok := epk.FractionV2(r.min, mid, r.max)
	if !ok || v == epk.V1 {
		share = float64(j+1) / float64(len(r.logical)+1)
	}
	rest := simLogical{EPK: mid, Phantom: true, pos: epk.PositionV2(mid), GapDocs: l.GapDocs * (1 - y), GapBytes: l.GapBytes * (1 - y), GapReq: l.GapReq * (1 - y)}
	l.GapDocs, l.GapBytes, l.GapReq = l.GapDocs*y, l.GapBytes*y, l.GapReq*y
	left = simRange{min: r.min, max: mid, width: r.width * share, logical: append(r.logical[:j:j], l),
		overflowDocs: r.overflowDocs * share, overflowBytes: r.overflowBytes * share, overflowReq: r.overflowReq * share}
	right = simRange{min: mid, max: r.max, width: r.width * (1 - share), logical: append([]simLogical{rest}, r.logical[j+1:]...),
		overflowDocs: r.overflowDocs * (1 - share), overflowBytes: r.overflowBytes * (1 - share), overflowReq: r.overflowReq * (1 - share)}
	return left, right, true
}

// share is the part of the range's key space before its k-th logical
// partition (see cut).
func (r simRange) share(k int, v epk.Version) float64 {
	return r.shareIn(k, v, epk.PositionV2(r.min), epk.PositionV2(r.max))
}

// shareIn is share with the range's bounds' positions worked out.
func (r simRange) shareIn(k int, v epk.Version, lo, hi float64) float64 {
	if v != epk.V1 {
		if f := (r.logical[k].place() - lo) / (hi - lo); f > 0 && f < 1 {
			return f
		}
	}
	return float64(k) / float64(len(r.logical))
}

// midpointV1 is the V1 boundary halfway between two V1 EPKs, by the
// hashes they start with (epk.HeadNumberV1): the values past the exact limit
// and those to come spread evenly over the hashes, so a range that holds
// only them (and at most one kept value) splits there, as the service
// would split it.
func midpointV1(lo, hi string) (string, bool) {
	a, ok1 := epk.HeadNumberV1(lo)
	b, ok2 := epk.HeadNumberV1(hi)
	m := math.Floor((a + b) / 2)
	if !ok1 || !ok2 || m <= a || m >= b {
		return "", false
	}
	return epk.BoundaryV1(m), true
}
