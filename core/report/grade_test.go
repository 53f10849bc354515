package report

import (
	"os"
	"strings"
	"testing"
)

func TestGradeOf(t *testing.T) {
	for score, want := range map[int]string{100: "A", 85: "A", 84: "B", 70: "B", 69: "C", 55: "C", 54: "D", 40: "D", 39: "F", 0: "F", -1: "F"} {
		if g := GradeOf(score); g != want {
			t.Errorf("GradeOf(%d) = %s, want %s", score, g, want)
		}
	}
}

func TestGradeRange(t *testing.T) {
	var got []string
	for _, g := range Grades {
		got = append(got, g.Letter+" "+g.Range())
	}
	if s := strings.Join(got, ", "); s != "A 85 to 100, B 70 to 84, C 55 to 69, D 40 to 54, F below 40" {
		t.Errorf("ranges: %s", s)
	}
}

// TestGradesDocumented: the report's description and its schema state the
// bands the code gives.
func TestGradesDocumented(t *testing.T) {
	scale := GradeScale()
	if scale != "A from 85, B from 70, C from 55, D from 40, else F" {
		t.Errorf("GradeScale = %q", scale)
	}
	for _, file := range []string{"../../docs/REPORT.md", "../../docs/report.schema.json"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), scale+".") {
			t.Errorf("%s does not say %q", file, scale)
		}
	}
}
