package ui

import (
	"encoding/json"
	"html"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/plan"
	"github.com/pkcalc/pkcalc/core/report"
)

// wantPlans checks that page shows, under id, every step of plans as
// core/plan gives them: its action, its rule's source and its commands.
func wantPlans(t *testing.T, page, id string, plans []plan.Plan) {
	t.Helper()
	if len(plans) == 0 {
		t.Fatalf("core/plan gives no plan for %s", id)
	}
	got := html.UnescapeString(byID(t, page, id))
	raw := html.UnescapeString(page)
	for _, p := range plans {
		for _, s := range p.Steps {
			if !strings.Contains(got, sentence(s.Action)) {
				t.Errorf("#%s lacks the step %q", id, s.Action)
			}
			if cmd := StepCommands(s); cmd != "" && !strings.Contains(got, cmd) {
				t.Errorf("#%s lacks the commands %q", id, cmd)
			}
			if !strings.Contains(raw, `href="`+s.Rule.Source+`"`) {
				t.Errorf("the page does not link %s", s.Rule.Source)
			}
		}
	}
}

// TestPlanSection: the analysis shows, for the shown candidate, the
// ingest plan of its target size and the scale to the RU/s its workload
// advises, as core/plan gives them for the report's figures, each
// command with Copy.
func TestPlanSection(t *testing.T) {
	c, _ := sampleAt(t, map[string]string{"targetGb": "500", "ru": "400", "writesPerSecond": "20000"})
	c.Selected = c.Report.Recommended
	x := candidate(t, c, c.Selected)
	plans := plan.ForCandidate(c.Report, x)
	ops := ""
	for _, p := range plans {
		ops += p.Operation + " "
	}
	if ops != "ingest scale " {
		t.Fatalf("plans %q, want ingest and scale", ops)
	}
	page := render(t, c)
	wantPlans(t, page, "plan", plans)
	if !strings.Contains(page, `id="plan-title"`) || !strings.Contains(page, `id="plan-0-copy-0"`) {
		t.Error("no plan heading or Copy")
	}
	f := c.Page.(*fakePage)
	(&PlanSteps{Root: c}).Copy(plans[0].Steps[0])
	if f.copied != StepCommands(plans[0].Steps[0]) {
		t.Errorf("copied %q", f.copied)
	}
}

// TestDiagnosisPlans: the worked example's diagnosis shows the
// redistribution its action targets, as core/plan gives it on its ranges.
func TestDiagnosisPlans(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true}
	c.LoadExample()
	text := engineDiagnose(t, f.diagnose[0], f.exports, exampleNames(), f.dparams[0])
	c.Diagnosed(f.job, text, "")
	var d report.Diagnosis
	json.Unmarshal([]byte(text), &d)
	plans := plan.ForDiagnosis(&d)
	if len(plans) == 0 || plans[0].Operation != "redistribute" {
		t.Fatalf("plans %+v, want the redistribution first", plans)
	}
	wantPlans(t, render(t, c), "diag-plans", plans)
}
