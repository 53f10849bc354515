package ui

import (
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/report"
)

// TestRoutingText: a targeted operation names the key values or prefixes
// it reads, not as many partitions: two values may share a partition, and
// one tenant's prefix may span several.
func TestRoutingText(t *testing.T) {
	for _, tt := range []struct {
		v    report.Verdict
		want string
	}{
		{report.Verdict{Routing: "single", Values: 1}, "one partition"},
		{report.Verdict{Routing: "targeted", Values: 3}, "the partitions of 3 values"},
		{report.Verdict{Routing: "targeted", Values: 1, Prefix: 1}, "the partitions of 1 prefix"},
		{report.Verdict{Routing: "targeted", Values: 2, Prefix: 2}, "the partitions of 2 prefixes"},
		{report.Verdict{Routing: "targeted"}, "a few partitions"},
		{report.Verdict{Routing: "fanOut"}, "every partition"},
	} {
		if got := RoutingText(tt.v); got != tt.want {
			t.Errorf("RoutingText(%+v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

// TestChargeText: a query's items read as an upper bound when conditions
// beside its equality filters may leave fewer.
func TestChargeText(t *testing.T) {
	for _, tt := range []struct {
		v    report.Verdict
		want string
	}{
		{report.Verdict{}, "–"},
		{report.Verdict{RU: 1, Partitions: 1}, "1 RU, 1 partition"},
		{report.Verdict{RU: 7.25, Partitions: 3, Items: 12.4}, "7.25 RU, 3 partitions, 12 items"},
		{report.Verdict{RU: 7.25, Partitions: 3, Items: 12.6, ItemsAtMost: true}, "7.25 RU, 3 partitions, at most 13 items"},
		{report.Verdict{RU: 2.9, Partitions: 1, Items: 1}, "2.9 RU, 1 partition, 1 item"},
	} {
		if got := ChargeText(tt.v); got != tt.want {
			t.Errorf("ChargeText(%+v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

// TestShownEscaped: a value or a query with a bidirectional override or a
// C1 control shows on the page as the report writes it, \uXXXX: HTML
// escaping keeps it from being markup, not "a\u202egnp.exe" from showing
// as "aexe.png". Other text is shown as it is.
func TestShownEscaped(t *testing.T) {
	if got, want := ValuesText([]any{"a\u202egnp.exe", "v\u009b2J", "größe <b>", 1.5}), `"a\u202egnp.exe", "v\u009b2J", "größe <b>", 1.5`; got != want {
		t.Errorf("ValuesText = %s, want %s", got, want)
	}
	v := report.Verdict{Query: "SELECT * FROM c WHERE c.name = '\u2066x\u2069'"}
	if got, want := OpText(v), `SELECT * FROM c WHERE c.name = '\u2066x\u2069'`; got != want {
		t.Errorf("OpText = %s, want %s", got, want)
	}
}

// TestBusiestPartitions: when a report lists only the busiest physical
// partitions, the charts say so and label them by their ids, and the
// count of partitions is of them all.
func TestBusiestPartitions(t *testing.T) {
	x := report.Candidate{
		PhysicalPartitions:        []report.Physical{{ID: 3, RequestShare: 0.5, ProjectedBytes: 10}, {ID: 70000, RequestShare: 0.25, ProjectedBytes: 20}},
		PhysicalPartitionsOmitted: &report.OmittedPartitions{Partitions: 65534, RequestShare: 0.25},
		WriteSpread: &report.WriteSpread{Unit: "day", Partitions: []int{3, 70000},
			Buckets: []report.TimeBucket{{Start: "2025-01-01T00:00:00Z", Writes: 10, Partitions: []float64{6, 3}, OtherPartitions: 1}}},
	}
	if got := HottestText(x); got != "50% on 1 of 65,536 (even: <0.1%)" {
		t.Errorf("HottestText = %q", got)
	}
	for name, svg := range map[string]string{"data": string(DataChart(x)), "load": string(LoadChart(x)), "heatmap": string(HeatmapChart(x))} {
		if !strings.Contains(svg, "the 2 busiest of 65,536") {
			t.Errorf("the %s chart does not say it shows the busiest: %.300s", name, svg)
		}
		if !strings.Contains(svg, "70000") {
			t.Errorf("the %s chart does not label partition 70000: %.300s", name, svg)
		}
	}
}
