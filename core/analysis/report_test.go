package analysis

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/advisor"
	"github.com/pkcalc/pkcalc/core/aggregate"
	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/options"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/core/sample"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func mustKey(t *testing.T, s string) key.Spec {
	t.Helper()
	k, err := key.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// sampleOptions exercise every part of the report: named keys, a target
// size, throughput and a workload.
func sampleOptions(t *testing.T) Options {
	return Options{
		Keys:        []key.Spec{mustKey(t, "/status"), mustKey(t, "/customerId")},
		TargetBytes: 200 << 30,
		Throughput:  capacity.Throughput{RU: 30000},
		Workload:    advisor.Workload{Reads: 3000, Writes: 800, Queries: 200},
	}
}

// TestGolden pins the whole JSON report of the built-in sample: the report
// package's examples, which its renderer tests read. The same
// test runs natively and as WebAssembly, so it also proves both give the
// same bytes. Run with -update after a deliberate change.
func TestGolden(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts Options
		file string
	}{
		{"defaults", Options{}, "../report/testdata/sample-defaults.json"},
		{"scaled", sampleOptions(t), "../report/testdata/sample-scaled.json"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Analyze(strings.NewReader(sample.OrdersText(sample.DefaultOrders)), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := report.WriteJSON(&got, r); err != nil {
				t.Fatal(err)
			}
			if *update {
				os.WriteFile(tt.file, got.Bytes(), 0o644)
			}
			want, err := os.ReadFile(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				g, w := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
				for i := range min(len(g), len(w)) {
					if g[i] != w[i] {
						t.Fatalf("differs from %s at line %d:\n got %s\nwant %s", tt.file, i+1, g[i], w[i])
					}
				}
				t.Fatalf("differs from %s in length: %d lines, want %d", tt.file, len(g), len(w))
			}
		})
	}
}

func TestSampleVerdicts(t *testing.T) {
	r, err := Analyze(strings.NewReader(sample.OrdersText(sample.DefaultOrders)), sampleOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Documents != 2000 || r.Input.Format != "JSON Lines" || r.TimeField != "/orderDate" {
		t.Errorf("documents %d format %q time %q", r.Documents, r.Input.Format, r.TimeField)
	}
	// Named keys first, in the order given.
	if r.Candidates[0].Key.Spec != "/status" || r.Candidates[1].Key.Spec != "/customerId" || !r.Candidates[0].Named || r.Candidates[2].Named {
		t.Fatalf("order: %s %s", r.Candidates[0].Key.Spec, r.Candidates[1].Key.Spec)
	}
	byKey := map[string]report.Candidate{}
	for _, c := range r.Candidates {
		byKey[c.Key.Spec] = c
	}
	if c := byKey["/status"]; c.Grade != "F" || !hasFinding(c, "LOW_CARDINALITY") {
		t.Errorf("/status: %s %v", c.Grade, c.Findings)
	}
	if c := byKey["/tenantId"]; c.Grade != "F" || !hasFinding(c, "HOT_PARTITION") || !hasFinding(c, "LOGICAL_PARTITION_LIMIT") {
		t.Errorf("/tenantId: %s %v", c.Grade, c.Findings)
	}
	var best report.Candidate
	for _, c := range r.Candidates {
		if c.Rank == 1 {
			best = c
		}
	}
	if r.Recommended != best.Key.Spec || (best.Grade != "A" && best.Grade != "B") {
		t.Errorf("best key %s rank %d grade %s, recommended %s", best.Key.Spec, best.Rank, best.Grade, r.Recommended)
	}
	// The time of the order, to the second, takes every write of a second
	// on one value: not a key to propose, and named, not the key to
	// recommend (it was, at 800 writes/s).
	if c, ok := byKey["/orderDate"]; ok {
		t.Errorf("a time alone is proposed: /orderDate, score %d", c.Score)
	}
	timed := sampleOptions(t)
	timed.Keys = append(timed.Keys, mustKey(t, "/orderDate"))
	rt, err := Analyze(strings.NewReader(sample.OrdersText(sample.DefaultOrders)), timed)
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(rt.Candidates, func(c report.Candidate) bool { return c.Key.Spec == "/orderDate" }); i < 0 || rt.Recommended == "/orderDate" ||
		!hasFinding(rt.Candidates[i], "MONOTONIC") || rt.Candidates[i].Score > 70 {
		t.Errorf("/orderDate named: %+v, recommended %s", rt.Candidates, rt.Recommended)
	}
	if c := byKey["/orderDate:day"]; c.Key.Spec != "" && !hasFinding(c, "MONOTONIC") {
		t.Errorf("/orderDate:day: %v", c.Findings)
	}
}

// No key is recommended when every key leaves most documents without a
// value Cosmos DB accepts, and a hash V1 container gets no hierarchical key.
func TestRecommendedIsUsable(t *testing.T) {
	var in strings.Builder
	for i := range 50 {
		fmt.Fprintf(&in, "{\"id\":\"%d\",\"tags\":[\"a\"],\"k\":\"%s%d\"}\n", i, strings.Repeat("x", 120), i%5)
	}
	r, err := Analyze(strings.NewReader(in.String()), Options{Keys: []key.Spec{mustKey(t, "/tags"), mustKey(t, "/nope")}, NoSuggest: true})
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	report.WriteText(&text, r)
	if r.Recommended != "" || r.NoRecommendation == nil || r.NoRecommendation.Code != report.NoUsableKey || strings.Contains(text.String(), "Recommended:") || !strings.Contains(text.String(), "No key recommended: No key measured is usable") {
		t.Errorf("recommended %q:\n%s", r.Recommended, text.String())
	}
	// A key 60% of documents lack ranks below a constant one, whatever its score.
	var mix strings.Builder
	for i := range 100 {
		m := ""
		if i%5 < 2 {
			m = fmt.Sprintf(`,"m":"v%d"`, i)
		}
		fmt.Fprintf(&mix, "{\"id\":\"%d\",\"c\":\"x\"%s}\n", i, m)
	}
	r, _ = Analyze(strings.NewReader(mix.String()), Options{Keys: []key.Spec{mustKey(t, "/m"), mustKey(t, "/c")}, NoSuggest: true})
	if r.Recommended != "/c" || r.Candidates[0].Rank != 2 || r.Candidates[0].Score <= r.Candidates[1].Score {
		t.Errorf("recommended %q; /m rank %d score %d, /c score %d", r.Recommended, r.Candidates[0].Rank, r.Candidates[0].Score, r.Candidates[1].Score)
	}
	v1, err := Analyze(strings.NewReader(in.String()), Options{HashVersion: epk.V1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range v1.Candidates {
		if c.Key.Kind == string(key.MultiHash) {
			t.Errorf("hash V1: candidate %s", c.Key.Spec)
		}
	}
	if v1.Recommended == "" || strings.Contains(v1.Recommended, ",") {
		t.Errorf("hash V1: recommended %q", v1.Recommended)
	}
}

func hasFinding(c report.Candidate, code string) bool {
	for _, f := range c.Findings {
		if f.Code == code {
			return true
		}
	}
	return false
}

func TestNoSuggestAndWindow(t *testing.T) {
	text := sample.OrdersText(3000)
	opts := Options{Keys: []key.Spec{mustKey(t, "/tenantId"), mustKey(t, "/tenantId,/customerId")}, NoSuggest: true}
	a, _ := Analyze(strings.NewReader(text), opts)
	opts.Window = 7 // candidates chosen after 7 documents: the rest streams, read only for their keys
	b, _ := Analyze(strings.NewReader(text), opts)
	if a.PathsDocuments != 3000 || b.PathsDocuments != 7 {
		t.Errorf("the path tables describe %d and %d documents, want 3000 and 7", a.PathsDocuments, b.PathsDocuments)
	}
	// The sample's orders are in the order of their ids and dates.
	if len(a.Warnings) != 0 || len(b.Warnings) != 1 || b.Warnings[0].Code != report.WindowSorted {
		t.Errorf("warnings %+v and %+v, want none and %s", a.Warnings, b.Warnings, report.WindowSorted)
	}
	a.Paths, b.Paths, a.PathsDocuments, b.PathsDocuments, b.Warnings = nil, nil, 0, 0, a.Warnings
	var ja, jb bytes.Buffer
	report.WriteJSON(&ja, a)
	report.WriteJSON(&jb, b)
	if len(a.Candidates) != 2 || ja.String() != jb.String() {
		t.Errorf("window changed the report of named keys (%d candidates)", len(a.Candidates))
	}
}

func TestBadInputStillReports(t *testing.T) {
	r, err := Analyze(strings.NewReader("{\"id\":\"1\",\"t\":\"a\"}\n{\"id\":\"2\",\"t\":}\n{\"id\":\"3\",\"t\":\"b\"}\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Documents != 2 || r.Input.ErrorCount != 1 || r.Input.Errors[0].Line != 2 || r.Input.Errors[0].Column != 15 {
		t.Errorf("documents %d errors %+v", r.Documents, r.Input.Errors)
	}
	empty, _ := Analyze(strings.NewReader(""), Options{})
	if empty.Documents != 0 || len(empty.Candidates) != 0 || empty.Input.Format != "empty" {
		t.Errorf("empty input: %+v", empty)
	}
}

func TestAggregates(t *testing.T) {
	csv := "k0,documents,bytes\n\"contoso\",9000,9000000\n\"fabrikam\",800,800000\n\"litware\",200,200000\n\"bad\",-1,0\n"
	rows, problems := aggregate.Read(strings.NewReader(csv), 1)
	r := AnalyzeAggregates(rows, problems, mustKey(t, "/tenantId"), Options{TargetBytes: 100 << 30})
	if r.Documents != 10000 || r.Input.Format != "per-key aggregates" || r.Input.ErrorCount != 1 || len(r.Candidates) != 1 {
		t.Fatalf("%+v", r)
	}
	c := r.Candidates[0]
	if c.LogicalPartitions != 3 || c.Largest[0].Values[0] != "contoso" || c.Projection.OverLimit != 1 || !hasFinding(c, "HOT_PARTITION") {
		t.Errorf("%+v", c)
	}
}

func TestMarkdownEscapesUserText(t *testing.T) {
	for _, in := range []string{
		`{"t":"<script>x</script>|` + "`" + `"}` + "\n" + `{"t":"b"}`,
		// The name of a wrapper's property is in the input's format.
		`{"_rid":"x","<script>x</script>":[{"t":"a"},{"t":"b"}]}`,
	} {
		r, _ := Analyze(strings.NewReader(in), Options{Keys: []key.Spec{mustKey(t, "/t")}, NoSuggest: true})
		var md bytes.Buffer
		report.WriteMarkdown(&md, r)
		if strings.Contains(md.String(), "<script>") {
			t.Errorf("markdown carries markup:\n%s", md.String())
		}
	}
}

// TestReads: every path the keys, the time field, the weight field and the
// id check read is looked up once, and each key gets its paths' values in its order.
func TestReads(t *testing.T) {
	var specs []key.Spec
	for _, s := range []string{"/a", "/a,/b/c", "/b/c+/a:day", "/d+hash(/a)%4", `/"b/c"`} {
		k, err := key.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, k)
	}
	r := newReads(specs, []string{"d"}, []string{"w"}, nil)
	wantPaths := [][]string{{"a"}, {"b", "c"}, {"d"}, {"b/c"}, {"w"}, {"id"}}
	wantUses := [][]int{{0}, {0, 1}, {1, 0}, {2, 0}, {3}}
	if !slices.EqualFunc(r.paths, wantPaths, slices.Equal) || !slices.EqualFunc(r.uses, wantUses, slices.Equal) {
		t.Errorf("paths %q uses %v, want %q and %v", r.paths, r.uses, wantPaths, wantUses)
	}
	if r.time != 2 || r.weight != 4 || r.id != 5 {
		t.Errorf("time field at %d, weight at %d, id at %d, want 2, 4 and 5", r.time, r.weight, r.id)
	}
	// A key on /id shares its path with the id check.
	idKey, _ := key.Parse("/tenantId,/id")
	if r := newReads([]key.Spec{idKey}, nil, nil, nil); len(r.paths) != 2 || r.id != 1 {
		t.Errorf("key /tenantId,/id: paths %q, id at %d, want 2 paths and 1", r.paths, r.id)
	}
	if r := newReads(specs, nil, nil, nil); r.time != -1 || r.weight != -1 || r.at(r.time) != nil {
		t.Errorf("no time or weight field: at %d and %d", r.time, r.weight)
	}
	for k, use := range r.uses {
		if len(r.byKey[k]) != len(use) {
			t.Errorf("key %d: room for %d values, reads %d", k, len(r.byKey[k]), len(use))
		}
	}
}

// renderAll writes a report in the formats people read.
func renderAll(t *testing.T, r *report.Report) (text, md, csv string) {
	t.Helper()
	var tb, mb, cb bytes.Buffer
	if err := report.WriteText(&tb, r); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteMarkdown(&mb, r); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteCSV(&cb, r); err != nil {
		t.Fatal(err)
	}
	return tb.String(), mb.String(), cb.String()
}

// TestQueriesNotRead: lines of the queries that cannot be read are shown,
// positioned, in text and Markdown (escaped there), not only in the JSON,
// and are among the notes a command prints beside CSV.
func TestQueriesNotRead(t *testing.T) {
	docs := schemaLines(20, func(i int) string { return fmt.Sprintf(`{"id":"%d","t":"t%d"}`, i, i%5) })
	for _, tt := range []struct {
		name, queries string
		read          string   // what the text says of the operations read
		want          []string // in text and in the notes
		wantMD        []string
	}{
		{
			name:    "a bad line among good ones",
			queries: "1 SELEKT * FROM c\n2 SELECT * FROM c WHERE c.t = 'a' AND\n3 SELECT * FROM c WHERE c.t = 'b'\n",
			read:    "Queries not read (1 operation read and used):",
			want:    []string{"line 1, column 3: expected SELECT to start the query, found 'SELEKT'", "line 2, column 38: expected an expression after 'AND'"},
			wantMD:  []string{"## Queries not read", "- line 1, column 3: expected SELECT to start the query, found 'SELEKT'"},
		},
		{
			name:    "the only line is bad",
			queries: "SELEKT_x <b>\n",
			read:    "Queries not read (no operation read: routing is not measured):",
			want:    []string{"line 1, column 1: expected SELECT to start the query, found 'SELEKT_x'"},
			wantMD:  []string{"1 line of the queries could not be read", "found 'SELEKT\\_x'"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Analyze(strings.NewReader(docs), Options{Workload: advisor.Workload{Operations: tt.queries}})
			if err != nil {
				t.Fatal(err)
			}
			text, md, _ := renderAll(t, r)
			notes := strings.Join(report.Notes(r), "\n")
			if !strings.Contains(text, tt.read) {
				t.Errorf("text lacks %q:\n%s", tt.read, text)
			}
			for _, want := range tt.want {
				if !strings.Contains(text, "\n  "+want) {
					t.Errorf("text lacks %q:\n%s", want, text)
				}
				if !strings.Contains(notes, "query not read: "+want) {
					t.Errorf("notes lack %q:\n%s", want, notes)
				}
			}
			for _, want := range tt.wantMD {
				if !strings.Contains(md, want) {
					t.Errorf("markdown lacks %q:\n%s", want, md)
				}
			}
		})
	}
}

// TestRecommendationAgrees: text, Markdown and JSON show the same
// recommended key, and none with the same reason when the report has none.
func TestRecommendationAgrees(t *testing.T) {
	for _, tt := range []struct {
		name, input string
		opts        Options
		want        string // the recommended key, or the code of why there is none
	}{
		{"sample", sample.OrdersText(300), Options{}, "/id"},
		{"a named key", sample.OrdersText(300), Options{Keys: []key.Spec{mustKey(t, "/status")}}, "/id"},
		{"a named key on no documents", "[]", Options{Keys: []key.Spec{mustKey(t, "/x")}}, report.NoDocuments},
		{"no documents", "", Options{}, report.NoDocuments},
		{"two documents", "{\"id\":\"1\",\"t\":\"a\"}\n{\"id\":\"2\",\"t\":\"b\"}\n", Options{}, report.TooFewValues},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Analyze(strings.NewReader(tt.input), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			text, md, _ := renderAll(t, r)
			if r.Recommended != "" {
				if r.Recommended != tt.want || r.NoRecommendation != nil {
					t.Fatalf("recommended %q (why none: %+v), want %s", r.Recommended, r.NoRecommendation, tt.want)
				}
				if !strings.Contains(text, "\nRecommended: "+tt.want+" (") || !strings.Contains(md, "**Recommended key: `"+tt.want+"`**") {
					t.Errorf("text or markdown does not recommend %s:\n%s\n%s", tt.want, text, md)
				}
				return
			}
			if r.NoRecommendation == nil || r.NoRecommendation.Code != tt.want {
				t.Fatalf("no recommendation, reason %+v, want %s", r.NoRecommendation, tt.want)
			}
			why := r.NoRecommendation.Message
			if strings.Contains(text, "Recommended:") || !strings.Contains(text, "No key recommended: "+why) {
				t.Errorf("text, with no recommendation in the report:\n%s", text)
			}
			if strings.Contains(md, "Recommended key") || !strings.Contains(md, "**No key recommended**: "+why) {
				t.Errorf("markdown, with no recommendation in the report:\n%s", md)
			}
		})
	}
	// A report with candidates but none recommended (as a JSON consumer
	// may build one): the first row is not shown as the recommendation.
	r, _ := Analyze(strings.NewReader(sample.OrdersText(300)), Options{})
	r.Recommended, r.NoRecommendation = "", &report.Notice{Code: report.NoSuggestion, Message: "none fits"}
	if text, _, _ := renderAll(t, r); strings.Contains(text, "Recommended:") || !strings.Contains(text, "No key recommended: none fits") {
		t.Errorf("text recommends a key the report does not:\n%s", text)
	}
}

// TestNoCandidatesSaysWhy: with no candidates the report gives the real
// reason, not that no path can be a key when some can.
func TestNoCandidatesSaysWhy(t *testing.T) {
	for _, tt := range []struct {
		name, input, code, want string
	}{
		{"one document", `{"id":"1","t":"a"}`, report.TooFewValues, "Only 1 document: too few to suggest keys, as a suggested key needs at least 3 distinct values. Name the keys to measure them."},
		{"two documents", "{\"id\":\"1\",\"t\":\"a\"}\n{\"id\":\"2\",\"t\":\"b\"}", report.TooFewValues, "Only 2 documents: too few to suggest keys"},
		{"few values", schemaLines(10, func(i int) string { return fmt.Sprintf(`{"t":"t%d"}`, i%2) }), report.TooFewValues, "No path has the 3 distinct values a suggested key needs (the most is 2)."},
		{"no usable path", schemaLines(10, func(i int) string { return fmt.Sprintf(`{"a":{"b":[%d]}}`, i) }), report.NoUsablePath, "No path of the documents can be a partition key"},
		{"free text", schemaLines(10, func(i int) string { return fmt.Sprintf(`{"description":"item number %d of many"}`, i) }), report.NoSuggestion, "No path looks like a partition key"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Analyze(strings.NewReader(tt.input), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Candidates) != 0 || r.NoRecommendation == nil || r.NoRecommendation.Code != tt.code || !strings.HasPrefix(r.NoRecommendation.Message, tt.want) {
				t.Fatalf("%d candidates, reason %+v; want %s: %q", len(r.Candidates), r.NoRecommendation, tt.code, tt.want)
			}
			if text, _, _ := renderAll(t, r); !strings.Contains(text, tt.want) {
				t.Errorf("text lacks %q:\n%s", tt.want, text)
			}
		})
	}
}

// TestNoDocumentsNotGraded: with no documents there is nothing to measure:
// no key is graded, named or not, and the report says so.
func TestNoDocumentsNotGraded(t *testing.T) {
	named := Options{Keys: []key.Spec{mustKey(t, "/x")}}
	rows, problems := aggregate.Read(strings.NewReader("k0,documents,bytes\n"), 1)
	for _, tt := range []struct {
		name string
		rep  func() (*report.Report, error)
		want string
	}{
		{"[] with a named key", func() (*report.Report, error) { return Analyze(strings.NewReader("[]"), named) }, "The input holds no documents: there is nothing to measure."},
		{"nothing", func() (*report.Report, error) { return Analyze(strings.NewReader(""), Options{}) }, "The input holds no documents"},
		{"only bad documents", func() (*report.Report, error) { return Analyze(strings.NewReader("{\"x\":}\n{\"x\":]\n"), named) }, "No document could be read (2 problems in the input)"},
		{"aggregates without rows", func() (*report.Report, error) {
			return AnalyzeAggregates(rows, problems, mustKey(t, "/x"), Options{}), nil
		}, "The input holds no documents"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := tt.rep()
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Candidates) != 0 || r.Recommended != "" || r.NoRecommendation == nil || r.NoRecommendation.Code != report.NoDocuments || !strings.HasPrefix(r.NoRecommendation.Message, tt.want) {
				t.Fatalf("%d candidates, recommended %q, reason %+v", len(r.Candidates), r.Recommended, r.NoRecommendation)
			}
			text, md, _ := renderAll(t, r)
			for _, out := range []string{text, md} {
				if !strings.Contains(out, tt.want) || strings.Contains(out, "0 distinct values") || strings.Contains(out, "grade") {
					t.Errorf("with no documents:\n%s", out)
				}
			}
		})
	}
}

// TestSettingWarnings: a weight or time field the documents lack is
// reported in every format, and a weight field with no weight at all
// weighs documents equally instead of giving every key 0 % of requests.
func TestSettingWarnings(t *testing.T) {
	docs := func(n int, weight func(i int) string) string {
		return schemaLines(n, func(i int) string {
			return fmt.Sprintf(`{"id":"%d","device":"dev-%d","label":"L%d","ts":"2024-03-01T%02d:00:00Z"%s}`, i, i%4, i, i%24, weight(i))
		})
	}
	none := func(int) string { return "" }
	for _, tt := range []struct {
		name  string
		input string
		opts  Options
		want  []string // codes
		text  string   // in every format
	}{
		{"weight field in no document", docs(40, none), Options{WeightPath: []string{"nonexistent"}}, []string{report.WeightFieldUnused},
			"The weight field /nonexistent holds no number above 0 in any of the 40 documents, so requests cannot follow it: every document is weighted the same instead."},
		{"weight field of text", docs(40, func(i int) string { return `,"w":"heavy"` }), Options{WeightPath: []string{"w"}}, []string{report.WeightFieldUnused}, "The weight field /w holds no number above 0 in any of the 40 documents"},
		{"weight field mostly 0", docs(40, func(i int) string { return fmt.Sprintf(`,"w":%d`, max(0, i-30)) }), Options{WeightPath: []string{"w"}}, []string{report.WeightFieldSparse},
			"The weight field /w holds no number above 0 in 31 of the 40 documents (it is missing, not a number, or 0 or less): they are counted as taking no requests."},
		{"weight field in every document", docs(40, func(i int) string { return `,"w":2` }), Options{WeightPath: []string{"w"}}, nil, ""},
		{"weight field with uniform traffic", docs(40, none), Options{WeightPath: []string{"w"}, Workload: advisor.Workload{Traffic: "uniform"}}, nil, ""},
		{"time field of names", docs(40, none), Options{TimePath: []string{"label"}}, []string{report.TimeFieldNoTimes},
			"The time field /label holds no time (a date in a form pkcalc reads, such as ISO 8601 or RFC 1123, or seconds, milliseconds or microseconds since 1970) in any of the 40 documents"},
		{"time field mostly missing", docs(40, func(i int) string {
			if i < 30 {
				return ""
			}
			return fmt.Sprintf(`,"at":"2024-03-02T%02d:00:00Z"`, i-30)
		}), Options{TimePath: []string{"at"}}, []string{report.TimeFieldSparse}, "The time field /at holds a time in only 10 of the 40 documents"},
		{"time field detected", docs(40, none), Options{}, nil, ""},
		{"times never set", schemaLines(40, func(i int) string {
			at := 1709280000 + 3600*i
			if i%10 == 0 {
				at = 0
			}
			return fmt.Sprintf(`{"id":"%d","device":"dev-%d","at":%d}`, i, i%4, at)
		}), Options{TimePath: []string{"at"}}, []string{report.TimeFieldZero},
			"The time field /at holds 0, or 1970-01-01T00:00:00Z, in 4 documents: what a time never set is written as. They are left out of the time the documents cover"},
		{"target below the input", docs(40, none), Options{TargetBytes: 107}, []string{report.TargetBelowInput},
			"The target size, 107 B, is below the input's own, "},
		{"target documents below the input", docs(40, none), Options{TargetDocs: 10}, []string{report.TargetBelowInput},
			"The target, 10 documents, is below the input's own 40: a sample is projected up, never down"},
		{"target above the input", docs(40, none), Options{TargetDocs: 400}, nil, ""},
		// 2,000 GB need 2,000 RU/s, or an autoscale maximum of 20,000.
		{"throughput below the storage's", docs(40, none), Options{TargetBytes: 2000 << 30, Throughput: capacity.Throughput{RU: 1000}}, []string{report.ThroughputBelowStorage, report.FarProjection},
			"1,000 RU/s is below the least the service allows for 2.0 TB of data, 2,000 RU/s: every figure uses 2,000 instead."},
		{"autoscale below the storage's", docs(40, none), Options{TargetBytes: 2000 << 30, Throughput: capacity.Throughput{RU: 10000, Autoscale: true}}, []string{report.ThroughputBelowStorage, report.FarProjection},
			"10,000 RU/s as the autoscale maximum is below the least the service allows for 2.0 TB of data, 20,000 RU/s as the autoscale maximum"},
		// 40 documents grown to 2 TB: every figure rests on their proportions.
		{"throughput enough for the storage", docs(40, none), Options{TargetBytes: 2000 << 30, Throughput: capacity.Throughput{RU: 2000}}, []string{report.FarProjection},
			"The target, 2.0 TB, is 772,476,132 times the input (2.7 KB in 40 documents)"},
		{"a target 999 times the input", docs(40, none), Options{TargetDocs: 40 * 999}, nil, ""},
		{"a target 1,000 times the input", docs(40, none), Options{TargetDocs: 40 * 1000}, []string{report.FarProjection}, "is 1,000 times the input"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Analyze(strings.NewReader(tt.input), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			var codes []string
			for _, w := range r.Warnings {
				codes = append(codes, w.Code)
			}
			if !slices.Equal(codes, tt.want) {
				t.Fatalf("warnings %+v, want codes %q", r.Warnings, tt.want)
			}
			if tt.text == "" {
				return
			}
			text, md, _ := renderAll(t, r)
			var j bytes.Buffer
			report.WriteJSON(&j, r)
			for name, out := range map[string]string{"text": text, "markdown": md, "json": j.String(), "notes": strings.Join(report.Notes(r), "\n")} {
				if !strings.Contains(out, tt.text) {
					t.Errorf("%s lacks %q:\n%s", name, tt.text, out)
				}
			}
			for _, c := range r.Candidates {
				if tt.want[0] == report.WeightFieldUnused && hottest(c) == 0 {
					t.Errorf("%s takes 0%% of requests on every physical partition", c.Key.Spec)
				}
				if tt.want[0] == report.TimeFieldNoTimes && strings.Contains(c.Key.Spec, "/label:") {
					t.Errorf("candidate %s buckets a field that holds no time", c.Key.Spec)
				}
			}
		})
	}
}

func hottest(c report.Candidate) float64 {
	h := 0.0
	for _, p := range c.PhysicalPartitions {
		h = max(h, p.RequestShare)
	}
	return h
}

// A target is echoed however small: rounded to 0 it would vanish.
func TestTargetEchoed(t *testing.T) {
	for _, tt := range []struct {
		bytes int64
		want  float64
	}{
		{0, 0},
		{107, 107.0 / (1 << 30)},
		{1 << 29, 0.5},
		{500 << 30, 500},
	} {
		if got := targetGB(tt.bytes); got != tt.want {
			t.Errorf("targetGB(%d) = %v, want %v", tt.bytes, got, tt.want)
		}
	}
}

// TestFormatsShowInputProblems: text and Markdown say the same about the
// input: the problems skipped and the notes on values kept, positioned,
// and a count of logical partitions that is estimated is marked so in
// both.
func TestFormatsShowInputProblems(t *testing.T) {
	docs := schemaLines(300, func(i int) string {
		switch i {
		case 7:
			return `{"id":"7","t":}`
		case 9:
			return `{"id":"9","t":"x_*y*","t":"b"}`
		}
		return fmt.Sprintf(`{"id":"%d","t":"t%d"}`, i, i%7)
	})
	r, err := Analyze(strings.NewReader(docs), Options{Keys: []key.Spec{mustKey(t, "/id")}, NoSuggest: true, MaxDistinct: 100})
	if err != nil {
		t.Fatal(err)
	}
	if r.Input.ErrorCount != 1 || len(r.Input.Warnings) != 1 || !r.Candidates[0].LogicalPartitionsEstimated {
		t.Fatalf("errors %+v, notes %+v, estimated %v", r.Input.Errors, r.Input.Warnings, r.Candidates[0].LogicalPartitionsEstimated)
	}
	text, md, _ := renderAll(t, r)
	for _, want := range []string{"1 problem in the input", "line 8, column 15 (document 8): ", `line 10, column 31 (document 10): property "t" appears more than once`, "~"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

// TestDocumentCount: text and Markdown count the documents in words that
// agree with the number.
func TestDocumentCount(t *testing.T) {
	for _, tt := range []struct {
		input, want string
	}{
		{`{"id":"1"}`, "1 document ("},
		{"{\"id\":\"1\"}\n{\"id\":\"2\"}", "2 documents ("},
		{"", "0 documents ("},
	} {
		r, err := Analyze(strings.NewReader(tt.input), Options{Keys: []key.Spec{mustKey(t, "/id")}})
		if err != nil {
			t.Fatal(err)
		}
		text, md, _ := renderAll(t, r)
		if !strings.HasPrefix(text, tt.want) || !strings.Contains(md, "\n"+tt.want) {
			t.Errorf("%q: want %q in\n%s\n%s", tt.input, tt.want, text, md)
		}
	}
}

// TestNamedTwice: a key named twice is measured and shown once.
func TestNamedTwice(t *testing.T) {
	r, err := Analyze(strings.NewReader(sample.OrdersText(200)), Options{Keys: []key.Spec{mustKey(t, "/status"), mustKey(t, " /status"), mustKey(t, "/tenantId"), mustKey(t, "/status")}, NoSuggest: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r.Candidates {
		got = append(got, c.Key.Spec)
		if !c.Named {
			t.Errorf("%s is not marked named", c.Key.Spec)
		}
	}
	if want := []string{"/status", "/tenantId"}; !slices.Equal(sortedCopy(got), want) {
		t.Errorf("candidates %q, want %q once each", got, want)
	}
}

func sortedCopy(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// TestTextSaysTarget: the text, like the Markdown, says what the figures
// are projected to.
func TestTextSaysTarget(t *testing.T) {
	for _, tt := range []struct {
		opts Options
		want string
	}{
		{Options{TargetBytes: 500 << 30}, "projected to 500 GB"},
		{Options{TargetBytes: 1_000_000 << 30}, "projected to 1,000,000 GB"},
		{Options{TargetBytes: 2560 << 20}, "projected to 2.5 GB"},
		{Options{TargetDocs: 3_000_000}, "projected to 3,000,000 documents"},
		{Options{TargetDocs: 1}, "projected to 1 document"},
		{Options{TargetBytes: 5 << 30, TargetDocs: 1000}, "projected to 5 GB and 1,000 documents"},
	} {
		r, _ := Analyze(strings.NewReader(sample.OrdersText(200)), tt.opts)
		text, md, _ := renderAll(t, r)
		first, _, _ := strings.Cut(text, "\n")
		if !strings.Contains(first, tt.want) || !strings.Contains(strings.ToLower(md), strings.ToLower(tt.want)) {
			t.Errorf("want %q in the text's first line and the Markdown:\n%s\n%s", tt.want, first, md[:min(len(md), 300)])
		}
		if strings.Contains(first, tt.want+"s") || strings.Contains(strings.ToLower(md), strings.ToLower(tt.want)+"s") {
			t.Errorf("want %q, not %q:\n%s\n%s", tt.want, tt.want+"s", first, md[:min(len(md), 300)])
		}
	}
}

// TestAggregatesPastLimits: rows whose counts would carry the totals past
// any container (and past int64) are left out with a problem each, never
// shown as negative totals.
func TestAggregatesPastLimits(t *testing.T) {
	in := "k0,documents,bytes\n\"a\",9000000000000000000,1\n\"b\",9000000000000000000,1\n\"c\",5,9000000000000000000\n\"d\",7,700\n\"e\",9000000000000000,\n\"f\",-1,\n"
	rows, problems := aggregate.Read(strings.NewReader(in), 1)
	aggregate.SizeRows(rows, 1024)
	r := AnalyzeAggregates(rows, problems, mustKey(t, "/t"), Options{})
	if r.Documents != 7 || r.Bytes != 700 || r.Input.ErrorCount != 5 {
		t.Fatalf("%d documents, %d bytes, problems %+v", r.Documents, r.Bytes, r.Input.Errors)
	}
	// In input order, with the row that could not be read.
	if m := r.Input.Errors[4].Message; m != "line 7: column documents: negative count -1" {
		t.Errorf("last problem %q", m)
	}
	for i, line := range []string{"line 2: ", "line 3: ", "line 4: ", "line 6: "} {
		if m := r.Input.Errors[i].Message; !strings.HasPrefix(m, line) || !strings.Contains(m, "more than pkcalc models: the row is left out") {
			t.Errorf("problem %d: %q", i, m)
		}
	}
}

// TestAggregatesPastLimitsJSON: in a compact JSON array, every row on
// line 1, a row past the limits is named by its number, and the problems
// stay in row order.
func TestAggregatesPastLimitsJSON(t *testing.T) {
	in := `[{"k0":"a","documents":1},{"k0":"b","documents":9e17},{"k0":"c","documents":-1},{"k0":"d","documents":9e17}]`
	rows, problems := aggregate.Read(strings.NewReader(in), 1)
	r := AnalyzeAggregates(rows, problems, mustKey(t, "/t"), Options{})
	var got []string
	for _, e := range r.Input.Errors {
		got = append(got, e.Message[:strings.Index(e.Message, ":")])
	}
	if want := []string{"line 1, row 2", "line 1, row 3", "line 1, row 4"}; !slices.Equal(got, want) || r.Documents != 1 {
		t.Errorf("%d documents; problems at %q, want %q", r.Documents, got, want)
	}
}

// TestManyProblemsCounted: past the 100 problems and notes listed, every
// format for people says how many more there are.
func TestManyProblemsCounted(t *testing.T) {
	docs := schemaLines(600, func(i int) string {
		switch i % 3 {
		case 0:
			return `{"id":"x","t":}`
		case 1:
			return fmt.Sprintf(`{"id":"%d","t":"a","t":"b"}`, i)
		}
		return fmt.Sprintf(`{"id":"%d","t":"c"}`, i)
	})
	r, err := Analyze(strings.NewReader(docs), Options{Keys: []key.Spec{mustKey(t, "/id")}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Input.ErrorCount != 200 || r.Input.Notes != 200 {
		t.Fatalf("%d problems, %d notes", r.Input.ErrorCount, r.Input.Notes)
	}
	text, md, _ := renderAll(t, r)
	notes := strings.Join(report.Notes(r), "\n")
	for _, want := range []string{"and 100 more problems", "and 100 more notes"} {
		for name, out := range map[string]string{"text": text, "markdown": md, "notes": notes} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
	}
}

// TestHottestOfManyPartitions: on tens of thousands of partitions each
// partition's share of the requests is a few thousandths of a per cent; the
// report keeps enough digits that the tables say "<0.1%", not "0%".
func TestHottestOfManyPartitions(t *testing.T) {
	spec, _ := key.Parse("/id")
	r, err := Analyze(strings.NewReader(sample.OrdersText(200)), Options{
		Keys: []key.Spec{spec}, NoSuggest: true, Partitions: options.MaxPartitions,
		Throughput: capacity.Throughput{RU: options.MaxPartitions * capacity.PartitionMaxRU}, TargetBytes: options.MaxTargetGB << 30,
	})
	if err != nil {
		t.Fatal(err)
	}
	text, md, _ := renderAll(t, r)
	want := fmt.Sprintf("<0.1%% on 1 of %s (even: <0.1%%)", human.Count(options.MaxPartitions))
	if !strings.Contains(text, want) || !strings.Contains(md, want) {
		t.Errorf("want %q in the text and the Markdown:\n%s", want, text[:min(len(text), 600)])
	}
}

// TestVerdictPrefix: a query on a hierarchical key's first level says its
// values are prefixes, which may span partitions; one on the whole key
// does not.
func TestVerdictPrefix(t *testing.T) {
	docs := schemaLines(40, func(i int) string { return fmt.Sprintf(`{"id":"%d","t":"t%d","u":"u%d"}`, i, i%4, i%7) })
	spec := mustKey(t, "/t,/u,/id")
	r, err := Analyze(strings.NewReader(docs), Options{Keys: []key.Spec{spec}, NoSuggest: true, Workload: advisor.Workload{Operations: "" +
		"SELECT * FROM c WHERE c.t = 'a'\n" +
		"SELECT * FROM c WHERE c.t IN ('a', 'b') AND c.u = 'x'\n" +
		"SELECT * FROM c WHERE c.t = 'a' AND c.u = 'x' AND c.id = '1'\n"}})
	if err != nil {
		t.Fatal(err)
	}
	var got [][3]any
	for _, v := range r.Candidates[0].Queries.Verdicts {
		got = append(got, [3]any{v.Routing, v.Values, v.Prefix})
	}
	want := [][3]any{{"targeted", 1, 1}, {"targeted", 2, 2}, {"single", 1, 0}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("routing, values, prefix = %v, want %v", got, want)
	}
}

// TestImpreciseNumbers: 64-bit ids written as JSON numbers are read as
// doubles, by Cosmos DB as by pkcalc, and distinct ones merge; the report
// says so rather than showing the merged partitions unexplained.
func TestImpreciseNumbers(t *testing.T) {
	docs := `{"id":"1","n":9007199254740993,"m":7}` + "\n" + `{"id":"2","n":9007199254740992,"m":8}` + "\n" + `{"id":"3","n":12345678901234567890,"m":9}` + "\n"
	r, err := Analyze(strings.NewReader(docs), Options{Keys: []key.Spec{mustKey(t, "/n"), mustKey(t, "/m")}, NoSuggest: true})
	if err != nil {
		t.Fatal(err)
	}
	has := func(c report.Candidate) bool {
		return slices.ContainsFunc(c.Findings, func(f report.Finding) bool { return f.Code == advisor.ImpreciseNumbers && f.Severity == "warning" })
	}
	if n, m := r.Candidates[0], r.Candidates[1]; !has(n) || has(m) || n.LogicalPartitions != 2 {
		t.Errorf("/n: %d logical partitions, findings %+v; /m: findings %+v", n.LogicalPartitions, n.Findings, m.Findings)
	}
}

// TestSuffixFollowsWrites: the writes per second, at the RU of a write of
// the average document or at --write-ru, set how many suffixes a computed
// suffix gets: the largest device's share of the writes, split N ways,
// stays under 5,000 RU/s (half of a logical partition's 10,000); where
// nothing needs spreading, no suffix is offered.
func TestSuffixFollowsWrites(t *testing.T) {
	var docs strings.Builder
	for i := range 300 {
		device := []string{"d1", "d1", "d1", "d1", "d1", "d1", "d1", "d2", "d2", "d2", "d2", "d3", "d3", "d3", "d3"}[i%15]
		fmt.Fprintf(&docs, "{\"id\":\"r%d\",\"deviceId\":%q}\n", i, device)
	}
	for _, tt := range []struct {
		workload advisor.Workload
		want     string
	}{
		// 7 of 15 documents; an insert of a small document with 2 indexed
		// values costs 5 + 2 x 0.263 RU. With no writes nothing needs
		// spreading, and a suffix would only make a device's queries read
		// more partitions.
		{advisor.Workload{}, ""},
		{advisor.Workload{Writes: 30000}, "/deviceId+hash(/id)%16"}, // 7/15 x 165,780 / 5,000
		{advisor.Workload{Writes: 30000, Measured: capacity.Costs{Write: 10}}, "/deviceId+hash(/id)%28"}, // 7/15 x 300,000 / 5,000
	} {
		r, err := Analyze(strings.NewReader(docs.String()), Options{Workload: tt.workload})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range r.Candidates {
			if strings.HasPrefix(c.Key.Spec, "/deviceId+hash(") {
				got = append(got, c.Key.Spec)
			}
		}
		if want := strings.Fields(tt.want); !slices.Equal(got, want) {
			t.Errorf("%.0f writes/s: suffixes %q, want %q", tt.workload.Writes, got, want)
		}
	}
}

// TestTargetDocsBytes: a target in documents makes the target's bytes from
// the sample's mean document, without overflowing on a large sample.
func TestTargetDocsBytes(t *testing.T) {
	// Ten billion documents of 2 KB measured on a 4 GB sample.
	a := &analysis{opts: Options{TargetDocs: 10_000_000_000}, docs: 2_000_000, bytes: 4_000_000_000}
	if got, want := a.targetBytes(), int64(20_000_000_000_000); got != want {
		t.Errorf("target bytes %d, want %d", got, want)
	}
}
