package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/provision"
)

var update = flag.Bool("update", false, "rewrite the renderings in testdata")

// examples are the reports of testdata: the analysis package's TestGolden
// pins them to what the built-in sample gives.
var examples = []string{"sample-defaults", "sample-scaled"}

func example(t *testing.T, name string) *Report {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func renderAll(t *testing.T, r *Report) (text, md, csv string) {
	t.Helper()
	var tb, mb, cb bytes.Buffer
	if err := WriteText(&tb, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&mb, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSV(&cb, r); err != nil {
		t.Fatal(err)
	}
	return tb.String(), mb.String(), cb.String()
}

// TestJSONRoundTrip: a report read back from its JSON writes the same
// bytes, so the renderings below see what the analysis made.
func TestJSONRoundTrip(t *testing.T) {
	for _, name := range examples {
		want, err := os.ReadFile("testdata/" + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := WriteJSON(&got, example(t, name)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: the JSON read back writes differently", name)
		}
	}
}

// TestRenderGolden pins the text, Markdown and CSV of the examples. Run
// with -update after a deliberate change.
func TestRenderGolden(t *testing.T) {
	for _, name := range examples {
		text, md, csv := renderAll(t, example(t, name))
		for _, f := range []struct{ ext, got string }{{"txt", text}, {"md", md}, {"csv", csv}} {
			file := "testdata/" + name + "." + f.ext
			if *update {
				if err := os.WriteFile(file, []byte(f.got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if f.got != string(want) {
				t.Errorf("%s differs from what the report renders; run with -update after a deliberate change", file)
			}
		}
	}
}

func TestRenderings(t *testing.T) {
	r := example(t, "sample-scaled")
	text, md, csv := renderAll(t, r)
	for _, want := range []string{"RANK  KEY", "/status *", "Recommended: ", "critical LOW_CARDINALITY: /status has only 5 distinct values"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	for _, want := range []string{"# Partition key analysis", "**Recommended key: `", "| Rank | Key |", "## `/status` — grade F"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	rows := strings.Split(strings.TrimSpace(csv), "\n")
	if len(rows) != len(r.Candidates)+1 || !strings.HasPrefix(rows[0], "rank,key,kind,named,score,grade") {
		t.Errorf("csv: %d rows for %d candidates, header %q", len(rows), len(r.Candidates), rows[0])
	}
}

// TestCSVNoFindingsIsEmpty: a key without findings has an empty findings
// cell, as CSV readers expect of a missing value, not a dash.
func TestCSVNoFindingsIsEmpty(t *testing.T) {
	r := example(t, "sample-scaled")
	r.Candidates = r.Candidates[:1]
	r.Candidates[0].Findings = nil
	_, _, out := renderAll(t, r)
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if last := len(rows[0]) - 1; rows[0][last] != "findings" || rows[1][last] != "" {
		t.Errorf("findings cell %q under %q, want it empty", rows[1][last], rows[0][last])
	}
}

// TestTablesAgree: the text and Markdown tables give each candidate the
// same figures, the busiest physical partition among them, as the CSV.
func TestTablesAgree(t *testing.T) {
	for _, name := range examples {
		r := example(t, name)
		text, md, csvOut := renderAll(t, r)
		rows, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		col, keyCol := slices.Index(rows[0], "hottest_request_share"), slices.Index(rows[0], "key")
		if col < 0 || keyCol < 0 {
			t.Fatalf("no column hottest_request_share or key in %q", rows[0])
		}
		for _, c := range r.Candidates {
			hot := HottestText(c)
			i := slices.IndexFunc(rows[1:], func(row []string) bool { return row[keyCol] == c.Key.Spec })
			if i < 0 {
				t.Fatalf("%s: no CSV row for %s", name, c.Key.Spec)
			}
			if share := rows[i+1][col]; c.PhysicalCount() > 1 && !strings.HasPrefix(hot, human.Percent(mustFloat(t, share))+" on 1 of ") ||
				c.PhysicalCount() <= 1 && (hot != "only 1 partition" || mustFloat(t, share) != 1) {
				t.Errorf("%s %s: hottest %q, the CSV says %s", name, c.Key.Spec, hot, share)
			}
			if !strings.Contains(md, fmt.Sprintf(" | %s | %s |", hot, orDash(findingCodes(c.Findings)))) {
				t.Errorf("%s: markdown lacks %q for %s", name, hot, c.Key.Spec)
			}
			if !strings.Contains(text, hot) {
				t.Errorf("%s: text lacks %q for %s", name, hot, c.Key.Spec)
			}
		}
	}
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestWriteJSONNonFinite: a report holding NaN or an infinity is written,
// finite, rather than failing (json: unsupported value: +Inf, and the
// command wrote nothing); the text, Markdown and CSV show no NaN, Inf or
// negative RU/s for them.
func TestWriteJSONNonFinite(t *testing.T) {
	r := example(t, "sample-scaled")
	nan, inf := math.NaN(), math.Inf(1)
	c := &r.Candidates[0]
	least := 400
	c.Workload = &Workload{RU: 400, TotalRU: inf, BaseRU: nan, HottestLogicalRU: inf, Headroom: math.Inf(-1), LeastRU: &least, LeastRUPartitions: 1}
	c.Largest[0].Share = nan
	c.Largest[0].Values = []any{inf, "a"}
	c.PhysicalPartitions[0].RequestShare = nan
	demand := inf
	c.PhysicalPartitions[0].DemandRU = &demand
	c.PerLogicalPartition.Lorenz[1] = [2]float64{nan, inf}
	r.Settings.Reads = inf
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatalf("WriteJSON: %v", err)
	}
	var back Report
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("the JSON does not read back: %v", err)
	}
	bc := back.Candidates[0]
	if bc.Workload.TotalRU != math.MaxFloat64 || bc.Workload.BaseRU != 0 || bc.Workload.Headroom != -math.MaxFloat64 || bc.Largest[0].Share != 0 ||
		bc.Largest[0].Values[0] != math.MaxFloat64 || *bc.PhysicalPartitions[0].DemandRU != math.MaxFloat64 || back.Settings.Reads != math.MaxFloat64 {
		t.Errorf("read back %+v, %+v", bc.Workload, bc.Largest[0])
	}
	c.Workload.TotalRU, c.Workload.HottestLogicalRU, c.Largest[0].Share = inf, inf, nan
	c.Workload.LeastRU = nil
	text, md, csv := renderAll(t, r)
	for name, s := range map[string]string{"text": text, "markdown": md, "csv": csv} {
		if strings.Contains(s, "NaN") || strings.Contains(s, "Inf") || strings.Contains(s, "-9,223") {
			t.Errorf("%s shows a figure that is not one:\n%s", name, s)
		}
	}
}

// TestWriteJSONEscapes: a character a path escapes is written \uXXXX in
// the JSON's strings, also when a write cuts it; the JSON reads back the
// same values.
func TestWriteJSONEscapes(t *testing.T) {
	r := example(t, "sample-scaled")
	r.Candidates[0].Largest[0].Values = []any{"v\u009b2J", "a\u202egnp.exe"}
	r.Candidates[0].Findings[0].Message = "x\u2066y\u2069"
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{`"v\u009b2J"`, `"a\u202egnp.exe"`, `"x\u2066y\u2069"`} {
		if !strings.Contains(out, want) {
			t.Errorf("JSON lacks %s", want)
		}
	}
	if strings.ContainsAny(out, "\u009b\u202e\u2066\u2069") {
		t.Error("JSON carries them raw")
	}
	var back Report
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back.Candidates[0].Largest[0].Values[1] != "a\u202egnp.exe" {
		t.Errorf("read back %v, %v", back.Candidates[0].Largest[0].Values, err)
	}
	// Written a byte at a time, a character cut between writes is escaped.
	var one bytes.Buffer
	e := &escaper{w: &one}
	for _, c := range []byte("[\"a\u202eb\", \"\u00e9\u0085\"]") {
		e.Write([]byte{c})
	}
	e.flush()
	if got, want := one.String(), `["a\u202eb", "é\u0085"]`; got != want {
		t.Errorf("byte by byte: %s, want %s", got, want)
	}
}

// TestMarkdownCode: a code span shows any text exactly, as CommonMark
// reads it: fenced by more backticks than any run inside, padded where a
// backtick or the spaces at its ends would be lost.
func TestMarkdownCode(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"/a", "`/a`"}, {"`", "`` ` ``"}, {"a``b", "```a``b```"}, {"`a", "`` `a ``"}, {" a ", "`  a  `"}, {"  ", "`  `"},
		{`/"a|b"`, "`/\"a|b\"`"}, {"", "` `"},
	} {
		if got := mdCode(tt.in); got != tt.want {
			t.Errorf("mdCode(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
	if got := mdCodeCell(`/"a|b"`); got != "`/\"a\\|b\"`" {
		t.Errorf("mdCodeCell: %s", got)
	}
	if got := mdText("a`b\\*c&amp;"); got != "a\\`b\\\\\\*c&amp;amp;" {
		t.Errorf("mdText: %s", got)
	}
}

// TestRankOrder: every table lists the candidates by rank, the named keys
// among them marked, where the report lists the named first (ranks 8 and
// 2 of sample-scaled, then 1); the mark is explained.
func TestRankOrder(t *testing.T) {
	r := example(t, "sample-scaled")
	if r.Candidates[0].Rank != 8 || !r.Candidates[0].Named {
		t.Fatal("sample-scaled no longer lists a named key of rank 8 first: the test needs another example")
	}
	text, md, csvOut := renderAll(t, r)
	rows, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var textRows, mdRows []string
	for _, line := range strings.Split(text, "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] != "RANK" && strings.HasPrefix(f[1], "/") && strings.Contains(line, " of ") {
			textRows = append(textRows, line)
		}
	}
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "| Rank") && strings.Count(line, "|") == 10 {
			mdRows = append(mdRows, line)
		}
	}
	if len(textRows) != len(r.Candidates) || len(mdRows) != len(r.Candidates) || len(rows) != len(r.Candidates)+1 {
		t.Fatalf("%d text rows, %d Markdown rows, %d CSV rows for %d candidates", len(textRows), len(mdRows), len(rows)-1, len(r.Candidates))
	}
	for i := range r.Candidates {
		rank := strconv.Itoa(i + 1)
		c := r.Candidates[slices.IndexFunc(r.Candidates, func(c Candidate) bool { return c.Rank == i+1 })]
		mark := map[bool]string{true: " *", false: ""}[c.Named]
		if f := strings.Fields(textRows[i]); f[0] != rank || !strings.HasPrefix(textRows[i], fmt.Sprintf("%-6s%s%s ", rank, c.Key.Spec, mark)) {
			t.Errorf("text row %d: %q, want rank %s, %s%s", i+1, textRows[i], rank, c.Key.Spec, mark)
		}
		mdMark := map[bool]string{true: ` \*`, false: ""}[c.Named]
		if want := fmt.Sprintf("| %s | %s%s | ", rank, mdCodeCell(c.Key.Spec), mdMark); !strings.HasPrefix(mdRows[i], want) {
			t.Errorf("Markdown row %d: %q, want it to start %q", i+1, mdRows[i], want)
		}
		if row := rows[i+1]; row[0] != rank || row[1] != c.Key.Spec || row[3] != strconv.FormatBool(c.Named) {
			t.Errorf("CSV row %d: %q", i+1, row)
		}
	}
	if !strings.Contains(text, "\n"+namedLegend+"\n") || !strings.Contains(md, "\n\\* a key you named, not one pkcalc suggested\n") {
		t.Error("the mark of a named key is not explained in the text and the Markdown")
	}
	// No named key, no mark to explain.
	text, md, _ = renderAll(t, example(t, "sample-defaults"))
	if strings.Contains(text, "you named") || strings.Contains(md, "you named") || strings.Contains(text, " * ") {
		t.Error("a report without named keys explains a mark it does not use")
	}
}

// TestSnippets: the container a report's snippets create has the
// candidate's key and version and the report's throughput: the RU/s
// given, else the least at which no partition throttles (created with
// less and raised after loading, when the analysis says to), else those
// its workload was put on, else none.
func TestSnippets(t *testing.T) {
	scaled, defaults := example(t, "sample-scaled"), example(t, "sample-defaults")
	noRU := example(t, "sample-scaled")
	noRU.Settings.RU = 0
	for _, c := range noRU.Candidates {
		c.Workload.RU, c.Workload.LeastRU, c.Workload.CreateRU = 6000, nil, 0
	}
	least, create := example(t, "sample-scaled"), example(t, "sample-scaled")
	for _, r := range []*Report{least, create} {
		r.Settings.RU = 0
		for _, c := range r.Candidates {
			n := 9600
			c.Workload.RU, c.Workload.LeastRU, c.Workload.CreateRU = 500, &n, 0
			if r == create {
				c.Workload.CreateRU = 6000
			}
		}
	}
	auto := example(t, "sample-defaults")
	auto.Settings.RU, auto.Settings.Autoscale = 4000, true
	for _, tt := range []struct {
		name string
		r    *Report
		c    int
		want provision.Container
	}{
		{"given", scaled, 2, provision.Container{RU: 30000}},
		{"workload", noRU, 3, provision.Container{RU: 6000}},
		{"least", least, 3, provision.Container{RU: 9600}},
		{"create then raise", create, 3, provision.Container{RU: 6000, RaiseTo: 9600}},
		{"none", defaults, 0, provision.Container{}},
		{"autoscale", auto, 5, provision.Container{RU: 4000, Autoscale: true}},
	} {
		c := tt.r.Candidates[tt.c]
		spec, err := key.Parse(c.Key.Spec)
		if err != nil {
			t.Fatal(err)
		}
		got, want := Snippets(tt.r, c), provision.Snippets(spec, epk.Version(c.Key.Version), tt.want)
		if len(got) != len(provision.IDs()) || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: %s: the snippets are not those of %+v:\n%s", tt.name, c.Key.Spec, tt.want, got[0].Code)
		}
	}
	if best, ok := Recommended(scaled); !ok || best.Key.Spec != "/id" || Snippets(scaled, Candidate{Key: Key{Spec: "id"}}) != nil {
		t.Errorf("Recommended: %s, %v; or a key that does not parse has snippets", best.Key.Spec, ok)
	}
}

// TestMarkdownSnippets: the Markdown carries every snippet of the
// recommended key, exactly, each in a fenced block tagged with its
// language, and links to them from the recommendation; without a
// recommendation it has none.
func TestMarkdownSnippets(t *testing.T) {
	for _, name := range examples {
		r := example(t, name)
		_, md, _ := renderAll(t, r)
		best, _ := Recommended(r)
		if !strings.Contains(md, "[Create the container](#create-the-container)") || !strings.Contains(md, "\n## Create the container\n") {
			t.Errorf("%s: no section or link to create the container", name)
		}
		for _, s := range Snippets(r, best) {
			block := "\n### " + s.Title + "\n\n```" + s.Lang + "\n" + s.Code + "```\n"
			if !strings.Contains(md, block) {
				t.Errorf("%s: the Markdown lacks the %s snippet as a %s block", name, s.ID, s.Lang)
			}
		}
		r.Recommended, r.NoRecommendation = "", &Notice{Code: NoSuggestion, Message: "none looks like a key."}
		if _, md, _ := renderAll(t, r); strings.Contains(md, "Create the container") {
			t.Errorf("%s: without a recommendation the Markdown still creates a container", name)
		}
	}
	// Code with backticks (a template literal, a raw string) cannot close
	// its fence.
	for _, tt := range []struct{ code, want string }{{"a", "```"}, {"x := `a`", "```"}, {"```", "````"}, {"a\n`````\n", "``````"}} {
		if got := mdFence(tt.code); got != tt.want {
			t.Errorf("mdFence(%q) = %s, want %s", tt.code, got, tt.want)
		}
	}
}

// TestProvisionTextRounds: a need is rounded up, as the advisor's
// findings round it, so that the Throughput line and the findings give
// one figure (2,073.4 RU/s read 2,073 here and 2,074 there); and no
// layout serving the workload is not said to be one value's fault.
func TestProvisionTextRounds(t *testing.T) {
	least := 2100
	c := Candidate{Workload: &Workload{TotalRU: 2073.4, LeastRU: &least, LeastRUPartitions: 1}}
	c.PhysicalPartitions = []Physical{{}}
	if got := provisionText(c); !strings.Contains(got, "the workload needs 2,074 RU/s under this key") {
		t.Errorf("%s", got)
	}
	if strings.Contains(provisionText(c), "support ticket") {
		t.Errorf("2,100 RU/s said to be past the quota")
	}
	many := 1_500_000
	c.Workload.LeastRU = &many
	if got := provisionText(c); !strings.Contains(got, "from there no partition throttles. That is past the 1,000,000 RU/s a container may have unless an Azure support ticket raises its quota.") {
		t.Errorf("past the container's quota: %s", got)
	}
	c.Workload.LeastRU, c.Workload.HottestLogicalRU = nil, 129.1
	if got := provisionText(c); got != noLayoutText {
		t.Errorf("%s", got)
	}
	c.Workload.HottestLogicalRU = 12000.2
	if got := provisionText(c); !strings.Contains(got, "one key value alone needs 12,001 RU/s") {
		t.Errorf("%s", got)
	}
}
