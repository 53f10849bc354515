package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/plan"
	"github.com/pkcalc/pkcalc/internal/jsonschema"
)

var updatePlan = flag.Bool("update-plan", false, "rewrite testdata/plan's golden outputs")

// planCases are the golden runs of pkcalc plan: the docs' worked example
// of each subcommand (docs/PLAN.md shows these outputs), each in a
// format, and one from real ranges.
var planCases = []struct {
	name string
	args []string
}{
	{"scale.txt", []string{"scale", "--partitions", "5", "--ru", "50000", "--to", "150000"}},
	{"scale-80gb.md", []string{"scale", "--partitions", "2", "--ru", "20000", "--storage-gb", "80", "--to", "30000", "--format", "markdown"}},
	{"scale-ranges.txt", []string{"scale", "--ranges", "testdata/plan/ranges.json", "--ru", "20000", "--storage-gb", "120", "--to", "40000"}},
	{"merge.txt", []string{"merge", "--partitions", "5", "--ru", "5000", "--autoscale", "--storage-gb", "74"}},
	{"redistribute.txt", []string{"redistribute", "--partitions", "3", "--ru", "6000", "--demand", "0=2000", "--demand", "1=3000:20:50", "--demand", "2=1000",
		"--account", "acct", "--resource-group", "rg", "--database", "shop", "--container", "orders"}},
	{"burst.txt", []string{"burst", "--partitions", "1", "--ru", "100", "--spike-ru", "3000", "--seconds", "10"}},
	{"ingest.json", []string{"ingest", "--storage-gb", "1000", "--documents", "1e9", "--write-ru", "10", "--ru", "20000", "--format", "json"}},
	{"migrate.txt", []string{"migrate", "--key", "/tenantId,/userId,/id", "--ru", "50000", "--storage-gb", "200", "--doc-kb", "2"}},
	// The FAQ's approaches on 5 tenants: approach 1 where the data needs
	// splits (200 GB), approach 2 where a merge applies (50 GB).
	{"hierarchy-1.txt", []string{"hierarchy", "--key", "/tenantId,/userId", "--ru", "50000", "--target-gb", "200", "--approach", "1", "testdata/plan/tenants.jsonl"}},
	{"hierarchy-2.md", []string{"hierarchy", "--key", "/tenantId,/userId", "--ru", "50000", "--target-gb", "50", "--approach", "2", "--format", "markdown", "testdata/plan/tenants.jsonl"}},
}

func TestPlanGolden(t *testing.T) {
	for _, c := range planCases {
		var out, errb bytes.Buffer
		if code := run(append([]string{"plan"}, c.args...), nil, &out, &errb); code != 0 {
			t.Errorf("%s: exit %d: %s", c.name, code, errb.String())
			continue
		}
		file := filepath.Join("testdata", "plan", c.name)
		if *updatePlan {
			if err := os.WriteFile(file, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%v (run go test -run TestPlanGolden -update-plan)", err)
		}
		if !bytes.Equal(out.Bytes(), want) {
			t.Errorf("%s differs from the golden file (-update-plan rewrites it):\n%s", c.name, out.String())
		}
	}
}

// TestPlanSchema: every subcommand's JSON validates against
// docs/plan.schema.json, together they use every property, and the
// schema describes plan.Plan field by field.
func TestPlanSchema(t *testing.T) {
	c, err := jsonschema.Load("../../docs/plan.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, pc := range planCases {
		var out, errb bytes.Buffer
		args := append([]string{"plan"}, pc.args...)
		args = append(args, "--format", "json")
		if code := run(args, nil, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", pc.name, code, errb.String())
		}
		var doc any
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatalf("%s: %v", pc.name, err)
		}
		if err := c.Validate(doc); err != nil {
			t.Errorf("%s: %v", pc.name, err)
		}
	}
	if !t.Failed() {
		for _, loc := range c.Unused() {
			t.Errorf("no case writes %s", loc)
		}
	}
	for _, e := range c.CheckType(reflect.TypeFor[plan.Plan]()) {
		t.Error(e)
	}
}

// TestPlanErrors: bad flags get a message that names the flag, exit 2.
func TestPlanErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"plan"}, "Usage: pkcalc plan"},
		{[]string{"plan", "grow"}, `unknown subcommand "grow"`},
		{[]string{"plan", "scale", "--ru", "1000"}, "--to"},
		{[]string{"plan", "scale", "--ru", "x", "--to", "2"}, "invalid value \"x\" for flag -ru: not a whole number\n"},
		{[]string{"plan", "scale", "--ru", "1000", "--to", "1e4"}, "invalid value \"1e4\" for flag -to: not a whole number in digits (such as 400)\n"},
		{[]string{"plan", "burst", "--ru", "400", "--spike-ru", "lots"}, "invalid value \"lots\" for flag -spike-ru: not a number\n"},
		{[]string{"plan", "ingest", "--ru", "400", "--doc-kb", "1e999"}, "invalid value \"1e999\" for flag -doc-kb: out of range\n"},
		{[]string{"plan", "scale", "--ru", "1000", "--to", "1050"}, "steps of 100"},
		{[]string{"plan", "scale", "--ru", "-5", "--to", "1000"}, "--ru is -5"},
		{[]string{"plan", "burst", "--ru", "400", "--spike-ru", "5000"}, "--spike-ru needs --seconds"},
		{[]string{"plan", "scale", "--ru", "1000", "--to", "2000", "--format", "csv"}, `--format is "csv"`},
		{[]string{"plan", "scale", "--ranges", "testdata/plan/none.json", "--ru", "1000", "--to", "2000"}, "--ranges"},
		{[]string{"plan", "scale", "--partitions", "2", "--ranges", "testdata/plan/ranges.json", "--ru", "1000", "--to", "2000"}, "give one"},
		{[]string{"plan", "redistribute", "--partitions", "2", "--ru", "1000", "--demand", "5=100"}, `partition "5"`},
		{[]string{"plan", "redistribute", "--partitions", "2", "--ru", "1000", "--demand", "0=1:2"}, "ID=RU:429S:CHARGE"},
		{[]string{"plan", "burst", "--ru", "1000", "--usage", "2"}, "--usage"},
		{[]string{"plan", "ingest", "--ru", "1000"}, "--storage-gb"},
		{[]string{"plan", "migrate", "--ru", "1000", "--storage-gb", "1"}, "--key"},
		{[]string{"plan", "migrate", "--ru", "1000", "--storage-gb", "1", "--key", "/a/[]"}, "--key"},
		{[]string{"plan", "merge", "--ru", "1000", "extra"}, `unexpected argument "extra"`},
		{[]string{"plan", "hierarchy", "--key", "/tenantId", "--ru", "50000", "testdata/plan/tenants.jsonl"}, "--key /tenantId is not hierarchical"},
		{[]string{"plan", "hierarchy", "--key", "/tenantId,/userId", "--ru", "50000"}, "no documents: name a FILE"},
		{[]string{"plan", "hierarchy", "--key", "/tenantId,/userId", "--ru", "50000", "testdata/plan/none.json"}, "none.json"},
		{[]string{"plan", "hierarchy", "--key", "/tenantId,/userId", "--ru", "50050", "testdata/plan/tenants.jsonl"}, "--ru is 50050: the service sets RU/s in steps of 100"},
		{[]string{"plan", "hierarchy", "--key", "/tenantId,/userId", "--ru", "0", "testdata/plan/tenants.jsonl"}, "give the RU/s"},
		{[]string{"plan", "hierarchy", "--ru", "50000", "testdata/plan/tenants.jsonl"}, "give the hierarchical partition key with --key"},
		{[]string{"plan", "hierarchy", "--key", "/tenantId,/userId", "--ru", "50000", "--approach", "3", "testdata/plan/tenants.jsonl"}, "--approach is 3"},
	} {
		var out, errb bytes.Buffer
		code := run(c.args, nil, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", c.args, code, errb.String(), c.want)
		}
	}
	var out bytes.Buffer
	if code := run([]string{"plan", "merge", "--help"}, nil, &out, &out); code != 0 || !strings.Contains(out.String(), "merge candidate") || !strings.Contains(out.String(), "-storage-gb") {
		t.Errorf("--help: %d %s", code, out.String())
	}
}

// FuzzPlan: no flags or ranges make pkcalc plan panic or hang.
func FuzzPlan(f *testing.F) {
	for _, c := range planCases {
		f.Add(strings.Join(c.args, "\x00"), `[{"id":"0","minInclusive":"","maxExclusive":"FF"}]`)
	}
	f.Add("scale\x00--ranges\x00-\x00--ru\x0010000\x00--to\x00400000", `{"PartitionKeyRanges":[{"id":"0","minInclusive":"","maxExclusive":"05"},{"id":"1","minInclusive":"05","maxExclusive":"FF","throughputFraction":1}]}`)
	f.Fuzz(func(t *testing.T, args, ranges string) {
		a := strings.Split(args, "\x00")
		if len(a) > 40 {
			return
		}
		var out, errb bytes.Buffer
		run(append([]string{"plan"}, a...), strings.NewReader(ranges), &out, &errb)
	})
}
