// Package advisor turns a key's measured distribution into a judgement: it
// lays the key out on the physical partitions the container would have at
// the target scale and throughput, puts the workload on them, scores the
// key from 0 to 100 with a visible breakdown and a grade, and writes
// findings and recommendations in plain language. It also proposes the
// candidate keys worth measuring.
//
// It knows Cosmos DB's rules through packages capacity and epk, and the
// data only through package partition's summaries; it reads no documents.
package advisor

import (
	"slices"
	"strings"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/partition"
	"github.com/pkcalc/pkcalc/core/query"
)

// Settings describe the container and its future.
type Settings struct {
	Throughput  capacity.Throughput // RU 0: the least the service allows for the data
	Partitions  int                 // physical partitions to start from; 0: from the throughput
	TargetBytes int64               // expected total size; 0 with TargetDocs 0: the sample's
	TargetDocs  int64               // expected total documents
	Workload    Workload
	Operations  []query.Op // the application's queries and operations, if given
}

// Workload is the application's request rate.
type Workload struct {
	Reads, Writes, Queries float64 // operations per second
	Costs                  *capacity.Costs
	Traffic                partition.Traffic // how requests spread over key values
	// Operations is the text of a workload file (queries with weights, or
	// JSON operations; see query.ReadWorkload), read by report.
	Operations string
}

// Active reports whether any request rate was given.
func (w Workload) Active() bool { return w.Reads+w.Writes+w.Queries > 0 }

// Evaluation is one key's judgement.
type Evaluation struct {
	Dist         *partition.Distribution
	Throughput   capacity.Throughput // as used: the given one or the minimum
	Physical     []partition.Physical
	Projection   partition.Projection
	Monotonicity partition.Monotonicity
	Spread       *partition.Spread
	Load         Load
	HottestShare float64 // the largest share of requests one logical partition takes
	Queries      Queries
	Score        int
	Uncapped     int // the score before its findings cap it: orders keys capped alike
	Grade        string
	Breakdown    []Component
	Findings     []Finding
	IsID         bool // the key is the item id alone
}

// Load is the workload on the physical partitions.
type Load struct {
	Active        bool
	Costs         capacity.Costs
	TotalRU       float64   // RU/s the workload needs
	BaseRU        float64   // RU/s it needs under any key: TotalRU without the cost of fan-out
	Shares        []float64 // each physical partition's share of requests
	DemandRU      []float64 // RU/s each physical partition is asked for
	CapacityRU    float64   // RU/s each physical partition has
	Throttle      capacity.Throttle
	HottestLogiRU float64 // RU/s the busiest logical partition is asked for
}

// Evaluate judges one key.
func Evaluate(d *partition.Distribution, s Settings) *Evaluation {
	e := &Evaluation{Dist: d}
	e.IsID = d.Spec.Kind == key.Hash && len(d.Spec.Paths) == 1 && len(d.Spec.Paths[0]) == 1 && d.Spec.Paths[0][0] == "id"

	factor := 1.0
	switch {
	case s.TargetBytes > 0 && d.Bytes > 0:
		factor = float64(s.TargetBytes) / float64(d.Bytes)
	case s.TargetDocs > 0 && d.Documents > 0:
		factor = float64(s.TargetDocs) / float64(d.Documents)
	}
	factor = max(factor, 1)
	storage := int64(float64(d.Bytes) * factor)

	// The service requires throughput for the storage it holds (MinRU): a
	// setting below that at the target could not exist there, so the
	// least allowed is used instead, as for no setting (the report warns).
	e.Throughput = s.Throughput
	e.Throughput.RU = max(e.Throughput.RU, capacity.MinRU(e.Throughput.Autoscale, storage, 0))
	n := s.Partitions
	if n <= 0 {
		n = capacity.InitialPartitions(e.Throughput)
	}
	n = max(n, capacity.MinPartitions(e.Throughput.RU)) // never fewer than the RU/s need
	version := d.Version
	if d.Spec.Kind == key.MultiHash {
		version = epk.V2
	}
	e.Projection = d.Project(factor, epk.Ranges(version, n), capacity.LogicalPartitionMaxBytes,
		int64(capacity.AlertFraction*float64(capacity.LogicalPartitionMaxBytes)), capacity.PhysicalPartitionMaxBytes)
	ranges := make([]epk.Range, len(e.Projection.Physical))
	for i, p := range e.Projection.Physical {
		ranges[i] = epk.Range{MinInclusive: p.MinInclusive, MaxExclusive: p.MaxExclusive}
	}
	e.Physical = d.Place(ranges)
	e.Monotonicity = d.Monotonicity()
	e.Spread = d.WriteSpread(ranges)

	traffic := s.Workload.Traffic
	if traffic == "" {
		traffic = partition.ByDocuments
		if d.Weighted {
			traffic = partition.ByWeight
		}
	}
	e.Load.Shares, e.HottestShare = d.Shares(e.Physical, traffic)
	if e.Projection.Factor > 1 {
		if sh, hot := e.Projection.Shares(traffic, d.Weighted); sh != nil {
			e.Load.Shares = sh
			if e.Projection.SuffixSpread {
				// A computed suffix spreads its group evenly: which suffix
				// the sample's few documents favour is chance, which the
				// target's share of each undoes. (Other keys keep the
				// sample's busiest value: for a time bucket, the moment
				// matters, not the bucket's share of all time.)
				e.HottestShare = hot
			}
		}
	}
	avg := 1024.0
	if d.Documents > 0 {
		avg = float64(d.Bytes) / float64(d.Documents)
	}
	costs := capacity.DefaultCosts(avg)
	if s.Workload.Costs != nil {
		costs = *s.Workload.Costs
	}
	// Worked out once per prefix length: each walks every logical
	// partition, and a workload may hold many prefix queries.
	spans := map[int]float64{}
	e.Queries = assess(s.Operations, d.Spec, s.Workload.Queries, len(e.Physical), costs, func(levels int) float64 {
		if _, ok := spans[levels]; !ok {
			spans[levels] = prefixSpan(d, ranges, levels)
		}
		return spans[levels]
	})
	q := e.Queries
	if s.Workload.Active() || q.keyedRU+q.fanOutRU > 0 {
		e.Load.Active = true
		e.Load.Costs = costs
		w := s.Workload
		// The rates of the settings and of the operations add up, but for
		// queries: a file that lists queries is scaled to the settings' rate.
		// Requests that go by key follow the key's shares; fan-out reads run
		// on every partition alike.
		keyed := w.Reads*costs.PointRead + w.Writes*costs.Write + q.keyedRU
		base := w.Reads*costs.PointRead + w.Writes*costs.Write + q.baseRU
		if !q.scaled {
			keyed += w.Queries * costs.Query
			base += w.Queries * costs.Query
		}
		e.Load.TotalRU = keyed + q.fanOutRU
		e.Load.BaseRU = min(base, e.Load.TotalRU)
		e.Load.CapacityRU = capacity.PerPartitionRU(e.Throughput, len(e.Physical))
		e.Load.DemandRU = make([]float64, len(e.Physical))
		// Writes go where the writes of the moment go: for a key whose
		// values follow time (a bucket, a date), to the few partitions of
		// the values current now, not as the data spreads in total.
		writes := min(w.Writes*costs.Write+q.writeRU, keyed)
		writeShares, hotWrite := e.Load.Shares, e.HottestShare
		if concentrated, crowded := e.writesCrowd(); (concentrated || crowded) && len(e.Spread.Moment) == len(e.Physical) {
			writeShares, hotWrite = e.Spread.Moment, max(e.HottestShare, e.Spread.HottestKeyShare)
		}
		if d.Spec.TimeBucket() != "" && e.Spread != nil && e.Spread.SamplesMedian >= minBucketSamples {
			// A time bucket's value takes its share of all time, but its
			// writes all come while it is current: a busy device's bucket
			// of the moment takes the device's whole share of the writes.
			hotWrite = max(hotWrite, e.Spread.HottestKeyShare)
		}
		if d.KeyIsTime() {
			// One value a second: the second's writes all go to the
			// partition that holds it, the busiest one at worst.
			writeShares, hotWrite = make([]float64, len(e.Physical)), 1
			writeShares[slices.Index(e.Load.Shares, slices.Max(e.Load.Shares))] = 1
		}
		for i, sh := range e.Load.Shares {
			e.Load.DemandRU[i] = sh*(keyed-writes) + writeShares[i]*writes + q.fanOutRU/float64(len(e.Physical))
			if keyed > 0 {
				// The share of the moment's requests, as the demand has it.
				e.Load.Shares[i] = (sh*(keyed-writes) + writeShares[i]*writes) / keyed
			}
		}
		e.Load.Throttle = capacity.Throttling(e.Load.DemandRU, e.Load.CapacityRU)
		e.Load.HottestLogiRU = e.HottestShare*(keyed-writes) + hotWrite*writes
	}
	e.score()
	return e
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
		first, last := epk.Locate(ranges, p), epk.Locate(ranges, p+"FF")
		if last > 0 && ranges[last].MinInclusive == p+"FF" {
			last--
		}
		if first >= 0 && last >= first {
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
