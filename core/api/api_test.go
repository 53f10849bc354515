package api

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/pkcalc/pkcalc/core/analysis"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/core/sample"
)

func post(t *testing.T, h http.Handler, target, ctype, accept, body string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, target, strings.NewReader(body))
	if ctype != "" {
		r.Header.Set("Content-Type", ctype)
	}
	if accept != "" {
		r.Header.Set("Accept", accept)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestAnalyzeJSON(t *testing.T) {
	h := Handler(Config{})
	docs := sample.OrdersText(300)
	w := post(t, h, "/v1/analyze?keys=/tenantId&ru=4000&targetGb=10", "application/x-ndjson", "", docs)
	if w.Code != 200 || w.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("%d %s: %s", w.Code, w.Header().Get("Content-Type"), w.Body.String())
	}
	// The same bytes as the report package writes for the same settings:
	// the handler adds nothing of its own.
	opts, _ := analysis.ParseOptions(map[string][]string{"keys": {"/tenantId"}, "ru": {"4000"}, "targetGb": {"10"}})
	rep, _ := analysis.Analyze(strings.NewReader(docs), opts)
	var want strings.Builder
	report.WriteJSON(&want, rep)
	if w.Body.String() != want.String() {
		t.Error("the API's report differs from the report package's")
	}
}

func TestAnalyzeStream(t *testing.T) {
	h := Handler(Config{})
	docs := sample.OrdersText(8000) // over 1 MB: at least one progress line
	w := post(t, h, "/v1/analyze?noSuggest=true&keys=/tenantId&keys=/id", "", "application/x-ndjson", docs)
	if w.Code != 200 || w.Header().Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("%d %s", w.Code, w.Header().Get("Content-Type"))
	}
	var events []Event
	sc := bufio.NewScanner(w.Body)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var e Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		events = append(events, e)
	}
	if len(events) < 2 || events[0].Type != "progress" || events[0].Bytes == 0 {
		t.Fatalf("events: %+v", events)
	}
	last := events[len(events)-1]
	var rep report.Report
	if err := json.Unmarshal([]byte(last.JSON), &rep); last.Type != "report" || err != nil || rep.Documents != 8000 || len(rep.Candidates) != 2 {
		t.Errorf("last event %s: %v", last.Type, err)
	}
}

func TestAnalyzeCSV(t *testing.T) {
	w := post(t, Handler(Config{}), "/v1/analyze?format=csv", "text/csv", "", "id,tenant,total\n1,a,10\n2,b,12.5\n3,c,7\n4,d,1\n5,a,2\n6,b,3\n7,c,4\n8,d,5\n9,e,6\n")
	if w.Code != 200 || !strings.HasPrefix(w.Body.String(), "rank,key,kind") || !strings.Contains(w.Body.String(), "/tenant") {
		t.Errorf("%d %s", w.Code, w.Body.String())
	}
}

// TestKeyInArray: a key that steps into an array of the documents is
// reported as a warning that names the array.
func TestKeyInArray(t *testing.T) {
	docs := `{"id":"1","items":[{"sku":"a"}]}` + "\n" + `{"id":"2","items":[{"sku":"b"}]}` + "\n"
	w := post(t, Handler(Config{}), "/v1/analyze?keys=/items/sku&noSuggest=true", "application/x-ndjson", "", docs)
	var rep report.Report
	if err := json.Unmarshal(w.Body.Bytes(), &rep); w.Code != 200 || err != nil || len(rep.Warnings) != 1 || rep.Warnings[0].Code != report.KeyInArray ||
		!strings.Contains(rep.Warnings[0].Message, "The key /items/sku steps into /items, which holds an array in 2 of the 2 documents") {
		t.Errorf("%d %v %+v", w.Code, err, rep.Warnings)
	}
}

func TestAggregates(t *testing.T) {
	h := Handler(Config{})
	body := "k0,documents,bytes\n\"contoso\",900,900000\n\"fabrikam\",100,100000\n"
	w := post(t, h, "/v1/analyze?aggregates=true&keys=/tenantId&targetGb=100", "text/csv", "", body)
	var rep report.Report
	if err := json.Unmarshal(w.Body.Bytes(), &rep); w.Code != 200 || err != nil || rep.Documents != 1000 || rep.Input.Format != "per-key aggregates" ||
		rep.Candidates[0].LogicalPartitions != 2 {
		t.Fatalf("%d %v %s", w.Code, err, w.Body.String())
	}
	w = post(t, h, "/v1/analyze?aggregates=true", "text/csv", "", body)
	if w.Code != 400 || !strings.Contains(w.Body.String(), "exactly one key") {
		t.Errorf("%d %s", w.Code, w.Body.String())
	}
	w = post(t, h, "/v1/analyze?aggregates=true&keys=/t", "text/csv", "", "nonsense")
	if w.Code != 400 || !strings.Contains(w.Body.String(), "no aggregate row could be read") {
		t.Errorf("%d %s", w.Code, w.Body.String())
	}
}

func TestErrors(t *testing.T) {
	h := Handler(Config{MaxBodyBytes: 1000})
	for _, tt := range []struct {
		name, method, target, ctype, body string
		status                            int
		msg                               string
	}{
		{"get", http.MethodGet, "/v1/analyze", "", "", 405, "use POST"},
		{"unknown path", http.MethodPost, "/v2/x", "", "{}", 404, "no such endpoint"},
		{"content type", http.MethodPost, "/v1/analyze", "application/xml", "<a/>", 415, "Content-Type application/xml is not accepted"},
		{"bad option", http.MethodPost, "/v1/analyze?ru=lots", "", `{"a":1}`, 400, `ru must be a whole number of 0 or more, not "lots"`},
		{"unknown option", http.MethodPost, "/v1/analyze?colour=red", "", `{"a":1}`, 400, `unknown option "colour"`},
		// The list names the API's own options too.
		{"options listed", http.MethodPost, "/v1/analyze?colour=red", "", `{"a":1}`, 400, `queries, aggregates, docBytes, format`},
		{"semicolon", http.MethodPost, "/v1/analyze?keys=/tenantId;/id", "", `{"a":1}`, 400, `the query string cannot be read: invalid semicolon separator in query`},
		{"bad docBytes", http.MethodPost, "/v1/analyze?aggregates=true&keys=/t&docBytes=big", "", `{"a":1}`, 400, `docBytes must be a whole number of 1 or more, not "big"`},
		// A system property or a step into an array is no key.
		{"system property", http.MethodPost, "/v1/analyze?keys=/_ts", "", `{"a":1}`, 400, `keys: /_ts is a system property (last-modified time in epoch seconds, set by Cosmos DB): the service writes it as it stores the item, so it cannot place the item`},
		{"system property level", http.MethodPost, "/v1/analyze?keys=/tenantId,/_self", "", `{"a":1}`, 400, `keys: level 2 of key "/tenantId,/_self": /_self is a system property (resource link, set by Cosmos DB)`},
		{"array", http.MethodPost, "/v1/analyze?keys=/tags/%5B%5D/name", "", `{"a":1}`, 400, `keys: path "/tags/[]/name" steps into an array or a wildcard ([])`},
		{"bad format", http.MethodPost, "/v1/analyze?format=xml", "", `{"a":1}`, 400, "format must be text, json, markdown or csv"},
		{"malformed", http.MethodPost, "/v1/analyze", "", `{"a":}`, 400, "no document could be read; line 1, column 6: expected a JSON value"},
		{"empty", http.MethodPost, "/v1/analyze", "", " \n", 400, "the input holds no documents (it is empty or only white space)"},
		{"empty array", http.MethodPost, "/v1/analyze", "", "[]", 400, "the input holds no documents (read as JSON array)"},
		{"header alone", http.MethodPost, "/v1/analyze", "text/csv", "tenantId,id\n", 400, "the input holds no documents (read as CSV)"},
		{"too large", http.MethodPost, "/v1/analyze", "", strings.Repeat(`{"a":1}`+"\n", 200), 413, "at most 1000"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, tt.target, strings.NewReader(tt.body))
			if tt.ctype != "" {
				r.Header.Set("Content-Type", tt.ctype)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			var body struct{ Error Error }
			json.Unmarshal(w.Body.Bytes(), &body)
			if w.Code != tt.status || body.Error.Status != tt.status || !strings.Contains(body.Error.Message, tt.msg) || w.Header().Get("Content-Type") != "application/json" {
				t.Errorf("%d %q, want %d %q", w.Code, w.Body.String(), tt.status, tt.msg)
			}
		})
	}
}

func TestTooLargeWithoutLength(t *testing.T) {
	// A streamed body has no Content-Length: the limit still holds.
	h := Handler(Config{MaxBodyBytes: 1000})
	for _, tc := range []struct{ name, target, body string }{
		{"documents", "/v1/analyze", strings.Repeat(`{"a":1}`+"\n", 300)},
		{"aggregates as CSV", "/v1/analyze?aggregates=true&keys=/t", "k0,documents\n" + strings.Repeat("\"a\",1\n", 200)},
		{"aggregates as a JSON array", "/v1/analyze?aggregates=true&keys=/t", "[" + strings.Repeat(`{"k0":"a","documents":1},`, 100) + "]"},
		{"aggregates as JSON Lines", "/v1/analyze?aggregates=true&keys=/t", strings.Repeat(`{"k0":"a","documents":1}`+"\n", 100)},
	} {
		r := httptest.NewRequest(http.MethodPost, tc.target, io.MultiReader(strings.NewReader(tc.body)))
		r.ContentLength = -1
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != 413 {
			t.Errorf("%s: %d %.300s", tc.name, w.Code, w.Body.String())
		}
	}
}

// TestWriteFailure: should the report not be written, the answer says so:
// a 500 with the error, or an error event in a stream, never a 200 with an
// empty body or a report event with no report (as json: unsupported value:
// +Inf once made them).
func TestWriteFailure(t *testing.T) {
	defer func(w func(io.Writer, *report.Report) error) { writeJSON = w }(writeJSON)
	writeJSON = func(io.Writer, *report.Report) error { return errors.New("json: unsupported value: +Inf") }
	h := Handler(Config{})
	docs := sample.OrdersText(50)
	w := post(t, h, "/v1/analyze?keys=/tenantId", "", "", docs)
	var body struct{ Error Error }
	if err := json.Unmarshal(w.Body.Bytes(), &body); w.Code != 500 || err != nil ||
		body.Error.Message != "the report could not be written: json: unsupported value: +Inf" {
		t.Errorf("%d %q", w.Code, w.Body.String())
	}
	aggs := "k0,documents,bytes\n\"contoso\",900,900000\n\"fabrikam\",100,100000\n"
	for _, tt := range []struct{ target, ctype, body string }{
		{"/v1/analyze?keys=/tenantId", "", docs},
		{"/v1/analyze?aggregates=true&keys=/tenantId", "text/csv", aggs},
	} {
		w := post(t, h, tt.target, tt.ctype, "application/x-ndjson", tt.body)
		lines := strings.Split(strings.TrimSpace(w.Body.String()), "\n")
		var last Event
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last.Type != "error" || last.Error == nil ||
			last.Error.Status != 500 || !strings.Contains(last.Error.Message, "unsupported value") {
			t.Errorf("%s: last event %s", tt.target, lines[len(lines)-1])
		}
	}
}

// TestOverflowingWeights: weights of 1e308 summed to +Inf and the API
// answered 200 with an empty body, the stream a report event with no
// report. Both carry the report now.
func TestOverflowingWeights(t *testing.T) {
	var docs strings.Builder
	for i := range 30 {
		fmt.Fprintf(&docs, `{"id":"%d","tenantId":"t%d","w":1e308}`+"\n", i, i%4)
	}
	target := "/v1/analyze?keys=/tenantId&noSuggest=true&weightField=/w&readsPerSecond=1e9&writesPerSecond=1e9"
	w := post(t, Handler(Config{}), target, "", "", docs.String())
	var rep report.Report
	if err := json.Unmarshal(w.Body.Bytes(), &rep); w.Code != 200 || err != nil || len(rep.Candidates) != 1 || rep.Warnings[0].Code != report.WeightFieldCapped {
		t.Errorf("%d %v %.300s", w.Code, err, w.Body.String())
	}
	w = post(t, Handler(Config{}), target, "", "application/x-ndjson", docs.String())
	lines := strings.Split(strings.TrimSpace(w.Body.String()), "\n")
	var last Event
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last.Type != "report" || json.Unmarshal([]byte(last.JSON), &rep) != nil {
		t.Errorf("last event %.300s", lines[len(lines)-1])
	}
}

// TestMaxExactValues: a host of less memory refuses more values kept
// exactly than it holds, naming the product, as options.Parse does for
// MaxExactValues; below it the analysis runs.
func TestMaxExactValues(t *testing.T) {
	h := Handler(Config{MaxExactValues: 100_000})
	for _, tt := range []struct {
		query string
		code  int
		says  string
	}{
		{"keys=/a&keys=/b", http.StatusOK, ""},
		{"keys=/a&keys=/b&keys=/c", http.StatusBadRequest, "3 keys at maxDistinct 50,000 each keep up to 150,000 values exactly, more than pkcalc keeps in all here (100,000, which takes about 50 MB of memory)"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/analyze?"+tt.query, strings.NewReader(`{"id":"1","a":"x"}`)))
		if rec.Code != tt.code || !strings.Contains(rec.Body.String(), tt.says) {
			t.Errorf("%s: %d %s, want %d %q", tt.query, rec.Code, rec.Body, tt.code, tt.says)
		}
	}
}

// TestAnalyzeTableAndUnseenName: the API reads what people paste as the
// command line does: JSON Lines of arrays as a table, with its note, and
// a key that names a property only by what it shows (/ISO for a name with
// a byte order mark before it) says which path it probably meant.
func TestAnalyzeTableAndUnseenName(t *testing.T) {
	body := "[\"\ufeffISO\",\"id\",\"population\"]\n[\"FR\",\"1\",68]\n[\"DE\",\"2\",84]\n[\"IT\",\"3\"]\n[\"ES\",\"4\",48]\n"
	w := post(t, Handler(Config{}), "/v1/analyze?keys=/ISO&noSuggest=true", "application/json", "", body)
	if w.Code != 200 {
		t.Fatalf("%d: %s", w.Code, w.Body.String())
	}
	var rep report.Report
	if err := json.Unmarshal(w.Body.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Input.Format != "JSON Lines of arrays" || rep.Documents != 3 || rep.Input.ErrorCount != 1 || rep.Input.Notes != 2 {
		t.Errorf("read as %s: %d documents, %d errors, %d notes", rep.Input.Format, rep.Documents, rep.Input.ErrorCount, rep.Input.Notes)
	}
	if e := rep.Input.Errors; len(e) != 1 || e[0].Line != 4 || e[0].Message != "a row of 2 values, and the header row names 3 columns; skipped" {
		t.Errorf("errors %+v", e)
	}
	if n := rep.Input.Warnings; len(n) != 2 || !strings.HasPrefix(n[0].Message, "the first line is an array of 3 names") ||
		!strings.Contains(n[1].Message, `"\ufeffISO", holds a byte order mark (U+FEFF) before "ISO"`) {
		t.Errorf("notes %+v", n)
	}
	var paths []string
	for _, p := range rep.Paths {
		paths = append(paths, p.Path)
	}
	if strings.Join(paths, " ") != `/"\ufeffISO" /id /population` {
		t.Errorf("paths %q", paths)
	}
	found := false
	for _, n := range rep.Warnings {
		if n.Code == report.KeyNotFound && strings.Contains(n.Message, `/"\ufeffISO", with a byte order mark (U+FEFF) before "ISO", is in 3 documents: did you mean it?`) {
			found = true
		}
	}
	if !found {
		t.Errorf("no KEY_NOT_FOUND naming /\"\\ufeffISO\" in %+v", rep.Warnings)
	}
	// The JSON as sent: the mark is written \ufeff, not raw.
	if strings.Contains(w.Body.String(), "\ufeff") {
		t.Error("the report carries the byte order mark raw")
	}
}

// TestWorkers: the option workers reaches the analysis, with the host's
// ReadChunk and within its MaxWorkers; the report is the same bytes.
func TestWorkers(t *testing.T) {
	docs := sample.OrdersText(12_000) // 3.6 MB: chunks of a megabyte
	var want string
	for _, c := range []struct {
		name       string
		target     string
		maxWorkers int
		elsewhere  bool // chunks are read by ReadChunk
	}{
		{"one worker", "/v1/analyze?workers=1", 0, false},
		{"three", "/v1/analyze?workers=3", 0, true},
		{"three, the host's bound one", "/v1/analyze?workers=3", 1, false},
		{"the host's bound one", "/v1/analyze", 1, false},
	} {
		var calls atomic.Int32
		var cr ingest.ChunkReader
		var mu sync.Mutex
		h := Handler(Config{MaxWorkers: c.maxWorkers, ReadChunk: func(job []byte) ([]byte, error) {
			calls.Add(1)
			mu.Lock()
			defer mu.Unlock()
			answer, err := cr.Read(job)
			return bytes.Clone(answer), err
		}})
		w := post(t, h, c.target, "application/x-ndjson", "", docs)
		if w.Code != 200 {
			t.Fatalf("%s: %d %s", c.name, w.Code, w.Body.String())
		}
		if want == "" {
			want = w.Body.String()
		} else if w.Body.String() != want {
			t.Errorf("%s: the report differs from the one with one worker", c.name)
		}
		if got := calls.Load() > 0; got != c.elsewhere {
			t.Errorf("%s: %d chunks read by ReadChunk", c.name, calls.Load())
		}
	}
	w := post(t, Handler(Config{}), "/v1/analyze?workers=65", "application/x-ndjson", "", docs)
	if w.Code != 400 || !strings.Contains(w.Body.String(), "workers 65 is more than pkcalc starts (64 at most)") {
		t.Errorf("65 workers: %d %s", w.Code, w.Body.String())
	}
}
