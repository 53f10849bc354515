package partition

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
)

// MonotonicThreshold is the correlation from which a key counts as
// monotonic, as MongoDB's analyzeShardKey judges it.
const MonotonicThreshold = 0.7

// Monotonicity says whether a key grows (or shrinks) with the order of
// writes, which sends every new write to the same end of the key space.
// The documents' time is the order of writes; without one, the order of
// the input is all there is, though an export sorted by id is not the
// order in which the items were written.
type Monotonicity struct {
	Samples   int
	Order     float64 // Spearman correlation of key values with input order
	Time      float64 // with the time field; NaN when there is none
	By        string  // ByTime when Time is measured, else ByOrder: what Monotonic judges
	Monotonic bool    // |Time| (by time) or |Order| (by order) reaches MonotonicThreshold
}

// What a key's monotonicity is judged by (Monotonicity.By).
const (
	ByTime  = "time"  // the time field, in at least 3 sampled documents
	ByOrder = "order" // the order of the documents in the input
)

// Monotonicity measures the key on the reservoir sample.
func (d *Distribution) Monotonicity() Monotonicity {
	m := Monotonicity{Samples: len(d.Samples), Time: math.NaN(), By: ByOrder}
	if len(d.Samples) < 3 {
		return m
	}
	samples := d.Samples
	keyRank := d.sort.ranks(len(samples), func(i int, k *sortKey) { valueKey(samples[i].Values, k) }, func(i, j int) int { return Compare(samples[i].Values, samples[j].Values) })
	orderRank := make([]float64, len(samples))
	for i := range orderRank {
		orderRank[i] = float64(i) // samples are in input order
	}
	m.Order = pearson(keyRank, orderRank)

	kr, times := make([]float64, 0, len(samples)), make([]float64, 0, len(samples))
	for i, s := range samples {
		if !math.IsNaN(s.Time) {
			times = append(times, s.Time)
			kr = append(kr, keyRank[i])
		}
	}
	r := m.Order
	if len(times) >= 3 {
		tr := d.sort.ranks(len(times), func(i int, k *sortKey) { k[0] = ascending(times[i]) }, nil)
		m.Time = pearson(kr, tr)
		r, m.By = m.Time, ByTime
	}
	m.Monotonic = math.Abs(r) >= MonotonicThreshold
	return m
}

// ranks gives each of n items its rank in the order of key, then compare
// (see order), ties under both sharing the average of their ranks, as
// Spearman's coefficient needs. A nil compare means equal keys tie.
func (s *sorter) ranks(n int, key func(i int, k *sortKey), compare func(i, j int) int) []float64 {
	// same tells whether the items at two places of the order tie. Keys
	// agree with compare, so items whose keys differ do not tie, and compare
	// is called only for equal keys.
	idx, es := s.orderKeys(n, key, compare)
	same := func(x, y int) bool {
		return es[x].k == es[y].k && (compare == nil || compare(int(idx[x]), int(idx[y])) == 0)
	}
	r := make([]float64, n)
	for i := 0; i < n; {
		j := i + 1
		for j < n && same(i, j) {
			j++
		}
		avg := float64(i+j-1) / 2
		for k := i; k < j; k++ {
			r[idx[k]] = avg
		}
		i = j
	}
	return r
}

func pearson(x, y []float64) float64 {
	n := float64(len(x))
	var sx, sy float64
	for i := range x {
		sx += x[i]
		sy += y[i]
	}
	mx, my := sx/n, sy/n
	var cov, vx, vy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		cov += dx * dy
		vx += dx * dx
		vy += dy * dy
	}
	if vx == 0 || vy == 0 {
		return 0
	}
	return cov / math.Sqrt(vx*vy)
}

// Spread is how writes spread over keys and physical partitions through
// time: a key whose writes at any moment all go to one partition (a date, a
// sequence number) turns that partition hot however even it is in total.
type Spread struct {
	Unit    key.Bucket // width of a time bucket: hour, day or month
	Buckets []TimeBucket
	// HottestShare is the median, over buckets, of the share of a bucket's
	// writes that its busiest physical partition takes: 1/partitions is
	// perfect, 1 means every write of the moment lands on one partition.
	HottestShare float64
	KeysMedian   float64 // median distinct key values written per bucket
	// SamplesMedian is the median sampled writes per bucket: no bucket can
	// show more distinct values than it has writes, nor spread fewer
	// writes than partitions evenly, so the two figures above are judged
	// against it.
	SamplesMedian float64
	// HottestKeyShare is the median, over buckets, of the share of a
	// bucket's writes that its busiest key value takes.
	HottestKeyShare float64
	// Moment is the share of a bucket's writes each physical partition
	// takes in the bucket whose busiest partition's share is the median:
	// how a moment's writes spread.
	Moment    []float64
	Estimated bool // measured on a sample of the documents
}

// TimeBucket is the writes of one time bucket.
type TimeBucket struct {
	Start  time.Time
	Writes float64 // documents written, scaled up from the sample
	Keys   int     // distinct key values among the sampled writes
	// Cells are the writes per physical partition, of those written to
	// alone, in order of partition: a bucket holds at most the samples'
	// writes, so a layout of 65,536 partitions takes no dense row per
	// bucket (it took 8 bytes per partition and bucket, 10 MB a key).
	Cells  []Cell
	topKey float64 // writes of its busiest key value
}

// Cell is the writes of a time bucket to one physical partition.
type Cell struct {
	Partition int
	Writes    float64
}

// Hottest is the most writes one partition takes in the bucket.
func (b *TimeBucket) Hottest() float64 {
	h := 0.0
	for _, c := range b.Cells {
		h = max(h, c.Writes)
	}
	return h
}

// WriteSpread measures writes per time bucket on the reservoir sample,
// placing each on ranges. It returns nil when no sampled document has a time.
func (d *Distribution) WriteSpread(ranges []epk.Range) *Spread { return d.writeSpread(ranges, false) }

// TargetWriteSpread is WriteSpread at the target. A key whose values keep
// coming, its first level too (new rooms, new tenants), writes at any
// moment under values the sample has not met, spread over the key space
// as the target's many values are: each sampled write stands for one of
// them, placed anywhere (scatterHead), not on the sample's value. (A
// sample of one tenant put every write of a moment on that tenant's
// partition.) A time bucket's writes of a moment stay on the bucket's
// values: the moment is what they share.
func (d *Distribution) TargetWriteSpread(ranges []epk.Range) *Spread {
	return d.writeSpread(ranges, d.newValues == byNewFirst && d.Spec.TimeBucket() == "" && !d.KeyIsTime())
}

// scatterHead is where a sampled write that stands for a value to come
// lands: the first 64 bits of an EPK, from its value's hash and its place
// in the input, as evenly over the key space as a hash's (splitmix64).
func scatterHead(h uint64, order int64) uint64 {
	x := h ^ uint64(order)*0x9E3779B97F4A7C15
	x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
	x = (x ^ x>>27) * 0x94D049BB133111EB
	x ^= x >> 31
	return x &^ (0xC0 << 56) // an EPK's first byte is at most 3F
}

func (d *Distribution) writeSpread(ranges []epk.Range, scatter bool) *Spread {
	timed := 0
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range d.Samples {
		if !math.IsNaN(s.Time) {
			timed++
			lo, hi = min(lo, s.Time), max(hi, s.Time)
		}
	}
	if timed < 2 || len(ranges) == 0 {
		return nil
	}
	sp := &Spread{Unit: key.Month, Estimated: len(d.Samples) < int(d.Documents)}
	switch span := hi - lo; {
	case span <= 3*86400:
		sp.Unit = key.Hour
	case span <= 180*86400:
		sp.Unit = key.Day
	}
	// Each timed sample's bucket and key value; then, in the order of the
	// key values, each value's EPK is computed once and each (value, bucket)
	// pair counted once.
	scale := float64(d.Documents-d.Invalid) / float64(len(d.Samples))
	byStart := map[int64]int{}
	type write struct {
		bucket int
		h      uint64
		order  int64
		values []epk.Value
	}
	writes := make([]write, 0, timed)
	last, bi := int64(0), -1 // the last sample's bucket: samples come in input order, mostly in time
	for _, s := range d.Samples {
		if math.IsNaN(s.Time) {
			continue
		}
		if start := bucketStart(s.Time, sp.Unit); bi < 0 || start != last {
			var ok bool
			if bi, ok = byStart[start]; !ok {
				bi = len(sp.Buckets)
				byStart[start] = bi
				sp.Buckets = append(sp.Buckets, TimeBucket{Start: time.Unix(start, 0).UTC()})
			}
			last = start
		}
		sp.Buckets[bi].Writes += scale
		writes = append(writes, write{bi, s.hash, s.Order, s.Values})
	}
	byValue := d.sort.order(len(writes), func(i int, k *sortKey) { k[0], k[1] = writes[i].h, uint64(writes[i].bucket) }, nil)
	p := -1
	var run float64 // writes of the current (value, bucket)
	// Each placed write's bucket and partition, made cells below.
	placed := make([]placedWrite, 0, len(writes))
	for k, i := range byValue {
		w := &writes[i]
		first := k == 0 || writes[byValue[k-1]].h != w.h
		switch {
		case scatter:
			head := scatterHead(w.h, w.order)
			var ok bool
			if p, ok = epk.LocateHead(ranges, head); !ok {
				p = epk.Locate(ranges, fmt.Sprintf("%016X", head))
			}
		case first:
			p = d.locate(ranges, w.values)
		}
		b := &sp.Buckets[w.bucket]
		if p >= 0 {
			placed = append(placed, placedWrite{int32(w.bucket), int32(p)})
		}
		if first || writes[byValue[k-1]].bucket != w.bucket {
			b.Keys++
			run = 0
		}
		run += scale
		b.topKey = max(b.topKey, run)
	}
	// Every write adds the same scale, so a cell's sum is the same in any
	// order of its writes, as it was added up in a dense row.
	slices.SortFunc(placed, func(x, y placedWrite) int {
		return cmp.Or(cmp.Compare(x.bucket, y.bucket), cmp.Compare(x.partition, y.partition))
	})
	for k, w := range placed {
		b := &sp.Buckets[w.bucket]
		if k == 0 || placed[k-1] != w {
			b.Cells = append(b.Cells, Cell{Partition: int(w.partition)})
		}
		b.Cells[len(b.Cells)-1].Writes += scale
	}
	shares := make([]float64, 0, len(sp.Buckets))
	counts := make([]float64, 0, len(sp.Buckets))
	sampled := make([]float64, 0, len(sp.Buckets))
	tops := make([]float64, 0, len(sp.Buckets))
	for i := range sp.Buckets {
		b := &sp.Buckets[i]
		shares = append(shares, b.Hottest()/b.Writes)
		counts = append(counts, float64(b.Keys))
		sampled = append(sampled, math.Round(b.Writes/scale))
		tops = append(tops, b.topKey/b.Writes)
	}
	slices.SortFunc(sp.Buckets, func(x, y TimeBucket) int { return x.Start.Compare(y.Start) })
	sp.HottestShare = median(shares)
	sp.HottestKeyShare = median(tops)
	// The moment: the bucket nearest the median busiest share, the
	// earliest of those as near.
	at, gap := -1, math.Inf(1)
	for i := range sp.Buckets {
		b := &sp.Buckets[i]
		if g := math.Abs(b.Hottest()/b.Writes - sp.HottestShare); g < gap {
			at, gap = i, g
		}
	}
	if at >= 0 {
		b := &sp.Buckets[at]
		sp.Moment = make([]float64, len(ranges))
		for _, c := range b.Cells {
			sp.Moment[c.Partition] = c.Writes / b.Writes
		}
	}
	sp.KeysMedian = median(counts)
	sp.SamplesMedian = median(sampled)
	return sp
}

// placedWrite is a sampled write's time bucket and physical partition.
type placedWrite struct{ bucket, partition int32 }

// bucketStart is the second since 1970 at which the bucket of unit u that
// holds t (seconds since 1970) starts. Hours and days are whole numbers of
// seconds since 1970 in UTC, which has no daylight saving and Unix time no
// leap seconds, so they are found by division; months by the calendar.
func bucketStart(t float64, u key.Bucket) int64 {
	ns := int64(t * 1e9)
	switch u {
	case key.Hour:
		return floorDiv(ns, int64(time.Hour)) * 3600
	case key.Day:
		return floorDiv(ns, 24*int64(time.Hour)) * 86400
	}
	return u.Start(time.Unix(0, ns).UTC()).Unix()
}

// floorDiv is a/b rounded down, for b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b < 0 {
		q--
	}
	return q
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// locate places a key value on ranges. A V2 or hierarchical EPK is placed
// by its first 16 digits alone unless a boundary shares them: the whole
// EPK, as text, cost twice as much per sampled value.
func (d *Distribution) locate(ranges []epk.Range, vals []epk.Value) int {
	if len(vals) > 0 && (d.Version == epk.V2 || d.Spec.Kind == key.MultiHash) {
		levels := vals
		if d.Spec.Kind == key.MultiHash {
			levels = vals[:1] // its EPK starts with the first level's hash
		}
		if i, ok := epk.LocateHead(ranges, epk.HeadV2(levels...)); ok {
			return i
		}
	}
	return epk.Locate(ranges, d.hash(vals))
}

// hash is the EPK of a key value under the distribution's scheme.
func (d *Distribution) hash(vals []epk.Value) string { return EPK(d.Spec.Kind, d.Version, vals) }
