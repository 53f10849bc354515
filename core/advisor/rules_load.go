package advisor

import (
	"fmt"
	"math"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/paths"
)

// requestSpread judges where the requests go under the key. Without a
// workload, by how much of them its busiest value takes; with one, by the
// throughput the key needs for no partition to throttle, against what the
// workload needs served from one partition each time: the one figure that
// weighs hot partitions and fan-out queries alike. Throttling that an even
// key would suffer too is the throughput's fault, not the key's: the report
// says so once (Shortfall), and this rule judges what the key adds.
func requestSpread(e *Evaluation) verdict {
	d := e.Dist
	c := e.component(requestsName)
	v := verdict{component: c}
	add := func(f Finding) { v.findings = append(v.findings, f) }
	keyed := float64(d.Documents - d.Invalid)
	c.Score = shareScore(e.HottestShare)
	c.Note = fmt.Sprintf("the busiest logical partition takes %s of requests", human.Percent(e.HottestShare))
	largest := d.Largest(1)
	var topShare float64
	if len(largest) > 0 && d.Bytes > 0 {
		topShare = float64(largest[0].Bytes) / float64(d.Bytes)
	}
	growing := d.Singletons() >= 0.5 || d.GrowsByNewValues()
	if len(largest) > 0 && !growing && (e.HottestShare >= 0.2 || topShare >= 0.2) && d.Distinct > 1 {
		sev := Warning
		if e.HottestShare >= 0.5 || topShare >= 0.5 {
			sev = Critical
		}
		add(Finding{HotPartition, sev, fmt.Sprintf(
			"The value %s alone holds %s of the documents and takes %s of the requests: the one physical partition that stores it does that much of the work however many partitions the container has, and it is limited to %s.",
			ValueText(largest[0].Values), human.Percent(float64(largest[0].Documents)/math.Max(keyed, 1)), human.Percent(e.HottestShare), partitionRU)})
	}
	if d.Spec.Kind == key.MultiHash {
		val, share := firstLevel(e)
		if d.NewFirstLevels() {
			// New first levels keep coming, and each keeps its documents:
			// at the target this one holds its share of the sample's.
			share /= e.Projection.Factor
		}
		if share >= 0.2 {
			// With one physical partition there is nothing to be hot against
			// yet; the projection shows it once a target size is given.
			sev := Info
			if len(e.Physical) > 1 {
				sev = Warning
			}
			add(Finding{HotPartition, sev, fmt.Sprintf(
				"The first level %s holds %s of the documents under one value, %s. A hierarchical key lets that value grow past %s, but its documents sit together in one physical partition until they fill it (%s) and it splits: until then its writes all go to one partition.",
				paths.Format(d.Spec.Paths[0]), human.Percent(share), ComponentText(val), logicalLimit, physicalLimit)})
		}
	}
	if !e.Load.Active {
		return v
	}
	l := e.Load
	c.Name = neededName
	c.Score, c.Note = throughputScore(e)
	t := l.Throttle
	keyThrottled := t.ThrottledFraction - e.shortfall()
	if e.settings.Throughput.RU == 0 {
		// No throughput was given: the figures use the least the service
		// allows, which nobody would set for this workload. What the key
		// needs is the component's; only a value no throughput serves is
		// a finding.
		keyThrottled = 0
	}
	if keyThrottled > 0.001 || l.HottestLogiRU > capacity.PartitionMaxRU {
		// The docs call 1-5 % of requests answered 429 a healthy sign
		// that the RU/s are fully used, when partitions are evenly loaded
		// (troubleshoot-request-rate-too-large): worth knowing, not a fault.
		sev := Info
		switch {
		case keyThrottled > healthyThrottling*3 || l.HottestLogiRU > capacity.PartitionMaxRU:
			sev, v.cap = Critical, 60
		case keyThrottled > healthyThrottling:
			sev = Warning
		}
		msg := fmt.Sprintf("At %s of demand, physical partition %d is asked for %s but has %s: %s of requests would be throttled (HTTP 429).",
			ru(l.TotalRU), t.Hottest, ru(l.DemandRU[max(t.Hottest, 0)]), ru(l.CapacityRU), human.Percent(t.ThrottledFraction))
		if short := e.shortfall(); short > 0.001 && e.settings.Throughput.RU > 0 {
			// The container is short for the workload on any key
			// (UNDERPROVISIONED): this key is judged on what it adds.
			msg += fmt.Sprintf(" Of all requests, %s would be under any key, as the container has less throughput than the workload needs, and this key adds %s.",
				human.Percent(short), human.Percent(keyThrottled))
			if sev == Info {
				msg += fmt.Sprintf(" What it adds is within the %s the docs call healthy when the throughput is fully used.", human.Percent(healthyThrottling))
			}
		} else if sev == Info {
			msg += fmt.Sprintf(" That is within the %s the docs call healthy when the throughput is fully used.", human.Percent(healthyThrottling))
		}
		if l.TotalRU > 1.5*l.BaseRU {
			msg += fmt.Sprintf(" Of the demand, %s is what this key adds, by reading several partitions or by querying for the items of point reads and deletes that lack it: a key that served each operation from one partition would need %s.",
				ru(l.TotalRU-l.BaseRU), ru(l.BaseRU))
		}
		switch {
		case l.HottestLogiRU > capacity.PartitionMaxRU:
			msg += fmt.Sprintf(" One logical partition alone needs %s, past the %s any single key value can get: more throughput cannot fix that, a finer key can.", ru(l.HottestLogiRU), partitionRU)
		case e.Provision.LeastRU > 0:
			msg += fmt.Sprintf(" Under this key no partition throttles from %s (on %s physical %s%s).", ru(float64(e.Provision.LeastRU)),
				human.Count(int64(e.Provision.Partitions)), human.Plural(int64(e.Provision.Partitions), "partition", "partitions"), byDataText(e.Provision))
		}
		add(Finding{Throttled, sev, msg})
	}
	return v
}

// byDataText says how to create the container so that it has the layout
// the least throughput needs: split where its data is, or started with
// fewer partitions than that throughput would give it.
func byDataText(p Provision) string {
	switch {
	case p.ByData:
		return fmt.Sprintf(", split where the data is: create the container with %s or less, load it, raise its RU/s to %s so that it splits, then lower them",
			ru(float64(p.CreateRU)), ru(float64(p.Partitions*capacity.PartitionMaxRU)))
	case p.CreateRU > 0:
		return fmt.Sprintf(": create the container with %s or less, then raise its RU/s, as created with more it would start with more partitions", ru(float64(p.CreateRU)))
	}
	return ""
}

// healthyThrottling is the share of requests answered 429 the docs call a
// healthy sign that the RU/s are fully used: 1-5 %
// (troubleshoot-request-rate-too-large).
const healthyThrottling = 0.05

// throughputScore rates the throughput the key needs for no partition to
// throttle against what the workload needs at least: full marks when it
// needs no more, half when it needs twice as much, none from four times
// or when no throughput is enough.
func throughputScore(e *Evaluation) (int, string) {
	l, p := e.Load, e.Provision
	switch {
	case p.LeastRU == 0 && !(l.HottestLogiRU <= capacity.PartitionMaxRU):
		return 0, fmt.Sprintf("no throughput is enough: one logical partition needs %s, past the %s a key value can get", ru(l.HottestLogiRU), partitionRU)
	case p.LeastRU == 0:
		// No key value is past the limit, but the workload is past what
		// the most partitions tried serve (provision).
		return 0, fmt.Sprintf("no throughput is enough: on as many as %s physical partitions, the most tried, the busiest still needs more than %s", human.Count(capacity.MaxPartitions), partitionRU)
	}
	base := max(l.BaseRU, 1)
	r := math.Min(1, base/float64(p.LeastRU))
	note := fmt.Sprintf("no partition throttles from %s%s; if every request read one partition, the workload would need %s", ru(float64(p.LeastRU)), byDataText(p), ru(base))
	switch t := l.Throttle; {
	case e.settings.Throughput.RU == 0:
		// No throughput given: nothing to be throttled at.
	case t.Headroom < 1:
		note += fmt.Sprintf("; at %s, %s of requests would be throttled", ru(float64(e.Throughput.RU)), human.Percent(t.ThrottledFraction))
	case t.Headroom < math.Inf(1):
		note += fmt.Sprintf("; at %s the workload can grow %s before the busiest partition throttles", ru(float64(e.Throughput.RU)), times(t.Headroom))
	}
	return pct(1 + math.Log2(r)/2), note
}

// shortfall is the share of the demand any key would have throttled: what
// the workload needs served from one partition each time, past the RU/s
// the container has.
func (e *Evaluation) shortfall() float64 {
	l := e.Load
	provisioned := l.CapacityRU * float64(e.physicalCount())
	return math.Max(0, l.BaseRU-provisioned) / math.Max(l.TotalRU, 1)
}

// firstLevel returns the most common first-level value of a hierarchical
// key and its share of documents.
func firstLevel(e *Evaluation) (epk.Value, float64) {
	d := e.Dist
	val, docs, ok := d.FirstLevel()
	if !ok || d.Documents == 0 {
		return epk.Value{}, 0
	}
	return val, float64(docs) / float64(d.Documents)
}

// oneValue is what the writes of a moment crowd under spec: a value, or
// a hierarchical key's first level.
func oneValue(spec key.Spec) string {
	if spec.Kind == key.MultiHash {
		return "value of the first level"
	}
	return "value"
}

// dayOneFit judges the container's first day: the partitions its
// throughput gives it, before any split. A key whose first level has few
// values leaves some of them empty, and one whose writes of a moment share
// a value puts them on one partition, until the data grows to split it.
func dayOneFit(e *Evaluation) verdict {
	var v verdict
	day := e.DayOne
	n := len(day.Physical)
	if n <= 1 || e.Dist.Documents == 0 {
		return v
	}
	top := 0.0
	for _, w := range day.Writes {
		top = max(top, w)
	}
	fair := 1 / float64(n)
	crowded := top >= max(0.5, 2*fair)
	if day.Empty == 0 && !crowded {
		return v
	}
	msg := fmt.Sprintf("On its first day the container has %s physical partitions of %s each, before any split.", human.Count(int64(n)), ru(day.CapacityRU))
	if day.Empty > 0 {
		msg += fmt.Sprintf(" %s keeps %s of them empty: its values fall on %s, and the empty ones' throughput serves nothing until those split at %s.",
			e.Dist.Spec, human.Count(int64(day.Empty)), human.Count(int64(n-day.Empty)), physicalLimit)
	}
	if crowded {
		msg += fmt.Sprintf(" The busiest takes %s of the writes of a moment (fair: %s).", human.Percent(top), human.Percent(fair))
	}
	sev := Info
	if day.WriteRU > day.CapacityRU {
		sev = Warning
		msg += fmt.Sprintf(" The workload's writes ask %s of it: they throttle from the first day", ru(day.WriteRU))
		switch p := e.Provision; {
		case day.WriteRU > capacity.PartitionMaxRU && (e.Dist.Spec.Kind == key.MultiHash || e.Load.HottestLogiRU > capacity.PartitionMaxRU):
			// One value, or one first level, which sits in one partition
			// however many the container starts with.
			msg += fmt.Sprintf(", more than the %s one partition can have, whatever the container's total: they fall on one %s, which one partition holds until it splits.", partitionRU, oneValue(e.Dist.Spec))
		case day.WriteRU > capacity.PartitionMaxRU:
			msg += fmt.Sprintf(", more than the %s one partition can have: only more partitions from the start, over which the writes of a moment spread, can take them.", partitionRU)
		case p.FirstDay:
			msg += fmt.Sprintf(" at this throughput; at %s, the throughput to provision, each partition of the first day has enough.", ru(float64(p.LeastRU)))
		default:
			msg += " at this throughput."
		}
	}
	if e.Projection.Factor > 1 && len(e.Physical) != n {
		msg += fmt.Sprintf(" At the target it has %s partitions.", human.Count(int64(len(e.Physical))))
	}
	v.findings = append(v.findings, Finding{DayOneSpread, sev, msg})
	return v
}
