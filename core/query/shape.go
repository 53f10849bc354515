package query

import (
	"slices"
	"strings"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/paths"
)

// Shape is what a query's request charge depends on, as far as its text
// tells: which items the index finds for it, how many it may return, and
// the work done on them. Route says where a query goes; Shape says how
// much it reads there.
type Shape struct {
	// Filters are the conjuncts of the WHERE clause that pin a property
	// path to constants (= or IN), which the index serves by lookup: the
	// items they match are what the query loads. Sorted by path.
	Filters []Filter
	// Narrowed: the WHERE clause has other conditions too (a range, a
	// function, an OR, NOT, !=), which may return fewer items than the
	// filters match; the sample cannot tell how many.
	Narrowed bool
	// Scans: one of those conditions is a function the index cannot serve
	// (UPPER, LOWER, a mathematical function, GetCurrentDateTime and its
	// kin, a user-defined function), so the query loads every item the
	// filters match to test it (troubleshoot-query-performance).
	Scans bool
	// Top is TOP n (0 without TOP, or when n is a parameter); TopParam
	// says it was a parameter.
	Top      int
	TopParam bool
	// Offset and Limit are OFFSET n LIMIT m, when both are number
	// literals; the service loads the items it skips.
	Offset, Limit int
	// Sorts: ORDER BY, GROUP BY or DISTINCT, which work on every item
	// loaded before any is returned.
	Sorts bool
	// Aggregate: the projection is an aggregate (COUNT, SUM, AVG, MIN,
	// MAX), which reads every matching item and returns one value.
	Aggregate bool
	// Empty: two filters pin one path to literals no value holds both of
	// (c.a = 'x' AND c.a = 'y'), so the query matches no item.
	Empty bool
	// Ordered are the paths it sorts by or bounds with a range (ORDER BY,
	// <, >, BETWEEN), in the order met: what an application orders by
	// time, a time field most likely.
	Ordered []string
}

// Filter is one property path pinned to constants.
type Filter struct {
	Path string // in Cosmos DB path syntax, /a/b
	// Values is how many values it names: 1 for =, the list's distinct
	// values for IN.
	Values int
	// Literals are the constants when every one is a literal (for looking
	// up how many items hold them); nil when any is a parameter.
	Literals []Literal
}

// ShapeOf reads a query's shape. A FROM subquery is read for its own
// filters; a JOIN makes the query load the items its filters match, as
// without it.
func ShapeOf(q *Query) Shape {
	var s Shape
	if q == nil {
		return s
	}
	if len(q.From) > 0 && q.From[0].Subquery != nil {
		inner := ShapeOf(q.From[0].Subquery)
		s.Filters, s.Narrowed, s.Scans = inner.Filters, inner.Narrowed, inner.Scans
	}
	if top, ok := q.Top.(*Literal); ok && top.Kind == NumberLit {
		s.Top = max(int(top.Num), 0)
	} else if q.Top != nil {
		s.TopParam = true
	}
	if o, ok := q.Offset.(*Literal); ok && o.Kind == NumberLit {
		if l, ok := q.Limit.(*Literal); ok && l.Kind == NumberLit {
			s.Offset, s.Limit = max(int(o.Num), 0), max(int(l.Num), 0)
		}
	}
	s.Sorts = len(q.OrderBy) > 0 || len(q.GroupBy) > 0 || q.Distinct
	s.Aggregate = aggregates(q)
	alias, base := "", []string(nil)
	if len(q.From) > 0 && q.From[0].Path != nil && !q.From[0].In {
		src := q.From[0]
		alias, base = src.Alias, src.Path.Path
		if alias == "" {
			alias = src.Path.Root
			if n := len(src.Path.Path); n > 0 {
				alias = src.Path.Path[n-1]
			}
		}
	}
	byPath := map[string]*Filter{}
	order := func(e Expr) {
		if p, ok := propertyPath(e, alias, base); ok && !slices.Contains(s.Ordered, p) {
			s.Ordered = append(s.Ordered, p)
		}
	}
	for _, c := range conjuncts(q.Where) {
		f, ok := pin(c, alias, base)
		if !ok {
			s.Narrowed = true
			s.Scans = s.Scans || scans(c)
			switch c := c.(type) {
			case *Binary:
				if c.Op == "<" || c.Op == ">" || c.Op == "<=" || c.Op == ">=" {
					order(c.Left)
					order(c.Right)
				}
			case *Between:
				order(c.X)
			}
			continue
		}
		if old := byPath[f.Path]; old != nil {
			// Two pins of one path: literals hold both (or neither, and the
			// query matches nothing); else the narrower holds (a value in
			// both).
			switch {
			case old.Literals != nil && f.Literals != nil:
				old.Literals = slices.DeleteFunc(old.Literals, func(l Literal) bool {
					return !slices.ContainsFunc(f.Literals, func(m Literal) bool { return m.String() == l.String() })
				})
				old.Values = len(old.Literals)
				s.Empty = s.Empty || old.Values == 0
			case f.Values < old.Values:
				*old = f
			}
			continue
		}
		byPath[f.Path] = &f
	}
	for _, o := range q.OrderBy {
		order(o.Expr)
	}
	for _, f := range byPath {
		s.Filters = append(s.Filters, *f)
	}
	slices.SortFunc(s.Filters, func(a, b Filter) int { return strings.Compare(a.Path, b.Path) })
	return s
}

// conjuncts splits a filter at its top-level ANDs.
func conjuncts(e Expr) []Expr {
	if b, ok := e.(*Binary); ok && b.Op == "AND" {
		return append(conjuncts(b.Left), conjuncts(b.Right)...)
	}
	if e == nil {
		return nil
	}
	return []Expr{e}
}

// pin reads "path = constant" or "path IN (constants)" on the FROM alias,
// and an OR of those on one path, which names their values as IN does.
func pin(e Expr, alias string, base []string) (Filter, bool) {
	var prop, val Expr
	var list []Expr
	switch e := e.(type) {
	case *Binary:
		if e.Op == "OR" {
			return pinEither(e, alias, base)
		}
		if e.Op != "=" {
			return Filter{}, false
		}
		prop, val = e.Left, e.Right
		if _, ok := prop.(*Property); !ok {
			prop, val = e.Right, e.Left
		}
		list = []Expr{val}
	case *In:
		if e.Not {
			return Filter{}, false
		}
		prop, list = e.X, e.List
	default:
		return Filter{}, false
	}
	path, ok := propertyPath(prop, alias, base) // not through an array: the index holds elements, not this path
	if !ok {
		return Filter{}, false
	}
	f := Filter{Path: path}
	seen := map[string]bool{}
	literal := true
	for _, v := range list {
		text, param, ok := constant(v)
		if !ok {
			return Filter{}, false
		}
		if seen[text] {
			continue
		}
		seen[text] = true
		f.Values++
		if param {
			literal = false
		} else {
			f.Literals = append(f.Literals, *v.(*Literal))
		}
	}
	if !literal {
		f.Literals = nil
	}
	return f, f.Values > 0
}

// propertyPath is the path, in Cosmos DB syntax, of a property of the
// FROM alias; ok is false for anything else or a step into an array.
func propertyPath(e Expr, alias string, base []string) (string, bool) {
	p, ok := e.(*Property)
	if !ok || alias == "" || p.Root != alias || len(base)+len(p.Path) == 0 {
		return "", false
	}
	segs := append(slices.Clone(base), p.Path...)
	for _, s := range segs {
		if strings.HasPrefix(s, "[") {
			return "", false
		}
	}
	return paths.Format(segs), true
}

// pinEither reads an OR of pins of one path (c.a = @x OR c.a IN (@y, 'z'))
// as the one pin of all their values.
func pinEither(e *Binary, alias string, base []string) (Filter, bool) {
	var either func(e Expr) []Expr
	either = func(e Expr) []Expr {
		if b, ok := e.(*Binary); ok && b.Op == "OR" {
			return append(either(b.Left), either(b.Right)...)
		}
		return []Expr{e}
	}
	var all Filter
	seen := map[string]bool{}
	literal := true
	for i, d := range either(e) {
		f, ok := pin(d, alias, base)
		if !ok || i > 0 && f.Path != all.Path {
			return Filter{}, false
		}
		all.Path = f.Path
		if f.Literals == nil {
			literal = false
			all.Values += f.Values // parameters: each may be any value
			continue
		}
		for _, l := range f.Literals {
			if !seen[l.String()] {
				seen[l.String()] = true
				all.Values++
				all.Literals = append(all.Literals, l)
			}
		}
	}
	if !literal {
		all.Literals = nil
	}
	return all, all.Values > 0
}

// aggregateNames are the aggregate system functions (query language
// reference, "Aggregate functions").
var aggregateNames = []string{"COUNT", "SUM", "AVG", "MIN", "MAX", "COUNTIF", "MAKELIST", "MAKESET"}

// aggregates reports whether the projection aggregates the items.
func aggregates(q *Query) bool {
	for _, it := range q.Select {
		if c, ok := it.Expr.(*Call); ok && !c.UDF && slices.Contains(aggregateNames, c.Name) {
			return true
		}
	}
	return false
}

// unindexed are the system functions that do not use the index in a WHERE
// clause and make the query load each item (troubleshoot-query-performance,
// "Understand which system functions use the index"): Upper/Lower, the
// current-time functions, and the mathematical functions.
var unindexed = []string{"UPPER", "LOWER", "GETCURRENTDATETIME", "GETCURRENTTIMESTAMP", "GETCURRENTTICKS",
	"ABS", "ACOS", "ASIN", "ATAN", "ATN2", "CEILING", "COS", "COT", "DEGREES", "EXP", "FLOOR", "LOG", "LOG10",
	"PI", "POWER", "RADIANS", "RAND", "ROUND", "SIGN", "SIN", "SQRT", "SQUARE", "TAN", "TRUNC"}

// scans reports whether e calls a function the index cannot serve.
func scans(e Expr) bool {
	found := false
	var visit func(e Expr)
	visit = func(e Expr) {
		switch e := e.(type) {
		case *Call:
			if e.UDF || slices.Contains(unindexed, e.Name) {
				found = true
			}
			for _, a := range e.Args {
				visit(a)
			}
		case *Binary:
			visit(e.Left)
			visit(e.Right)
		case *Unary:
			visit(e.X)
		case *Between:
			visit(e.X)
			visit(e.Low)
			visit(e.High)
		case *In:
			visit(e.X)
			for _, x := range e.List {
				visit(x)
			}
		case *Like:
			visit(e.X)
			visit(e.Pattern)
		case *Ternary:
			visit(e.Cond)
			visit(e.Then)
			visit(e.Else)
		}
	}
	visit(e)
	return found
}

// KeyValues are the key values the filters' literals name for a key of
// keyPaths (Cosmos DB path syntax, in the key's order), one for each
// combination of an IN list's literals; ok is false when a path has no
// filter, any value is a parameter, or the combinations pass 1,024 (a
// large IN, which an average serves).
func KeyValues(fs []Filter, keyPaths []string) ([][]epk.Value, bool) {
	values, any, ok := KeyPatterns(fs, keyPaths)
	if !ok || slices.Contains(any, true) {
		return nil, false
	}
	return values, true
}

// KeyPatterns are KeyValues where some filters are parameters: the
// values the literals name, with any marking the levels a parameter
// fills (their values are zero), so that a query for one tenant's open
// issues (tenant = @t AND state = 'open') averages over the tenants' open
// issues, not over every state. ok is false when a path has no filter,
// none has a literal, or the combinations pass 1,024.
func KeyPatterns(fs []Filter, keyPaths []string) (patterns [][]epk.Value, any []bool, ok bool) {
	by := map[string]Filter{}
	for _, f := range fs {
		by[f.Path] = f
	}
	patterns, any = [][]epk.Value{nil}, make([]bool, len(keyPaths))
	literal := false
	for i, p := range keyPaths {
		f, found := by[p]
		if !found {
			return nil, nil, false
		}
		if f.Literals == nil {
			any[i] = true
			for j := range patterns {
				patterns[j] = append(patterns[j], epk.Value{})
			}
			continue
		}
		literal = true
		var next [][]epk.Value
		for _, prefix := range patterns {
			for _, l := range f.Literals {
				v, ok := literalValue(l)
				if !ok {
					return nil, nil, false
				}
				next = append(next, append(slices.Clone(prefix), v))
			}
		}
		patterns = next
		if len(patterns) > 1024 {
			return nil, nil, false
		}
	}
	return patterns, any, literal
}

// literalValue is a literal as a key value.
func literalValue(l Literal) (epk.Value, bool) {
	switch l.Kind {
	case StringLit:
		return epk.Value{Kind: epk.String, Str: l.Str}, true
	case NumberLit:
		return epk.Value{Kind: epk.Number, Num: l.Num}, true
	case BoolLit:
		if l.Bool {
			return epk.Value{Kind: epk.True}, true
		}
		return epk.Value{Kind: epk.False}, true
	case NullLit:
		return epk.Value{Kind: epk.Null}, true
	}
	return epk.Value{}, false
}
