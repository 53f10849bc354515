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

// drawLorenz draws the chart; pts nil means no data.
func drawLorenz(title string, pts [][2]float64, gini float64, lines []string, said string) string {
	var b strings.Builder
	top := heading(&b, title)
	const size = 280.0
	x0, y0 := 64.0, top+10
	x1, y1 := x0+size, y0+size
	px := func(f float64) string { return num(x0 + f*size) }
	py := func(f float64) string { return num(y1 - f*size) }

	for i := 0; i <= 4; i++ {
		f := float64(i) / 4
		label := strconv.Itoa(25*i) + "%"
		b.WriteString(`<path class="g" d="M` + px(f) + " " + num(y0) + "V" + num(y1) + "M" + num(x0) + " " + py(f) + "H" + num(x1) + `"/>`)
		text(&b, x0-6, y1-f*size+4, "m s", "end", label, 0)
		text(&b, x0+f*size, y1+15, "m s", "middle", label, 0)
	}
	b.WriteString("\n")
	b.WriteString(`<path class="ax" d="M` + num(x0) + " " + num(y0) + "V" + num(y1) + "H" + num(x1) + `"/>` + "\n")
	text(&b, (x0+x1)/2, y1+32, "m s", "middle", "logical partitions, smallest first", size)
	b.WriteString(`<text class="m s" x="0" y="0" text-anchor="middle" transform="translate(16 ` + num((y0+y1)/2) + `) rotate(-90)">share of the total</text>` + "\n")
	b.WriteString(`<path class="eq" d="M` + num(x0) + " " + num(y1) + "L" + num(x1) + " " + num(y0) + `"/>` + "\n")

	xa := x1 + 32
	room := width - 8 - xa
	if pts == nil {
		text(&b, xa, y0+40, "m", "", "No data", room)
		return svg(y1+44, title, summary(title, "no data"), b.String())
	}
	var path strings.Builder
	for k, p := range pts {
		if k > 0 {
			path.WriteString("L")
		}
		path.WriteString(px(p[0]) + " " + py(p[1]))
	}
	// Closing the curve's path runs along the diagonal, so its fill is the
	// gap between the two.
	b.WriteString(`<path class="gap" d="M` + path.String() + `Z"/>` + "\n")
	b.WriteString(`<path class="curve" d="M` + path.String() + `"/>` + "\n")
	gs := strconv.FormatFloat(gini, 'f', 2, 64)

	text(&b, xa, y0+12, "m s", "", "Gini coefficient", room)
	text(&b, xa, y0+40, "big", "", gs, room)
	text(&b, xa, y0+58, "m s", "", "0 is all the same size, 1 all in one", room)
	for i, l := range lines {
		text(&b, xa, y0+90+float64(i)*20, "", "", l, room)
	}

	// Legend.
	ly := y1 - 30
	b.WriteString(`<path class="curve" d="M` + num(xa) + " " + num(ly-4) + "h24" + `"/>`)
	text(&b, xa+32, ly, "s", "", "this key", room-32)
	b.WriteString(`<path class="eq" d="M` + num(xa) + " " + num(ly+16) + "h24" + `"/>`)
	text(&b, xa+32, ly+20, "s", "", "all partitions the same size", room-32)

	s := "Gini coefficient " + gs + " over " + lines[0] + " (0 is all the same size, 1 all in one)"
	if said != "" {
		s += "; " + said + " of the total"
	}
	return svg(y1+44, title, summary(title, s), b.String())
}
