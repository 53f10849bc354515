package ui

import (
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
