package advisor

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/partition"
	"github.com/pkcalc/pkcalc/core/paths"
)

// Component is one line of a score's breakdown.
type Component struct {
	Name   string
	Weight int // share of the score, out of 100
	Score  int // 0-100
	Note   string
}

// Severity of a finding.
type Severity string

const (
	Critical Severity = "critical" // the key will fail: writes rejected or throttled at the target
	Warning  Severity = "warning"  // the key will cost or hurt
	Info     Severity = "info"     // worth knowing
)

// Finding is one observation, with a stable code.
type Finding struct {
	Code     string
	Severity Severity
	Message  string
}

// Finding codes.
const (
	LowCardinality        = "LOW_CARDINALITY"
	HotPartition          = "HOT_PARTITION"
	LogicalPartitionLimit = "LOGICAL_PARTITION_LIMIT"
	Monotonic             = "MONOTONIC"
	MissingValues         = "MISSING_VALUES"
	InvalidValues         = "INVALID_VALUES"
	KeyTooLong            = "KEY_TOO_LONG"
	TruncationCollision   = "TRUNCATION_COLLISION"
	ImpreciseNumbers      = "IMPRECISE_NUMBERS"
	Throttled             = "THROTTLED"
	IDKey                 = "ID_KEY"
	CrossPartitionQueries = "CROSS_PARTITION_QUERIES"
	KeyUpdated            = "KEY_UPDATED"
	ReadWithoutKey        = "POINT_READ_WITHOUT_KEY"
	TransactionSpansKeys  = "TRANSACTION_SPANS_KEYS"
	Underprovisioned      = "UNDERPROVISIONED"
	EstimatedFigures      = "ESTIMATED"
)

// Grades, from the score.
func grade(score int) string {
	switch {
	case score >= 85:
		return "A"
	case score >= 70:
		return "B"
	case score >= 55:
		return "C"
	case score >= 40:
		return "D"
	}
	return "F"
}

func (e *Evaluation) score() {
	d := e.Dist
	p := len(e.Physical)
	keyed := float64(d.Documents - d.Invalid)
	capAt := 100
	limit := func(c int) { capAt = min(capAt, c) }
	add := func(f Finding) { e.Findings = append(e.Findings, f) }
	spec := d.Spec.String()

	// Distinct values: a key with few values caps the partitions that can
	// ever serve the container.
	// A key with a time bucket gains a set of values with each bucket: its
	// count has no ceiling, and what matters is how many are written at a
	// time (Writes over time, MONOTONIC).
	bucket := d.Spec.TimeBucket()
	growing := d.Singletons() >= 0.5 || bucket != ""
	want := math.Max(1000, 10*float64(p))
	distinctProjected := projectDistinct(d, e.Projection.Factor)
	card := Component{Name: "Distinct values", Weight: 25}
	switch {
	case bucket != "":
		card.Score = 100
		card.Note = fmt.Sprintf("%s distinct %s; every new %s brings new ones, so they grow with time", human.Count(d.Distinct), human.Plural(d.Distinct, "value", "values"), bucket)
	case growing:
		card.Score = 100
		card.Note = fmt.Sprintf("%s distinct %s; most documents bring a new one, so they grow with the data", human.Count(d.Distinct), human.Plural(d.Distinct, "value", "values"))
	default:
		card.Score = pct(math.Log10(math.Max(distinctProjected, 1)) / math.Log10(want))
		card.Note = fmt.Sprintf("%s distinct %s", human.Count(d.Distinct), human.Plural(d.Distinct, "value", "values"))
		if n := int64(math.Round(distinctProjected)); n > d.Distinct {
			card.Note += fmt.Sprintf(", about %s at the target", human.Count(n))
		}
		card.Note += fmt.Sprintf("; a good key has thousands, and many more than its %s physical %s", human.Count(int64(p)), human.Plural(int64(p), "partition", "partitions"))
	}
	suffix := suffixModulus(d.Spec)
	if !growing && keyed > 0 && suffix > 0 && distinctProjected < want {
		// A computed suffix bounds the values by design: it was chosen so
		// that each stays small at the target (LOGICAL_PARTITION_LIMIT
		// says if one does not). The count is worth knowing, not a fault.
		add(Finding{LowCardinality, Info, fmt.Sprintf(
			"%s has %s distinct %s by design: each value of the rest of the key is cut into %d suffixes, so its data and requests spread over %d logical partitions; the count grows only with new values of the rest.",
			spec, human.Count(d.Distinct), human.Plural(d.Distinct, "value", "values"), suffix, suffix)})
	}
	if !growing && keyed > 0 && suffix == 0 {
		switch {
		case d.Distinct < 10:
			limit(35)
		case d.Distinct < 100:
			limit(55)
		case distinctProjected < want:
			limit(75)
		}
		if distinctProjected < want {
			sev := Warning
			if d.Distinct < 100 {
				sev = Critical
			}
			add(Finding{LowCardinality, sev, fmt.Sprintf(
				"%s has only %s distinct %s, so the container can never use more than %s %s: each is capped at 20 GB and 10,000 RU/s, and low-cardinality keys (status, type, country, device) leave most of the key space empty.",
				spec, human.Count(d.Distinct), human.Plural(d.Distinct, "value", "values"),
				human.Count(d.Distinct), human.Plural(d.Distinct, "logical partition", "logical partitions"))})
		}
	}

	// Spread of data, over logical and physical partitions.
	largest := d.Largest(1)
	var topShare float64
	if len(largest) > 0 && d.Bytes > 0 {
		topShare = float64(largest[0].Bytes) / float64(d.Bytes)
	}
	data := Component{Name: "Spread of data", Weight: 20}
	data.Score = shareScore(topShare)
	data.Note = fmt.Sprintf("the largest logical partition holds %s of the data", human.Percent(topShare))
	if fullest := e.fullestShare(); p > 1 && fullest > 0 {
		ratio := fullest * float64(p)
		if phys := pct(1 - (ratio-1)/float64(p-1)); phys < data.Score {
			data.Score = phys
			data.Note = fmt.Sprintf("the fullest of %s physical partitions holds %s the average", human.Count(int64(p)), times(ratio))
		}
	}

	// Spread of requests.
	req := Component{Name: "Spread of requests", Weight: 20}
	req.Score = shareScore(e.HottestShare)
	req.Note = fmt.Sprintf("the busiest logical partition takes %s of requests", human.Percent(e.HottestShare))
	if len(largest) > 0 && !growing && (e.HottestShare >= 0.2 || topShare >= 0.2) && d.Distinct > 1 {
		sev := Warning
		if e.HottestShare >= 0.5 || topShare >= 0.5 {
			sev = Critical
		}
		add(Finding{HotPartition, sev, fmt.Sprintf(
			"The value %s alone holds %s of the documents and takes %s of the requests: the one physical partition that stores it does that much of the work however many partitions the container has, and it is limited to 10,000 RU/s.",
			ValueText(largest[0].Values), human.Percent(float64(largest[0].Documents)/math.Max(keyed, 1)), human.Percent(e.HottestShare))})
	}
	if d.Spec.Kind == key.MultiHash {
		if v, share := firstLevel(d); share >= 0.2 {
			// With one physical partition there is nothing to be hot against
			// yet; the projection shows it once a target size is given.
			sev := Info
			if p > 1 {
				sev = Warning
			}
			add(Finding{HotPartition, sev, fmt.Sprintf(
				"The first level %s holds %s of the documents under one value, %s. A hierarchical key lets that value grow past 20 GB, but its documents sit together in one physical partition until they fill it (50 GB) and it splits: until then its writes all go to one partition.",
				paths.Format(d.Spec.Paths[0]), human.Percent(share), ComponentText(v))})
		}
	}
	if e.Load.Active {
		t := e.Load.Throttle
		// Throttling that an even key would suffer too is the throughput's
		// fault, not the key's: say so once, without marking the key down.
		// What the key's fan-out adds to the demand is the key's fault.
		provisioned := e.Load.CapacityRU * float64(p)
		evenThrottled := math.Max(0, e.Load.BaseRU-provisioned) / math.Max(e.Load.TotalRU, 1)
		if evenThrottled > 0 {
			need := human.Count(int64(math.Ceil(e.Load.BaseRU)))
			msg := fmt.Sprintf("The workload needs %s RU/s but the container has %s RU/s: any key would be throttled. Provision at least %s RU/s; the findings below are about what the key adds.",
				need, human.Count(int64(provisioned)), need)
			if e.Load.TotalRU > e.Load.BaseRU+0.5 {
				msg = fmt.Sprintf("The workload needs %s RU/s under any key, and %s under %s, which reads several partitions or queries for items for some operations, but the container has %s RU/s: any key would be throttled. Provision at least %s RU/s; the findings below are about what the key adds.",
					need, human.Count(int64(math.Ceil(e.Load.TotalRU))), spec, human.Count(int64(provisioned)), need)
			}
			add(Finding{Underprovisioned, Warning, msg})
		}
		keyThrottled := t.ThrottledFraction - evenThrottled
		if keyThrottled > 0.001 || e.Load.HottestLogiRU > capacity.PartitionMaxRU {
			req.Score = min(req.Score, pct(1-5*keyThrottled))
			sev := Warning
			if keyThrottled > 0.05 || e.Load.HottestLogiRU > capacity.PartitionMaxRU {
				sev = Critical
				limit(60)
			}
			msg := fmt.Sprintf("At %s RU/s of demand, physical partition %d is asked for %s RU/s but has %s: %s of requests would be throttled (HTTP 429).",
				human.Count(int64(e.Load.TotalRU)), t.Hottest, human.Count(int64(e.Load.DemandRU[max(t.Hottest, 0)])), human.Count(int64(e.Load.CapacityRU)), human.Percent(t.ThrottledFraction))
			if e.Load.TotalRU > 1.5*e.Load.BaseRU {
				msg += fmt.Sprintf(" Of the demand, %s RU/s is what this key adds, by reading several partitions or by querying for the items of point reads and deletes that lack it: a key that served each operation from one partition would need %s RU/s.",
					human.Count(int64(e.Load.TotalRU-e.Load.BaseRU)), human.Count(int64(math.Ceil(e.Load.BaseRU))))
			}
			if e.Load.HottestLogiRU > capacity.PartitionMaxRU {
				msg += fmt.Sprintf(" One logical partition alone needs %s RU/s, past the 10,000 RU/s any single key value can get: more throughput cannot fix that, a finer key can.", human.Count(int64(e.Load.HottestLogiRU)))
			}
			add(Finding{Throttled, sev, msg})
		}
		switch {
		case t.Headroom < 1:
			req.Note += fmt.Sprintf("; the workload must shrink to about %s of its rate before the busiest partition stops throttling", human.Percent(t.Headroom))
		case t.Headroom < math.Inf(1):
			req.Note += fmt.Sprintf("; the workload can grow %s before the busiest partition throttles", times(t.Headroom))
		}
	}

	// Room to grow: the 20 GB limit of a logical partition.
	room := Component{Name: "Room to grow", Weight: 15}
	lb := float64(e.Projection.Largest.Bytes)
	maxL := float64(capacity.LogicalPartitionMaxBytes)
	room.Score = pct(1 - (lb-0.35*maxL)/(0.65*maxL))
	room.Note = fmt.Sprintf("the largest logical partition reaches %s of the 20 GB limit", human.Bytes(int64(lb)))
	if e.Projection.Factor > 1 {
		room.Note += fmt.Sprintf(" at %s the sample", times(e.Projection.Factor))
	}
	switch {
	case e.Projection.OverLimitN > 0:
		limit(35)
		add(Finding{LogicalPartitionLimit, Critical, fmt.Sprintf(
			"At the target scale %s logical %s would pass 20 GB, where Cosmos DB rejects further writes to the value; the largest, %s, would hold %s.",
			human.Count(int64(e.Projection.OverLimitN)), human.Plural(int64(e.Projection.OverLimitN), "partition", "partitions"), ValueText(e.Projection.OverLimit[0].Values), human.Bytes(e.Projection.OverLimit[0].Bytes))})
	case e.Projection.OverAlertN > 0:
		// Past the alert line at the size the user plans for, the next
		// growth passes the hard limit: not a key to grade A.
		limit(80)
		add(Finding{LogicalPartitionLimit, Warning, fmt.Sprintf(
			"At the target scale %s logical %s would pass the 70%% alert line (14 GB) of the 20 GB limit; the largest, %s, would hold %s.",
			human.Count(int64(e.Projection.OverAlertN)), human.Plural(int64(e.Projection.OverAlertN), "partition", "partitions"), ValueText(e.Projection.OverAlert[0].Values), human.Bytes(e.Projection.OverAlert[0].Bytes))})
	}

	// Writes over time.
	writes := Component{Name: "Writes over time", Weight: 10, Score: 100, Note: "no time field to measure"}
	// Judged only with enough sampled writes a bucket: with two a day, any
	// key, random ones too, writes at most two values a day to at most two
	// partitions, and would read as following time.
	measurable := e.Spread != nil && e.Spread.SamplesMedian >= minBucketSamples
	if sp := e.Spread; sp != nil && !measurable {
		writes.Note = fmt.Sprintf("a median %s sampled %s per %s, too few to tell how writes spread at a time",
			trimFloat(sp.SamplesMedian), human.Plural(int64(sp.SamplesMedian), "write", "writes"), sp.Unit)
	}
	if sp := e.Spread; measurable {
		// 100 keys a bucket is full marks, or as many as the bucket's
		// sampled writes, if fewer.
		full := math.Min(100, sp.SamplesMedian)
		writes.Score = pct(math.Log10(math.Max(sp.KeysMedian, 1)) / math.Log10(full))
		writes.Note = fmt.Sprintf("a median %s distinct values in %s sampled writes per %s", trimFloat(sp.KeysMedian), human.Count(int64(math.Round(sp.SamplesMedian))), sp.Unit)
		if p > 1 {
			fair := 1 / float64(p)
			s := pct((1 - sp.HottestShare) / (1 - fair))
			writes.Score = min(writes.Score, s)
			writes.Note += fmt.Sprintf("; the busiest partition takes %s of each %s's writes (fair: %s)", human.Percent(sp.HottestShare), sp.Unit, human.Percent(fair))
		}
	}
	concentrated, crowded := e.writesCrowd()
	if crowded {
		limit(70)
		add(Finding{Monotonic, Warning, fmt.Sprintf(
			"At any %s the busiest of %s physical partitions takes %s of the writes (fair: %s): it takes the write load of the moment and throttles first, however even the data is in total.",
			e.Spread.Unit, human.Count(int64(p)), human.Percent(e.Spread.HottestShare), human.Percent(1/float64(p)))})
	}
	if e.Monotonicity.Monotonic || concentrated {
		r, with := e.Monotonicity.Order, "the order of writes"
		if !math.IsNaN(e.Monotonicity.Time) && math.Abs(e.Monotonicity.Time) > math.Abs(r) {
			r, with = e.Monotonicity.Time, "time"
		}
		moves := "increases"
		if r < 0 {
			moves = "decreases"
		}
		switch {
		case !concentrated && d.KeyIsTime():
			// Told below, as a warning.
		case concentrated:
			limit(50)
			add(Finding{Monotonic, Critical, fmt.Sprintf(
				"%s follows time: at any moment nearly all writes go to %s, so one physical partition takes the whole write load while the others idle (a date or time key alone is the classic hot partition).",
				spec, human.Plural(int64(math.Round(e.Spread.KeysMedian)), "one key value", fmt.Sprintf("%s key values", trimFloat(e.Spread.KeysMedian))))})
		default:
			add(Finding{Monotonic, Info, fmt.Sprintf(
				"%s %s with %s (correlation %.2f). Cosmos DB hashes key values, so new writes still spread over partitions; only range queries on the key are affected.", spec, moves, with, r)})
		}
	}

	if !concentrated && d.KeyIsTime() {
		// Hashing spreads the seconds, not the writes of one second.
		limit(70)
		add(Finding{Monotonic, Warning, fmt.Sprintf(
			"%s is the time of the write, in whole seconds or coarser: every write of one second shares one value, so at any moment one logical partition, on one physical partition, takes the whole write load (at most 10,000 RU/s), however evenly the seconds spread in total. Add a hash suffix or choose a key the writes of a moment do not share.", spec)})
	}

	// Key present and valid.
	valid := Component{Name: "Key present and valid", Weight: 10}
	miss := float64(d.Missing) / math.Max(float64(d.Documents), 1)
	inv := float64(d.Invalid) / math.Max(float64(d.Documents), 1)
	valid.Score = pct(1 - 10*(miss+inv))
	valid.Note = fmt.Sprintf("%s of documents lack the key, %s hold an object or array there", human.Percent(miss), human.Percent(inv))
	if d.Missing > 0 {
		sev := Info
		if miss >= 0.01 {
			sev = Warning
		}
		where := "Cosmos DB stores " + human.Plural(d.Missing, "it", "them all") + " under the undefined value: one logical partition that grows with every such document."
		if d.Spec.Kind == key.MultiHash {
			// A level is undefined on its own: the other levels still
			// tell the documents apart.
			where = "Cosmos DB stores a missing level as the undefined value: documents that lack the same levels and share the others share one logical partition, and those that lack the first level share its place in the key space."
		}
		add(Finding{MissingValues, sev, fmt.Sprintf("%s %s (%s) %s %s. %s",
			human.Count(d.Missing), human.Plural(int64(d.Missing), "document", "documents"), human.Percent(miss),
			human.Plural(int64(d.Missing), "lacks", "lack"), strings.Join(d.Spec.PathStrings(), " or "), where)})
	}
	if d.Invalid > 0 {
		// Cosmos DB rejects these documents, so they are stored nowhere: the
		// key is worth only as much as the share it can store, and a key
		// most documents cannot use scores at the bottom.
		limit(int(math.Round(40 * (1 - inv))))
		for _, c := range []*Component{&card, &data, &req, &room, &writes} {
			c.Score = int(math.Round(float64(c.Score) * (1 - inv)))
			if keyed == 0 {
				c.Note = "no document has a value Cosmos DB accepts as a key"
			}
		}
		add(Finding{InvalidValues, Critical, fmt.Sprintf(
			"%s %s an object or an array at %s; a partition key value must be a string, number, boolean or null, so Cosmos DB would reject %s.",
			human.Count(d.Invalid), human.Plural(int64(d.Invalid), "document holds", "documents hold"), strings.Join(d.Spec.PathStrings(), " or "), human.Plural(int64(d.Invalid), "it", "them"))})
	}
	switch {
	case d.OverLimit > 0:
		limit(40)
		add(Finding{KeyTooLong, Critical, fmt.Sprintf("%s %s a key value over 2,048 bytes (the longest is %s bytes); Cosmos DB rejects %s.",
			human.Count(d.OverLimit), human.Plural(int64(d.OverLimit), "document has", "documents have"), human.Count(int64(d.KeyMaxBytes)), human.Plural(int64(d.OverLimit), "it", "them"))})
	case d.Version == epk.V1 && d.Spec.Kind != key.MultiHash && d.OverLimitV1 > 0:
		add(Finding{KeyTooLong, Warning, fmt.Sprintf("%s %s a key value over 101 bytes, the limit without large partition keys (hash V1); create the container with hash V2.",
			human.Count(d.OverLimitV1), human.Plural(int64(d.OverLimitV1), "document has", "documents have"))})
	}
	if len(d.Collisions) > 0 {
		c := d.Collisions[0]
		add(Finding{TruncationCollision, Warning, fmt.Sprintf(
			"Hash V1 reads only the first 100 characters of a key: %s %s, e.g. %s and %s, so they are stored as if one value. Hash V2 has no such cut.",
			human.Count(int64(len(d.Collisions))), human.Plural(int64(len(d.Collisions)), "group of distinct values shares an EPK", "groups of distinct values share an EPK"),
			ValueText(c.Values[0]), ValueText(c.Values[1]))})
	}
	if d.ImpreciseNumbers > 0 {
		add(Finding{ImpreciseNumbers, Warning, fmt.Sprintf(
			"%s %s a key number of 2^53 (9,007,199,254,740,992) or more: Cosmos DB reads a key number as a double, which above that no longer holds every whole number, so distinct large integers (64-bit ids, order or card numbers) can become one key value, and be counted here as one. Store such values as strings.",
			human.Count(d.ImpreciseNumbers), human.Plural(d.ImpreciseNumbers, "document has", "documents have"))})
	}
	if e.IsID {
		add(Finding{IDKey, Info, "/id spreads data and writes perfectly, but only point reads (id and key known) stay in one partition: every query that filters on anything else reads all physical partitions."})
	}
	if d.Estimated {
		add(Finding{EstimatedFigures, Info, fmt.Sprintf(
			"More distinct values than pkcalc keeps exactly: the count of logical partitions (%s) is an estimate within ±%.1f%%, and the largest values come from a heavy-hitter sketch.",
			human.Count(d.Distinct), 100*d.DistinctError)})
	}

	e.Breakdown = []Component{card, data, req, room, writes, valid}
	if e.Queries.Active {
		// With the application's operations known, whether they reach one
		// partition weighs as much as how evenly data spreads.
		card.Weight, data.Weight, req.Weight, valid.Weight = 20, 15, 15, 5
		e.Breakdown = []Component{card, data, req, room, writes, valid, e.queryFindings(add, limit)}
	}
	total := 0.0
	for _, c := range e.Breakdown {
		total += float64(c.Weight*c.Score) / 100
	}
	e.Uncapped = int(math.Round(total))
	e.Score = min(e.Uncapped, capAt)
	e.Grade = grade(e.Score)
	slices.SortStableFunc(e.Findings, func(a, b Finding) int { return severityRank(a.Severity) - severityRank(b.Severity) })
}

// writesCrowd reports whether the writes of a moment crowd on few
// partitions, judged only with enough sampled writes per time bucket.
func (e *Evaluation) writesCrowd() (concentrated, crowded bool) {
	sp := e.Spread
	if sp == nil || sp.SamplesMedian < minBucketSamples {
		return false, false
	}
	p := len(e.Physical)
	// A key that moves with time: few values written at a time, out of
	// many, and few of the bucket's writes.
	concentrated = float64(e.Dist.Distinct) >= 3*sp.KeysMedian &&
		((sp.KeysMedian <= 2 && sp.KeysMedian <= sp.SamplesMedian/4) || (p > 1 && sp.HottestShare >= 0.9))
	// Short of that, one partition may still take several times its share
	// of the writes of the moment, and twice its share of all the data: a
	// key led by a few busy devices or tenants, cut into time buckets,
	// writes each one's bucket of the moment to one partition, though over
	// time the buckets spread. (A key whose data is as skewed in total is
	// HOT_PARTITION's.)
	// At least 30% of the moment's writes, or, with many partitions and
	// enough sampled writes that chance cannot put them there, 8 times a
	// fair share: 28% of the writes on one of 128 partitions caps the
	// container's writes at a 36th of its throughput.
	fullest := e.fullestShare()
	floor := min(0.3, max(8/float64(p), 4/sp.SamplesMedian))
	crowded = !concentrated && p > 1 && fullest > 0 && sp.HottestShare >= floor &&
		sp.HottestShare >= 4/float64(p) && sp.HottestShare >= 2*fullest
	return concentrated, crowded
}

// fullestShare is the fullest physical partition's share of the data at
// the target; 0 when the partitions hold nothing.
func (e *Evaluation) fullestShare() float64 {
	var most, sum float64
	for _, ph := range e.Projection.Physical {
		most = math.Max(most, float64(ph.Bytes))
		sum += float64(ph.Bytes)
	}
	if sum == 0 {
		return 0
	}
	return most / sum
}

// firstLevel returns the most common first-level value of a hierarchical
// key and its share of documents.
func firstLevel(d *partition.Distribution) (epk.Value, float64) {
	v, docs, ok := d.FirstLevel()
	if !ok || d.Documents == 0 {
		return epk.Value{}, 0
	}
	return v, float64(docs) / float64(d.Documents)
}

func severityRank(s Severity) int {
	switch s {
	case Critical:
		return 0
	case Warning:
		return 1
	}
	return 2
}

// shareScore rates the largest share one key value takes: 1 % or less is
// full marks, half or more is none, on a log scale between.
func shareScore(s float64) int {
	if s <= 0.01 {
		return 100
	}
	return pct(1 - math.Log(s/0.01)/math.Log(50))
}

func pct(f float64) int {
	if math.IsNaN(f) {
		return 0
	}
	return int(math.Round(100 * math.Max(0, math.Min(1, f))))
}

// ValueText writes a key value for people: JSON for one component, a JSON
// array for several; undefined as "undefined".
func ValueText(vals []epk.Value) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = ComponentText(v)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// ComponentText writes one key component as JSON ("undefined" when missing).
func ComponentText(v epk.Value) string {
	switch v.Kind {
	case epk.String:
		return strconv.Quote(v.Str)
	case epk.Number:
		return strconv.FormatFloat(v.Num, 'g', -1, 64)
	case epk.True:
		return "true"
	case epk.False:
		return "false"
	case epk.Null:
		return "null"
	}
	return "undefined"
}

func trimFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// suffixModulus is the N of a synthetic key's computed suffix
// (hash(/path)%N), or 0 if it has none.
func suffixModulus(spec key.Spec) int {
	for _, t := range spec.Terms {
		if t.Modulus > 0 {
			return t.Modulus
		}
	}
	return 0
}

// minBucketSamples is the fewest sampled writes a time bucket needs, at the
// median, for the write spread to be judged.
const minBucketSamples = 8

// times writes a factor: 1.5×, 12×, 3,931,162×.
func times(f float64) string {
	if f < 10 {
		return strconv.FormatFloat(f, 'f', 1, 64) + "×"
	}
	return human.Count(int64(math.Round(f))) + "×"
}

// projectDistinct estimates how many distinct values the key has at factor
// times the sample. Values not seen yet are estimated by Chao1 from the
// values seen once (f1) and twice (f2), and are reached gradually as the
// sample grows (Chao et al. 2014, "Rarefaction and extrapolation with Hill
// numbers"); never more than one value a document. A key whose values all
// repeat gains nothing: the share of values seen once, extrapolated
// linearly, would invent millions of values for a key with a few dozen.
func projectDistinct(d *partition.Distribution, factor float64) float64 {
	var f1, f2, n float64
	for _, l := range d.Logical {
		n += float64(l.Documents)
		switch l.Documents {
		case 1:
			f1++
		case 2:
			f2++
		}
	}
	if d.Estimated && d.Overflow.Documents > 0 {
		// Values past the exact limit are mostly new ones, as in Singletons.
		extra := float64(d.Distinct - int64(len(d.Logical)))
		f1 += min(extra, float64(d.Overflow.Documents))
		n += float64(d.Overflow.Documents)
	}
	seen := float64(d.Distinct)
	if d.Spec.TimeBucket() != "" {
		// New buckets, each with as many values as the sample's have.
		return max(seen, min(seen*factor, n*factor))
	}
	if factor <= 1 || n < 2 || f1 == 0 {
		return seen
	}
	var unseen float64 // Chao1's bias-corrected estimate of the values not seen
	if f2 > 0 {
		unseen = (n - 1) / n * f1 * f1 / (2 * f2)
	} else {
		unseen = (n - 1) / n * f1 * (f1 - 1) / 2
	}
	if unseen <= 0 {
		return seen
	}
	m := (factor - 1) * n // documents to come
	found := unseen * -math.Expm1(m*math.Log1p(-f1/(n*unseen+f1)))
	return min(seen+found, n*factor)
}
