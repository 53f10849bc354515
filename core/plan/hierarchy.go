package plan

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/provision"
)

// The hierarchical partition keys FAQ's two workarounds for a key whose
// first level has too few values ("I created a hierarchy of keys that
// doesn't have much cardinality. What should I do?").
var (
	ruleSeed  = Rule{"hierarchy-seed", "for a hierarchical key of few first-level values: create the container with less than 10,000 RU/s so that it has one physical partition, ingest around 5 GB so that nothing splits, then scale up to the RU/s wanted and go on ingesting: the partitions split uniformly, where the data is", pageHPKFAQ}
	ruleFlood = Rule{"hierarchy-merge", "for a hierarchical key of few first-level values: raise the RU/s and ingest all the data, merge the partitions so that they are not fragmented, then scale back down to the RU/s wanted", pageHPKFAQ}
)

// Approaches of Hierarchy.
const (
	BothApproaches = 0
	SeedApproach   = 1 // create small, ingest 5 GB, scale up
	MergeApproach  = 2 // create large, ingest, merge
)

// Documents are the documents Hierarchy plans on: cmd/pkcalc gives
// package partition's Distribution through them, so that this package,
// and the page that links it, do without the engine that reads documents.
type Documents struct {
	Spec             key.Spec
	Documents, Bytes int64
	// Project places the documents grown by factor on ranges, each
	// partition split past maxPhysical bytes where its data is: package
	// partition's Distribution.Project with the logical partition limits.
	Project func(factor float64, ranges []epk.Range, maxPhysical int64) []Placed
}

// Placed is one physical partition of a projection: its range, its
// documents and bytes, and the request weight placed on it.
type Placed struct {
	MinInclusive, MaxExclusive string
	Documents, Bytes           int64
	Requests                   float64
}

// projection is the partitions Project places, in key order.
type projection struct{ Physical []Placed }

// Ranges are the partitions' ranges.
func (p projection) Ranges() []epk.Range {
	out := make([]epk.Range, len(p.Physical))
	for i, ph := range p.Physical {
		out[i] = epk.Range{MinInclusive: ph.MinInclusive, MaxExclusive: ph.MaxExclusive}
	}
	return out
}

// Hierarchy plans the FAQ's two approaches for a hierarchical key whose
// first level has few values, on the documents d holds grown to
// c.StorageGB (0: as they are) at c.RU RU/s: approach 1 creates one
// partition, loads 5 GB and raises the RU/s, so that the partitions split
// where the data is; approach 2 creates the container at c.RU with its
// evenly split partitions, loads everything and merges. approach picks
// the steps shown (BothApproaches, SeedApproach, MergeApproach); the
// summary and figures compare both, and Direct is the container created
// at c.RU and loaded, as it is without either.
//
// Every layout is d projected as package partition projects it, on the
// ranges the step leaves: a split by the data is the storage split
// simulation's, at the partition size that makes the count the RU/s ask.
func Hierarchy(c Container, d *Documents, approach int) (Plan, error) {
	if err := check(c); err != nil {
		return Plan{}, err
	}
	switch {
	case len(c.Ranges) > 0 || c.Partitions > 0:
		return Plan{}, errors.New("hierarchy plans a new container: it takes --ru and the documents, not --ranges or --partitions")
	case d == nil || d.Documents == 0 || d.Bytes == 0 || d.Project == nil:
		return Plan{}, errors.New("no documents: give the files of documents to plan with (a sample of the container's items)")
	case d.Spec.Kind != key.MultiHash:
		return Plan{}, fmt.Errorf("--key %s is not hierarchical: the FAQ's two approaches are for a hierarchical key (such as /tenantId,/userId) whose first level has few values; a %s key spreads its values over the key space, so evenly split partitions serve it (pkcalc plan scale)", d.Spec, d.Spec.Kind)
	case c.RU <= 0:
		return Plan{}, errors.New("give the RU/s the container is to have with --ru")
	case approach < BothApproaches || approach > MergeApproach:
		return Plan{}, fmt.Errorf("--approach is %d: give 1, 2 or 0 for both", approach)
	}
	if step := capacity.RUStep(c.Autoscale); c.RU%step != 0 {
		return Plan{}, fmt.Errorf("--ru is %d: the service sets RU/s in steps of %s", c.RU, count(step))
	}
	h := hier{c: c, d: d, target: float64(d.Bytes)}
	if g := c.StorageGB * (1 << 30); g > h.target {
		h.target = g
	}
	one, seeded := h.seed()
	two, merged, direct := h.flood()
	p := Plan{Version: Version, Operation: "hierarchy", Start: Layout{Partitions: []Partition{}}, Steps: []Step{}, Direct: &direct, Notes: []string{}}
	if approach != MergeApproach {
		p.Steps = append(p.Steps, one...)
	}
	if approach != SeedApproach {
		p.Steps = append(p.Steps, two...)
	}
	e1, e2, e0 := fillOf(seeded), fillOf(merged), fillOf(direct)
	p.Figures = append(append(e1.figures("approach 1"), e2.figures("approach 2")...), e0.figures(fmt.Sprintf("created at %s RU/s", count(c.RU)))...)
	p.Summary = summary(e1, e2, e0, c.RU)
	p.Notes = append(p.Notes,
		"the FAQ's first advice is a key whose every level has many values: create a container with a better key and copy the items to it (pkcalc plan migrate)",
		"pkcalc's own, not the FAQ's: a raise splits the partitions that hold the data where their data is, into as many as the RU/s need (the storage split simulation at the partition size that gives that count); a merge joins neighbouring partitions so that each holds about an even share of the data and none is left empty, into the fewest that serve the RU/s and hold the data (the service chooses); the RU/s a partition serves are shared evenly, and its writes follow its documents")
	return p, nil
}

// hier is a Hierarchy plan being worked out.
type hier struct {
	c      Container
	d      *Documents
	target float64 // bytes the container is to hold
}

// project is the documents grown to bytes on ranges, each partition split
// past maxPhysical bytes where its data is.
func (h hier) project(bytes float64, ranges []epk.Range, maxPhysical int64) projection {
	return projection{h.d.Project(bytes/float64(h.d.Bytes), ranges, maxPhysical)}
}

// splitByData is the documents grown to bytes once ranges split, where
// their data is, into want partitions (or as close above as equal halves
// allow): the storage split simulation at the largest partition size that
// makes at least want of them, found by halving the interval.
func (h hier) splitByData(bytes float64, ranges []epk.Range, want int) projection {
	best := h.project(bytes, ranges, capacity.PhysicalPartitionMaxBytes)
	if len(best.Physical) >= want {
		return best
	}
	lo, hi := 0.0, min(bytes, float64(capacity.PhysicalPartitionMaxBytes))
	for range 40 {
		mid := (lo + hi) / 2
		if p := h.project(bytes, ranges, int64(mid)); len(p.Physical) >= want {
			best, lo = p, mid
		} else {
			hi = mid
		}
	}
	return best
}

// names is the container's names for the commands at ru RU/s.
func (h hier) names(ru int) provision.Container { return h.c.names(ru) }

func (h hier) create(ru int) []string {
	if s := provision.Snippets(h.d.Spec, epk.V2, h.names(ru)); len(s) > 0 {
		return []string{s[0].Code}
	}
	return []string{}
}

// seed is approach 1: its steps and the layout it leaves.
func (h hier) seed() ([]Step, Layout) {
	c := h.c
	create := min(c.RU, capacity.CreateRU(1, c.Autoscale), capacity.PartitionMaxRU-capacity.RUStep(c.Autoscale))
	one := epk.Ranges(epk.V2, 1)
	seed := min(h.target, float64(capacity.SeedBytes))
	seeded := h.project(seed, one, capacity.PhysicalPartitionMaxBytes)
	steps := []Step{
		{Action: fmt.Sprintf("approach 1: create the container with %s RU/s, under 10,000, so that it has one partition", count(create)), Rule: ruleSeed, Duration: instant,
			Commands: h.create(create), After: ptr(emptyLayout(one, create, c.Autoscale))},
		{Action: fmt.Sprintf("approach 1: ingest about %s (of %s): one partition holds it without a split", gbText(seed/(1<<30)), gbText(h.target/(1<<30))), Rule: ruleSeed,
			Commands: []string{}, After: ptr(dataLayout(seeded, create))},
	}
	raise := capacity.EvenSplitRU(len(seeded.Physical), c.RU)
	split := seeded
	if raise > create {
		want := capacity.PartitionsForRU(len(seeded.Physical), raise)
		split = h.splitByData(seed, seeded.Ranges(), want)
		s := Step{Action: fmt.Sprintf("approach 1: raise to %s RU/s: the partition holding the data splits where its data is, into %d", count(raise), len(split.Physical)), Rule: ruleSplit, Duration: instant,
			Commands: []string{provision.UpdateThroughput(h.names(raise))}, After: ptr(dataLayout(split, raise))}
		if want > len(seeded.Physical) {
			s.Duration = async
		}
		if raise > c.RU {
			s.Rule = ruleEvenSplit
		}
		steps = append(steps, s)
	}
	if raise > c.RU {
		steps = append(steps, Step{Action: fmt.Sprintf("approach 1: once the splits finish, set %s RU/s", count(c.RU)), Rule: ruleDown, Duration: instant,
			Commands: []string{provision.UpdateThroughput(h.names(c.RU))}, After: ptr(dataLayout(split, c.RU))})
	}
	final := split
	if h.target > seed {
		final = h.project(h.target, split.Ranges(), capacity.PhysicalPartitionMaxBytes)
		steps = append(steps, Step{Action: fmt.Sprintf("approach 1: ingest the rest, to %s: each first-level value's new documents go to the partitions that hold its range", gbText(h.target/(1<<30))), Rule: ruleSeed,
			Commands: []string{}, After: ptr(dataLayout(final, c.RU))})
	}
	return steps, dataLayout(final, c.RU)
}

// flood is approach 2: its steps, the layout it leaves, and the layout
// of the container created at c.RU and loaded (the direct way).
func (h hier) flood() ([]Step, Layout, Layout) {
	c := h.c
	n := capacity.InitialPartitions(capacity.Throughput{RU: c.RU, Autoscale: c.Autoscale})
	even := epk.Ranges(epk.V2, n)
	loaded := h.project(h.target, even, capacity.PhysicalPartitionMaxBytes)
	direct := dataLayout(loaded, c.RU)
	raise := max(c.RU, capacity.InstantMaxRU(n))
	steps := []Step{
		{Action: fmt.Sprintf("approach 2: create the container with %s RU/s: it starts with %d evenly split partitions", count(c.RU), n), Rule: ruleCreate, Duration: instant,
			Commands: h.create(c.RU), After: ptr(emptyLayout(even, c.RU, c.Autoscale))},
	}
	load := Step{Action: fmt.Sprintf("approach 2: ingest all %s", gbText(h.target/(1<<30))), Rule: ruleFlood, Commands: []string{}, After: ptr(dataLayout(loaded, c.RU))}
	if raise > c.RU {
		load.Action = fmt.Sprintf("approach 2: raise to %s RU/s, the most %d partitions serve without a split, and ingest all %s", count(raise), n, gbText(h.target/(1<<30)))
		load.Commands = []string{provision.UpdateThroughput(h.names(raise))}
		load.After = ptr(dataLayout(loaded, raise))
	}
	steps = append(steps, load)
	k := len(loaded.Physical)
	storage := int64(h.target)
	// A merge wants the partitions to average under 3,000 RU/s and 20 GB:
	// lowered to the most RU/s under that, at least the least allowed.
	step := capacity.RUStep(c.Autoscale)
	low := min(c.RU, (capacity.MergeMaxRUPerPartition*k-1)/step*step)
	least := capacity.MinRU(c.Autoscale, storage, raise)
	ok, _, bytesEach := capacity.MergeCandidate(low, k, storage)
	m := min(capacity.MergedPartitions(c.RU, storage), nonEmpty(loaded))
	if !ok || low < least || m >= k {
		why := fmt.Sprintf("its %d partitions average %s, 20 GB or more", k, gbText(bytesEach/(1<<30)))
		switch {
		case m >= k:
			why = fmt.Sprintf("its %d partitions are already as few as serve %s RU/s and hold the data", k, count(c.RU))
		case low < least:
			why = fmt.Sprintf("under 3,000 RU/s a partition is %s RU/s, below the least allowed, %s", count(low), count(least))
		}
		steps = append(steps, Step{Action: "approach 2: no merge: " + why, Rule: ruleMerge, Commands: []string{}})
		if raise > c.RU {
			steps = append(steps, Step{Action: fmt.Sprintf("approach 2: set %s RU/s", count(c.RU)), Rule: ruleDown, Duration: instant,
				Commands: []string{provision.UpdateThroughput(h.names(c.RU))}, After: ptr(dataLayout(loaded, c.RU))})
		}
		return steps, direct, direct
	}
	if low < raise {
		steps = append(steps, Step{Action: fmt.Sprintf("approach 2: lower to %s RU/s, under 3,000 a partition, so that the container is a merge candidate", count(low)), Rule: ruleMerge, Duration: instant,
			Commands: []string{provision.UpdateThroughput(h.names(low))}, After: ptr(dataLayout(loaded, low))})
	}
	merged := h.project(h.target, mergeRanges(loaded, m), capacity.PhysicalPartitionMaxBytes)
	steps = append(steps, Step{Action: fmt.Sprintf("approach 2: enable partition merge on the account (its Features page), then merge the partitions: %d of %d are empty", k-nonEmpty(loaded), k), Rule: ruleFlood, Duration: "asynchronous",
		Commands: []string{provision.PreviewExtension + "\n", provision.Merge(h.names(0))}, After: ptr(dataLayout(merged, low))})
	final := merged
	if low < c.RU {
		s := Step{Action: fmt.Sprintf("approach 2: once the merge is complete, set %s RU/s", count(c.RU)), Rule: ruleInstant, Duration: instant,
			Commands: []string{provision.UpdateThroughput(h.names(c.RU))}}
		if want := capacity.PartitionsForRU(len(merged.Physical), c.RU); want > len(merged.Physical) {
			final = h.splitByData(h.target, merged.Ranges(), want)
			s.Rule, s.Duration = ruleSplit, async
		}
		s.After = ptr(dataLayout(final, c.RU))
		steps = append(steps, s)
	}
	return steps, dataLayout(final, c.RU), direct
}

// mergeRanges joins neighbouring partitions of p into at most m, each
// holding some data and about an even share of it: a group that holds
// data closes where the data so far comes nearest its share of the whole,
// if data remains for the rest.
func mergeRanges(p projection, m int) []epk.Range {
	var total float64
	for _, ph := range p.Physical {
		total += float64(ph.Bytes)
	}
	var out []epk.Range
	lo, acc, rest, held := "", 0.0, total, false
	for i, ph := range p.Physical {
		acc += float64(ph.Bytes)
		rest -= float64(ph.Bytes)
		held = held || ph.Bytes > 0
		last := i == len(p.Physical)-1
		share := total * float64(len(out)+1) / float64(m)
		nearest := last || math.Abs(acc-share) <= math.Abs(acc+float64(p.Physical[i+1].Bytes)-share)
		if last || held && rest > 0 && len(out) < m-1 && nearest {
			out = append(out, epk.Range{MinInclusive: lo, MaxExclusive: ph.MaxExclusive})
			lo, held = ph.MaxExclusive, false
		}
	}
	return out
}

// nonEmpty counts the partitions of p that hold data.
func nonEmpty(p projection) int {
	n := 0
	for _, ph := range p.Physical {
		if ph.Bytes > 0 {
			n++
		}
	}
	return n
}

// emptyLayout is a new container's ranges at ru RU/s.
func emptyLayout(ranges []epk.Range, ru int, autoscale bool) Layout {
	l := Layout{RU: ru, Autoscale: autoscale}
	for i, r := range ranges {
		zero := 0.0
		l.Partitions = append(l.Partitions, Partition{ID: fmt.Sprint(i), KeySpace: keySpace(r.MaxExclusive) - keySpace(r.MinInclusive),
			RU: float64(ru) / float64(len(ranges)), MinInclusive: r.MinInclusive, MaxExclusive: r.MaxExclusive, Writes: &zero})
	}
	return l
}

// dataLayout is projection p at ru RU/s: each partition's range and share
// of the key space, its even share of the RU/s, its data and its share of
// the writes (the requests the key sends it).
func dataLayout(p projection, ru int) Layout {
	var req, docs float64
	for _, ph := range p.Physical {
		req += ph.Requests
		docs += float64(ph.Documents)
	}
	l := Layout{RU: ru}
	for i, ph := range p.Physical {
		w := 0.0
		switch {
		case req > 0:
			w = ph.Requests / req
		case docs > 0:
			w = float64(ph.Documents) / docs
		}
		gb := float64(ph.Bytes) / (1 << 30)
		l.StorageGB += gb
		l.Partitions = append(l.Partitions, Partition{ID: fmt.Sprint(i), KeySpace: keySpace(ph.MaxExclusive) - keySpace(ph.MinInclusive),
			RU: float64(ru) / float64(len(p.Physical)), StorageGB: gb, MinInclusive: ph.MinInclusive, MaxExclusive: ph.MaxExclusive, Writes: &w})
	}
	return l
}

// fill is how evenly a layout holds its data.
type fill struct {
	partitions, empty int
	busiest           float64 // the fullest partition's share of the data
	largestGB         float64
}

func fillOf(l Layout) fill {
	e := fill{partitions: len(l.Partitions)}
	for _, p := range l.Partitions {
		if p.StorageGB == 0 {
			e.empty++
		}
		e.largestGB = max(e.largestGB, p.StorageGB)
	}
	if l.StorageGB > 0 {
		e.busiest = e.largestGB / l.StorageGB
	}
	return e
}

// over is the busiest share over the even one, 1/P: 1 is even.
func (e fill) over() float64 { return e.busiest * float64(e.partitions) }

func (e fill) figures(of string) []Figure {
	return []Figure{
		{of + ": partitions", float64(e.partitions), ""},
		{of + ": empty partitions", float64(e.empty), ""},
		{of + ": the busiest partition's share of the data", round(100 * e.busiest), "%"},
		{of + ": the busiest partition over an even share", round(e.over()), "x"},
		{of + ": the largest partition", round(e.largestGB), "GB of 50"},
	}
}

func round(f float64) float64 { return math.Round(f*100) / 100 }

func (e fill) text() string {
	s := fmt.Sprintf("%s, the busiest holding %.1f%% of the data against an even %.1f%% (%.2f times)", partitions(e.partitions), 100*e.busiest, 100/float64(e.partitions), e.over())
	if e.empty > 0 {
		s += fmt.Sprintf(", %d empty", e.empty)
	}
	return s
}

func summary(e1, e2, e0 fill, ru int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "approach 1 (create with one partition, ingest 5 GB, scale up) leaves %s; approach 2 (create at %s RU/s, ingest, merge) leaves %s; ", e1.text(), count(ru), e2.text())
	switch d := e2.over() - e1.over(); {
	case math.Abs(d) < 0.05: // within a twentieth of an even share
		b.WriteString("the two are about as even")
	case d > 0:
		fmt.Fprintf(&b, "approach 1 is the more even: its busiest partition holds %.2f times an even share, approach 2's %.2f", e1.over(), e2.over())
	default:
		fmt.Fprintf(&b, "approach 2 is the more even: its busiest partition holds %.2f times an even share, approach 1's %.2f", e2.over(), e1.over())
	}
	fmt.Fprintf(&b, " (created at %s RU/s and loaded without either: %s)", count(ru), e0.text())
	return b.String()
}
