package analysis

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/advisor"
	"github.com/pkcalc/pkcalc/core/aggregate"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/options"
	"github.com/pkcalc/pkcalc/core/query"
	"github.com/pkcalc/pkcalc/core/report"
)

// finiteFigures lists the report's numbers that are NaN or infinite, and
// its RU/s that are negative.
func finiteFigures(v reflect.Value, path string, out *[]string) {
	switch v.Kind() {
	case reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) || f < 0 && strings.HasSuffix(path, "RU") {
			*out = append(*out, fmt.Sprintf("%s = %v", path, f))
		}
	case reflect.Int:
		if v.Int() < 0 && strings.HasSuffix(path, "RU") {
			*out = append(*out, fmt.Sprintf("%s = %v", path, v.Int()))
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			finiteFigures(v.Elem(), path, out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			finiteFigures(v.Field(i), path+"."+v.Type().Field(i).Name, out)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			finiteFigures(v.Index(i), path, out)
		}
	}
}

// TestOverflowingWeights: weights of 1e308 at the weight field, with the
// largest rates the options take and the largest target and throughput,
// summed to +Inf: the JSON writer failed (the command wrote nothing) and
// the text printed NaN% and negative RU/s. They are read as
// options.MaxWeight, with a warning that names the first document, and
// every format writes finite figures.
func TestOverflowingWeights(t *testing.T) {
	var docs []string
	for i := range 20 {
		docs = append(docs, fmt.Sprintf(`{"id":"%d","tenantId":"t%d","w":1e308}`, i, i%7))
	}
	docs[3] = `{"id":"3","tenantId":"t3","w":5}` // a weight within the bound keeps its place
	o, err := ParseOptions(url.Values{"keys": {"/tenantId;/tenantId,/id"}, "noSuggest": {"true"}, "weightField": {"/w"},
		"readsPerSecond": {"1e9"}, "writesPerSecond": {"1e9"}, "queriesPerSecond": {"1e9"}, "targetGb": {"1000000"}, "ru": {"655360000"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Analyze(strings.NewReader(strings.Join(docs, "\n")), o)
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	finiteFigures(reflect.ValueOf(r), "report", &bad)
	for _, b := range bad {
		t.Error(b)
	}
	out := allFormats(t, r)
	negative := regexp.MustCompile(`-[0-9][0-9,.]* RU`)
	for format, s := range out {
		for _, word := range []string{"NaN", "Inf", "e+308"} {
			if strings.Contains(s, word) {
				t.Errorf("%s holds %s", format, word)
			}
		}
		if m := negative.FindString(s); m != "" {
			t.Errorf("%s says %s", format, m)
		}
	}
	if !json.Valid([]byte(out["json"])) {
		t.Error("the JSON is not valid")
	}
	want := "The weight field /w holds more than 1,000,000,000,000,000, the most pkcalc models, in 19 documents: they are read as 1,000,000,000,000,000, so that the sums of requests stay finite. The first is document 1, at line 1, with 1e308."
	var found bool
	for _, n := range r.Warnings {
		found = found || n.Code == report.WeightFieldCapped && n.Message == want
	}
	if !found || !strings.Contains(out["text"], "warning WEIGHT_FIELD_CAPPED: "+want) {
		t.Errorf("warnings %+v, want %q", r.Warnings, want)
	}
	// The weights read are the bound: the heaviest values take the
	// requests, and a figure is there to read.
	for _, c := range r.Candidates {
		w := c.Workload
		if w == nil || !(w.TotalRU > 0) || !(w.HottestLogicalRU > 0) || hottest(c) <= 0 {
			t.Errorf("%s: workload %+v, hottest partition %v", c.Key.Spec, w, hottest(c))
		}
	}
}

// TestAggregateRequestsPastBound: an aggregate row whose requests pass
// options.MaxWeight is left out, with a problem naming its line, as rows
// past the other limits are; the rest report finite figures.
func TestAggregateRequestsPastBound(t *testing.T) {
	in := "k0,documents,bytes,requests\n\"a\",10,1000,1e308\n\"b\",10,1000,1e15\n\"c\",5,100,1\n\"d\",5,100,1.5e15\n"
	rows, problems := aggregate.Read(strings.NewReader(in), 1)
	r := AnalyzeAggregates(rows, problems, mustKey(t, "/t"), Options{TargetBytes: options.MaxTargetGB << 30,
		Workload: advisor.Workload{Reads: options.MaxRate, Writes: options.MaxRate}})
	if r.Documents != 15 || r.Input.ErrorCount != 2 {
		t.Fatalf("%d documents, problems %+v", r.Documents, r.Input.Errors)
	}
	for i, want := range []string{
		"line 2: requests 1e+308 is more than pkcalc models (1,000,000,000,000,000, as a rate or a weight): the row is left out",
		"line 5: requests 1.5e+15 is more than pkcalc models (1,000,000,000,000,000, as a rate or a weight): the row is left out",
	} {
		if got := r.Input.Errors[i].Message; got != want {
			t.Errorf("problem %d: %q, want %q", i, got, want)
		}
	}
	var bad []string
	finiteFigures(reflect.ValueOf(r), "report", &bad)
	for _, b := range bad {
		t.Error(b)
	}
	allFormats(t, r)
}

// TestQueryWeightsBounded: a line of the queries weighted past a billion a
// second is not read, as the rates the options take are not: weights of
// 1e308 summed to +Inf and the JSON writer failed.
func TestQueryWeightsBounded(t *testing.T) {
	if query.MaxWeight != options.MaxRate {
		t.Errorf("query.MaxWeight %v, options.MaxRate %v: one bound for rates", query.MaxWeight, options.MaxRate)
	}
	var docs []string
	for i := range 20 {
		docs = append(docs, fmt.Sprintf(`{"id":"%d","t":"t%d"}`, i, i%5))
	}
	read := func(ops string) *report.Report {
		r, err := Analyze(strings.NewReader(strings.Join(docs, "\n")), Options{Keys: []key.Spec{mustKey(t, "/t")}, NoSuggest: true,
			Workload: advisor.Workload{Operations: ops}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := read("1e308 SELECT * FROM c WHERE c.t = @t\n1e9 SELECT * FROM c WHERE c.t = @t\n1e308 create\n")
	if r.Operations == nil || r.Operations.Count != 1 || len(r.Operations.Errors) != 2 ||
		r.Operations.Errors[0] != "line 1: the weight 1e308 is more than pkcalc models (1,000,000,000 a second: more than the largest container serves)" ||
		!strings.HasPrefix(r.Operations.Errors[1], "line 3: the weight 1e308 is more than pkcalc models") {
		t.Fatalf("operations %+v", r.Operations)
	}
	// Operations as JSON are bounded alike.
	if r := read(`[{"kind":"create","weight":2e9},{"kind":"create","weight":1e9}]`); r.Operations.Count != 1 || len(r.Operations.Errors) != 1 ||
		!strings.Contains(r.Operations.Errors[0], "the weight 2e+09 is more than pkcalc models") {
		t.Errorf("JSON operations %+v", r.Operations)
	}
	out := allFormats(t, r)
	for format, s := range out {
		if strings.Contains(s, "Inf") || strings.Contains(s, "NaN") {
			t.Errorf("%s holds a NaN or an infinity", format)
		}
	}
}
