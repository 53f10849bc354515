package diagnose

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/core/telemetry"
	"github.com/pkcalc/pkcalc/internal/jsonschema"
)

const schemaFile = "../../docs/diagnosis.schema.json"

// schemaCases are diagnoses that together write every property of the
// schema.
func schemaCases() map[string]Input {
	hot := hotTenant()
	hot.metrics(10, func(rng string, m int) float64 {
		if rng == "2" && m >= 1 && m < 4 {
			return 100
		}
		return 40
	})
	hot.in.Exports = []report.ExportRead{
		{Kind: report.ExportRULog, Name: "ru.csv", Records: len(hot.in.RU), Errors: []report.Problem{{Line: 7, Column: 0, Message: "RequestCharge \"lots\" is not a number"}}, ErrorCount: 1},
		{Kind: report.ExportDocuments, Name: "docs.json", Errors: []report.Problem{{Document: 3, Line: 3, Column: 9, Message: "invalid character"}}, ErrorCount: 1},
	}
	wrong := newScenario()
	wrong.in.Ranges = nil
	v1 := epk.Ranges(epk.V1, 4)
	for i, r := range v1 {
		wrong.in.Ranges = append(wrong.in.Ranges, telemetry.Range{ID: string(rune('0' + i)), Range: r})
	}
	for i := range 20 {
		k := str(tenantName(i))
		wrong.in.RU = append(wrong.in.RU, telemetry.RU{Time: t0, Key: k, RangeID: string(rune('0' + epk.Locate(v1, epk.HashV1(k.Values...)))), Charge: 10})
	}
	split := newScenario()
	split.in.RU = []telemetry.RU{
		{Time: t0, Key: str("contoso"), RangeID: "0", Charge: 5},
		{Time: t0, Key: str("fabrikam"), RangeID: "9", Charge: 5},
		{Time: t0, Key: str("northwind"), RangeID: "undefined", Charge: 5},
	}
	bare := hotTenant()
	bare.in.Ranges, bare.in.Throughput, bare.docs = nil, capacity.Throughput{}, nil
	return map[string]Input{
		"hot tenant":      hot.input(),
		"crowded":         crowded().input(),
		"moving hot spot": movingHotSpot().input(),
		"wrong version":   wrong.input(),
		"before split":    split.input(),
		"no ranges":       bare.input(),
	}
}

// TestDiagnosisMatchesSchema: every diagnosis validates against
// docs/diagnosis.schema.json, and together they use every property it
// lists; the schema describes report.Diagnosis field by field.
func TestDiagnosisMatchesSchema(t *testing.T) {
	c, err := jsonschema.Load(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	cases := schemaCases()
	for _, name := range slices.Sorted(mapKeys(cases)) {
		var b bytes.Buffer
		if err := report.WriteDiagnosisJSON(&b, Diagnose(cases[name])); err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := c.Validate(doc); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if !t.Failed() {
		for _, loc := range c.Unused() {
			t.Errorf("no case writes %s: add one that does, or drop it from the schema", loc)
		}
	}
	for _, e := range c.CheckType(reflect.TypeFor[report.Diagnosis]()) {
		t.Error(e)
	}
	for loc, want := range map[string][]string{
		"#/$defs/Warning/properties/code": {NoCurrentKey, NoThroughput, NoRanges, BinnedLog, PartialRU, SampledStorage, UnlistedRanges, PairsCapped, NoReplay,
			CandidateMissing, ManyPartitions, KeyAtLimit, KeyOverAlert},
		"#/$defs/HotSpot/properties/cause":   {report.CauseOneKey, report.CauseTimePattern, report.CauseCrowded, report.CauseManyKeys},
		"#/$defs/Action/properties/code":     {report.ActionRedistribute, report.ActionRaiseRU, report.ActionSplitTenant, report.ActionChangeKey},
		"#/$defs/ExportRead/properties/kind": {report.ExportRanges, report.ExportRULog, report.ExportStorage, report.ExportMetrics, report.ExportDocuments},
	} {
		slices.Sort(want)
		if got := c.Enum(loc); !slices.Equal(got, want) {
			t.Errorf("%s: enum %q, the source has %q", loc, got, want)
		}
	}
}

// TestDiagnosisDeterministic: the same exports give the same bytes.
func TestDiagnosisDeterministic(t *testing.T) {
	var first []byte
	for range 3 {
		var b bytes.Buffer
		report.WriteDiagnosisJSON(&b, Diagnose(hotTenant().input()))
		if first == nil {
			first = b.Bytes()
		} else if !bytes.Equal(first, b.Bytes()) {
			t.Fatal("two diagnoses of the same exports differ")
		}
	}
}
