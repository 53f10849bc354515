package report

import (
	"net/url"
	"strings"
	"testing"
)

func TestGrowthWithRetention(t *testing.T) {
	o, err := ParseOptions(url.Values{"growthGbPerDay": {"2"}, "retentionDays": {"365"}})
	if err != nil || o.TargetBytes != 730<<30 {
		t.Errorf("%v: %d bytes, want 730 GB", err, o.TargetBytes)
	}
}

func TestParseOptions(t *testing.T) {
	o, err := ParseOptions(url.Values{
		"keys": {"/tenantId;/tenantId,/id", `/"a;b"`}, "noSuggest": {"true"}, "hashVersion": {"2"},
		"partitions": {"4"}, "ru": {"12000"}, "autoscale": {"1"}, "targetGb": {"1.5"}, "targetDocs": {"1000"},
		"readsPerSecond": {"10"}, "writesPerSecond": {"2.5"}, "queriesPerSecond": {"1"}, "writeRu": {"7"}, "traffic": {"uniform"},
		"timeField": {"/_ts"}, "weightField": {"/w"}, "maxDistinct": {"99"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, k := range o.Keys {
		keys = append(keys, k.String())
	}
	if strings.Join(keys, " ") != `/tenantId /tenantId,/id /"a;b"` || !o.NoSuggest || o.Partitions != 4 || o.Throughput.RU != 12000 ||
		!o.Throughput.Autoscale || o.TargetBytes != 3<<29 || o.TargetDocs != 1000 || o.Workload.Writes != 2.5 ||
		o.Workload.Costs == nil || o.Workload.Costs.Write != 7 || o.Workload.Traffic != "uniform" || o.TimePath[0] != "_ts" ||
		o.WeightPath[0] != "w" || o.MaxDistinct != 99 {
		t.Errorf("%+v keys %q", o, keys)
	}
	for _, bad := range []struct {
		v   url.Values
		msg string
	}{
		{url.Values{"key": {"/a"}}, `unknown option "key"`},
		{url.Values{"keys": {"a"}}, "keys: path \"a\" must start with '/'"},
		{url.Values{"hashVersion": {"3"}}, "hashVersion must be 1 or 2"},
		{url.Values{"ru": {"-1"}}, "ru must be a whole number"},
		{url.Values{"targetGb": {"lots"}}, "targetGb must be a number"},
		{url.Values{"autoscale": {"yes"}}, "autoscale must be true or false"},
		{url.Values{"traffic": {"zipf"}}, "traffic must be documents, uniform or weighted"},
		{url.Values{"noSuggest": {"true"}}, "noSuggest needs at least one key"},
		{url.Values{"hashVersion": {"1"}, "keys": {"/a,/b"}}, "needs hash version 2"},
		{url.Values{"timeField": {"ts"}}, "timeField: path"},
		{url.Values{"growthGbPerDay": {"2"}}, "go together"},
		{url.Values{"growthGbPerDay": {"2"}, "retentionDays": {"30"}, "targetGb": {"9"}}, "not both"},
		{url.Values{"keys": {strings.Repeat("/a;", MaxKeys) + "/b"}}, "25 keys named; pkcalc measures at most 24 at once"},
		{url.Values{"maxDistinct": {"1000001"}}, "maxDistinct 1000001 is more than pkcalc keeps exactly"},
	} {
		if _, err := ParseOptions(bad.v); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("%v: %v, want %q", bad.v, err, bad.msg)
		}
	}
}
