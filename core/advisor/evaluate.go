// Package advisor turns a key's measured distribution into a judgement: it
// lays the key out on the physical partitions the container would have on
// its first day and at the target scale, puts the workload on them at the
// request-unit charges package capacity models, works out the throughput
// to provision, scores the key from 0 to 100 with a visible breakdown and a
// grade, and writes findings and recommendations in plain language. It
// also proposes the candidate keys worth measuring, and ranks the keys it
// judged.
//
// The data path of one key: Evaluate (this file) lays the key out and
// places the data; load.go puts the workload on a layout; provision.go
// finds the least throughput at which no partition throttles; dayone.go
// places the first day's writes; rules.go scores, one rule per concern, in
// the rules_*.go files; rank.go orders the keys.
//
// It knows Cosmos DB's rules through packages capacity and epk, and the
// data only through package partition's summaries; it reads no documents.
package advisor

import (
	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/partition"
	"github.com/pkcalc/pkcalc/core/query"
)

// Settings describe the container and its future.
type Settings struct {
	Throughput  capacity.Throughput // RU 0: the least the service allows for the data
	Partitions  int                 // physical partitions to start from; 0: from the throughput
	TargetBytes int64               // expected total size; 0 with TargetDocs 0: the sample's
	TargetDocs  int64               // expected total documents
	Workload    Workload
	Operations  []Operation   // the application's queries and operations, if given
	Item        capacity.Item // the items' average size and indexed values, for their charges
}

// Workload is the application's request rate.
type Workload struct {
	Reads, Writes, Queries float64 // operations per second
	// Measured are charges the user measured: a field above 0 replaces
	// the model's figure for every operation of its kind.
	Measured capacity.Costs
	Traffic  partition.Traffic // how requests spread over key values
	// Operations is the text of a workload file (queries with weights, or
	// JSON operations; see query.ReadWorkload), read by report.
	Operations string
}

// Active reports whether any request rate was given.
func (w Workload) Active() bool { return w.Reads+w.Writes+w.Queries > 0 }

// Operation is one operation of the workload with what it reads whatever
// the key.
type Operation struct {
	query.Op
	Shape query.Shape // for a query
	// Matches is how many items one execution's filters match at the
	// target, whatever the key (partition.Distribution.Matches over the
	// paths its filters pin, times the values an IN names): what it loads
	// before TOP or LIMIT cut it. For a point read or delete, 1.
	Matches float64
}

// Evaluation is one key's judgement.
type Evaluation struct {
	Dist         *partition.Distribution
	Throughput   capacity.Throughput // as used: the given one or the minimum
	Physical     []partition.Physical
	Projection   partition.Projection
	Monotonicity partition.Monotonicity
	Spread       *partition.Spread
	Load         Load
	Provision    Provision
	DayOne       DayOne
	HottestShare float64 // the largest share of requests one logical partition takes
	Queries      Queries
	Score        int
	Uncapped     int // the score before its findings cap it: orders keys capped alike
	Grade        string
	Breakdown    []Component
	Findings     []Finding
	IsID         bool // the key is the item id alone

	settings   Settings
	costs      capacity.Costs
	partitions int // len(Physical), kept by Release
}

// Release lets go of what e holds per physical partition (its placement,
// projection, load, first day and moment of writes), once its rows have
// been read: ranking and advice need only its figures. A container of
// 65,536 partitions held some 30 MB a key.
func (e *Evaluation) Release() {
	e.partitions = len(e.Physical)
	e.Physical, e.Projection.Physical = nil, nil
	e.Load.Shares, e.Load.DemandRU = nil, nil
	e.DayOne.Physical, e.DayOne.Writes = nil, nil
	if e.Spread != nil {
		e.Spread.Moment, e.Spread.Buckets = nil, nil
	}
}

// physicalCount is how many physical partitions e has at the target,
// after Release too.
func (e *Evaluation) physicalCount() int {
	if e.Physical == nil {
		return e.partitions
	}
	return len(e.Physical)
}

// Evaluate judges one key.
func Evaluate(d *partition.Distribution, s Settings) *Evaluation {
	e := &Evaluation{Dist: d, settings: s}
	e.IsID = d.Spec.Kind == key.Hash && len(d.Spec.Paths) == 1 && len(d.Spec.Paths[0]) == 1 && d.Spec.Paths[0][0] == "id"
	e.Throughput = e.throughput()
	e.Projection = e.project(e.startPartitions())
	ranges := e.Projection.Ranges()
	e.Physical = d.Place(ranges)
	e.Monotonicity = d.Monotonicity()
	e.Spread = d.TargetWriteSpread(ranges)
	e.costs = costsOf(s)
	e.Queries = route(s.Operations, d.Spec, s.Workload.Queries)
	// The layout of the target, on the placement and spread just measured.
	lay := e.layout(ranges, e.Projection, e.Physical, e.Spread)
	e.HottestShare = lay.hottest
	e.Load = e.load(lay)
	if e.Load.Active {
		e.Provision = e.provision()
	}
	e.DayOne = e.dayOne()
	e.score()
	return e
}

// factor is the target's size over the sample's, at least 1.
func (e *Evaluation) factor() float64 {
	d, s := e.Dist, e.settings
	f := 1.0
	switch {
	case s.TargetBytes > 0 && d.Bytes > 0:
		f = float64(s.TargetBytes) / float64(d.Bytes)
	case s.TargetDocs > 0 && d.Documents > 0:
		f = float64(s.TargetDocs) / float64(d.Documents)
	}
	return max(f, 1)
}

// storage is the bytes the container holds at the target: the target
// given, or the sample grown to its documents.
func (e *Evaluation) storage() int64 {
	if t := e.settings.TargetBytes; t > e.Dist.Bytes {
		return t
	}
	return int64(float64(e.Dist.Bytes) * e.factor())
}

// throughput is the throughput the figures use. The service requires
// throughput for the storage it holds (MinRU): a setting below that at the
// target could not exist there, so the least allowed is used instead, as
// for no setting (the report warns).
func (e *Evaluation) throughput() capacity.Throughput {
	t := e.settings.Throughput
	t.RU = max(t.RU, capacity.MinRU(t.Autoscale, e.storage(), 0))
	return t
}

// startPartitions is the physical partitions the container starts with:
// as given, or as its throughput makes them, and never fewer than the
// RU/s need.
func (e *Evaluation) startPartitions() int {
	n := e.settings.Partitions
	if n <= 0 {
		n = capacity.InitialPartitions(e.Throughput)
	}
	return max(n, capacity.MinPartitions(e.Throughput.RU))
}

// version is the hash the key's values are placed by: hierarchical keys
// always use MultiHash, which is version 2.
func (e *Evaluation) version() epk.Version {
	if e.Dist.Spec.Kind == key.MultiHash {
		return epk.V2
	}
	return e.Dist.Version
}

// project grows the key to the target from a container that starts with
// n evenly split partitions, splitting them as storage requires.
func (e *Evaluation) project(n int) partition.Projection {
	return e.Dist.Project(e.factor(), epk.Ranges(e.version(), n), capacity.LogicalPartitionMaxBytes,
		int64(capacity.AlertFraction*float64(capacity.LogicalPartitionMaxBytes)), capacity.PhysicalPartitionMaxBytes)
}

// costsOf is the charges of the settings' items, with the measured ones
// in their place.
func costsOf(s Settings) capacity.Costs {
	c := capacity.DefaultCosts(s.Item)
	m := s.Workload.Measured
	if m.PointRead > 0 {
		c.PointRead = m.PointRead
	}
	if m.Write > 0 {
		c.Write = m.Write
	}
	if m.Query > 0 {
		// A measured query holds its items: none are added.
		c.Query, c.Item = m.Query, 0
	}
	return c
}
