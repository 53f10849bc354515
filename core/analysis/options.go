package analysis

import (
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/pkcalc/pkcalc/core/advisor"
	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
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

// Largest targets: a petabyte, a trillion documents. They keep the
// bytes far from int64's end, and the growth a target makes the analysis
// model in seconds (10 PB took it close to a minute).
const (
	MaxTargetGB   = 1e6
	MaxTargetDocs = 1e12
)

// ParseOptions reads settings from named string values (query parameters,
// flags). An unknown name or a bad value is an error that names it, as
// OptionNames spell it.
func ParseOptions(v url.Values) (Options, error) {
	return ParseOptionsNamed(v, nil)
}

// ParseOptionsNamed is ParseOptions for a front end whose users spell the
// options another way: its errors name each option as name(option) does,
// so that the command line says --target-gb where the API says targetGb.
// A nil name keeps OptionNames' spelling.
func ParseOptionsNamed(v url.Values, name func(option string) string) (Options, error) {
	if name == nil {
		name = func(option string) string { return option }
	}
	var o Options
	for n := range v {
		if !slices.Contains(OptionNames, n) {
			return o, fmt.Errorf("unknown option %q; the options are %s", n, strings.Join(OptionNames, ", "))
		}
	}
	p := optionReader{v: v, name: name}
	for _, s := range v["keys"] {
		ks, err := key.ParseList(s)
		if err != nil {
			return o, fmt.Errorf("%s: %w", name("keys"), err)
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
		p.fail("%s must be 1 or 2, not %d", name("hashVersion"), hv)
	}
	o.Partitions = p.int("partitions", 0)
	o.Throughput = capacity.Throughput{RU: p.int("ru", 0), Autoscale: p.bool("autoscale")}
	p.throughput(o.Throughput, o.Partitions)
	if gb := p.float("targetGb"); gb > MaxTargetGB {
		p.fail("%s %s is more than pkcalc models (%s GB)", name("targetGb"), v.Get("targetGb"), human.Count(MaxTargetGB))
	} else if gb > 0 {
		o.TargetBytes = int64(gb * (1 << 30))
	}
	// Growth with retention: the size the container settles at.
	growth, days := p.float("growthGbPerDay"), p.float("retentionDays")
	switch {
	case growth > 0 && days > 0 && o.TargetBytes > 0:
		p.fail("give either %s or %s with %s, not both", name("targetGb"), name("growthGbPerDay"), name("retentionDays"))
	case growth > 0 && days > 0 && growth*days > MaxTargetGB:
		p.fail("%s times %s is %s GB, more than pkcalc models (%s GB)", name("growthGbPerDay"), name("retentionDays"), human.Count(int64(min(growth*days, 1e18))), human.Count(MaxTargetGB))
	case growth > 0 && days > 0:
		o.TargetBytes = int64(growth * days * (1 << 30))
		o.GrowthGBPerDay, o.RetentionDays = growth, days
	case growth > 0 || days > 0:
		p.fail("%s and %s go together: the container holds growth times retention", name("growthGbPerDay"), name("retentionDays"))
	}
	switch docs := p.float("targetDocs"); {
	case docs > MaxTargetDocs:
		p.fail("%s %s is more than pkcalc models (%s documents)", name("targetDocs"), v.Get("targetDocs"), human.Count(MaxTargetDocs))
	case docs > 0 && docs < 0.5:
		// Rounded to 0 it would be no target, unsaid.
		p.fail("%s %s rounds to no document: give at least 1, or nothing for no target", name("targetDocs"), v.Get("targetDocs"))
	default:
		o.TargetDocs = int64(math.Round(docs))
	}
	o.Workload = advisor.Workload{Reads: p.float("readsPerSecond"), Writes: p.float("writesPerSecond"), Queries: p.float("queriesPerSecond")}
	// Measured charges replace the model's for every operation of their
	// kind; the rest stay modelled from the documents.
	o.Workload.Measured = capacity.Costs{PointRead: p.float("readRu"), Write: p.float("writeRu"), Query: p.float("queryRu")}
	switch t := partition.Traffic(v.Get("traffic")); t {
	case "", partition.ByDocuments, partition.Uniform, partition.ByWeight:
		o.Workload.Traffic = t
	default:
		p.fail("%s must be documents, uniform or weighted, not %q", name("traffic"), t)
	}
	o.TimePath = p.path("timeField")
	o.WeightPath = p.path("weightField")
	if o.WeightPath != nil && o.Workload.Traffic == "" {
		o.Workload.Traffic = partition.ByWeight
	}
	if o.Workload.Traffic == partition.ByWeight && o.WeightPath == nil {
		// Without weights, requests would follow documents, unsaid.
		p.fail("%s weighted needs %s: the path of the number that weights each document's requests", name("traffic"), name("weightField"))
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
		return o, fmt.Errorf("%s needs at least one key: name it with %s", name("noSuggest"), name("keys"))
	}
	// Each key keeps up to maxDistinct values and its sketches: bounds
	// that keep a browser tab's memory in hand.
	if len(o.Keys) > MaxKeys {
		return o, fmt.Errorf("%s: %d keys named; pkcalc measures at most %d at once (beside the ones it suggests): name fewer, or run it again for the rest", name("keys"), len(o.Keys), MaxKeys)
	}
	if o.MaxDistinct > MaxDistinctLimit {
		return o, fmt.Errorf("%s %d is more than pkcalc keeps exactly per key (1,000,000); past it, values are counted by sketches anyway", name("maxDistinct"), o.MaxDistinct)
	}
	return o, nil
}

// MaxPartitions is the most physical partitions pkcalc models, given or
// implied by the throughput (capacity.MaxPartitions).
const MaxPartitions = capacity.MaxPartitions

// optionReader reads typed values, keeping the first error.
type optionReader struct {
	v    url.Values
	name func(string) string // how the front end spells an option
	err  error
}

// throughput checks t and partitions against the service's rules
// (capacity.MinRU, RUStep, MinPartitions), which would refuse them: a
// report on a container that cannot exist would mislead. A zero RU/s or
// partition count is left for the analysis to choose.
func (p *optionReader) throughput(t capacity.Throughput, partitions int) {
	ru, parts := p.name("ru"), p.name("partitions")
	floor, step := capacity.MinRU(t.Autoscale, 0, 0), capacity.RUStep(t.Autoscale)
	what := "manual throughput"
	if t.Autoscale {
		what = "an autoscale maximum (" + p.name("autoscale") + ")"
	}
	switch {
	case t.RU > MaxPartitions*capacity.PartitionMaxRU:
		p.fail("%s %d is more than pkcalc models (%s RU/s: %s physical partitions of 10,000 RU/s)", ru, t.RU,
			human.Count(MaxPartitions*capacity.PartitionMaxRU), human.Count(MaxPartitions))
	case t.RU > 0 && t.RU < floor:
		p.fail("%s %d is below the least the service allows for %s, %s RU/s: give %s or more, or leave %s out for the least", ru, t.RU, what,
			human.Count(int64(floor)), human.Count(int64(floor)), ru)
	case t.RU%step != 0:
		p.fail("%s %d is not a multiple of %s: the service sets %s in steps of %s RU/s and refuses values between them (%s or %s)", ru, t.RU,
			human.Count(int64(step)), what, human.Count(int64(step)), human.Count(int64(t.RU/step*step)), human.Count(int64(t.RU/step*step+step)))
	case partitions > MaxPartitions:
		p.fail("%s %d is more than pkcalc models (%s)", parts, partitions, human.Count(MaxPartitions))
	case partitions > 0 && partitions < capacity.MinPartitions(t.RU):
		need := capacity.MinPartitions(t.RU)
		p.fail("%s %d cannot serve %s %d: a physical partition serves at most 10,000 RU/s, so %s RU/s need at least %d partitions "+
			"(the service splits partitions before it raises throughput past partitions x 10,000): give %s %d or more, or leave %s out to have it follow from %s",
			parts, partitions, ru, t.RU, human.Count(int64(t.RU)), need, parts, need, parts, ru)
	}
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
		p.fail("%s must be a whole number of 0 or more, not %q", p.name(name), s)
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
		p.fail("%s must be a number of 0 or more, not %q", p.name(name), s)
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
		p.fail("%s must be true or false, not %q", p.name(name), s)
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
		p.fail("%s: %v", p.name(name), err)
	}
	return names
}
