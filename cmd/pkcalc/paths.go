package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/pkcalc/pkcalc/core/paths"
	"github.com/pkcalc/pkcalc/core/report"
)

func runPaths(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("paths", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output `format`: text or json")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: pkcalc paths [--format text|json] FILE...\n\nDescribes every property path of the documents in FILE (- for standard input).")
		fs.PrintDefaults()
	}
	files, err := parse(fs, args)
	if err != nil {
		return 2
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "pkcalc paths: --format must be text or json, not %q\n", *format)
		return 2
	}
	if len(files) == 0 {
		fs.Usage()
		return 2
	}
	status := 0
	for _, name := range files {
		src, closeFn, err := open(name, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "pkcalc: %v\n", err)
			status = 1
			continue
		}
		s, err := paths.Discover(src, paths.Options{})
		closeFn()
		for _, e := range s.Errors {
			fmt.Fprintf(stderr, "%s: %v\n", name, e)
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: reading: %v\n", name, err)
			status = 1
		}
		if len(s.Errors) > 0 && status == 0 {
			status = 1
		}
		if *format == "json" {
			writePathsJSON(stdout, name, s)
		} else {
			writePathsText(stdout, name, s)
		}
	}
	return status
}

func open(name string, stdin io.Reader) (io.Reader, func(), error) {
	if name == "-" {
		return stdin, func() {}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

func writePathsText(w io.Writer, name string, s *paths.Summary) {
	fmt.Fprintf(w, "%s: %d documents, %d bytes, read as %s\n\n", name, s.Documents, s.Bytes, s.Format)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PATH\tTYPES\tDOCS\tDISTINCT\tTOP VALUES\tKEY")
	for _, p := range s.Paths {
		var types []string
		for _, k := range p.TypeMix() {
			types = append(types, k.Kind.String())
		}
		var top []string
		for _, v := range p.Top {
			top = append(top, fmt.Sprintf("%s×%d", clip(v.Value, 24), v.Count))
		}
		distinct := fmt.Sprint(p.Distinct)
		if p.DistinctCapped {
			distinct = ">" + distinct
		}
		key := "yes"
		if !p.Usable {
			key = "no: " + p.Reason
		}
		if p.System != "" {
			key += " (system)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", p.Path, strings.Join(types, ","), p.Documents, distinct, strings.Join(top, " "), key)
	}
	tw.Flush()
	fmt.Fprintln(w)
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func writePathsJSON(w io.Writer, name string, s *paths.Summary) {
	out := struct {
		File      string        `json:"file"`
		Format    string        `json:"format"`
		Documents int           `json:"documents"`
		Bytes     int64         `json:"bytes"`
		Errors    []string      `json:"errors"`
		Paths     []report.Path `json:"paths"`
	}{File: name, Format: s.Format, Documents: s.Documents, Bytes: s.Bytes, Errors: []string{}, Paths: report.PathsOf(s.Paths)}
	for _, e := range s.Errors {
		out.Errors = append(out.Errors, e.Error())
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	enc.Encode(out)
}
