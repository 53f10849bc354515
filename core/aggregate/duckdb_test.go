package aggregate

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// duckdbCommand is the DuckDB that the tests run pkcalc's DuckDB queries
// on: PKCALC_DUCKDB, which ./build.sh test sets to the DuckDB it installs
// from npm (testdata/duckdb-csv.mjs), else a duckdb command on PATH. Without
// either the test skips, or fails where tools are required.
func duckdbCommand(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("WebAssembly starts no processes: the native run of this test runs DuckDB")
	}
	if bin := os.Getenv("PKCALC_DUCKDB"); bin != "" {
		return bin
	}
	if bin, err := exec.LookPath("duckdb"); err == nil {
		return bin
	}
	const how = "no DuckDB: ./build.sh test installs it from npm in build/duckdb and sets PKCALC_DUCKDB; " +
		"or set PKCALC_DUCKDB to a command that runs SQL from standard input as duckdb -csv does, or put duckdb on PATH"
	if toolsRequired() {
		t.Fatal(how + " (PKCALC_REQUIRE_TOOLS or CI is set: a missing tool fails the test)")
	}
	t.Skip(how)
	return ""
}

// toolsRequired reports whether a test that needs a tool must fail without
// it rather than skip: under ./build.sh test, which sets
// PKCALC_REQUIRE_TOOLS=1, and under CI, where CI is true.
func toolsRequired() bool {
	ci, _ := strconv.ParseBool(os.Getenv("CI"))
	return os.Getenv("PKCALC_REQUIRE_TOOLS") == "1" || ci
}

// duckdb runs sql as `duckdb -csv` does and returns what it prints.
func duckdb(t *testing.T, sql string) string {
	t.Helper()
	bin := duckdbCommand(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-csv")
	cmd.Stdin = strings.NewReader(sql)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s -csv: %v\n%s\n%s", bin, err, stderr.String(), sql)
	}
	return string(out)
}
