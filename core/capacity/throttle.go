package capacity

import "math"

// Throttle describes how a demand on physical partitions meets their
// capacity.
type Throttle struct {
	// ThrottledFraction is the share of all demanded RU above its
	// partition's capacity: requests the service would answer with 429.
	ThrottledFraction float64
	// HottestUtilisation is the busiest partition's demand over capacity
	// (above 1 means it is throttled).
	HottestUtilisation float64
	// Headroom is the factor by which the whole workload could grow before
	// the busiest partition reaches capacity: capacity / highest demand,
	// +Inf when there is no demand, below 1 when already throttled.
	Headroom float64
	// Hottest is the index of the busiest partition (the first, on ties);
	// -1 when demand is empty.
	Hottest int
}

// Throttling compares the load on each physical partition (demand[i], in
// RU/s) with the RU/s each partition has (capacity, as from PerPartitionRU).
// Provisioned RU/s are divided evenly among physical partitions, so a hot
// partition is rate-limited while others idle (partitioning-overview): a
// workload is limited by its hottest partition, not by its total.
//
// Demands that are negative, NaN or infinite count as 0, as does a capacity
// that is negative or NaN. With capacity 0 every demanded RU is throttled.
func Throttling(demand []float64, capacity float64) Throttle {
	if !(capacity > 0) {
		capacity = 0
	}
	t := Throttle{Hottest: -1}
	var total, excess, hottest float64
	for i, d := range demand {
		if !finite(d) || d < 0 {
			d = 0
		}
		if t.Hottest < 0 || d > hottest {
			t.Hottest, hottest = i, d
		}
		total += d
		excess += max(d-capacity, 0)
	}
	if total > 0 {
		t.ThrottledFraction = min(excess/total, 1)
	}
	switch {
	case hottest == 0:
		t.HottestUtilisation, t.Headroom = 0, math.Inf(1)
	case capacity == 0:
		t.HottestUtilisation, t.Headroom = math.Inf(1), 0
	default:
		t.HottestUtilisation, t.Headroom = hottest/capacity, capacity/hottest
	}
	return t
}
