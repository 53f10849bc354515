package chart

import (
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden SVGs and gallery.html in testdata")

// rng is splitmix64: test data the same on every platform and Go version.
type rng uint64

func (r *rng) next() uint64 {
	*r += 0x9e3779b97f4a7c15
	z := uint64(*r)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// float is uniform in [0, 1).
func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

func partitions(vals []float64, note func(float64) string) []Bar {
	bars := make([]Bar, len(vals))
	for i, v := range vals {
		bars[i] = Bar{Label: strconv.Itoa(i), Value: v}
		if note != nil {
			bars[i].Note = note(v)
		}
	}
	return bars
}

const gb = 1 << 30

// hours labels n hourly buckets from a fixed start.
func hours(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("2025-03-%02dT%02d:00Z", 1+i/24, i%24)
	}
	return out
}

// cases are the charts kept as golden files and shown in the gallery.
var cases = []struct {
	name   string
	render func() string
}{
	{"bars-documents", func() string {
		r := rng(1)
		v := make([]float64, 12)
		for i := range v {
			v[i] = math.Round(80000 + 40000*r.float())
		}
		v[7] = 310000
		return Bars("Documents per physical partition", "documents", partitions(v, nil), 0, "")
	}},
	{"bars-bytes-limit", func() string {
		v := []float64{31 * gb, 38 * gb, 52.5 * gb, 29 * gb, 44 * gb, 61 * gb, 35 * gb, 40 * gb}
		return Bars("Projected size per physical partition", UnitBytes, partitions(v, nil), 50*gb, "50 GB per partition")
	}},
	{"bars-ru-limit", func() string {
		v := []float64{3200, 2900, 3350, 14800, 3100, 2700, 3000, 3300, 2950, 3150}
		return Bars("Request units per physical partition", "RU/s", partitions(v, nil), 10000, "10,000 RU/s per partition")
	}},
	{"bars-share", func() string {
		v := []float64{0.08, 0.11, 0.09, 0.42, 0.1, 0.07, 0.06, 0.07}
		return Bars("Share of requests per physical partition", UnitShare, partitions(v, nil), 0, "")
	}},
	{"bars-many", func() string {
		r := rng(2)
		v := make([]float64, 5000)
		for i := range v {
			v[i] = math.Round(900 + 200*r.float())
		}
		v[4321] = 9000
		return Bars("Documents per physical partition", "documents", partitions(v, nil), 0, "")
	}},
	{"bars-one", func() string {
		return Bars("Bytes per physical partition", UnitBytes, []Bar{{Label: "0", Value: 3.2 * gb, Note: "3.2 GB, 100% of requests"}}, 50*gb, "50 GB")
	}},
	{"bars-zero", func() string {
		return Bars("Bytes per physical partition", UnitBytes, partitions([]float64{0, 0, 0, 0}, nil), 50*gb, "50 GB")
	}},
	{"bars-long-labels", func() string {
		bars := []Bar{
			{Label: "tenant-" + strings.Repeat("very-long-", 20) + "name", Value: 120},
			{Label: "contoso", Value: 80},
			{Label: "東京都千代田区丸の内一丁目九番一号東京駅", Value: 60},
			{Label: "", Value: 20},
		}
		return Bars("Documents per key value", "documents", bars, 100, "")
	}},
	{"bars-empty", func() string { return Bars("Documents per physical partition", "documents", nil, 0, "") }},
	{"largest", func() string {
		items := []Bar{}
		total := 0.0
		r := rng(3)
		for i := 0; i < 10; i++ {
			v := math.Round(52000 / float64(i+1) * (0.9 + 0.2*r.float()))
			total += v
			items = append(items, Bar{Label: fmt.Sprintf("[\"tenant-%03d\"]", 17*i+3), Value: v})
		}
		total *= 3
		for i := range items {
			items[i].Note = strconv.FormatFloat(100*items[i].Value/total, 'f', 1, 64) + "%"
		}
		return Largest("Largest logical partitions (documents)", items)
	}},
	{"largest-many", func() string {
		items := make([]Bar, 300)
		for i := range items {
			items[i] = Bar{Label: fmt.Sprintf("/customer/%d/%s", i, strings.Repeat("x", i%50)), Value: float64(1000 - 3*i)}
		}
		items[0].Value = math.NaN()
		return Largest("Largest logical partitions", items)
	}},
	{"largest-empty", func() string { return Largest("Largest logical partitions", nil) }},
	{"lorenz-skewed", func() string {
		v := make([]float64, 2000)
		for i := range v {
			v[i] = math.Round(100000 / math.Pow(float64(i+1), 1.1))
		}
		return Lorenz("Skew of documents per logical partition", v)
	}},
	{"lorenz-even", func() string {
		r := rng(4)
		v := make([]float64, 500)
		for i := range v {
			v[i] = math.Round(100 + 20*r.float())
		}
		return Lorenz("Skew of documents per logical partition", v)
	}},
	{"lorenz-one", func() string { return Lorenz("Skew of documents per logical partition", []float64{42}) }},
	{"lorenz-empty", func() string { return Lorenz("Skew of documents per logical partition", nil) }},
	{"heatmap-monotonic", func() string {
		cells := make([][]float64, 48)
		for b := range cells {
			cells[b] = make([]float64, 8)
			cells[b][b*8/48] = 1000 + float64(b%5)*100
		}
		return Heatmap("Writes per physical partition over time: /createdAt", hours(48), cells)
	}},
	{"heatmap-even", func() string {
		r := rng(5)
		cells := make([][]float64, 48)
		for b := range cells {
			cells[b] = make([]float64, 8)
			volume := 600 + 400*math.Sin(float64(b)/24*2*math.Pi) // a daily cycle
			for p := range cells[b] {
				cells[b][p] = math.Round(volume * (0.85 + 0.3*r.float()))
			}
		}
		return Heatmap("Writes per physical partition over time: /id", hours(48), cells)
	}},
	{"heatmap-hot", func() string {
		r := rng(6)
		cells := make([][]float64, 72)
		for b := range cells {
			cells[b] = make([]float64, 16)
			for p := range cells[b] {
				cells[b][p] = math.Round(100 * (0.7 + 0.6*r.float()))
			}
			cells[b][11] = 1600 // one tenant takes half of every bucket
			if b >= 30 && b < 40 {
				cells[b][3] = 0 // a partition that went quiet
			}
		}
		return Heatmap("Writes per physical partition over time: /tenantId", hours(72), cells)
	}},
	{"heatmap-many", func() string {
		r := rng(7)
		cells := make([][]float64, 500)
		for b := range cells {
			cells[b] = make([]float64, 3000)
			for p := range cells[b] {
				cells[b][p] = math.Floor(3 * r.float())
			}
			cells[b][b*6] += 400 // a monotonic key on top of background noise
		}
		return Heatmap("Writes per physical partition over time", hours(500), cells)
	}},
	{"heatmap-one", func() string {
		return Heatmap("Writes per physical partition over time", []string{"2025-03-01T00:00Z"}, [][]float64{{5}})
	}},
	{"heatmap-empty", func() string { return Heatmap("Writes per physical partition over time", nil, nil) }},
	{"escaping", func() string {
		bad := []Bar{{Label: "<script>alert(1)</script>", Value: 3, Note: `"&'`}, {Label: `"&'`, Value: 2, Note: "<b>"}}
		return Bars("<script>alert(1)</script>", `"&'`, bad, 0, "") + Largest(`"&'`, bad)
	}},
}

// TestGolden compares each chart's drawing at each width with its golden
// file, testdata/NAME-WIDTH.svg, an SVG to open and look at.
func TestGolden(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.render()
			byWidth := map[float64]string{}
			for i, d := range drawings(got) {
				byWidth[widths[i%len(widths)]] += d
			}
			for _, w := range widths {
				path := goldenPath(c.name, w)
				if *update {
					if err := os.WriteFile(path, []byte(byWidth[w]), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test -update)", err)
				}
				if byWidth[w] != string(want) {
					t.Errorf("%s differs from the golden file; if the change is meant, run go test ./ui/chart/ -update and look at testdata/gallery.html", path)
				}
			}
		})
	}
	if *update {
		if err := writeGallery(filepath.Join("testdata", "gallery.html")); err != nil {
			t.Fatal(err)
		}
	}
}

func goldenPath(name string, width float64) string {
	return filepath.Join("testdata", name+"-"+num(width)+".svg")
}

// svgDoc is a parsed chart: its root's attributes and every text node by
// the element that holds it.
type svgDoc struct {
	attrs    map[string]string
	texts    []string
	elements []string
}

// parse reads s as XML strictly and fails the test unless it is one
// <div class="pkc-fit"> of well-formed <svg> documents, one for each of
// widths (or, for the escaping case, a sequence of such), and returns the
// documents.
func parse(t *testing.T, s string) []svgDoc {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(s))
	dec.Strict = true
	var docs []svgDoc
	depth, fits := 0, 0
	var stack []string
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				if tok.Name.Local != "div" || len(tok.Attr) != 1 || tok.Attr[0].Name.Local != "class" || tok.Attr[0].Value != "pkc-fit" {
					t.Fatalf("root is <%s %v>, not <div class=\"pkc-fit\">", tok.Name.Local, tok.Attr)
				}
				fits++
				depth++
				continue
			}
			if depth == 1 {
				if tok.Name.Local != "svg" {
					t.Fatalf("<%s> in the <div>", tok.Name.Local)
				}
				d := svgDoc{attrs: map[string]string{}}
				for _, a := range tok.Attr {
					d.attrs[a.Name.Local] = a.Value
				}
				docs = append(docs, d)
			}
			docs[len(docs)-1].elements = append(docs[len(docs)-1].elements, tok.Name.Local)
			stack = append(stack, tok.Name.Local)
			depth++
		case xml.EndElement:
			depth--
			if depth > 0 {
				stack = stack[:len(stack)-1]
			}
		case xml.CharData:
			if depth > 1 && (stack[len(stack)-1] == "text" || stack[len(stack)-1] == "title") {
				docs[len(docs)-1].texts = append(docs[len(docs)-1].texts, string(tok))
			} else if depth <= 1 && strings.TrimSpace(string(tok)) != "" {
				t.Fatalf("text outside <svg>: %q", tok)
			}
		}
	}
	if len(docs) == 0 || len(docs) != fits*len(widths) {
		t.Fatalf("%d <svg> in %d <div>", len(docs), fits)
	}
	return docs
}

// drawings splits a chart into its <svg> drawings, one for each of widths.
func drawings(s string) []string {
	var out []string
	for _, part := range strings.SplitAfter(s, "</svg>\n") {
		if i := strings.Index(part, "<svg "); i >= 0 {
			out = append(out, part[i:])
		}
	}
	return out
}

func TestWellFormed(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for i, d := range parse(t, c.render()) {
				w := num(widths[i%len(widths)])
				if !regexp.MustCompile(`^0 0 `+w+` \d+(\.\d)?$`).MatchString(d.attrs["viewBox"]) || d.attrs["class"] != "pkc-chart pkc-w"+w {
					t.Errorf("drawing %d: viewBox %q, class %q", i, d.attrs["viewBox"], d.attrs["class"])
				}
				if d.attrs["role"] != "img" || d.attrs["aria-label"] == "" {
					t.Errorf("role %q, aria-label %q", d.attrs["role"], d.attrs["aria-label"])
				}
				if d.elements[1] != "title" {
					t.Errorf("first child is <%s>, not <title>", d.elements[1])
				}
			}
		})
	}
}

// Floats are written with at most one decimal, so output is short and
// does not depend on the last bits of a computation.
func TestFixedPrecision(t *testing.T) {
	long := regexp.MustCompile(`\d\.\d\d`)
	attr := regexp.MustCompile(`(?:x|y|width|height|d)="[^"]*"`)
	for _, c := range cases {
		for _, a := range attr.FindAllString(c.render(), -1) {
			if long.MatchString(a) || strings.Contains(a, "e+") || strings.Contains(a, "e-") || strings.Contains(a, "NaN") || strings.Contains(a, "Inf") {
				t.Errorf("%s: %s", c.name, a)
			}
		}
	}
}

func TestDeterministic(t *testing.T) {
	for _, c := range cases {
		if a, b := c.render(), c.render(); a != b {
			t.Errorf("%s: two renders differ", c.name)
		}
	}
	// Inputs are left as they were.
	sizes := []float64{3, 1, 2}
	Lorenz("", sizes)
	bars := []Bar{{"b", 2, ""}, {"a", 5, ""}}
	Largest("", bars)
	if sizes[0] != 3 || bars[0].Label != "b" {
		t.Errorf("inputs changed: %v %v", sizes, bars)
	}
}

func TestEscaping(t *testing.T) {
	payloads := []string{"<script>alert(1)</script>", `"&'`, "a\x00b\x1bc]]>"}
	for _, p := range payloads {
		bars := []Bar{{Label: p, Value: 2, Note: p}, {Label: "x", Value: 1}}
		outs := map[string]string{
			"Bars":    Bars(p, p, bars, 1, p),
			"Largest": Largest(p, bars),
			"Heatmap": Heatmap(p, []string{p, "t1"}, [][]float64{{1, 2}, {3, 4}}),
			"Lorenz":  Lorenz(p, []float64{1, 2}),
			"empty":   Bars(p, "", nil, 0, ""),
		}
		for name, out := range outs {
			if strings.Contains(strings.ToLower(out), "<script") {
				t.Errorf("%s(%q): raw <script in output", name, p)
			}
			want := strings.Map(func(r rune) rune {
				if r < 0x20 && r != '\t' && r != '\n' && r != '\r' {
					return '\uFFFD' // not allowed in XML: replaced
				}
				return r
			}, p)
			for _, d := range parse(t, out) {
				for _, e := range d.elements {
					if strings.EqualFold(e, "script") || strings.EqualFold(e, "foreignObject") {
						t.Errorf("%s(%q): <%s> element", name, p, e)
					}
				}
				if !strings.Contains(d.attrs["aria-label"], want) {
					t.Errorf("%s(%q): aria-label %q", name, p, d.attrs["aria-label"])
				}
				found := false
				for _, s := range d.texts {
					found = found || s == want
				}
				if !found {
					t.Errorf("%s(%q): no text node equals the input; texts: %q", name, p, d.texts)
				}
			}
		}
	}
}

func TestEdgeCases(t *testing.T) {
	// Nothing to draw: a frame that says so.
	for name, out := range map[string]string{
		"Bars":           Bars("T", "documents", nil, 10, "10"),
		"Largest":        Largest("T", []Bar{}),
		"Lorenz":         Lorenz("T", nil),
		"Lorenz zeros":   Lorenz("T", []float64{0, 0}),
		"Heatmap":        Heatmap("T", nil, nil),
		"Heatmap no row": Heatmap("T", []string{"a"}, [][]float64{{}}),
		"Heatmap zeros":  Heatmap("T", []string{"a"}, [][]float64{{0, 0}}),
	} {
		d := parse(t, out)[0]
		if !strings.Contains(d.attrs["aria-label"], "no data") && !strings.Contains(d.attrs["aria-label"], "no writes") {
			t.Errorf("%s: aria-label %q", name, d.attrs["aria-label"])
		}
	}

	// NaN and infinities count as 0.
	nan, inf := math.NaN(), math.Inf(1)
	same := func(name, a, b string) {
		if a != b {
			t.Errorf("%s: NaN/Inf drawn differently from 0", name)
		}
	}
	same("Bars", Bars("T", "", []Bar{{"a", nan, ""}, {"b", inf, ""}, {"c", 1, ""}}, nan, ""),
		Bars("T", "", []Bar{{"a", 0, ""}, {"b", 0, ""}, {"c", 1, ""}}, 0, ""))
	same("Largest", Largest("T", []Bar{{"a", 1, ""}, {"b", math.Inf(-1), ""}}), Largest("T", []Bar{{"a", 1, ""}, {"b", 0, ""}}))
	same("Lorenz", Lorenz("T", []float64{nan, 1, 2, inf}), Lorenz("T", []float64{0, 1, 2, 0}))
	same("Heatmap", Heatmap("T", nil, [][]float64{{nan, 1}, {inf, 2}}), Heatmap("T", nil, [][]float64{{0, 1}, {0, 2}}))

	// Thousands of partitions: at most 64 bars or rows, and the label says so.
	many := make([]Bar, 4000)
	for i := range many {
		many[i] = Bar{Label: strconv.Itoa(i), Value: float64(i % 7)}
	}
	out := Bars("T", "", many, 0, "")
	if n := strings.Count(drawings(out)[0], `<rect class="bar`); n > 64 {
		t.Errorf("Bars: %d bars drawn", n)
	}
	if l := parse(t, out)[0].attrs["aria-label"]; !strings.Contains(l, "4,000 bars, drawn as 64, each the largest of 63 neighbours") {
		t.Errorf("Bars: aria-label %q", l)
	}
	cells := make([][]float64, 1000)
	for i := range cells {
		cells[i] = make([]float64, 5000)
		cells[i][i*5] = 1
	}
	out = Heatmap("T", nil, cells)
	if n := strings.Count(drawings(out)[0], `<rect class="hit"`); n > 64 {
		t.Errorf("Heatmap: %d rows drawn", n)
	}
	if l := parse(t, out)[0].attrs["aria-label"]; !strings.Contains(l, "drawn as 64 rows of 79 and 91 columns of 11") {
		t.Errorf("Heatmap: aria-label %q", l)
	}
	if len(out) > 200_000*len(widths) {
		t.Errorf("Heatmap: %d bytes", len(out))
	}
	sizes := make([]float64, 1_000_000)
	for i := range sizes {
		sizes[i] = float64(i % 1000)
	}
	if out := Lorenz("T", sizes); len(out) > 20_000*len(widths) {
		t.Errorf("Lorenz: %d bytes for a million sizes", len(out))
	}

	// Long labels are cut with an ellipsis and kept whole in a tooltip.
	long := strings.Repeat("partition-key-value-", 30)
	for name, out := range map[string]string{
		"Bars":    Bars(long, long, []Bar{{long, 1, ""}}, 0, ""),
		"Largest": Largest(long, []Bar{{long, 1, long}}),
		"Heatmap": Heatmap(long, []string{long, long}, [][]float64{{1}, {2}}),
	} {
		cut := false
		for _, s := range parse(t, out)[0].texts {
			if len(s) > 200 && !strings.Contains(s, long) { // tooltips keep it whole
				t.Errorf("%s: text of %d bytes: %.40q…", name, len(s), s)
			}
			cut = cut || strings.HasSuffix(s, "…")
		}
		if !cut {
			t.Errorf("%s: no label cut with an ellipsis", name)
		}
	}

	// One bar is no wider than a normal bar.
	if out := drawings(Bars("", "", []Bar{{"0", 5, ""}}, 0, ""))[0]; !strings.Contains(out, `width="48"`) {
		t.Errorf("one bar: %s", out)
	}
}

func TestLevel(t *testing.T) {
	for _, c := range []struct {
		share, fair float64
		want        int
	}{
		{0, 0.1, 0}, {0.1, 0.1, even}, {0.13, 0.1, even}, {0.2, 0.1, even + 1}, {1, 0.01, levels},
		{0.001, 0.125, 1}, {0.125 / 8, 0.125, 2}, {1, 1, even},
	} {
		if got := level(c.share, c.fair); got != c.want {
			t.Errorf("level(%v, %v) = %d, want %d", c.share, c.fair, got, c.want)
		}
	}
}

func TestGini(t *testing.T) {
	// Matches core/partition: one of n holding all is (n-1)/n.
	out := Lorenz("", []float64{0, 0, 0, 10})
	if l := parse(t, out)[0].attrs["aria-label"]; !strings.HasPrefix(l, "Gini coefficient 0.75 over 4 logical partitions") {
		t.Errorf("aria-label %q", l)
	}
}

// TestHeatmapTimeLabelsApart: the times under a heatmap never run into each
// other, for any count of buckets. Ticks spread evenly and rounded to
// columns used to fall on neighbouring columns ("2025-03-01T022025-03-01T03"
// under 7 hourly buckets).
func TestHeatmapTimeLabelsApart(t *testing.T) {
	label := regexp.MustCompile(`<text x="([0-9.]+)" y="[0-9.]+" class="m s"(?: text-anchor="(middle|end)")?>(2025-[^<]*)</text>`)
	for _, format := range []string{"2025-03-01T%02d", "2025-03-01T%02d:00Z"} {
		for nb := 1; nb <= 40; nb++ {
			columns := make([]string, nb)
			cells := make([][]float64, nb)
			for i := range columns {
				columns[i] = fmt.Sprintf(format, i)
				cells[i] = []float64{1, 2}
			}
			for _, svg := range drawings(Heatmap("Writes per physical partition by hour", columns, cells)) {
				type span struct {
					from, to float64
					text     string
				}
				var spans []span
				for _, m := range label.FindAllStringSubmatch(svg, -1) {
					x, _ := strconv.ParseFloat(m[1], 64)
					w := textWidth(m[3], small)
					switch m[2] {
					case "middle":
						x -= w / 2
					case "end":
						x -= w
					}
					spans = append(spans, span{x, x + w, m[3]})
				}
				if len(spans) == 0 || spans[0].text != columns[0] {
					t.Errorf("%d buckets: the first time is not written: %v", nb, spans)
					continue
				}
				for i := 1; i < len(spans); i++ {
					if spans[i].from < spans[i-1].to+4 {
						t.Errorf("%d buckets, %.40s: %q and %q meet", nb, svg, spans[i-1].text, spans[i].text)
					}
				}
			}
		}
	}
}
