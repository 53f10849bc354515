package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/analysis"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/core/sample"
	"github.com/pkcalc/pkcalc/internal/provisiontest"
)

func runCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errs bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errs)
	return code, out.String(), errs.String()
}

func TestAnalyzeText(t *testing.T) {
	code, out, errs := runCmd(t, "", "analyze", "testdata/orders.jsonl", "--key", "/tenantId")
	if code != 1 {
		t.Errorf("exit %d (the input has a bad line), stderr %q", code, errs)
	}
	for _, want := range []string{
		"3 documents (97 B), read as JSON Lines; 1 problem in the input",
		"line 3, column 22 (document 3): expected a JSON value, found '}'",
		"/tenantId *", "* a key you named, not one pkcalc suggested", "Recommended: ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestAnalyzeKeyInArray: a named key that steps into an array of the
// documents is measured, and the report says why no item holds it.
func TestAnalyzeKeyInArray(t *testing.T) {
	_, out, _ := runCmd(t, "", "analyze", "testdata/orders.jsonl", "--key", "/lines/sku", "--no-suggest")
	want := "warning KEY_IN_ARRAY: The key /lines/sku steps into /lines, which holds an array in 1 of the 3 documents: a partition key names one value per item"
	if !strings.Contains(out, want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
	if _, out, _ := runCmd(t, "", "analyze", "testdata/orders.jsonl", "--key", "/tenantId", "--no-suggest"); strings.Contains(out, "KEY_IN_ARRAY") {
		t.Errorf("a key outside the array is warned of:\n%s", out)
	}
}

// TestAnalyzeTable: JSON Lines of arrays on standard input are read as a
// table, and --key /ISO, for a name with a byte order mark before it, says
// which path it probably meant; the path table shows the mark escaped.
func TestAnalyzeTable(t *testing.T) {
	in := "[\"\ufeffISO\",\"id\"]\n[\"FR\",\"1\"]\n[\"DE\",\"2\"]\n[\"IT\",\"3\"]\n"
	_, out, _ := runCmd(t, in, "analyze", "--key", "/ISO", "--no-suggest", "-")
	for _, want := range []string{
		"3 documents (72 B), read as JSON Lines of arrays",
		"note: line 1, column 1 (document 1): the first line is an array of 2 names and the lines after it arrays of values: read as a table",
		`warning KEY_NOT_FOUND: The key /ISO is in none of the 3 documents: Cosmos DB would store every item under the undefined value, one logical partition. /"\ufeffISO", with a byte order mark (U+FEFF) before "ISO", is in 3 documents: did you mean it?`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = runCmd(t, in, "paths", "-")
	if !strings.Contains(out, `/"\ufeffISO"  string`) || strings.Contains(out, "\ufeff") {
		t.Errorf("the path table does not show the mark escaped:\n%s", out)
	}
}

// TestAnalyzeFilesWithMarks: every file may start with a byte order mark,
// as each file saved by a Windows program does: several such files, JSON
// or CSV, read with no problem, each by its own reader.
func TestAnalyzeFilesWithMarks(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.json":  "\ufeff[{\"id\":\"1\",\"t\":\"a\"},{\"id\":\"2\",\"t\":\"b\"}]",
		"b.jsonl": "\ufeff{\"id\":\"3\",\"t\":\"a\"}\r\n{\"id\":\"4\",\"t\":\"c\"}\r\n",
		"c.csv":   "\ufeffid,t\r\n5,a\r\n6,d\r\n",
		"d.csv":   "\ufeffid,t\n7,a\n",
	}
	var names []string
	for _, n := range []string{"a.json", "b.jsonl", "c.csv", "d.csv"} {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, []byte(files[n]), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, p)
	}
	code, out, errs := runCmd(t, "", append([]string{"paths"}, names[:2]...)...)
	if code != 0 || errs != "" || !strings.Contains(out, "2 documents") || strings.Contains(out, "\ufeff") || strings.Contains(out, `\ufeff`) {
		t.Errorf("exit %d, stderr %q:\n%s", code, errs, out)
	}
	code, out, errs = runCmd(t, "", append([]string{"analyze", "--key", "/t", "--no-suggest"}, names...)...)
	if code != 0 || errs != "" || !strings.HasPrefix(out, "7 documents") || strings.Contains(out, "problem") || strings.Contains(out, "KEY_NOT_FOUND") {
		t.Errorf("exit %d, stderr %q:\n%s", code, errs, out)
	}
}

func TestAnalyzeJSONMatchesFlags(t *testing.T) {
	code, out, errs := runCmd(t, `{"id":"1","t":"a"}`+"\n"+`{"id":"2","t":"a"}`+"\n"+`{"id":"3","t":"b"}`,
		"analyze", "--format", "json", "--key", "/t", "--key", "/t,/id", "--no-suggest",
		"--hash-version", "2", "--ru", "12000", "--autoscale", "--target-docs", "3e6", "--reads-per-second", "100", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		SchemaVersion int
		Settings      struct {
			HashVersion int
			RU          int
			Autoscale   bool
			TargetDocs  int64
		}
		Candidates []struct {
			Key struct {
				Spec, Kind string
				Version    int
			}
			Named      bool
			Projection struct{ Documents int64 }
			Workload   *struct{ RU int }
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.SchemaVersion != 2 || r.Settings.RU != 12000 || !r.Settings.Autoscale || r.Settings.TargetDocs != 3000000 || len(r.Candidates) != 2 {
		t.Fatalf("%+v", r)
	}
	c := r.Candidates[1]
	if c.Key.Spec != "/t,/id" || c.Key.Kind != "multihash" || c.Key.Version != 2 || !c.Named || c.Projection.Documents != 3000000 || c.Workload == nil || c.Workload.RU != 12000 {
		t.Errorf("%+v", c)
	}
}

func TestAnalyzeFormats(t *testing.T) {
	for format, want := range map[string]string{"markdown": "# Partition key analysis", "csv": "rank,key,kind,named,score,grade"} {
		code, out, errs := runCmd(t, `[{"id":"1"},{"id":"2"}]`, "analyze", "--format", format, "-")
		if code != 0 || !strings.HasPrefix(out, want) {
			t.Errorf("%s: exit %d %q %q", format, code, errs, out[:min(len(out), 80)])
		}
	}
}

func TestAnalyzeFlagErrors(t *testing.T) {
	dir := t.TempDir()
	utf16 := filepath.Join(dir, "queries-utf16.txt")
	os.WriteFile(utf16, []byte("\xff\xfe1\x000\x00 \x00S\x00E\x00L\x00E\x00C\x00T\x00"), 0o644)
	empty := filepath.Join(dir, "empty.txt")
	os.WriteFile(empty, []byte("\uFEFF \r\n"), 0o644)
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"analyze"}, "Usage: pkcalc analyze"},
		{[]string{"analyze", "--key", "/a"}, "pkcalc analyze: name a FILE of documents, or - for standard input\nRun 'pkcalc analyze --help' for the flags.\n"},
		{[]string{"analyze", "--key", "tenant", "x"}, `invalid value "tenant" for flag -key: path "tenant" must start with '/'`},
		// A system property or a step into an array is no key.
		{[]string{"analyze", "--key", "/_ts", "x"}, `invalid value "/_ts" for flag -key: /_ts is a system property (last-modified time in epoch seconds, set by Cosmos DB): the service writes it as it stores the item, so it cannot place the item`},
		{[]string{"analyze", "--key", "/tenantId,/_etag", "x"}, `level 2 of key "/tenantId,/_etag": /_etag is a system property (entity tag for optimistic concurrency, set by Cosmos DB)`},
		{[]string{"analyze", "--key", "/tags/[]/name", "x"}, `path "/tags/[]/name" steps into an array or a wildcard ([]): a partition key path names one value per item`},
		{[]string{"aggregate-query", "--engine", "cosmos", "--key", "/_rid"}, "--key: /_rid is a system property (resource id, set by Cosmos DB)"},
		{[]string{"analyze", "--bogus", "x"}, "pkcalc analyze: flag provided but not defined: -bogus\nRun 'pkcalc analyze --help' for the flags.\n"},
		// Errors name the command line's flags, not the API's options.
		{[]string{"analyze", "--hash-version", "3", "x"}, "--hash-version must be 1 or 2, not 3"},
		{[]string{"analyze", "--hash-version", "1", "--key", "/a,/b", "x"}, "hierarchical, which needs hash version 2"},
		{[]string{"analyze", "--no-suggest", "x"}, "--no-suggest needs at least one key: name it with --key"},
		{[]string{"analyze", "--format", "xml", "x"}, "--format must be text, json, markdown or csv"},
		{[]string{"analyze", "--emit", "cloudformation", "x"}, `--emit must be azure-cli, powershell, bicep, arm, terraform, dotnet, java, python, javascript or go, not "cloudformation"`},
		{[]string{"analyze", "--emit", "go", "--format", "text", "x"}, "--emit prints the code alone, not a report: give --emit or --format, not both"},
		{[]string{"analyze", "--input-format", "xml", "x"}, `--input-format must be json or csv, not "xml"`},
		{[]string{"analyze", "--traffic", "zipf", "x"}, "--traffic must be documents, uniform or weighted"},
		{[]string{"analyze", "--ru", "-5", "x"}, "--ru must be a whole number of 0 or more"},
		{[]string{"analyze", "--time-field", "ts", "x"}, "--time-field: path \"ts\" must start with '/'"},
		{[]string{"analyze", "--growth-gb-per-day", "2", "x"}, "--growth-gb-per-day and --retention-days go together"},
		{[]string{"analyze", "--growth-gb-per-day", "2", "--retention-days", "9", "--target-gb", "1", "x"}, "give either --target-gb or --growth-gb-per-day with --retention-days, not both"},
		{[]string{"analyze", "--max-distinct", "2000000", "x"}, "--max-distinct 2000000 is more than pkcalc keeps exactly"},
		{[]string{"analyze", "--doc-bytes", "0", "x"}, `--doc-bytes must be a whole number of 1 or more, not "0"`},
		// A number that is no number is told what the flag takes, as the
		// API and the page are, not the flag package's "parse error".
		{[]string{"analyze", "--workers", "two", "x"}, `pkcalc analyze: --workers must be a whole number of 1 or more, not "two"`},
		{[]string{"analyze", "--target-gb", "big", "x"}, `pkcalc analyze: --target-gb must be a number of 0 or more, not "big"`},
		{[]string{"analyze", "--ru", "0x10", "x"}, `--ru must be a whole number of 0 or more, not "0x10"`},
		{[]string{"analyze", "--workers=", "x"}, `invalid value "" for flag -workers: give a number`},
		// Throughput the service would refuse.
		{[]string{"analyze", "--ru", "40000", "--partitions", "2", "x"}, "--partitions 2 cannot serve --ru 40000: a physical partition serves at most 10,000 RU/s, so 40,000 RU/s need at least 4 partitions"},
		{[]string{"analyze", "--ru", "100", "x"}, "--ru 100 is below the least the service allows for manual throughput, 400 RU/s"},
		{[]string{"analyze", "--ru", "500", "--autoscale", "x"}, "--ru 500 is below the least the service allows for an autoscale maximum (--autoscale), 1,000 RU/s"},
		{[]string{"analyze", "--ru", "450", "x"}, "--ru 450 is not a multiple of 100"},
		{[]string{"analyze", "--aggregates", "x.csv"}, "--aggregates needs exactly one key, the key the aggregates were grouped by: name it with --key"},
		{[]string{"analyze", "--aggregates", "x.csv", "--key", "/a", "docs.json"}, "--aggregates reads aggregates instead of documents: give no FILE with it"},
		{[]string{"analyze", "missing.json"}, "no such file"},
		// A queries file that cannot be read line by line is refused whole.
		{[]string{"analyze", "--queries", utf16, "testdata/orders.jsonl"}, "--queries " + utf16 + ": the input is UTF-16 text: save it as UTF-8"},
		{[]string{"analyze", "--queries", empty, "testdata/orders.jsonl"}, "--queries " + empty + " is empty: write one query or operation a line"},
		// Refused before the files named before it are read.
		{[]string{"analyze", "testdata/orders.jsonl", "testdata"}, "pkcalc analyze: testdata is a directory: name the files of documents in it\n"},
	} {
		code, _, errs := runCmd(t, "", tt.args...)
		if code == 0 || !strings.Contains(errs, tt.msg) {
			t.Errorf("%q: exit %d, stderr %q; want %q", tt.args, code, errs, tt.msg)
		}
		if len(tt.args) > 1 && strings.Contains(errs, "Flags:") {
			t.Errorf("%q: the error is followed by the usage:\n%s", tt.args, errs)
		}
	}
}

// TestAnalyzeCSV: documents in CSV are read as the HTTP API reads them: a
// file by its name, standard input when told.
func TestAnalyzeCSV(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "orders.csv")
	tsv := filepath.Join(dir, "orders.tsv")
	jsonl := filepath.Join(dir, "orders.jsonl")
	var c, tb strings.Builder
	c.WriteString("id,tenantId\n")
	tb.WriteString("id\ttenantId\n")
	for i := range 30 {
		fmt.Fprintf(&c, "c%d,t%d\n", i, i%3)
		fmt.Fprintf(&tb, "t%d\tt%d\n", i, i%3)
	}
	os.WriteFile(csv, []byte(c.String()), 0o644)
	os.WriteFile(tsv, []byte(tb.String()), 0o644)
	os.WriteFile(jsonl, []byte(`{"id":"j1","tenantId":"t0"}`+"\n"+`{"id":"j2","tenantId":"t1"}`+"\n"), 0o644)
	for _, tt := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{csv}, "30 documents (830 B), read as CSV\n"},
		{"", []string{tsv}, "30 documents (830 B), read as TSV\n"},
		{c.String(), []string{"--input-format", "csv", "-"}, "30 documents (830 B), read as CSV\n"},
		{"", []string{"--input-format", "csv", csv}, "30 documents (830 B), read as CSV\n"},
		// Several files, each read as its name says.
		{"", []string{jsonl, csv, tsv}, "62 documents (1.7 KB), read as JSON Lines, CSV and TSV\n"},
		{"", []string{csv, csv}, "60 documents (1.6 KB), read as CSV\n"},
	} {
		code, out, errs := runCmd(t, tt.stdin, append([]string{"analyze", "--key", "/tenantId"}, tt.args...)...)
		if code != 0 || !strings.HasPrefix(out, tt.want) {
			t.Errorf("%q: exit %d, stderr %q, output:\n%s\nwant it to start %q", tt.args, code, errs, out, tt.want)
		}
	}
	// CSV read as JSON: the message gives this command line's remedies.
	code, out, _ := runCmd(t, c.String(), "analyze", "-")
	if want := `the input looks like CSV (first line "id,tenantId"), not JSON: read it as CSV: name the file .csv, or give --input-format csv`; code != 1 || !strings.Contains(out, want) {
		t.Errorf("exit %d, output:\n%s\nwant %q", code, out, want)
	}
	// With several files, a problem names its file; lines count within it.
	code, out, _ = runCmd(t, "", "analyze", "--key", "/tenantId", csv, "testdata/orders.jsonl")
	if want := "line 3, column 22 (document 3): in testdata/orders.jsonl: expected a JSON value"; code != 1 || !strings.Contains(out, want) {
		t.Errorf("exit %d, output:\n%s\nwant %q", code, out, want)
	}
	// Standard input is named so, not "-".
	orders, _ := os.ReadFile("testdata/orders.jsonl")
	code, out, _ = runCmd(t, string(orders), "analyze", "--key", "/tenantId", csv, "-")
	if want := "line 3, column 22 (document 3): in standard input: expected a JSON value"; code != 1 || !strings.Contains(out, want) {
		t.Errorf("exit %d, output:\n%s\nwant %q", code, out, want)
	}
}

// TestAnalyzeExitAndNotes: a run with nothing to measure, or with queries
// that could not be read, exits 1, and the formats for programs leave the
// problems on standard error, where a person sees them.
func TestAnalyzeExitAndNotes(t *testing.T) {
	dir := t.TempDir()
	queries := filepath.Join(dir, "queries.txt")
	os.WriteFile(queries, []byte("10 SELECT * FROM c WHERE c.tenantId = @t\n1 SELEKT * FROM c\n"), 0o644)
	nulQueries := filepath.Join(dir, "nul.txt")
	os.WriteFile(nulQueries, []byte("10 SELECT * FROM c WHERE c.tenantId = @t\n3 SELECT * FROM c WHERE c.id = \"a\x00b\"\n"), 0o644)
	docs := filepath.Join(dir, "orders.jsonl")
	var d strings.Builder
	for i := range 30 {
		fmt.Fprintf(&d, `{"id":"o%d","tenantId":"t%d"}`+"\n", i, i%3)
	}
	os.WriteFile(docs, []byte(d.String()), 0o644)
	weights := []string{"--weight-field", "/nonexistent"}
	for _, tt := range []struct {
		name   string
		stdin  string
		args   []string
		code   int
		stderr string // in the json output's standard error
	}{
		{"no documents", "[]", []string{"--key", "/x", "-"}, 1, "no key recommended: The input holds no documents"},
		// A NUL on one line of the queries is that line's problem only.
		{"query with a NUL", "", []string{"--queries", nulQueries, docs}, 1, "query not read: line 2, column 34: a control character (U+0000)"},
		{"query not read", "", []string{"--queries", queries, docs}, 1, "query not read: line 2"},
		// A warning is not a failure: the report is whole.
		{"weight field unused", "", append(weights, "--key", "/tenantId", docs), 0, "warning WEIGHT_FIELD_UNUSED"},
	} {
		code, _, errs := runCmd(t, tt.stdin, append([]string{"analyze", "--format", "json"}, tt.args...)...)
		if code != tt.code || !strings.Contains(errs, tt.stderr) {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant exit %d and %q", tt.name, code, errs, tt.code, tt.stderr)
		}
	}
}

// TestAnalyzeSeveralProjected: past the first window the analysis reads
// only the paths it needs; every file after the first must be read so too,
// and counted whole.
func TestAnalyzeSeveralProjected(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	os.WriteFile(a, []byte(sample.OrdersText(12000)), 0o644)
	os.WriteFile(b, []byte(sample.OrdersText(3000)), 0o644)
	code, out, errs := runCmd(t, "", "analyze", "--format", "json", "--key", "/tenantId", "--no-suggest", a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Documents  int
		Candidates []struct{ Documents, Missing int }
	}
	json.Unmarshal([]byte(out), &r)
	if r.Documents != 15000 || len(r.Candidates) != 1 || r.Candidates[0].Documents != 15000 || r.Candidates[0].Missing != 0 {
		t.Errorf("%+v", r)
	}
}

// TestAnalyzeSeveralParallel: each JSON Lines file is read on several
// goroutines (inputs.ReadParallel), and the report is the same for any
// number of them: three files of orders, a CSV file and one with problems
// amid its lines, each more than the megabyte a goroutine reads at once.
func TestAnalyzeSeveralParallel(t *testing.T) {
	dir := t.TempDir()
	lines := strings.SplitAfter(sample.OrdersText(9000), "\n")
	files := map[string]string{
		"a.jsonl": strings.Join(lines[:4000], ""),
		"b.jsonl": strings.Join(lines[4000:6000], "") + "{\"id\": oops}\n" + strings.Join(lines[6000:], ""),
		"c.csv":   "id,tenantId,total\nx1,t1,3\nx2,t2,4\n",
		"d.jsonl": sample.OrdersText(5000),
	}
	var names []string
	for _, name := range []string{"a.jsonl", "b.jsonl", "c.csv", "d.jsonl"} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, path)
	}
	var want []byte
	for _, workers := range []int{1, 2, 8} {
		in, done, err := openInputs(names, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := analysis.AnalyzeSource(in, analysis.Options{Window: 1_000, Workers: workers})
		done()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := in.sources[3].(*ingest.Parallel); !ok && workers > 1 {
			t.Errorf("%d workers: the last file was read by %T, not in parallel", workers, in.sources[3])
		}
		got, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = got
		} else if !bytes.Equal(got, want) {
			t.Errorf("the report with %d workers differs from the one with 1", workers)
		}
	}
}

// TestAnalyzeEmit: --emit prints, and prints alone on standard output,
// the snippet the page shows for the key (report.Snippets over the same
// run's report), and that code passes the checks core/provision's own
// snippets pass (internal/provisiontest): bash runs the az commands, the
// SDK code compiles, the Terraform is HCL as terraform fmt writes it. The
// key is the recommended one, or with --no-suggest the first --key, which
// here are a hierarchical and a synthetic key, not the recommended one.
func TestAnalyzeEmit(t *testing.T) {
	dir := t.TempDir()
	orders := filepath.Join(dir, "orders.jsonl")
	os.WriteFile(orders, []byte(sample.OrdersText(600)), 0o644)
	for _, tt := range []struct {
		name  string
		args  []string
		spec  string // the key whose container is created
		which string // how standard error names it
	}{
		{"recommended", []string{"--ru", "4000"}, "", "the recommended key"},
		{"hierarchical", []string{"--key", "/tenantId,/customerId,/id", "--key", "/id", "--no-suggest", "--ru", "4000", "--autoscale"},
			"/tenantId,/customerId,/id", "the first --key"},
		{"synthetic", []string{"--key", "/tenantId+hash(/id)%8", "--no-suggest", "--hash-version", "1"}, "/tenantId+hash(/id)%8", "the first --key"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCmd(t, "", append(append([]string{"analyze", "--format", "json"}, tt.args...), orders)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var rep report.Report
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			spec := cmp.Or(tt.spec, rep.Recommended)
			c := rep.Candidates[slices.IndexFunc(rep.Candidates, func(c report.Candidate) bool { return c.Key.Spec == spec })]
			var javas []string
			for _, want := range report.Snippets(&rep, c) {
				code, out, errs := runCmd(t, "", append(append([]string{"analyze", "--emit", want.ID}, tt.args...), orders)...)
				if code != 0 || out != want.Code {
					t.Errorf("--emit %s: exit %d, stderr %q, standard output:\n%s\nwant the page's snippet:\n%s", want.ID, code, errs, out, want.Code)
					continue
				}
				if note := fmt.Sprintf("pkcalc analyze: %s for %s, %s (score %d, grade %s)", want.Title, spec, tt.which, c.Score, c.Grade); !strings.Contains(errs, note) {
					t.Errorf("--emit %s: stderr %q lacks %q", want.ID, errs, note)
				}
				if want.ID == "java" {
					javas = append(javas, out) // one javac below
				} else if !provisiontest.Check(t, want.ID, out) && !strings.Contains(out, "partitionKey") && !strings.Contains(out, "PartitionKey") {
					t.Errorf("--emit %s: no partition key in:\n%s", want.ID, out)
				}
			}
			provisiontest.Java(t, javas...)
		})
	}
	// What the az commands create: the key, its version and the throughput
	// the run was given.
	_, out, _ := runCmd(t, "", "analyze", "--emit", "azure-cli", "--ru", "4000", orders)
	calls := provisiontest.AzureCLI(t, out)
	args := strings.Join(calls[0], " ")
	if len(calls) != 1 || !strings.HasPrefix(args, "cosmosdb sql container create ") || !strings.Contains(args, " --partition-key-version 2 ") ||
		!strings.HasSuffix(args, " --throughput 4000") || !regexp.MustCompile(` --partition-key-path /\w+ `).MatchString(args) {
		t.Errorf("az %s", args)
	}
	_, out, _ = runCmd(t, "", "analyze", "--emit", "azure-cli", "--key", "/tenantId,/customerId,/id", "--no-suggest", "--ru", "4000", "--autoscale", orders)
	if calls := provisiontest.AzureCLI(t, out); len(calls) != 2 || calls[1][0] != "rest" ||
		!strings.Contains(strings.Join(calls[1], " "), `"paths":["/tenantId","/customerId","/id"],"kind":"MultiHash","version":2}},"options":{"autoscaleSettings":{"maxThroughput":4000}}`) {
		t.Errorf("az %q", calls)
	}
	// Another key is recommended over the first --key: stderr says so.
	_, _, errs := runCmd(t, "", "analyze", "--emit", "bicep", "--key", "/status", "--key", "/customerId", "--no-suggest", orders)
	if !regexp.MustCompile(`pkcalc analyze: Bicep for /status, the first --key \(score \d+, grade [A-F]\); the recommended key is /customerId \(score \d+, grade [A-F]\)\n`).MatchString(errs) {
		t.Errorf("stderr %q", errs)
	}
}

// TestAnalyzeEmitErrors: with no key to create, --emit prints nothing and
// fails, saying why; the report's notes still go to standard error, and
// a bad input still fails the run after the code.
func TestAnalyzeEmitErrors(t *testing.T) {
	two := `{"id":"1","t":"a"}` + "\n" + `{"id":"2","t":"b"}` + "\n"
	for _, tt := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		out   string
		errs  []string
	}{
		{"no recommendation", two, []string{"-"}, 1, "", []string{
			"no key recommended: Only 2 documents: too few to suggest keys",
			"pkcalc analyze: --emit go: no key is recommended (see above), so there is no container to create; for a key of your own, name it with --key and add --no-suggest\n"}},
		{"no documents", "", []string{"--key", "/t", "--no-suggest", "-"}, 1, "", []string{
			"no key recommended: The input holds no documents",
			"pkcalc analyze: --emit go: no key was measured (see above), so there is no container to create\n"}},
		// The key the user named is created, recommended or not.
		{"named", two, []string{"--key", "/t", "--no-suggest", "-"}, 0, "func main()", []string{"pkcalc analyze: Go for /t, the first --key"}},
		{"bad line", two + "{\n", []string{"--key", "/t", "--no-suggest", "-"}, 1, "func main()", []string{
			"line 4, column 1 (document 3):", "pkcalc analyze: Go for /t, the first --key"}},
	} {
		code, out, errs := runCmd(t, tt.stdin, append([]string{"analyze", "--emit", "go"}, tt.args...)...)
		if code != tt.code || (tt.out == "") != (out == "") || !strings.Contains(out, tt.out) {
			t.Errorf("%s: exit %d, standard output %q; want exit %d and %q", tt.name, code, out, tt.code, tt.out)
		}
		for _, want := range tt.errs {
			if !strings.Contains(errs, want) {
				t.Errorf("%s: stderr %q lacks %q", tt.name, errs, want)
			}
		}
	}
}

func TestAnalyzeAggregates(t *testing.T) {
	dir := t.TempDir()
	file := dir + "/agg.csv"
	os.WriteFile(file, []byte("k0,documents\n\"contoso\",900\n\"fabrikam\",100\n"), 0o644)
	code, out, errs := runCmd(t, "", "analyze", "--aggregates", file, "--key", "/tenantId", "--doc-bytes", "2048", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Documents, Bytes int64
		Candidates       []struct{ LogicalPartitions int64 }
	}
	json.Unmarshal([]byte(out), &r)
	if r.Documents != 1000 || r.Bytes != 2048000 || len(r.Candidates) != 1 || r.Candidates[0].LogicalPartitions != 2 {
		t.Errorf("%+v", r)
	}
}

// TestAnalyzeAggregatesErrors: documents given as aggregates get one
// message saying so, and rows that cannot be read are listed up to a count.
func TestAnalyzeAggregatesErrors(t *testing.T) {
	dir := t.TempDir()
	docs := filepath.Join(dir, "docs.json")
	os.WriteFile(docs, []byte(sample.OrdersText(500)), 0o644)
	code, out, errs := runCmd(t, "", "analyze", "--aggregates", docs, "--key", "/tenantId")
	want := "pkcalc analyze: the input looks like documents, not per-key aggregates: its first 10 objects have no documents field, " +
		"the count per key value that pkcalc aggregate-query's query computes; analyze it as documents instead (run pkcalc analyze without --aggregates)\n"
	if code != 1 || out != "" || errs != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant:\n%s", code, out, errs, want)
	}
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("k0,documents\n"+strings.Repeat("a,x\n", 300)), 0o644)
	code, _, errs = runCmd(t, "", "analyze", "--aggregates", bad, "--key", "/tenantId")
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if code != 1 || len(lines) != 12 || lines[0] != `line 2: column documents: "x" is not a number` ||
		lines[10] != "and 290 more problems" || lines[11] != "pkcalc analyze: no aggregate rows could be read from "+bad {
		t.Errorf("exit %d, stderr:\n%s", code, errs)
	}
}

func TestEPK(t *testing.T) {
	for _, tt := range []struct {
		args []string
		out  string
	}{
		// Vectors from the Cosmos DB SDKs' own tests (see core/epk).
		{[]string{"epk", `["redmond"]`}, "22E342F38A486A088463DFF7838A5963\n"},
		{[]string{"epk", "--hash-version", "1", `["redmond"]`}, "05C1EFE313830C087366656E706F6500\n"},
		{[]string{"epk", "--multihash", `["redmond", 5]`}, "22E342F38A486A088463DFF7838A5963" + "19C08621B135968252FB34B4CF66F811\n"},
		{[]string{"epk", `[{"$undefined":true}]`}, ""},
	} {
		code, out, errs := runCmd(t, "", tt.args...)
		if code != 0 || (tt.out != "" && out != tt.out) || len(strings.TrimSpace(out)) == 0 {
			t.Errorf("%q: exit %d out %q err %q; want %q", tt.args, code, out, errs, tt.out)
		}
	}
	for _, bad := range [][]string{{"epk"}, {"epk", "redmond"}, {"epk", `[{"a":1}]`}, {"epk", "--multihash", "--hash-version", "1", `["a"]`}, {"epk", "--multihash", `[1,2,3,4]`}} {
		if code, _, _ := runCmd(t, "", bad...); code != 2 {
			t.Errorf("%q: exit %d, want 2", bad, code)
		}
	}
	// In words, not the parser's.
	want := "pkcalc epk: component 2: the number 1e400 is beyond the range of a double, which Cosmos DB uses for every number\n"
	if code, _, errs := runCmd(t, "", "epk", `["a", 1e400]`); code != 2 || !strings.HasPrefix(errs, want) {
		t.Errorf("exit %d, stderr %q, want %q", code, errs, want)
	}
}

func TestRanges(t *testing.T) {
	code, out, _ := runCmd(t, "", "ranges", "--partitions", "2")
	want := "0\t\"\"\t\"1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF\"\n1\t\"1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF\"\t\"FF\"\n"
	if code != 0 || out != want {
		t.Errorf("exit %d:\n%s\nwant\n%s", code, out, want)
	}
	if code, _, _ := runCmd(t, "", "ranges", "--partitions", "0"); code != 2 {
		t.Errorf("--partitions 0: exit %d", code)
	}
}

func TestAggregateQuery(t *testing.T) {
	for _, engine := range []string{"cosmos", "spark", "duckdb"} {
		code, out, errs := runCmd(t, "", "aggregate-query", "--key", "/tenantId", "--engine", engine)
		if code != 0 || !strings.Contains(out, "tenantId") || !strings.Contains(strings.ToLower(out), "group by") {
			t.Errorf("%s: exit %d %q\n%s", engine, code, errs, out)
		}
	}
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--key", "/t", "--engine", "oracle"}, `unknown engine "oracle"`},
		{[]string{"--key", "/t"}, "pkcalc aggregate-query: --engine is missing: cosmos, spark or duckdb, where the data lives\nRun 'pkcalc aggregate-query --help' for the flags.\n"},
		{[]string{"--engine", "duckdb"}, "pkcalc aggregate-query: --key is missing: the key to aggregate by"},
		{[]string{"--key", "/t", "--engine", "duckdb", "extra"}, `unexpected argument "extra"`},
	} {
		code, _, errs := runCmd(t, "", append([]string{"aggregate-query"}, tt.args...)...)
		if code != 2 || !strings.Contains(errs, tt.msg) || strings.Contains(errs, "Flags:") {
			t.Errorf("%q: exit %d, stderr %q; want %q", tt.args, code, errs, tt.msg)
		}
	}
}

// TestAggregateQueryCommand: the command in the query's comments runs as
// written, on the query's result.
func TestAggregateQueryCommand(t *testing.T) {
	dir := t.TempDir()
	for _, engine := range []string{"cosmos", "spark", "duckdb"} {
		_, q, _ := runCmd(t, "", "aggregate-query", "--key", "/tenantId,/userId", "--engine", engine)
		_, command, ok := strings.Cut(q, "--   pkcalc ")
		if !ok {
			t.Fatalf("%s: no command in\n%s", engine, q)
		}
		command, _, _ = strings.Cut(command, "\n")
		args := strings.Fields(command) // the key needs no quoting
		result := filepath.Join(dir, "result-"+engine)
		os.WriteFile(result, []byte(`[{"k0":"a","k1":"u1","documents":3,"bytes":300},{"k0":"b","k1":"u2","documents":1,"bytes":100}]`), 0o644)
		args[len(args)-1] = result
		if code, out, errs := runCmd(t, "", args...); code != 0 || !strings.HasPrefix(out, "4 documents") {
			t.Errorf("%s: pkcalc %s: exit %d, stderr %q\n%s", engine, command, code, errs, out)
		}
	}
}

func TestSample(t *testing.T) {
	code, out, errs := runCmd(t, "", "sample", "orders")
	if code != 0 || out != sample.OrdersText(sample.DefaultOrders) {
		t.Errorf("orders: exit %d, stderr %q, %d bytes", code, errs, len(out))
	}
	code, out, _ = runCmd(t, "", "sample", "--count", "3", "telemetry")
	if code != 0 || out != sample.TelemetryText(3) {
		t.Errorf("telemetry: exit %d, %q", code, out)
	}
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"sample", "customers"}, `no sample "customers": the samples are orders and telemetry`},
		{[]string{"sample", "orders", "telemetry"}, "name one sample: orders or telemetry"},
		{[]string{"sample", "--count", "-1", "orders"}, "--count must be from 1 to 10,000,000, not -1"},
		{[]string{"sample", "--count", "0", "orders"}, "--count must be from 1 to 10,000,000, not 0"},
	} {
		if code, _, errs := runCmd(t, "", tt.args...); code != 2 || !strings.Contains(errs, tt.msg) {
			t.Errorf("%q: exit %d, stderr %q; want %q", tt.args, code, errs, tt.msg)
		}
	}
}

// TestREADMEExamples runs every command of the README's command-line
// section as written, on the sample the README says to write first.
func TestREADMEExamples(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(readme), "## On the command line")
	section, _, _ = strings.Cut(section, "\n## ")
	dir := t.TempDir()
	files := map[string]string{} // names the examples write, where they were written
	ran := 0
	for _, cmd := range strings.Split(strings.ReplaceAll(section, "\\\n", " "), "\n") {
		cmd, _, _ = strings.Cut(cmd, "#")
		cmd, ok := strings.CutPrefix(strings.TrimSpace(cmd), "go run ./cmd/pkcalc ")
		if !ok {
			continue
		}
		cmd, redirect, _ := strings.Cut(cmd, ">")
		args := strings.Fields(cmd)
		for i, a := range args {
			if f, ok := files[a]; ok {
				args[i] = f
			} else if _, err := os.Stat(filepath.Join("../..", a)); err == nil && strings.Contains(a, "/") {
				args[i] = filepath.Join("../..", a) // a file of the repository, named from its root
			}
		}
		code, out, errs := runCmd(t, "", args...)
		if code != 0 || out == "" {
			t.Errorf("pkcalc %s: exit %d, stderr %q", cmd, code, errs)
		}
		if name := strings.TrimSpace(redirect); name != "" {
			files[name] = filepath.Join(dir, name)
			os.WriteFile(files[name], []byte(out), 0o644)
		}
		ran++
	}
	if ran < 3 {
		t.Errorf("ran %d commands of the README; the section has changed", ran)
	}
}
