// Package testenv decides, for tests, what becomes of a test that lacks
// something it needs: a command, a dataset, a built site. Where every test
// must run, under ./build.sh test (which sets PKCALC_REQUIRE_TOOLS=1) and
// in CI (where CI is true), the test fails; elsewhere, as in a plain go
// test of one package, it skips and says what is missing.
//
// It finds commands on PATH and nothing else, and installs nothing:
// build.sh installs the tools, and internal/shared finds the datasets.
package testenv

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
)

// Required reports whether every test must run here: PKCALC_REQUIRE_TOOLS
// is 1, or CI is true.
func Required() bool {
	ci, _ := strconv.ParseBool(os.Getenv("CI"))
	return os.Getenv("PKCALC_REQUIRE_TOOLS") == "1" || ci
}

// Missing stops the test for want of what why says: failed where every
// test must run, skipped elsewhere.
func Missing(t testing.TB, why string) {
	t.Helper()
	if Required() {
		t.Fatal(why + " (PKCALC_REQUIRE_TOOLS or CI is set: every test must run)")
	}
	t.Skip(why)
}

// MustHaveExec skips the test under WebAssembly (js under Node, wasip1),
// which starts no processes, even where every test must run: the native
// run of the same test starts them.
func MustHaveExec(t testing.TB) {
	t.Helper()
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("WebAssembly starts no processes: the native run of this test does")
	}
}

// LookPath is the path of the command name on PATH. Without it the test
// stops as Missing does, saying how to get it; under WebAssembly it skips
// (MustHaveExec).
func LookPath(t testing.TB, name, how string) string {
	t.Helper()
	MustHaveExec(t)
	path, err := exec.LookPath(name)
	if err != nil {
		Missing(t, name+" is not on PATH: "+how)
	}
	return path
}
