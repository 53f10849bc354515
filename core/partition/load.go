package partition

import (
	"math"
	"slices"

	"github.com/pkcalc/pkcalc/core/epk"
)

// Traffic is how requests spread over key values.
type Traffic string

const (
	ByDocuments Traffic = "documents" // in proportion to each key value's documents
	Uniform     Traffic = "uniform"   // the same for every key value
	ByWeight    Traffic = "weighted"  // in proportion to the weight field or the aggregates' requests
)

// Shares returns each physical partition's share of the requests, and the
// largest share any one logical partition takes.
func (d *Distribution) Shares(phys []Physical, t Traffic) (partitions []float64, hottestLogical float64) {
	if t == ByWeight && !d.Weighted {
		t = ByDocuments
	}
	weight := func(docs, logical int64, req float64) float64 {
		switch t {
		case Uniform:
			return float64(logical)
		case ByWeight:
			return req
		}
		return float64(docs)
	}
	partitions = make([]float64, len(phys))
	var total float64
	for i, p := range phys {
		partitions[i] = weight(p.Documents, p.LogicalPartitions, p.Requests)
		total += partitions[i]
	}
	if total == 0 {
		return partitions, 0
	}
	for i := range partitions {
		partitions[i] /= total
	}
	for l := range d.All() {
		hottestLogical = max(hottestLogical, weight(l.Documents, 1, l.Requests)/total)
	}
	return partitions, hottestLogical
}

// Shares returns each physical partition's share of the requests at the
// target scale, where they follow the data as it will be: the values to
// come, spread over the key space, take most of a growing key's requests,
// and the sample's chance counts per partition would make a perfectly even
// key look hot; and the largest share one logical partition takes.
func (p Projection) Shares(t Traffic, weighted bool) (partitions []float64, hottestLogical float64) {
	if t == ByWeight && !weighted {
		t = ByDocuments
	}
	if len(p.Physical) == 0 {
		return nil, 0
	}
	out := make([]float64, len(p.Physical))
	var total float64
	for i, ph := range p.Physical {
		switch t {
		case Uniform:
			out[i] = p.values[i]
		case ByWeight:
			out[i] = ph.Requests
		default:
			out[i] = float64(ph.Documents)
		}
		total += out[i]
	}
	if total == 0 {
		return nil, 0
	}
	for i := range out {
		out[i] /= total
	}
	hot := float64(p.hottestDocs)
	switch t {
	case Uniform:
		hot = 1
	case ByWeight:
		hot = p.hottestRequests
	}
	return out, min(1, hot/total)
}

// requests is the request weight of every document counted.
func (d *Distribution) requests() float64 {
	r := d.Overflow.Requests
	for _, l := range d.Logical {
		r += l.Requests
	}
	return r
}

// Matches is how many documents share the key value of one request, on
// average over the requests, at factor times the sample: what a query
// that pins every key path with = loads. Requests pick values as t says:
// by documents, a value as often as it has documents (so Σ n² / N, the
// large values weigh most); uniform, every value alike (N / values);
// weighted, by the weight field. At the target, the values seen grow as
// Project grows them and the values to come (Singletons) hold one document
// each; where values keep coming (GrowsByNewValues), each keeps its
// documents and the new ones come as the sample's did, so the sample's
// average holds. Documents that lack a key path match no request.
//
// With want set, it is the documents of that one value (a query that
// names a literal): 0 for a value the sample does not hold exactly.
func (d *Distribution) Matches(factor float64, t Traffic, want []epk.Value) float64 {
	factor, t, pNew, grow := d.matching(factor, t)
	if want != nil {
		for l := range d.All() {
			if equal(l.Values, want) {
				return float64(l.Documents) * grow
			}
		}
		return 0
	}
	return d.average(factor, t, grow, pNew, nil, nil)
}

// MatchesLike is Matches for a request that names some levels of the key
// and leaves the others to a parameter: the average over the values whose
// levels are those of pattern wherever any is false. The values past the
// exact limit and those to come count in the share of the documents the
// matching values hold.
func (d *Distribution) MatchesLike(factor float64, t Traffic, pattern []epk.Value, any []bool) float64 {
	if !slices.Contains(any, true) {
		return d.Matches(factor, t, pattern)
	}
	factor, t, pNew, grow := d.matching(factor, t)
	return d.average(factor, t, grow, pNew, pattern, any)
}

// matching is what Matches works with: the factor (1 below 1 or when it
// is not a number), the traffic (by documents when weighted with no
// weights), the share of new values and how each value seen grows.
func (d *Distribution) matching(factor float64, t Traffic) (float64, Traffic, float64, float64) {
	if !(factor >= 1) || math.IsInf(factor, 0) {
		factor = 1
	}
	if t == ByWeight && !d.Weighted {
		t = ByDocuments
	}
	pNew := d.NewValueShare()
	return factor, t, pNew, 1 + (factor-1)*(1-pNew)
}

// average is Matches's average over the values, or over those like
// pattern (see MatchesLike).
func (d *Distribution) average(factor float64, t Traffic, grow, pNew float64, pattern []epk.Value, any []bool) float64 {
	like := func(vals []epk.Value) bool {
		for i, v := range pattern {
			if !any[i] && (i >= len(vals) || !equal(vals[i:i+1], []epk.Value{v})) {
				return false
			}
		}
		return true
	}
	var num, den float64
	add := func(docs, values, requests, per float64) {
		switch t {
		case Uniform:
			num, den = num+values*per, den+values
		case ByWeight:
			num, den = num+requests*per, den+requests
		default:
			num, den = num+docs*per, den+docs
		}
	}
	// Each value weighs as it will be: its documents and requests at the
	// target, grown as Project grows them, beside the values to come.
	var kept, liked float64 // documents of the kept values, and of those like pattern
	for l := range d.All() {
		if slices.ContainsFunc(l.Values, func(v epk.Value) bool { return v.Kind == epk.Undefined }) {
			continue
		}
		kept += float64(l.Documents)
		if pattern != nil && !like(l.Values) {
			continue
		}
		liked += float64(l.Documents)
		n := float64(l.Documents) * grow
		add(n, 1, l.Requests*grow, n)
	}
	share := 1.0 // of the values not kept or to come, those like pattern
	if pattern != nil {
		share = liked / math.Max(kept, 1)
	}
	if o := d.Overflow; o.Documents > 0 && share > 0 {
		// Past the exact limit the values are counted, not kept: each holds
		// the overflow's documents over its share of the distinct values.
		extra := max(1, float64(d.Distinct-int64(len(d.Logical)+len(d.Heavy))))
		per := max(1, float64(o.Documents)/extra)
		add(float64(o.Documents)*grow*share, extra*share, o.Requests*grow*share, per*grow)
	}
	// The values to come, from the documents that have the key. Where
	// values keep coming, each keeping its documents, the new ones come
	// as the sample's did: the sample's average is the target's.
	if fresh := float64(d.Documents-d.Unkeyed()) * (factor - 1) * pNew * share; fresh > 0 && !d.GrowsByNewValues() {
		add(fresh, fresh, d.requests()*(factor-1)*pNew*share, 1)
	}
	if den == 0 {
		return 0
	}
	return num / den
}

// ItemShares is each range's share of the documents that requests for
// whole key values read, when every request reads its value's documents
// (a query that pins the key): a value's requests times its documents,
// placed by its EPK. The busiest value's share comes with it. Past the
// exact limit, values hold a document each.
func (d *Distribution) ItemShares(ranges []epk.Range, t Traffic) (partitions []float64, hottestLogical float64) {
	if t == ByWeight && !d.Weighted {
		t = ByDocuments
	}
	weight := func(l *Logical) float64 {
		n := float64(l.Documents)
		switch t {
		case Uniform:
			return n
		case ByWeight:
			return l.Requests * n
		}
		return n * n
	}
	partitions = make([]float64, len(ranges))
	var total, hot float64
	put := func(e string, w float64) {
		if i := epk.Locate(ranges, e); i >= 0 {
			partitions[i] += w
			total += w
		}
	}
	for l := range d.All() {
		w := weight(l)
		hot = max(hot, w)
		put(l.EPK, w)
	}
	for _, b := range d.Overflow.Buckets {
		w := float64(b.Documents)
		if t == ByWeight {
			w = b.Requests
		}
		put(b.Prefix, w)
	}
	if total == 0 {
		return partitions, 0
	}
	for i := range partitions {
		partitions[i] /= total
	}
	return partitions, hot / total
}
