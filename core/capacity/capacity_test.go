package capacity

import (
	"math"
	"testing"
)

const gib = int64(1) << 30

func TestConstants(t *testing.T) {
	if LogicalPartitionMaxBytes != 20*1024*1024*1024 || PhysicalPartitionMaxBytes != 50*1024*1024*1024 {
		t.Errorf("limits: %d %d", LogicalPartitionMaxBytes, PhysicalPartitionMaxBytes)
	}
	// The alert page's query: SizeKb / (20.0 * 1024.0 * 1024.0) > 0.7.
	if got := AlertFraction * float64(LogicalPartitionMaxBytes) / float64(gib); got != 14 {
		t.Errorf("alert line = %v GB, want 14", got)
	}
}

func TestInitialPartitions(t *testing.T) {
	tests := []struct {
		name string
		t    Throughput
		want int
	}{
		{"docs: 150,000 manual", Throughput{RU: 150000}, 25},
		{"docs: 250,000 autoscale", Throughput{RU: 250000, Autoscale: true}, 25},
		{"400 manual", Throughput{RU: 400}, 1},
		{"1000 autoscale", Throughput{RU: 1000, Autoscale: true}, 1},
		{"6000 manual", Throughput{RU: 6000}, 1},
		{"6001 manual", Throughput{RU: 6001}, 2},
		{"10,000 autoscale", Throughput{RU: 10000, Autoscale: true}, 1},
		{"10,001 autoscale", Throughput{RU: 10001, Autoscale: true}, 2},
		{"30,000 manual", Throughput{RU: 30000}, 5},
		{"zero", Throughput{}, 1},
		{"negative", Throughput{RU: -5000}, 1},
		{"min int", Throughput{RU: math.MinInt}, 1},
		{"max int", Throughput{RU: math.MaxInt}, math.MaxInt/6000 + 1},
	}
	for _, tt := range tests {
		if got := InitialPartitions(tt.t); got != tt.want {
			t.Errorf("%s: InitialPartitions(%+v) = %d, want %d", tt.name, tt.t, got, tt.want)
		}
	}
}

func TestPartitions(t *testing.T) {
	tests := []struct {
		name    string
		t       Throughput
		storage int64
		want    int
	}{
		{"400 RU/s, empty", Throughput{RU: 400}, 0, 1},
		{"400 RU/s, 50 GB fits one", Throughput{RU: 400}, 50 * gib, 1},
		{"400 RU/s, just over 50 GB", Throughput{RU: 400}, 50*gib + 1, 2},
		{"400 RU/s, 100 GB", Throughput{RU: 400}, 100 * gib, 2},
		{"400 RU/s, 120 GB: 1 -> 2 -> 4", Throughput{RU: 400}, 120 * gib, 4},
		{"400 RU/s, 1000 GB: doubles to 32", Throughput{RU: 400}, 1000 * gib, 32},
		// scaling-provisioned-throughput-best-practices: 1 TB at 40 GB per
		// partition needs 25, provisioned as 150,000 manual or 250,000 autoscale.
		{"docs: 150,000 manual, 1000 GB", Throughput{RU: 150000}, 1000 * gib, 25},
		{"docs: 250,000 autoscale, 1000 GB", Throughput{RU: 250000, Autoscale: true}, 1000 * gib, 25},
		{"docs: 5 partitions, 80 GB", Throughput{RU: 30000}, 80 * gib, 5},
		{"5 partitions, 251 GB -> 10", Throughput{RU: 30000}, 251 * gib, 10},
		{"negative storage", Throughput{RU: 400}, -1, 1},
		{"negative RU", Throughput{RU: -1}, 120 * gib, 4},
		{"max storage", Throughput{RU: 400}, math.MaxInt64, 1 << 28},
	}
	for _, tt := range tests {
		got := Partitions(tt.t, tt.storage)
		if got != tt.want {
			t.Errorf("%s: Partitions(%+v, %d) = %d, want %d", tt.name, tt.t, tt.storage, got, tt.want)
		}
		// Whatever the input, the result holds the storage and the RU/s.
		if s := max(tt.storage, 0); s/int64(got) > PhysicalPartitionMaxBytes {
			t.Errorf("%s: %d partitions hold %d bytes each", tt.name, got, s/int64(got))
		}
		if PerPartitionRU(tt.t, got) > PartitionMaxRU {
			t.Errorf("%s: over %d RU/s per partition", tt.name, PartitionMaxRU)
		}
	}
	// The largest RU/s never overflows or loops.
	if got := Partitions(Throughput{RU: math.MaxInt}, math.MaxInt64); got < 1 {
		t.Errorf("Partitions(max, max) = %d", got)
	}
}

func TestMinRU(t *testing.T) {
	tests := []struct {
		name      string
		autoscale bool
		storage   int64
		highest   int
		want      int
	}{
		{"manual, new", false, 0, 400, 400},
		{"manual, nothing known", false, 0, 0, 400},
		{"manual, 50 GB", false, 50 * gib, 400, 400},
		{"docs: manual, 20 GB after 50,000", false, 20 * gib, 50000, 500},
		{"docs: manual, 2000 GB after 50,000", false, 2000 * gib, 50000, 2000},
		{"docs: manual, highest ever 100,000", false, 0, 100000, 1000},
		{"docs: manual, highest ever 200,000", false, 0, 200000, 2000},
		{"manual, 450 GB rounds up to a step", false, 450 * gib, 400, 500},
		{"manual, 401 GB", false, 401 * gib, 0, 500},
		{"manual, highest 123,456,789", false, 0, 123456789, 1234600},
		{"autoscale, new", true, 0, 1000, 1000},
		{"autoscale, 50 GB", true, 50 * gib, 1000, 1000},
		{"autoscale, 101 GB", true, 101 * gib, 1000, 2000},
		{"docs: autoscale, 20 GB after 50,000", true, 20 * gib, 50000, 5000},
		{"docs: autoscale, 2000 GB after 50,000", true, 2000 * gib, 50000, 20000},
		{"docs: autoscale, highest ever 100,000", true, 0, 100000, 10000},
		{"docs: autoscale, highest ever 200,000", true, 0, 200000, 20000},
		{"docs: autoscale, 6000 GB", true, 6000 * gib, 50000, 60000},
		{"manual, negative inputs", false, -1, -1, 400},
		{"autoscale, negative inputs", true, math.MinInt64, math.MinInt, 1000},
	}
	for _, tt := range tests {
		if got := MinRU(tt.autoscale, tt.storage, tt.highest); got != tt.want {
			t.Errorf("%s: MinRU(%v, %d, %d) = %d, want %d", tt.name, tt.autoscale, tt.storage, tt.highest, got, tt.want)
		}
	}
	for _, autoscale := range []bool{false, true} {
		got := MinRU(autoscale, math.MaxInt64, math.MaxInt)
		if got <= 0 {
			t.Errorf("MinRU(%v, max, max) = %d", autoscale, got)
		}
	}
}

func TestMinPartitions(t *testing.T) {
	for _, tt := range []struct{ ru, want int }{
		{0, 1}, {-5, 1}, {400, 1}, {10000, 1}, {10001, 2},
		{20000, 2}, {40000, 4}, {40100, 5}, // 40,000 RU/s never run on 2
		{math.MaxInt, math.MaxInt/PartitionMaxRU + 1},
	} {
		if got := MinPartitions(tt.ru); got != tt.want {
			t.Errorf("MinPartitions(%d) = %d, want %d", tt.ru, got, tt.want)
		}
	}
	if RUStep(false) != 100 || RUStep(true) != 1000 {
		t.Errorf("steps %d, %d; want 100 manual, 1000 autoscale", RUStep(false), RUStep(true))
	}
}

func TestPerPartitionRU(t *testing.T) {
	tests := []struct {
		t    Throughput
		n    int
		want float64
	}{
		{Throughput{RU: 30000}, 5, 6000},
		{Throughput{RU: 18000}, 3, 6000},  // partitioning-overview
		{Throughput{RU: 20000}, 2, 10000}, // scaling best practices, baseline
		{Throughput{RU: 30000}, 4, 7500},  // ... after the even split
		{Throughput{RU: 30000}, 2, 10000}, // capped at a partition's limit
		{Throughput{RU: 1000, Autoscale: true}, 2, 500},
		{Throughput{RU: 400}, 0, 400},
		{Throughput{RU: 400}, -3, 400},
		{Throughput{RU: 0}, 3, 0},
		{Throughput{RU: -400}, 3, 0},
	}
	for _, tt := range tests {
		if got := PerPartitionRU(tt.t, tt.n); got != tt.want {
			t.Errorf("PerPartitionRU(%+v, %d) = %v, want %v", tt.t, tt.n, got, tt.want)
		}
	}
}

func TestEvenSplitRU(t *testing.T) {
	tests := []struct {
		name       string
		partitions int
		target     int
		want       int
	}{
		{"docs: 5 partitions to 150,000", 5, 150000, 200000},
		{"docs: 2 partitions to 30,000", 2, 30000, 40000},
		{"3 partitions to 45,000", 3, 45000, 60000},
		{"exact power of two", 5, 200000, 200000},
		{"fits: no split", 5, 50000, 50000},
		{"fits: scale down", 5, 30000, 30000},
		{"one partition just over", 1, 10001, 20000},
		{"zero partitions count as one", 0, 15000, 20000},
		{"negative partitions", -4, 15000, 20000},
		{"zero target", 2, 0, 0},
		{"negative target", 2, -5, 0},
		{"huge partition count", math.MaxInt, 5, 5},
		{"saturates", 1, math.MaxInt, math.MaxInt},
	}
	for _, tt := range tests {
		if got := EvenSplitRU(tt.partitions, tt.target); got != tt.want {
			t.Errorf("%s: EvenSplitRU(%d, %d) = %d, want %d", tt.name, tt.partitions, tt.target, got, tt.want)
		}
	}
}

func TestDefaultCosts(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	tests := []struct {
		name  string
		bytes float64
		want  Costs
	}{
		{"docs: 1 KB", 1024, Costs{PointRead: 1, Write: 5, Query: 3.5}},
		{"docs: 100 KB", 100 * 1024, Costs{PointRead: 10, Write: 50, Query: 12.5}},
		{"12 KB", 12 * 1024, Costs{PointRead: 2, Write: 10, Query: 4.5}},
		{"small item costs as 1 KB", 200, Costs{PointRead: 1, Write: 5, Query: 3.5}},
		{"zero", 0, Costs{PointRead: 1, Write: 5, Query: 3.5}},
		{"negative", -1, Costs{PointRead: 1, Write: 5, Query: 3.5}},
		{"NaN", math.NaN(), Costs{PointRead: 1, Write: 5, Query: 3.5}},
		{"-Inf", math.Inf(-1), Costs{PointRead: 1, Write: 5, Query: 3.5}},
		{"2 MB item", 2 << 20, Costs{PointRead: 1 + 2047.0/11, Write: 5 * (1 + 2047.0/11), Query: 2.5 + 1 + 2047.0/11}},
		{"+Inf caps at 2 MB", math.Inf(1), Costs{PointRead: 1 + 2047.0/11, Write: 5 * (1 + 2047.0/11), Query: 2.5 + 1 + 2047.0/11}},
	}
	for _, tt := range tests {
		got := DefaultCosts(tt.bytes)
		if !near(got.PointRead, tt.want.PointRead) || !near(got.Write, tt.want.Write) || !near(got.Query, tt.want.Query) {
			t.Errorf("%s: DefaultCosts(%v) = %+v, want %+v", tt.name, tt.bytes, got, tt.want)
		}
	}
	// Costs never fall as items grow.
	prev := DefaultCosts(0)
	for b := 0.0; b <= 3<<20; b += 4096 {
		c := DefaultCosts(b)
		if c.PointRead < prev.PointRead || c.Write < prev.Write || c.Query < prev.Query {
			t.Fatalf("DefaultCosts(%v) = %+v fell below %+v", b, c, prev)
		}
		prev = c
	}
}

func TestFanOutSurcharge(t *testing.T) {
	tests := []struct {
		partitions int
		want       float64
	}{
		{math.MinInt, 0}, {-3, 0}, {0, 0}, {1, 0}, {2, 2.5}, {5, 10}, {25, 60},
	}
	for _, tt := range tests {
		if got := FanOutSurcharge(tt.partitions); got != tt.want {
			t.Errorf("FanOutSurcharge(%d) = %v, want %v", tt.partitions, got, tt.want)
		}
	}
}

func TestThrottling(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name     string
		demand   []float64
		capacity float64
		want     Throttle
	}{
		{"even, half used", []float64{5000, 5000}, 10000, Throttle{0, 0.5, 2, 0}},
		{"one hot partition", []float64{15000, 5000}, 10000, Throttle{0.25, 1.5, 10000.0 / 15000, 0}},
		{"hottest last", []float64{1000, 2000, 8000}, 10000, Throttle{0, 0.8, 1.25, 2}},
		{"tie picks the first", []float64{3000, 3000}, 6000, Throttle{0, 0.5, 2, 0}},
		{"all over", []float64{20000, 20000}, 10000, Throttle{0.5, 2, 0.5, 0}},
		{"exactly at capacity", []float64{10000}, 10000, Throttle{0, 1, 1, 0}},
		{"empty", nil, 10000, Throttle{0, 0, inf, -1}},
		{"no demand", []float64{0, 0}, 10000, Throttle{0, 0, inf, 0}},
		{"zero capacity", []float64{0, 100}, 0, Throttle{1, inf, 0, 1}},
		{"negative capacity", []float64{100}, -5, Throttle{1, inf, 0, 0}},
		{"NaN capacity", []float64{100}, math.NaN(), Throttle{1, inf, 0, 0}},
		{"zero capacity, no demand", []float64{0}, 0, Throttle{0, 0, inf, 0}},
		{"bad demands count as none", []float64{math.NaN(), -7, inf, math.Inf(-1), 4000}, 8000, Throttle{0, 0.5, 2, 4}},
		{"infinite capacity", []float64{100}, inf, Throttle{0, 0, inf, 0}},
	}
	for _, tt := range tests {
		got := Throttling(tt.demand, tt.capacity)
		if !same(got.ThrottledFraction, tt.want.ThrottledFraction) ||
			!same(got.HottestUtilisation, tt.want.HottestUtilisation) ||
			!same(got.Headroom, tt.want.Headroom) || got.Hottest != tt.want.Hottest {
			t.Errorf("%s: Throttling(%v, %v) = %+v, want %+v", tt.name, tt.demand, tt.capacity, got, tt.want)
		}
		if math.IsNaN(got.ThrottledFraction) || got.ThrottledFraction < 0 || got.ThrottledFraction > 1 {
			t.Errorf("%s: ThrottledFraction %v out of [0, 1]", tt.name, got.ThrottledFraction)
		}
	}
}

// same compares floats, treating infinities as equal to themselves.
func same(a, b float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) < 1e-9
}
