package api

import (
	"net/http"
	"strconv"
)

// RetryAfterSeconds is the Retry-After of a 503 past Config.MaxAnalyses:
// natively an analysis reads about 100 MB a second (docs/PERFORMANCE.md),
// so in 5 s most of those under way have ended.
const RetryAfterSeconds = 5

// limitAnalyses lets at most n analyses (POST requests) into the handlers it wraps at once,
// and answers the rest 503 at once, before reading their bodies, with
// Retry-After. n of 0 or less is no bound. Other methods pass, as h
// answers them without reading a body.
func limitAnalyses(n int) func(h http.Handler) http.Handler {
	if n <= 0 {
		return func(h http.Handler) http.Handler { return h }
	}
	slots := make(chan struct{}, n)
	return func(h http.Handler) http.Handler { return limited(slots, n, h) }
}

// limited lets h take a slot of slots, shared by every endpoint limited
// by them: a diagnosis counts as an analysis.
func limited(slots chan struct{}, n int, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			h.ServeHTTP(w, r)
			return
		}
		select {
		case slots <- struct{}{}:
			defer func() { <-slots }()
			h.ServeHTTP(w, r)
		default:
			w.Header().Set("Retry-After", strconv.Itoa(RetryAfterSeconds))
			fail(w, http.StatusServiceUnavailable, "this server is running as many analyses as it takes at once (%d): try again in %d seconds", n, RetryAfterSeconds)
		}
	})
}

// WriteError answers as the API answers every failed request: status,
// and an error body of JSON (Error under "error"). It is for checks a
// server makes in front of Handler, so that their refusals read like the
// API's own.
func WriteError(w http.ResponseWriter, status int, format string, args ...any) {
	fail(w, status, format, args...)
}
