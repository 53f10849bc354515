package partition

import (
	"math"

	"github.com/pkcalc/pkcalc/core/epk"
)

// Physical is one physical partition with what it holds.
type Physical struct {
	ID                int
	MinInclusive      string
	MaxExclusive      string
	Documents         int64
	Bytes             int64
	LogicalPartitions int64
	Requests          float64 // request weight placed here (see Distribution.Weighted)
}

// Place puts every logical partition in the range holding its EPK.
func (d *Distribution) Place(ranges []epk.Range) []Physical {
	out := make([]Physical, len(ranges))
	for i, r := range ranges {
		out[i] = Physical{ID: i, MinInclusive: r.MinInclusive, MaxExclusive: r.MaxExclusive}
	}
	put := func(e string, docs, bytes int64, req float64) int {
		i := epk.Locate(ranges, e)
		if i >= 0 {
			p := &out[i]
			p.Documents += docs
			p.Bytes += bytes
			p.Requests += req
		}
		return i
	}
	for _, l := range d.Logical {
		if i := put(l.EPK, l.Documents, l.Bytes, l.Requests); i >= 0 {
			out[i].LogicalPartitions++
		}
	}
	if len(d.Overflow.Buckets) > 0 {
		// The estimated values past the limit are shared out in proportion to
		// documents, rounded so that the partitions add up to the estimate.
		extra := float64(d.Distinct - int64(len(d.Logical)))
		share := make([]float64, len(out))
		for _, b := range d.Overflow.Buckets {
			if i := put(b.Prefix, b.Documents, b.Bytes, b.Requests); i >= 0 {
				share[i] += extra * float64(b.Documents) / float64(max(1, d.Overflow.Documents))
			}
		}
		var acc, given float64
		for i := range out {
			acc += share[i]
			n := math.Round(acc) - given
			out[i].LogicalPartitions += int64(n)
			given += n
		}
	}
	return out
}
