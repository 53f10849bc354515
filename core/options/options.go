// Package options declares the settings of an analysis once: for each, the
// name the JSON and JavaScript APIs and the page's address use, the command
// line's flag, the page's label, the help, the kind of value and its
// limits. Every front end reads its settings through Parse, names them in
// its messages as its users type them (FrontEnd.Name), and lists them from
// All: the command line's flags, the HTTP API's query parameters, the
// JavaScript API's options and the page's form and address come from this
// table, so a setting reads and checks the same everywhere.
//
// It checks values and the rules between them (the service's throughput
// rules, a target pkcalc can model); it does not analyse, and it imports
// nothing of the engine, so the page can check its form without it.
package options

import (
	"strconv"
	"strings"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/provision"
)

// Kind is the type of an option's value.
type Kind uint8

const (
	Bool   Kind = iota // true or false (1 or 0); a checkbox
	Count              // a whole number of 0 or more
	Number             // a number of 0 or more
	Choice             // one of Choices
	Path               // a property path: /a/b
	Paths              // property paths separated by commas: /a/b,/c
	Keys               // partition key specs: several values, or one value of specs separated by ;
	Text               // free text: the workload
	Key                // one partition key spec
)

// FrontEnd is a way to give settings. An option lists those that take it.
type FrontEnd uint8

const (
	CLI          FrontEnd = 1 << iota // pkcalc analyze's flags
	API                               // the HTTP API's query parameters
	JS                                // the options of pkcalc.js's analyze
	Page                              // the page's form and its address
	Diagnose                          // pkcalc diagnose's flags (docs/DIAGNOSE.md)
	DiagnoseAPI                       // the query parameters of the HTTP API's POST /v1/diagnose
	DiagnosePage                      // the page's "Diagnose a container" form and its address
)

// Everywhere is every front end of the analysis.
const Everywhere = CLI | API | JS | Page

// Option is one setting.
type Option struct {
	Name  string // in the APIs and the page's address: targetGb
	Flag  string // on the command line, without the dashes: target-gb
	Kind  Kind
	Label string // the page's label, which its messages quote
	// Help is the command line's usage; a `word` in backquotes names the
	// flag's value (package flag).
	Help    string
	Default string   // the value when it is not given, as text; "" for none
	Choices []string // a Choice's values; "" among them when it may be given empty
	// Min is the least value taken (values are never below 0). Max is the
	// largest pkcalc takes (for Keys, how many keys), 0 for no limit, and
	// Over words it after "is more than": a format given Max as people
	// read it.
	Min, Max float64
	Over     string
	// File: on the command line the flag names a file, which holds the
	// value (queries) or is the input the option turns on (aggregates).
	File bool
	In   FrontEnd
}

// Largest targets and counts pkcalc models: a petabyte, a trillion
// documents, 65,536 physical partitions, 24 keys at once (beside the ones
// it suggests), a million distinct values kept exactly per key. They keep
// the bytes far from int64's end, a browser tab's memory in hand (each key
// keeps up to maxDistinct values and its sketches), and the growth a
// target makes the analysis model in seconds (10 PB took it close to a
// minute).
const (
	MaxTargetGB      = 1e6
	MaxTargetDocs    = 1e12
	MaxPartitions    = capacity.MaxPartitions
	MaxKeys          = 24
	MaxDistinctLimit = 1_000_000
)

// MaxWorkers is the most goroutines that read an input: more than the
// cores of any machine pkcalc is for. Past eight the reading waits for the
// analysis and ingest's maxInFlight bounds the chunks held, so a larger
// number costs no more memory; the browser starts at most 8 Web Workers
// (public/engine.js).
const MaxWorkers = 64

// DefaultMaxDistinct is how many distinct values each key keeps exactly
// when maxDistinct is not given.
const DefaultMaxDistinct = 50_000

// MaxExactValues is the most distinct values the keys named keep exactly
// in all: keys times maxDistinct. It is the default at the most keys (24
// times 50,000), which the 1 GiB the command line and the browser's engine
// may take hold (docs/PERFORMANCE.md, Memory): each value kept exactly
// takes some 500 bytes at its peak, as the keys finish, so 24 keys of a
// million values each took 11 GB. The keys pkcalc adds (the candidates it
// suggests, the workload's filter groupings) share what the named leave,
// each keeping at least MinAddedExact.
const MaxExactValues = MaxKeys * DefaultMaxDistinct

// ExactValueBytes is about what a value kept exactly takes at its peak,
// measured (docs/PERFORMANCE.md, Memory): 1,200,000 of them took 568 MB
// of heap on two cores.
const ExactValueBytes = 500

// MinAddedExact is the fewest values a key pkcalc adds keeps exactly when
// the keys named take all of MaxExactValues.
const MinAddedExact = 5_000

// Largest request rates and measured charges. The largest container
// pkcalc models serves 655,360,000 RU/s, and no operation costs less than
// 1 RU, so no container serves a billion operations of a kind a second;
// no single operation is charged ten million RU. Past them the sums of
// charges lose meaning (and, far past, overflow).
const (
	MaxRate   = 1e9
	MaxCharge = 1e7
)

// MaxWeight is the largest request weight pkcalc reads: a document's
// number at the weight field (--weight-field), or an aggregate row's
// requests. Weights are relative, so the bound only keeps their sums
// finite: a trillion documents (MaxTargetDocs) of 10^15 each, grown by any
// target, stay far below a double's 1.8e308, where weights of 1e308 had
// summed to +Inf and every share to NaN. A document's larger weight is
// read as MaxWeight, with a warning (WEIGHT_FIELD_CAPPED); an aggregate
// row with more requests is left out, as a problem of the input.
const MaxWeight = 1e15

const (
	overRate   = "pkcalc models (%s a second: more than the largest container serves)"
	overCharge = "pkcalc models (%s RU for one operation)"
)

// Traffic values: how requests spread over key values (partition.Traffic).
const (
	ByDocuments = "documents"
	Uniform     = "uniform"
	ByWeight    = "weighted"
)

// Output and input formats.
var (
	Formats      = []string{"text", "json", "markdown", "csv"}
	InputFormats = []string{"json", "csv"}
)

// All are the options, in the order the front ends list them.
var All = []Option{
	{Name: "keys", Flag: "key", Kind: Keys, Label: "Keys to measure", In: Everywhere | Diagnose | DiagnoseAPI | DiagnosePage, Max: MaxKeys,
		Help: "a `key` to measure (repeatable): /a/b for a hash key, /a,/b,/c for a hierarchical key, /a+/ts:day or /a+hash(/id)%8 for a synthetic key; with diagnose, a key to replay the logged traffic onto"},
	{Name: "currentKey", Flag: "current-key", Kind: Key, Label: "The container's key", In: Diagnose | DiagnoseAPI | DiagnosePage,
		Help: "the container's partition key, as --key writes keys: the logged keys are its values (required with --ru-log or --storage-log)"},
	{Name: "ranges", Flag: "ranges", Kind: Bool, Label: "Partition key ranges", In: Diagnose | DiagnoseAPI | DiagnosePage, File: true,
		Help: "the container's partition key ranges from `FILE`: the pkranges feed's JSON, or its array"},
	{Name: "ruLog", Flag: "ru-log", Kind: Bool, Label: "RU per logical key (log)", In: Diagnose | DiagnoseAPI | DiagnosePage, File: true,
		Help: "request units per logical partition key from `FILE`: CDBPartitionKeyRUConsumption (or AzureDiagnostics' PartitionKeyRUConsumption) exported from Log Analytics as CSV or JSON"},
	{Name: "storageLog", Flag: "storage-log", Kind: Bool, Label: "Storage per logical key (log)", In: Diagnose | DiagnoseAPI | DiagnosePage, File: true,
		Help: "storage per logical partition key from `FILE`: CDBPartitionKeyStatistics (or AzureDiagnostics' PartitionKeyStatistics) exported as CSV or JSON"},
	{Name: "metrics", Flag: "metrics", Kind: Bool, Label: "Normalized RU consumption", In: Diagnose | DiagnoseAPI | DiagnosePage, File: true,
		Help: "NormalizedRUConsumption per partition key range from `FILE`: the JSON of az monitor metrics list split by PartitionKeyRangeId"},
	{Name: "noSuggest", Flag: "no-suggest", Kind: Bool, Label: "Only my keys", In: Everywhere,
		Help: "measure only the keys named with --key"},
	{Name: "hashVersion", Flag: "hash-version", Kind: Choice, Label: "Hash version", In: Everywhere | Diagnose | DiagnoseAPI | DiagnosePage, Default: "2", Choices: []string{"1", "2"},
		Help: "hash `version` of the container: 1 or 2"},
	{Name: "partitions", Flag: "partitions", Kind: Count, Label: "Physical partitions", In: Everywhere, Max: MaxPartitions, Over: "pkcalc models (%s)",
		Help: "physical `partitions` to start from (default: from the throughput)"},
	{Name: "ru", Flag: "ru", Kind: Count, Label: "Throughput (RU/s)", In: Everywhere | Diagnose | DiagnoseAPI | DiagnosePage, Max: MaxPartitions * capacity.PartitionMaxRU,
		Over: "pkcalc models (%s RU/s: " + human.Count(MaxPartitions) + " physical partitions of " + human.Count(capacity.PartitionMaxRU) + " RU/s)",
		Help: "provisioned throughput in `RU/s` (the autoscale maximum with --autoscale; default: the least the service allows)"},
	{Name: "autoscale", Flag: "autoscale", Kind: Bool, Label: "Autoscale", In: Everywhere | Diagnose | DiagnoseAPI | DiagnosePage,
		Help: "the throughput is autoscale"},
	{Name: "targetGb", Flag: "target-gb", Kind: Number, Label: "Expected size (GB)", In: Everywhere, Max: MaxTargetGB, Over: "pkcalc models (%s GB)",
		Help: "expected total size in `GB`, to project the key to"},
	{Name: "targetDocs", Flag: "target-docs", Kind: Number, Label: "Expected documents", In: Everywhere, Max: MaxTargetDocs, Over: "pkcalc models (%s documents)",
		Help: "expected total `documents`, to project the key to (1e9 for a billion)"},
	{Name: "growthGbPerDay", Flag: "growth-gb-per-day", Kind: Number, Label: "Growth (GB / day)", In: Everywhere,
		Help: "growth in `GB` per day; with --retention-days, projects to growth x retention"},
	{Name: "retentionDays", Flag: "retention-days", Kind: Number, Label: "Kept for (days)", In: Everywhere,
		Help: "`days` documents are kept (a TTL), with --growth-gb-per-day"},
	{Name: "readsPerSecond", Max: MaxRate, Over: overRate, Flag: "reads-per-second", Kind: Number, Label: "Point reads / s", In: Everywhere,
		Help: "point `reads` per second, added to those of --queries"},
	{Name: "writesPerSecond", Max: MaxRate, Over: overRate, Flag: "writes-per-second", Kind: Number, Label: "Writes / s", In: Everywhere,
		Help: "`writes` (creates, replaces, upserts) per second, added to those of --queries"},
	{Name: "queriesPerSecond", Max: MaxRate, Over: overRate, Flag: "queries-per-second", Kind: Number, Label: "Queries / s", In: Everywhere,
		Help: "`queries` per second (when --queries lists queries, their weights are scaled to this rate instead)"},
	{Name: "readRu", Max: MaxCharge, Over: overCharge, Flag: "read-ru", Kind: Number, Label: "RU per read", In: Everywhere,
		Help: "`RU` per point read (default: from the average document size)"},
	{Name: "writeRu", Max: MaxCharge, Over: overCharge, Flag: "write-ru", Kind: Number, Label: "RU per write", In: Everywhere,
		Help: "`RU` per write (default: from the average document size)"},
	{Name: "queryRu", Max: MaxCharge, Over: overCharge, Flag: "query-ru", Kind: Number, Label: "RU per query", In: Everywhere,
		Help: "`RU` per query (default: from the average document size)"},
	{Name: "traffic", Flag: "traffic", Kind: Choice, Label: "Requests per key value", In: Everywhere, Choices: []string{"", ByDocuments, Uniform, ByWeight},
		Help: "how requests spread over key values: documents, uniform or weighted (default: documents, or weighted with --weight-field)"},
	{Name: "timeField", Flag: "time-field", Kind: Path, Label: "Time field", In: Everywhere,
		Help: "`path` of each document's time (default: detected, such as /_ts or /timestamp)"},
	{Name: "weightField", Flag: "weight-field", Kind: Path, Label: "Weight field", In: Everywhere,
		Help: "`path` of a number weighting each document's requests"},
	{Name: "newValues", Flag: "new-values", Kind: Paths, Label: "Values that keep coming", In: Everywhere,
		Help: "`paths`, separated by commas, whose values keep coming as the data grows (new customers, users, tenants, devices): each value keeps the documents the input shows, and there are as many more values as documents (default: as the input's own repeats suggest; docs/REPORT.md, projection)"},
	{Name: "maxDistinct", Flag: "max-distinct", Kind: Count, Label: "Values counted exactly per key", In: Everywhere, Max: MaxDistinctLimit,
		Over: "pkcalc keeps exactly per key (%s); past it, values are counted by sketches anyway",
		Help: "distinct `values` counted exactly per key before estimating (default 50,000)"},
	{Name: "queries", Flag: "queries", Kind: Text, Label: "Queries and operations", In: Everywhere, File: true,
		Help: "the application's queries and operations from `FILE`: one query or operation per line with an optional leading rate per second, or JSON operations (docs/QUERIES.md)"},
	{Name: "aggregates", Flag: "aggregates", Kind: Bool, Label: "The input is per-key aggregates", In: Everywhere, File: true,
		Help: "read per-key aggregates (CSV or JSON from pkcalc aggregate-query) from `FILE` instead of documents; needs one --key"},
	{Name: "docBytes", Flag: "doc-bytes", Kind: Count, Label: "Average document size (bytes)", In: Everywhere, Default: "1024", Min: 1,
		Help: "average document size in `bytes`, for aggregates without a bytes column"},
	{Name: "format", Flag: "format", Kind: Choice, Label: "Format", In: CLI | API | Diagnose | DiagnoseAPI, Choices: Formats,
		Help: "output `format`: text, json, markdown or csv (diagnose: text, json or markdown; default: text on the command line, json from the HTTP API)"},
	{Name: "emit", Flag: "emit", Kind: Choice, Label: "Code to create the container", In: CLI, Choices: provision.IDs(),
		Help: "print only the `code` that creates the container of the recommended key (with --no-suggest, of the first --key), as the page shows it: " +
			list(provision.IDs())},
	{Name: "workers", Flag: "workers", Kind: Count, Label: "Workers", In: CLI | API | JS, Min: 1, Max: MaxWorkers, Over: "pkcalc starts (%s at most)",
		Help: "how many goroutines (in the browser, Web Workers) read JSON Lines and JSON arrays of documents, from the third document on; the report is the same for any `number` (default: one per core)"},
	{Name: "inputFormat", Flag: "input-format", Kind: Choice, Label: "Input format", In: CLI | JS, Choices: InputFormats,
		Help: "`format` of the documents: json or csv (default: each file by its name, csv for .csv and .tsv, json for the rest and for standard input)"},
}

// Lookup is the option named name.
func Lookup(name string) (Option, bool) {
	for _, o := range All {
		if o.Name == name {
			return o, true
		}
	}
	return Option{}, false
}

// Names are the names of the options fe takes, in All's order.
func Names(fe FrontEnd) []string {
	var out []string
	for _, o := range All {
		if o.In&fe != 0 {
			out = append(out, o.Name)
		}
	}
	return out
}

// Name is how fe's users spell the option named name, for its messages:
// --target-gb on the command line (--key for keys, given one at a time),
// the quoted label on the page, targetGb in the APIs.
func (fe FrontEnd) Name(name string) string {
	o, ok := Lookup(name)
	switch {
	case !ok:
		return name
	case fe == CLI || fe == Diagnose:
		return "--" + o.Flag
	case fe == Page || fe == DiagnosePage:
		return strconv.Quote(o.Label)
	}
	return o.Name
}

// list words values as "a, b or c".
func list(values []string) string {
	var vs []string
	for _, v := range values {
		if v != "" {
			vs = append(vs, v)
		}
	}
	if len(vs) < 2 {
		return strings.Join(vs, "")
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " or " + vs[len(vs)-1]
}
