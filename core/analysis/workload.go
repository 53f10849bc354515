package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pkcalc/pkcalc/core/advisor"
	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/options"
	"github.com/pkcalc/pkcalc/core/partition"
	"github.com/pkcalc/pkcalc/core/paths"
	"github.com/pkcalc/pkcalc/core/query"
	"github.com/pkcalc/pkcalc/core/report"
)

// What a query loads depends on how many items its filters match, which
// the documents tell: the workload's queries are grouped by the paths
// their filters pin, and each group of paths is counted over every
// document as a key is, by an accumulator of its own unless a candidate
// key groups by the same paths. The counts give each operation's Matches.

// maxFilterPaths is the most pinned paths a count groups by (a
// hierarchical key's levels): a query that pins more matches at most the
// items of its first three.
const maxFilterPaths = 3

// filterSpec is the key that groups documents by the paths a query pins;
// ok is false when it pins none.
func filterSpec(sh query.Shape) (key.Spec, bool) {
	if len(sh.Filters) == 0 {
		return key.Spec{}, false
	}
	s := key.Spec{Kind: key.Hash}
	for _, f := range sh.Filters[:min(len(sh.Filters), maxFilterPaths)] {
		segs, err := paths.Parse(f.Path)
		if err != nil {
			return key.Spec{}, false
		}
		s.Paths = append(s.Paths, segs)
	}
	if len(s.Paths) > 1 {
		s.Kind = key.MultiHash
	}
	return s, true
}

// samePaths reports whether two specs group documents alike: the same
// paths, in any order, hashed whole (a plain or a hierarchical key).
func samePaths(a, b key.Spec) bool {
	if a.Kind == key.Synthetic || b.Kind == key.Synthetic || len(a.Paths) != len(b.Paths) {
		return false
	}
	as, bs := a.PathStrings(), b.PathStrings()
	slices.Sort(as)
	slices.Sort(bs)
	return slices.Equal(as, bs)
}

// filterSpecs are the groupings the workload's queries need that no
// candidate among specs gives: at most maxGroupings, those of the most
// requests, in the order the workload first names them.
func filterSpecs(ops []query.Op, specs []key.Spec) []key.Spec {
	var out []key.Spec
	var weight []float64
	for _, op := range ops {
		if op.Kind != query.QueryOp || op.Query == nil {
			continue
		}
		s, ok := filterSpec(query.ShapeOf(op.Query))
		if !ok {
			continue
		}
		have := func(k key.Spec) bool { return samePaths(k, s) }
		if slices.ContainsFunc(specs, have) {
			continue
		}
		if i := slices.IndexFunc(out, have); i >= 0 {
			weight[i] += op.Weight
			continue
		}
		out = append(out, s)
		weight = append(weight, op.Weight)
	}
	if len(out) <= maxGroupings {
		return out
	}
	order := make([]int, len(out))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(weight[j], weight[i]) })
	order = order[:maxGroupings]
	slices.Sort(order)
	kept := make([]key.Spec, 0, maxGroupings)
	for _, i := range order {
		kept = append(kept, out[i])
	}
	return kept
}

// maxGroupings is how many groupings of the workload's filters are
// counted beside the candidates, as many as keys may be named: each
// counts every document, and a workload of 500 queries on paths of their
// own took 2.4 GB. A query whose grouping is not counted is taken to load
// every document, as an upper bound (its items read "at most").
const maxGroupings = options.MaxKeys

// maxOperations is how many of the workload's operations are read, and
// maxOperationErrors how many of its lines that cannot be read are listed:
// each operation is judged under every candidate, in the report too.
const (
	maxOperations      = 1_000
	maxOperationErrors = 100
)

// operations are the workload's operations with what each loads at
// factor times the sample, from the distributions of the candidates and of
// the filter groupings.
func operations(ops []query.Op, dists []*partition.Distribution, factor float64, docs int64, t partition.Traffic) []advisor.Operation {
	out := make([]advisor.Operation, len(ops))
	for i, op := range ops {
		o := advisor.Operation{Op: op}
		switch op.Kind {
		case query.QueryOp:
			if op.Query != nil {
				o.Shape = query.ShapeOf(op.Query)
			}
			o.Matches = matches(o.Shape, dists, factor, docs, t)
			if s, ok := filterSpec(o.Shape); ok && !slices.ContainsFunc(dists, func(d *partition.Distribution) bool { return samePaths(d.Spec, s) }) {
				// Its grouping was not counted (maxGroupings): every
				// document, at most.
				o.Shape.Narrowed = true
			}
		case query.ReadOp, query.DeleteOp:
			o.Matches = 1
		}
		out[i] = o
	}
	return out
}

// matches is how many items one execution of a query of shape sh matches
// at factor times the sample: every document when it pins no path; else
// the documents of the values it names, found in the distribution that
// groups by its paths.
func matches(sh query.Shape, dists []*partition.Distribution, factor float64, docs int64, t partition.Traffic) float64 {
	if sh.Empty {
		return 0 // its filters contradict each other
	}
	s, ok := filterSpec(sh)
	if !ok {
		return float64(docs) * factor
	}
	var d *partition.Distribution
	for _, x := range dists {
		if samePaths(x.Spec, s) {
			d = x
			break
		}
	}
	if d == nil {
		return float64(docs) * factor
	}
	pinned := sh.Filters[:len(s.Paths)]
	if want, any, ok := query.KeyPatterns(pinned, d.Spec.PathStrings()); ok {
		var n float64
		for _, w := range want {
			n += d.MatchesLike(factor, t, w, any)
		}
		for _, f := range pinned {
			if f.Literals == nil {
				n *= float64(f.Values) // a parameter's IN (@a, @b) matches the items of each
			}
		}
		return n
	}
	n := d.Matches(factor, t, nil)
	for _, f := range pinned {
		n *= float64(f.Values) // IN (a, b) matches the items of each
	}
	return n
}

// itemOf is what the documents' charges depend on: their average size, and
// how many values each holds that the default indexing policy indexes
// (every scalar value, each element of an array too), from the path table.
func itemOf(ps []paths.Path, pathDocs int, docs int, bytes int64) capacity.Item {
	it := capacity.Item{}
	if docs > 0 {
		it.Bytes = float64(bytes) / float64(docs)
	}
	if pathDocs == 0 {
		return it
	}
	var values int
	for _, p := range ps {
		if p.System != "" {
			continue // set by the service; _ts alone is indexed, among many
		}
		for k := jsontree.Null; k <= jsontree.String; k++ {
			values += p.Types[k]
		}
	}
	it.Indexed = float64(values) / float64(pathDocs)
	return it
}

// grownLookups names the workload's lookups whose items at the target
// rest on the input's values being most of those there are, so that the
// user can say otherwise (newValues). Two cases: a path the workload
// finds items by with a parameter that holds one value in the input (it
// is one tenant's items, one repository's issues, and a key that leads
// with the path holds everything under that one); and a query for one
// value of paths whose values mostly recur, which at the target finds
// them grown as far as the data (Distribution.Matches), when it loads 100
// times the items the value holds in the input or more (a TOP 50 loads
// 50 however large the value grows) and asks a fifth or more of what the
// recommended key needs (a review's SUM over one customer's orders: 7.5
// items in the input, 217,734 at 100 GB, 99 % of 289,871 RU/s). Nil when
// there is neither.
func grownLookups(ops []advisor.Operation, dists []*partition.Distribution, ps []paths.Path, newValues [][]string, factor float64, docs int64, t partition.Traffic, best *advisor.Evaluation) *report.Notice {
	named := func(p string) bool {
		return slices.ContainsFunc(newValues, func(n []string) bool { return paths.Format(n) == p })
	}
	var one, grown, lines []string
	add := func(list *[]string, p string) {
		if !slices.Contains(*list, p) {
			*list = append(*list, p)
		}
	}
	l := best.Load
	for i, op := range ops {
		var params []string
		for _, f := range op.Shape.Filters {
			if f.Literals != nil || named(f.Path) {
				continue
			}
			params = append(params, f.Path)
			if at := slices.IndexFunc(ps, func(p paths.Path) bool { return p.Path == f.Path }); at >= 0 && ps[at].Distinct == 1 {
				add(&one, f.Path)
			}
		}
		s, ok := filterSpec(op.Shape)
		if op.Kind != query.QueryOp || !ok || len(params) == 0 || !l.Active || l.TotalRU <= 0 || i >= len(l.Charges) || i >= len(best.Queries.Verdicts) {
			continue
		}
		at := slices.IndexFunc(dists, func(d *partition.Distribution) bool { return samePaths(d.Spec, s) })
		if at < 0 || dists[at].GrowsByNewValues() {
			continue
		}
		// What it loads, not what it matches: a TOP 50 loads 50 items
		// however many a value holds.
		input := matches(op.Shape, dists, 1, docs, t)
		loads := l.Charges[i].Items
		share := best.Queries.Verdicts[i].Rate * l.Charges[i].RU / l.TotalRU
		if loads < 100*max(input, 1) || share < 0.2 {
			continue
		}
		lines = append(lines, fmt.Sprintf("line %d (%s of the RU/s %s needs: it loads %s items for a value of %s at the target, which holds %s in the input)",
			op.Line, human.Percent(share), best.Dist.Spec, human.Count(int64(math.Round(loads))), strings.Join(params, ", "), strconv.FormatFloat(math.Round(input*10)/10, 'f', -1, 64)))
		for _, p := range params {
			add(&grown, p)
		}
	}
	var msg []string
	if len(one) > 0 {
		msg = append(msg, fmt.Sprintf("The workload finds items by %s with a parameter, but the input holds one value of %s: the input is one value's items, and pkcalc grows that one to the target, so a key that leads with %s holds everything under one value.",
			strings.Join(one, ", "), human.Plural(int64(len(one)), "it", "each"), human.Plural(int64(len(one)), "it", "one of them")))
	}
	if len(lines) > 0 {
		if slices.ContainsFunc(grown, func(p string) bool { return !slices.Contains(one, p) }) {
			msg = append(msg, fmt.Sprintf("The input's values of %s mostly recur, so pkcalc takes them for most of those there are and grows them with the data, the target being %s times the input: %s.",
				strings.Join(grown, ", "), human.Count(int64(math.Round(factor))), strings.Join(lines, "; ")))
		} else {
			msg = append(msg, fmt.Sprintf("Its lookups ask much of the throughput: %s.", strings.Join(lines, "; ")))
		}
	}
	if len(msg) == 0 {
		return nil
	}
	for _, p := range one {
		add(&grown, p)
	}
	o, _ := options.Lookup("newValues")
	msg = append(msg, fmt.Sprintf("If new ones keep coming instead (new customers, users or tenants, each with as many items as the input shows), name %s in the setting %q (--%s), and the lookups load what a value has in the input.",
		strings.Join(grown, ","), o.Label, o.Flag))
	return &report.Notice{Code: report.GrownValues, Message: strings.Join(msg, " ")}
}
