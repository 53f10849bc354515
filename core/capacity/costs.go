package capacity

import "math"

// The request-unit model: what each operation is charged, from the figures
// Microsoft publishes. docs/REQUEST-UNITS.md lists every figure with its
// source and says which are documented and which are fitted to worked
// examples; the tests reproduce each worked example.
//
// The service publishes no formula for queries ("measure your queries",
// MicrosoftDocs/azure-docs issue 72226), so a query's charge is modelled
// from what the docs say it grows with: the physical partitions whose
// index it checks, and the items it loads (optimize-cost-reads-writes).
// Measured charges, given per operation in the workload, replace the model.

// Item describes a container's items, as their charges depend on them.
type Item struct {
	Bytes float64 // average size of an item's JSON
	// Indexed is how many values of an item the index holds: with the
	// default indexing policy, every scalar value (each element of an
	// array too). 0 counts as none.
	Indexed float64
}

// Costs are request units per operation on items of one kind.
// DefaultCosts models them; figures a user measured replace any field.
type Costs struct {
	PointRead float64 // a point read (by id and partition key)
	Write     float64 // an insert; ReplaceFactor and DeleteFactor give the other writes
	Query     float64 // a query's check of its first physical partition, before any item
	Item      float64 // each item a query loads; 0 when Query is a measured charge that holds them
}

// Documented figures and the fits the defaults are drawn through.
const (
	kb = 1 << 10

	// Point reads of a 1 KB and a 100 KB item: 1 and 10 RU
	// (optimize-cost-reads-writes; request-units: "a point read for a 1 KB
	// item is 1 RU"). A straight line through the two points: not "1 RU per
	// KB", which would make the 100 KB read cost 100 RU.
	smallKB, smallRead = 1.0, 1.0
	largeKB, largeRead = 100.0, 10.0

	// An insert without indexing costs about 5 point reads: 5 RU at 1 KB
	// and 50 RU at 100 KB (key-value-store-cost; "around 5.5 RU" for 1 KB
	// in optimize-cost-reads-writes).
	insertPerRead = 5.0

	// IndexedValueRU is what each indexed value adds to a write. Fitted to
	// the DP-420 lab's item of about 6 KB with 157 paths: 48.38 RU indexed
	// by default against 7.05 RU with no index (MicrosoftLearning/
	// dp-420-cosmos-db-dev issue 29), (48.38 - 7.05) / 157 = 0.263. It also
	// gives the small items of model-partition-example within 20 %.
	IndexedValueRU = 0.263

	// QueryPartitionRU is what a query pays for each physical partition
	// whose index it checks, matched or not: "a minimum of about 2.5 RU"
	// (how-to-query-container; "2-3 RU per physical partition" in
	// design-partitioning-iot).
	QueryPartitionRU = 2.5

	// queryFirstRU is a query's check of its first partition: fitted to an
	// empty partition's 2.79 RU (azure-cosmos-dotnet-v3 issue 2290) and
	// one-item queries of 2.83 RU (DP-420 lab 16) and 2.95 RU
	// (azure-cosmos-dotnet-v3 issue 3464), less one item.
	queryFirstRU = 2.8

	// queryItemRU is what a query pays per item it loads, for items up to
	// itemFitKB: fitted to a page of 100 items at 9.07-9.88 RU against 2.79
	// RU for none (azure-cosmos-dotnet-v3 issue 2290: 0.063-0.071 per item)
	// and to a scan that loaded 60,951 items of 399,998,938 bytes for
	// 4,059.95 RU (troubleshoot-query-performance: 0.0666 per item).
	queryItemRU = 0.066
	// itemFitKB is the size of the scan's items: up to it the per-item
	// figure held for both fits; past it, it grows with the size (an
	// assumption: nothing is published for larger items).
	itemFitKB = 399998938.0 / 60951 / kb

	// SortFactor is how much more an item costs a query that sorts or
	// groups (ORDER BY, GROUP BY, DISTINCT): fitted to TOP 100 ORDER BY from
	// one partition at 16.97 RU (model-partition-example, Q6 in V3),
	// (16.97 - 2.8) / 100 / 0.066.
	SortFactor = 2.15

	// maxItemBytes is the largest item the service stores: 2 MB
	// (concepts-limits).
	maxItemBytes = 2 << 20
)

// What the writes other than an insert cost, against an insert.
const (
	// ReplaceFactor: a replace costs about twice an insert
	// (key-value-store-cost, optimize-cost-reads-writes); an upsert of an
	// item that exists is a replace, and a patch brings "no significant
	// reduction" (partial-document-update FAQ), so both count as one.
	ReplaceFactor = 2.0
	// DeleteFactor: nothing is published for a delete in the API for
	// NoSQL; it counts as an insert (an assumption: it undoes what an
	// insert adds to the index).
	DeleteFactor = 1.0
)

// DefaultCosts models the charges for items like it, at session (or
// weaker) consistency:
//
//	PointRead = 1 + (KB - 1) x 9/99          1 RU at 1 KB or less, 10 RU at 100 KB
//	Write     = 5 x PointRead + 0.263 x Indexed
//	Query     = 2.8                          the first partition's index check
//	Item      = 0.066 x max(1, KB / 6.41)    each item loaded
//
// Sizes at or below 1 KB, and NaN, count as 1 KB; sizes are capped at the
// 2 MB item limit. Not modelled: strong and bounded-staleness reads cost
// double (optimize-cost-reads-writes); a custom indexing policy indexes
// fewer values (give Indexed as the paths it indexes).
func DefaultCosts(it Item) Costs {
	b := it.Bytes
	if !(b > kb) { // also NaN
		b = kb
	}
	b = min(b, maxItemBytes)
	sizeKB := b / kb
	read := smallRead + (sizeKB-smallKB)*(largeRead-smallRead)/(largeKB-smallKB)
	indexed := it.Indexed
	if !(indexed > 0) {
		indexed = 0
	}
	return Costs{
		PointRead: read,
		Write:     insertPerRead*read + IndexedValueRU*indexed,
		Query:     queryFirstRU,
		Item:      queryItemRU * max(1, sizeKB/itemFitKB),
	}
}

// QueryCharge is what one execution of a query costs: the index check of
// each physical partition it reads, and the items it loads there, at more
// per item when it sorts or groups them. Partitions below 1 count as 1;
// items below 0, or NaN, as none.
func (c Costs) QueryCharge(partitions int, items float64, sorts bool) float64 {
	per := c.Item
	if sorts {
		per *= SortFactor
	}
	if !(items > 0) {
		items = 0
	}
	return c.Query + FanOutSurcharge(partitions) + per*items
}

// FanOutSurcharge is the extra RU a query pays for reading the given
// number of physical partitions over reading one: QueryPartitionRU for
// each partition beyond the first; 1 partition or fewer costs nothing
// extra.
func FanOutSurcharge(partitions int) float64 {
	if partitions <= 1 {
		return 0
	}
	return QueryPartitionRU * float64(partitions-1)
}

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
