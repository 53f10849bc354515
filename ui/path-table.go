package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/report"
)

// PathTable lists the property paths of a report.
type PathTable struct {
	Report *report.Report
}

// RowClass marks rows that cannot be keys, so they read as secondary.
func (c *PathTable) RowClass(p report.Path) string {
	if p.Usable {
		return "usable"
	}
	return "unusable"
}

// Types is the type mix, e.g. "string 98%, null 2%".
func (c *PathTable) Types(p report.Path) string {
	type kc struct {
		kind  string
		count int
	}
	var mix []kc
	total := 0
	for k, n := range p.Types {
		mix = append(mix, kc{k, n})
		total += n
	}
	slices.SortFunc(mix, func(a, b kc) int {
		if a.count != b.count {
			return b.count - a.count
		}
		return cmp.Compare(a.kind, b.kind)
	})
	if len(mix) == 1 {
		return mix[0].kind
	}
	var parts []string
	for _, k := range mix {
		parts = append(parts, fmt.Sprintf("%s %s", k.kind, human.Percent(float64(k.count)/float64(total))))
	}
	return strings.Join(parts, ", ")
}

// Presence is how many documents have the path.
func (c *PathTable) Presence(p report.Path) string {
	return fmt.Sprintf("%s (%s)", human.Count(int64(p.Documents)), human.Percent(float64(p.Documents)/float64(max(1, c.Report.PathsDocuments))))
}

// Scope says which documents the table describes when it is not all of
// them; "" when it is.
func (c *PathTable) Scope() string {
	if c.Report.PathsDocuments >= c.Report.Documents {
		return ""
	}
	return fmt.Sprintf("From the first %s of %s documents, which candidates are chosen from; the figures of every candidate cover all %s.",
		human.Count(c.Report.PathsDocuments), human.Count(c.Report.Documents), human.Count(c.Report.Documents))
}

// Distinct is the distinct value count, marked when it is a lower bound.
func (c *PathTable) Distinct(p report.Path) string {
	if p.Distinct == 0 {
		return "–"
	}
	if p.Capped {
		return "over " + human.Count(int64(p.Distinct))
	}
	return human.Count(int64(p.Distinct))
}

// Verdict says whether the path can be a partition key, and why not. It
// counts the documents lacking the path among those the table describes
// (Report.PathsDocuments), as Presence does: a path in all of the window
// is missing in none.
func (c *PathTable) Verdict(p report.Path) string {
	if !p.Usable {
		return "No: " + p.Reason
	}
	if missing := c.Report.PathsDocuments - int64(p.Documents); missing > 0 {
		return fmt.Sprintf("Possible; missing in %s %s, which would share one partition", human.Count(missing), human.Plural(missing, "document", "documents"))
	}
	return "Possible"
}
