package analysis

import (
	"net/url"
	"testing"

	"github.com/pkcalc/pkcalc/core/options"
	"github.com/pkcalc/pkcalc/core/partition"
)

// TestTrafficNames: the traffic the options take is the traffic the
// partition model knows.
func TestTrafficNames(t *testing.T) {
	for _, tt := range []struct {
		option string
		model  partition.Traffic
	}{
		{options.ByDocuments, partition.ByDocuments},
		{options.Uniform, partition.Uniform},
		{options.ByWeight, partition.ByWeight},
	} {
		if partition.Traffic(tt.option) != tt.model {
			t.Errorf("option traffic %q, model %q", tt.option, tt.model)
		}
	}
}

// TestOptionsFrom: every setting reaches the analysis.
func TestOptionsFrom(t *testing.T) {
	o, err := ParseOptions(url.Values{
		"keys": {"/a"}, "noSuggest": {"true"}, "hashVersion": {"1"}, "partitions": {"4"}, "ru": {"40000"}, "autoscale": {"true"},
		"growthGbPerDay": {"2"}, "retentionDays": {"30"}, "targetDocs": {"9"}, "readsPerSecond": {"1"}, "writesPerSecond": {"2"},
		"queriesPerSecond": {"3"}, "readRu": {"4"}, "writeRu": {"5"}, "queryRu": {"6"}, "weightField": {"/w"}, "timeField": {"/t"},
		"maxDistinct": {"7"}, "queries": {"1 read /id /a"},
	})
	if err != nil {
		t.Fatal(err)
	}
	w := o.Workload
	if len(o.Keys) != 1 || !o.NoSuggest || o.HashVersion != 1 || o.Partitions != 4 || o.Throughput.RU != 40000 || !o.Throughput.Autoscale ||
		o.TargetBytes != 60<<30 || o.GrowthGBPerDay != 2 || o.RetentionDays != 30 || o.TargetDocs != 9 ||
		w.Reads != 1 || w.Writes != 2 || w.Queries != 3 || w.Measured.PointRead != 4 || w.Measured.Write != 5 || w.Measured.Query != 6 ||
		w.Traffic != partition.ByWeight || w.Operations != "1 read /id /a" || o.WeightPath[0] != "w" || o.TimePath[0] != "t" || o.MaxDistinct != 7 {
		t.Errorf("%+v", o)
	}
}
