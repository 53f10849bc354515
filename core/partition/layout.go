package partition

import (
	"container/heap"
	"math"
	"math/big"
	"math/bits"
	"slices"
	"strings"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
)

// Physical is one physical partition with what it holds.
type Physical struct {
	ID                int
	MinInclusive      string
	MaxExclusive      string
	Documents         int64
	Bytes             int64
	LogicalPartitions int64
	Requests          float64 // request weight placed here (see Distribution.Weighted)
}

// Place puts every logical partition in the range holding its EPK.
func (d *Distribution) Place(ranges []epk.Range) []Physical {
	out := make([]Physical, len(ranges))
	for i, r := range ranges {
		out[i] = Physical{ID: i, MinInclusive: r.MinInclusive, MaxExclusive: r.MaxExclusive}
	}
	put := func(e string, docs, bytes int64, req float64) int {
		i := epk.Locate(ranges, e)
		if i >= 0 {
			p := &out[i]
			p.Documents += docs
			p.Bytes += bytes
			p.Requests += req
		}
		return i
	}
	for _, l := range d.Logical {
		if i := put(l.EPK, l.Documents, l.Bytes, l.Requests); i >= 0 {
			out[i].LogicalPartitions++
		}
	}
	if len(d.Overflow.Buckets) > 0 {
		// The estimated values past the limit are shared out in proportion to
		// documents, rounded so that the partitions add up to the estimate.
		extra := float64(d.Distinct - int64(len(d.Logical)))
		share := make([]float64, len(out))
		for _, b := range d.Overflow.Buckets {
			if i := put(b.Prefix, b.Documents, b.Bytes, b.Requests); i >= 0 {
				share[i] += extra * float64(b.Documents) / float64(max(1, d.Overflow.Documents))
			}
		}
		var acc, given float64
		for i := range out {
			acc += share[i]
			n := math.Round(acc) - given
			out[i].LogicalPartitions += int64(n)
			given += n
		}
	}
	return out
}

// Projection is the distribution grown to a target scale.
type Projection struct {
	Factor        float64 // target size over sample size
	NewValueShare float64 // share of new documents that bring a new key value (Good-Turing)
	Documents     int64
	Bytes         int64
	Largest       Logical   // the largest logical partition at the target scale
	OverLimit     []Logical // logical partitions past 20 GB, largest first (at most 10)
	OverLimitN    int
	OverAlert     []Logical // past the 70 % alert line but within the limit (at most 10)
	OverAlertN    int
	Physical      []Physical // after the storage splits the service would make
	Splits        int        // storage splits simulated
	Unsplittable  bool       // a partition over the storage limit could not be split further
	SuffixSpread  bool       // a computed suffix's groups grew evenly over their suffixes (the busiest value is their even share)

	// The most documents and requests one logical partition has at the
	// target scale, and the key values each of Physical holds there (see
	// Shares).
	hottestDocs     int64
	hottestRequests float64
	values          []float64
}

// Project grows every logical partition by factor, as the sample suggests:
// new documents go to the key values already seen in proportion to their
// size, except for the share that Good-Turing's estimate sends to new key
// values, which spread evenly over the key space. Starting from ranges, a
// physical partition past maxPhysical bytes splits where it halves the
// bytes it will hold, the fullest first, as the service splits, until none
// is but a range that holds one key value alone (see split).
func (d *Distribution) Project(factor float64, ranges []epk.Range, maxLogical, alert, maxPhysical int64) Projection {
	if factor < 1 || math.IsNaN(factor) || math.IsInf(factor, 0) {
		factor = 1
	}
	pNew := d.Singletons()
	if d.Spec.TimeBucket() != "" {
		// A key with a time bucket grows by adding buckets: the documents
		// to come are written in hours, days or months not yet seen, so
		// the values seen (past buckets) keep their size.
		pNew = 1
	}
	grow := 1 + (factor-1)*(1-pNew)
	p := Projection{Factor: factor, NewValueShare: pNew}
	p.Documents = int64(math.Round(float64(d.Documents) * factor))
	p.Bytes = int64(math.Round(float64(d.Bytes) * factor))

	scaled := func(l Logical) Logical {
		l.Documents = int64(math.Round(float64(l.Documents) * grow))
		l.Bytes = int64(math.Round(float64(l.Bytes) * grow))
		l.Requests *= grow
		return l
	}
	// A computed suffix spreads a value of the rest of the key evenly
	// over its suffixes as the data grows: how unevenly the sample's few
	// documents fell on them is chance, and growing it would make a
	// suffix sized to stay under the limit pass it.
	var suffixed *suffixGrowth
	if n := lastSuffix(d.Spec); n > 0 && !d.Estimated && grow > 1 {
		suffixed = d.suffixGrowth(n, grow)
		scaled = suffixed.scaled
		p.SuffixSpread = true
	}
	// Scaling keeps Largest's order, so the partitions over the limit are
	// the largest ones, and those over the alert line the next: counted in
	// any order, and only the few listed are put in order.
	for l := range d.All() {
		s := scaled(*l)
		p.hottestDocs, p.hottestRequests = max(p.hottestDocs, s.Documents), max(p.hottestRequests, s.Requests)
		switch {
		case s.Bytes > maxLogical:
			p.OverLimitN++
		case s.Bytes > alert:
			p.OverAlertN++
		}
	}
	over := int(p.OverLimitN)
	var top []int32
	if suffixed != nil {
		top = suffixed.largest(d, max(1, over+min(int(p.OverAlertN), 10)))
	} else {
		top = d.largest(max(1, over+min(int(p.OverAlertN), 10)))
	}
	if len(top) > 0 {
		if s := scaled(*d.at(top[0])); s.Bytes > 0 {
			p.Largest = s
		}
	}
	for k, i := range top {
		switch {
		case k < min(over, 10):
			p.OverLimit = append(p.OverLimit, scaled(*d.at(i)))
		case k >= over:
			p.OverAlert = append(p.OverAlert, scaled(*d.at(i)))
		}
	}

	// Mass of new values. A hash key spreads them evenly over the key space;
	// a hierarchical key puts them beside the values that share their first
	// levels (a tenant's new items land in the tenant's range), so there the
	// new mass follows the existing partitions.
	clustered := d.Spec.Kind == key.MultiHash
	uniformBytes := float64(d.Bytes) * (factor - 1) * pNew
	uniformDocs := float64(d.Documents) * (factor - 1) * pNew
	uniformReq := d.requests() * (factor - 1) * pNew
	// The new values themselves: one per document that brings one, but
	// for a time bucket, whose new documents go to new buckets, as many as
	// the sample has per document.
	newValueDocs := float64(d.Documents) * pNew
	perDoc := 1.0
	if newValueDocs > 0 {
		perDoc = min(newValueDocs, float64(d.Distinct)) / newValueDocs
	}
	uniformValues := newValueDocs * (factor - 1) * perDoc
	if suffixed != nil {
		// The suffixes the sample has not shown yet take their share too,
		// at places the hash scatters over the key space.
		uniformBytes += suffixed.unseenBytes
		uniformDocs += suffixed.unseenDocs
		uniformReq += suffixed.unseenReq
	}
	if clustered {
		uniformBytes, uniformDocs, uniformReq, uniformValues = 0, 0, 0, 0
	}
	parts := make([]simRange, len(ranges))
	for i, r := range ranges {
		parts[i] = simRange{min: r.MinInclusive, max: r.MaxExclusive, width: 1 / float64(len(ranges))}
	}
	// Each range's logical partitions, sized first: grown by appending, the
	// lists of tens of thousands were copied over and over.
	at := make([]int32, len(d.Logical))
	count := make([]int, len(ranges))
	for k := range d.Logical {
		i := epk.Locate(ranges, d.Logical[k].EPK)
		at[k] = int32(i)
		if i >= 0 {
			count[i]++
		}
	}
	for i := range parts {
		parts[i].logical = make([]simLogical, 0, count[i])
	}
	for k, l := range d.Logical {
		if i := at[k]; i >= 0 {
			s := scaled(l)
			sl := simLogical{EPK: s.EPK, Documents: s.Documents, Bytes: s.Bytes, Requests: s.Requests, pos: math.NaN()}
			if d.Version != epk.V1 || clustered {
				sl.pos = unplaced
			}
			if clustered {
				// The first level's new values land beside the value, in the
				// gap up to the next: the logical partition itself grows as
				// a hash key's value does, the gap takes the rest of the
				// factor, and a split can cut the gap.
				sl.GapDocs = float64(l.Documents)*factor - float64(s.Documents)
				sl.GapBytes = float64(l.Bytes)*factor - float64(s.Bytes)
				sl.GapReq = l.Requests*factor - s.Requests
			}
			parts[i].logical = append(parts[i].logical, sl)
		}
	}
	bucketGrowth := grow
	if clustered {
		bucketGrowth = factor
	}
	for _, b := range d.Overflow.Buckets {
		i := epk.Locate(ranges, b.Prefix)
		if i >= 0 {
			parts[i].overflowDocs += float64(b.Documents) * bucketGrowth
			parts[i].overflowBytes += float64(b.Bytes) * bucketGrowth
			parts[i].overflowReq += b.Requests * bucketGrowth
		}
	}
	// The values past the exact limit, shared out as Place shares them.
	var overflowDocs float64
	for i := range parts {
		parts[i].total = parts[i].bytes(uniformBytes)
		overflowDocs += parts[i].overflowDocs
	}
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
		left, right, ok := full.parts[i].split(d.Version, maxPhysical, uniformBytes)
		if !ok || len(full.parts) >= maxSimulated {
			// One logical partition alone is past the limit, or the range
			// cannot be cut: the service could not split it either.
			p.Unsplittable = true
			continue
		}
		left.total, right.total = left.bytes(uniformBytes), right.bytes(uniformBytes)
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
	p.Physical = make([]Physical, len(parts))
	p.values = make([]float64, len(parts))
	for i, r := range parts {
		ph := Physical{ID: i, MinInclusive: r.min, MaxExclusive: r.max}
		var gapDocs, gapBytes float64
		for _, l := range r.logical {
			ph.Documents += l.Documents
			ph.Bytes += l.Bytes
			ph.Requests += l.Requests + l.GapReq
			gapDocs += l.GapDocs
			gapBytes += l.GapBytes
			if !l.Phantom {
				ph.LogicalPartitions++
			}
		}
		ph.Documents += int64(math.Round(gapDocs + r.overflowDocs + uniformDocs*r.width))
		ph.Bytes += int64(math.Round(gapBytes + r.overflowBytes + uniformBytes*r.width))
		ph.Requests += r.overflowReq + uniformReq*r.width
		p.Physical[i] = ph
		p.values[i] = float64(ph.LogicalPartitions) + gapDocs*perDoc + uniformValues*r.width
		if overflowDocs > 0 {
			p.values[i] += float64(d.Distinct-int64(len(d.Logical))) * r.overflowDocs / overflowDocs
		}
	}
	return p
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
	pos                       float64 // where the EPK lies in the key space (position); NaN under V1, unplaced until asked
}

// unplaced marks a position not worked out yet: only a range the
// simulation cuts or shares out needs its values' places, and most
// analyses cut none.
const unplaced = -1

// place is l's position, worked out the first time it is asked for.
func (l *simLogical) place() float64 {
	if l.pos == unplaced {
		l.pos = position(l.EPK)
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
		lo, hi := position(r.min), position(r.max)
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
		mid, ok = midpoint(r.min, r.max)
	}
	if !ok && v == epk.V1 {
		return r, r, false
	}
	if !ok {
		// A range within one first level of a hierarchical key: the
		// middle of the second level's hash there.
		if mid, ok = gapPoint(r.min, r.max, 0.5); !ok {
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
	a, ok1 := epkNumber(r.min, false)
	b, ok2 := epkNumber(r.max, true)
	if !ok1 || !ok2 || b.Cmp(a) <= 0 {
		return r, r, false
	}
	span := new(big.Float).SetInt(new(big.Int).Sub(b, a))
	at, _ := span.Mul(span, big.NewFloat(x)).Int(nil)
	at.Add(at, a)
	hex := strings.ToUpper(at.Text(16))
	if len(hex) > 32 {
		return r, r, false
	}
	mid := strings.Repeat("0", 32-len(hex)) + hex
	if strings.Compare(mid, r.min) <= 0 || (r.max != "FF" && strings.Compare(mid, r.max) >= 0) ||
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
	mid, ok := gapPoint(l.EPK, hi, y)
	if !ok || strings.Compare(mid, r.min) <= 0 || (r.max != "FF" && strings.Compare(mid, r.max) >= 0) {
		return r, r, false
	}
	share, ok := keyFraction(r.min, mid, r.max)
	if !ok || v == epk.V1 {
		share = float64(j+1) / float64(len(r.logical)+1)
	}
	rest := simLogical{EPK: mid, Phantom: true, pos: position(mid), GapDocs: l.GapDocs * (1 - y), GapBytes: l.GapBytes * (1 - y), GapReq: l.GapReq * (1 - y)}
	l.GapDocs, l.GapBytes, l.GapReq = l.GapDocs*y, l.GapBytes*y, l.GapReq*y
	left = simRange{min: r.min, max: mid, width: r.width * share, logical: append(r.logical[:j:j], l),
		overflowDocs: r.overflowDocs * share, overflowBytes: r.overflowBytes * share, overflowReq: r.overflowReq * share}
	right = simRange{min: mid, max: r.max, width: r.width * (1 - share), logical: append([]simLogical{rest}, r.logical[j+1:]...),
		overflowDocs: r.overflowDocs * (1 - share), overflowBytes: r.overflowBytes * (1 - share), overflowReq: r.overflowReq * (1 - share)}
	return left, right, true
}

// gapPoint is the EPK y of the way from the hierarchical EPK lo to hi, on
// the hash of the first level below the first that they do not share (lo
// short of it counts as zeros), or, when hi is past the levels lo shares
// with it, to the end of their range.
func gapPoint(lo, hi string, y float64) (string, bool) {
	n := 32 // digits of the levels kept, the first at least
	for len(lo) >= n+32 && len(hi) >= n+32 && lo[:n+32] == hi[:n+32] {
		n += 32
	}
	if len(lo) < n {
		return "", false
	}
	head := lo[:n]
	a, ok := epkNumber(lo[n:], false)
	if !ok {
		return "", false
	}
	b := new(big.Int).Lsh(big.NewInt(1), 126) // past the top of a level's hash
	if len(hi) >= n+32 && hi[:n] == head {
		if b, ok = epkNumber(hi[n:n+32], false); !ok {
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
	t := strings.ToUpper(m.Text(16))
	s := head + strings.Repeat("0", 32-len(t)) + t
	if strings.Compare(s, lo) <= 0 || (hi != "FF" && strings.Compare(s, hi) >= 0) {
		return "", false
	}
	return s, true
}

// share is the part of the range's key space before its k-th logical
// partition (see cut).
func (r simRange) share(k int, v epk.Version) float64 {
	return r.shareIn(k, v, position(r.min), position(r.max))
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

// position is where a V2 EPK's first 32 digits lie in the key space, from
// 0 ("") to 1 ("FF"); NaN for what is not such an EPK. Worked out once per
// logical partition, it spares the split simulation a big number per value
// and cut. Every analysis places each kept value, so it is worked out in
// two words, rounded as big.Float would round it (TestPosition): with
// big numbers it took a quarter of a 100 MB analysis.
func position(s string) float64 {
	switch s {
	case "":
		return 0
	case "FF":
		return 1
	}
	var hi, lo uint64
	for i := range 32 {
		c := byte('0') // a shorter EPK is padded with zeros, as epkNumber does
		if i < len(s) {
			c = s[i]
		}
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		default:
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

// epkNumber is a V2 EPK's first 32 digits as a number ("" is 0; "FF", as
// an upper bound, the top of the space, 0x3FFF...F + 1).
func epkNumber(s string, top bool) (*big.Int, bool) {
	if top && s == "FF" {
		return new(big.Int).Lsh(big.NewInt(1), 126), true
	}
	s = (s + strings.Repeat("0", 32))[:32]
	return new(big.Int).SetString(s, 16)
}

// keyFraction is where the V2 EPK mid lies between lo and hi, as a
// fraction of the key space between them.
func keyFraction(lo, mid, hi string) (float64, bool) {
	a, ok1 := epkNumber(lo, false)
	m, ok2 := epkNumber(mid, false)
	b, ok3 := epkNumber(hi, true)
	if !ok1 || !ok2 || !ok3 || b.Cmp(a) <= 0 {
		return 0, false
	}
	num, _ := new(big.Float).SetInt(new(big.Int).Sub(m, a)).Float64()
	den, _ := new(big.Float).SetInt(new(big.Int).Sub(b, a)).Float64()
	f := num / den
	if f <= 0 || f >= 1 {
		return 0, false
	}
	return f, true
}

// midpoint is the hex EPK halfway between two V2 EPKs (see epkNumber).
func midpoint(lo, hi string) (string, bool) {
	a, ok1 := epkNumber(lo, false)
	b, ok2 := epkNumber(hi, true)
	if !ok1 || !ok2 {
		return "", false
	}
	m := new(big.Int).Add(a, b)
	m.Rsh(m, 1)
	if m.Cmp(a) <= 0 {
		return "", false
	}
	s := strings.ToUpper(m.Text(16))
	return strings.Repeat("0", 32-len(s)) + s, true
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

// suffixGrowth grows the values of a key whose last term is a computed
// suffix (hash(/id)%N) by their group, the values that share the rest of
// the key: each keeps what the sample holds, and the group's growth is
// shared evenly over its N suffixes.
type suffixGrowth struct {
	n, grow     float64
	group       map[string]*suffixGroup
	unseenBytes float64 // the growth of the suffixes the sample lacks
	unseenDocs  float64
	unseenReq   float64
}

type suffixGroup struct {
	docs, bytes int64
	requests    float64
}

// lastSuffix is the N of a synthetic key whose last term is a computed
// suffix (hash(/path)%N), else 0.
func lastSuffix(spec key.Spec) int {
	if spec.Kind != key.Synthetic || len(spec.Terms) < 2 {
		return 0
	}
	return spec.Terms[len(spec.Terms)-1].Modulus
}

// restOf is the value without its suffix ("contoso-7" is "contoso"), and
// false for a value that is not a synthetic key's string.
func restOf(vals []epk.Value) (string, bool) {
	if len(vals) != 1 || vals[0].Kind != epk.String {
		return "", false
	}
	i := strings.LastIndexByte(vals[0].Str, '-')
	if i < 0 {
		return "", false
	}
	return vals[0].Str[:i], true
}

func (d *Distribution) suffixGrowth(n int, grow float64) *suffixGrowth {
	g := &suffixGrowth{n: float64(n), grow: grow, group: map[string]*suffixGroup{}}
	seen := map[string]int{}
	for i := range d.Logical {
		l := &d.Logical[i]
		rest, ok := restOf(l.Values)
		if !ok {
			continue
		}
		s := g.group[rest]
		if s == nil {
			s = &suffixGroup{}
			g.group[rest] = s
		}
		s.docs += l.Documents
		s.bytes += l.Bytes
		s.requests += l.Requests
		seen[rest]++
	}
	for rest, s := range g.group {
		unseen := max(0, g.n-float64(seen[rest]))
		g.unseenBytes += unseen * float64(s.bytes) * (grow - 1) / g.n
		g.unseenDocs += unseen * float64(s.docs) * (grow - 1) / g.n
		g.unseenReq += unseen * s.requests * (grow - 1) / g.n
	}
	return g
}

// scaled is l at the target scale: what the sample holds, and its share of
// its group's growth.
func (g *suffixGrowth) scaled(l Logical) Logical {
	rest, ok := restOf(l.Values)
	s := g.group[rest]
	if !ok || s == nil {
		l.Documents = int64(math.Round(float64(l.Documents) * g.grow))
		l.Bytes = int64(math.Round(float64(l.Bytes) * g.grow))
		l.Requests *= g.grow
		return l
	}
	add := (g.grow - 1) / g.n
	l.Documents += int64(math.Round(float64(s.docs) * add))
	l.Bytes += int64(math.Round(float64(s.bytes) * add))
	l.Requests += s.requests * add
	return l
}

// largest is the n largest logical partitions at the target scale, as
// Distribution.largest orders them.
func (g *suffixGrowth) largest(d *Distribution, n int) []int32 {
	order := make([]int32, len(d.Logical))
	size := make([]Logical, len(d.Logical))
	for i := range d.Logical {
		order[i] = int32(i)
		size[i] = g.scaled(d.Logical[i])
	}
	slices.SortStableFunc(order, func(i, j int32) int { return compareSize(&size[i], &size[j]) })
	return order[:min(n, len(order))]
}

// Ranges are the EPK ranges of the projection's physical partitions.
func (p Projection) Ranges() []epk.Range {
	out := make([]epk.Range, len(p.Physical))
	for i, ph := range p.Physical {
		out[i] = epk.Range{MinInclusive: ph.MinInclusive, MaxExclusive: ph.MaxExclusive}
	}
	return out
}

// SuffixGroupShare is, for a key whose last term is a computed suffix, the
// largest share of the documents one value of the rest of the key holds
// over all its suffixes; 0 for any other key, or past the exact limit.
func (d *Distribution) SuffixGroupShare() float64 {
	if lastSuffix(d.Spec) == 0 || d.Estimated || d.Documents == 0 {
		return 0
	}
	g := d.suffixGrowth(lastSuffix(d.Spec), 1)
	var most int64
	for _, s := range g.group {
		most = max(most, s.docs)
	}
	return float64(most) / float64(d.Documents)
}
