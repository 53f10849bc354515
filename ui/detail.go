package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/vugu/vugu"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/paths"
	"github.com/pkcalc/pkcalc/core/provision"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/ui/chart"
)

// The charts are SVG that package chart writes with every label escaped,
// so they are inserted as markup; user data never is.

// DataChart draws documents and bytes per physical partition.
func DataChart(x report.Candidate) vugu.HTML {
	var bars []chart.Bar
	for _, p := range x.PhysicalPartitions {
		bars = append(bars, chart.Bar{Label: strconv.Itoa(p.ID), Value: float64(p.ProjectedBytes),
			Note: fmt.Sprintf("partition %d: %s at the target, %s documents in the sample", p.ID, human.Bytes(p.ProjectedBytes), human.Count(p.Documents))})
	}
	title := "Storage per physical partition at the target size"
	if x.Projection.Factor <= 1 {
		title = "Storage per physical partition"
	}
	title += busiestOf(x)
	return vugu.HTML(chart.Bars(title, chart.UnitBytes, bars, float64(capacity.PhysicalPartitionMaxBytes), "50 GB"))
}

// LoadChart draws the requests per physical partition: RU/s against the
// partition's throughput when a workload is given, else shares.
func LoadChart(x report.Candidate) vugu.HTML {
	var bars []chart.Bar
	if w := x.Workload; w != nil {
		for _, p := range x.PhysicalPartitions {
			v := 0.0
			if p.DemandRU != nil {
				v = *p.DemandRU
			}
			bars = append(bars, chart.Bar{Label: strconv.Itoa(p.ID), Value: v})
		}
		return vugu.HTML(chart.Bars("Request units per second per physical partition"+atTarget(x)+busiestOf(x), "RU/s", bars, w.PerPartitionRU,
			human.Count(int64(w.PerPartitionRU))+" RU/s per partition"))
	}
	for _, p := range x.PhysicalPartitions {
		bars = append(bars, chart.Bar{Label: strconv.Itoa(p.ID), Value: p.RequestShare})
	}
	return vugu.HTML(chart.Bars("Share of requests per physical partition"+atTarget(x)+busiestOf(x), chart.UnitShare, bars, 0, ""))
}

// atTarget says in a chart's title that it shows the container at the
// target size: "" when nothing is projected.
func atTarget(x report.Candidate) string {
	if x.Projection.Factor <= 1 {
		return ""
	}
	return " at the target"
}

// busiestOf says, in a chart's title, that it shows only the busiest
// partitions, when the report lists only those: "" when it lists all.
func busiestOf(x report.Candidate) string {
	if x.PhysicalPartitionsOmitted == nil {
		return ""
	}
	return fmt.Sprintf(" (the %s busiest of %s)", human.Count(int64(len(x.PhysicalPartitions))), human.Count(int64(x.PhysicalCount())))
}

// LargestChart draws the largest logical partitions.
func LargestChart(x report.Candidate) vugu.HTML {
	var bars []chart.Bar
	for _, l := range x.Largest {
		bars = append(bars, chart.Bar{Label: ValuesText(l.Values), Value: float64(l.Documents), Note: human.Bytes(l.Bytes) + " · " + human.Percent(l.Share)})
	}
	return vugu.HTML(chart.Largest("Largest logical partitions in the sample (documents)", bars))
}

// SkewChart draws the Lorenz curve.
func SkewChart(x report.Candidate) vugu.HTML {
	return vugu.HTML(chart.LorenzCurve("Skew of the sample's documents over logical partitions", x.PerLogicalPartition.Lorenz,
		x.PerLogicalPartition.Documents.Gini, x.LogicalPartitions))
}

// HeatmapChart draws writes per physical partition over time, when the
// documents have a time field.
func HeatmapChart(x report.Candidate) vugu.HTML {
	ws := x.WriteSpread
	if ws == nil {
		return ""
	}
	var cols, rows []string
	var cells [][]float64
	for _, b := range ws.Buckets {
		cols = append(cols, strings.TrimSuffix(strings.TrimSuffix(b.Start, ":00:00Z"), "T00"))
		cells = append(cells, b.Partitions)
	}
	// The busiest partitions alone, by their IDs, when the report lists
	// only those.
	for _, id := range ws.Partitions {
		rows = append(rows, strconv.Itoa(id))
	}
	return vugu.HTML(chart.HeatmapRows("The sample's writes per physical partition by "+ws.Unit+busiestOf(x), cols, rows, cells))
}

// Each chart's caption says what its figures are of (the sample, or the
// container at the target) and how to read them.

// DataCaption is the storage chart's caption.
func DataCaption(r *report.Report, x report.Candidate) string {
	of := fmt.Sprintf("with the sample as it is (%s)", human.Bytes(r.Bytes))
	if x.Projection.Factor > 1 {
		of = fmt.Sprintf("at the target (%s)", human.Bytes(x.Projection.Bytes))
	}
	return fmt.Sprintf("The bytes each physical partition holds %s, against the %s a physical partition holds before it splits; each bar's tooltip has its documents in the sample.",
		of, limitText(capacity.PhysicalPartitionMaxBytes))
}

// LoadCaption is the request chart's caption.
func LoadCaption(x report.Candidate) string {
	at := ""
	if x.Projection.Factor > 1 {
		at = " at the target"
	}
	n := x.PhysicalCount()
	if w := x.Workload; w != nil {
		s := fmt.Sprintf("The request units a second the workload asks of each physical partition%s, against the %s RU/s each gets of the container's %s RU/s: a bar past the line throttles.",
			at, human.Count(int64(w.PerPartitionRU)), human.Count(int64(w.RU)))
		if w.LeastRU != nil && *w.LeastRU > w.RU {
			s += fmt.Sprintf(" From %s RU/s none does.", human.Count(int64(*w.LeastRU)))
		}
		return s
	}
	if n <= 1 {
		return fmt.Sprintf("The container has one physical partition%s: it takes every request, under any key. Give the expected size or the throughput to see requests spread.", at)
	}
	return fmt.Sprintf("Each physical partition's share of the requests%s, as the requests spread over key values; an even spread gives each %s.", at, human.Percent(1/float64(n)))
}

// LargestCaption is the largest logical partitions' caption: they are the
// sample's, and the largest at the target is said beside.
func LargestCaption(x report.Candidate) string {
	s := "The documents of the sample's largest key values, each with its bytes in the sample and its share of the data."
	if p := x.Projection; p.Factor > 1 {
		s += fmt.Sprintf(" At the target the largest logical partition holds %s of the %s it can (see From the sample to the target).",
			human.Bytes(p.LargestLogicalBytes), limitText(capacity.LogicalPartitionMaxBytes))
	} else {
		s += fmt.Sprintf(" A logical partition holds up to %s.", limitText(capacity.LogicalPartitionMaxBytes))
	}
	return s
}

// SkewCaption is the skew curve's caption.
func SkewCaption(x report.Candidate) string {
	return fmt.Sprintf("How evenly the sample's documents spread over its %s logical %s: the further the curve from the diagonal, the more a few values hold (Gini %.2f: 0 is even, 1 all in one).",
		human.Count(x.LogicalPartitions), human.Plural(x.LogicalPartitions, "partition", "partitions"), x.PerLogicalPartition.Documents.Gini)
}

// HeatmapCaption is the write heatmap's caption.
func HeatmapCaption(r *report.Report, x report.Candidate) string {
	ws := x.WriteSpread
	if ws == nil {
		return ""
	}
	by := ""
	if r.TimeField != "" {
		by = " by its time field, " + r.TimeField
	}
	return fmt.Sprintf("The sample's writes in each %s%s, on each physical partition: a partition that lights up alone at a time takes that moment's writes, and a bright diagonal is a key that follows time.", ws.Unit, by)
}

// ValuesText writes a key value for people: JSON, the undefined value as
// "(missing)". As in the report, the characters a path escapes are
// written \uXXXX (paths.EscapeJSON): HTML escaping keeps them from being
// markup, not a bidirectional override from showing "a\u202egnp.exe" as
// "aexe.png", nor a control character from showing as nothing.
func ValuesText(vals []any) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		if m, ok := v.(map[string]any); ok && m["$undefined"] == true {
			parts[i] = "(missing)"
			continue
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode(v)
		parts[i] = paths.EscapeJSON(strings.TrimSpace(b.String()))
	}
	return strings.Join(parts, ", ")
}

// Snippets are the provisioning snippets for a candidate, with the
// throughput of the report shown (report.Snippets): those of the Markdown
// export and of pkcalc analyze --emit, not of a form changed since.
func (c *Root) Snippets(x report.Candidate) []provision.Snippet {
	if c.Report == nil {
		return nil
	}
	return report.Snippets(c.Report, x)
}

// SnippetShown is the snippet of the open tab.
func (c *Root) SnippetShown(x report.Candidate) provision.Snippet {
	all := c.Snippets(x)
	for _, s := range all {
		if s.ID == c.Snippet {
			return s
		}
	}
	if len(all) == 0 {
		return provision.Snippet{}
	}
	return all[0]
}

// ShowSnippet opens a snippet tab.
func (c *Root) ShowSnippet(id string) { c.Snippet = id }

// TabKey moves among the snippet tabs from the tab id, as the ARIA tab
// pattern has it: Left and Right to the previous and the next (wrapping),
// Home and End to the first and the last; the tab reached opens and takes
// the focus. It reports whether the key was one of those.
func (c *Root) TabKey(x report.Candidate, id, k string) bool {
	all := c.Snippets(x)
	if len(all) == 0 {
		return false
	}
	i := slices.IndexFunc(all, func(s provision.Snippet) bool { return s.ID == id })
	switch k {
	case "ArrowRight":
		i = (i + 1) % len(all)
	case "ArrowLeft":
		i = (i - 1 + len(all)) % len(all)
	case "Home":
		i = 0
	case "End":
		i = len(all) - 1
	default:
		return false
	}
	c.Snippet = all[i].ID
	c.focus = "tab-" + c.Snippet
	return true
}

// CopySnippet puts the open snippet on the clipboard.
func (c *Root) CopySnippet(x report.Candidate) {
	s := c.SnippetShown(x)
	if c.Page != nil {
		c.Page.Copy(s.Code)
	}
	c.Notice = s.Title + " copied to the clipboard."
}

// Export downloads the report as Markdown, JSON or CSV.
func (c *Root) Export(format string) {
	if c.Report == nil {
		return
	}
	var b bytes.Buffer
	name, mime := "pkcalc-report.json", "application/json"
	switch format {
	case "markdown":
		report.WriteMarkdown(&b, c.Report)
		name, mime = "pkcalc-report.md", "text/markdown"
	case "csv":
		report.WriteCSV(&b, c.Report)
		name, mime = "pkcalc-report.csv", "text/csv"
	default:
		report.WriteJSON(&b, c.Report)
	}
	c.download(name, mime, b.String())
}

// download hands text to the browser as the file name and says so.
func (c *Root) download(name, mime, text string) {
	if c.Page != nil {
		c.Page.Download(name, mime, text)
	}
	c.Notice = name + " downloaded."
}

// CopyMarkdown puts the report, as Markdown, on the clipboard.
func (c *Root) CopyMarkdown() {
	if c.Report == nil {
		return
	}
	var b bytes.Buffer
	report.WriteMarkdown(&b, c.Report)
	if c.Page != nil {
		c.Page.Copy(b.String())
	}
	c.Notice = "The report, as Markdown, is on the clipboard."
}

// CopyFailed says that the last copy did not reach the clipboard (a frame
// without the clipboard-write permission, a page served without HTTPS):
// the notice had said it did.
func (c *Root) CopyFailed(reason string) {
	c.Notice = "Nothing was copied: the browser did not allow the clipboard (" + reason + "). Export the report, or select the text and copy it."
}

// SeverityClass is the CSS class of a finding.
func SeverityClass(s string) string { return "finding " + s }

// CodeText makes a finding code readable: HOT_PARTITION is "Hot partition".
func CodeText(code string) string {
	s := strings.ToLower(strings.ReplaceAll(code, "_", " "))
	return strings.ToUpper(s[:1]) + s[1:]
}
