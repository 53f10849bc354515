package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/pkcalc/pkcalc/core/api"
)

func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "dist", "`directory` of the built site")
	addr := fs.String("addr", "127.0.0.1:8080", "`address` to listen on; port 0 picks a free one")
	maxBody := fs.Int64("max-body", 1<<30, "largest request body the API takes, in `bytes`")
	if err := fs.Parse(args); err != nil {
		return 2
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
		// The build writes .gz beside large files: send it to browsers that
		// take gzip (the WebAssembly shrinks to about a third).
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") && !strings.HasSuffix(r.URL.Path, "/") {
			if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(path.Clean(r.URL.Path))+".gz")); err == nil && !st.IsDir() {
				h.Set("Content-Encoding", "gzip")
				r2 := r.Clone(r.Context())
				r2.URL.Path += ".gz"
				files.ServeHTTP(w, r2)
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}
