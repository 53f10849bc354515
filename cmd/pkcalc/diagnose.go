package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/pkcalc/pkcalc/core/diagnose"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/options"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/core/telemetry"
)

const diagnoseUsage = `Usage: pkcalc diagnose [--ranges FILE] [--ru-log FILE] [--storage-log FILE] [--metrics FILE]
       [--current-key SPEC] [--key SPEC]... [--ru N] [--autoscale] [--hash-version 1|2]
       [--format text|json|markdown] [DOCUMENTS...]

Diagnoses a live container from what Cosmos DB exports: its partition key
ranges, the request units and storage its diagnostic logs charge to each
logical partition key, and the normalized RU consumption of each range.
It finds the hot physical partition and why, checks pkcalc's placement of
every logged key against the service's, dates each key's way to 20 GB,
replays the logged traffic onto other keys (--key, or suggested ones)
through the documents' joint distribution of current and candidate values
(DOCUMENTS: a sample of the container's items, as pkcalc analyze reads
them), and says what to do, in order of cost. pkcalc diagnose-query
ru-log|storage-log|metrics|ranges prints the query or command that makes
each export; docs/DIAGNOSE.md has the exports and a worked example.

Example: pkcalc diagnose --ranges pkranges.json --ru-log ru.csv --storage-log storage.csv \
           --current-key /tenantId --ru 18000 --key /tenantId,/userId items.json`

// diagnoseFlags are pkcalc diagnose's flags: the options of package
// options that it takes, parsed by options.Parse.
type diagnoseFlags struct{ *optionFlags }

func newDiagnoseFlags(stdout, stderr io.Writer) *diagnoseFlags {
	return &diagnoseFlags{newOptionFlags("diagnose", diagnoseUsage, options.Diagnose, stdout, stderr)}
}

// diagnoseRun is what the flags set: the settings and the exports' files.
type diagnoseRun struct {
	options.Settings
	files map[string]string // by option name
}

func (f *diagnoseFlags) settings() (diagnoseRun, error) {
	run := diagnoseRun{files: map[string]string{}}
	v := url.Values{}
	f.fs.Visit(func(fl *flag.Flag) {
		o := optionOfFlag(fl.Name)
		switch {
		case o.Kind == options.Keys:
			v[o.Name] = f.keys
		case o.File:
			run.files[o.Name] = fl.Value.String()
			v.Set(o.Name, "true")
		default:
			v.Set(o.Name, fl.Value.String())
		}
	})
	var err error
	run.Settings, err = options.Parse(v, options.Diagnose)
	run.Format = cmp.Or(run.Format, "text")
	return run, err
}

func runDiagnose(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := newDiagnoseFlags(stdout, stderr)
	if len(args) == 0 {
		f.help(stderr)
		return 2
	}
	docs, code, ok := f.parse(args, true)
	if !ok {
		return code
	}
	run, err := f.settings()
	if err != nil {
		return f.fail("%v", err)
	}
	stdinUsed := 0
	for _, name := range run.files {
		if name == "-" {
			stdinUsed++
		}
	}
	for _, d := range docs {
		if d == "-" {
			stdinUsed++
		}
	}
	if stdinUsed > 1 {
		return f.fail("standard input (-) can be one file only")
	}
	in := diagnose.Input{Current: run.CurrentKey, Candidates: run.Keys, Version: run.HashVersion, Throughput: run.Throughput}
	problems := false
	read := func(option, kind string, readFile func(io.Reader) (int, []error)) bool {
		name, ok := run.files[option]
		if !ok {
			return true
		}
		src, done, err := open(name, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "pkcalc diagnose: %s: %v\n", options.Diagnose.Name(option), err)
			return false
		}
		n, errs := readFile(src)
		done()
		e := report.ExportRead{Kind: kind, Name: name, Records: n, Errors: []report.Problem{}}
		for _, err := range errs {
			var te *telemetry.Error
			p := report.Problem{Message: err.Error()}
			if errors.As(err, &te) {
				if te.Note {
					continue // a remark on a row that was kept
				}
				p = report.Problem{Line: te.Line, Column: te.Column, Message: rowText(te)}
			}
			e.ErrorCount++
			if len(e.Errors) < diagnose.MaxErrors {
				e.Errors = append(e.Errors, p)
			}
		}
		problems = problems || e.ErrorCount > 0
		in.Exports = append(in.Exports, e)
		return true
	}
	ok = read("ranges", report.ExportRanges, func(r io.Reader) (int, []error) {
		var errs []error
		in.Ranges, errs = telemetry.ReadRanges(r)
		return len(in.Ranges), errs
	}) && read("ruLog", report.ExportRULog, func(r io.Reader) (int, []error) {
		var errs []error
		in.RU, errs = telemetry.ReadRU(r)
		return len(in.RU), errs
	}) && read("storageLog", report.ExportStorage, func(r io.Reader) (int, []error) {
		var errs []error
		in.Storage, errs = telemetry.ReadStorage(r)
		return len(in.Storage), errs
	}) && read("metrics", report.ExportMetrics, func(r io.Reader) (int, []error) {
		var errs []error
		in.Metrics, errs = telemetry.ReadMetrics(r)
		return len(in.Metrics), errs
	})
	if !ok {
		return 1
	}
	var docErr error
	if len(docs) > 0 {
		src, done, err := openInputs(docs, "", stdin)
		if err != nil {
			fmt.Fprintf(stderr, "pkcalc diagnose: %v\n", err)
			return 1
		}
		defer done()
		e := report.ExportRead{Kind: report.ExportDocuments, Name: strings.Join(docs, " "), Errors: []report.Problem{}}
		idx := len(in.Exports)
		in.Exports = append(in.Exports, e)
		in.Documents = func(yield func(*jsontree.Value, int) bool) {
			for {
				d, err := src.Next()
				if err == io.EOF {
					return
				}
				var ie *ingest.Error
				switch {
				case errors.As(err, &ie):
					in.Exports[idx].ErrorCount++
					if len(in.Exports[idx].Errors) < diagnose.MaxErrors {
						in.Exports[idx].Errors = append(in.Exports[idx].Errors, report.Problem{Document: ie.Document, Line: ie.Line, Column: ie.Column, Message: ie.Msg})
					}
					continue
				case err != nil:
					docErr = err
					return
				}
				if !yield(&d.Root, d.Bytes) {
					return
				}
			}
		}
	}
	d := diagnose.Diagnose(in)
	if docErr != nil {
		fmt.Fprintf(stderr, "pkcalc diagnose: reading the documents: %v\n", docErr)
		return 1
	}
	for _, e := range d.Inputs {
		problems = problems || e.ErrorCount > 0
	}
	switch run.Format {
	case "json":
		err = report.WriteDiagnosisJSON(stdout, d)
	case "markdown":
		err = report.WriteDiagnosisMarkdown(stdout, d)
	default:
		err = report.WriteDiagnosisText(stdout, d)
	}
	if err != nil {
		fmt.Fprintf(stderr, "pkcalc diagnose: writing: %v\n", err)
		return 1
	}
	if run.Format != "text" {
		// The text shows these itself; a person reads them here.
		for _, e := range d.Inputs {
			for _, p := range e.Errors {
				fmt.Fprintf(stderr, "%s: %s\n", e.Name, p)
			}
		}
		for _, w := range d.Warnings {
			fmt.Fprintf(stderr, "warning %s: %s\n", w.Code, w.Message)
		}
	}
	// Rows that could not be used: the diagnosis says what the rest
	// shows, but the run did not go well.
	if problems {
		return 1
	}
	return 0
}

// rowText is a problem's message with the row it is in, which the
// position does not say.
func rowText(e *telemetry.Error) string {
	if e.Row > 0 {
		return fmt.Sprintf("row %d: %s", e.Row, e.Msg)
	}
	return e.Msg
}
