// Package telemetry reads what Azure Cosmos DB exports about a live
// container: its partition key ranges (the pkranges feed), the diagnostic
// logs of request units and storage per logical partition key
// (CDBPartitionKeyRUConsumption, CDBPartitionKeyStatistics, and their
// AzureDiagnostics forms) exported from Log Analytics as CSV or JSON, and
// the NormalizedRUConsumption metric per partition key range from
// az monitor metrics list.
//
// It turns each export into records, with a positioned error for each
// row it cannot use, and the rest kept (ReadRanges, ReadRU, ReadStorage,
// ReadMetrics), through package ingest's readers; and it writes the
// queries and commands that produce each export (Query). It does not
// place keys, judge partitions or advise: core/diagnose does that with
// these records.
package telemetry

import (
	"strconv"
	"time"

	"github.com/pkcalc/pkcalc/core/epk"
)

// Range is one physical partition of the container: a partition key
// range as the pkranges feed lists it. The bounds are effective partition
// keys in upper-case hex, "" the start of the key space and "FF" its end,
// as epk.Range holds them.
type Range struct {
	ID      string    `json:"id"`
	Range   epk.Range `json:"-"`
	Parents []string  `json:"parents,omitempty"` // the ranges it was split or merged from
	// ThroughputFraction is the share of the container's throughput the
	// range has, as the feed gives it (throughputFraction); 0 when the feed
	// has none.
	ThroughputFraction float64 `json:"throughputFraction,omitempty"`
	Line               int     `json:"-"` // where the range starts in its file, 1-based
}

// Key is a logical partition key value as a log writes it: Text as
// logged (`["contoso"]`, `["contoso","u1"]` for a hierarchical key, or a
// plain `contoso`), Values its components. Rows of one key share its
// Values: read them, do not change them. Two texts can be one key (`[1]`
// and `[1.0]`): compare Values, or the EPK, not Text.
type Key struct {
	Text   string
	Values []epk.Value
}

// RU is one row of request units charged to one logical partition key
// (CDBPartitionKeyRUConsumption, or AzureDiagnostics' category
// PartitionKeyRUConsumption).
type RU struct {
	Time       time.Time // TimeGenerated, UTC
	Database   string
	Collection string
	Region     string
	Key        Key
	RangeID    string  // PartitionKeyRangeId
	Operation  string  // OperationName
	Charge     float64 // RequestCharge, RU
	Line       int     // where the row starts in its file, 1-based
	Row        int     // its number among the export's rows, 1-based
}

// Storage is one row of a logical partition key's storage
// (CDBPartitionKeyStatistics, or AzureDiagnostics' category
// PartitionKeyStatistics). Cosmos DB logs only its largest keys, sampled:
// a key absent from the log is not known to be small.
type Storage struct {
	Time       time.Time
	Database   string
	Collection string
	Region     string
	Key        Key
	RangeID    string // PartitionKeyRangeId, when logged
	SizeKB     float64
	Line       int
	Row        int
}

// Metric is one point of NormalizedRUConsumption for one partition key
// range: the highest share of its throughput used in the interval.
type Metric struct {
	Time     time.Time
	Interval time.Duration // the metric's grain (PT1M: one minute)
	RangeID  string
	Percent  float64 // 0 to 100
	// The series' other dimensions, when the query split by them too.
	Database, Collection, Region string
	Line                         int // where its series starts in the file
}

// Error is a problem with one row or with the file at a position.
type Error struct {
	Line   int
	Column int // 0 when the problem is a row's field
	Row    int // the row's number among the export's rows; 0 when the problem is not one row's
	Msg    string
	// Note marks a remark rather than a problem: on rows that were kept
	// (some have no range id), or left out as they should be (rows of
	// other categories).
	Note bool
}

// Error says where, then what: "line 3, column 7 (row 2): ...". A
// problem with the whole file (Line 0) is its message alone.
func (e *Error) Error() string {
	if e.Line <= 0 {
		return e.Msg
	}
	where := "line " + strconv.Itoa(e.Line)
	if e.Column > 0 {
		where += ", column " + strconv.Itoa(e.Column)
	}
	if e.Row > 0 {
		where += " (row " + strconv.Itoa(e.Row) + ")"
	}
	return where + ": " + e.Msg
}
