package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
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
		"/tenantId *", "* named with --key", "Recommended: ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestAnalyzeJSONMatchesFlags(t *testing.T) {
	code, out, errs := runCmd(t, `{"id":"1","t":"a"}`+"\n"+`{"id":"2","t":"a"}`+"\n"+`{"id":"3","t":"b"}`,
		"analyze", "--format", "json", "--key", "/t", "--key", "/t,/id", "--no-suggest",
		"--hash-version", "2", "--ru", "12000", "--autoscale", "--target-docs", "3000000", "--reads-per-second", "100", "-")
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
	if r.SchemaVersion != 1 || r.Settings.RU != 12000 || !r.Settings.Autoscale || r.Settings.TargetDocs != 3000000 || len(r.Candidates) != 2 {
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
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"analyze"}, "Usage: pkcalc analyze"},
		{[]string{"analyze", "--key", "tenant", "x"}, `invalid value "tenant" for flag -key: path "tenant" must start with '/'`},
		{[]string{"analyze", "--hash-version", "3", "x"}, "hashVersion must be 1 or 2"},
		{[]string{"analyze", "--hash-version", "1", "--key", "/a,/b", "x"}, "hierarchical, which needs hash version 2"},
		{[]string{"analyze", "--no-suggest", "x"}, "noSuggest needs at least one key"},
		{[]string{"analyze", "--format", "xml", "x"}, "--format must be text, json, markdown or csv"},
		{[]string{"analyze", "--traffic", "zipf", "x"}, "traffic must be documents, uniform or weighted"},
		{[]string{"analyze", "--ru", "-5", "x"}, "ru must be a whole number of 0 or more"},
		{[]string{"analyze", "--time-field", "ts", "x"}, "timeField: path \"ts\" must start with '/'"},
		{[]string{"analyze", "--aggregates", "x.csv"}, "--aggregates needs exactly one --key"},
		{[]string{"analyze", "missing.json"}, "no such file"},
	} {
		code, _, errs := runCmd(t, "", tt.args...)
		if code == 0 || !strings.Contains(errs, tt.msg) {
			t.Errorf("%q: exit %d, stderr %q; want %q", tt.args, code, errs, tt.msg)
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
	if code, _, errs := runCmd(t, "", "aggregate-query", "--key", "/t", "--engine", "oracle"); code != 2 || errs == "" {
		t.Errorf("unknown engine: exit %d", code)
	}
}
