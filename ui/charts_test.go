package ui

import (
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/analysis"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/core/sample"
)

// TestChartsRedrawn: the charts drawn once for a report are drawn again
// for the next report, though its key is the same, and for another key.
func TestChartsRedrawn(t *testing.T) {
	analyse := func(n int) *report.Report {
		rep, err := analysis.Analyze(strings.NewReader(sample.OrdersText(n)), analysis.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	root := &Root{Report: analyse(300)}
	root.Selected = root.Report.Recommended
	c := &Results{Root: root}
	first := c.Charts()
	if c.Charts() != first {
		t.Fatal("the same report and key drew other charts")
	}
	root.Report = analyse(2000)
	root.Selected = root.Report.Recommended
	if c.Charts().Data == first.Data || c.Charts().Data != DataChart(c.Shown()) {
		t.Error("the next report's charts are the first's")
	}
	root.Selected = root.Report.Candidates[len(root.Report.Candidates)-1].Key.Spec
	if c.Charts().Largest != LargestChart(c.Shown()) {
		t.Error("another key's charts are the first key's")
	}
}
