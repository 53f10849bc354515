// Package shared finds, for tests, the folder of real datasets and expert
// verdicts that sits beside the project's checkout (shared/datasets,
// shared/casebook): named by PKCALC_SHARED, or looked for from the
// current directory upwards. It reads nothing in it.
//
// A test that needs the folder fails without it where every test must run
// (./build.sh test, which sets PKCALC_REQUIRE_TOOLS, or CI), and skips
// elsewhere, as internal/testenv decides.
package shared

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pkcalc/pkcalc/internal/testenv"
)

// Dir is the path of shared/sub (datasets, casebook), or the test stops:
// failed where every test must run, skipped elsewhere.
func Dir(t testing.TB, sub string) string {
	t.Helper()
	if d, ok := find(sub); ok {
		return d
	}
	testenv.Missing(t, "no shared/"+sub+" beside the checkout: set PKCALC_SHARED to the shared folder")
	return ""
}

// File is the path of a file in shared/sub, as Dir finds it.
func File(t testing.TB, sub, name string) string {
	t.Helper()
	return filepath.Join(Dir(t, sub), name)
}

func find(sub string) (string, bool) {
	if root := os.Getenv("PKCALC_SHARED"); root != "" {
		d := filepath.Join(root, sub)
		return d, isDir(d)
	}
	dir, err := filepath.Abs(".")
	if err != nil {
		return "", false
	}
	for {
		if d := filepath.Join(dir, "shared", sub); isDir(d) {
			return d, true
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", false
		}
		dir = up
	}
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
