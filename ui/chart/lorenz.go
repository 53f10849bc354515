package chart

import (
	"slices"
	"strconv"
	"strings"

	"github.com/pkcalc/pkcalc/core/human"
)

// Lorenz draws the skew of sizes (documents or bytes per logical
// partition): the cumulative share of the total held by the smallest x% of
// partitions, against the diagonal of equal sizes. The further the curve
// sags below the diagonal, the more a few partitions hold; the Gini
// coefficient (twice the area between the two, as core/partition computes
// it) sums that up. It sorts a copy of sizes; NaN, infinite and negative
// sizes count as 0.
func Lorenz(title string, sizes []float64) string {
	v := make([]float64, len(sizes))
	for i, s := range sizes {
		v[i] = clean(s)
	}
	slices.Sort(v)
	n := len(v)
	cum := make([]float64, n+1)
	for i, x := range v {
		cum[i+1] = cum[i] + x
	}
	total := cum[n]

	if n == 0 || total == 0 {
		return drawLorenz(title, nil, 0, nil, "")
	}
	// At most 200 points: the curve is smooth at this size and the markup
	// stays small for millions of partitions.
	m := min(n, 200)
	pts := make([][2]float64, 0, m+1)
	for k := 0; k <= m; k++ {
		i := k * n / m
		pts = append(pts, [2]float64{float64(i) / float64(n), cum[i] / total})
	}
	var g float64
	for i, x := range v {
		g += float64(2*(i+1)-n-1) * x
	}
	lines := []string{human.Count(int64(n)) + " logical " + human.Plural(int64(n), "partition", "partitions")}
	said := ""
	if n >= 10 {
		c := max(1, n/10)
		said = "the largest 10% hold " + human.Percent((total-cum[n-c])/total)
		lines = append(lines, "The largest 10% hold "+human.Percent((total-cum[n-c])/total))
	}
	if n > 1 {
		lines = append(lines, "The largest partition holds "+human.Percent(v[n-1]/total))
	}
	return drawLorenz(title, pts, g/(float64(n)*total), lines, said)
}

// LorenzCurve draws a Lorenz curve given as points [share of partitions,
// share of the total] from (0,0) to (1,1), as the report carries it, with
// the report's own Gini coefficient and partition count.
func LorenzCurve(title string, points [][2]float64, gini float64, partitions int64) string {
	if len(points) < 2 || partitions <= 0 {
		return drawLorenz(title, nil, 0, nil, "")
	}
	pts := make([][2]float64, len(points))
	for i, p := range points {
		pts[i] = [2]float64{min(1, max(0, clean(p[0]))), min(1, max(0, clean(p[1])))}
	}
	lines := []string{human.Count(partitions) + " logical " + human.Plural(partitions, "partition", "partitions")}
	said := ""
	for _, p := range pts {
		if partitions >= 10 && p[0] >= 0.9-1e-9 {
			said = "the largest 10% hold " + human.Percent(1-p[1])
			lines = append(lines, "The largest 10% hold "+human.Percent(1-p[1]))
			break
		}
	}
	return drawLorenz(title, pts, clean(gini), lines, said)
}

// drawLorenz draws the chart; pts nil means no data. Where the width
// leaves 250 beside a plot of 200 or more, the coefficient and the
// figures stand there; else below it.
func drawLorenz(title string, pts [][2]float64, gini float64, lines []string, said string) string {
	gs := strconv.FormatFloat(gini, 'f', 2, 64)
	label := summary(title, "no data")
	if pts != nil {
		s := "Gini coefficient " + gs + " over " + lines[0] + " (0 is all the same size, 1 all in one)"
		if said != "" {
			s += "; " + said + " of the total"
		}
		label = summary(title, s)
	}
	return fitted(func(width float64) string {
		var b strings.Builder
		top := heading(&b, width, title)
		// The plot leaves 24 on its right for half of the "100%" under it.
		const x0, beside = 64.0, 250.0
		size := min(280, width-x0-32-beside)
		below := size < 200
		if below {
			size = min(280, width-x0-24)
		}
		y0 := top + 10
		x1, y1 := x0+size, y0+size
		px := func(f float64) string { return num(x0 + f*size) }
		py := func(f float64) string { return num(y1 - f*size) }

		for i := 0; i <= 4; i++ {
			f := float64(i) / 4
			label := strconv.Itoa(25*i) + "%"
			b.WriteString(`<path class="g" d="M` + px(f) + " " + num(y0) + "V" + num(y1) + "M" + num(x0) + " " + py(f) + "H" + num(x1) + `"/>`)
			text(&b, x0-6, y1-f*size+4, "m s", "end", label, 0)
			text(&b, x0+f*size, y1+18, "m s", "middle", label, 0) // clear of the 0% beside
		}
		b.WriteString("\n")
		b.WriteString(`<path class="ax" d="M` + num(x0) + " " + num(y0) + "V" + num(y1) + "H" + num(x1) + `"/>` + "\n")
		const xTitle = "logical partitions, smallest first"
		tw := min(textWidth(xTitle, small), width-16)
		text(&b, min(max((x0+x1)/2, 8+tw/2), width-8-tw/2), y1+34, "m s", "middle", xTitle, width-16)
		b.WriteString(`<text class="m s" x="0" y="0" text-anchor="middle" transform="translate(16 ` + num((y0+y1)/2) + `) rotate(-90)">share of the total</text>` + "\n")
		b.WriteString(`<path class="eq" d="M` + num(x0) + " " + num(y1) + "L" + num(x1) + " " + num(y0) + `"/>` + "\n")

		// The figures: beside the plot from its top, or below it.
		xa, ya := x1+32, y0
		if below {
			xa, ya = 8, y1+44
		}
		room := width - 8 - xa
		if pts == nil {
			text(&b, xa, ya+40, "m", "", "No data", room)
			return svg(width, max(y1+44, ya+52), title, label, b.String())
		}
		var curve strings.Builder
		for k, p := range pts {
			if k > 0 {
				curve.WriteString("L")
			}
			curve.WriteString(px(p[0]) + " " + py(p[1]))
		}
		path := curve.String()
		// Closing the curve's path runs along the diagonal, so its fill is
		// the gap between the two.
		b.WriteString(`<path class="gap" d="M` + path + `Z"/>` + "\n")
		b.WriteString(`<path class="curve" d="M` + path + `"/>` + "\n")

		text(&b, xa, ya+12, "m s", "", "Gini coefficient", room)
		text(&b, xa, ya+40, "big", "", gs, room)
		text(&b, xa, ya+58, "m s", "", "0 is all the same size, 1 all in one", room)
		for i, l := range lines {
			text(&b, xa, ya+90+float64(i)*20, "", "", l, room)
		}

		// Legend: at the foot of the plot beside it, under the figures
		// below it.
		ly := y1 - 30
		if below {
			ly = ya + 90 + float64(len(lines))*20 + 10
		}
		b.WriteString(`<path class="curve" d="M` + num(xa) + " " + num(ly-4) + "h24" + `"/>`)
		text(&b, xa+32, ly, "s", "", "this key", room-32)
		b.WriteString(`<path class="eq" d="M` + num(xa) + " " + num(ly+16) + "h24" + `"/>`)
		text(&b, xa+32, ly+20, "s", "", "all partitions the same size", room-32)
		return svg(width, max(y1+44, ly+30), title, label, b.String())
	})
}
