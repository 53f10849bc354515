//go:build js && wasm

// Command engine is pkcalc's analysis engine in the browser: the HTTP API of
// package api, in a Web Worker of the page (public/engine.js). It holds no
// logic of its own.
//
// One Go instance serves every request of its worker, so the tab holds one
// Go heap, reused, rather than an instance per request whose memory (which
// never shrinks) stays until JavaScript collects it. In v0.32.0 of
// github.com/syumai/workers, workers.Serve cannot serve twice on one
// instance (every response closes the same done channel), while its hono
// package serves calls for as long as the instance lives, converting the
// request and the response, bodies streamed, as workers.Serve does.
// engine.js gives each call a context holding only the Request (req.raw);
// the response is set on it (res). wasm/engine/cloudflare still uses
// workers.Serve.
//
// The same program is the engine's helpers (engine.js starts them when an
// analysis asks for more than one worker): where pkcalcRole is "chunks" it
// reads the chunks of JSON Lines and arrays the engine hands them
// (chunks.go).
package main

import (
	"io"
	"net/http"
	"runtime/debug"
	"sync"
	"syscall/js"

	"github.com/syumai/workers/exp/hono"

	"github.com/pkcalc/pkcalc/core/analysis"
	"github.com/pkcalc/pkcalc/core/api"
)

func main() {
	if js.Global().Get("pkcalcRole").Equal(js.ValueOf("chunks")) {
		serveChunks()
		return
	}
	// The tab's engine may take analysis.MemoryBudget: past it the
	// collector runs as often as it must. A WebAssembly memory never
	// shrinks, so its peak is what the tab keeps.
	debug.SetMemoryLimit(analysis.MemoryBudget)
	h := api.Handler(api.Config{ReadChunk: readChunk})
	hono.ServeMiddleware(func(c *hono.Context, _ func()) { serve(h, c) })
}

// serve runs h on the request of c and sets c's response once h has
// written its header (or its first bytes, or returned), so that the body
// streams from the running handler (NDJSON progress, then the report)
// through a pipe.
func serve(h http.Handler, c *hono.Context) {
	req := c.Request()
	pr, pw := io.Pipe()
	w := &responseWriter{header: http.Header{}, body: pw, ready: make(chan struct{})}
	go func() {
		defer w.WriteHeader(http.StatusOK) // for a handler that wrote nothing
		defer pw.Close()
		// As net/http does: a body the handler left unread is cancelled, so
		// the File is no longer read.
		defer req.Body.Close()
		h.ServeHTTP(w, req)
	}()
	<-w.ready
	c.SetResponse(hono.NewJSResponse(pr, w.status, w.sent))
}

// responseWriter writes the body into a pipe whose other end is the JS
// Response's stream. As in net/http, status and headers are fixed by the
// first WriteHeader or Write. The pipe holds nothing back, so there is no
// Flush to offer.
type responseWriter struct {
	header http.Header
	body   *io.PipeWriter
	once   sync.Once
	status int
	sent   http.Header
	ready  chan struct{}
}

func (w *responseWriter) Header() http.Header { return w.header }

func (w *responseWriter) WriteHeader(status int) {
	w.once.Do(func() {
		w.status, w.sent = status, w.header.Clone()
		close(w.ready)
	})
}

func (w *responseWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(p)
}
