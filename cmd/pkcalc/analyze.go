package main

import (
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/pkcalc/pkcalc/core/analysis"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/options"
	"github.com/pkcalc/pkcalc/core/provision"
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

// analyzeFlags are pkcalc analyze's flags: the options of package options
// that the command line takes, parsed by options.Parse as the browser's and
// the HTTP API's settings are.
type analyzeFlags struct{ *optionFlags }

const analyzeUsage = `Usage: pkcalc analyze [flags] FILE...

Measures candidate partition keys over the documents in FILE and ranks them.
FILE may be - for standard input. Several files are read as one input, each
by its own name: a file named .csv or .tsv as CSV (with a header row), any
other file and standard input as JSON (an array, JSON Lines or documents one
after another); --input-format sets the format of every file.

With --emit, it prints instead only the command or code that creates the
container of the recommended key (with --no-suggest, of the first --key),
the one the page shows in its tab of that name; the report's warnings and
which key it is go to standard error.

Example: pkcalc analyze --key /tenantId --target-gb 500 orders.json
         pkcalc analyze --ru 4000 --emit azure-cli orders.json > create-container.sh`

func newAnalyzeFlags(stdout, stderr io.Writer) *analyzeFlags {
	return &analyzeFlags{newOptionFlags("analyze", analyzeUsage, options.CLI, stdout, stderr)}
}

// analyzeRun is what the flags set: the settings, and the file of
// aggregates when they are the input.
type analyzeRun struct {
	options.Settings
	aggregates string
}

// settings reads the flags that were set as options. The files --queries
// and --aggregates name are read here: the workload's text is the option,
// and aggregates are the input.
func (f *analyzeFlags) settings() (analyzeRun, error) {
	var run analyzeRun
	v := url.Values{}
	var err error
	f.fs.Visit(func(fl *flag.Flag) {
		o := optionOfFlag(fl.Name)
		switch {
		case o.Kind == options.Keys:
			v[o.Name] = f.keys
		case o.Name == "aggregates":
			run.aggregates = fl.Value.String()
			v.Set(o.Name, "true")
		case o.File:
			var text string
			if text, err = readWorkload(fl.Value.String()); err == nil {
				v.Set(o.Name, text)
			}
		default:
			v.Set(o.Name, fl.Value.String())
		}
	})
	if err != nil {
		return run, err
	}
	run.Settings, err = options.Parse(v, options.CLI)
	run.Format = cmp.Or(run.Format, "text")
	return run, err
}

func optionOfFlag(name string) options.Option {
	for _, o := range options.All {
		if o.Flag == name {
			return o
		}
	}
	panic("no option has the flag --" + name)
}

// readWorkload reads the file of --queries. A file that is not text, or
// holds nothing, is refused whole: read line by line it would be garbage,
// or no workload and no word.
func readWorkload(name string) (string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("--queries: %w", err)
	}
	head := bytes.TrimLeft(bytes.TrimPrefix(b, []byte("\uFEFF")), " \t\r\n")
	if len(head) == 0 {
		return "", fmt.Errorf("--queries %s is empty: write one query or operation a line (docs/QUERIES.md)", name)
	}
	if msg := ingest.NotText(head, "text"); msg != "" {
		return "", fmt.Errorf("--queries %s: %s", name, msg)
	}
	return string(b), nil
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
	run, err := f.settings()
	if err != nil {
		return f.fail("%v", err)
	}
	opts := analysis.OptionsFrom(run.Settings)
	switch {
	case len(files) == 0 && run.aggregates == "":
		return f.fail("name a FILE of documents, or - for standard input")
	case len(files) > 0 && run.aggregates != "":
		return f.fail("--aggregates reads aggregates instead of documents: give no FILE with it")
	}
	if isTerminal(stderr) {
		opts.Progress = func(p analysis.Progress) {
			fmt.Fprintf(stderr, "\rpkcalc: read %s, %s documents ", human.Bytes(p.Bytes), human.Count(int64(p.Documents)))
		}
	}

	var rep *report.Report
	if run.aggregates != "" {
		src, done, err := open(run.aggregates, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "pkcalc analyze: %v\n", err)
			return 1
		}
		rep, err = analyzeAggregates(src, run.aggregates, opts.Keys[0], opts, run.DocBytes, stderr)
		done()
		if err != nil {
			fmt.Fprintf(stderr, "pkcalc analyze: %v\n", err)
			return 1
		}
	} else {
		src, done, err := openInputs(files, run.InputFormat, stdin)
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
	if run.Emit != "" {
		return emit(rep, run, stdout, stderr)
	}
	switch run.Format {
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
	if run.Format != "text" {
		// The text report shows these itself; the others are for
		// programs, so a person reads the problems here.
		for _, n := range report.Notes(rep) {
			fmt.Fprintln(stderr, n)
		}
	}
	return exitCode(rep)
}

// exitCode is 1 for problems in the input, or in the queries, or nothing
// to measure: the report still says what could be read, but the run did
// not go well.
func exitCode(rep *report.Report) int {
	if rep.Input.ErrorCount > 0 || (rep.Operations != nil && len(rep.Operations.Errors) > 0) || rep.Documents == 0 {
		return 1
	}
	return 0
}

// emit prints the snippet --emit names for the key the run creates: the
// recommended key, or with --no-suggest the first --key, as the page's
// tab of that name shows it (report.Snippets). The code alone goes to
// standard output, so that it can be piped or saved as it is; the
// report's notes and which key it is, to standard error. With no key to
// create, nothing is printed and the run fails, saying why.
func emit(rep *report.Report, run analyzeRun, stdout, stderr io.Writer) int {
	for _, n := range report.Notes(rep) {
		fmt.Fprintln(stderr, n)
	}
	best, recommended := report.Recommended(rep)
	c, which := best, "the recommended key"
	named := slices.IndexFunc(rep.Candidates, func(c report.Candidate) bool { return c.Named })
	switch {
	case run.NoSuggest && named >= 0:
		c, which = rep.Candidates[named], "the first --key"
	case run.NoSuggest || rep.Documents == 0:
		fmt.Fprintf(stderr, "pkcalc analyze: --emit %s: no key was measured (see above), so there is no container to create\n", run.Emit)
		return 1
	case !recommended:
		fmt.Fprintf(stderr, "pkcalc analyze: --emit %s: no key is recommended (see above), so there is no container to create; "+
			"for a key of your own, name it with --key and add --no-suggest\n", run.Emit)
		return 1
	}
	snippets := report.Snippets(rep, c)
	i := slices.IndexFunc(snippets, func(s provision.Snippet) bool { return s.ID == run.Emit })
	if i < 0 {
		fmt.Fprintf(stderr, "pkcalc analyze: --emit %s: no code creates a container for %s\n", run.Emit, c.Key.Spec)
		return 1
	}
	s := snippets[i]
	if _, err := io.WriteString(stdout, s.Code); err != nil {
		fmt.Fprintf(stderr, "pkcalc analyze: writing: %v\n", err)
		return 1
	}
	msg := fmt.Sprintf("pkcalc analyze: %s for %s, %s (score %d, grade %s)", s.Title, c.Key.Spec, which, c.Score, c.Grade)
	if recommended && best.Key.Spec != c.Key.Spec {
		msg += fmt.Sprintf("; the recommended key is %s (score %d, grade %s)", best.Key.Spec, best.Score, best.Grade)
	}
	fmt.Fprintln(stderr, msg)
	return exitCode(rep)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
