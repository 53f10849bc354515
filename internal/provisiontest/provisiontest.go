// Package provisiontest checks the commands and code of core/provision
// with the tools of their languages: bash runs the Azure CLI commands with
// az recorded, python3, node and javac compile the SDK code, the HCL
// library reads and formats the Terraform, go/format the Go. The tests of
// core/provision check every snippet of their cases with it, and those of
// the command line what pkcalc analyze --emit prints, so that both are
// held to the same checks. A tool that is missing fails or skips the test
// as internal/testenv says.
//
// It takes the code as text and imports nothing of pkcalc's but testenv,
// so that core/provision's own tests can use it.
package provisiontest

import (
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/pkcalc/pkcalc/internal/testenv"
)

// jdk says where javac comes from.
const jdk = "./build.sh test installs it from Debian's packages (default-jdk-headless)"

// AccountID is what the recorded az prints for az cosmosdb show, which a
// hierarchical key's snippet asks for the account's resource id.
const AccountID = "/subscriptions/S/resourceGroups/R/providers/Microsoft.DocumentDB/databaseAccounts/A"

// Check checks code, the snippet whose Snippet.ID is id, with what this
// package has for its language, and reports whether it had anything: no
// tool here reads PowerShell, Bicep or C#.
func Check(t testing.TB, id, code string) bool {
	t.Helper()
	switch id {
	case "azure-cli":
		AzureCLI(t, code)
	case "arm":
		if !json.Valid([]byte(code)) {
			t.Errorf("the ARM template is not JSON:\n%s", code)
		}
	case "terraform":
		Terraform(t, "main.tf", code)
	case "python":
		Python(t, "create_container.py", code)
	case "javascript":
		JavaScript(t, "create-container.mjs", code)
	case "java":
		Java(t, code)
	case "go":
		Go(t, code)
	default:
		return false
	}
	return true
}

// AzureCLI runs code in bash with az replaced by a function that records
// its arguments, so that the shell's own quoting is what is checked, and
// returns each call's arguments.
func AzureCLI(t testing.TB, code string) [][]string {
	t.Helper()
	bash := testenv.LookPath(t, "bash", "install bash")
	log := filepath.Join(t.TempDir(), "az.log")
	script := `az() {
  printf '%s\0' "$@" >> "$AZ_LOG"; printf '\1' >> "$AZ_LOG"
  if [ "$1 $2" = "cosmosdb show" ]; then echo ` + AccountID + `; fi
}
` + code
	cmd := exec.Command(bash, "-c", script)
	cmd.Env = append(os.Environ(), "AZ_LOG="+log)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatalf("az was not called: %v", err)
	}
	var calls [][]string
	for _, rec := range strings.Split(strings.TrimSuffix(string(data), "\x01"), "\x01") {
		calls = append(calls, strings.Split(strings.TrimSuffix(rec, "\x00"), "\x00"))
	}
	return calls
}

// write puts code in a file named name of a new directory.
func write(t testing.TB, name, code string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(f, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// Python compiles code, treating warnings (an invalid escape) as errors.
func Python(t testing.TB, name, code string) {
	t.Helper()
	python := testenv.LookPath(t, "python3", "./build.sh test installs it from Debian's packages (python3)")
	if out, err := exec.Command(python, "-W", "error", "-m", "py_compile", write(t, name, code)).CombinedOutput(); err != nil {
		t.Errorf("%s: %v\n%s", name, err, out)
	}
}

// JavaScript checks code's syntax as an ES module (name ends in .mjs).
func JavaScript(t testing.TB, name, code string) {
	t.Helper()
	node := testenv.LookPath(t, "node", "./build.sh test installs it from Debian's packages (nodejs)")
	if out, err := exec.Command(node, "--check", write(t, name, code)).CombinedOutput(); err != nil {
		t.Errorf("%s: %v\n%s", name, err, out)
	}
}

// Terraform parses code as HCL and formats it with the library terraform
// fmt formats with (hclwrite), which must find nothing to change. In
// process, so that it runs everywhere: none of the registries the project
// installs from ships terraform itself.
func Terraform(t testing.TB, name, code string) {
	t.Helper()
	if _, diags := hclsyntax.ParseConfig([]byte(code), name, hcl.InitialPos); diags.HasErrors() {
		t.Errorf("%s: not HCL: %v\n%s", name, diags, code)
	} else if out := hclwrite.Format([]byte(code)); string(out) != code {
		t.Errorf("%s: terraform fmt changes it:\n%s", name, out)
	}
}

// Go parses code and checks that gofmt leaves it as it is: the snippets are
// written as gofmt writes them, so the page, which shows them, needs no
// go/format (1.2 MB of its WebAssembly). Compiling needs azcosmos from the
// network.
func Go(t testing.TB, code string) {
	t.Helper()
	if !strings.Contains(code, "func main()") {
		t.Errorf("no main:\n%s", code)
	}
	formatted, err := format.Source([]byte(code))
	if err != nil {
		t.Fatalf("the Go does not parse: %v\n%s", err, code)
	}
	if string(formatted) != code {
		t.Errorf("the Go is not as gofmt writes it: %s", diffLines(code, string(formatted)))
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

// Java compiles each of codes, a class CreateContainer, in one javac run,
// each class renamed after its place: with no Cosmos SDK on the class path
// javac can only report missing packages and symbols, and anything else
// is a mistake in the code.
func Java(t testing.TB, codes ...string) {
	t.Helper()
	javac := testenv.LookPath(t, "javac", jdk)
	dir := t.TempDir()
	args := []string{"--release", "8", "-encoding", "UTF-8", "-Xmaxerrs", "10000", "-d", dir}
	for i, code := range codes {
		class := fmt.Sprintf("CreateContainer%d", i)
		code = strings.Replace(code, "public class CreateContainer {", "public class "+class+" {", 1)
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
