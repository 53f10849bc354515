package advisor

import (
	"fmt"
	"slices"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/paths"
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
		if has(KeyTooLong, Warning) || has(TruncationCollision) {
			recs = append(recs, Recommendation{UseHashV2, "Create the container with hash V2 (large partition keys): it allows key values up to 2,048 bytes and hashes them whole.", ""})
		}
		out[i] = recs[:min(len(recs), recommendationsLimit)]
	}
	return out
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
