//go:build unix

package e2e

// pkcalc on Cloudflare Workers, in the real Workers runtime: wrangler dev
// (workerd, both from npm) serves the directory build_cloudflare in build.sh
// writes, and the tests talk to it over HTTP, as a client of the deployed
// Worker would. ./build.sh test sets PKCALC_CLOUDFLARE (that directory) and
// PKCALC_WRANGLER (the wrangler it installed in build/wrangler); without
// them TestCloudflare skips. docs/CLOUDFLARE.md describes the deployment.
//
// Wrangler runs offline and writes only under the test's temporary
// directory: a copy of the Worker's directory (wrangler keeps .wrangler/
// beside its configuration), and a temporary HOME, XDG directories and
// TMPDIR for its logs, metrics settings, dev registry and update check.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pkcalc/pkcalc/core/api"
	"github.com/pkcalc/pkcalc/core/options"
	"github.com/pkcalc/pkcalc/internal/testenv"
)

// cloudflareMaxBody is api.Config.MaxBodyBytes in wasm/engine/cloudflare.
const cloudflareMaxBody = 100 << 20

func TestCloudflare(t *testing.T) {
	dir, wrangler := os.Getenv("PKCALC_CLOUDFLARE"), os.Getenv("PKCALC_WRANGLER")
	if dir == "" || wrangler == "" {
		testenv.Missing(t, "PKCALC_CLOUDFLARE and PKCALC_WRANGLER are not set: ./build.sh test builds the Worker with build_cloudflare, installs wrangler and sets them")
	}
	start := time.Now()
	base := startWrangler(t, dir, wrangler)
	t.Logf("wrangler dev answered at %s after %.1fs", base, time.Since(start).Seconds())
	t.Cleanup(func() { t.Logf("the Workers runtime tests took %.1fs", time.Since(start).Seconds()) })
	client := &http.Client{Timeout: 60 * time.Second}

	t.Run("Site", func(t *testing.T) {
		want, err := os.ReadFile(filepath.Join(dir, "site", "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		res, body := call(t, client, "GET", base+"/", "", nil, nil)
		expect(t, res, body, http.StatusOK, "text/html")
		if !bytes.Equal(body, want) {
			t.Errorf("GET / is not the site's index.html: %.200q", body)
		}
	})

	t.Run("Wasm", func(t *testing.T) {
		info, err := os.Stat(filepath.Join(dir, "site", "main.wasm"))
		if err != nil {
			t.Fatal(err)
		}
		res, body := call(t, client, "GET", base+"/main.wasm", "", nil, nil)
		expect(t, res, body, http.StatusOK, "application/wasm")
		if int64(len(body)) != info.Size() || !bytes.HasPrefix(body, []byte("\x00asm")) {
			t.Errorf("GET /main.wasm gave %d bytes starting %q; the site's main.wasm has %d", len(body), body[:min(4, len(body))], info.Size())
		}
	})

	t.Run("OtherPaths", func(t *testing.T) {
		// The static assets answer every path outside /v1/, with the 404
		// page when there is no such file: the Worker never runs.
		res, body := call(t, client, "GET", base+"/no/such/page", "", nil, nil)
		expect(t, res, body, http.StatusNotFound, "text/html")
		if !bytes.Contains(body, []byte("<h1>Not found</h1>")) {
			t.Errorf("GET /no/such/page is not the 404 page: %.300q", body)
		}
		// The precompressed copies of files are left out (.assetsignore).
		for _, name := range []string{"main.wasm.gz", "main.wasm.br"} {
			if _, err := os.Stat(filepath.Join(dir, "site", name)); err == nil {
				res, body := call(t, client, "GET", base+"/"+name, "", nil, nil)
				expect(t, res, body, http.StatusNotFound, "text/html")
			}
		}
		// Under /v1/ the Worker, and so the Go handler, answers.
		res, body = call(t, client, "POST", base+"/v1/nothing", "application/json", nil, strings.NewReader("{}"))
		expectError(t, res, body, http.StatusNotFound, "no such endpoint")
	})

	t.Run("Policy", func(t *testing.T) {
		// _headers (build_cloudflare) gives every asset the page's
		// Content-Security-Policy, and the single-file build its own; it is
		// not itself served.
		checkPolicyHeaders(t, base, filepath.Join(dir, "site"))
		res, body := call(t, client, "GET", base+"/_headers", "", nil, nil)
		expect(t, res, body, http.StatusNotFound, "text/html")
	})

	t.Run("EngineWorkerCSP", func(t *testing.T) {
		needBrowser(t)
		engineWorkerConfined(t, base)
	})

	t.Run("Offline", func(t *testing.T) {
		// Cloudflare redirects /index.html to / and /embed.html to /embed:
		// the service worker must keep copies it can open pages with.
		needBrowser(t)
		for _, c := range [][2]string{{"/index.html", "/"}, {"/embed.html", "/embed"}} {
			res, _ := call(t, &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}, "GET", base+c[0], "", nil, nil)
			if res.StatusCode/100 != 3 || res.Header.Get("Location") != c[1] {
				t.Logf("GET %s: %d to %q; the test expected Cloudflare's redirect to %s", c[0], res.StatusCode, res.Header.Get("Location"), c[1])
			}
		}
		offlineAddresses(t, base)
	})

	t.Run("Analyze", func(t *testing.T) {
		lines := `{"id":"1","tenantId":"contoso","userId":"alice"}
{"id":"2","tenantId":"contoso","userId":"bob"}
{"id":"3","tenantId":"fabrikam","userId":"carol"}
{"id":"4","tenantId":"fabrikam","userId":"dave"}
{"id":"5","tenantId":"northwind","userId":"erin"}
`
		array := `[{"id":"1","tenantId":"a"},{"id":"2","tenantId":"b"},{"id":"3","tenantId":"c"}]`
		csv := "id,tenantId\n1,a\n2,b\n3,a\n4,c\n"
		for _, c := range []struct {
			name, contentType, body string
			docs                    int
		}{
			{"JSONLines", "application/x-ndjson", lines, 5},
			{"JSONArray", "application/json", array, 3},
			{"NoContentType", "", lines, 5},
			{"CSV", "text/csv", csv, 4},
		} {
			t.Run(c.name, func(t *testing.T) {
				res, body := call(t, client, "POST", base+"/v1/analyze?keys=/tenantId", c.contentType, nil, strings.NewReader(c.body))
				expect(t, res, body, http.StatusOK, "application/json")
				checkReport(t, body, c.docs, "/tenantId")
			})
		}
		t.Run("Markdown", func(t *testing.T) {
			res, body := call(t, client, "POST", base+"/v1/analyze?keys=/tenantId&format=markdown&noSuggest=true", "application/json", nil, strings.NewReader(lines))
			expect(t, res, body, http.StatusOK, "text/markdown")
			if !bytes.Contains(body, []byte("/tenantId")) {
				t.Errorf("the Markdown report does not name /tenantId: %.300q", body)
			}
		})
		t.Run("Aggregates", func(t *testing.T) {
			rows := "k0,documents,bytes\n\"contoso\",1200,900000\n\"fabrikam\",300,200000\n"
			res, body := call(t, client, "POST", base+"/v1/analyze?keys=/tenantId&aggregates=true", "text/csv", nil, strings.NewReader(rows))
			expect(t, res, body, http.StatusOK, "application/json")
			checkReport(t, body, 1500, "/tenantId")
		})
	})

	t.Run("Stream", func(t *testing.T) {
		// About 3 MB, so that the handler reports progress (every MiB read)
		// before the report.
		var docs bytes.Buffer
		const n = 30000
		for i := range n {
			fmt.Fprintf(&docs, `{"id":"%d","tenantId":"tenant-%d","userId":"user-%d","note":"padding to make the documents about a hundred bytes"}`+"\n", i, i%97, i%1009)
		}
		size := docs.Len()
		res, body := call(t, client, "POST", base+"/v1/analyze?keys=/tenantId&keys=/userId", "application/x-ndjson",
			http.Header{"Accept": {"application/x-ndjson"}}, &docs)
		expect(t, res, body, http.StatusOK, "application/x-ndjson")
		sc := bufio.NewScanner(bytes.NewReader(body))
		sc.Buffer(nil, 64<<20)
		var events []api.Event
		for sc.Scan() {
			var e api.Event
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				t.Fatalf("line %d of the stream is not an event: %v: %.200q", len(events)+1, err, sc.Bytes())
			}
			events = append(events, e)
		}
		if len(events) < 3 {
			t.Fatalf("%d events; want progress while reading %d bytes, then the report: %.500q", len(events), size, body)
		}
		var last int64
		for i, e := range events[:len(events)-1] {
			if e.Type != "progress" || e.Bytes < last {
				t.Errorf("event %d: %+v; want progress past %d bytes", i, e, last)
			}
			last = e.Bytes
		}
		if p := events[len(events)-2]; p.Bytes != int64(size) || p.Documents != n {
			t.Errorf("the last progress is %d bytes, %d documents; the body was %d bytes, %d documents", p.Bytes, p.Documents, size, n)
		}
		rep := events[len(events)-1]
		if rep.Type != "report" {
			t.Fatalf("the last event is %+v, not the report", rep)
		}
		checkReport(t, []byte(rep.JSON), n, "/tenantId")
		checkReport(t, []byte(rep.JSON), n, "/userId")
	})

	t.Run("Errors", func(t *testing.T) {
		doc := strings.NewReader
		for _, c := range []struct {
			name, method, query, contentType string
			body                             io.Reader
			status                           int
			says                             string
		}{
			{"GET", "GET", "keys=/tenantId", "", nil, http.StatusMethodNotAllowed, "use POST"},
			{"XML", "POST", "keys=/tenantId", "application/xml", doc(`<doc tenantId="a"/>`), http.StatusUnsupportedMediaType, "application/xml is not accepted"},
			{"MalformedJSON", "POST", "keys=/tenantId", "application/json", doc(`{"id": "1", "tenantId": `), http.StatusBadRequest, "no document could be read"},
			{"UnknownOption", "POST", "keys=/tenantId&partitionKey=/a", "application/json", doc(`{"id":"1"}`), http.StatusBadRequest, `unknown option "partitionKey"`},
			{"BadKey", "POST", "keys=tenantId", "application/json", doc(`{"id":"1"}`), http.StatusBadRequest, "keys:"},
			{"BadNumber", "POST", "keys=/tenantId&ru=lots", "application/json", doc(`{"id":"1"}`), http.StatusBadRequest, "ru must be"},
			{"BadHashVersion", "POST", "hashVersion=3", "application/json", doc(`{"id":"1"}`), http.StatusBadRequest, "hashVersion must be 1 or 2"},
			{"BadFormat", "POST", "format=pdf", "application/json", doc(`{"id":"1"}`), http.StatusBadRequest, "format must be"},
			{"AggregatesWithoutKey", "POST", "aggregates=true", "text/csv", doc("k0,documents\na,1\n"), http.StatusBadRequest, "exactly one key"},
			{"TooLarge", "POST", "keys=/tenantId", "application/x-ndjson", io.LimitReader(zeros{}, cloudflareMaxBody+1), http.StatusRequestEntityTooLarge, strconv.Itoa(cloudflareMaxBody)},
		} {
			t.Run(c.name, func(t *testing.T) {
				res, body := call(t, client, c.method, base+"/v1/analyze?"+c.query, c.contentType, nil, c.body)
				expectError(t, res, body, c.status, c.says)
				if c.status == http.StatusMethodNotAllowed && res.Header.Get("Allow") != "POST" {
					t.Errorf("Allow: %q; want POST", res.Header.Get("Allow"))
				}
			})
		}
	})
}

// TestOpenAPI checks that docs/openapi.yaml describes every query parameter
// POST /v1/analyze and POST /v1/diagnose take, and no other.
func TestOpenAPI(t *testing.T) {
	b, err := os.ReadFile("../docs/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, s := range []string{"openapi: 3.1.", "  /v1/analyze:\n    post:", "./report.schema.json", "application/x-ndjson", "text/csv"} {
		if !strings.Contains(text, s) {
			t.Errorf("docs/openapi.yaml does not contain %q", s)
		}
	}
	analyze, diagnose, ok := strings.Cut(text, "  /v1/diagnose:\n    post:")
	if !ok {
		t.Fatal("docs/openapi.yaml does not describe POST /v1/diagnose")
	}
	diagnose, _, _ = strings.Cut(diagnose, "\ncomponents:")
	// The exports of a diagnosis are the parts of its body, not parameters.
	var diagnoseParams []string
	for _, name := range options.Names(options.DiagnoseAPI) {
		if o, _ := options.Lookup(name); !o.File {
			diagnoseParams = append(diagnoseParams, name)
		}
	}
	for _, e := range []struct {
		path, text string
		want       []string
	}{{"/v1/analyze", analyze, options.Names(options.API)}, {"/v1/diagnose", diagnose, diagnoseParams}} {
		var got []string
		for _, m := range regexp.MustCompile(`(?m)^ *- name: (\S+)\n *in: query$`).FindAllStringSubmatch(e.text, -1) {
			got = append(got, m[1])
		}
		for _, name := range e.want {
			if !slices.Contains(got, name) {
				t.Errorf("docs/openapi.yaml's %s has no parameter `name: %s`", e.path, name)
			}
		}
		for _, name := range got {
			if !slices.Contains(e.want, name) {
				t.Errorf("docs/openapi.yaml's %s describes a query parameter %q that it does not take", e.path, name)
			}
		}
		if len(got) != len(e.want) {
			t.Errorf("docs/openapi.yaml's %s has %d query parameters %v; it takes %d: %v", e.path, len(got), got, len(e.want), e.want)
		}
	}
}

// startWrangler runs wrangler dev on a copy of the Worker's directory and
// returns its URL once it answers. The test's cleanup stops it.
func startWrangler(t *testing.T, dir, wrangler string) string {
	t.Helper()
	tmp := t.TempDir()
	work := filepath.Join(tmp, "worker")
	if err := copyTree(dir, work); err != nil {
		t.Fatalf("copying %s: %v", dir, err)
	}
	home := filepath.Join(tmp, "home")
	for _, d := range []string{".config", ".cache", ".local/share", ".local/state", "tmp"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	port, inspector := freePort(t), freePort(t)
	cmd := exec.Command(wrangler, "dev",
		"--config", "wrangler.jsonc",
		"--ip", "127.0.0.1", "--port", port,
		"--inspector-port", inspector,
		"--local", // no remote bindings: nothing needs a Cloudflare account
		"--persist-to", filepath.Join(tmp, "state"),
		"--show-interactive-dev-session=false",
		"--log-level", "info",
	)
	cmd.Dir = work
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CLOUDFLARE_") && !strings.HasPrefix(kv, "WRANGLER_") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local/share"),
		"XDG_STATE_HOME="+filepath.Join(home, ".local/state"),
		"TMPDIR="+filepath.Join(home, "tmp"),
		"WRANGLER_LOG_PATH="+filepath.Join(tmp, "logs"),
		"CI=true",
		"WRANGLER_SEND_METRICS=false",
		"WRANGLER_SEND_ERROR_REPORTS=false",
		"WRANGLER_HIDE_BANNER=true", // and with it the check for a newer wrangler
		"NODE_ENV=test",             // Miniflare then uses a placeholder Request.cf instead of fetching one
		"NO_COLOR=1",
	)
	logPath := filepath.Join(tmp, "wrangler.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close() // the child has its own copy
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // wrangler, workerd and all: one group to stop
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", wrangler, err)
	}
	done := make(chan struct{}) // closed when wrangler has exited, with waitErr set
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(done) }()
	pgid := cmd.Process.Pid
	kill := func(sig syscall.Signal) { syscall.Kill(-pgid, sig) }
	// Whatever happens to the test, the runtime does not outlive this.
	watchdog := time.AfterFunc(5*time.Minute, func() { kill(syscall.SIGKILL) })
	showLog := func() {
		b, _ := os.ReadFile(logPath)
		if len(b) > 8000 {
			b = append([]byte("…"), b[len(b)-8000:]...)
		}
		t.Logf("wrangler's output:\n%s", b)
	}
	t.Cleanup(func() {
		watchdog.Stop()
		kill(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Log("wrangler did not stop in 10 s: killing it")
		}
		kill(syscall.SIGKILL) // workerd too, should it be left behind
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("wrangler is still running after SIGKILL")
		}
		if t.Failed() {
			showLog()
		}
	})

	base := "http://127.0.0.1:" + port
	probe := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case <-done:
			showLog()
			t.Fatalf("wrangler dev stopped before it answered: %v", waitErr)
		default:
		}
		if res, err := probe.Get(base + "/"); err == nil {
			res.Body.Close()
			return base
		}
		if time.Now().After(deadline) {
			showLog()
			t.Fatal("wrangler dev did not answer in 60 s")
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// call makes one request and reads the whole answer.
func call(t *testing.T, c *http.Client, method, url, contentType string, h http.Header, body io.Reader) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if lr, ok := body.(*io.LimitedReader); ok {
		req.ContentLength = lr.N // sent with Content-Length, not chunked
	}
	for k, v := range h {
		req.Header[k] = v
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the answer: %v", method, url, err)
	}
	return res, b
}

func expect(t *testing.T, res *http.Response, body []byte, status int, contentType string) {
	t.Helper()
	if res.StatusCode != status {
		t.Fatalf("%s %s: status %d; want %d: %.500q", res.Request.Method, res.Request.URL.Path, res.StatusCode, status, body)
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, contentType) {
		t.Errorf("%s %s: Content-Type %q; want %s", res.Request.Method, res.Request.URL.Path, ct, contentType)
	}
}

// expectError checks a failed request's JSON error body.
func expectError(t *testing.T, res *http.Response, body []byte, status int, says string) {
	t.Helper()
	expect(t, res, body, status, "application/json")
	var e struct{ Error *api.Error }
	if err := json.Unmarshal(body, &e); err != nil || e.Error == nil {
		t.Fatalf("the error body is not {\"error\": {...}} (%v): %.300q", err, body)
	}
	if e.Error.Status != status || !strings.Contains(e.Error.Message, says) {
		t.Errorf("error %+v; want status %d and a message saying %q", *e.Error, status, says)
	}
}

// checkReport checks a JSON report's document count and that it measured key.
func checkReport(t *testing.T, body []byte, docs int, key string) {
	t.Helper()
	var r struct {
		SchemaVersion int
		Documents     int
		Candidates    []struct{ Key struct{ Spec string } }
	}
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("the report is not JSON: %v: %.300q", err, body)
	}
	if r.SchemaVersion != 2 || r.Documents != docs {
		t.Errorf("report of schema version %d with %d documents; want version 2 with %d", r.SchemaVersion, r.Documents, docs)
	}
	if !slices.ContainsFunc(r.Candidates, func(c struct{ Key struct{ Spec string } }) bool { return c.Key.Spec == key }) {
		t.Errorf("the report has no candidate %s: %.300q", key, body)
	}
}

// copyTree copies a directory of regular files, leaving out .wrangler/.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			if d.Name() == ".wrangler" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// zeros is an endless body: only its length matters.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
