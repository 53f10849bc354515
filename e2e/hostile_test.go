package e2e

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/pkcalc/pkcalc/internal/hostile"
)

// hostileInput is an input of the shared corpus (testdata/hostile/README.md).
func hostileInput(t *testing.T, name string) string {
	t.Helper()
	return string(hostile.Find(t, name).Input(t))
}

// TestHostile pastes broken and hostile inputs into the page and gives
// others to window.pkcalc.analyze: each is reported with what is wrong and
// where, nothing in them runs, and the page goes on working.
func TestHostile(t *testing.T) {
	needBrowser(t)
	// alert, confirm and prompt count their calls instead of showing
	// anything: input that ran as code would call them.
	const calls = `window.__calls = 0; window.alert = window.confirm = window.prompt = () => { window.__calls++ };`
	t.Run("pasted", func(t *testing.T) {
		ctx := page(t)
		eval[chromedp.Void](t, ctx, calls)
		for _, tt := range []struct {
			file   string
			status string // what the status line says
			shown  string // in the list of problems (#errors) or the failure (#error)
		}{
			{"truncated-array.json", "Read 2 documents", "line 1, column 72 (document 3): the input ends inside an object: expected ',' or '}'"},
			{"nan-infinity.jsonl", "Read 2 documents", "line 2, column 15 (document 2): NaN is not valid JSON: numbers must be finite; write null instead"},
			{"comments.json", "Read 1 document", "line 1, column 1 (document 1): JSON has no comments: remove the // comment"},
			{"deep-129-arrays.jsonl", "Read 2 documents", "line 2, column 1 (document 2): document is nested deeper than the 128 levels Cosmos DB allows; skipped"},
			{"bom-in-value.jsonl", "Read 2 documents", "line 2, column 7 (document 2): a byte order mark (U+FEFF) in the middle of the input"},
			// Notes: the input was read as a table; a name does not show as itself.
			{"table-lines.jsonl", "Read 5 documents", "line 1, column 1 (document 1): the first line is an array of 6 names and the lines after it arrays of values: read as a table"},
			{"bom-in-name.jsonl", "Read 6 documents", `line 1, column 2 (document 1): property name "\ufeffISO" holds a byte order mark (U+FEFF) before "ISO"`},
			{"cut-after-colon.jsonl", "Read 2 documents", "line 1, column 20 (document 1): the line ends after ':' with no value: document 1 is cut off here; skipped, and line 2, a document of its own, is read as one"},
			{"non-document-lines.jsonl", "Read 1 document", `line 4, column 1 (document 4): a string is not a document: documents are JSON objects; skipped`},
			{"deep-129.json", "Could not analyse pasted text", "no document could be read; line 1, column 1: document is nested deeper than the 128 levels Cosmos DB allows; skipped"},
			{"html-page.html", "Could not analyse pasted text", "no document could be read; line 1, column 1: the input is an HTML page, not JSON (often an error or sign-in page saved in place of the data): save the JSON itself"},
			{"single-quotes.json", "Could not analyse pasted text", "no document could be read; line 1, column 3: strings and property names take double quotes, not single quotes"},
			{"smart-quotes.json", "Could not analyse pasted text", "no document could be read; line 2, column 4: a curly quote “ (U+201C): JSON takes straight double quotes (\"); turn off smart quotes or replace them"},
			{"mongo-shell.json", "Could not analyse pasted text", "no document could be read; line 3, column 5: this is MongoDB shell output (_id: ObjectId(...)), not JSON: export with mongoexport instead"},
			{"csv-as-json.csv", "Could not analyse pasted text", `no document could be read; line 1, column 1: the input looks like CSV (first line "id,tenant"), not JSON: read it as CSV, from a file named .csv or sent as text/csv`},
		} {
			t.Run(tt.file, func(t *testing.T) {
				clearPage(t, ctx)
				paste(t, ctx, hostileInput(t, tt.file))
				waitStatus(t, ctx, tt.status)
				shown := eval[string](t, ctx, `["errors", "error", "warnings"].map(id => (document.getElementById(id) || {}).innerText || "").join("\n")`)
				if !strings.Contains(shown, tt.shown) {
					t.Errorf("the page shows %q; want %q", shown, tt.shown)
				}
				stillWorks(t, ctx)
			})
		}
		nothingRan(t, ctx)
	})

	// A table of JSON arrays reads as its rows, and a name with a byte
	// order mark before it shows the mark in the path table.
	t.Run("what people paste", func(t *testing.T) {
		ctx := page(t)
		for _, tt := range []struct {
			file, status string
			paths        []string
		}{
			{"table-array.json", "Read 4 documents", []string{"/id", "/tenantId", "/device", "/device/id", "/device/kind"}},
			{"bom-in-name.jsonl", "Read 6 documents", []string{`/"\ufeffISO"`, "/id", "/population"}},
		} {
			clearPage(t, ctx)
			paste(t, ctx, hostileInput(t, tt.file))
			waitStatus(t, ctx, tt.status)
			rows := table(t, ctx)
			for _, p := range tt.paths {
				if _, ok := rows[p]; !ok {
					t.Errorf("%s: no row for %s; rows %v", tt.file, p, rows)
				}
			}
		}
	})

	t.Run("script payloads", func(t *testing.T) {
		ctx := page(t)
		eval[chromedp.Void](t, ctx, calls)
		paste(t, ctx, hostileInput(t, "script-payloads.jsonl"))
		waitStatus(t, ctx, "Read 3 documents")
		time.Sleep(300 * time.Millisecond) // give an injected handler its chance
		nothingRan(t, ctx)
		rows := table(t, ctx)
		for _, path := range []string{`/"<img src=x onerror=alert(1)>"`, "/__proto__", "/__proto__/polluted", "/constructor", "/x"} {
			if _, ok := rows[path]; !ok {
				t.Errorf("no row for %s; rows %v", path, rows)
			}
		}
		if r := rows["/tenant"]; !strings.Contains(r.Top, `"<b>bold</b>"`) || !strings.Contains(r.Top, `"\"><svg onload=alert(1)>"`) {
			t.Errorf("/tenant values not shown as text: %q", r.Top)
		}
		if n := eval[int](t, ctx, `({}).polluted === undefined ? 0 : 1`); n != 0 {
			t.Errorf("__proto__ in a document polluted Object.prototype")
		}
		do(t, ctx, chromedp.Click(chromedp.CSS(`#candidates tbody tr td.key button`)))
		nothingRan(t, ctx)
		stillWorks(t, ctx)
	})

	t.Run("large", func(t *testing.T) {
		ctx := page(t)
		eval[chromedp.Void](t, ctx, calls)
		for _, tt := range []struct {
			name, js, shown string
		}{
			// Made in the page: 10 MB does not travel well through DevTools.
			{"10 MB string", `'{"id":"1"}\n{"id":"2","s":"' + "x".repeat(10 << 20) + '"}\n{"id":"3"}\n'`,
				"line 2, column 1 (document 2): document holds a string longer than the 2 MB Cosmos DB allows for a whole item; skipped"},
			{"10,000 levels", `'{"id":"1"}\n' + '{"a":'.repeat(10000) + "1" + "}".repeat(10000) + '\n{"id":"3"}\n'`,
				"line 2, column 1 (document 2): document is nested deeper than the 128 levels Cosmos DB allows; skipped"},
			{"3 MB document", `'{"id":"1"}\n{"id":"2","pad":[' + '"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",'.repeat(100000) + '"end"]}\n{"id":"3"}\n'`,
				"line 2, column 1 (document 2): document is larger than the 2 MB Cosmos DB allows for an item; skipped"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				clearPage(t, ctx)
				eval[chromedp.Void](t, ctx, `(() => { const t = document.getElementById("docs"); t.focus(); t.value = `+tt.js+`;
					t.dispatchEvent(new InputEvent("input", {bubbles: true, inputType: "insertFromPaste"})); })()`)
				status := waitStatus(t, ctx, "Read 2 documents")
				if !strings.Contains(status, "1 problem") {
					t.Errorf("status %q", status)
				}
				if e := eval[string](t, ctx, `document.getElementById("errors").innerText`); !strings.Contains(e, tt.shown) {
					t.Errorf("errors %q; want %q", e, tt.shown)
				}
				stillWorks(t, ctx)
			})
		}
		nothingRan(t, ctx)
	})

	t.Run("blobs", func(t *testing.T) {
		ctx := page(t)
		eval[chromedp.Void](t, ctx, calls)
		blob := func(name string) string {
			return `new Blob([Uint8Array.from(atob("` + base64.StdEncoding.EncodeToString([]byte(hostileInput(t, name))) + `"), c => c.charCodeAt(0))])`
		}
		// Bytes that are not UTF-8 cannot be pasted (a JavaScript string
		// holds UTF-16), but a file can hold them.
		if got := eval[string](t, ctx, `pkcalc.analyze(`+blob("invalid-utf8.jsonl")+`).then(r => [r.documents, r.input.notes, r.input.errorCount, r.paths.map(p => p.path).join(" ")].join("|"))`); got != "3|3|0|/id /tenant /\"ten\uFFFDant\"" {
			t.Errorf("invalid UTF-8: %q", got)
		}
		for _, tt := range []struct{ file, want string }{
			{"image.png", "400 no document could be read; line 1, column 1: the input is a PNG image, not JSON: choose the file that holds the JSON documents"},
			{"documents.json.gz", "400 no document could be read; line 1, column 1: the input is gzip-compressed: decompress it first (gunzip FILE)"},
			{"utf16le-bom.json", "400 no document could be read; line 1, column 1: the input is UTF-16 text: save it as UTF-8 (Windows PowerShell's > writes UTF-16; pipe to Out-File -Encoding utf8 instead)"},
			{"workbook.xlsx", "400 no document could be read; line 1, column 1: the input is an Excel workbook, not JSON: save the sheet as CSV UTF-8 and read that"},
			{"mongodump.bson", "400 no document could be read; line 1, column 1: the input is BSON (a mongodump file), not JSON: convert it with bsondump FILE > FILE.json, or export with mongoexport"},
		} {
			if got := eval[string](t, ctx, `pkcalc.analyze(`+blob(tt.file)+`).then(r => "resolved: " + r.documents, e => e.status + " " + e.message)`); got != tt.want {
				t.Errorf("%s: %q; want %q", tt.file, got, tt.want)
			}
		}
		if got := eval[string](t, ctx, `pkcalc.analyze(`+blob("extended-json-edge.jsonl")+`, {as: "text"}).then(t => String(JSON.parse(t).documents))`); got != "3" {
			t.Errorf("extended JSON: %q", got)
		}
		nothingRan(t, ctx)
		stillWorks(t, ctx)
	})
}

// clearPage empties the paste area and the results, so that the next
// status is the next analysis's.
func clearPage(t *testing.T, ctx context.Context) {
	t.Helper()
	do(t, ctx, chromedp.Click(chromedp.ID("clear")))
	waitStatus(t, ctx, "Paste documents, drop files or try a sample.")
}

// stillWorks: after the input, the sample button still analyses.
func stillWorks(t *testing.T, ctx context.Context) {
	t.Helper()
	do(t, ctx, chromedp.Click(chromedp.ID("sample")))
	waitStatus(t, ctx, "Read 2,000 documents")
	if n := len(candidates(t, ctx)); n < 6 {
		t.Errorf("%d candidates for the sample after hostile input", n)
	}
}

// nothingRan: no alert, confirm or prompt was called, and the input made
// no element or event handler in the page.
func nothingRan(t *testing.T, ctx context.Context) {
	t.Helper()
	if n := eval[int](t, ctx, `window.__calls`); n != 0 {
		t.Errorf("input ran as code: %d calls of alert, confirm or prompt", n)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#main script, #main img, #main iframe, #main object, #main embed, #main b").length`); n != 0 {
		t.Errorf("input became %d elements", n)
	}
	if s := eval[string](t, ctx, `[...document.querySelectorAll("#main *")].flatMap(e => [...e.attributes].filter(a => /^on/i.test(a.name) || /javascript:/i.test(a.value)).map(a => e.tagName + " " + a.name + "=" + a.value)).join("; ")`); s != "" {
		t.Errorf("input became attributes: %s", s)
	}
}
