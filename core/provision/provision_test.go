package provision

import (
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/internal/testenv"
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
	bash := testenv.LookPath(t, "bash", "install bash")
	const accountID = "/subscriptions/S/resourceGroups/R/providers/Microsoft.DocumentDB/databaseAccounts/A"
	for i, tc := range cases {
		log := filepath.Join(t.TempDir(), "az.log")
		script := `az() {
  printf '%s\0' "$@" >> "$AZ_LOG"; printf '\1' >> "$AZ_LOG"
  if [ "$1 $2" = "cosmosdb show" ]; then echo ` + accountID + `; fi
}
` + byID(snippetsOf(t, i), "azure-cli")
		cmd := exec.Command(bash, "-c", script)
		cmd.Env = append(os.Environ(), "AZ_LOG="+log)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: bash: %v\n%s", tc.name, err, out)
		}
		data, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		var calls [][]string
		for _, rec := range strings.Split(strings.TrimSuffix(string(data), "\x01"), "\x01") {
			calls = append(calls, strings.Split(strings.TrimSuffix(rec, "\x00"), "\x00"))
		}
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
			wantURL := accountID + "/sqlDatabases/" + pathEscape(c.Database) + "/containers/" + pathEscape(c.Name) + "?api-version=" + APIVersion
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

// writeSnippet writes the snippet with the given id of every case to dir and
// returns the file names.
func writeSnippets(t *testing.T, id, ext string) []string {
	dir := t.TempDir()
	var files []string
	for i, tc := range cases {
		name := filepath.Join(dir, strings.ReplaceAll(tc.name, "-", "_")+ext)
		if err := os.WriteFile(name, []byte(byID(snippetsOf(t, i), id)), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	return files
}

func TestPythonCompiles(t *testing.T) {
	python := testenv.LookPath(t, "python3", "./build.sh test installs it from Debian's packages (python3)")
	for _, f := range writeSnippets(t, "python", ".py") {
		if out, err := exec.Command(python, "-W", "error", "-m", "py_compile", f).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", filepath.Base(f), err, out)
		}
	}
}

func TestJavaScriptChecks(t *testing.T) {
	node := testenv.LookPath(t, "node", "./build.sh test installs it from Debian's packages (nodejs)")
	for _, f := range writeSnippets(t, "javascript", ".mjs") {
		if out, err := exec.Command(node, "--check", f).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", filepath.Base(f), err, out)
		}
	}
}

// TestTerraformFormat parses each snippet as HCL and formats it with the
// HCL library that terraform fmt formats with (hclwrite), which must find
// nothing to change. In process, so that it runs everywhere: none of the
// registries the project installs from ships terraform itself.
func TestTerraformFormat(t *testing.T) {
	for i, tc := range cases {
		code := byID(snippetsOf(t, i), "terraform")
		if _, diags := hclsyntax.ParseConfig([]byte(code), tc.name+".tf", hcl.InitialPos); diags.HasErrors() {
			t.Errorf("%s: not HCL: %v\n%s", tc.name, diags, code)
		} else if out := hclwrite.Format([]byte(code)); string(out) != code {
			t.Errorf("%s: terraform fmt changes the snippet:\n%s", tc.name, out)
		}
	}
}

// TestGoSnippets parses every Go snippet and checks it is gofmt-formatted:
// the snippets are written as gofmt writes them, so the page, which shows
// them, needs no go/format (1.2 MB of its WebAssembly). Compiling needs
// azcosmos from the network; see the package's report.
func TestGoSnippets(t *testing.T) {
	for i, tc := range cases {
		code := byID(snippetsOf(t, i), "go")
		if !strings.Contains(code, "func main()") {
			t.Errorf("%s: no main", tc.name)
		}
		if formatted := mustFormatGo(t, code); formatted != code {
			t.Errorf("%s: Go snippet is not gofmt-formatted:\n%s", tc.name, diffLines(code, formatted))
		}
	}
	// Every kind of term, alone and together, under each hash version.
	for _, spec := range []string{"/a+/ts:hour", "/a+/ts:day", "/a+/ts:month", "/a+hash(/id)%100", "/a+/b+/c", "/a,/b", "/n"} {
		for _, v := range []epk.Version{epk.V1, epk.V2} {
			code := byID(Snippets(mustParse(t, spec), v, Container{RU: 400}), "go")
			if formatted := mustFormatGo(t, code); formatted != code {
				t.Errorf("%s (hash V%d): Go snippet is not gofmt-formatted:\n%s", spec, v, diffLines(code, formatted))
			}
		}
	}
}

// diffLines is the first line where got and want differ.
func diffLines(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got %q\nwant %q", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}

// TestJavaSyntax compiles every Java snippet: with no Cosmos SDK on the class
// path javac can only report missing packages and symbols, and anything
// else is a mistake in the snippet. One javac run takes all the snippets,
// each class renamed after its case.
func TestJavaSyntax(t *testing.T) {
	javac := testenv.LookPath(t, "javac", jdk)
	dir := t.TempDir()
	args := []string{"--release", "8", "-encoding", "UTF-8", "-Xmaxerrs", "10000", "-d", dir}
	for i := range cases {
		class := fmt.Sprintf("CreateContainer%d", i)
		code := strings.Replace(byID(snippetsOf(t, i), "java"), "public class CreateContainer {", "public class "+class+" {", 1)
		f := filepath.Join(dir, class+".java")
		if err := os.WriteFile(f, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, f)
	}
	out, _ := exec.Command(javac, args...).CombinedOutput()
	errors := 0
	for _, line := range strings.Split(string(out), "\n") {
		if !strings.Contains(line, "error:") {
			continue
		}
		errors++
		if !strings.Contains(line, "does not exist") && !strings.Contains(line, "cannot find symbol") {
			t.Error(line)
		}
	}
	if errors == 0 {
		t.Errorf("javac found the Cosmos SDK or did not run:\n%s", out)
	}
}

func mustFormatGo(t *testing.T, code string) string {
	t.Helper()
	out, err := format.Source([]byte(code))
	if err != nil {
		t.Fatalf("Go snippet does not parse: %v\n%s", err, code)
	}
	return string(out)
}
