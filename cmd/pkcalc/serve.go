package main

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pkcalc/pkcalc/core/api"
)

func runServe(args []string, stdout, stderr io.Writer) int {
	c := newCommand("serve", "Usage: pkcalc serve [--dir DIR] [--addr HOST:PORT]\n\nServes the web app built by ./build.sh dist, and the HTTP API at /v1/.", stdout, stderr)
	dir := c.fs.String("dir", "dist", "`directory` of the built site")
	addr := c.fs.String("addr", "127.0.0.1:8080", "`address` to listen on; port 0 picks a free one")
	maxBody := c.fs.Int64("max-body", 1<<30, "largest request body the API takes, in `bytes`")
	if rest, code, ok := c.parse(args, false); !ok {
		return code
	} else if len(rest) > 0 {
		return c.fail("unexpected argument %q: give the directory with --dir", rest[0])
	}
	if _, err := os.Stat(filepath.Join(*dir, "index.html")); err != nil {
		fmt.Fprintf(stderr, "pkcalc serve: %s has no index.html: build the site first with ./build.sh dist\n", *dir)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "pkcalc serve: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "pkcalc: serving %s at http://%s/\n", *dir, ln.Addr())
	mux := http.NewServeMux()
	mux.Handle("/v1/", api.Handler(api.Config{MaxBodyBytes: *maxBody}))
	mux.Handle("/", siteHandler(*dir))
	if err := http.Serve(ln, mux); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "pkcalc serve: %v\n", err)
		return 1
	}
	return 0
}

// siteHandler serves the static site. It never reads request bodies: the
// app analyses documents in the browser.
func siteHandler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-cache")
		h.Set("Vary", "Accept-Encoding")
		if ct := mime.TypeByExtension(path.Ext(r.URL.Path)); ct != "" {
			h.Set("Content-Type", ct)
		}
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			h.Set("Content-Type", "application/wasm")
		}
		// The build writes .gz, and .br where brotli is installed, beside
		// large files: send the smaller one the browser takes (the
		// WebAssembly shrinks to about a third with gzip, less with brotli).
		if !strings.HasSuffix(r.URL.Path, "/") {
			accepts := acceptedEncodings(r.Header.Get("Accept-Encoding"))
			for _, enc := range []struct{ name, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
				if !accepts[enc.name] {
					continue
				}
				if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(path.Clean(r.URL.Path))+enc.ext)); err == nil && !st.IsDir() {
					h.Set("Content-Encoding", enc.name)
					r2 := r.Clone(r.Context())
					r2.URL.Path += enc.ext
					files.ServeHTTP(w, r2)
					return
				}
			}
		}
		files.ServeHTTP(w, r)
	})
}

// acceptedEncodings reads Accept-Encoding: the codings named without q=0.
// "*" is not expanded: browsers name br and gzip.
func acceptedEncodings(header string) map[string]bool {
	out := map[string]bool{}
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		refused := false
		for _, p := range strings.Split(params, ";") {
			if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if q, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && q == 0 {
					refused = true
				}
			}
		}
		out[name] = !refused
	}
	return out
}
