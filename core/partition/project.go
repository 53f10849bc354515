package partition

import (
	"container/heap"
	"math"
	"slices"
	"strings"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
)

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

// Ranges are the EPK ranges of the projection's physical partitions.
func (p Projection) Ranges() []epk.Range {
	out := make([]epk.Range, len(p.Physical))
	for i, ph := range p.Physical {
		out[i] = epk.Range{MinInclusive: ph.MinInclusive, MaxExclusive: ph.MaxExclusive}
	}
	return out
}
