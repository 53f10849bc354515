package options

import (
	"fmt"
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/paths"
)

// Settings are the options read and checked.
type Settings struct {
	Keys           []key.Spec  // keys to measure, in the order named
	NoSuggest      bool        // measure only Keys
	HashVersion    epk.Version // 1 or 2
	Partitions     int         // physical partitions; 0: from the throughput
	Throughput     capacity.Throughput
	TargetBytes    int64   // expected total size; 0: the input's
	TargetDocs     int64   // expected total documents; 0: none
	GrowthGBPerDay float64 // with RetentionDays, what set TargetBytes (their product)
	RetentionDays  float64
	// Request rates per second, and the charges the user measured (a field
	// above 0 replaces the model's figure for its kind).
	Reads, Writes, Queries float64
	Measured               capacity.Costs
	Traffic                string   // "", ByDocuments, Uniform or ByWeight (set to ByWeight by a weight field)
	TimePath               []string // nil: detected
	WeightPath             []string
	NewValuePaths          [][]string // paths whose values keep coming (newValues)
	MaxDistinct            int        // distinct values kept exactly per key; 0: the analysis's default
	Operations             string     // the workload's text (the option queries)
	Aggregates             bool       // the input is per-key aggregates for the one key named
	DocBytes               int64      // average document size of aggregate rows without bytes
	Format                 string     // output format; "": the front end's default
	InputFormat            string     // "": as the input's name or type says
	Emit                   string     // the snippet to print instead of a report (provision.IDs); "": the report
	Workers                int        // goroutines or Web Workers that read JSON Lines and arrays; 0: one per core

	// The diagnosis of a live container (docs/DIAGNOSE.md): its key, and
	// which of its exports are given (a front end holds their files).
	CurrentKey                         key.Spec // Kind "" when not given
	Ranges, RULog, StorageLog, Metrics bool
}

// Parse reads settings from values named as All names them (a front end
// turns its own spelling into these names first), checking each value and
// the rules between them. An option fe does not take is unknown. Errors
// name each option as fe's users spell it.
func Parse(v url.Values, fe FrontEnd) (Settings, error) {
	var s Settings
	if err := known(v, fe); err != nil {
		return s, err
	}
	p := reader{v: v, fe: fe}
	s.Keys = p.keys()
	s.NoSuggest = p.bool("noSuggest")
	s.HashVersion = epk.Version(p.int("hashVersion"))
	s.Partitions = p.int("partitions")
	s.Throughput = capacity.Throughput{RU: p.int("ru"), Autoscale: p.bool("autoscale")}
	p.throughput(s.Throughput, s.Partitions)
	s.TargetBytes = int64(p.number("targetGb") * (1 << 30))
	s.GrowthGBPerDay, s.RetentionDays = p.growth(s.TargetBytes)
	if s.GrowthGBPerDay > 0 {
		s.TargetBytes = int64(s.GrowthGBPerDay * s.RetentionDays * (1 << 30))
	}
	s.TargetDocs = p.targetDocs()
	s.Reads, s.Writes, s.Queries = p.number("readsPerSecond"), p.number("writesPerSecond"), p.number("queriesPerSecond")
	s.Measured = capacity.Costs{PointRead: p.number("readRu"), Write: p.number("writeRu"), Query: p.number("queryRu")}
	s.Traffic = p.choice("traffic")
	s.TimePath, s.WeightPath = p.path("timeField"), p.path("weightField")
	s.NewValuePaths = p.paths("newValues")
	s.MaxDistinct = p.int("maxDistinct")
	s.Operations = v.Get("queries")
	s.Aggregates = p.bool("aggregates")
	s.DocBytes = int64(p.int("docBytes"))
	s.Format, s.InputFormat, s.Emit = p.choice("format"), p.choice("inputFormat"), p.choice("emit")
	s.Workers = p.int("workers")
	s.CurrentKey = p.key("currentKey")
	s.Ranges, s.RULog, s.StorageLog, s.Metrics = p.bool("ranges"), p.bool("ruLog"), p.bool("storageLog"), p.bool("metrics")
	if p.err != nil {
		return s, p.err
	}
	return s, p.rules(&s)
}

// known refuses a name fe does not take, listing those it does, and an
// option given twice (but keys, which may be given once per key): which
// of the two was meant cannot be known.
func known(v url.Values, fe FrontEnd) error {
	names := Names(fe)
	for _, n := range slices.Sorted(maps.Keys(v)) {
		switch o, _ := Lookup(n); {
		case !slices.Contains(names, n):
			return fmt.Errorf("unknown option %q; the options are %s", n, strings.Join(names, ", "))
		case len(v[n]) > 1 && o.Kind != Keys:
			return fmt.Errorf("%s is given %d times (%s): give it once", fe.Name(n), len(v[n]), strings.Join(quoteAll(v[n]), ", "))
		}
	}
	return nil
}

func quoteAll(values []string) []string {
	out := make([]string, len(values))
	for i, s := range values {
		out[i] = strconv.Quote(s)
	}
	return out
}

// rules are the checks between options, once each value reads.
func (p *reader) rules(s *Settings) error {
	name := p.fe.Name
	if s.WeightPath != nil && s.Traffic == "" {
		s.Traffic = ByWeight
	}
	switch {
	case s.Traffic == ByWeight && s.WeightPath == nil:
		// Without weights, requests would follow documents, unsaid.
		return fmt.Errorf("%s weighted needs %s: the path of the number that weights each document's requests", name("traffic"), name("weightField"))
	case s.NoSuggest && len(s.Keys) == 0:
		return fmt.Errorf("%s needs at least one key: name it with %s", name("noSuggest"), name("keys"))
	case s.Emit != "" && s.Format != "":
		return fmt.Errorf("%s prints the code alone, not a report: give %s or %s, not both", name("emit"), name("emit"), name("format"))
	case s.Aggregates && len(s.Keys) != 1:
		return fmt.Errorf("%s needs exactly one key, the key the aggregates were grouped by: name it with %s", name("aggregates"), name("keys"))
	}
	for _, k := range append(slices.Clip(s.Keys), s.CurrentKey) {
		if k.Kind == key.MultiHash && s.HashVersion == epk.V1 {
			return fmt.Errorf("key %s is hierarchical, which needs hash version 2", k)
		}
	}
	if p.fe == Diagnose || p.fe == DiagnoseAPI || p.fe == DiagnosePage {
		return p.diagnoseRules(s)
	}
	return ExactValues(*s, p.fe, MaxExactValues)
}

// ExactValues refuses keys that would keep more values exactly than
// limit in all, keys times maxDistinct (Parse checks MaxExactValues; a
// host of less memory, a smaller limit): a user who asks for a million
// values counted exactly for each of 24 keys wants those counts, not
// estimates with a note, and learns before the input is read what fits.
func ExactValues(s Settings, fe FrontEnd, limit int64) error {
	name := fe.Name
	seen := map[string]bool{}
	for _, k := range s.Keys {
		seen[k.String()] = true
	}
	n, md := int64(len(seen)), int64(s.MaxDistinct)
	if md == 0 {
		md = DefaultMaxDistinct
	}
	if n*md <= limit {
		return nil
	}
	fit := "name fewer keys"
	if most := limit / md; most > 0 {
		fit = fmt.Sprintf("name at most %s %s at %s", human.Count(most), human.Plural(most, "key", "keys"), human.Count(md))
	}
	return fmt.Errorf("%s keys at %s %s each keep up to %s values exactly, more than pkcalc keeps in all here (%s, which takes about %s of memory): give %s %s or less for %s keys, or %s",
		human.Count(n), name("maxDistinct"), human.Count(md), human.Count(n*md), human.Count(limit), human.Count(limit*ExactValueBytes/1_000_000)+" MB",
		name("maxDistinct"), human.Count(limit/n), human.Count(n), fit)
}

// reader reads typed values, keeping the first error.
type reader struct {
	v   url.Values
	fe  FrontEnd
	err error
}

func (p *reader) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf(format, args...)
	}
}

// text is the option's value, or its default when it is not given.
func (p *reader) text(name string) (Option, string) {
	o, _ := Lookup(name)
	if s := p.v.Get(name); s != "" {
		return o, s
	}
	return o, o.Default
}

// over fails when f passes the option's limit, and says whether it did.
func (p *reader) over(o Option, s string, f float64) bool {
	if o.Max == 0 || f <= o.Max {
		return false
	}
	p.fail("%s %s is more than "+o.Over, p.fe.Name(o.Name), s, human.Count(int64(o.Max)))
	return true
}

func (p *reader) int(name string) int {
	o, s := p.text(name)
	if s == "" {
		return 0
	}
	n, err := strconv.Atoi(s)
	if least := int(o.Min); err != nil || n < least {
		p.fail("%s must be a whole number of %d or more, not %q", p.fe.Name(name), least, s)
		return 0
	}
	if o.Kind == Choice && !slices.Contains(o.Choices, s) {
		p.fail("%s must be %s, not %d", p.fe.Name(name), list(o.Choices), n)
		return 0
	}
	if p.over(o, s, float64(n)) {
		return 0
	}
	return n
}

func (p *reader) number(name string) float64 {
	o, s := p.text(name)
	if s == "" {
		return 0
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		p.fail("%s must be a number of 0 or more, not %q", p.fe.Name(name), s)
		return 0
	}
	if p.over(o, s, f) {
		return 0
	}
	return f
}

func (p *reader) bool(name string) bool {
	switch _, s := p.text(name); s {
	case "", "false", "0":
		return false
	case "true", "1":
		return true
	default:
		p.fail("%s must be true or false, not %q", p.fe.Name(name), s)
		return false
	}
}

func (p *reader) choice(name string) string {
	o, s := p.text(name)
	if !slices.Contains(o.Choices, s) && s != "" {
		p.fail("%s must be %s, not %q", p.fe.Name(name), list(o.Choices), s)
		return ""
	}
	return s
}

func (p *reader) path(name string) []string {
	_, s := p.text(name)
	if s == "" {
		return nil
	}
	names, err := paths.Parse(s)
	if err != nil {
		p.fail("%s: %v", p.fe.Name(name), err)
	}
	return names
}

// paths reads a list of paths, each as path reads one.
func (p *reader) paths(name string) [][]string {
	_, s := p.text(name)
	if strings.TrimSpace(s) == "" {
		return nil
	}
	list, err := paths.ParseList(s)
	if err != nil {
		p.fail("%s: %v", p.fe.Name(name), err)
	}
	return list
}

// diagnoseRules are the checks between a diagnosis's options.
func (p *reader) diagnoseRules(s *Settings) error {
	name := p.fe.Name
	switch {
	case (s.RULog || s.StorageLog) && s.CurrentKey.Kind == "":
		return fmt.Errorf("%s needs %s: the container's partition key, whose values the logs hold (/tenantId, or /tenantId,/userId for a hierarchical key)",
			map[bool]string{true: name("ruLog"), false: name("storageLog")}[s.RULog], name("currentKey"))
	case s.Format == "csv":
		return fmt.Errorf("%s csv is the analysis's: a diagnosis is written as text, json or markdown", name("format"))
	case !s.Ranges && !s.RULog && !s.StorageLog && !s.Metrics:
		return fmt.Errorf("nothing to diagnose: give the container's exports, %s, %s, %s or %s", name("ranges"), name("ruLog"), name("storageLog"), name("metrics"))
	}
	return nil
}

// key reads one key spec.
func (p *reader) key(name string) key.Spec {
	_, s := p.text(name)
	if s == "" {
		return key.Spec{}
	}
	k, err := key.Parse(s)
	if err != nil {
		p.fail("%s: %w", p.fe.Name(name), err)
	}
	return k
}

// keys reads every value of keys, each one spec or specs separated by ;.
func (p *reader) keys() []key.Spec {
	var out []key.Spec
	for _, s := range p.v["keys"] {
		ks, err := key.ParseList(s)
		if err != nil {
			p.fail("%s: %w", p.fe.Name("keys"), err)
			return nil
		}
		out = append(out, ks...)
	}
	if len(out) > MaxKeys {
		p.fail("%s: %d keys named; pkcalc measures at most %d at once (beside the ones it suggests): name fewer, or run it again for the rest",
			p.fe.Name("keys"), len(out), MaxKeys)
	}
	return out
}

// growth is growth per day and retention: the size the container settles
// at, given both and no target size.
func (p *reader) growth(targetBytes int64) (growth, days float64) {
	name := p.fe.Name
	growth, days = p.number("growthGbPerDay"), p.number("retentionDays")
	switch {
	case growth > 0 && days > 0 && targetBytes > 0:
		p.fail("give either %s or %s with %s, not both", name("targetGb"), name("growthGbPerDay"), name("retentionDays"))
	case growth > 0 && days > 0 && growth*days > MaxTargetGB:
		p.fail("%s times %s is %s GB, more than pkcalc models (%s GB)", name("growthGbPerDay"), name("retentionDays"),
			human.Count(int64(min(growth*days, 1e18))), human.Count(MaxTargetGB))
	case growth > 0 && days > 0:
		return growth, days
	case growth > 0 || days > 0:
		p.fail("%s and %s go together: the container holds growth times retention", name("growthGbPerDay"), name("retentionDays"))
	}
	return 0, 0
}

func (p *reader) targetDocs() int64 {
	docs := p.number("targetDocs")
	if docs > 0 && docs < 0.5 {
		// Rounded to 0 it would be no target, unsaid.
		p.fail("%s %s rounds to no document: give at least 1, or nothing for no target", p.fe.Name("targetDocs"), p.v.Get("targetDocs"))
	}
	return int64(math.Round(docs))
}

// throughput checks t and partitions against the service's rules
// (capacity.MinRU, RUStep, MinPartitions), which would refuse them: a
// report on a container that cannot exist would mislead. A zero RU/s or
// partition count is left for the analysis to choose.
func (p *reader) throughput(t capacity.Throughput, partitions int) {
	ru, parts := p.fe.Name("ru"), p.fe.Name("partitions")
	floor, step := capacity.MinRU(t.Autoscale, 0, 0), capacity.RUStep(t.Autoscale)
	what := "manual throughput"
	if t.Autoscale {
		what = "an autoscale maximum (" + p.fe.Name("autoscale") + ")"
	}
	switch {
	case t.RU > 0 && t.RU < floor:
		p.fail("%s %d is below the least the service allows for %s, %s RU/s: give %s or more, or leave %s out for the least", ru, t.RU, what,
			human.Count(int64(floor)), human.Count(int64(floor)), ru)
	case t.RU%step != 0:
		p.fail("%s %d is not a multiple of %s: the service sets %s in steps of %s RU/s and refuses values between them (%s or %s)", ru, t.RU,
			human.Count(int64(step)), what, human.Count(int64(step)), human.Count(int64(t.RU/step*step)), human.Count(int64(t.RU/step*step+step)))
	case partitions > 0 && partitions < capacity.MinPartitions(t.RU):
		need := capacity.MinPartitions(t.RU)
		p.fail("%s %d cannot serve %s %d: a physical partition serves at most 10,000 RU/s, so %s RU/s need at least %d partitions "+
			"(the service splits partitions before it raises throughput past partitions x 10,000): give %s %d or more, or leave %s out to have it follow from %s",
			parts, partitions, ru, t.RU, human.Count(int64(t.RU)), need, parts, need, parts, ru)
	}
}
