package plan

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/human"
)

// WriteJSON writes p as indented JSON (docs/plan.schema.json).
func WriteJSON(w io.Writer, p Plan) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(p)
}

// WriteText writes p for a terminal: the summary, the layout it starts
// from, each step with its rule, commands and layout after, the figures
// and the notes.
func WriteText(w io.Writer, p Plan) error {
	var b strings.Builder
	fmt.Fprintf(&b, "pkcalc plan %s: %s\n", p.Operation, p.Summary)
	if len(p.Start.Partitions) > 0 {
		b.WriteString("\nStart:\n")
		layoutText(&b, p.Start)
	}
	for i, s := range p.Steps {
		fmt.Fprintf(&b, "\nStep %d: %s", i+1, s.Action)
		if s.Duration != "" {
			fmt.Fprintf(&b, " (%s)", s.Duration)
		}
		fmt.Fprintf(&b, "\n  rule %s: %s\n  source: %s\n", s.Rule.Name, s.Rule.Text, s.Rule.Source)
		for _, c := range s.Commands {
			b.WriteString(indent(strings.TrimRight(c, "\n"), "  $ ", "    "))
		}
		if s.After != nil {
			b.WriteString("  After:\n")
			layoutText(&b, *s.After)
		}
	}
	if len(p.Figures) > 0 {
		b.WriteString("\nFigures:\n")
		for _, f := range p.Figures {
			fmt.Fprintf(&b, "  %s: %s %s\n", f.Name, number(f.Value), f.Unit)
		}
	}
	if len(p.Notes) > 0 {
		b.WriteString("\nNotes:\n")
		for _, n := range p.Notes {
			b.WriteString(indent(strings.TrimRight(n, "\n"), "  - ", "    "))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMarkdown writes p as Markdown, each layout a table.
func WriteMarkdown(w io.Writer, p Plan) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# pkcalc plan %s\n\n%s\n", p.Operation, p.Summary)
	if len(p.Start.Partitions) > 0 {
		b.WriteString("\n## Start\n\n")
		layoutMarkdown(&b, p.Start)
	}
	for i, s := range p.Steps {
		fmt.Fprintf(&b, "\n## Step %d: %s\n\n", i+1, s.Action)
		if s.Duration != "" {
			fmt.Fprintf(&b, "Duration: %s.\n\n", s.Duration)
		}
		fmt.Fprintf(&b, "Rule `%s`: %s ([source](%s)).\n", s.Rule.Name, s.Rule.Text, s.Rule.Source)
		for _, c := range s.Commands {
			fmt.Fprintf(&b, "\n```sh\n%s\n```\n", strings.TrimRight(c, "\n"))
		}
		if s.After != nil {
			b.WriteString("\nAfter:\n\n")
			layoutMarkdown(&b, *s.After)
		}
	}
	if len(p.Figures) > 0 {
		b.WriteString("\n## Figures\n\n| Figure | Value |\n| --- | ---: |\n")
		for _, f := range p.Figures {
			fmt.Fprintf(&b, "| %s | %s %s |\n", f.Name, number(f.Value), f.Unit)
		}
	}
	if len(p.Notes) > 0 {
		b.WriteString("\n## Notes\n\n")
		for _, n := range p.Notes {
			fmt.Fprintf(&b, "- %s\n", strings.ReplaceAll(strings.TrimRight(n, "\n"), "\n", " "))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// maxRows is the most partitions a text or Markdown layout lists; the
// rest are summed in one line. JSON lists all.
const maxRows = 64

func layoutText(b *strings.Builder, l Layout) {
	mode := "manual"
	if l.Autoscale {
		mode = "autoscale maximum"
	}
	fmt.Fprintf(b, "  %s RU/s (%s), %s, %s\n", count(l.RU), mode, partitions(len(l.Partitions)), gbText(l.StorageGB))
	if ranged(l) {
		fmt.Fprintf(b, "  %s\n", fullness(l))
		fmt.Fprintf(b, "    %-10s %10s %12s %12s %8s  %s\n", "partition", "key space", "RU/s", "storage", "writes", "range")
		for _, p := range l.Partitions {
			fmt.Fprintf(b, "    %-10s %10s %12s %12s %8s  %s\n", p.ID, pct(p.KeySpace), countf(p.RU), gbText(p.StorageGB), pct(*p.Writes), rangeText(p))
		}
		return
	}
	fmt.Fprintf(b, "    %-10s %10s %12s %12s\n", "partition", "key space", "RU/s", "storage")
	rows(l, func(id string, ks, ru, gb float64) {
		fmt.Fprintf(b, "    %-10s %10s %12s %12s\n", id, pct(ks), countf(ru), gbText(gb))
	})
}

func layoutMarkdown(b *strings.Builder, l Layout) {
	mode := "manual"
	if l.Autoscale {
		mode = "autoscale maximum"
	}
	if ranged(l) {
		fmt.Fprintf(b, "%s RU/s (%s), %s, %s; %s.\n\n| Partition | Key space | RU/s | Storage | Writes | Range |\n| --- | ---: | ---: | ---: | ---: | --- |\n", count(l.RU), mode, partitions(len(l.Partitions)), gbText(l.StorageGB), fullness(l))
		for _, p := range l.Partitions {
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | `%s` |\n", p.ID, pct(p.KeySpace), countf(p.RU), gbText(p.StorageGB), pct(*p.Writes), rangeText(p))
		}
		return
	}
	fmt.Fprintf(b, "%s RU/s (%s), %s, %s.\n\n| Partition | Key space | RU/s | Storage |\n| --- | ---: | ---: | ---: |\n", count(l.RU), mode, partitions(len(l.Partitions)), gbText(l.StorageGB))
	rows(l, func(id string, ks, ru, gb float64) {
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", strings.ReplaceAll(id, "|", "\\|"), pct(ks), countf(ru), gbText(gb))
	})
}

// rows calls row for each partition, past maxRows for the rest together.
func rows(l Layout, row func(id string, ks, ru, gb float64)) {
	var ks, ru, gb float64
	for i, p := range l.Partitions {
		if i < maxRows {
			row(p.ID, p.KeySpace, p.RU, p.StorageGB)
			continue
		}
		ks, ru, gb = ks+p.KeySpace, ru+p.RU, gb+p.StorageGB
	}
	if n := len(l.Partitions) - maxRows; n > 0 {
		row(fmt.Sprintf("%d more", n), ks, ru, gb)
	}
}

// ranged reports whether l's partitions carry their ranges and writes, as
// a plan on documents gives them; such a layout lists every partition,
// as there are at most MaxPartitions and each range matters.
func ranged(l Layout) bool {
	return len(l.Partitions) > 0 && l.Partitions[0].Writes != nil
}

// fullness is the largest partition against 50 GB and the empty ones.
func fullness(l Layout) string {
	largest := 0.0
	var empty []string
	for _, p := range l.Partitions {
		largest = max(largest, p.StorageGB)
		if p.StorageGB == 0 {
			empty = append(empty, p.ID)
		}
	}
	s := fmt.Sprintf("largest %s of %d GB", gbText(largest), capacity.PhysicalPartitionMaxBytes>>30)
	switch {
	case len(empty) == 0:
		s += ", none empty"
	case len(empty) == len(l.Partitions):
		s += ", all empty"
	default:
		s += fmt.Sprintf(", %d empty (%s)", len(empty), strings.Join(empty, ", "))
	}
	return s
}

// rangeText is a partition's EPK range, each bound as its levels' first 8
// digits apart by "/" (a range within one first-level value differs only
// past its first 32 digits), "" the start and FF the end.
func rangeText(p Partition) string {
	return boundText(p.MinInclusive) + " – " + boundText(p.MaxExclusive)
}

func boundText(s string) string {
	if s == "" {
		return `""`
	}
	if s == "FF" {
		return s
	}
	var levels []string
	for len(s) > 0 {
		n := min(len(s), 32)
		levels = append(levels, s[:n])
		s = s[n:]
	}
	for len(levels) > 1 && strings.Trim(levels[len(levels)-1], "0") == "" {
		levels = levels[:len(levels)-1]
	}
	for i, l := range levels {
		levels[i] = l[:min(len(l), 8)]
	}
	return strings.Join(levels, "/")
}

func partitions(n int) string {
	return count(n) + " " + human.Plural(int64(n), "partition", "partitions")
}

func pct(f float64) string { return fmt.Sprintf("%.2f%%", 100*f) }

// number writes a figure: whole numbers with separators, others with one
// decimal.
func number(f float64) string {
	if f == float64(int64(f)) && f < 1e15 && f > -1e15 {
		return countf(f)
	}
	return fmt.Sprintf("%.1f", f)
}

// indent writes s with first before its first line and rest before the
// others.
func indent(s, first, rest string) string {
	lines := strings.Split(s, "\n")
	for i := range lines {
		if i == 0 {
			lines[i] = first + lines[i]
		} else {
			lines[i] = rest + lines[i]
		}
	}
	return strings.Join(lines, "\n") + "\n"
}
