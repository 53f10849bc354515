package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/options"
	"github.com/pkcalc/pkcalc/core/sample"
	"github.com/pkcalc/pkcalc/internal/shared"
)

var updateExample = flag.Bool("update", false, "rewrite testdata/diagnose, the worked example of docs/DIAGNOSE.md")

// The worked example of docs/DIAGNOSE.md (package sample's
// DiagnoseExample), with the DP-420 lab's tenant products (shared
// datasets, dp420-tenant-products.json: 201, 61 and 33 products of three
// tenants) as its documents.
const exampleDir = "testdata/diagnose"

// exampleArgs is the example's command line, as the docs give it, from
// testdata/diagnose.
func exampleArgs(docs string) []string {
	args := []string{"diagnose"}
	for _, e := range sample.DiagnoseExample() {
		o, _ := options.Lookup(e.Kind)
		args = append(args, "--"+o.Flag, e.Name)
	}
	return append(args, "--current-key", sample.ExampleCurrentKey, "--ru", strconv.Itoa(sample.ExampleRU), "--key", sample.ExampleKey, docs)
}

// TestDiagnoseExample runs the worked example and pins its output, and
// checks that docs/DIAGNOSE.md shows it as it is. -update rewrites the
// exports and the output.
func TestDiagnoseExample(t *testing.T) {
	docs := shared.File(t, "datasets", "dp420-tenant-products.json")
	for _, e := range sample.DiagnoseExample() {
		path, text := filepath.Join(exampleDir, e.Name), e.Text
		if *updateExample {
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if b, err := os.ReadFile(path); err != nil || string(b) != text {
			t.Errorf("%s is not what the example writes (go test ./cmd/pkcalc -run DiagnoseExample -update): %v", path, err)
		}
	}
	var stdout, stderr bytes.Buffer
	args := exampleArgs(docs)
	for i, a := range args {
		if strings.HasSuffix(a, ".json") && a != docs || strings.HasSuffix(a, ".csv") {
			args[i] = filepath.Join(exampleDir, a)
		}
	}
	if code := run(args, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	// The documents' path is the machine's: the docs name the file alone.
	got := strings.ReplaceAll(stdout.String(), docs, "dp420-tenant-products.json")
	got = strings.ReplaceAll(got, exampleDir+"/", "")
	golden := filepath.Join(exampleDir, "output.txt")
	if *updateExample {
		os.WriteFile(golden, []byte(got), 0o644)
	} else if want, err := os.ReadFile(golden); err != nil || string(want) != got {
		t.Errorf("%s differs from what the example prints (go test ./cmd/pkcalc -run DiagnoseExample -update, and read the diff)", golden)
	}
	doc, err := os.ReadFile("../../docs/DIAGNOSE.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- the output of TestDiagnoseExample -->\n```text\n(.*?)```").FindSubmatch(doc)
	if m == nil || string(m[1]) != got {
		t.Error("docs/DIAGNOSE.md does not show the example's output as it is: copy cmd/pkcalc/testdata/diagnose/output.txt into its block")
	}
}
