package main

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pkcalc/pkcalc/core/analysis"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/options"
)

// inputFormatUsage is the --input-format flag's help, shared by analyze and
// paths.
var inputFormatUsage = inputFormat().Help

func inputFormat() options.Option {
	o, _ := options.Lookup("inputFormat")
	return o
}

// checkInputFormat refuses an --input-format other than json or csv, as
// analyze's options do.
func checkInputFormat(f string) error {
	_, err := options.Parse(url.Values{"inputFormat": {f}}, options.CLI)
	return err
}

// isCSV reports whether the file name is read as CSV when --input-format
// is format: a file named .csv or .tsv is, as the HTTP API reads text/csv
// and text/tab-separated-values; standard input is JSON unless told.
func isCSV(name, format string) bool {
	if format != "" {
		return format == "csv"
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".csv", ".tsv":
		return true
	}
	return false
}

// newSource reads r as name is read: CSV or JSON.
func newSource(r io.Reader, name, format string) analysis.Source {
	if isCSV(name, format) {
		cr := ingest.NewCSVReader(r)
		cr.SetJSONRemedy("read it as JSON: name the file other than .csv or .tsv, or give --input-format json")
		return cr
	}
	jr := ingest.NewReader(r)
	jr.SetCSVRemedy("read it as CSV: name the file .csv, or give --input-format csv")
	return jr
}

// open opens a file, or standard input for "-".
func open(name string, stdin io.Reader) (io.Reader, func(), error) {
	if name == "-" {
		return stdin, func() {}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	// Found here, a directory is refused before a long read of the files
	// named before it, as a missing file is.
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is a directory: name the files of documents in it", name)
	}
	return f, func() { f.Close() }, nil
}

// inputs reads the documents of several files as one Source, each file by
// its own reader (so a CSV file's header is its own, and a JSON file's
// format is found in it alone). With more than one file, a problem's
// message names its file, since lines and documents count within it.
type inputs struct {
	names     []string
	sources   []analysis.Source
	cur       int
	done      int64      // bytes of the files already read
	project   [][]string // the paths to read, once the analysis has chosen them
	projected bool       // ... if it has
	workers   int        // goroutines to read each JSON Lines file on (ReadParallel)
	docs      int        // documents of the current file returned
}

// openInputs opens every file before reading any, so that a missing file
// is reported before a long analysis. close closes them.
func openInputs(files []string, format string, stdin io.Reader) (in *inputs, close func(), err error) {
	var closers []func()
	close = func() {
		for _, c := range closers {
			c()
		}
	}
	in = &inputs{names: files}
	for _, name := range files {
		r, c, err := open(name, stdin)
		if err != nil {
			close()
			return nil, nil, err
		}
		closers = append(closers, c)
		in.sources = append(in.sources, newSource(r, name, format))
	}
	return in, close, nil
}

// Next returns the next document of the current file, going on to the next
// file at the end of one.
func (in *inputs) Next() (*ingest.Document, error) {
	for in.cur < len(in.sources) {
		d, err := in.sources[in.cur].Next()
		if err == io.EOF {
			in.done += in.sources[in.cur].Offset()
			in.cur, in.docs = in.cur+1, 0
			if in.projected {
				in.applyProjection()
			}
			continue
		}
		var ie *ingest.Error
		if errors.As(err, &ie) {
			e := *ie
			e.Msg = in.message(e.Msg)
			return nil, &e
		}
		if err != nil {
			return nil, in.where(err)
		}
		if in.docs++; in.docs == 2 {
			// By now the file's Reader knows JSON Lines.
			in.readParallel()
		}
		if len(in.names) > 1 {
			for i, n := range d.Notes {
				c := *n
				c.Msg = in.message(c.Msg)
				d.Notes[i] = &c
			}
		}
		return d, nil
	}
	return nil, io.EOF
}

// message says, with several files, which file a problem is in.
func (in *inputs) message(msg string) string {
	if len(in.names) > 1 {
		msg = "in " + in.name() + ": " + msg
	}
	return msg
}

// where names the file a read error (not a problem in the documents) came
// from, with several files.
func (in *inputs) where(err error) error {
	if len(in.names) > 1 {
		return fmt.Errorf("%s: %w", in.name(), err)
	}
	return err
}

// name is the current file's name for a message: "-" is standard input.
func (in *inputs) name() string {
	if n := in.names[in.cur]; n != "-" {
		return n
	}
	return "standard input"
}

// Format is how the files were read: "JSON Lines", or "JSON Lines and CSV"
// when they differ. Files with no documents count only if all are empty.
func (in *inputs) Format() string {
	var formats []string
	for i, s := range in.sources {
		if i > in.cur {
			break
		}
		if f := s.Format(); f != "empty" && !slices.Contains(formats, f) {
			formats = append(formats, f)
		}
	}
	switch len(formats) {
	case 0:
		if len(in.sources) == 0 {
			return "empty"
		}
		return in.sources[0].Format()
	case 1:
		return formats[0]
	}
	return strings.Join(formats[:len(formats)-1], ", ") + " and " + formats[len(formats)-1]
}

// Offset is the bytes read from all files so far, for progress.
func (in *inputs) Offset() int64 {
	if in.cur < len(in.sources) {
		return in.done + in.sources[in.cur].Offset()
	}
	return in.done
}

// ReadParallel makes each file of JSON Lines be read on workers
// goroutines (ingest.Parallel), from its third document on or from now on.
func (in *inputs) ReadParallel(workers int) {
	in.workers = workers
	in.readParallel()
}

func (in *inputs) readParallel() {
	if in.cur >= len(in.sources) {
		return
	}
	if r, ok := in.sources[in.cur].(*ingest.Reader); ok {
		if p, ok := r.Parallel(in.workers); ok {
			in.sources[in.cur] = p
		}
	}
}

// projector is a Source that reads only some paths of each document, as
// ingest's JSON Reader can (see report's analysis).
type projector interface {
	Project(paths [][]string)
}

// Project passes the analysis's choice of paths to the current file's
// reader and keeps it for the files after it.
func (in *inputs) Project(paths [][]string) {
	in.project, in.projected = paths, true
	in.applyProjection()
}

func (in *inputs) applyProjection() {
	if in.cur >= len(in.sources) {
		return
	}
	if p, ok := in.sources[in.cur].(projector); ok {
		p.Project(in.project)
	}
}
