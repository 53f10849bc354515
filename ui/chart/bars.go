package chart

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pkcalc/pkcalc/core/human"
)

// Units that Bars formats specially; any other unit is the name of what is
// counted ("documents", "RU/s").
const (
	UnitBytes = "bytes" // values are bytes: 1.2 GB
	UnitShare = "%"     // values are fractions of a whole: 0.25 is 25%
)

// Bars draws one vertical bar per item, in order: documents, bytes or
// request units per physical partition. A limit above zero ("50 GB",
// "10,000 RU/s per partition") is drawn as a line across, and bars over it
// in the warning colour; a limit more than three times the largest bar
// would squash the bars flat, so it is stated instead of drawn. The limit
// is named in the caption above the plot, beside a piece of its line,
// where no bar can run into its label. More than 64 bars are merged with
// their neighbours, each showing the largest of its run, because the
// largest is what meets a per-partition limit. Note is the bar's tooltip
// (its formatted value when empty).
func Bars(title, unit string, bars []Bar, limit float64, limitLabel string) string {
	if len(bars) == 0 {
		return noData(title, "No data")
	}
	limit = clean(limit)
	if limitLabel == "" && limit > 0 {
		limitLabel = formatValue(limit, unit)
	}

	// Merge runs of neighbours into their largest.
	g := groups(len(bars), maxBars)
	shown := make([]Bar, 0, (len(bars)+g-1)/g)
	for i := 0; i < len(bars); i += g {
		run := bars[i:min(i+g, len(bars))]
		top := 0
		for j := range run {
			if clean(run[j].Value) > clean(run[top].Value) {
				top = j
			}
		}
		b := Bar{Label: run[top].Label, Value: clean(run[top].Value), Note: tip(run[top], unit)}
		if g > 1 {
			b.Label = span(run[0].Label, run[len(run)-1].Label)
			b.Note = "largest " + b.Note
			if len(run) > 1 {
				b.Note += " (" + run[top].Label + ")"
			}
		}
		shown = append(shown, b)
	}

	var maxV, sum float64
	hi, over := 0, 0
	for i, b := range bars {
		v := clean(b.Value)
		sum += v
		if v > maxV {
			maxV, hi = v, i
		}
		if limit > 0 && v > limit {
			over++
		}
	}
	offScale := limit > 0 && limit > 3*maxV
	drawLimit := limit > 0 && !offScale
	scaleMax := maxV
	if drawLimit {
		scaleMax = max(maxV, limit)
	}
	ax := newAxis(scaleMax, unit)

	// The caption: the unit, the limit's line and what the bars are not.
	var pieces []piece
	if unit != UnitBytes && unit != UnitShare && unit != "" {
		pieces = append(pieces, piece{text: unit})
	}
	if drawLimit {
		pieces = append(pieces, piece{text: "limit " + limitLabel, lim: true})
	}
	if g > 1 {
		pieces = append(pieces, piece{text: "each bar: the largest of " + strconv.Itoa(g)})
	}
	switch {
	case maxV == 0 && limit > 0:
		pieces = append(pieces, piece{text: "all zero, under the " + limitLabel + " limit"})
	case maxV == 0:
		pieces = append(pieces, piece{text: "all zero"})
	case offScale:
		pieces = append(pieces, piece{text: "limit " + limitLabel + " is off the scale: the largest is " + human.Percent(maxV/limit) + " of it"})
	}

	// What a screen reader says.
	var say strings.Builder
	say.WriteString(human.Count(int64(len(bars))) + " " + human.Plural(int64(len(bars)), "bar", "bars"))
	if g > 1 {
		say.WriteString(", drawn as " + strconv.Itoa(len(shown)) + ", each the largest of " + strconv.Itoa(g) + " neighbours")
	}
	say.WriteString("; largest " + tip(bars[hi], unit) + " (" + brief(bars[hi].Label) + ")")
	say.WriteString(", mean " + formatValue(sum/float64(len(bars)), unit))
	if limit > 0 {
		switch over {
		case 0:
			say.WriteString("; none over the " + limitLabel + " limit")
		default:
			say.WriteString("; " + strconv.Itoa(over) + " over the " + limitLabel + " limit")
		}
	}
	label := summary(title, say.String())

	return fitted(func(width float64) string {
		var b strings.Builder
		top := heading(&b, width, title)
		tickW := 0.0
		for _, v := range ax.ticks() {
			tickW = max(tickW, textWidth(ax.label(v), small))
		}
		left := max(36, math.Ceil(tickW)+12)
		right := width - 8
		plotW := right - left

		// The caption above the plot, the unit above the tick labels; the
		// top tick's label reaches 12 above the plot.
		lines := caption(&b, 8, right, top+12, pieces)
		plotTop := top + 12
		if lines > 0 {
			plotTop = top + 26 + lineH*float64(lines-1)
		}
		const plotH = 180.0
		plotBottom := plotTop + plotH

		// Grid and value axis.
		for _, v := range ax.ticks() {
			y := plotBottom - v/ax.top*plotH
			b.WriteString(`<path class="g" d="M` + num(left) + " " + num(y) + "H" + num(right) + `"/>`)
			text(&b, left-6, y+4, "m s", "end", ax.label(v), 0)
		}
		b.WriteString("\n")

		// Bars.
		slot := plotW / float64(len(shown))
		bw := min(slot*0.8, 48)
		if slot < 3 {
			bw = slot
		}
		for i, s := range shown {
			if s.Value <= 0 {
				continue
			}
			h := s.Value / ax.top * plotH
			x := left + float64(i)*slot + (slot-bw)/2
			class := "bar"
			if limit > 0 && s.Value > limit {
				class = "bar over"
			}
			b.WriteString(`<rect class="` + class + `" x="` + num(x) + `" y="` + num(plotBottom-h) + `" width="` + num(bw) + `" height="` + num(h) + `">`)
			b.WriteString("<title>" + esc(s.Label+": "+s.Note) + "</title></rect>\n")
		}
		b.WriteString(`<path class="ax" d="M` + num(left) + " " + num(plotBottom) + "H" + num(right) + `"/>` + "\n")

		// Labels under the bars: every k-th, so that none overlap.
		labelMax := min(120, plotW)
		widest := 0.0
		for _, s := range shown {
			shownLabel, _ := fit(s.Label, labelMax, small)
			widest = max(widest, textWidth(shownLabel, small))
		}
		// A label moved in from the edge can come near the one before:
		// it is left out.
		k := max(1, int(math.Ceil((widest+8)/slot)))
		end := math.Inf(-1)
		for i := 0; i < len(shown); i += k {
			w := min(textWidth(shown[i].Label, small), labelMax)
			x := left + (float64(i)+0.5)*slot
			x = min(max(x, w/2+2), width-w/2-2)
			if x-w/2 < end+8 {
				continue
			}
			end = x + w/2
			text(&b, x, plotBottom+15, "m s", "middle", shown[i].Label, labelMax)
		}

		if drawLimit {
			y := plotBottom - limit/ax.top*plotH
			b.WriteString(`<path class="lim" d="M` + num(left) + " " + num(y) + "H" + num(right) + `"/>` + "\n")
		}
		return svg(width, plotBottom+26, title, label, b.String())
	})
}

// tip is what a bar's tooltip says of its value.
func tip(b Bar, unit string) string {
	if b.Note != "" {
		return b.Note
	}
	return formatValue(clean(b.Value), unit)
}

// Largest draws the largest items as horizontal bars, largest first, each
// with its label, its value (a count) and its Note, such as its share of
// the whole ("12%"). It shows the 20 largest and says how many it left out.
func Largest(title string, items []Bar) string {
	const most = 20
	if len(items) == 0 {
		return noData(title, "No data")
	}
	sorted := slices.Clone(items)
	for i := range sorted {
		sorted[i].Value = clean(sorted[i].Value)
	}
	slices.SortStableFunc(sorted, func(a, b Bar) int { return cmp.Compare(b.Value, a.Value) })
	rows := sorted[:min(most, len(sorted))]

	values := make([]string, len(rows))
	valueW := 0.0
	for i, r := range rows {
		values[i] = formatCount(r.Value)
		if r.Note != "" {
			values[i] += " · " + r.Note
		}
		values[i], _ = fit(values[i], 160, small)
		valueW = max(valueW, textWidth(values[i], small))
	}
	s := "largest " + brief(rows[0].Label) + " with " + formatCount(rows[0].Value)
	if rows[0].Note != "" {
		s += " (" + rows[0].Note + ")"
	}
	if len(rows) > 1 {
		s += ", then " + brief(rows[1].Label) + " with " + formatCount(rows[1].Value)
	}
	s += "; " + strconv.Itoa(len(rows)) + " of " + human.Count(int64(len(sorted))) + " shown"
	label := summary(title, s)

	return fitted(func(width float64) string {
		// Labels left of their bars while that leaves the bars a third of
		// the width; else each label on a line of its own above its bar.
		labelMax := 200.0
		labelW := 0.0
		for _, r := range rows {
			l, _ := fit(r.Label, labelMax, fontSize)
			labelW = max(labelW, textWidth(l, fontSize))
		}
		var b strings.Builder
		top := heading(&b, width, title)
		rowH, barH, left := 24.0, 14.0, 8+labelW+8
		above := width-8-valueW-6-left < width/3
		if above {
			rowH, barH, left = 38, 12, 8
			labelMax = width - 16
		}
		barMax := width - 8 - valueW - 6 - left
		maxV := rows[0].Value
		for i, r := range rows {
			y := top + float64(i)*rowH
			mid := y + rowH/2
			if above {
				mid = y + 26
				text(&b, left, y+14, "", "", r.Label, labelMax)
			} else {
				text(&b, left-8, mid+4, "", "end", r.Label, labelMax)
			}
			w := 0.0
			if maxV > 0 {
				w = r.Value / maxV * barMax
			}
			if w > 0 {
				b.WriteString(`<rect class="bar" x="` + num(left) + `" y="` + num(mid-barH/2) + `" width="` + num(w) + `" height="` + num(barH) + `" rx="2"/>`)
			}
			text(&b, left+w+6, mid+4, "m s", "", values[i], 0)
		}
		if !above {
			b.WriteString(`<path class="ax" d="M` + num(left) + " " + num(top) + "V" + num(top+float64(len(rows))*rowH) + `"/>` + "\n")
		}
		height := top + float64(len(rows))*rowH + 8
		if len(sorted) > len(rows) {
			text(&b, left, height+8, "m s", "", strconv.Itoa(len(rows))+" largest of "+human.Count(int64(len(sorted)))+" shown", 0)
			height += 20
		}
		return svg(width, height, title, label, b.String())
	})
}

// axis is a value axis from 0 to top in ticks of step, both round numbers.
type axis struct {
	top, step float64
	unit      string
	zero      bool // all values are 0: mark only 0
}

func newAxis(maxV float64, unit string) axis {
	if maxV <= 0 {
		return axis{top: 1, step: 1, unit: unit, zero: true}
	}
	// Sizes tick in binary units (256 MB, 512 MB), as they are labelled.
	base := 1.0
	if unit == UnitBytes {
		for base*1024 <= maxV && base < 1<<40 {
			base *= 1024
		}
	}
	step := nice(maxV/base/4) * base
	if unit == UnitBytes {
		step = max(step, 1) // no fractions of a byte
	}
	top := math.Ceil(maxV/step-1e-9) * step
	return axis{top: top, step: step, unit: unit}
}

// nice rounds up to 1, 2, 2.5 or 5 times a power of ten.
func nice(raw float64) float64 {
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*mag >= raw*(1-1e-9) {
			return m * mag
		}
	}
	return 10 * mag
}

// ticks are the values at which the axis is marked, from 0 to top.
func (a axis) ticks() []float64 {
	if a.zero {
		return []float64{0}
	}
	n := int(math.Round(a.top / a.step))
	t := make([]float64, n+1)
	for i := range t {
		t[i] = float64(i) * a.step
	}
	return t
}

func (a axis) label(v float64) string {
	switch a.unit {
	case UnitBytes:
		return strings.Replace(human.Bytes(int64(math.Round(v))), ".0 ", " ", 1)
	case UnitShare:
		return human.Percent(v)
	}
	if a.step < 1 {
		decimals := int(math.Ceil(-math.Log10(a.step) - 1e-9))
		return strconv.FormatFloat(v, 'f', decimals, 64)
	}
	return strings.Replace(human.Short(int64(math.Round(v))), ".0 ", " ", 1)
}

// formatValue writes a value with its unit, as a tooltip shows it.
func formatValue(v float64, unit string) string {
	switch unit {
	case UnitBytes:
		return human.Bytes(int64(math.Round(v)))
	case UnitShare:
		return human.Percent(v)
	case "":
		return formatCount(v)
	}
	return formatCount(v) + " " + unit
}

// formatCount writes a count with separators; below 100 a fraction keeps
// one place (2.5 RU/s), above it would be noise.
func formatCount(v float64) string {
	if v < 100 && v != math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return human.Count(int64(math.Round(min(v, 1e18))))
}
