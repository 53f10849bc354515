package testenv

import "testing"

func TestRequired(t *testing.T) {
	for _, tt := range []struct {
		tools, ci string
		want      bool
	}{
		{"", "", false},
		{"1", "", true},
		{"0", "", false},
		{"", "true", true},
		{"", "1", true},
		{"", "false", false},
		{"", "yes", false},
	} {
		t.Setenv("PKCALC_REQUIRE_TOOLS", tt.tools)
		t.Setenv("CI", tt.ci)
		if got := Required(); got != tt.want {
			t.Errorf("PKCALC_REQUIRE_TOOLS=%q CI=%q: Required() = %v, want %v", tt.tools, tt.ci, got, tt.want)
		}
	}
}
