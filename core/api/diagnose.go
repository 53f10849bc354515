package api

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/pkcalc/pkcalc/core/diagnose"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/options"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/core/telemetry"
)

// The parts of a diagnosis's body: each export under its option's name,
// then the documents.
var exportParts = map[string]string{
	"ranges": report.ExportRanges, "ruLog": report.ExportRULog, "storageLog": report.ExportStorage, "metrics": report.ExportMetrics,
}

const documentsPart = "documents"

// diagnose is POST /v1/diagnose: a live container's exports as the parts
// of a multipart/form-data body (ranges, ruLog, storageLog, metrics, then
// any documents, each as a file), the settings as query parameters, and
// the diagnosis as the answer, as pkcalc diagnose writes it.
func (c Config) diagnose(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		fail(w, http.StatusMethodNotAllowed, "use POST with the exports as the parts of a multipart/form-data body")
		return
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		fail(w, http.StatusBadRequest, "the query string cannot be read: %v (encode ; as %%3B and , as %%2C in values)", err)
		return
	}
	for name := range exportParts {
		if q.Has(name) {
			fail(w, http.StatusBadRequest, "%s is a part of the body, not a query parameter: send it as the file of the part named %s", name, name)
			return
		}
	}
	// The values are checked before the body is read (as if the ranges
	// were given); the rules between the exports and the key, after.
	pre := url.Values{}
	for k, v := range q {
		pre[k] = v
	}
	pre.Set("ranges", "true")
	if _, err := options.Parse(pre, options.DiagnoseAPI); err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		fail(w, http.StatusUnsupportedMediaType, "send the exports as multipart/form-data, one part a file: ranges, ruLog, storageLog, metrics, then documents")
		return
	}
	body := io.Reader(r.Body)
	if c.MaxBodyBytes > 0 {
		if r.ContentLength > c.MaxBodyBytes {
			fail(w, http.StatusRequestEntityTooLarge, "the body is %d bytes; this server takes at most %d", r.ContentLength, c.MaxBodyBytes)
			return
		}
		body = http.MaxBytesReader(w, r.Body, c.MaxBodyBytes)
	}
	mr := multipart.NewReader(body, params["boundary"])
	in := diagnose.Input{}
	var docs *multipart.Part
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			failBody(w, err)
			return
		}
		name := part.FormName()
		kind, isExport := exportParts[name]
		switch {
		case name == documentsPart:
			docs = part // read as the diagnosis reads them, last
		case !isExport:
			fail(w, http.StatusBadRequest, "part %q is not one of the exports: name the parts ranges, ruLog, storageLog, metrics and documents", name)
			return
		case q.Has(name):
			fail(w, http.StatusBadRequest, "part %s is sent twice: send each export once", name)
			return
		default:
			q.Set(name, "true")
			e, err := readExport(&in, name, kind, part)
			e.Name = cmp.Or(part.FileName(), name)
			if err != nil {
				failBody(w, err)
				return
			}
			in.Exports = append(in.Exports, e)
		}
		if docs != nil {
			break
		}
	}
	settings, err := options.Parse(q, options.DiagnoseAPI)
	if err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	in.Current, in.Candidates, in.Version, in.Throughput = settings.CurrentKey, settings.Keys, settings.HashVersion, settings.Throughput
	var docErr error
	if docs != nil {
		in.Exports, in.Documents = documentsOf(docs, in.Exports, &docErr)
	}
	d := diagnose.Diagnose(in)
	if docErr == nil && docs != nil {
		// Nothing may follow the documents: the exports are read first.
		if _, err := mr.NextPart(); err != io.EOF {
			docErr = errors.New("a part follows the documents: send the exports first and the documents last")
		}
	}
	if docErr != nil {
		failBody(w, docErr)
		return
	}
	if wantsStream(r.Header.Get("Accept")) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		var b strings.Builder
		if err := report.WriteDiagnosisJSON(&b, d); err != nil {
			json.NewEncoder(w).Encode(Event{Type: "error", Error: &Error{http.StatusInternalServerError, "the diagnosis could not be written: " + err.Error()}})
			return
		}
		json.NewEncoder(w).Encode(Event{Type: "diagnosis", JSON: b.String()})
		return
	}
	writeDiagnosis(w, cmp.Or(settings.Format, "json"), d)
}

// readExport reads one export part with its reader.
func readExport(in *diagnose.Input, name, kind string, r io.Reader) (report.ExportRead, error) {
	var errs []error
	n := 0
	switch name {
	case "ranges":
		in.Ranges, errs = telemetry.ReadRanges(r)
		n = len(in.Ranges)
	case "ruLog":
		in.RU, errs = telemetry.ReadRU(r)
		n = len(in.RU)
	case "storageLog":
		in.Storage, errs = telemetry.ReadStorage(r)
		n = len(in.Storage)
	case "metrics":
		in.Metrics, errs = telemetry.ReadMetrics(r)
		n = len(in.Metrics)
	}
	e := report.ExportRead{Kind: kind, Name: name, Records: n, Errors: []report.Problem{}}
	for _, err := range errs {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return e, err
		}
		var te *telemetry.Error
		p := report.Problem{Message: err.Error()}
		if errors.As(err, &te) {
			if te.Note {
				continue
			}
			p = report.Problem{Line: te.Line, Column: te.Column, Message: rowMessage(te)}
		}
		e.ErrorCount++
		if len(e.Errors) < diagnose.MaxErrors {
			e.Errors = append(e.Errors, p)
		}
	}
	return e, nil
}

// rowMessage is a problem's message with its row, as pkcalc diagnose
// writes it.
func rowMessage(e *telemetry.Error) string {
	if e.Row > 0 {
		return fmt.Sprintf("row %d: %s", e.Row, e.Msg)
	}
	return e.Msg
}

// documentsOf reads the documents part as the diagnosis asks for them: CSV
// when its type or file name says so, else JSON.
func documentsOf(part *multipart.Part, exports []report.ExportRead, fault *error) ([]report.ExportRead, func(func(*jsontree.Value, int) bool)) {
	ct, _, _ := mime.ParseMediaType(part.Header.Get("Content-Type"))
	ext := strings.ToLower(path.Ext(part.FileName()))
	var src interface {
		Next() (*ingest.Document, error)
	} = ingest.NewReader(part)
	if slices.Contains([]string{"text/csv", "text/tab-separated-values"}, ct) || ext == ".csv" || ext == ".tsv" {
		src = ingest.NewCSVReader(part)
	}
	exports = append(exports, report.ExportRead{Kind: report.ExportDocuments, Name: cmp.Or(part.FileName(), documentsPart), Errors: []report.Problem{}})
	i := len(exports) - 1
	return exports, func(yield func(*jsontree.Value, int) bool) {
		for {
			d, err := src.Next()
			if err == io.EOF {
				return
			}
			var ie *ingest.Error
			switch {
			case errors.As(err, &ie):
				exports[i].ErrorCount++
				if len(exports[i].Errors) < diagnose.MaxErrors {
					exports[i].Errors = append(exports[i].Errors, report.Problem{Document: ie.Document, Line: ie.Line, Column: ie.Column, Message: ie.Msg})
				}
				continue
			case err != nil:
				*fault = err
				return
			}
			if !yield(&d.Root, d.Bytes) {
				return
			}
		}
	}
}

// failBody answers a body that could not be read.
func failBody(w http.ResponseWriter, err error) {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		fail(w, http.StatusRequestEntityTooLarge, "the body is over the %d bytes this server takes", tooLarge.Limit)
		return
	}
	fail(w, http.StatusBadRequest, "reading the body: %v", err)
}

// writeDiagnosis writes the diagnosis in format.
func writeDiagnosis(w http.ResponseWriter, format string, d *report.Diagnosis) {
	send(w, format, "the diagnosis", func(out io.Writer) error {
		switch format {
		case "markdown":
			return report.WriteDiagnosisMarkdown(out, d)
		case "text":
			return report.WriteDiagnosisText(out, d)
		}
		return report.WriteDiagnosisJSON(out, d)
	})
}
