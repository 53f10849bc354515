package analysis

import (
	"cmp"
	"encoding/json"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/pkcalc/pkcalc/core/advisor"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/partition"
	"github.com/pkcalc/pkcalc/core/paths"
	"github.com/pkcalc/pkcalc/core/report"
)

func (a *analysis) finish() *report.Report {
	o := a.opts
	rep := &report.Report{
		SchemaVersion: report.SchemaVersion,
		Generator:     "pkcalc",
		Input:         report.Input{Format: a.format, Errors: []report.Problem{}, ErrorCount: a.errCount, Notes: a.notes, Warnings: []report.Problem{}},
		Documents:     int64(a.docs),
		Bytes:         a.bytes,
		Settings: report.Settings{
			HashVersion: int(o.HashVersion), RU: o.Throughput.RU, Autoscale: o.Throughput.Autoscale, Partitions: o.Partitions,
			TargetGB: targetGB(o.TargetBytes), TargetDocs: o.TargetDocs, GrowthGB: o.GrowthGBPerDay, Retention: o.RetentionDays,
			Reads: o.Workload.Reads, Writes: o.Workload.Writes, Queries: o.Workload.Queries, Traffic: string(o.Workload.Traffic),
			NewValues: formatPaths(o.NewValuePaths),
		},
		Warnings:       append(append(a.settingWarnings(), a.windowWarnings()...), a.pathsWarnings()...),
		Candidates:     []report.Candidate{},
		Paths:          PathsOf(a.paths),
		PathsDocuments: int64(a.described),
	}
	if a.omittedPaths > 0 {
		rep.PathsOmitted = &report.PathsOmitted{Paths: a.omittedPaths, Documents: a.omittedDocs}
	}
	if a.format == "" {
		rep.Input.Format = "empty"
	}
	for _, e := range a.errs {
		rep.Input.Errors = append(rep.Input.Errors, report.Problem{Document: e.Document, Line: e.Line, Column: e.Column, Message: e.Msg})
	}
	for _, e := range a.warnings {
		rep.Input.Warnings = append(rep.Input.Warnings, report.Problem{Document: e.Document, Line: e.Line, Column: e.Column, Message: e.Msg})
	}
	if a.timePath != nil {
		rep.TimeField = paths.Format(a.timePath)
	}
	if a.ops != nil || a.opErrs != nil {
		rep.Operations = &report.Operations{Count: len(a.ops), Errors: append([]string{}, a.opErrs...)}
	}
	if a.ids != nil {
		rep.IDs = a.ids.report()
	}
	settings := advisor.Settings{Throughput: o.Throughput, Partitions: o.Partitions, TargetBytes: o.TargetBytes, TargetDocs: o.TargetDocs,
		Workload: o.Workload, Item: itemOf(a.paths, a.described, a.docs, a.bytes)}
	if slices.ContainsFunc(rep.Warnings, func(n report.Notice) bool { return n.Code == report.WeightFieldUnused }) {
		settings.Workload.Traffic = partition.ByDocuments
	}
	if a.docs == 0 {
		// Nothing to measure: keys graded on no documents would read as
		// findings ("only 0 distinct values").
		for _, acc := range a.accs {
			acc.Finish() // ends its goroutine
		}
		rep.NoRecommendation = a.whyNoRecommendation()
		return rep
	}
	if a.ids != nil {
		a.ids.repeats()
	}
	dists := make([]*partition.Distribution, len(a.accs))
	parallel(len(a.accs), func(i int) { dists[i] = a.accs[i].Finish() })
	rep.Warnings = append(rep.Warnings, a.exactWarnings(dists)...)
	settings.Operations = operations(a.ops, dists, a.factor(), int64(a.docs), a.traffic(settings.Workload.Traffic))
	if unserved := advisor.Unservable(settings); len(unserved) > 0 {
		// No key serves them: the keys are compared on the rest.
		for _, u := range slices.Backward(unserved) {
			rep.Warnings = append(rep.Warnings, report.Notice{Code: report.UnservableOperation, Message: u.Message})
			settings.Operations = slices.Delete(settings.Operations, u.Index, u.Index+1)
		}
		slices.Reverse(rep.Warnings[len(rep.Warnings)-len(unserved):])
	}
	evals := make([]*advisor.Evaluation, a.candidates)
	dups := make([]int64, a.candidates)
	lays := make([]layout, a.candidates)
	parallel(len(evals), func(i int) {
		if a.ids != nil {
			dups[i] = a.ids.duplicates(dists[i].ValueHashes)
			dists[i].DuplicateIDs, dists[i].IDsChecked = dups[i], int64(len(a.ids.hashes))
		}
		dists[i].ValueHashes = nil // counted: let them go
		evals[i] = advisor.Evaluate(dists[i], settings)
		// The rows the report lists, and then no more per partition: of
		// 65,536 partitions, each key held some 30 MB until the end.
		lays[i] = layoutOf(evals[i])
		evals[i].Release()
	})
	rank := advisor.Rank(evals)
	recs := advisor.Recommend(evals)
	// Named keys keep their place at the top of the list.
	order := make([]int, len(evals))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order[a.named:], func(x, y int) int { return cmp.Compare(rank[x], rank[y]) })
	best := -1
	for _, i := range order {
		c := candidate(evals[i], recs[i], lays[i])
		c.Named = i < a.named
		c.Rank = rank[i]
		if a.ids != nil {
			c.DuplicateIDs = &dups[i]
		}
		rep.Candidates = append(rep.Candidates, c)
		if rank[i] == 1 {
			best = i
		}
	}
	if n := idNotice(rep.IDs, rep.Candidates, rep.Documents, a.idMeant()); n != nil {
		rep.Warnings = append(rep.Warnings, *n)
	}
	switch {
	case best >= 0 && advisor.Acceptable(evals[best]):
		rep.Recommended = evals[best].Dist.Spec.String()
		if msg := advisor.Shortfall(evals[best]); msg != "" {
			rep.Warnings = append(rep.Warnings, report.Notice{Code: report.Underprovisioned, Message: msg})
		}
		if n := grownLookups(settings.Operations, dists, a.paths, o.NewValuePaths, a.factor(), int64(a.docs), a.traffic(settings.Workload.Traffic), evals[best]); n != nil {
			rep.Warnings = append(rep.Warnings, *n)
		}
	case best >= 0:
		rep.NoRecommendation = &report.Notice{Code: report.NoUsableKey, Message: "No key measured is usable: in each, more than half the documents lack the key or hold an object or array there, which Cosmos DB rejects."}
	default:
		rep.NoRecommendation = a.whyNoRecommendation()
	}
	report.Finite(rep) // the figures above are rounded; Finite is for any that are not
	return rep
}

// parallel runs f for 0 to n-1 on as many goroutines as there are cores,
// so that no more keys' working memory is held at once than can use it;
// with one, in order. In WebAssembly it yields between calls for the
// garbage collector (see run).
func parallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := range next {
				if yields {
					runtime.Gosched()
				}
				f(i)
			}
		})
	}
	wg.Wait()
}

// factor is the target's size over the input's, at least 1, as each key's
// evaluation has it.
func (a *analysis) factor() float64 {
	if t := a.targetBytes(); t > 0 && a.bytes > 0 {
		return max(1, float64(t)/float64(a.bytes))
	}
	return 1
}

// traffic is how requests spread over key values: as set, or by the
// weight field when one is given, else by documents (as package advisor
// has it).
func (a *analysis) traffic(t partition.Traffic) partition.Traffic {
	if t != "" {
		return t
	}
	if a.opts.WeightPath != nil {
		return partition.ByWeight
	}
	return partition.ByDocuments
}

// targetGB is the target size in GB, to 3 decimals, or, for a target below
// half a megabyte, as it is: rounded to 0 it would not be echoed at all.
func targetGB(b int64) float64 {
	gb := float64(b) / (1 << 30)
	if r := round(gb, 3); r > 0 || b == 0 {
		return r
	}
	return gb
}

func candidate(e *advisor.Evaluation, recs []advisor.Recommendation, lay layout) report.Candidate {
	d := e.Dist
	version := int(d.Version)
	if d.Spec.Kind == key.MultiHash {
		version = 2
	}
	c := report.Candidate{
		Key:                        report.Key{Spec: d.Spec.String(), Paths: d.Spec.PathStrings(), Kind: string(d.Spec.Kind), Version: version},
		Score:                      e.Score,
		Grade:                      e.Grade,
		ScoreBreakdown:             []report.Component{},
		Findings:                   []report.Finding{},
		Recommendations:            []report.Recommendation{},
		LogicalPartitions:          d.Distinct,
		LogicalPartitionsEstimated: d.Estimated,
		LogicalPartitionsError:     round(d.DistinctError, 4),
		Documents:                  d.Documents,
		Bytes:                      d.Bytes,
		Missing:                    d.Missing,
		NotTime:                    d.NotTime,
		Invalid:                    d.Invalid,
		PerLogicalPartition:        report.PerLogical{Documents: stats(d.DocumentStats()), Bytes: stats(d.BytesStats()), Lorenz: lorenz(d.Lorenz(20))},
		Largest:                    []report.Largest{},
		KeyLength:                  report.KeyLength{MaxBytes: d.KeyMaxBytes, Over2048: d.OverLimit, Over101: d.OverLimitV1, Collisions: []report.Collision{}},
	}
	for _, b := range e.Breakdown {
		c.ScoreBreakdown = append(c.ScoreBreakdown, report.Component(b))
	}
	for _, f := range e.Findings {
		c.Findings = append(c.Findings, report.Finding{Code: f.Code, Severity: string(f.Severity), Message: f.Message})
	}
	for _, r := range recs {
		c.Recommendations = append(c.Recommendations, report.Recommendation(r))
	}
	for _, l := range d.Largest(10) {
		c.Largest = append(c.Largest, report.Largest{Values: Values(l.Values), Documents: l.Documents, Bytes: l.Bytes, Share: round(ratio(l.Bytes, d.Bytes), 4), EPK: l.EPK})
	}
	for i, col := range d.Collisions {
		if i == 10 {
			break
		}
		cj := report.Collision{EPK: col.EPK}
		for _, v := range col.Values {
			cj.Values = append(cj.Values, Values(v))
		}
		c.KeyLength.Collisions = append(c.KeyLength.Collisions, cj)
	}
	m := e.Monotonicity
	c.Monotonicity = report.Monotonicity{Samples: m.Samples, InsertionOrder: round(m.Order, 4), By: m.By, Monotonic: m.Monotonic}
	if !math.IsNaN(m.Time) {
		t := round(m.Time, 4)
		c.Monotonicity.Time = &t
	}
	c.PhysicalPartitions, c.PhysicalPartitionsOmitted, c.WriteSpread, c.DayOne = lay.physical, lay.omitted, lay.spread, lay.dayOne
	p := e.Projection
	c.Projection = report.Projection{Factor: round(p.Factor, 3), Documents: p.Documents, Bytes: p.Bytes, PhysicalPartitions: lay.partitions, Splits: p.Splits,
		LargestLogicalBytes: p.Largest.Bytes, OverLimit: p.OverLimitN, OverAlertLine: p.OverAlertN, NewValueShare: round(p.NewValueShare, 4)}
	if l := e.Load; l.Active {
		c.Workload = &report.Workload{RU: e.Throughput.RU, PerPartitionRU: round(l.CapacityRU, 1), TotalRU: round(l.TotalRU, 1), BaseRU: round(l.BaseRU, 1),
			PointReadRU: round(l.Costs.PointRead, 3), WriteRU: round(l.Costs.Write, 3), QueryRU: round(l.Costs.Query, 3), ItemRU: round(l.Costs.Item, 4),
			ThrottledFraction: round(l.Throttle.ThrottledFraction, 4), HottestPartition: l.Throttle.Hottest,
			HottestUtilisation: round(l.Throttle.HottestUtilisation, 4), Headroom: round(finite(l.Throttle.Headroom), 3), HottestLogicalRU: round(l.HottestLogiRU, 1)}
		if p := e.Provision; p.LeastRU > 0 {
			c.Workload.LeastRU, c.Workload.LeastRUPartitions, c.Workload.LeastRUByData, c.Workload.CreateRU = &p.LeastRU, p.Partitions, p.ByData, p.CreateRU
		}
	}
	if q := e.Queries; q.Active {
		c.Queries = &report.Queries{Single: round(100*q.Single, 2), Targeted: round(100*q.Targeted, 2), FanOut: round(100*q.FanOut, 2), Verdicts: []report.Verdict{}}
		for i, v := range q.Verdicts {
			vj := report.Verdict{Line: v.Op.Line, Kind: string(v.Op.Kind), Query: v.Op.Text, Paths: v.Op.Paths,
				Rate: round(v.Rate, 3), Routing: string(v.Assessment.Routing.Kind), Values: v.Assessment.Routing.Values, Prefix: v.Assessment.Routing.Prefix, Reason: v.Assessment.Routing.Reason,
				KeyUpdated: v.Assessment.KeyUpdated, SpansKeys: v.Assessment.SpansKeys, Message: v.Assessment.Message}
			if i < len(e.Load.Charges) {
				ch := e.Load.Charges[i]
				vj.RU, vj.Partitions, vj.Items, vj.ItemsAtMost = round(ch.RU, 2), ch.Partitions, round(ch.Items, 1), ch.AtMost && ch.Items > 0
			}
			c.Queries.Verdicts = append(c.Queries.Verdicts, vj)
		}
	}
	return c
}

// layout is what a candidate's report lists per physical partition,
// taken from its evaluation (layoutOf) before the evaluation lets go of
// them (advisor.Evaluation.Release).
type layout struct {
	physical   []report.Physical
	omitted    *report.OmittedPartitions
	spread     *report.WriteSpread
	dayOne     report.DayOne
	partitions int // at the target
}

func layoutOf(e *advisor.Evaluation) layout {
	lay := layout{physical: []report.Physical{}, partitions: len(e.Projection.Physical), dayOne: dayOne(e.DayOne)}
	// The busiest partitions, by requests then size at the target, when
	// there are more than a list holds.
	listed := busiest(len(e.Physical), func(i, j int) int {
		return cmp.Or(cmp.Compare(e.Load.Shares[j], e.Load.Shares[i]), cmp.Compare(e.Projection.Physical[j].Bytes, e.Projection.Physical[i].Bytes),
			cmp.Compare(e.Physical[j].Documents, e.Physical[i].Documents))
	})
	next := 0 // in listed
	var omitted report.OmittedPartitions
	var omittedRU float64
	for i, p := range e.Physical {
		if next < len(listed) && listed[next] == i {
			next++
			ph := report.Physical{ID: p.ID, MinInclusive: p.MinInclusive, MaxExclusive: p.MaxExclusive, Documents: p.Documents, Bytes: p.Bytes,
				LogicalPartitions: p.LogicalPartitions, RequestShare: round(e.Load.Shares[i], 6), ProjectedBytes: e.Projection.Physical[i].Bytes}
			if e.Load.Active {
				d := round(e.Load.DemandRU[i], 1)
				ph.DemandRU = &d
			}
			lay.physical = append(lay.physical, ph)
			continue
		}
		o := &omitted
		o.Partitions++
		o.Documents += p.Documents
		o.Bytes += p.Bytes
		o.LogicalPartitions += p.LogicalPartitions
		o.RequestShare += e.Load.Shares[i]
		o.MaxRequestShare = max(o.MaxRequestShare, e.Load.Shares[i])
		o.ProjectedBytes += e.Projection.Physical[i].Bytes
		o.MaxProjectedBytes = max(o.MaxProjectedBytes, e.Projection.Physical[i].Bytes)
		if e.Load.Active {
			omittedRU += e.Load.DemandRU[i]
		}
	}
	if omitted.Partitions > 0 {
		omitted.RequestShare, omitted.MaxRequestShare = round(omitted.RequestShare, 6), round(omitted.MaxRequestShare, 6)
		if e.Load.Active {
			d := round(omittedRU, 1)
			omitted.DemandRU = &d
		}
		lay.omitted = &omitted
	}
	if sp := e.Spread; sp != nil {
		ws := &report.WriteSpread{Unit: string(sp.Unit), KeysPerBucket: sp.KeysMedian, SamplesPerBucket: sp.SamplesMedian, HottestShare: round(sp.HottestShare, 4), Estimated: sp.Estimated, Buckets: []report.TimeBucket{}}
		// The columns of the partitions listed above.
		cut := len(listed) < len(e.Physical)
		if cut {
			ws.Partitions = listed
		}
		for _, b := range sp.Buckets {
			tb := report.TimeBucket{Start: b.Start.Format("2006-01-02T15:04:05Z"), Writes: round(b.Writes, 1), Keys: b.Keys, Partitions: make([]float64, len(listed))}
			k, others := 0, 0.0
			for _, cell := range b.Cells {
				for k < len(listed) && listed[k] < cell.Partition {
					k++
				}
				if k < len(listed) && listed[k] == cell.Partition {
					tb.Partitions[k] = round(cell.Writes, 1)
				} else {
					others += cell.Writes
				}
			}
			tb.OtherPartitions = round(others, 1)
			ws.Buckets = append(ws.Buckets, tb)
		}
		lay.spread = ws
	}
	return lay
}

func dayOne(d advisor.DayOne) report.DayOne {
	out := report.DayOne{PhysicalPartitions: len(d.Physical), PerPartitionRU: round(d.CapacityRU, 1), EmptyPartitions: d.Empty, Partitions: []report.DayOnePartition{}}
	// The busiest by writes, then by size, when there are more than a list
	// holds; each then with its ID.
	listed := busiest(len(d.Physical), func(i, j int) int {
		return cmp.Or(cmp.Compare(d.Writes[j], d.Writes[i]), cmp.Compare(d.Physical[j].Bytes, d.Physical[i].Bytes), cmp.Compare(d.Physical[j].Documents, d.Physical[i].Documents))
	})
	cut := len(listed) < len(d.Physical)
	var omitted report.DayOneOmitted
	next := 0
	for i, p := range d.Physical {
		if next < len(listed) && listed[next] == i {
			next++
			row := report.DayOnePartition{Documents: p.Documents, Bytes: p.Bytes, WriteShare: round(d.Writes[i], 4)}
			if cut {
				id := d.Physical[i].ID // not a pointer into Physical, which would keep it
				row.ID = &id
			}
			out.Partitions = append(out.Partitions, row)
			continue
		}
		omitted.Partitions++
		omitted.Documents += p.Documents
		omitted.Bytes += p.Bytes
		omitted.WriteShare += d.Writes[i]
	}
	if cut {
		omitted.WriteShare = round(omitted.WriteShare, 4)
		out.Omitted = &omitted
	}
	if d.WriteRU > 0 {
		w := round(d.WriteRU, 1)
		out.BusiestWriteRU = &w
	}
	return out
}

// busiest are the indices of the report.MaxPartitionRows busiest of n
// partitions, in order of index: all n when they are no more. hotter
// orders the busiest first; ties go to the lower index.
func busiest(n int, hotter func(i, j int) int) []int {
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	if n <= report.MaxPartitionRows {
		return all
	}
	slices.SortFunc(all, func(i, j int) int { return cmp.Or(hotter(i, j), cmp.Compare(i, j)) })
	// A copy: the report keeps it (WriteSpread.Partitions), not all n.
	kept := slices.Clone(all[:report.MaxPartitionRows])
	slices.Sort(kept)
	return kept
}

func lorenz(points [][2]float64) [][2]float64 {
	for i := range points {
		points[i] = [2]float64{round(points[i][0], 4), round(points[i][1], 4)}
	}
	return points
}

func stats(s partition.Stats) report.Stats {
	return report.Stats{Max: s.Max, P50: s.P50, P95: s.P95, P99: s.P99, Mean: round(s.Mean, 2), MaxToMean: round(s.MaxToMean, 3), Gini: round(s.Gini, 4)}
}

// Values writes a key value as JSON values; undefined becomes
// {"$undefined": true}, as pkcalc epk reads it.
func Values(vals []epk.Value) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		switch v.Kind {
		case epk.String:
			out[i] = v.Str
		case epk.Number:
			out[i] = v.Num
			if math.IsInf(v.Num, 0) || math.IsNaN(v.Num) {
				// JSON has no infinities: write them as Extended JSON does.
				text := "NaN"
				if math.IsInf(v.Num, 1) {
					text = "Infinity"
				} else if math.IsInf(v.Num, -1) {
					text = "-Infinity"
				}
				out[i] = map[string]string{"$numberDouble": text}
			}
		case epk.True:
			out[i] = true
		case epk.False:
			out[i] = false
		case epk.Null:
			out[i] = nil
		default:
			out[i] = map[string]bool{"$undefined": true}
		}
	}
	return out
}

// PathsOf converts discovered paths to their report form.
func PathsOf(ps []paths.Path) []report.Path {
	out := []report.Path{}
	for _, p := range ps {
		pj := report.Path{Path: p.Path, Types: map[string]int{}, Documents: p.Documents, Distinct: p.Distinct, Capped: p.DistinctCapped, Top: []report.TopValue{}, System: p.System, Usable: p.Usable, Reason: p.Reason}
		for _, k := range p.TypeMix() {
			pj.Types[k.Kind.String()] = k.Count
		}
		for _, v := range p.Top {
			pj.Top = append(pj.Top, report.TopValue{Value: json.RawMessage(v.Value), Count: v.Count})
		}
		out = append(out, pj)
	}
	return out
}

func round(f float64, places int) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	p := math.Pow(10, float64(places))
	if math.IsInf(f*p, 0) {
		return f // far past any fraction: 1e308 to 3 places was +Inf
	}
	return math.Round(f*p) / p
}

func finite(f float64) float64 {
	if math.IsInf(f, 1) {
		return -1 // unlimited: no demand
	}
	return f
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// formatPaths writes each path as the options read it; nil for none.
func formatPaths(ps [][]string) []string {
	var out []string
	for _, p := range ps {
		out = append(out, paths.Format(p))
	}
	return out
}
