// Package e2e drives the built site in headless Chromium, as a person would:
// it pastes documents, presses buttons and reads what the page shows.
//
// It needs a built site and a browser, which ./build.sh test provides:
// PKCALC_SITE is the site's directory and PKCALC_CHROMIUM the browser. When
// PKCALC_SCREENSHOTS names a directory, the tests save screenshots there.
// Run alone (go test ./...), the tests skip and say why.
package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

var (
	siteURL string // where pkcalc serve serves the site
	browser context.Context
)

func TestMain(m *testing.M) {
	site, chromium := os.Getenv("PKCALC_SITE"), os.Getenv("PKCALC_CHROMIUM")
	if site == "" || chromium == "" {
		fmt.Println("e2e: PKCALC_SITE and PKCALC_CHROMIUM are not set; run ./build.sh test for the browser tests")
		os.Exit(m.Run()) // every test skips
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
	browser = ctx
	return m.Run()
}

// page opens the app in a new tab and waits until the engine has rendered.
func page(t *testing.T) context.Context {
	t.Helper()
	if browser == nil {
		t.Skip("no browser: run ./build.sh test")
	}
	ctx, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancelT)
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
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
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

func TestPasteDataset(t *testing.T) {
	data, err := os.ReadFile("../../shared/datasets/dp420-tenant-products.json")
	if err != nil {
		t.Skipf("dataset: %v", err)
	}
	ctx := page(t)
	if got := eval[string](t, ctx, `document.getElementById("status").textContent`); got != "Paste documents or try the sample." {
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
	if len(rows) != 12 {
		t.Errorf("%d rows, want 12", len(rows))
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
	if r := rows["/_ts"]; !strings.Contains(r.Verdict, "system property") {
		t.Errorf("/_ts row %+v", r)
	}
	if n := eval[int](t, ctx, `document.getElementById("docs").value.split("\n").filter(Boolean).length`); n != 2000 {
		t.Errorf("paste area holds %d lines", n)
	}
	screenshot(t, ctx, "sample.png")

	do(t, ctx, chromedp.Click(chromedp.ID("clear")))
	waitStatus(t, ctx, "Paste documents or try the sample.")
	if n := eval[int](t, ctx, `document.querySelectorAll("#paths tbody tr").length`); n != 0 {
		t.Errorf("%d rows after Clear", n)
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
	screenshot(t, ctx, "bad-input.png")
}

func TestUserDataStaysText(t *testing.T) {
	ctx := page(t)
	eval[chromedp.Void](t, ctx, `window.__pwned = 0; window.alert = () => { window.__pwned++ };`)
	payload := `{"<img src=x onerror=window.__pwned++>":"<script>window.__pwned++</script>","b":"<b>bold</b>"}`
	paste(t, ctx, payload)
	waitStatus(t, ctx, "Read 1 document")
	time.Sleep(300 * time.Millisecond) // give any injected handler its chance
	if n := eval[int](t, ctx, `window.__pwned`); n != 0 {
		t.Fatalf("user data ran as code %d times", n)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#paths img, #paths script, #paths b").length`); n != 0 {
		t.Fatalf("user data became %d elements", n)
	}
	rows := table(t, ctx)
	if _, ok := rows[`/"<img src=x onerror=window.__pwned++>"`]; !ok {
		t.Errorf("property name not shown verbatim: %v", rows)
	}
	if r := rows["/b"]; r.Top != `"<b>bold</b>" ×1` {
		t.Errorf("value not shown verbatim: %q", r.Top)
	}
}
