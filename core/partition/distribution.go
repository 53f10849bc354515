package partition

import (
	"cmp"
	"iter"
	"math"
	"slices"
	"strings"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
)

// Logical is one logical partition: the documents that share a key value.
type Logical struct {
	Values      []epk.Value // one per level
	EPK         string      // effective partition key, upper-case hex
	Documents   int64
	Bytes       int64
	Requests    float64 // request weight: from aggregates or the weight field; 0 if none was given
	First, Last int64   // positions of its first and last document in the input
}

// Collision is a set of distinct key values that share one EPK because hash
// V1 reads only the first 100 characters of a string.
type Collision struct {
	EPK    string
	Values [][]epk.Value
}

// Distribution is what an Accumulator found. Its methods are for one
// goroutine at a time: they share scratch and keep the orders they sort.
type Distribution struct {
	Spec      key.Spec
	Version   epk.Version
	Documents int64 // every document counted, with or without a key value
	Bytes     int64
	Missing   int64    // documents with an undefined key value (a missing path)
	Invalid   int64    // documents whose key path holds an object or array: Cosmos DB rejects them
	Weighted  bool     // Requests holds request weights
	timePath  []string // the time field the samples' times come from, nil if none
	newValues keyGrowth

	// NotTime is the documents with an undefined key value because the
	// path of a time-bucket term holds a value that is not a time: a
	// string that reads as none, a boolean, null; they are not in Missing.
	// NotTimeExample is the first such value, as JSON text (shortened past
	// 60 bytes).
	NotTime        int64
	NotTimeExample string

	// Logical holds every logical partition when Estimated is false, else the
	// first Options.MaxDistinct distinct values seen; sorted by EPK.
	Logical []Logical

	Estimated     bool    // more distinct values than kept exactly: Distinct is an estimate
	Distinct      int64   // logical partitions, exact or estimated
	DistinctError float64 // relative standard error of Distinct when Estimated
	Heavy         []Logical
	Overflow      Overflow

	KeyMaxBytes int   // longest key value, in UTF-8 bytes (8 per number)
	OverLimit   int64 // documents whose key value is over 2,048 bytes
	OverLimitV1 int64 // documents whose key value is over 101 bytes
	// ImpreciseNumbers counts documents whose key holds a number of 2^53
	// or more in magnitude, where a double (as Cosmos DB reads a key
	// number) no longer holds every integer: distinct large integers, such
	// as 64-bit ids, may have been read as one value.
	ImpreciseNumbers int64
	Collisions       []Collision

	// ValueHashes are the first HashedDocuments documents' key value
	// hashes, in the order they were counted: equal for documents in one
	// logical partition, and as different as 64-bit hashes are for
	// others; 0 for a document in none (an invalid value). Aggregate rows
	// are not documents and have none.
	ValueHashes []uint64

	// DuplicateIDs is the documents, among the first IDsChecked, whose id
	// and key value are those of an earlier document, which Cosmos DB
	// refuses. The caller that reads the ids sets both from ValueHashes;
	// zero when nobody did.
	DuplicateIDs, IDsChecked int64

	Samples []Sample // in input order

	bySize []int32 // Logical and Heavy, largest first (sizeOrder); sorted on first use
	sort   sorter  // for the figures' sorts, one after another
}

// Overflow is the mass of the key values past the exact limit, bucketed by
// EPK prefix so that it can still be placed on physical partitions.
type Overflow struct {
	Documents, Bytes int64
	Requests         float64
	Buckets          []Bucket // sorted by Prefix
}

// Bucket is the documents of overflow values whose EPK starts with Prefix.
type Bucket struct {
	Prefix           string
	Documents, Bytes int64
	Requests         float64
}

// Finish computes the EPK of every distinct value and returns the
// distribution. The Accumulator must not be used afterwards.
func (a *Accumulator) Finish() *Distribution {
	a.drain()
	a.cur = batch{}
	d := &Distribution{
		Spec:             a.spec,
		Version:          a.opts.Version,
		timePath:         a.opts.TimePath,
		newValues:        growthOf(a.spec, a.opts),
		Documents:        a.docs,
		Bytes:            a.bytes,
		Missing:          a.missing,
		NotTime:          a.notTime,
		NotTimeExample:   a.notTimeExample,
		Invalid:          a.invalid,
		Weighted:         a.weighted,
		KeyMaxBytes:      a.keyMax,
		OverLimit:        a.over,
		OverLimitV1:      a.overV1,
		ImpreciseNumbers: a.imprecise,
		ValueHashes:      a.hashes,
	}
	a.hashes = nil
	// The groups are put in EPK order as they are copied out.
	n := a.groups.n
	epks := make([]string, n)
	for i := range epks {
		epks[i] = a.hash(a.groups.at(int32(i)).values)
	}
	// The key holds the first 48 digits: a hierarchical key's EPKs share
	// their first level's 32 whenever they share its value.
	byEPK := d.sort.order(n, func(i int, k *sortKey) {
		e := epks[i]
		k[0], k[1], k[2] = epkPrefix(e), epkPrefix(e[min(16, len(e)):]), epkPrefix(e[min(32, len(e)):])
	}, func(i, j int) int {
		if c := strings.Compare(epks[i], epks[j]); c != 0 {
			return c
		}
		return Compare(a.groups.at(int32(i)).values, a.groups.at(int32(j)).values)
	})
	d.Logical = make([]Logical, n)
	for k, i := range byEPK {
		g := a.groups.at(i)
		d.Logical[k] = Logical{Values: g.values, EPK: epks[i], Documents: g.docs, Bytes: g.bytes, Requests: g.requests, First: g.first, Last: g.last}
	}
	d.Distinct = int64(len(d.Logical))
	if a.distinct != nil {
		d.Estimated = true
		// No more values than documents that hold one: past the exact
		// limit the sketch's estimate ran 0.5 to 0.7 % over, and "79,034
		// distinct values" of 78,624 documents reads as a fault.
		d.Distinct = max(min(int64(a.distinct.Count()), d.Documents-d.Invalid), int64(len(d.Logical)))
		d.DistinctError = a.distinct.StdError()
		for _, it := range a.heavy.Items() {
			// The documents its bytes count: the sketch's count may include
			// those of the values it displaced (DocsError), which among
			// many values of one document each made one value seem to
			// hold hundreds.
			d.Heavy = append(d.Heavy, Logical{Values: it.Value, EPK: a.hash(it.Value), Documents: it.Docs - it.DocsError, Bytes: it.Bytes})
		}
		o := &a.overflow
		d.Overflow = Overflow{Documents: o.docs, Bytes: o.bytes, Requests: o.requests}
		width := a.prefixDigits()
		for p, b := range o.buckets {
			d.Overflow.Buckets = append(d.Overflow.Buckets, Bucket{Prefix: hexPrefix(p, width), Documents: b.docs, Bytes: b.bytes, Requests: b.requests})
		}
		for p, b := range o.dense {
			if b.docs > 0 || b.bytes > 0 {
				d.Overflow.Buckets = append(d.Overflow.Buckets, Bucket{Prefix: hexPrefix(uint32(p), width), Documents: b.docs, Bytes: b.bytes, Requests: b.requests})
			}
		}
		slices.SortFunc(d.Overflow.Buckets, func(x, y Bucket) int { return strings.Compare(x.Prefix, y.Prefix) })
	}
	// Distinct values with one EPK: hash V1's 100-character cut.
	for i := 0; i < len(d.Logical); {
		j := i + 1
		for j < len(d.Logical) && d.Logical[j].EPK == d.Logical[i].EPK {
			j++
		}
		if j-i > 1 {
			c := Collision{EPK: d.Logical[i].EPK}
			for _, l := range d.Logical[i:j] {
				c.Values = append(c.Values, l.Values)
			}
			d.Collisions = append(d.Collisions, c)
		}
		i = j
	}
	// The reservoir replaces samples in place: put them back in input order,
	// in place too, one cycle of the permutation at a time.
	s := a.samples
	idx := d.sort.order(len(s), func(i int, k *sortKey) { k[0] = uint64(s[i].Order) }, nil)
	for i := range idx {
		if idx[i] < 0 {
			continue // placed in an earlier cycle
		}
		first := s[i]
		j := i
		for {
			k := int(idx[j])
			idx[j] = -1
			if k == i {
				s[j] = first
				break
			}
			s[j] = s[k]
			j = k
		}
	}
	d.Samples = s
	a.groups, a.index, a.samples, a.copied = groupList{}, index{}, nil, nil
	return d
}

// hexPrefix is p as width upper-case hex digits, as an EPK writes them; p
// must fit. fmt.Sprintf took a tenth of a millisecond per thousand of the
// buckets a key with a new value in every document fills.
func hexPrefix(p uint32, width int) string {
	var b [8]byte
	for i := width - 1; i >= 0; i-- {
		b[i] = "0123456789ABCDEF"[p&0x0F]
		p >>= 4
	}
	return string(b[:width])
}

// Compare orders key values as Cosmos DB orders them: undefined, null,
// false, true, numbers, strings; component by component.
func Compare(a, b []epk.Value) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := a[i], b[i]
		if c := cmp.Compare(x.Kind, y.Kind); c != 0 {
			return c
		}
		switch x.Kind {
		case epk.Number:
			if c := cmp.Compare(x.Num, y.Num); c != 0 {
				return c
			}
		case epk.String:
			if c := strings.Compare(x.Str, y.Str); c != 0 {
				return c
			}
		}
	}
	return cmp.Compare(len(a), len(b))
}

// Stats summarises a size over logical partitions.
type Stats struct {
	Max, P50, P95, P99 int64
	Mean               float64
	MaxToMean          float64 // the largest over the average: 1 is perfectly even
	Gini               float64 // 0 is perfectly even, towards 1 all in one partition
}

// DocumentStats summarises documents per logical partition; BytesStats
// bytes. When the distribution is Estimated they cover the values kept.
func (d *Distribution) DocumentStats() Stats {
	return stats(d.Logical, func(l *Logical) int64 { return l.Documents })
}

// BytesStats summarises bytes per logical partition.
func (d *Distribution) BytesStats() Stats {
	return stats(d.Logical, func(l *Logical) int64 { return l.Bytes })
}

func stats(ls []Logical, f func(*Logical) int64) Stats {
	if len(ls) == 0 {
		return Stats{}
	}
	v := make([]int64, len(ls))
	var sum float64
	for i := range ls {
		v[i] = f(&ls[i])
		sum += float64(v[i])
	}
	slices.Sort(v)
	n := len(v)
	s := Stats{Max: v[n-1], P50: rank(v, 0.50), P95: rank(v, 0.95), P99: rank(v, 0.99), Mean: sum / float64(n)}
	if s.Mean > 0 {
		s.MaxToMean = float64(s.Max) / s.Mean
		// Gini from the sorted values: sum((2i-n-1) x_i) / (n sum x).
		var g float64
		for i, x := range v {
			g += float64(2*(i+1)-n-1) * float64(x)
		}
		s.Gini = g / (float64(n) * sum)
	}
	return s
}

// rank is the nearest-rank percentile of sorted values.
func rank(sorted []int64, p float64) int64 {
	i := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// Largest returns the n largest logical partitions by bytes (then
// documents, then EPK), including heavy hitters past the exact limit.
func (d *Distribution) Largest(n int) []Logical {
	idx := d.largest(n)
	out := make([]Logical, len(idx))
	for k, i := range idx {
		out[k] = *d.at(i)
	}
	return out
}

// largest is the order of Largest(n): indexes into Logical followed by
// Heavy. A few of tens of thousands are selected in one pass; the whole
// order is sorted only for more.
func (d *Distribution) largest(n int) []int32 {
	total := len(d.Logical) + len(d.Heavy)
	n = max(0, min(n, total))
	if n > 64 {
		return d.sizeOrder()[:n]
	}
	top := make([]int32, 0, n) // largest first
	for i := range int32(total) {
		l := d.at(i)
		if len(top) == n && (n == 0 || compareSize(l, d.at(top[n-1])) >= 0) {
			continue
		}
		// After those it ties with: equal partitions keep their order.
		k := len(top)
		for k > 0 && compareSize(l, d.at(top[k-1])) < 0 {
			k--
		}
		if len(top) < n {
			top = append(top, 0)
		}
		copy(top[k+1:], top[k:len(top)-1])
		top[k] = i
	}
	return top
}

// All yields every logical partition known: the exact ones in EPK order,
// then the heavy hitters past the limit.
func (d *Distribution) All() iter.Seq[*Logical] {
	return func(yield func(*Logical) bool) {
		for i := range d.Logical {
			if !yield(&d.Logical[i]) {
				return
			}
		}
		for i := range d.Heavy {
			if !yield(&d.Heavy[i]) {
				return
			}
		}
	}
}

// at is logical partition i of Logical followed by Heavy.
func (d *Distribution) at(i int32) *Logical {
	if int(i) < len(d.Logical) {
		return &d.Logical[i]
	}
	return &d.Heavy[int(i)-len(d.Logical)]
}

// sizeOrder is the order of Largest for all of them, sorted once.
func (d *Distribution) sizeOrder() []int32 {
	if d.bySize == nil {
		d.bySize = d.sort.order(len(d.Logical)+len(d.Heavy), func(i int, k *sortKey) {
			l := d.at(int32(i))
			k[0], k[1], k[2] = descending(l.Bytes), descending(l.Documents), epkPrefix(l.EPK)
		}, func(i, j int) int { return compareSize(d.at(int32(i)), d.at(int32(j))) })
	}
	return d.bySize
}

// compareSize orders logical partitions as Largest does: more bytes first,
// then more documents, then by EPK, then by value (hash V1's cut gives
// values one EPK).
func compareSize(x, y *Logical) int {
	if c := cmp.Compare(y.Bytes, x.Bytes); c != 0 {
		return c
	}
	if c := cmp.Compare(y.Documents, x.Documents); c != 0 {
		return c
	}
	if c := strings.Compare(x.EPK, y.EPK); c != 0 {
		return c
	}
	return Compare(x.Values, y.Values)
}

// FirstLevel returns the first-level value of the key that holds the most
// documents among the logical partitions known, and those documents; of
// values that tie, the one holding the larger partition (in Largest's
// order). ok is false when there is no partition.
func (d *Distribution) FirstLevel() (v epk.Value, docs int64, ok bool) {
	type acc struct {
		v    epk.Value
		docs int64
		top  *Logical // its largest partition
	}
	// By the value's bits, which tell values apart as their text does.
	type level struct {
		kind epk.Kind
		num  uint64
		str  string
	}
	by := map[level]*acc{}
	// A hierarchical key's EPK starts with its first level's hash, so in
	// EPK order a value's partitions come one after another: the map is
	// looked up once per run of them, not once per partition.
	var a *acc
	var cur level
	// Past the exact limit, a first level's documents are counted from
	// the overflow (below); the heavy hitters only name the values.
	bucketed := d.Estimated && d.Spec.Kind == key.MultiHash
	n := 0
	for l := range d.All() {
		n++
		if len(l.Values) == 0 {
			continue
		}
		v := l.Values[0]
		if k := (level{v.Kind, math.Float64bits(v.Num), v.Str}); a == nil || k != cur {
			cur = k
			if a = by[k]; a == nil {
				a = &acc{v: v, top: l}
				by[k] = a
			}
		}
		if compareSize(l, a.top) < 0 {
			a.top = l
		}
		if !bucketed || n <= len(d.Logical) {
			a.docs += l.Documents
		}
	}
	if bucketed {
		// Those went to the overflow bucket of the first level's EPK
		// prefix, which it shares with few others: the bucket bounds
		// them, where the heavy hitters hold only its last values.
		for _, a := range by {
			if b, ok := d.bucketOf(a.top.EPK); ok {
				a.docs += b.Documents
			}
		}
	}
	var best *acc
	for _, a := range by {
		if best == nil || a.docs > best.docs || a.docs == best.docs && compareSize(a.top, best.top) < 0 {
			best = a
		}
	}
	if best == nil {
		return epk.Value{}, 0, false
	}
	return best.v, best.docs, true
}

// bucketOf is the overflow bucket whose prefix starts e.
func (d *Distribution) bucketOf(e string) (Bucket, bool) {
	bs := d.Overflow.Buckets
	i, ok := slices.BinarySearchFunc(bs, e, func(b Bucket, e string) int {
		if strings.HasPrefix(e, b.Prefix) {
			return 0
		}
		return strings.Compare(b.Prefix, e)
	})
	if !ok {
		return Bucket{}, false
	}
	return bs[i], true
}

// keyGrowth is how a key's values grow with the data, as far as its
// paths tell (growthOf).
type keyGrowth uint8

const (
	bySample    keyGrowth = iota // as the sample's repeats suggest (Singletons)
	byNewValues                  // new values keep coming; each value keeps its documents
	byNewFirst                   // so, and its first level too: new values land anywhere in the key space
)

// growthOf is how values of spec grow: by new values when one of its
// paths is the time field (every moment brings its own) or one the user
// says keeps bringing new ones (Options.NewValuePaths), or when it has a
// time bucket; else as the sample suggests.
func growthOf(spec key.Spec, o Options) keyGrowth {
	opens := func(p []string) bool {
		return slices.Equal(p, o.TimePath) && o.TimePath != nil || slices.ContainsFunc(o.NewValuePaths, func(q []string) bool { return slices.Equal(p, q) })
	}
	switch {
	case len(spec.Paths) > 0 && opens(spec.Paths[0]):
		return byNewFirst
	case slices.ContainsFunc(spec.Paths, opens) || spec.TimeBucket() != "":
		return byNewValues
	}
	return bySample
}

// NewValueShare is the share of the documents to come that bring a key
// value not seen yet: 1 for a key whose values keep coming (growthOf),
// whose documents to come are written under new values as the sample's
// were, else Singletons.
func (d *Distribution) NewValueShare() float64 {
	if d.newValues != bySample {
		return 1
	}
	return d.Singletons()
}

// GrowsByNewValues reports whether the key's values keep coming as the
// data grows, each keeping its documents (see growthOf).
func (d *Distribution) GrowsByNewValues() bool { return d.newValues != bySample }

// NewFirstLevels reports whether the first level's values (a hierarchical
// key's tenants) keep coming too: its values' shares in the sample fall
// as the data grows.
func (d *Distribution) NewFirstLevels() bool { return d.newValues == byNewFirst }

// Singletons is the share of documents whose key value occurs once: by
// Good and Turing's estimate, the chance that the next document brings a
// key value not seen yet.
func (d *Distribution) Singletons() float64 {
	var n1, n int64
	for _, l := range d.Logical {
		n += l.Documents
		if l.Documents == 1 {
			n1++
		}
	}
	if n == 0 {
		return 0
	}
	share := float64(n1) / float64(n)
	if d.Estimated && d.Overflow.Documents > 0 {
		// Values past the limit are new by construction: count their documents
		// as singletons in proportion to the distinct values they add.
		extra := float64(d.Distinct - int64(len(d.Logical)))
		share = (float64(n1) + min(extra, float64(d.Overflow.Documents))) / float64(n+d.Overflow.Documents)
	}
	return min(share, 1)
}

// Lorenz returns points of the Lorenz curve of documents over logical
// partitions: after sorting them smallest first, the share of documents
// (y) held by the first share x of partitions, at n+1 evenly spaced x from
// 0 to 1. The diagonal is perfectly even; the further below it, the more
// skewed.
func (d *Distribution) Lorenz(n int) [][2]float64 {
	if len(d.Logical)+len(d.Heavy) == 0 || n < 1 {
		return [][2]float64{}
	}
	sizes := make([]int64, 0, len(d.Logical)+len(d.Heavy))
	var total float64
	for l := range d.All() {
		sizes = append(sizes, l.Documents)
		total += float64(l.Documents)
	}
	slices.Sort(sizes)
	cum := make([]float64, len(sizes)+1)
	for i, s := range sizes {
		cum[i+1] = cum[i] + float64(s)
	}
	out := make([][2]float64, n+1)
	for k := 0; k <= n; k++ {
		x := float64(k) / float64(n)
		// Interpolate between whole partitions.
		pos := x * float64(len(sizes))
		i := int(pos)
		y := cum[min(i, len(sizes))]
		if i < len(sizes) {
			y += (pos - float64(i)) * float64(sizes[i])
		}
		if total > 0 {
			y /= total
		}
		out[k] = [2]float64{x, y}
	}
	return out
}

// KeyIsTime reports whether the key is the time field itself, a plain
// value, and every sampled time a whole second (or day): then every write
// of one second shares one value, and the writes of a moment go to one
// logical partition, however the seconds spread over time.
func (d *Distribution) KeyIsTime() bool {
	if d.Spec.Kind != key.Hash || len(d.Spec.Paths) != 1 || d.timePath == nil || !slices.Equal(d.Spec.Paths[0], d.timePath) {
		return false
	}
	timed := 0
	for _, s := range d.Samples {
		if math.IsNaN(s.Time) {
			continue
		}
		if s.Time != math.Trunc(s.Time) {
			return false
		}
		timed++
	}
	return timed >= 2
}

// Unkeyed is the documents known to lack every level of the key: those of
// the logical partitions whose every component is undefined.
func (d *Distribution) Unkeyed() int64 { return d.unkeyedSum().Documents }

// UnkeyedBytes is the bytes of the documents that lack the key.
func (d *Distribution) UnkeyedBytes() int64 { return d.unkeyedSum().Bytes }

// unkeyedSum sums the documents, bytes and requests of the logical
// partitions of documents that lack the key (unkeyed).
func (d *Distribution) unkeyedSum() Logical {
	var sum Logical
	for l := range d.All() {
		if unkeyed(l.Values) {
			sum.Documents, sum.Bytes, sum.Requests = sum.Documents+l.Documents, sum.Bytes+l.Bytes, sum.Requests+l.Requests
		}
	}
	return sum
}

// unkeyed reports whether a logical partition's every component is
// undefined: the documents that lack the key.
func unkeyed(values []epk.Value) bool {
	return len(values) > 0 && !slices.ContainsFunc(values, func(v epk.Value) bool { return v.Kind != epk.Undefined })
}
