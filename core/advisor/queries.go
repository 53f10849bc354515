package advisor

import (
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/query"
)

// Queries is how the application's operations route under a key.
type Queries struct {
	Active                   bool
	Single, Targeted, FanOut float64 // shares of the routed traffic (queries, point reads, deletes)
	Verdicts                 []Verdict
	// scaled: the file lists queries, so the settings' query rate scales
	// them instead of adding to them.
	scaled bool
}

// Verdict is one operation under a key.
type Verdict struct {
	Op         query.Op
	Assessment query.Assessment
	Rate       float64 // per second, after scaling to the query rate given
}

// routed reports whether an operation's routing counts toward the shares.
func routed(k query.OpKind) bool {
	return k == query.QueryOp || k == query.ReadOp || k == query.DeleteOp
}

// route says where every operation goes under spec, and at what rate.
// Weights are per second; when the settings give a query rate, the
// queries' weights are scaled to it, so the file can hold relative weights.
func route(ops []Operation, spec key.Spec, queriesPerSecond float64) Queries {
	q := Queries{Active: len(ops) > 0}
	if !q.Active {
		return q
	}
	scale, scaled := queryScale(ops, queriesPerSecond)
	q.scaled = scaled
	var total float64
	for _, op := range ops {
		a := query.Assess(op.Op, spec)
		rate := op.Weight
		if op.Kind == query.QueryOp {
			rate *= scale
		}
		q.Verdicts = append(q.Verdicts, Verdict{Op: op.Op, Assessment: a, Rate: rate})
		if !routed(op.Kind) {
			continue
		}
		total += rate
		switch a.Routing.Kind {
		case query.Single:
			q.Single += rate
		case query.Targeted:
			q.Targeted += rate
		default:
			q.FanOut += rate
		}
	}
	if total > 0 {
		q.Single /= total
		q.Targeted /= total
		q.FanOut /= total
	}
	return q
}

// queryScore rates the routing: a single-partition operation is full marks,
// a targeted one three quarters, a fan-out none.
func (q Queries) score() int { return pct(q.Single + 0.75*q.Targeted) }

// queryRouting judges where the application's operations go under the key.
func queryRouting(e *Evaluation) verdict {
	q := e.Queries
	if !q.Active {
		return verdict{}
	}
	c := e.component(queriesName)
	c.Score = q.score()
	c.Note = fmt.Sprintf("%s of the operations read one partition, %s a few, %s all of them",
		human.Percent(q.Single), human.Percent(q.Targeted), human.Percent(q.FanOut))
	if q.Single+q.Targeted+q.FanOut == 0 {
		unmeasured(c, "the workload has no query, point read or delete to route")
	}
	v := verdict{component: c}
	add := func(f Finding) { v.findings = append(v.findings, f) }
	p := len(e.Physical)
	if q.FanOut > 0 {
		var worst *Verdict
		for i := range q.Verdicts {
			w := &q.Verdicts[i]
			if routed(w.Op.Kind) && w.Assessment.Routing.Kind == query.FanOut && (worst == nil || w.Rate > worst.Rate) {
				worst = w
			}
		}
		// e.Physical is the layout at the target; the splits on the way
		// there are what the container has more than now.
		now := max(p-e.Projection.Splits, 1)
		// A workload that needs more than one partition's 10,000 RU/s has
		// several at the throughput that serves it, whatever was given.
		forced := p <= 1 && (e.Provision.Partitions > 1 || e.Load.Active && e.Load.TotalRU > capacity.PartitionMaxRU)
		sev := Info
		switch {
		case p <= 1 && !forced:
			// One partition reads no others: fan-out costs nothing yet.
		case q.FanOut > 0.5:
			sev, v.cap = Critical, 65
		case q.FanOut > 0.1:
			sev = Warning
		}
		msg := fmt.Sprintf("%s of the operations read every physical partition under %s", human.Percent(q.FanOut), e.Dist.Spec)
		if worst != nil {
			msg += fmt.Sprintf(", such as %s (%s)", describeOp(worst.Op), worst.Assessment.Routing.Reason)
		}
		has := fmt.Sprintf("the container has %s %s", human.Count(int64(now)), human.Plural(int64(now), "physical partition", "physical partitions"))
		switch {
		case now != p:
			has += fmt.Sprintf(" now and %s at the target", human.Count(int64(p)))
		case e.Projection.Factor > 1:
			has += " now and at the target"
		}
		cost := fmt.Sprintf("a cross-partition query, or a point read or delete that must first query to find its item, costs about %s RU more for each extra physical partition and its latency grows with them",
			trimFloat(capacity.QueryPartitionRU))
		// A point read or delete that must query for its item pays for
		// the query even on one partition (as the load counts it).
		finds := false
		for _, w := range q.Verdicts {
			finds = finds || (w.Op.Kind == query.ReadOp || w.Op.Kind == query.DeleteOp) && w.Assessment.Routing.Kind == query.FanOut && w.Rate > 0
		}
		// What a workload that needs more partitions than given is told.
		more := fmt.Sprintf(". At the throughput given %s, but the workload asks %s under this key, more than one partition serves", has, ru(e.Load.TotalRU))
		switch pr := e.Provision; {
		case forced && pr.LeastRU == 0:
			msg += fmt.Sprintf("%s, and %s: no throughput is enough, as each partition added is read by every such query.", more, cost)
		case forced && pr.LeastRU > capacity.ContainerQuotaRU:
			// Each partition added to serve the queries is read by every
			// one of them: the least that serves them is past the quota.
			msg += fmt.Sprintf("%s, and %s: only at %s, on %s partitions, past the %s RU/s a container may have, does no partition throttle.",
				more, cost, ru(float64(pr.LeastRU)), human.Count(int64(pr.Partitions)), human.Count(capacity.ContainerQuotaRU))
		case forced:
			msg += fmt.Sprintf("%s: at %s, the throughput to provision, it has %s, and %s.", more, ru(float64(pr.LeastRU)), human.Count(int64(pr.Partitions)), cost)
		case p <= 1 && finds:
			msg += fmt.Sprintf(". %s, so a query costs nothing extra for it yet, but a point read or delete that must first query to find its item pays for that query already. It would cost more once the container splits: %s.", sentence(has), cost)
		case p <= 1:
			msg += fmt.Sprintf(". This costs nothing extra yet: %s. It would matter once the container splits: %s.", has, cost)
		default:
			msg += fmt.Sprintf(". %s: %s.", sentence(cost), has)
		}
		if e.IsID {
			msg += " This is the /id trap: perfect spread, but only point reads stay in one partition."
		}
		add(Finding{CrossPartitionQueries, sev, msg})
	}
	for _, w := range q.Verdicts {
		switch {
		case w.Assessment.KeyUpdated:
			add(Finding{KeyUpdated, Warning, fmt.Sprintf("%s changes the key (%s). %s.",
				sentence(describeOp(w.Op)), rateText(w.Rate), sentence(w.Assessment.Message))})
		case w.Assessment.SpansKeys:
			// The operation cannot run under the key at all, as a key value
			// too long cannot be written: held below every key it runs
			// under (a review's /roomId,/id kept first over /roomId,
			// under which the batch of a message and its room's summary
			// runs, both capped at 60).
			v.cap = capOf(v.cap, 40)
			add(Finding{TransactionSpansKeys, Critical, fmt.Sprintf("%s spans items with different key values. %s.",
				sentence(describeOp(w.Op)), sentence(w.Assessment.Message))})
		case w.Op.Kind == query.ReadOp && w.Assessment.Routing.Kind != query.Single:
			// The assessment's message says the same again: not repeated.
			where, give := "every partition", "the key"
			if r := w.Assessment.Routing; r.Kind == query.Targeted {
				where, give = "the partitions of "+partsText(r.Values, e.Dist.Spec), "the whole key"
			}
			add(Finding{ReadWithoutKey, Warning, fmt.Sprintf("%s %s, so it cannot be a point read: it must first query %s to find the item (%s). Give it %s.",
				sentence(describeOp(w.Op)), w.Assessment.Routing.Reason, where, rateText(w.Rate), give)})
		}
	}
	return v
}

// partsText counts the key values, or a hierarchical key's prefixes, a
// targeted operation names.
func partsText(n int, spec key.Spec) string {
	one, many := "key value", "key values"
	if spec.Kind == key.MultiHash {
		one, many = "prefix", "prefixes"
	}
	if n <= 0 {
		return "an unknown number of " + many
	}
	return human.Count(int64(n)) + " " + human.Plural(int64(n), one, many)
}

// describeOp names an operation for people.
func describeOp(op query.Op) string {
	if op.Kind == query.QueryOp {
		t := strings.Join(strings.Fields(op.Text), " ")
		if len(t) > 90 {
			t = t[:87] + "…"
		}
		return fmt.Sprintf("the query %q (line %d)", t, op.Line)
	}
	what := map[query.OpKind]string{query.ReadOp: "the point read", query.CreateOp: "the create", query.ReplaceOp: "the replace",
		query.PatchOp: "the patch", query.UpsertOp: "the upsert", query.DeleteOp: "the delete", query.BatchOp: "the transactional batch",
		query.SprocOp: "the stored procedure"}[op.Kind]
	if len(op.Paths) > 0 {
		what += " of " + strings.Join(op.Paths, ", ")
	}
	return fmt.Sprintf("%s (line %d)", what, op.Line)
}

// queryScale is what the queries' weights are multiplied by to make their
// rates: the settings' query rate over their weights, when both are given.
func queryScale(ops []Operation, queriesPerSecond float64) (scale float64, scaled bool) {
	if queriesPerSecond <= 0 {
		return 1, false
	}
	var w float64
	for _, op := range ops {
		if op.Kind == query.QueryOp {
			w += op.Weight
		}
	}
	if w <= 0 {
		return 1, false
	}
	return queriesPerSecond / w, true
}

// Unserved is an operation no key can serve (Unservable).
type Unserved struct {
	Index   int     // in Settings.Operations
	Rate    float64 // executions a second
	RU      float64 // one execution read from one partition, the least any key makes it
	Items   float64 // the items that execution loads
	Message string
}

// Unservable finds the queries that ask more than a container may have
// (capacity.ContainerQuotaRU, concepts-limits) even read from one
// partition, which is the least any key makes them cost: an aggregate over
// a value grown to millions of items loads them all at every execution.
// No key serves them, so comparing keys with them in says nothing; the
// analysis compares the keys without them, and says so.
func Unservable(s Settings) []Unserved {
	e := &Evaluation{settings: s, costs: costsOf(s)}
	scale, _ := queryScale(s.Operations, s.Workload.Queries)
	var out []Unserved
	for i, op := range s.Operations {
		if op.Kind != query.QueryOp {
			continue
		}
		rate := op.Weight * scale
		charge, _ := e.queryCharge(op, 1)
		if !(rate*charge > capacity.ContainerQuotaRU) {
			continue
		}
		u := Unserved{Index: i, Rate: rate, RU: charge, Items: e.loaded(op, 1)}
		asks, items := "asks at least", ""
		if op.Shape.Narrowed && op.RU == 0 {
			// Its = and IN filters match that many; its other conditions
			// may leave far fewer, which the documents cannot tell.
			asks, items = "may ask as much as", " at most"
		}
		serves := "No key serves it"
		if items != "" {
			serves = "Counted so, no key serves it"
		}
		u.Message = fmt.Sprintf("%s (%s) %s %s under any key: one execution read from one partition costs %s RU, for%s %s items at the target, past the %s RU/s a container may have (concepts-limits). %s, so the keys are compared without it.",
			sentence(describeOp(op.Op)), rateText(rate), asks, ru(rate*charge), human.Count(int64(math.Round(charge))), items, human.Count(int64(math.Round(u.Items))), human.Count(capacity.ContainerQuotaRU), serves)
		if items != "" {
			u.Message += fmt.Sprintf(" Those are the items its = and IN filters match: its other conditions (a range, a function, an OR) may leave far fewer, which the documents cannot tell. Measure it and give the charge before the query (%s ru=N SELECT ...) to have it compared.", trimFloat(op.Weight))
		}
		if op.Shape.Aggregate {
			u.Message += " An aggregate loads every item it matches: keep what it computes in a document of its own, updated as the items are written, and read that (a point read, about 1 RU)."
		} else {
			u.Message += " Page it (TOP, or a continuation a page at a time), or lower its rate."
		}
		out = append(out, u)
	}
	return out
}

// sentence starts a message with a capital letter, for use after a full stop.
func sentence(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

func rateText(r float64) string {
	if r <= 0 || math.IsNaN(r) {
		return "no rate given"
	}
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", r), "0"), ".") + " per second"
}
