package report

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/advisor"
	"github.com/pkcalc/pkcalc/core/aggregate"
	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
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

// TestGolden pins the whole JSON report of the built-in sample. The same
// test runs natively and as WebAssembly, so it also proves both give the
// same bytes. Run with -update after a deliberate change.
func TestGolden(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts Options
		file string
	}{
		{"defaults", Options{}, "testdata/sample-defaults.json"},
		{"scaled", sampleOptions(t), "testdata/sample-scaled.json"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Analyze(strings.NewReader(sample.OrdersText(sample.DefaultOrders)), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := WriteJSON(&got, r); err != nil {
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
	byKey := map[string]Candidate{}
	for _, c := range r.Candidates {
		byKey[c.Key.Spec] = c
	}
	if c := byKey["/status"]; c.Grade != "F" || !hasFinding(c, "LOW_CARDINALITY") {
		t.Errorf("/status: %s %v", c.Grade, c.Findings)
	}
	if c := byKey["/tenantId"]; c.Grade != "F" || !hasFinding(c, "HOT_PARTITION") || !hasFinding(c, "LOGICAL_PARTITION_LIMIT") {
		t.Errorf("/tenantId: %s %v", c.Grade, c.Findings)
	}
	best := r.Candidates[2]
	if best.Rank != 1 || r.Recommended != best.Key.Spec || (best.Grade != "A" && best.Grade != "B") {
		t.Errorf("best suggested key %s rank %d grade %s, recommended %s", best.Key.Spec, best.Rank, best.Grade, r.Recommended)
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
	WriteText(&text, r)
	if r.Recommended != "" || strings.Contains(text.String(), "Recommended:") || !strings.Contains(text.String(), "No key is recommended") {
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

func hasFinding(c Candidate, code string) bool {
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
	a.Paths, b.Paths, a.PathsDocuments, b.PathsDocuments = nil, nil, 0, 0
	var ja, jb bytes.Buffer
	WriteJSON(&ja, a)
	WriteJSON(&jb, b)
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

func TestRenderings(t *testing.T) {
	r, _ := Analyze(strings.NewReader(sample.OrdersText(500)), sampleOptions(t))
	var text, md, csv bytes.Buffer
	if err := WriteText(&text, r); err != nil {
		t.Fatal(err)
	}
	WriteMarkdown(&md, r)
	WriteCSV(&csv, r)
	for _, want := range []string{"RANK  KEY", "/status *", "Recommended: ", "critical LOW_CARDINALITY: /status has only 5 distinct values"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q", want)
		}
	}
	for _, want := range []string{"# Partition key analysis", "**Recommended key: `", "| Rank | Key |", "## `/status` — grade F"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	rows := strings.Split(strings.TrimSpace(csv.String()), "\n")
	if len(rows) != len(r.Candidates)+1 || !strings.HasPrefix(rows[0], "rank,key,kind,named,score,grade") || !strings.HasPrefix(rows[1], "") {
		t.Errorf("csv: %d rows", len(rows))
	}
}

func TestMarkdownEscapesUserText(t *testing.T) {
	r, _ := Analyze(strings.NewReader(`{"t":"<script>x</script>|`+"`"+`"}`+"\n"+`{"t":"b"}`), Options{Keys: []key.Spec{mustKey(t, "/t")}, NoSuggest: true})
	var md bytes.Buffer
	WriteMarkdown(&md, r)
	if strings.Contains(md.String(), "<script>") {
		t.Errorf("markdown carries markup:\n%s", md.String())
	}
}

// TestReads: every path the keys, the time field and the weight field read
// is looked up once, and each key gets its paths' values in its order.
func TestReads(t *testing.T) {
	var specs []key.Spec
	for _, s := range []string{"/a", "/a,/b/c", "/b/c+/a:day", "/d+hash(/a)%4", `/"b/c"`} {
		k, err := key.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, k)
	}
	r := newReads(specs, []string{"d"}, []string{"w"})
	wantPaths := [][]string{{"a"}, {"b", "c"}, {"d"}, {"b/c"}, {"w"}}
	wantUses := [][]int{{0}, {0, 1}, {1, 0}, {2, 0}, {3}}
	if !slices.EqualFunc(r.paths, wantPaths, slices.Equal) || !slices.EqualFunc(r.uses, wantUses, slices.Equal) {
		t.Errorf("paths %q uses %v, want %q and %v", r.paths, r.uses, wantPaths, wantUses)
	}
	if r.time != 2 || r.weight != 4 {
		t.Errorf("time field at %d, weight at %d, want 2 and 4", r.time, r.weight)
	}
	if r := newReads(specs, nil, nil); r.time != -1 || r.weight != -1 || r.at(r.time) != nil {
		t.Errorf("no time or weight field: at %d and %d", r.time, r.weight)
	}
	for k, use := range r.uses {
		if len(r.byKey[k]) != len(use) {
			t.Errorf("key %d: room for %d values, reads %d", k, len(r.byKey[k]), len(use))
		}
	}
}
