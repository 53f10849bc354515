// Package chart draws pkcalc's charts as SVG markup, in Go: bars per
// physical partition, the largest logical partitions, the Lorenz curve of
// partition sizes and a heatmap of writes over time. Each function returns
// the chart drawn at each of three widths (280, 420 and 560 CSS pixels),
// self-contained <svg> elements (viewBox, role="img", an aria-label that
// states what the chart shows, a <title>) in one <div class="pkc-fit">
// that shows only the widest drawing its column holds (a CSS container
// query), scaled up to that column's width: a chart is never drawn smaller
// than it was laid out, so no label shows under 11 px, and a narrow
// column gets a layout of its own (titles and captions on more lines,
// labels above their bars) rather than a wide one shrunk. The charts are
// coloured by the page's CSS variables (--fg, --muted, --line, --accent,
// --bad, --panel), so they follow the light and dark themes.
//
// Every string from the caller is XML-escaped, so the markup is safe to
// insert as HTML even when labels hold user data. Output is deterministic:
// the same input gives the same bytes.
//
// It does not compute partitions, load data or handle interaction beyond
// native <title> tooltips; it runs no JavaScript.
package chart

import (
	"encoding/xml"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Bar is one bar: its axis label, its value and a note that says more
// (a formatted value or a share) in its tooltip or beside it.
type Bar struct {
	Label string
	Value float64
	Note  string
}

// Layout constants in viewBox units, which are CSS pixels or more on the
// screen (see widths).
const (
	fontSize = 12.0
	small    = 11.0 // the smallest text drawn
	lineH    = 14.0 // the distance between lines of small text
	// maxBars caps the bars or rows drawn: beyond it bars get thinner than
	// a few pixels and labels unreadable, so neighbours are merged.
	maxBars = 64
)

// widths are the widths each chart is laid out at, narrowest first: a
// drawing is shown in a column at least as wide as itself and narrower
// than the next, so it is scaled by 1 to 1.5 and its smallest text shows
// at 11 to 16.5 px. The steps fit the page's columns: 280 a phone's (298
// px at 360 px wide), 420 the two or more columns of a laptop or a wide
// screen (434 to 453 px at 1024 to 1920 px), 560 the two of a 1280 px
// screen (580 px) and the one of a tablet. The widest grows to at most
// maxGrow times its width, so that a wide column does not get giant text.
var widths = [...]float64{280, 420, 560}

const maxGrow = 1.25

// fitted draws a chart at every one of widths, in the <div> that shows
// the one that fits its column.
func fitted(draw func(width float64) string) string {
	var b strings.Builder
	b.WriteString(`<div class="pkc-fit">` + "\n")
	for _, w := range widths {
		b.WriteString(draw(w))
	}
	b.WriteString("</div>\n")
	return b.String()
}

// fitStyle shows, in a .pkc-fit container, the drawing whose width range
// holds the container's width. (No "<" in ranges: in an SVG's <style>
// it would start a tag, in XML and in an HTML page alike.)
func fitStyle() string {
	var b strings.Builder
	b.WriteString(`.pkc-fit{container-type:inline-size}.pkc-fit>.pkc-chart{display:none}`)
	for i, w := range widths {
		cls := ".pkc-fit>.pkc-w" + num(w)
		switch {
		case len(widths) == 1:
			b.WriteString(cls + "{display:block}")
		case i == 0:
			b.WriteString("@container (max-width:" + num(widths[1]-0.1) + "px){" + cls + "{display:block}}")
		case i == len(widths)-1:
			b.WriteString("@container (min-width:" + num(w) + "px){" + cls + "{display:block;max-width:" + num(w*maxGrow) + "px}}")
		default:
			b.WriteString("@container (min-width:" + num(w) + "px) and (max-width:" + num(widths[i+1]-0.1) + "px){" + cls + "{display:block}}")
		}
	}
	return b.String()
}

// style is repeated in every chart so that each is self-contained. Inline
// SVG styles apply to the whole document, so every rule is scoped to
// .pkc-chart; the fallbacks are the light theme, for use outside the page.
var style = `.pkc-chart{display:block;width:100%;height:auto;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:12px}` +
	`.pkc-chart text{fill:currentColor}` +
	`.pkc-chart .t{font-size:14px;font-weight:600}` +
	`.pkc-chart .m{fill:var(--muted,#5b6570)}` +
	`.pkc-chart .s{font-size:11px}` +
	`.pkc-chart .big{font-size:22px;font-weight:600}` +
	`.pkc-chart .g{stroke:var(--line,#d9dde3);fill:none}` +
	`.pkc-chart .ax{stroke:var(--muted,#5b6570);fill:none}` +
	`.pkc-chart .bar{fill:var(--accent,#0a66c2)}` +
	`.pkc-chart .over{fill:var(--bad,#b3261e)}` +
	`.pkc-chart .lim{stroke:var(--bad,#b3261e);stroke-width:1.5;stroke-dasharray:6 4;fill:none}` +
	`.pkc-chart .bad{fill:var(--bad,#b3261e)}` +
	`.pkc-chart .halo{paint-order:stroke;stroke:var(--panel,#fff);stroke-width:4px;stroke-linejoin:round}` +
	`.pkc-chart .eq{stroke:var(--muted,#5b6570);stroke-dasharray:4 4;fill:none}` +
	`.pkc-chart .curve{stroke:var(--accent,#0a66c2);stroke-width:2.5;fill:none;stroke-linejoin:round}` +
	`.pkc-chart .gap{fill:var(--accent,#0a66c2);fill-opacity:.14}` +
	`.pkc-chart .cold{fill:var(--fg,#1b1f24);fill-opacity:.06}` +
	`.pkc-chart .hit{fill:none;pointer-events:all}` +
	`.pkc-chart .heat{shape-rendering:crispEdges}` +
	heatStyle + fitStyleCSS

var fitStyleCSS = fitStyle()

// svg wraps a chart's body, drawn width wide, in the root element.
func svg(width, height float64, title, label, body string) string {
	var b strings.Builder
	b.Grow(len(body) + len(style) + 512)
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" class="pkc-chart pkc-w` + num(width) + `" viewBox="0 0 `)
	b.WriteString(num(width) + " " + num(height))
	b.WriteString(`" role="img" aria-label="`)
	b.WriteString(esc(label))
	b.WriteString(`"><title>`)
	b.WriteString(esc(title))
	b.WriteString(`</title><style>`)
	b.WriteString(style)
	b.WriteString("</style>\n")
	b.WriteString(body)
	b.WriteString("</svg>\n")
	return b.String()
}

// heading draws the visible title, on as many lines as it needs, and
// returns the y where the chart starts.
func heading(b *strings.Builder, width float64, title string) float64 {
	if title == "" {
		return 8
	}
	lines := wrap(title, width, sizeOf("t"))
	for i, l := range lines {
		text(b, 0, 18+18*float64(i), "t", "", l, width)
	}
	return 34 + 18*float64(len(lines)-1)
}

// wrap breaks s at spaces into lines at most maxWidth wide; a word wider
// than a line is cut (text keeps it whole in a tooltip).
func wrap(s string, maxWidth, size float64) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case textWidth(line+" "+word, size) <= maxWidth:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// piece is one text of a caption, with the limit's dashed line before it
// when lim is set.
type piece struct {
	text string
	lim  bool
}

// caption writes small muted texts above a plot from x to right, left to
// right and 16 apart, starting a line whenever the next does not fit on
// this one; a text wider than a line is wrapped at spaces. The first
// line's baseline is y; it returns the number of lines written.
func caption(b *strings.Builder, x, right, y float64, pieces []piece) int {
	const gap, key = 16.0, 24.0 // between pieces; the dashed line and its space
	lines, at := 0, x
	for _, p := range pieces {
		indent := 0.0
		if p.lim {
			indent = key
		}
		if p.text == "" {
			continue
		}
		// A piece that does not fit after the last starts a line; one
		// wider than a line is wrapped.
		whole := at+gap+indent+textWidth(p.text, small) <= right
		for i, l := range wrap(p.text, right-x-indent, small) {
			w := indent + textWidth(l, small)
			start := at + gap
			if lines == 0 || i > 0 || !whole {
				lines++
				start = x
				whole = true
			}
			ly := y + lineH*float64(lines-1)
			if p.lim && i == 0 {
				b.WriteString(`<path class="lim" d="M` + num(start) + " " + num(ly-4) + "h18" + `"/>`)
			}
			text(b, start+indent, ly, "m s", "", l, right-start-indent)
			at = start + w
		}
	}
	return lines
}

// summary joins the title and what the chart shows for its aria-label.
func summary(title, s string) string {
	if title == "" {
		return s
	}
	return title + ": " + s
}

// noData is the chart for nothing to draw: a frame that says so.
func noData(title, why string) string {
	return fitted(func(width float64) string {
		var b strings.Builder
		top := heading(&b, width, title)
		b.WriteString(`<rect class="g" x="0.5" y="` + num(top+0.5) + `" width="` + num(width-1) + `" height="80" rx="6"/>`)
		b.WriteString(`<text class="m" x="` + num(width/2) + `" y="` + num(top+45) + `" text-anchor="middle">` + esc(why) + "</text>\n")
		return svg(width, top+90, title, summary(title, strings.ToLower(why[:1])+why[1:]), b.String())
	})
}

// brief cuts a label for a summary, where a screen reader would otherwise
// read all of a long key.
func brief(s string) string {
	s, _ = fit(s, 60*0.6*fontSize, fontSize)
	return s
}

// text writes a <text> element, cut to maxWidth; a cut label keeps its full
// text in a tooltip.
func text(b *strings.Builder, x, y float64, class, anchor, s string, maxWidth float64) {
	shown, cut := fit(s, maxWidth, sizeOf(class))
	b.WriteString(`<text x="` + num(x) + `" y="` + num(y) + `"`)
	if class != "" {
		b.WriteString(` class="` + class + `"`)
	}
	if anchor != "" {
		b.WriteString(` text-anchor="` + anchor + `"`)
	}
	b.WriteString(">")
	if cut {
		b.WriteString("<title>" + esc(s) + "</title>")
	}
	b.WriteString(esc(shown) + "</text>\n")
}

// sizeOf is the font size the style gives a text class.
func sizeOf(class string) float64 {
	switch {
	case hasClass(class, "big"):
		return 22
	case hasClass(class, "t"):
		return 14
	case hasClass(class, "s"):
		return small
	}
	return fontSize
}

func hasClass(class, c string) bool {
	for _, f := range strings.Fields(class) {
		if f == c {
			return true
		}
	}
	return false
}

// textWidth estimates the rendered width of s: the SVG is built without a
// font to measure, so it counts 0.6 em a character (a little wider than
// system-ui's average, to err on the side of room), 0.64 em a digit and
// 0.72 em a capital (DejaVu Sans, Linux's system-ui, is that wide; Segoe
// UI, Roboto and San Francisco are narrower) and 1 em for wide scripts
// such as CJK.
func textWidth(s string, size float64) float64 {
	w := 0.0
	for _, r := range s {
		w += runeWidth(r)
	}
	return w * size
}

func runeWidth(r rune) float64 {
	switch {
	case r >= 0x2E80:
		return 1
	case r >= '0' && r <= '9':
		return 0.64
	case r >= 'A' && r <= 'Z':
		return 0.72
	}
	return 0.6
}

// fit cuts s with an ellipsis so that it is at most maxWidth wide.
func fit(s string, maxWidth, size float64) (string, bool) {
	if maxWidth <= 0 || textWidth(s, size) <= maxWidth {
		return s, false
	}
	room := maxWidth/size - 0.6 // the ellipsis
	w := 0.0
	for i, r := range s {
		w += runeWidth(r)
		if w > room {
			return strings.TrimRightFunc(s[:i], isSpace) + "…", true
		}
	}
	return s, false
}

func isSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' }

// esc escapes s as XML text or attribute value; invalid characters become
// U+FFFD, so the output is always well-formed.
func esc(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s)) // a strings.Builder does not fail
	return b.String()
}

func needsEscape(s string) bool {
	if !utf8.ValidString(s) {
		return true
	}
	for _, r := range s {
		if r < 0x20 || r == '<' || r == '>' || r == '&' || r == '"' || r == '\'' || r == 0xFFFE || r == 0xFFFF {
			return true
		}
	}
	return false
}

// num formats a coordinate with one decimal, the precision a screen needs,
// so that the output is short and the same everywhere.
func num(f float64) string {
	r := math.Round(f*10) / 10
	if r == 0 {
		r = 0 // no "-0"
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// clean treats what cannot be drawn (NaN, infinities, negatives) as 0.
func clean(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		return 0
	}
	return f
}

// groups splits n items into at most limit runs of equal size (the last
// may be shorter) and returns the run size.
func groups(n, limit int) int {
	if n <= limit {
		return 1
	}
	return (n + limit - 1) / limit
}

// span labels a run of items by its first and last label.
func span(first, last string) string {
	if first == last {
		return first
	}
	return first + "–" + last
}
