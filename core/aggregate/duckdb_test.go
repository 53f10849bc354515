package aggregate

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/internal/testenv"
)

// duckdbCommand is the DuckDB that the tests run pkcalc's DuckDB queries
// on: PKCALC_DUCKDB, which ./build.sh test sets to the DuckDB it installs
// from npm (testdata/duckdb-csv.mjs), else a duckdb command on PATH. Without
// either the test stops as internal/testenv decides.
func duckdbCommand(t *testing.T) string {
	t.Helper()
	testenv.MustHaveExec(t)
	if bin := os.Getenv("PKCALC_DUCKDB"); bin != "" {
		return bin
	}
	return testenv.LookPath(t, "duckdb", "./build.sh test installs DuckDB from npm in build/duckdb and sets PKCALC_DUCKDB; "+
		"or set PKCALC_DUCKDB to a command that runs SQL from standard input as duckdb -csv does")
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

// TestDuckDBOutputFixtures runs the DuckDB queries of testdata/query on
// testdata/documents.jsonl and checks that DuckDB prints the CSV fixtures
// of testdata/output that TestReadEngineOutput reads, header and rows
// (these in any order: the queries group without ordering).
func TestDuckDBOutputFixtures(t *testing.T) {
	duckdbCommand(t)
	docs, err := filepath.Abs(filepath.Join("testdata", "documents.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	specs := map[string]string{}
	for _, g := range goldenSpecs {
		specs[g.name] = g.spec
	}
	for _, name := range []string{"hash", "hierarchical", "bucket", "suffix"} {
		t.Run(name, func(t *testing.T) {
			spec, err := key.Parse(specs[name])
			if err != nil {
				t.Fatal(err)
			}
			q, err := Query(spec, DuckDB, docs)
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join("testdata", "output", "duckdb-"+name+".csv")
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := csvLines(duckdb(t, q))
			if w := csvLines(string(want)); !slices.Equal(got, w) {
				t.Errorf("DuckDB prints, sorted:\n%s\n%s has, sorted:\n%s", strings.Join(got, "\n"), file, strings.Join(w, "\n"))
			}
		})
	}
}

// csvLines is CSV text's header line and then its other lines, sorted.
func csvLines(s string) []string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	slices.Sort(lines[1:])
	return lines
}
