// Package e2e drives the built site in headless Chromium, as a person would:
// it pastes documents, presses buttons and reads what the page shows.
//
// It needs a built site and a browser, which ./build.sh test provides:
// PKCALC_SITE is the site's directory and PKCALC_CHROMIUM the browser. When
// PKCALC_SCREENSHOTS names a directory, the tests save screenshots there.
// Run alone (go test ./...), the tests that need them skip and say why, or
// fail where every test must run (internal/testenv).
package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/pkcalc/pkcalc/internal/shared"
	"github.com/pkcalc/pkcalc/internal/testenv"
)

var (
	siteURL    string // where pkcalc serve serves the site
	pkcalcBin  string // the native command, built for the test
	browserCtx context.Context
)

func TestMain(m *testing.M) {
	site, chromium := os.Getenv("PKCALC_SITE"), os.Getenv("PKCALC_CHROMIUM")
	if site == "" || chromium == "" {
		fmt.Println("e2e: PKCALC_SITE and PKCALC_CHROMIUM are not set; run ./build.sh test for the browser tests")
		os.Exit(m.Run()) // every test that needs them stops (needBrowser)
	}
	os.Exit(run(m, site, chromium))
}

func run(m *testing.M, site, chromium string) int {
	tmp, err := os.MkdirTemp("", "pkcalc-e2e")
	if err != nil {
		fmt.Println(err)
		return 1
	}
	defer os.RemoveAll(tmp)

	// Serve the site with the real command, on a free loopback port.
	bin := filepath.Join(tmp, "pkcalc")
	pkcalcBin = bin
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/pkcalc").CombinedOutput(); err != nil {
		fmt.Printf("building pkcalc: %v\n%s", err, out)
		return 1
	}
	srv := exec.Command(bin, "serve", "--dir", site, "--addr", "127.0.0.1:0")
	stdout, _ := srv.StdoutPipe()
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		fmt.Println(err)
		return 1
	}
	defer srv.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if i := strings.Index(line, "http://"); err != nil || i < 0 {
		fmt.Printf("pkcalc serve said %q (%v)\n", line, err)
		return 1
	} else {
		siteURL = strings.TrimSpace(line[i:])
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(filepath.Join(tmp, "profile")),
		chromedp.WindowSize(1280, 900),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(allocCtx)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil {
		fmt.Printf("starting %s: %v\n", chromium, err)
		return 1
	}
	browserCtx = ctx
	return m.Run()
}

// needBrowser stops a test without the site and the browser: failed where
// every test must run (internal/testenv), skipped elsewhere.
func needBrowser(t *testing.T) {
	t.Helper()
	if browserCtx == nil {
		testenv.Missing(t, "no browser: PKCALC_SITE and PKCALC_CHROMIUM are not set; ./build.sh test sets them")
	}
}

// tab opens a new tab of its own, with a time limit.
func tab(t *testing.T) context.Context {
	t.Helper()
	needBrowser(t)
	ctx, cancel := chromedp.NewContext(browserCtx)
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancelT)
	return ctx
}

// page opens the app in a new tab and waits until the engine has rendered.
func page(t *testing.T) context.Context {
	t.Helper()
	ctx := tab(t)
	do(t, ctx, chromedp.Navigate(siteURL))
	do(t, ctx, chromedp.Poll[chromedp.Void](`document.documentElement.dataset.ready === "true"`))
	return ctx
}

func do(t *testing.T, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%.200s: %v", js, err)
	}
	return v
}

// paste puts text in the paste area as a paste would, firing an input event.
func paste(t *testing.T, ctx context.Context, text string) {
	t.Helper()
	lit, _ := json.Marshal(text)
	eval[chromedp.Void](t, ctx, `(() => { const t = document.getElementById("docs"); t.focus(); t.value = `+string(lit)+`;
		t.dispatchEvent(new InputEvent("input", {bubbles: true, inputType: "insertFromPaste"})); })()`)
}

// waitStatus waits until the status line contains want, and returns it.
func waitStatus(t *testing.T, ctx context.Context, want string) string {
	t.Helper()
	lit, _ := json.Marshal(want)
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(wctx, chromedp.Poll[chromedp.Void](`document.getElementById("status").textContent.includes(`+string(lit)+`)`)); err != nil {
		t.Fatalf("status never said %q; it says %q", want, eval[string](t, ctx, `document.getElementById("status").textContent`))
	}
	return eval[string](t, ctx, `document.getElementById("status").textContent`)
}

type row struct {
	Path, Types, Docs, Distinct, Top, Verdict string
}

// table reads the path table as a person sees it.
func table(t *testing.T, ctx context.Context) map[string]row {
	t.Helper()
	// Top values are read one by one: on screen they stand apart as chips.
	cells := eval[[][]string](t, ctx, `[...document.querySelectorAll("#paths tbody tr")].map(r => [...r.children].map(c =>
		c.classList.contains("values") ? [...c.querySelectorAll(".value")].map(v => v.innerText.trim()).join(" ") : c.innerText.trim()))`)
	out := map[string]row{}
	for _, c := range cells {
		if len(c) != 6 {
			t.Fatalf("row with %d cells: %q", len(c), c)
		}
		path := strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(c[0], "system")), "\n")
		out[path] = row{path, c[1], c[2], c[3], c[4], c[5]}
	}
	return out
}

// candidate is a row of the candidate table.
type candidate struct {
	Key, Kind, Score, Grade, Logical, Largest, Busiest, FanOut, Findings string
}

// candidates reads every row of the candidate table, the weak ones the
// table folds away too.
func candidates(t *testing.T, ctx context.Context) map[string]candidate {
	t.Helper()
	unfold(t, ctx)
	rows := eval[[][]string](t, ctx, `[...document.querySelectorAll("#candidates tbody tr")].map(r => [
		r.querySelector("td.key code").innerText, r.querySelector(".kind").innerText,
		r.children[3].querySelector("span").innerText, r.children[3].querySelector(".grade").innerText,
		r.children[4].innerText, r.children[5].innerText, r.children[6].innerText, r.children[7].innerText, r.children[8].innerText])`)
	out := map[string]candidate{}
	for _, r := range rows {
		out[r[0]] = candidate{r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8]}
	}
	return out
}

// unfold shows the candidates the table folds away, if it folds any.
func unfold(t *testing.T, ctx context.Context) {
	t.Helper()
	if eval[bool](t, ctx, `(() => { const b = document.getElementById("show-more"); if (!b || b.getAttribute("aria-expanded") === "true") return false; b.click(); return true; })()`) {
		do(t, ctx, chromedp.Poll[chromedp.Void](`document.getElementById("show-more").getAttribute("aria-expanded") === "true"`))
	}
}

// openSettings opens the settings, which results fold away.
func openSettings(t *testing.T, ctx context.Context) {
	t.Helper()
	eval[chromedp.Void](t, ctx, `(() => { const b = document.getElementById("settings-toggle"); if (b && b.getAttribute("aria-expanded") === "false") b.click(); })()`)
	do(t, ctx, chromedp.Poll[chromedp.Void](`!document.getElementById("settings-form").hidden`))
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("PKCALC_SCREENSHOTS")
	if dir == "" {
		return
	}
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

func dataset(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(shared.File(t, "datasets", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPasteDataset(t *testing.T) {
	data, err := os.ReadFile(dataset(t, "dp420-tenant-products.json"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := page(t)
	if got := eval[string](t, ctx, `document.getElementById("status").textContent`); got != "Paste documents, drop files or try a sample." {
		t.Errorf("first status %q", got)
	}
	paste(t, ctx, string(data))
	status := waitStatus(t, ctx, "Read 295 documents")
	if !strings.Contains(status, "as JSON array from pasted text") {
		t.Errorf("status %q", status)
	}
	rows := table(t, ctx)
	want := map[string]row{
		"/tenantId":     {"/tenantId", "string", "295 (100%)", "3", `"contoso-outdoors" ×201 "fabrikam-cycles" ×61 "adventure-works" ×33`, "Possible"},
		"/categoryName": {"/categoryName", "string", "295 (100%)", "37", "", "Possible"},
		"/price":        {"/price", "number", "295 (100%)", "99", "", "Possible"},
		"/tags/[]/name": {"/tags/[]/name", "string", "250 (85%)", "196", "", "No: inside an array: a partition key takes one value per item"},
		"/tags":         {"/tags", "array", "295 (100%)", "–", "", "No: holds arrays in 295 documents: a key value must be a string, number, boolean or null"},
	}
	for path, w := range want {
		g, ok := rows[path]
		if !ok {
			t.Errorf("no row for %s; rows: %v", path, rows)
			continue
		}
		if w.Top == "" {
			g.Top = ""
		}
		if g != w {
			t.Errorf("%s:\n got %+v\nwant %+v", path, g, w)
		}
	}
	// The one-big-tenant case is flagged by name.
	c := candidates(t, ctx)["/tenantId"]
	if c.Grade < "D" || !strings.Contains(c.Findings, "hot partition") || c.Logical != "3" {
		t.Errorf("/tenantId row %+v", c)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`#candidates tbody tr td.key button`)))
	findings := eval[string](t, ctx, `document.getElementById("detail").innerText`)
	if !strings.Contains(findings, "Create the container with this key") {
		t.Errorf("no detail")
	}
}

func TestSample(t *testing.T) {
	ctx := page(t)
	do(t, ctx, chromedp.Click(chromedp.ID("sample")))
	waitStatus(t, ctx, "Read 2,000 documents")
	rows := table(t, ctx)
	if r := rows["/tenantId"]; r.Distinct != "12" || !strings.HasPrefix(r.Top, `"contoso" ×`) {
		t.Errorf("/tenantId row %+v", r)
	}
	cs := candidates(t, ctx)
	if len(cs) < 6 {
		t.Errorf("%d candidates", len(cs))
	}
	rec := eval[string](t, ctx, `document.querySelector("#recommended code").innerText`)
	if _, ok := cs[rec]; !ok || cs[rec].Grade != "A" {
		t.Errorf("recommended %q: %+v", rec, cs[rec])
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#detail svg").length`); n < 4 {
		t.Errorf("%d charts in the detail", n)
	}
	if n := eval[int](t, ctx, `document.getElementById("docs").value.split("\n").filter(Boolean).length`); n != 2000 {
		t.Errorf("paste area holds %d lines", n)
	}
	screenshot(t, ctx, "sample.png")

	do(t, ctx, chromedp.Click(chromedp.ID("sample-telemetry")))
	waitStatus(t, ctx, "Read 5,000 documents")
	if n := eval[int](t, ctx, `document.querySelectorAll("#detail svg").length`); n < 5 {
		t.Errorf("%d charts for telemetry (want the heatmap too)", n)
	}
	screenshot(t, ctx, "telemetry.png")

	do(t, ctx, chromedp.Click(chromedp.ID("clear")))
	waitStatus(t, ctx, "Paste documents, drop files or try a sample.")
	if n := eval[int](t, ctx, `document.querySelectorAll("#candidates, #paths").length`); n != 0 {
		t.Errorf("%d tables after Clear", n)
	}
}

// TestResultsFirst: a new user's first analysis, Try a sample at 1280 by
// 900, shows the answer without a scroll of theirs: the key, its grade and
// what the grade means, why it wins, and the command with its Copy button
// all lie in the viewport, the keyboard focus is on the answer, and the
// settings are folded to a line one click away. Its grade is explained in
// the table too, the weak candidates fold behind a button that unfolds
// them, and a finding's link to the guide moves there without losing the
// settings in the address.
func TestResultsFirst(t *testing.T) {
	ctx := page(t)
	do(t, ctx, chromedp.EmulateViewport(1280, 900))
	if h := eval[[]int](t, ctx, `[innerWidth, innerHeight]`); h[0] != 1280 || h[1] != 900 {
		t.Fatalf("the viewport is %v, not 1280 x 900", h)
	}
	do(t, ctx, chromedp.Click(chromedp.ID("sample")))
	waitStatus(t, ctx, "Read 2,000 documents")
	inView := `(ids => ids.filter(id => { const e = document.getElementById(id); if (!e) return true; const r = e.getBoundingClientRect();
		return !(r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth); }))`
	answer := `["recommended", "answer-grade", "answer-why", "answer-snippet", "copy-answer"]`
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, err := chromedp.Run(wctx, chromedp.Poll[chromedp.Void](inView+`(`+answer+`).length === 0 && document.activeElement.id === "verdict-title"`)); err != nil {
		t.Errorf("after Try a sample, out of the 1280 x 900 viewport: %q; focus on %q, scrolled %v px",
			eval[[]string](t, ctx, inView+`(`+answer+`)`), eval[string](t, ctx, `document.activeElement.id`), eval[float64](t, ctx, `scrollY`))
	}
	got := eval[[]string](t, ctx, `["recommended", "answer-grade", "settings-summary"].map(id => document.getElementById(id).innerText)
		.concat([String(document.getElementById("settings-form").hidden), document.getElementById("settings-toggle").innerText])`)
	want := []string{"/id A Grade A (85 to 100 of 100): a strong key, fit for the data and the target as measured.",
		"Grade A (85 to 100 of 100): a strong key, fit for the data and the target as measured.",
		"Throughput: the least the service allows · Size: the sample's · Requests: none given · Keys: suggested.", "true", "Change the settings"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the answer and the folded settings:\n got %q\nwant %q", got, want)
	}
	if g := eval[string](t, ctx, `document.getElementById("grade-legend").innerText`); !strings.HasPrefix(g, "Grades of the score out of 100: A 85 to 100, strong; B 70 to 84") {
		t.Errorf("grade legend %q", g)
	}

	// A finding's link moves to the guide's item; the address keeps the
	// settings.
	hash := eval[string](t, ctx, `location.hash`)
	do(t, ctx, chromedp.Click(chromedp.CSS(`#answer-caveats a.guide-link`)))
	do(t, ctx, chromedp.Poll[chromedp.Void](`document.activeElement.id === "guide-queries"`))
	if h := eval[string](t, ctx, `location.hash`); h != hash || len(eval[[]string](t, ctx, inView+`(["guide-queries"])`)) != 0 {
		t.Errorf("after the guide link, the address is %q (was %q) and the guide item is out of view", h, hash)
	}

	// Give the expected size: the settings open on the field.
	do(t, ctx, chromedp.Click(chromedp.ID("give-size")))
	do(t, ctx, chromedp.Poll[chromedp.Void](`document.activeElement.id === "target-gb" && !document.getElementById("settings-form").hidden`))

	// At 50 GB the two candidates graded C or lower fold; the button
	// shows them and folds them again.
	do(t, ctx, chromedp.SendKeys(chromedp.ID("target-gb"), "50"), chromedp.Click(chromedp.ID("sample")))
	rows := `document.querySelectorAll("#candidates tbody tr").length`
	do(t, ctx, chromedp.Poll[chromedp.Void](`document.getElementById("show-more") !== null`))
	if n, b := eval[int](t, ctx, rows), eval[string](t, ctx, `document.getElementById("show-more").innerText`); n != 5 || b != "Show 2 more candidates, graded C or lower" {
		t.Errorf("%d rows, fold button %q", n, b)
	}
	do(t, ctx, chromedp.Click(chromedp.ID("show-more")))
	do(t, ctx, chromedp.Poll[chromedp.Void](rows+` === 7 && document.getElementById("show-more").getAttribute("aria-expanded") === "true"`))
	do(t, ctx, chromedp.Click(chromedp.ID("show-more")))
	do(t, ctx, chromedp.Poll[chromedp.Void](rows+` === 5`))
}

func TestFile(t *testing.T) {
	file := dataset(t, "iot-env-sensor-telemetry.json")
	ctx := page(t)
	do(t, ctx, chromedp.SetUploadFiles(chromedp.ID("files"), []string{file}))
	status := waitStatus(t, ctx, "Read 9,995 documents")
	if !strings.Contains(status, "from iot-env-sensor-telemetry.json") {
		t.Errorf("status %q", status)
	}
	// Three devices: /device_id must not rate well.
	if c := candidates(t, ctx)["/device_id"]; c.Grade < "D" {
		t.Errorf("/device_id %+v", c)
	}
}

func TestCSVFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "orders.csv")
	var b strings.Builder
	b.WriteString("id,customer,region,total\n")
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&b, "%d,c%03d,%s,%d.5\n", i, i%97, []string{"eu", "us", "apac"}[i%3], i)
	}
	os.WriteFile(file, []byte(b.String()), 0o644)
	ctx := page(t)
	do(t, ctx, chromedp.SetUploadFiles(chromedp.ID("files"), []string{file}))
	status := waitStatus(t, ctx, "Read 500 documents")
	if !strings.Contains(status, "as CSV from orders.csv") {
		t.Errorf("status %q", status)
	}
	if r := table(t, ctx)["/total"]; r.Types != "number" {
		t.Errorf("/total typed %q", r.Types)
	}
}

// TestCSVFiles: CSV files picked together are one table, each file with
// its header row (which used to count as a document of column names from
// the second file on); files whose headers differ are refused, saying so.
func TestCSVFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.csv":     "id,tenantId\n1,contoso\n2,fabrikam\n",
		"b.csv":     "\ufeffid,tenantId\r\n3,contoso\r\n4,northwind\r\n",
		"other.csv": "id,tenant\n5,contoso\n",
	}
	for name, text := range files {
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	ctx := page(t)
	do(t, ctx, chromedp.SetUploadFiles(chromedp.ID("files"), []string{filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")}))
	status := waitStatus(t, ctx, "Read ")
	if !strings.HasPrefix(status, "Read 4 documents") {
		t.Errorf("status %q", status)
	}
	if r := table(t, ctx)["/tenantId"]; r.Distinct != "3" || strings.Contains(r.Top, `"tenantId"`) {
		t.Errorf("/tenantId row %+v", r)
	}
	do(t, ctx, chromedp.SetUploadFiles(chromedp.ID("files"), []string{filepath.Join(dir, "a.csv"), filepath.Join(dir, "other.csv")}))
	do(t, ctx, chromedp.Poll[chromedp.Void](`document.getElementById("error") !== null`))
	if e := eval[string](t, ctx, `document.getElementById("error").textContent`); !strings.Contains(e, `the header row of other.csv ("id,tenant") differs from that of a.csv ("id,tenantId")`) {
		t.Errorf("error %q", e)
	}
}

// TestLaterPickWins: files dropped while an earlier drop's CSV headers
// are still being read replace it; the earlier drop, joined last, does not
// come back over them. Both drops are made in one task, so the earlier
// one's header reads always finish after the later one is taken.
func TestLaterPickWins(t *testing.T) {
	ctx := page(t)
	eval[chromedp.Void](t, ctx, `(() => {
		const drop = (...files) => {
			const dt = new DataTransfer();
			for (const f of files) dt.items.add(f);
			document.getElementById("docs").dispatchEvent(new DragEvent("drop", {bubbles: true, cancelable: true, dataTransfer: dt}));
		};
		const csv = "id,tenantId\n1,a\n2,b\n";
		drop(new File([csv], "a.csv", {type: "text/csv"}), new File([csv], "b.csv", {type: "text/csv"}));
		drop(new File(['[{"id":"x","tenantId":"later"}]'], "one.json", {type: "application/json"}));
	})()`)
	waitStatus(t, ctx, "Read ")
	time.Sleep(time.Second) // room for the earlier drop to come back, if it could
	if status := waitStatus(t, ctx, "Read "); !strings.HasPrefix(status, "Read 1 document") {
		t.Errorf("status %q: the earlier drop of two CSV files came back over the later one", status)
	}
}

func TestSettingsAndKeys(t *testing.T) {
	ctx := page(t)
	do(t, ctx,
		chromedp.SendKeys(chromedp.ID("ru"), "20000"),
		chromedp.SendKeys(chromedp.ID("target-gb"), "500"),
		chromedp.SendKeys(chromedp.ID("writes-per-second"), "2000"),
		chromedp.SendKeys(chromedp.ID("keybox"), "tenantId"),
		chromedp.Click(chromedp.ID("add-key")),
	)
	if e := eval[string](t, ctx, `document.getElementById("key-error").innerText`); !strings.Contains(e, "must start with '/'") {
		t.Errorf("key error %q", e)
	}
	eval[chromedp.Void](t, ctx, `(() => { const k = document.getElementById("keybox"); k.value = ""; k.dispatchEvent(new Event("input", {bubbles: true})); })()`)
	do(t, ctx, chromedp.SendKeys(chromedp.ID("keybox"), "/tenantId,/customerId\r"))
	if keys := eval[string](t, ctx, `document.getElementById("keys").innerText`); !strings.Contains(keys, "/tenantId,/customerId") {
		t.Errorf("keys %q", keys)
	}
	do(t, ctx, chromedp.Click(chromedp.ID("sample")))
	waitStatus(t, ctx, "Read 2,000 documents")
	cs := candidates(t, ctx)
	if c := cs["/tenantId,/customerId"]; !strings.Contains(c.Kind, "yours") || c.Kind != "hierarchical, yours" {
		t.Errorf("named key %+v", c)
	}
	if c := cs["/tenantId"]; !strings.Contains(c.Findings, "logical partition limit") {
		t.Errorf("/tenantId at 500 GB: %+v", c)
	}
	hash := eval[string](t, ctx, `location.hash`)
	for _, want := range []string{"ru=20000", "targetGb=500", "writesPerSecond=2000", "keys=%2FtenantId%2C%2FcustomerId"} {
		if !strings.Contains(hash, want) {
			t.Errorf("address %q lacks %q", hash, want)
		}
	}
	// The link reproduces the setup.
	do(t, ctx, chromedp.Navigate(siteURL+hash), chromedp.Poll[chromedp.Void](`document.documentElement.dataset.ready === "true"`))
	if v := eval[string](t, ctx, `document.getElementById("ru").value`); v != "20000" {
		t.Errorf("ru after reload %q", v)
	}
	screenshot(t, ctx, "settings.png")
}

func TestQueries(t *testing.T) {
	ctx := page(t)
	eval[chromedp.Void](t, ctx, `(() => { const w = document.getElementById("queries");
		w.value = "300 SELECT * FROM c WHERE c.tenantId = @t AND c.customerId = @c\n5 SELECT * FROM c WHERE c.status = 'x'\n1 SELECT FROM WHERE";
		w.dispatchEvent(new Event("input", {bubbles: true}));
		// Several physical partitions: on one, fan-out costs nothing extra
		// and is only noted.
		const ru = document.getElementById("ru");
		ru.value = "60000";
		ru.dispatchEvent(new Event("input", {bubbles: true})); })()`)
	do(t, ctx, chromedp.Click(chromedp.ID("sample")))
	status := waitStatus(t, ctx, "Read 2,000 documents")
	if !strings.Contains(status, "2 operations of the workload, 1 unreadable: see below.") {
		t.Errorf("status %q", status)
	}
	if q := eval[string](t, ctx, `document.getElementById("query-errors").innerText`); !strings.Contains(q, "Queries not read (1)") || !strings.Contains(q, "line 3, column 10") {
		t.Errorf("queries not read %q", q)
	}
	cs := candidates(t, ctx)
	if c := cs["/id"]; c.FanOut != "100%" || !strings.Contains(c.Findings, "cross partition queries") {
		t.Errorf("/id: %+v", c)
	}
	rec := eval[string](t, ctx, `document.querySelector("#recommended code").innerText`)
	if rec == "/id" || cs[rec].FanOut == "100%" {
		t.Errorf("recommended %q: %+v", rec, cs[rec])
	}
	if v := eval[string](t, ctx, `document.getElementById("verdicts").innerText`); !strings.Contains(v, "SELECT * FROM c WHERE c.status = 'x'") {
		t.Errorf("verdicts %q", v)
	}
	// Rates read as the page's other numbers.
	if r := eval[[]string](t, ctx, `[...document.querySelectorAll("#verdicts tbody td.num")].map(td => td.innerText)`); strings.Join(r, " ") != "300 5" {
		t.Errorf("rates %q", r)
	}
}

// TestAddressSettings: the RU per operation from the address count, fill
// the form and stay in the address, as the command line's --write-ru does.
func TestAddressSettings(t *testing.T) {
	needBrowser(t)
	ctx, cancel := chromedp.NewContext(browserCtx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	defer cancelT()
	do(t, ctx, chromedp.Navigate(siteURL+"embed.html?sample=orders&keys=/tenantId&ru=20000&writeRu=20&writesPerSecond=1000&noSuggest=true&maxDistinct=60000"),
		chromedp.Poll[chromedp.Void](`document.documentElement.dataset.ready === "true"`))
	waitStatus(t, ctx, "Read 2,000 documents")
	if c := candidates(t, ctx)["/tenantId"]; c.Score != "60" || c.Grade != "C" { // pkcalc analyze --write-ru 20 ...
		t.Errorf("/tenantId at 20 RU per write: %+v", c)
	}
	if v := eval[[]string](t, ctx, `["write-ru", "read-ru", "max-distinct"].map(id => document.getElementById(id).value)`); strings.Join(v, " ") != "20  60000" {
		t.Errorf("form %q", v)
	}
	if hash := eval[string](t, ctx, `location.hash`); !strings.Contains(hash, "writeRu=20") || !strings.Contains(hash, "maxDistinct=60000") {
		t.Errorf("address %q", hash)
	}
}

// TestSettingsChanged: results stay beside settings changed since, and the
// status says they are of the settings before.
func TestSettingsChanged(t *testing.T) {
	ctx := page(t)
	do(t, ctx, chromedp.Click(chromedp.ID("sample")))
	waitStatus(t, ctx, "Read 2,000 documents")
	openSettings(t, ctx)
	do(t, ctx, chromedp.SendKeys(chromedp.ID("ru"), "20000"))
	waitStatus(t, ctx, "The settings have changed since: Analyse to update the results.")
	do(t, ctx, chromedp.Click(chromedp.ID("analyse")))
	do(t, ctx, chromedp.Poll[chromedp.Void](`location.hash.includes("ru=20000") && document.getElementById("status").textContent.startsWith("Read 2,000")`))
	if s := eval[string](t, ctx, `document.getElementById("status").textContent`); strings.Contains(s, "changed") {
		t.Errorf("after Analyse: %q", s)
	}
}

// TestReanalyseKeepsChoices: keys ticked for comparison and the key shown
// in detail survive a setting changed and analysed again (both used to
// reset to the recommendation).
func TestReanalyseKeepsChoices(t *testing.T) {
	ctx := page(t)
	do(t, ctx, chromedp.Click(chromedp.ID("sample")))
	waitStatus(t, ctx, "Read 2,000 documents")
	unfold(t, ctx)
	openSettings(t, ctx)
	do(t, ctx,
		chromedp.Click(chromedp.CSS(`input[aria-label="Compare /tenantId"]`)),
		chromedp.Click(chromedp.CSS(`input[aria-label="Compare /customerId"]`)),
	)
	eval[chromedp.Void](t, ctx, `[...document.querySelectorAll("#candidates td.key button")].find(b => b.textContent === "/tenantId,/customerId,/id").click()`)
	do(t, ctx, chromedp.SendKeys(chromedp.ID("ru"), "20000"), chromedp.Click(chromedp.ID("analyse")))
	do(t, ctx, chromedp.Poll[chromedp.Void](`location.hash.includes("ru=20000") && document.getElementById("status").textContent.startsWith("Read 2,000")`))
	got := eval[string](t, ctx, `[...document.querySelectorAll("#compare thead code")].map(c => c.textContent).join(" ") + " | " +
		document.querySelector("#detail-title code").textContent`)
	if got != "/customerId /tenantId | /tenantId,/customerId,/id" {
		t.Errorf("compared | shown after analysing again: %q", got)
	}
}

// TestAnalyseTakesTypedKey: a key typed but not added is measured when
// Analyse is pressed; it used to be left out without a word.
func TestAnalyseTakesTypedKey(t *testing.T) {
	ctx := page(t)
	do(t, ctx, chromedp.Click(chromedp.ID("sample")))
	waitStatus(t, ctx, "Read 2,000 documents")
	openSettings(t, ctx)
	do(t, ctx, chromedp.SendKeys(chromedp.ID("keybox"), "/region+/status"), chromedp.Click(chromedp.ID("analyse")))
	do(t, ctx, chromedp.Poll[chromedp.Void](`[...document.querySelectorAll("#candidates td.key code")].some(c => c.textContent === "/region+/status")`))
	if got := eval[string](t, ctx, `[...document.querySelectorAll("#keys code")].map(c => c.textContent).join(" ") + " | " + document.getElementById("keybox").value`); got != "/region+/status | " {
		t.Errorf("keys | key box: %q", got)
	}
}

// TestBadSetting: a setting the service would refuse is named as the form
// labels it, and the results shown are said to be of the settings before.
func TestBadSetting(t *testing.T) {
	ctx := page(t)
	do(t, ctx, chromedp.Click(chromedp.ID("sample")))
	waitStatus(t, ctx, "Read 2,000 documents")
	openSettings(t, ctx)
	do(t, ctx, chromedp.SendKeys(chromedp.ID("ru"), "450"), chromedp.Click(chromedp.ID("analyse")))
	do(t, ctx, chromedp.Poll[chromedp.Void](`document.getElementById("error") !== null`))
	got := eval[string](t, ctx, `document.getElementById("status").textContent + " | " + document.getElementById("error").textContent`)
	if !strings.HasPrefix(got, `Could not analyse the built-in sample: orders of a multi-tenant shop: see the message below. | Check the settings: "Throughput (RU/s)" 450 is not a multiple of 100`) ||
		!strings.HasSuffix(got, "The results below are from the last analysis, with the settings it had.") {
		t.Errorf("status | error: %q", got)
	}
}

// TestAddressReload: presets changed on the page and then reloaded stay
// changed: the address holds the analysis's settings alone (the query's
// presets used to come back beside them, a key twice, autoscale ticked
// again), and names the sample analysed, which opens again.
func TestAddressReload(t *testing.T) {
	ctx := tab(t)
	do(t, ctx, chromedp.Navigate(siteURL+"?sample=orders&keys=/tenantId&ru=20000&autoscale=true"),
		chromedp.Poll[chromedp.Void](`document.documentElement.dataset.ready === "true"`))
	waitStatus(t, ctx, "Read 2,000 documents")
	openSettings(t, ctx)
	do(t, ctx,
		chromedp.SendKeys(chromedp.ID("keybox"), "/region\r"),
		chromedp.Click(chromedp.ID("autoscale")),
		chromedp.Click(chromedp.ID("analyse")),
	)
	do(t, ctx, chromedp.Poll[chromedp.Void](`location.hash.includes("region")`))
	do(t, ctx, chromedp.Reload(), chromedp.Poll[chromedp.Void](`document.documentElement.dataset.ready === "true"`))
	waitStatus(t, ctx, "Read 2,000 documents")
	got := eval[string](t, ctx, `[[...document.querySelectorAll("#keys code")].map(c => c.textContent).join(" "),
		document.getElementById("ru").value, document.getElementById("autoscale").checked, location.search].join(" | ")`)
	if got != "/tenantId /region | 20000 | false | " {
		t.Errorf("after reload: keys, RU/s, autoscale, query = %q", got)
	}
}

func TestAggregatesInput(t *testing.T) {
	ctx := page(t)
	do(t, ctx,
		chromedp.Click(chromedp.ID("aggregates")),
		chromedp.SendKeys(chromedp.ID("keybox"), "/tenantId\r"),
	)
	paste(t, ctx, "k0,documents,bytes\n\"contoso\",900,900000\n\"fabrikam\",100,100000\n")
	status := waitStatus(t, ctx, "Read 1,000 documents")
	if !strings.Contains(status, "as per-key aggregates") {
		t.Errorf("status %q", status)
	}
	if c := candidates(t, ctx)["/tenantId"]; c.Logical != "2" || !strings.Contains(c.Findings, "hot partition") {
		t.Errorf("/tenantId %+v", c)
	}
}

// TestLayout: a phone-sized screen and the dark theme, keyboard focus visible.
func TestLayout(t *testing.T) {
	ctx := page(t)
	do(t, ctx, chromedp.Click(chromedp.ID("sample")))
	waitStatus(t, ctx, "Read 2,000 documents")
	do(t, ctx, chromedp.EmulateViewport(360, 800))
	if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("the page is %d px wide on a 360 px screen", w)
	}
	screenshot(t, ctx, "mobile.png")
	do(t, ctx, chromedp.EmulateViewport(1280, 900), chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
		return err
	}))
	if bg := eval[string](t, ctx, `getComputedStyle(document.body).backgroundColor`); bg != "rgb(17, 20, 24)" {
		t.Errorf("dark background %q", bg)
	}
	screenshot(t, ctx, "dark.png")
	// Every control is reachable with Tab and shows where the focus is.
	eval[chromedp.Void](t, ctx, `document.getElementById("sample").focus()`)
	do(t, ctx, chromedp.KeyEvent("\t"))
	if o := eval[string](t, ctx, `document.activeElement.id + " " + getComputedStyle(document.activeElement).outlineStyle`); o != "sample-telemetry solid" {
		t.Errorf("after Tab, focus and outline: %q", o)
	}
	unlabelled := eval[int](t, ctx, `[...document.querySelectorAll("input, select, textarea")].filter(e =>
		e.type !== "hidden" && !e.labels?.length && !e.getAttribute("aria-label")).length`)
	if unlabelled != 0 {
		t.Errorf("%d form controls without a label", unlabelled)
	}
}

// TestPrivate records every network request while documents are pasted,
// dropped as a file and analysed, and fails on any that leaves the page's
// origin or carries data.
func TestPrivate(t *testing.T) {
	needBrowser(t)
	// The site from a server of the test's own, which records every request
	// it gets, the Web Worker's included; DevTools records the page's, to
	// any address.
	type served struct {
		method, path string
		body         int64
	}
	var smu sync.Mutex
	var got []served
	files := http.FileServer(http.Dir(os.Getenv("PKCALC_SITE")))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		smu.Lock()
		got = append(got, served{r.Method, r.URL.RequestURI(), n})
		smu.Unlock()
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			w.Header().Set("Content-Type", "application/wasm")
		}
		files.ServeHTTP(w, r)
	}))
	defer srv.Close()
	ctx, cancel := chromedp.NewContext(browserCtx)
	defer cancel()
	requests := chromedp.Events(ctx, network.RequestWillBeSent)
	var mu sync.Mutex
	var seen []network.EventRequestWillBeSent
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev, err := range requests {
			if err != nil {
				return
			}
			mu.Lock()
			seen = append(seen, ev)
			mu.Unlock()
		}
	}()
	do(t, ctx, chromedp.Navigate(srv.URL+"/"), chromedp.Poll[chromedp.Void](`document.documentElement.dataset.ready === "true"`))

	const marker = "tenant-PRIVATE-7f3a"
	var b strings.Builder
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, `{"id":"%d","tenantId":"%s-%d","email":"someone%d@example.org"}`+"\n", i, marker, i%40, i)
	}
	paste(t, ctx, b.String())
	waitStatus(t, ctx, "Read 3,000 documents")
	file := filepath.Join(t.TempDir(), "private.jsonl")
	os.WriteFile(file, []byte(b.String()), 0o644)
	do(t, ctx, chromedp.SetUploadFiles(chromedp.ID("files"), []string{file}))
	waitStatus(t, ctx, "from private.jsonl")
	eval[string](t, ctx, `pkcalc.analyze(`+jsString(b.String())+`, {keys: ["/tenantId"], as: "text"})`)
	time.Sleep(500 * time.Millisecond)

	mu.Lock()
	defer mu.Unlock()
	origin := srv.URL
	if len(seen) < 5 {
		t.Fatalf("only %d requests recorded: the recorder is not working", len(seen))
	}
	for _, ev := range seen {
		u := ev.Request.URL
		switch {
		case !strings.HasPrefix(u, origin+"/") && !strings.HasPrefix(u, "data:") && !strings.HasPrefix(u, "blob:"):
			t.Errorf("a request left the origin: %s %s", ev.Request.Method, u)
		case ev.Request.Method != "GET":
			t.Errorf("a request sent data: %s %s", ev.Request.Method, u)
		case ev.Request.HasPostData:
			t.Errorf("a request carries a body: %s", u)
		case strings.Contains(u, marker) || strings.Contains(u, "example.org"):
			t.Errorf("a request carries document data: %s", u)
		}
	}
	smu.Lock()
	defer smu.Unlock()
	var paths []string
	for _, r := range got {
		paths = append(paths, r.path)
		if r.method != "GET" || r.body > 0 || strings.Contains(r.path, marker) || strings.Contains(r.path, "?") {
			t.Errorf("the server got data: %s %s (%d bytes)", r.method, r.path, r.body)
		}
	}
	if !slices.Contains(paths, "/engine/engine.wasm") {
		t.Errorf("the worker's requests were not seen: %q", paths)
	}
	t.Logf("%d requests in the page, %d at the server (%s), all to %s, none with data", len(seen), len(got), strings.Join(paths, " "), origin)
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestOffline: after one visit, the page loads and analyses with the network
// cut, both in DevTools and by stopping the server.
func TestOffline(t *testing.T) {
	needBrowser(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(os.Getenv("PKCALC_SITE"))))
	defer srv.Close()
	ctx, cancel := chromedp.NewContext(browserCtx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	defer cancelT()
	do(t, ctx, chromedp.Navigate(srv.URL+"/"), chromedp.Poll[chromedp.Void](`document.documentElement.dataset.ready === "true"`))
	// The service worker has installed the site and controls the page.
	do(t, ctx, chromedp.Poll[chromedp.Void](`navigator.serviceWorker.controller !== null`))
	do(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulateOffline, offlineParams{Offline: true, EmulateOfflineServiceWorker: true,
			MatchedNetworkConditions: []offlineConditions{{DownloadThroughput: -1, UploadThroughput: -1, Offline: true}}})
		if err == nil {
			_, err = chromedp.Call(ctx, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: true, DownloadThroughput: -1, UploadThroughput: -1})
		}
		return err
	}))
	if eval[bool](t, ctx, `navigator.onLine`) {
		t.Fatal("with the network emulated offline, navigator.onLine is true")
	}
	// The service worker fetches on a target of its own, which the page's
	// emulation does not reach: stopping the server cuts it.
	srv.CloseClientConnections()
	srv.Close()
	do(t, ctx, chromedp.Reload(), chromedp.Poll[chromedp.Void](`document.documentElement.dataset.ready === "true"`))
	do(t, ctx, chromedp.Click(chromedp.ID("sample")))
	waitStatus(t, ctx, "Read 2,000 documents")
}

// emulateOffline cuts the page's network with
// Network.emulateNetworkConditionsByRule in both of the shapes Chromium
// has taken: offline as the command's own parameter (Chromium 148 refuses
// the command without it, as invalid parameters) and in each rule (the
// protocol package's shape); a rule with no urlPattern matches every
// request.
var emulateOffline = cdp.Command[offlineParams, network.EmulateNetworkConditionsByRuleResult]{Method: network.CommandEmulateNetworkConditionsByRule}

type offlineParams struct {
	Offline                     bool                `json:"offline"`
	EmulateOfflineServiceWorker bool                `json:"emulateOfflineServiceWorker"`
	MatchedNetworkConditions    []offlineConditions `json:"matchedNetworkConditions"`
}

type offlineConditions struct {
	URLPattern         string  `json:"urlPattern"`
	Latency            float64 `json:"latency"`
	DownloadThroughput float64 `json:"downloadThroughput"`
	UploadThroughput   float64 `json:"uploadThroughput"`
	Offline            bool    `json:"offline"`
}

// TestEmbed: pkcalc in an iframe of another page sizes itself through
// postMessage, takes presets from its address, and analyses documents the
// parent sends.
func TestEmbed(t *testing.T) {
	ctx := tab(t)
	srv := embedHost(t)
	preset := "/wiki/page.html?src=" + url.QueryEscape("embed.html?sample=orders&keys=/tenantId&ru=20000")

	// A page that only includes pkcalc.js can analyse.
	do(t, ctx, chromedp.Navigate(srv.URL+"/wiki/script.html"))
	if got := eval[string](t, ctx, `pkcalc.analyze('{"id":"1"}\n{"id":"2"}').then(r => r.documents + " " + r.generator)`); got != "2 pkcalc" {
		t.Errorf("script-only page: %q", got)
	}

	do(t, ctx, chromedp.Navigate(srv.URL+preset))
	// The preset sample analyses by itself and the frame grows to fit it.
	do(t, ctx, chromedp.Poll[chromedp.Void](`heights.length > 0 && heights[heights.length-1] > 1500`))
	frameText := `document.getElementById("pkcalc").contentDocument`
	if got := eval[string](t, ctx, frameText+`.getElementById("status").innerText`); !strings.Contains(got, "Read 2,000 documents") {
		t.Errorf("frame status %q", got)
	}
	if n := eval[int](t, ctx, frameText+`.querySelectorAll("header.top, .guide").length`); n != 2 ||
		eval[string](t, ctx, `getComputedStyle(`+frameText+`.querySelector("header.top")).display`) != "none" {
		t.Errorf("chrome shows in the embedded page")
	}
	if v := eval[string](t, ctx, frameText+`.getElementById("ru").value`); v != "20000" {
		t.Errorf("preset ru %q", v)
	}
	eval[chromedp.Void](t, ctx, `document.getElementById("pkcalc").contentWindow.postMessage({type: "pkcalc:analyze", id: 7,
		documents: '{"id":"1","t":"a"}\n{"id":"2","t":"b"}\n{"id":"3","t":"b"}', options: {keys: ["/t"], noSuggest: true}}, "*")`)
	do(t, ctx, chromedp.Poll[chromedp.Void](`answers.length > 0`))
	if got := eval[string](t, ctx, `JSON.stringify([answers[0].type, answers[0].id, answers[0].report.documents, answers[0].report.candidates[0].key.spec])`); got != `["pkcalc:report",7,3,"/t"]` {
		t.Errorf("answer %s", got)
	}
}

// TestSingleFile: dist/pkcalc.html alone, opened from file://, analyses.
func TestSingleFile(t *testing.T) {
	needBrowser(t)
	// A copy in a folder of its own: nothing else of the site is beside it.
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(os.Getenv("PKCALC_SITE"), "pkcalc.html"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "pkcalc.html")
	os.WriteFile(file, b, 0o644)
	ctx, cancel := chromedp.NewContext(browserCtx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	defer cancelT()
	do(t, ctx, chromedp.Navigate("file://"+file), chromedp.Poll[chromedp.Void](`document.documentElement.dataset.ready === "true"`))
	// Its helpers are classic workers of the engine's own script.
	watchChunks(t, ctx)
	sameWithHelpers(t, ctx)
	do(t, ctx, chromedp.Click(chromedp.ID("sample")))
	waitStatus(t, ctx, "Read 2,000 documents")
	if n := len(candidates(t, ctx)); n < 6 {
		t.Errorf("%d candidates", n)
	}
}

// TestSubPathAndDrop: the site hosted under a sub-path works (every URL is
// relative), and a file dropped on the page is analysed.
func TestSubPathAndDrop(t *testing.T) {
	needBrowser(t)
	const prefix = "/team/tools/pkcalc/"
	srv := httptest.NewServer(http.StripPrefix(prefix, http.FileServer(http.Dir(os.Getenv("PKCALC_SITE")))))
	defer srv.Close()
	ctx, cancel := chromedp.NewContext(browserCtx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	defer cancelT()
	do(t, ctx, chromedp.Navigate(srv.URL+prefix), chromedp.Poll[chromedp.Void](`document.documentElement.dataset.ready === "true"`))
	eval[chromedp.Void](t, ctx, `(() => {
		const lines = Array.from({length: 300}, (_, i) => JSON.stringify({id: String(i), site: "s" + (i % 30)})).join("\n");
		const dt = new DataTransfer();
		dt.items.add(new File([lines], "dropped.jsonl", {type: "application/x-ndjson"}));
		document.getElementById("docs").dispatchEvent(new DragEvent("drop", {bubbles: true, cancelable: true, dataTransfer: dt}));
	})()`)
	status := waitStatus(t, ctx, "Read 300 documents")
	if !strings.Contains(status, "from dropped.jsonl") {
		t.Errorf("status %q", status)
	}
}

func TestCompareAndExport(t *testing.T) {
	ctx := page(t)
	dir := t.TempDir()
	do(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir})
		return err
	}))
	do(t, ctx, chromedp.Click(chromedp.ID("sample")))
	waitStatus(t, ctx, "Read 2,000 documents")
	do(t, ctx,
		chromedp.Click(chromedp.CSS(`#candidates tbody tr:nth-child(1) input[type=checkbox]`)),
		chromedp.Click(chromedp.CSS(`#candidates tbody tr:nth-child(2) input[type=checkbox]`)),
	)
	cmp := eval[string](t, ctx, `document.getElementById("compare").innerText`)
	if !strings.Contains(cmp, "Busiest physical partition") {
		t.Errorf("compare: %q", cmp)
	}
	do(t, ctx, chromedp.Click(chromedp.ID("sort-logical")))
	if s := eval[string](t, ctx, `document.querySelector("th[aria-sort=descending] button").id`); s != "sort-logical" {
		t.Errorf("sorted by %q", s)
	}
	do(t, ctx, chromedp.Click(chromedp.ID("export-markdown")))
	var md []byte
	for i := 0; i < 50 && md == nil; i++ {
		md, _ = os.ReadFile(filepath.Join(dir, "pkcalc-report.md"))
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.HasPrefix(string(md), "# Partition key analysis") {
		t.Errorf("downloaded markdown %.40q", md)
	}
	screenshot(t, ctx, "compare.png")
}

func TestCancel(t *testing.T) {
	ctx := page(t)
	do(t, ctx, chromedp.Click(chromedp.ID("sample")))
	waitStatus(t, ctx, "Read 2,000 documents")
	// About 30 MB of documents in a file: long enough to cancel.
	eval[chromedp.Void](t, ctx, `(() => { const line = JSON.stringify({id: "x", tenant: "t", pad: "p".repeat(280)});
		const dt = new DataTransfer();
		dt.items.add(new File([Array.from({length: 100000}, (_, i) => line.replace('"x"', '"' + i + '"')).join("\n")], "big.jsonl"));
		document.getElementById("docs").dispatchEvent(new DragEvent("drop", {bubbles: true, cancelable: true, dataTransfer: dt})); })()`)
	// Cancel as soon as the button shows, while the file is read.
	eval[chromedp.Void](t, ctx, `new Promise(done => { const tick = () => { const b = document.getElementById("cancel");
		if (b && document.getElementById("status").textContent.includes("Analysing big.jsonl")) { b.click(); done(); } else requestAnimationFrame(tick); }; tick(); })`)
	// The status says what the results still shown are of, never the
	// cancelled file with the earlier figures.
	if s := waitStatus(t, ctx, "Cancelled"); s != "Cancelled: big.jsonl was not analysed. The results below are from the built-in sample: orders of a multi-tenant shop." {
		t.Errorf("after cancel: %q", s)
	}
	time.Sleep(300 * time.Millisecond) // the aborted analysis's rejection, which must change nothing
	if s := eval[string](t, ctx, `document.getElementById("status").innerText + " | " + document.querySelectorAll("#error").length`); !strings.HasPrefix(s, "Cancelled: big.jsonl") || !strings.HasSuffix(s, " | 0") {
		t.Errorf("after the abort settled: %q", s)
	}
	// The page stays usable: the next analysis runs.
	do(t, ctx, chromedp.Click(chromedp.ID("sample")))
	waitStatus(t, ctx, "Read 2,000 documents")
}

// TestClearWhileRunning: Clear stops the analysis that is running; it
// used to go on under "Analysing : 0 B read" and show the cleared file's
// results when it ended.
func TestClearWhileRunning(t *testing.T) {
	ctx := page(t)
	eval[chromedp.Void](t, ctx, `(() => { const line = JSON.stringify({id: "x", tenant: "t", pad: "p".repeat(280)});
		const dt = new DataTransfer();
		dt.items.add(new File([Array.from({length: 100000}, (_, i) => line.replace('"x"', '"' + i + '"')).join("\n")], "big.jsonl"));
		document.getElementById("docs").dispatchEvent(new DragEvent("drop", {bubbles: true, cancelable: true, dataTransfer: dt})); })()`)
	eval[chromedp.Void](t, ctx, `new Promise(done => { const tick = () => {
		if (document.getElementById("status").textContent.includes("Analysing big.jsonl")) { document.getElementById("clear").click(); done(); } else requestAnimationFrame(tick); }; tick(); })`)
	do(t, ctx, chromedp.Sleep(3*time.Second)) // past the end of the analysis, had it gone on
	if s := eval[string](t, ctx, `document.getElementById("status").textContent + " | " + document.querySelectorAll("#cancel, #recommended, #candidates").length`); s != "Paste documents, drop files or try a sample. | 0" {
		t.Errorf("after Clear: %q", s)
	}
}

// TestSampleWhileRunning: a sample tried while a large file is read does
// not wait for the file: the file's analysis stops. It used to run on, the
// sample behind it.
func TestSampleWhileRunning(t *testing.T) {
	// About 300 MB of documents in a file on disk: many seconds of reading.
	file := filepath.Join(t.TempDir(), "big.jsonl")
	var b strings.Builder
	pad := strings.Repeat("p", 280)
	for i := range 1000000 {
		fmt.Fprintf(&b, "{\"id\":\"%d\",\"tenant\":\"t%d\",\"pad\":\"%s\"}\n", i, i%50, pad)
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := page(t)
	do(t, ctx, chromedp.SetUploadFiles(chromedp.ID("files"), []string{file}))
	eval[chromedp.Void](t, ctx, `new Promise(done => { const tick = () => {
		if (document.getElementById("status").textContent.includes("Analysing big.jsonl")) { document.getElementById("sample").click(); done(); } else requestAnimationFrame(tick); }; tick(); })`)
	start := time.Now()
	s := waitStatus(t, ctx, "Read 2,000 documents")
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the sample took %v behind the file: %q", took.Round(time.Millisecond), s)
	}
}

// TestProgressWithResults: with results on the page, a long analysis keeps
// the status line moving. A render of the page with results takes a tenth
// of a second or more; one for each of the engine's progress reports (one
// a megabyte) kept the main thread busy until the end, the status frozen at
// "0 B read" and Cancel out of reach.
func TestProgressWithResults(t *testing.T) {
	ctx := page(t)
	do(t, ctx, chromedp.Click(chromedp.ID("sample")))
	waitStatus(t, ctx, "Read 2,000 documents")
	// About 90 MB of documents in a file: a few seconds of reading.
	eval[chromedp.Void](t, ctx, `(() => { const line = JSON.stringify({id: "x", tenant: "t", pad: "p".repeat(280)});
		const dt = new DataTransfer();
		dt.items.add(new File([Array.from({length: 300000}, (_, i) => line.replace('"x"', '"' + i + '"')).join("\n")], "big.jsonl"));
		document.getElementById("docs").dispatchEvent(new DragEvent("drop", {bubbles: true, cancelable: true, dataTransfer: dt})); })()`)
	// The page answers while it reads, and shows the bytes read grow.
	seen, slowest := map[string]bool{}, time.Duration(0)
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		start := time.Now()
		s := eval[string](t, ctx, `document.getElementById("status").textContent`)
		if strings.HasPrefix(s, "Read 300,000 documents") {
			break
		}
		slowest = max(slowest, time.Since(start))
		if strings.HasPrefix(s, "Analysing big.jsonl") && !strings.Contains(s, ": 0 B of") {
			seen[s] = true
		}
	}
	if len(seen) < 2 || slowest > time.Second {
		t.Errorf("while 90 MB were read, the page took up to %v to answer and showed %d steps of progress: %q",
			slowest.Round(time.Millisecond), len(seen), slices.Sorted(maps.Keys(seen)))
	}
}

func TestBadInput(t *testing.T) {
	ctx := page(t)
	paste(t, ctx, "{\"id\":\"1\",\"tenant\":\"a\"}\n{\"id\":\"2\",\"tenant\":}\n{\"id\":\"3\",\"tenant\":\"b\"}\n")
	status := waitStatus(t, ctx, "Read 2 documents")
	if !strings.Contains(status, "1 problem") {
		t.Errorf("status %q", status)
	}
	errs := eval[string](t, ctx, `document.getElementById("errors").innerText`)
	if !strings.Contains(errs, "line 2, column 20 (document 2): expected a JSON value, found '}'") {
		t.Errorf("errors box: %q", errs)
	}
	if r := table(t, ctx)["/tenant"]; r.Docs != "2 (100%)" || r.Distinct != "2" {
		t.Errorf("/tenant row %+v", r)
	}
	paste(t, ctx, "not json at all")
	wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if _, err := chromedp.Run(wctx, chromedp.Poll[chromedp.Void](`(document.getElementById("error") || {}).innerText?.includes("The analysis failed")`)); err != nil {
		t.Fatalf("no failure shown; status %q", eval[string](t, ctx, `document.getElementById("status").innerText`))
	}
	if e := eval[string](t, ctx, `document.getElementById("error").innerText`); !strings.Contains(e, "no document could be read; line 1, column 1") ||
		!strings.Contains(e, "The results below are from pasted text.") {
		t.Errorf("error %q", e)
	}
	// The first paste's problems are not left to pass for the second's.
	if n := eval[int](t, ctx, `document.querySelectorAll("#errors").length`); n != 0 {
		t.Errorf("the previous input's problems are still listed")
	}
	screenshot(t, ctx, "bad-input.png")
}

func TestUserDataStaysText(t *testing.T) {
	ctx := page(t)
	eval[chromedp.Void](t, ctx, `window.__pwned = 0; window.alert = () => { window.__pwned++ };`)
	payload := `{"<img src=x onerror=window.__pwned++>":"<script>window.__pwned++</script>","b":"<b>bold</b>"}` + "\n" +
		`{"b":"<svg onload=window.__pwned++>"}` + "\n" + `{"b":"c"}`
	paste(t, ctx, payload)
	waitStatus(t, ctx, "Read 3 documents")
	time.Sleep(300 * time.Millisecond) // give any injected handler its chance
	if n := eval[int](t, ctx, `window.__pwned`); n != 0 {
		t.Fatalf("user data ran as code %d times", n)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#main img, #main script, #main b").length`); n != 0 {
		t.Fatalf("user data became %d elements", n)
	}
	rows := table(t, ctx)
	if _, ok := rows[`/"<img src=x onerror=window.__pwned++>"`]; !ok {
		t.Errorf("property name not shown verbatim: %v", rows)
	}
	if r := rows["/b"]; !strings.Contains(r.Top, `"<b>bold</b>" ×1`) {
		t.Errorf("value not shown verbatim: %q", r.Top)
	}
}

// TestJavaScriptAPI: window.pkcalc.analyze gives, byte for byte, what the
// native command prints for the same input and options.
// TestJavaScriptDiagnose: window.pkcalc.diagnose gives, byte for byte,
// what pkcalc diagnose --format json prints for files of the same names:
// DIAGNOSE.md's worked example, with its documents.
func TestJavaScriptDiagnose(t *testing.T) {
	ctx := page(t)
	dir := t.TempDir()
	files := map[string]string{}
	for _, name := range []string{"pkranges.json", "ru.csv", "storage.csv", "metrics.json"} {
		b, err := os.ReadFile("../cmd/pkcalc/testdata/diagnose/" + name)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
		os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	docs, _ := os.ReadFile(dataset(t, "dp420-tenant-products.json"))
	files["dp420-tenant-products.json"] = string(docs)
	os.WriteFile(filepath.Join(dir, "dp420-tenant-products.json"), docs, 0o644)
	cmd := exec.Command(pkcalcBin, "diagnose", "--format", "json", "--ranges", "pkranges.json", "--ru-log", "ru.csv", "--storage-log", "storage.csv",
		"--metrics", "metrics.json", "--current-key", "/tenantId", "--ru", "18000", "--key", "/tenantId,/categoryId", "dp420-tenant-products.json")
	cmd.Dir = dir
	native, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	file := func(name string) string {
		lit, _ := json.Marshal(files[name])
		return `new File([` + string(lit) + `], "` + name + `")`
	}
	got := eval[string](t, ctx, `pkcalc.diagnose({ranges: `+file("pkranges.json")+`, ruLog: `+file("ru.csv")+`, storageLog: `+file("storage.csv")+
		`, metrics: `+file("metrics.json")+`, documents: `+file("dp420-tenant-products.json")+`}, {currentKey: "/tenantId", ru: 18000, keys: ["/tenantId,/categoryId"], as: "text"})`)
	if got != string(native) {
		t.Fatalf("window.pkcalc.diagnose differs from pkcalc diagnose (%d and %d bytes)", len(got), len(native))
	}
	msg := eval[string](t, ctx, `pkcalc.diagnose({ruLog: "x"}, {}).catch(e => e.status + " " + e.message)`)
	if !strings.HasPrefix(msg, "400 ruLog needs currentKey") {
		t.Errorf("no current key: %q", msg)
	}
	msg = eval[string](t, ctx, `pkcalc.diagnose({logs: "x"}).catch(e => e.status + " " + e.message)`)
	if !strings.HasPrefix(msg, "400 unknown export logs") {
		t.Errorf("unknown export: %q", msg)
	}
}

func TestJavaScriptAPI(t *testing.T) {
	ctx := page(t)
	file := dataset(t, "dp420-tenant-products.json")
	data, _ := os.ReadFile(file)
	native, err := exec.Command(pkcalcBin, "analyze", "--format", "json", "--key", "/tenantId", "--key", "/tenantId,/id",
		"--ru", "20000", "--autoscale", "--target-gb", "50", "--reads-per-second", "100", file).Output()
	if err != nil {
		t.Fatal(err)
	}
	lit, _ := json.Marshal(string(data))
	got := eval[string](t, ctx, `pkcalc.analyze(`+string(lit)+`, {keys: ["/tenantId", "/tenantId,/id"], ru: 20000, autoscale: true, targetGb: 50, readsPerSecond: 100, as: "text"})`)
	if got != string(native) {
		t.Fatalf("window.pkcalc.analyze differs from pkcalc analyze (%d and %d bytes)", len(got), len(native))
	}
	obj := eval[map[string]any](t, ctx, `pkcalc.analyze(new Blob([`+string(lit)+`]), {noSuggest: true, keys: ["/tenantId"]})`)
	if obj["documents"] != 295.0 {
		t.Errorf("object report: %v", obj["documents"])
	}
	msg := eval[string](t, ctx, `pkcalc.analyze("{}", {colour: "red"}).catch(e => e.status + " " + e.message)`)
	if !strings.HasPrefix(msg, "400 unknown option colour") || !strings.HasSuffix(msg, ", queries, aggregates, docBytes, workers, inputFormat") {
		t.Errorf("bad option: %q", msg)
	}
	// One key spec as a string is one key; keys of another kind are refused.
	if got := eval[string](t, ctx, `pkcalc.analyze(`+string(lit)+`, {keys: "/tenantId", noSuggest: true}).then(r => r.candidates.map(c => c.key.spec).join(" "))`); got != "/tenantId" {
		t.Errorf("keys as a string: %q", got)
	}
	for _, bad := range []string{`7`, `{"/tenantId": true}`, `["/tenantId", 7]`} {
		msg := eval[string](t, ctx, `pkcalc.analyze("{}", {keys: `+bad+`}).then(() => "resolved", e => e.status + " " + e.message)`)
		if !strings.HasPrefix(msg, "400 keys must be an array of key specs") {
			t.Errorf("keys: %s: %q", bad, msg)
		}
	}
	// A bad number of workers is refused as the engine's settings are.
	for bad, want := range map[string]string{`0`: "400 workers must be", `65`: "400 workers 65 is more than", `"two"`: "400 workers must be"} {
		msg := eval[string](t, ctx, `pkcalc.analyze("{}", {workers: `+bad+`}).then(() => "resolved", e => e.status + " " + e.message)`)
		if !strings.HasPrefix(msg, want) {
			t.Errorf("workers: %s: %q", bad, msg)
		}
	}
	// An abort rejects as fetch's does, before the analysis and during it.
	for _, when := range []string{`c.abort(); const p = pkcalc.analyze(docs, {signal: c.signal});`, `const p = pkcalc.analyze(docs, {signal: c.signal}); setTimeout(() => c.abort(), 20);`} {
		got := eval[string](t, ctx, `(async () => { const docs = new Blob([Array.from({length: 200000}, (_, i) => JSON.stringify({id: "d" + i, tenantId: "t" + (i % 97)})).join("\n")]); const c = new AbortController(); `+when+`
			return p.then(() => "resolved", e => [e instanceof DOMException, e.name, e.status, e.message].join(" ")); })()`)
		if got != "true AbortError 0 cancelled" {
			t.Errorf("abort (%s): %q", when, got)
		}
	}
}

// TestOneEngine: the engine's worker serves analysis after analysis on its
// one Go instance (public/engine.js, wasm/engine), a failed one among them
// and two sent at once, each with the bytes the first gave.
func TestOneEngine(t *testing.T) {
	ctx := page(t)
	got := eval[map[string]any](t, ctx, `(async () => {
		const lines = Array.from({length: 40000}, (_, i) => JSON.stringify({id: "d" + i, tenantId: "t" + (i % 97), pad: "p".repeat(150)}));
		const docs = new Blob([lines.join("\n")]);
		const opts = {keys: ["/tenantId"], as: "text"};
		const first = await pkcalc.analyze(docs, opts);
		const failed = await pkcalc.analyze("not json", opts).then(() => "resolved", e => e.status + " " + e.message);
		const both = await Promise.all([pkcalc.analyze(docs, opts), pkcalc.analyze(docs, opts)]);
		const again = await pkcalc.analyze(docs, opts);
		return {bytes: first.length, same: [...both, again].every(r => r === first), failed};
	})()`)
	if got["same"] != true || got["bytes"].(float64) < 1000 {
		t.Errorf("the analyses after the first differ from it (%v bytes)", got["bytes"])
	}
	if f, _ := got["failed"].(string); !strings.HasPrefix(f, "400 no document could be read") {
		t.Errorf("bad input: %q", f)
	}
}
