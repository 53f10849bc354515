package chart

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pkcalc/pkcalc/core/human"
)

// heatStyle colours the heatmap's eight levels: the accent colour at
// rising opacity over the panel, so that the scale reads in both themes
// (darker on light, brighter on dark) and stays one hue, which colour-blind
// readers can order.
const heatStyle = `.pkc-chart .l1{fill:var(--accent,#0a66c2);fill-opacity:.1}` +
	`.pkc-chart .l2{fill:var(--accent,#0a66c2);fill-opacity:.18}` +
	`.pkc-chart .l3{fill:var(--accent,#0a66c2);fill-opacity:.28}` +
	`.pkc-chart .l4{fill:var(--accent,#0a66c2);fill-opacity:.4}` +
	`.pkc-chart .l5{fill:var(--accent,#0a66c2);fill-opacity:.55}` +
	`.pkc-chart .l6{fill:var(--accent,#0a66c2);fill-opacity:.7}` +
	`.pkc-chart .l7{fill:var(--accent,#0a66c2);fill-opacity:.85}` +
	`.pkc-chart .l8{fill:var(--accent,#0a66c2)}`

const (
	levels     = 8
	even       = 5  // the level of a partition that gets its fair share
	maxColumns = 96 // time buckets drawn; more are merged
)

// level grades a cell by its share of its bucket's writes against an even
// split: one level per doubling, centred on 1/8 (level 2), even (5) and 8
// times (8), the end levels taking all beyond. A share, not a count, because the question is how a
// bucket's writes spread, not how busy it was: with counts a quiet night
// would fade out and a busy hour glow everywhere. Doubling steps, because
// shares range over orders of magnitude and "twice its share" is what a
// hot partition means.
func level(share, fair float64) int {
	if share <= 0 {
		return 0
	}
	l := even + int(math.Round(math.Log2(share/fair)))
	return min(max(l, 1), levels)
}

// Heatmap draws writes per physical partition (rows, in key range order)
// over time (columns), as Spanner's Key Visualizer does: each cell's shade
// is its share of that time bucket's writes against an even split (see
// level). An evenly spread key glows evenly; a monotonic key lights one
// partition at a time, a bright step across. cells[bucket][partition] are
// writes; columns label the buckets (times). More than 64 partitions or 96
// buckets are merged into runs of neighbours, summed, and the chart says so.
// NaN, infinite and negative writes count as 0.
func Heatmap(title string, columns []string, cells [][]float64) string {
	return HeatmapRows(title, columns, nil, cells)
}

// HeatmapRows is Heatmap with the rows labelled: rows[p] names partition
// p of each bucket's cells (their IDs, when only some partitions are
// drawn); nil numbers them from 0.
func HeatmapRows(title string, columns, rows []string, cells [][]float64) string {
	nb, parts := len(cells), 0
	for _, c := range cells {
		parts = max(parts, len(c))
	}
	if nb == 0 || parts == 0 {
		return noData(title, "No data")
	}
	gc, gr := groups(nb, maxColumns), groups(parts, maxBars)
	nc, nr := (nb+gc-1)/gc, (parts+gr-1)/gr

	grid := make([][]float64, nc) // [column][row]
	colSum := make([]float64, nc)
	rowSum := make([]float64, nr)
	var total float64
	busiest := make([]float64, 0, nb) // each bucket's largest share
	for i, bucket := range cells {
		c := i / gc
		if grid[c] == nil {
			grid[c] = make([]float64, nr)
		}
		var sum, top float64
		for p, w := range bucket {
			w = clean(w)
			grid[c][p/gr] += w
			rowSum[p/gr] += w
			sum += w
			top = max(top, w)
		}
		colSum[c] += sum
		total += sum
		if sum > 0 {
			busiest = append(busiest, top/sum)
		}
	}
	if total == 0 {
		return noData(title, "No writes")
	}

	rowLabel := func(r int) string {
		first, last := r*gr, min((r+1)*gr, parts)-1
		if first < len(rows) && last < len(rows) {
			return span(rows[first], rows[last])
		}
		return span(strconv.Itoa(first), strconv.Itoa(last))
	}
	labelW := 0.0
	for r := 0; r < nr; r++ {
		labelW = max(labelW, textWidth(rowLabel(r), small))
	}

	colLabel := func(c int) string {
		if c*gc < len(columns) {
			return columns[c*gc]
		}
		return ""
	}
	var notes []piece
	if gr > 1 {
		notes = append(notes, piece{text: "each row: " + strconv.Itoa(gr) + " partitions"})
	}
	if gc > 1 {
		notes = append(notes, piece{text: "each column: " + strconv.Itoa(gc) + " time buckets"})
	}

	// The levels: one path per level, a rectangle per run of equal cells
	// in a row, in cell units scaled to the plot: short markup even for
	// 64 × 96 cells.
	paths := make([]strings.Builder, levels+1)
	for r := 0; r < nr; r++ {
		size := float64(min((r+1)*gr, parts) - r*gr)
		fair := size / float64(parts)
		lv := func(c int) int {
			if colSum[c] == 0 {
				return 0
			}
			return level(grid[c][r]/colSum[c], fair)
		}
		for c := 0; c < nc; {
			l, e := lv(c), c+1
			for e < nc && lv(e) == l {
				e++
			}
			if l > 0 {
				paths[l].WriteString("M" + strconv.Itoa(c) + " " + strconv.Itoa(r) + "h" + strconv.Itoa(e-c) + "v1h-" + strconv.Itoa(e-c) + "z")
			}
			c = e
		}
	}

	hot := 0
	for r := range rowSum {
		if rowSum[r] > rowSum[hot] {
			hot = r
		}
	}
	slices.Sort(busiest)
	var s strings.Builder
	s.WriteString("writes to " + human.Count(int64(parts)) + " physical " + human.Plural(int64(parts), "partition", "partitions"))
	s.WriteString(" over " + human.Count(int64(nb)) + " time " + human.Plural(int64(nb), "bucket", "buckets"))
	if first, last := colLabel(0), lastLabel(columns, nb); first != "" && last != "" && nb > 1 {
		s.WriteString(" from " + brief(first) + " to " + brief(last))
	}
	if gr > 1 || gc > 1 {
		s.WriteString(" (drawn as " + strconv.Itoa(nr) + " rows of " + strconv.Itoa(gr) + " and " + strconv.Itoa(nc) + " columns of " + strconv.Itoa(gc) + ")")
	}
	if parts > 1 {
		s.WriteString("; in the median bucket the busiest partition takes " + human.Percent(busiest[(len(busiest)-1)/2]) +
			" of the writes, where an even spread gives " + human.Percent(1/float64(parts)))
		s.WriteString("; over the whole period " + human.Plural(int64(gr), "partition ", "partitions ") + rowLabel(hot) +
			human.Plural(int64(gr), " takes ", " take ") + human.Percent(rowSum[hot]/total))
	}
	label := summary(title, s.String())

	return fitted(func(width float64) string {
		var b strings.Builder
		top := heading(&b, width, title)
		left := max(40, math.Ceil(labelW)+16)
		right := width - 8
		plotW := right - left
		// "partition" above the row labels, the notes beside it or below.
		lines := caption(&b, 8, right, top+10, append([]piece{{text: "partition"}}, notes...))
		plotTop := top + 18 + lineH*float64(lines-1)
		cellW := plotW / float64(nc)
		cellH := min(max(256/float64(nr), 4), 24)
		plotBottom := plotTop + float64(nr)*cellH
		y := func(r int) string { return num(plotTop + float64(r)*cellH) }

		b.WriteString(`<rect class="cold" x="` + num(left) + `" y="` + num(plotTop) + `" width="` + num(plotW) + `" height="` + num(plotBottom-plotTop) + `"/>` + "\n")
		b.WriteString(`<g class="heat" transform="translate(` + num(left) + " " + num(plotTop) + ") scale(" +
			strconv.FormatFloat(cellW, 'f', 4, 64) + " " + strconv.FormatFloat(cellH, 'f', 4, 64) + `)">` + "\n")
		for l := 1; l <= levels; l++ {
			if paths[l].Len() > 0 {
				b.WriteString(`<path class="l` + strconv.Itoa(l) + `" d="` + paths[l].String() + `"/>` + "\n")
			}
		}
		b.WriteString("</g>\n")

		// Rows: a tooltip each, and as many labels as fit.
		k := max(1, int(math.Ceil(13/cellH)))
		for r := 0; r < nr; r++ {
			b.WriteString(`<rect class="hit" x="` + num(left) + `" y="` + y(r) + `" width="` + num(plotW) + `" height="` + num(cellH) + `">`)
			b.WriteString("<title>" + human.Plural(int64(gr), "partition ", "partitions ") + rowLabel(r) + ": " + human.Percent(rowSum[r]/total) + " of all writes</title></rect>\n")
			if r%k == 0 {
				text(&b, left-6, plotTop+(float64(r)+0.5)*cellH+4, "m s", "end", rowLabel(r), 0)
			}
		}

		// Time labels: first, last and a few between, spaced so none overlap.
		labelMax := min(150.0, plotW-8)
		widest := 0.0
		for c := 0; c < nc; c++ {
			l, _ := fit(colLabel(c), labelMax, small)
			widest = max(widest, textWidth(l, small))
		}
		ly := plotBottom + 15
		if nc == 1 {
			text(&b, left+plotW/2, ly, "m s", "middle", colLabel(0), labelMax)
		} else {
			cols := tickColumns(nc, cellW, widest)
			ticks := len(cols)
			for j, c := range cols {
				cx := left + (float64(c)+0.5)*cellW
				b.WriteString(`<path class="ax" d="M` + num(cx) + " " + num(plotBottom) + "v3" + `"/>`)
				switch j {
				case 0:
					text(&b, left, ly, "m s", "", colLabel(c), labelMax)
				case ticks - 1:
					text(&b, right, ly, "m s", "end", colLabel(c), labelMax)
				default:
					text(&b, cx, ly, "m s", "middle", colLabel(c), labelMax)
				}
			}
			b.WriteString("\n")
		}

		// Legend: the scale's swatches, marked at 1/8, even and 8 times,
		// beside what they mean where that fits, else below it.
		const sw = 20.0
		const what = "share of each bucket's writes, against an even split:"
		lyTop := plotBottom + 26
		lx := left + textWidth(what, small) + 12
		if lx+sw+12+levels*sw > right {
			n := 0
			for i, l := range wrap(what, right-8, small) {
				text(&b, 8, lyTop+9+lineH*float64(i), "m s", "", l, right-8)
				n++
			}
			lyTop += lineH*float64(n) + 4
			lx = 8
		} else {
			text(&b, left, lyTop+9, "m s", "", what, 0)
		}
		b.WriteString(`<rect class="cold g" x="` + num(lx) + `" y="` + num(lyTop) + `" width="` + num(sw) + `" height="10"/>`)
		text(&b, lx+sw/2, lyTop+22, "m s", "middle", "none", 0)
		lx += sw + 12
		for l := 1; l <= levels; l++ {
			sx := lx + float64(l-1)*sw
			b.WriteString(`<rect class="l` + strconv.Itoa(l) + `" x="` + num(sx) + `" y="` + num(lyTop) + `" width="` + num(sw) + `" height="10"/>`)
			mark := map[int]string{2: "1/8", even: "even", levels: "8×"}[l]
			if mark != "" {
				text(&b, sx+sw/2, lyTop+22, "m s", "middle", mark, 0)
			}
		}
		b.WriteString("\n")
		return svg(width, lyTop+30, title, label, b.String())
	})
}

func lastLabel(columns []string, n int) string {
	if n-1 < len(columns) {
		return columns[n-1]
	}
	return ""
}

// tickColumns picks the columns whose times are written under the heatmap:
// the first, the last, and between them every step-th, at most 6 in all.
// The step is whole columns wide enough for a label and a half (the first
// label starts at the plot's edge, not at its column's middle), so that no
// two labels meet, as rounding evenly spread ticks to columns let them.
func tickColumns(nc int, cellW, widest float64) []int {
	step := max(1, int(math.Ceil((1.5*widest+16)/cellW)), (nc-1+4)/5)
	cols := []int{0}
	for c := step; c < nc-1; c += step {
		cols = append(cols, c)
	}
	// The first and the last stand at either end: alone, they need room
	// for two labels.
	room := float64(nc)*cellW >= 2*widest+16
	switch last := nc - 1; {
	case last == 0:
	case len(cols) == 1 && room, len(cols) > 1 && last-cols[len(cols)-1] >= step:
		cols = append(cols, last)
	case len(cols) == 2 && !room:
		cols = cols[:1]
	case len(cols) > 1:
		cols[len(cols)-1] = last // too near the last: the last is written instead
	}
	return cols
}
