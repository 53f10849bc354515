// Package api is pkcalc's analysis as an HTTP API: POST /v1/analyze with the
// documents as the body and the settings as query parameters, answered with
// the report; and POST /v1/diagnose with a live container's exports as the
// parts of a multipart body, answered with the diagnosis. The same
// http.Handler serves in a browser Web Worker, on Cloudflare Workers and
// natively (pkcalc serve).
//
// It is stateless and never logs or keeps a request body. docs/openapi.yaml
// describes it.
package api

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/pkcalc/pkcalc/core/aggregate"
	"github.com/pkcalc/pkcalc/core/analysis"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/options"
	"github.com/pkcalc/pkcalc/core/report"
)

// Config bounds what a handler accepts.
type Config struct {
	MaxBodyBytes int64 // larger bodies get 413; 0 for no limit (the browser's own worker)
	MaxAnalyses  int   // analyses at once, past which 503 (limit.go); 0 for no bound (the browser's worker, Cloudflare's instance per request)
	// MaxExactValues is the most values the keys keep exactly in all
	// (options.ExactValues, analysis.Options.MaxExactValues): a host of
	// less memory than analysis.MemoryBudget gives less; 0 for
	// options.MaxExactValues.
	MaxExactValues int64
	// ReadChunk, where set, reads the input's chunks elsewhere: the
	// browser's engine hands them to other Web Workers
	// (analysis.Options.ReadChunk).
	ReadChunk ingest.ReadChunk
	// MaxWorkers bounds the option workers, the goroutines an analysis
	// reads with; 0 for options.MaxWorkers. A host of one thread and little
	// memory (Cloudflare's) gives 1: more goroutines would only hold more
	// chunks at once.
	MaxWorkers int
}

// Handler returns the API.
func Handler(c Config) http.Handler {
	mux := http.NewServeMux()
	limit := limitAnalyses(c.MaxAnalyses)
	mux.Handle("/v1/analyze", limit(http.HandlerFunc(c.analyze)))
	mux.Handle("/v1/diagnose", limit(http.HandlerFunc(c.diagnose)))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fail(w, http.StatusNotFound, "no such endpoint: %s; the API is POST /v1/analyze and POST /v1/diagnose", r.URL.Path)
	})
	return mux
}

// Event is one line of a streamed answer (Accept: application/x-ndjson):
// progress while reading, then the report, or an error.
type Event struct {
	Type      string  `json:"type"` // "progress", "report" or "error"
	Bytes     int64   `json:"bytes,omitempty"`
	Documents int     `json:"documents,omitempty"`
	Elapsed   float64 `json:"elapsedSeconds,omitempty"`
	// JSON is the report exactly as pkcalc analyze --format json writes it,
	// as a string, so a client can have those very bytes.
	JSON  string `json:"json,omitempty"`
	Error *Error `json:"error,omitempty"`
}

// Error is the body of every failed request.
type Error struct {
	Status  int    `json:"status"`
	Message string `json:"message"`
}

func fail(w http.ResponseWriter, status int, format string, args ...any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(struct {
		Error Error `json:"error"`
	}{Error{status, fmt.Sprintf(format, args...)}})
}

func (c Config) analyze(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		fail(w, http.StatusMethodNotAllowed, "use POST with the documents as the body")
		return
	}
	// ParseQuery, not URL.Query, which drops a part it cannot read (an
	// unencoded ";" ends keys=/a;/b) without saying so.
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		fail(w, http.StatusBadRequest, "the query string cannot be read: %v (encode ; as %%3B and , as %%2C in values)", err)
		return
	}
	settings, err := options.Parse(q, options.API)
	if err == nil && c.MaxExactValues > 0 {
		err = options.ExactValues(settings, options.API, c.MaxExactValues)
	}
	if err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	// aggregates=true: the body is per-key aggregates (pkcalc aggregate-query's
	// result) for the one key named; docBytes sizes rows without bytes.
	format := cmp.Or(settings.Format, "json")
	opts := analysis.OptionsFrom(settings)
	opts.MaxExactValues = c.MaxExactValues
	opts.ReadChunk = c.ReadChunk
	if c.MaxWorkers > 0 && (opts.Workers == 0 || opts.Workers > c.MaxWorkers) {
		opts.Workers = c.MaxWorkers // 0 is one per core, which may be more
	}
	csv, err := bodyKind(r.Header.Get("Content-Type"))
	if err != nil {
		fail(w, http.StatusUnsupportedMediaType, "%v", err)
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
	if settings.Aggregates {
		rows, problems := aggregate.Read(body, opts.Keys[0].Levels())
		var tooLarge *http.MaxBytesError
		for _, p := range problems {
			if errors.As(p, &tooLarge) {
				fail(w, http.StatusRequestEntityTooLarge, "the body is over the %d bytes this server takes", tooLarge.Limit)
				return
			}
		}
		if len(rows) == 0 {
			msg := "no aggregate row could be read"
			if len(problems) > 0 {
				msg += ": " + problems[0].Error()
			}
			fail(w, http.StatusBadRequest, "%s", msg)
			return
		}
		aggregate.SizeRows(rows, settings.DocBytes)
		rep := analysis.AnalyzeAggregates(rows, problems, opts.Keys[0], opts)
		if wantsStream(r.Header.Get("Accept")) {
			w.Header().Set("Content-Type", "application/x-ndjson")
			json.NewEncoder(w).Encode(reportEvent(rep))
			return
		}
		write(w, format, rep)
		return
	}
	var src analysis.Source = ingest.NewReader(body)
	if csv {
		src = ingest.NewCSVReader(body)
	}

	stream := wantsStream(r.Header.Get("Accept"))
	var enc *json.Encoder
	flush := func() {}
	if stream {
		w.Header().Set("Content-Type", "application/x-ndjson")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
		enc = json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		if f, ok := w.(http.Flusher); ok {
			flush = f.Flush
		}
		start := time.Now()
		opts.Progress = func(p analysis.Progress) {
			enc.Encode(Event{Type: "progress", Bytes: p.Bytes, Documents: p.Documents, Elapsed: time.Since(start).Seconds()})
			flush()
		}
	}

	rep, err := analysis.AnalyzeSource(src, opts)
	status := http.StatusOK
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		status = http.StatusRequestEntityTooLarge
		err = fmt.Errorf("the body is over the %d bytes this server takes", tooLarge.Limit)
	case err != nil:
		status = http.StatusBadRequest
		err = fmt.Errorf("reading the body: %v", err)
	case rep.Documents == 0 && rep.Input.ErrorCount > 0:
		// Nothing usable: the input as a whole is malformed.
		status = http.StatusBadRequest
		p := rep.Input.Errors[0]
		err = fmt.Errorf("no document could be read; line %d, column %d: %s", p.Line, p.Column, p.Message)
	case rep.Documents == 0:
		status = http.StatusBadRequest
		what := "it is empty or only white space"
		if rep.Input.Format != "empty" {
			what = "read as " + rep.Input.Format // an empty array, a CSV header alone
		}
		err = fmt.Errorf("the input holds no documents (%s): send JSON documents (an array, JSON Lines) or CSV rows", what)
	}
	if stream {
		if err != nil {
			enc.Encode(Event{Type: "error", Error: &Error{status, err.Error()}})
		} else {
			enc.Encode(reportEvent(rep))
		}
		flush()
		return
	}
	if err != nil {
		fail(w, status, "%v", err)
		return
	}
	write(w, format, rep)
}

// writeJSON is report.WriteJSON; a test makes it fail.
var writeJSON = report.WriteJSON

// reportEvent is the stream's report event, or an error event when the
// report cannot be written: never a report event without its report.
func reportEvent(rep *report.Report) Event {
	var b strings.Builder
	if err := writeJSON(&b, rep); err != nil {
		return Event{Type: "error", Error: &Error{http.StatusInternalServerError, "the report could not be written: " + err.Error()}}
	}
	return Event{Type: "report", JSON: b.String()}
}

// write writes the report in format.
func write(w http.ResponseWriter, format string, rep *report.Report) {
	send(w, format, "the report", func(out io.Writer) error {
		switch format {
		case "markdown":
			return report.WriteMarkdown(out, rep)
		case "csv":
			return report.WriteCSV(out, rep)
		case "text":
			return report.WriteText(out, rep)
		}
		return writeJSON(out, rep)
	})
}

// contentTypes holds the Content-Type of each format but JSON, the default.
var contentTypes = map[string]string{
	"markdown": "text/markdown; charset=utf-8",
	"csv":      "text/csv; charset=utf-8",
	"text":     "text/plain; charset=utf-8",
}

// send answers with what writeTo writes in format. Should writing fail
// before anything is sent, the answer is a 500 naming what could not be
// written, not a 200 with no body; once part of it is sent, its status is
// too, and only the client's going away stops it.
func send(w http.ResponseWriter, format, what string, writeTo func(io.Writer) error) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	ct, ok := contentTypes[format]
	if !ok {
		ct = "application/json"
	}
	h.Set("Content-Type", ct)
	sent := &sentWriter{w: w}
	if err := writeTo(sent); err != nil && !sent.any {
		fail(w, http.StatusInternalServerError, "%s could not be written: %v", what, err)
	}
}

// sentWriter tells whether anything was written.
type sentWriter struct {
	w   io.Writer
	any bool
}

func (s *sentWriter) Write(p []byte) (int, error) {
	s.any = s.any || len(p) > 0
	return s.w.Write(p)
}

// bodyKind tells JSON bodies from CSV ones by Content-Type, and refuses
// the rest. No Content-Type means JSON.
func bodyKind(ct string) (csv bool, err error) {
	if ct == "" {
		return false, nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false, fmt.Errorf("unreadable Content-Type %q", ct)
	}
	switch mt {
	case "application/json", "application/x-ndjson", "application/jsonl", "application/x-jsonlines", "application/json-seq",
		"text/plain", "application/octet-stream":
		return false, nil
	case "text/csv", "text/tab-separated-values":
		return true, nil
	}
	return false, fmt.Errorf("Content-Type %s is not accepted: send documents as application/json, application/x-ndjson or text/csv", mt)
}

func wantsStream(accept string) bool {
	for _, part := range strings.Split(accept, ",") {
		if mt, _, err := mime.ParseMediaType(strings.TrimSpace(part)); err == nil && mt == "application/x-ndjson" {
			return true
		}
	}
	return false
}
