package report

import (
	"cmp"
	"encoding/json"
	"io"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/pkcalc/pkcalc/core/advisor"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/partition"
	"github.com/pkcalc/pkcalc/core/paths"
)

// SchemaVersion is the version of the JSON report; docs/report.schema.json
// describes it. It changes when a field changes meaning or goes away.
const SchemaVersion = 2

// Report is pkcalc's result, as the JSON contract has it.
type Report struct {
	SchemaVersion int      `json:"schemaVersion"`
	Generator     string   `json:"generator"`
	Input         Input    `json:"input"`
	Documents     int64    `json:"documents"`
	Bytes         int64    `json:"bytes"`
	Settings      Settings `json:"settings"`
	TimeField     string   `json:"timeField,omitempty"`
	// Warnings are about the settings as the documents bore them out (a
	// weight or time field the documents lack), about the documents the
	// candidates were chosen from (the first only, perhaps in order), and
	// about documents Cosmos DB would refuse for their id.
	Warnings []Notice `json:"warnings"`
	// IDs are the documents' ids against Cosmos DB's rules for them;
	// absent for per-key aggregates, which have no documents.
	IDs         *IDs   `json:"ids,omitempty"`
	Recommended string `json:"recommended,omitempty"`
	// NoRecommendation says why there is no recommended key, exactly when
	// Recommended is empty.
	NoRecommendation *Notice     `json:"noRecommendation,omitempty"`
	Operations       *Operations `json:"operations,omitempty"`
	Candidates       []Candidate `json:"candidates"`
	// Paths describe the first PathsDocuments documents: all of them, or
	// the window candidates are chosen from when the input is longer (a
	// warning then says so).
	Paths          []Path `json:"paths"`
	PathsDocuments int64  `json:"pathsDocuments"`
}

// Notice is a note about the whole report, with a stable code.
type Notice struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Warning codes: a setting the documents did not bear out, or documents
// Cosmos DB would refuse.
const (
	WeightFieldUnused      = "WEIGHT_FIELD_UNUSED"      // no document has a weight: documents weigh the same instead
	WeightFieldSparse      = "WEIGHT_FIELD_SPARSE"      // most documents have no weight: they take no requests
	TimeFieldNoTimes       = "TIME_FIELD_NO_TIMES"      // no document has a time at the time field
	TimeFieldSparse        = "TIME_FIELD_SPARSE"        // most documents have no time there
	TargetBelowInput       = "TARGET_BELOW_INPUT"       // the target size is below the input's: nothing is projected
	ThroughputBelowStorage = "THROUGHPUT_BELOW_STORAGE" // less throughput than the service allows for the data: its minimum is used
	Underprovisioned       = "UNDERPROVISIONED"         // the workload needs more than the container has under any key
	FarProjection          = "FAR_PROJECTION"           // the target is thousands of times the sample: its figures rest on the sample's proportions
	KeyInArray             = "KEY_IN_ARRAY"             // a named key's path steps into an array the documents hold
	IDRules                = "ID_RULES"                 // documents whose id breaks a rule (IDs), or repeats one in its logical partition under a candidate
	WindowPartial          = "WINDOW_PARTIAL"           // the path table and the candidates come from the first documents only
	WindowSorted           = "WINDOW_SORTED"            // and those are in order of a path: the candidates may miss values past them
)

// IDs count the documents whose id breaks a rule of Cosmos DB's.
type IDs struct {
	Missing                 int64 `json:"missing"`                 // no id
	MissingWithUnderscoreID int64 `json:"missingWithUnderscoreId"` // of those, documents with a MongoDB export's _id
	// UnderscoreIDAsID: no document has an id and most have an _id (a
	// MongoDB export): the paths and keys read each _id as the id, as an
	// import that maps it makes it.
	UnderscoreIDAsID  bool  `json:"underscoreIdAsId,omitempty"`
	NonString         int64 `json:"nonString"`         // an id that is not a string
	TooLong           int64 `json:"tooLong"`           // an id over 1,023 bytes
	InvalidCharacters int64 `json:"invalidCharacters"` // an id with / or \
	// DuplicatesChecked is the documents each candidate's DuplicateIDs
	// covers: the first partition.HashedDocuments.
	DuplicatesChecked int64       `json:"duplicatesChecked"`
	Examples          []IDExample `json:"examples"` // the first documents that break a rule
}

// IDExample is a document whose id breaks a rule.
type IDExample struct {
	Document int    `json:"document"`
	Line     int    `json:"line"`
	Rule     string `json:"rule"` // an ID rule: the first it breaks
}

// No-recommendation codes: why a report recommends no key.
const (
	NoDocuments  = "NO_DOCUMENTS"   // nothing to measure
	NoUsablePath = "NO_USABLE_PATH" // no path can be a partition key
	TooFewValues = "TOO_FEW_VALUES" // no usable path has the distinct values a suggestion needs
	NoSuggestion = "NO_SUGGESTION"  // usable paths, but none that looks like a key
	NoUsableKey  = "NO_USABLE_KEY"  // keys measured, but each lacking or invalid in most documents
)

// Operations summarises the application's workload, when given.
type Operations struct {
	Count  int      `json:"count"`
	Errors []string `json:"errors"` // lines that could not be read, with their positions
}

// Queries is how the application's operations route under a candidate.
type Queries struct {
	Single   float64   `json:"single"`   // percent of routed traffic (queries, point reads, deletes) that reads one logical partition
	Targeted float64   `json:"targeted"` // percent that reads a few named partitions
	FanOut   float64   `json:"fanOut"`   // percent that reads every physical partition
	Verdicts []Verdict `json:"verdicts"`
}

// Verdict is one operation under a candidate.
type Verdict struct {
	Line    int      `json:"line"`
	Kind    string   `json:"kind"`
	Query   string   `json:"query,omitempty"`
	Paths   []string `json:"paths,omitempty"`
	Rate    float64  `json:"rate"`
	Routing string   `json:"routing"`
	Values  int      `json:"values,omitempty"`
	Prefix  int      `json:"prefix,omitempty"` // levels of a hierarchical key its values name, when they are prefixes
	Reason  string   `json:"reason"`
	// RU is what one execution costs under the key at the target, reading
	// Partitions physical partitions; Items is how many items a query
	// loads (partition.Distribution.Matches, cut by TOP or LIMIT).
	RU         float64 `json:"ru"`
	Partitions int     `json:"partitions"`
	Items      float64 `json:"items,omitempty"`
	// ItemsAtMost: the query has conditions besides the equality filters
	// its items are counted by (a range, a function, an OR), which may
	// leave fewer: Items is at most what it loads.
	ItemsAtMost bool   `json:"itemsAtMost,omitempty"`
	KeyUpdated  bool   `json:"keyUpdated,omitempty"`
	SpansKeys   bool   `json:"spansKeys,omitempty"`
	Message     string `json:"message"`
}

// Input says how the input was read and what was wrong with it.
type Input struct {
	Format string    `json:"format"`
	Errors []Problem `json:"errors"`
	// ErrorCount counts every problem; Errors lists the first 100.
	ErrorCount int `json:"errorCount"`
	Notes      int `json:"notes"`
	// Warnings are the first 100 notes, positioned: values read with a
	// change (bad UTF-8, a duplicate property, a number beyond a double).
	Warnings []Problem `json:"warnings"`
}

// Problem is one fault in the input.
type Problem struct {
	Document int    `json:"document,omitempty"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Message  string `json:"message"`
}

// String is the problem positioned, as people read it: "line 3, column 7
// (document 2): ...", without the document when it belongs to none.
func (p Problem) String() string {
	if p.Line == 0 {
		return p.Message
	}
	return (&ingest.Error{Document: p.Document, Line: p.Line, Column: p.Column, Msg: p.Message}).Error()
}

// Settings echo the options the report was made with.
type Settings struct {
	HashVersion int     `json:"hashVersion"`
	RU          int     `json:"ru,omitempty"`
	Autoscale   bool    `json:"autoscale"`
	Partitions  int     `json:"partitions,omitempty"`
	TargetGB    float64 `json:"targetGb,omitempty"`
	TargetDocs  int64   `json:"targetDocs,omitempty"`
	GrowthGB    float64 `json:"growthGbPerDay,omitempty"`
	Retention   float64 `json:"retentionDays,omitempty"`
	Reads       float64 `json:"readsPerSecond,omitempty"`
	Writes      float64 `json:"writesPerSecond,omitempty"`
	Queries     float64 `json:"queriesPerSecond,omitempty"`
	Traffic     string  `json:"traffic,omitempty"`
}

// Candidate is one key's measurements and judgement.
type Candidate struct {
	Key                        Key              `json:"key"`
	Named                      bool             `json:"named"`
	Rank                       int              `json:"rank"`
	Score                      int              `json:"score"`
	Grade                      string           `json:"grade"`
	ScoreBreakdown             []Component      `json:"scoreBreakdown"`
	Findings                   []Finding        `json:"findings"`
	Recommendations            []Recommendation `json:"recommendations"`
	LogicalPartitions          int64            `json:"logicalPartitions"`
	LogicalPartitionsEstimated bool             `json:"logicalPartitionsEstimated"`
	LogicalPartitionsError     float64          `json:"logicalPartitionsRelativeError,omitempty"`
	Documents                  int64            `json:"documents"`
	Bytes                      int64            `json:"bytes"`
	Missing                    int64            `json:"missing"`
	Invalid                    int64            `json:"invalid"`
	DuplicateIDs               *int64           `json:"duplicateIds,omitempty"` // documents repeating an (id, key value) pair; nil for aggregates
	PerLogicalPartition        PerLogical       `json:"perLogicalPartition"`
	Largest                    []Largest        `json:"largest"`
	PhysicalPartitions         []Physical       `json:"physicalPartitions"`
	KeyLength                  KeyLength        `json:"keyLength"`
	Monotonicity               Monotonicity     `json:"monotonicity"`
	WriteSpread                *WriteSpread     `json:"writeSpread,omitempty"`
	Projection                 Projection       `json:"projection"`
	DayOne                     DayOne           `json:"dayOne"`
	Workload                   *Workload        `json:"workload,omitempty"`
	Queries                    *Queries         `json:"queries,omitempty"`
}

// Key names a candidate key.
type Key struct {
	Spec    string   `json:"spec"`
	Paths   []string `json:"paths"`
	Kind    string   `json:"kind"`
	Version int      `json:"version"`
}

// Component is a line of the score's breakdown. One that was not
// measured (no time field, no workload) has weight and score 0, and its
// note says why.
type Component struct {
	Name     string `json:"name"`
	Weight   int    `json:"weight"`
	Score    int    `json:"score"`
	Measured bool   `json:"measured"`
	Note     string `json:"note"`
}

// Finding is an observation with a stable code.
type Finding struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

// Recommendation is advice with its reason.
type Recommendation struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Key     string `json:"key,omitempty"`
}

// PerLogical summarises logical partition sizes.
type PerLogical struct {
	Documents Stats `json:"documents"`
	Bytes     Stats `json:"bytes"`
	// Lorenz is the skew curve: [share of logical partitions, share of
	// documents] at 21 points, smallest partitions first.
	Lorenz [][2]float64 `json:"lorenz"`
}

// Stats of a size over logical partitions.
type Stats struct {
	Max       int64   `json:"max"`
	P50       int64   `json:"p50"`
	P95       int64   `json:"p95"`
	P99       int64   `json:"p99"`
	Mean      float64 `json:"mean"`
	MaxToMean float64 `json:"maxToMean"`
	Gini      float64 `json:"gini"`
}

// Largest is one of the largest logical partitions.
type Largest struct {
	Values    []any   `json:"values"`
	Documents int64   `json:"documents"`
	Bytes     int64   `json:"bytes"`
	Share     float64 `json:"share"`
	EPK       string  `json:"epk"`
}

// Physical is one physical partition at the sample's scale, on the layout
// the container would have at the target scale.
type Physical struct {
	ID                int      `json:"id"`
	MinInclusive      string   `json:"minInclusive"`
	MaxExclusive      string   `json:"maxExclusive"`
	Documents         int64    `json:"documents"`
	Bytes             int64    `json:"bytes"`
	LogicalPartitions int64    `json:"logicalPartitions"`
	RequestShare      float64  `json:"requestShare"`
	ProjectedBytes    int64    `json:"projectedBytes"`
	DemandRU          *float64 `json:"demandRu,omitempty"` // present exactly when a request rate is given
}

// KeyLength reports key values against the size limits.
type KeyLength struct {
	MaxBytes   int         `json:"maxBytes"`
	Over2048   int64       `json:"over2048"`
	Over101    int64       `json:"over101"`
	Collisions []Collision `json:"truncationCollisions"`
}

// Collision is distinct values that share an EPK under hash V1.
type Collision struct {
	EPK    string  `json:"epk"`
	Values [][]any `json:"values"`
}

// Monotonicity of the key with write order and time.
type Monotonicity struct {
	Samples        int      `json:"samples"`
	InsertionOrder float64  `json:"insertionOrder"`
	Time           *float64 `json:"time,omitempty"`
	By             string   `json:"by"` // partition.ByTime or ByOrder: what Monotonic judges
	Monotonic      bool     `json:"monotonic"`
}

// WriteSpread is writes per time bucket and physical partition.
type WriteSpread struct {
	Unit             string       `json:"unit"`
	KeysPerBucket    float64      `json:"keysPerBucketMedian"`
	SamplesPerBucket float64      `json:"sampledWritesPerBucketMedian"`
	HottestShare     float64      `json:"hottestPartitionShare"`
	Estimated        bool         `json:"estimated"`
	Buckets          []TimeBucket `json:"buckets"`
}

// TimeBucket is one time bucket's writes.
type TimeBucket struct {
	Start      string    `json:"start"`
	Writes     float64   `json:"writes"`
	Keys       int       `json:"keys"`
	Partitions []float64 `json:"partitions"`
}

// Projection is the key at the target scale.
type Projection struct {
	Factor              float64 `json:"factor"`
	Documents           int64   `json:"documents"`
	Bytes               int64   `json:"bytes"`
	PhysicalPartitions  int     `json:"physicalPartitions"`
	Splits              int     `json:"splits"`
	LargestLogicalBytes int64   `json:"largestLogicalBytes"`
	OverLimit           int     `json:"overLimit"`
	OverAlertLine       int     `json:"overAlertLine"`
	NewValueShare       float64 `json:"newValueShare"`
}

// DayOne is the container on its first day: the partitions its
// throughput gives it, before any split, holding the sample.
type DayOne struct {
	PhysicalPartitions int     `json:"physicalPartitions"`
	PerPartitionRU     float64 `json:"perPartitionRu"`
	EmptyPartitions    int     `json:"emptyPartitions"`
	// Partitions hold the sample's documents and bytes, and each one's
	// share of the writes of a moment (of all writes when the documents
	// tell no time).
	Partitions []DayOnePartition `json:"partitions"`
	// BusiestWriteRU is what the workload's writes ask of the busiest
	// partition, when a workload is given.
	BusiestWriteRU *float64 `json:"busiestWriteRu,omitempty"`
}

// DayOnePartition is one physical partition on the first day.
type DayOnePartition struct {
	Documents  int64   `json:"documents"`
	Bytes      int64   `json:"bytes"`
	WriteShare float64 `json:"writeShare"`
}

// Workload is the request load on the physical partitions.
type Workload struct {
	RU             int     `json:"ru"`
	PerPartitionRU float64 `json:"perPartitionRu"`
	TotalRU        float64 `json:"totalRu"`
	// BaseRU is what the workload would need under a key that served every
	// operation from one partition.
	BaseRU float64 `json:"baseRu"`
	// LeastRU is the least throughput at which no physical partition
	// throttles under the key, on LeastRUPartitions partitions; null when
	// none is enough (one logical partition needs more than 10,000 RU/s).
	LeastRU           *int `json:"leastRu"`
	LeastRUPartitions int  `json:"leastRuPartitions,omitempty"`
	// LeastRUByData: the least needs the partitions split where the data
	// is (created with less, loaded, then scaled up), not the even split a
	// container created with it starts with.
	LeastRUByData bool `json:"leastRuByData,omitempty"`
	// CreateRU is the most to create the container with before raising it
	// to LeastRU, when created at LeastRU it would start with more
	// partitions than LeastRU is worked out on, or must be loaded first.
	CreateRU           int     `json:"createRu,omitempty"`
	PointReadRU        float64 `json:"pointReadRu"`
	WriteRU            float64 `json:"writeRu"`
	QueryRU            float64 `json:"queryRu"`
	ItemRU             float64 `json:"itemRu"`
	ThrottledFraction  float64 `json:"throttledFraction"`
	HottestPartition   int     `json:"hottestPartition"`
	HottestUtilisation float64 `json:"hottestUtilisation"`
	Headroom           float64 `json:"headroom"`
	HottestLogicalRU   float64 `json:"hottestLogicalRu"`
}

// Path describes a property path.
type Path struct {
	Path      string         `json:"path"`
	Types     map[string]int `json:"types"`
	Documents int            `json:"documents"`
	Distinct  int            `json:"distinct"`
	Capped    bool           `json:"distinctIsLowerBound,omitempty"`
	Top       []TopValue     `json:"top"`
	System    string         `json:"system,omitempty"`
	Usable    bool           `json:"usable"`
	Reason    string         `json:"reason,omitempty"`
}

// TopValue is a common value of a path.
type TopValue struct {
	Value json.RawMessage `json:"value"`
	Count int             `json:"count"`
}

func (a *analysis) finish() *Report {
	o := a.opts
	rep := &Report{
		SchemaVersion: SchemaVersion,
		Generator:     "pkcalc",
		Input:         Input{Format: a.format, Errors: []Problem{}, ErrorCount: a.errCount, Notes: a.notes, Warnings: []Problem{}},
		Documents:     int64(a.docs),
		Bytes:         a.bytes,
		Settings: Settings{
			HashVersion: int(o.HashVersion), RU: o.Throughput.RU, Autoscale: o.Throughput.Autoscale, Partitions: o.Partitions,
			TargetGB: targetGB(o.TargetBytes), TargetDocs: o.TargetDocs, GrowthGB: o.GrowthGBPerDay, Retention: o.RetentionDays,
			Reads: o.Workload.Reads, Writes: o.Workload.Writes, Queries: o.Workload.Queries, Traffic: string(o.Workload.Traffic),
		},
		Warnings:       append(a.settingWarnings(), a.windowWarnings()...),
		Candidates:     []Candidate{},
		Paths:          PathsOf(a.paths),
		PathsDocuments: int64(a.described),
	}
	if a.format == "" {
		rep.Input.Format = "empty"
	}
	for _, e := range a.errs {
		rep.Input.Errors = append(rep.Input.Errors, Problem{Document: e.Document, Line: e.Line, Column: e.Column, Message: e.Msg})
	}
	for _, e := range a.warnings {
		rep.Input.Warnings = append(rep.Input.Warnings, Problem{Document: e.Document, Line: e.Line, Column: e.Column, Message: e.Msg})
	}
	if a.timePath != nil {
		rep.TimeField = paths.Format(a.timePath)
	}
	if a.ops != nil || a.opErrs != nil {
		rep.Operations = &Operations{Count: len(a.ops), Errors: append([]string{}, a.opErrs...)}
	}
	if a.ids != nil {
		rep.IDs = a.ids.report()
	}
	settings := advisor.Settings{Throughput: o.Throughput, Partitions: o.Partitions, TargetBytes: o.TargetBytes, TargetDocs: o.TargetDocs,
		Workload: o.Workload, Item: itemOf(a.paths, a.described, a.docs, a.bytes)}
	if slices.ContainsFunc(rep.Warnings, func(n Notice) bool { return n.Code == WeightFieldUnused }) {
		settings.Workload.Traffic = partition.ByDocuments
	}
	if a.docs == 0 {
		// Nothing to measure: keys graded on no documents would read as
		// findings ("only 0 distinct values").
		for _, acc := range a.accs {
			acc.Finish() // ends its goroutine
		}
		rep.NoRecommendation = a.whyNoRecommendation()
		return rep
	}
	if a.ids != nil {
		a.ids.repeats()
	}
	dists := make([]*partition.Distribution, len(a.accs))
	parallel(len(a.accs), func(i int) { dists[i] = a.accs[i].Finish() })
	settings.Operations = operations(a.ops, dists, a.factor(), int64(a.docs), a.traffic(settings.Workload.Traffic))
	evals := make([]*advisor.Evaluation, a.candidates)
	dups := make([]int64, a.candidates)
	parallel(len(evals), func(i int) {
		evals[i] = advisor.Evaluate(dists[i], settings)
		if a.ids != nil {
			dups[i] = a.ids.duplicates(dists[i].ValueHashes)
		}
		dists[i].ValueHashes = nil // counted: let them go
	})
	rank := advisor.Rank(evals)
	recs := advisor.Recommend(evals)
	// Named keys keep their place at the top of the list.
	order := make([]int, len(evals))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order[a.named:], func(x, y int) int { return cmp.Compare(rank[x], rank[y]) })
	best := -1
	for _, i := range order {
		c := candidate(evals[i], recs[i])
		c.Named = i < a.named
		c.Rank = rank[i]
		if a.ids != nil {
			c.DuplicateIDs = &dups[i]
		}
		rep.Candidates = append(rep.Candidates, c)
		if rank[i] == 1 {
			best = i
		}
	}
	if n := idNotice(rep.IDs, rep.Candidates, rep.Documents); n != nil {
		rep.Warnings = append(rep.Warnings, *n)
	}
	switch {
	case best >= 0 && advisor.Acceptable(evals[best]):
		rep.Recommended = evals[best].Dist.Spec.String()
		if msg := advisor.Shortfall(evals[best]); msg != "" {
			rep.Warnings = append(rep.Warnings, Notice{Underprovisioned, msg})
		}
	case best >= 0:
		rep.NoRecommendation = &Notice{NoUsableKey, "No key measured is usable: in each, more than half the documents lack the key or hold an object or array there, which Cosmos DB rejects."}
	default:
		rep.NoRecommendation = a.whyNoRecommendation()
	}
	return rep
}

// parallel runs f for 0 to n-1 on as many goroutines as there are cores,
// so that no more keys' working memory is held at once than can use it;
// with one, in order. In WebAssembly it yields between calls for the
// garbage collector (see run).
func parallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := range next {
				if yields {
					runtime.Gosched()
				}
				f(i)
			}
		})
	}
	wg.Wait()
}

// factor is the target's size over the input's, at least 1, as each key's
// evaluation has it.
func (a *analysis) factor() float64 {
	if t := a.targetBytes(); t > 0 && a.bytes > 0 {
		return max(1, float64(t)/float64(a.bytes))
	}
	return 1
}

// traffic is how requests spread over key values: as set, or by the
// weight field when one is given, else by documents (as package advisor
// has it).
func (a *analysis) traffic(t partition.Traffic) partition.Traffic {
	if t != "" {
		return t
	}
	if a.opts.WeightPath != nil {
		return partition.ByWeight
	}
	return partition.ByDocuments
}

// targetGB is the target size in GB, to 3 decimals, or, for a target below
// half a megabyte, as it is: rounded to 0 it would not be echoed at all.
func targetGB(b int64) float64 {
	gb := float64(b) / (1 << 30)
	if r := round(gb, 3); r > 0 || b == 0 {
		return r
	}
	return gb
}

func candidate(e *advisor.Evaluation, recs []advisor.Recommendation) Candidate {
	d := e.Dist
	version := int(d.Version)
	if d.Spec.Kind == key.MultiHash {
		version = 2
	}
	c := Candidate{
		Key:                        Key{Spec: d.Spec.String(), Paths: d.Spec.PathStrings(), Kind: string(d.Spec.Kind), Version: version},
		Score:                      e.Score,
		Grade:                      e.Grade,
		ScoreBreakdown:             []Component{},
		Findings:                   []Finding{},
		Recommendations:            []Recommendation{},
		LogicalPartitions:          d.Distinct,
		LogicalPartitionsEstimated: d.Estimated,
		LogicalPartitionsError:     round(d.DistinctError, 4),
		Documents:                  d.Documents,
		Bytes:                      d.Bytes,
		Missing:                    d.Missing,
		Invalid:                    d.Invalid,
		PerLogicalPartition:        PerLogical{Documents: stats(d.DocumentStats()), Bytes: stats(d.BytesStats()), Lorenz: lorenz(d.Lorenz(20))},
		Largest:                    []Largest{},
		PhysicalPartitions:         []Physical{},
		KeyLength:                  KeyLength{MaxBytes: d.KeyMaxBytes, Over2048: d.OverLimit, Over101: d.OverLimitV1, Collisions: []Collision{}},
	}
	for _, b := range e.Breakdown {
		c.ScoreBreakdown = append(c.ScoreBreakdown, Component(b))
	}
	for _, f := range e.Findings {
		c.Findings = append(c.Findings, Finding{Code: f.Code, Severity: string(f.Severity), Message: f.Message})
	}
	for _, r := range recs {
		c.Recommendations = append(c.Recommendations, Recommendation(r))
	}
	for _, l := range d.Largest(10) {
		c.Largest = append(c.Largest, Largest{Values: Values(l.Values), Documents: l.Documents, Bytes: l.Bytes, Share: round(ratio(l.Bytes, d.Bytes), 4), EPK: l.EPK})
	}
	for i, p := range e.Physical {
		ph := Physical{ID: p.ID, MinInclusive: p.MinInclusive, MaxExclusive: p.MaxExclusive, Documents: p.Documents, Bytes: p.Bytes,
			LogicalPartitions: p.LogicalPartitions, RequestShare: round(e.Load.Shares[i], 6), ProjectedBytes: e.Projection.Physical[i].Bytes}
		if e.Load.Active {
			d := round(e.Load.DemandRU[i], 1)
			ph.DemandRU = &d
		}
		c.PhysicalPartitions = append(c.PhysicalPartitions, ph)
	}
	for i, col := range d.Collisions {
		if i == 10 {
			break
		}
		cj := Collision{EPK: col.EPK}
		for _, v := range col.Values {
			cj.Values = append(cj.Values, Values(v))
		}
		c.KeyLength.Collisions = append(c.KeyLength.Collisions, cj)
	}
	m := e.Monotonicity
	c.Monotonicity = Monotonicity{Samples: m.Samples, InsertionOrder: round(m.Order, 4), By: m.By, Monotonic: m.Monotonic}
	if !math.IsNaN(m.Time) {
		t := round(m.Time, 4)
		c.Monotonicity.Time = &t
	}
	if sp := e.Spread; sp != nil {
		ws := &WriteSpread{Unit: string(sp.Unit), KeysPerBucket: sp.KeysMedian, SamplesPerBucket: sp.SamplesMedian, HottestShare: round(sp.HottestShare, 4), Estimated: sp.Estimated, Buckets: []TimeBucket{}}
		for _, b := range sp.Buckets {
			tb := TimeBucket{Start: b.Start.Format("2006-01-02T15:04:05Z"), Writes: round(b.Writes, 1), Keys: b.Keys, Partitions: make([]float64, len(b.Partitions))}
			for i, v := range b.Partitions {
				tb.Partitions[i] = round(v, 1)
			}
			ws.Buckets = append(ws.Buckets, tb)
		}
		c.WriteSpread = ws
	}
	p := e.Projection
	c.Projection = Projection{Factor: round(p.Factor, 3), Documents: p.Documents, Bytes: p.Bytes, PhysicalPartitions: len(p.Physical), Splits: p.Splits,
		LargestLogicalBytes: p.Largest.Bytes, OverLimit: p.OverLimitN, OverAlertLine: p.OverAlertN, NewValueShare: round(p.NewValueShare, 4)}
	c.DayOne = dayOne(e.DayOne)
	if l := e.Load; l.Active {
		c.Workload = &Workload{RU: e.Throughput.RU, PerPartitionRU: round(l.CapacityRU, 1), TotalRU: round(l.TotalRU, 1), BaseRU: round(l.BaseRU, 1),
			PointReadRU: round(l.Costs.PointRead, 3), WriteRU: round(l.Costs.Write, 3), QueryRU: round(l.Costs.Query, 3), ItemRU: round(l.Costs.Item, 4),
			ThrottledFraction: round(l.Throttle.ThrottledFraction, 4), HottestPartition: l.Throttle.Hottest,
			HottestUtilisation: round(l.Throttle.HottestUtilisation, 4), Headroom: round(finite(l.Throttle.Headroom), 3), HottestLogicalRU: round(l.HottestLogiRU, 1)}
		if p := e.Provision; p.LeastRU > 0 {
			c.Workload.LeastRU, c.Workload.LeastRUPartitions, c.Workload.LeastRUByData, c.Workload.CreateRU = &p.LeastRU, p.Partitions, p.ByData, p.CreateRU
		}
	}
	if q := e.Queries; q.Active {
		c.Queries = &Queries{Single: round(100*q.Single, 2), Targeted: round(100*q.Targeted, 2), FanOut: round(100*q.FanOut, 2), Verdicts: []Verdict{}}
		for i, v := range q.Verdicts {
			vj := Verdict{Line: v.Op.Line, Kind: string(v.Op.Kind), Query: v.Op.Text, Paths: v.Op.Paths,
				Rate: round(v.Rate, 3), Routing: string(v.Assessment.Routing.Kind), Values: v.Assessment.Routing.Values, Prefix: v.Assessment.Routing.Prefix, Reason: v.Assessment.Routing.Reason,
				KeyUpdated: v.Assessment.KeyUpdated, SpansKeys: v.Assessment.SpansKeys, Message: v.Assessment.Message}
			if i < len(e.Load.Charges) {
				ch := e.Load.Charges[i]
				vj.RU, vj.Partitions, vj.Items, vj.ItemsAtMost = round(ch.RU, 2), ch.Partitions, round(ch.Items, 1), ch.AtMost && ch.Items > 0
			}
			c.Queries.Verdicts = append(c.Queries.Verdicts, vj)
		}
	}
	return c
}

func dayOne(d advisor.DayOne) DayOne {
	out := DayOne{PhysicalPartitions: len(d.Physical), PerPartitionRU: round(d.CapacityRU, 1), EmptyPartitions: d.Empty, Partitions: []DayOnePartition{}}
	for i, p := range d.Physical {
		out.Partitions = append(out.Partitions, DayOnePartition{Documents: p.Documents, Bytes: p.Bytes, WriteShare: round(d.Writes[i], 4)})
	}
	if d.WriteRU > 0 {
		w := round(d.WriteRU, 1)
		out.BusiestWriteRU = &w
	}
	return out
}

func lorenz(points [][2]float64) [][2]float64 {
	for i := range points {
		points[i] = [2]float64{round(points[i][0], 4), round(points[i][1], 4)}
	}
	return points
}

func stats(s partition.Stats) Stats {
	return Stats{Max: s.Max, P50: s.P50, P95: s.P95, P99: s.P99, Mean: round(s.Mean, 2), MaxToMean: round(s.MaxToMean, 3), Gini: round(s.Gini, 4)}
}

// Values writes a key value as JSON values; undefined becomes
// {"$undefined": true}, as pkcalc epk reads it.
func Values(vals []epk.Value) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		switch v.Kind {
		case epk.String:
			out[i] = v.Str
		case epk.Number:
			out[i] = v.Num
			if math.IsInf(v.Num, 0) || math.IsNaN(v.Num) {
				// JSON has no infinities: write them as Extended JSON does.
				text := "NaN"
				if math.IsInf(v.Num, 1) {
					text = "Infinity"
				} else if math.IsInf(v.Num, -1) {
					text = "-Infinity"
				}
				out[i] = map[string]string{"$numberDouble": text}
			}
		case epk.True:
			out[i] = true
		case epk.False:
			out[i] = false
		case epk.Null:
			out[i] = nil
		default:
			out[i] = map[string]bool{"$undefined": true}
		}
	}
	return out
}

// PathsOf converts discovered paths to their report form.
func PathsOf(ps []paths.Path) []Path {
	out := []Path{}
	for _, p := range ps {
		pj := Path{Path: p.Path, Types: map[string]int{}, Documents: p.Documents, Distinct: p.Distinct, Capped: p.DistinctCapped, Top: []TopValue{}, System: p.System, Usable: p.Usable, Reason: p.Reason}
		for _, k := range p.TypeMix() {
			pj.Types[k.Kind.String()] = k.Count
		}
		for _, v := range p.Top {
			pj.Top = append(pj.Top, TopValue{Value: json.RawMessage(v.Value), Count: v.Count})
		}
		out = append(out, pj)
	}
	return out
}

// WriteJSON writes the report as indented JSON.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

func round(f float64, places int) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	p := math.Pow(10, float64(places))
	return math.Round(f*p) / p
}

func finite(f float64) float64 {
	if math.IsInf(f, 1) {
		return -1 // unlimited: no demand
	}
	return f
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
