package main

import (
	"bytes"
	"flag"
	"fmt"
	"github.com/pkcalc/pkcalc/core/analysis"
	"io"
	"net/url"
	"os"
	"strings"
	"unicode"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/ingest"
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
// are analysis.OptionNames in kebab case, parsed by analysis.ParseOptions as
// the browser's and the HTTP API's settings are.
type analyzeFlags struct {
	*command
	keys        keyFlags
	format      string
	inputFormat string
	aggregates  string
	docBytes    int64
	queries     string
}

const analyzeUsage = `Usage: pkcalc analyze [flags] FILE...

Measures candidate partition keys over the documents in FILE and ranks them.
FILE may be - for standard input. Several files are read as one input, each
by its own name: a file named .csv or .tsv as CSV (with a header row), any
other file and standard input as JSON (an array, JSON Lines or documents one
after another); --input-format sets the format of every file.

Example: pkcalc analyze --key /tenantId --target-gb 500 orders.json`

func newAnalyzeFlags(stdout, stderr io.Writer) *analyzeFlags {
	f := &analyzeFlags{command: newCommand("analyze", analyzeUsage, stdout, stderr)}
	fs := f.fs
	fs.Var(&f.keys, "key", "a key to measure (repeatable): /a/b for a hash key, /a,/b,/c for a hierarchical key, /a+/ts:day or /a+hash(/id)%8 for a synthetic key")
	fs.Int("hash-version", 2, "hash `version` of the container: 1 or 2")
	fs.Int("partitions", 0, "physical partitions to start from (default: from the throughput)")
	fs.Int("ru", 0, "provisioned throughput in `RU/s` (the autoscale maximum with --autoscale; default: the least the service allows)")
	fs.Bool("autoscale", false, "the throughput is autoscale")
	fs.Float64("target-gb", 0, "expected total size in `GB`, to project the key to")
	fs.Float64("target-docs", 0, "expected total `documents`, to project the key to (1e9 for a billion)")
	fs.Float64("growth-gb-per-day", 0, "growth in `GB` per day; with --retention-days, projects to growth x retention")
	fs.Float64("retention-days", 0, "`days` documents are kept (a TTL), with --growth-gb-per-day")
	fs.Bool("no-suggest", false, "measure only the keys named with --key")
	fs.Float64("reads-per-second", 0, "point reads per second, added to those of --queries")
	fs.Float64("writes-per-second", 0, "writes (creates, replaces, upserts) per second, added to those of --queries")
	fs.Float64("queries-per-second", 0, "queries per second (when --queries lists queries, their weights are scaled to this rate instead)")
	fs.StringVar(&f.queries, "queries", "", "the application's queries and operations from `FILE`: one query or operation per line with an optional leading rate per second, or JSON operations (docs/QUERIES.md)")
	fs.Float64("read-ru", 0, "RU per point read (default: from the average document size)")
	fs.Float64("write-ru", 0, "RU per write (default: from the average document size)")
	fs.Float64("query-ru", 0, "RU per query (default: from the average document size)")
	fs.String("traffic", "", "how requests spread over key values: documents, uniform or weighted (default: documents, or weighted with --weight-field)")
	fs.String("time-field", "", "`path` of each document's time (default: detected, such as /_ts or /timestamp)")
	fs.String("weight-field", "", "`path` of a number weighting each document's requests")
	fs.Int("max-distinct", 0, "distinct values counted exactly per key before estimating (default 50,000)")
	fs.StringVar(&f.format, "format", "text", "output `format`: text, json, markdown or csv")
	fs.StringVar(&f.inputFormat, "input-format", "", inputFormatUsage)
	fs.StringVar(&f.aggregates, "aggregates", "", "read per-key aggregates (CSV or JSON from pkcalc aggregate-query) from `FILE` instead of documents; needs one --key")
	fs.Int64Var(&f.docBytes, "doc-bytes", 1024, "average document size in `bytes`, for aggregates without a bytes column")
	return f
}

// options turns the flags that were set into report options.
func (f *analyzeFlags) options() (analysis.Options, error) {
	v := url.Values{}
	f.fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "format", "input-format", "aggregates", "doc-bytes", "queries":
		case "key":
			v["keys"] = f.keys
		default:
			v.Set(camel(fl.Name), fl.Value.String())
		}
	})
	if f.queries != "" {
		b, err := os.ReadFile(f.queries)
		if err != nil {
			return analysis.Options{}, fmt.Errorf("--queries: %w", err)
		}
		// A file that is not text, or holds nothing, is refused whole: read
		// line by line it would be garbage, or no workload and no word.
		head := bytes.TrimLeft(bytes.TrimPrefix(b, []byte("\uFEFF")), " \t\r\n")
		if len(head) == 0 {
			return analysis.Options{}, fmt.Errorf("--queries %s is empty: write one query or operation a line (docs/QUERIES.md)", f.queries)
		}
		if msg := ingest.NotText(head, "text"); msg != "" {
			return analysis.Options{}, fmt.Errorf("--queries %s: %s", f.queries, msg)
		}
		v.Set("queries", string(b))
	}
	o, err := analysis.ParseOptionsNamed(v, flagName)
	if err != nil {
		return o, err
	}
	switch f.format {
	case "text", "json", "markdown", "csv":
	default:
		return o, fmt.Errorf("--format must be text, json, markdown or csv, not %q", f.format)
	}
	if err := checkInputFormat(f.inputFormat); err != nil {
		return o, err
	}
	if f.docBytes <= 0 {
		return o, fmt.Errorf("--doc-bytes must be 1 or more, not %d", f.docBytes)
	}
	return o, nil
}

// flagName is the flag of a report option, for its error messages: targetGb
// is --target-gb, and keys, given one at a time, is --key.
func flagName(option string) string {
	if option == "keys" {
		return "--key"
	}
	var b strings.Builder
	b.WriteString("--")
	for _, r := range option {
		if unicode.IsUpper(r) {
			b.WriteByte('-')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
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
	f := newAnalyzeFlags(stdout, stderr)
	if len(args) == 0 {
		f.help(stderr)
		return 2
	}
	files, code, ok := f.parse(args, true)
	if !ok {
		return code
	}
	opts, err := f.options()
	if err != nil {
		return f.fail("%v", err)
	}
	switch {
	case len(files) == 0 && f.aggregates == "":
		return f.fail("name a FILE of documents, or - for standard input")
	case len(files) > 0 && f.aggregates != "":
		return f.fail("--aggregates reads aggregates instead of documents: give no FILE with it")
	}
	if isTerminal(stderr) {
		opts.Progress = func(p analysis.Progress) {
			fmt.Fprintf(stderr, "\rpkcalc: read %s, %s documents ", human.Bytes(p.Bytes), human.Count(int64(p.Documents)))
		}
	}

	var rep *report.Report
	if f.aggregates != "" {
		if len(opts.Keys) != 1 {
			return f.fail("--aggregates needs exactly one --key: the key the aggregates were grouped by")
		}
		src, done, err := open(f.aggregates, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "pkcalc analyze: %v\n", err)
			return 1
		}
		rep, err = analyzeAggregates(src, f.aggregates, opts.Keys[0], opts, f.docBytes, stderr)
		done()
		if err != nil {
			fmt.Fprintf(stderr, "pkcalc analyze: %v\n", err)
			return 1
		}
	} else {
		src, done, err := openInputs(files, f.inputFormat, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "pkcalc analyze: %v\n", err)
			return 1
		}
		rep, err = analysis.AnalyzeSource(src, opts)
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
	if f.format != "text" {
		// The text report shows these itself; the others are for
		// programs, so a person reads the problems here.
		for _, n := range report.Notes(rep) {
			fmt.Fprintln(stderr, n)
		}
	}
	// Problems in the input, or in the queries, or nothing to measure: the
	// report still says what could be read, but the run did not go well.
	if rep.Input.ErrorCount > 0 || (rep.Operations != nil && len(rep.Operations.Errors) > 0) || rep.Documents == 0 {
		return 1
	}
	return 0
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
