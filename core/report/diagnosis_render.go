package report

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/paths"
)

// WriteDiagnosisText writes the diagnosis for a terminal: what was read,
// the hot partition and why, the partitions, the calibration, the keys'
// storage, the what-if and what to do.
func WriteDiagnosisText(w io.Writer, d *Diagnosis) error {
	finite(reflect.ValueOf(d))
	bw := &errWriter{w: w}
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p("%s\n", clean(DiagnosisHeading(d)))
	for _, line := range exportLines(d) {
		p("  %s\n", clean(line))
	}
	for _, n := range d.Warnings {
		p("  warning %s: %s\n", n.Code, clean(n.Message))
	}
	if d.Window != nil {
		p("\n%s\n", clean(WindowText(d.Window)))
	}
	if d.HotSpot != nil {
		p("\nHot partition %s (%s): %s\n", clean(d.HotSpot.Partition), d.HotSpot.Cause, clean(d.HotSpot.Message))
	}
	if len(d.Partitions) > 0 {
		p("\n")
		tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "PARTITION\tRANGE\tKEY SPACE\tPEAK RU/S\tP99 RU/S\tPEAK/SHARE\tTHROTTLED\tNORMALIZED\tSTORAGE\tKEYS\tTOP KEY")
		for _, pl := range d.Partitions {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", clean(pl.ID)+hotMark(d, pl.ID), clean(RangeText(pl)), KeySpaceText(pl),
				human.Count(human.Int(pl.PeakRuPerSecond)), human.Count(human.Int(pl.P99RuPerSecond)), PercentText(pl.PeakUtilisation),
				SecondsText(pl.ThrottledSeconds), PercentText(pl.NormalizedPeak), KBText(pl.StorageKb), pl.Keys, clean(topKeyText(pl)))
		}
		tw.Flush()
		if d.HottestPartition != "" {
			p("* the hottest partition\n")
		}
		if hot := d.partition(d.HottestPartition); hot != nil && len(hot.TopKeys) > 0 {
			p("\nKeys on partition %s by RU:\n", clean(hot.ID))
			for _, k := range hot.TopKeys {
				p("  %-24s %s RU (%s), busiest second %s RU/s\n", clean(ValueJSON(k.Value)), human.Count(human.Int(k.RU)), human.Percent(k.Share), human.Count(human.Int(k.PeakRuPerSecond)))
			}
			if len(hot.LargestKeys) > 0 {
				p("Largest logged keys on it:\n")
				for _, k := range hot.LargestKeys {
					p("  %-24s %s\n", clean(ValueJSON(k.Value)), KBText(k.SizeKb))
				}
			}
		}
	}
	pl := d.Placement
	p("\nPlacement: %s\n", clean(pl.Message))
	if pl.Suggestion != nil {
		p("  %s: %s\n", pl.Suggestion.Code, clean(pl.Suggestion.Message))
	}
	for _, m := range pl.Mismatches[:min(len(pl.Mismatches), 10)] {
		p("  %s: %s (%d %s, %s RU)\n", clean(ValueJSON(m.Value)), clean(m.Reason), m.Rows, human.Plural(int64(m.Rows), "row", "rows"), human.Count(human.Int(m.RU)))
	}
	if n := pl.MismatchCount - min(len(pl.Mismatches), 10); n > 0 {
		p("  and %s more\n", human.Count(int64(n)))
	}
	if len(d.Keys) > 0 {
		p("\nStorage of the logged keys (a logical partition holds 20 GB; the alert line is 70 %%, 14 GB):\n")
		tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "KEY\tSIZE\tOF 20 GB\tGROWTH/DAY\tDAYS TO 14 GB\tDAYS TO 20 GB\tPARTITION\tLOGGED")
		for _, k := range d.Keys {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", clean(ValueJSON(k.Value)), KBText(k.SizeKb), human.Percent(k.Share), GrowthText(k.GrowthKbPerDay),
				DaysText(k.DaysTo14Gb), DaysText(k.DaysTo20Gb), orDash(clean(k.Partition)), ShortTime(k.At))
		}
		tw.Flush()
	}
	if len(d.WhatIf) > 0 {
		p("\nWhat if: the logged traffic and storage replayed on a new container's layout\n")
		tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "KEY\tPARTITIONS\tHOTTEST\tTHROTTLED\tNEEDS RU/S\tBUSIEST VALUE\tLARGEST VALUE\tCOVERAGE")
		for _, wi := range d.WhatIf {
			name := wi.Key
			if wi.Current {
				name += " (current)"
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", clean(name), wi.Partitions, human.Percent(wi.HottestPartitionShare), ShareText(wi.ThrottledShare),
				RequiredText(wi), clean(ValueJSON(wi.BusiestValue))+" "+human.Count(human.Int(wi.BusiestValueRuPerSecond))+" RU/s", KBText(wi.LargestValueKb), human.Percent(wi.Coverage))
		}
		tw.Flush()
		for _, wi := range d.WhatIf {
			for _, n := range wi.Notes {
				p("  %s: %s\n", clean(wi.Key), clean(n))
			}
		}
	}
	if len(d.Actions) > 0 {
		p("\nWhat to do, in order of cost:\n")
		for i, a := range d.Actions {
			verdict := "helps"
			if !a.Helps {
				verdict = "does not help"
			}
			p("\n%d. %s (%s): %s\n", i+1, a.Code, verdict, clean(a.Message))
			for _, c := range a.Commands {
				for _, line := range strings.Split(strings.TrimRight(c, "\n"), "\n") {
					p("   %s\n", clean(line))
				}
			}
			p("   Rule: %s\n", clean(a.Source))
		}
	}
	return bw.err
}

// WriteDiagnosisMarkdown writes the diagnosis as Markdown for a design
// document or a ticket.
func WriteDiagnosisMarkdown(w io.Writer, d *Diagnosis) error {
	finite(reflect.ValueOf(d))
	// Every character a path escapes is written \uXXXX, in values and
	// messages alike (paths.EscapeJSON): none is markup.
	ew := &escaper{w: w}
	bw := &errWriter{w: ew}
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p("# Partition diagnosis\n\n%s\n", mdText(DiagnosisHeading(d)))
	if lines := exportLines(d); len(lines)+len(d.Warnings) > 0 {
		p("\n")
		for _, line := range lines {
			p("- %s\n", mdText(line))
		}
		for _, n := range d.Warnings {
			p("- **Warning, %s**: %s\n", n.Code, mdText(n.Message))
		}
	}
	if d.Window != nil {
		p("\n%s\n", mdText(WindowText(d.Window)))
	}
	if d.HotSpot != nil {
		p("\n## Hot partition %s: %s\n\n%s\n", mdText(d.HotSpot.Partition), d.HotSpot.Cause, mdText(d.HotSpot.Message))
		if len(d.HotSpot.Leaders) > 0 {
			p("\n| Key | From | To | Minutes | Share |\n|---|---|---|---:|---:|\n")
			for _, l := range d.HotSpot.Leaders {
				p("| %s | %s | %s | %d | %s |\n", mdCodeCell(ValueJSON(l.Value)), ShortTime(l.From), ShortTime(l.To), l.Minutes, human.Percent(l.Share))
			}
		}
	}
	if len(d.Partitions) > 0 {
		p("\n## Physical partitions\n\n| Partition | Range | Key space | Peak RU/s | p99 RU/s | Peak / share | Throttled | Normalized | Storage | Keys | Top key |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
		for _, pl := range d.Partitions {
			id := mdCodeCell(pl.ID)
			if pl.ID == d.HottestPartition {
				id = "**" + id + "**"
			}
			p("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %d | %s |\n", id, mdCodeCell(RangeText(pl)), KeySpaceText(pl),
				human.Count(human.Int(pl.PeakRuPerSecond)), human.Count(human.Int(pl.P99RuPerSecond)), PercentText(pl.PeakUtilisation),
				SecondsText(pl.ThrottledSeconds), PercentText(pl.NormalizedPeak), KBText(pl.StorageKb), pl.Keys, mdTopKey(pl))
		}
		if hot := d.partition(d.HottestPartition); hot != nil && len(hot.TopKeys) > 0 {
			p("\nKeys on partition %s by RU:\n\n| Key | RU | Share | Busiest second (RU/s) |\n|---|---:|---:|---:|\n", mdCode(hot.ID))
			for _, k := range hot.TopKeys {
				p("| %s | %s | %s | %s |\n", mdCodeCell(ValueJSON(k.Value)), human.Count(human.Int(k.RU)), human.Percent(k.Share), human.Count(human.Int(k.PeakRuPerSecond)))
			}
		}
	}
	pl := d.Placement
	p("\n## Placement\n\n%s\n", mdText(pl.Message))
	if pl.Suggestion != nil {
		p("\n**%s**: %s\n", pl.Suggestion.Code, mdText(pl.Suggestion.Message))
	}
	if len(pl.Mismatches) > 0 {
		p("\n| Key | Logged range | pkcalc's range | Rows | RU | Why |\n|---|---|---|---:|---:|---|\n")
		for _, m := range pl.Mismatches {
			p("| %s | %s | %s | %d | %s | %s |\n", mdCodeCell(ValueJSON(m.Value)), mdCodeCell(m.LoggedRange), mdCodeCell(orDash(m.PlacedRange)), m.Rows,
				human.Count(human.Int(m.RU)), mdCell(mdText(m.Reason)))
		}
	}
	if len(d.Keys) > 0 {
		p("\n## Storage\n\nEach logged key against the 20 GB a logical partition holds and the 70 %% alert line (14 GB), at its logged growth.\n\n")
		p("| Key | Size | Of 20 GB | Growth a day | Days to 14 GB | Days to 20 GB | Partition | Logged |\n|---|---:|---:|---:|---:|---:|---|---|\n")
		for _, k := range d.Keys {
			p("| %s | %s | %s | %s | %s | %s | %s | %s |\n", mdCodeCell(ValueJSON(k.Value)), KBText(k.SizeKb), human.Percent(k.Share), GrowthText(k.GrowthKbPerDay),
				DaysText(k.DaysTo14Gb), DaysText(k.DaysTo20Gb), mdCodeCell(orDash(k.Partition)), ShortTime(k.At))
		}
	}
	if len(d.WhatIf) > 0 {
		p("\n## What if\n\nThe logged traffic and storage replayed on the layout a new container with each key starts with.\n\n")
		p("| Key | Partitions | Hottest partition | Throttled | Needs RU/s | Busiest value | Largest value | Coverage |\n|---|---:|---:|---:|---:|---|---:|---:|\n")
		for _, wi := range d.WhatIf {
			name := mdCodeCell(wi.Key)
			if wi.Current {
				name += " (current)"
			}
			p("| %s | %d | %s | %s | %s | %s %s RU/s | %s | %s |\n", name, wi.Partitions, human.Percent(wi.HottestPartitionShare), ShareText(wi.ThrottledShare),
				RequiredText(wi), mdCodeCell(ValueJSON(wi.BusiestValue)), human.Count(human.Int(wi.BusiestValueRuPerSecond)), KBText(wi.LargestValueKb), human.Percent(wi.Coverage))
		}
		for _, wi := range d.WhatIf {
			for _, n := range wi.Notes {
				p("\n- %s: %s", mdCode(wi.Key), mdText(n))
			}
		}
		p("\n")
	}
	if len(d.Actions) > 0 {
		p("\n## What to do, in order of cost\n")
		for i, a := range d.Actions {
			verdict := "helps"
			if !a.Helps {
				verdict = "does not help"
			}
			p("\n%d. **%s** (%s): %s\n", i+1, a.Code, verdict, mdText(a.Message))
			for _, c := range a.Commands {
				fence := "```"
				for strings.Contains(c, fence) {
					fence += "`"
				}
				p("\n   %sbash\n", fence)
				for _, line := range strings.Split(strings.TrimRight(c, "\n"), "\n") {
					p("   %s\n", line)
				}
				p("   %s\n", fence)
			}
			p("\n   Rule: %s\n", mdText(a.Source))
		}
	}
	if bw.err != nil {
		return bw.err
	}
	return ew.flush()
}

func (d *Diagnosis) partition(id string) *PartitionLoad {
	if id == "" {
		return nil
	}
	for i := range d.Partitions {
		if d.Partitions[i].ID == id {
			return &d.Partitions[i]
		}
	}
	return nil
}

// DiagnosisHeading says what was diagnosed, in one line.
func DiagnosisHeading(d *Diagnosis) string {
	s := d.Settings
	key := "no current key"
	if s.CurrentKey != "" {
		key = "key " + s.CurrentKey
	}
	ru := "throughput not given"
	switch {
	case s.RU > 0 && s.Autoscale:
		ru = fmt.Sprintf("autoscale up to %s RU/s", human.Count(int64(s.RU)))
	case s.RU > 0:
		ru = fmt.Sprintf("%s RU/s manual", human.Count(int64(s.RU)))
	}
	n := 0
	for _, p := range d.Partitions {
		if p.Listed {
			n++
		}
	}
	parts := ""
	if n > 0 {
		parts = fmt.Sprintf(", %d physical %s", n, human.Plural(int64(n), "partition", "partitions"))
	}
	share := ""
	if s.ShareRU > 0 {
		share = fmt.Sprintf(", %s RU/s each", human.Count(human.Int(s.ShareRU)))
	}
	return fmt.Sprintf("Diagnosis of a container with %s (hash version %d), %s%s%s", key, s.HashVersion, ru, parts, share)
}

// exportLines say what each export held and what could not be read.
func exportLines(d *Diagnosis) []string {
	var out []string
	for _, e := range d.Inputs {
		line := fmt.Sprintf("%s %s: %s %s", ExportTitle(e.Kind), e.Name, human.Count(int64(e.Records)), recordWord(e.Kind, e.Records))
		if e.ErrorCount > 0 {
			line += fmt.Sprintf(", %s %s not used", human.Count(int64(e.ErrorCount)), human.Plural(int64(e.ErrorCount), "problem", "problems"))
		}
		out = append(out, line)
		for _, p := range e.Errors {
			out = append(out, "  "+e.Name+": "+p.String())
		}
		if n := e.ErrorCount - len(e.Errors); n > 0 {
			out = append(out, fmt.Sprintf("  and %s more", human.Count(int64(n))))
		}
	}
	return out
}

// ExportTitle names an export's kind for people: "RU log".
func ExportTitle(kind string) string {
	switch kind {
	case ExportRanges:
		return "ranges"
	case ExportRULog:
		return "RU log"
	case ExportStorage:
		return "storage log"
	case ExportMetrics:
		return "metrics"
	}
	return "documents"
}

func recordWord(kind string, n int) string {
	switch kind {
	case ExportRanges:
		return human.Plural(int64(n), "range", "ranges")
	case ExportMetrics:
		return human.Plural(int64(n), "point", "points")
	case ExportDocuments:
		return human.Plural(int64(n), "document", "documents")
	}
	return human.Plural(int64(n), "row", "rows")
}

// WindowText says what the request-unit log covers, in one line.
func WindowText(w *Window) string {
	grain := "per second"
	switch w.GrainSeconds {
	case 1:
	case 60:
		grain = "in bins of a minute"
	case 3600:
		grain = "in bins of an hour"
	default:
		grain = fmt.Sprintf("in bins of %d s", w.GrainSeconds)
	}
	regions := ""
	if len(w.Regions) > 0 && !(len(w.Regions) == 1 && w.Regions[0] == "") {
		regions = ", " + strings.Join(w.Regions, ", ")
	}
	return fmt.Sprintf("RU log from %s to %s UTC (%s, %s)%s", ShortTime(w.From), ShortTime(w.To), spanText(w.Seconds), grain, regions)
}

// spanText writes a span of seconds as people read it: 600 s, 4.0 hours,
// 7.0 days.
func spanText(s int64) string {
	switch {
	case s >= 2*86400:
		return strconv.FormatFloat(float64(s)/86400, 'f', 1, 64) + " days"
	case s >= 2*3600:
		return strconv.FormatFloat(float64(s)/3600, 'f', 1, 64) + " hours"
	}
	return human.Count(s) + " s"
}

func hotMark(d *Diagnosis, id string) string {
	if id == d.HottestPartition {
		return " *"
	}
	return ""
}

// RangeText shortens a range's bounds to their first 8 digits.
func RangeText(p PartitionLoad) string {
	if !p.Listed {
		return "not listed"
	}
	short := func(s string) string {
		switch {
		case s == "":
			return `""`
		case len(s) > 8:
			return s[:8] + "…"
		}
		return s
	}
	return short(p.MinInclusive) + "–" + short(p.MaxExclusive)
}

// KeySpaceText is a partition's share of the key space, "–" when not listed.
func KeySpaceText(p PartitionLoad) string {
	if p.KeySpaceShare == 0 {
		return "–"
	}
	return human.Percent(p.KeySpaceShare)
}

// PercentText writes a fraction that may be absent as whole percent
// (143%, a peak over its share), "–" when absent.
func PercentText(f *float64) string {
	if f == nil {
		return "–"
	}
	return strconv.FormatFloat(100**f, 'f', 0, 64) + "%"
}

// ShareText writes a share that may be absent, "–" when it is.
func ShareText(f *float64) string {
	if f == nil {
		return "–"
	}
	return human.Percent(*f)
}

// SecondsText writes seconds that may be absent: 60 s, or "–".
func SecondsText(n *int64) string {
	if n == nil {
		return "–"
	}
	return human.Count(*n) + " s"
}

// KBText writes a size in KB as bytes for people: 14.9 GB.
func KBText(kb float64) string { return human.Bytes(human.Int(kb * 1024)) }

// GrowthText writes a growth per day that may be absent.
func GrowthText(f *float64) string {
	if f == nil {
		return "–"
	}
	if *f < 0 {
		return "-" + KBText(-*f)
	}
	return KBText(*f)
}

// DaysText writes days that may be absent: 33.7, or "–".
func DaysText(f *float64) string {
	if f == nil {
		return "–"
	}
	return strconv.FormatFloat(*f, 'f', -1, 64)
}

// RequiredText is the RU/s a what-if needs, with its partitions.
func RequiredText(w WhatIf) string {
	if w.RequiredRu == nil {
		return "none serves"
	}
	return fmt.Sprintf("%s (%d %s)", human.Count(int64(*w.RequiredRu)), w.RequiredPartitions, human.Plural(int64(w.RequiredPartitions), "partition", "partitions"))
}

func topKeyText(p PartitionLoad) string {
	if len(p.TopKeys) == 0 {
		return "–"
	}
	return ValueJSON(p.TopKeys[0].Value) + " " + human.Percent(p.TopKeys[0].Share)
}

func mdTopKey(p PartitionLoad) string {
	if len(p.TopKeys) == 0 {
		return "–"
	}
	return mdCodeCell(ValueJSON(p.TopKeys[0].Value)) + " " + human.Percent(p.TopKeys[0].Share)
}

// ValueJSON is a key value as JSON text: ["contoso"].
func ValueJSON(v []any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// clean writes the characters a path escapes (controls, bidirectional
// marks) as \uXXXX, so that a logged value cannot drive the terminal or
// reorder the line it shows in.
func clean(s string) string { return paths.EscapeJSON(s) }

// ShortTime writes an RFC 3339 time to the minute, in UTC.
func ShortTime(t string) string {
	if at, err := time.Parse(time.RFC3339, t); err == nil {
		return at.UTC().Format("2006-01-02 15:04")
	}
	return t
}
