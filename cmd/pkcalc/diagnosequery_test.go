package main

import (
	"os"
	"strings"
	"testing"
)

// TestDiagnoseQueryDocs: docs/DIAGNOSE.md shows what pkcalc
// diagnose-query prints for each export, as it prints it.
func TestDiagnoseQueryDocs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/DIAGNOSE.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, export := range []string{"ru-log", "storage-log", "metrics", "ranges"} {
		code, out, errs := runCmd(t, "", "diagnose-query", export)
		if code != 0 || errs != "" {
			t.Fatalf("%s: exit %d, stderr %q", export, code, errs)
		}
		if !strings.Contains(string(doc), "\n"+out+"```\n") {
			t.Errorf("docs/DIAGNOSE.md does not show what pkcalc diagnose-query %s prints:\n%s", export, out)
		}
	}
}

func TestDiagnoseQuery(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
		out  string // in standard output, or standard error when code != 0
	}{
		{[]string{"ru-log", "--container", "orders", "--table", "resource-specific"}, 0, "| where CollectionName == \"orders\"\n"},
		{[]string{"--since", "7d", "storage-log"}, 0, "| where TimeGenerated >= ago(7d)\n"},
		{[]string{"metrics", "--account", "shop"}, 0, "az cosmosdb show --name 'shop' --resource-group RESOURCE_GROUP"},
		{[]string{"--table", "azure-diagnostics"}, 2, "pkcalc diagnose-query: name the export: ru-log, storage-log, metrics or ranges\nRun 'pkcalc diagnose-query --help' for the flags.\n"},
		{[]string{"logs"}, 2, `pkcalc diagnose-query: no export "logs": give ru-log, storage-log, metrics or ranges`},
		{[]string{"ru-log", "metrics"}, 2, `pkcalc diagnose-query: unexpected argument "metrics": name one export`},
		{[]string{"ru-log", "--since", "1w"}, 2, `pkcalc diagnose-query: since "1w": give a number and d, h or m, such as 24h or 30d`},
		{[]string{"ru-log", "--table", "both"}, 2, `pkcalc diagnose-query: table "both": give resource-specific or azure-diagnostics`},
	} {
		code, out, errs := runCmd(t, "", append([]string{"diagnose-query"}, tt.args...)...)
		got := out
		if tt.code != 0 {
			got = errs
		}
		if code != tt.code || !strings.Contains(got, tt.out) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d and %q", tt.args, code, out, errs, tt.code, tt.out)
		}
	}
}
