package partition

import (
	"math"

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
	g := d.growth(factor)
	p := Projection{Factor: g.factor, NewValueShare: g.pNew, SuffixSpread: g.suffixed != nil}
	p.Documents = int64(math.Round(float64(d.Documents) * g.factor))
	p.Bytes = int64(math.Round(float64(d.Bytes) * g.factor))
	p.countOver(g, maxLogical, alert)
	p.listOver(g)
	parts := g.simRanges(ranges)
	var overflowDocs float64 // of the values past the exact limit, by which sum shares them out
	for _, r := range parts {
		overflowDocs += r.overflowDocs
	}
	parts = p.splitFullest(parts, d.Version, maxPhysical, g.uniformBytes)
	p.sum(g, parts, overflowDocs)
	return p
}

// growth is how Project grows a distribution by factor: each value seen by
// grow (or, with a computed suffix, by its group, see suffixGrowth), and
// the new values by the mass they bring (see newValues).
type growth struct {
	d            *Distribution
	factor, pNew float64
	grow         float64 // of each value seen
	clustered    bool    // a hierarchical key: new values land beside the values of their first levels
	suffixed     *suffixGrowth

	// The new values' mass, spread evenly over the key space, and how
	// many new values a document that brings one brings.
	uniformBytes, uniformDocs, uniformReq, uniformValues float64
	perDoc                                               float64
}

// growth works out how d grows by factor, taken as 1 below 1 or when it
// is not a number.
func (d *Distribution) growth(factor float64) *growth {
	if factor < 1 || math.IsNaN(factor) || math.IsInf(factor, 0) {
		factor = 1
	}
	// A key with a time bucket grows by adding buckets: the documents to
	// come are written in hours, days or months not yet seen, so the
	// values seen (past buckets) keep their size; so does a key whose
	// values keep coming (NewValueShare).
	pNew := d.NewValueShare()
	// A hierarchical key's new values land beside those of their first
	// level, unless new first levels come too (new tenants).
	clustered := d.Spec.Kind == key.MultiHash && d.newValues != byNewFirst
	g := &growth{d: d, factor: factor, pNew: pNew, grow: 1 + (factor-1)*(1-pNew), clustered: clustered}
	// A computed suffix spreads a value of the rest of the key evenly
	// over its suffixes as the data grows: how unevenly the sample's few
	// documents fell on them is chance, and growing it would make a
	// suffix sized to stay under the limit pass it.
	if n := lastSuffix(d.Spec); n > 0 && !d.Estimated && g.grow > 1 {
		g.suffixed = d.suffixGrowth(n, g.grow)
	}
	g.newValues()
	return g
}

// scaled is l at the target scale. The documents that lack the key share
// one undefined value, and the documents to come lack it as often: that
// value grows with the data, by factor, not as a value the new ones
// dilute (5 % of 1 TB lacking the key is one logical partition of 50 GB).
func (g *growth) scaled(l Logical) Logical {
	grow := g.grow
	switch {
	case unkeyed(l.Values):
		grow = g.factor
	case g.suffixed != nil:
		return g.suffixed.scaled(l)
	}
	l.Documents = int64(math.Round(float64(l.Documents) * grow))
	l.Bytes = int64(math.Round(float64(l.Bytes) * grow))
	l.Requests *= grow
	return l
}

// newValues works out the mass of new values. A hash key spreads them
// evenly over the key space; a hierarchical key puts them beside the values
// that share their first levels (a tenant's new items land in the tenant's
// range), so there the new mass follows the existing partitions.
func (g *growth) newValues() {
	d, factor, pNew := g.d, g.factor, g.pNew
	// Of the documents that have the key: those that lack it grow their
	// one value (scaled).
	lack := d.unkeyedSum()
	g.uniformBytes = float64(d.Bytes-lack.Bytes) * (factor - 1) * pNew
	g.uniformDocs = float64(d.Documents-lack.Documents) * (factor - 1) * pNew
	g.uniformReq = (d.requests() - lack.Requests) * (factor - 1) * pNew
	// The new values themselves: one per document that brings one, but
	// for a time bucket, whose new documents go to new buckets, as many as
	// the sample has per document.
	newValueDocs := float64(d.Documents) * pNew
	g.perDoc = 1.0
	if newValueDocs > 0 {
		g.perDoc = min(newValueDocs, float64(d.Distinct)) / newValueDocs
	}
	g.uniformValues = newValueDocs * (factor - 1) * g.perDoc
	if g.suffixed != nil {
		// The suffixes the sample has not shown yet take their share too,
		// at places the hash scatters over the key space.
		g.uniformBytes += g.suffixed.unseenBytes
		g.uniformDocs += g.suffixed.unseenDocs
		g.uniformReq += g.suffixed.unseenReq
	}
	if g.clustered {
		g.uniformBytes, g.uniformDocs, g.uniformReq, g.uniformValues = 0, 0, 0, 0
	}
}

// countOver counts the logical partitions past the limit and past the
// alert line at the target scale, and finds the most documents and
// requests one holds. Scaling keeps Largest's order, so the partitions
// over the limit are the largest ones, and those over the alert line the
// next: counted in any order, and only the few listed are put in order
// (listOver).
func (p *Projection) countOver(g *growth, maxLogical, alert int64) {
	for l := range g.d.All() {
		s := g.scaled(*l)
		p.hottestDocs, p.hottestRequests = max(p.hottestDocs, s.Documents), max(p.hottestRequests, s.Requests)
		switch {
		case s.Bytes > maxLogical:
			p.OverLimitN++
		case s.Bytes > alert:
			p.OverAlertN++
		}
	}
}

// listOver lists the largest logical partition at the target scale and the
// first ten of those past the limit and of those past the alert line.
func (p *Projection) listOver(g *growth) {
	d := g.d
	over := int(p.OverLimitN)
	var top []int32
	if g.suffixed != nil {
		top = g.suffixed.largest(d, max(1, over+min(int(p.OverAlertN), 10)))
	} else {
		top = d.largest(max(1, over+min(int(p.OverAlertN), 10)))
	}
	if len(top) > 0 {
		if s := g.scaled(*d.at(top[0])); s.Bytes > 0 {
			p.Largest = s
		}
	}
	for k, i := range top {
		switch {
		case k < min(over, 10):
			p.OverLimit = append(p.OverLimit, g.scaled(*d.at(i)))
		case k >= over:
			p.OverAlert = append(p.OverAlert, g.scaled(*d.at(i)))
		}
	}
}

// simRanges are ranges as the split simulation starts from them, each
// holding its values at the target scale.
func (g *growth) simRanges(ranges []epk.Range) []simRange {
	parts := make([]simRange, len(ranges))
	for i, r := range ranges {
		parts[i] = simRange{min: r.MinInclusive, max: r.MaxExclusive, width: 1 / float64(len(ranges))}
	}
	g.placeLogical(parts, ranges)
	g.placeOverflow(parts, ranges)
	for i := range parts {
		parts[i].total = parts[i].bytes(g.uniformBytes)
	}
	return parts
}

// placeLogical puts each logical partition in the range of parts that
// holds its EPK. Each range's list is sized first: grown by appending, the
// lists of tens of thousands were copied over and over.
func (g *growth) placeLogical(parts []simRange, ranges []epk.Range) {
	d := g.d
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
			parts[i].logical = append(parts[i].logical, g.simulated(l))
		}
	}
}

// simulated is l at the target scale as the split simulation takes it.
func (g *growth) simulated(l Logical) simLogical {
	s := g.scaled(l)
	sl := simLogical{EPK: s.EPK, Documents: s.Documents, Bytes: s.Bytes, Requests: s.Requests, pos: math.NaN()}
	if g.d.Version != epk.V1 || g.clustered {
		sl.pos = unplaced
	}
	if g.clustered {
		// The first level's new values land beside the value, in the
		// gap up to the next: the logical partition itself grows as
		// a hash key's value does, the gap takes the rest of the
		// factor, and a split can cut the gap.
		sl.GapDocs = float64(l.Documents)*g.factor - float64(s.Documents)
		sl.GapBytes = float64(l.Bytes)*g.factor - float64(s.Bytes)
		sl.GapReq = l.Requests*g.factor - s.Requests
	}
	return sl
}

// placeOverflow puts the values past the exact limit in the ranges of
// parts that hold their buckets' prefixes, grown as the values kept are,
// or, for a hierarchical key, whose new values are not spread over the key
// space, by the whole factor.
func (g *growth) placeOverflow(parts []simRange, ranges []epk.Range) {
	bucketGrowth := g.grow
	if g.clustered {
		bucketGrowth = g.factor
	}
	for _, b := range g.d.Overflow.Buckets {
		i := epk.Locate(ranges, b.Prefix)
		if i >= 0 {
			parts[i].overflowDocs += float64(b.Documents) * bucketGrowth
			parts[i].overflowBytes += float64(b.Bytes) * bucketGrowth
			parts[i].overflowReq += b.Requests * bucketGrowth
		}
	}
}

// sum adds up what each range of parts holds after the splits into
// Physical and values, the values past the exact limit shared out as
// Place shares them, by the documents past it each range holds
// (overflowDocs in all).
func (p *Projection) sum(g *growth, parts []simRange, overflowDocs float64) {
	d := g.d
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
		ph.Documents += int64(math.Round(gapDocs + r.overflowDocs + g.uniformDocs*r.width))
		ph.Bytes += int64(math.Round(gapBytes + r.overflowBytes + g.uniformBytes*r.width))
		ph.Requests += r.overflowReq + g.uniformReq*r.width
		p.Physical[i] = ph
		p.values[i] = float64(ph.LogicalPartitions) + gapDocs*g.perDoc + g.uniformValues*r.width
		if overflowDocs > 0 {
			p.values[i] += float64(d.Distinct-int64(len(d.Logical))) * r.overflowDocs / overflowDocs
		}
	}
}

// Ranges are the EPK ranges of the projection's physical partitions.
func (p Projection) Ranges() []epk.Range {
	out := make([]epk.Range, len(p.Physical))
	for i, ph := range p.Physical {
		out[i] = epk.Range{MinInclusive: ph.MinInclusive, MaxExclusive: ph.MaxExclusive}
	}
	return out
}
