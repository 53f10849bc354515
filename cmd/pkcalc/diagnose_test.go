package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/report"
)

// The container the diagnose tests export: keyed /tenantId (hash V2),
// first two partitions, 0 and 1, of which 0 split into 2 and 3 at its
// middle, so that range 1 covers half the key space. The EPKs are known
// (core/epk checks the hash against the SDKs' vectors): "contoso" is
// 0A4BA226..., in range 2. At 18,000 RU/s each partition has 6,000.
const (
	quarterEPK = "0FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"
	halfEPK    = "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"
)

func rangeOfEPK(e string) string {
	switch {
	case e < quarterEPK:
		return "2"
	case e < halfEPK:
		return "3"
	}
	return "1"
}

// exportRow is one row of the RU log before it is written in a form.
type exportRow struct {
	at     time.Time
	tenant string
	op     string
	charge float64
}

// hotTenantRows: contoso draws 4,000 RU/s for ten minutes, 6,000 for two
// of them; 20 other tenants 100 RU/s each.
func hotTenantRows() []exportRow {
	t0 := time.Date(2025, 2, 25, 9, 0, 0, 0, time.UTC)
	var rows []exportRow
	for sec := range 600 {
		at := t0.Add(time.Duration(sec) * time.Second)
		c := 4000.0
		if sec >= 100 && sec < 220 {
			c = 6000
		}
		rows = append(rows, exportRow{at, "contoso", "Read", c * 0.7}, exportRow{at, "contoso", "Create", c * 0.3})
		for i := range 20 {
			rows = append(rows, exportRow{at, fmt.Sprintf("tenant-%02d", i), "Query", 100})
		}
	}
	return rows
}

// storageRows: contoso logged daily from 10 GB to 12 GB over ten days.
func storageRows() []exportRow {
	var rows []exportRow
	for day := range 11 {
		rows = append(rows, exportRow{time.Date(2025, 2, 15+day, 9, 0, 0, 0, time.UTC), "contoso", "", float64(10*1024*1024 + day*1024*1024/5)})
	}
	return rows
}

func writeCSV(t *testing.T, name string, records [][]string) string {
	t.Helper()
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.WriteAll(records)
	return writeFile(t, name, b.String())
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func loggedKey(tenant string, plain bool) string {
	if plain {
		return tenant
	}
	b, _ := json.Marshal([]string{tenant})
	return string(b)
}

func rangeID(tenant string) string { return rangeOfEPK(epk.HashV2(epk.Str(tenant))) }

// The forms of the RU log: the portal's CSV export of the
// resource-specific table and of AzureDiagnostics, az monitor
// log-analytics query's JSON, with keys as JSON arrays or plain values.
var ruForms = map[string]func(t *testing.T, rows []exportRow) string{
	"resource-specific csv": func(t *testing.T, rows []exportRow) string {
		out := [][]string{{"TenantId", "TimeGenerated [UTC]", "AccountName", "DatabaseName", "CollectionName", "PartitionKey", "PartitionKeyRangeId", "OperationName", "RequestCharge", "RegionName", "Type"}}
		for _, r := range rows {
			out = append(out, []string{"t", r.at.Format("1/2/2006, 3:04:05.000 PM"), "shopaccount", "shop", "orders", loggedKey(r.tenant, false), rangeID(r.tenant), r.op,
				fmt.Sprint(r.charge), "West US 2", "CDBPartitionKeyRUConsumption"})
		}
		return writeCSV(t, "ru.csv", out)
	},
	"azurediagnostics csv": func(t *testing.T, rows []exportRow) string {
		out := [][]string{{"TimeGenerated [UTC]", "Category", "databaseName_s", "collectionName_s", "partitionKey_s", "partitionKeyRangeId_s", "requestCharge_s", "operationType_s", "regionName_s", "Type"}}
		for _, r := range rows {
			out = append(out, []string{r.at.Format("1/2/2006, 3:04:05.000 PM"), "PartitionKeyRUConsumption", "shop", "orders", loggedKey(r.tenant, false), rangeID(r.tenant),
				fmt.Sprintf("%.6f", r.charge), r.op, "West US 2", "AzureDiagnostics"})
		}
		return writeCSV(t, "ru-azurediagnostics.csv", out)
	},
	"az cli json": func(t *testing.T, rows []exportRow) string {
		var out []map[string]string
		for _, r := range rows {
			out = append(out, map[string]string{"TimeGenerated": r.at.Format(time.RFC3339), "DatabaseName": "shop", "CollectionName": "orders", "PartitionKey": loggedKey(r.tenant, false),
				"PartitionKeyRangeId": rangeID(r.tenant), "OperationName": r.op, "RequestCharge": fmt.Sprint(r.charge), "RegionName": "West US 2", "TableName": "PrimaryResult"})
		}
		b, _ := json.MarshalIndent(out, "", "  ")
		return writeFile(t, "ru.json", string(b))
	},
	"plain keys csv": func(t *testing.T, rows []exportRow) string {
		out := [][]string{{"TimeGenerated", "DatabaseName", "CollectionName", "PartitionKey", "PartitionKeyRangeId", "OperationName", "RequestCharge", "RegionName"}}
		for _, r := range rows {
			out = append(out, []string{r.at.Format(time.RFC3339), "shop", "orders", loggedKey(r.tenant, true), rangeID(r.tenant), r.op, fmt.Sprint(r.charge), "West US 2"})
		}
		return writeCSV(t, "ru-plain.csv", out)
	},
}

var storageForms = map[string]func(t *testing.T, rows []exportRow) string{
	"resource-specific csv": func(t *testing.T, rows []exportRow) string {
		out := [][]string{{"TimeGenerated [UTC]", "DatabaseName", "CollectionName", "PartitionKey", "SizeKb", "RegionName", "Type"}}
		for _, r := range rows {
			out = append(out, []string{r.at.Format("1/2/2006, 3:04:05.000 PM"), "shop", "orders", loggedKey(r.tenant, false), fmt.Sprint(r.charge), "West US 2", "CDBPartitionKeyStatistics"})
		}
		return writeCSV(t, "storage.csv", out)
	},
	"azurediagnostics csv": func(t *testing.T, rows []exportRow) string {
		out := [][]string{{"TimeGenerated [UTC]", "Category", "databaseName_s", "collectionName_s", "partitionKey_s", "sizeKb_d", "regionName_s", "Type"}}
		for _, r := range rows {
			out = append(out, []string{r.at.Format("1/2/2006, 3:04:05.000 PM"), "PartitionKeyStatistics", "shop", "orders", loggedKey(r.tenant, false), fmt.Sprint(r.charge), "West US 2", "AzureDiagnostics"})
		}
		return writeCSV(t, "storage-azurediagnostics.csv", out)
	},
	"az cli json": func(t *testing.T, rows []exportRow) string {
		var out []map[string]string
		for _, r := range rows {
			out = append(out, map[string]string{"TimeGenerated": r.at.Format(time.RFC3339), "DatabaseName": "shop", "CollectionName": "orders", "PartitionKey": loggedKey(r.tenant, false),
				"SizeKb": fmt.Sprint(r.charge), "RegionName": "West US 2", "TableName": "PrimaryResult"})
		}
		b, _ := json.MarshalIndent(out, "", "  ")
		return writeFile(t, "storage.json", string(b))
	},
}

// rangesFeed is the pkranges feed after the split, in its REST envelope
// or as the bare array the SDKs list.
func rangesFeed(t *testing.T, bare bool) string {
	ranges := `[
 {"id": "1", "minInclusive": "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "maxExclusive": "FF", "parents": [], "status": "online"},
 {"id": "2", "minInclusive": "", "maxExclusive": "0FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "parents": ["0"], "status": "online"},
 {"id": "3", "minInclusive": "0FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "maxExclusive": "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "parents": ["0"], "status": "online"}
]`
	if bare {
		return writeFile(t, "ranges.json", ranges)
	}
	return writeFile(t, "pkranges.json", `{"_rid": "x", "PartitionKeyRanges": `+ranges+`, "_count": 3}`)
}

// documents: contoso's items under 20 users, the others' under 2.
func documents(t *testing.T) string {
	var b strings.Builder
	for u := range 40 {
		fmt.Fprintf(&b, `{"id": "c%03d", "tenantId": "contoso", "userId": "u%02d"}`+"\n", u, u%20)
	}
	for i := range 20 {
		for u := range 4 {
			fmt.Fprintf(&b, `{"id": "t%02d-%d", "tenantId": "tenant-%02d", "userId": "u%d"}`+"\n", i, u, i, u%2)
		}
	}
	return writeFile(t, "items.jsonl", b.String())
}

func diagnoseJSON(t *testing.T, args ...string) (*report.Diagnosis, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"diagnose", "--format", "json"}, args...), strings.NewReader(""), &stdout, &stderr)
	var d report.Diagnosis
	if err := json.Unmarshal(stdout.Bytes(), &d); err != nil && code != 2 {
		t.Fatalf("%v: %v\n%s", args, err, stderr.String())
	}
	return &d, stderr.String(), code
}

// TestDiagnoseForms: the same container's exports, in every form the
// readers take, give the same diagnosis: the hot partition and its key,
// every logged pair where pkcalc places it, contoso's 40 days to 20 GB,
// and the replay onto a hierarchical key.
func TestDiagnoseForms(t *testing.T) {
	docs := documents(t)
	var first []byte
	for _, form := range []string{"resource-specific csv", "azurediagnostics csv", "az cli json", "plain keys csv"} {
		t.Run(form, func(t *testing.T) {
			stForm := form
			if storageForms[stForm] == nil {
				stForm = "resource-specific csv"
			}
			d, stderr, code := diagnoseJSON(t, "--ranges", rangesFeed(t, form == "az cli json"), "--ru-log", ruForms[form](t, hotTenantRows()),
				"--storage-log", storageForms[stForm](t, storageRows()), "--current-key", "/tenantId", "--ru", "18000", "--key", "/tenantId,/userId", docs)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if d.HottestPartition != "2" || d.HotSpot.Cause != report.CauseOneKey || d.HotSpot.Key[0] != "contoso" {
				t.Errorf("hot partition %s, %s %v; want 2, ONE_KEY contoso", d.HottestPartition, d.HotSpot.Cause, d.HotSpot.Key)
			}
			if pl := d.Placement; pl.Checked != 21 || pl.Agreeing != 21 {
				t.Errorf("placement: %d of %d agree, want 21 of 21", pl.Agreeing, pl.Checked)
			}
			if len(d.Keys) == 0 || d.Keys[0].DaysTo20Gb == nil || *d.Keys[0].DaysTo20Gb != 40 {
				t.Errorf("contoso's storage %+v, want 40 days to 20 GB", d.Keys)
			}
			if len(d.WhatIf) != 2 || d.WhatIf[1].Key != "/tenantId,/userId" || d.WhatIf[1].Coverage != 1 || len(d.WhatIf[1].Notes) == 0 {
				t.Errorf("what-if %+v, want the current key and /tenantId,/userId, fully covered, with the hierarchical note", d.WhatIf)
			}
			// Past what was read, every form says the same.
			d.Inputs = nil
			b, _ := json.Marshal(d)
			if first == nil {
				first = b
			} else if !bytes.Equal(b, first) {
				t.Errorf("%s diagnoses otherwise than the resource-specific CSV", form)
			}
		})
	}
}

// TestDiagnoseBadRows: a row that cannot be read is named by its line,
// the rest are used, and the run exits 1.
func TestDiagnoseBadRows(t *testing.T) {
	rows := hotTenantRows()
	path := ruForms["plain keys csv"](t, rows)
	b, _ := os.ReadFile(path)
	lines := strings.Split(string(b), "\n")
	lines[5] = strings.Replace(lines[5], ",100,", ",lots,", 1)
	os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)
	d, stderr, code := diagnoseJSON(t, "--ranges", rangesFeed(t, false), "--ru-log", path, "--current-key", "/tenantId", "--ru", "18000")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	var ru *report.ExportRead
	for i := range d.Inputs {
		if d.Inputs[i].Kind == report.ExportRULog {
			ru = &d.Inputs[i]
		}
	}
	if ru == nil || ru.ErrorCount != 1 || ru.Errors[0].Line != 6 || ru.Records != len(rows)-1 {
		t.Fatalf("RU log read as %+v, want one problem on line 6 and the other %d rows", ru, len(rows)-1)
	}
	if !strings.Contains(stderr, "line 6") || d.HottestPartition != "2" {
		t.Errorf("stderr %q, hottest %q", stderr, d.HottestPartition)
	}
}

// TestDiagnoseUsage: the flags' rules, worded as flags.
func TestDiagnoseUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--ru-log", "x.csv"}, "--ru-log needs --current-key"},
		{[]string{"--ranges", "x.json", "--format", "csv"}, "--format csv is the analysis's"},
		{[]string{"--key", "/a"}, "nothing to diagnose"},
		{[]string{"--ranges", "-", "--ru-log", "-", "--current-key", "/a"}, "standard input (-) can be one file only"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"diagnose"}, tt.args...), strings.NewReader(""), &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), tt.msg) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tt.args, code, stderr.String(), tt.msg)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"diagnose", "--help"}, nil, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "--current-key") {
		t.Errorf("--help: exit %d\n%s", code, stdout.String())
	}
}

// TestDiagnoseBadDocument: a document that cannot be read is listed with
// its line, the others replayed, and the run exits 1.
func TestDiagnoseBadDocument(t *testing.T) {
	docs := writeFile(t, "items.jsonl", `{"id": "c1", "tenantId": "contoso", "userId": "u1"}`+"\n{\"id\": oops}\n"+`{"id": "c2", "tenantId": "contoso", "userId": "u2"}`+"\n")
	d, _, code := diagnoseJSON(t, "--ranges", rangesFeed(t, false), "--ru-log", ruForms["plain keys csv"](t, hotTenantRows()), "--current-key", "/tenantId",
		"--ru", "18000", "--key", "/tenantId,/userId", docs)
	e := d.Inputs[len(d.Inputs)-1]
	if code != 1 || e.Kind != report.ExportDocuments || e.Records != 2 || e.ErrorCount != 1 || e.Errors[0].Line != 2 {
		t.Errorf("exit %d, documents %+v; want 1, two read and line 2's problem", code, e)
	}
}
