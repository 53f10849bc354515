package advisor

import (
	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/partition"
)

// DayOne is the container on its first day: the physical partitions its
// throughput gives it, evenly split and before any split, as the first
// documents (the sample's) arrive. A key whose values fill few of them
// leaves the others idle, and a key whose writes of a moment share one
// value puts them all on one partition, until the data grows enough to
// split it (50 GB).
type DayOne struct {
	Physical []partition.Physical // the sample placed on them
	// Writes is each partition's share of the writes of the moment when the
	// documents tell the time, else of all writes (as the data spreads).
	Writes     []float64
	Empty      int     // partitions that hold none of the sample
	CapacityRU float64 // RU/s each has
	// WriteRU is what the workload's writes ask of the busiest partition,
	// when a workload is given.
	WriteRU float64
}

// dayOne places the sample on the partitions the container starts with.
func (e *Evaluation) dayOne() DayOne {
	n := e.startPartitions()
	return e.dayOneOn(n, capacity.PerPartitionRU(e.Throughput, n))
}

// dayOneOn places the sample on n evenly split partitions of capacityRU
// each.
func (e *Evaluation) dayOneOn(n int, capacityRU float64) DayOne {
	d := e.Dist
	ranges := epk.Ranges(e.version(), n)
	day := DayOne{Physical: d.Place(ranges), CapacityRU: capacityRU}
	for _, p := range day.Physical {
		if p.Documents == 0 {
			day.Empty++
		}
	}
	day.Writes, _ = d.Shares(day.Physical, partition.ByDocuments)
	if sp := d.WriteSpread(ranges); sp != nil && sp.SamplesMedian >= minBucketSamples && len(sp.Moment) == n {
		day.Writes = sp.Moment
	}
	if d.KeyIsTime() {
		// A second's writes share one value, on one partition.
		day.Writes = make([]float64, n)
		day.Writes[busiest(day.Physical)] = 1
	}
	for _, w := range day.Writes {
		day.WriteRU = max(day.WriteRU, w*e.Load.WriteRU)
	}
	return day
}

// busiest is the partition holding the most documents (the first, on
// ties).
func busiest(ps []partition.Physical) int {
	b := 0
	for i, p := range ps {
		if p.Documents > ps[b].Documents {
			b = i
		}
	}
	return b
}
