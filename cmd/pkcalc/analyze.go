package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/pkcalc/pkcalc/core/advisor"
	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/partition"
	"github.com/pkcalc/pkcalc/core/paths"
	"github.com/pkcalc/pkcalc/core/report"
)

// keyFlags collects repeated --key flags.
type keyFlags []key.Spec

func (k *keyFlags) String() string { return "" }
func (k *keyFlags) Set(s string) error {
	spec, err := key.Parse(s)
	if err != nil {
		return err
	}
	*k = append(*k, spec)
	return nil
}

// analyzeFlags are the analysis settings, shared by analyze's inputs.
type analyzeFlags struct {
	fs                       *flag.FlagSet
	keys                     keyFlags
	hashVersion, partitions  int
	ru                       int
	autoscale, noSuggest     bool
	targetGB                 float64
	targetDocs               int64
	reads, writes, queries   float64
	readRU, writeRU, queryRU float64
	traffic                  string
	timeField, weightField   string
	maxDistinct              int
	format                   string
	aggregates               string
	docBytes                 int64
}

func newAnalyzeFlags(stderr io.Writer) *analyzeFlags {
	f := &analyzeFlags{fs: flag.NewFlagSet("analyze", flag.ContinueOnError)}
	fs := f.fs
	fs.SetOutput(stderr)
	fs.Var(&f.keys, "key", "a key to measure (repeatable): /a/b for a hash key, /a,/b,/c for a hierarchical key, /a+/ts:day or /a+hash(/id)%8 for a synthetic key")
	fs.IntVar(&f.hashVersion, "hash-version", 2, "hash `version` of the container: 1 or 2")
	fs.IntVar(&f.partitions, "partitions", 0, "physical partitions to start from (default: from the throughput)")
	fs.IntVar(&f.ru, "ru", 0, "provisioned throughput in `RU/s` (the autoscale maximum with --autoscale; default: the least the service allows)")
	fs.BoolVar(&f.autoscale, "autoscale", false, "the throughput is autoscale")
	fs.Float64Var(&f.targetGB, "target-gb", 0, "expected total size in `GB`, to project the key to")
	fs.Int64Var(&f.targetDocs, "target-docs", 0, "expected total `documents`, to project the key to")
	fs.BoolVar(&f.noSuggest, "no-suggest", false, "measure only the keys named with --key")
	fs.Float64Var(&f.reads, "reads", 0, "point reads per second")
	fs.Float64Var(&f.writes, "writes", 0, "writes (creates, replaces, upserts) per second")
	fs.Float64Var(&f.queries, "queries", 0, "single-partition queries per second")
	fs.Float64Var(&f.readRU, "read-ru", 0, "RU per point read (default: from the average document size)")
	fs.Float64Var(&f.writeRU, "write-ru", 0, "RU per write (default: from the average document size)")
	fs.Float64Var(&f.queryRU, "query-ru", 0, "RU per query (default: from the average document size)")
	fs.StringVar(&f.traffic, "traffic", "", "how requests spread over key values: documents, uniform or weighted (default: documents, or weighted with --weight-field)")
	fs.StringVar(&f.timeField, "time-field", "", "`path` of each document's time (default: detected, such as /_ts or /timestamp)")
	fs.StringVar(&f.weightField, "weight-field", "", "`path` of a number weighting each document's requests")
	fs.IntVar(&f.maxDistinct, "max-distinct", 0, "distinct values counted exactly per key before estimating (default 50,000)")
	fs.StringVar(&f.format, "format", "text", "output `format`: text, json, markdown or csv")
	fs.StringVar(&f.aggregates, "aggregates", "", "read per-key aggregates (CSV or JSON from pkcalc aggregate-query) from `FILE` instead of documents; needs one --key")
	fs.Int64Var(&f.docBytes, "doc-bytes", 1024, "average document size in `bytes`, for aggregates without a bytes column")
	return f
}

// options turns the flags into report options, or says what is wrong.
func (f *analyzeFlags) options() (report.Options, error) {
	o := report.Options{Keys: f.keys, NoSuggest: f.noSuggest, Partitions: f.partitions, MaxDistinct: f.maxDistinct}
	switch f.hashVersion {
	case 1:
		o.HashVersion = epk.V1
	case 2:
		o.HashVersion = epk.V2
	default:
		return o, fmt.Errorf("--hash-version must be 1 or 2, not %d", f.hashVersion)
	}
	for _, k := range f.keys {
		if k.Kind == key.MultiHash && f.hashVersion == 1 {
			return o, fmt.Errorf("--key %s is hierarchical, which needs hash version 2", k)
		}
	}
	if f.noSuggest && len(f.keys) == 0 {
		return o, errors.New("--no-suggest needs at least one --key")
	}
	if f.partitions < 0 || f.ru < 0 || f.targetGB < 0 || f.targetDocs < 0 || f.reads < 0 || f.writes < 0 || f.queries < 0 || math.IsNaN(f.targetGB) {
		return o, errors.New("--partitions, --ru, --target-gb, --target-docs and the rates cannot be negative")
	}
	if f.partitions > 1<<20 {
		return o, fmt.Errorf("--partitions %d is more than pkcalc models (1,048,576)", f.partitions)
	}
	o.Throughput = capacity.Throughput{RU: f.ru, Autoscale: f.autoscale}
	o.TargetBytes = int64(f.targetGB * (1 << 30))
	o.TargetDocs = f.targetDocs
	o.Workload = advisor.Workload{Reads: f.reads, Writes: f.writes, Queries: f.queries}
	if f.readRU > 0 || f.writeRU > 0 || f.queryRU > 0 {
		c := capacity.DefaultCosts(1024)
		if f.readRU > 0 {
			c.PointRead = f.readRU
		}
		if f.writeRU > 0 {
			c.Write = f.writeRU
		}
		if f.queryRU > 0 {
			c.Query = f.queryRU
		}
		o.Workload.Costs = &c
	}
	switch partition.Traffic(f.traffic) {
	case "", partition.ByDocuments, partition.Uniform, partition.ByWeight:
		o.Workload.Traffic = partition.Traffic(f.traffic)
	default:
		return o, fmt.Errorf("--traffic must be documents, uniform or weighted, not %q", f.traffic)
	}
	var err error
	if f.timeField != "" {
		if o.TimePath, err = paths.Parse(f.timeField); err != nil {
			return o, fmt.Errorf("--time-field: %w", err)
		}
	}
	if f.weightField != "" {
		if o.WeightPath, err = paths.Parse(f.weightField); err != nil {
			return o, fmt.Errorf("--weight-field: %w", err)
		}
		if o.Workload.Traffic == "" {
			o.Workload.Traffic = partition.ByWeight
		}
	}
	switch f.format {
	case "text", "json", "markdown", "csv":
	default:
		return o, fmt.Errorf("--format must be text, json, markdown or csv, not %q", f.format)
	}
	return o, nil
}

func runAnalyze(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := newAnalyzeFlags(stderr)
	f.fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: pkcalc analyze [flags] FILE...\n\nMeasures candidate partition keys over the documents in FILE (- for standard input; several files are read as one input) and ranks them.\n\nFlags:")
		f.fs.PrintDefaults()
	}
	files, err := parse(f.fs, args)
	if err != nil {
		return 2
	}
	opts, err := f.options()
	if err != nil {
		fmt.Fprintf(stderr, "pkcalc analyze: %v\n", err)
		return 2
	}
	if len(files) == 0 && f.aggregates == "" {
		f.fs.Usage()
		return 2
	}
	if isTerminal(stderr) {
		opts.Progress = func(p report.Progress) {
			fmt.Fprintf(stderr, "\rpkcalc: read %s, %s documents ", human.Bytes(p.Bytes), human.Count(int64(p.Documents)))
		}
	}

	var rep *report.Report
	if f.aggregates != "" {
		if len(f.keys) != 1 {
			fmt.Fprintln(stderr, "pkcalc analyze: --aggregates needs exactly one --key: the key the aggregates were grouped by")
			return 2
		}
		src, done, err := open(f.aggregates, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "pkcalc analyze: %v\n", err)
			return 1
		}
		rep, err = analyzeAggregates(src, f.keys[0], opts, f.docBytes, stderr)
		done()
		if err != nil {
			fmt.Fprintf(stderr, "pkcalc analyze: %v\n", err)
			return 1
		}
	} else {
		src, done, err := openAll(files, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "pkcalc analyze: %v\n", err)
			return 1
		}
		rep, err = report.Analyze(src, opts)
		done()
		if opts.Progress != nil {
			fmt.Fprintln(stderr)
		}
		if err != nil {
			fmt.Fprintf(stderr, "pkcalc analyze: reading: %v\n", err)
			return 1
		}
	}
	switch f.format {
	case "json":
		err = report.WriteJSON(stdout, rep)
	case "markdown":
		err = report.WriteMarkdown(stdout, rep)
	case "csv":
		err = report.WriteCSV(stdout, rep)
	default:
		err = report.WriteText(stdout, rep)
	}
	if err != nil {
		fmt.Fprintf(stderr, "pkcalc analyze: writing: %v\n", err)
		return 1
	}
	if rep.Input.ErrorCount > 0 {
		if f.format != "text" {
			for _, p := range rep.Input.Errors {
				fmt.Fprintf(stderr, "line %d, column %d (document %d): %s\n", p.Line, p.Column, p.Document, p.Message)
			}
		}
		return 1
	}
	return 0
}

// openAll opens files as one stream; documents may not span two files.
func openAll(files []string, stdin io.Reader) (io.Reader, func(), error) {
	var readers []io.Reader
	var closers []func()
	done := func() {
		for _, c := range closers {
			c()
		}
	}
	for i, name := range files {
		r, c, err := open(name, stdin)
		if err != nil {
			done()
			return nil, nil, err
		}
		if i > 0 {
			readers = append(readers, strings.NewReader("\n"))
		}
		readers = append(readers, r)
		closers = append(closers, c)
	}
	return io.MultiReader(readers...), done, nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
