package advisor

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/paths"
	"github.com/pkcalc/pkcalc/core/query"
)

// Sample is what Candidates knows of the documents.
type Sample struct {
	Paths     []paths.Path
	Documents int   // documents the paths were found in
	Bytes     int64 // their sizes, summed (paths.Collector.Bytes); 0 if not known
	// UniqueIDs: no document has an id, and each is to get one of its
	// own (a GUID) on import, which is then the item id.
	UniqueIDs   bool
	TimePath    []string      // the time field, nil if none
	TimeSpan    time.Duration // the time the documents cover
	TargetBytes int64         // the expected total size, 0 if not given
	WriteRU     float64       // the workload's write RU/s, 0 if not given
	Limit       int           // most keys to return; 0 for MaxCandidates
	Operations  []query.Op    // the application's operations, if given
	// NewValues are the paths whose values keep coming as the data grows
	// (partition.Options.NewValuePaths): at the target a value of one
	// holds what it holds in the sample.
	NewValues [][]string
	Version   epk.Version // the container's hash version; V1 allows no hierarchical keys
}

// MinDistinct is the fewest distinct values a path needs for Candidates to
// suggest a plain key on it: with fewer, no key could spread anything.
const MinDistinct = 3

// MaxCandidates is how many generated keys are measured by default, beside
// the keys the user names; enough to compare, few enough to read.
const MaxCandidates = 12

// maxFamilies is how many of the paths the workload filters on lead
// hierarchical and synthetic keys of their own; the rest are measured as
// plain keys, so that one busy workload cannot crowd out the comparison.
const maxFamilies = 3

// Candidates proposes the keys worth measuring, from the paths of the
// documents read so far, the time field and the workload:
//
//  1. the paths the workload filters on (equality, IN, the prefix of a
//     hierarchical key), the busiest first by the operations' rates, each
//     with its family: alone when the data lets it stand alone; as the
//     first level of hierarchical keys (the path, a finer path, the item
//     id); and as the first part of synthetic keys (with a time bucket,
//     with a computed suffix hash(/id)%N where its largest value needs
//     spreading);
//  2. without such paths, the family of the path that groups documents as
//     tenants or devices do, and that path alone, to show why it needs one;
//  3. the item id alone;
//  4. plain keys on the other paths that stand alone, ranked by how many
//     values they have, how evenly and how often present.
//
// It never proposes measurements, counters, values that change during an
// item's life, times alone or prose (see names.go), nor hierarchical keys
// for a hash version 1 container. The order depends on the paths and the
// workload, not on the order the documents came in: ties go by path text.
// It returns at most in.Limit keys (MaxCandidates when 0).
func Candidates(in Sample) []key.Spec {
	if in.Documents == 0 {
		return nil
	}
	c := newChooser(in)
	for i, f := range c.filtered {
		if i < maxFamilies {
			c.family(f, c.pastLimit(f))
		} else if c.standsAlone(f) {
			c.push(hashKey(f.Segments))
		}
	}
	if len(c.filtered) == 0 {
		if g := c.group(); g != nil {
			c.family(*g, true)
		}
	}
	if c.id != nil && !c.idToCome && c.standsAlone(*c.id) {
		c.push(hashKey(c.id.Segments))
	}
	for _, p := range c.plain() {
		c.push(hashKey(p.Segments))
	}
	return c.out
}

// chooser builds the candidates of one Sample.
type chooser struct {
	in       Sample
	limit    int
	docs     float64
	id       *paths.Path  // the item id: /id, or /_id in a MongoDB export
	idToCome bool         // id is the id each document is to get (Sample.UniqueIDs)
	filtered []paths.Path // the paths the workload filters on, busiest first
	ranked   []paths.Path // the paths for plain keys, best first
	out      []key.Spec
	seen     map[string]bool
}

func newChooser(in Sample) *chooser {
	c := &chooser{in: in, limit: in.Limit, docs: float64(in.Documents), seen: map[string]bool{}}
	if c.limit <= 0 {
		c.limit = MaxCandidates
	}
	c.id = itemID(in.Paths)
	if c.id == nil && in.UniqueIDs {
		// The last level of hierarchical keys and the suffix's source; not
		// a key alone, on values the documents do not hold yet.
		c.id, c.idToCome = &paths.Path{Path: "/id", Segments: []string{"id"}, Documents: in.Documents, Distinct: in.Documents, Usable: true}, true
	}
	c.filtered = c.filter()
	c.ranked = c.rank()
	return c
}

// itemID is the path that holds, or will hold, Cosmos DB's id: /id, or
// where the documents have none, MongoDB's /_id (an ObjectId reads as its
// hex string), which an import maps to id.
func itemID(ps []paths.Path) *paths.Path {
	var mongo *paths.Path
	for i := range ps {
		p := &ps[i]
		if !p.Usable || len(p.Segments) != 1 {
			continue
		}
		switch p.Segments[0] {
		case "id":
			return p
		case "_id":
			mongo = p
		}
	}
	return mongo
}

// push adds s unless it is there already or the list is full.
func (c *chooser) push(s key.Spec) {
	if txt := s.String(); !c.seen[txt] && len(c.out) < c.limit {
		c.seen[txt] = true
		c.out = append(c.out, s)
	}
}

// pushLevels adds a hierarchical key, which hashes with MultiHash and so
// needs hash version 2.
func (c *chooser) pushLevels(levels ...[]string) {
	if c.in.Version != epk.V1 {
		c.push(key.Spec{Kind: key.MultiHash, Paths: levels})
	}
}

func hashKey(path []string) key.Spec { return key.Spec{Kind: key.Hash, Paths: [][]string{path}} }

// keyable reports whether a path may be part of a generated key at all:
// a scalar one value per item, not a measurement, a value that changes,
// a time (alone, a time sends every new write to one value) or prose.
func (c *chooser) keyable(p paths.Path) bool {
	return c.findable(p) && !freeText(p)
}

// findable is keyable for a path the workload finds items by: text with
// spaces or named a title (a film's, a place's name) is what the
// application knows of each item it looks up, so it may be a key; prose
// by name, a measurement, a value that changes and a time still may not.
func (c *chooser) findable(p paths.Path) bool {
	return p.Usable && len(p.Segments) > 0 && mainKind(p) != jsontree.Bool && !slices.Equal(p.Segments, c.in.TimePath) &&
		!measurement(p) && !mutable(p) && !updated(c.in.Operations, p.Segments) && !timeName(p) && !timeValues(p) && !prose(p)
}

// updated reports whether a replace, patch or upsert of the workload sets
// the path (KEY_UPDATED under a key of it): a value that changes, whatever
// its name says, as a password does.
func updated(ops []query.Op, path []string) bool {
	spec := hashKey(path)
	for _, op := range ops {
		switch op.Kind {
		case query.ReplaceOp, query.PatchOp, query.UpsertOp:
			if query.Assess(op, spec).KeyUpdated {
				return true
			}
		}
	}
	return false
}

// largest is the share of the documents the path's most common value
// holds, and the largest share of their bytes one value holds: writes
// follow the documents, storage their sizes, and a value of few large
// documents fills its partition first.
func (c *chooser) largest(p paths.Path) (docs, bytes float64) {
	if len(p.Top) == 0 {
		return 0, 0
	}
	docs = float64(p.Top[0].Count) / c.docs
	bytes = docs
	if c.in.Bytes > 0 {
		bytes = float64(p.Heaviest.Bytes) / float64(c.in.Bytes)
	}
	if slices.ContainsFunc(c.in.NewValues, func(n []string) bool { return slices.Equal(n, p.Segments) }) && c.in.TargetBytes > c.in.Bytes && c.in.Bytes > 0 {
		// Its values keep coming: at the target the largest holds what it
		// holds here, its share of the target's data and writes that much
		// smaller.
		f := float64(c.in.Bytes) / float64(c.in.TargetBytes)
		docs, bytes = docs*f, bytes*f
	}
	return docs, bytes
}

// hottest is largest for a plain key on the path, its largest logical
// partition: the most common value's, or the documents without the path,
// which Cosmos DB stores under one undefined value.
func (c *chooser) hottest(p paths.Path) (docs, bytes float64) {
	docs, bytes = c.largest(p)
	lacking := 1 - float64(p.Documents)/c.docs // their sizes are not known: as many bytes as documents
	return max(docs, lacking), max(bytes, lacking)
}

// standsAlone reports whether a path makes a plain key by itself: enough
// values that the largest holds at most a MinDistinct-th of the documents,
// and, at the target size and write rate, under half of what one logical
// partition holds and serves (see suffixCount). A path that does not
// (five namespaces, three tenants) may still lead a hierarchical key.
func (c *chooser) standsAlone(p paths.Path) bool {
	docs, bytes := c.hottest(p)
	return p.Distinct >= MinDistinct && docs <= 1.0/MinDistinct && suffixesNeeded(bytes, docs, c.in.TargetBytes, c.in.WriteRU) <= 1
}

// pastLimit reports whether a plain key on the path puts more in its
// largest logical partition than Cosmos DB allows at the target: over
// 20 GB or 10,000 RU/s of writes (concepts-limits).
func (c *chooser) pastLimit(p paths.Path) bool {
	docs, bytes := c.hottest(p)
	return bytes*float64(c.in.TargetBytes) > float64(capacity.LogicalPartitionMaxBytes) || docs*c.in.WriteRU > capacity.PartitionMaxRU
}

// filter finds the paths the workload's operations find their items by,
// with the share of the operations each serves from one or a few
// partitions: the busiest first, then the coarser (the prefix the finer
// values sit under), then by path text.
func (c *chooser) filter() []paths.Path {
	type hit struct {
		p     paths.Path
		share float64
	}
	var hits []hit
	for _, p := range c.in.Paths {
		if !c.findable(p) {
			continue
		}
		if share := queried(c.in.Operations, p.Segments); share > 0 {
			hits = append(hits, hit{p, share})
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		return cmp.Or(cmp.Compare(b.share, a.share), cmp.Compare(a.p.Distinct, b.p.Distinct), strings.Compare(a.p.Path, b.p.Path))
	})
	out := make([]paths.Path, len(hits))
	for i, h := range hits {
		out[i] = h.p
	}
	return out
}

// group is the path that groups documents as tenants, customers or
// devices do, for a sample without a workload: repeated values in (nearly)
// every document, a name that says so first, then by rank.
func (c *chooser) group() *paths.Path {
	var best *paths.Path
	for _, p := range c.ranked {
		if float64(p.Distinct) > c.docs/4 || float64(p.Documents) < 0.9*c.docs || c.isID(p) {
			continue
		}
		if best == nil || groupHint(p) && !groupHint(*best) {
			best = &p
		}
	}
	return best
}

// family proposes the keys that p leads (see Candidates). When p cannot
// stand alone, baseline measures it alone all the same, after the keys
// built on it, so that the report says why they are needed: for the
// grouping path, which no query gives a reason for, and for a path whose
// largest value passes a limit at the target.
func (c *chooser) family(p paths.Path, baseline bool) {
	alone := c.standsAlone(p)
	if alone {
		c.push(hashKey(p.Segments))
	}
	if c.isID(p) {
		return
	}
	if c.ownValues(p) {
		// Every value its own document's, as the id's: a level after it,
		// or a time bucket with it, tells nothing more apart.
		return
	}
	// p is keyable, so neither the id nor the time: last is another path.
	last, fine := c.lastLevel(), c.finer(p)
	switch {
	case last != nil && fine != nil:
		c.pushLevels(p.Segments, last)
		c.pushLevels(p.Segments, fine.Segments, last)
	case last != nil:
		c.pushLevels(p.Segments, last)
	case fine != nil:
		c.pushLevels(p.Segments, fine.Segments)
	}
	if t := c.in.TimePath; t != nil {
		c.push(key.Spec{Kind: key.Synthetic, Paths: [][]string{p.Segments, t},
			Terms: []key.Term{{Path: p.Segments}, {Path: t, Bucket: c.bucket()}}})
	}
	// A suffix only costs when nothing needs spreading: every query for
	// one value of p reads all N of its logical partitions.
	if docs, bytes := c.largest(p); last != nil && suffixesNeeded(bytes, docs, c.in.TargetBytes, c.in.WriteRU) > 1 {
		n := suffixCount(bytes, docs, c.in.TargetBytes, c.in.WriteRU)
		c.push(key.Spec{Kind: key.Synthetic, Paths: [][]string{p.Segments, last},
			Terms: []key.Term{{Path: p.Segments}, {Path: last, Modulus: n}}})
	}
	if baseline && !alone && p.Distinct >= MinDistinct {
		c.push(hashKey(p.Segments))
	}
}

// lastLevel is the natural last level of a hierarchical key and the source
// of a computed suffix: the item id, which a point read knows, else the
// time.
func (c *chooser) lastLevel() []string {
	if c.id != nil {
		return c.id.Segments
	}
	return c.in.TimePath
}

// bucket is the time bucket that gives the sample a few dozen periods at
// least.
func (c *chooser) bucket() key.Bucket {
	switch span := c.in.TimeSpan; {
	case span <= 3*24*time.Hour:
		return key.Hour
	case span <= 180*24*time.Hour:
		return key.Day
	}
	return key.Month
}

// finer is the path that splits p's groups for a middle level: one the
// workload also filters on with more values than p, else the best ranked
// path with at least four times p's values. Either repeats values: a
// level whose every value is distinct adds nothing the id does not.
func (c *chooser) finer(p paths.Path) *paths.Path {
	ok := func(q paths.Path) bool {
		return q.Path != p.Path && !c.isID(q) && len(q.Top) > 0 && q.Top[0].Count >= 2
	}
	for _, q := range c.filtered {
		if ok(q) && q.Distinct > p.Distinct {
			return &q
		}
	}
	for _, q := range c.ranked {
		if ok(q) && q.Distinct >= 4*p.Distinct {
			return &q
		}
	}
	return nil
}

func (c *chooser) isID(p paths.Path) bool { return c.id != nil && p.Path == c.id.Path }

// rank orders the keyable paths with MinDistinct values in half the
// documents or more, best first: many values, evenly spread, present in
// every document, named as identifiers.
func (c *chooser) rank() []paths.Path {
	type scored struct {
		p     paths.Path
		score float64
	}
	var list []scored
	for _, p := range c.in.Paths {
		if !c.keyable(p) || p.Distinct < MinDistinct || float64(p.Documents) < 0.5*c.docs {
			continue
		}
		presence := float64(p.Documents) / c.docs
		top := float64(p.Top[0].Count) / float64(p.Documents)
		score := math.Log10(float64(p.Distinct)+1) * presence * (1 - top*0.5)
		if identifier(p) {
			score *= 1.5
		}
		list = append(list, scored{p, score})
	}
	slices.SortFunc(list, func(a, b scored) int {
		return cmp.Or(cmp.Compare(b.score, a.score), strings.Compare(a.p.Path, b.p.Path))
	})
	out := make([]paths.Path, len(list))
	for i, s := range list {
		out[i] = s.p
	}
	return out
}

// plain are the ranked paths that stand alone. With a workload and an
// item id, a path whose every value is its own document's is left out
// unless an operation finds items by it: under it data and requests spread
// as under the id, and no operation reads fewer partitions (an issue's
// URLs and node id, beside its id, took four of twelve places).
func (c *chooser) plain() []paths.Path {
	return slices.DeleteFunc(slices.Clone(c.ranked), func(p paths.Path) bool {
		clone := c.id != nil && len(c.in.Operations) > 0 && c.ownValues(p) && queried(c.in.Operations, p.Segments) == 0
		return !c.standsAlone(p) || clone
	})
}

// ownValues reports whether every value of p is its own document's, in
// (nearly) every document, as the id's are.
func (c *chooser) ownValues(p paths.Path) bool {
	return len(p.Top) > 0 && p.Top[0].Count <= 1 && float64(p.Documents) >= 0.99*c.docs
}

// queried is the share of the operations that find their items (queries,
// point reads, deletes), weighted by their rates, that a hash key on path
// serves from one or a few partitions.
func queried(ops []query.Op, path []string) float64 {
	spec := hashKey(path)
	name := path[len(path)-1]
	var hit, total float64
	for _, op := range ops {
		if op.Kind != query.QueryOp && op.Kind != query.ReadOp && op.Kind != query.DeleteOp {
			continue
		}
		w := max(op.Weight, 1e-9)
		total += w
		// A query that does not name the property cannot route by it:
		// skipping it spares routing every path of a wide document.
		if op.Kind == query.QueryOp && !strings.Contains(op.Text, name) {
			continue
		}
		if r := query.Assess(op, spec).Routing.Kind; r == query.Single || r == query.Targeted {
			hit += w
		}
	}
	if total == 0 {
		return 0
	}
	return hit / total
}
