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
	if res, _ := get("GET", "/engine"); res.StatusCode != http.StatusMovedPermanently {
		t.Errorf("GET /engine (a directory): status %d; want the file server's redirect to /engine/", res.StatusCode)
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
