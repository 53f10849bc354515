package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestSitePolicy: pkcalc serve sends the Content-Security-Policy of the
// page's <meta> tag (the repository's index.html) as a header on the
// engine's files and every other response; the single-file build keeps
// its own; /embed is embed.html.
func TestSitePolicy(t *testing.T) {
	page, err := os.ReadFile("../../index.html")
	if err != nil {
		t.Fatal(err)
	}
	// Read here on its own, not with policyOf: the <meta> tag as written.
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindSubmatch(page)
	if m == nil {
		t.Fatal("index.html has no Content-Security-Policy <meta> tag")
	}
	want := string(m[1])
	if !strings.Contains(want, "connect-src 'self'") || !strings.Contains(want, "script-src 'self' 'wasm-unsafe-eval'") {
		t.Fatalf("the policy read from index.html is %q", want)
	}
	bundlePage := `<!doctype html><meta http-equiv="Content-Security-Policy" content="` + bundleCSP + `"><title>one file</title>`
	dir := t.TempDir()
	for name, body := range map[string]string{
		"index.html":            string(page),
		"embed.html":            strings.Replace(string(page), `<html lang="en">`, `<html lang="en" class="embed">`, 1),
		"engine.js":             `import "./engine/wasm_exec.js";`,
		"engine/wasm_exec.js":   "// glue",
		"engine/engine.wasm":    "\x00asm",
		"engine/engine.wasm.gz": "not really gzip",
		"pkcalc.html":           bundlePage,
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(siteHandler(dir))
	defer srv.Close()
	client := &http.Client{
		Transport:     &http.Transport{DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	get := func(method, p string, h ...string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+p, nil)
		for i := 0; i+1 < len(h); i += 2 {
			req.Header.Set(h[i], h[i+1])
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, string(b)
	}
	for _, c := range []struct {
		method, path string
		status       int
		policy       string
		header       []string
	}{
		{"GET", "/engine.js", 200, want, nil},
		{"GET", "/engine/wasm_exec.js", 200, want, nil},
		{"GET", "/engine/engine.wasm", 200, want, nil},
		{"GET", "/engine/engine.wasm", 200, want, []string{"Accept-Encoding", "gzip"}},
		{"HEAD", "/engine.js", 200, want, nil},
		{"GET", "/", 200, want, nil},
		{"GET", "/embed.html", 200, want, nil},
		{"GET", "/embed", 200, want, nil},
		{"GET", "/no/such/file", 404, want, nil},
		{"GET", "/engine/", 404, want, nil}, // a directory without index.html (TestSiteHidden)
		{"GET", "/.git/config", 404, want, nil},
		{"POST", "/engine.js", 405, want, nil},
		{"GET", "/pkcalc.html", 200, bundleCSP, nil},
		{"GET", "/pkcalc", 200, bundleCSP, nil},
	} {
		res, _ := get(c.method, c.path, c.header...)
		if got := res.Header.Values("Content-Security-Policy"); res.StatusCode != c.status || len(got) != 1 || got[0] != c.policy {
			t.Errorf("%s %s %v: status %d, Content-Security-Policy %q; want %d and %q", c.method, c.path, c.header, res.StatusCode, got, c.status, c.policy)
		}
	}
	if res, body := get("GET", "/embed"); !strings.Contains(body, `class="embed"`) || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Errorf("GET /embed is not embed.html: %q %.100q", res.Header.Get("Content-Type"), body)
	}

	// A new build with another policy is sent from then on.
	later := strings.Replace(string(page), "connect-src 'self'", "connect-src 'none'", 1)
	os.WriteFile(filepath.Join(dir, "index.html"), []byte(later), 0o644)
	os.Chtimes(filepath.Join(dir, "index.html"), time.Now().Add(time.Minute), time.Now().Add(time.Minute))
	if res, _ := get("GET", "/engine.js"); !strings.Contains(res.Header.Get("Content-Security-Policy"), "connect-src 'none'") {
		t.Errorf("after index.html changed: %q", res.Header.Get("Content-Security-Policy"))
	}

	// No policy in index.html: no header, rather than a wrong one.
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<!doctype html><title>t</title>"), 0o644)
	os.Chtimes(filepath.Join(dir, "index.html"), time.Now().Add(2*time.Minute), time.Now().Add(2*time.Minute))
	if res, _ := get("GET", "/engine.js"); res.Header.Get("Content-Security-Policy") != "" {
		t.Errorf("index.html has no policy, yet: %q", res.Header.Get("Content-Security-Policy"))
	}
}

func TestPolicyOf(t *testing.T) {
	for doc, want := range map[string]string{
		`<meta http-equiv="Content-Security-Policy" content="default-src 'self'">`:                                 "default-src 'self'",
		"<META HTTP-EQUIV=\"Content-Security-Policy\" content=\"default-src &#39;self&#39;;\n  img-src data:\" />": "default-src 'self'; img-src data:",
		`<meta name="referrer" content="no-referrer">`:                                                             "",
	} {
		if got := policyOf([]byte(doc)); got != want {
			t.Errorf("policyOf(%q) = %q; want %q", doc, got, want)
		}
	}
}

// TestSiteHidden: pkcalc serve --dir . must not hand out .git/: no path
// with a part that starts with a dot is served, however it is spelled,
// no directory is listed (one without index.html is not found), and no
// path leaves the directory; the site's own files still are served.
func TestSiteHidden(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "site")
	for name, body := range map[string]string{
		"index.html":         "<!doctype html><title>home</title>",
		"main.wasm":          "\x00asm",
		"main.wasm.gz":       "gzip of the wasm",
		".git/config":        "[remote] secret",
		".git/HEAD":          "ref: secret",
		".env":               "TOKEN=secret",
		".env.gz":            "secret gzip",
		".well-known/x.html": "secret page",
		"sub/.hidden":        "secret",
		"sub/page.html":      "a page",
		"engine/engine.wasm": "\x00asm engine",
		"docs/index.html":    "docs home",
		"empty/.keep":        "",
		"../secret.txt":      "secret beside the site",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(siteHandler(dir))
	defer srv.Close()
	client := &http.Client{
		Transport:     &http.Transport{DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	for _, c := range []struct {
		path, accept string
		status       int
		body         string // the body holds it (200) or the Location is it (301)
	}{
		{"/", "", 200, "home"},
		{"/main.wasm", "", 200, "\x00asm"},
		{"/main.wasm", "gzip", 200, "gzip of the wasm"},
		{"/sub/page", "", 200, "a page"},
		{"/engine/engine.wasm", "", 200, "engine"},
		{"/docs/", "", 200, "docs home"},
		{"/docs", "", 301, "docs/"},
		{"/.git/config", "", 404, ""},
		{"/.git/HEAD", "", 404, ""},
		{"/.git/", "", 404, ""},
		{"/.git", "", 404, ""},
		{"/.env", "", 404, ""},
		{"/.env", "gzip", 404, ""},
		{"/.well-known/x.html", "", 404, ""},
		{"/.well-known/x", "", 404, ""},
		{"/%2egit/config", "", 404, ""},
		{"/%2Eenv", "", 404, ""},
		{"/docs/../.git/config", "", 404, ""},
		{"/sub/.hidden", "", 404, ""},
		{"/sub/", "", 404, ""}, // a directory without index.html: no listing
		{"/engine/", "", 404, ""},
		{"/engine", "", 404, ""},
		{"/empty/", "", 404, ""},
		{"/../secret.txt", "", 404, ""},
		{"/..%2fsecret.txt", "", 404, ""},
		{"/sub/..%2f..%2fsecret.txt", "", 404, ""},
	} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+c.path, nil)
		if c.accept != "" {
			req.Header.Set("Accept-Encoding", c.accept)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		body := string(b)
		switch {
		case res.StatusCode != c.status:
			t.Errorf("GET %s: status %d; want %d (%.80q)", c.path, res.StatusCode, c.status, body)
		case c.status == 200 && !strings.Contains(body, c.body):
			t.Errorf("GET %s: %.80q; want %q", c.path, body, c.body)
		case c.status == 301 && res.Header.Get("Location") != c.body:
			t.Errorf("GET %s: Location %q; want %q", c.path, res.Header.Get("Location"), c.body)
		case strings.Contains(body, "secret") || strings.Contains(body, "<a href"):
			t.Errorf("GET %s: %d %.80q", c.path, res.StatusCode, body)
		}
		if c.status == 404 && res.Header.Get("Content-Encoding") != "" {
			t.Errorf("GET %s: a 404 with Content-Encoding %q", c.path, res.Header.Get("Content-Encoding"))
		}
	}
}
