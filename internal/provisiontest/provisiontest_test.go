package provisiontest

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/internal/testenv"
)

// broken is code each check must refuse: a syntax error, or for Terraform
// and Go, code their formatters would change.
var broken = map[string]string{
	"azure-cli":  "az cosmosdb sql container create --name 'items\n",
	"arm":        `{"resources": [}`,
	"terraform":  "resource \"a\" \"b\" {\n  name = \"x\"\n   x = 1\n}\n",
	"python":     "def f(:\n",
	"javascript": "const x = ;\n",
	"java":       "public class CreateContainer { void f() { int x = } }\n",
	"go":         "package main\n\nfunc main()  {}\n",
}

// TestChecksFail runs each check on broken code, in a process of its own
// (this test binary again), which must fail: a check that passes anything
// would pass the snippets too.
func TestChecksFail(t *testing.T) {
	if id := os.Getenv("PROVISIONTEST_BROKEN"); id != "" {
		Check(t, id, broken[id])
		return
	}
	testenv.MustHaveExec(t)
	for id := range broken {
		cmd := exec.Command(os.Args[0], "-test.run=^TestChecksFail$")
		cmd.Env = append(os.Environ(), "PROVISIONTEST_BROKEN="+id)
		out, err := cmd.CombinedOutput()
		if strings.Contains(string(out), "--- SKIP") { // its tool is missing, and allowed to be
			t.Logf("%s: not checked here:\n%s", id, out)
			continue
		}
		if err == nil || !strings.Contains(string(out), "--- FAIL") {
			t.Errorf("%s: the check passed broken code:\n%s", id, out)
		}
	}
	if Check(t, "powershell", "anything") {
		t.Error("Check says it checked PowerShell, which no tool here reads")
	}
}
