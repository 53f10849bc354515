package advisor

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/paths"
	"github.com/pkcalc/pkcalc/core/query"
)

// Recommendation is advice for a key, with why, and the key it points to.
type Recommendation struct {
	Code    string
	Message string
	Key     string // the key recommended instead, if any
}

// Recommendation codes.
const (
	UseSynthetic         = "SYNTHETIC_KEY"
	UseHierarchical      = "HIERARCHICAL_KEY"
	DedicatedContainer   = "DEDICATED_CONTAINER"
	UseHashV2            = "USE_HASH_V2"
	UseFinerKey          = "FINER_KEY"
	SecondContainer      = "SECOND_CONTAINER"
	FillMissing          = "FILL_MISSING"
	recommendationsLimit = 3
)

// Recommend gives each evaluation that has a problem the advice that fixes
// it, pointing at the better candidates among evals where there are any.
// The result is indexed like evals.
func Recommend(evals []*Evaluation) [][]Recommendation {
	out := make([][]Recommendation, len(evals))
	for i, e := range evals {
		has := func(code string, sev ...Severity) bool {
			return slices.ContainsFunc(e.Findings, func(f Finding) bool {
				return f.Code == code && (len(sev) == 0 || slices.Contains(sev, f.Severity))
			})
		}
		hot := has(HotPartition) || has(LogicalPartitionLimit) || has(LowCardinality, Critical, Warning)
		var recs []Recommendation
		if hot && e.Dist.Spec.Kind == key.Hash {
			first := e.Dist.Spec.Paths[0]
			if s := better(evals, e, func(o *Evaluation) bool {
				return o.Dist.Spec.Kind == key.Synthetic && len(o.Dist.Spec.Terms) == 2 &&
					slices.Equal(o.Dist.Spec.Terms[0].Path, first) && o.Dist.Spec.Terms[1].Modulus > 0
			}); s != nil {
				t := s.Dist.Spec.Terms[1]
				from := key.Spec{Kind: key.Hash, Paths: [][]string{t.Path}}
				// A point read knows the id and the key; a suffix from any
				// other field needs that field's value too.
				read := "a point read, which knows the id, computes the same suffix"
				if !slices.Equal(t.Path, []string{"id"}) {
					read = fmt.Sprintf("a point read must know the item's %s as well as its id to compute the suffix", from)
				}
				recs = append(recs, Recommendation{UseSynthetic, fmt.Sprintf(
					"Use the synthetic key %s (grade %s): it stores %s and a suffix from 0 to %s computed from %s, so every value of %s spreads over %s logical partitions; %s.",
					s.Dist.Spec, s.Grade, e.Dist.Spec, human.Count(int64(t.Modulus-1)), from, e.Dist.Spec, human.Count(int64(t.Modulus)), read), s.Dist.Spec.String()})
			}
			if e.Dist.Version == epk.V1 {
				// Candidates holds no hierarchical key for such a container:
				// say what one would need instead of pointing at none.
				if groupHint(paths.Path{Segments: first}) || len(recs) > 0 {
					recs = append(recs, Recommendation{UseHierarchical, fmt.Sprintf(
						"A hierarchical key with %s as its first level, split by a finer field or /id, would let each value grow past 20 GB and 10,000 RU/s, but hierarchical keys need a container with hash version 2: this one uses hash version 1.",
						e.Dist.Spec), ""})
				}
			} else if s := better(evals, e, func(o *Evaluation) bool {
				return o.Dist.Spec.Kind == key.MultiHash && slices.Equal(o.Dist.Spec.Paths[0], first)
			}); s != nil {
				recs = append(recs, Recommendation{UseHierarchical, fmt.Sprintf(
					"Use the hierarchical key %s (grade %s): a query for one %s still goes only to the partitions that hold it, while its data can grow past 20 GB and 10,000 RU/s because the later levels split it.",
					s.Dist.Spec, s.Grade, e.Dist.Spec), s.Dist.Spec.String()})
			}
		}
		tenantLike := e.Dist.Spec.Kind == key.Hash && groupHint(paths.Path{Segments: e.Dist.Spec.Paths[0]})
		if tenantLike && (has(LogicalPartitionLimit, Critical) || has(HotPartition, Critical)) {
			if l := e.Dist.Largest(1); len(l) > 0 && e.Dist.Bytes > 0 && float64(l[0].Bytes)/float64(e.Dist.Bytes) >= 0.3 {
				recs = append(recs, Recommendation{DedicatedContainer, fmt.Sprintf(
					"%s holds %s of all data. Give it a container of its own and keep this key for the others: an outsized tenant then gets its own throughput and limits, and stops crowding the rest.",
					ValueText(l[0].Values), human.Percent(float64(l[0].Bytes)/float64(e.Dist.Bytes))), ""})
			}
		}
		if has(Monotonic, Critical) {
			if s := better(evals, e, func(o *Evaluation) bool {
				return !slices.ContainsFunc(o.Findings, func(f Finding) bool { return f.Code == Monotonic })
			}); s != nil {
				recs = append(recs, Recommendation{UseFinerKey, fmt.Sprintf(
					"Use %s (grade %s) or add a hash suffix: a key that follows time writes to one partition at a time.", s.Dist.Spec, s.Grade), s.Dist.Spec.String()})
			}
		}
		if r, ok := fillMissing(e); ok {
			recs = append(recs, r)
		}
		if r, ok := secondContainer(evals, e); ok {
			recs = append(recs, r)
		}
		if has(KeyTooLong, Warning) || has(TruncationCollision) {
			recs = append(recs, Recommendation{UseHashV2, "Create the container with hash V2 (large partition keys): it allows key values up to 2,048 bytes and hashes them whole.", ""})
		}
		out[i] = recs[:min(len(recs), recommendationsLimit)]
	}
	return out
}

// secondContainer is the advice for a key under which some of the
// workload's queries read every physical partition and ask much of the
// throughput, where another key serves them from one or a few: keep this
// key, and a copy of the items keyed the other way for those queries,
// kept up to date from the change feed (a materialized view: Microsoft's
// change-feed-design-patterns, and materialized-views, whose views have a
// partition key of their own). The copy costs its writes again, so it is
// advised only where the queries would save more than that (a movie's
// page under /userId; a user's dashboard under a repository's key).
func secondContainer(evals []*Evaluation, e *Evaluation) (Recommendation, bool) {
	l := e.Load
	if !l.Active || !e.Queries.Active || l.TotalRU <= 0 {
		return Recommendation{}, false
	}
	var fan []int // the fan-out queries, by index
	var cost float64
	for i, v := range e.Queries.Verdicts {
		if v.Op.Kind == query.QueryOp && v.Rate > 0 && v.Assessment.Routing.Kind == query.FanOut && i < len(l.Charges) {
			fan = append(fan, i)
			cost += v.Rate * l.Charges[i].RU
		}
	}
	if len(fan) == 0 || cost < 0.2*l.TotalRU {
		return Recommendation{}, false
	}
	var best *Evaluation
	var bestCost float64
	for _, o := range evals {
		// The other key scores no higher: a better one is the advice
		// itself, which the ranking gives.
		if o == e || !Acceptable(o) || o.Score > e.Score || !slices.Contains([]string{"A", "B", "C"}, o.Grade) || !o.Load.Active {
			continue
		}
		var c float64
		served := true
		for _, i := range fan {
			v := o.Queries.Verdicts[i]
			if k := v.Assessment.Routing.Kind; k != query.Single && k != query.Targeted || i >= len(o.Load.Charges) {
				served = false
				break
			}
			c += v.Rate * o.Load.Charges[i].RU
		}
		if served && (best == nil || c < bestCost) {
			best, bestCost = o, c
		}
	}
	if best == nil || cost-bestCost <= l.WriteRU {
		return Recommendation{}, false
	}
	var lines []string
	for _, i := range fan {
		lines = append(lines, fmt.Sprint(e.Queries.Verdicts[i].Op.Line))
	}
	return Recommendation{SecondContainer, fmt.Sprintf(
		"Under %s the %s at %s %s every physical partition, %s (%s of what the key needs); under %s (grade %s) %s one or a few, for %s. Keep this key, and for those queries a copy of the items keyed %s, kept up to date from this container's change feed (a materialized view): writing the copy costs about the workload's writes again, %s, besides reading the change feed.",
		e.Dist.Spec, human.Plural(int64(len(fan)), "query", "queries"), lineList(lines), human.Plural(int64(len(fan)), "reads", "read"), ru(cost), human.Percent(cost/l.TotalRU),
		best.Dist.Spec, best.Grade, human.Plural(int64(len(fan)), "it reads", "they read"), ru(bestCost), best.Dist.Spec, ru(l.WriteRU)), best.Dist.Spec.String()}, true
}

// fillMissing is the advice for a plain key whose documents
// that lack it, sharing the undefined value's one logical partition,
// would pass the alert line at the target: give each a value of its own.
// A review's retail orders: 14 % were guests' with no customer id, 47.9 GB
// under one undefined value at the target, with only a hierarchical key
// for advice; given each guest an id, /customerId was the best key.
func fillMissing(e *Evaluation) (Recommendation, bool) {
	d := e.Dist
	if d.Spec.Kind != key.Hash || d.Missing == 0 || d.Documents == 0 {
		return Recommendation{}, false
	}
	at := float64(d.UnkeyedBytes()) * e.Projection.Factor
	if at <= capacity.AlertFraction*float64(capacity.LogicalPartitionMaxBytes) {
		return Recommendation{}, false
	}
	return Recommendation{FillMissing, fmt.Sprintf(
		"The %s %s (%s) that lack %s share the undefined value's one logical partition, %s at the target. Give each a value of %s own where the application writes %s (a GUID, or the item's own id: a guest's order, its order's), so that they spread as the others do; a query for one of them then gives that value too.",
		human.Count(d.Missing), human.Plural(d.Missing, "document", "documents"), human.Percent(float64(d.Missing)/float64(d.Documents)),
		d.Spec, human.Bytes(int64(at)), d.Spec, human.Plural(d.Missing, "it", "them")), ""}, true
}

// lineList is "line 8" or "lines 8, 12 and 14".
func lineList(lines []string) string {
	if len(lines) == 1 {
		return "line " + lines[0]
	}
	return "lines " + strings.Join(lines[:len(lines)-1], ", ") + " and " + lines[len(lines)-1]
}

// Acceptable reports whether a key may be recommended at all: most
// documents have a value there that Cosmos DB accepts (not missing, not an
// object or array; for a hierarchical key, not missing every level).
func Acceptable(e *Evaluation) bool {
	d := e.Dist
	lacking := d.Missing + d.NotTime
	if d.Spec.Kind == key.MultiHash {
		// A missing level is an undefined component, which Cosmos DB
		// stores: the other levels still place the document. Only one
		// that lacks every level has no key to speak of.
		lacking = d.Unkeyed()
	}
	return d.Documents > 0 && 2*(lacking+d.Invalid) <= d.Documents
}

// better returns the best-scoring evaluation that matches and beats e,
// among keys good enough to advise (acceptable, grade C or better).
func better(evals []*Evaluation, e *Evaluation, match func(*Evaluation) bool) *Evaluation {
	var best *Evaluation
	for _, o := range evals {
		if o != e && match(o) && Acceptable(o) && o.Score > e.Score && o.Score >= 55 && (best == nil || o.Score > best.Score) {
			best = o
		}
	}
	return best
}
