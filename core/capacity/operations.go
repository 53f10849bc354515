package capacity

import "math"

// The rules of the operations on a container: raising its throughput,
// merging its partitions, giving one partition more of the throughput,
// burst capacity, and how long a bulk load takes. Each is a function of
// numbers, as the rest of the package; package plan lays them out as steps.

// InstantMaxRU is the most RU/s a container with the given physical
// partitions can be raised to at once, without a split: partitions x
// 10,000 (scaling-provisioned-throughput-best-practices, "instant scale-up":
// 5 partitions at 30,000 RU/s go to 50,000 at once). partitions below 1
// count as 1; the result saturates at math.MaxInt.
func InstantMaxRU(partitions int) int {
	p := max(partitions, 1)
	if p > math.MaxInt/PartitionMaxRU {
		return math.MaxInt
	}
	return p * PartitionMaxRU
}

// PartitionsForRU is the number of physical partitions a container with
// the given partitions has once its RU/s are set to ru: the same when ru
// fits them (InstantMaxRU), else the service splits until there are
// ROUNDUP(ru / 10,000) (scaling-provisioned-throughput-best-practices: 3
// partitions taken from 30,000 to 45,000 RU/s end with 5). A decrease
// never removes partitions; only a merge does.
func PartitionsForRU(partitions, ru int) int {
	return max(partitions, 1, MinPartitions(ru))
}

// StorageSplitRU is the RU/s each child of a physical partition gets when
// the partition splits for storage: half of the parent's, so that the
// container's RU/s stay where they were and are no longer even (20,000
// RU/s over 2 partitions, one of which splits: 10,000 / 5,000 / 5,000;
// MicrosoftDocs/azure-docs issue 116672). A change of the RU/s afterwards
// shares them evenly again.
func StorageSplitRU(parentRU float64) float64 { return max(parentRU, 0) / 2 }

// Merge (merge.md): a container is a candidate when its partitions average
// under 3,000 RU/s and under 20 GB each (for autoscale, of the maximum
// RU/s); the docs' example: autoscale 5,000 RU/s over 5 partitions holding
// 74 GB, 1,000 RU/s and 14.8 GB each, is one.
const (
	MergeMaxRUPerPartition          = 3000
	MergeMaxBytesPerPartition int64 = 20 * gb
)

// MergeCandidate reports whether a container of ru RU/s over partitions
// holding storageBytes qualifies for a merge, with the average RU/s and
// bytes per partition it was judged on. A single partition has nothing to
// merge with.
func MergeCandidate(ru, partitions int, storageBytes int64) (ok bool, ruEach, bytesEach float64) {
	p := max(partitions, 1)
	ruEach = float64(max(ru, 0)) / float64(p)
	bytesEach = float64(max(storageBytes, 0)) / float64(p)
	ok = p > 1 && ruEach < MergeMaxRUPerPartition && bytesEach < float64(MergeMaxBytesPerPartition)
	return ok, ruEach, bytesEach
}

// MergedPartitions is the fewest physical partitions that can serve ru
// RU/s and hold storageBytes within one partition's limits (10,000 RU/s,
// 50 GB): the least a merge can leave. The service chooses the count it
// merges to; pkcalc plans with this bound, which the docs do not publish.
func MergedPartitions(ru int, storageBytes int64) int {
	byStorage := 1
	if storageBytes > 0 {
		byStorage = int((storageBytes-1)/PhysicalPartitionMaxBytes) + 1
	}
	return max(MinPartitions(ru), byStorage)
}

// Throughput redistribution (nosql/how-to-redistribute-throughput-across-
// partitions.md, nosql/distribute-throughput-across-partitions-faq.md).
const (
	// RedistributeMaxTargetRU is the most RU/s one partition may be given;
	// past PartitionMaxRU the partition splits in two, each with half
	// (5,000 set to 15,000 ends as 2 partitions of 7,500).
	RedistributeMaxTargetRU = 2 * PartitionMaxRU
	// RedistributeStep: targets are set in the steps of manual RU/s.
	RedistributeStep = 100
	// RedistributeMaxPerRequest is the most source and the most target
	// partitions one request may name (the FAQ: 20 each).
	RedistributeMaxPerRequest = 20
)

// RedistributionTarget is the RU/s to give a partition that consumed
// consumedRU RU/s while throttledPerSecond of its requests a second were
// answered 429 at an average charge of avgCharge RU: what it used plus
// what it was refused, rounded up to the step and kept within 100 and
// RedistributeMaxTargetRU (how-to-redistribute-throughput-across-
// partitions.md). Negative or NaN inputs count as 0.
func RedistributionTarget(consumedRU, throttledPerSecond, avgCharge float64) int {
	need := nonNeg(consumedRU) + nonNeg(throttledPerSecond)*nonNeg(avgCharge)
	t := math.Ceil(need/RedistributeStep) * RedistributeStep
	return int(min(max(t, RedistributeStep), RedistributeMaxTargetRU))
}

// RedistributeHotRU is the first target of a hot partition whose 429s
// are not known: twice its RU/s or PartitionMaxRU, whichever is lower
// (how-to-redistribute-throughput-across-partitions.md).
func RedistributeHotRU(partitionRU float64) float64 {
	return min(2*nonNeg(partitionRU), PartitionMaxRU)
}

// Redistributed is the layout per-partition targets leave: a target over
// 10,000 RU/s splits its partition in two, each with half, a target is at
// most RedistributeMaxTargetRU, and the container's throughput becomes
// their sum (6,000 RU/s over 3 partitions set to 2,000, 4,000 and 1,000:
// 7,000).
func Redistributed(targets []int) (total int, partitions []int) {
	for _, t := range targets {
		t = min(max(t, 0), RedistributeMaxTargetRU)
		total += t
		if t > PartitionMaxRU {
			partitions = append(partitions, t/2, t-t/2)
			continue
		}
		partitions = append(partitions, t)
	}
	return total, partitions
}

// Burst capacity (burst-capacity.md): a partition with under 3,000 RU/s
// banks up to 5 minutes of the RU/s it leaves unused and spends them at up
// to 3,000 RU/s (100 RU/s idle for 5 minutes banks 30,000 RU, spent at
// 3,000 RU/s for 10 seconds).
const (
	BurstMaxPartitionRU = 3000
	BurstBankSeconds    = 300
	BurstRate           = 3000
)

// BurstBank is the most RU a partition with partitionRU RU/s that uses
// usedRU of them banks for a burst: the unused RU/s times 300 seconds, or
// 0 for a partition of BurstMaxPartitionRU or more, which is not eligible.
func BurstBank(partitionRU, usedRU float64) float64 {
	p := nonNeg(partitionRU)
	if p >= BurstMaxPartitionRU {
		return 0
	}
	return max(p-nonNeg(usedRU), 0) * BurstBankSeconds
}

// BurstSeconds is how long a bank of bankRU lasts spent at the burst rate,
// as the docs count it: bank / 3,000.
func BurstSeconds(bankRU float64) float64 { return nonNeg(bankRU) / BurstRate }

// IngestPartitionBytes is the data per physical partition the docs plan a
// bulk load with: about 40 GB, below the 50 GB at which a partition splits
// (scaling-provisioned-throughput-best-practices, "large data ingestion":
// 1 TB in 25 partitions).
const IngestPartitionBytes int64 = 40 * gb

// IngestPartitions is the number of physical partitions to create a
// container with for a bulk load of storageBytes: one per
// IngestPartitionBytes, at least 1.
func IngestPartitions(storageBytes int64) int {
	if storageBytes <= 0 {
		return 1
	}
	return int((storageBytes-1)/IngestPartitionBytes) + 1
}

// SeedBytes is the data the hierarchical partition keys FAQ has a
// container of one physical partition take before its RU/s are raised,
// for a key whose first level has few values: "ingest around 5 GB of data
// to ensure there are no partition splits", after which the raise splits
// the partition where its data is ("your physical partitions are split
// uniformly", hierarchical-partition-keys-faq).
const SeedBytes int64 = 5 * gb

// IngestSeconds is how long writing documents of writeRU RU each takes at
// ru RU/s, when every partition is kept busy: documents x writeRU / ru
// (the docs: 1 billion documents at 10 RU each take about 11.1 hours at
// 250,000 RU/s). +Inf when ru is 0 or less.
func IngestSeconds(documents, writeRU float64, ru int) float64 {
	if ru <= 0 {
		return math.Inf(1)
	}
	return nonNeg(documents) * nonNeg(writeRU) / float64(ru)
}

// AutoscaleFloor is the share of its maximum RU/s an autoscale container,
// or each of its partitions, never scales below: 10 %.
const AutoscaleFloor = 0.1

// AutoscaleBilled is what autoscale bills for an hour, in RU/s, given each
// partition's highest use that hour as a share of its part of the maximum
// (usage[region][partition], 0 to 1) and the maximum RU/s tmax
// (autoscale-per-partition-region.md). Uniform scaling bills every
// partition of every region at the busiest one's level; per-partition and
// per-region scaling bills each at its own, each at least the 10 % floor.
// Shares outside 0 to 1 are clamped.
func AutoscaleBilled(tmax int, usage [][]float64) (uniform, perPartition float64) {
	busiest, n := 0.0, 0
	for _, region := range usage {
		if len(region) == 0 {
			continue
		}
		each := float64(max(tmax, 0)) / float64(len(region))
		for _, u := range region {
			u = min(max(nonNeg(u), AutoscaleFloor), 1)
			busiest = max(busiest, u)
			perPartition += u * each
		}
		n++
	}
	return busiest * float64(max(tmax, 0)) * float64(n), perPartition
}

// nonNeg is f, or 0 for a negative, NaN or infinite f.
func nonNeg(f float64) float64 {
	if !(f >= 0) || math.IsInf(f, 1) {
		return 0
	}
	return f
}
