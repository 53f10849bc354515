package capacity

import "math"

// Costs are request units per operation. DefaultCosts estimates them from
// the item size; callers who measured their own charges (the
// x-ms-request-charge header) set the fields directly.
type Costs struct {
	PointRead float64 // read of one item by id and partition key
	Write     float64 // insert of one item (a replace costs about twice this)
	Query     float64 // single-partition query returning one item
}

// Documented figures the defaults are drawn through.
const (
	kb = 1 << 10

	// Point read and write of a 1 KB and a 100 KB item: 1 and 10 RU to read,
	// 5 and 50 RU to write (key-value-store-cost, with automatic indexing
	// off; optimize-cost-reads-writes gives the same reads and "around ~5.5
	// RUs" for a 1 KB insert without indexing). Both grow ten-fold over a
	// hundred-fold size, so a straight line through the two points.
	smallKB, smallRead = 1.0, 1.0
	largeKB, largeRead = 100.0, 10.0
	writePerRead       = 5.0

	// queryBaseRU is what checking one physical partition's index costs at
	// least, even when nothing matches: "a minimum of about 2.5 RUs"
	// (how-to-query-container).
	queryBaseRU = 2.5

	// maxItemBytes is the largest item the service stores: 2 MB
	// (concepts-limits).
	maxItemBytes = 2 << 20
)

// DefaultCosts estimates the RU per operation for items of avgBytes, at
// session (or weaker) consistency:
//
//	PointRead = 1 + (KB - 1) x 9/99   1 RU at 1 KB or less, 10 RU at 100 KB
//	Write     = 5 x PointRead         5 RU at 1 KB, 50 RU at 100 KB
//	Query     = 2.5 + PointRead       index check plus the one item returned
//
// The line runs through the documented points (see the constants above);
// it is not "1 RU per KB", which would make a 100 KB read cost 100 RU where
// the docs say 10. Sizes at or below 1 KB, and NaN, cost as 1 KB; sizes are
// capped at the 2 MB item limit.
//
// Not modelled, so the defaults are a floor for those workloads: strong and
// bounded-staleness reads cost double (optimize-cost-reads-writes); the
// documented write figures are without indexing, and the default indexing
// policy (every path, consistent mode) adds RU per indexed property
// (request-units), for which the docs give no figure; a replace costs twice
// an insert; a query returning k items costs about k reads more (a query
// returning 1,000 1 KB items costs 1,000 RU, optimize-cost-reads-writes).
func DefaultCosts(avgBytes float64) Costs {
	b := avgBytes
	if !(b > kb) { // also NaN
		b = kb
	}
	b = min(b, maxItemBytes)
	sizeKB := b / kb
	read := smallRead + (sizeKB-smallKB)*(largeRead-smallRead)/(largeKB-smallKB)
	return Costs{
		PointRead: read,
		Write:     writePerRead * read,
		Query:     queryBaseRU + read,
	}
}

// FanOutSurcharge is the extra RU a cross-partition query pays over the same
// query on one partition that touches the given number of physical
// partitions: each partition's index is checked separately, at "a minimum of
// about 2.5 RUs" whether or not anything matches (how-to-query-container;
// partitioning-overview says 2-3 RU per physical partition). So 2.5 RU per
// partition beyond the first; 1 partition or fewer costs nothing extra.
func FanOutSurcharge(partitions int) float64 {
	if partitions <= 1 {
		return 0
	}
	return queryBaseRU * float64(partitions-1)
}

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
