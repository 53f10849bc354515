package advisor

import (
	"math"
	"slices"
	"strings"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/partition"
	"github.com/pkcalc/pkcalc/core/query"
)

// Load is the workload on the physical partitions of one layout.
type Load struct {
	Active  bool
	Costs   capacity.Costs
	TotalRU float64 // RU/s the workload needs under the key
	// BaseRU is what it would need under a key that served every
	// operation from one partition: what no key can save.
	BaseRU float64
	// WriteRU is the part of TotalRU that writes.
	WriteRU float64
	// Shares are each physical partition's share of the demand: of the
	// RU/s asked of all of them with a workload, a query that reads every
	// partition asking each alike; without one, of the requests as the
	// traffic model spreads them over the key's values.
	Shares     []float64
	DemandRU   []float64 // RU/s each physical partition is asked for
	CapacityRU float64   // RU/s each physical partition has
	Throttle   capacity.Throttle
	// HottestLogiRU is what the busiest logical partition is asked for,
	// against the 10,000 RU/s one key value can get.
	HottestLogiRU float64
	// Charges are what one execution of each operation of the workload
	// file costs on this layout, in its order.
	Charges []Charge
}

// Charge is what one execution of an operation costs under a key.
type Charge struct {
	RU         float64 // request units
	Partitions int     // physical partitions it reads or writes
	Items      float64 // items a query loads; 0 for other operations
	// AtMost: the query has conditions besides the equality filters its
	// items are counted by (a range, a function, an OR), which may leave
	// fewer: Items is at most what it loads.
	AtMost bool
}

// layout is a set of physical partitions and how the key's requests fall
// on them.
type layout struct {
	ranges []epk.Range
	// shares is each partition's share of the requests that go by key
	// value, as the traffic model has them; hottest the largest share of
	// one logical partition.
	shares  []float64
	hottest float64
	// writes is each partition's share of the writes of the moment, and
	// hotWrite the busiest logical partition's.
	writes   []float64
	hotWrite float64
	// items is each partition's share of the documents that queries
	// pinning the whole key read (partition.ItemShares), and hotItems the
	// busiest value's.
	items    []float64
	hotItems float64
	// span is how many partitions a prefix of that many levels of a
	// hierarchical key reads, on average over the documents.
	span func(levels int) float64
}

// layoutOf works out how the key's requests fall on the partitions of
// projection p, placing the sample on them.
func (e *Evaluation) layoutOf(p partition.Projection) layout {
	ranges := p.Ranges()
	return e.layout(ranges, p, e.Dist.Place(ranges), e.Dist.TargetWriteSpread(ranges))
}

// layout works out how the key's requests fall on ranges, the partitions
// of projection p, on which the sample is placed as phys and its writes
// through time spread as sp (nil without a time field).
func (e *Evaluation) layout(ranges []epk.Range, p partition.Projection, phys []partition.Physical, sp *partition.Spread) layout {
	d := e.Dist
	traffic := e.traffic()
	l := layout{ranges: ranges}
	l.shares, l.hottest = d.Shares(phys, traffic)
	if p.Factor > 1 {
		if sh, hot := p.Shares(traffic, d.Weighted); sh != nil {
			l.shares = sh
			if p.SuffixSpread || oneItemEach(d, traffic) || newAtTarget(d) {
				// A computed suffix spreads its group evenly: which suffix
				// the sample's few documents favour is chance, which the
				// target's share of each undoes; a value of one item stays
				// one item among many more. (Other keys keep the sample's
				// busiest value: for a time bucket, the moment matters, not
				// the bucket's share of all time.)
				l.hottest = hot
			}
		}
	}
	l.items, l.hotItems = d.ItemShares(ranges, traffic)
	if newAtTarget(d) && p.Factor > 1 && l.shares != nil {
		// The sample's values are a factor-th of the target's, the rest
		// spread as the documents do.
		l.items, l.hotItems = l.shares, l.hotItems/p.Factor
	}
	l.writes, l.hotWrite = l.shares, l.hottest
	if concentrated, crowded := writesCrowd(d, sp, len(ranges), fullestShare(p)); (concentrated || crowded) && len(sp.Moment) == len(ranges) {
		// Writes go where the writes of the moment go: for a key whose
		// values follow time (a bucket, a date), to the few partitions of
		// the values current now, not as the data spreads in total.
		l.writes, l.hotWrite = sp.Moment, max(l.hottest, sp.HottestKeyShare)
	}
	if d.Spec.TimeBucket() != "" && sp != nil && sp.SamplesMedian >= minBucketSamples {
		// A time bucket's value takes its share of all time, but its
		// writes all come while it is current: a busy device's bucket of
		// the moment takes the device's whole share of the writes.
		l.hotWrite = max(l.hotWrite, sp.HottestKeyShare)
	}
	if d.KeyIsTime() && len(l.shares) > 0 {
		// One value a second: the second's writes all go to the partition
		// that holds it, the busiest one at worst.
		l.writes, l.hotWrite = make([]float64, len(ranges)), 1
		l.writes[slices.Index(l.shares, slices.Max(l.shares))] = 1
	}
	// Worked out once per prefix length: each walks every logical
	// partition, and a workload may hold many prefix queries.
	spans := map[int]float64{}
	l.span = func(levels int) float64 {
		if _, ok := spans[levels]; !ok {
			spans[levels] = prefixSpan(d, ranges, levels)
		}
		return spans[levels]
	}
	return l
}

// newAtTarget reports whether the key's values keep coming, as new ones
// spread over the key space (partition.Distribution.NewFirstLevels), and
// not as a time bucket's, whose values of the moment are what matters:
// at the target the sample's busiest value is one of many more, as busy
// as in the sample, and its share of the requests falls with the data.
// /roomId was charged 5,750 RU/s for one 1.9 MB room of 9.2 million.
func newAtTarget(d *partition.Distribution) bool {
	return d.NewFirstLevels() && d.Spec.TimeBucket() == "" && !d.KeyIsTime()
}

// oneItemEach reports whether every value of the key holds one document
// (a key ending in the item id, /tenant,/id): at the target each still
// holds one item, so the busiest is the target's, one of many more
// (partition.Projection.Shares), not the sample's one in its documents.
// Requests by weight keep the sample's busiest item.
func oneItemEach(d *partition.Distribution, t partition.Traffic) bool {
	return t != partition.ByWeight && d.Singletons() >= 1
}

// traffic is how requests spread over the key's values.
func (e *Evaluation) traffic() partition.Traffic {
	t := e.settings.Workload.Traffic
	if t == "" {
		t = partition.ByDocuments
		if e.Dist.Weighted {
			t = partition.ByWeight
		}
	}
	return t
}

// demand is the RU/s the workload asks of a layout, by where it goes.
type demand struct {
	keyed   float64 // goes where the key's values send it
	items   float64 // of keyed, the items queries for whole key values read: goes as those values' documents
	writes  float64 // of keyed, what writes: goes where the writes of the moment go
	fanOut  float64 // goes to every partition alike
	base    float64 // what it would be if every operation read one partition
	charges []Charge
}

// load puts the workload on a layout.
func (e *Evaluation) load(l layout) Load {
	s, c := e.settings, e.costs
	idle := Load{Shares: l.shares} // no workload: requests would spread as the key's values do
	if !s.Workload.Active() && !e.Queries.Active {
		return idle
	}
	var dm demand
	e.operationsDemand(l, &dm)
	w := s.Workload
	// The rates of the settings add to the file's, but for queries: a file
	// that lists queries is scaled to the settings' rate; one that lists
	// none gets them as single-partition queries for one item.
	one := w.Reads*c.PointRead + w.Writes*c.Write
	if !e.Queries.scaled {
		one += w.Queries * c.QueryCharge(1, 1, false)
	}
	dm.keyed += one
	dm.base += one
	dm.writes += w.Writes * c.Write
	if dm.keyed+dm.fanOut == 0 {
		return idle
	}
	out := Load{Active: true, Costs: c, Charges: dm.charges}
	p := len(l.ranges)
	out.TotalRU = dm.keyed + dm.fanOut
	out.WriteRU = dm.writes
	out.BaseRU = min(dm.base, out.TotalRU)
	out.CapacityRU = capacity.PerPartitionRU(e.Throughput, p)
	out.DemandRU = make([]float64, p)
	out.Shares = make([]float64, p)
	spread := dm.keyed - dm.writes - dm.items
	for i := range l.ranges {
		keyed := l.shares[i]*spread + l.writes[i]*dm.writes + l.items[i]*dm.items
		out.DemandRU[i] = keyed + dm.fanOut/float64(p)
		// A partition that every query reads is busy however the key's
		// values fall: its share counts them too.
		out.Shares[i] = out.DemandRU[i] / out.TotalRU
	}
	out.Throttle = capacity.Throttling(out.DemandRU, out.CapacityRU)
	out.HottestLogiRU = l.hottest*spread + l.hotWrite*dm.writes + l.hotItems*dm.items
	return out
}

// operationsDemand adds what the workload file's operations ask of a
// layout.
func (e *Evaluation) operationsDemand(l layout, dm *demand) {
	c := e.costs
	p := len(l.ranges)
	for i, v := range e.Queries.Verdicts {
		op := e.settings.Operations[i]
		r := v.Assessment.Routing
		touched, ok := literalPrefixes(op.Shape, e.Dist.Spec, r, l.ranges)
		if !ok {
			touched = touches(r, p, l.span)
		}
		switch op.Kind {
		case query.QueryOp:
			charge, items := e.queryCharge(op, touched)
			base, _ := e.queryCharge(op, 1)
			dm.base += v.Rate * base
			dm.charges = append(dm.charges, Charge{RU: charge, Partitions: touched, Items: e.loaded(op, touched),
				AtMost: op.Shape.Narrowed})
			switch {
			case r.Kind == query.FanOut:
				dm.fanOut += v.Rate * charge
			case r.Kind == query.Single && pinsKey(op.Shape, e.Dist.Spec):
				// A query for one key value reads that value's documents:
				// a large value's queries load its partition the more.
				dm.keyed += v.Rate * charge
				dm.items += v.Rate * items
			default:
				dm.keyed += v.Rate * charge
			}
		case query.ReadOp, query.DeleteOp:
			// A point read or delete by id and key; without the whole key
			// its item is found by a query first, which costs as any query
			// routed alike, for its one item.
			var point, write float64
			if op.Kind == query.DeleteOp {
				write = writeCharge(op.Op, c)
			} else {
				point = charged(op.RU, c.PointRead)
			}
			dm.base += v.Rate * (point + write)
			find := point
			if r.Kind != query.Single {
				find = c.QueryCharge(touched, 1, false)
			}
			dm.charges = append(dm.charges, Charge{RU: find + write, Partitions: touched})
			if r.Kind == query.FanOut {
				dm.fanOut += v.Rate * find
			} else {
				dm.keyed += v.Rate * find
			}
			dm.keyed += v.Rate * write
			dm.writes += v.Rate * write
		default:
			write := writeCharge(op.Op, c)
			dm.charges = append(dm.charges, Charge{RU: write, Partitions: 1})
			dm.base += v.Rate * write
			dm.keyed += v.Rate * write
			dm.writes += v.Rate * write
		}
	}
}

// WriteRU is the RU/s the workload's writes ask for, whatever the key:
// the inserts per second of the settings and the writes of the workload
// file, each at its charge for items like it (measured or modelled), as
// the load counts them. Candidates sizes a computed suffix by it.
func WriteRU(w Workload, ops []query.Op, it capacity.Item) float64 {
	c := costsOf(Settings{Workload: w, Item: it})
	total := w.Writes * c.Write
	for _, op := range ops {
		switch op.Kind {
		case query.QueryOp, query.ReadOp:
		default:
			total += op.Weight * writeCharge(op, c)
		}
	}
	return total
}

// writeCharge is what one execution of a write costs: its measured charge,
// or its kind's share of an insert for each item it writes.
func writeCharge(op query.Op, c capacity.Costs) float64 {
	return charged(op.RU, c.Write*writeFactor(op.Kind)*float64(max(op.Items, 1)))
}

// charged is the measured charge when there is one, else the model's.
func charged(measured, model float64) float64 {
	if measured > 0 {
		return measured
	}
	return model
}

// writeFactor is what a write costs against an insert (package capacity).
func writeFactor(k query.OpKind) float64 {
	switch k {
	case query.ReplaceOp, query.UpsertOp, query.PatchOp:
		return capacity.ReplaceFactor
	case query.DeleteOp:
		return capacity.DeleteFactor
	}
	return 1
}

// queryCharge is what one execution of a query costs when it reads touched
// partitions, and of it what its items cost.
func (e *Evaluation) queryCharge(op Operation, touched int) (charge, items float64) {
	c := e.costs
	if op.RU > 0 {
		// Measured on one partition: each further one checks its index.
		return op.RU + capacity.FanOutSurcharge(touched), 0
	}
	n := e.loaded(op, touched)
	charge = c.QueryCharge(touched, n, op.Shape.Sorts)
	return charge, charge - c.QueryCharge(touched, 0, false)
}

// loaded is how many items one request of a query loads when it reads
// touched partitions: what its filters match, up to a page from each
// partition. A workload's query is one request, as an application that
// shows a page at a time makes it; one read to its end makes a request for
// each page, and counts as many (its rate times its pages), or gives TOP.
// TOP n stops at n + 1 in each partition read (query-metrics: "TOP n
// retrieves n + 1") and OFFSET o LIMIT l at o + l. An aggregate reads every
// item it matches before it returns its one value.
func (e *Evaluation) loaded(op Operation, touched int) float64 {
	n := op.Matches
	sh := op.Shape
	if sh.Aggregate {
		return n
	}
	n = min(n, float64(touched)*pageItems(e.settings.Item.Bytes))
	if sh.Top > 0 {
		n = min(n, float64(touched*(sh.Top+1)))
	}
	if sh.Limit > 0 {
		n = min(n, float64(touched*(sh.Offset+sh.Limit)))
	}
	return n
}

// A page of query results: by default 100 items or 1 MB, whichever comes
// first (performance-tips: "results are returned in chunks of 100 items or
// 1 MB, whichever limit is hit first"; x-ms-max-item-count sets up to
// 1,000).
const (
	pageMaxItems = 100
	pageMaxBytes = 1 << 20
)

// pageItems is how many items of the given size a page holds, at least one.
func pageItems(itemBytes float64) float64 {
	if !(itemBytes > 0) {
		return pageMaxItems
	}
	return max(1, min(pageMaxItems, math.Floor(pageMaxBytes/itemBytes)))
}

// pinsKey reports whether a query's filters pin exactly the key's paths,
// each to one value given as a parameter: it reads one key value's
// documents, a different value each time, as requests choose values.
func pinsKey(sh query.Shape, spec key.Spec) bool {
	if spec.Kind == key.Synthetic || len(sh.Filters) != len(spec.Paths) {
		return false
	}
	want := spec.PathStrings()
	for _, f := range sh.Filters {
		if f.Values != 1 || f.Literals != nil || !slices.Contains(want, f.Path) {
			return false
		}
	}
	return true
}

// touches is how many of p physical partitions an operation routed by r
// reads. A targeted one reads the partitions of its values: n values
// hashed over p partitions fall on p(1 - (1 - 1/p)^n) of them on average;
// n prefixes of a hierarchical key, each filling s partitions (span), on
// p(1 - (1 - s/p)^n); an unknown number of values counts as half of them.
// Prefixes named by literals are located instead (literalPrefixes).
func touches(r query.Routing, p int, span func(levels int) float64) int {
	switch r.Kind {
	case query.Single:
		return 1
	case query.FanOut:
		return p
	}
	touched := 0
	switch n := float64(r.Values); {
	case n <= 0:
		touched = max(1, (p+1)/2)
	case r.Prefix > 0 && span != nil:
		// A prefix reads every partition its values fill: a large
		// tenant's many. Several fall on the same partitions as values
		// do, not on n times as many.
		f := float64(p)
		s := min(f, span(r.Prefix))
		touched = int(math.Round(f * (1 - math.Pow(1-s/f, n))))
	default:
		f := float64(p)
		touched = int(math.Round(f * (1 - math.Pow(1-1/f, n))))
	}
	return min(max(touched, 1), p)
}

// prefixSpan is how many of the ranges a prefix of the first levels of a
// hierarchical key spans, on average over its documents: a query for one
// tenant reads every partition the tenant's data has split into.
func prefixSpan(d *partition.Distribution, ranges []epk.Range, levels int) float64 {
	width := 32 * levels // hex digits of a level's hash
	var sum, docs float64
	for i := 0; i < len(d.Logical); {
		p := d.Logical[i].EPK[:min(width, len(d.Logical[i].EPK))]
		var n int64
		j := i
		for ; j < len(d.Logical) && strings.HasPrefix(d.Logical[j].EPK, p); j++ {
			n += d.Logical[j].Documents
		}
		if first, last, ok := prefixRanges(ranges, p); ok {
			sum += float64(n) * float64(last-first+1)
			docs += float64(n)
		}
		i = j
	}
	if docs == 0 {
		return 1
	}
	return sum / docs
}

// prefixRanges are the first and last of ranges that hold EPKs starting
// with prefix, the hashes of a hierarchical key's first levels: the
// physical partitions a query naming that prefix is routed to
// (hierarchical-partition-keys: "Queries by prefix are efficiently routed
// to the subset of partitions that hold the data").
func prefixRanges(ranges []epk.Range, prefix string) (first, last int, ok bool) {
	first, last = epk.Locate(ranges, prefix), epk.Locate(ranges, prefix+"FF")
	if last > 0 && ranges[last].MinInclusive == prefix+"FF" {
		last--
	}
	return first, last, first >= 0 && last >= first
}

// literalPrefixes is how many of ranges a query reads whose filters name
// the first levels of the hierarchical key by literals, each prefix's own
// partitions; ok is false when they are parameters, or the filters do not
// name the routing's prefixes as an AND of = and IN does.
func literalPrefixes(sh query.Shape, spec key.Spec, r query.Routing, ranges []epk.Range) (int, bool) {
	if spec.Kind != key.MultiHash || r.Prefix <= 0 || r.Prefix > len(spec.Paths) {
		return 0, false
	}
	levels := spec.PathStrings()[:r.Prefix]
	var fs []query.Filter
	for _, f := range sh.Filters {
		if slices.Contains(levels, f.Path) {
			fs = append(fs, f)
		}
	}
	tuples, ok := query.KeyValues(fs, levels)
	if !ok || len(tuples) != r.Values {
		return 0, false
	}
	read := map[int]bool{}
	for _, t := range tuples {
		if first, last, ok := prefixRanges(ranges, epk.MultiHash(t...)); ok {
			for i := first; i <= last; i++ {
				read[i] = true
			}
		}
	}
	return max(1, len(read)), true
}
