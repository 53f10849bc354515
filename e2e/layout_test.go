package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// layoutJS defines layout(), which checks the page as it is laid out now
// and returns {problems, stats}: each problem names the element (its tag,
// id or classes, text) and what is wrong with it, so that a failure says
// where to look. The checks:
//
//   - nothing sticks out of the viewport sideways (the document's
//     scrollWidth, every element's box and every line of text), and no
//     element scrolls or clips its content, except inside the scroll
//     containers of scrollable below;
//   - no visible text is smaller than 11 px as displayed: an HTML text's
//     computed font size, an SVG label's font size times the scale of the
//     SVG's viewBox to the screen (getScreenCTM);
//   - no two pieces of text overlap (the boxes of the lines of every text
//     node and of every chart label), no line of text leaves its table
//     cell, list item, button or panel, and no chart label overlaps a bar,
//     a limit line or the plot, or is cut by the chart's edge;
//   - every text reaches the contrast WCAG asks of it against the
//     background it is drawn on: 4.5:1, or 3:1 for large text (24 px, or
//     18.66 px bold).
//
// stats are the figures a change of layout is measured by: the smallest
// text, in HTML and in charts, and the widest element.
const layoutJS = `(() => {
// The one scroll container a page may have: code is copied as it is, and
// wrapping its lines would change what a reader takes for a line. (The
// paste and query areas are text fields, whose text is no element here.)
const scrollable = ".snippet pre";
const W = document.documentElement.clientWidth;
// Each kind of problem is kept apart, so that a page with many of one
// kind still shows the others.
const problems = {}, seen = new Set();
const add = (kind, s) => { if (!seen.has(s)) { seen.add(s); (problems[kind] ||= []).push(s); } };
const clip = s => { s = s.replace(/\s+/g, " ").trim(); return s.length > 48 ? s.slice(0, 47) + "…" : s; };
const name = e => {
	if (!e) return "?";
	if (e.nodeType === Node.TEXT_NODE) return JSON.stringify(clip(e.textContent)) + " in " + name(e.parentElement);
	let s = e.tagName.toLowerCase();
	if (e.id) s += "#" + e.id;
	else if (typeof e.className === "string" && e.className.trim()) s += "." + e.className.trim().split(/\s+/).slice(0, 3).join(".");
	else if (e.getAttribute("class")) s += "." + e.getAttribute("class").trim().split(/\s+/).slice(0, 3).join(".");
	if (!e.id) {
		const chart = e.closest("svg");
		if (chart && chart !== e) s += " in the chart " + JSON.stringify(clip(chart.querySelector("title")?.textContent || ""));
		else { const a = e.parentElement?.closest("[id]"); if (a) s += " in #" + a.id; }
	}
	return s;
};
const px = v => Math.round(v * 10) / 10;
// Text that is not drawn: hidden for screen readers alone, tooltips,
// fallback content, the options of a closed list, the text of a field.
// An element clipped to nothing (the visually-hidden pattern) is for
// screen readers alone too.
const clipped = new Map();
const clippedAway = e => {
	if (!e || e === document.body) return false;
	if (!clipped.has(e)) clipped.set(e, getComputedStyle(e).clip === "rect(0px, 0px, 0px, 0px)" || clippedAway(e.parentElement));
	return clipped.get(e);
};
const unseen = e => !!e.closest("title, desc, style, script, noscript, template, meter, progress, select, option, textarea") ||
	clippedAway(e) || !e.checkVisibility({visibilityProperty: true, opacityProperty: false});
const inScroller = e => !!e.closest(scrollable);
const inter = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
const inside = (r, box) => r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;

// Colours: the WCAG ratio, and the background a text is drawn on (the
// first opaque background up the tree, with translucent ones over it).
const rgba = c => { const m = c.match(/[\d.]+/g); if (!m) return [0, 0, 0, 0]; const v = m.map(Number); return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; };
const lum = ([r, g, b]) => { const f = v => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
const over = (top, under) => { const a = top[3]; return [0, 1, 2].map(i => top[i] * a + under[i] * (1 - a)).concat(1); };
const background = e => {
	const layers = [];
	for (let n = e; n && n.nodeType === Node.ELEMENT_NODE; n = n.parentElement) {
		if (n.closest("svg") && n.tagName.toLowerCase() !== "svg") continue;
		const c = rgba(getComputedStyle(n).backgroundColor);
		if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
	}
	let bg = [255, 255, 255, 1];
	for (const l of layers.reverse()) bg = l[3] >= 1 ? l : over(l, bg);
	return bg;
};
const inactive = e => !!e.closest(":disabled, [aria-disabled=true]");
const contrast = (e, fg, what) => {
	if (inactive(e)) return;
	const cs = getComputedStyle(e), size = parseFloat(cs.fontSize), bold = Number(cs.fontWeight) >= 700;
	const need = size >= 24 || (size >= 18.66 && bold) ? 3 : 4.5;
	let c = rgba(fg);
	const bg = background(e);
	if (c[3] < 1) c = over(c, bg);
	const r = ratio(c, bg);
	if (r < need - 0.005) add("contrast", what + " has a contrast of " + r.toFixed(2) + ":1 (" + fg + " on rgb(" + bg.slice(0, 3).join(", ") + ")), below " + need + ":1");
};

// 1. Sideways: the document, then every element not in a scroll container.
const sw = document.documentElement.scrollWidth;
if (sw > W) add("off screen", "the page is " + sw + " px wide in a " + W + " px viewport");
const out = new Set();
let widest = null;
for (const e of document.body.querySelectorAll("*")) {
	if (inScroller(e) || unseen(e)) continue;
	const r = e.getBoundingClientRect();
	if (r.width === 0 && r.height === 0) continue;
	if (!widest || r.width > widest.w) widest = {w: r.width, what: name(e)};
	if (r.left < -0.5 || r.right > W + 0.5) {
		out.add(e);
		if (!out.has(e.parentElement)) add("off screen", name(e) + " runs out of the viewport: " + px(r.left) + " to " + px(r.right) + " px of " + W);
	}
	if (e.closest("svg") || e.matches("input, textarea, select, svg")) continue;
	const cs = getComputedStyle(e);
	if (cs.overflowX !== "visible" && e.scrollWidth > e.clientWidth + 1)
		add("scrolls", name(e) + " scrolls or cuts its content sideways: " + e.scrollWidth + " px in " + e.clientWidth);
	if ((cs.overflowY === "hidden" || cs.overflowY === "clip") && e.scrollHeight > e.clientHeight + 1)
		add("scrolls", name(e) + " cuts its content: " + e.scrollHeight + " px high in " + e.clientHeight);
}

// 2. Text: its size, where its lines are, its contrast.
const boxes = [];
let smallest = null, smallestChart = null;
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
	const p = n.parentElement;
	if (!n.textContent.trim() || !p || p.closest("svg") || unseen(p) || inScroller(p)) continue;
	const range = document.createRange();
	range.selectNodeContents(n);
	const rects = [...range.getClientRects()].filter(r => r.width > 0.5 && r.height > 0.5);
	if (!rects.length) continue;
	const size = parseFloat(getComputedStyle(p).fontSize);
	if (!smallest || size < smallest.size) smallest = {size, what: name(n)};
	if (size < 10.99) add("small", "text " + name(n) + " is " + px(size) + " px");
	const box = p.closest("td, th, li, button, .panel");
	const boxR = box && box.getBoundingClientRect();
	for (const r of rects) {
		boxes.push({r, n, what: "text " + name(n)});
		if (r.right > W + 0.5 || r.left < -0.5) add("off screen", "text " + name(n) + " runs out of the viewport: " + px(r.left) + " to " + px(r.right) + " px of " + W);
		else if (boxR && !inside(r, boxR)) add("spills", "text " + name(n) + " leaves its " + name(box) + ": " + [r.left, r.top, r.right, r.bottom].map(px).join(",") + " outside " + [boxR.left, boxR.top, boxR.right, boxR.bottom].map(px).join(","));
	}
	contrast(p, getComputedStyle(p).color, "text " + name(n));
}

// 3. Charts: a label's size as displayed, inside the chart, clear of the
// bars and the plot; its contrast against the panel.
for (const svg of document.querySelectorAll("svg")) {
	if (unseen(svg)) continue;
	const sr = svg.getBoundingClientRect();
	if (sr.width === 0) continue;
	const marks = [...svg.querySelectorAll("rect.bar, path.lim, rect.cold, path.eq")].map(m => ({m, r: m.getBoundingClientRect()}));
	for (const t of svg.querySelectorAll("text")) {
		if (!t.checkVisibility({visibilityProperty: true})) continue;
		const m = t.getScreenCTM(), cs = getComputedStyle(t);
		const size = parseFloat(cs.fontSize) * Math.hypot(m.a, m.b);
		const what = "chart label " + JSON.stringify(clip(t.textContent)) + " in " + JSON.stringify(clip(svg.querySelector("title")?.textContent || name(svg)));
		if (!smallestChart || size < smallestChart.size) smallestChart = {size, what};
		if (size < 10.99) add("small", what + " is " + px(size) + " px");
		const r = t.getBoundingClientRect();
		boxes.push({r, n: t, what});
		if (!inside(r, sr)) add("spills", what + " is cut by the chart's edge: " + [r.left, r.top, r.right, r.bottom].map(px).join(",") + " outside " + [sr.left, sr.top, sr.right, sr.bottom].map(px).join(","));
		for (const {m, r: mr} of marks) if (inter(r, mr)) { add("overlaps", what + " overlaps " + (m.classList.contains("bar") ? "a bar (" + clip(m.textContent) + ")" : m.classList.contains("lim") ? "the limit line" : "the plot")); break; }
		contrast(t, cs.fill, what);
	}
}

// 4. No two pieces of text on top of each other.
boxes.sort((a, b) => a.r.top - b.r.top);
for (let i = 0; i < boxes.length; i++) {
	const a = boxes[i];
	for (let j = i + 1; j < boxes.length && boxes[j].r.top < a.r.bottom - 1; j++) {
		const b = boxes[j];
		if (a.n !== b.n && !a.n.contains(b.n) && !b.n.contains(a.n) && inter(a.r, b.r)) add("overlaps", a.what + " overlaps " + b.what);
	}
}
return {problems, stats: {
	smallestText: smallest ? px(smallest.size) + " px, " + smallest.what : "none",
	smallestChartLabel: smallestChart ? px(smallestChart.size) + " px, " + smallestChart.what : "none",
	// Chart labels cut with an ellipsis, whole in their tooltip.
	cutChartLabels: [...document.querySelectorAll("svg text")].filter(t => !unseen(t) && t.checkVisibility() && t.querySelector("title")).length,
	widest: widest ? px(widest.w) + " px, " + widest.what : "none",
	pageWidth: sw}};
})()`

type layoutResult struct {
	Problems map[string][]string // by kind
	Stats    struct {
		SmallestText, SmallestChartLabel, Widest string
		PageWidth, CutChartLabels                int
	}
}

// layoutWidths are the widths the page is checked at: the narrowest
// phone the README promises, a common phone, a laptop.
var layoutWidths = []int64{360, 390, 1280}

// colourScheme emulates prefers-color-scheme.
func colourScheme(scheme string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	})
}

// checkLayout checks the page as it stands at every width in both colour
// schemes, and fails naming every problem layoutJS finds. It leaves the
// tab at 1280 px in the light scheme.
func checkLayout(t *testing.T, ctx context.Context, state string) {
	t.Helper()
	for _, scheme := range []string{"light", "dark"} {
		for _, w := range layoutWidths {
			do(t, ctx, colourScheme(scheme), chromedp.EmulateViewport(w, 900))
			// Two frames: the layout and the paint of the new width.
			eval[chromedp.Void](t, ctx, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`)
			res := eval[layoutResult](t, ctx, layoutJS)
			t.Logf("%s, %d px, %s: page %d px; smallest text %s; smallest chart label %s; %d chart labels cut; widest %s",
				state, w, scheme, res.Stats.PageWidth, res.Stats.SmallestText, res.Stats.SmallestChartLabel, res.Stats.CutChartLabels, res.Stats.Widest)
			var msg strings.Builder
			for _, kind := range slices.Sorted(maps.Keys(res.Problems)) {
				p := res.Problems[kind]
				fmt.Fprintf(&msg, "\n  %s (%d):\n\t%s", kind, len(p), strings.Join(p[:min(len(p), 8)], "\n\t"))
				if len(p) > 8 {
					msg.WriteString("\n\t…")
				}
			}
			if msg.Len() > 0 {
				t.Errorf("%s, at %d px, %s:%s", state, w, scheme, msg.String())
			}
		}
	}
	do(t, ctx, colourScheme("light"), chromedp.EmulateViewport(1280, 900))
}

// TestLayoutReadable: at a phone's width and a laptop's, in the light
// and the dark scheme, every state of the results is readable: nothing
// runs off the screen or under another thing, no text is under 11 px,
// none is faint.
func TestLayoutReadable(t *testing.T) {
	t.Run("sample", func(t *testing.T) {
		ctx := page(t)
		do(t, ctx, chromedp.Click(chromedp.ID("sample")))
		waitStatus(t, ctx, "Read 2,000 documents")
		checkLayout(t, ctx, "after Try a sample")

		// Every candidate, the weak ones unfolded where they fold.
		eval[chromedp.Void](t, ctx, `document.getElementById("show-more")?.click()`)
		// Another candidate's details, one with findings.
		eval[chromedp.Void](t, ctx, `[...document.querySelectorAll("#candidates td.key button")].find(b => b.textContent === "/tenantId").click()`)
		do(t, ctx, chromedp.Poll[chromedp.Void](`document.querySelector("#detail-title code")?.textContent === "/tenantId"`))
		checkLayout(t, ctx, "with /tenantId's details")

		// Three candidates side by side.
		for _, k := range []string{"/tenantId", "/customerId", "/tenantId,/customerId,/id"} {
			eval[chromedp.Void](t, ctx, `document.querySelector('input[aria-label="Compare `+k+`"]').click()`)
		}
		do(t, ctx, chromedp.Poll[chromedp.Void](`document.querySelectorAll("#compare thead code").length === 3`))
		checkLayout(t, ctx, "with three keys compared")
	})

	t.Run("telemetry", func(t *testing.T) {
		ctx := page(t)
		do(t, ctx, chromedp.Click(chromedp.ID("sample-telemetry")))
		waitStatus(t, ctx, "Read 5,000 documents")
		checkLayout(t, ctx, "after the telemetry sample")
	})

	// The diagnose mode: its form of exports, and the worked example's
	// diagnosis with its tables and commands.
	t.Run("diagnose", func(t *testing.T) {
		ctx := page(t)
		do(t, ctx, chromedp.Click(chromedp.ID("mode-diagnose")))
		do(t, ctx, chromedp.Poll[chromedp.Void](`document.getElementById("diagnose-example") !== null`))
		checkLayout(t, ctx, "with the diagnose form")
		do(t, ctx, chromedp.Click(chromedp.ID("diagnose-example")))
		waitStatus(t, ctx, "Diagnosed the worked example")
		checkLayout(t, ctx, "with the worked example's diagnosis")
	})

	// A workload: the request units per partition against their limit,
	// and the table of where each operation goes.
	t.Run("workload", func(t *testing.T) {
		ctx := tab(t)
		// Bars over the limit and under it, near its label.
		q := url.Values{"sample": {"orders"}, "ru": {"20000"}, "writesPerSecond": {"3000"},
			"queries": {"300 SELECT * FROM c WHERE c.tenantId = @t AND c.customerId = @c\n5 SELECT * FROM c WHERE c.status = 'shipped' ORDER BY c.orderDate DESC"}}
		do(t, ctx, chromedp.Navigate(siteURL+"?"+q.Encode()), chromedp.Poll[chromedp.Void](`document.documentElement.dataset.ready === "true"`))
		waitStatus(t, ctx, "Read 2,000 documents")
		do(t, ctx, chromedp.Poll[chromedp.Void](`document.getElementById("verdicts") !== null`))
		checkLayout(t, ctx, "with a workload")
	})

	// Long keys, paths and values: 50 levels deep, a property name of 300
	// characters, long URLs.
	t.Run("long", func(t *testing.T) {
		deep, long := longKeys()
		ctx := tab(t)
		q := url.Values{"keys": {deep, "/" + long, "/site+/url", "/d/level01/level02,/site,/url"}}
		do(t, ctx, chromedp.Navigate(siteURL+"?"+q.Encode()), chromedp.Poll[chromedp.Void](`document.documentElement.dataset.ready === "true"`))
		paste(t, ctx, longDocs())
		waitStatus(t, ctx, "Read 300 documents")
		checkLayout(t, ctx, "with long keys and values")
		eval[chromedp.Void](t, ctx, `[...document.querySelectorAll("#candidates td.key button")].find(b => b.textContent.length > 300).click()`)
		checkLayout(t, ctx, "with a long key's details")
	})
}

// longKeys are a key path 50 levels deep and a property name of 300
// characters, as longDocs has them.
func longKeys() (deep, long string) {
	deep = "/d"
	for i := 1; i < 50; i++ {
		deep += fmt.Sprintf("/level%02d", i)
	}
	return deep + "/k", strings.Repeat("p", 300)
}

// longDocs are 300 documents with paths 50 levels deep, a property name
// of 300 characters and long URLs among their values.
func longDocs() string {
	_, long := longKeys()
	var docs strings.Builder
	for i := range 300 {
		var v any = map[string]any{"k": fmt.Sprintf("v%d", i)}
		for j := 49; j >= 0; j-- {
			v = map[string]any{fmt.Sprintf("level%02d", j): v}
		}
		b, _ := json.Marshal(map[string]any{
			"id": fmt.Sprint(i), long: fmt.Sprintf("t%d", i), "d": v.(map[string]any)["level00"],
			"site": fmt.Sprintf("tenant-%d.example.com", i%7),
			"url":  fmt.Sprintf("https://storage.example.com/containers/customer-uploads/2024/invoices/%d/scan-of-the-signed-original-%d.pdf", i%5, i%5),
		})
		docs.Write(b)
		docs.WriteByte('\n')
	}
	return docs.String()
}

// TestPlanInPage: after Try a sample the shown key's details hold the
// plan (core/plan's steps), with at least one command under a Copy
// button; checkLayout above reads the page with it at both widths.
func TestPlanInPage(t *testing.T) {
	ctx := page(t)
	do(t, ctx, chromedp.Click(chromedp.ID("sample")))
	waitStatus(t, ctx, "Read 2,000 documents")
	do(t, ctx, chromedp.Poll[chromedp.Void](`document.getElementById("plan-title") !== null`))
	got := eval[[]string](t, ctx, `[document.getElementById("plan-title").innerText,
		document.querySelector("#plan button.copy")?.innerText ?? "",
		document.querySelector("#plan .snippet code")?.innerText ?? ""]`)
	if got[0] != "Plan: create, load and settle" || got[1] != "Copy" || !strings.Contains(got[2], "az cosmosdb sql container create") {
		t.Errorf("the plan section: %q", got)
	}
}
