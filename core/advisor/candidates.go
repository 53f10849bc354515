package advisor

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/paths"
	"github.com/pkcalc/pkcalc/core/query"
)

// Sample is what Candidates knows of the documents.
type Sample struct {
	Paths       []paths.Path
	Documents   int           // documents the paths were found in
	TimePath    []string      // the time field, nil if none
	TimeSpan    time.Duration // the time the documents cover
	TargetBytes int64         // the expected total size, 0 if not given
	Limit       int           // most keys to return; 0 for MaxCandidates
	Operations  []query.Op    // the application's operations, if given
	Version     epk.Version   // the container's hash version; V1 allows no hierarchical keys
}

// suffixChunk is the most one suffix of a computed-suffix key should hold
// at the target size: half the 20 GB limit, to leave room to grow.
const suffixChunk = 10 << 30

// MinDistinct is the fewest distinct values a path needs for Candidates to
// suggest a key on it: with fewer, no key could spread anything.
const MinDistinct = 3

// MaxCandidates is how many generated keys are measured by default, beside
// the keys the user names; enough to compare, few enough to read.
const MaxCandidates = 12

// Candidates proposes the keys worth measuring, from the paths of the
// documents read so far (docs of them) and the time field, if any:
//
//   - plain keys on the usable paths that look like identifiers, ranked by
//     how many values they have, how evenly and how often present;
//   - hierarchical keys whose first level groups documents the way tenants
//     do and whose later levels (a finer identifier, then the item id) split
//     that group, as the docs advise for multi-tenant data (not for a
//     hash version 1 container: hierarchical keys need version 2);
//   - synthetic keys for the grouping path: with a time bucket, and with a
//     computed suffix hash(/id)%N whose N cuts the largest value into
//     chunks of at most 5 % of the data and, at the target size, 10 GB.
//
// It returns at most in.Limit keys (MaxCandidates when 0).
func Candidates(in Sample) []key.Spec {
	ps, docs, timePath, timeSpan, limit := in.Paths, in.Documents, in.TimePath, in.TimeSpan, in.Limit
	if limit <= 0 {
		limit = MaxCandidates
	}
	type scored struct {
		p     paths.Path
		score float64
	}
	var plain []scored
	var id *paths.Path
	for _, p := range ps {
		if !p.Usable || p.Distinct < MinDistinct || docs == 0 || float64(p.Documents) < 0.5*float64(docs) || measurement(p) || freeText(p) {
			continue
		}
		if len(p.Segments) == 1 && p.Segments[0] == "id" {
			id = &p
		}
		presence := float64(p.Documents) / float64(docs)
		top := float64(p.Top[0].Count) / float64(p.Documents)
		score := math.Log10(float64(p.Distinct)+1) * presence * (1 - top*0.5)
		if identifier(p) {
			score *= 1.5
		}
		plain = append(plain, scored{p, score})
	}
	slices.SortStableFunc(plain, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return strings.Compare(a.p.Path, b.p.Path)
	})

	var out []key.Spec
	seen := map[string]bool{}
	push := func(s key.Spec) {
		if txt := s.String(); !seen[txt] && len(out) < limit {
			seen[txt] = true
			out = append(out, s)
		}
	}
	hash := func(p paths.Path) key.Spec { return key.Spec{Kind: key.Hash, Paths: [][]string{p.Segments}} }
	// Hierarchical keys hash with MultiHash, which needs hash version 2.
	pushLevels := func(levels ...[]string) {
		if in.Version != epk.V1 {
			push(key.Spec{Kind: key.MultiHash, Paths: levels})
		}
	}

	// The grouping path: repeated values, as tenants, customers or devices
	// have, present in (nearly) every document.
	var group, fine *paths.Path
	for i := range plain {
		p := plain[i].p
		if p.Distinct >= 2 && float64(p.Distinct) <= float64(docs)/4 && float64(p.Documents) >= 0.9*float64(docs) && !p.InArray {
			if group == nil || groupHint(p) && !groupHint(*group) {
				group = &plain[i].p
			}
		}
	}
	for i := range plain {
		p := plain[i].p
		if group != nil && p.Path != group.Path && (id == nil || p.Path != id.Path) && p.Distinct >= 4*group.Distinct {
			fine = &plain[i].p
			break
		}
	}

	// Keys the application's queries filter on come first, alone and as
	// the first level of a hierarchical key: a key no query uses must not
	// win on spread alone.
	for _, s := range plain {
		if queried(in.Operations, s.p.Segments) >= 0.3 {
			push(hash(s.p))
			if id != nil && s.p.Path != id.Path {
				pushLevels(s.p.Segments, id.Segments)
			}
		}
	}
	for i, s := range plain {
		if i < 6 {
			push(hash(s.p))
		}
	}
	if id != nil {
		push(hash(*id))
	}
	if group != nil {
		push(hash(*group))
		if id != nil {
			pushLevels(group.Segments, id.Segments)
		}
		if fine != nil {
			levels := [][]string{group.Segments, fine.Segments}
			if id != nil {
				levels = append(levels, id.Segments)
			}
			pushLevels(levels...)
		}
		if timePath != nil && !slices.Equal(timePath, group.Segments) {
			// A bucket that gives the sample a few dozen periods at least.
			unit := key.Month
			switch {
			case timeSpan <= 3*24*time.Hour:
				unit = key.Hour
			case timeSpan <= 180*24*time.Hour:
				unit = key.Day
			}
			push(key.Spec{Kind: key.Synthetic, Paths: [][]string{group.Segments, timePath},
				Terms: []key.Term{{Path: group.Segments}, {Path: timePath, Bucket: unit}}})
		}
		// The suffix comes from a value a reader knows: the id, else the time.
		source := timePath
		if id != nil {
			source = id.Segments
		}
		if source != nil {
			share := float64(group.Top[0].Count) / float64(docs)
			n := int(math.Ceil(share / 0.05))
			n = max(n, int(math.Ceil(share*float64(in.TargetBytes)/suffixChunk)))
			n = min(1000, max(2, n))
			push(key.Spec{Kind: key.Synthetic, Paths: [][]string{group.Segments, source},
				Terms: []key.Term{{Path: group.Segments}, {Path: source, Modulus: n}}})
		}
	}
	for _, s := range plain[min(6, len(plain)):] {
		push(hash(s.p))
	}
	return out
}

// queried is the share of the routed operations that a hash key on path
// serves from one or a few partitions.
func queried(ops []query.Op, path []string) float64 {
	spec := key.Spec{Kind: key.Hash, Paths: [][]string{path}}
	var hit, total float64
	for _, op := range ops {
		if op.Kind != query.QueryOp && op.Kind != query.ReadOp && op.Kind != query.DeleteOp {
			continue
		}
		w := max(op.Weight, 1e-9)
		total += w
		if r := query.Assess(op, spec).Routing.Kind; r == query.Single || r == query.Targeted {
			hit += w
		}
	}
	if total == 0 {
		return 0
	}
	return hit / total
}

// measurement reports whether a number path looks like a measurement
// (prices, temperatures) rather than an identifier: its common values
// have fractions.
func measurement(p paths.Path) bool {
	if p.TypeMix()[0].Kind.String() != "number" {
		return false
	}
	for _, v := range p.Top {
		if strings.ContainsAny(v.Value, ".eE") {
			return true
		}
	}
	return false
}

// freeText reports whether a path holds prose (a description, a comment)
// rather than an identifier: by its name, or by values with spaces.
func freeText(p paths.Path) bool {
	name := strings.ToLower(p.Segments[len(p.Segments)-1])
	for _, h := range []string{"description", "comment", "note", "text", "body", "summary", "message", "title", "remark"} {
		if strings.Contains(name, h) {
			return true
		}
	}
	spaced := 0
	for _, v := range p.Top {
		if strings.Count(v.Value, " ") >= 2 {
			spaced++
		}
	}
	return len(p.Top) > 0 && spaced*2 > len(p.Top)
}

// identifier reports whether a path's name says it identifies something.
func identifier(p paths.Path) bool {
	name := strings.ToLower(p.Segments[len(p.Segments)-1])
	for _, h := range []string{"id", "key", "code", "sku", "number", "no"} {
		if strings.HasSuffix(name, h) {
			return true
		}
	}
	return false
}

// groupHint reports whether a path's name says it groups documents.
func groupHint(p paths.Path) bool {
	name := strings.ToLower(p.Segments[len(p.Segments)-1])
	for _, h := range []string{"tenant", "customer", "account", "user", "org", "device", "store", "site", "team", "workspace", "project"} {
		if strings.Contains(name, h) {
			return true
		}
	}
	return false
}
