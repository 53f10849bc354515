package capacity

import (
	"math"
	"slices"
	"testing"
)

// The worked examples of Microsoft's docs, each reproduced by the rule it
// illustrates. Pages are in MicrosoftDocs/azure-databases-docs,
// articles/cosmos-db/.
func TestOperationsDocsExamples(t *testing.T) {
	// partitioning-overview.md: 18,000 RU/s over 3 partitions is 6,000 each.
	if got := PerPartitionRU(Throughput{RU: 18000}, 3); got != 6000 {
		t.Errorf("18,000 RU/s over 3 partitions: %v each, want 6,000", got)
	}
	// scaling-provisioned-throughput-best-practices.md.
	for _, c := range []struct {
		name          string
		partitions, r int
		want          int
	}{
		{"5 partitions at 30,000 go to 50,000 at once", 5, 50000, 5},
		{"3 partitions from 30,000 to 45,000 split to 5", 3, 45000, 5},
		{"2 partitions from 20,000 to 30,000 split to 3", 2, 30000, 3},
		{"5 partitions set to 200,000 split to 20", 5, 200000, 20},
		{"a decrease keeps the partitions", 20, 150000, 20},
	} {
		if got := PartitionsForRU(c.partitions, c.r); got != c.want {
			t.Errorf("%s: %d partitions, want %d", c.name, got, c.want)
		}
	}
	if got := InstantMaxRU(5); got != 50000 {
		t.Errorf("InstantMaxRU(5) = %d, want 50,000", got)
	}
	if got := EvenSplitRU(5, 150000); got != 200000 {
		t.Errorf("EvenSplitRU(5, 150,000) = %d, want 200,000", got)
	}
	// MicrosoftDocs/azure-docs issue 116672: 20,000 RU/s over 2
	// partitions, one splits for storage: 10,000 / 5,000 / 5,000.
	if got := StorageSplitRU(PerPartitionRU(Throughput{RU: 20000}, 2)); got != 5000 {
		t.Errorf("a storage split's child of a 10,000 RU/s partition gets %v, want 5,000", got)
	}
	// merge.md: autoscale 5,000 RU/s over 5 partitions holding 74 GB.
	ok, ruEach, bytesEach := MergeCandidate(5000, 5, 74*gb)
	if !ok || ruEach != 1000 || math.Abs(bytesEach/gb-14.8) > 1e-9 {
		t.Errorf("merge example: candidate %v at %v RU/s and %v GB each, want true, 1,000 and 14.8", ok, ruEach, bytesEach/gb)
	}
	// how-to-redistribute-throughput-across-partitions.md: 6,000 RU/s
	// over 3 partitions set to 2,000 / 4,000 / 1,000 make 7,000; 5,000 set
	// to 15,000 ends as 2 partitions of 7,500.
	if total, parts := Redistributed([]int{2000, 4000, 1000}); total != 7000 || !slices.Equal(parts, []int{2000, 4000, 1000}) {
		t.Errorf("redistribution example: %d over %v, want 7,000 over [2000 4000 1000]", total, parts)
	}
	if total, parts := Redistributed([]int{15000}); total != 15000 || !slices.Equal(parts, []int{7500, 7500}) {
		t.Errorf("a 15,000 target: %d over %v, want 2 partitions of 7,500", total, parts)
	}
	if total, parts := Redistributed([]int{5000, 20000}); total != 25000 || !slices.Equal(parts, []int{5000, 10000, 10000}) {
		t.Errorf("a 20,000 target: %d over %v, want 25,000 over [5000 10000 10000]", total, parts)
	}
	// A hot partition whose 429s are not known: twice its RU/s, at most
	// 10,000.
	if a, b := RedistributeHotRU(2000), RedistributeHotRU(6000); a != 4000 || b != 10000 {
		t.Errorf("first targets of hot partitions at 2,000 and 6,000: %v and %v, want 4,000 and 10,000", a, b)
	}
	// burst-capacity.md: 100 RU/s idle for 5 minutes banks 30,000 RU,
	// spent at 3,000 RU/s for 10 seconds.
	if bank := BurstBank(100, 0); bank != 30000 || BurstSeconds(bank) != 10 {
		t.Errorf("burst example: bank %v for %v s, want 30,000 for 10 s", bank, BurstSeconds(bank))
	}
	// scaling-provisioned-throughput-best-practices.md, large data
	// ingestion: 1 TB (1,000 GB) at about 40 GB a partition is 25
	// partitions, created with 150,000 RU/s manual; 1 billion documents
	// at 10 RU each take about 11.1 hours at 250,000 RU/s.
	if n := IngestPartitions(1000 * gb); n != 25 || CreateRU(n, false) != 150000 || CreateRU(n, true) != 250000 {
		t.Errorf("ingest example: %d partitions, %d manual, %d autoscale; want 25, 150,000, 250,000", n, CreateRU(n, false), CreateRU(n, true))
	}
	if h := IngestSeconds(1e9, 10, 250000) / 3600; math.Abs(h-11.1) > 0.05 {
		t.Errorf("ingest example: %.2f hours, want about 11.1", h)
	}
}

func TestOperationsEdges(t *testing.T) {
	for _, c := range []struct {
		name string
		got  float64
		want float64
	}{
		{"partition at 3,000 RU/s banks nothing", BurstBank(3000, 0), 0},
		{"a busy partition banks what it leaves", BurstBank(1000, 400), 600 * 300},
		{"used past its share banks nothing", BurstBank(1000, 5000), 0},
		{"NaN use counts as none", BurstBank(100, math.NaN()), 30000},
		{"redistribution target: used plus refused", float64(RedistributionTarget(2500, 10, 55)), 3100},
		{"redistribution target at least 100", float64(RedistributionTarget(0, 0, 0)), 100},
		{"redistribution target at most 20,000", float64(RedistributionTarget(50000, 0, 0)), 20000},
		{"ingest at 0 RU/s never ends", IngestSeconds(1, 1, 0), math.Inf(1)},
		{"merged partitions by storage", float64(MergedPartitions(5000, 74*gb)), 2},
		{"merged partitions by RU/s", float64(MergedPartitions(25000, gb)), 3},
		{"one partition is no merge candidate", b(MergeCandidate(100, 1, 0)), 0},
		{"3,000 RU/s each is no candidate", b(MergeCandidate(6000, 2, 0)), 0},
		{"20 GB each is no candidate", b(MergeCandidate(100, 2, 40*gb)), 0},
		{"InstantMaxRU saturates", float64(InstantMaxRU(math.MaxInt)), float64(math.MaxInt)},
	} {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
	// Autoscale: 1,000 RU/s over 2 partitions in 2 regions, one partition
	// of the write region busy, the rest at the floor: uniform scaling
	// bills every partition at the busiest level, 2,000 RU/s; per
	// partition, 500 + 50 + 50 + 50 = 650.
	u, p := AutoscaleBilled(1000, [][]float64{{1, 0}, {0, 0}})
	if u != 2000 || p != 650 {
		t.Errorf("AutoscaleBilled: uniform %v, per partition %v; want 2,000 and 650", u, p)
	}
}

func b(ok bool, _, _ float64) float64 {
	if ok {
		return 1
	}
	return 0
}
