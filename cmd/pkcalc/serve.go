package main

import (
	"errors"
	"fmt"
	"html"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pkcalc/pkcalc/core/api"
)

func runServe(args []string, stdout, stderr io.Writer) int {
	c := newCommand("serve", "Usage: pkcalc serve [--dir DIR] [--addr HOST:PORT]\n\nServes the web app built by ./build.sh dist, and the HTTP API at /v1/.", stdout, stderr)
	dir := c.fs.String("dir", "dist", "`directory` of the built site")
	addr := c.fs.String("addr", "127.0.0.1:8080", "`address` to listen on; port 0 picks a free one")
	maxBody := whole(c.fs, "max-body", int64(1<<30), "largest request body the API takes, in `bytes`; 0 for no limit")
	maxAnalyses := whole(c.fs, "max-analyses", defaultMaxAnalyses(), fmt.Sprintf("`number` of analyses the API runs at once, past which it answers 503; 0 for no bound; by default one a core, fewer if GOMEMLIMIT cannot hold %d MiB each", analysisMemory>>20))
	if rest, code, ok := c.parse(args, false); !ok {
		return code
	} else if len(rest) > 0 {
		return c.fail("unexpected argument %q: give the directory with --dir", rest[0])
	}
	if *maxBody < 0 {
		// Taken as no limit, a negative size would turn off the bound.
		return c.fail("--max-body must be 0 (no limit) or more bytes, not %d", *maxBody)
	}
	if *maxAnalyses < 0 {
		return c.fail("--max-analyses must be 0 (no bound) or more, not %d", *maxAnalyses)
	}
	if _, err := os.Stat(filepath.Join(*dir, "index.html")); err != nil {
		fmt.Fprintf(stderr, "pkcalc serve: %s has no index.html: build the site first with ./build.sh dist\n", *dir)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		fmt.Fprintf(stderr, "pkcalc serve: %s is in use by another program (a pkcalc serve still running?): stop it, or pick another port with --addr (./build.sh serve --port N)\n", *addr)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "pkcalc serve: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "pkcalc: serving %s at http://%s/\n", *dir, ln.Addr())
	s := served{
		dir:    *dir,
		api:    api.Config{MaxBodyBytes: *maxBody, MaxAnalyses: *maxAnalyses},
		hosts:  servedHosts(*addr, ln.Addr().(*net.TCPAddr).IP),
		limits: defaultLimits,
	}
	if err := s.server().Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "pkcalc serve: %v\n", err)
		return 1
	}
	return 0
}

// siteHandler serves the static site. It never reads request bodies: the
// app analyses documents in the browser. It serves no file or directory
// whose name starts with a dot (serve --dir . would have served .git/) and
// lists no directory: one without an index.html is not found.
//
// Every response carries the page's Content-Security-Policy as a header,
// the one of the <meta> tag in index.html (the one place it is written):
// the engine's module worker takes its policy from engine.js's response,
// not from the page, and without the header it could connect anywhere.
// An HTML file with a policy of its own in a <meta> tag (pkcalc.html, the
// single-file build) is sent with that one instead.
func siteHandler(dir string) http.Handler {
	files := http.FileServer(siteFS{http.Dir(dir)})
	policies := &policyCache{dir: dir, byFile: map[string]cachedPolicy{}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		if hidden(path.Clean("/" + r.URL.Path)) {
			if p := policies.forPath("/"); p != "" {
				h.Set("Content-Security-Policy", p)
			}
			http.NotFound(w, r)
			return
		}
		if p := policies.forPath(r.URL.Path); p != "" {
			h.Set("Content-Security-Policy", p)
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		// An address without an extension that names no file but an HTML
		// file's name without its .html gets that file, as on Cloudflare
		// Workers' static assets (which redirect /embed.html to /embed).
		if name := path.Clean("/" + r.URL.Path); !strings.HasSuffix(r.URL.Path, "/") && path.Ext(name) == "" && name != "/" {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
				if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name)+".html")); err == nil && st.Mode().IsRegular() {
					r = r.Clone(r.Context())
					r.URL.Path = name + ".html"
					if p := policies.forPath(r.URL.Path); p != "" {
						h.Set("Content-Security-Policy", p)
					}
				}
			}
		}
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

// siteFS is the site's directory as the file server opens it: no name
// with a part that starts with a dot, no directory without index.html
// (whose listing the file server would write). Either is not found.
type siteFS struct{ fs http.FileSystem }

func (s siteFS) Open(name string) (http.File, error) {
	if hidden(name) {
		return nil, os.ErrNotExist
	}
	f, err := s.fs.Open(name)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		index, err := s.fs.Open(path.Join(name, "index.html"))
		if err != nil {
			f.Close()
			return nil, os.ErrNotExist
		}
		index.Close()
	}
	return f, nil
}

// hidden tells a path with a part that starts with a dot (.git, .env).
func hidden(name string) bool {
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}

// cspMeta finds the policy of an HTML file.
var cspMeta = regexp.MustCompile(`(?i)<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"\s*/?>`)

// policyCache reads the policies of the site's HTML files, again whenever
// a file changes (a new build while pkcalc serve runs).
type policyCache struct {
	dir    string
	mu     sync.Mutex
	byFile map[string]cachedPolicy
}

type cachedPolicy struct {
	mod    time.Time
	size   int64
	policy string
}

// forPath is the policy for a request's path: the HTML file's own, if it is
// one with a policy, else index.html's; "" when index.html has none.
func (c *policyCache) forPath(urlPath string) string {
	name := path.Clean("/" + urlPath)
	if strings.HasSuffix(urlPath, "/") {
		name = path.Join(name, "index.html")
	}
	if strings.HasSuffix(name, ".html") {
		if p := c.file(name); p != "" {
			return p
		}
	}
	return c.file("/index.html")
}

// file is the policy of the <meta> tag of the HTML file at name (a clean
// path from the site's root), "" if it has none or there is no such file.
func (c *policyCache) file(name string) string {
	file := filepath.Join(c.dir, filepath.FromSlash(name))
	st, err := os.Stat(file)
	if err != nil || !st.Mode().IsRegular() {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.byFile[name]; ok && p.mod.Equal(st.ModTime()) && p.size == st.Size() {
		return p.policy
	}
	p := cachedPolicy{mod: st.ModTime(), size: st.Size()}
	if f, err := os.Open(file); err == nil {
		// The tag is in the head, at the top: no need to read a whole
		// single-file build.
		head := make([]byte, 16<<10)
		n, _ := io.ReadFull(f, head)
		f.Close()
		p.policy = policyOf(head[:n])
	}
	c.byFile[name] = p
	return p.policy
}

// policyOf is the Content-Security-Policy of an HTML document's <meta> tag,
// as a header value: entities decoded, white space made single spaces.
func policyOf(doc []byte) string {
	m := cspMeta.FindSubmatch(doc)
	if m == nil {
		return ""
	}
	return strings.Join(strings.Fields(html.UnescapeString(string(m[1]))), " ")
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
