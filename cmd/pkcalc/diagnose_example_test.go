package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pkcalc/pkcalc/internal/shared"
)

var updateExample = flag.Bool("update", false, "rewrite testdata/diagnose, the worked example of docs/DIAGNOSE.md")

// The worked example of docs/DIAGNOSE.md: the DP-420 lab's tenant products
// (shared datasets, dp420-tenant-products.json: 201, 61 and 33 products
// of three tenants) in a container keyed /tenantId at 18,000 RU/s. It
// began with two partitions, 0 and 1, of which 1 split at its middle into
// 2 and 3; contoso-outdoors (EPK 3EEBF8C5...) and adventure-works
// (3F4B938F...) hash into 3, fabrikam-cycles (067A2352...) into 0. Five
// minutes of the RU log, with a sale that takes contoso-outdoors from
// 4,500 to 8,200 RU/s for a minute, and thirty days of the storage log.
const exampleDir = "testdata/diagnose"

var exampleTenants = []struct {
	name, rng string
	ru        float64 // RU/s
	gb, grow  float64 // size on the first day, and growth a day, GB
}{
	{"adventure-works", "3", 400, 1.7, 0.01},
	{"contoso-outdoors", "3", 4500, 10.6, 0.15},
	{"fabrikam-cycles", "0", 800, 3.2, 0.03},
}

// exampleExports writes the example's exports: the ranges feed, the RU
// and storage logs as pkcalc diagnose-query's queries write them (ISO 8601
// times), and the metric as az monitor metrics list prints it.
func exampleExports() map[string]string {
	out := map[string]string{}
	out["pkranges.json"] = `{"_rid": "AbCdEf==", "PartitionKeyRanges": [
 {"id": "0", "minInclusive": "", "maxExclusive": "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "parents": [], "status": "online"},
 {"id": "2", "minInclusive": "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "maxExclusive": "2FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "parents": ["1"], "status": "online"},
 {"id": "3", "minInclusive": "2FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "maxExclusive": "FF", "parents": ["1"], "status": "online"}
], "_count": 3}
`
	t0 := time.Date(2025, 3, 3, 14, 0, 0, 0, time.UTC)
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"TimeGenerated", "DatabaseName", "CollectionName", "RegionName", "PartitionKeyRangeId", "PartitionKey", "OperationName", "RequestCharge"})
	for sec := range 300 {
		for _, tn := range exampleTenants {
			ru := tn.ru * (1 + 0.1*math.Sin(float64(sec)/30))
			if tn.name == "contoso-outdoors" && sec >= 120 && sec < 180 {
				ru = 8200 // the sale
			}
			key, _ := json.Marshal([]string{tn.name})
			at := t0.Add(time.Duration(sec) * time.Second).Format(time.RFC3339)
			w.Write([]string{at, "catalog", "products", "West Europe", tn.rng, string(key), "Read", fmt.Sprintf("%.2f", ru*0.7)})
			w.Write([]string{at, "catalog", "products", "West Europe", tn.rng, string(key), "Query", fmt.Sprintf("%.2f", ru*0.3)})
		}
	}
	w.Flush()
	out["ru.csv"] = b.String()
	b.Reset()
	w = csv.NewWriter(&b)
	w.Write([]string{"TimeGenerated", "DatabaseName", "CollectionName", "RegionName", "PartitionKeyRangeId", "PartitionKey", "SizeKb"})
	for day := range 30 {
		for _, tn := range exampleTenants {
			key, _ := json.Marshal([]string{tn.name})
			at := time.Date(2025, 2, 2, 9, 0, 0, 0, time.UTC).AddDate(0, 0, day).Format(time.RFC3339)
			w.Write([]string{at, "catalog", "products", "West Europe", "", string(key), fmt.Sprintf("%.0f", (tn.gb+tn.grow*float64(day))*1024*1024)})
		}
	}
	w.Flush()
	out["storage.csv"] = b.String()
	var series []any
	for _, rng := range []string{"0", "2", "3"} {
		var data []any
		for m := range 5 {
			pct := map[string]float64{"0": 15, "2": 0, "3": 88}[rng]
			if rng == "3" && m == 2 {
				pct = 100
			}
			data = append(data, map[string]any{"timeStamp": t0.Add(time.Duration(m) * time.Minute).Format("2006-01-02T15:04:05+00:00"), "maximum": pct})
		}
		series = append(series, map[string]any{"data": data, "metadatavalues": []any{map[string]any{"name": map[string]string{"value": "partitionkeyrangeid"}, "value": rng}}})
	}
	m, _ := json.MarshalIndent(map[string]any{"interval": "0:01:00", "value": []any{map[string]any{"name": map[string]string{"value": "NormalizedRUConsumption"}, "unit": "Percent", "timeseries": series}}}, "", " ")
	out["metrics.json"] = string(m) + "\n"
	return out
}

// exampleArgs is the example's command line, as the docs give it, from
// testdata/diagnose.
func exampleArgs(docs string) []string {
	return []string{"diagnose", "--ranges", "pkranges.json", "--ru-log", "ru.csv", "--storage-log", "storage.csv", "--metrics", "metrics.json",
		"--current-key", "/tenantId", "--ru", "18000", "--key", "/tenantId,/categoryId", docs}
}

// TestDiagnoseExample runs the worked example and pins its output, and
// checks that docs/DIAGNOSE.md shows it as it is. -update rewrites the
// exports and the output.
func TestDiagnoseExample(t *testing.T) {
	docs := shared.File(t, "datasets", "dp420-tenant-products.json")
	for name, text := range exampleExports() {
		path := filepath.Join(exampleDir, name)
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
