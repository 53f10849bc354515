package query

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/paths"
)

// Kind says how many partitions a query reads.
type Kind string

const (
	Single   Kind = "single"   // one logical partition
	Targeted Kind = "targeted" // the partitions of a few key values or key prefixes
	FanOut   Kind = "fanOut"   // every physical partition
)

// Routing is where a query goes under a partition key.
type Routing struct {
	Kind Kind
	// Values is how many key values (or prefixes) the query names: 1 for
	// Single (0 when the filter can match nothing), the count for Targeted
	// (0 when it cannot be known, as for a range of time buckets given by
	// parameters), 0 for FanOut.
	Values int
	// Prefix is, for Targeted, the levels of a hierarchical key the filter
	// pins when it names prefixes rather than whole values (the fewest,
	// when its prefixes differ); each prefix may span many partitions.
	Prefix int
	Reason string // in plain words, naming the key paths
}

// An AND of IN lists multiplies out. Route lists at most maxTerms
// combinations, and merges at most maxMerges pairs in all, so that no
// query text can make it slow; past either it reports an unknown count.
const (
	maxTerms  = 4096
	maxMerges = 1 << 18
)

// Route says which partitions q reads under the key spec. Only the WHERE
// clause counts, as the service routes it: equality with a literal or a
// parameter (=, IN, an OR of equalities) on the key paths of the FROM
// alias targets partitions, and AND keeps the narrower side; ranges, !=,
// NOT, LIKE and functions of a key path read every partition, as does an
// OR with a branch that names no key value. A hierarchical key is targeted
// by a prefix of its levels. A synthetic key is computed by the
// application, so a query targets it by pinning the key's source paths;
// a range on a time-bucket path or an unpinned hash(...)%N path names one
// partition per bucket or per suffix. TOP, ORDER BY, GROUP BY and
// aggregates do not change where a query goes.
func Route(q *Query, spec key.Spec) Routing {
	if q == nil || len(spec.Paths) == 0 {
		return Routing{Kind: FanOut, Reason: "no partition key to route by"}
	}
	keyName := spec.String()
	w := &walker{keys: spec.Paths}
	if len(q.From) == 0 {
		return Routing{Kind: FanOut, Reason: "the query has no FROM, so it filters no key: every partition"}
	}
	src := q.From[0]
	switch {
	case src.In:
		return Routing{Kind: FanOut, Reason: fmt.Sprintf("no filter on %s: FROM %s IN %s reads array elements, whose paths are not the key",
			paths.Format(spec.Paths[0]), src.Alias, src.Path)}
	case src.Subquery != nil:
		r := Route(src.Subquery, spec)
		r.Reason += " (in the FROM subquery)"
		return r
	case src.Path == nil:
		return Routing{Kind: FanOut, Reason: "no filter on " + paths.Format(spec.Paths[0])}
	}
	// FROM c.customer cu makes cu.id the path /customer/id. A step into an
	// array ([0]) never matches: key paths have none.
	w.alias, w.base = src.Alias, src.Path.Path
	if w.alias == "" {
		w.alias = src.Path.Root
		if n := len(src.Path.Path); n > 0 {
			w.alias = src.Path.Path[n-1]
		}
	}
	c := w.walk(q.Where)
	switch spec.Kind {
	case key.Synthetic:
		return w.routeSynthetic(c, spec, keyName)
	}
	return w.routeHash(c, keyName)
}

// constraint is what one conjunction says of one key path.
type constraint struct {
	eq     string // the value's canonical text; "" when only a range
	param  bool   // eq is a parameter, so it may equal any other value
	rng    bool   // a range (<, >, BETWEEN) on the path
	lo, hi Expr   // the range's bounds, when known
	loExcl bool   // the lower bound is exclusive (>)
	hiExcl bool   // the upper bound is exclusive (<)
}

// term is a conjunction of constraints, by key path index.
type term map[int]constraint

// cover is what the filter says of the key: nothing (any), or that a
// matching item satisfies one of terms.
type cover struct {
	any   bool
	terms []term
	many  bool // more than maxTerms combinations: terms is a sample
}

var anyCover = cover{any: true}

// note is a filter on a key path that does not pin it, kept for the reason.
type note struct {
	idx  int
	text string
}

type walker struct {
	alias  string
	base   []string
	keys   [][]string
	notes  []note
	merges int // pairs merged so far, against maxMerges
	// nothing says why a conjunction can match no item, for when none can.
	nothing string
}

// keyIndex returns which key path e is, or -1.
func (w *walker) keyIndex(e Expr) int {
	p, ok := e.(*Property)
	if !ok || p.Root != w.alias || len(w.base)+len(p.Path) == 0 {
		return -1
	}
	for i, k := range w.keys {
		if len(k) != len(w.base)+len(p.Path) {
			continue
		}
		match := true
		for j, name := range k {
			var s string
			if j < len(w.base) {
				s = w.base[j]
			} else {
				s = p.Path[j-len(w.base)]
			}
			if s != name {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}

// constant returns the canonical text of a value a key can be compared
// with: a scalar literal or a parameter.
func constant(e Expr) (text string, param, ok bool) {
	switch e := e.(type) {
	case *Param:
		return "@" + e.Name, true, true
	case *Literal:
		if e.Kind == UndefinedLit {
			return "", false, false
		}
		return e.String(), false, true
	}
	return "", false, false
}

// mentions notes every key path inside e, with why it does not pin the
// key; a path inside a function call is noted as the call. Subqueries are
// not entered: the service does not route by them.
func (w *walker) mentions(e Expr, why func(path string) string) {
	var visit func(e Expr, call *Call)
	visit = func(e Expr, call *Call) {
		if i := w.keyIndex(e); i >= 0 {
			p := paths.Format(w.keys[i])
			if call != nil {
				w.notes = append(w.notes, note{i, clipExpr(call) + " applies " + call.Name + " to " + p + ": every partition"})
			} else {
				w.notes = append(w.notes, note{i, why(p)})
			}
			return
		}
		switch e := e.(type) {
		case *Binary:
			visit(e.Left, call)
			visit(e.Right, call)
		case *Unary:
			visit(e.X, call)
		case *Between:
			visit(e.X, call)
			visit(e.Low, call)
			visit(e.High, call)
		case *In:
			visit(e.X, call)
			for _, x := range e.List {
				visit(x, call)
			}
		case *Like:
			visit(e.X, call)
			visit(e.Pattern, call)
		case *Call:
			for _, x := range e.Args {
				visit(x, e)
			}
		case *Ternary:
			visit(e.Cond, call)
			visit(e.Then, call)
			visit(e.Else, call)
		case *Index:
			visit(e.X, call)
			visit(e.Key, call)
		case *ArrayLit:
			for _, x := range e.Elems {
				visit(x, call)
			}
		case *ObjectLit:
			for _, f := range e.Fields {
				visit(f.Value, call)
			}
		}
	}
	visit(e, nil)
}

func clipExpr(e Expr) string {
	s := e.String()
	if len(s) > 60 {
		s = clip(s[:57]) + "…"
	}
	return s
}

func (w *walker) walk(e Expr) cover {
	switch e := e.(type) {
	case nil:
		return anyCover
	case *Binary:
		switch e.Op {
		case "AND":
			return w.and(w.walk(e.Left), w.walk(e.Right))
		case "OR":
			l, r := w.walk(e.Left), w.walk(e.Right)
			if l.any || r.any {
				for _, c := range []cover{l, r} {
					for _, t := range c.terms {
						for i := range t {
							w.notes = append(w.notes, note{i, "an OR branch does not filter " + paths.Format(w.keys[i]) + ": every partition"})
						}
					}
				}
				return anyCover
			}
			return or(l, r)
		case "=":
			if c, ok := w.compare(e.Left, e.Right, "="); ok {
				return c
			}
			if c, ok := w.compare(e.Right, e.Left, "="); ok {
				return c
			}
		case "<", "<=", ">", ">=":
			if c, ok := w.compare(e.Left, e.Right, e.Op); ok {
				return c
			}
			if c, ok := w.compare(e.Right, e.Left, flip[e.Op]); ok {
				return c
			}
		case "!=":
			w.mentions(e, func(p string) string { return "!= on " + p + " reads every partition" })
			return anyCover
		}
		w.mentions(e, func(p string) string {
			return clipExpr(e) + " computes from " + p + " instead of naming it: every partition"
		})
	case *In:
		i := w.keyIndex(e.X)
		if i >= 0 && !e.Not {
			c := cover{}
			seen := map[string]bool{}
			for _, v := range e.List {
				text, param, ok := constant(v)
				if !ok {
					w.mentions(e, func(p string) string { return "IN on " + p + " lists a value that is not a constant: every partition" })
					return anyCover
				}
				if !seen[text] {
					seen[text] = true
					c.terms = append(c.terms, term{i: {eq: text, param: param}})
				}
			}
			return c
		}
		w.mentions(e, func(p string) string {
			if i >= 0 {
				return "NOT IN on " + p + " reads every partition"
			}
			return clipExpr(e) + " computes from " + p + " instead of naming it: every partition"
		})
	case *Between:
		i := w.keyIndex(e.X)
		_, _, okLo := constant(e.Low)
		_, _, okHi := constant(e.High)
		if i >= 0 && !e.Not && okLo && okHi {
			w.notes = append(w.notes, note{i, "a range on " + paths.Format(w.keys[i]) + " reads every partition"})
			return w.rangeCover(i, constraint{rng: true, lo: e.Low, hi: e.High})
		}
		w.mentions(e, func(p string) string { return "a range on " + p + " reads every partition" })
	case *Like:
		w.mentions(e, func(p string) string { return "LIKE on " + p + " reads every partition" })
	case *Unary:
		if e.Op == "NOT" {
			w.mentions(e, func(p string) string { return "NOT over " + p + " reads every partition" })
			return anyCover
		}
		w.mentions(e, func(p string) string { return clipExpr(e) + " computes from " + p + ": every partition" })
	case *Call:
		w.mentions(e, nil) // every path inside is noted as the call
	default:
		w.mentions(e, func(p string) string { return clipExpr(e) + " computes from " + p + ": every partition" })
	}
	return anyCover
}

var flip = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<="}

// compare handles "k op v" with k a key path and v a constant.
func (w *walker) compare(k, v Expr, op string) (cover, bool) {
	i := w.keyIndex(k)
	if i < 0 {
		return cover{}, false
	}
	text, param, ok := constant(v)
	if !ok {
		// A function of the key (LOWER(c.k) = 'x') is noted by the caller;
		// here the key is compared with something that is not a constant.
		w.notes = append(w.notes, note{i, fmt.Sprintf("%s compares %s with a value computed per item: every partition", clipExpr(&Binary{Op: op, Left: k, Right: v}), paths.Format(w.keys[i]))})
		return anyCover, true
	}
	if op == "=" {
		return cover{terms: []term{{i: {eq: text, param: param}}}}, true
	}
	w.notes = append(w.notes, note{i, "a range on " + paths.Format(w.keys[i]) + " reads every partition"})
	c := constraint{rng: true}
	switch op {
	case ">":
		c.lo, c.loExcl = v, true
	case ">=":
		c.lo = v
	case "<":
		c.hi, c.hiExcl = v, true
	case "<=":
		c.hi = v
	}
	return w.rangeCover(i, c), true
}

// and intersects two covers: a pin on either side pins the conjunction.
func (w *walker) and(a, b cover) cover {
	if a.any {
		return b
	}
	if b.any {
		return a
	}
	if w.merges += len(a.terms) * len(b.terms); w.merges > maxMerges {
		// Keeping one side alone over-approximates the conjunction.
		a.many = true
		return a
	}
	out := cover{many: a.many || b.many}
	seen := map[string]bool{}
	for _, ta := range a.terms {
		for _, tb := range b.terms {
			t, ok := w.merge(ta, tb)
			if !ok {
				continue
			}
			if k := t.key(); !seen[k] {
				if len(out.terms) >= maxTerms {
					out.many = true
					return out
				}
				seen[k] = true
				out.terms = append(out.terms, t)
			}
		}
	}
	return out
}

// or unites two covers that both restrict the key.
func or(a, b cover) cover {
	out := cover{many: a.many || b.many}
	seen := map[string]bool{}
	for _, list := range [][]term{a.terms, b.terms} {
		for _, t := range list {
			if k := t.key(); !seen[k] {
				if len(out.terms) >= maxTerms {
					out.many = true
					return out
				}
				seen[k] = true
				out.terms = append(out.terms, t)
			}
		}
	}
	return out
}

// merge is the conjunction of two terms; false when they cannot both hold
// (two different constants for one path, or ranges that do not meet).
func (w *walker) merge(a, b term) (term, bool) {
	t := make(term, len(a)+len(b))
	for i, c := range a {
		t[i] = c
	}
	for i, c := range b {
		old, ok := t[i]
		switch {
		case !ok:
			t[i] = c
		case old.eq != "" && c.eq != "":
			if old.eq != c.eq && !old.param && !c.param {
				w.none("it asks " + paths.Format(w.keys[i]) + " for two different values")
				return nil, false
			}
		case c.eq != "":
			t[i] = c // an equality is narrower than a range
		case old.eq == "":
			old.lo, old.loExcl = tighter(old.lo, old.loExcl, c.lo, c.loExcl, 1)
			old.hi, old.hiExcl = tighter(old.hi, old.hiExcl, c.hi, c.hiExcl, -1)
			if emptyRange(old) {
				w.none("its range on " + paths.Format(w.keys[i]) + " is empty")
				return nil, false
			}
			t[i] = old
		}
	}
	return t, true
}

// rangeCover is the cover of one range on key path i: none when it is empty.
func (w *walker) rangeCover(i int, c constraint) cover {
	if emptyRange(c) {
		w.none("its range on " + paths.Format(w.keys[i]) + " is empty")
		return cover{}
	}
	return cover{terms: []term{{i: c}}}
}

func (w *walker) nothingText() string {
	if w.nothing == "" {
		return "it names no value of the key"
	}
	return w.nothing
}

func (w *walker) none(why string) {
	if w.nothing == "" {
		w.nothing = why
	}
}

// tighter picks the narrower of two bounds: the greater of two lower
// bounds (sign 1) or the lesser of two upper ones (sign -1). Bounds that
// cannot be compared (a parameter) keep a literal one, which at least
// limits the range.
func tighter(a Expr, aExcl bool, b Expr, bExcl bool, sign int) (Expr, bool) {
	switch {
	case b == nil:
		return a, aExcl
	case a == nil:
		return b, bExcl
	}
	c, ok := compareLit(a, b)
	switch {
	case !ok:
		if _, lit := a.(*Literal); lit {
			return a, aExcl
		}
		return b, bExcl
	case c == 0:
		return a, aExcl || bExcl
	case c*sign > 0:
		return a, aExcl
	}
	return b, bExcl
}

// emptyRange reports whether a range's literal bounds leave no value.
func emptyRange(c constraint) bool {
	if c.lo == nil || c.hi == nil {
		return false
	}
	d, ok := compareLit(c.lo, c.hi)
	return ok && (d > 0 || d == 0 && (c.loExcl || c.hiExcl))
}

// compareLit orders two literals of one type, numbers or strings, as the
// query engine compares them; false for anything else.
func compareLit(a, b Expr) (int, bool) {
	x, ok1 := a.(*Literal)
	y, ok2 := b.(*Literal)
	if !ok1 || !ok2 || x.Kind != y.Kind {
		return 0, false
	}
	switch x.Kind {
	case NumberLit:
		switch {
		case x.Num < y.Num:
			return -1, true
		case x.Num > y.Num:
			return 1, true
		}
		return 0, true
	case StringLit:
		return strings.Compare(x.Str, y.Str), true
	}
	return 0, false
}

// key identifies a term for removing duplicates.
func (t term) key() string {
	idx := make([]int, 0, len(t))
	for i := range t {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	var b strings.Builder
	for _, i := range idx {
		c := t[i]
		fmt.Fprintf(&b, "%d=%q", i, c.eq)
		if c.eq == "" {
			b.WriteString("range")
			for _, x := range []Expr{c.lo, c.hi} {
				b.WriteByte(' ')
				if x != nil {
					b.WriteString(x.String())
				}
			}
		}
		b.WriteByte(';')
	}
	return b.String()
}

// reason picks the note that explains why key path idx is not pinned.
func (w *walker) reason(idx int) string {
	for _, n := range w.notes {
		if n.idx == idx {
			return n.text
		}
	}
	return "no filter on " + paths.Format(w.keys[idx])
}

func ordinal(i int) string {
	if i < 3 {
		return []string{"first", "second", "third"}[i]
	}
	return "level " + strconv.Itoa(i+1) + " as"
}

func (w *walker) routeHash(c cover, keyName string) Routing {
	levels := len(w.keys)
	if c.any {
		return Routing{Kind: FanOut, Reason: w.reason(0)}
	}
	if len(c.terms) == 0 {
		return Routing{Kind: Single, Reason: "the filter can match no item: " + w.nothingText()}
	}
	// The pinned prefix of each conjunction: the leading levels with =.
	var tuples [][]string
	full := true
	minPrefix := levels
	for _, t := range c.terms {
		k := 0
		for k < levels && t[k].eq != "" {
			k++
		}
		if k == 0 {
			var later, which []string
			for i := 1; i < levels; i++ {
				if t[i].eq != "" {
					later = append(later, paths.Format(w.keys[i]))
					which = append(which, ordinal(i))
				}
			}
			pinned := false // another OR branch filters the first level
			for _, o := range c.terms {
				pinned = pinned || o[0].eq != ""
			}
			switch {
			case len(later) == 0:
				return Routing{Kind: FanOut, Reason: w.reason(0)}
			case pinned:
				return Routing{Kind: FanOut, Reason: fmt.Sprintf("an OR branch does not filter %s, the first level of %s: every partition",
					paths.Format(w.keys[0]), keyName)}
			case len(later) == 1:
				return Routing{Kind: FanOut, Reason: fmt.Sprintf("filters only %s, the %s level of %s: every partition", later[0], which[0], keyName)}
			}
			return Routing{Kind: FanOut, Reason: fmt.Sprintf("filters only %s, the %s levels of %s: every partition",
				strings.Join(later, " and "), strings.Join(which, " and "), keyName)}
		}
		if k < levels {
			full = false
		}
		minPrefix = min(minPrefix, k)
		tup := make([]string, k)
		for i := range tup {
			tup[i] = t[i].eq
		}
		tuples = append(tuples, tup)
	}
	n := countPrefixes(tuples)
	if c.many {
		n = 0
	}
	named := make([]string, minPrefix)
	for i := range named {
		named[i] = paths.Format(w.keys[i])
	}
	switch {
	case full && n == 1:
		if levels == 1 {
			return Routing{Kind: Single, Values: 1, Reason: "filters " + keyName + " with ="}
		}
		return Routing{Kind: Single, Values: 1, Reason: "filters every level of " + keyName + " with ="}
	case full:
		what := "filters " + keyName + " with IN or OR"
		if levels > 1 {
			what = "filters every level of " + keyName + " with IN or OR"
		}
		return Routing{Kind: Targeted, Values: n, Reason: what + ": one partition per value, " + quantity(n, "value")}
	}
	levelsText := "the first level"
	if minPrefix > 1 {
		levelsText = "the first " + strconv.Itoa(minPrefix) + " levels"
		if minPrefix == 2 {
			levelsText = "the first two levels"
		}
	}
	return Routing{Kind: Targeted, Values: n, Prefix: minPrefix, Reason: fmt.Sprintf("filters %s, %s of %s: the partitions of %s",
		strings.Join(named, " and "), levelsText, keyName, quantity(n, "prefix"))}
}

// countPrefixes counts distinct tuples, leaving out those inside a shorter
// one (a prefix covers every key that extends it).
func countPrefixes(tuples [][]string) int {
	set := map[string]bool{}
	for _, t := range tuples {
		set[strings.Join(t, "\x00")] = true
	}
	n := 0
	for k := range set {
		parts := strings.Split(k, "\x00")
		covered := false
		for j := 1; j < len(parts); j++ {
			if set[strings.Join(parts[:j], "\x00")] {
				covered = true
				break
			}
		}
		if !covered {
			n++
		}
	}
	return n
}

func quantity(n int, what string) string {
	plural := what + "s"
	if what == "prefix" {
		plural = "prefixes"
	}
	switch n {
	case 0:
		return "an unknown number of " + plural
	case 1:
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + plural
}

// routeSynthetic routes by the source paths of a synthetic key: the
// application computes the key from them, so a query that pins them all
// can name the key's value.
func (w *walker) routeSynthetic(c cover, spec key.Spec, keyName string) Routing {
	if c.any {
		return Routing{Kind: FanOut, Reason: w.syntheticMiss(0, keyName)}
	}
	if len(c.terms) == 0 {
		return Routing{Kind: Single, Reason: "the filter can match no item: " + w.nothingText()}
	}
	// Each synthetic term's path index (the first path equal to it).
	pathIdx := make([]int, len(spec.Terms))
	for j, t := range spec.Terms {
		pathIdx[j] = j
		for i := 0; i < j; i++ {
			if paths.Format(spec.Terms[i].Path) == paths.Format(t.Path) {
				pathIdx[j] = i
				break
			}
		}
	}
	total, unknown, exact := 0, false, true
	pinnedKeys := map[string]bool{}
	var ranged, suffixed []string
	for _, t := range c.terms {
		n := 1
		var tuple []string
		for j, st := range spec.Terms {
			con := t[pathIdx[j]]
			switch {
			case con.eq != "":
				tuple = append(tuple, con.eq)
			case con.rng && st.Bucket != "":
				exact = false
				ranged = append(ranged, fmt.Sprintf("%s with a range: one partition per %s in the range", paths.Format(st.Path), st.Bucket))
				if p := periods(con, st.Bucket); p > 0 {
					n *= p
				} else {
					unknown = true
				}
			case st.Modulus > 0:
				exact = false
				suffixed = append(suffixed, fmt.Sprintf("not %s: one partition per value of %s", paths.Format(st.Path), st))
				n *= st.Modulus
			default:
				return Routing{Kind: FanOut, Reason: w.syntheticMiss(pathIdx[j], keyName)}
			}
		}
		if tuple != nil && len(tuple) == len(spec.Terms) {
			if pinnedKeys[strings.Join(tuple, "\x00")] {
				continue
			}
			pinnedKeys[strings.Join(tuple, "\x00")] = true
		}
		total += n
		if total > 1<<30 {
			unknown = true
		}
	}
	if unknown || c.many {
		total = 0
	}
	var eqPaths []string
	for j, st := range spec.Terms {
		if t0 := c.terms[0][pathIdx[j]]; t0.eq != "" {
			eqPaths = append(eqPaths, paths.Format(st.Path))
		}
	}
	if exact && total == 1 {
		return Routing{Kind: Single, Values: 1, Reason: "filters " + strings.Join(eqPaths, " and ") + " with =: the application computes the one value of " + keyName}
	}
	if exact {
		return Routing{Kind: Targeted, Values: total, Reason: "filters " + strings.Join(eqPaths, " and ") +
			" with IN or OR: the application computes one value of " + keyName + " per combination, " + quantity(total, "value")}
	}
	var parts []string
	if len(eqPaths) > 0 {
		with := " with ="
		if len(c.terms) > 1 {
			with = " with IN or OR"
		}
		parts = append(parts, strings.Join(eqPaths, " and ")+with)
	}
	for _, r := range dedupe(ranged) {
		if len(parts) > 0 {
			r = "and " + r
		}
		parts = append(parts, r)
	}
	for _, s := range dedupe(suffixed) {
		if len(parts) > 0 {
			s = "but " + s
		}
		parts = append(parts, s)
	}
	reason := "filters " + strings.Join(parts, " ")
	if len(suffixed) > 0 {
		if len(c.terms) > 1 {
			reason += " for each value named"
		}
		if total > 0 {
			reason += fmt.Sprintf(", %d in all", total)
		}
	}
	return Routing{Kind: Targeted, Values: total, Reason: reason}
}

func (w *walker) syntheticMiss(idx int, keyName string) string {
	for _, n := range w.notes {
		if n.idx == idx {
			return n.text
		}
	}
	return fmt.Sprintf("no filter on %s, a source of the synthetic key %s: every partition", paths.Format(w.keys[idx]), keyName)
}

func dedupe(s []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// periods counts the time buckets a range spans when both bounds are
// literal times; 0 when unknown.
func periods(c constraint, b key.Bucket) int {
	lo, ok1 := literalTime(c.lo)
	hi, ok2 := literalTime(c.hi)
	if !ok1 || !ok2 || hi.Before(lo) {
		return 0
	}
	start, end := b.Start(lo), b.Start(hi)
	if c.hiExcl && end.Equal(hi) {
		end = step(end, b, -1)
	}
	n := 0
	for t := start; !t.After(end); t = step(t, b, 1) {
		n++
		if n > 100000 {
			return 0
		}
	}
	return n
}

func literalTime(e Expr) (time.Time, bool) {
	l, ok := e.(*Literal)
	if !ok {
		return time.Time{}, false
	}
	switch l.Kind {
	case StringLit:
		return key.Time(&jsontree.Value{Kind: jsontree.String, Str: l.Str})
	case NumberLit:
		return key.Time(&jsontree.Value{Kind: jsontree.Number, Num: l.Num})
	}
	return time.Time{}, false
}

func step(t time.Time, b key.Bucket, n int) time.Time {
	switch b {
	case key.Hour:
		return t.Add(time.Duration(n) * time.Hour)
	case key.Day:
		return t.AddDate(0, 0, n)
	}
	return t.AddDate(0, n, 0)
}
