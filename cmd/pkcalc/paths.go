package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/pkcalc/pkcalc/core/analysis"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/paths"
	"github.com/pkcalc/pkcalc/core/report"
)

const pathsUsage = `Usage: pkcalc paths [--format text|json] [--input-format json|csv] FILE...

Describes every property path of the documents in FILE (- for standard
input), each file on its own; a file named .csv or .tsv is read as CSV.
With --format json, one file gives one JSON object, several files a JSON
array of them, in the order given.`

func runPaths(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := newCommand("paths", pathsUsage, stdout, stderr)
	format := c.fs.String("format", "text", "output `format`: text or json")
	inputFormat := c.fs.String("input-format", "", inputFormatUsage)
	if len(args) == 0 {
		c.help(stderr)
		return 2
	}
	files, code, ok := c.parse(args, true)
	if !ok {
		return code
	}
	if *format != "text" && *format != "json" {
		return c.fail("--format must be text or json, not %q", *format)
	}
	if err := checkInputFormat(*inputFormat); err != nil {
		return c.fail("%v", err)
	}
	if len(files) == 0 {
		return c.fail("name a FILE of documents, or - for standard input")
	}
	status := 0
	all := []pathsJSON{}
	for _, name := range files {
		src, closeFn, err := openInputs([]string{name}, *inputFormat, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "pkcalc paths: %v\n", err)
			status = 1
			// The JSON keeps a place for every file named, so a
			// program sees why this one has no paths; it is not
			// empty, it could not be read.
			all = append(all, pathsJSON{File: name, Format: "not read", Errors: []string{err.Error()}, ErrorCount: 1, Notes: []string{}, Paths: []report.Path{}})
			continue
		}
		s, err := analysis.Paths(src)
		closeFn()
		for _, e := range s.Errors {
			fmt.Fprintf(stderr, "%s: %v\n", name, e)
		}
		if n := int64(s.ErrorCount - len(s.Errors)); n > 0 {
			fmt.Fprintf(stderr, "%s: and %s more %s\n", name, human.Count(n), human.Plural(n, "problem", "problems"))
		}
		for _, n := range s.Notes {
			fmt.Fprintf(stderr, "%s: note: %v\n", name, n)
		}
		if n := int64(s.NoteCount - len(s.Notes)); n > 0 {
			fmt.Fprintf(stderr, "%s: and %s more %s\n", name, human.Count(n), human.Plural(n, "note", "notes"))
		}
		if len(s.Errors) > 0 {
			status = 1
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: reading: %v\n", name, err)
			status = 1
		}
		if *format == "json" {
			pj := newPathsJSON(name, s)
			if err != nil {
				pj.Errors = append(pj.Errors, "reading: "+err.Error())
				pj.ErrorCount++
			}
			all = append(all, pj)
		} else if err == nil || s.Documents > 0 {
			// A file that could not be read at all (a directory) has
			// no table: it is not an empty file.
			writePathsText(stdout, name, s)
		}
	}
	if *format == "json" {
		// One file, one object (as before several were taken); several, one
		// array: either way a single JSON document.
		var v any = all
		if len(files) == 1 {
			v = all[0]
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			fmt.Fprintf(stderr, "pkcalc paths: writing: %v\n", err)
			return 1
		}
	}
	return status
}

func writePathsText(w io.Writer, name string, s *analysis.PathSummary) {
	fmt.Fprintf(w, "%s: %s %s (%s), read as %s\n\n", name, human.Count(int64(s.Documents)),
		human.Plural(int64(s.Documents), "document", "documents"), human.Bytes(s.Bytes), s.Format)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PATH\tTYPES\tDOCS\tDISTINCT\tTOP VALUES\tKEY")
	for _, p := range s.Paths {
		var types []string
		for _, k := range p.TypeMix() {
			types = append(types, k.Kind.String())
		}
		var top []string
		for _, v := range p.Top {
			top = append(top, fmt.Sprintf("%s×%s", clip(v.Value, 24), human.Count(int64(v.Count))))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", p.Path, strings.Join(types, ","), human.Count(int64(p.Documents)),
			distinctText(p), strings.Join(top, " "), keyText(p))
	}
	tw.Flush()
	if s.OmittedPaths > 0 {
		fmt.Fprintf(w, "and about %s more paths, in %s %s, past the %s pkcalc describes\n", human.Count(int64(s.OmittedPaths)),
			human.Count(int64(s.OmittedDocuments)), human.Plural(int64(s.OmittedDocuments), "document", "documents"), human.Count(paths.MaxPaths))
	}
	fmt.Fprintln(w)
}

// distinctText is the DISTINCT cell: distinct values are counted among
// scalars, so a path that holds only objects or arrays has none to count,
// which "–" says rather than a 0 that reads as "always missing".
func distinctText(p paths.Path) string {
	scalars := 0
	for k, n := range p.Types {
		if jsontree.Kind(k).Scalar() {
			scalars += n
		}
	}
	if scalars == 0 {
		return "–"
	}
	d := human.Count(int64(p.Distinct))
	if p.DistinctCapped {
		d = ">" + d
	}
	return d
}

func keyText(p paths.Path) string {
	key := "yes"
	if !p.Usable {
		key = "no: " + p.Reason
	}
	if p.System != "" {
		key += " (system)"
	}
	return key
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// pathsJSON is one file's path table as JSON.
type pathsJSON struct {
	File      string   `json:"file"`
	Format    string   `json:"format"`
	Documents int      `json:"documents"`
	Bytes     int64    `json:"bytes"`
	Errors    []string `json:"errors"` // the first 100
	// ErrorCount counts every problem, NoteCount every note.
	ErrorCount int           `json:"errorCount"`
	Notes      []string      `json:"notes"` // values read with a change, the documents kept; the first 100
	NoteCount  int           `json:"noteCount"`
	Paths      []report.Path `json:"paths"`
	// PathsOmitted counts the paths past the first paths.MaxPaths, as the
	// report's does.
	PathsOmitted *report.PathsOmitted `json:"pathsOmitted,omitempty"`
}

func newPathsJSON(name string, s *analysis.PathSummary) pathsJSON {
	out := pathsJSON{File: name, Format: s.Format, Documents: s.Documents, Bytes: s.Bytes, Errors: []string{}, ErrorCount: s.ErrorCount,
		Notes: []string{}, NoteCount: s.NoteCount, Paths: analysis.PathsOf(s.Paths)}
	if s.OmittedPaths > 0 {
		out.PathsOmitted = &report.PathsOmitted{Paths: s.OmittedPaths, Documents: s.OmittedDocuments}
	}
	for _, e := range s.Errors {
		out.Errors = append(out.Errors, e.Error())
	}
	for _, n := range s.Notes {
		out.Notes = append(out.Notes, n.Error())
	}
	return out
}
