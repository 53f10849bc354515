package report

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/pkcalc/pkcalc/core/advisor"
	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/partition"
	"github.com/pkcalc/pkcalc/core/paths"
)

// OptionNames are the settings every interface takes, by the names of the
// JSON and JavaScript APIs; the command line spells them in kebab case
// (targetGb is --target-gb). One parser serves all, so the same settings
// give the same report everywhere.
var OptionNames = []string{
	"keys", "noSuggest", "hashVersion", "partitions", "ru", "autoscale", "targetGb", "targetDocs", "growthGbPerDay", "retentionDays",
	"readsPerSecond", "writesPerSecond", "queriesPerSecond", "readRu", "writeRu", "queryRu", "traffic", "timeField",
	"weightField", "maxDistinct", "queries",
}

// Limits of the options, for memory: keys named at once, and distinct
// values kept exactly per key.
const (
	MaxKeys          = 24
	MaxDistinctLimit = 1_000_000
)

// ParseOptions reads settings from named string values (query parameters,
// flags). An unknown name or a bad value is an error that names it.
func ParseOptions(v url.Values) (Options, error) {
	var o Options
	for name := range v {
		if !slices.Contains(OptionNames, name) {
			return o, fmt.Errorf("unknown option %q; the options are %s", name, strings.Join(OptionNames, ", "))
		}
	}
	p := optionReader{v: v}
	for _, s := range v["keys"] {
		ks, err := key.ParseList(s)
		if err != nil {
			return o, fmt.Errorf("keys: %w", err)
		}
		o.Keys = append(o.Keys, ks...)
	}
	o.NoSuggest = p.bool("noSuggest")
	switch hv := p.int("hashVersion", 2); hv {
	case 1:
		o.HashVersion = epk.V1
	case 2:
		o.HashVersion = epk.V2
	default:
		p.fail("hashVersion must be 1 or 2, not %d", hv)
	}
	o.Partitions = p.int("partitions", 0)
	o.Throughput = capacity.Throughput{RU: p.int("ru", 0), Autoscale: p.bool("autoscale")}
	if gb := p.float("targetGb"); gb > 0 {
		o.TargetBytes = int64(gb * (1 << 30))
	}
	// Growth with retention: the size the container settles at.
	growth, days := p.float("growthGbPerDay"), p.float("retentionDays")
	switch {
	case growth > 0 && days > 0 && o.TargetBytes > 0:
		p.fail("give either targetGb or growthGbPerDay with retentionDays, not both")
	case growth > 0 && days > 0:
		o.TargetBytes = int64(growth * days * (1 << 30))
		o.GrowthGBPerDay, o.RetentionDays = growth, days
	case growth > 0 || days > 0:
		p.fail("growthGbPerDay and retentionDays go together: the container holds growth times retention")
	}
	o.TargetDocs = int64(p.float("targetDocs"))
	o.Workload = advisor.Workload{Reads: p.float("readsPerSecond"), Writes: p.float("writesPerSecond"), Queries: p.float("queriesPerSecond")}
	if r, w, q := p.float("readRu"), p.float("writeRu"), p.float("queryRu"); r > 0 || w > 0 || q > 0 {
		c := capacity.DefaultCosts(1024)
		if r > 0 {
			c.PointRead = r
		}
		if w > 0 {
			c.Write = w
		}
		if q > 0 {
			c.Query = q
		}
		o.Workload.Costs = &c
	}
	switch t := partition.Traffic(v.Get("traffic")); t {
	case "", partition.ByDocuments, partition.Uniform, partition.ByWeight:
		o.Workload.Traffic = t
	default:
		p.fail("traffic must be documents, uniform or weighted, not %q", t)
	}
	o.TimePath = p.path("timeField")
	o.WeightPath = p.path("weightField")
	if o.WeightPath != nil && o.Workload.Traffic == "" {
		o.Workload.Traffic = partition.ByWeight
	}
	o.MaxDistinct = p.int("maxDistinct", 0)
	o.Workload.Operations = v.Get("queries")
	if p.err != nil {
		return o, p.err
	}
	for _, k := range o.Keys {
		if k.Kind == key.MultiHash && o.HashVersion == epk.V1 {
			return o, fmt.Errorf("key %s is hierarchical, which needs hash version 2", k)
		}
	}
	if o.NoSuggest && len(o.Keys) == 0 {
		return o, errors.New("noSuggest needs at least one key")
	}
	// Each key keeps up to maxDistinct values and its sketches: bounds
	// that keep a browser tab's memory in hand.
	if len(o.Keys) > MaxKeys {
		return o, fmt.Errorf("keys: %d keys named; pkcalc measures at most %d at once (beside the ones it suggests): name fewer, or run it again for the rest", len(o.Keys), MaxKeys)
	}
	if o.MaxDistinct > MaxDistinctLimit {
		return o, fmt.Errorf("maxDistinct %d is more than pkcalc keeps exactly per key (1,000,000); past it, values are counted by sketches anyway", o.MaxDistinct)
	}
	if o.Partitions > 1<<20 {
		return o, fmt.Errorf("partitions %d is more than pkcalc models (1,048,576)", o.Partitions)
	}
	return o, nil
}

// optionReader reads typed values, keeping the first error.
type optionReader struct {
	v   url.Values
	err error
}

func (p *optionReader) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf(format, args...)
	}
}

func (p *optionReader) int(name string, def int) int {
	s := p.v.Get(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		p.fail("%s must be a whole number of 0 or more, not %q", name, s)
		return def
	}
	return n
}

func (p *optionReader) float(name string) float64 {
	s := p.v.Get(name)
	if s == "" {
		return 0
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		p.fail("%s must be a number of 0 or more, not %q", name, s)
		return 0
	}
	return f
}

func (p *optionReader) bool(name string) bool {
	switch s := p.v.Get(name); s {
	case "", "false", "0":
		return false
	case "true", "1":
		return true
	default:
		p.fail("%s must be true or false, not %q", name, s)
		return false
	}
}

func (p *optionReader) path(name string) []string {
	s := p.v.Get(name)
	if s == "" {
		return nil
	}
	names, err := paths.Parse(s)
	if err != nil {
		p.fail("%s: %v", name, err)
	}
	return names
}
