package report

import (
	"fmt"
	"strings"
)

// Grade is a band of scores and what a key in it means for the one who
// chooses: the grade a candidate gets, said where the report shows it.
type Grade struct {
	Letter  string
	Min     int    // the least score of the band
	Meaning string // what a key of the grade is, in a clause
	Short   string // the same in a few words, for a legend
}

// Grades are the bands, best first; a score takes the first whose Min it
// reaches. A meaning speaks of the score, not of the findings: a key of any
// grade may have some, and they say what to check.
var Grades = []Grade{
	{"A", 85, "a strong key, fit for the data and the target as measured", "strong"},
	{"B", 70, "a good key with a weak side to check", "good, with a weak side"},
	{"C", 55, "a workable key with a weakness that will cost throughput or scale", "workable, at a cost"},
	{"D", 40, "a poor key, likely to run hot or reach a limit as the data grows", "poor"},
	{"F", 0, "a key not fit to choose", "unfit"},
}

// GradeOf is the grade of a score out of 100.
func GradeOf(score int) string {
	for _, g := range Grades {
		if score >= g.Min {
			return g.Letter
		}
	}
	return Grades[len(Grades)-1].Letter
}

// GradeBand is the grade of a letter; false for none.
func GradeBand(letter string) (Grade, bool) {
	for _, g := range Grades {
		if g.Letter == letter {
			return g, true
		}
	}
	return Grade{}, false
}

// Range is the band's scores as people read them: "85 to 100", "below 40".
func (g Grade) Range() string {
	top := 100
	for i, h := range Grades {
		if h.Letter == g.Letter && i > 0 {
			top = Grades[i-1].Min - 1
		}
	}
	if g.Min == 0 {
		return fmt.Sprintf("below %d", top+1)
	}
	return fmt.Sprintf("%d to %d", g.Min, top)
}

// GradeScale is the bands in a line, as docs/REPORT.md states them: "A from
// 85, B from 70, C from 55, D from 40, else F".
func GradeScale() string {
	var parts []string
	for _, g := range Grades {
		if g.Min > 0 {
			parts = append(parts, fmt.Sprintf("%s from %d", g.Letter, g.Min))
		} else {
			parts = append(parts, "else "+g.Letter)
		}
	}
	return strings.Join(parts, ", ")
}
