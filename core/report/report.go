package report

import (
	"encoding/json"
	"io"
	"math"
	"reflect"
	"unicode/utf8"

	"github.com/pkcalc/pkcalc/core/human"
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
	// PathsOmitted counts the paths past the first paths.MaxPaths, which
	// Paths does not describe; absent when it describes them all.
	PathsOmitted *PathsOmitted `json:"pathsOmitted,omitempty"`
}

// PathsOmitted are the distinct property paths a path table leaves out.
type PathsOmitted struct {
	Paths     int `json:"paths"`     // how many, estimated (HyperLogLog, within about 2 %)
	Documents int `json:"documents"` // documents holding at least one of them
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
	WeightFieldCapped      = "WEIGHT_FIELD_CAPPED"      // documents weigh more than pkcalc models: they are read at its most
	TimeFieldNoTimes       = "TIME_FIELD_NO_TIMES"      // no document has a time at the time field
	TimeFieldSparse        = "TIME_FIELD_SPARSE"        // most documents have no time there
	TargetBelowInput       = "TARGET_BELOW_INPUT"       // the target size is below the input's: nothing is projected
	ThroughputBelowStorage = "THROUGHPUT_BELOW_STORAGE" // less throughput than the service allows for the data: its minimum is used
	Underprovisioned       = "UNDERPROVISIONED"         // the workload needs more than the container has under any key
	UnservableOperation    = "UNSERVABLE_OPERATION"     // a query asks more than a container may have under any key: the keys are compared without it
	GrownValues            = "GROWN_VALUES"             // a lookup's items grow with the target because the input's values are taken for all there are
	TimeFieldZero          = "TIME_FIELD_ZERO"          // documents hold the time 0 (1970-01-01), a time never set: left out of what is measured against time
	FarProjection          = "FAR_PROJECTION"           // the target is thousands of times the sample: its figures rest on the sample's proportions
	KeyInArray             = "KEY_IN_ARRAY"             // a named key's path steps into an array the documents hold
	KeyNotFound            = "KEY_NOT_FOUND"            // a named key's path is in no document: maybe it meant one that reads the same
	IDRules                = "ID_RULES"                 // documents whose id breaks a rule (IDs), or repeats one in its logical partition under a candidate
	WindowPartial          = "WINDOW_PARTIAL"           // the path table and the candidates come from the first documents only
	WindowSorted           = "WINDOW_SORTED"            // and those are in order of a path: the candidates may miss values past them
	PathsCapped            = "PATHS_CAPPED"             // more distinct property paths than the path table describes
	ExactValuesShared      = "EXACT_VALUES_SHARED"      // keys pkcalc added kept fewer values exactly than the named, for memory
)

// IDs count the documents whose id breaks a rule of Cosmos DB's.
type IDs struct {
	Missing                 int64 `json:"missing"`                 // no id
	MissingWithUnderscoreID int64 `json:"missingWithUnderscoreId"` // of those, documents with a MongoDB export's _id
	// UnderscoreIDAsID: no document has an id and most have an _id (a
	// MongoDB export): the paths and keys read each _id as the id, as an
	// import that maps it makes it.
	UnderscoreIDAsID bool `json:"underscoreIdAsId,omitempty"`
	// MissingAsUnique: no document has an id, nor a MongoDB _id to be
	// one: the keys read each document's id as one of its own, as the
	// GUID an import must give it.
	MissingAsUnique bool `json:"missingAsUnique,omitempty"`
	// UnderscoreIDNonString: of MissingWithUnderscoreID, the documents
	// whose _id is not a string (a number, mostly), which an import must
	// write as one: an id is a string.
	UnderscoreIDNonString int64 `json:"underscoreIdNonString,omitempty"`
	NonString             int64 `json:"nonString"`         // an id that is not a string
	TooLong               int64 `json:"tooLong"`           // an id over 1,023 bytes
	InvalidCharacters     int64 `json:"invalidCharacters"` // an id with / or \
	// DuplicatesChecked is the documents each candidate's DuplicateIDs
	// covers: the first partition.HashedDocuments.
	DuplicatesChecked int64       `json:"duplicatesChecked"`
	Examples          []IDExample `json:"examples"` // the first documents that break a rule
}

// ID rules: what is wrong with a document's id (IDExample.Rule).
const (
	IDMissing           = "missing"           // no property named id
	IDNonString         = "nonString"         // a number, boolean, null, object or array
	IDTooLong           = "tooLong"           // over ingest.MaxIDBytes
	IDInvalidCharacters = "invalidCharacters" // holds a character of ingest.IDRefused
)

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
	return human.Position(p.Line, p.Column, p.Document) + ": " + p.Message
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
	// NewValues are the paths whose values keep coming as the data grows
	// (--new-values), as written.
	NewValues []string `json:"newValues,omitempty"`
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
	NotTime                    int64            `json:"notTime,omitempty"` // documents whose time bucket holds no time: the key value is undefined, as for missing
	Invalid                    int64            `json:"invalid"`
	DuplicateIDs               *int64           `json:"duplicateIds,omitempty"` // documents repeating an (id, key value) pair; nil for aggregates
	PerLogicalPartition        PerLogical       `json:"perLogicalPartition"`
	Largest                    []Largest        `json:"largest"`
	// PhysicalPartitions are the physical partitions at the target, in
	// ID order: all of them up to MaxPartitionRows, else the busiest
	// MaxPartitionRows, and PhysicalPartitionsOmitted sums the rest.
	PhysicalPartitions        []Physical         `json:"physicalPartitions"`
	PhysicalPartitionsOmitted *OmittedPartitions `json:"physicalPartitionsOmitted,omitempty"`
	KeyLength                 KeyLength          `json:"keyLength"`
	Monotonicity              Monotonicity       `json:"monotonicity"`
	WriteSpread               *WriteSpread       `json:"writeSpread,omitempty"`
	Projection                Projection         `json:"projection"`
	DayOne                    DayOne             `json:"dayOne"`
	Workload                  *Workload          `json:"workload,omitempty"`
	Queries                   *Queries           `json:"queries,omitempty"`
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

// MaxPartitionRows is the most physical partitions a candidate lists in
// each of its lists (PhysicalPartitions, DayOne.Partitions and the columns
// of WriteSpread): a chart shows no more bars legibly, and a report of
// 65,536 partitions of five keys was 300 MB of JSON. Past it the busiest
// are listed and the rest summed (OmittedPartitions).
const MaxPartitionRows = 100

// OmittedPartitions sums the physical partitions a list leaves out, past
// MaxPartitionRows: the quiet ones, by request share then projected size.
type OmittedPartitions struct {
	Partitions        int     `json:"partitions"`
	Documents         int64   `json:"documents"`
	Bytes             int64   `json:"bytes"`
	LogicalPartitions int64   `json:"logicalPartitions"`
	RequestShare      float64 `json:"requestShare"`
	ProjectedBytes    int64   `json:"projectedBytes"`
	// MaxProjectedBytes is the largest of them at the target, and
	// MaxRequestShare their busiest's share.
	MaxProjectedBytes int64    `json:"maxProjectedBytes"`
	MaxRequestShare   float64  `json:"maxRequestShare"`
	DemandRU          *float64 `json:"demandRu,omitempty"` // their demand, summed; present exactly when a request rate is given
}

// PhysicalCount is how many physical partitions the candidate has at the
// target: those listed and those left out.
func (c Candidate) PhysicalCount() int {
	n := len(c.PhysicalPartitions)
	if o := c.PhysicalPartitionsOmitted; o != nil {
		n += o.Partitions
	}
	return n
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

// DayOneOmitted sums the first day's partitions a list leaves out.
type DayOneOmitted struct {
	Partitions int     `json:"partitions"`
	Documents  int64   `json:"documents"`
	Bytes      int64   `json:"bytes"`
	WriteShare float64 `json:"writeShare"`
}

// WriteSpread is writes per time bucket and physical partition.
type WriteSpread struct {
	Unit             string  `json:"unit"`
	KeysPerBucket    float64 `json:"keysPerBucketMedian"`
	SamplesPerBucket float64 `json:"sampledWritesPerBucketMedian"`
	HottestShare     float64 `json:"hottestPartitionShare"`
	Estimated        bool    `json:"estimated"`
	// Partitions are the IDs of the partitions each bucket's Partitions
	// list, present exactly when they are not all of them: the
	// candidate's PhysicalPartitions, past MaxPartitionRows.
	Partitions []int        `json:"partitions,omitempty"`
	Buckets    []TimeBucket `json:"buckets"`
}

// TimeBucket is one time bucket's writes.
type TimeBucket struct {
	Start      string    `json:"start"`
	Writes     float64   `json:"writes"`
	Keys       int       `json:"keys"`
	Partitions []float64 `json:"partitions"`
	// OtherPartitions are the bucket's writes to the partitions left out
	// (WriteSpread.Partitions), when some are.
	OtherPartitions float64 `json:"otherPartitions,omitempty"`
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
	// Past MaxPartitionRows the busiest are listed, each with its ID, and
	// Omitted sums the rest.
	Partitions []DayOnePartition `json:"partitions"`
	Omitted    *DayOneOmitted    `json:"omitted,omitempty"`
	// BusiestWriteRU is what the workload's writes ask of the busiest
	// partition, when a workload is given.
	BusiestWriteRU *float64 `json:"busiestWriteRu,omitempty"`
}

// DayOnePartition is one physical partition on the first day.
type DayOnePartition struct {
	ID         *int    `json:"id,omitempty"` // present exactly when the list is cut (Omitted)
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

// WriteJSON writes the report as indented JSON. The characters a path
// escapes are written \uXXXX in its strings too (paths.EscapeJSON), so
// that the JSON shown in a terminal cannot drive it nor reorder a value.
// JSON has no NaN or infinity: the report is made Finite first, rather
// than written as nothing ("json: unsupported value: +Inf").
func WriteJSON(w io.Writer, r *Report) error {
	Finite(r)
	ew := &escaper{w: w}
	enc := json.NewEncoder(ew)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return err
	}
	return ew.flush()
}

// escaper writes JSON text with paths.EscapeJSON, holding back a
// character cut at the end of a write.
type escaper struct {
	w    io.Writer
	tail []byte
}

func (e *escaper) Write(p []byte) (int, error) {
	n := len(p)
	if len(e.tail) > 0 {
		p = append(e.tail, p...)
		e.tail = nil
	}
	cut := len(p)
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if !utf8.FullRune(p[i:]) {
				cut = i
			}
			break
		}
	}
	if cut < len(p) {
		e.tail = append([]byte(nil), p[cut:]...)
	}
	if _, err := e.w.Write(paths.EscapeJSON(p[:cut])); err != nil {
		return 0, err
	}
	return n, nil
}

func (e *escaper) flush() error {
	if len(e.tail) == 0 {
		return nil
	}
	_, err := e.w.Write(e.tail)
	e.tail = nil
	return err
}

// Finite makes every number of the report finite, as JSON can hold it and
// as people can read it: NaN becomes 0, and an infinity the largest
// finite number of its sign. The analysis makes its reports finite; every
// writer makes the report it is given finite too, in place, before it
// writes.
func Finite(r *Report) {
	finite(reflect.ValueOf(r))
}

func finite(v reflect.Value) {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if !v.CanSet() {
			return // in a struct in an interface, which the report has not
		}
		switch f := v.Float(); {
		case math.IsNaN(f):
			v.SetFloat(0)
		case math.IsInf(f, 0):
			v.SetFloat(math.Copysign(math.MaxFloat64, f))
		}
	case reflect.Pointer:
		if !v.IsNil() {
			finite(v.Elem())
		}
	case reflect.Interface:
		// A value in an interface cannot be set: the interface is given
		// a finite copy.
		if v.IsNil() {
			return
		}
		if e := v.Elem(); e.Kind() == reflect.Float64 || e.Kind() == reflect.Float32 {
			c := reflect.New(e.Type()).Elem()
			c.Set(e)
			finite(c)
			if v.CanSet() {
				v.Set(c)
			}
			return
		}
		finite(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				finite(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return // json.RawMessage: text
		}
		for i := range v.Len() {
			finite(v.Index(i))
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			e := reflect.New(it.Value().Type()).Elem()
			e.Set(it.Value())
			finite(e)
			if e.Kind() == reflect.Interface || e.Kind() == reflect.Float64 || e.Kind() == reflect.Float32 {
				v.SetMapIndex(it.Key(), e)
			}
		}
	}
}
