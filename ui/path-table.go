package ui

import (
	"fmt"
	"strings"

	"github.com/pkcalc/pkcalc/core/paths"
)

// PathTable lists the property paths of a Summary.
type PathTable struct {
	Summary *paths.Summary
}

// RowClass marks rows that cannot be keys, so they read as secondary.
func (c *PathTable) RowClass(p paths.Path) string {
	if p.Usable {
		return "usable"
	}
	return "unusable"
}

// Types is the type mix, e.g. "string 98%, null 2%".
func (c *PathTable) Types(p paths.Path) string {
	mix := p.TypeMix()
	total := 0
	for _, k := range mix {
		total += k.Count
	}
	var parts []string
	for _, k := range mix {
		if len(mix) == 1 {
			parts = append(parts, k.Kind.String())
			break
		}
		parts = append(parts, fmt.Sprintf("%s %s", k.Kind, Percent(k.Count, total)))
	}
	return strings.Join(parts, ", ")
}

// Presence is how many documents have the path.
func (c *PathTable) Presence(p paths.Path) string {
	return fmt.Sprintf("%s (%s)", Count(p.Documents), Percent(p.Documents, c.Summary.Documents))
}

// Distinct is the distinct value count, marked when it is a lower bound.
func (c *PathTable) Distinct(p paths.Path) string {
	if p.Distinct == 0 {
		return "–"
	}
	if p.DistinctCapped {
		return "over " + Count(p.Distinct)
	}
	return Count(p.Distinct)
}

// Verdict says whether the path can be a partition key, and why not.
func (c *PathTable) Verdict(p paths.Path) string {
	if !p.Usable {
		return "No: " + p.Reason
	}
	if missing := c.Summary.Documents - p.Documents; missing > 0 {
		return fmt.Sprintf("Possible; missing in %s %s, which would share one partition", Count(missing), plural(missing, "document", "documents"))
	}
	return "Possible"
}
