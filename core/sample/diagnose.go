package sample

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"time"
)

// The worked example of docs/DIAGNOSE.md, a live container's exports: the
// DP-420 lab's tenant products in a container catalog/products keyed
// /tenantId at 18,000 RU/s. It began with two partitions, 0 and 1, of
// which 1 split at its middle into 2 and 3; contoso-outdoors (EPK
// 3EEBF8C5...) and adventure-works (3F4B938F...) hash into 3,
// fabrikam-cycles (067A2352...) into 0. Five minutes of the RU log, with a
// sale that takes contoso-outdoors from 4,500 to 8,200 RU/s for a minute,
// and thirty days of the storage log. cmd/pkcalc/testdata/diagnose holds
// them as files; the page's "Try the worked example" loads them from here.
const (
	ExampleCurrentKey = "/tenantId"
	ExampleRU         = 18000
	ExampleKey        = "/tenantId,/categoryId" // the candidate replayed
)

// Export is one export of the worked example.
type Export struct {
	Kind string // as pkcalc diagnose's options name it: ranges, ruLog, storageLog, metrics
	Name string // its file name
	Text string
}

var exampleTenants = []struct {
	name, rng string
	ru        float64 // RU/s
	gb, grow  float64 // size on the first day, and growth a day, GB
}{
	{"adventure-works", "3", 400, 1.7, 0.01},
	{"contoso-outdoors", "3", 4500, 10.6, 0.15},
	{"fabrikam-cycles", "0", 800, 3.2, 0.03},
}

// DiagnoseExample returns the worked example's exports: the ranges feed,
// the RU and storage logs as pkcalc diagnose-query's queries write them
// (ISO 8601 times), and the metric as az monitor metrics list prints it.
func DiagnoseExample() []Export {
	ranges := `{"_rid": "AbCdEf==", "PartitionKeyRanges": [
 {"id": "0", "minInclusive": "", "maxExclusive": "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "parents": [], "status": "online"},
 {"id": "2", "minInclusive": "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "maxExclusive": "2FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "parents": ["1"], "status": "online"},
 {"id": "3", "minInclusive": "2FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "maxExclusive": "FF", "parents": ["1"], "status": "online"}
], "_count": 3}
`
	t0 := time.Date(2025, 3, 3, 14, 0, 0, 0, time.UTC)
	var ru bytes.Buffer
	w := csv.NewWriter(&ru)
	w.Write([]string{"TimeGenerated", "DatabaseName", "CollectionName", "RegionName", "PartitionKeyRangeId", "PartitionKey", "OperationName", "RequestCharge"})
	for sec := range 300 {
		for _, tn := range exampleTenants {
			charge := tn.ru * (1 + 0.1*math.Sin(float64(sec)/30))
			if tn.name == "contoso-outdoors" && sec >= 120 && sec < 180 {
				charge = 8200 // the sale
			}
			key, _ := json.Marshal([]string{tn.name})
			at := t0.Add(time.Duration(sec) * time.Second).Format(time.RFC3339)
			w.Write([]string{at, "catalog", "products", "West Europe", tn.rng, string(key), "Read", fmt.Sprintf("%.2f", charge*0.7)})
			w.Write([]string{at, "catalog", "products", "West Europe", tn.rng, string(key), "Query", fmt.Sprintf("%.2f", charge*0.3)})
		}
	}
	w.Flush()
	var storage bytes.Buffer
	w = csv.NewWriter(&storage)
	w.Write([]string{"TimeGenerated", "DatabaseName", "CollectionName", "RegionName", "PartitionKeyRangeId", "PartitionKey", "SizeKb"})
	for day := range 30 {
		for _, tn := range exampleTenants {
			key, _ := json.Marshal([]string{tn.name})
			at := time.Date(2025, 2, 2, 9, 0, 0, 0, time.UTC).AddDate(0, 0, day).Format(time.RFC3339)
			w.Write([]string{at, "catalog", "products", "West Europe", "", string(key), fmt.Sprintf("%.0f", (tn.gb+tn.grow*float64(day))*1024*1024)})
		}
	}
	w.Flush()
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
	metrics, _ := json.MarshalIndent(map[string]any{"interval": "0:01:00", "value": []any{map[string]any{"name": map[string]string{"value": "NormalizedRUConsumption"}, "unit": "Percent", "timeseries": series}}}, "", " ")
	return []Export{
		{"ranges", "pkranges.json", ranges},
		{"ruLog", "ru.csv", ru.String()},
		{"storageLog", "storage.csv", storage.String()},
		{"metrics", "metrics.json", string(metrics) + "\n"},
	}
}
