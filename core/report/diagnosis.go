package report

import (
	"encoding/json"
	"io"
	"reflect"
)

// DiagnosisSchemaVersion is the version of the JSON diagnosis;
// docs/diagnosis.schema.json describes it. It changes when a field
// changes meaning or goes away.
const DiagnosisSchemaVersion = 1

// Diagnosis is what pkcalc diagnose finds in a live container's exports:
// its physical partitions under their real ranges, the hot one and why,
// how well pkcalc's placement agrees with the service's, the logical
// partitions' storage against their limit, the traffic replayed onto
// other keys, and what to do, in order of cost.
type Diagnosis struct {
	SchemaVersion int               `json:"schemaVersion"`
	Generator     string            `json:"generator"`
	Settings      DiagnosisSettings `json:"settings"`
	// Inputs are the exports read, one per file, with what could not be
	// read in each.
	Inputs   []ExportRead `json:"inputs"`
	Warnings []Notice     `json:"warnings"`
	// Window is the time the request-unit log covers; absent without one.
	Window *Window `json:"window,omitempty"`
	// Partitions are the container's physical partitions: those of the
	// ranges feed in key order, then any the logs name that it does not
	// list.
	Partitions []PartitionLoad `json:"partitions"`
	// HottestPartition is the id of the busiest partition against its
	// share of the throughput; absent with no load to judge by.
	HottestPartition string     `json:"hottestPartition,omitempty"`
	HotSpot          *HotSpot   `json:"hotSpot,omitempty"`
	Placement        Placement  `json:"placement"`
	Keys             []KeyStore `json:"keys"`
	WhatIf           []WhatIf   `json:"whatIf"`
	Actions          []Action   `json:"actions"`
}

// DiagnosisSettings echo the options the diagnosis was made with.
type DiagnosisSettings struct {
	CurrentKey  string   `json:"currentKey,omitempty"`
	Keys        []string `json:"keys"` // the candidates replayed: named, or suggested
	HashVersion int      `json:"hashVersion"`
	RU          int      `json:"ru,omitempty"`
	Autoscale   bool     `json:"autoscale"`
	// ShareRU is each physical partition's share of the throughput: the
	// RU/s divided evenly by the partitions; absent without RU.
	ShareRU float64 `json:"shareRuPerSecond,omitempty"`
}

// Export kinds (ExportRead.Kind).
const (
	ExportRanges    = "ranges"
	ExportRULog     = "ruLog"
	ExportStorage   = "storageLog"
	ExportMetrics   = "metrics"
	ExportDocuments = "documents"
)

// ExportRead is one file read.
type ExportRead struct {
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	Records int    `json:"records"` // rows, ranges or documents kept
	// Errors are the first 100 rows or places that could not be used;
	// ErrorCount counts them all.
	Errors     []Problem `json:"errors"`
	ErrorCount int       `json:"errorCount"`
}

// Window is the span of the request-unit log.
type Window struct {
	From    string `json:"from"` // RFC 3339, UTC, the first second logged
	To      string `json:"to"`   // the last second logged
	Seconds int64  `json:"seconds"`
	// GrainSeconds is the time between the log's rows as they were
	// exported: 1 for the log as Cosmos DB writes it, 60 or 3600 for an
	// export binned by minute or hour, whose RU/s are averages.
	GrainSeconds int64    `json:"grainSeconds"`
	Regions      []string `json:"regions"`
}

// PartitionLoad is one physical partition: its range, the load the logs
// show on it, and the logical keys on it.
type PartitionLoad struct {
	ID string `json:"id"`
	// Listed says whether the ranges feed lists it; the bounds are ""
	// when it does not.
	Listed       bool     `json:"listed"`
	MinInclusive string   `json:"minInclusive"`
	MaxExclusive string   `json:"maxExclusive"`
	Parents      []string `json:"parents,omitempty"`
	// KeySpaceShare is the fraction of the key space its range covers;
	// absent when not listed.
	KeySpaceShare float64 `json:"keySpaceShare,omitempty"`
	RU            float64 `json:"ru"`      // RU logged on it in the window
	Seconds       int64   `json:"seconds"` // seconds with RU logged on it
	// PeakRuPerSecond and P99RuPerSecond are its busiest second's RU and
	// the 99th percentile over every second of the window, in each
	// region (the quiet seconds count as 0).
	PeakRuPerSecond float64 `json:"peakRuPerSecond"`
	PeakAt          string  `json:"peakAt,omitempty"`
	P99RuPerSecond  float64 `json:"p99RuPerSecond"`
	// ShareRuPerSecond is its share of the throughput: the RU/s divided
	// evenly, or by the ranges' throughputFraction when the feed gives
	// them; absent without the throughput.
	ShareRuPerSecond float64 `json:"shareRuPerSecond,omitempty"`
	// PeakUtilisation is the peak over its share of the throughput;
	// ThrottledSeconds counts the seconds at or over its share. Both are
	// absent without the throughput.
	PeakUtilisation  *float64 `json:"peakUtilisation,omitempty"`
	ThrottledSeconds *int64   `json:"throttledSeconds,omitempty"`
	// NormalizedPeak is the highest NormalizedRUConsumption of its range
	// as a fraction (1 is 100 %), and NormalizedFullMinutes the minutes
	// at 100 %; absent without the metric.
	NormalizedPeak        *float64 `json:"normalizedPeak,omitempty"`
	NormalizedFullMinutes *int64   `json:"normalizedFullMinutes,omitempty"`
	// StorageKb sums the latest size of each logged key on it: a floor,
	// since the log lists only the largest keys of a partition.
	StorageKb   float64   `json:"storageKb"`
	Keys        int       `json:"keys"`        // distinct keys logged on it
	TopKeys     []KeyRU   `json:"topKeys"`     // the 10 with the most RU
	LargestKeys []KeySize `json:"largestKeys"` // the 10 largest logged
}

// KeyRU is a logical key's request units on a partition.
type KeyRU struct {
	Value []any   `json:"value"` // one component per level, as the analysis report writes key values
	RU    float64 `json:"ru"`
	Share float64 `json:"share"` // of the partition's RU
	// PeakRuPerSecond is the key's busiest second.
	PeakRuPerSecond float64 `json:"peakRuPerSecond"`
}

// KeySize is a logical key's latest logged size.
type KeySize struct {
	Value  []any   `json:"value"`
	SizeKb float64 `json:"sizeKb"`
}

// Hot-spot causes (HotSpot.Cause).
const (
	CauseOneKey      = "ONE_KEY"       // one key is most of the hot partition's RU: a hot tenant
	CauseTimePattern = "TIME_PATTERN"  // the busiest key changes over time: a moving hot spot
	CauseCrowded     = "CROWDED_RANGE" // many keys in a range wider than the others': an uneven split
	CauseManyKeys    = "MANY_KEYS"     // many keys in a range no wider than the others'
)

// HotSpot says why the hottest partition is hot.
type HotSpot struct {
	Partition string `json:"partition"`
	Cause     string `json:"cause"`
	// Throttled says whether it reached its share of the throughput in
	// any second (or its normalized consumption reached 100 %).
	Throttled bool `json:"throttled"`
	// Key is its busiest key over its busiest seconds, and KeyShare that
	// key's share of those seconds' RU.
	Key      []any   `json:"key"`
	KeyShare float64 `json:"keyShare"`
	// KeySpaceShare is its range's share of the key space and
	// MedianKeySpaceShare the median over the ranges; absent without
	// ranges.
	KeySpaceShare       float64 `json:"keySpaceShare,omitempty"`
	MedianKeySpaceShare float64 `json:"medianKeySpaceShare,omitempty"`
	// Leaders are, for TIME_PATTERN, the keys that led the container in
	// turn, each with the minutes it led.
	Leaders []Leader `json:"leaders,omitempty"`
	Message string   `json:"message"`
}

// Leader is a key that led the container's RU for a stretch of time.
type Leader struct {
	Value   []any   `json:"value"`
	From    string  `json:"from"`
	To      string  `json:"to"`
	Minutes int     `json:"minutes"`
	Share   float64 `json:"share"` // of the container's RU in those minutes
}

// Placement is the calibration: the logged (key, range) pairs against
// pkcalc's own placement of each key on the ranges.
type Placement struct {
	Checked  int     `json:"checked"`
	Agreeing int     `json:"agreeing"`
	Share    float64 `json:"share"` // agreeing over checked; 0 when none is checked
	// Unchecked counts the pairs that could not be checked: no range id
	// logged ("undefined", or empty), or no ranges given.
	Unchecked int `json:"unchecked"`
	// BeforeSplit counts the agreeing pairs logged under a range that
	// has since split: their key lies in one of its children.
	BeforeSplit   int        `json:"beforeSplit"`
	Mismatches    []Mismatch `json:"mismatches"` // the first 100, most RU first
	MismatchCount int        `json:"mismatchCount"`
	// Suggestion says which setting would make the pairs agree, when
	// another hash version does much better; absent otherwise.
	Suggestion *Notice `json:"suggestion,omitempty"`
	Message    string  `json:"message"`
}

// Mismatch is a logged pair pkcalc places elsewhere.
type Mismatch struct {
	Value       []any   `json:"value"`
	Logged      string  `json:"logged"`        // the key as logged
	LoggedRange string  `json:"loggedRange"`   // PartitionKeyRangeId
	PlacedRange string  `json:"placedRange"`   // where pkcalc places it; "" when no range holds its EPK
	EPK         string  `json:"epk,omitempty"` // its EPK under the current key
	Rows        int     `json:"rows"`
	RU          float64 `json:"ru"`
	Reason      string  `json:"reason"`
}

// KeyStore is a logged key's storage against the 20 GB a logical
// partition holds.
type KeyStore struct {
	Value     []any   `json:"value"`
	Partition string  `json:"partition,omitempty"` // where it lives: as logged, or as pkcalc places it
	SizeKb    float64 `json:"sizeKb"`              // its latest logged size
	At        string  `json:"at"`                  // when that was logged
	Share     float64 `json:"share"`               // of 20 GB
	Samples   int     `json:"samples"`             // distinct times logged
	// GrowthKbPerDay is the least-squares slope of its size over time;
	// absent when logged at one time only.
	GrowthKbPerDay *float64 `json:"growthKbPerDay,omitempty"`
	// DaysTo14Gb and DaysTo20Gb are the days from At to the alert line
	// (70 %) and to the limit at that growth: 0 when already there,
	// absent when it does not grow.
	DaysTo14Gb *float64 `json:"daysTo14Gb,omitempty"`
	DaysTo20Gb *float64 `json:"daysTo20Gb,omitempty"`
}

// WhatIf is a key the measured traffic and storage are replayed onto, on
// the layout a new container with it would start with.
type WhatIf struct {
	Key     string `json:"key"`
	Kind    string `json:"kind"`
	Current bool   `json:"current"` // the container's own key, on a new layout
	// Partitions is the layout it is replayed on: the partitions a new
	// container with the throughput and the logged storage starts with.
	Partitions int `json:"partitions"`
	// HottestPartitionShare is the busiest partition's share of all the
	// RU replayed; HottestPeakRuPerSecond its busiest second.
	HottestPartitionShare  float64 `json:"hottestPartitionShare"`
	HottestPeakRuPerSecond float64 `json:"hottestPeakRuPerSecond"`
	// ThrottledShare is the share of the RU over its partition's share
	// of the throughput, second by second; absent without the throughput.
	ThrottledShare *float64 `json:"throttledShare,omitempty"`
	// RequiredRu is the least RU/s (manual, or the autoscale maximum) at
	// which no second throttles, and RequiredPartitions the layout it
	// gives; absent when one value needs more than a logical partition
	// serves, which no RU/s cures.
	RequiredRu         *int `json:"requiredRu,omitempty"`
	RequiredPartitions int  `json:"requiredPartitions,omitempty"`
	// BusiestValue is the candidate value with the busiest second, and
	// BusiestValueRuPerSecond that second's RU.
	BusiestValue            []any   `json:"busiestValue"`
	BusiestValueRuPerSecond float64 `json:"busiestValueRuPerSecond"`
	// LargestValueKb is the largest candidate value's storage replayed
	// from the storage log: a floor, as the log lists the largest keys
	// only.
	LargestValueKb float64 `json:"largestValueKb"`
	// Coverage is the share of the logged RU whose current key value the
	// documents hold; the rest is replayed as one value each.
	Coverage float64  `json:"coverage"`
	Notes    []string `json:"notes"`
}

// Action codes, in order of cost.
const (
	ActionRedistribute = "REDISTRIBUTE" // give the hot partition more of the same throughput
	ActionRaiseRU      = "RAISE_RU"     // raise the container's RU/s
	ActionSplitTenant  = "SPLIT_TENANT" // move the hot key to a container of its own
	ActionChangeKey    = "CHANGE_KEY"   // copy the container to one with a better key
)

// Action is one thing to do, with its effect on the figures above.
type Action struct {
	Code    string `json:"code"`
	Helps   bool   `json:"helps"` // false: it would not cure the hot spot, and Message says why
	Message string `json:"message"`
	// Targets are REDISTRIBUTE's per-partition RU/s.
	Targets []Target `json:"targets,omitempty"`
	// RU is the container's total RU/s after it (for SPLIT_TENANT and
	// CHANGE_KEY, the new container's).
	RU int `json:"ru,omitempty"`
	// ThrottledSeconds is the hot partition's logged seconds that would
	// still be at or over its share after it; absent when unknown.
	ThrottledSeconds *int64   `json:"throttledSeconds,omitempty"`
	Commands         []string `json:"commands"`
	Source           string   `json:"source"` // the documented rule it follows
}

// Target is a partition's RU/s after a redistribution.
type Target struct {
	Partition string `json:"partition"`
	RU        int    `json:"ru"`
}

// WriteDiagnosisJSON writes the diagnosis as indented JSON, escaped and
// made finite as WriteJSON writes a report.
func WriteDiagnosisJSON(w io.Writer, d *Diagnosis) error {
	finite(reflect.ValueOf(d))
	ew := &escaper{w: w}
	enc := json.NewEncoder(ew)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		return err
	}
	return ew.flush()
}
