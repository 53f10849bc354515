package ui

import (
	"bytes"
	"fmt"
	"html/template"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/vugu/vugu"
	"github.com/vugu/vugu/staticrender"

	"github.com/pkcalc/pkcalc/core/analysis"
	"github.com/pkcalc/pkcalc/core/options"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/core/sample"
)

// render returns the HTML of the page for c, as the browser would build it.
func render(t *testing.T, c *Root) string {
	t.Helper()
	var buf bytes.Buffer
	r := staticrender.New(&buf)
	env, err := vugu.NewBuildEnv(r.EventEnv())
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Render(env.RunBuild(c)); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// fakePage is the browser, recorded.
type fakePage struct {
	text     string
	analyzed []url.Values
	sources  []Source
	settings string
	copied   string
	download []string
	job      int
	cancels  int
	exports  map[string]string // the slots' paste areas
	diagnose [][]string        // the slots of each diagnosis asked for
	dparams  []url.Values
}

func (f *fakePage) SetText(s string) { f.text = s }
func (f *fakePage) Analyze(job int, s Source, p url.Values) {
	f.job = job
	f.sources = append(f.sources, s)
	f.analyzed = append(f.analyzed, p)
}
func (f *fakePage) Cancel() { f.cancels++ }
func (f *fakePage) Download(name, mime, content string) {
	f.download = append(f.download, name, mime, content)
}
func (f *fakePage) Copy(text string)     { f.copied = text }
func (f *fakePage) SetSettings(q string) { f.settings = q }
func (f *fakePage) SetExport(slot, text string) {
	if f.exports == nil {
		f.exports = map[string]string{}
	}
	f.exports[slot] = text
}
func (f *fakePage) Diagnose(job int, slots []string, p url.Values) {
	f.job = job
	f.diagnose = append(f.diagnose, slots)
	f.dparams = append(f.dparams, p)
}

// finish runs the engine natively on the page's text, as the worker would.
func finish(t *testing.T, c *Root, f *fakePage) {
	t.Helper()
	opts, err := analysis.ParseOptions(f.analyzed[len(f.analyzed)-1])
	if err != nil {
		t.Fatal(err)
	}
	rep, err := analysis.Analyze(strings.NewReader(f.text), opts)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	report.WriteJSON(&b, rep)
	c.Finished(f.job, b.String(), "")
}

func TestSampleFlow(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true}
	c.Settings.Set("ru", "20000")
	c.Settings.Set("targetGb", "500")
	c.LoadSample("orders")
	if !strings.HasPrefix(f.text, `{"id":"ord-000001"`) || !c.Running || f.settings != "ru=20000&sample=orders&targetGb=500" {
		t.Fatalf("text %.30q running %v settings %q", f.text, c.Running, f.settings)
	}
	finish(t, c, f)
	html := render(t, c)
	for _, want := range []string{
		`Read 2,000 documents (`, `as JSON Lines from the built-in sample`,
		`id="recommended"`, `<table class="candidates-table" id="candidates">`,
		`<code>/tenantId</code>`, `logical partition limit`, // a finding of /tenantId at 500 GB
		`<svg`, `Storage per physical partition at the target size`,
		`id="snippet"`, `az cosmosdb sql container create`,
		`<code>/items<wbr/>/[]<wbr/>/sku</code>`, `No: inside an array`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	rows := regexp.MustCompile(`<tr class="row`).FindAllString(html, -1)
	if len(rows) != len(c.Report.Candidates) || len(rows) < 6 {
		t.Errorf("%d candidate rows for %d candidates", len(rows), len(c.Report.Candidates))
	}
}

func TestCompareSortExport(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true}
	c.LoadSample("orders")
	finish(t, c, f)
	specs := []string{c.Report.Candidates[0].Key.Spec, c.Report.Candidates[1].Key.Spec}
	c.ToggleCompare(specs[0])
	c.ToggleCompare(specs[1])
	html := render(t, c)
	if !strings.Contains(html, `id="compare"`) || !strings.Contains(html, "Busiest physical partition") {
		t.Error("no comparison")
	}
	c.Sort("logical")
	rows := c.Rows()
	for i := 1; i < len(rows); i++ {
		if rows[i].LogicalPartitions > rows[i-1].LogicalPartitions {
			t.Fatalf("not sorted by logical partitions, descending")
		}
	}
	c.Sort("logical")
	if r := c.Rows(); r[0].LogicalPartitions > r[len(r)-1].LogicalPartitions {
		t.Error("second click does not reverse")
	}
	c.Export("markdown")
	if len(f.download) != 3 || f.download[0] != "pkcalc-report.md" || !strings.HasPrefix(f.download[2], "# Partition key analysis") {
		t.Errorf("download %q", f.download[:min(2, len(f.download))])
	}
	c.CopySnippet(c.Report.Candidates[0])
	if !strings.Contains(f.copied, "az cosmosdb sql container create") {
		t.Errorf("copied %q", f.copied)
	}
}

// TestSnippetsFollowReport: the page's snippet creates the container of
// the report shown, the one its Markdown export creates, even when the
// form has changed since (the status then asks to analyse again).
func TestSnippetsFollowReport(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true}
	c.Settings.Set("ru", "20000")
	c.LoadSample("orders")
	finish(t, c, f)
	c.Settings.Set("ru", "40000")
	c.Settings.Set("autoscale", "true")
	best, _ := report.Recommended(c.Report)
	shown := c.SnippetShown(best)
	if shown.ID != "azure-cli" || !strings.Contains(shown.Code, "--throughput 20000\n") {
		t.Fatalf("the page's %s snippet is not of the report's 20,000 RU/s:\n%s", shown.ID, shown.Code)
	}
	c.Export("markdown")
	if md := f.download[2]; !strings.Contains(md, "```bash\n"+shown.Code+"```\n") {
		t.Errorf("the Markdown export does not carry the snippet the page shows:\n%s", shown.Code)
	}
}

func TestKeyBoxAndBuilder(t *testing.T) {
	c := &Root{Loaded: true}
	c.KeyBox = "tenantId"
	c.AddKey()
	if c.KeyError == "" || len(c.Settings.Keys) != 0 {
		t.Errorf("bad key accepted: %q", c.Settings.Keys)
	}
	c.KeyBox = "/tenantId, /id"
	c.AddKey()
	c.Builder = Builder{Paths: [3]string{"/deviceId", "/ts"}, Kinds: [3]string{"", "day"}}
	c.AddBuilt()
	c.Builder = Builder{Paths: [3]string{"/tenantId", "/id"}, Kinds: [3]string{"", "hash"}, N: "16"}
	c.AddBuilt()
	if got := strings.Join(c.Settings.Keys, " "); got != "/tenantId,/id /deviceId+/ts:day /tenantId+hash(/id)%16" {
		t.Errorf("keys %q", got)
	}
	if p := c.Settings.Params(); strings.Join(p["keys"], ";") != "/tenantId,/id;/deviceId+/ts:day;/tenantId+hash(/id)%16" {
		t.Errorf("params %v", p)
	}
	// A link carries the settings back.
	back := SettingsFrom("#" + c.Settings.Params().Encode())
	if strings.Join(back.Keys, " ") != strings.Join(c.Settings.Keys, " ") {
		t.Errorf("round trip %q", back.Keys)
	}
}

func TestBadSettingsAndErrors(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true}
	c.Settings.Set("ru", "lots")
	c.Analyse()
	if !strings.Contains(c.Error, `"Throughput (RU/s)" must be a whole number of 0 or more, not "lots"`) || len(f.analyzed) != 0 {
		t.Errorf("error %q, analysed %d", c.Error, len(f.analyzed))
	}
	c.Settings.Set("ru", "")
	f.text = "{\"id\":\"1\",\"t\":\"a\"}\n{\"id\":\"2\",\"t\":}\n"
	c.Analyse()
	finish(t, c, f)
	html := render(t, c)
	if !strings.Contains(html, "line 2, column 15 (document 2): expected a JSON value, found &#39;}&#39;") {
		t.Errorf("problem not shown")
	}
	f.text = "{\"id\":\"1\",\"t\":\"a\",\"t\":\"b\"}\n"
	c.Analyse()
	finish(t, c, f)
	if html := render(t, c); !strings.Contains(html, "1 note on how the input was read") || !strings.Contains(html, "line 1, column") || !strings.Contains(html, "appears more than once") {
		t.Errorf("the duplicate-key note is not shown")
	}
	c.Finished(f.job, "", "The analysis failed: boom")
	if !strings.Contains(render(t, c), "The analysis failed: boom") {
		t.Error("failure not shown")
	}
}

func TestUserDataIsText(t *testing.T) {
	f := &fakePage{text: `{"<img src=x onerror=alert(1)>":"<script>alert(2)</script>","k":"<b>x</b>"}` + "\n" + `{"k":"<i>y</i>"}` + "\n" + `{"k":"z"}`}
	c := &Root{Page: f, Loaded: true}
	c.Settings.Keys = []string{"/k"}
	c.Analyse()
	finish(t, c, f)
	html := render(t, c)
	for _, bad := range []string{"<script>alert", "<img src=x", "<b>x</b>", "<i>y</i>"} {
		if strings.Contains(html, bad) {
			t.Errorf("user data became markup: %s", bad)
		}
	}
	for _, want := range []string{`/&#34;&lt;img src=x onerror=alert(1)&gt;&#34;`, `&#34;&lt;script&gt;alert(2)&lt;/script&gt;&#34;`} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

func TestStaleAnswersDropped(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true}
	c.Analyse()
	first := f.job
	c.Analyse()
	c.Finished(first, `{"documents": 1}`, "")
	if !c.Running || c.Report != nil {
		t.Fatalf("an answer to a replaced job was taken")
	}
	c.Finished(f.job, `{"documents": 2, "candidates": []}`, "")
	if c.Running || c.Report == nil || c.Report.Documents != 2 {
		t.Errorf("the current answer was not taken: %+v", c.Report)
	}
}

func TestStatus(t *testing.T) {
	c := &Root{}
	if got := c.Status(); got != "Loading the engine…" {
		t.Errorf("before load: %q", got)
	}
	c.Loaded = true
	if got := c.Status(); got != "Paste documents, drop files or try a sample." {
		t.Errorf("empty: %q", got)
	}
	c.FilesChosen([]string{"a.json", "b.json", "c.json"}, 3<<20, "")
	c.Progressed(c.job, Progress{Bytes: 1 << 20, Documents: 4000, Elapsed: 0.5})
	if got := c.Status(); got != "Analysing a.json and 2 more files: 1.0 MB of 3.0 MB read, 4,000 documents, 2.0 MB/s…" || c.ProgressValue() < 0.33 || c.ProgressValue() > 0.34 {
		t.Errorf("running: %q %v", got, c.ProgressValue())
	}
	c.Cancel()
	if got := c.Status(); c.Running || got != "Cancelled: a.json and 2 more files was not analysed." {
		t.Errorf("cancel: %v %q", c.Running, got)
	}
	_ = sample.DefaultOrders
}

// TestPathTableScope: when the path table describes only the window, the
// page says so and counts presence against the documents it describes.
func TestPathTableScope(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true}
	rep, err := analysis.Analyze(strings.NewReader(sample.OrdersText(300)), analysis.Options{Window: 100})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	report.WriteJSON(&b, rep)
	c.Finished(c.job, b.String(), "")
	html := render(t, c)
	for _, want := range []string{
		`From the first 100 of 300 documents, which candidates are chosen from; the figures of every candidate cover all 300.`,
		// The sample's orders come in the order of their ids and dates.
		`<h3>The documents the candidates come from</h3>`,
		template.HTMLEscapeString(rep.Warnings[0].Message),
		`<td class="num" data-label="In documents">100 (100%)</td>`, // /id, present in every document described
	} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// The verdict counts the documents lacking a path among those described
	// too: /b is in 90 of the 100, not missing in the 200 past them.
	var in strings.Builder
	for i := range 300 {
		if i%10 == 0 {
			fmt.Fprintf(&in, "{\"id\":\"%d\"}\n", i)
		} else {
			fmt.Fprintf(&in, "{\"id\":\"%d\",\"b\":\"v%d\"}\n", i, i%7)
		}
	}
	rep, err = analysis.Analyze(strings.NewReader(in.String()), analysis.Options{Window: 100})
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	report.WriteJSON(&b, rep)
	c.Finished(c.job, b.String(), "")
	html = render(t, c)
	for _, want := range []string{
		`<td class="num" data-label="In documents">90 (90%)</td>`,
		`>Possible; missing in 10 documents, which would share one partition<`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(html, "missing in 200") || strings.Contains(html, "missing in 210") {
		t.Error("a verdict counts the documents past the window")
	}
	rep, _ = analysis.Analyze(strings.NewReader(sample.OrdersText(300)), analysis.Options{})
	b.Reset()
	report.WriteJSON(&b, rep)
	c.Finished(c.job, b.String(), "")
	if html := render(t, c); strings.Contains(html, `id="paths-scope"`) {
		t.Error("a path table of every document says it is not")
	}
}

// TestNoRecommendationShown: when the report recommends no key, section 3
// still appears and says why, rather than vanishing.
func TestNoRecommendationShown(t *testing.T) {
	for _, tt := range []struct {
		name, text, want string
	}{
		{"two good lines and a bad one", "{\"id\":\"1\",\"t\":\"a\"}\n{\"id\":\"2\",\"t\":}\n{\"id\":\"3\",\"t\":\"b\"}\n", "Only 2 documents: too few to suggest keys"},
		{"no documents", "[]", "The input holds no documents: there is nothing to measure."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakePage{text: tt.text}
			c := &Root{Page: f, Loaded: true}
			c.Analyse()
			finish(t, c, f)
			html := render(t, c)
			if !strings.Contains(html, "3. The key to choose") || !strings.Contains(html, tt.want) {
				t.Errorf("section 3 does not say %q:\n%s", tt.want, html)
			}
			if strings.Contains(html, `id="recommended"`) {
				t.Error("a key is shown as recommended")
			}
		})
	}
}

// TestSettingWarningsShown: every warning about the settings is in the
// page, as text.
func TestSettingWarningsShown(t *testing.T) {
	f := &fakePage{text: sample.OrdersText(300)}
	c := &Root{Page: f, Loaded: true}
	c.Settings.Set("weightField", `/"<b>w</b>"`)
	c.Settings.Set("timeField", "/noTime")
	c.Analyse()
	finish(t, c, f)
	if len(c.Report.Warnings) != 2 {
		t.Fatalf("warnings %+v", c.Report.Warnings)
	}
	html := render(t, c)
	if !strings.Contains(html, `id="setting-warnings"`) || !strings.Contains(html, "Settings the documents did not bear out") {
		t.Errorf("no list of setting warnings:\n%s", html)
	}
	for _, w := range c.Report.Warnings {
		if want := template.HTMLEscapeString(w.Message); !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(html, "<b>w</b>") {
		t.Error("a field name became markup")
	}
}

// TestIDWarningShown: documents whose id Cosmos DB would refuse are
// warned of under a heading that says so, not as settings.
func TestIDWarningShown(t *testing.T) {
	f := &fakePage{text: `{"_id":{"$oid":"65a000000000000000000001"},"k":"a"}
{"id":1004,"k":"b"}
{"id":"x","k":"c"}
`}
	c := &Root{Page: f, Loaded: true}
	c.Analyse()
	finish(t, c, f)
	if len(c.Report.Warnings) != 1 || c.Report.Warnings[0].Code != report.IDRules {
		t.Fatalf("warnings %+v", c.Report.Warnings)
	}
	html := render(t, c)
	if !strings.Contains(html, "Documents Cosmos DB would refuse for their id") || strings.Contains(html, "Settings the documents did not bear out") {
		t.Errorf("the id warning is not headed as one:\n%s", html)
	}
	if want := template.HTMLEscapeString(c.Report.Warnings[0].Message); !strings.Contains(html, want) {
		t.Errorf("page lacks %q", want)
	}
}

// TestQueryErrorsShown: every line of the queries that could not be read
// is listed, not only the first, and the status line stays short.
func TestQueryErrorsShown(t *testing.T) {
	f := &fakePage{text: sample.OrdersText(300)}
	c := &Root{Page: f, Loaded: true}
	c.Settings.Set("queries", "300 SELECT * FROM c WHERE c.tenantId = @t\n1 SELECT FROM WHERE\n2 SELECT * FROM\n3 DELETE <b>x</b>\n")
	c.Analyse()
	finish(t, c, f)
	errs := c.Report.Operations.Errors
	if len(errs) != 3 {
		t.Fatalf("query errors %q", errs)
	}
	html := render(t, c)
	if !strings.Contains(html, `id="query-errors"`) || !strings.Contains(html, "Queries not read (3)") {
		t.Errorf("no list of queries not read:\n%s", html)
	}
	for _, e := range errs {
		if want := template.HTMLEscapeString(e); !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(html, "<b>x</b>") {
		t.Error("a query became markup")
	}
	if s := c.Status(); !strings.Contains(s, "3 unreadable: see below.") || strings.Contains(s, errs[0]) {
		t.Errorf("status %q", s)
	}
}

// TestRUSettings: the RU per operation, the distinct values kept and the
// size of aggregated documents come from the address, reach the engine,
// go back into the address and fill the form, as every other setting.
func TestRUSettings(t *testing.T) {
	f := &fakePage{text: sample.OrdersText(sample.DefaultOrders)}
	c := &Root{Page: f, Loaded: true,
		Settings: SettingsFrom("keys=/tenantId&ru=20000&writeRu=20&readRu=1.5&queryRu=7&maxDistinct=1000&docBytes=2048&writesPerSecond=1000&noSuggest=true")}
	if s := c.Settings; s.Get("writeRu") != "20" || s.Get("readRu") != "1.5" || s.Get("queryRu") != "7" || s.Get("maxDistinct") != "1000" || s.Get("docBytes") != "2048" {
		t.Fatalf("settings from the address: %+v", s)
	}
	html := render(t, c)
	for _, want := range []string{`id="read-ru"`, `id="write-ru"`, `id="query-ru"`, `id="max-distinct"`, `RU per write`, `Values counted exactly per key`, `placeholder="50,000, then estimated"`} {
		if !strings.Contains(html, want) {
			t.Errorf("form lacks %q", want)
		}
	}
	c.Analyse()
	if len(f.analyzed) != 1 {
		t.Fatalf("not analysed: %q", c.Error)
	}
	p := f.analyzed[0]
	if p.Get("writeRu") != "20" || p.Get("readRu") != "1.5" || p.Get("queryRu") != "7" || p.Get("maxDistinct") != "1000" || p.Get("docBytes") != "2048" {
		t.Errorf("params %v", p)
	}
	if back := SettingsFrom("#" + f.settings); !reflect.DeepEqual(back, c.Settings) {
		t.Errorf("the address %q gives back %+v", f.settings, back)
	}
	finish(t, c, f)
	if x := c.Report.Candidates[0]; x.Workload == nil || x.Workload.TotalRU != 20000 || x.Workload.ThrottledFraction < 0.2 || x.Grade < "C" {
		t.Errorf("20 RU per write is not counted: grade %s, workload %+v", x.Grade, x.Workload)
	}
	c.SetField("writeRu", "")
	c.SetField("docBytes", "lots")
	c.Analyse()
	if !strings.Contains(c.Error, `"Average document size (bytes)" must be a whole number of 1 or more, not "lots"`) || len(f.analyzed) != 1 {
		t.Errorf("bad docBytes: %q", c.Error)
	}
}

// TestCancelStatus: after a cancel, the status line says what the results
// still shown were made from, not the cancelled source with their figures.
func TestCancelStatus(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true}
	c.LoadSample("orders")
	finish(t, c, f)
	c.FilesChosen([]string{"big.jsonl"}, 33<<20, "")
	c.Cancel()
	got := c.Status()
	if want := "Cancelled: big.jsonl was not analysed. The results below are from the built-in sample: orders of a multi-tenant shop."; got != want {
		t.Errorf("status %q, want %q", got, want)
	}
	// An analysis that finishes speaks of its own source, even when another
	// was chosen meanwhile.
	f.text = "{\"id\":\"1\",\"t\":\"a\"}\n{\"id\":\"2\",\"t\":\"b\"}\n"
	c.Analyse()
	c.Source = Source{Kind: "files", Label: "later.json"}
	finish(t, c, f)
	if got := c.Status(); !strings.HasPrefix(got, "Read 2 documents (") || !strings.Contains(got, " from big.jsonl in ") {
		t.Errorf("status %q", got)
	}
}

// TestFailedLoadHidesOldProblems: when a new input cannot be analysed at
// all, the lists of problems of the previous input go; the message says
// where the results still shown come from.
func TestFailedLoadHidesOldProblems(t *testing.T) {
	f := &fakePage{text: "{\"id\":\"1\",\"t\":\"a\"}\n{\"id\":\"2\",\"t\":}\n{\"id\":\"3\",\"t\":\"b\",\"t\":\"c\"}\n"}
	c := &Root{Page: f, Loaded: true}
	c.FilesChosen([]string{"bad.jsonl"}, 60, "")
	finish(t, c, f)
	if html := render(t, c); !strings.Contains(html, `id="errors"`) || !strings.Contains(html, `id="warnings"`) {
		t.Fatal("the first file's problems are not listed")
	}
	c.FilesChosen([]string{"data.jsonl.gz"}, 60, "")
	c.Finished(f.job, "", "The analysis failed: no document could be read; line 1, column 1: the input looks gzip-compressed.")
	html := render(t, c)
	for _, stale := range []string{`id="errors"`, `id="warnings"`, "1 problem in the input"} {
		if strings.Contains(html, stale) {
			t.Errorf("the previous file's %q is still shown", stale)
		}
	}
	if !strings.Contains(c.Error, "gzip-compressed. The results below are from bad.jsonl.") || c.Status() != "Could not analyse data.jsonl.gz: see the message below." {
		t.Errorf("error %q, status %q", c.Error, c.Status())
	}
	// With nothing shown before, nothing is said of earlier results.
	c = &Root{Page: f, Loaded: true}
	c.Analyse()
	c.Finished(f.job, "", "The analysis failed: boom.")
	if c.Error != "The analysis failed: boom." {
		t.Errorf("error %q", c.Error)
	}
}

// TestRatesFormatted: the rates of the operations read as the page's
// other numbers, not as raw floats.
func TestRatesFormatted(t *testing.T) {
	f := &fakePage{text: sample.OrdersText(300)}
	c := &Root{Page: f, Loaded: true}
	c.Settings.Set("queries", "50 SELECT * FROM c WHERE c.tenantId = @t\n1500 read /id /tenantId\n0.5 SELECT * FROM c\n")
	c.Settings.Keys = []string{"/tenantId"}
	c.Analyse()
	finish(t, c, f)
	html := render(t, c)
	for _, want := range []string{`data-label="Rate / s">50</td>`, `data-label="Rate / s">1,500</td>`, `data-label="Rate / s">0.5</td>`} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(html, "000000") {
		t.Error("a rate is written as a raw float")
	}
	for r, want := range map[float64]string{33.333: "33.33", 0.004: "<0.01", 0: "0", 250.5: "251", 1.1: "1.1"} {
		if got := RateText(report.Verdict{Rate: r}); got != want {
			t.Errorf("RateText(%v) = %q, want %q", r, got, want)
		}
	}
}

// TestMetersNamed: every meter of the score breakdown is named by its part.
func TestMetersNamed(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true}
	c.LoadSample("orders")
	finish(t, c, f)
	html := render(t, c)
	meters := regexp.MustCompile(`<meter [^>]*>`).FindAllString(html, -1)
	if len(meters) != 6 {
		t.Fatalf("%d meters", len(meters))
	}
	for i, m := range meters {
		want := `aria-label="` + template.HTMLEscapeString(c.Report.Candidates[0].ScoreBreakdown[i].Name) + ` score"`
		if c.Selected == c.Report.Candidates[0].Key.Spec && !strings.Contains(m, want) {
			t.Errorf("meter %d: %s lacks %s", i, m, want)
		}
		if !strings.Contains(m, `aria-label="`) {
			t.Errorf("meter %d has no name: %s", i, m)
		}
	}
}

// TestFocusKept: the Analyse button stays enabled, and focusable, while an
// analysis runs, and a second press does nothing; removing a key hands the
// focus to the next key's remove button, the previous one's, or the key box.
func TestFocusKept(t *testing.T) {
	f := &fakePage{text: `{"id":"1"}`}
	c := &Root{Page: f, Loaded: true}
	c.AnalyseButton()
	html := render(t, c)
	button := regexp.MustCompile(`<button id="analyse"[^>]*>`).FindString(html)
	if !strings.Contains(button, `aria-disabled="true"`) || strings.Contains(button, "disabled=\"\"") || strings.Contains(button, " disabled") {
		t.Errorf("while running: %s", button)
	}
	c.AnalyseButton()
	if len(f.analyzed) != 1 {
		t.Errorf("a press while running started %d analyses", len(f.analyzed))
	}
	c.Cancel()
	if id := c.TakeFocus(); id != "analyse" {
		t.Errorf("after Cancel, focus %q", id)
	}
	if button := regexp.MustCompile(`<button id="analyse"[^>]*>`).FindString(render(t, c)); !strings.Contains(button, `aria-disabled="false"`) {
		t.Errorf("after Cancel: %s", button)
	}

	c.Settings.Keys = []string{"/a", "/b", "/c"}
	html = render(t, c)
	for i, k := range c.Settings.Keys {
		button := regexp.MustCompile(`<button [^>]*id="` + RemoveID(i) + `"[^>]*>`).FindString(html)
		if want := `aria-label="Remove ` + k + `"`; !strings.Contains(button, want) {
			t.Errorf("remove button %d %q lacks %s", i, button, want)
		}
	}
	for _, step := range []struct{ remove, focus string }{{"/b", "remove-key-1"}, {"/c", "remove-key-0"}, {"/x", ""}, {"/a", "keybox"}} {
		c.RemoveKey(step.remove)
		if got := c.TakeFocus(); got != step.focus {
			t.Errorf("removing %s: focus %q, want %q", step.remove, got, step.focus)
		}
	}
	if c.TakeFocus() != "" {
		t.Error("the focus is asked for twice")
	}
}

// TestSnippetTabs: the snippet tabs follow the ARIA tab pattern: the open
// tab is the one Tab stop and names the panel; arrows, Home and End move.
func TestSnippetTabs(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true}
	c.LoadSample("orders")
	finish(t, c, f)
	x, _ := c.Candidate(c.Selected)
	all := c.Snippets(x)
	if len(all) < 3 {
		t.Fatalf("%d snippets", len(all))
	}
	check := func(open string) {
		t.Helper()
		html := render(t, c)
		tabs := regexp.MustCompile(`<button [^>]*role="tab"[^>]*>`).FindAllString(html, -1)
		if len(tabs) != len(all) {
			t.Fatalf("%d tabs", len(tabs))
		}
		for i, tab := range tabs {
			id := "tab-" + all[i].ID
			sel, idx := `aria-selected="false"`, `tabindex="-1"`
			if all[i].ID == open {
				sel, idx = `aria-selected="true"`, `tabindex="0"`
			}
			for _, want := range []string{`id="` + id + `"`, sel, idx, `aria-controls="snippet-panel"`} {
				if !strings.Contains(tab, want) {
					t.Errorf("tab %s lacks %s: %s", id, want, tab)
				}
			}
		}
		if want := `role="tabpanel" id="snippet-panel" aria-labelledby="tab-` + open + `"`; !strings.Contains(html, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	check(all[0].ID)
	last := all[len(all)-1].ID
	for _, step := range []struct{ from, key, to string }{
		{all[0].ID, "ArrowRight", all[1].ID}, {all[1].ID, "End", last}, {last, "ArrowRight", all[0].ID},
		{all[0].ID, "ArrowLeft", last}, {last, "Home", all[0].ID},
	} {
		if !c.TabKey(x, step.from, step.key) {
			t.Fatalf("%s not handled", step.key)
		}
		if got := c.TakeFocus(); got != "tab-"+step.to {
			t.Errorf("%s from %s: focus %q", step.key, step.from, got)
		}
		check(step.to)
	}
	if c.TabKey(x, all[0].ID, "a") || c.TakeFocus() != "" {
		t.Error("another key moved the tabs")
	}
}

// TestFilesOneTabStop: the file input is the one Tab stop for choosing
// files, named by the label that holds it; the label is not focusable.
func TestFilesOneTabStop(t *testing.T) {
	html := render(t, &Root{Loaded: true})
	label := regexp.MustCompile(`<label[^>]*id="files-label"[^>]*>Choose files…<input [^>]*id="files"[^>]*>\s*</label>`).FindString(html)
	if label == "" || strings.Contains(label, "tabindex") || strings.Contains(label, `for="files"`) {
		t.Errorf("the file chooser: %q", label)
	}
}

// TestAddress: after an analysis the address holds its settings alone,
// and reloading it gives them back: presets of the query that were
// changed, cleared or removed do not come back, nor are keys doubled.
func TestAddress(t *testing.T) {
	for _, tc := range []struct {
		name, query, hash, settings string // the address, and what it gives
	}{
		{"the hash wins wholly", "?keys=/tenantId&ru=20000&autoscale=true", "#keys=%2Fregion", "keys=%2Fregion"},
		{"the query without a hash", "?sample=orders&ru=20000", "", "sample=orders&ru=20000"},
		{"neither", "", "", ""},
		{"an anchor is not settings", "?ru=20000", "#main", "ru=20000"},
	} {
		if got := AddressSettings(tc.query, tc.hash); got != tc.settings {
			t.Errorf("%s: AddressSettings(%q, %q) = %q, want %q", tc.name, tc.query, tc.hash, got, tc.settings)
		}
	}
	for _, tc := range []struct {
		name, path, query, settings, want string
	}{
		{"presets leave the query", "/embed.html", "?sample=orders&keys=/tenantId&ru=20000", "keys=%2Fregion", "/embed.html#keys=%2Fregion"},
		{"embed=1 stays", "/pkcalc/", "?embed=1&ru=400", "", "/pkcalc/?embed=1#"},
		{"no query", "/", "", "ru=400", "/#ru=400"},
	} {
		if got := Address(tc.path, tc.query, tc.settings); got != tc.want {
			t.Errorf("%s: Address(%q, %q, %q) = %q, want %q", tc.name, tc.path, tc.query, tc.settings, got, tc.want)
		}
	}

	// Presets, changed by hand, then the page reloaded.
	const query = "?sample=orders&keys=/tenantId&ru=20000&autoscale=true"
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true, Settings: SettingsFrom(AddressSettings(query, ""))}
	c.LoadSample("orders")
	c.RemoveKey("/tenantId")
	c.KeyBox = "/region"
	c.AddKey()
	c.SetCheck("autoscale", false)
	c.SetField("ru", "")
	c.Analyse()
	addr := Address("/", query, f.settings)
	hash := addr[strings.Index(addr, "#"):]
	back := SettingsFrom(AddressSettings(strings.TrimSuffix(strings.TrimPrefix(addr, "/"), hash), hash))
	if !reflect.DeepEqual(back, c.Settings) {
		t.Errorf("the address %q gives back %+v, not %+v", addr, back, c.Settings)
	}
	if v, _ := url.ParseQuery(strings.TrimPrefix(hash, "#")); v.Get("sample") != "orders" {
		t.Errorf("the address %q does not name the sample analysed", addr)
	}
	// Documents of one's own are never named.
	c.Pasted(10)
	c.Analyse()
	if strings.Contains(f.settings, "sample") {
		t.Errorf("pasted documents: the address %q names a sample", f.settings)
	}
}

// TestAddressNamesEverySetting: each setting the page puts in the address
// is one the address is read for, alone and after a query of presets, and
// reads back as it was.
func TestAddressNamesEverySetting(t *testing.T) {
	value := map[options.Kind]string{options.Bool: "true", options.Count: "1", options.Number: "1", options.Path: "/t", options.Paths: "/t,/u", options.Text: "1 read /a"}
	for _, o := range options.All {
		if o.In&options.Page == 0 {
			continue
		}
		one := Settings{}
		switch v := value[o.Kind]; {
		case o.Kind == options.Keys:
			one.Keys = []string{"/a"}
		case o.Kind == options.Choice:
			one.Set(o.Name, o.Choices[len(o.Choices)-1])
		default:
			one.Set(o.Name, v)
		}
		params := one.Params().Encode()
		if params == "" {
			t.Errorf("%s: not in the address", o.Name)
		}
		if got := AddressSettings("?ru=400", "#"+params); got != params {
			t.Errorf("%s: the address #%s is read as %q", o.Name, params, got)
		}
		if got := Address("/", "?"+params, ""); got != "/#" {
			t.Errorf("%s: the query ?%s stays in the address after an analysis: %q", o.Name, params, got)
		}
		if back := SettingsFrom(params); !reflect.DeepEqual(back, one) {
			t.Errorf("%s: #%s reads back as %+v, not %+v", o.Name, params, back, one)
		}
	}
}

func TestCSVHeader(t *testing.T) {
	for _, tc := range []struct {
		start  string
		header string
		n      int
		ok     bool
	}{
		{"id,tenantId\n1,contoso\n", "id,tenantId", 12, true},
		{"id,tenantId\r\n1,contoso\r\n", "id,tenantId", 13, true},
		{"\ufeffid,tenantId\n1,contoso", "id,tenantId", 15, true},
		{"id\ttenantId\n", "id\ttenantId", 12, true},
		{"id,tenantId", "", 0, false},
	} {
		header, n, ok := CSVHeader([]byte(tc.start))
		if header != tc.header || n != tc.n || ok != tc.ok {
			t.Errorf("CSVHeader(%q) = %q, %d, %v; want %q, %d, %v", tc.start, header, n, ok, tc.header, tc.n, tc.ok)
		}
	}
}

// TestRefusedSettings: settings refused before an analysis leave the
// results of the last one, and the page says they are not of the form's
// settings; the settings warnings of the last analysis go with it.
func TestRefusedSettings(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true}
	c.Settings.Set("targetDocs", "1")
	c.LoadSample("orders")
	finish(t, c, f)
	if html := render(t, c); !strings.Contains(html, `id="setting-warnings"`) {
		t.Fatal("the target below the sample is not warned of")
	}
	for _, tc := range []struct {
		name  string
		set   func()
		error string
	}{
		{"a setting", func() { c.Settings.Set("maxDistinct", "2000000") }, `Check the settings: "Values counted exactly per key" 2000000 is more than`},
		{"aggregates without a key", func() { c.Settings.Set("aggregates", "true") }, `Check the settings: "The input is per-key aggregates" needs exactly one key`},
	} {
		c.Settings = Settings{}
		tc.set()
		c.Analyse()
		html := render(t, c)
		if !strings.Contains(c.Error, tc.error) || !strings.Contains(c.Error, "The results below are from the last analysis, with the settings it had.") {
			t.Errorf("%s: error %q", tc.name, c.Error)
		}
		if s := c.Status(); s != "Could not analyse the built-in sample: orders of a multi-tenant shop: see the message below." {
			t.Errorf("%s: status %q", tc.name, s)
		}
		if strings.Contains(html, `id="setting-warnings"`) {
			t.Errorf("%s: the last analysis's settings warnings pass for the form's", tc.name)
		}
	}
}

// TestClear: Clear empties the page whatever state it is in; a running
// analysis stops, and its answer is dropped.
func TestClear(t *testing.T) {
	for _, tc := range []struct {
		name string
		then func(c *Root, f *fakePage)
	}{
		{"while running", func(c *Root, f *fakePage) {}},
		{"after a cancel", func(c *Root, f *fakePage) { c.Cancel() }},
		{"after a failure", func(c *Root, f *fakePage) { c.Finished(f.job, "", "The analysis failed: boom") }},
		{"after results", func(c *Root, f *fakePage) { finish(t, c, f) }},
	} {
		f := &fakePage{}
		c := &Root{Page: f, Loaded: true}
		c.LoadSample("orders")
		tc.then(c, f)
		running, cancels := c.Running, f.cancels
		c.Clear()
		if running && f.cancels != cancels+1 {
			t.Errorf("%s: the running analysis was not stopped", tc.name)
		}
		if c.Running || c.Report != nil || c.Error != "" || c.Status() != "Paste documents, drop files or try a sample." {
			t.Errorf("%s: after Clear, running %v, report %v, error %q, status %q", tc.name, c.Running, c.Report != nil, c.Error, c.Status())
		}
		if strings.Contains(f.settings, "sample") {
			t.Errorf("%s: after Clear the address %q still opens the sample", tc.name, f.settings)
		}
		if !running {
			continue
		}
		// The stopped analysis's answer, if it comes, changes nothing.
		finish(t, c, f)
		if c.Report != nil {
			t.Errorf("%s: the cleared analysis's results came back", tc.name)
		}
	}
}

// TestAnalyseWhileRunning: a new analysis (a sample, a paste, files) stops
// the one running, which would hold the engine while the new one waits.
func TestAnalyseWhileRunning(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true}
	c.LoadSample("telemetry")
	if f.cancels != 0 {
		t.Fatalf("nothing was running, yet %d cancels", f.cancels)
	}
	old := f.job
	c.LoadSample("orders")
	if f.cancels != 1 || !c.Running || f.job == old {
		t.Errorf("cancels %d, running %v, job %d after %d", f.cancels, c.Running, f.job, old)
	}
	c.Finished(old, "", "The analysis failed: cancelled with another analysis")
	if c.Error != "" || !c.Running {
		t.Errorf("the stopped analysis's answer was taken: error %q", c.Error)
	}
}

// TestSettingsChanged: once the form's settings differ from those of the
// results shown, the status says so, until they are analysed or put back.
func TestSettingsChanged(t *testing.T) {
	const changed = "The settings have changed since: Analyse to update the results."
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true}
	c.Settings.Set("ru", "20000")
	c.LoadSample("orders")
	finish(t, c, f)
	for _, tc := range []struct {
		name    string
		do      func()
		changed bool
	}{
		{"as analysed", func() {}, false},
		{"RU/s typed", func() { c.SetField("ru", "40000") }, true},
		{"RU/s put back", func() { c.SetField("ru", "20000 ") }, false},
		{"a key added", func() { c.KeyBox = "/region"; c.AddKey() }, true},
		{"analysed", func() { c.Analyse(); finish(t, c, f) }, false},
		{"autoscale ticked", func() { c.SetCheck("autoscale", true) }, true},
	} {
		tc.do()
		if s := c.Status(); strings.HasSuffix(s, changed) != tc.changed {
			t.Errorf("%s: status %q", tc.name, s)
		}
	}
}

// TestChartLimitNotes: a limit far above the bars is stated in words, which
// read as a sentence and fit the chart ("limit 50 GB limit is off the
// scale: the largest is <0.1% of…" before).
func TestChartLimitNotes(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true, Settings: Settings{Keys: []string{"/tenantId"}, Fields: map[string]string{"noSuggest": "true", "readsPerSecond": "10"}}}
	c.LoadSample("orders")
	finish(t, c, f)
	x := c.Report.Candidates[0]
	for _, tc := range []struct {
		name, svg, want string
	}{
		{"storage", string(DataChart(x)), "limit 50 GB is off the scale: the largest is &lt;0.1% of it</text>"},
		{"load", string(LoadChart(x)), "limit 400 RU/s per partition is off the scale: the largest is"},
	} {
		if !strings.Contains(tc.svg, tc.want) || strings.Contains(tc.svg, "limit limit") || strings.Contains(tc.svg, "…") {
			t.Errorf("%s chart lacks %q whole:\n%s", tc.name, tc.want, tc.svg)
		}
	}
}

// TestReanalyseKeepsChoices: analysing again after a setting changed keeps
// the keys ticked for comparison and the key picked for detail, when the
// new report has them; a detail never picked follows the recommendation.
func TestReanalyseKeepsChoices(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true}
	c.LoadSample("orders")
	finish(t, c, f)
	c.ToggleCompare("/customerId")
	c.ToggleCompare("/id")
	c.Select("/tenantId,/customerId,/id")
	c.SetField("ru", "20000")
	c.Analyse()
	finish(t, c, f)
	if got := strings.Join(c.Compared, " "); got != "/customerId /id" || c.Selected != "/tenantId,/customerId,/id" {
		t.Errorf("after analysing again: compared %q, shown %q", got, c.Selected)
	}
	// Other documents: what they lack goes.
	c.ToggleCompare("/tenantId,/id")
	var docs strings.Builder
	for i := range 300 {
		fmt.Fprintf(&docs, "{\"id\":\"%d\",\"region\":\"r%d\"}\n", i, i%7)
	}
	f.text = docs.String()
	c.Pasted(int64(len(f.text)))
	c.Analyse()
	finish(t, c, f)
	if got := strings.Join(c.Compared, " "); got != "/id" || c.Selected != c.Report.Recommended {
		t.Errorf("other documents: compared %q, shown %q", got, c.Selected)
	}
	// Never picked: the detail follows the recommendation.
	c2 := &Root{Page: f, Loaded: true}
	c2.LoadSample("orders")
	finish(t, c2, f)
	first := c2.Selected
	c2.Settings.Keys = []string{"/region"}
	c2.Settings.Set("noSuggest", "true")
	c2.Analyse()
	finish(t, c2, f)
	if c2.Selected != "/region" || first == "/region" {
		t.Errorf("the detail shows %q after %q; the recommendation is /region", c2.Selected, first)
	}
}

// TestAnalyseTakesTypedKey: a key typed in the key box but not added is
// measured when Analyse is pressed (it was left out, silently); one that
// cannot be read stops the analysis with its message.
func TestAnalyseTakesTypedKey(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true}
	c.LoadSample("orders")
	finish(t, c, f)
	c.KeyBox = " /region "
	c.AnalyseButton()
	if len(f.analyzed) != 2 || strings.Join(f.analyzed[1]["keys"], " ") != "/region" || c.KeyBox != "" {
		t.Fatalf("analysed %d times, keys %q, key box %q", len(f.analyzed), f.analyzed[len(f.analyzed)-1]["keys"], c.KeyBox)
	}
	finish(t, c, f)
	c.KeyBox = "region"
	c.AnalyseButton()
	if len(f.analyzed) != 2 || !strings.Contains(c.KeyError, "must start with '/'") || c.TakeFocus() != "keybox" {
		t.Errorf("analysed %d times, key error %q", len(f.analyzed), c.KeyError)
	}
}

// TestSettingNamesInMessages: a setting refused is named as the form labels
// it, so the message says which field to fix; every setting has a label.
func TestSettingNamesInMessages(t *testing.T) {
	html := render(t, &Root{Settings: Settings{Fields: map[string]string{"aggregates": "true"}}})
	for _, o := range options.All {
		if o.In&options.Page != 0 && o.Kind != options.Keys && !strings.Contains(html, ">"+o.Label+"</span>") {
			t.Errorf("setting %s: the form does not label a field %q", o.Name, o.Label)
		}
	}
	for _, tc := range []struct {
		set  Settings
		want string
	}{
		{Settings{Fields: map[string]string{"ru": "450"}}, `Check the settings: "Throughput (RU/s)" 450 is not a multiple of 100`},
		{Settings{Fields: map[string]string{"writesPerSecond": "-5"}}, `Check the settings: "Writes / s" must be a number of 0 or more, not "-5"`},
		{Settings{Fields: map[string]string{"targetGb": "10", "growthGbPerDay": "1", "retentionDays": "30"}}, `Check the settings: give either "Expected size (GB)" or "Growth (GB / day)" with "Kept for (days)", not both`},
		{Settings{Fields: map[string]string{"timeField": "ts"}}, `Check the settings: "Time field": path "ts" must start with '/'`},
	} {
		f := &fakePage{}
		c := &Root{Page: f, Loaded: true, Settings: tc.set}
		c.LoadSample("orders")
		if !strings.HasPrefix(c.Error, tc.want) {
			t.Errorf("%+v: error %q, want %q…", tc.set, c.Error, tc.want)
		}
	}
}

// TestOperationsTable: the table of operations says where each goes, not
// what it reads: writes are listed too ("Reads: one partition" for a patch).
func TestOperationsTable(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true, Settings: Settings{Keys: []string{"/tenantId"}, Fields: map[string]string{"noSuggest": "true", "queries": "500 read /id /tenantId\n20 patch /status"}}}
	c.LoadSample("orders")
	finish(t, c, f)
	html := render(t, c)
	i := strings.Index(html, `id="verdicts"`)
	if i < 0 {
		t.Fatal("no table of operations")
	}
	table := html[i:]
	if !strings.Contains(table, `<th scope="col">Goes to</th>`) || strings.Contains(table, `<th scope="col">Reads</th>`) || !strings.Contains(table, "patch /status") {
		t.Errorf("table of operations:\n%.1500s", table)
	}
}

// TestRowsInRankOrder: the report lists the keys the user named first;
// the table reads in rank order, with the named ones marked.
func TestRowsInRankOrder(t *testing.T) {
	c := &Root{Report: &report.Report{Candidates: []report.Candidate{
		{Key: report.Key{Spec: "/b", Kind: "hash"}, Named: true, Rank: 3, Grade: "C"},
		{Key: report.Key{Spec: "/a", Kind: "hash"}, Rank: 1, Grade: "A"},
		{Key: report.Key{Spec: "/c", Kind: "hash"}, Rank: 2, Grade: "A"},
	}}}
	var ranks []int
	for _, x := range c.Rows() {
		ranks = append(ranks, x.Rank)
	}
	if fmt.Sprint(ranks) != "[1 2 3]" {
		t.Errorf("ranks read %v", ranks)
	}
	if k := (&Results{Root: c}).KindText(c.Report.Candidates[0]); k != "hash, yours" {
		t.Errorf("a named key reads %q", k)
	}
}
