package ui

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/report"
)

// sampleAt analyses the orders sample with settings, as the page does.
func sampleAt(t *testing.T, settings map[string]string) (*Root, *fakePage) {
	t.Helper()
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true}
	for k, v := range settings {
		c.Settings.Set(k, v)
	}
	c.LoadSample("orders")
	finish(t, c, f)
	return c, f
}

func candidate(t *testing.T, c *Root, spec string) report.Candidate {
	t.Helper()
	x, ok := c.Candidate(spec)
	if !ok {
		t.Fatalf("no candidate %s", spec)
	}
	return x
}

// TestGradeText: a grade says its band and what it means, from
// report.Grades.
func TestGradeText(t *testing.T) {
	for _, tt := range []struct{ grade, want string }{
		{"A", "Grade A (85 to 100 of 100): a strong key, fit for the data and the target as measured."},
		{"C", "Grade C (55 to 69 of 100): a workable key with a weakness that will cost throughput or scale."},
		{"F", "Grade F (below 40 of 100): a key not fit to choose."},
		{"", ""},
	} {
		if got := GradeText(report.Candidate{Grade: tt.grade}); got != tt.want {
			t.Errorf("GradeText(%q) = %q, want %q", tt.grade, got, tt.want)
		}
	}
	if got, want := GradeLegend(), "Grades of the score out of 100: A 85 to 100, strong; B 70 to 84, good, with a weak side; C 55 to 69, workable, at a cost; D 40 to 54, poor; F below 40, unfit."; got != want {
		t.Errorf("GradeLegend = %q", got)
	}
}

// TestHottestText: one physical partition takes every request and is no
// hot spot; with several, the busiest share reads beside the even one.
func TestHottestText(t *testing.T) {
	one := report.Candidate{PhysicalPartitions: []report.Physical{{RequestShare: 1}}}
	if got := HottestText(one); got != "only 1 partition" {
		t.Errorf("one partition: %q", got)
	}
	four := report.Candidate{PhysicalPartitions: []report.Physical{{RequestShare: 0.47}, {RequestShare: 0.2}, {RequestShare: 0.2}, {RequestShare: 0.13}}}
	if got := HottestText(four); got != "47% on 1 of 4 (even: 25%)" {
		t.Errorf("four partitions: %q", got)
	}
}

// TestAnswer: the answer leads with the key, its grade explained, why it
// wins, what to check (with the guide), what its figures are of, and the
// command that creates the container.
func TestAnswer(t *testing.T) {
	c, _ := sampleAt(t, nil)
	html := render(t, c)
	answer := html[strings.Index(html, `id="answer"`):strings.Index(html, `id="candidates-title"`)]
	for _, want := range []string{
		`<code>/id</code>`, `Grade A (85 to 100 of 100)`,
		`The best of 6 candidates, with 100 of 100: 2,000 distinct values; most documents bring a new one`,
		`Id key`, `href="#guide-queries"`, `What makes a good key: in the queries that matter`,
		`Measured on the sample as it is, 607 KB in 2,000 documents: with no expected size, nothing is projected.`,
		`id="give-size"`, `Create the container: <span>Azure CLI</span>`, `id="copy-answer"`, `--partition-key-path /id`,
	} {
		if !strings.Contains(answer, want) {
			t.Errorf("the answer lacks %q", want)
		}
	}
	// The grade is explained in the table and the details too.
	for _, want := range []string{`id="grade-legend"`, `id="detail-grade"`, `title="A: 85 to 100 of 100, a strong key`} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Give the expected size opens the settings on its field.
	c.ChangeSetting("target-gb")
	if !c.SettingsOpen() || c.TakeFocus() != "target-gb" {
		t.Errorf("the expected size is not one step away")
	}
}

// TestWeakestSide: the why names the weakest measure when it is below an
// A's, and the workload's throughput.
func TestWeakestSide(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true}
	c.Settings.Keys = []string{"/tenantId"}
	c.Settings.Set("noSuggest", "true")
	c.Settings.Set("writesPerSecond", "1000")
	c.LoadSample("orders")
	finish(t, c, f)
	got := (&Results{Root: c}).Verdict()
	if !strings.HasPrefix(got, "The one key measured, with ") || !strings.Contains(got, "Its weakest side, spread of data (") || !strings.Contains(got, "Provision ") {
		t.Errorf("verdict %q", got)
	}
}

// TestFigureScopes: every column of the table says what its figures are
// of, the sample or the target, and the largest logical partition is the
// target's when the report projects.
func TestFigureScopes(t *testing.T) {
	c, _ := sampleAt(t, nil)
	if got := c.ColumnScope("largest"); got != "in the sample" {
		t.Errorf("largest without a target: %q", got)
	}
	c, _ = sampleAt(t, map[string]string{"targetGb": "500"})
	if got := c.ColumnScope("largest") + " | " + c.ColumnScope("hottest") + " | " + c.ColumnScope("logical"); got != "at the target | share of requests, at the target | values in the sample" {
		t.Errorf("scopes at 500 GB: %q", got)
	}
	x := candidate(t, c, "/customerId")
	if got, want := c.LargestCell(x), LargestAtTarget(x); got != want || !strings.HasSuffix(got, "GB (0.4%)") {
		t.Errorf("largest of /customerId at 500 GB: %q", got)
	}
	html := render(t, c)
	for _, want := range []string{"Largest logical partitions in the sample (documents)", "Share of requests per physical partition at the target",
		"The bytes each physical partition holds at the target (500 GB)", "At the target the largest logical partition holds"} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// TestProjectionText: the explanation of how the target was reached is the
// projection the engine made: the values seen grow by 1 + (factor − 1) ×
// (1 − newValueShare), so the largest in the sample grown so is the
// largest at the target.
func TestProjectionText(t *testing.T) {
	c, _ := sampleAt(t, map[string]string{"targetGb": "500"})
	x := candidate(t, c, "/customerId")
	p := x.Projection
	grow := 1 + (p.Factor-1)*(1-p.NewValueShare)
	if got := float64(x.Largest[0].Bytes) * grow; math.Abs(got-float64(p.LargestLogicalBytes)) > 0.001*float64(p.LargestLogicalBytes) {
		t.Fatalf("the sample's largest %d B grown %.0f times is %.0f B, the engine's %d B", x.Largest[0].Bytes, grow, got, p.LargestLogicalBytes)
	}
	text := strings.Join(ProjectionText(c.Report, x), " ")
	for _, want := range []string{
		"The target, 500 GB (", "is 863,130 times the sample's 607 KB in 2,000 documents.",
		"27% of the documents to come bring a key value not seen yet, as 27% of the sample's documents hold a value seen only once (the Good–Turing estimate)",
		"each grows " + timesText(grow) + " times: the largest, 3.2 KB in the sample, reaches 1.9 GB of the 20 GB a logical partition holds.",
		"The container then holds 500 GB in 16 physical partitions, after 15 splits of partitions that passed 50 GB.",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the explanation lacks %q:\n%s", want, text)
		}
	}
	if got := strings.Join(ProjectionText(c.Report, candidate(t, c, "/tenantId+/orderDate:day")), " "); !strings.Contains(got, "written in days not seen yet, so each of the sample's values keeps its size") {
		t.Errorf("time bucket: %s", got)
	}
	if got := strings.Join(ProjectionText(c.Report, candidate(t, c, "/tenantId")), " "); !strings.Contains(got, "6 logical partitions grow past 20 GB there: Cosmos DB refuses writes to them.") {
		t.Errorf("/tenantId: %s", got)
	}
	// 500 GB is 863,130 times the sample: the analysis warns
	// (FAR_PROJECTION), and the page says so plainly; half a GB is 863
	// times it, and no caveat is given.
	if got := FarCaveat(c.Report); !strings.HasPrefix(got, "The sample is small beside the target, 863,130 times smaller") {
		t.Errorf("caveat at 500 GB: %q", got)
	}
	if got := FarBrief(c.Report); got != "The sample is 863,130 times smaller than the target: these figures are its proportions grown that far." {
		t.Errorf("brief caveat at 500 GB: %q", got)
	}
	c, _ = sampleAt(t, map[string]string{"targetGb": "0.5"})
	if got := FarCaveat(c.Report) + FarBrief(c.Report); got != "" || !HasTarget(c.Report) {
		t.Errorf("caveat at 0.5 GB: %q", got)
	}
	if got := ProjectionText(c.Report, candidate(t, c, "/id")); len(got) == 0 || !strings.Contains(got[0], "is 863 times the sample's") {
		t.Errorf("at 0.5 GB: %q", got)
	}
}

// TestFold: of the sample's seven candidates at 50 GB, the two graded C
// or lower past the top three fold behind a button; a key named, picked
// or ticked never does.
func TestFold(t *testing.T) {
	c, _ := sampleAt(t, map[string]string{"targetGb": "50"})
	shown := func() []string {
		var out []string
		for _, x := range c.Rows() {
			out = append(out, x.Key.Spec)
		}
		return out
	}
	if n := c.Folded(); n != 2 || len(shown()) != 5 || strings.Contains(strings.Join(shown(), " "), "/tenantId ") {
		t.Fatalf("folded %d, shown %q", n, shown())
	}
	html := render(t, c)
	if !strings.Contains(html, `<button id="show-more" type="button" class="link" aria-controls="candidates" aria-expanded="false">Show 2 more candidates, graded C or lower</button>`) {
		t.Errorf("no fold button: %s", regexp.MustCompile(`<p class="fold">.*?</p>`).FindString(html))
	}
	if rows := regexp.MustCompile(`<tr class="row`).FindAllString(html, -1); len(rows) != 5 {
		t.Errorf("%d rows", len(rows))
	}
	c.ToggleFold()
	if len(shown()) != 7 || c.FoldText() != "Show fewer: fold the 2 weaker candidates" || c.FoldExpanded() != "true" {
		t.Errorf("unfolded: %q %q", shown(), c.FoldText())
	}
	c.ToggleFold()
	c.Select("/tenantId")
	if c.Folded() != 0 || len(shown()) != 7 {
		t.Errorf("picking /tenantId leaves one to fold, which is not worth a button: %d folded", c.Folded())
	}
	c, _ = sampleAt(t, map[string]string{"targetGb": "50"})
	c.Settings.Keys = []string{"/tenantId"}
	c.Analyse()
	finish(t, c, c.Page.(*fakePage))
	if !strings.Contains(strings.Join(shown(), " "), "/tenantId") {
		t.Errorf("a named key is folded: %q", shown())
	}
}

// TestSettingsFold: the settings are open until results come, then fold
// to a line that says what they hold; settings changed while an analysis
// ran stay open, and its answer does not take the page from them.
func TestSettingsFold(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true}
	if !c.SettingsOpen() || strings.Contains(render(t, c), `id="settings-toggle"`) {
		t.Fatal("the settings are not open before results")
	}
	c.Settings.Set("ru", "20000")
	c.Settings.Set("autoscale", "true")
	c.Settings.Set("targetGb", "500")
	c.Settings.Set("writesPerSecond", "2000")
	c.Settings.Set("maxDistinct", "60000")
	c.Settings.Set("traffic", "uniform")
	c.Settings.Keys = []string{"/tenantId,/customerId"}
	c.LoadSample("orders")
	finish(t, c, f)
	if c.SettingsOpen() {
		t.Error("the settings stay open over the answer")
	}
	want := "Throughput: 20,000 RU/s, autoscale · Size: 500 GB · Requests: 2,000 writes a second · Keys: suggested and /tenantId,/customerId · Also: Requests per key value the same for every value, Values counted exactly per key 60,000."
	if got := c.SettingsSummary(); got != want {
		t.Errorf("summary\n got %q\nwant %q", got, want)
	}
	html := render(t, c)
	if !strings.Contains(html, `id="settings-form" hidden="hidden"`) || !strings.Contains(html, `aria-expanded="false">Change the settings</button>`) {
		t.Errorf("the folded settings: %s", regexp.MustCompile(`(?s)<section class="panel settings".{0,900}`).FindString(html))
	}
	if scroll, focus := c.TakeReveal(); scroll != "answer" || focus != "verdict-title" {
		t.Errorf("a sample's answer: reveal %q, focus %q", scroll, focus)
	}
	if scroll, _ := c.TakeReveal(); scroll != "" {
		t.Error("the answer is brought into view twice")
	}
	c.ToggleSettings()
	if !c.SettingsOpen() || c.SettingsToggleText() != "Hide the settings" {
		t.Error("the toggle does not open the settings")
	}
	c.ToggleSettings()

	// Typing in the paste area analyses without moving the page; a paste
	// scrolls to the answer and leaves the focus.
	c.Analyse()
	finish(t, c, f)
	if scroll, focus := c.TakeReveal(); scroll != "" || focus != "" {
		t.Errorf("typed: reveal %q, focus %q", scroll, focus)
	}
	c.AnalysePasted(true)
	finish(t, c, f)
	if scroll, focus := c.TakeReveal(); scroll != "answer" || focus != "" {
		t.Errorf("pasted: reveal %q, focus %q", scroll, focus)
	}

	// A setting typed while the analysis runs keeps the form open and the
	// page where it is.
	c = &Root{Page: f, Loaded: true}
	c.LoadSample("orders")
	c.Settings.Set("ru", "4000")
	finish(t, c, f)
	if scroll, _ := c.TakeReveal(); !c.SettingsOpen() || scroll != "" {
		t.Errorf("settings edited during the analysis: open %v, reveal %q", c.SettingsOpen(), scroll)
	}
}

// TestGuideLinks: every finding code a link is given for is one the
// report documents, and every guide item the page links to is in
// index.html, with its title.
func TestGuideLinks(t *testing.T) {
	doc, err := os.ReadFile("../docs/REPORT.md")
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile("../index.html")
	if err != nil {
		t.Fatal(err)
	}
	for code, id := range guideOf {
		if !strings.Contains(string(doc), "| `"+code+"` |") {
			t.Errorf("%s is not a finding code of docs/REPORT.md", code)
		}
		if GuideLink(id) == "What makes a good key" {
			t.Errorf("%s links to %s, which the guide lacks", code, id)
		}
	}
	for _, g := range guide {
		if !strings.Contains(string(page), `<li id="`+g.ID+`" tabindex="-1"><strong>`+g.Title+`</strong>`) {
			t.Errorf("index.html has no guide item %s titled %q", g.ID, g.Title)
		}
	}
	if GuideFor(report.Finding{Code: "MONOTONIC", Severity: "info"}) != "" || GuideFor(report.Finding{Code: "MONOTONIC", Severity: "critical"}) != "guide-time" {
		t.Error("a key that follows time links to the guide; one that only correlates with it does not")
	}
}

// TestLoadCaption: the request chart's caption says what each partition
// gets of the container's throughput, and from what throughput none
// throttles, as the report has them.
func TestLoadCaption(t *testing.T) {
	c, _ := sampleAt(t, map[string]string{"targetGb": "200", "writesPerSecond": "500"})
	x := candidate(t, c, c.Report.Recommended)
	w := x.Workload
	if w == nil || w.LeastRU == nil || *w.LeastRU <= w.RU {
		t.Fatalf("the sample at 200 GB and 500 writes a second does not throttle at the least throughput: %+v", w)
	}
	want := fmt.Sprintf("against the %s RU/s each gets of the container's %s RU/s: a bar past the line throttles. From %s RU/s none does.",
		human.Count(int64(w.PerPartitionRU)), human.Count(int64(w.RU)), human.Count(int64(*w.LeastRU)))
	if got := LoadCaption(x); !strings.HasSuffix(got, want) || !strings.Contains(got, "at the target") {
		t.Errorf("caption %q, want it to end %q", got, want)
	}
	if got := LoadCaption(report.Candidate{PhysicalPartitions: []report.Physical{{RequestShare: 1}}, Projection: report.Projection{Factor: 1}}); !strings.HasPrefix(got, "The container has one physical partition: it takes every request") {
		t.Errorf("one partition: %q", got)
	}
}

// TestRevealNoRecommendation: with no key to recommend, the reason is
// brought into view in the answer's place, with a link to the guide.
func TestRevealNoRecommendation(t *testing.T) {
	f := &fakePage{text: `{"id":"1","a":"x"}` + "\n" + `{"id":"2","a":"x"}`}
	c := &Root{Page: f, Loaded: true}
	c.Pasted(int64(len(f.text)))
	c.AnalysePasted(true)
	finish(t, c, f)
	if c.Report.NoRecommendation == nil {
		t.Fatalf("recommended %q", c.Report.Recommended)
	}
	if scroll, focus := c.TakeReveal(); scroll != "no-recommendation" || focus != "" {
		t.Errorf("reveal %q, focus %q", scroll, focus)
	}
	if html := render(t, c); !strings.Contains(html, `<a class="guide-link" href="#guide-title">What makes a good partition key</a>`) {
		t.Error("the reason has no link to the guide")
	}
}

// TestNoticesTitle: the warnings' heading says what they are about, each
// once, in their order.
func TestNoticesTitle(t *testing.T) {
	c := &Root{Report: &report.Report{Warnings: []report.Notice{{Code: report.IDRules}, {Code: report.UnservableOperation},
		{Code: report.Underprovisioned}, {Code: report.FarProjection}, {Code: report.WeightFieldUnused}}}}
	want := "Documents Cosmos DB would refuse for their id; queries no key can serve; the throughput and the target; settings the documents did not bear out"
	if got := c.NoticesTitle(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
