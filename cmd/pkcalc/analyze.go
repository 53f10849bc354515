package main

import (
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/report"
)

// keyFlags collects repeated --key flags, checking each as it comes.
type keyFlags []string

func (k *keyFlags) String() string { return strings.Join(*k, ";") }
func (k *keyFlags) Set(s string) error {
	if _, err := key.Parse(s); err != nil {
		return err
	}
	*k = append(*k, s)
	return nil
}

// analyzeFlags are pkcalc analyze's flags. The analysis settings among them
// are report.OptionNames in kebab case, parsed by report.ParseOptions as
// the browser's and the HTTP API's settings are.
type analyzeFlags struct {
	fs         *flag.FlagSet
	keys       keyFlags
	format     string
	aggregates string
	docBytes   int64
	queries    string
}

func newAnalyzeFlags(stderr io.Writer) *analyzeFlags {
	f := &analyzeFlags{fs: flag.NewFlagSet("analyze", flag.ContinueOnError)}
	fs := f.fs
	fs.SetOutput(stderr)
	fs.Var(&f.keys, "key", "a key to measure (repeatable): /a/b for a hash key, /a,/b,/c for a hierarchical key, /a+/ts:day or /a+hash(/id)%8 for a synthetic key")
	fs.Int("hash-version", 2, "hash `version` of the container: 1 or 2")
	fs.Int("partitions", 0, "physical partitions to start from (default: from the throughput)")
	fs.Int("ru", 0, "provisioned throughput in `RU/s` (the autoscale maximum with --autoscale; default: the least the service allows)")
	fs.Bool("autoscale", false, "the throughput is autoscale")
	fs.Float64("target-gb", 0, "expected total size in `GB`, to project the key to")
	fs.Int64("target-docs", 0, "expected total `documents`, to project the key to")
	fs.Float64("growth-gb-per-day", 0, "growth in `GB` per day; with --retention-days, projects to growth x retention")
	fs.Float64("retention-days", 0, "`days` documents are kept (a TTL), with --growth-gb-per-day")
	fs.Bool("no-suggest", false, "measure only the keys named with --key")
	fs.Float64("reads-per-second", 0, "point reads per second")
	fs.Float64("writes-per-second", 0, "writes (creates, replaces, upserts) per second")
	fs.Float64("queries-per-second", 0, "queries per second (with --queries, the queries' weights are scaled to this rate)")
	fs.StringVar(&f.queries, "queries", "", "the application's queries and operations from `FILE`: one query per line with an optional leading rate, or JSON operations (docs/QUERIES.md)")
	fs.Float64("read-ru", 0, "RU per point read (default: from the average document size)")
	fs.Float64("write-ru", 0, "RU per write (default: from the average document size)")
	fs.Float64("query-ru", 0, "RU per query (default: from the average document size)")
	fs.String("traffic", "", "how requests spread over key values: documents, uniform or weighted (default: documents, or weighted with --weight-field)")
	fs.String("time-field", "", "`path` of each document's time (default: detected, such as /_ts or /timestamp)")
	fs.String("weight-field", "", "`path` of a number weighting each document's requests")
	fs.Int("max-distinct", 0, "distinct values counted exactly per key before estimating (default 50,000)")
	fs.StringVar(&f.format, "format", "text", "output `format`: text, json, markdown or csv")
	fs.StringVar(&f.aggregates, "aggregates", "", "read per-key aggregates (CSV or JSON from pkcalc aggregate-query) from `FILE` instead of documents; needs one --key")
	fs.Int64Var(&f.docBytes, "doc-bytes", 1024, "average document size in `bytes`, for aggregates without a bytes column")
	return f
}

// options turns the flags that were set into report options.
func (f *analyzeFlags) options() (report.Options, error) {
	v := url.Values{}
	f.fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "format", "aggregates", "doc-bytes", "queries":
		case "key":
			v["keys"] = f.keys
		default:
			v.Set(camel(fl.Name), fl.Value.String())
		}
	})
	if f.queries != "" {
		b, err := os.ReadFile(f.queries)
		if err != nil {
			return report.Options{}, fmt.Errorf("--queries: %w", err)
		}
		v.Set("queries", string(b))
	}
	o, err := report.ParseOptions(v)
	if err != nil {
		return o, err
	}
	switch f.format {
	case "text", "json", "markdown", "csv":
	default:
		return o, fmt.Errorf("--format must be text, json, markdown or csv, not %q", f.format)
	}
	return o, nil
}

// camel turns a flag name into its option name: target-gb is targetGb.
func camel(flag string) string {
	parts := strings.Split(flag, "-")
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
	}
	return strings.Join(parts, "")
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
		if len(opts.Keys) != 1 {
			fmt.Fprintln(stderr, "pkcalc analyze: --aggregates needs exactly one --key: the key the aggregates were grouped by")
			return 2
		}
		src, done, err := open(f.aggregates, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "pkcalc analyze: %v\n", err)
			return 1
		}
		rep, err = analyzeAggregates(src, opts.Keys[0], opts, f.docBytes, stderr)
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
				fmt.Fprintln(stderr, p)
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
