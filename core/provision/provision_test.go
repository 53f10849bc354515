package provision

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/internal/provisiontest"
)

// jdk says where the Java tests' javac and java come from.
const jdk = "./build.sh test installs them from Debian's packages (default-jdk-headless)"

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// weirdName needs escaping in every target language: quotes of each kind,
// backslashes, template and interpolation openers, a line break, U+2028 and
// ARM's expression brackets.
const weirdName = "[it's \"q\" ‘x’ ${a} %{b} $HOME `c` \\ \n\u2028 ☃ 😀]"

var cases = []struct {
	name string
	spec string
	v    epk.Version
	c    Container
}{
	{"hash-v2-manual", "/tenantId", epk.V2, Container{Account: "contoso", ResourceGroup: "rg-app", RU: 400}},
	{"hash-v1-serverless", "/customer/id", epk.V1, Container{}},
	{"autoscale", "/tenantId", epk.V2, Container{RU: 1000, Autoscale: true}},
	{"hierarchical-autoscale", "/tenantId,/userId,/id", epk.V2, Container{Account: "contoso", ResourceGroup: "rg-app", Database: "saas", Name: "events", RU: 4000, Autoscale: true}},
	{"synthetic", "/customerId+/orderDate:month+hash(/id)%8", epk.V2, Container{RU: 1000}},
	{"quoted-path", `/"order date"/"it's \"x\""`, epk.V2, Container{Account: "contoso", ResourceGroup: "rg-app", Database: "my 'db' $HOME", Name: weirdName, RU: 1000, Autoscale: true}},
	{"quoted-hierarchical", `/"a b",/"it's",/"x\\u000a y"`, epk.V1, Container{Database: "d\"b", Name: weirdName, RU: 400}},
	{"raise-after-load", "/tenantId", epk.V2, Container{RU: 6000, RaiseTo: 9600}},
	{"raise-quoted-autoscale", "/tenantId,/id", epk.V2, Container{Database: "my 'db' $HOME", Name: weirdName, RU: 4000, Autoscale: true, RaiseTo: 20000}},
	{"quoted-synthetic", `/"order date":day+hash(/"we'ird \"name\""/"x\\u000a y")%7`, epk.V1, Container{Name: weirdName}},
}

func mustParse(t testing.TB, s string) key.Spec {
	t.Helper()
	spec, err := key.Parse(s)
	if err != nil {
		t.Fatalf("key.Parse(%q): %v", s, err)
	}
	return spec
}

func snippetsOf(t testing.TB, i int) []Snippet {
	t.Helper()
	c := cases[i]
	return Snippets(mustParse(t, c.spec), c.v, c.c)
}

func TestGolden(t *testing.T) {
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			for _, s := range snippetsOf(t, i) {
				fmt.Fprintf(&b, "===== %s (%s, %s) =====\n%s\n", s.ID, s.Title, s.Lang, s.Code)
			}
			path := filepath.Join("testdata", c.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if b.String() != string(want) {
				t.Errorf("output differs from %s (run go test -update and review the diff)", path)
			}
		})
	}
}

func TestOrder(t *testing.T) {
	var ids, langs []string
	for _, s := range snippetsOf(t, 0) {
		ids = append(ids, s.ID)
		langs = append(langs, s.Lang)
		if s.Title == "" || !strings.HasSuffix(s.Code, "\n") {
			t.Errorf("%s: empty title or code not ending in a newline", s.ID)
		}
	}
	wantIDs := []string{"azure-cli", "powershell", "bicep", "arm", "terraform", "dotnet", "java", "python", "javascript", "go"}
	wantLangs := []string{"bash", "powershell", "bicep", "json", "hcl", "csharp", "java", "python", "javascript", "go"}
	if !slices.Equal(ids, wantIDs) || !slices.Equal(langs, wantLangs) || !slices.Equal(IDs(), wantIDs) {
		t.Errorf("ids %v langs %v IDs %v", ids, langs, IDs())
	}
	if Snippets(key.Spec{}, epk.V2, Container{}) != nil {
		t.Error("a spec without paths gave snippets")
	}
}

func byID(ss []Snippet, id string) string {
	for _, s := range ss {
		if s.ID == id {
			return s.Code
		}
	}
	return ""
}

// want is what every snippet of case i must say.
func want(t testing.TB, i int) (paths []string, kind string, version int, c Container) {
	p, _ := newPlan(mustParse(t, cases[i].spec), cases[i].v, cases[i].c)
	return p.paths, p.kind, p.version, p.c
}

func TestARM(t *testing.T) {
	for i, tc := range cases {
		var tmpl struct {
			Schema    string `json:"$schema"`
			Resources []struct {
				Type, APIVersion, Name string
				Properties             struct {
					Resource struct {
						ID           string
						PartitionKey struct {
							Paths   []string
							Kind    string
							Version int
						}
					}
					Options *struct {
						Throughput        int
						AutoscaleSettings *struct{ MaxThroughput int }
					}
				}
			}
		}
		code := byID(snippetsOf(t, i), "arm")
		if err := json.Unmarshal([]byte(code), &tmpl); err != nil {
			t.Fatalf("%s: ARM template is not JSON: %v", tc.name, err)
		}
		paths, kind, version, c := want(t, i)
		if len(tmpl.Resources) != 1 {
			t.Fatalf("%s: %d resources", tc.name, len(tmpl.Resources))
		}
		r := tmpl.Resources[0]
		pk := r.Properties.Resource.PartitionKey
		if r.Type != "Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers" || r.APIVersion != APIVersion ||
			!slices.Equal(pk.Paths, paths) || pk.Kind != kind || pk.Version != version ||
			r.Properties.Resource.ID != armLiteral(c.Name) || r.Name != c.Account+"/"+c.Database+"/"+c.Name {
			t.Errorf("%s: resource %+v", tc.name, r)
		}
		o := r.Properties.Options
		switch {
		case c.RU == 0 && o != nil,
			c.RU > 0 && o == nil,
			o != nil && !c.Autoscale && (o.Throughput != c.RU || o.AutoscaleSettings != nil),
			o != nil && c.Autoscale && (o.Throughput != 0 || o.AutoscaleSettings == nil || o.AutoscaleSettings.MaxThroughput != c.RU):
			t.Errorf("%s: options %+v for %+v", tc.name, o, c)
		}
	}
	if tc := cases[5]; !strings.HasPrefix(weirdName, "[") || armLiteral(weirdName) != "["+weirdName || tc.c.Name != weirdName {
		t.Error("the weird name no longer exercises ARM's [[ escape")
	}
}

// TestAzureCLI runs each az snippet in bash with az replaced by a function
// that records its arguments, so shell quoting is checked by a real shell.
func TestAzureCLI(t *testing.T) {
	for i, tc := range cases {
		calls := provisiontest.AzureCLI(t, byID(snippetsOf(t, i), "azure-cli"))
		paths, kind, version, c := want(t, i)
		flags := func(args []string) map[string]string {
			m := map[string]string{}
			for j := 0; j+1 < len(args); j += 2 {
				m[args[j]] = args[j+1]
			}
			return m
		}
		if kind == "MultiHash" {
			if len(calls) != 2 || !slices.Equal(calls[0][:2], []string{"cosmosdb", "show"}) || !slices.Equal(calls[1][:1], []string{"rest"}) {
				t.Fatalf("%s: calls %q", tc.name, calls)
			}
			show, rest := flags(calls[0][2:]), flags(calls[1][1:])
			if show["--resource-group"] != c.ResourceGroup || show["--name"] != c.Account {
				t.Errorf("%s: az cosmosdb show %q", tc.name, calls[0])
			}
			wantURL := provisiontest.AccountID + "/sqlDatabases/" + pathEscape(c.Database) + "/containers/" + pathEscape(c.Name) + "?api-version=" + APIVersion
			if rest["--method"] != "put" || rest["--url"] != wantURL {
				t.Errorf("%s: az rest %q, want url %q", tc.name, calls[1], wantURL)
			}
			var body struct{ Properties armProperties }
			if err := json.Unmarshal([]byte(rest["--body"]), &body); err != nil {
				t.Fatalf("%s: body: %v", tc.name, err)
			}
			r := body.Properties.Resource
			if r.ID != c.Name || !slices.Equal(r.PartitionKey.Paths, paths) || r.PartitionKey.Kind != kind || r.PartitionKey.Version != version {
				t.Errorf("%s: body %+v", tc.name, body)
			}
			continue
		}
		if len(calls) != 1 || !slices.Equal(calls[0][:4], []string{"cosmosdb", "sql", "container", "create"}) {
			t.Fatalf("%s: calls %q", tc.name, calls)
		}
		got := flags(calls[0][4:])
		wantFlags := map[string]string{
			"--resource-group": c.ResourceGroup, "--account-name": c.Account, "--database-name": c.Database,
			"--name": c.Name, "--partition-key-path": paths[0], "--partition-key-version": fmt.Sprint(version),
		}
		if c.RU > 0 && c.Autoscale {
			wantFlags["--max-throughput"] = fmt.Sprint(c.RU)
		} else if c.RU > 0 {
			wantFlags["--throughput"] = fmt.Sprint(c.RU)
		}
		if fmt.Sprint(got) != fmt.Sprint(wantFlags) {
			t.Errorf("%s: az arguments\n got %q\nwant %q", tc.name, got, wantFlags)
		}
	}
}

// TestRaise: a container created with less than it needs says, in every
// snippet, to raise the throughput once the data is loaded, and the Azure
// CLI's raise_throughput, run in bash, raises that container's and
// nothing runs it before.
func TestRaise(t *testing.T) {
	for i, tc := range cases {
		snippets := snippetsOf(t, i)
		what := "the throughput"
		if tc.c.Autoscale {
			what = "the autoscale maximum"
		}
		note := fmt.Sprintf("raise %s to %d RU/s", what, tc.c.RaiseTo)
		for _, s := range snippets {
			if got := strings.Contains(s.Code, note); got != (tc.c.RaiseTo > 0) {
				t.Errorf("%s: %s says %q: %v", tc.name, s.ID, note, got)
			}
		}
		if tc.c.RaiseTo == 0 {
			continue
		}
		cli := byID(snippets, "azure-cli")
		created := len(provisiontest.AzureCLI(t, cli))
		calls := provisiontest.AzureCLI(t, cli+"raise_throughput\n")[created:]
		_, _, _, c := want(t, i)
		flag := "--throughput"
		if c.Autoscale {
			flag = "--max-throughput"
		}
		wantCall := []string{"cosmosdb", "sql", "container", "throughput", "update", "--resource-group", c.ResourceGroup,
			"--account-name", c.Account, "--database-name", c.Database, "--name", c.Name, flag, fmt.Sprint(c.RaiseTo)}
		if len(calls) != 1 || !slices.Equal(calls[0], wantCall) {
			t.Errorf("%s: raise calls %q, want %q", tc.name, calls, wantCall)
		}
	}
	if s := Snippets(mustParse(t, "/a"), epk.V2, Container{RU: 6000, RaiseTo: 5000}); strings.Contains(s[0].Code, "raise") {
		t.Error("a RaiseTo not above RU is not ignored")
	}
}

func TestPythonCompiles(t *testing.T) {
	for i, tc := range cases {
		provisiontest.Python(t, strings.ReplaceAll(tc.name, "-", "_")+".py", byID(snippetsOf(t, i), "python"))
	}
}

func TestJavaScriptChecks(t *testing.T) {
	for i, tc := range cases {
		provisiontest.JavaScript(t, tc.name+".mjs", byID(snippetsOf(t, i), "javascript"))
	}
}

// TestTerraformFormat: each snippet is HCL that terraform fmt leaves as
// it is.
func TestTerraformFormat(t *testing.T) {
	for i, tc := range cases {
		provisiontest.Terraform(t, tc.name+".tf", byID(snippetsOf(t, i), "terraform"))
	}
}

// TestGoSnippets parses every Go snippet and checks it is gofmt-formatted.
// Compiling needs azcosmos from the network; see the package's report.
func TestGoSnippets(t *testing.T) {
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { provisiontest.Go(t, byID(snippetsOf(t, i), "go")) })
	}
	// Every kind of term, alone and together, under each hash version.
	for _, spec := range []string{"/a+/ts:hour", "/a+/ts:day", "/a+/ts:month", "/a+hash(/id)%100", "/a+/b+/c", "/a,/b", "/n"} {
		for _, v := range []epk.Version{epk.V1, epk.V2} {
			t.Run(fmt.Sprintf("%s-v%d", spec, v), func(t *testing.T) {
				provisiontest.Go(t, byID(Snippets(mustParse(t, spec), v, Container{RU: 400}), "go"))
			})
		}
	}
}

// TestJavaSyntax compiles every Java snippet, in one javac run.
func TestJavaSyntax(t *testing.T) {
	var codes []string
	for i := range cases {
		codes = append(codes, byID(snippetsOf(t, i), "java"))
	}
	provisiontest.Java(t, codes...)
}
