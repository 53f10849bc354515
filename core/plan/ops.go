package plan

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/provision"
)

func count(n int) string       { return human.Count(int64(n)) }
func countf(f float64) string  { return human.Count(int64(math.Round(f))) }
func gbText(gb float64) string { return fmt.Sprintf("%.1f GB", gb) }

// Scale plans setting c's RU/s to to: at once when the partitions serve
// it, else by the RU/s that split every partition (EvenSplitRU) and then
// down to to, with the uneven layout a direct change would leave in a
// note.
func Scale(c Container, to int) (Plan, error) {
	l, err := start(c)
	if err != nil {
		return Plan{}, err
	}
	if to <= 0 || to > MaxPartitions*capacity.PartitionMaxRU {
		return Plan{}, fmt.Errorf("--to is %d: give the RU/s to scale to, 1 to %s", to, count(MaxPartitions*capacity.PartitionMaxRU))
	}
	if step := capacity.RUStep(c.Autoscale); to%step != 0 {
		return Plan{}, fmt.Errorf("--to is %d: the service sets RU/s in steps of %s", to, count(step))
	}
	p := Plan{Version: Version, Operation: "scale", Start: l, Figures: []Figure{}, Notes: []string{}}
	n := len(l.Partitions)
	highest := max(c.RU, to)
	switch {
	case to <= c.RU:
		after := setRU(l, to)
		p.Summary = fmt.Sprintf("lower the RU/s from %s to %s: instant, the %d partitions stay, each with %s RU/s", count(c.RU), count(to), n, countf(after.Partitions[0].RU))
		p.Steps = append(p.Steps, Step{Action: fmt.Sprintf("set %s RU/s", count(to)), Rule: ruleDown, Duration: instant,
			Commands: []string{provision.UpdateThroughput(c.names(to))}, After: ptr(after)})
	case to <= capacity.InstantMaxRU(n):
		after := setRU(l, to)
		p.Summary = fmt.Sprintf("raise the RU/s from %s to %s: instant, as %d partitions serve up to %s; each gets %s RU/s", count(c.RU), count(to), n, count(capacity.InstantMaxRU(n)), countf(after.Partitions[0].RU))
		p.Steps = append(p.Steps, Step{Action: fmt.Sprintf("set %s RU/s", count(to)), Rule: ruleInstant, Duration: instant,
			Commands: []string{provision.UpdateThroughput(c.names(to))}, After: ptr(after)})
	default:
		even := capacity.EvenSplitRU(n, to)
		direct := setRU(l, to)
		highest = max(highest, even)
		if even == to || !evenShares(l) {
			// The target itself splits every partition, or the layout is
			// already uneven and doubling would keep it so: one step.
			p.Summary = fmt.Sprintf("raise the RU/s from %s to %s: past %s the partitions split, to %d", count(c.RU), count(to), count(capacity.InstantMaxRU(n)), len(direct.Partitions))
			p.Steps = append(p.Steps, Step{Action: fmt.Sprintf("set %s RU/s", count(to)), Rule: ruleSplit, Duration: async,
				Commands: []string{provision.UpdateThroughput(c.names(to))}, After: ptr(direct)})
			if !evenShares(l) {
				p.Notes = append(p.Notes, "the partitions do not share the key space evenly, so no RU/s makes every split even")
			}
			break
		}
		up := setRU(l, even)
		down := setRU(up, to)
		which := fmt.Sprintf("all %d partitions split", n)
		if n == 1 {
			which = "the partition splits"
		}
		p.Summary = fmt.Sprintf("raise the RU/s from %s to %s in two steps: set %s so that %s to %d even ones, then lower to %s (%s RU/s each)",
			count(c.RU), count(to), count(even), which, len(up.Partitions), count(to), countf(down.Partitions[0].RU))
		p.Steps = append(p.Steps,
			Step{Action: fmt.Sprintf("set %s RU/s", count(even)), Rule: ruleEvenSplit, Duration: async,
				Commands: []string{provision.UpdateThroughput(c.names(even))}, After: ptr(up)},
			Step{Action: fmt.Sprintf("once the splits finish, set %s RU/s", count(to)), Rule: ruleDown, Duration: instant,
				Commands: []string{provision.UpdateThroughput(c.names(to))}, After: ptr(down)})
		p.Direct = ptr(direct)
		widest, narrowest := spread(direct)
		p.Notes = append(p.Notes, fmt.Sprintf("setting %s at once would split only some partitions (%s): %d partitions, the widest holding %s of the key space and the narrowest %s, each with %s RU/s, so requests spread evenly over the keys would load the widest %.0f times as much as the narrowest",
			count(to), ruleSplit.Source, len(direct.Partitions), human.Percent(widest), human.Percent(narrowest), countf(direct.Partitions[0].RU), widest/narrowest))
	}
	storage := int64(c.StorageGB * (1 << 30))
	p.Figures = append(p.Figures, Figure{"least RU/s afterwards", float64(capacity.MinRU(c.Autoscale, storage, highest)), "RU/s"})
	p.Notes = append(p.Notes, fmt.Sprintf("afterwards the least RU/s the container can be set to is %s (%s: the highest ever set is %s)",
		count(capacity.MinRU(c.Autoscale, storage, highest)), ruleMinRU.Source, count(highest)))
	return p, nil
}

// evenShares reports whether the partitions share the key space evenly.
func evenShares(l Layout) bool {
	w, n := spread(l)
	return w-n < 1e-9
}

// spread is the widest and the narrowest share of the key space.
func spread(l Layout) (widest, narrowest float64) {
	narrowest = 1
	for _, p := range l.Partitions {
		widest, narrowest = max(widest, p.KeySpace), min(narrowest, p.KeySpace)
	}
	return widest, narrowest
}

// Merge plans merging c's partitions: whether it qualifies, what the
// merge leaves, and the restrictions merge.md lists.
func Merge(c Container) (Plan, error) {
	l, err := start(c)
	if err != nil {
		return Plan{}, err
	}
	storage := int64(c.StorageGB * (1 << 30))
	n := len(l.Partitions)
	ok, ruEach, bytesEach := capacity.MergeCandidate(c.RU, n, storage)
	p := Plan{Version: Version, Operation: "merge", Start: l, Figures: []Figure{
		{"RU/s per partition", ruEach, "RU/s"}, {"storage per partition", bytesEach / (1 << 30), "GB"}}, Notes: []string{}}
	if !ok {
		var why []string
		if n <= 1 {
			why = append(why, "it has one partition")
		}
		if ruEach >= capacity.MergeMaxRUPerPartition {
			why = append(why, fmt.Sprintf("its partitions average %s RU/s, not under 3,000", countf(ruEach)))
		}
		if bytesEach >= float64(capacity.MergeMaxBytesPerPartition) {
			why = append(why, fmt.Sprintf("its partitions average %s, not under 20 GB", gbText(bytesEach/(1<<30))))
		}
		p.Summary = "not a merge candidate (" + ruleMerge.Source + "): " + join(why)
		if n > 1 && ruEach >= capacity.MergeMaxRUPerPartition && bytesEach < float64(capacity.MergeMaxBytesPerPartition) {
			below := (capacity.MergeMaxRUPerPartition*n - 1) / 100 * 100
			least := capacity.MinRU(c.Autoscale, storage, 0)
			if below >= least {
				p.Notes = append(p.Notes, fmt.Sprintf("lowered to %s RU/s or less (under 3,000 a partition; the least allowed is at least %s) it would be one", count(below), count(least)))
			}
		}
		p.Steps = []Step{}
		return p, nil
	}
	m := capacity.MergedPartitions(c.RU, storage)
	after := Layout{RU: c.RU, Autoscale: c.Autoscale, StorageGB: c.StorageGB}
	for i := range m {
		after.Partitions = append(after.Partitions, Partition{ID: fmt.Sprint(i), KeySpace: 1 / float64(m), RU: float64(c.RU) / float64(m), StorageGB: c.StorageGB / float64(m)})
	}
	p.Summary = fmt.Sprintf("a merge candidate: %d partitions averaging %s RU/s and %s; merged to as few as %d, each with %s RU/s and %s",
		n, countf(ruEach), gbText(bytesEach/(1<<30)), m, countf(after.Partitions[0].RU), gbText(after.Partitions[0].StorageGB))
	p.Steps = []Step{
		{Action: "enable partition merge on the account (its Features page), once every client uses an SDK that supports it", Rule: ruleMerge, Commands: []string{}},
		{Action: "merge the partitions", Rule: ruleMerge, Duration: "asynchronous",
			Commands: []string{provision.PreviewExtension + "\n", provision.Merge(c.names(0))}, After: &after},
	}
	p.Notes = append(p.Notes,
		"with merge enabled, the account takes requests only from .NET SDK 3.27.0 or later, Java SDK 4.42.0 or later, JavaScript SDK 4.3 or later and the Spark connector 4.18.0 or later; requests from older SDKs, the Python and Go SDKs, Azure Data Factory, Azure Search and the Azure Functions extension 3.x and earlier fail ("+pageMerge+")",
		"enabling or disabling the feature takes 15 to 20 minutes to reach the whole account",
		fmt.Sprintf("the service chooses how many partitions the merge leaves; %d is the fewest that serve %s RU/s and hold %s within 10,000 RU/s and 50 GB each (pkcalc's bound)", m, count(c.RU), gbText(c.StorageGB)))
	return p, nil
}

// Demand is what one partition used and was refused.
type Demand struct {
	ID         string
	ConsumedRU float64 // RU/s it consumed
	Throttled  float64 // its requests answered 429, a second
	AvgCharge  float64 // their average charge, RU
}

// Redistribute plans giving the partitions named in demands their
// targets, the others keeping their share.
func Redistribute(c Container, demands []Demand) (Plan, error) {
	l, err := start(c)
	if err != nil {
		return Plan{}, err
	}
	if len(demands) == 0 {
		return Plan{}, errors.New("name a partition's demand with --demand ID=RU[:429S_PER_SECOND:AVERAGE_CHARGE]")
	}
	byID := map[string]int{}
	for i, pt := range l.Partitions {
		byID[pt.ID] = i
	}
	targets := make([]int, len(l.Partitions))
	for i, pt := range l.Partitions {
		targets[i] = int(math.Ceil(pt.RU/capacity.RedistributeStep)) * capacity.RedistributeStep
	}
	named := map[string]bool{}
	for _, d := range demands {
		i, ok := byID[d.ID]
		if !ok {
			return Plan{}, fmt.Errorf("--demand names partition %q, which the container does not have (its partitions: %s)", d.ID, ids(l))
		}
		if named[d.ID] {
			return Plan{}, fmt.Errorf("--demand names partition %q twice", d.ID)
		}
		named[d.ID] = true
		targets[i] = capacity.RedistributionTarget(d.ConsumedRU, d.Throttled, d.AvgCharge)
	}
	total, _ := capacity.Redistributed(targets)
	after := Layout{RU: total, Autoscale: c.Autoscale, StorageGB: c.StorageGB}
	var pr []provision.PartitionRU
	splits := 0
	for i, pt := range l.Partitions {
		pr = append(pr, provision.PartitionRU{ID: pt.ID, RU: targets[i]})
		_, parts := capacity.Redistributed(targets[i : i+1])
		if len(parts) == 2 {
			splits++
			half := Partition{KeySpace: pt.KeySpace / 2, StorageGB: pt.StorageGB / 2}
			a, b := half, half
			a.ID, a.RU, b.ID, b.RU = pt.ID+"a", float64(parts[0]), pt.ID+"b", float64(parts[1])
			after.Partitions = append(after.Partitions, a, b)
			continue
		}
		pt.RU = float64(targets[i])
		after.Partitions = append(after.Partitions, pt)
	}
	p := Plan{Version: Version, Operation: "redistribute", Start: l, Figures: []Figure{{"container RU/s after", float64(total), "RU/s"}}, Notes: []string{}}
	word := "stays"
	if total != c.RU {
		word = fmt.Sprintf("becomes %s (from %s)", count(total), count(c.RU))
	}
	p.Summary = fmt.Sprintf("set %s; the container's RU/s %s", join(namedList(demands)), word)
	step := Step{Action: "set each partition's RU/s", Rule: ruleRedist, Duration: instant,
		Commands: []string{provision.PreviewExtension + "\n", provision.Redistribute(c.names(0), pr)}, After: &after}
	if splits > 0 {
		step.Duration = async
		p.Notes = append(p.Notes, fmt.Sprintf("%d %s over 10,000 RU/s: each splits in two with half its target (%s)", splits, human.Plural(int64(splits), "target is", "targets are"), ruleRedist.Source))
	}
	p.Steps = []Step{step}
	if len(pr) > capacity.RedistributeMaxPerRequest {
		p.Notes = append(p.Notes, fmt.Sprintf("the command names %d partitions, more than the %d one request takes (%s): split it into requests of at most %d; users also report failures past 50 (%s)",
			len(pr), capacity.RedistributeMaxPerRequest, ruleRedistMax.Source, capacity.RedistributeMaxPerRequest, issueCLI50))
	}
	p.Notes = append(p.Notes, "until the throughput is shared evenly again the container's RU/s change only by this command; to undo: "+provision.EvenlyDistribute(c.names(0)))
	return p, nil
}

func namedList(ds []Demand) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("partition %s to %s RU/s", d.ID, count(capacity.RedistributionTarget(d.ConsumedRU, d.Throttled, d.AvgCharge))))
	}
	return out
}

func ids(l Layout) string {
	var out []string
	for _, p := range l.Partitions {
		out = append(out, p.ID)
	}
	return join(out)
}

// Spike is a burst of demand on one partition.
type Spike struct {
	RU      float64 // RU/s the partition is asked for
	Seconds float64 // for how long
	UsedRU  float64 // RU/s it used over the 5 minutes before
	// Usage, when given, is each partition's highest use in an hour as a
	// share of its part of the autoscale maximum, by region, for the
	// per-partition autoscale figures.
	Usage [][]float64
}

// Burst plans what burst capacity absorbs of s on a partition of c, and,
// with usage, what per-partition autoscale bills against uniform scaling.
func Burst(c Container, s Spike) (Plan, error) {
	l, err := start(c)
	if err != nil {
		return Plan{}, err
	}
	if !(s.RU >= 0) || !(s.Seconds >= 0) || !(s.UsedRU >= 0) || math.IsInf(s.RU+s.Seconds+s.UsedRU, 0) {
		return Plan{}, errors.New("--spike-ru, --seconds and --used-ru are numbers of 0 or more")
	}
	if s.RU > 0 && s.Seconds == 0 {
		return Plan{}, errors.New("--spike-ru needs --seconds, how long the spike lasts")
	}
	share := l.Partitions[0].RU
	for _, pt := range l.Partitions {
		share = min(share, pt.RU)
	}
	bank := capacity.BurstBank(share, s.UsedRU)
	p := Plan{Version: Version, Operation: "burst", Start: l, Steps: []Step{}, Notes: []string{}}
	excess := max(s.RU-share, 0) * s.Seconds
	switch {
	case share >= capacity.BurstMaxPartitionRU:
		p.Summary = fmt.Sprintf("burst capacity does not apply: each partition has %s RU/s, not under 3,000 (%s)", countf(share), ruleBurst.Source)
	case excess == 0:
		p.Summary = fmt.Sprintf("the spike fits the partition's %s RU/s: no burst needed", countf(share))
	default:
		rate := min(s.RU, capacity.BurstRate)
		lasts := bank / rate // the docs count the bank spent at the burst rate
		absorbed := min(s.Seconds, lasts)
		served := rate*absorbed + share*(s.Seconds-absorbed)
		throttled := s.RU*s.Seconds - served
		p.Figures = append(p.Figures, Figure{"seconds of burst", absorbed, "s"}, Figure{"RU throttled", throttled, "RU"})
		if throttled <= 0 {
			p.Summary = fmt.Sprintf("burst capacity absorbs the spike: %s RU/s for %s s on a partition of %s RU/s, from a bank of %s RU", countf(s.RU), countf(s.Seconds), countf(share), countf(bank))
		} else {
			p.Summary = fmt.Sprintf("burst capacity absorbs %s s of the %s s spike; %s RU of it are throttled (the partition serves at most 3,000 RU/s while bursting and its bank of %s RU lasts %.1f s at %s RU/s)",
				fmt.Sprintf("%.1f", absorbed), countf(s.Seconds), countf(throttled), countf(bank), lasts, countf(rate))
		}
		p.Steps = append(p.Steps, Step{Action: "enable burst capacity on the account (its Features page)", Rule: ruleBurst, Commands: []string{}})
	}
	p.Figures = append([]Figure{{"RU/s per partition", share, "RU/s"}, {"burst bank", bank, "RU"}}, p.Figures...)
	if len(s.Usage) > 0 {
		if !c.Autoscale {
			return Plan{}, errors.New("--usage is for autoscale: give --autoscale")
		}
		uniform, per := capacity.AutoscaleBilled(c.RU, s.Usage)
		p.Figures = append(p.Figures, Figure{"autoscale billed, uniform", uniform, "RU/s"}, Figure{"autoscale billed, per partition and region", per, "RU/s"})
		p.Notes = append(p.Notes, fmt.Sprintf("autoscale bills %s RU/s for the hour scaled uniformly and %s per partition and region (%s)", countf(uniform), countf(per), ruleAutoPP.Source))
	}
	return p, nil
}

// Load is a bulk load or a copy.
type Load struct {
	Documents float64 // documents to write; 0: StorageGB / DocKB
	DocKB     float64 // their average size, KB
	WriteRU   float64 // RU per write; 0: capacity's model for DocKB
	Key       key.Spec
}

func (ld *Load) defaults(storageGB float64) error {
	switch {
	case !(ld.Documents >= 0) || math.IsInf(ld.Documents, 0) || ld.Documents > 1e15:
		return fmt.Errorf("--documents is %v: give 0 to 10^15", ld.Documents)
	case !(ld.DocKB >= 0) || ld.DocKB > 2048:
		return fmt.Errorf("--doc-kb is %v: an item is at most 2 MB (2,048 KB)", ld.DocKB)
	case !(ld.WriteRU >= 0) || ld.WriteRU > 1e7:
		return fmt.Errorf("--write-ru is %v: give 0 to 10,000,000", ld.WriteRU)
	}
	if ld.DocKB == 0 {
		ld.DocKB = 1
	}
	if ld.Documents == 0 {
		ld.Documents = math.Round(storageGB * (1 << 20) / ld.DocKB)
	}
	if ld.WriteRU == 0 {
		ld.WriteRU = capacity.DefaultCosts(capacity.Item{Bytes: ld.DocKB * 1024}).Write
	}
	return nil
}

// Ingest plans a bulk load of c.StorageGB: the partitions to create, the
// RU/s to create with and to load at, how long it takes, and the RU/s to
// lower to (c.RU, when given).
func Ingest(c Container, ld Load) (Plan, error) {
	if err := check(c); err != nil {
		return Plan{}, err
	}
	if c.StorageGB <= 0 {
		return Plan{}, errors.New("give the data to load with --storage-gb")
	}
	if len(c.Ranges) > 0 || c.Partitions > 0 {
		return Plan{}, errors.New("ingest plans a new container: it takes --storage-gb, not --ranges or --partitions")
	}
	if err := ld.defaults(c.StorageGB); err != nil {
		return Plan{}, err
	}
	storage := int64(c.StorageGB * (1 << 30))
	n := capacity.IngestPartitions(storage)
	create := capacity.CreateRU(n, c.Autoscale)
	load := capacity.InstantMaxRU(n)
	empty := Layout{RU: create, Autoscale: c.Autoscale}
	for i := range n {
		empty.Partitions = append(empty.Partitions, Partition{ID: fmt.Sprint(i), KeySpace: 1 / float64(n), RU: float64(create) / float64(n)})
	}
	p := Plan{Version: Version, Operation: "ingest", Start: Layout{Partitions: []Partition{}}, Notes: []string{}}
	createCmd := provision.Snippets(ld.Key, 2, c.names(create))
	cmds := []string{}
	if len(createCmd) > 0 {
		cmds = append(cmds, createCmd[0].Code)
	}
	loaded := setRU(empty, load)
	for i := range loaded.Partitions {
		loaded.Partitions[i].StorageGB = c.StorageGB / float64(n)
	}
	loaded.StorageGB = c.StorageGB
	secs := capacity.IngestSeconds(ld.Documents, ld.WriteRU, load)
	p.Steps = []Step{
		{Action: fmt.Sprintf("create the container with %s RU/s, so that it starts with %d partitions", count(create), n), Rule: ruleIngest, Duration: instant, Commands: cmds, After: &empty},
		{Action: fmt.Sprintf("raise to %s RU/s, the most %d partitions serve without a split, and load %s documents", count(load), n, countf(ld.Documents)), Rule: ruleInstant, Duration: fmt.Sprintf("the load takes about %.1f hours", secs/3600),
			Commands: []string{provision.UpdateThroughput(c.names(load))}, After: &loaded},
	}
	highest := load
	final := c.RU
	if final > 0 && final < load {
		least := capacity.MinRU(c.Autoscale, storage, highest)
		if final < least {
			p.Notes = append(p.Notes, fmt.Sprintf("--ru %s is under the least allowed after the load, %s (%s)", count(final), count(least), ruleMinRU.Source))
			final = least
		}
		after := setRU(loaded, final)
		p.Steps = append(p.Steps, Step{Action: fmt.Sprintf("lower to %s RU/s for the application", count(final)), Rule: ruleDown, Duration: instant,
			Commands: []string{provision.UpdateThroughput(c.names(final))}, After: ptr(after)})
	}
	p.Figures = []Figure{{"partitions", float64(n), ""}, {"RU/s at creation", float64(create), "RU/s"}, {"RU/s for the load", float64(load), "RU/s"},
		{"documents", ld.Documents, ""}, {"RU per write", ld.WriteRU, "RU"}, {"hours to load", secs / 3600, "h"}}
	p.Summary = fmt.Sprintf("create %d partitions with %s RU/s, load %s documents at %s RU/s (%s RU each): about %.1f hours",
		n, count(create), countf(ld.Documents), count(load), trim(ld.WriteRU), secs/3600)
	p.Notes = append(p.Notes, "the load runs this fast only when its writes spread over every partition: a key whose values arrive in order sends them to one partition at a time")
	return p, nil
}

// Migrate plans copying c to a container keyed by ld.Key: the ways the
// docs offer, the time to copy at c.RU, and the commands.
func Migrate(c Container, ld Load) (Plan, error) {
	l, err := start(c)
	if err != nil {
		return Plan{}, err
	}
	if c.RU <= 0 {
		return Plan{}, errors.New("give the RU/s the copy may use with --ru")
	}
	if err := ld.defaults(c.StorageGB); err != nil {
		return Plan{}, err
	}
	if ld.Documents == 0 {
		return Plan{}, errors.New("give the data to copy with --storage-gb or --documents")
	}
	dest := c.names(c.RU)
	dest.Name = orName(c.Name) + "-new"
	// The copy is a bulk load: the new container starts with the
	// partitions its data needs, and with RU/s enough to take the copy's
	// writes.
	storage := int64(c.StorageGB * (1 << 30))
	n := capacity.IngestPartitions(storage)
	dest.RU = max(c.RU, capacity.CreateRU(n, c.Autoscale))
	cmds := []string{}
	if s := provision.Snippets(ld.Key, 2, dest); len(s) > 0 {
		cmds = append(cmds, s[0].Code)
	}
	secs := capacity.IngestSeconds(ld.Documents, ld.WriteRU, c.RU)
	p := Plan{Version: Version, Operation: "migrate", Start: l, Notes: []string{}}
	p.Summary = fmt.Sprintf("copy %s documents to a container keyed %s: about %.1f hours at %s RU/s (%s RU a write); the key of a container cannot change",
		countf(ld.Documents), ld.Key, secs/3600, count(c.RU), trim(ld.WriteRU))
	p.Figures = []Figure{{"documents", ld.Documents, ""}, {"RU per write", ld.WriteRU, "RU"}, {"hours to copy", secs / 3600, "h"}}
	src := c.names(0)
	p.Steps = []Step{
		{Action: fmt.Sprintf("create %s keyed %s with %s RU/s: it starts with %d partitions (the data needs %d, one per 40 GB)", dest.Name, ld.Key, count(dest.RU), capacity.InitialPartitions(capacity.Throughput{RU: dest.RU, Autoscale: c.Autoscale}), n), Rule: ruleIngest, Duration: instant, Commands: cmds},
		{Action: "copy the items with a container copy job: offline (stop writes to the source), or --mode Online and az cosmosdb copy complete at the end", Rule: ruleCopyJob, Duration: fmt.Sprintf("about %.1f hours at %s RU/s", secs/3600, count(c.RU)),
			Commands: []string{provision.PreviewExtension + "\n", provision.CopyJob(src, dest.Name, "change-key", false), provision.CopyJob(src, dest.Name, "change-key-online", true)}},
		{Action: "point the application at the new container, then delete the old one", Rule: ruleChangeKey, Commands: []string{}},
	}
	if least := capacity.MinRU(c.Autoscale, storage, dest.RU); dest.RU > c.RU {
		lower := Step{Action: fmt.Sprintf("once the copy finishes, lower %s's RU/s to what the application needs, %s at the least (its partitions stay)", dest.Name, count(least)),
			Rule: ruleMinRU, Duration: instant, Commands: []string{}}
		p.Steps = slices.Insert(p.Steps, len(p.Steps)-1, lower)
	}
	p.Notes = append(p.Notes,
		"the other ways: the portal's Data Explorer (the container's Settings, Partition keys, Change), which runs a container copy job for you; the change feed (the Azure-Samples live data migrator) to copy while the application writes; Azure Data Factory's Cosmos DB source and sink ("+pageChange+" lists each one's limits)",
		"hierarchical keys cannot be added to an existing container: create a new one and copy ("+pageHPKFAQ+")",
		"infrastructure as code must replace, not update, a container whose key changes")
	return p, nil
}

func orName(s string) string {
	if s == "" {
		return "items"
	}
	return s
}

func trim(f float64) string {
	s := fmt.Sprintf("%.2f", f)
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	return stringsTrimDot(s)
}

func stringsTrimDot(s string) string {
	if s[len(s)-1] == '.' {
		return s[:len(s)-1]
	}
	return s
}

func join(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	out := s[0]
	for _, x := range s[1 : len(s)-1] {
		out += ", " + x
	}
	return out + " and " + s[len(s)-1]
}
