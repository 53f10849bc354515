package analysis

import (
	"net/url"

	"github.com/pkcalc/pkcalc/core/advisor"
	"github.com/pkcalc/pkcalc/core/options"
	"github.com/pkcalc/pkcalc/core/partition"
)

// OptionsFrom is the analysis of settings read by package options, which
// every front end reads its settings with.
func OptionsFrom(s options.Settings) Options {
	return Options{
		Keys: s.Keys, NoSuggest: s.NoSuggest, HashVersion: s.HashVersion, Partitions: s.Partitions, Throughput: s.Throughput,
		TargetBytes: s.TargetBytes, TargetDocs: s.TargetDocs, GrowthGBPerDay: s.GrowthGBPerDay, RetentionDays: s.RetentionDays,
		Workload: advisor.Workload{
			Reads: s.Reads, Writes: s.Writes, Queries: s.Queries,
			// Measured charges replace the model's for every operation of
			// their kind; the rest stay modelled from the documents.
			Measured:   s.Measured,
			Traffic:    partition.Traffic(s.Traffic),
			Operations: s.Operations,
		},
		TimePath: s.TimePath, WeightPath: s.WeightPath, NewValuePaths: s.NewValuePaths, MaxDistinct: s.MaxDistinct, Workers: s.Workers,
	}
}

// ParseOptions is OptionsFrom the settings v names as the HTTP API does.
func ParseOptions(v url.Values) (Options, error) {
	s, err := options.Parse(v, options.API)
	return OptionsFrom(s), err
}
