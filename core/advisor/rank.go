package advisor

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/query"
)

// Rank orders the evaluations, best first, and returns each one's rank
// (from 1) by index. Keys most documents can use come first; then the
// higher score; among keys their findings cap at one score, the better
// before the cap; and on a tie the simpler key: plain, then hierarchical,
// then synthetic, which the application must compute.
//
// A hierarchical or synthetic key must earn its complexity: before the
// ranking, Justify holds it to the score of the best plain key among its
// own paths unless it does better for a reason the report states.
func Rank(evals []*Evaluation) []int {
	Justify(evals)
	order := make([]int, len(evals))
	for i := range order {
		order[i] = i
	}
	simpler := map[key.Kind]int{key.Hash: 0, key.MultiHash: 1, key.Synthetic: 2}
	usable := func(e *Evaluation) int {
		if Acceptable(e) {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(order, func(x, y int) int {
		a, b := evals[x], evals[y]
		if c := cmp.Compare(usable(b), usable(a)); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Uncapped, a.Uncapped); c != 0 {
			return c
		}
		return cmp.Compare(simpler[a.Dist.Spec.Kind], simpler[b.Dist.Spec.Kind])
	})
	rank := make([]int, len(evals))
	for r, i := range order {
		rank[i] = r + 1
	}
	return rank
}

// Justify says, of each hierarchical or synthetic key, why it is better
// than the best plain key among its own paths (a value of the plain key
// past 20 GB at the target, throttling or a hot partition it spreads,
// operations it keeps in one partition that the plain key sends to
// several), and when there is no such reason caps it at that key's score:
// a tie goes to the simpler key. Keys with no plain key of their paths
// measured are left as they are.
func Justify(evals []*Evaluation) {
	for _, e := range evals {
		if e.Dist.Spec.Kind == key.Hash {
			continue
		}
		plain := bestPart(evals, e)
		if plain == nil {
			continue
		}
		why := reasons(e, plain)
		if len(why) > 0 {
			msg := fmt.Sprintf("%s does better than the plain key %s: %s.", e.Dist.Spec, plain.Dist.Spec, strings.Join(why, "; "))
			if first := partOf(evals, e, 0); first != nil && first != plain {
				// What the first level alone would break: the reason for the
				// levels after it.
				if fixed := fixes(e, first); len(fixed) > 0 {
					msg += fmt.Sprintf(" And over %s alone: %s.", first.Dist.Spec, strings.Join(fixed, "; "))
				}
			}
			e.Findings = append(e.Findings, Finding{CompositeKey, Info, msg})
			continue
		}
		if e.Score <= plain.Score && e.Uncapped <= plain.Uncapped {
			continue
		}
		e.Score, e.Uncapped, e.Grade = min(e.Score, plain.Score), min(e.Uncapped, plain.Uncapped), grade(min(e.Score, plain.Score))
		e.Findings = append(e.Findings, Finding{CompositeKey, Info, fmt.Sprintf(
			"Nothing in the data or the workload calls for %s over the plain key %s: no value of %s passes %s at the target, no operation stays in one partition under it that %s sends to several, and its writes need no spreading. The plain key is simpler to query, compute and change, so this key scores no higher (%d).",
			e.Dist.Spec, plain.Dist.Spec, plain.Dist.Spec, logicalLimit, plain.Dist.Spec, e.Score)})
	}
	for _, e := range evals {
		justifyMiddle(evals, e)
	}
}

// justifyMiddle holds a hierarchical key with a middle level to the
// score of the same key without it (/asin,/reviewerID,/id to /asin,/id)
// when the middle level fixes none of that key's findings and keeps no
// more operations in one partition: the two share their first level, so
// what else tells them apart is the chance of where the sample's values
// fall at the target, and every point read and prefix query must know the
// middle level too.
func justifyMiddle(evals []*Evaluation, e *Evaluation) {
	levels := e.Dist.Spec.PathStrings()
	if e.Dist.Spec.Kind != key.MultiHash || len(levels) != 3 {
		return
	}
	short := slices.IndexFunc(evals, func(o *Evaluation) bool {
		return o.Dist.Spec.Kind == key.MultiHash && Acceptable(o) && slices.Equal(o.Dist.Spec.PathStrings(), []string{levels[0], levels[2]})
	})
	if short < 0 {
		return
	}
	s := evals[short]
	if len(reasons(e, s)) > 0 || e.Score <= s.Score && e.Uncapped <= s.Uncapped {
		return
	}
	for _, v := range e.Queries.Verdicts {
		// An operation that names the middle level reads fewer partitions
		// by it (a tenant and category's query: the prefix of two levels).
		if r := v.Assessment.Routing; v.Rate > 0 && (r.Kind == query.Single || r.Kind == query.Targeted && r.Prefix >= 2) {
			return
		}
	}
	e.Score, e.Uncapped, e.Grade = min(e.Score, s.Score), min(e.Uncapped, s.Uncapped), grade(min(e.Score, s.Score))
	e.Findings = append(e.Findings, Finding{CompositeKey, Info, fmt.Sprintf(
		"Nothing in the data or the workload calls for the middle level %s over %s: it fixes none of that key's findings and keeps no more operations in one partition, while every point read and prefix query must know it too. So this key scores no higher (%d).",
		levels[1], s.Dist.Spec, e.Score)})
}

// bestPart is the best-scoring acceptable plain key among the paths of e.
func bestPart(evals []*Evaluation, e *Evaluation) *Evaluation {
	own := e.Dist.Spec.PathStrings()
	var best *Evaluation
	for _, o := range evals {
		if o.Dist.Spec.Kind != key.Hash || !Acceptable(o) || !slices.Contains(own, o.Dist.Spec.PathStrings()[0]) {
			continue
		}
		if best == nil || o.Score > best.Score {
			best = o
		}
	}
	return best
}

// partOf is the acceptable plain key of e's level (or term) i, if measured.
func partOf(evals []*Evaluation, e *Evaluation, i int) *Evaluation {
	own := e.Dist.Spec.PathStrings()
	if i >= len(own) {
		return nil
	}
	for _, o := range evals {
		if o.Dist.Spec.Kind == key.Hash && Acceptable(o) && o.Dist.Spec.PathStrings()[0] == own[i] {
			return o
		}
	}
	return nil
}

// fixes are the warning or critical findings of the plain key p that e
// does not have, in words.
func fixes(e, p *Evaluation) []string {
	var why []string
	fix := func(code string, text string) {
		if worst(p, code) <= severityRank(Warning) && worst(e, code) > worst(p, code) {
			why = append(why, text)
		}
	}
	fix(LogicalPartitionLimit, fmt.Sprintf("a value of %s nears or passes %s at the target, which the later parts split", p.Dist.Spec, logicalLimit))
	fix(Throttled, fmt.Sprintf("%s throttles, and this key spreads its requests", p.Dist.Spec))
	fix(HotPartition, fmt.Sprintf("one value of %s takes much of the data or the requests, which this key spreads", p.Dist.Spec))
	fix(LowCardinality, fmt.Sprintf("%s has too few values for the target", p.Dist.Spec))
	fix(DuplicateIDs, fmt.Sprintf("documents that repeat an id under %s, which the service would refuse, are told apart", p.Dist.Spec))
	if e.Dist.Spec.TimeBucket() == "" {
		// A time bucket does not spread the writes of a moment: they share
		// the bucket too.
		fix(Monotonic, fmt.Sprintf("the writes of a moment share a value of %s, which this key spreads", p.Dist.Spec))
	}
	return why
}

// reasons are what e does better than the plain key p, in words: the
// findings of p it does not have, and operations it keeps in fewer
// partitions.
func reasons(e, p *Evaluation) []string {
	why := fixes(e, p)
	if e.Queries.Active && e.Queries.score() > p.Queries.score() {
		why = append(why, fmt.Sprintf("more of the operations stay in one partition or a few (%s against %s under %s)",
			human.Percent(e.Queries.Single+e.Queries.Targeted), human.Percent(p.Queries.Single+p.Queries.Targeted), p.Dist.Spec))
	}
	return why
}

// worst is the rank of the most severe finding of a code (0 critical, 1
// warning, 2 info), 3 when there is none.
func worst(e *Evaluation, code string) int {
	w := 3
	for _, f := range e.Findings {
		if f.Code == code {
			w = min(w, severityRank(f.Severity))
		}
	}
	return w
}

// Shortfall says, once for the report, when the container is short of
// the throughput given under any key: the workload served from one
// partition each time already needs more than it has. best is the
// recommended key's evaluation. It returns "" when there is no shortfall,
// or no throughput was given.
func Shortfall(best *Evaluation) string {
	if best == nil || !best.Load.Active || best.settings.Throughput.RU == 0 || best.shortfall() <= 0 {
		return "" // with no throughput given, each key says what it needs
	}
	l := best.Load
	provisioned := l.CapacityRU * float64(best.physicalCount())
	msg := fmt.Sprintf("The workload needs %s under any key (each operation served from one partition) and %s under %s, but the container has %s: every key throttles.",
		ru(l.BaseRU), ru(l.TotalRU), best.Dist.Spec, ru(provisioned)) + heaviest(best)
	if p := best.Provision; p.LeastRU > 0 {
		msg += fmt.Sprintf(" Provision at least %s: under %s no partition throttles from there (%s physical %s).", ru(float64(p.LeastRU)), best.Dist.Spec,
			human.Count(int64(p.Partitions)), human.Plural(int64(p.Partitions), "partition", "partitions"))
		if p.LeastRU > capacity.ContainerQuotaRU {
			msg += " " + quotaText
		}
	} else if !(l.HottestLogiRU <= capacity.PartitionMaxRU) {
		msg += fmt.Sprintf(" Under %s one logical partition needs %s, past the %s a key value can get: no throughput is enough.", best.Dist.Spec, ru(l.HottestLogiRU), human.Count(capacity.PartitionMaxRU)+" RU/s")
	} else {
		msg += fmt.Sprintf(" Under %s no throughput is enough: on as many as %s physical partitions, the most tried, the busiest still needs more than %s RU/s.", best.Dist.Spec, human.Count(capacity.MaxPartitions), human.Count(capacity.PartitionMaxRU))
	}
	return msg + " The keys' findings are about what each key adds."
}

// quotaText is said of throughput past a container's default quota.
var quotaText = "That is past the " + human.Count(capacity.ContainerQuotaRU) + " RU/s a container may have unless an Azure support ticket raises its quota."

// heaviest names the operation of the workload file that asks at least
// half of what the key needs, and, when its items are only an upper
// bound (Charge.AtMost), how to give its real charge; "" for none.
func heaviest(e *Evaluation) string {
	at, most := -1, 0.0
	for i, v := range e.Queries.Verdicts {
		if i < len(e.Load.Charges) {
			if d := v.Rate * e.Load.Charges[i].RU; d > most {
				at, most = i, d
			}
		}
	}
	if at < 0 || most < e.Load.TotalRU/2 {
		return ""
	}
	v, ch := e.Queries.Verdicts[at], e.Load.Charges[at]
	msg := fmt.Sprintf(" Of that, line %d asks %s (%s at %s RU).", v.Op.Line, human.Percent(most/e.Load.TotalRU), rateText(v.Rate), human.Count(int64(math.Round(ch.RU))))
	if ch.AtMost && ch.Items > 0 {
		items := human.Count(int64(math.Round(ch.Items)))
		matched := "the " + items + " items its = and IN filters match"
		if at < len(e.settings.Operations) {
			op := e.settings.Operations[at]
			switch fs := op.Shape.Filters; {
			case len(fs) == 0 && ch.Items < op.Matches:
				// Matching every item, it loads a page from each partition.
				matched = fmt.Sprintf("the %s items of a page from each of the %s %s it reads (it has no = or IN filter on the item's paths to count by, so it matches every item)",
					items, human.Count(int64(ch.Partitions)), human.Plural(int64(ch.Partitions), "partition", "partitions"))
			case len(fs) == 0:
				matched = "the container's " + items + " items (it has no = or IN filter on the item's paths to count by)"
			case slices.ContainsFunc(fs, func(f query.Filter) bool { return f.Literals == nil }):
				// A parameter: the items of a value as requests choose them.
				matched = "the " + items + " items its = and IN filters match on average"
			}
		}
		msg += fmt.Sprintf(" Its charge counts every one of %s, as the documents cannot tell how few its other conditions (a range, a function, an OR) leave: measure it and give the charge before the query (%s ru=N SELECT ...).",
			matched, trimFloat(v.Op.Weight))
	}
	return msg
}
