// Package plan lays out the operations people run on an Azure Cosmos DB
// container as steps: a change of throughput (and the splits it makes), a
// merge, a redistribution of throughput to a hot partition, what burst
// capacity absorbs, a bulk load, a copy to a new partition key, and the
// hierarchical partition keys FAQ's two ways to load a key whose first
// level has few values. Each step names the documented rule it follows
// (package capacity holds the rules and their numbers), the command that
// carries it out (package provision writes them), and the layout it
// leaves: each physical partition's share of the key space, RU/s and
// storage.
//
// A plan starts from a planned container (partitions, RU/s, storage) or
// from a real one's partition key ranges (package telemetry reads them).
// It does not talk to Azure or read documents, and links neither the
// engine that reads them nor package telemetry, so that the page links it. Storage is taken as spread
// over the key space as the ranges share it, which a skewed key does not
// do, except in Hierarchy, whose layouts are package partition's
// projection of the documents it is given.
package plan

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/provision"
)

// Version is the version of the JSON form of a Plan (docs/plan.schema.json).
const Version = 1

// Plan is an operation as steps.
type Plan struct {
	Version   int    `json:"version"`
	Operation string `json:"operation"` // scale, merge, redistribute, burst, ingest, migrate, hierarchy
	Summary   string `json:"summary"`
	Start     Layout `json:"start"`
	Steps     []Step `json:"steps"`
	// Direct is the layout that setting a scale's target at once leaves,
	// when the plan goes another way to keep the splits even.
	Direct *Layout `json:"direct,omitempty"`
	// Figures are the plan's numbers that are not a layout: a burst's
	// bank, a load's hours.
	Figures []Figure `json:"figures"`
	Notes   []string `json:"notes"`
}

// Step is one thing to do and what it leaves.
type Step struct {
	Action   string   `json:"action"`
	Rule     Rule     `json:"rule"`
	Duration string   `json:"duration,omitempty"` // instant, or asynchronous
	Commands []string `json:"commands"`
	After    *Layout  `json:"after,omitempty"`
}

// Rule is a documented rule and where it is documented.
type Rule struct {
	Name   string `json:"name"`
	Text   string `json:"text"`
	Source string `json:"source"` // the Microsoft Learn page, or the issue
}

// Figure is a named number.
type Figure struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
}

// Layout is a container's physical partitions at one moment.
type Layout struct {
	RU         int         `json:"ru"`
	Autoscale  bool        `json:"autoscale"`
	StorageGB  float64     `json:"storageGb"`
	Partitions []Partition `json:"partitions"`
}

// Partition is one physical partition.
type Partition struct {
	ID        string  `json:"id"`
	KeySpace  float64 `json:"keySpace"` // its share of the key space, 0 to 1
	RU        float64 `json:"ru"`
	StorageGB float64 `json:"storageGb"`
	// For a plan on documents (Hierarchy): its EPK range, and its share of
	// the writes, 0 to 1.
	MinInclusive string   `json:"minInclusive,omitempty"`
	MaxExclusive string   `json:"maxExclusive,omitempty"`
	Writes       *float64 `json:"writes,omitempty"`
}

// Container is what a plan starts from: a planned container, or a real
// one's ranges (which then give the partitions).
type Container struct {
	Partitions int // 0: as the service creates the container for RU
	RU         int
	Autoscale  bool
	StorageGB  float64
	Ranges     []Range
	// Names for the commands.
	Account, ResourceGroup, Database, Name string
}

// Range is a real partition key range: its id, its bounds and its share
// of the throughput (the pkranges feed's throughputFraction; 0 for none).
type Range struct {
	ID                 string
	Range              epk.Range
	ThroughputFraction float64
}

// Limits on what a plan takes, so that every layout stays small.
const MaxPartitions = capacity.MaxPartitions

// Durations of the steps, as scaling-provisioned-throughput-best-practices
// words them.
const (
	instant = "instant"
	async   = "asynchronous: the splits typically take 4-6 hours"
)

const (
	pageScale    = "https://learn.microsoft.com/azure/cosmos-db/scaling-provisioned-throughput-best-practices"
	pagePartn    = "https://learn.microsoft.com/azure/cosmos-db/partitioning-overview"
	pageLimits   = "https://learn.microsoft.com/azure/cosmos-db/concepts-limits"
	pageMerge    = "https://learn.microsoft.com/azure/cosmos-db/merge"
	pageRedist   = "https://learn.microsoft.com/azure/cosmos-db/nosql/how-to-redistribute-throughput-across-partitions"
	pageRedistQA = "https://learn.microsoft.com/azure/cosmos-db/nosql/distribute-throughput-across-partitions-faq"
	pageBurst    = "https://learn.microsoft.com/azure/cosmos-db/burst-capacity"
	pageAutoPP   = "https://learn.microsoft.com/azure/cosmos-db/autoscale-per-partition-region"
	pageChange   = "https://learn.microsoft.com/azure/cosmos-db/nosql/change-partition-key"
	pageCopy     = "https://learn.microsoft.com/azure/cosmos-db/container-copy"
	pageHPKFAQ   = "https://learn.microsoft.com/azure/cosmos-db/hierarchical-partition-keys-faq"
	issueSplitRU = "https://github.com/MicrosoftDocs/azure-docs/issues/116672"
	issueCLI50   = "https://github.com/Azure/azure-cli/issues/29341"
)

// The rules the plans follow, each once.
var (
	ruleEven         = Rule{"even-share", "provisioned RU/s are shared evenly by the physical partitions, each serving at most 10,000 RU/s and 50 GB", pagePartn}
	ruleInstant      = Rule{"instant-scale-up", "an increase up to partitions x 10,000 RU/s is instant and keeps the partitions", pageScale}
	ruleSplit        = Rule{"scale-up-splits", "past partitions x 10,000 RU/s the service splits partitions until there are ROUNDUP(RU/s / 10,000); unless every partition splits, the key space is shared unevenly", pageScale}
	ruleEvenSplit    = Rule{"even-split", "to keep the splits even, scale to 10,000 x P x 2^ROUNDUP(LOG2(S / (10,000 x P))) first, then lower to S", pageScale}
	ruleDown         = Rule{"scale-down", "a decrease is instant and keeps the partitions, each with a smaller share", pageScale}
	ruleStorageSplit = Rule{"storage-split", "a partition past 50 GB splits in two, each with about half of its data, and its RU/s are shared by the two halves (10,000 / 5,000 / 5,000) until the RU/s next change", issueSplitRU}
	ruleMinRU        = Rule{"least-ru", "the least RU/s allowed: manual max(400, 1 per GB stored, highest ever / 100); autoscale maximum max(1,000, 10 per GB, highest ever / 10)", pageLimits}
	ruleCreate       = Rule{"initial-partitions", "a new container gets one partition per 6,000 RU/s manual, per 10,000 autoscale", pageScale}
	ruleMerge        = Rule{"merge", "a container whose partitions average under 3,000 RU/s and under 20 GB is a merge candidate; a merge leaves fewer partitions, each with a larger share", pageMerge}
	ruleRedist       = Rule{"redistribute", "a partition's target is its consumed RU/s plus its 429s a second times their average charge, in steps of 100, at most 20,000; past 10,000 the partition splits in two; the targets' sum becomes the container's RU/s", pageRedist}
	ruleRedistMax    = Rule{"redistribute-request", "one request names at most 20 source and 20 target partitions", pageRedistQA}
	ruleBurst        = Rule{"burst", "a partition under 3,000 RU/s banks up to 5 minutes of its unused RU/s and spends them at up to 3,000 RU/s", pageBurst}
	ruleAutoPP       = Rule{"autoscale-per-partition", "with per-partition and per-region autoscale each partition of each region scales, and is billed, on its own use, at least 10 % of its part of the maximum; uniform autoscale bills all at the busiest one's level", pageAutoPP}
	ruleIngest       = Rule{"bulk-ingest", "for a bulk load create about one partition per 40 GB (RU/s = partitions x 6,000 manual, x 10,000 autoscale), raise to partitions x 10,000 for the load, then lower", pageScale}
	ruleChangeKey    = Rule{"change-key", "a container's key cannot change: its items are copied to a new container (the portal's change partition key, a container copy job, the change feed, Data Factory)", pageChange}
	ruleCopyJob      = Rule{"container-copy", "a container copy job copies every item; offline wants the source stopped, online copies while it takes writes and ends with az cosmosdb copy complete", pageCopy}
)

// start is the layout c describes, or an error saying which field is
// wrong.
func start(c Container) (Layout, error) {
	if err := check(c); err != nil {
		return Layout{}, err
	}
	l := Layout{RU: c.RU, Autoscale: c.Autoscale, StorageGB: c.StorageGB}
	if len(c.Ranges) > 0 {
		fracs := make([]float64, len(c.Ranges))
		sum := 0.0
		for i, r := range c.Ranges {
			fracs[i] = keySpace(r.Range.MaxExclusive) - keySpace(r.Range.MinInclusive)
			sum += fracs[i]
		}
		given := 0.0
		for _, r := range c.Ranges {
			given += r.ThroughputFraction
		}
		for i, r := range c.Ranges {
			ks := fracs[i] / sum
			share := 1 / float64(len(c.Ranges))
			if given > 0 {
				share = r.ThroughputFraction / given
			}
			l.Partitions = append(l.Partitions, Partition{ID: r.ID, KeySpace: ks, RU: float64(c.RU) * share, StorageGB: c.StorageGB * ks})
		}
		return l, nil
	}
	n := c.Partitions
	if n == 0 {
		n = capacity.Partitions(capacity.Throughput{RU: c.RU, Autoscale: c.Autoscale}, int64(c.StorageGB*(1<<30)))
	}
	for i := range n {
		l.Partitions = append(l.Partitions, Partition{ID: fmt.Sprint(i), KeySpace: 1 / float64(n), RU: float64(c.RU) / float64(n), StorageGB: c.StorageGB / float64(n)})
	}
	return l, nil
}

// check says what in c pkcalc cannot plan with.
func check(c Container) error {
	switch {
	case c.RU < 0:
		return fmt.Errorf("--ru is %d: RU/s are 0 or more", c.RU)
	case c.RU > MaxPartitions*capacity.PartitionMaxRU:
		return fmt.Errorf("--ru is %d, more than pkcalc plans (%d partitions of 10,000 RU/s)", c.RU, MaxPartitions)
	case c.Partitions < 0 || c.Partitions > MaxPartitions:
		return fmt.Errorf("--partitions is %d: give 1 to %d", c.Partitions, MaxPartitions)
	case !(c.StorageGB >= 0) || c.StorageGB > 1e7:
		return fmt.Errorf("--storage-gb is %v: give 0 to 10,000,000 GB", c.StorageGB)
	case c.Partitions > 0 && len(c.Ranges) > 0:
		return fmt.Errorf("--partitions and --ranges both give the partitions: give one")
	}
	return nil
}

// keySpace is where an EPK bound lies in the key space, 0 to 1: "" is 0,
// "FF" the end. A V2 or hierarchical key's hashes lie below 0x3FFF... (the
// hash's first byte is masked with 0x3F), so its bounds are read against
// that; bounds read as more than it are the end.
func keySpace(b string) float64 {
	if b == "" {
		return 0
	}
	if b == "FF" {
		return 1
	}
	digits := 32
	if len(b) < digits {
		b += strings.Repeat("0", digits-len(b))
	}
	x, ok := new(big.Int).SetString(b[:digits], 16)
	if !ok {
		return 0
	}
	end := new(big.Int).Lsh(big.NewInt(1), 126) // 0x4000...: the end of V2's hashes
	f, _ := new(big.Rat).SetFrac(x, end).Float64()
	return min(f, 1)
}

// names are the container's names for the commands.
func (c Container) names(ru int) provision.Container {
	return provision.Container{Account: c.Account, ResourceGroup: c.ResourceGroup, Database: c.Database, Name: c.Name, RU: ru, Autoscale: c.Autoscale}
}

// setRU is the layout l leaves once its RU/s are ru: the partitions ru
// needs (the widest split first, as many as ROUNDUP(ru / 10,000) asks),
// each with an even share of ru; then any partition past 50 GB splits
// for storage.
func setRU(l Layout, ru int) Layout {
	out := Layout{RU: ru, Autoscale: l.Autoscale, StorageGB: l.StorageGB}
	parts := append([]Partition(nil), l.Partitions...)
	want := capacity.PartitionsForRU(len(parts), ru)
	for len(parts) < want {
		parts = splitWidest(parts)
	}
	for i := range parts {
		parts[i].RU = float64(ru) / float64(len(parts))
	}
	out.Partitions = storageSplits(parts)
	return out
}

// splitWidest splits the partition with the widest key space (the first
// on ties) in two halves of it, each with half its storage and RU/s.
func splitWidest(parts []Partition) []Partition {
	w := 0
	for i, p := range parts {
		if p.KeySpace > parts[w].KeySpace+1e-12 {
			w = i
		}
	}
	return splitAt(parts, w)
}

// splitAt splits partition i in two halves, in key order.
func splitAt(parts []Partition, i int) []Partition {
	p := parts[i]
	half := Partition{KeySpace: p.KeySpace / 2, RU: capacity.StorageSplitRU(p.RU), StorageGB: p.StorageGB / 2}
	a, b := half, half
	a.ID, b.ID = p.ID+"a", p.ID+"b"
	out := append([]Partition(nil), parts[:i]...)
	out = append(out, a, b)
	return append(out, parts[i+1:]...)
}

// storageSplits splits every partition past 50 GB until none is, or
// until MaxPartitions.
func storageSplits(parts []Partition) []Partition {
	limit := float64(capacity.PhysicalPartitionMaxBytes) / (1 << 30)
	for {
		i := -1
		for j, p := range parts {
			if p.StorageGB > limit*(1+1e-9) && (i < 0 || p.StorageGB > parts[i].StorageGB) {
				i = j
			}
		}
		if i < 0 || len(parts) >= MaxPartitions {
			return parts
		}
		parts = splitAt(parts, i)
	}
}

// renumber names the partitions 0, 1, ... in key order, as a fresh
// container's ranges are named, when they were made by a plan rather than
// read.
func renumber(l Layout) Layout {
	for i := range l.Partitions {
		l.Partitions[i].ID = fmt.Sprint(i)
	}
	return l
}

func ptr(l Layout) *Layout { return &l }
