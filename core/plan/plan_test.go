package plan

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
)

// shape is a layout as a user checks it: how many partitions, and each
// one's key space (%), RU/s and GB, rounded.
type shape struct {
	ru    int
	parts [][3]float64
}

func shapeOf(l Layout) shape {
	s := shape{ru: l.RU}
	for _, p := range l.Partitions {
		s.parts = append(s.parts, [3]float64{math.Round(p.KeySpace * 10000 / 100), math.Round(p.RU), math.Round(p.StorageGB*10) / 10})
	}
	return s
}

func same(a, b shape) bool {
	if a.ru != b.ru || len(a.parts) != len(b.parts) {
		return false
	}
	for i := range a.parts {
		if a.parts[i] != b.parts[i] {
			return false
		}
	}
	return true
}

func even(n int, ru int, gb float64) shape {
	s := shape{ru: ru}
	for range n {
		s.parts = append(s.parts, [3]float64{math.Round(100.0 / float64(n)), math.Round(float64(ru) / float64(n)), math.Round(gb/float64(n)*10) / 10})
	}
	return s
}

// TestScaleDocsExamples reproduces the worked examples of
// scaling-provisioned-throughput-best-practices.md and
// partitioning-overview.md, step by step.
func TestScaleDocsExamples(t *testing.T) {
	for _, c := range []struct {
		name  string
		c     Container
		to    int
		steps []shape
		// direct is the layout setting the target at once leaves, when
		// the plan goes by the even split.
		direct *shape
	}{
		// partitioning-overview.md: 18,000 RU/s over 3 partitions, 6,000 each.
		{"18,000 over 3", Container{Partitions: 3, RU: 9000}, 18000, []shape{even(3, 18000, 0)}, nil},
		// 5 partitions at 30,000 RU/s raise to 50,000 at once.
		{"instant 30,000 to 50,000", Container{Partitions: 5, RU: 30000}, 50000, []shape{even(5, 50000, 0)}, nil},
		// 3 partitions from 30,000 to 45,000: 5 partitions, the 2 split
		// ones' halves holding 1/6 of the key space each.
		{"30,000 to 45,000 makes 5", Container{Partitions: 3, RU: 30000}, 45000, []shape{even(6, 60000, 0), even(6, 45000, 0)}, &shape{45000, [][3]float64{
			{17, 9000, 0}, {17, 9000, 0}, {17, 9000, 0}, {17, 9000, 0}, {33, 9000, 0}}}},
		// 2 partitions holding 80 GB from 20,000 to 30,000: 3 partitions
		// sharing the key space 25 / 25 / 50, 10,000 RU/s each.
		{"80 GB, 20,000 to 30,000", Container{Partitions: 2, RU: 20000, StorageGB: 80}, 30000, []shape{even(4, 40000, 80), even(4, 30000, 80)}, &shape{30000, [][3]float64{
			{25, 10000, 20}, {25, 10000, 20}, {50, 10000, 40}}}},
		// 5 partitions at 50,000 to 150,000: set 200,000 (20 even
		// partitions), then 150,000 (7,500 each).
		{"5 at 50,000 to 150,000", Container{Partitions: 5, RU: 50000}, 150000, []shape{even(20, 200000, 0), even(20, 150000, 0)}, nil},
	} {
		p, err := Scale(c.c, c.to)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(p.Steps) != len(c.steps) {
			t.Fatalf("%s: %d steps, want %d: %+v", c.name, len(p.Steps), len(c.steps), p.Steps)
		}
		for i, s := range p.Steps {
			if got := shapeOf(*s.After); !same(got, c.steps[i]) {
				t.Errorf("%s, step %d: %+v, want %+v", c.name, i+1, got, c.steps[i])
			}
			if s.Rule.Source == "" || len(s.Commands) == 0 {
				t.Errorf("%s, step %d names no source or command", c.name, i+1)
			}
		}
		if c.direct != nil && (p.Direct == nil || !same(shapeOf(*p.Direct), *c.direct)) {
			t.Errorf("%s: at once %+v, want %+v", c.name, p.Direct, *c.direct)
		}
	}
}

// TestScaleDirectNote: the note on setting 150,000 at once says what the
// docs warn of, 15 partitions of which 5 hold twice the key space.
func TestScaleDirectNote(t *testing.T) {
	p, _ := Scale(Container{Partitions: 5, RU: 50000}, 150000)
	if !strings.Contains(p.Notes[0], "15 partitions, the widest holding 10% of the key space and the narrowest 5.0%") {
		t.Errorf("note: %s", p.Notes[0])
	}
	if p.Figures[0].Value != 2000 {
		t.Errorf("least RU/s after 200,000: %v, want 2,000 (highest / 100)", p.Figures[0].Value)
	}
}

// TestStorageSplit: MicrosoftDocs/azure-docs issue 116672, 20,000 RU/s
// over 2 partitions of which one passes 50 GB: 10,000 / 5,000 / 5,000.
func TestStorageSplit(t *testing.T) {
	parts := storageSplits([]Partition{{ID: "0", KeySpace: .5, RU: 10000, StorageGB: 30}, {ID: "1", KeySpace: .5, RU: 10000, StorageGB: 60}})
	got := shapeOf(Layout{RU: 20000, Partitions: parts})
	want := shape{20000, [][3]float64{{50, 10000, 30}, {25, 5000, 30}, {25, 5000, 30}}}
	if !same(got, want) {
		t.Errorf("%+v, want %+v", got, want)
	}
}

// TestMergeDocsExample: merge.md, autoscale 5,000 RU/s over 5
// partitions holding 74 GB is a candidate (1,000 RU/s, 14.8 GB each).
func TestMergeDocsExample(t *testing.T) {
	p, err := Merge(Container{Partitions: 5, RU: 5000, Autoscale: true, StorageGB: 74})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p.Summary, "a merge candidate: 5 partitions averaging 1,000 RU/s and 14.8 GB") || len(p.Steps) != 2 {
		t.Fatalf("summary %q, %d steps", p.Summary, len(p.Steps))
	}
	if got := shapeOf(*p.Steps[1].After); !same(got, even(2, 5000, 74)) {
		t.Errorf("after the merge: %+v", got)
	}
	p, _ = Merge(Container{Partitions: 5, RU: 20000, StorageGB: 74})
	if len(p.Steps) != 0 || !strings.Contains(p.Summary, "4,000 RU/s, not under 3,000") || !strings.Contains(p.Notes[0], "14,900 RU/s or less") {
		t.Errorf("20,000 RU/s: %q %q", p.Summary, p.Notes)
	}
}

// TestRedistributeDocsExample: how-to-redistribute-throughput-across-
// partitions.md, 6,000 RU/s over 3 partitions set to 2,000 / 4,000 /
// 1,000 make 7,000; a target of 15,000 splits its partition in two.
func TestRedistributeDocsExample(t *testing.T) {
	c := Container{Partitions: 3, RU: 6000}
	p, err := Redistribute(c, []Demand{{ID: "0", ConsumedRU: 2000}, {ID: "1", ConsumedRU: 3000, Throttled: 20, AvgCharge: 50}, {ID: "2", ConsumedRU: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	want := shape{7000, [][3]float64{{33, 2000, 0}, {33, 4000, 0}, {33, 1000, 0}}}
	if got := shapeOf(*p.Steps[0].After); !same(got, want) {
		t.Errorf("%+v, want %+v", got, want)
	}
	if cmd := p.Steps[0].Commands[1]; !strings.Contains(cmd, "--target-partition-info '0=2000 1=4000 2=1000'") {
		t.Errorf("command: %s", cmd)
	}
	p, _ = Redistribute(Container{Partitions: 1, RU: 5000}, []Demand{{ID: "0", ConsumedRU: 15000}})
	if got := shapeOf(*p.Steps[0].After); !same(got, shape{15000, [][3]float64{{50, 7500, 0}, {50, 7500, 0}}}) {
		t.Errorf("15,000: %+v", got)
	}
	for _, d := range [][]Demand{nil, {{ID: "9"}}, {{ID: "0"}, {ID: "0"}}} {
		if _, err := Redistribute(c, d); err == nil {
			t.Errorf("%v: no error", d)
		}
	}
}

// TestBurstDocsExample: burst-capacity.md, a 100 RU/s partition idle for
// 5 minutes banks 30,000 RU and bursts at 3,000 RU/s for 10 seconds.
func TestBurstDocsExample(t *testing.T) {
	p, err := Burst(Container{Partitions: 1, RU: 100}, Spike{RU: 3000, Seconds: 10})
	if err != nil {
		t.Fatal(err)
	}
	fig := map[string]float64{}
	for _, f := range p.Figures {
		fig[f.Name] = f.Value
	}
	if fig["burst bank"] != 30000 || fig["seconds of burst"] != 10 || fig["RU throttled"] != 0 {
		t.Errorf("figures %v", fig)
	}
	p, _ = Burst(Container{Partitions: 1, RU: 100}, Spike{RU: 3000, Seconds: 20})
	if !strings.Contains(p.Summary, "absorbs 10.0 s of the 20 s spike; 29,000 RU") {
		t.Errorf("20 s: %s", p.Summary)
	}
	p, _ = Burst(Container{Partitions: 2, RU: 8000}, Spike{RU: 5000, Seconds: 1})
	if !strings.HasPrefix(p.Summary, "burst capacity does not apply") {
		t.Errorf("4,000 a partition: %s", p.Summary)
	}
}

// TestIngestDocsExample: scaling-provisioned-throughput-best-practices.md,
// 1 TB in 25 partitions created with 150,000 RU/s, 1 billion documents of
// 1 KB at 10 RU a write in about 11.1 hours at 250,000 RU/s.
func TestIngestDocsExample(t *testing.T) {
	spec, _ := key.Parse("/id")
	p, err := Ingest(Container{StorageGB: 1000, RU: 20000}, Load{Documents: 1e9, DocKB: 1, WriteRU: 10, Key: spec})
	if err != nil {
		t.Fatal(err)
	}
	fig := map[string]float64{}
	for _, f := range p.Figures {
		fig[f.Name] = f.Value
	}
	if fig["partitions"] != 25 || fig["RU/s at creation"] != 150000 || fig["RU/s for the load"] != 250000 || math.Abs(fig["hours to load"]-11.1) > 0.05 {
		t.Errorf("figures %v", fig)
	}
	if len(p.Steps) != 3 || !same(shapeOf(*p.Steps[1].After), even(25, 250000, 1000)) || p.Steps[2].After.RU != 20000 {
		t.Errorf("steps %+v", p.Steps)
	}
	if _, err := Ingest(Container{}, Load{Key: spec}); err == nil {
		t.Error("no storage: no error")
	}
}

// TestRanges: a real layout's ranges give the key space; a throughput
// fraction, when the feed has one, gives each range's RU/s.
func TestRanges(t *testing.T) {
	rs := epk.Ranges(epk.V2, 4)
	var ranges []Range
	for i, r := range rs {
		ranges = append(ranges, Range{ID: string(rune('0' + i)), Range: r})
	}
	l, err := start(Container{RU: 40000, StorageGB: 100, Ranges: ranges})
	if err != nil {
		t.Fatal(err)
	}
	if got := shapeOf(l); !same(got, even(4, 40000, 100)) {
		t.Errorf("%+v", got)
	}
}

func TestBadContainer(t *testing.T) {
	for _, c := range []Container{{RU: -1}, {Partitions: -2}, {StorageGB: math.NaN()}, {Partitions: MaxPartitions + 1}} {
		if _, err := Scale(c, 1000); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	if _, err := Scale(Container{Partitions: 1, RU: 400}, 450); err == nil || !strings.Contains(err.Error(), "steps of 100") {
		t.Errorf("450: %v", err)
	}
}

// TestScaleOnePartition: a container of one partition is not "all 1
// partitions".
func TestScaleOnePartition(t *testing.T) {
	p, err := Scale(Container{Partitions: 1, RU: 400}, 100000)
	if err != nil {
		t.Fatal(err)
	}
	if want := "set 160,000 so that the partition splits to 16 even ones"; !strings.Contains(p.Summary, want) {
		t.Errorf("summary %q lacks %q", p.Summary, want)
	}
}

// TestMigrateDestination: the new container is a bulk load's, created
// with the partitions its data needs (one per 40 GB) and RU/s enough to
// take the copy's writes, and lowered once the copy ends.
func TestMigrateDestination(t *testing.T) {
	spec, _ := key.Parse("/customerId")
	for _, tt := range []struct {
		ru         int
		partitions string // in the first step's action
	}{
		{20000, "with 78,000 RU/s: it starts with 13 partitions"}, // 500 GB: 13 partitions x 6,000
		{100000, "with 100,000 RU/s: it starts with 17 partitions"},
	} {
		p, err := Migrate(Container{RU: tt.ru, StorageGB: 500}, Load{Key: spec})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(p.Steps[0].Action, tt.partitions) {
			t.Errorf("--ru %d: first step %q lacks %q", tt.ru, p.Steps[0].Action, tt.partitions)
		}
		lowered := slices.ContainsFunc(p.Steps, func(s Step) bool { return strings.HasPrefix(s.Action, "once the copy finishes, lower") })
		if lowered != (tt.ru == 20000) {
			t.Errorf("--ru %d: a step lowers the RU/s: %v", tt.ru, lowered)
		}
	}
}
