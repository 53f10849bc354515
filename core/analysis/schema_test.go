package analysis

// These tests keep the JSON contract (the Report type and WriteJSON) and its
// published description, docs/report.schema.json, in step:
//
//   - every report pkcalc writes, for the shared datasets and for inline
//     inputs chosen to produce every optional part, validates against the
//     schema, and together they use every property the schema lists;
//   - every json field of Report has a property in the schema with the
//     matching type, required exactly when it is always written, and every
//     property has a field;
//   - the enumerations of codes and kinds match the constants in the source;
//   - the same input gives the same bytes.
//
// The schema checker is internal/jsonschema, written with the standard
// library for the subset of JSON Schema (draft 2020-12) the file uses; a
// keyword outside that subset fails the test rather than going unchecked.
// Rules the schema cannot state (a field present exactly when another is)
// are checked on their own.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/advisor"
	"github.com/pkcalc/pkcalc/core/aggregate"
	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/partition"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/internal/jsonschema"
	"github.com/pkcalc/pkcalc/internal/shared"
)

const schemaFile = "../../docs/report.schema.json"

// ---- the schema checker (internal/jsonschema) ----

func schemaLoad(t *testing.T) *jsonschema.Checker {
	t.Helper()
	c, err := jsonschema.Load(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func schemaList(v any) []any { s, _ := v.([]any); return s }

func schemaCompact(v any) string { b, _ := json.Marshal(v); return string(b) }

// ---- reports to check ----

// schemaLines writes n documents, one a line.
func schemaLines(n int, doc func(i int) string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(doc(i))
		b.WriteByte('\n')
	}
	return b.String()
}

func schemaKeys(t *testing.T, specs ...string) []key.Spec {
	t.Helper()
	var out []key.Spec
	for _, s := range specs {
		k, err := key.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, k)
	}
	return out
}

type schemaCase struct {
	name       string
	input      string // documents for Analyze
	aggregates string // or per-key aggregates (CSV) for AnalyzeAggregates of opts.Keys[0]
	opts       Options
	want       []string // JSON pointers the report must have: what the case is for
}

// schemaInlineCases are small inputs that, together, produce every part of the
// report the schema describes.
func schemaInlineCases(t *testing.T) []schemaCase {
	tenants := []string{"contoso", "contoso", "contoso", "contoso", "contoso", "contoso", "fabrikam", "fabrikam", "adatum", "litware"}
	return []schemaCase{
		{name: "empty", input: "", want: []string{"/input/format", "/noRecommendation/code"}},
		{
			// Too few documents to suggest keys: no candidates, and why.
			name:  "two documents",
			input: "{\"id\":\"1\",\"t\":\"a\"}\n{\"id\":\"2\",\"t\":\"b\"}\n",
			want:  []string{"/noRecommendation/message"},
		},
		{
			// A weight field no document has and a time field of names:
			// warnings, and requests that follow documents instead.
			name:  "unusable weight and time fields",
			input: schemaLines(30, func(i int) string { return fmt.Sprintf(`{"id":"%d","g":"g%d"}`, i, i%5) }),
			opts:  Options{TimePath: []string{"g"}, WeightPath: []string{"w"}, Workload: advisor.Workload{Traffic: partition.ByWeight}},
			want:  []string{"/warnings/0/code", "/warnings/1/message", "/recommended"},
		},
		{
			name: "bad JSON lines",
			input: schemaLines(20, func(i int) string { return fmt.Sprintf(`{"id":"%d","pk":"p%d"}`, i, i%5) }) +
				"{\"id\":\"a\",\"pk\":\n{\"id\":\"b\",\"pk\":\"c\"}\n{\"id\":\"c\",\"pk\":tru}\n{\"id\":\"d\",\"pk\":\"e\",\"pk\":\"f\"}\n",
			want: []string{"/input/errors/0/line", "/input/errors/0/document", "/candidates/0"},
		},
		{
			// A MongoDB export: no id, an _id in every document, read as
			// the id; one in four a number.
			name: "a MongoDB export",
			input: schemaLines(20, func(i int) string {
				if i%4 == 0 {
					return fmt.Sprintf(`{"_id":%d,"tenantId":"t%d"}`, i, i%4)
				}
				return fmt.Sprintf(`{"_id":"m%d","tenantId":"t%d"}`, i, i%4)
			}),
			want: []string{"/ids/underscoreIdAsId", "/ids/underscoreIdNonString", "/recommended"},
		},
		{
			// No id and no _id: each document's id is read as its own.
			name:  "no ids",
			input: schemaLines(20, func(i int) string { return fmt.Sprintf(`{"tenantId":"t%d","n":%d}`, i%4, i) }),
			want:  []string{"/ids/missingAsUnique", "/recommended"},
		},
		{
			// Ids Cosmos DB refuses: missing (one with a MongoDB _id), a
			// number, too long, with a slash, and one repeated in a tenant.
			name: "item ids",
			input: schemaLines(20, func(i int) string { return fmt.Sprintf(`{"id":"%d","tenantId":"t%d"}`, i%16, i%4) }) +
				"{\"_id\":{\"$oid\":\"65a000000000000000000001\"},\"tenantId\":\"t1\"}\n{\"tenantId\":\"t2\"}\n{\"id\":7,\"tenantId\":\"t1\"}\n" +
				`{"id":"` + strings.Repeat("x", 1024) + `","tenantId":"t1"}` + "\n" + `{"id":"a/b","tenantId":"t3"}` + "\n",
			opts: Options{Keys: schemaKeys(t, "/tenantId")},
			want: []string{"/ids/examples/0/rule", "/candidates/0/duplicateIds", "/warnings/0/code"},
		},
		{
			// Every JSON type, a system property, paths that cannot be keys.
			name: "types and system properties",
			input: schemaLines(40, func(i int) string {
				return fmt.Sprintf(`{"id":"%d","n":null,"b":%t,"x":%d,"o":{"p":%d},"arr":[%d,{"q":"r"}],"_ts":%d}`, i, i%2 == 0, i%7, i%3, i, 1600000000+i)
			}),
			want: []string{"/paths/0/top/0/value", "/candidates/0"},
		},
		{
			// A skewed tenant: hot partition, synthetic and hierarchical advice.
			name: "tenants",
			input: schemaLines(300, func(i int) string {
				return fmt.Sprintf(`{"id":"item-%04d","tenantId":"%s","sku":"sku-%d","price":%d}`, i, tenants[i%len(tenants)], i%97, 10+i%50)
			}),
			want: []string{"/recommended"},
		},
		{
			name: "synthetic key named",
			input: schemaLines(120, func(i int) string {
				return fmt.Sprintf(`{"id":"%d","tenantId":"%s"}`, i, tenants[i%len(tenants)])
			}),
			opts: Options{Keys: schemaKeys(t, "/tenantId+hash(/id)%4", "/tenantId")},
			want: []string{"/candidates/0/key/kind", "/candidates/0/named"},
		},
		{
			// Hierarchical key with missing levels and objects where a value
			// belongs: {"$undefined": true} components and invalid documents.
			name: "undefined and invalid values",
			input: schemaLines(100, func(i int) string {
				switch {
				case i < 50:
					return fmt.Sprintf(`{"id":"%d","a":"x"}`, i)
				case i < 60:
					return fmt.Sprintf(`{"id":"%d","a":{"nested":true},"b":1}`, i)
				}
				return fmt.Sprintf(`{"id":"%d","a":"y","b":%d}`, i, i)
			}),
			opts: Options{Keys: schemaKeys(t, "/a,/b"), NoSuggest: true},
			want: []string{"/candidates/0/largest/0/values/1/$undefined"},
		},
		{
			// A time bucket of values that are no times.
			name: "values that are not times",
			input: schemaLines(40, func(i int) string {
				if i%4 == 0 {
					return fmt.Sprintf(`{"id":"%d","t":"a","at":"soon"}`, i)
				}
				return fmt.Sprintf(`{"id":"%d","t":"a","at":"2025-03-%02dT10:00:00Z"}`, i, 1+i%28)
			}),
			opts: Options{Keys: schemaKeys(t, "/t+/at:day"), NoSuggest: true},
			want: []string{"/candidates/0/notTime"},
		},
		{
			// Hash V1 keeps 100 characters: values alike in those collide.
			name: "hash V1 long keys",
			input: schemaLines(30, func(i int) string {
				return fmt.Sprintf(`{"id":"%d","pk":"%s-%d"}`, i, strings.Repeat("p", 110), i%6)
			}),
			opts: Options{HashVersion: epk.V1, Keys: schemaKeys(t, "/pk"), NoSuggest: true},
			want: []string{"/candidates/0/keyLength/truncationCollisions/0/values/1/0"},
		},
		{
			name: "workload",
			input: schemaLines(200, func(i int) string {
				return fmt.Sprintf(`{"id":"%d","tenantId":"%s","weight":%d}`, i, tenants[i%len(tenants)], 1+i%5)
			}),
			opts: Options{
				Throughput:  capacity.Throughput{RU: 2000},
				TargetBytes: 200 << 30,
				Workload:    advisor.Workload{Reads: 500, Writes: 400, Queries: 50, Traffic: partition.Uniform},
			},
			want: []string{"/candidates/0/workload", "/candidates/0/physicalPartitions/0/demandRu", "/settings/ru", "/settings/traffic", "/settings/targetGb"},
		},
		{
			name: "autoscale, partitions and target documents",
			input: schemaLines(200, func(i int) string {
				return fmt.Sprintf(`{"id":"%d","customerId":"c%d","weight":%d}`, i, i%40, 1+i%5)
			}),
			opts: Options{
				Throughput: capacity.Throughput{RU: 10000, Autoscale: true}, Partitions: 4, TargetDocs: 5_000_000,
				Workload: advisor.Workload{Writes: 100}, WeightPath: []string{"weight"}, NewValuePaths: [][]string{{"customerId"}},
			},
			want: []string{"/settings/partitions", "/settings/targetDocs", "/settings/writesPerSecond", "/settings/newValues"},
		},
		{
			// pkcalc analyze --growth-gb-per-day 2 --retention-days 365
			name:  "growth with retention",
			input: schemaLines(50, func(i int) string { return fmt.Sprintf(`{"id":"%d","g":"%d"}`, i, i%7) }),
			opts:  Options{Keys: schemaKeys(t, "/g"), NoSuggest: true, TargetBytes: 730 << 30, GrowthGBPerDay: 2, RetentionDays: 365},
			want:  []string{"/settings/growthGbPerDay", "/settings/retentionDays", "/settings/targetGb"},
		},
		{
			// A time field: write spread and correlation with time.
			name: "time field",
			input: schemaLines(240, func(i int) string {
				return fmt.Sprintf(`{"id":"%d","deviceId":"d%d","day":"2024-03-%02d","timestamp":"2024-03-%02dT%02d:%02d:00Z"}`, i, i%8, 1+i/24, 1+i/24, i%24, i%60)
			}),
			want: []string{"/timeField", "/candidates/0/writeSpread/buckets/0/partitions/0", "/candidates/0/monotonicity/time"},
		},
		{
			// More distinct values than kept exactly, and than the path
			// collector keeps (in the tags of the window's documents):
			// estimates.
			name: "estimated",
			input: schemaLines(5050, func(i int) string {
				return fmt.Sprintf(`{"id":"%d","g":"%d","tags":["a%d","b%d","c%d"]}`, i, i%3, i, i, i)
			}),
			opts: Options{Keys: schemaKeys(t, "/id"), MaxDistinct: 100},
			want: []string{"/candidates/0/logicalPartitionsRelativeError", "/paths/3/distinctIsLowerBound"},
		},
		{
			// The application's operations: queries that route every way, a
			// point read without the key, a patch of the key, a batch across
			// keys, a line that cannot be read, and a query with a range
			// besides its equality filter.
			name: "workload",
			input: schemaLines(60, func(i int) string {
				return fmt.Sprintf(`{"id":"%d","tenantId":"%s","status":"s%d"}`, i, tenants[i%len(tenants)], i%4)
			}),
			opts: Options{Keys: schemaKeys(t, "/tenantId"), NoSuggest: true, Workload: advisor.Workload{Queries: 50, Operations: `[
{"kind":"query","weight":10,"query":"SELECT * FROM c WHERE c.tenantId = @t"},
{"kind":"query","weight":3,"query":"SELECT * FROM c WHERE c.tenantId IN ('a','b')"},
{"kind":"query","weight":2,"query":"SELECT * FROM c WHERE c.status = 'open'"},
{"kind":"read","weight":20,"paths":["/id"]},
{"kind":"patch","weight":1,"paths":["/tenantId"]},
{"kind":"batch","weight":1,"paths":["/tenantId"]},
{"kind":"query","weight":1,"query":"SELECT FROM WHERE"},
{"kind":"query","weight":1,"query":"SELECT * FROM c WHERE c.tenantId = @t AND c.status > 's1'"}
]`}},
			want: []string{"/operations/errors/0", "/candidates/0/queries/verdicts/1/values", "/candidates/0/queries/verdicts/3/paths",
				"/candidates/0/queries/verdicts/4/keyUpdated", "/candidates/0/queries/verdicts/5/spansKeys", "/candidates/0/queries/verdicts/0/query",
				"/candidates/0/queries/verdicts/6/itemsAtMost"},
		},
		{
			// A query on a hierarchical key's first level names a prefix.
			name: "workload on a hierarchical key",
			input: schemaLines(60, func(i int) string {
				return fmt.Sprintf(`{"id":"%d","tenantId":"%s"}`, i, tenants[i%len(tenants)])
			}),
			opts: Options{Keys: schemaKeys(t, "/tenantId,/id"), NoSuggest: true, Workload: advisor.Workload{Queries: 10, Operations: "SELECT * FROM c WHERE c.tenantId = 'a'\n"}},
			want: []string{"/candidates/0/queries/verdicts/0/prefix"},
		},
		{
			// One tenant writes far past what one partition serves: under a
			// hierarchical key it spreads only over partitions split where
			// its data is.
			name: "hierarchical key split by its data",
			input: schemaLines(60, func(i int) string {
				return fmt.Sprintf(`{"id":"%d","tenantId":"%s"}`, i, tenants[i%len(tenants)])
			}),
			opts: Options{Keys: schemaKeys(t, "/tenantId,/id"), NoSuggest: true, Workload: advisor.Workload{Writes: 5000}},
			want: []string{"/candidates/0/workload/leastRuByData"},
		},
		{
			// A number JSON cannot write (1e400 reads as +Inf) as the largest
			// key value and among a path's top values.
			name: "number beyond a double",
			input: schemaLines(30, func(i int) string { return fmt.Sprintf(`{"id":"%d","pk":%d}`, i, i%6) }) +
				`{"id":"big","pk":1e400,"pad":"` + strings.Repeat("x", 500) + `"}` + "\n" + `{"id":"big2","inf":1e400}` + "\n",
			opts: Options{Keys: schemaKeys(t, "/pk"), NoSuggest: true},
			want: []string{"/candidates/0/largest/0/values/0/$numberDouble", "/paths/2/top/0/value/$numberDouble"},
		},
		{
			// pkcalc analyze --aggregates: rows computed by the user's engine,
			// one of them unreadable.
			name:       "aggregates",
			aggregates: "k0,k1,documents,bytes,requests\n\"contoso\",\"a\",9000,9000000,50\n\"contoso\",\"b\",800,800000,5\n\"litware\",\"a\",200,200000,1\n\"bad\",\"a\",-1,0,0\n",
			opts:       Options{Keys: schemaKeys(t, "/tenantId,/region"), TargetBytes: 100 << 30},
			want:       []string{"/input/errors/0/line", "/candidates/0/largest/0/values/1"},
		},
		{
			// More distinct property paths than the table describes:
			// names that are data, a hundred a document.
			name: "paths past the table",
			input: schemaLines(110, func(i int) string {
				var b strings.Builder
				fmt.Fprintf(&b, `{"id":"%d","t":"t%d"`, i, i%7)
				for j := range 100 {
					fmt.Fprintf(&b, `,"u%d_%d":1`, i, j)
				}
				return b.String() + "}"
			}),
			want: []string{"/pathsOmitted/paths", "/pathsOmitted/documents", "/warnings/0/code"},
		},
		{
			// More physical partitions than a report lists: the busiest,
			// and the rest summed, on the target and on the first day, and
			// the write spread's columns named.
			name: "partitions past the list",
			input: schemaLines(400, func(i int) string {
				return fmt.Sprintf(`{"id":"%d","ts":"2025-01-%02dT00:00:00Z"}`, i, 1+i%20)
			}),
			opts: Options{Keys: schemaKeys(t, "/id"), NoSuggest: true, Partitions: 2 * report.MaxPartitionRows, Workload: advisor.Workload{Writes: 100}},
			want: []string{"/candidates/0/physicalPartitionsOmitted/demandRu", "/candidates/0/dayOne/omitted/writeShare", "/candidates/0/dayOne/partitions/0/id",
				"/candidates/0/writeSpread/partitions/0", "/candidates/0/writeSpread/buckets/0/otherPartitions"},
		},
	}
}

// schemaDatasetCases are the shared datasets, with default options and with a
// target size, throughput and workload.
func schemaDatasetCases(t *testing.T) []schemaCase {
	files, _ := filepath.Glob(filepath.Join(shared.Dir(t, "datasets"), "*.json*"))
	var out []schemaCase
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		out = append(out,
			schemaCase{name: name, input: string(b)},
			schemaCase{name: name + " at scale", input: string(b), opts: Options{
				TargetBytes: 500 << 30, Throughput: capacity.Throughput{RU: 20000},
				Workload: advisor.Workload{Reads: 2000, Writes: 3000},
			}})
	}
	return out
}

func schemaWriteReport(t *testing.T, c schemaCase) []byte {
	t.Helper()
	var rep *report.Report
	if c.aggregates != "" {
		rows, problems := aggregate.Read(strings.NewReader(c.aggregates), c.opts.Keys[0].Levels())
		rep = AnalyzeAggregates(rows, problems, c.opts.Keys[0], c.opts)
	} else {
		var err error
		if rep, err = Analyze(strings.NewReader(c.input), c.opts); err != nil {
			t.Fatalf("Analyze: %v", err)
		}
	}
	var buf bytes.Buffer
	if err := report.WriteJSON(&buf, rep); err != nil {
		t.Fatalf("WriteJSON: %v", err)
	}
	return buf.Bytes()
}

// schemaLookup follows a JSON pointer into a decoded value.
func schemaLookup(v any, ptr string) (any, bool) {
	for _, tok := range strings.Split(ptr, "/")[1:] {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

func TestReportMatchesSchema(t *testing.T) {
	c := schemaLoad(t)
	check := func(t *testing.T, sc schemaCase) {
		out := schemaWriteReport(t, sc)
		var doc any
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatalf("decoding the report: %v", err)
		}
		if err := c.Validate(doc); err != nil {
			t.Fatal(err)
		}
		for _, p := range sc.want {
			if _, ok := schemaLookup(doc, p); !ok {
				t.Errorf("the report has no %q, which this case is meant to produce", p)
			}
		}
	}
	for _, sc := range schemaInlineCases(t) {
		t.Run(sc.name, func(t *testing.T) { check(t, sc) })
	}
	// Together the inline cases use every property of the schema, so none
	// is left there that the code no longer writes.
	for _, loc := range c.Unused() {
		if !t.Failed() {
			t.Errorf("no inline case produces %s: add an input that does, or drop it from the schema", loc)
		}
	}
	for _, sc := range schemaDatasetCases(t) {
		t.Run(sc.name, func(t *testing.T) { check(t, sc) })
	}
}

// TestReportNumberBeyondDouble: a number past the range of a double (1e400)
// is read with a note; the report must still decode, with every number a
// double, as the key values do with {"$numberDouble": "Infinity"}. Here the
// value is also among the path's top values.
func TestReportNumberBeyondDouble(t *testing.T) {
	c := schemaLoad(t)
	out := schemaWriteReport(t, schemaCase{input: "{\"id\":\"1\",\"pk\":1e400}\n{\"id\":\"2\",\"pk\":2}\n", opts: Options{Keys: schemaKeys(t, "/pk")}})
	var doc any
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("decoding the report: %v", err)
	}
	if err := c.Validate(doc); err != nil {
		t.Fatal(err)
	}
}

// TestReportConditionalFields checks the rules docs/REPORT.md states about
// when optional fields appear and how fields agree, which the schema alone
// cannot say.
func TestReportConditionalFields(t *testing.T) {
	for _, sc := range append(schemaInlineCases(t), schemaDatasetCases(t)...) {
		t.Run(sc.name, func(t *testing.T) {
			var doc map[string]any
			if err := json.Unmarshal(schemaWriteReport(t, sc), &doc); err != nil {
				t.Fatal(err)
			}
			has := func(v any, name string) bool { _, ok := v.(map[string]any)[name]; return ok }
			settings := doc["settings"]
			rateGiven := has(settings, "readsPerSecond") || has(settings, "writesPerSecond") || has(settings, "queriesPerSecond")
			aggregates := doc["input"].(map[string]any)["format"] == "per-key aggregates"
			var specs []any
			for _, c := range schemaList(doc["candidates"]) {
				specs = append(specs, c.(map[string]any)["key"].(map[string]any)["spec"])
			}
			for i, cv := range schemaList(doc["candidates"]) {
				c := cv.(map[string]any)
				at := fmt.Sprintf("/candidates/%d", i)
				phys := schemaList(c["physicalPartitions"])
				if has(c, "workload") != rateGiven {
					t.Errorf("%s: workload present %t, but a request rate given %t", at, has(c, "workload"), rateGiven)
				}
				if n := len(slices.DeleteFunc(slices.Clone(phys), func(p any) bool { return has(p, "demandRu") == rateGiven })); n > 0 {
					t.Errorf("%s: demandRu is present %t on %d of %d physicalPartitions, but a request rate given is %t", at, !rateGiven, n, len(phys), rateGiven)
				}
				if (has(c, "writeSpread") || has(c["monotonicity"], "time")) && !has(doc, "timeField") {
					t.Errorf("%s: writeSpread or monotonicity/time without a timeField", at)
				}
				if m := c["monotonicity"].(map[string]any); (m["by"] == "time") != has(m, "time") {
					t.Errorf("%s: monotonicity judged by %v, time measured %t", at, m["by"], has(m, "time"))
				}
				if has(c, "logicalPartitionsRelativeError") != (c["logicalPartitionsEstimated"] == true) {
					t.Errorf("%s: logicalPartitionsRelativeError present %t, estimated %v", at, has(c, "logicalPartitionsRelativeError"), c["logicalPartitionsEstimated"])
				}
				// The partitions listed and those left out are all of them;
				// a list is cut only past report.MaxPartitionRows, to the
				// busiest of that many.
				omitted := 0.0
				if o, ok := c["physicalPartitionsOmitted"].(map[string]any); ok {
					omitted = o["partitions"].(float64)
					if len(phys) != report.MaxPartitionRows {
						t.Errorf("%s: physicalPartitions cut to %d, not %d", at, len(phys), report.MaxPartitionRows)
					}
				}
				if n := c["projection"].(map[string]any)["physicalPartitions"]; n != float64(len(phys))+omitted {
					t.Errorf("%s: projection/physicalPartitions %v, physicalPartitions lists %d and leaves out %v", at, n, len(phys), omitted)
				}
				if day := c["dayOne"].(map[string]any); has(day, "omitted") != (len(schemaList(day["partitions"])) == report.MaxPartitionRows && day["physicalPartitions"].(float64) > report.MaxPartitionRows) {
					t.Errorf("%s/dayOne: omitted present %t with %d of %v partitions listed", at, has(day, "omitted"), len(schemaList(day["partitions"])), day["physicalPartitions"])
				}
				if ws, ok := c["writeSpread"].(map[string]any); ok {
					for j, b := range schemaList(ws["buckets"]) {
						if n := len(schemaList(b.(map[string]any)["partitions"])); n != len(phys) {
							t.Errorf("%s/writeSpread/buckets/%d: %d partitions, physicalPartitions lists %d", at, j, n, len(phys))
						}
					}
				}
				for j, r := range schemaList(c["recommendations"]) {
					if k, ok := r.(map[string]any)["key"]; ok && !slices.Contains(specs, k) {
						t.Errorf("%s/recommendations/%d: key %v is not a candidate", at, j, k)
					}
				}
				if c["rank"] == 1.0 && has(doc, "recommended") && doc["recommended"] != c["key"].(map[string]any)["spec"] {
					t.Errorf("recommended %v, but rank 1 is %v", doc["recommended"], c["key"])
				}
				// Per-key aggregates have no single documents, so nothing to
				// measure monotonicity on (see AnalyzeAggregates).
				if m := c["monotonicity"].(map[string]any); aggregates && (m["samples"] != 0.0 || m["monotonic"] != false) {
					t.Errorf("%s/monotonicity: %v measured on per-key aggregate rows", at, schemaCompact(m))
				}
			}
			// Ids are checked in documents, not in aggregate rows; the
			// warning says so exactly when a rule is broken.
			ids, idsGiven := doc["ids"].(map[string]any)
			if idsGiven == aggregates {
				t.Errorf("ids present %t for %v input", idsGiven, doc["input"].(map[string]any)["format"])
			}
			broken := false
			for _, rule := range []string{"missing", "nonString", "tooLong", "invalidCharacters"} {
				broken = broken || ids[rule] != 0.0 && idsGiven
			}
			for i, cv := range schemaList(doc["candidates"]) {
				n, ok := cv.(map[string]any)["duplicateIds"]
				if ok != idsGiven {
					t.Errorf("/candidates/%d: duplicateIds present %t, ids present %t", i, ok, idsGiven)
				}
				if ok && n.(float64) > ids["duplicatesChecked"].(float64) {
					t.Errorf("/candidates/%d: %v duplicateIds of %v documents checked", i, n, ids["duplicatesChecked"])
				}
				broken = broken || ok && n != 0.0
			}
			warned := slices.ContainsFunc(schemaList(doc["warnings"]), func(w any) bool { return w.(map[string]any)["code"] == report.IDRules })
			if warned != broken {
				t.Errorf("%s warning %t, but an id rule broken %t", report.IDRules, warned, broken)
			}
			if has(doc, "noRecommendation") == has(doc, "recommended") {
				t.Errorf("noRecommendation present %t, recommended present %t: exactly one must be", has(doc, "noRecommendation"), has(doc, "recommended"))
			}
			// Candidates but none usable: no recommendation, and it says so.
			unusable := false
			if nr, ok := doc["noRecommendation"].(map[string]any); ok {
				unusable = nr["code"] == report.NoUsableKey
			}
			if has(doc, "recommended") != (len(specs) > 0 && !unusable) {
				t.Errorf("recommended present %t with %d candidates", has(doc, "recommended"), len(specs))
			}
			if unusable && len(specs) == 0 {
				t.Errorf("%s with no candidates", report.NoUsableKey)
			}
			if doc["documents"] == 0.0 && len(specs) > 0 {
				t.Errorf("%d candidates graded on no documents", len(specs))
			}
			for i, p := range schemaList(doc["paths"]) {
				if has(p, "reason") == (p.(map[string]any)["usable"] == true) {
					t.Errorf("/paths/%d: reason present %t, usable %v", i, has(p, "reason"), p.(map[string]any)["usable"])
				}
			}
		})
	}
}

// ---- the Go type against the schema ----

// TestSchemaCoversReportType walks the Report type: every json field must
// have a property of the matching JSON type, required exactly when the
// field has no omitempty, and every property must have a field.
func TestSchemaCoversReportType(t *testing.T) {
	for _, e := range schemaLoad(t).CheckType(reflect.TypeFor[report.Report]()) {
		t.Error(e)
	}
}

// ---- enumerations against the source ----

// schemaConstStrings returns the string constants declared in the non-test Go
// files of dir that keep selects, given the declaration's doc comment and
// the constant's type name.
func schemaConstStrings(t *testing.T, dir string, keep func(doc, typ string) bool) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				typ := ""
				if id, ok := vs.Type.(*ast.Ident); ok {
					typ = id.Name
				}
				for _, v := range vs.Values {
					if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING && keep(g.Doc.Text(), typ) {
						s, _ := strconv.Unquote(lit.Value)
						out = append(out, s)
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// schemaGrades are the letters of report.Grades, which advisor grades by.
func schemaGrades() []string {
	var out []string
	for _, g := range report.Grades {
		out = append(out, g.Letter)
	}
	slices.Sort(out)
	return out
}

func TestSchemaEnumerations(t *testing.T) {
	c := schemaLoad(t)
	doc := func(prefix string) func(string, string) bool {
		return func(d, _ string) bool { return strings.HasPrefix(d, prefix) }
	}
	typed := func(name string) func(string, string) bool {
		return func(_, typ string) bool { return typ == name }
	}
	for _, e := range []struct {
		loc  string
		want []string
	}{
		{"#/$defs/Finding/properties/code", schemaConstStrings(t, "../advisor", doc("Finding codes"))},
		{"#/$defs/Finding/properties/severity", schemaConstStrings(t, "../advisor", typed("Severity"))},
		{"#/$defs/Recommendation/properties/code", schemaConstStrings(t, "../advisor", doc("Recommendation codes"))},
		{"#/$defs/Candidate/properties/grade", schemaGrades()},
		{"#/$defs/Key/properties/kind", schemaConstStrings(t, "../key", typed("Kind"))},
		{"#/$defs/WriteSpread/properties/unit", schemaConstStrings(t, "../key", typed("Bucket"))},
		{"#/$defs/Settings/properties/traffic", schemaConstStrings(t, "../partition", typed("Traffic"))},
		{"#/$defs/Warning/properties/code", schemaConstStrings(t, "../report", doc("Warning codes"))},
		{"#/$defs/NoRecommendation/properties/code", schemaConstStrings(t, "../report", doc("No-recommendation codes"))},
		{"#/$defs/IDExample/properties/rule", schemaConstStrings(t, "../report", doc("ID rules"))},
	} {
		got := c.Enum(e.loc)
		if len(e.want) == 0 || !slices.Equal(got, e.want) {
			t.Errorf("%s: enum %q, the source has %q", e.loc, got, e.want)
		}
	}
	// Every upper-case string constant in advisor is a finding or a
	// recommendation code, so a new family of codes cannot slip past.
	codes := regexp.MustCompile(`^[A-Z][A-Z0-9_]+$`)
	all := schemaConstStrings(t, "../advisor", func(string, string) bool { return true })
	known := append(schemaConstStrings(t, "../advisor", doc("Finding codes")), schemaConstStrings(t, "../advisor", doc("Recommendation codes"))...)
	for _, s := range all {
		if codes.MatchString(s) && !slices.Contains(known, s) {
			t.Errorf("advisor constant %q looks like a code but is neither a finding nor a recommendation code", s)
		}
	}
}

// ---- determinism ----

func TestReportDeterministic(t *testing.T) {
	cases := schemaInlineCases(t)
	if ds := schemaDatasetCases(t); len(ds) > 0 {
		cases = append(cases, ds[len(ds)-2:]...)
	}
	for _, sc := range cases {
		t.Run(sc.name, func(t *testing.T) {
			a, b := schemaWriteReport(t, sc), schemaWriteReport(t, sc)
			if !bytes.Equal(a, b) {
				i := 0
				for i < min(len(a), len(b)) && a[i] == b[i] {
					i++
				}
				t.Fatalf("two runs differ from byte %d: %q vs %q", i, a[max(0, i-40):min(len(a), i+40)], b[max(0, i-40):min(len(b), i+40)])
			}
		})
	}
}
