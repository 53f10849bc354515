// Package diagnose judges a live Azure Cosmos DB container from what it
// already exports, as package telemetry reads it: its partition key ranges,
// the request units and storage its diagnostic logs charge to each logical
// partition key, and the normalized RU consumption of each range. It
// places every logged key on the real ranges by its effective partition
// key, finds the hot physical partition and why it is hot (one key, a
// crowded range after an uneven split, or a hot spot that moves with
// time), checks its own placement against the service's, dates each
// key's way to 20 GB, replays the measured traffic and storage onto other
// keys through the documents' joint distribution of current and candidate
// values, and says what to do, in order of cost.
//
// It reads no files: callers bring records and documents. The result is a
// report.Diagnosis, the JSON contract of docs/DIAGNOSE.md.
package diagnose

import (
	"fmt"
	"iter"
	"math"
	"slices"
	"strings"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/core/telemetry"
)

// Input is what a diagnosis reads. Every part is optional; each part of the
// diagnosis is made from the parts it needs and says what it lacked.
type Input struct {
	Ranges  []telemetry.Range
	RU      []telemetry.RU
	Storage []telemetry.Storage
	Metrics []telemetry.Metric
	// Exports say how each file was read, problems included; they are
	// echoed in the diagnosis.
	Exports []report.ExportRead
	// Current is the container's key, needed to place the logged keys;
	// Kind "" when it is not given.
	Current key.Spec
	// Candidates are the keys to replay the traffic onto; with none, the
	// diagnosis suggests some.
	Candidates []key.Spec
	Version    epk.Version // the container's hash version: V1 or V2
	Throughput capacity.Throughput
	// Documents are a sample of the container's items, each with its size
	// in bytes, that give the joint distribution of current and candidate
	// values; nil for none.
	Documents iter.Seq2[*jsontree.Value, int]
	// Account and ResourceGroup name the account in the commands; the
	// database and container come from the logs.
	Account, ResourceGroup string
}

// Bounds on what a diagnosis keeps and lists.
const (
	// MaxErrors is the most problems an export lists (ExportRead.Errors).
	MaxErrors = 100
	// MaxListed is the most keys a partition lists by RU and by size.
	MaxListed = 10
	// MaxMismatches is the most disagreeing pairs listed.
	MaxMismatches = 100
	// MaxPairs is the most (current value, candidate value) pairs the
	// documents' joint distribution keeps, over all candidates: at about
	// 200 bytes each, 200 MB. Documents past it still count for the pairs
	// already kept; a warning says how many were left out.
	MaxPairs = 1_000_000
)

// Warning codes of a diagnosis.
const (
	NoCurrentKey     = "NO_CURRENT_KEY"    // the logs cannot be placed: no --current-key
	NoThroughput     = "NO_THROUGHPUT"     // no RU/s: shares, throttling and requirements are not known
	NoRanges         = "NO_RANGES"         // the partitions are known only by the ids the logs name
	BinnedLog        = "BINNED_LOG"        // the RU log was exported in bins of a minute or more: RU/s are averages
	PartialRU        = "PARTIAL_RU"        // the RU log covers point operations, queries and stored procedures only
	SampledStorage   = "SAMPLED_STORAGE"   // the storage log lists only the largest keys, estimated by sampling
	UnlistedRanges   = "UNLISTED_RANGES"   // the logs name ranges the ranges feed does not list
	PairsCapped      = "PAIRS_CAPPED"      // the documents held more pairs than MaxPairs
	NoReplay         = "NO_REPLAY"         // a candidate could not be replayed without documents
	CandidateMissing = "CANDIDATE_MISSING" // most documents lack a candidate's path
	ManyPartitions   = "MANY_PARTITIONS"   // redistribution past 50 partitions is reported to fail
	KeyAtLimit       = "KEY_AT_LIMIT"      // a logged key holds 20 GB
	KeyOverAlert     = "KEY_OVER_ALERT"    // a logged key is past the 70 % alert line
)

// Diagnose makes the diagnosis of in.
func Diagnose(in Input) *report.Diagnosis {
	if in.Version != epk.V1 {
		in.Version = epk.V2
	}
	d := &report.Diagnosis{
		SchemaVersion: report.DiagnosisSchemaVersion,
		Generator:     "pkcalc",
		Settings: report.DiagnosisSettings{
			HashVersion: int(in.Version), RU: in.Throughput.RU, Autoscale: in.Throughput.Autoscale, Keys: []string{},
		},
		Warnings:   []report.Notice{},
		Partitions: []report.PartitionLoad{},
		Keys:       []report.KeyStore{},
		WhatIf:     []report.WhatIf{},
		Actions:    []report.Action{},
	}
	if in.Current.Kind != "" {
		d.Settings.CurrentKey = in.Current.String()
	}
	s := newState(in, d)
	s.readRU()
	s.readStorage()
	s.readMetrics()
	s.place()
	s.partitions()
	s.hotSpot()
	s.calibrate()
	s.storage()
	s.whatIf()
	s.actions()
	s.warnings()
	d.Inputs = s.inputs()
	return d
}

// state is a diagnosis being made.
type state struct {
	in Input
	d  *report.Diagnosis

	ranges []telemetry.Range // sorted by their bounds
	parts  []*part           // the ranges, then the ids only the logs name
	byID   map[string]int    // a part's index by its id

	keys   []*logged      // every key logged, in the order first met
	keyBy  map[string]int // a key's index by its identity
	byText map[string]int // ... and by its text as logged, which rows of a key share
	ruKey  []int          // the key of each RU row
	stKey  []int          // the key of each storage row

	cells   []cell // RU per key, partition, region and time bin
	grain   int64  // seconds per bin of the RU log
	regions []string
	first   int64 // the first and last bin logged, Unix seconds
	last    int64
	share   float64 // each partition's share of the throughput, RU/s; 0 unknown

	database, collection string // as the logs name them (the most frequent)

	hottest int // the hottest part's index; -1 none
	cause   string
	hotKey  int // the hot spot's leading key; -1 none

	limitKey int    // the logged key nearest 20 GB; -1 none
	docs     *joint // the documents read; nil none
}

// logged is a logical partition key the logs name.
type logged struct {
	text   string // as first logged
	values []epk.Value
	id     string // identity: the components, as JSON
	epk    string // under the current key; "" when it cannot be placed
	placed int    // the part pkcalc places it on; -1 none
	why    string // why it cannot be placed

	ru       float64 // RU in the window
	sizeKb   float64 // latest logged size; -1 when not in the storage log
	sizeAt   int64
	sizePart string // the range its latest storage row names
	series   []sizePoint
}

type sizePoint struct {
	at     int64 // Unix seconds
	sizeKb float64
}

// cell is the RU one key drew on one partition in one region and bin.
type cell struct {
	key    int32
	part   int32
	region int16
	bin    int64 // Unix seconds of the bin's start
	ru     float64
}

// part is a physical partition.
type part struct {
	id     string
	listed bool
	rng    epk.Range
	parent []string
	space  float64 // share of the key space; 0 when unknown
	frac   float64 // share of the throughput the feed gives it (throughputFraction); 0 none
	share  float64 // its RU/s; 0 unknown

	load   *report.PartitionLoad
	bins   map[binKey]float64 // RU per region and bin
	normal []telemetry.Metric
}

type binKey struct {
	region int16
	bin    int64
}

func newState(in Input, d *report.Diagnosis) *state {
	s := &state{in: in, d: d, byID: map[string]int{}, keyBy: map[string]int{}, byText: map[string]int{}, hottest: -1, hotKey: -1, limitKey: -1, grain: 1}
	s.ranges = slices.Clone(in.Ranges)
	slices.SortStableFunc(s.ranges, func(a, b telemetry.Range) int { return strings.Compare(a.Range.MinInclusive, b.Range.MinInclusive) })
	for _, r := range s.ranges {
		if _, dup := s.byID[r.ID]; dup {
			continue
		}
		p := &part{id: r.ID, listed: true, rng: r.Range, parent: r.Parents, frac: r.ThroughputFraction, bins: map[binKey]float64{}}
		p.space = keySpace(in.Version, r.Range)
		s.byID[r.ID] = len(s.parts)
		s.parts = append(s.parts, p)
	}
	return s
}

// keySpace is the fraction of the key space r covers: V2 and MultiHash
// bounds by their first 32 digits, V1 bounds by the hash they start with.
func keySpace(v epk.Version, r epk.Range) float64 {
	if v == epk.V1 {
		lo, ok1 := epk.HeadNumberV1(r.MinInclusive)
		hi, ok2 := epk.HeadNumberV1(r.MaxExclusive)
		if !ok1 || !ok2 || hi <= lo {
			return 0
		}
		return (hi - lo) / (1 << 32)
	}
	lo, hi := epk.PositionV2(r.MinInclusive), epk.PositionV2(r.MaxExclusive)
	if math.IsNaN(lo) || math.IsNaN(hi) || hi <= lo {
		return 0
	}
	return hi - lo
}

// partOf is the index of the part with id, added unlisted when the ranges
// do not list it.
func (s *state) partOf(id string) int {
	if i, ok := s.byID[id]; ok {
		return i
	}
	s.byID[id] = len(s.parts)
	s.parts = append(s.parts, &part{id: id, bins: map[binKey]float64{}})
	return len(s.parts) - 1
}

// keyOf is the index of the logged key k, added when new.
func (s *state) keyOf(k telemetry.Key) int {
	if i, ok := s.byText[k.Text]; ok {
		return i
	}
	id := valueID(k.Values)
	if i, ok := s.keyBy[id]; ok {
		s.byText[k.Text] = i
		return i
	}
	s.byText[k.Text] = len(s.keys)
	s.keyBy[id] = len(s.keys)
	s.keys = append(s.keys, &logged{text: k.Text, values: k.Values, id: id, placed: -1, sizeKb: -1})
	return len(s.keys) - 1
}

// usableRange reports whether a logged range id names a range: users find
// "undefined" logged in some rows (MicrosoftDocs/azure-docs issue 81636).
func usableRange(id string) bool {
	id = strings.TrimSpace(id)
	return id != "" && !strings.EqualFold(id, "undefined") && !strings.EqualFold(id, "null")
}

func (s *state) warn(code, msg string) {
	s.d.Warnings = append(s.d.Warnings, report.Notice{Code: code, Message: msg})
}

// round rounds f to n decimals.
func round(f float64, n int) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return f
	}
	p := math.Pow(10, float64(n))
	r := math.Round(f*p) / p
	if math.IsInf(r, 0) {
		return f
	}
	return r
}

func ptr[T any](v T) *T { return &v }

// warnings says what the diagnosis lacked, once its parts are made.
func (s *state) warnings() {
	s.storageWarnings()
	if len(s.cells) > 0 && s.in.Throughput.RU == 0 {
		s.warn(NoThroughput, "no throughput (--ru): each partition's share, its throttled seconds and the RU/s each key would need are not known")
	}
	if len(s.ranges) == 0 && len(s.keys) > 0 {
		s.warn(NoRanges, "no ranges feed (--ranges): the partitions are known only by the ids the logs name, their share of the key space is not known, and no logged key is checked against pkcalc's placement")
	}
	var unlisted []string
	for _, p := range s.parts {
		if !p.listed && p.id != "undefined" && len(s.ranges) > 0 {
			unlisted = append(unlisted, p.id)
		}
	}
	if len(unlisted) > 0 {
		s.warn(UnlistedRanges, fmt.Sprintf("the logs name %s %s that the ranges feed does not list (%s): ranges split or merged since, or the feed of another container; their rows are kept under those ids",
			human.Count(int64(len(unlisted))), human.Plural(int64(len(unlisted)), "range", "ranges"), strings.Join(unlisted[:min(len(unlisted), 10)], ", ")))
	}
}
