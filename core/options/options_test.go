package options

import (
	"fmt"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/provision"
)

func TestGrowthWithRetention(t *testing.T) {
	o, err := Parse(url.Values{"growthGbPerDay": {"2"}, "retentionDays": {"365"}}, API)
	if err != nil || o.TargetBytes != 730<<30 {
		t.Errorf("%v: %d bytes, want 730 GB", err, o.TargetBytes)
	}
}

// TestTargetDocs: targetDocs is rounded, not cut.
func TestTargetDocs(t *testing.T) {
	s, err := Parse(url.Values{"targetDocs": {"1e10"}}, API)
	if err != nil || s.TargetDocs != 10_000_000_000 {
		t.Fatalf("targetDocs 1e10: %d, %v", s.TargetDocs, err)
	}
	if s, _ := Parse(url.Values{"targetDocs": {"2.6"}}, API); s.TargetDocs != 3 {
		t.Errorf("targetDocs 2.6: %d, want 3", s.TargetDocs)
	}
}

func TestParse(t *testing.T) {
	o, err := Parse(url.Values{
		"keys": {"/tenantId;/tenantId,/id", `/"a;b"`}, "noSuggest": {"true"}, "hashVersion": {"2"},
		"partitions": {"4"}, "ru": {"12000"}, "autoscale": {"1"}, "targetGb": {"1.5"}, "targetDocs": {"1000"},
		"readsPerSecond": {"10"}, "writesPerSecond": {"2.5"}, "queriesPerSecond": {"1"}, "writeRu": {"7"}, "traffic": {"uniform"},
		"timeField": {"/_ts"}, "weightField": {"/w"}, "maxDistinct": {"99"}, "newValues": {`/customerId, /"ship, to"/city`},
	}, API)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, k := range o.Keys {
		keys = append(keys, k.String())
	}
	if strings.Join(keys, " ") != `/tenantId /tenantId,/id /"a;b"` || !o.NoSuggest || o.Partitions != 4 || o.Throughput.RU != 12000 ||
		!o.Throughput.Autoscale || o.TargetBytes != 3<<29 || o.TargetDocs != 1000 || o.Writes != 2.5 ||
		o.Measured.Write != 7 || o.Measured.PointRead != 0 || o.Traffic != "uniform" || o.TimePath[0] != "_ts" ||
		o.WeightPath[0] != "w" || o.MaxDistinct != 99 || !reflect.DeepEqual(o.NewValuePaths, [][]string{{"customerId"}, {"ship, to", "city"}}) {
		t.Errorf("%+v keys %q", o, keys)
	}
	for _, bad := range []struct {
		v   url.Values
		msg string
	}{
		{url.Values{"key": {"/a"}}, `unknown option "key"`},
		{url.Values{"keys": {"a"}}, "keys: path \"a\" must start with '/'"},
		{url.Values{"hashVersion": {"3"}}, "hashVersion must be 1 or 2"},
		{url.Values{"ru": {"-1"}}, "ru must be a whole number"},
		{url.Values{"targetGb": {"lots"}}, "targetGb must be a number"},
		{url.Values{"autoscale": {"yes"}}, "autoscale must be true or false"},
		{url.Values{"traffic": {"zipf"}}, "traffic must be documents, uniform or weighted"},
		{url.Values{"traffic": {"weighted"}}, "traffic weighted needs weightField: the path of the number that weights each document's requests"},
		{url.Values{"noSuggest": {"true"}}, "noSuggest needs at least one key: name it with keys"},
		{url.Values{"hashVersion": {"1"}, "keys": {"/a,/b"}}, "needs hash version 2"},
		{url.Values{"timeField": {"ts"}}, "timeField: path"},
		{url.Values{"newValues": {"/a,b"}}, `newValues: path "b" must start with '/'`},
		{url.Values{"newValues": {"/a,"}}, "newValues: empty path"},
		{url.Values{"growthGbPerDay": {"2"}}, "go together"},
		{url.Values{"growthGbPerDay": {"2"}, "retentionDays": {"30"}, "targetGb": {"9"}}, "not both"},
		{url.Values{"keys": {strings.Repeat("/a;", MaxKeys) + "/b"}}, "25 keys named; pkcalc measures at most 24 at once"},
		{url.Values{"maxDistinct": {"1000001"}}, "maxDistinct 1000001 is more than pkcalc keeps exactly"},
		// Keys times maxDistinct: the values kept exactly in all.
		{url.Values{"keys": {distinctKeys(MaxKeys)}, "maxDistinct": {"1000000"}},
			"24 keys at maxDistinct 1,000,000 each keep up to 24,000,000 values exactly, more than pkcalc keeps in all here (1,200,000, which takes about 600 MB of memory): give maxDistinct 50,000 or less for 24 keys, or name at most 1 key at 1,000,000"},
		{url.Values{"keys": {"/a;/b;/c"}, "maxDistinct": {"500000"}}, "give maxDistinct 400,000 or less for 3 keys, or name at most 2 keys at 500,000"},
		{url.Values{"partitions": {"65537"}}, "partitions 65537 is more than pkcalc models (65,536)"},
		{url.Values{"ru": {"10000000000"}}, "ru 10000000000 is more than pkcalc models (655,360,000 RU/s: 65,536 physical partitions of 10,000 RU/s)"},
		// Targets past any container, which turned negative in int64.
		{url.Values{"targetDocs": {"1e30"}}, "targetDocs 1e30 is more than pkcalc models (1,000,000,000,000 documents)"},
		{url.Values{"targetDocs": {"0.4"}}, "targetDocs 0.4 rounds to no document: give at least 1"},
		{url.Values{"targetGb": {"1e30"}}, "targetGb 1e30 is more than pkcalc models (1,000,000 GB)"},
		{url.Values{"targetGb": {"1e7"}}, "targetGb 1e7 is more than pkcalc models (1,000,000 GB)"},
		{url.Values{"growthGbPerDay": {"1e5"}, "retentionDays": {"30"}}, "growthGbPerDay times retentionDays is 3,000,000 GB, more than pkcalc models"},
	} {
		if _, err := Parse(bad.v, API); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("%v: %v, want %q", bad.v, err, bad.msg)
		}
	}
}

// distinctKeys are n keys of their own, as one value of keys.
func distinctKeys(n int) string {
	var ks []string
	for i := range n {
		ks = append(ks, fmt.Sprintf("/k%d", i))
	}
	return strings.Join(ks, ";")
}

// TestExactValues: the keys named may keep MaxExactValues exactly in
// all, the defaults at the most keys among them; a key named twice counts
// once, as it is measured once.
func TestExactValues(t *testing.T) {
	keys := distinctKeys
	for _, v := range []url.Values{
		{"keys": {keys(MaxKeys)}},
		{"keys": {keys(1)}, "maxDistinct": {"1000000"}},
		{"maxDistinct": {"1000000"}}, // the suggested keys share the budget instead
		{"keys": {keys(2)}, "maxDistinct": {"600000"}},
		{"keys": {"/a;/a;/b"}, "maxDistinct": {"600000"}},
	} {
		if _, err := Parse(v, API); err != nil {
			t.Errorf("%v: %v", v, err)
		}
	}
	if _, err := Parse(url.Values{"keys": {keys(2)}, "maxDistinct": {"600001"}}, CLI); err == nil || !strings.Contains(err.Error(), "2 keys at --max-distinct 600,001 each keep up to 1,200,002 values exactly") {
		t.Errorf("2 keys of 600,001: %v", err)
	}
}

// TestThroughputRules: settings the service would refuse are refused with
// the rule, rather than analysed as a container that cannot exist.
func TestThroughputRules(t *testing.T) {
	for _, tt := range []struct {
		v   url.Values
		msg string // "" when accepted
	}{
		{url.Values{"ru": {"400"}}, ""},
		{url.Values{"ru": {"1000"}, "autoscale": {"true"}}, ""},
		{url.Values{"ru": {"40000"}, "partitions": {"4"}}, ""},
		{url.Values{"ru": {"40000"}, "partitions": {"10"}}, ""},
		{url.Values{"partitions": {"2"}}, ""}, // the RU/s default to the least
		{url.Values{"ru": {"40000"}, "partitions": {"2"}},
			"partitions 2 cannot serve ru 40000: a physical partition serves at most 10,000 RU/s, so 40,000 RU/s need at least 4 partitions"},
		{url.Values{"ru": {"40000"}, "partitions": {"3"}, "autoscale": {"true"}}, "give partitions 4 or more, or leave partitions out"},
		{url.Values{"ru": {"10001"}, "partitions": {"1"}}, "is not a multiple of 100"},
		{url.Values{"ru": {"100"}}, "ru 100 is below the least the service allows for manual throughput, 400 RU/s: give 400 or more"},
		{url.Values{"ru": {"400"}, "autoscale": {"true"}}, "ru 400 is below the least the service allows for an autoscale maximum (autoscale), 1,000 RU/s"},
		{url.Values{"ru": {"450"}}, "ru 450 is not a multiple of 100: the service sets manual throughput in steps of 100 RU/s and refuses values between them (400 or 500)"},
		{url.Values{"ru": {"4500"}, "autoscale": {"true"}}, "steps of 1,000 RU/s and refuses values between them (4,000 or 5,000)"},
		{url.Values{"ru": {"20000000000"}}, "ru 20000000000 is more than pkcalc models"},
	} {
		_, err := Parse(tt.v, API)
		if tt.msg == "" && err != nil || tt.msg != "" && (err == nil || !strings.Contains(err.Error(), tt.msg)) {
			t.Errorf("%v: %v, want %q", tt.v, err, tt.msg)
		}
	}
}

// TestFrontEndNames: each front end's errors name the options as its
// users type them.
func TestFrontEndNames(t *testing.T) {
	for _, tt := range []struct {
		v   url.Values
		fe  FrontEnd
		msg string
	}{
		{url.Values{"targetGb": {"lots"}}, CLI, `--target-gb must be a number of 0 or more, not "lots"`},
		{url.Values{"growthGbPerDay": {"2"}}, CLI, "--growth-gb-per-day and --retention-days go together"},
		{url.Values{"growthGbPerDay": {"2"}, "retentionDays": {"30"}, "targetGb": {"9"}}, CLI, "give either --target-gb or --growth-gb-per-day with --retention-days, not both"},
		{url.Values{"hashVersion": {"3"}}, CLI, "--hash-version must be 1 or 2, not 3"},
		{url.Values{"ru": {"40000"}, "partitions": {"2"}}, CLI, "--partitions 2 cannot serve --ru 40000"},
		{url.Values{"noSuggest": {"true"}}, CLI, "--no-suggest needs at least one key: name it with --key"},
		{url.Values{"aggregates": {"true"}}, CLI, "--aggregates needs exactly one key"},
		{url.Values{"targetGb": {"lots"}}, Page, `"Expected size (GB)" must be a number of 0 or more, not "lots"`},
		{url.Values{"docBytes": {"0"}}, Page, `"Average document size (bytes)" must be a whole number of 1 or more, not "0"`},
		{url.Values{"queriesPerSecond": {"-1"}}, Page, `"Queries / s" must be a number of 0 or more, not "-1"`},
		{url.Values{"ru": {"40000"}, "partitions": {"2"}}, API, "partitions 2 cannot serve ru 40000"},
		{url.Values{"format": {"html"}}, API, `format must be text, json, markdown or csv, not "html"`},
		{url.Values{"format": {"json"}}, Page, `unknown option "format"`},
		{url.Values{"inputFormat": {"xml"}}, CLI, `--input-format must be json or csv, not "xml"`},
		// The code that creates the container is the command line's: the
		// page has its tabs, the API and pkcalc.js the Markdown.
		{url.Values{"emit": {"xml"}}, CLI, `--emit must be azure-cli, powershell, bicep, arm, terraform, dotnet, java, python, javascript or go, not "xml"`},
		{url.Values{"emit": {"go"}, "format": {"json"}}, CLI, "--emit prints the code alone, not a report: give --emit or --format, not both"},
		{url.Values{"emit": {"go"}}, API, `unknown option "emit"`},
		{url.Values{"emit": {"go"}}, Page, `unknown option "emit"`},
	} {
		_, err := Parse(tt.v, tt.fe)
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%v: %v, want %q", tt.v, err, tt.msg)
		}
	}
}

// TestTable: every option is named, flagged, labelled and helped once;
// a Choice has its choices; limits are worded.
func TestTable(t *testing.T) {
	seen := map[string]bool{}
	for _, o := range All {
		for _, s := range []string{o.Name, "--" + o.Flag, "label " + o.Label} {
			if seen[s] {
				t.Errorf("%s: %q is another option's too", o.Name, s)
			}
			seen[s] = true
		}
		switch {
		case o.Name == "" || o.Flag == "" || o.Label == "" || o.Help == "" || o.In == 0:
			t.Errorf("%+v: a name, a flag, a label, help and a front end are needed", o)
		case (o.Kind == Choice) != (len(o.Choices) > 0):
			t.Errorf("%s: choices %q for kind %d", o.Name, o.Choices, o.Kind)
		case o.Max > 0 && o.Kind != Keys && !strings.Contains(o.Over, "%s"):
			t.Errorf("%s: limit %g without the words for it", o.Name, o.Max)
		}
		if o.Default != "" {
			if _, err := Parse(url.Values{o.Name: {o.Default}}, o.In&-o.In); err != nil {
				t.Errorf("%s: default %q: %v", o.Name, o.Default, err)
			}
		}
	}
}

// TestJavaScriptNames: pkcalc.js takes the options the table gives the
// JavaScript API, in the table's order; it checks names itself, before the
// engine loads, so it keeps its own list.
func TestJavaScriptNames(t *testing.T) {
	b, err := os.ReadFile("../../public/pkcalc.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)var names = \[(.*?)\];`).FindSubmatch(b)
	if m == nil {
		t.Fatal("pkcalc.js: no list of option names (var names = [...];)")
	}
	var got []string
	for _, q := range regexp.MustCompile(`"(\w+)"`).FindAllSubmatch(m[1], -1) {
		got = append(got, string(q[1]))
	}
	if want := Names(JS); !slices.Equal(got, want) {
		t.Errorf("pkcalc.js takes %q;\nthe table gives it %q", got, want)
	}
}

// TestOnce: an option given twice is refused, whichever front end; keys
// may be given once per key.
func TestOnce(t *testing.T) {
	if _, err := Parse(url.Values{"aggregates": {"1", "0"}, "keys": {"/a"}}, API); err == nil || !strings.Contains(err.Error(), `aggregates is given 2 times ("1", "0"): give it once`) {
		t.Errorf("aggregates twice: %v", err)
	}
	if s, err := Parse(url.Values{"keys": {"/a", "/b"}}, API); err != nil || len(s.Keys) != 2 {
		t.Errorf("keys twice: %v, %d keys", err, len(s.Keys))
	}
	// One rule for every boolean: 1 and true, 0 and false.
	if s, err := Parse(url.Values{"aggregates": {"1"}, "keys": {"/a"}}, API); err != nil || !s.Aggregates {
		t.Errorf("aggregates=1: %v, %v", err, s.Aggregates)
	}
}

// TestRateLimits: rates and charges past any container are refused, so
// that their sums stay finite.
func TestRateLimits(t *testing.T) {
	for _, tt := range []struct{ name, value, msg string }{
		{"readsPerSecond", "1e19", "readsPerSecond 1e19 is more than pkcalc models (1,000,000,000 a second"},
		{"writesPerSecond", "1e300", "writesPerSecond 1e300 is more than pkcalc models"},
		{"queriesPerSecond", "2e9", "queriesPerSecond 2e9 is more than"},
		{"queryRu", "1e8", "queryRu 1e8 is more than pkcalc models (10,000,000 RU for one operation)"},
		{"readsPerSecond", "1e9", ""},
	} {
		_, err := Parse(url.Values{tt.name: {tt.value}}, API)
		if tt.msg == "" && err != nil || tt.msg != "" && (err == nil || !strings.Contains(err.Error(), tt.msg)) {
			t.Errorf("%s=%s: %v, want %q", tt.name, tt.value, err, tt.msg)
		}
	}
}

// TestEmit: --emit takes the ids of the snippets, read from provision.
func TestEmit(t *testing.T) {
	o, _ := Lookup("emit")
	if !slices.Equal(o.Choices, provision.IDs()) || o.In != CLI {
		t.Errorf("emit takes %q on %d", o.Choices, o.In)
	}
	if s, err := Parse(url.Values{"emit": {"terraform"}}, CLI); err != nil || s.Emit != "terraform" {
		t.Errorf("--emit terraform: %q, %v", s.Emit, err)
	}
}

// TestDiagnose: pkcalc diagnose's options, named as its flags, and the
// rules between them.
func TestDiagnose(t *testing.T) {
	s, err := Parse(url.Values{"currentKey": {"/tenantId"}, "ruLog": {"true"}, "ranges": {"true"}, "keys": {"/tenantId,/id"}, "ru": {"18000"}}, Diagnose)
	if err != nil || s.CurrentKey.String() != "/tenantId" || !s.RULog || !s.Ranges || len(s.Keys) != 1 || s.Throughput.RU != 18000 {
		t.Fatalf("%+v, %v", s, err)
	}
	for _, tt := range []struct {
		v   url.Values
		msg string
	}{
		{url.Values{"ruLog": {"true"}}, "--ru-log needs --current-key"},
		{url.Values{"storageLog": {"true"}}, "--storage-log needs --current-key"},
		{url.Values{"ranges": {"true"}, "format": {"csv"}}, "--format csv is the analysis's"},
		{url.Values{"keys": {"/a"}}, "nothing to diagnose: give the container's exports, --ranges, --ru-log, --storage-log or --metrics"},
		{url.Values{"ranges": {"true"}, "currentKey": {"/a,/b"}, "hashVersion": {"1"}}, "key /a,/b is hierarchical, which needs hash version 2"},
		{url.Values{"ranges": {"true"}, "currentKey": {"/_ts"}}, "--current-key: "},
		{url.Values{"ranges": {"true"}, "targetGb": {"5"}}, `unknown option "targetGb"`},
		{url.Values{"ranges": {"true"}, "ru": {"350"}}, "--ru 350 is below the least the service allows"},
	} {
		if _, err := Parse(tt.v, Diagnose); err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%v: %v, want %q", tt.v, err, tt.msg)
		}
	}
	if _, err := Parse(url.Values{"currentKey": {"/a"}}, CLI); err == nil {
		t.Error("pkcalc analyze takes --current-key")
	}
	// The page's diagnose form names its fields by their labels, and has
	// no output format: its downloads choose that.
	for _, tt := range []struct {
		v   url.Values
		msg string
	}{
		{url.Values{"ruLog": {"true"}}, `"RU per logical key (log)" needs "The container's key"`},
		{url.Values{"ranges": {"true"}, "ru": {"350"}}, `"Throughput (RU/s)" 350 is below the least the service allows`},
		{url.Values{"ranges": {"true"}, "format": {"json"}}, `unknown option "format"`},
	} {
		if _, err := Parse(tt.v, DiagnosePage); err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("page: %v: %v, want %q", tt.v, err, tt.msg)
		}
	}
}

// TestJavaScriptDiagnoseNames: pkcalc.js's diagnose takes the diagnosis's
// options but the exports, which are its first argument, and the format,
// which is always JSON there.
func TestJavaScriptDiagnoseNames(t *testing.T) {
	b, err := os.ReadFile("../../public/pkcalc.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`var diagnoseNames = \[(.*?)\];`).FindSubmatch(b)
	if m == nil {
		t.Fatal("pkcalc.js: no list of diagnose's option names (var diagnoseNames = [...];)")
	}
	var got, want []string
	for _, q := range regexp.MustCompile(`"(\w+)"`).FindAllSubmatch(m[1], -1) {
		got = append(got, string(q[1]))
	}
	for _, n := range Names(DiagnoseAPI) {
		if o, _ := Lookup(n); !o.File && n != "format" {
			want = append(want, n)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("pkcalc.js's diagnose takes %q;\nthe table gives it %q", got, want)
	}
}
