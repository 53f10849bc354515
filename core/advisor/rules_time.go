package advisor

import (
	"fmt"
	"math"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/partition"
)

// minBucketSamples is the fewest sampled writes a time bucket needs, at the
// median, for the write spread to be judged: with two a day, any key,
// random ones too, writes at most two values a day to at most two
// partitions, and would read as following time.
const minBucketSamples = 8

// writesOverTime judges how the writes of a moment spread over key values
// and physical partitions, and whether the key follows time.
func writesOverTime(e *Evaluation) verdict {
	d := e.Dist
	c := e.component(writesName)
	v := verdict{component: c}
	add := func(f Finding) { v.findings = append(v.findings, f) }
	p := len(e.Physical)
	spec := d.Spec.String()
	switch sp := e.Spread; {
	case sp == nil:
		unmeasured(c, "the documents tell no time (no time field)")
	case sp.SamplesMedian < minBucketSamples:
		unmeasured(c, fmt.Sprintf("a median %s sampled %s per %s, too few to tell how writes spread at a time",
			trimFloat(sp.SamplesMedian), human.Plural(int64(sp.SamplesMedian), "write", "writes"), sp.Unit))
	default:
		// 100 keys a bucket is full marks, or as many as the bucket's
		// sampled writes, if fewer.
		full := math.Min(100, sp.SamplesMedian)
		c.Score = pct(math.Log10(math.Max(sp.KeysMedian, 1)) / math.Log10(full))
		c.Note = fmt.Sprintf("a median %s distinct values in %s sampled writes per %s", trimFloat(sp.KeysMedian), human.Count(int64(math.Round(sp.SamplesMedian))), sp.Unit)
		if p > 1 {
			fair := 1 / float64(p)
			c.Score = min(c.Score, pct((1-sp.HottestShare)/(1-fair)))
			c.Note += fmt.Sprintf("; the busiest partition takes %s of each %s's writes (fair: %s)", human.Percent(sp.HottestShare), sp.Unit, human.Percent(fair))
		}
	}
	concentrated, crowded := writesCrowd(d, e.Spread, p, fullestShare(e.Projection))
	switch l := e.Load; {
	case crowded && l.Active && l.WriteRU == 0:
		add(Finding{Monotonic, Info, fmt.Sprintf(
			"At any %s the busiest of %s physical partitions takes %s of the writes (fair: %s), as the documents came: the workload writes nothing, so that costs nothing here.",
			e.Spread.Unit, human.Count(int64(p)), human.Percent(e.Spread.HottestShare), human.Percent(1/float64(p)))})
	case crowded && l.Active && l.WriteRU*e.Spread.HottestShare <= l.CapacityRU:
		// The workload's writes say how far that is from throttling.
		add(Finding{Monotonic, Info, fmt.Sprintf(
			"At any %s the busiest of %s physical partitions takes %s of the writes (fair: %s): of the workload's %s of writes, %s of its %s. It would throttle first as writes grow, %s times, however even the data is in total.",
			e.Spread.Unit, human.Count(int64(p)), human.Percent(e.Spread.HottestShare), human.Percent(1/float64(p)),
			ru(l.WriteRU), ru(l.WriteRU*e.Spread.HottestShare), ru(l.CapacityRU), trimFloat(math.Floor(10*l.CapacityRU/(l.WriteRU*e.Spread.HottestShare))/10))})
	case crowded:
		v.cap = 70
		add(Finding{Monotonic, Warning, fmt.Sprintf(
			"At any %s the busiest of %s physical partitions takes %s of the writes (fair: %s): it takes the write load of the moment and throttles first, however even the data is in total.",
			e.Spread.Unit, human.Count(int64(p)), human.Percent(e.Spread.HottestShare), human.Percent(1/float64(p)))})
	}
	m := e.Monotonicity
	switch {
	case concentrated:
		v.cap = capOf(v.cap, 50)
		add(Finding{Monotonic, Critical, fmt.Sprintf(
			"%s follows time: at any moment nearly all writes go to %s, so one physical partition takes the whole write load while the others idle (a date or time key alone is the classic hot partition).",
			spec, human.Plural(int64(math.Round(e.Spread.KeysMedian)), "one key value", fmt.Sprintf("%s key values", trimFloat(e.Spread.KeysMedian))))})
	case d.KeyIsTime():
		// Hashing spreads the seconds, not the writes of one second.
		v.cap = capOf(v.cap, 70)
		add(Finding{Monotonic, Warning, fmt.Sprintf(
			"%s is the time of the write, in whole seconds or coarser: every write of one second shares one value, so at any moment one logical partition, on one physical partition, takes the whole write load (at most %s), however evenly the seconds spread in total. Add a hash suffix or choose a key the writes of a moment do not share.", spec, partitionRU)})
	case m.Monotonic:
		add(Finding{Monotonic, Info, monotonicText(spec, m)})
	}
	return v
}

// monotonicText says that a key rises or falls with time, or with the
// file's order when the documents tell no time, which may not be the order
// they were written in.
func monotonicText(spec string, m partition.Monotonicity) string {
	r, with := m.Order, "the order of the file (which need not be the order of writes: an export sorted by a field reads as written in that order)"
	if m.By == partition.ByTime {
		r, with = m.Time, "time"
	}
	moves := "increases"
	if r < 0 {
		moves = "decreases"
	}
	return fmt.Sprintf("%s %s with %s (correlation %.2f). Cosmos DB hashes key values, so new writes still spread over partitions; only range queries on the key are affected.", spec, moves, with, r)
}

// capOf lowers a cap: the least of two, 0 counting as none.
func capOf(a, b int) int {
	if a == 0 {
		return b
	}
	return min(a, b)
}

// writesCrowd reports whether the writes of a moment crowd on few of p
// partitions, judged only with enough sampled writes per time bucket;
// fullest is the fullest partition's share of all the data.
func writesCrowd(d *partition.Distribution, sp *partition.Spread, p int, fullest float64) (concentrated, crowded bool) {
	if sp == nil || sp.SamplesMedian < minBucketSamples {
		return false, false
	}
	// A key that moves with time: few values written at a time, out of
	// many, and few of the bucket's writes.
	concentrated = float64(d.Distinct) >= 3*sp.KeysMedian &&
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
	floor := min(0.3, max(8/float64(p), 4/sp.SamplesMedian))
	crowded = !concentrated && p > 1 && fullest > 0 && sp.HottestShare >= floor &&
		sp.HottestShare >= 4/float64(p) && sp.HottestShare >= 2*fullest
	return concentrated, crowded
}
