//go:build unix

package e2e

// How the site is served, in the browser: the Content-Security-Policy of
// the engine's Web Worker, and the service worker's offline copies under
// every address of the page. Each runs against pkcalc serve here, and
// against the Cloudflare Worker in TestCloudflare (cloudflare_test.go).

import (
	"bufio"
	"context"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// TestServeEngineCSP: pkcalc serve sends the page's Content-Security-Policy
// as a header, so the engine's module worker, which takes its policy from
// engine.js's response and not from the page, cannot reach another origin.
func TestServeEngineCSP(t *testing.T) {
	needBrowser(t)
	base := startServe(t)
	checkPolicyHeaders(t, base, os.Getenv("PKCALC_SITE"))
	engineWorkerConfined(t, base)
}

// TestServeOffline: after one visit to pkcalc serve, every address of the
// page opens and analyses with the server unreachable.
func TestServeOffline(t *testing.T) {
	needBrowser(t)
	offlineAddresses(t, startServe(t))
}

// startServe runs pkcalc serve on the site, on a port of its own, so that
// the browser holds no service worker for its origin yet.
func startServe(t *testing.T) string {
	t.Helper()
	srv := exec.Command(pkcalcBin, "serve", "--dir", os.Getenv("PKCALC_SITE"), "--addr", "127.0.0.1:0")
	stdout, _ := srv.StdoutPipe()
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	i := strings.Index(line, "http://")
	if err != nil || i < 0 {
		t.Fatalf("pkcalc serve said %q (%v)", line, err)
	}
	return strings.TrimSuffix(strings.TrimSpace(line[i:]), "/")
}

var cspMeta = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`)

// sitePolicy is the policy of the <meta> tag of an HTML file of the site.
func sitePolicy(t *testing.T, site, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(site, name))
	if err != nil {
		t.Fatal(err)
	}
	m := cspMeta.FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s has no Content-Security-Policy <meta> tag", name)
	}
	return string(m[1])
}

// checkPolicyHeaders: the engine's files, the page and the rest carry the
// policy of index.html's <meta> tag as a header, and the single-file build
// its own.
func checkPolicyHeaders(t *testing.T, base, site string) {
	t.Helper()
	want := sitePolicy(t, site, "index.html")
	client := &http.Client{Timeout: 30 * time.Second}
	for _, p := range []string{"/", "/engine.js", "/engine/wasm_exec.js", "/engine/engine.wasm", "/embed.html", "/main.wasm", "/sw.js", "/style.css"} {
		res, err := client.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET %s: status %d", p, res.StatusCode)
		}
		if got := res.Header.Values("Content-Security-Policy"); len(got) != 1 || got[0] != want {
			t.Errorf("GET %s: Content-Security-Policy %q; want the page's %q", p, got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(site, "pkcalc.html")); err == nil {
		res, err := client.Get(base + "/pkcalc.html")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if want := sitePolicy(t, site, "pkcalc.html"); res.StatusCode != http.StatusOK || res.Header.Get("Content-Security-Policy") != want {
			t.Errorf("GET /pkcalc.html: status %d, Content-Security-Policy %q; want its own %q", res.StatusCode, res.Header.Values("Content-Security-Policy"), want)
		}
	}
}

// engineWorkerConfined opens the page at base, starts its engine, and from
// inside the engine's worker (DevTools attached to it) fetches a file of the
// site, which works, and another origin, which the policy must block: no
// request may reach that origin.
func engineWorkerConfined(t *testing.T, base string) {
	t.Helper()
	var hits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Write([]byte("reached"))
	}))
	defer other.Close()

	ctx, cancel := chromedp.NewContext(browserCtx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	defer cancelT()
	do(t, ctx, chromedp.Navigate(base+"/"), chromedp.Poll[chromedp.Void](`document.documentElement.dataset.ready === "true"`))
	if got := eval[float64](t, ctx, `pkcalc.analyze('{"id":"1"}').then(r => r.documents)`); got != 1 {
		t.Fatalf("the engine analysed %v documents; want 1", got)
	}
	got := workerEval[map[string]string](t, ctx, base+"/engine.js", `(async () => {
		const violations = [];
		self.addEventListener("securitypolicyviolation", (e) => violations.push(e.effectiveDirective + " " + e.blockedURI));
		const same = await fetch("engine.js").then((r) => "status " + r.status, (e) => "failed: " + e);
		const other = await fetch(`+jsString(other.URL+"/from-the-engine")+`, {mode: "no-cors"}).then((r) => "answered (" + r.type + ")", (e) => "failed: " + e);
		await new Promise((r) => setTimeout(r, 100));
		return {same, other, violations: violations.join("; ")};
	})()`)
	if got["same"] != "status 200" {
		t.Errorf("the engine's worker could not fetch its own engine.js: %s", got["same"])
	}
	if !strings.HasPrefix(got["other"], "failed") || hits.Load() != 0 {
		t.Errorf("the engine's worker reached another origin (%s; %d requests arrived there): it runs without the page's Content-Security-Policy", got["other"], hits.Load())
	}
	if !strings.HasPrefix(got["violations"], "connect-src "+other.URL) {
		t.Errorf("no connect-src violation reported in the engine's worker: %q", got["violations"])
	}
	t.Logf("in the engine's worker at %s: own file %s; other origin %s; violations %s", base, got["same"], got["other"], got["violations"])
}

// workerEval runs js (an expression, awaited) in the page's Web Worker whose
// script is at workerURL, through DevTools attached to that worker.
func workerEval[T any](t *testing.T, ctx context.Context, workerURL, js string) T {
	t.Helper()
	var id target.ID
	deadline := time.Now().Add(20 * time.Second)
	for id == "" {
		infos, err := chromedp.Targets(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var found []string
		for _, info := range infos {
			if info.Type == "worker" && info.URL == workerURL {
				id = info.TargetID
			}
			found = append(found, info.Type+" "+info.URL)
		}
		if id == "" {
			if time.Now().After(deadline) {
				t.Fatalf("no worker %s among the browser's targets: %q", workerURL, found)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	// Detach on cancel: the worker is the page's, and goes on.
	wctx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(id), chromedp.WithDetachOnCancel())
	defer cancel()
	v, err := chromedp.Run(wctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("in the worker %s: %.200s: %v", workerURL, js, err)
	}
	return v
}

// cuttable puts a proxy in front of the server at base, which cut makes
// unreachable: every connection to it is then closed unanswered, as with
// the network gone, while the page keeps its origin.
func cuttable(t *testing.T, base string) (proxyURL string, cut func()) {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	var down atomic.Bool
	var mu sync.Mutex
	var during []string
	rp := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			mu.Lock()
			during = append(during, r.URL.RequestURI())
			mu.Unlock()
			if hj, ok := w.(http.Hijacker); ok {
				if c, _, err := hj.Hijack(); err == nil {
					c.(*net.TCPConn).SetLinger(0)
					c.Close()
					return
				}
			}
			panic(http.ErrAbortHandler)
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		srv.Close()
		mu.Lock()
		defer mu.Unlock()
		if len(during) > 0 {
			t.Logf("asked of the network while it was cut (and refused): %q", during)
		}
	})
	return srv.URL, func() { down.Store(true); srv.CloseClientConnections() }
}

// offlineAddresses visits the site once at base, then cuts the network and
// opens the page at each of its addresses, which the service worker must
// answer from its cache, and analyses the sample in one; then the embedded
// page at each of its addresses, in an iframe of a page of another origin
// that is still reachable (a wiki), which analyses what the wiki sends it.
// Browsers refuse a navigation answered with a redirected response, so what
// a host redirects (Cloudflare sends /index.html to / and /embed.html to
// /embed) must not be kept as such.
func offlineAddresses(t *testing.T, base string) {
	t.Helper()
	front, cut := cuttable(t, base)
	wiki := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<!doctype html><title>Design notes</title><iframe id="pk" src="`+html.EscapeString(front+r.URL.Query().Get("path"))+`"></iframe>
<script>
window.said = [];
addEventListener("message", (e) => { if (e.source === document.getElementById("pk").contentWindow) said.push(e.data); });
</script>`)
	}))
	defer wiki.Close()
	ctx, cancel := chromedp.NewContext(browserCtx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 150*time.Second)
	defer cancelT()
	do(t, ctx, chromedp.Navigate(front+"/"), chromedp.Poll[chromedp.Void](`document.documentElement.dataset.ready === "true"`))
	do(t, ctx, chromedp.Poll[chromedp.Void](`navigator.serviceWorker.controller !== null`))
	cut()
	for _, c := range []struct {
		path  string
		embed bool // the embedded layout, opened as a page of its own
	}{
		{"/", false},
		{"/index.html", false},
		{"/index.html?embed=1", false}, // ?embed=1 takes effect in a frame only
		{"/embed.html", true},
		{"/embed", true},
		{"/embed.html?sample=orders&keys=/tenantId", true},
	} {
		nctx, ncancel := context.WithTimeout(ctx, 30*time.Second)
		err := chromedp.Do(nctx, chromedp.Navigate(front+c.path), chromedp.Poll[chromedp.Void](`document.documentElement.dataset.ready === "true"`))
		ncancel()
		if err != nil {
			t.Errorf("offline, %s does not open: %v", c.path, err)
			continue
		}
		if got := eval[bool](t, ctx, `document.documentElement.classList.contains("embed")`); got != c.embed {
			t.Errorf("offline, %s: embedded layout %v; want %v", c.path, got, c.embed)
		}
		if want, _, _ := strings.Cut(c.path, "?"); eval[string](t, ctx, `location.pathname`) != want {
			t.Errorf("offline, %s ended at %s", c.path, eval[string](t, ctx, `location.href`))
		}
	}
	// The last address presets the sample, which the engine analyses from
	// the cache too.
	waitStatus(t, ctx, "Read 2,000 documents")

	for _, p := range []string{"/index.html?embed=1", "/embed.html", "/embed"} {
		do(t, ctx, chromedp.Navigate(wiki.URL+"/?path="+url.QueryEscape(p)))
		got := eval[string](t, ctx, `new Promise((resolve) => {
			const frame = document.getElementById("pk");
			const ask = () => frame.contentWindow.postMessage({type: "pkcalc:analyze", id: 1, documents: '{"id":"1","t":"a"}\n{"id":"2","t":"b"}', options: {keys: ["/t"]}}, "*");
			const timer = setInterval(ask, 500);
			const end = (s) => { clearInterval(timer); resolve(s); };
			addEventListener("message", (e) => {
				if (e.data.type === "pkcalc:report") end("report of " + e.data.report.documents + " documents");
				if (e.data.type === "pkcalc:error") end("error " + JSON.stringify(e.data.error));
			});
			setTimeout(() => end("no answer in 20 s; the frame said " + JSON.stringify(said.map((m) => m.type))), 20000);
			ask();
		})`)
		if got != "report of 2 documents" {
			t.Errorf("offline, the page embedded at %s: %s", p, got)
		}
	}
	if !t.Failed() {
		t.Logf("offline, every address of %s opened, as a page and in a frame", base)
	}
}
