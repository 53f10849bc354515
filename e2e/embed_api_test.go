package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// poll waits for a condition, failing with what the page says when it
// never holds.
func poll(t *testing.T, ctx context.Context, cond, says string) {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(wctx, chromedp.Poll[chromedp.Void](cond)); err != nil {
		t.Fatalf("never %s; %s", cond, eval[string](t, ctx, says))
	}
}

// embedHost serves the site, with the host page of docs/EMBED.md at
// /wiki/page.html (iframe src in the query), which records the messages it
// gets, and a page that only includes pkcalc.js at /wiki/script.html.
func embedHost(t *testing.T) *httptest.Server {
	t.Helper()
	files := http.FileServer(http.Dir(os.Getenv("PKCALC_SITE")))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/wiki/page.html" {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<!doctype html><title>Design notes</title><h1>Our container</h1>
<iframe src="../%s" title="pkcalc: partition key calculator" style="width:100%%;border:0" id="pkcalc"
        allow="clipboard-write"></iframe>
<script>
  window.heights = []; window.answers = [];
  addEventListener("message", (e) => {
    if (e.data && e.data.type === "pkcalc:height") { heights.push(e.data.height); document.getElementById("pkcalc").style.height = e.data.height + "px"; }
    if (e.data && (e.data.type === "pkcalc:report" || e.data.type === "pkcalc:error")) answers.push(e.data);
  });
</script>`, r.URL.Query().Get("src"))
			return
		}
		if r.URL.Path == "/wiki/script.html" {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<!doctype html><title>Only the script</title><script src="../pkcalc.js"></script>`)
			return
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestEmbedHeightShrinks: the frame's height follows the content down as
// well as up: after the preset sample, Clear sends a smaller height.
func TestEmbedHeightShrinks(t *testing.T) {
	ctx := tab(t)
	srv := embedHost(t)
	do(t, ctx, chromedp.Navigate(srv.URL+"/wiki/page.html?src="+url.QueryEscape("embed.html?sample=orders&keys=/tenantId&ru=20000")))
	frame := `document.getElementById("pkcalc").contentDocument`
	poll(t, ctx, frame+`?.getElementById("status")?.textContent.includes("Read 2,000 documents") && heights.length > 0 && heights[heights.length-1] > 1500`, `JSON.stringify(heights)`)
	time.Sleep(300 * time.Millisecond) // the last resizes of the results
	full := eval[int](t, ctx, `heights[heights.length-1]`)
	eval[chromedp.Void](t, ctx, frame+`.getElementById("clear").click()`)
	poll(t, ctx, `heights[heights.length-1] < `+fmt.Sprint(full/2), `"heights " + JSON.stringify(heights)`)
	time.Sleep(300 * time.Millisecond)
	// The frame is as tall as what it shows, with nothing to scroll.
	got := eval[[]float64](t, ctx, `[heights[heights.length-1], `+frame+`.documentElement.getBoundingClientRect().height,
		`+frame+`.documentElement.scrollHeight, document.getElementById("pkcalc").clientHeight]`)
	if got[0] < got[1]-1 || got[0] > got[1]+1 || got[2] > got[3] {
		t.Errorf("after Clear: told %v px, content %v px, scroll height %v px in a frame of %v px", got[0], got[1], got[2], got[3])
	}
}

// TestEmbedMessages: a CSV string is analysed when the message says it is
// CSV (inputFormat, as pkcalc.analyze takes it), and options that are not
// an object are refused by name.
func TestEmbedMessages(t *testing.T) {
	ctx := tab(t)
	srv := embedHost(t)
	do(t, ctx, chromedp.Navigate(srv.URL+"/wiki/page.html?src=embed.html"))
	frame := `document.getElementById("pkcalc").contentWindow`
	poll(t, ctx, frame+`.document?.documentElement.dataset.ready === "true"`, `"not ready"`)
	send := func(id int, documents, options string) {
		eval[chromedp.Void](t, ctx, frame+`.postMessage({type: "pkcalc:analyze", id: `+fmt.Sprint(id)+`, documents: `+documents+`, options: `+options+`}, "*")`)
	}
	csv, _ := json.Marshal("id,tenant\n1,a\n2,b\n3,b\n")
	send(1, string(csv), `{inputFormat: "csv", keys: ["/tenant"], noSuggest: true}`)
	send(2, string(csv), `{keys: ["/tenant"]}`)
	send(3, `'{"id":"1"}'`, `"keys=/id"`)
	send(4, `'{"id":"1"}'`, `["/id"]`)
	send(5, string(csv), `{inputFormat: "xml"}`)
	poll(t, ctx, `answers.length === 5`, `JSON.stringify(answers)`)
	got := map[int]string{}
	for _, a := range eval[[]map[string]any](t, ctx, `answers`) {
		id := int(a["id"].(float64))
		if a["type"] == "pkcalc:report" {
			r := a["report"].(map[string]any)
			got[id] = fmt.Sprintf("report %v %v", r["documents"], r["input"].(map[string]any)["format"])
		} else {
			e := a["error"].(map[string]any)
			got[id] = fmt.Sprintf("error %v %v", e["status"], e["message"])
		}
	}
	for id, want := range map[int]string{
		1: "report 3 CSV",
		2: "error 400 no document could be read; line 1, column 1: the input looks like CSV",
		3: "error 400 options must be an object",
		4: "error 400 options must be an object",
		5: `error 400 inputFormat must be "json" or "csv"`,
	} {
		if !strings.HasPrefix(got[id], want) {
			t.Errorf("message %d: %q, want %q…", id, got[id], want)
		}
	}
}

// TestScriptFromOtherOrigin: pkcalc.js included from another origin cannot
// start its Web Worker; the promise rejects as documented, with status 0
// and a message that says why.
func TestScriptFromOtherOrigin(t *testing.T) {
	ctx := tab(t)
	site := httptest.NewServer(http.FileServer(http.Dir(os.Getenv("PKCALC_SITE"))))
	defer site.Close()
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<!doctype html><title>Elsewhere</title><script src="`+strings.Replace(site.URL, "127.0.0.1", "localhost", 1)+`/pkcalc.js"></script>`)
	}))
	defer host.Close()
	do(t, ctx, chromedp.Navigate(host.URL))
	got := eval[string](t, ctx, `pkcalc.analyze('{"id":"1"}').then(() => "resolved", e => e.status + " " + e.message)`)
	if !strings.HasPrefix(got, "0 ") || !strings.Contains(got, "origin") {
		t.Errorf("pkcalc.js from another origin: %q", got)
	}
	got = eval[string](t, ctx, `pkcalc.analyze('{"id":"1"}', "keys=/id").then(() => "resolved", e => e.status + " " + e.message)`)
	if !strings.HasPrefix(got, "400 options must be an object") {
		t.Errorf("options as a string: %q", got)
	}
}
