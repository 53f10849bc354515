package ui

import (
	"fmt"
	"strings"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/plan"
)

// PlanSteps shows plans of package plan as steps: each with its rule and
// source, its commands with Copy, and the layout it leaves.
type PlanSteps struct {
	Root  *Root
	Plans []plan.Plan
	ID    string // prefix of the element ids: "plan" in the analysis, "diag-plan" in the diagnosis
}

// foldPartitions is the most partitions a layout shows unfolded: past
// it the table folds behind its caption, so that the page stays short.
const foldPartitions = 8

// Folds reports whether a layout folds.
func Folds(l plan.Layout) bool { return len(l.Partitions) > foldPartitions }

// PlanTitle names a plan's operation.
func PlanTitle(p plan.Plan) string {
	switch p.Operation {
	case "ingest":
		return "Create and load"
	case "scale":
		return "Scale to the advised RU/s"
	case "redistribute":
		return "Redistribute the throughput"
	case "merge":
		return "Merge the partitions"
	}
	return sentence(p.Operation)
}

// PlanID and CopyID are the element ids of a plan and a step's Copy.
func (c *PlanSteps) PlanID(i int) string    { return fmt.Sprintf("%s-%d", c.ID, i) }
func (c *PlanSteps) CopyID(i, j int) string { return fmt.Sprintf("%s-%d-copy-%d", c.ID, i, j) }

// StepCommands are a step's commands, one after another.
func StepCommands(s plan.Step) string {
	var out []string
	for _, cmd := range s.Commands {
		out = append(out, strings.TrimRight(cmd, "\n"))
	}
	return strings.Join(out, "\n")
}

// Copy puts a step's commands on the clipboard.
func (c *PlanSteps) Copy(s plan.Step) {
	if c.Root == nil {
		return
	}
	if c.Root.Page != nil {
		c.Root.Page.Copy(StepCommands(s))
	}
	c.Root.Notice = "The commands of " + s.Action + " are on the clipboard."
}

// LayoutCaption says what a layout is: its RU/s and partitions.
func LayoutCaption(l plan.Layout) string {
	mode := "manual"
	if l.Autoscale {
		mode = "autoscale maximum"
	}
	n := int64(len(l.Partitions))
	return fmt.Sprintf("After: %s RU/s (%s), %s %s, %.1f GB", human.Count(int64(l.RU)), mode, human.Count(n), human.Plural(n, "partition", "partitions"), l.StorageGB)
}

// LayoutRows are a layout's partitions: id, key space, RU/s, storage.
func LayoutRows(l plan.Layout) [][4]string {
	var out [][4]string
	for _, p := range l.Partitions {
		out = append(out, [4]string{p.ID, fmt.Sprintf("%.2f%%", 100*p.KeySpace), human.Count(int64(p.RU + 0.5)), fmt.Sprintf("%.1f GB", p.StorageGB)})
	}
	return out
}

// Plans are the plans core/plan gives for the shown candidate, from the
// report's figures: made once for each report and key, as Charts are
// drawn, not on every render (the markup asks for them twice, and the
// page renders again for every progress report of a later analysis).
func (c *Results) Plans() []plan.Plan {
	x := c.Shown()
	if c.plansFor != c.Root.Report || c.plansSpec != x.Key.Spec {
		c.plans = plan.ForCandidate(c.Root.Report, x)
		c.plansFor, c.plansSpec = c.Root.Report, x.Key.Spec
	}
	return c.plans
}

// Plans are the plans core/plan gives for the container diagnosed, on
// the ranges it was given, made once for each diagnosis.
func (c *DiagnosisView) Plans() []plan.Plan {
	if c.plansFor != c.D() {
		c.plans, c.plansFor = plan.ForDiagnosis(c.D()), c.D()
	}
	return c.plans
}
