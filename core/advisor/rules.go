package advisor

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/report"
)

// Scoring is a list of rules, each a small function in the manner of an
// analysis pass: it looks at one concern of the evaluated key and returns
// the line of the score's breakdown it gives (if any), its findings, and
// the most the key may score because of them. score runs them in order and
// weighs the lines that were measured.
//
//	rules_data.go   distinct values, spread of data, room to grow, key present and valid, key values
//	rules_load.go   spread of requests and throttling, the first day
//	rules_time.go   writes over time, monotonic keys
//	queries.go      the application's operations

// A verdict is what one rule says of a key.
type verdict struct {
	component *Component // nil: the rule gives findings only
	findings  []Finding
	cap       int // the most the key may score; 0 for no cap
}

// rules run in this order; the breakdown lists their components so.
var rules = []func(*Evaluation) verdict{
	distinctValues,
	dataSpread,
	requestSpread,
	roomToGrow,
	writesOverTime,
	keyPresent,
	queryRouting,
	keyValues,
	dayOneFit,
}

// Component is one line of a score's breakdown.
type Component struct {
	Name   string
	Weight int // share of the score, out of 100; 0 when not measured
	Score  int // 0-100
	// Measured is false when there was nothing to measure the component
	// by (no time field, no workload): it then scores and weighs nothing,
	// and Note says why.
	Measured bool
	Note     string
}

// The components' names, and their weights out of 100: without the
// application's operations, and with them, when whether they reach one
// partition weighs as much as how evenly the data spreads.
const (
	distinctName = "Distinct values"
	dataName     = "Spread of data"
	requestsName = "Spread of requests"
	neededName   = "Throughput needed"
	roomName     = "Room to grow"
	writesName   = "Writes over time"
	presentName  = "Key present and valid"
	queriesName  = "Queries"
)

var weights = map[string][2]int{
	distinctName: {25, 20},
	dataName:     {20, 15},
	requestsName: {20, 15},
	neededName:   {20, 15},
	roomName:     {15, 15},
	writesName:   {10, 10},
	presentName:  {10, 5},
	queriesName:  {0, 20},
}

// component starts a breakdown line with its weight for e.
func (e *Evaluation) component(name string) *Component {
	w := weights[name][0]
	if e.Queries.Active {
		w = weights[name][1]
	}
	return &Component{Name: name, Weight: w, Measured: true}
}

// unmeasured marks c as not measured, and why.
func unmeasured(c *Component, why string) {
	c.Measured, c.Weight, c.Score, c.Note = false, 0, 0, "not measured: "+why
}

// Severity of a finding.
type Severity string

const (
	Critical Severity = "critical" // the key will fail: writes rejected or throttled at the target
	Warning  Severity = "warning"  // the key will cost or hurt
	Info     Severity = "info"     // worth knowing
)

// Finding is one observation, with a stable code.
type Finding struct {
	Code     string
	Severity Severity
	Message  string
}

// Finding codes.
const (
	LowCardinality        = "LOW_CARDINALITY"
	HotPartition          = "HOT_PARTITION"
	LogicalPartitionLimit = "LOGICAL_PARTITION_LIMIT"
	Monotonic             = "MONOTONIC"
	MissingValues         = "MISSING_VALUES"
	NotTimeValues         = "NOT_TIME_VALUES"
	InvalidValues         = "INVALID_VALUES"
	DuplicateIDs          = "DUPLICATE_IDS"
	KeyTooLong            = "KEY_TOO_LONG"
	TruncationCollision   = "TRUNCATION_COLLISION"
	ImpreciseNumbers      = "IMPRECISE_NUMBERS"
	Throttled             = "THROTTLED"
	IDKey                 = "ID_KEY"
	CrossPartitionQueries = "CROSS_PARTITION_QUERIES"
	KeyUpdated            = "KEY_UPDATED"
	ReadWithoutKey        = "POINT_READ_WITHOUT_KEY"
	TransactionSpansKeys  = "TRANSACTION_SPANS_KEYS"
	EstimatedFigures      = "ESTIMATED"
	DayOneSpread          = "DAY_ONE"
	// CompositeKey says why a hierarchical or synthetic key ranks as it
	// does against the plain keys of its own paths (rank.go).
	CompositeKey = "COMPOSITE_KEY"
)

// grade turns a score into a letter, by report.Grades: A from 85, B from
// 70, C from 55, D from 40, else F.
func grade(score int) string { return report.GradeOf(score) }

// score runs the rules and weighs their components.
func (e *Evaluation) score() {
	capAt := 100
	e.Breakdown, e.Findings = nil, nil
	for _, r := range rules {
		v := r(e)
		if v.component != nil {
			e.Breakdown = append(e.Breakdown, *v.component)
		}
		e.Findings = append(e.Findings, v.findings...)
		if v.cap > 0 {
			capAt = min(capAt, v.cap)
		}
	}
	if inv := e.invalidShare(); inv > 0 {
		// Cosmos DB rejects documents whose key is an object or an array,
		// so they are stored nowhere: the key is worth only as much as the
		// share it can store, and one most documents cannot use scores at
		// the bottom.
		capAt = min(capAt, int(math.Round(40*(1-inv))))
		for i := range e.Breakdown {
			c := &e.Breakdown[i]
			if c.Name == presentName || c.Name == queriesName || !c.Measured {
				continue
			}
			c.Score = int(math.Round(float64(c.Score) * (1 - inv)))
			if e.Dist.Documents == e.Dist.Invalid {
				c.Note = "no document has a value Cosmos DB accepts as a key"
			}
		}
	}
	var total, weight float64
	for _, c := range e.Breakdown {
		total += float64(c.Weight * c.Score)
		weight += float64(c.Weight)
	}
	if weight > 0 {
		total /= weight
	}
	e.Uncapped = int(math.Round(total))
	e.Score = min(e.Uncapped, capAt)
	e.Grade = grade(e.Score)
	slices.SortStableFunc(e.Findings, func(a, b Finding) int { return severityRank(a.Severity) - severityRank(b.Severity) })
}

// invalidShare is the share of documents whose key Cosmos DB rejects.
func (e *Evaluation) invalidShare() float64 {
	return float64(e.Dist.Invalid) / math.Max(float64(e.Dist.Documents), 1)
}

func severityRank(s Severity) int {
	switch s {
	case Critical:
		return 0
	case Warning:
		return 1
	}
	return 2
}

// shareScore rates the largest share one key value takes: 1 % or less is
// full marks, half or more is none, on a log scale between.
func shareScore(s float64) int {
	if s <= 0.01 {
		return 100
	}
	return pct(1 - math.Log(s/0.01)/math.Log(50))
}

func pct(f float64) int {
	if math.IsNaN(f) {
		return 0
	}
	return int(math.Round(100 * math.Max(0, math.Min(1, f))))
}

// ValueText writes a key value for people: JSON for one component, a JSON
// array for several; undefined as "undefined".
func ValueText(vals []epk.Value) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = ComponentText(v)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// ComponentText writes one key component as JSON ("undefined" when missing).
func ComponentText(v epk.Value) string {
	switch v.Kind {
	case epk.String:
		return strconv.Quote(v.Str)
	case epk.Number:
		return strconv.FormatFloat(v.Num, 'g', -1, 64)
	case epk.True:
		return "true"
	case epk.False:
		return "false"
	case epk.Null:
		return "null"
	}
	return "undefined"
}

func trimFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// times writes a factor: 1.5×, 12×, 3,931,162×.
func times(f float64) string {
	if f < 10 {
		return strconv.FormatFloat(f, 'f', 1, 64) + "×"
	}
	return human.Count(human.Int(math.Round(f))) + "×"
}

// ru writes RU/s for people, rounded up: the least that serves the demand.
func ru(f float64) string { return human.Count(human.Int(math.Ceil(f))) + " RU/s" }

// suffixModulus is the N of a synthetic key's computed suffix
// (hash(/path)%N), or 0 if it has none.
func suffixModulus(spec key.Spec) int {
	for _, t := range spec.Terms {
		if t.Modulus > 0 {
			return t.Modulus
		}
	}
	return 0
}
