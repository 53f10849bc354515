package ui

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/vugu/vugu"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/paths"
	"github.com/pkcalc/pkcalc/core/plan"
	"github.com/pkcalc/pkcalc/core/report"
)

// Columns of the candidate table: id and heading (ColumnScope says what
// the figures under a heading are of).
var Columns = []struct {
	ID, Title string
}{
	{"rank", "Rank"}, {"key", "Key"}, {"score", "Score"}, {"logical", "Logical partitions"},
	{"largest", "Largest logical"}, {"hottest", "Busiest physical"}, {"fanout", "Fan-out"}, {"findings", "Findings"},
}

// ColumnLabel labels a cell of the candidate table where the table is
// laid out as cards (on a phone): its column's heading and what the
// figure is of.
func (c *Root) ColumnLabel(id string) string {
	for _, col := range Columns {
		if col.ID == id {
			if scope := c.ColumnScope(id); scope != "" {
				return col.Title + " (" + scope + ")"
			}
			return col.Title
		}
	}
	return ""
}

// Sort orders the table by a column; a second click reverses it.
func (c *Root) Sort(col string) {
	if c.SortBy == col {
		c.SortAsc = !c.SortAsc
		return
	}
	c.SortBy, c.SortAsc = col, col == "rank" || col == "key"
}

// AriaSort is the aria-sort value of a column heading.
func (c *Root) AriaSort(col string) string {
	by := c.SortBy
	if by == "" {
		by = "rank"
	}
	switch {
	case by != col:
		return "none"
	case c.SortAsc || (c.SortBy == "" && col == "rank"):
		return "ascending"
	}
	return "descending"
}

// ColumnScope says, under a column's heading, what its figures are of: the
// sample, or the container at the target size.
func (c *Root) ColumnScope(col string) string {
	at := "in the " + sampleNoun(c.Report)
	if HasTarget(c.Report) {
		at = "at the target"
	}
	switch col {
	case "logical":
		return "values in the " + sampleNoun(c.Report)
	case "largest":
		return at
	case "hottest":
		return "share of requests, " + at
	case "fanout":
		return "operations reading every partition"
	}
	return ""
}

// foldAfter is how many of the best ranks the table always shows; past
// them, keys graded below B fold away behind a button (Folded), unless
// the user named them, picked them or ticked them.
const foldAfter = 3

// folds reports whether a candidate folds away.
func (c *Root) folds(x report.Candidate) bool {
	b, _ := report.GradeBand("B")
	g, ok := report.GradeBand(x.Grade)
	return ok && g.Min < b.Min && x.Rank > foldAfter && !x.Named && x.Key.Spec != c.Report.Recommended &&
		x.Key.Spec != c.Selected && !c.IsCompared(x.Key.Spec)
}

// Folded is how many candidates the table folds away: none when folding
// would hide only one, which a button would not save.
func (c *Root) Folded() int {
	n := 0
	for _, x := range c.Report.Candidates {
		if c.folds(x) {
			n++
		}
	}
	if n < 2 {
		return 0
	}
	return n
}

// FoldText is the label of the button that shows the folded candidates,
// or folds them again.
func (c *Root) FoldText() string {
	n := c.Folded()
	if c.ShowAll {
		return fmt.Sprintf("Show fewer: fold the %d weaker %s", n, human.Plural(int64(n), "candidate", "candidates"))
	}
	return fmt.Sprintf("Show %d more %s, graded C or lower", n, human.Plural(int64(n), "candidate", "candidates"))
}

// FoldExpanded is the fold button's aria-expanded.
func (c *Root) FoldExpanded() string { return strconv.FormatBool(c.ShowAll) }

// ToggleFold shows the folded candidates, or folds them again.
func (c *Root) ToggleFold() { c.ShowAll = !c.ShowAll }

// Rows are the candidates the table shows, in its order.
func (c *Root) Rows() []report.Candidate {
	rows := slices.Clone(c.Report.Candidates)
	if !c.ShowAll && c.Folded() > 0 {
		rows = slices.DeleteFunc(rows, c.folds)
	}
	if c.SortBy == "" {
		// The report lists named keys first; a table reads in rank order.
		slices.SortStableFunc(rows, func(a, b report.Candidate) int { return a.Rank - b.Rank })
		return rows
	}
	projected := HasTarget(c.Report)
	val := func(x report.Candidate) float64 {
		switch c.SortBy {
		case "rank":
			return float64(x.Rank)
		case "score":
			return float64(x.Score)
		case "logical":
			return float64(x.LogicalPartitions)
		case "largest":
			if projected {
				return ratio(x.Projection.LargestLogicalBytes, x.Projection.Bytes)
			}
			return largestShare(x)
		case "hottest":
			return x.HottestShare()
		case "fanout":
			if x.Queries == nil {
				return 0
			}
			return x.Queries.FanOut
		case "findings":
			return float64(len(problemCodes(x)))
		}
		return 0
	}
	slices.SortStableFunc(rows, func(a, b report.Candidate) int {
		var r int
		if c.SortBy == "key" {
			r = strings.Compare(a.Key.Spec, b.Key.Spec)
		} else {
			r = cmp.Compare(val(a), val(b))
		}
		if !c.SortAsc {
			r = -r
		}
		return r
	})
	return rows
}

func largestShare(x report.Candidate) float64 {
	if len(x.Largest) == 0 {
		return 0
	}
	return x.Largest[0].Share
}

func problemCodes(x report.Candidate) []string {
	var out []string
	for _, f := range x.Findings {
		if f.Severity != "info" {
			out = append(out, f.Code)
		}
	}
	return out
}

// Cells of one candidate for the table and the comparison.

// LogicalText is the logical partition count, marked when estimated.
func LogicalText(x report.Candidate) string {
	s := human.Count(x.LogicalPartitions)
	if x.LogicalPartitionsEstimated {
		s = "≈ " + s
	}
	return s
}

// LargestText is the largest logical partition's size and share of the
// data in the sample.
func LargestText(x report.Candidate) string {
	if len(x.Largest) == 0 {
		return "–"
	}
	return fmt.Sprintf("%s (%s)", human.Bytes(x.Largest[0].Bytes), human.Percent(x.Largest[0].Share))
}

// LargestAtTarget is the largest logical partition's size and share of the
// data at the target.
func LargestAtTarget(x report.Candidate) string {
	p := x.Projection
	return fmt.Sprintf("%s (%s)", human.Bytes(p.LargestLogicalBytes), human.Percent(ratio(p.LargestLogicalBytes, p.Bytes)))
}

// LargestCell is the table's largest logical partition: at the target
// when the report projects, else in the sample (ColumnScope says which).
func (c *Root) LargestCell(x report.Candidate) string {
	if HasTarget(c.Report) && len(x.Largest) > 0 {
		return LargestAtTarget(x)
	}
	return LargestText(x)
}

// HottestText is the report's: the busiest partition beside the even share.
func HottestText(x report.Candidate) string { return report.HottestText(x) }

// FanOutText is the share of the operations that read every partition.
func FanOutText(x report.Candidate) string {
	if x.Queries == nil {
		return "–"
	}
	return human.Percent(x.Queries.FanOut / 100)
}

// RoutingText says where an operation goes, for people.
func RoutingText(v report.Verdict) string {
	switch v.Routing {
	case "single":
		return "one partition"
	case "targeted":
		// Several values may share a partition, and a prefix may span
		// several: the values are counted, not the partitions.
		switch {
		case v.Values > 0 && v.Prefix > 0:
			return fmt.Sprintf("the partitions of %d %s", v.Values, human.Plural(int64(v.Values), "prefix", "prefixes"))
		case v.Values > 0:
			return fmt.Sprintf("the partitions of %d %s", v.Values, human.Plural(int64(v.Values), "value", "values"))
		}
		return "a few partitions"
	}
	return "every partition"
}

// OpText names an operation. A query's characters that a path escapes
// are written \uXXXX, as a string literal of the query can write them
// (ValuesText says why).
func OpText(v report.Verdict) string {
	if v.Query != "" {
		return paths.EscapeJSON(v.Query)
	}
	return v.Kind + " " + strings.Join(v.Paths, " ")
}

// RateText is an operation's rate per second, as the page writes numbers:
// 1,500, 50, 33.33, 0.5, <0.01.
func RateText(v report.Verdict) string {
	switch r := v.Rate; {
	case r >= 100:
		return human.Count(int64(math.Round(r)))
	case r > 0 && r < 0.005:
		return "<0.01"
	case r > 0:
		return strings.TrimSuffix(strings.TrimRight(strconv.FormatFloat(r, 'f', 2, 64), "0"), ".")
	}
	return "0"
}

// FindingsText lists a candidate's warnings and critical findings.
func FindingsText(x report.Candidate) string {
	codes := problemCodes(x)
	if len(codes) == 0 {
		return "none"
	}
	return strings.ToLower(strings.ReplaceAll(strings.Join(codes, ", "), "_", " "))
}

// GradeClass is the CSS class of a grade.
func GradeClass(g string) string { return "grade grade-" + strings.ToLower(g) }

// Select shows a candidate in detail.
func (c *Root) Select(spec string) { c.Selected = spec }

// ToggleCompare ticks or unticks a candidate for comparison (three at most).
func (c *Root) ToggleCompare(spec string) {
	if i := slices.Index(c.Compared, spec); i >= 0 {
		c.Compared = slices.Delete(c.Compared, i, i+1)
		return
	}
	if len(c.Compared) == 3 {
		c.Compared = c.Compared[1:]
	}
	c.Compared = append(c.Compared, spec)
}

// IsCompared reports whether a candidate is ticked.
func (c *Root) IsCompared(spec string) bool { return slices.Contains(c.Compared, spec) }

// Candidate returns the candidate with a spec.
func (c *Root) Candidate(spec string) (report.Candidate, bool) {
	if c.Report == nil {
		return report.Candidate{}, false
	}
	for _, x := range c.Report.Candidates {
		if x.Key.Spec == spec {
			return x, true
		}
	}
	return report.Candidate{}, false
}

// ComparedCandidates are the ticked candidates, in table order.
func (c *Root) ComparedCandidates() []report.Candidate {
	var out []report.Candidate
	for _, x := range c.Report.Candidates {
		if c.IsCompared(x.Key.Spec) {
			out = append(out, x)
		}
	}
	return out
}

// CompareRows are the lines of the comparison: a label and a value per key.
func (c *Root) CompareRows() [][]string {
	xs := c.ComparedCandidates()
	row := func(label string, f func(report.Candidate) string) []string {
		r := []string{label}
		for _, x := range xs {
			r = append(r, f(x))
		}
		return r
	}
	rows := [][]string{
		row("Kind", func(x report.Candidate) string { return x.Key.Kind }),
		row("Score", func(x report.Candidate) string { return fmt.Sprintf("%d (%s)", x.Score, x.Grade) }),
		row("Logical partitions", LogicalText),
		row("Largest logical partition, in the sample", LargestText),
		row("Busiest physical partition, share of requests", HottestText),
		row("Operations reading every partition", FanOutText),
		row("Missing the key", func(x report.Candidate) string { return human.Percent(ratio(x.Missing, x.Documents)) }),
		row("Documents per logical partition (p50 / p99 / max)", func(x report.Candidate) string {
			d := x.PerLogicalPartition.Documents
			return fmt.Sprintf("%s / %s / %s", human.Count(d.P50), human.Count(d.P99), human.Count(d.Max))
		}),
		row("Gini (0 even, 1 all in one)", func(x report.Candidate) string {
			return fmt.Sprintf("%.2f", x.PerLogicalPartition.Documents.Gini)
		}),
		row("At the target: physical partitions", func(x report.Candidate) string { return human.Count(int64(x.Projection.PhysicalPartitions)) }),
		row("At the target: largest logical partition", func(x report.Candidate) string { return human.Bytes(x.Projection.LargestLogicalBytes) }),
		row("Monotonic", func(x report.Candidate) string { return yesNo(x.Monotonicity.Monotonic) }),
		row("Findings", FindingsText),
	}
	if slices.ContainsFunc(xs, func(x report.Candidate) bool { return x.Workload != nil }) {
		rows = append(rows, row("Throttled requests", func(x report.Candidate) string {
			if x.Workload == nil {
				return "–"
			}
			return human.Percent(x.Workload.ThrottledFraction)
		}), row("RU/s the workload needs", func(x report.Candidate) string {
			if x.Workload == nil {
				return "–"
			}
			return human.Count(int64(x.Workload.TotalRU + 0.5))
		}), row("Least RU/s with no throttling", func(x report.Candidate) string {
			switch {
			case x.Workload == nil:
				return "–"
			case x.Workload.LeastRU == nil:
				return "none is enough"
			}
			return human.Count(int64(*x.Workload.LeastRU))
		}))
	}
	for _, b := range []int{0, 1, 2, 3, 4, 5} {
		rows = append(rows, row("", func(x report.Candidate) string {
			if b >= len(x.ScoreBreakdown) {
				return ""
			}
			return ScorePart(x.ScoreBreakdown[b])
		}))
		if len(xs) > 0 && b < len(xs[0].ScoreBreakdown) {
			rows[len(rows)-1][0] = "Score: " + strings.ToLower(xs[0].ScoreBreakdown[b].Name)
		}
	}
	return rows
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// Results shows the candidates, their comparison and the chosen one's
// details.
type Results struct {
	Root *Root

	charts     Charts // of chartsFor, drawn once
	chartsFor  *report.Report
	chartsSpec string

	plans     []plan.Plan // of plansFor and plansSpec, made once
	plansFor  *report.Report
	plansSpec string
}

// Charts are a candidate's charts as markup.
type Charts struct {
	Data, Load, Largest, Skew, Heatmap vugu.HTML
}

// Charts draws the shown candidate's charts once for each report and key,
// not on every render: each is drawn at three widths (package chart), and
// the page renders again for every progress report of a later analysis
// while these results stay on it.
func (c *Results) Charts() Charts {
	x := c.Shown()
	if c.chartsFor != c.Root.Report || c.chartsSpec != x.Key.Spec {
		c.charts = Charts{DataChart(x), LoadChart(x), LargestChart(x), SkewChart(x), HeatmapChart(x)}
		c.chartsFor, c.chartsSpec = c.Root.Report, x.Key.Spec
	}
	return c.charts
}

// Best is the recommended candidate.
func (c *Results) Best() report.Candidate {
	x, _ := c.Root.Candidate(c.Root.Report.Recommended)
	return x
}

// RowClass marks the selected and the recommended rows.
func (c *Results) RowClass(x report.Candidate) string {
	cls := "row"
	if x.Key.Spec == c.Root.Selected {
		cls += " selected"
	}
	if x.Key.Spec == c.Root.Report.Recommended {
		cls += " recommended"
	}
	return cls
}

// KindText names a key's kind, and marks the keys named by the user.
func (c *Results) KindText(x report.Candidate) string {
	k := map[string]string{"hash": "hash", "multihash": "hierarchical", "synthetic": "synthetic"}[x.Key.Kind]
	if x.Named {
		k += ", yours"
	}
	return k
}

// HasSelected reports whether a candidate is shown in detail.
func (c *Results) HasSelected() bool {
	_, ok := c.Root.Candidate(c.Root.Selected)
	return ok
}

// Shown is the candidate shown in detail.
func (c *Results) Shown() report.Candidate {
	x, _ := c.Root.Candidate(c.Root.Selected)
	return x
}

// ScoreText is the score of the shown candidate.
func (c *Results) ScoreText() string { return fmt.Sprintf("%d / 100", c.Shown().Score) }

// ProvisionText says what throughput the key needs.
func ProvisionText(w *report.Workload) string {
	if w.LeastRU == nil {
		return fmt.Sprintf("No throughput is enough under it: one key value needs %s RU/s, past the 10,000 one value can get.", human.Count(int64(w.HottestLogicalRU)))
	}
	how := ""
	if w.CreateRU > 0 {
		how = fmt.Sprintf(" Create the container with %s RU/s or less, then raise them, so that it starts with the partitions this is worked out on.", human.Count(int64(w.CreateRU)))
		if w.LeastRUByData {
			how = fmt.Sprintf(" Create the container with %s RU/s or less and load it before raising them, so that it splits where its data is.", human.Count(int64(w.CreateRU)))
		}
	}
	return fmt.Sprintf("Provision %s RU/s or more: from there no physical partition throttles (the workload needs %s RU/s).%s",
		human.Count(int64(*w.LeastRU)), human.Count(int64(w.TotalRU+0.5)), how)
}

// WeightText is a component's weight.
func (c *Results) WeightText(b report.Component) string {
	if !b.Measured {
		return "–"
	}
	return fmt.Sprintf("%d%%", b.Weight)
}

// ScorePart is a breakdown line's score as shown: a dash when it was not
// measured.
func ScorePart(b report.Component) string {
	if !b.Measured {
		return "–"
	}
	return fmt.Sprint(b.Score)
}

// ChargeText is what one execution of an operation costs under the key, and
// what it reads.
func ChargeText(v report.Verdict) string {
	if v.RU == 0 {
		return "–"
	}
	s := fmt.Sprintf("%s RU, %s %s", strconv.FormatFloat(v.RU, 'f', -1, 64), human.Count(int64(v.Partitions)), human.Plural(int64(v.Partitions), "partition", "partitions"))
	if v.Items > 0 {
		atMost := ""
		if v.ItemsAtMost {
			atMost = "at most "
		}
		s += fmt.Sprintf(", %s%s %s", atMost, human.Count(int64(v.Items+0.5)), human.Plural(int64(v.Items+0.5), "item", "items"))
	}
	return s
}

// DayOneText says how the container starts under the key.
func DayOneText(x report.Candidate) string {
	d := x.DayOne
	top := 0.0
	for _, p := range d.Partitions {
		top = max(top, p.WriteShare)
	}
	s := fmt.Sprintf("%s physical %s of %s RU/s%s", human.Count(int64(d.PhysicalPartitions)), human.Plural(int64(d.PhysicalPartitions), "partition", "partitions"), human.Count(int64(d.PerPartitionRU)),
		human.Plural(int64(d.PhysicalPartitions), "", " each"))
	if d.EmptyPartitions > 0 {
		s += fmt.Sprintf(", %s of them empty", human.Count(int64(d.EmptyPartitions)))
	}
	if d.PhysicalPartitions > 1 {
		s += fmt.Sprintf("; the busiest takes %s of the writes", human.Percent(top))
	}
	if x.Projection.PhysicalPartitions != d.PhysicalPartitions {
		s += fmt.Sprintf("; %s at the target", human.Count(int64(x.Projection.PhysicalPartitions)))
	}
	return s + "."
}

// TabIndex makes the open snippet tab the tabs' one Tab stop; the arrow
// keys move among them.
func (c *Results) TabIndex(id string) string {
	if c.Root.SnippetShown(c.Shown()).ID == id {
		return "0"
	}
	return "-1"
}

// TabKeyDown handles a key on a snippet tab.
func (c *Results) TabKeyDown(event vugu.DOMEvent, id string) {
	if event.PropBool("altKey") || event.PropBool("ctrlKey") || event.PropBool("metaKey") {
		return // the browser's shortcuts
	}
	if c.Root.TabKey(c.Shown(), id, event.PropString("key")) {
		event.PreventDefault() // Home and End would scroll the page
	}
}

// TabSelected is the aria-selected value of a snippet tab.
func (c *Results) TabSelected(id string) string {
	if c.Root.SnippetShown(c.Shown()).ID == id {
		return "true"
	}
	return "false"
}
