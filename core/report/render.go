package report

import (
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/paths"
)

// WriteText writes the report as a terminal table followed by the details
// of the best candidate. Like every writer, it makes the report Finite
// first.
func WriteText(w io.Writer, r *Report) error {
	Finite(r)
	bw := &errWriter{w: w}
	fmt.Fprintf(bw, "%s %s (%s), read as %s", human.Count(r.Documents), human.Plural(r.Documents, "document", "documents"), human.Bytes(r.Bytes), r.Input.Format)
	if r.Input.ErrorCount > 0 {
		fmt.Fprintf(bw, "; %d %s in the input", r.Input.ErrorCount, human.Plural(int64(r.Input.ErrorCount), "problem", "problems"))
	}
	if t := projectedTo(r.Settings); t != "" {
		fmt.Fprintf(bw, "; projected to %s", t)
	}
	if r.TimeField != "" {
		fmt.Fprintf(bw, "; time field %s", r.TimeField)
	}
	fmt.Fprintln(bw)
	for _, line := range inputLines(r) {
		fmt.Fprintf(bw, "  %s\n", line)
	}
	for _, n := range r.Warnings {
		fmt.Fprintf(bw, "  warning %s: %s\n", n.Code, n.Message)
	}
	if errs := queryErrors(r); len(errs) > 0 {
		fmt.Fprintf(bw, "\nQueries not read (%s):\n", opsRead(r))
		for _, e := range errs {
			fmt.Fprintf(bw, "  %s\n", e)
		}
	}
	if len(r.Candidates) == 0 {
		fmt.Fprintf(bw, "\nNo key recommended: %s\n", noRecommendation(r))
		return bw.err
	}
	fmt.Fprintln(bw)
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RANK\tKEY\tKIND\tSCORE\tGRADE\tLOGICAL\tLARGEST\tHOTTEST PHYS\tFINDINGS")
	ranked := byRank(r)
	for _, c := range ranked {
		largest := "-"
		if len(c.Largest) > 0 {
			largest = fmt.Sprintf("%s (%s)", human.Bytes(c.Largest[0].Bytes), human.Percent(c.Largest[0].Share))
		}
		logical := human.Count(c.LogicalPartitions)
		if c.LogicalPartitionsEstimated {
			logical = "~" + logical
		}
		name := c.Key.Spec
		if c.Named {
			name += " *"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\n", c.Rank, name, c.Key.Kind, c.Score, c.Grade, logical, largest,
			HottestText(c), orDash(findingCodes(c.Findings)))
	}
	tw.Flush()
	if anyNamed(r) {
		fmt.Fprintln(bw, namedLegend)
	}
	// Only the report's own recommendation: the other formats show no
	// other, and the first row is not one when keys are named.
	if best, ok := Recommended(r); ok {
		fmt.Fprintf(bw, "\nRecommended: %s (score %d, grade %s)\n", best.Key.Spec, best.Score, best.Grade)
		if p := provisionText(best); p != "" {
			fmt.Fprintf(bw, "  %s\n", p)
		}
		for _, b := range best.ScoreBreakdown {
			if !b.Measured {
				fmt.Fprintf(bw, "  %-22s   –          %s\n", b.Name, b.Note)
				continue
			}
			fmt.Fprintf(bw, "  %-22s %3d/100 x %2d%%  %s\n", b.Name, b.Score, b.Weight, b.Note)
		}
	} else {
		fmt.Fprintf(bw, "\nNo key recommended: %s\n", noRecommendation(r))
	}
	for _, c := range ranked {
		if len(c.Findings) == 0 && len(c.Recommendations) == 0 {
			continue
		}
		fmt.Fprintf(bw, "\n%s (grade %s)\n", c.Key.Spec, c.Grade)
		for _, f := range c.Findings {
			fmt.Fprintf(bw, "  %-8s %s: %s\n", f.Severity, f.Code, f.Message)
		}
		for _, rec := range c.Recommendations {
			fmt.Fprintf(bw, "  advice   %s: %s\n", rec.Code, rec.Message)
		}
	}
	return bw.err
}

// WriteMarkdown writes the report as Markdown for a design document.
func WriteMarkdown(w io.Writer, r *Report) error {
	Finite(r)
	bw := &errWriter{w: w}
	fmt.Fprintf(bw, "# Partition key analysis\n\n")
	// The format names a wrapper's property, which is user text.
	fmt.Fprintf(bw, "%s %s (%s), read as %s.", human.Count(r.Documents), human.Plural(r.Documents, "document", "documents"), human.Bytes(r.Bytes), mdText(r.Input.Format))
	if r.Input.ErrorCount > 0 {
		fmt.Fprintf(bw, " %d %s in the input.", r.Input.ErrorCount, human.Plural(int64(r.Input.ErrorCount), "problem", "problems"))
	}
	if t := projectedTo(r.Settings); t != "" {
		fmt.Fprintf(bw, " Projected to %s.", t)
	}
	if r.TimeField != "" {
		fmt.Fprintf(bw, " Time field: %s.", mdCode(r.TimeField))
	}
	errs := queryErrors(r)
	if len(errs) > 0 {
		fmt.Fprintf(bw, " %d %s of the queries could not be read: see [Queries not read](#queries-not-read).", len(errs), human.Plural(int64(len(errs)), "line", "lines"))
	}
	fmt.Fprintln(bw)
	if len(r.Input.Errors)+len(r.Input.Warnings)+len(r.Warnings) > 0 {
		fmt.Fprintln(bw)
		for _, line := range inputLines(r) {
			fmt.Fprintf(bw, "- %s\n", mdText(line))
		}
		for _, n := range r.Warnings {
			fmt.Fprintf(bw, "- **Warning, %s**: %s\n", n.Code, mdText(n.Message))
		}
	}
	if r.Recommended != "" {
		fmt.Fprintf(bw, "\n**Recommended key: %s**\n", mdCode(r.Recommended))
		if best, ok := Recommended(r); ok {
			if p := provisionText(best); p != "" {
				fmt.Fprintf(bw, "\n%s\n", p)
			}
			if len(Snippets(r, best)) > 0 {
				fmt.Fprintf(bw, "\nThe commands and code that create the container: [Create the container](#create-the-container).\n")
			}
		}
	} else {
		fmt.Fprintf(bw, "\n**No key recommended**: %s\n", mdText(noRecommendation(r)))
	}
	if len(r.Candidates) > 0 {
		fmt.Fprintf(bw, "\n| Rank | Key | Kind | Score | Grade | Logical partitions | Largest | Hottest physical | Findings |\n|---:|---|---|---:|:---:|---:|---:|---:|---|\n")
	}
	ranked := byRank(r)
	for _, c := range ranked {
		largest := ""
		if len(c.Largest) > 0 {
			largest = fmt.Sprintf("%s (%s)", human.Bytes(c.Largest[0].Bytes), human.Percent(c.Largest[0].Share))
		}
		logical := human.Count(c.LogicalPartitions)
		if c.LogicalPartitionsEstimated {
			logical = "~" + logical
		}
		name := mdCodeCell(c.Key.Spec)
		if c.Named {
			name += ` \*`
		}
		fmt.Fprintf(bw, "| %d | %s | %s | %d | %s | %s | %s | %s | %s |\n", c.Rank, name, c.Key.Kind, c.Score, c.Grade, logical, largest,
			HottestText(c), orDash(findingCodes(c.Findings)))
	}
	if anyNamed(r) {
		fmt.Fprintf(bw, "\n%s\n", mdText(namedLegend))
	}
	for _, c := range ranked {
		fmt.Fprintf(bw, "\n## %s — grade %s (%d/100)\n\n", mdCode(c.Key.Spec), c.Grade, c.Score)
		fmt.Fprintf(bw, "| Part | Score | Weight | Why |\n|---|---:|---:|---|\n")
		for _, b := range c.ScoreBreakdown {
			if !b.Measured {
				fmt.Fprintf(bw, "| %s | – | – | %s |\n", b.Name, mdCell(b.Note))
				continue
			}
			fmt.Fprintf(bw, "| %s | %d | %d%% | %s |\n", b.Name, b.Score, b.Weight, mdCell(b.Note))
		}
		if len(c.Findings) > 0 {
			fmt.Fprintln(bw)
			for _, f := range c.Findings {
				fmt.Fprintf(bw, "- **%s** (%s): %s\n", f.Code, f.Severity, mdText(f.Message))
			}
		}
		for _, rec := range c.Recommendations {
			fmt.Fprintf(bw, "- **Advice, %s**: %s\n", rec.Code, mdText(rec.Message))
		}
		if len(c.Largest) > 0 {
			fmt.Fprintf(bw, "\nLargest logical partitions:\n\n| Value | Documents | Bytes | Share |\n|---|---:|---:|---:|\n")
			for _, l := range c.Largest[:min(5, len(c.Largest))] {
				v, _ := json.Marshal(l.Values)
				fmt.Fprintf(bw, "| %s | %s | %s | %s |\n", mdCodeCell(string(paths.EscapeJSON(v))), human.Count(l.Documents), human.Bytes(l.Bytes), human.Percent(l.Share))
			}
		}
	}
	if best, ok := Recommended(r); ok {
		writeSnippets(bw, r, best)
	}
	if len(errs) > 0 {
		fmt.Fprintf(bw, "\n## Queries not read\n\nThese lines are left out (%s):\n\n", opsRead(r))
		for _, e := range errs {
			fmt.Fprintf(bw, "- %s\n", mdText(e))
		}
	}
	return bw.err
}

// WriteCSV writes one row per candidate key. CSV has no place for the
// report's notes (see Notes): a row is a key, every row alike.
func WriteCSV(w io.Writer, r *Report) error {
	Finite(r)
	cw := csv.NewWriter(w)
	cw.Write([]string{"rank", "key", "kind", "named", "score", "grade", "logical_partitions", "estimated", "documents", "bytes", "missing", "invalid", "duplicate_ids",
		"largest_documents", "largest_bytes", "largest_share", "max_to_mean", "gini", "physical_partitions", "hottest_request_share",
		"projected_physical_partitions", "projected_largest_bytes", "over_20gb", "monotonic", "total_ru", "least_ru", "findings"})
	for _, c := range byRank(r) {
		var ld, lb int64
		var ls, hot float64
		if len(c.Largest) > 0 {
			ld, lb, ls = c.Largest[0].Documents, c.Largest[0].Bytes, c.Largest[0].Share
		}
		for _, p := range c.PhysicalPartitions {
			hot = max(hot, p.RequestShare)
		}
		var total, least string // empty without a workload, or when no throughput is enough
		if w := c.Workload; w != nil {
			total = f64(w.TotalRU)
			if w.LeastRU != nil {
				least = strconv.Itoa(*w.LeastRU)
			}
		}
		dups := "" // not checked: aggregates
		if c.DuplicateIDs != nil {
			dups = i64(*c.DuplicateIDs)
		}
		cw.Write([]string{
			strconv.Itoa(c.Rank), c.Key.Spec, c.Key.Kind, strconv.FormatBool(c.Named), strconv.Itoa(c.Score), c.Grade,
			i64(c.LogicalPartitions), strconv.FormatBool(c.LogicalPartitionsEstimated), i64(c.Documents), i64(c.Bytes), i64(c.Missing), i64(c.Invalid), dups,
			i64(ld), i64(lb), f64(ls), f64(c.PerLogicalPartition.Documents.MaxToMean), f64(c.PerLogicalPartition.Documents.Gini),
			strconv.Itoa(c.PhysicalCount()), f64(hot), strconv.Itoa(c.Projection.PhysicalPartitions), i64(c.Projection.LargestLogicalBytes),
			strconv.Itoa(c.Projection.OverLimit), strconv.FormatBool(c.Monotonicity.Monotonic), total, least, findingCodes(c.Findings),
		})
	}
	cw.Flush()
	return cw.Error()
}

// noLayoutText is provisionText when no key value passes 10,000 RU/s but
// no layout pkcalc tries serves the workload either.
var noLayoutText = "Throughput: none is enough: on as many as " + human.Count(capacity.MaxPartitions) + " physical partitions, the most pkcalc tries, the busiest still needs more than the 10,000 RU/s one partition can get."

// provisionText says what throughput a key needs, when a workload is
// given: the figure to provision.
func provisionText(c Candidate) string {
	w := c.Workload
	switch {
	case w == nil:
		return ""
	case w.LeastRU == nil && w.HottestLogicalRU > capacity.PartitionMaxRU:
		return fmt.Sprintf("Throughput: none is enough: one key value alone needs %s RU/s, past the 10,000 one value can get.", human.Count(human.Int(math.Ceil(w.HottestLogicalRU))))
	case w.LeastRU == nil:
		return noLayoutText
	}
	split := ""
	switch {
	case w.LeastRUByData:
		split = fmt.Sprintf(", split where the data is: create the container with %s RU/s or less, load it, raise its RU/s to %s so that it splits, then lower them",
			human.Count(int64(w.CreateRU)), human.Count(int64(w.LeastRUPartitions)*capacity.PartitionMaxRU))
	case w.CreateRU > 0:
		split = fmt.Sprintf(": create the container with %s RU/s or less, then raise its RU/s, as created with more it would start with more partitions", human.Count(int64(w.CreateRU)))
	}
	p := int64(c.PhysicalCount())
	quota := ""
	if *w.LeastRU > capacity.ContainerQuotaRU {
		quota = " That is past the " + human.Count(capacity.ContainerQuotaRU) + " RU/s a container may have unless an Azure support ticket raises its quota."
	}
	return fmt.Sprintf("Throughput: provision %s RU/s or more (on %s physical %s at the target%s): from there no partition throttles.%s On the %s physical %s of the settings, the workload needs %s RU/s under this key.",
		human.Count(int64(*w.LeastRU)), human.Count(int64(w.LeastRUPartitions)), human.Plural(int64(w.LeastRUPartitions), "partition", "partitions"), split, quota,
		human.Count(p), human.Plural(p, "partition", "partitions"), human.Count(human.Int(math.Ceil(w.TotalRU))))
}

// writeSnippets writes the section that creates the container of c, the
// recommended key: every snippet, each in a fenced block tagged with its
// language.
func writeSnippets(w io.Writer, r *Report, c Candidate) {
	ss := Snippets(r, c)
	if len(ss) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## Create the container\n\nEach of these creates the container for the recommended key, %s. "+
		"Replace the names in them with yours; the account and the database must exist.\n", mdCode(c.Key.Spec))
	for _, s := range ss {
		fence := mdFence(s.Code)
		fmt.Fprintf(w, "\n### %s\n\n%s%s\n%s\n%s\n", s.Title, fence, s.Lang, strings.TrimSuffix(s.Code, "\n"), fence)
	}
}

// mdFence is a code fence that code cannot close: a run of backticks
// longer than any in it, and at least three (CommonMark).
func mdFence(code string) string {
	longest, run := 0, 0
	for i := 0; i < len(code); i++ {
		if run = run + 1; code[i] != '`' {
			run = 0
		}
		longest = max(longest, run)
	}
	return strings.Repeat("`", max(3, longest+1))
}

// namedLegend explains the mark of a named key in the tables, which list
// the candidates by rank, named or suggested.
const namedLegend = "* a key you named, not one pkcalc suggested"

func anyNamed(r *Report) bool {
	return slices.ContainsFunc(r.Candidates, func(c Candidate) bool { return c.Named })
}

// byRank are the candidates in rank order: the report lists the named
// keys first, in the order given (docs/REPORT.md), but a table read as a
// ranking must not run 3, 6, 1, 2.
func byRank(r *Report) []Candidate {
	out := slices.Clone(r.Candidates)
	slices.SortStableFunc(out, func(a, b Candidate) int { return cmp.Compare(a.Rank, b.Rank) })
	return out
}

func findingCodes(fs []Finding) string {
	var codes []string
	for _, f := range fs {
		if f.Severity != "info" {
			codes = append(codes, f.Code)
		}
	}
	return strings.Join(codes, " ")
}

// projectedTo is what the figures are projected to ("500 GB", "1 document",
// both), or "" for the input as it is.
func projectedTo(s Settings) string {
	var t []string
	if s.TargetGB > 0 {
		t = append(t, gigabytes(s.TargetGB)+" GB")
	}
	if s.TargetDocs > 0 {
		t = append(t, human.Count(s.TargetDocs)+" "+human.Plural(s.TargetDocs, "document", "documents"))
	}
	return strings.Join(t, " and ")
}

// gigabytes writes a target size as people read it: 1,000,000 and 2.5,
// not 1e+06 or 1000000.
func gigabytes(gb float64) string {
	s := strconv.FormatFloat(gb, 'f', -1, 64)
	whole, frac, _ := strings.Cut(s, ".")
	n, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return s
	}
	if frac != "" {
		frac = "." + frac
	}
	return human.Count(n) + frac
}

// HottestText is the busiest physical partition's share of requests,
// beside the even share: "47% on 1 of 4 (even: 25%)". With one partition
// there is none to compare, and all requests on it is no hot spot.
func HottestText(c Candidate) string {
	n := c.PhysicalCount()
	if n <= 1 {
		return "only 1 partition"
	}
	return fmt.Sprintf("%s on 1 of %s (even: %s)", human.Percent(c.HottestShare()), human.Count(int64(n)), human.Percent(1/float64(n)))
}

// HottestShare is the busiest physical partition's share of requests.
func (c Candidate) HottestShare() float64 {
	h := 0.0
	for _, p := range c.PhysicalPartitions {
		h = max(h, p.RequestShare)
	}
	return h
}

// orDash marks an empty cell of a table people read.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// noRecommendation says why the report recommends no key.
func noRecommendation(r *Report) string {
	if r.NoRecommendation != nil {
		return r.NoRecommendation.Message
	}
	return "the report names none."
}

// queryErrors are the lines of the application's queries that could not be
// read, positioned ("line 2, column 34: ...").
func queryErrors(r *Report) []string {
	if r.Operations == nil {
		return nil
	}
	return r.Operations.Errors
}

// opsRead says how many of the workload's operations were read and used.
func opsRead(r *Report) string {
	n := int64(r.Operations.Count)
	if n == 0 {
		return "no operation read: routing is not measured"
	}
	return fmt.Sprintf("%s %s read and used", human.Count(n), human.Plural(n, "operation", "operations"))
}

// Notes are the report's messages beside its candidates, one a line, as
// the text output shows them: problems in the input, values read with a
// change, warnings, queries not read, and why no key is recommended. CSV
// has no place for them, nor the JSON for people: a command writing those
// prints them to standard error.
func Notes(r *Report) []string {
	out := inputLines(r)
	for _, n := range r.Warnings {
		out = append(out, "warning "+n.Code+": "+n.Message)
	}
	for _, e := range queryErrors(r) {
		out = append(out, "query not read: "+e)
	}
	if r.Recommended == "" {
		out = append(out, "no key recommended: "+noRecommendation(r))
	}
	return out
}

// inputLines are the problems in the input and the notes on values kept,
// one a line, each list followed by how many it leaves out.
func inputLines(r *Report) []string {
	var out []string
	for _, p := range r.Input.Errors {
		out = append(out, p.String())
	}
	if n := int64(r.Input.ErrorCount - len(r.Input.Errors)); n > 0 {
		out = append(out, fmt.Sprintf("and %s more %s", human.Count(n), human.Plural(n, "problem", "problems")))
	}
	for _, p := range r.Input.Warnings {
		out = append(out, "note: "+p.String())
	}
	if n := int64(r.Input.Notes - len(r.Input.Warnings)); n > 0 {
		out = append(out, fmt.Sprintf("and %s more %s", human.Count(n), human.Plural(n, "note", "notes")))
	}
	return out
}

// mdCell keeps the report's own words in a table's cell (the score's
// notes, which name no property) from ending the cell or starting a code
// span.
var mdCell = strings.NewReplacer(`\`, `\\`, "`", "\\`", "|", `\|`, "\n", " ").Replace

// mdText escapes the characters that would turn user text into markup,
// so that it shows as it is: a backslash, a backtick and an & as well,
// which would escape the next character, start a code span or name an
// entity.
var mdText = strings.NewReplacer(`\`, `\\`, "`", "\\`", "&", "&amp;", "<", "&lt;", ">", "&gt;", "\n", " ",
	"*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`).Replace

// mdCode writes s as a code span that shows it exactly, backticks
// included (CommonMark): between runs of backticks longer than any in s,
// with a space inside each when s starts or ends with a backtick, or
// starts and ends with a space (one of each would be taken off). A line
// break, which would show as a space or end the paragraph, is a space.
func mdCode(s string) string {
	if s == "" {
		return "` `" // no code span is empty
	}
	s = strings.ReplaceAll(s, "\n", " ")
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if run = run + 1; s[i] != '`' {
			run = 0
		}
		longest = max(longest, run)
	}
	fence, pad := strings.Repeat("`", longest+1), ""
	if s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' && s[len(s)-1] == ' ' && strings.Trim(s, " ") != "" {
		pad = " "
	}
	return fence + pad + s + pad + fence
}

// mdCodeCell is mdCode in a table's cell, where a | would end the cell
// even in a code span; GFM shows \| there as |.
func mdCodeCell(s string) string {
	return strings.ReplaceAll(mdCode(s), "|", `\|`)
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func i64(n int64) string   { return strconv.FormatInt(n, 10) }
func f64(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
