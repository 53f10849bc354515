package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestLongPathsWrap: key paths 50 levels deep and property names of 300
// characters wrap on a phone's screen instead of widening the page.
func TestLongPathsWrap(t *testing.T) {
	deep, long := "", strings.Repeat("p", 300)
	for i := range 50 {
		deep += fmt.Sprintf("/level%02d", i)
	}
	var docs strings.Builder
	for i := range 300 {
		var v any = map[string]any{"k": fmt.Sprintf("v%d", i)}
		for j := 49; j >= 0; j-- {
			v = map[string]any{fmt.Sprintf("level%02d", j): v}
		}
		b, _ := json.Marshal(map[string]any{"id": fmt.Sprint(i), long: fmt.Sprintf("t%d", i), "d": v.(map[string]any)["level00"]})
		docs.Write(b)
		docs.WriteByte('\n')
	}
	deep = "/d" + strings.TrimPrefix(deep, "/level00") + "/k"
	for _, keys := range []string{"", deep, "/" + long} {
		t.Run(fmt.Sprint(len(keys)), func(t *testing.T) {
			ctx := tab(t)
			address := siteURL
			if keys != "" {
				address += "?noSuggest=true&keys=" + url.QueryEscape(keys)
			}
			do(t, ctx, chromedp.EmulateViewport(375, 800), chromedp.Navigate(address),
				chromedp.Poll[chromedp.Void](`document.documentElement.dataset.ready === "true"`))
			paste(t, ctx, docs.String())
			waitStatus(t, ctx, "Read 300 documents")
			if keys != "" {
				if rec := eval[string](t, ctx, `document.querySelector("#recommended code").textContent`); rec != keys {
					t.Errorf("recommended %.40q", rec)
				}
			}
			if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 375 {
				wide := eval[string](t, ctx, `[...document.querySelectorAll("#main *")].filter(e => e.getBoundingClientRect().right > 376 && !e.closest(".table-wrap, pre"))
					.slice(0, 5).map(e => e.tagName + (e.id ? "#" + e.id : "") + "." + e.className).join(" ")`)
				t.Errorf("the page is %d px wide on a 375 px screen: %s", w, wide)
			}
		})
	}
}

// TestKeyboard: one Tab stop for choosing files, with its focus shown;
// focus kept on Analyse while it runs and on the keys list when a key is
// removed; the snippet tabs follow the ARIA tab pattern.
func TestKeyboard(t *testing.T) {
	ctx := page(t)
	// Choose files: from the paste area, one Tab reaches it and the next
	// the sample button.
	eval[chromedp.Void](t, ctx, `document.getElementById("docs").focus()`)
	do(t, ctx, chromedp.KeyEvent("\t"))
	got := eval[string](t, ctx, `(() => { const e = document.activeElement, l = e.labels?.[0];
		return [e.id, l?.textContent.trim(), l && getComputedStyle(l).outlineStyle, l && getComputedStyle(l).outlineWidth].join(" | "); })()`)
	if got != "files | Choose files… | solid | 3px" {
		t.Errorf("after Tab from the paste area: %q", got)
	}
	do(t, ctx, chromedp.KeyEvent("\t"))
	if id := eval[string](t, ctx, `document.activeElement.id`); id != "sample" {
		t.Errorf("the second Tab goes to %q", id)
	}

	// Analyse keeps the focus while it runs (it is never disabled), then
	// the answer takes it.
	do(t, ctx, chromedp.Click(chromedp.ID("sample")))
	waitStatus(t, ctx, "Read 2,000 documents")
	// The run can end before a check after the key press could look, so
	// every focus move is logged instead: the one move is to the answer.
	eval[chromedp.Void](t, ctx, `document.getElementById("analyse").focus();
		window.focusMoves = [];
		document.addEventListener("focusout", e => focusMoves.push((e.target.id || e.target.tagName) + " -> " + (e.relatedTarget?.id || "nothing")), true)`)
	do(t, ctx, chromedp.KeyEvent("\r"))
	do(t, ctx, chromedp.Poll[chromedp.Void](`document.activeElement.id === "verdict-title" && document.getElementById("status").textContent.startsWith("Read 2,000")`))
	if moves := eval[[]string](t, ctx, `focusMoves`); !slices.Equal(moves, []string{"analyse -> verdict-title"}) {
		t.Errorf("from Analyse to the answer, the focus moved %q", moves)
	}
	do(t, ctx, chromedp.KeyEvent("\t"))
	if id := eval[string](t, ctx, `document.activeElement.closest("#answer") ? "in the answer" : document.activeElement.id || document.activeElement.tagName`); id != "in the answer" {
		t.Errorf("Tab from the answer's heading goes to %q", id)
	}

	// Removing a key moves the focus to the next key's remove button, then
	// to the key box.
	openSettings(t, ctx)
	do(t, ctx, chromedp.SendKeys(chromedp.ID("keybox"), "/tenantId\r"), chromedp.SendKeys(chromedp.ID("keybox"), "/customerId\r"))
	eval[chromedp.Void](t, ctx, `document.querySelector("#keys button").focus()`)
	do(t, ctx, chromedp.KeyEvent("\r"))
	time.Sleep(100 * time.Millisecond)
	if f := eval[string](t, ctx, `document.activeElement.getAttribute("aria-label") || document.activeElement.id || document.activeElement.tagName`); f != "Remove /customerId" {
		t.Errorf("after removing /tenantId, the focus is on %q", f)
	}
	do(t, ctx, chromedp.KeyEvent("\r"))
	time.Sleep(100 * time.Millisecond)
	if f := eval[string](t, ctx, `document.activeElement.id || document.activeElement.tagName`); f != "keybox" {
		t.Errorf("after removing the last key, the focus is on %q", f)
	}

	// The snippet tabs: one Tab stop, arrows, Home and End move among them.
	tabs := eval[[]string](t, ctx, `[...document.querySelectorAll("[role=tab]")].map(b => b.id)`)
	if len(tabs) < 3 {
		t.Fatalf("tabs %q", tabs)
	}
	state := `(() => { const a = document.activeElement, p = document.querySelector("[role=tabpanel]");
		const stops = [...document.querySelectorAll("[role=tab]")].filter(b => b.tabIndex === 0).map(b => b.id);
		const sel = [...document.querySelectorAll("[role=tab][aria-selected=true]")].map(b => b.id);
		const ctl = [...document.querySelectorAll("[role=tab]")].every(b => b.getAttribute("aria-controls") === p.id);
		return [a.id, stops.join(","), sel.join(","), p.getAttribute("aria-labelledby"), ctl].join(" "); })()`
	want := func(id string) string { return fmt.Sprintf("%s %s %s %s true", id, id, id, id) }
	eval[chromedp.Void](t, ctx, `document.getElementById(`+jsString(tabs[0])+`).focus()`)
	if s := eval[string](t, ctx, state); s != want(tabs[0]) {
		t.Errorf("first tab: %q", s)
	}
	for _, step := range []struct{ key, to string }{
		{kb.ArrowRight, tabs[1]}, {kb.End, tabs[len(tabs)-1]}, {kb.ArrowRight, tabs[0]}, {kb.ArrowLeft, tabs[len(tabs)-1]}, {kb.Home, tabs[0]},
	} {
		do(t, ctx, chromedp.KeyEvent(step.key))
		time.Sleep(100 * time.Millisecond)
		if s := eval[string](t, ctx, state); s != want(step.to) {
			t.Errorf("after %q: %q, want %q", step.key, s, want(step.to))
		}
	}
	if y := eval[float64](t, ctx, `scrollY`); y == 0 {
		t.Errorf("Home scrolled the page to the top")
	}
	do(t, ctx, chromedp.KeyEvent("\t"))
	if id := eval[string](t, ctx, `document.activeElement.id`); id != "copy-snippet" {
		t.Errorf("Tab from the tabs goes to %q", id)
	}
}

// contrastJS defines contrast(a, b), the WCAG contrast ratio of two
// computed colours.
const contrastJS = `const lum = c => { const [r, g, b] = c.match(/[\d.]+/g).slice(0, 3).map(Number).map(v => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
	return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
const contrast = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };`

// TestContrast: the grade badges and the placeholders that carry
// information reach 4.5:1 in the light and the dark theme.
func TestContrast(t *testing.T) {
	ctx := page(t)
	for _, scheme := range []string{"light", "dark"} {
		do(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
			return err
		}))
		low := eval[[]string](t, ctx, `(() => { `+contrastJS+`
			const out = [];
			for (const g of "abcdf") {
				const s = document.createElement("span"); s.className = "grade grade-" + g; s.textContent = "B";
				document.getElementById("main").append(s);
				const cs = getComputedStyle(s), r = contrast(cs.color, cs.backgroundColor);
				if (r < 4.5) out.push("grade " + g + ": " + r.toFixed(2));
				s.remove();
			}
			for (const e of document.querySelectorAll("[placeholder]")) {
				const r = contrast(getComputedStyle(e, "::placeholder").color, getComputedStyle(e).backgroundColor);
				if (r < 4.5) out.push(e.id + ": " + r.toFixed(2));
			}
			return out; })()`)
		if len(low) > 0 {
			t.Errorf("%s: below 4.5:1: %q", scheme, low)
		}
	}
}

// TestCopyButtonClear: a snippet's Copy button, in the answer and in the
// details, never covers its code.
func TestCopyButtonClear(t *testing.T) {
	ctx := page(t)
	do(t, ctx, chromedp.Click(chromedp.ID("sample")))
	waitStatus(t, ctx, "Read 2,000 documents")
	for _, w := range []int64{320, 375, 768, 1280} {
		do(t, ctx, chromedp.EmulateViewport(w, 900))
		covered := eval[[]string](t, ctx, `[...document.querySelectorAll(".snippet")].filter(s => {
			const b = s.querySelector("button.copy").getBoundingClientRect(), c = s.querySelector("pre").getBoundingClientRect();
			return b.left < c.right && c.left < b.right && b.top < c.bottom && c.top < b.bottom; }).map(s => s.querySelector("button.copy").id)`)
		// The answer's and the details' snippets, and the plan's commands.
		n := eval[int](t, ctx, `document.querySelectorAll(".snippet").length`)
		plan := eval[int](t, ctx, `document.querySelectorAll("#plan .snippet").length`)
		if plan == 0 || n != 2+plan || len(covered) > 0 {
			t.Errorf("at %d px, of %d snippets (%d of the plan) the Copy button covers the code in %q", w, n, plan, covered)
		}
	}
}

// TestCopyRefused: when the browser refuses the clipboard (a frame without
// clipboard-write, a page without HTTPS), the page says nothing was copied;
// it used to say the report was on the clipboard.
func TestCopyRefused(t *testing.T) {
	ctx := page(t)
	do(t, ctx, chromedp.Click(chromedp.ID("sample")))
	waitStatus(t, ctx, "Read 2,000 documents")
	eval[chromedp.Void](t, ctx, `navigator.clipboard.writeText = () => Promise.reject(new DOMException("Write permission denied.", "NotAllowedError"))`)
	do(t, ctx, chromedp.Click(chromedp.ID("copy-markdown")))
	do(t, ctx, chromedp.Poll[chromedp.Void](`(document.getElementById("notice") || {}).textContent?.startsWith("Nothing was copied")`))
	if got := eval[string](t, ctx, `document.getElementById("notice").textContent`); !strings.Contains(got, "NotAllowedError: Write permission denied.") {
		t.Errorf("notice %q", got)
	}
}
