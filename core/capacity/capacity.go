// Package capacity holds Azure Cosmos DB's rules for throughput, storage and
// physical partitions, and default request-unit (RU) costs per operation, as
// pure functions of numbers: how many physical partitions a container has for
// its RU/s and storage, the least RU/s the service lets it be set to, how RU/s
// are shared among partitions, the RU/s to scale to so that splits stay even,
// what a point read, write, query and query fan-out cost, and how much of a
// per-partition demand would be throttled.
//
// It knows no documents, keys or hashes: callers bring byte counts, RU/s and
// per-partition demand. Placing real key values on partitions, and so uneven
// (skewed) partitions, is package partition's work.
//
// Units: a GB here is 2^30 bytes and a KB 2^10 bytes, as the service counts.
// Its x-ms-resource-quota header reports sizes in kilobytes, and a 10 GB
// fixed collection's read collectionSize=10485760 (10 x 1024 x 1024 KB);
// the docs' own
// alert on the 20 GB logical partition limit divides SizeKb by
// 20.0 * 1024.0 * 1024.0 (how-to-alert-on-logical-partition-key-storage-size).
// Prose examples that say "1 TB (1,000 GB)" are rounded, not a second unit.
//
// Every function accepts any input without panicking: negative or zero sizes
// and RU/s count as none, and results are clamped to the service's floors.
package capacity

import "math"

// gb is the service's gigabyte: 2^30 bytes (see the package comment).
const gb = 1 << 30

// Limits (docs: concepts-limits, partitioning-overview,
// scaling-provisioned-throughput-best-practices).
const (
	// LogicalPartitionMaxBytes is the storage of one logical partition (all
	// items with one key value): 20 GB.
	LogicalPartitionMaxBytes int64 = 20 * gb
	// PhysicalPartitionMaxBytes is the storage of one physical partition:
	// 50 GB (30 GB for the Cassandra API, not modelled).
	PhysicalPartitionMaxBytes int64 = 50 * gb
	// PartitionMaxRU is the throughput of one partition, logical or
	// physical: 10,000 RU/s.
	PartitionMaxRU = 10000
	// ContainerQuotaRU is the most RU/s a container may have by default,
	// 1,000,000; an Azure support ticket raises it (concepts-limits,
	// "Maximum RUs per container").
	ContainerQuotaRU = 1_000_000
	// AlertFraction is the docs' alert line for a logical partition nearing
	// LogicalPartitionMaxBytes: 70 %, i.e. 14 GB
	// (how-to-alert-on-logical-partition-key-storage-size).
	AlertFraction = 0.7
	// MaxPartitions is the most physical partitions pkcalc models, given or
	// implied by the throughput: as many as package partition's split
	// simulation makes (65,536 of 50 GB hold 3.2 PB), far past any
	// container's. A report lists every partition of every key, so a
	// million of them took gigabytes and minutes.
	MaxPartitions = 1 << 16
)

// Throughput provisioned on a container.
type Throughput struct {
	RU        int  // manual RU/s, or the autoscale maximum RU/s (Tmax)
	Autoscale bool // autoscale scales between 0.1 x RU and RU
}

// RU/s per physical partition the service plans for when it creates a
// container (scaling-provisioned-throughput-best-practices, "large data
// ingestion": 6,000 for manual throughput, 10,000 for autoscale or shared).
const (
	initialRUManual    = 6000
	initialRUAutoscale = 10000
)

// InitialPartitions is the number of physical partitions a new container
// gets for t: ceil(RU / 6,000) for manual throughput, ceil(RU / 10,000) for
// autoscale, at least 1. The docs' example: 25 partitions = 150,000 RU/s
// manual or 250,000 RU/s autoscale
// (scaling-provisioned-throughput-best-practices); so a 400 RU/s container
// starts with one.
func InitialPartitions(t Throughput) int {
	if t.RU <= 0 {
		return 1
	}
	per := initialRUManual
	if t.Autoscale {
		per = initialRUAutoscale
	}
	n := t.RU / per
	if t.RU%per != 0 {
		n++
	}
	return max(n, 1)
}

// CreateRU is the most throughput a container can be created with and
// still start with n physical partitions: n x 6,000 RU/s manual, n x
// 10,000 autoscale (the inverse of InitialPartitions). Raised later up to
// n x 10,000, it keeps them (scaling-provisioned-throughput-best-practices).
// n below 1 counts as 1.
func CreateRU(n int, autoscale bool) int {
	per := initialRUManual
	if autoscale {
		per = initialRUAutoscale
	}
	return max(n, 1) * per
}

// Partitions is the number of physical partitions a container created with
// t holds once it stores storageBytes, when data and requests are spread
// evenly over the key space.
//
// The model: the container starts with InitialPartitions(t). A physical
// partition splits in two when it would pass PhysicalPartitionMaxBytes, or
// when its share of the RU/s would pass PartitionMaxRU; with even data every
// partition reaches the limit together, so each split round doubles the
// count. So 400 RU/s and 120 GB give 1 -> 2 (60 GB each) -> 4 (30 GB each).
// Real data is skewed: the fullest partition splits first and the layout
// becomes uneven (2^k partitions need not appear), which package partition
// simulates on the real key distribution. Scaling RU/s up later splits only
// as many partitions as the new RU/s need; see EvenSplitRU.
func Partitions(t Throughput, storageBytes int64) int {
	n := InitialPartitions(t)
	ru := max(t.RU, 0)
	storage := max(storageBytes, 0)
	// Each round doubles n, so this ends within 64 rounds for any input.
	for n <= math.MaxInt/2 &&
		(exceeds(storage, n, PhysicalPartitionMaxBytes) || exceeds(int64(ru), n, PartitionMaxRU)) {
		n *= 2
	}
	return n
}

// exceeds reports whether total shared by n (n >= 1) is more than limit
// each, that is total > n x limit, without overflow.
func exceeds(total int64, n int, limit int64) bool {
	q, r := total/int64(n), total%int64(n)
	return q > limit || q == limit && r != 0
}

// MinRU is the least throughput the service lets a container be set to,
// given its storage and the highest RU/s it ever had (concepts-limits,
// "Minimum throughput on container"):
//
//	manual:    max(400,  GB x 1,  highestEver / 100), in steps of 100 RU/s
//	autoscale: max(1000, GB x 10, highestEver / 10),  in steps of 1000 RU/s
//
// For autoscale the result is the least maximum RU/s (Tmax). The steps are
// the service's increments: manual RU/s change in steps of 100
// (request-units), autoscale Tmax in steps of 1000 (provision-throughput-
// autoscale, which also states the storage rule as Tmax/10 GB of storage).
// The docs' examples: 20 GB after 50,000 RU/s -> 500 manual, 5,000
// autoscale; 2,000 GB -> 2,000 and 20,000; a highest-ever of 100,000 RU/s
// -> 1,000 manual (scaling-provisioned-throughput-best-practices). The actual
// minimum can vary with account configuration, which this does not model.
func MinRU(autoscale bool, storageBytes int64, highestEver int) int {
	floor, perGB, everDiv, step := 400.0, 1.0, 100.0, 100.0
	if autoscale {
		floor, perGB, everDiv, step = 1000, 10, 10, 1000
	}
	need := floor
	if storageBytes > 0 {
		need = max(need, float64(storageBytes)/gb*perGB)
	}
	if highestEver > 0 {
		need = max(need, float64(highestEver)/everDiv)
	}
	return int(math.Ceil(need/step) * step)
}

// RUStep is the increment the service sets throughput in: manual RU/s in
// steps of 100, an autoscale maximum in steps of 1,000 (see MinRU). A
// setting between steps is refused, not rounded.
func RUStep(autoscale bool) int {
	if autoscale {
		return 1000
	}
	return 100
}

// MinPartitions is the fewest physical partitions that can serve ru RU/s
// (the autoscale maximum for autoscale): ceil(ru / PartitionMaxRU), at
// least 1. A container never has fewer, since raising its RU/s past
// partitions x 10,000 splits partitions first
// (scaling-provisioned-throughput-best-practices).
func MinPartitions(ru int) int {
	if ru <= 0 {
		return 1
	}
	return (ru-1)/PartitionMaxRU + 1
}

// PerPartitionRU is the throughput each of n physical partitions gets:
// provisioned RU/s are divided evenly among physical partitions
// (partitioning-overview: 18,000 RU/s over three gives 6,000 each), and one
// partition serves at most PartitionMaxRU.
// For autoscale it is the share of the maximum RU/s. n below 1 counts as 1;
// RU/s of 0 or less give 0.
func PerPartitionRU(t Throughput, n int) float64 {
	if t.RU <= 0 {
		return 0
	}
	n = max(n, 1)
	return min(float64(t.RU)/float64(n), PartitionMaxRU)
}

// EvenSplitRU is the RU/s to raise a container with the given number of
// physical partitions to, on the way to targetRU, so that every partition
// splits and the key space stays evenly shared
// (scaling-provisioned-throughput-best-practices, "General formula"):
//
//	10,000 x P x 2^ROUNDUP(LOG2(S / (10,000 x P)))
//
// After the splits finish, lower the RU/s to targetRU. When targetRU fits
// the current partitions (S <= 10,000 x P) no split happens and the result
// is targetRU itself. The docs' examples: P = 5, S = 150,000 -> 200,000;
// P = 2, S = 30,000 -> 40,000. partitions below 1 count as 1; a targetRU of 0
// or less gives 0; the result saturates at math.MaxInt. Raising RU/s also
// raises the future MinRU (highest ever / 100).
func EvenSplitRU(partitions int, targetRU int) int {
	if targetRU <= 0 {
		return 0
	}
	p := max(partitions, 1)
	if p > math.MaxInt/PartitionMaxRU {
		return targetRU
	}
	ru := p * PartitionMaxRU
	if targetRU <= ru {
		return targetRU // fits the current layout: no split
	}
	for ru < targetRU {
		if ru > math.MaxInt/2 {
			return math.MaxInt
		}
		ru *= 2
	}
	return ru
}
