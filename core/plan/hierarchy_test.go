package plan

import (
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/partition"
)

// tenants is the distribution of keyText over orders of 5 tenants of 200
// users each, alike: the FAQ's example of a first level of 5 values.
func tenants(t *testing.T, keyText string) *Documents {
	t.Helper()
	var b strings.Builder
	for u := range 200 {
		for _, tn := range []string{"contoso", "fabrikam", "northwind", "tailspin", "wingtip"} {
			fmt.Fprintf(&b, `{"id":"%s-%d","tenantId":%q,"userId":"u%03d","total":12.5}`+"\n", tn, u, tn, u)
		}
	}
	spec, err := key.Parse(keyText)
	if err != nil {
		t.Fatal(err)
	}
	acc := partition.New(spec, partition.Options{})
	r := ingest.NewReader(strings.NewReader(b.String()))
	for {
		d, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		acc.Add(d)
	}
	return documentsOf(acc.Finish())
}

// documentsOf is d as Hierarchy takes it, as cmd/pkcalc gives it.
func documentsOf(d *partition.Distribution) *Documents {
	alert := int64(capacity.AlertFraction * float64(capacity.LogicalPartitionMaxBytes))
	return &Documents{Spec: d.Spec, Documents: d.Documents, Bytes: d.Bytes,
		Project: func(factor float64, ranges []epk.Range, maxPhysical int64) []Placed {
			var out []Placed
			for _, ph := range d.Project(factor, ranges, capacity.LogicalPartitionMaxBytes, alert, maxPhysical).Physical {
				out = append(out, Placed{ph.MinInclusive, ph.MaxExclusive, ph.Documents, ph.Bytes, ph.Requests})
			}
			return out
		}}
}

// busiest is the fullest partition's share of l's data times the
// partitions: 1 is even.
func busiest(l Layout) float64 {
	return fillOf(l).over()
}

// TestHierarchy: on a first level of 5 values the FAQ's approach 1
// (hierarchical-partition-keys-faq: one partition, about 5 GB, then scale
// up) leaves each partition near 1/P of the data, where the container
// created at the RU/s with its even splits leaves the 5 tenants in 5 of
// its 9 partitions; approach 2's merge leaves none empty.
func TestHierarchy(t *testing.T) {
	d := tenants(t, "/tenantId,/userId")
	p, err := Hierarchy(Container{RU: 50000, StorageGB: 200}, d, BothApproaches)
	if err != nil {
		t.Fatal(err)
	}
	var last1 *Layout
	for _, s := range p.Steps {
		if strings.HasPrefix(s.Action, "approach 1") && s.After != nil {
			last1 = s.After
		}
	}
	if last1 == nil || len(last1.Partitions) != 8 {
		t.Fatalf("approach 1 ends with %v, want the 8 partitions 80,000 RU/s split one into", last1)
	}
	for _, q := range last1.Partitions {
		if share := q.StorageGB / last1.StorageGB; math.Abs(share-1.0/8) > 0.01 {
			t.Errorf("approach 1: partition %s holds %.3f of the data, want about 1/8", q.ID, share)
		}
	}
	if math.Abs(last1.StorageGB-200) > 0.5 {
		t.Errorf("approach 1 holds %.1f GB, want 200", last1.StorageGB)
	}
	direct := fillOf(*p.Direct)
	if direct.partitions != 9 || direct.empty != 4 || direct.over() < 1.5 {
		t.Errorf("created at 50,000 RU/s: %+v, want 9 partitions, 4 empty, the busiest 1.8 times even", direct)
	}
	if !strings.Contains(p.Summary, "approach 1 is the more even") {
		t.Errorf("summary %q", p.Summary)
	}

	// At 50 GB the 9 partitions average 5.6 GB: a merge candidate once
	// lowered under 3,000 RU/s each.
	p, err = Hierarchy(Container{RU: 50000, StorageGB: 50}, d, MergeApproach)
	if err != nil {
		t.Fatal(err)
	}
	merged := false
	for _, s := range p.Steps {
		if s.Rule.Name == "hierarchy-merge" && strings.Contains(s.Action, "merge the partitions") {
			merged = true
			for _, q := range s.After.Partitions {
				if q.StorageGB == 0 {
					t.Errorf("the merge leaves partition %s empty: %+v", q.ID, s.After)
				}
			}
		}
		if !strings.HasPrefix(s.Action, "approach 2") {
			t.Errorf("--approach 2 shows %q", s.Action)
		}
	}
	if !merged {
		t.Fatalf("no merge step: %+v", p.Steps)
	}
	end := p.Steps[len(p.Steps)-1].After
	if got := busiest(*end); len(end.Partitions) != 5 || got > 1.05 {
		t.Errorf("approach 2 ends with %d partitions, the busiest %.2f times even; want 5, even", len(end.Partitions), got)
	}
}

func TestHierarchyErrors(t *testing.T) {
	hpk := tenants(t, "/tenantId,/userId")
	for _, c := range []struct {
		c    Container
		d    *Documents
		want string
	}{
		{Container{RU: 50000}, tenants(t, "/tenantId"), "is not hierarchical"},
		{Container{RU: 50000}, nil, "no documents"},
		{Container{RU: 50000}, &Documents{Spec: hpk.Spec}, "no documents"},
		{Container{}, hpk, "give the RU/s"},
		{Container{RU: -1}, hpk, "--ru is -1"},
		{Container{RU: 1050}, hpk, "steps of 100"},
		{Container{RU: 50000, Partitions: 3}, hpk, "not --ranges or --partitions"},
	} {
		if _, err := Hierarchy(c.c, c.d, BothApproaches); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.c, err, c.want)
		}
	}
}
