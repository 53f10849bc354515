package advisor

import (
	"cmp"
	"math"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/partition"
)

// Provision is the throughput to give the container under the key: what
// the workload needs, and the least RU/s at which no physical partition
// throttles.
type Provision struct {
	// LeastRU is the least throughput (manual RU/s, or the autoscale
	// maximum) at which no physical partition throttles, in the service's
	// steps; 0 when none can: a logical partition alone needs more than
	// the 10,000 RU/s one key value can get. Partitions is how many
	// physical partitions the container has then.
	LeastRU    int
	Partitions int
	// ByData: the least needs the partitions split where the data is (a
	// container created with less, loaded, then scaled up: Microsoft's
	// advice for a hierarchical key whose first level has few values),
	// not the evenly split partitions a container created with it starts
	// with.
	ByData bool
	// CreateRU is, when a container created at LeastRU would start with
	// more partitions than the layout it is judged on, or must be loaded
	// before it splits (ByData), the most to create it with
	// (capacity.CreateRU) before raising it to LeastRU; 0 when it can be
	// created at LeastRU.
	CreateRU int
	// FirstDay: LeastRU serves the workload's writes on the container's
	// first day too, before any split (see firstDay).
	FirstDay bool
}

// provisionTries is how many layouts past the first that needs no more
// than a partition has are tried: more partitions can still spread a hot
// one, but cost fan-out queries more each.
const provisionTries = 3

// provision finds the least throughput at which no partition throttles.
//
// A container created with more RU/s starts with more partitions
// (capacity.InitialPartitions), over which its key's requests spread
// differently and whose fan-out queries check more indexes. So each layout
// is tried: a container that starts with 1, 2, 4, ... evenly split
// partitions, split further as its storage at the target requires. On
// each, the busiest partition's demand times the partitions is the RU/s
// it needs, valid when the busiest needs no more than one partition can
// have (10,000 RU/s: past it, more RU/s split the container into the next
// layout). Each layout split where the data is is tried too, as a
// container loaded before it is scaled up has (see below). The least over
// the layouts wins, at the storage floor (capacity.MinRU) at least. Given
// partitions are the one layout tried.
func (e *Evaluation) provision() Provision {
	var p Provision
	if !(e.Load.HottestLogiRU <= capacity.PartitionMaxRU) { // NaN too: no figure to provision by
		return p // no layout splits one key value
	}
	t := e.Throughput
	floor := float64(capacity.MinRU(t.Autoscale, e.storage(), 0))
	step := float64(capacity.RUStep(t.Autoscale))
	try := func(proj partition.Projection, start int, byData bool) bool {
		need, n, ok := e.needOn(proj)
		if !ok {
			return false
		}
		ru := int(math.Ceil(max(need, floor)/step) * step)
		if p.LeastRU == 0 || ru < p.LeastRU {
			p.LeastRU, p.Partitions, p.ByData, p.CreateRU = ru, n, byData, 0
			if create := capacity.CreateRU(start, t.Autoscale); ru > create || byData {
				p.CreateRU = create
			}
		}
		return true
	}
	if e.settings.Partitions > 0 {
		try(e.Projection, e.settings.Partitions, false)
		p.CreateRU = 0 // the partitions are given: nothing to create them by
		return p
	}
	tries, last := 0, -1
	for n := 1; n <= capacity.MaxPartitions && tries < provisionTries; n *= 2 {
		proj := e.project(n)
		if len(proj.Physical) == last {
			continue // storage splits a smaller start into the same layout
		}
		last = len(proj.Physical)
		if try(proj, n, false) || tries > 0 {
			tries++
		}
	}
	// A container created with less and loaded first splits where its data
	// is when its RU/s are raised: "create with less than 10,000 RU/s,
	// ingest, then scale up so the partitions split uniformly", for a
	// hierarchical key whose first level has too few values
	// (hierarchical-partition-keys-faq), whose documents sit in a few
	// narrow ranges of the key space that even splits never cut. Its
	// layouts are the storage splits' at ever smaller partitions, halving
	// the fullest by its data. (A hash key's values are spread over the
	// key space: the even splits serve it, and splits by the sample's few
	// documents would only fit their chance.)
	tries, last = 0, -1
	for k := 0; k <= maxDataSplits && tries < provisionTries && e.Dist.Spec.Kind == key.MultiHash; k++ {
		// A tenth over the even share, so that halves a little off even do
		// not split again.
		limit := int64(1.1 * float64(e.storage()) / float64(int64(1)<<k))
		if limit <= 0 {
			break
		}
		proj := e.Dist.Project(e.factor(), epk.Ranges(e.version(), 1), capacity.LogicalPartitionMaxBytes,
			int64(capacity.AlertFraction*float64(capacity.LogicalPartitionMaxBytes)), min(capacity.PhysicalPartitionMaxBytes, limit))
		if len(proj.Physical) == last || len(proj.Physical) > capacity.MaxPartitions {
			continue
		}
		last = len(proj.Physical)
		if try(proj, 1, true) || tries > 0 {
			tries++
		}
	}
	e.firstDay(&p)
	return p
}

// firstDay raises p so that the container's first day does not throttle
// either. Before any split the container has the partitions it was
// created with, fewer than at the target, and the writes of a moment
// crowd them as DAY_ONE says: a layout at the target that serves the
// workload said nothing of them. Each first-day partition gets LeastRU
// over their number, up to 10,000 RU/s; past that the writes of a moment
// need more partitions than the first day has, which p does not promise
// (DAY_ONE says so). A container loaded before it is raised (ByData)
// takes its first writes as a load, not as the workload.
func (e *Evaluation) firstDay(p *Provision) {
	if p.LeastRU == 0 || p.ByData || !(e.Load.WriteRU > 0) {
		return
	}
	auto := e.Throughput.Autoscale
	n := e.settings.Partitions
	if n <= 0 {
		n = capacity.InitialPartitions(capacity.Throughput{RU: cmp.Or(p.CreateRU, p.LeastRU), Autoscale: auto})
	}
	n = max(n, capacity.MinPartitions(p.LeastRU))
	busiest := e.dayOneOn(n, capacity.PartitionMaxRU).WriteRU
	if !(busiest <= capacity.PartitionMaxRU) {
		return
	}
	need := busiest * float64(n)
	if need <= float64(p.LeastRU) {
		p.FirstDay = true
		return
	}
	// Started with n partitions, the container grows into their layout at
	// the target, which must not throttle either.
	target, partitions, ok := e.needOn(e.project(n))
	if !ok {
		return
	}
	step := float64(capacity.RUStep(auto))
	p.LeastRU = int(math.Ceil(max(need, target)/step) * step)
	p.Partitions, p.FirstDay = partitions, true
	if e.settings.Partitions <= 0 && capacity.InitialPartitions(capacity.Throughput{RU: p.LeastRU, Autoscale: auto}) > n {
		p.CreateRU = capacity.CreateRU(n, auto) // created with more, it would start with partitions the layout lacks
	}
}

// needOn is the RU/s at which no partition of a layout throttles: its
// busiest partition's demand times its partitions, and how many it has;
// ok is false when the busiest needs more than one partition can have
// (past it, more RU/s split the container into another layout).
func (e *Evaluation) needOn(proj partition.Projection) (ru float64, partitions int, ok bool) {
	l := e.load(e.layoutOf(proj))
	busiest := 0.0
	for _, d := range l.DemandRU {
		busiest = max(busiest, d)
	}
	if !(busiest <= capacity.PartitionMaxRU) { // NaN too: int(NaN) was the least int, -9,223,372,036,854,775,808 RU/s
		return 0, len(l.DemandRU), false
	}
	return float64(len(l.DemandRU)) * busiest, len(l.DemandRU), true
}

// maxDataSplits bounds the layouts split by the data that provision tries:
// partitions of a 1,024th of the data, at the most.
const maxDataSplits = 10
