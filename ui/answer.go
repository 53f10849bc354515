package ui

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/vugu/vugu"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/report"
)

// The answer: the key to choose, its grade and what the grade means, why
// it wins, what to check before choosing it, how far the sample was grown,
// and the command that creates the container. It comes first among the
// results, and each figure in it says what it is of.

// GradeText says what a candidate's grade means: "Grade A (85 to 100 of
// 100): a strong key, fit for the data and the target as measured."
func GradeText(x report.Candidate) string {
	g, ok := report.GradeBand(x.Grade)
	if !ok {
		return ""
	}
	return fmt.Sprintf("Grade %s (%s of 100): %s.", g.Letter, g.Range(), g.Meaning)
}

// GradeLegend explains every grade, for the table of candidates: "Grades
// of the score out of 100: A 85 to 100, strong; ...".
func GradeLegend() string {
	var parts []string
	for _, g := range report.Grades {
		parts = append(parts, fmt.Sprintf("%s %s, %s", g.Letter, g.Range(), g.Short))
	}
	return "Grades of the score out of 100: " + strings.Join(parts, "; ") + "."
}

// GradeTitle is a grade badge's tooltip: its band and meaning.
func GradeTitle(letter string) string {
	g, ok := report.GradeBand(letter)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s: %s of 100, %s", g.Letter, g.Range(), g.Meaning)
}

// Verdict says why the recommended key wins, in a sentence or two: its
// score among the candidates and its strongest measure; its weakest when
// that is below an A's; with a workload, the throughput it needs.
func (c *Results) Verdict() string {
	x := c.Best()
	n := len(c.Root.Report.Candidates)
	msg := fmt.Sprintf("The best of %d candidates, with %d of 100", n, x.Score)
	if n == 1 {
		msg = fmt.Sprintf("The one key measured, with %d of 100", x.Score)
	}
	var strongest, weakest *report.Component
	for i, b := range x.ScoreBreakdown {
		if !b.Measured || b.Note == "" {
			continue
		}
		if strongest == nil || b.Score > strongest.Score || b.Score == strongest.Score && b.Weight > strongest.Weight {
			strongest = &x.ScoreBreakdown[i]
		}
		if weakest == nil || b.Score < weakest.Score {
			weakest = &x.ScoreBreakdown[i]
		}
	}
	a, _ := report.GradeBand("A")
	if strongest != nil {
		msg += ": " + strongest.Note
	}
	msg += "."
	if weakest != nil && weakest != strongest && weakest.Score < a.Min {
		msg += fmt.Sprintf(" Its weakest side, %s (%d of 100): %s.", strings.ToLower(weakest.Name), weakest.Score, weakest.Note)
	}
	if w := x.Workload; w != nil {
		msg += " " + ProvisionText(w)
	}
	return msg
}

// sentence starts s with a capital letter.
func sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Caveats are the findings of the recommended key to read before choosing
// it: its warnings and critical findings, and the information that a guide
// to good keys speaks to (an /id key's fan-out, a first level that sits in
// one partition), at most three.
func (c *Results) Caveats() []report.Finding {
	var out []report.Finding
	for _, f := range c.Best().Findings {
		if f.Severity != "info" || GuideFor(f) != "" {
			out = append(out, f)
		}
	}
	return out[:min(3, len(out))]
}

// MoreFindings says how many findings of the recommended key the answer
// leaves to its details; "" for none.
func (c *Results) MoreFindings() string {
	x := c.Best()
	n := len(x.Findings) + len(x.Recommendations) - len(c.Caveats())
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf("%d more %s in its details", n, human.Plural(int64(n), "finding", "findings"))
}

// ShowDetails shows the recommended key in detail and moves there: its
// findings (the heading) or its snippet tabs (the open tab).
func (c *Results) ShowDetails(where string) {
	c.Root.Selected = c.Root.Report.Recommended
	switch where {
	case "tools":
		c.Root.focus = "tab-" + c.Root.SnippetShown(c.Best()).ID
	case "projection":
		c.Root.focus = "projection-title"
	default:
		c.Root.focus = "findings-title"
	}
}

// The guide to good keys (index.html, under the page) has an item for
// each thing a key must get right; a finding that is about one links to
// it. The ids and the titles are those of index.html (TestGuideLinks).
var guide = []struct{ ID, Title string }{
	{"guide-values", "Many distinct values, used evenly"},
	{"guide-queries", "In the queries that matter"},
	{"guide-size", "No value grows past 20 GB"},
	{"guide-time", "Not the time alone"},
	{"guide-one", "One value in every item"},
	{"guide-stable", "A value that never changes"},
	{"guide-once", "Chosen once"},
}

// guideOf is the guide item each finding code is about (docs/REPORT.md,
// Finding codes).
var guideOf = map[string]string{
	"LOW_CARDINALITY":         "guide-values",
	"HOT_PARTITION":           "guide-values",
	"THROTTLED":               "guide-values",
	"CROSS_PARTITION_QUERIES": "guide-queries",
	"ID_KEY":                  "guide-queries",
	"POINT_READ_WITHOUT_KEY":  "guide-queries",
	"TRANSACTION_SPANS_KEYS":  "guide-queries",
	"LOGICAL_PARTITION_LIMIT": "guide-size",
	"MONOTONIC":               "guide-time",
	"MISSING_VALUES":          "guide-one",
	"NOT_TIME_VALUES":         "guide-one",
	"INVALID_VALUES":          "guide-one",
	"DUPLICATE_IDS":           "guide-one",
	"KEY_TOO_LONG":            "guide-one",
	"IMPRECISE_NUMBERS":       "guide-one",
	"KEY_UPDATED":             "guide-stable",
}

// GuideFor is the id of the guide item a finding needs; "" for none. A
// key that merely correlates with time is information the guide does not
// speak to (hashing spreads its writes); one that follows it is.
func GuideFor(f report.Finding) string {
	if f.Code == "MONOTONIC" && f.Severity == "info" {
		return ""
	}
	return guideOf[f.Code]
}

// GuideLink is the text of a link to a guide item.
func GuideLink(id string) string {
	for _, g := range guide {
		if g.ID == id {
			return "What makes a good key: " + strings.ToLower(g.Title[:1]) + g.Title[1:]
		}
	}
	return "What makes a good key"
}

// ShowGuide moves to an item of the guide. The link's own navigation is
// stopped: the page's address after the '#' holds the settings, which an
// anchor would replace.
func (c *Root) ShowGuide(event vugu.DOMEvent, id string) {
	event.PreventDefault()
	c.focus = id
}

// ScaleText says in a sentence what the candidate's figures are of: the
// sample as it is, or the target it was grown to.
func ScaleText(r *report.Report, x report.Candidate) string {
	p := x.Projection
	if p.Factor <= 1 {
		of := fmt.Sprintf("the %s as it is, %s in %s %s", sampleNoun(r), human.Bytes(r.Bytes), human.Count(r.Documents), human.Plural(r.Documents, "document", "documents"))
		if r.Settings.TargetGB > 0 || r.Settings.TargetDocs > 0 || r.Settings.GrowthGB > 0 {
			return "Measured on " + of + ": the expected size is no larger, so nothing is projected."
		}
		return "Measured on " + of + ": with no expected size, nothing is projected."
	}
	spread := "it fits one physical partition"
	if p.PhysicalPartitions > 1 {
		spread = fmt.Sprintf("it spreads over %s physical partitions", human.Count(int64(p.PhysicalPartitions)))
	}
	s := fmt.Sprintf("At the expected size, %s (%s times the sample), %s, and its largest logical partition reaches %s of the %s a logical partition holds.",
		human.Bytes(p.Bytes), timesText(p.Factor), spread, human.Bytes(p.LargestLogicalBytes), limitText(capacity.LogicalPartitionMaxBytes))
	if p.OverLimit > 0 {
		s = strings.TrimSuffix(s, ".") + fmt.Sprintf(": %s %s past it.", human.Count(int64(p.OverLimit)), human.Plural(int64(p.OverLimit), "value grows", "values grow"))
	}
	return s
}

// sampleNoun is what the report measured: a sample of documents, or the
// data itself, summed per key (per-key aggregates).
func sampleNoun(r *report.Report) string {
	if r.Input.Format == aggregatesFormat {
		return "data"
	}
	return "sample"
}

// HasTarget reports whether the figures are projected past the sample.
func HasTarget(r *report.Report) bool {
	return slices.ContainsFunc(r.Candidates, func(x report.Candidate) bool { return x.Projection.Factor > 1 })
}

// timesText writes a factor: 2.5, 863,130.
func timesText(f float64) string {
	if f < 10 {
		return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", f), "0"), ".")
	}
	return human.Count(int64(math.Round(f)))
}

// FarCaveat is the caution for a target far beyond the sample, when the
// analysis gave it (FAR_PROJECTION, at a target a thousand times the
// sample or more: the analysis decides where); "" otherwise.
func FarCaveat(r *report.Report) string {
	f := farFactor(r)
	if f == 0 {
		return ""
	}
	return fmt.Sprintf("The sample is small beside the target, %s times smaller: every figure at the target is its proportions grown that far, and which value turns out largest is its chance. A larger sample, or per-key aggregates of the real data (pkcalc aggregate-query), give figures that rest on more.", timesText(f))
}

// FarBrief is FarCaveat in a sentence, for the answer.
func FarBrief(r *report.Report) string {
	f := farFactor(r)
	if f == 0 {
		return ""
	}
	return fmt.Sprintf("The sample is %s times smaller than the target: these figures are its proportions grown that far.", timesText(f))
}

// farFactor is how many times the sample the target is, when the analysis
// warned that it is far (FAR_PROJECTION); 0 otherwise.
func farFactor(r *report.Report) float64 {
	if !slices.ContainsFunc(r.Warnings, func(w report.Notice) bool { return w.Code == report.FarProjection }) {
		return 0
	}
	f := 0.0
	for _, x := range r.Candidates {
		f = max(f, x.Projection.Factor)
	}
	return f
}

// ProjectionText explains how the candidate's figures at the target were
// grown from the sample, as package partition grows them (docs/REPORT.md,
// projection.newValueShare): the documents to come bring new key values at
// the rate the sample's values seen once suggest (Good–Turing), the rest
// join the values seen in proportion to their size, and the physical
// partitions split as they fill. Nil when nothing is projected.
func ProjectionText(r *report.Report, x report.Candidate) []string {
	p := x.Projection
	if p.Factor <= 1 {
		return nil
	}
	target := fmt.Sprintf("%s (%s documents at the sample's average size)", human.Bytes(p.Bytes), human.Count(p.Documents))
	if r.Settings.TargetGB == 0 && r.Settings.TargetDocs > 0 {
		target = fmt.Sprintf("%s documents (%s at the sample's average size)", human.Count(p.Documents), human.Bytes(p.Bytes))
	}
	out := []string{fmt.Sprintf("The target, %s, is %s times the sample's %s in %s %s.",
		target, timesText(p.Factor), human.Bytes(r.Bytes), human.Count(r.Documents), human.Plural(r.Documents, "document", "documents"))}
	spec, _ := key.Parse(x.Key.Spec)
	grow := 1 + (p.Factor-1)*(1-p.NewValueShare)
	switch {
	case spec.TimeBucket() != "":
		out = append(out, fmt.Sprintf("The documents to come are written in %ss not seen yet, so each of the sample's values keeps its size, and the values to come are new ones, as many a %s as the sample has.",
			spec.TimeBucket(), spec.TimeBucket()))
	case p.NewValueShare >= 1:
		out = append(out, "No value repeats in the sample, so each document to come is taken to bring a value of its own: the values seen keep their size.")
	default:
		newShare := fmt.Sprintf("%s of the documents to come bring a key value not seen yet, as %s of the sample's documents hold a value seen only once (the Good–Turing estimate",
			sentence(human.Percent(p.NewValueShare)), human.Percent(p.NewValueShare))
		if x.LogicalPartitionsEstimated {
			newShare += "; the values past those counted exactly count as new"
		}
		newShare += "); they spread evenly over the key space."
		out = append(out, newShare)
		rest := fmt.Sprintf("The other %s join the values seen, each in proportion to its size, so each grows %s times", human.Percent(1-p.NewValueShare), timesText(grow))
		if suffix := hashSuffix(spec); suffix > 0 && !x.LogicalPartitionsEstimated {
			rest = fmt.Sprintf("The other %s join the values seen, and each value of the rest of the key spreads evenly over its %d suffixes as it grows", human.Percent(1-p.NewValueShare), suffix)
		}
		if len(x.Largest) > 0 {
			rest += fmt.Sprintf(": the largest, %s in the sample, reaches %s of the %s a logical partition holds", human.Bytes(x.Largest[0].Bytes), human.Bytes(p.LargestLogicalBytes), limitText(capacity.LogicalPartitionMaxBytes))
		}
		out = append(out, rest+".")
	}
	if spec.Kind == key.MultiHash {
		out = append(out, "On the physical partitions, a hierarchical key's documents to come land beside those that share their first level (a tenant's new items in the tenant's range), so each first-level value's place grows with the whole data.")
	}
	split := fmt.Sprintf("The container then holds %s in %s physical %s", human.Bytes(p.Bytes), human.Count(int64(p.PhysicalPartitions)), human.Plural(int64(p.PhysicalPartitions), "partition", "partitions"))
	if p.Splits > 0 {
		split += fmt.Sprintf(", after %s %s of partitions that passed %s", human.Count(int64(p.Splits)), human.Plural(int64(p.Splits), "split", "splits"), limitText(capacity.PhysicalPartitionMaxBytes))
	}
	out = append(out, split+".")
	if p.OverLimit > 0 {
		out = append(out, fmt.Sprintf("%s logical %s past %s there: Cosmos DB refuses writes to %s.", human.Count(int64(p.OverLimit)), human.Plural(int64(p.OverLimit), "partition grows", "partitions grow"),
			limitText(capacity.LogicalPartitionMaxBytes), human.Plural(int64(p.OverLimit), "it", "them")))
	}
	return out
}

// hashSuffix is the number of suffixes of a key whose last term is a
// computed hash suffix, hash(/id)%N; 0 for another key.
func hashSuffix(spec key.Spec) int {
	if spec.Kind != key.Synthetic || len(spec.Terms) == 0 {
		return 0
	}
	return spec.Terms[len(spec.Terms)-1].Modulus
}

// limitText writes a limit of the service as its docs do: 20 GB, not
// 20.0 GB.
func limitText(n int64) string { return strings.Replace(human.Bytes(n), ".0 ", " ", 1) }

// aggregatesFormat is input.format for per-key aggregates (docs/REPORT.md).
const aggregatesFormat = "per-key aggregates"
