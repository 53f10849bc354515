package api

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pkcalc/pkcalc/core/sample"
)

// held is an analysis under way: its body is a pipe the test holds open,
// and the handler has read its first documents.
type held struct {
	body *io.PipeWriter
	done chan *httptest.ResponseRecorder
}

func holdAnalysis(t *testing.T, h http.Handler) held {
	t.Helper()
	pr, pw := io.Pipe()
	r := httptest.NewRequest(http.MethodPost, "/v1/analyze?keys=/tenantId&noSuggest=true", pr)
	r.ContentLength = -1
	a := held{pw, make(chan *httptest.ResponseRecorder, 1)}
	go func() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		a.done <- w
	}()
	// A pipe's Write returns once the reader has taken every byte: the
	// handler is reading this body, so it holds a place.
	written := make(chan error, 1)
	go func() { _, err := io.WriteString(pw, sample.OrdersText(50)); written <- err }()
	select {
	case err := <-written:
		if err != nil {
			t.Fatal(err)
		}
	case w := <-a.done:
		t.Fatalf("the analysis ended before its body did: %d %s", w.Code, w.Body.String())
	case <-time.After(10 * time.Second):
		t.Fatal("the handler never read the body")
	}
	return a
}

// finish ends the body; the analysis answers 200.
func (a held) finish(t *testing.T) {
	t.Helper()
	a.body.Close()
	if w := <-a.done; w.Code != 200 {
		t.Errorf("the held analysis: %d %.200s", w.Code, w.Body.String())
	}
}

// TestMaxAnalyses: with MaxAnalyses n, n analyses run and the next POST
// is answered 503 with Retry-After and the API's error body, at once and
// even when it asks for a stream; other methods are answered as before;
// a place is free again once an analysis ends. 0 is no bound.
func TestMaxAnalyses(t *testing.T) {
	docs := sample.OrdersText(20)
	for _, tc := range []struct {
		name     string
		max      int
		under    int    // analyses held open
		method   string // the next request
		accept   string
		status   int
		busyText string
	}{
		{"one of one", 1, 1, http.MethodPost, "", 503, "as many analyses as it takes at once (1)"},
		{"two of two", 2, 2, http.MethodPost, "", 503, "as many analyses as it takes at once (2)"},
		{"two of two, a stream", 2, 2, http.MethodPost, "application/x-ndjson", 503, "as many analyses as it takes at once (2)"},
		{"one of two", 2, 1, http.MethodPost, "", 200, ""},
		{"a GET past the bound", 1, 1, http.MethodGet, "", 405, ""},
		{"no bound", 0, 3, http.MethodPost, "", 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := Handler(Config{MaxAnalyses: tc.max})
			var under []held
			for range tc.under {
				under = append(under, holdAnalysis(t, h))
			}
			r := httptest.NewRequest(tc.method, "/v1/analyze?keys=/tenantId", strings.NewReader(docs))
			if tc.accept != "" {
				r.Header.Set("Accept", tc.accept)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tc.status {
				t.Fatalf("%s with %d of %d under way: %d %.300s; want %d", tc.method, tc.under, tc.max, w.Code, w.Body.String(), tc.status)
			}
			if tc.status == 503 {
				var body struct{ Error Error }
				err := json.Unmarshal(w.Body.Bytes(), &body)
				if ra, _ := strconv.Atoi(w.Header().Get("Retry-After")); ra != RetryAfterSeconds || err != nil || w.Header().Get("Content-Type") != "application/json" ||
					body.Error.Status != 503 || !strings.Contains(body.Error.Message, tc.busyText) {
					t.Errorf("503: Retry-After %q, Content-Type %q, body %s (%v)", w.Header().Get("Retry-After"), w.Header().Get("Content-Type"), w.Body.String(), err)
				}
				// The place of an analysis that ends is free again.
				under[0].finish(t)
				under = under[1:]
				w = httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/v1/analyze?keys=/tenantId", strings.NewReader(docs)))
				if w.Code != 200 {
					t.Errorf("after one ended: %d %.300s", w.Code, w.Body.String())
				}
			}
			for _, a := range under {
				a.finish(t)
			}
		})
	}
}

// TestMaxAnalysesFailed: an analysis that fails (here a 400) gives its
// place back too.
func TestMaxAnalysesFailed(t *testing.T) {
	h := Handler(Config{MaxAnalyses: 1})
	for i := range 3 {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/v1/analyze", strings.NewReader(`{"a":}`)))
		if w.Code != 400 {
			t.Fatalf("request %d: %d %s", i, w.Code, w.Body.String())
		}
	}
}
