package advisor

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/partition"
)

// Limits as people read them in messages.
var (
	logicalLimit  = gigabytes(capacity.LogicalPartitionMaxBytes)                                          // 20 GB
	physicalLimit = gigabytes(capacity.PhysicalPartitionMaxBytes)                                         // 50 GB
	alertLine     = gigabytes(int64(capacity.AlertFraction * float64(capacity.LogicalPartitionMaxBytes))) // 14 GB
	partitionRU   = human.Count(capacity.PartitionMaxRU) + " RU/s"                                        // 10,000 RU/s
)

// gigabytes writes a limit in whole gigabytes, as the docs state them.
func gigabytes(b int64) string { return strconv.FormatInt(b>>30, 10) + " GB" }

// distinctValues judges how many key values there are against what the
// container needs at the target: each value is one logical partition, of
// at most 20 GB and 10,000 RU/s, and values hash onto the physical
// partitions. A few dozen values are harmless for 10 GB; three are not for
// 200 GB.
func distinctValues(e *Evaluation) verdict {
	d := e.Dist
	c := e.component(distinctName)
	v := verdict{component: c}
	spec := d.Spec.String()
	values := human.Count(d.Distinct) + " distinct " + human.Plural(d.Distinct, "value", "values")
	switch bucket := d.Spec.TimeBucket(); {
	case bucket != "":
		// A key with a time bucket gains a set of values with each bucket:
		// its count has no ceiling, and what matters is how many are
		// written at a time (Writes over time, MONOTONIC).
		c.Score = 100
		c.Note = fmt.Sprintf("%s; every new %s brings new ones, so they grow with time", values, bucket)
		return v
	case d.Singletons() >= 0.5:
		c.Score = 100
		c.Note = values + "; most documents bring a new one, so they grow with the data"
		return v
	case d.GrowsByNewValues():
		// The user says so, or the key holds the time: new values keep
		// coming, each keeping its documents.
		c.Score = 100
		c.Note = fmt.Sprintf("%s; new ones keep coming with the data, about %s at the target", values, human.Count(int64(math.Round(projectDistinct(d, e.Projection.Factor)))))
		return v
	}
	if d.Documents == d.Invalid {
		c.Score, c.Note = 0, "no document has a value Cosmos DB accepts as a key"
		return v
	}
	n := needs(e)
	projected := projectDistinct(d, e.Projection.Factor)
	c.Score = pct(math.Log10(math.Max(projected, 1)) / math.Log10(10*n.most()))
	c.Note = values + " " + sampleScope(d)
	if p := int64(math.Round(projected)); p > d.Distinct {
		c.Note += fmt.Sprintf(", about %s at the target", human.Count(p))
	}
	c.Note += "; " + n.text()
	if m := suffixModulus(d.Spec); m > 0 {
		if d.Distinct < 1000 {
			// A computed suffix bounds the values by design: it was chosen
			// so that each stays small at the target (LOGICAL_PARTITION_LIMIT
			// says if one does not). The count is worth knowing, not a fault.
			msg := fmt.Sprintf("%s has %s by design: each value of the rest of the key is cut into %d suffixes, so its data and requests spread over %d logical partitions; the count grows only with new values of the rest.",
				spec, values, m, m)
			bytes, docs := d.SuffixGroupShares()
			if room, ok := SuffixHolds(d.Spec, bytes, docs); ok {
				msg += " " + room.Message
			}
			v.findings = append(v.findings, Finding{LowCardinality, Info, msg})
		}
		return v
	}
	sev, why := Info, ""
	// The values the target has, which may be more than the sample's, in
	// whole values: the products below are of the count said (140 values
	// serve 1,400,000 RU/s, not the 1,403,468 of 140.35), and as whole
	// values are no more than the estimate, "less than" still holds.
	whole := math.Floor(projected)
	count := human.Count(int64(whole)) + " values"
	if int64(whole) != d.Distinct {
		count = "at the target its " + count
	}
	switch {
	case projected < n.storage:
		sev, why = Critical, fmt.Sprintf("%s of at most %s hold %s, less than the target's %s", count, logicalLimit,
			human.Bytes(int64(whole*float64(capacity.LogicalPartitionMaxBytes))), human.Bytes(e.storage()))
	case projected < n.throughput:
		sev, why = Critical, fmt.Sprintf("%s of at most %s serve %s, less than the workload's %s: more throughput cannot fix that",
			count, partitionRU, ru(whole*capacity.PartitionMaxRU), ru(e.Load.TotalRU))
	case projected < 4*n.partitions && n.partitions > 1:
		// Hashed onto the partitions, a few values per partition load
		// them unevenly, and fewer than partitions leave some idle.
		sev, why = Warning, fmt.Sprintf("over the %s physical partitions the container has%s that is %s a partition: their storage and throughput load them unevenly, and partitions without a value idle",
			human.Count(int64(n.partitions)), atTarget(e), perPartition(projected/n.partitions))
	case d.Distinct >= 1000, projected >= 1000:
		// Enough, or as many at the target: the sample's count is no
		// fault of a key whose values grow with the data (email
		// addresses, 105 in 166 comments).
		return v
	}
	switch sev {
	case Critical:
		v.cap = 40
	case Warning:
		v.cap = 70
	}
	msg := fmt.Sprintf("%s has only %s %s", spec, values, sampleScope(d))
	if why != "" {
		msg += ": " + why + "."
	} else {
		verdict := "That is enough here"
		if !n.enough() {
			// Not too few: too uneven, which LOGICAL_PARTITION_LIMIT and
			// the spread of requests judge.
			verdict = "Their number would be enough, not the way the data falls on them"
		}
		msg += fmt.Sprintf(". %s: %s. A key with few values stays this way, capped at %s and %s a value; watch it as the data grows.", verdict, n.text(), logicalLimit, partitionRU)
	}
	v.findings = append(v.findings, Finding{LowCardinality, sev, msg})
	return v
}

// need is how many key values the target needs at least: to hold its
// storage at 20 GB each, to serve its workload at 10,000 RU/s each, and to
// give each physical partition some.
type need struct {
	storage, throughput, partitions float64
	// roomBytes and roomRU are the data and requests the values hold
	// before one of them passes 20 GB or 10,000 RU/s, as the target's data
	// and requests fall on them; room says so.
	roomBytes, roomRU float64
	room              string
}

// enough reports whether the values hold the target's data and workload.
func (n need) enough() bool {
	limit := float64(capacity.LogicalPartitionMaxBytes)
	return n.roomBytes >= n.storage*limit && n.roomRU >= n.throughput*capacity.PartitionMaxRU
}

func needs(e *Evaluation) need {
	d := e.Dist
	n := need{
		storage:    float64(e.storage()) / float64(capacity.LogicalPartitionMaxBytes),
		partitions: float64(len(e.Physical)),
	}
	if e.Load.Active {
		n.throughput = e.Load.TotalRU / capacity.PartitionMaxRU
	}
	projected := projectDistinct(d, e.Projection.Factor)
	// As many values as these hold their count times the limits only if
	// the data and the requests spread evenly over them: otherwise the
	// largest value reaches 20 GB, or the busiest 10,000 RU/s, first.
	limit := float64(capacity.LogicalPartitionMaxBytes)
	n.roomBytes, n.roomRU = projected*limit, projected*capacity.PartitionMaxRU
	var largest []string
	if l, storage := float64(e.Projection.Largest.Bytes), float64(e.storage()); l > 0 && storage*limit/l < n.roomBytes {
		n.roomBytes = storage * limit / l
		largest = append(largest, "the largest holds "+human.Percent(l/storage)+" of the data"+atTarget(e))
	}
	// Without a workload the requests fall as the traffic model has them,
	// as HOT_PARTITION and the spread of requests read them.
	hot := e.HottestShare
	if e.Load.Active {
		hot = e.Load.HottestLogiRU / e.Load.TotalRU
	}
	if hot > 0 && capacity.PartitionMaxRU/hot < n.roomRU {
		n.roomRU = capacity.PartitionMaxRU / hot
		largest = append(largest, "the busiest takes "+human.Percent(hot)+" of the requests")
	}
	n.room = fmt.Sprintf("they leave room for %s and %s", human.Bytes(int64(min(n.roomBytes, math.MaxInt64/2))), ru(n.roomRU))
	if len(largest) > 0 {
		n.room += " as they fall (" + strings.Join(largest, "; ") + ")"
	}
	return n
}

// most is the largest of the needs, at least 1.
func (n need) most() float64 { return max(1, n.storage, n.throughput, n.partitions) }

func (n need) text() string {
	s := fmt.Sprintf("%s against the target's %s of data", n.room, human.Bytes(int64(n.storage*float64(capacity.LogicalPartitionMaxBytes))))
	if n.throughput > 0 {
		s += " and " + ru(n.throughput*capacity.PartitionMaxRU)
	}
	return s
}

// atTarget is " at the target" when there is one.
func atTarget(e *Evaluation) string {
	if e.Projection.Factor > 1 {
		return " at the target"
	}
	return ""
}

// perPartition says how many values fall on a partition, on average.
func perPartition(f float64) string {
	if f < 1 {
		return "fewer than one value"
	}
	return "about " + trimFloat(math.Round(f*10)/10) + " values"
}

// sampleScope says what the count of values is of: the sample's time when
// the documents tell it, and whether more values are to come. A closed set
// (every value recurs, as a status, a type or a country code has) is said
// so; any other count speaks of the sample.
func sampleScope(d *partition.Distribution) string {
	docs := human.Count(d.Documents) + " " + human.Plural(d.Documents, "document", "documents")
	if span := sampleSpan(d); span > 0 {
		docs += " over " + spanText(span)
	}
	if d.Singletons() == 0 && !d.Estimated && !d.GrowsByNewValues() {
		return "in " + docs + ", each seen more than once: the sample may hold the whole set"
	}
	return "in " + docs + " of the sample"
}

// sampleSpan is the time the sampled documents cover; 0 when they tell no
// time.
func sampleSpan(d *partition.Distribution) time.Duration {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range d.Samples {
		if !math.IsNaN(s.Time) {
			lo, hi = min(lo, s.Time), max(hi, s.Time)
		}
	}
	if hi <= lo {
		return 0
	}
	return time.Duration((hi - lo) * float64(time.Second))
}

// spanText writes a span of the data's time: 9 minutes, 24 hours, 3 years.
func spanText(d time.Duration) string {
	unit := func(n float64, one, many string) string {
		k := int64(math.Round(n))
		return human.Count(k) + " " + human.Plural(k, one, many)
	}
	switch {
	case d < 2*time.Minute:
		return unit(d.Seconds(), "second", "seconds")
	case d < 2*time.Hour:
		return unit(d.Minutes(), "minute", "minutes")
	case d < 72*time.Hour:
		return unit(d.Hours(), "hour", "hours")
	case d < 60*24*time.Hour:
		return unit(d.Hours()/24, "day", "days")
	case d < 730*24*time.Hour:
		return unit(d.Hours()/24/30.44, "month", "months")
	}
	return unit(d.Hours()/24/365.25, "year", "years")
}

// dataSpread judges how evenly the data spreads over the physical
// partitions at the target, or, while it fits one, over logical partitions
// (as it will spread once it splits). A value's share matters against the
// limits, which Room to grow judges; here, an uneven layout leaves some
// partitions' storage and throughput idle while others fill.
func dataSpread(e *Evaluation) verdict {
	d := e.Dist
	c := e.component(dataName)
	if p, fullest := len(e.Physical), fullestShare(e.Projection); p > 1 && fullest > 0 {
		ratio := fullest * float64(p)
		c.Score = pct(1 - (ratio-1)/float64(p-1))
		c.Note = fmt.Sprintf("the fullest of %s physical partitions holds %s the average", human.Count(int64(p)), times(ratio))
		return verdict{component: c}
	}
	largest := d.Largest(1)
	var top float64
	if len(largest) > 0 && d.Bytes > 0 {
		top = float64(largest[0].Bytes) / float64(d.Bytes)
	}
	c.Score = shareScore(top)
	c.Note = fmt.Sprintf("the largest logical partition holds %s of the data", human.Percent(top))
	return verdict{component: c}
}

// fullestShare is the fullest physical partition's share of the data at
// the target; 0 when the partitions hold nothing.
func fullestShare(p partition.Projection) float64 {
	var most, sum float64
	for _, ph := range p.Physical {
		most = math.Max(most, float64(ph.Bytes))
		sum += float64(ph.Bytes)
	}
	if sum == 0 {
		return 0
	}
	return most / sum
}

// roomToGrow judges the largest logical partition at the target against
// the 20 GB a logical partition can hold.
func roomToGrow(e *Evaluation) verdict {
	c := e.component(roomName)
	v := verdict{component: c}
	p := e.Projection
	lb := float64(p.Largest.Bytes)
	limit := float64(capacity.LogicalPartitionMaxBytes)
	c.Score = pct(1 - (lb-0.35*limit)/(0.65*limit))
	c.Note = fmt.Sprintf("the largest logical partition reaches %s of the %s limit", human.Bytes(int64(lb)), logicalLimit)
	if p.Factor > 1 {
		c.Note += fmt.Sprintf(" at %s the sample", times(p.Factor))
	}
	switch {
	case p.OverLimitN > 0:
		v.cap = 35
		v.findings = append(v.findings, Finding{LogicalPartitionLimit, Critical, fmt.Sprintf(
			"At the target scale %s logical %s would pass %s, where Cosmos DB rejects further writes to the value; the largest, %s, would hold %s.",
			human.Count(int64(p.OverLimitN)), human.Plural(int64(p.OverLimitN), "partition", "partitions"), logicalLimit, ValueText(p.OverLimit[0].Values), human.Bytes(p.OverLimit[0].Bytes))})
	case p.OverAlertN > 0:
		// Past the alert line at the size the user plans for, the next
		// growth passes the hard limit: not a key to grade A.
		v.cap = 80
		v.findings = append(v.findings, Finding{LogicalPartitionLimit, Warning, fmt.Sprintf(
			"At the target scale %s logical %s would pass the %s alert line (%s) of the %s limit; the largest, %s, would hold %s.",
			human.Count(int64(p.OverAlertN)), human.Plural(int64(p.OverAlertN), "partition", "partitions"), human.Percent(capacity.AlertFraction), alertLine, logicalLimit,
			ValueText(p.OverAlert[0].Values), human.Bytes(p.OverAlert[0].Bytes))})
	}
	return v
}

// keyPresent judges how many documents have a value Cosmos DB accepts at
// the key.
func keyPresent(e *Evaluation) verdict {
	d := e.Dist
	c := e.component(presentName)
	v := verdict{component: c}
	miss := float64(d.Missing) / math.Max(float64(d.Documents), 1)
	notTime := float64(d.NotTime) / math.Max(float64(d.Documents), 1)
	inv := e.invalidShare()
	dup := float64(d.DuplicateIDs) / math.Max(float64(d.IDsChecked), 1)
	c.Score = pct(1 - 10*(miss+notTime+inv+dup))
	c.Note = fmt.Sprintf("%s of documents lack the key, %s hold an object or array there", human.Percent(miss), human.Percent(inv))
	if d.NotTime > 0 {
		c.Note = fmt.Sprintf("%s of documents lack the key, %s hold no time where it needs one, %s hold an object or array there", human.Percent(miss), human.Percent(notTime), human.Percent(inv))
	}
	if d.DuplicateIDs > 0 {
		c.Note += fmt.Sprintf(", %s repeat an id under it", human.Percent(dup))
		v.findings = append(v.findings, duplicateIDs(d, dup))
		if dup >= duplicatesCritical {
			v.cap = 60
		}
	}
	paths := strings.Join(lackedPaths(d), " or ")
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
		v.findings = append(v.findings, Finding{MissingValues, sev, fmt.Sprintf("%s %s (%s) %s %s. %s",
			human.Count(d.Missing), human.Plural(d.Missing, "document", "documents"), human.Percent(miss),
			human.Plural(d.Missing, "lacks", "lack"), paths, where)})
	}
	if d.NotTime > 0 {
		// The path is there, so "lack" would send the user looking for
		// it: its values are what a time bucket cannot read.
		sev := Info
		if notTime >= 0.01 {
			sev = Warning
		}
		var at, terms []string
		unit := "time bucket"
		for _, t := range d.Spec.Terms {
			if t.Bucket != "" {
				at, terms = append(at, key.Term{Path: t.Path}.String()), append(terms, t.String())
				unit = string(t.Bucket)
			}
		}
		if len(terms) > 1 {
			unit = "time bucket"
		}
		v.findings = append(v.findings, Finding{NotTimeValues, sev, fmt.Sprintf(
			"%s %s (%s) %s a value at %s that is not a time (for example %s), so %s gives %s no %s and the key no value. Cosmos DB stores %s under the undefined value: one logical partition that grows with every such document.",
			human.Count(d.NotTime), human.Plural(d.NotTime, "document", "documents"), human.Percent(notTime),
			human.Plural(d.NotTime, "holds", "hold"), strings.Join(at, " or "), d.NotTimeExample, strings.Join(terms, " or "),
			human.Plural(d.NotTime, "it", "them"), unit, human.Plural(d.NotTime, "it", "them all"))})
	}
	if d.Invalid > 0 {
		v.findings = append(v.findings, Finding{InvalidValues, Critical, fmt.Sprintf(
			"%s %s an object or an array at %s; a partition key value must be a string, number, boolean or null, so Cosmos DB would reject %s.",
			human.Count(d.Invalid), human.Plural(d.Invalid, "document holds", "documents hold"), paths, human.Plural(d.Invalid, "it", "them"))})
	}
	return v
}

// lackedPaths are the paths of the key the documents lack: of a
// hierarchical key, the levels some logical partition holds undefined
// (every document has an id, so "lack /customerId or /id" misled); of
// another key, all its paths.
func lackedPaths(d *partition.Distribution) []string {
	all := d.Spec.PathStrings()
	if d.Spec.Kind != key.MultiHash {
		return all
	}
	var out []string
	for i, p := range all {
		for l := range d.All() {
			if i < len(l.Values) && l.Values[i].Kind == epk.Undefined {
				out = append(out, p)
				break
			}
		}
	}
	if len(out) == 0 {
		return all // past the exact limit: which is not known
	}
	return out
}

// duplicatesCritical is the share of documents refused for repeating an
// id under a key from which the key is not fit to use: one in a thousand,
// more than a stray copy of an item in an export.
const duplicatesCritical = 0.001

// duplicateIDs is the finding on the documents that repeat an id under a
// key. The id is unique within a logical partition, so the service refuses
// a second item with the same id and key value (409 Conflict) and an
// upsert overwrites the first (docs: partitioning-overview,
// troubleshoot-conflict; REPORT.md, Ids).
func duplicateIDs(d *partition.Distribution, share float64) Finding {
	sev := Warning
	if share >= duplicatesCritical {
		sev = Critical
	}
	checked := ""
	if d.IDsChecked < d.Documents {
		checked = fmt.Sprintf(" of the first %s checked", human.Count(d.IDsChecked))
	}
	return Finding{DuplicateIDs, sev, fmt.Sprintf(
		"%s %s (%s%s) %s the id of an earlier document with the same value of %s. An id is unique only within its logical partition, so Cosmos DB refuses %s with 409 Conflict, and an upsert overwrites the earlier one: a key that tells them apart stores them, or each id must be made unique within its key value.",
		human.Count(d.DuplicateIDs), human.Plural(d.DuplicateIDs, "document", "documents"), human.Percent(share), checked,
		human.Plural(d.DuplicateIDs, "repeats", "repeat"), d.Spec, human.Plural(d.DuplicateIDs, "it", "them"))}
}

// keyValues judges the key values themselves: their length, hash V1's
// truncation, numbers a double cannot hold, and what the figures rest on.
func keyValues(e *Evaluation) verdict {
	d := e.Dist
	var v verdict
	add := func(f Finding) { v.findings = append(v.findings, f) }
	switch {
	case d.OverLimit > 0:
		v.cap = 40
		add(Finding{KeyTooLong, Critical, fmt.Sprintf("%s %s a key value over 2,048 bytes (the longest is %s bytes); Cosmos DB rejects %s.",
			human.Count(d.OverLimit), human.Plural(d.OverLimit, "document has", "documents have"), human.Count(int64(d.KeyMaxBytes)), human.Plural(d.OverLimit, "it", "them"))})
	case d.Version == epk.V1 && d.Spec.Kind != key.MultiHash && d.OverLimitV1 > 0:
		add(Finding{KeyTooLong, Warning, fmt.Sprintf("%s %s a key value over 101 bytes, the limit without large partition keys (hash V1); create the container with hash V2.",
			human.Count(d.OverLimitV1), human.Plural(d.OverLimitV1, "document has", "documents have"))})
	}
	if len(d.Collisions) > 0 {
		c := d.Collisions[0]
		n := int64(len(d.Collisions))
		add(Finding{TruncationCollision, Warning, fmt.Sprintf(
			"Hash V1 reads only the first 100 characters of a key: %s %s, e.g. %s and %s, so they are stored as if one value. Hash V2 has no such cut.",
			human.Count(n), human.Plural(n, "group of distinct values shares an EPK", "groups of distinct values share an EPK"),
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
	return v
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
	if d.GrowsByNewValues() {
		// New buckets, each with as many values as the sample's have; new
		// customers, each with as many documents.
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
