package query

import (
	"reflect"
	"testing"

	"github.com/pkcalc/pkcalc/core/epk"
)

func TestShapeOf(t *testing.T) {
	str := func(s string) Literal { return Literal{Kind: StringLit, Str: s} }
	tests := []struct {
		q    string
		want Shape
	}{
		{"SELECT * FROM c WHERE c.tenantId = @t", Shape{Filters: []Filter{{Path: "/tenantId", Values: 1}}}},
		{"SELECT * FROM c WHERE c.customerId = @c AND c.id = @id",
			Shape{Filters: []Filter{{Path: "/customerId", Values: 1}, {Path: "/id", Values: 1}}}},
		{"SELECT * FROM c WHERE c.state = 'MA'", Shape{Filters: []Filter{{Path: "/state", Values: 1, Literals: []Literal{str("MA")}}}}},
		{"SELECT * FROM c WHERE 'MA' = c.state", Shape{Filters: []Filter{{Path: "/state", Values: 1, Literals: []Literal{str("MA")}}}}},
		{"SELECT * FROM c WHERE c.s IN ('a', 'b', 'a')", Shape{Filters: []Filter{{Path: "/s", Values: 2, Literals: []Literal{str("a"), str("b")}}}}},
		{"SELECT * FROM c WHERE c.s IN (@a, 'b')", Shape{Filters: []Filter{{Path: "/s", Values: 2}}}},
		{"SELECT * FROM c WHERE c.a.b = @x", Shape{Filters: []Filter{{Path: "/a/b", Values: 1}}}},
		{"SELECT * FROM c.customer cu WHERE cu.id = @x", Shape{Filters: []Filter{{Path: "/customer/id", Values: 1}}}},
		{`SELECT * FROM c WHERE c["order date"] = @d`, Shape{Filters: []Filter{{Path: `/"order date"`, Values: 1}}}},
		// Conditions the index serves by range or scan narrow an unknown share.
		{"SELECT * FROM c WHERE c.ns = @ns AND c.ts > @since", Shape{Filters: []Filter{{Path: "/ns", Values: 1}}, Narrowed: true, Ordered: []string{"/ts"}}},
		{"SELECT * FROM c WHERE CONTAINS(c.text, @w)", Shape{Narrowed: true}},
		// troubleshoot-query-performance's scan: UPPER loads every item.
		{`SELECT VALUE c.description FROM c WHERE UPPER(c.description) = "BABYFOOD, DESSERT"`, Shape{Narrowed: true, Scans: true}},
		{"SELECT * FROM c WHERE c.t = @t AND udf.f(c.x) = 1", Shape{Filters: []Filter{{Path: "/t", Values: 1}}, Narrowed: true, Scans: true}},
		{"SELECT * FROM c WHERE c.t = @t AND (c.a > 1 OR ROUND(c.b) = 2)", Shape{Filters: []Filter{{Path: "/t", Values: 1}}, Narrowed: true, Scans: true}},
		{"SELECT * FROM c WHERE c.a = @x OR c.b = @y", Shape{Narrowed: true}},
		{"SELECT * FROM c WHERE c.a != @x", Shape{Narrowed: true}},
		{"SELECT * FROM c WHERE c.items[0].sku = @s", Shape{Narrowed: true}},
		{"SELECT * FROM c", Shape{}},
		// What the service does with the items.
		{"SELECT TOP 10 * FROM c WHERE c.t = @t ORDER BY c.ts DESC", Shape{Filters: []Filter{{Path: "/t", Values: 1}}, Top: 10, Sorts: true, Ordered: []string{"/ts"}}},
		// What it sorts by and bounds, once each, in the order met.
		{"SELECT * FROM c WHERE c.pickup >= @a AND @b > c.pickup AND c.n BETWEEN 1 AND 2 ORDER BY c.pickup, c.dropoff",
			Shape{Narrowed: true, Sorts: true, Ordered: []string{"/pickup", "/n", "/dropoff"}}},
		{"SELECT TOP @n * FROM c", Shape{TopParam: true}},
		{"SELECT * FROM c OFFSET 20 LIMIT 10", Shape{Offset: 20, Limit: 10}},
		{"SELECT VALUE COUNT(1) FROM c WHERE c.t = @t", Shape{Filters: []Filter{{Path: "/t", Values: 1}}, Aggregate: true}},
		{"SELECT c.city, COUNT(1) AS n FROM c GROUP BY c.city", Shape{Sorts: true, Aggregate: true}},
		{"SELECT DISTINCT c.city FROM c", Shape{Sorts: true}},
		// A FROM subquery filters the items the outer query reads.
		{"SELECT * FROM (SELECT * FROM c WHERE c.t = @t) s", Shape{Filters: []Filter{{Path: "/t", Values: 1}}}},
		// The narrower of two pins of one path holds.
		{"SELECT * FROM c WHERE c.t IN (@a, @b) AND c.t = @a", Shape{Filters: []Filter{{Path: "/t", Values: 1}}}},
		// Literals: those in both; none, and the query matches nothing
		// (it was charged 17 items).
		{"SELECT * FROM c WHERE c.t IN ('a', 'b') AND c.t = 'b'", Shape{Filters: []Filter{{Path: "/t", Values: 1, Literals: []Literal{str("b")}}}}},
		{"SELECT * FROM c WHERE c.t = 'a' AND c.t = 'b'", Shape{Filters: []Filter{{Path: "/t", Values: 0, Literals: []Literal{}}}, Empty: true}},
		// An OR of pins of one path names their values, as IN does: it was
		// charged every item, 200 against IN's 15.
		{"SELECT * FROM c WHERE c.t = @a OR c.t = @b", Shape{Filters: []Filter{{Path: "/t", Values: 2}}}},
		{"SELECT * FROM c WHERE c.t = 'a' OR c.t IN ('b', 'a') OR c.t = 'c'", Shape{Filters: []Filter{{Path: "/t", Values: 3, Literals: []Literal{str("a"), str("b"), str("c")}}}}},
		{"SELECT * FROM c WHERE (c.t = @a OR c.t = 'b') AND c.u = @u", Shape{Filters: []Filter{{Path: "/t", Values: 2}, {Path: "/u", Values: 1}}}},
		{"SELECT * FROM c WHERE c.t = @a OR c.u = @b", Shape{Narrowed: true}},
	}
	for _, tt := range tests {
		q, err := Parse(tt.q)
		if err != nil {
			t.Fatalf("%s: %v", tt.q, err)
		}
		if got := ShapeOf(q); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ShapeOf(%s)\n got %+v\nwant %+v", tt.q, got, tt.want)
		}
	}
	if got := ShapeOf(nil); !reflect.DeepEqual(got, Shape{}) {
		t.Errorf("ShapeOf(nil) = %+v", got)
	}
}

// TestKeyValues: the literals of a query's filters, as the key values of
// a key's paths in its order, one for each combination of an IN list's.
func TestKeyValues(t *testing.T) {
	x, one, two := epk.Str("x"), epk.Value{Kind: epk.Number, Num: 1}, epk.Value{Kind: epk.Number, Num: 2}
	for _, tt := range []struct {
		where string
		paths []string
		want  [][]epk.Value // nil for none
	}{
		{"c.b IN (1, 2) AND c.a = 'x'", []string{"/a", "/b"}, [][]epk.Value{{x, one}, {x, two}}},
		{"c.a = 'x'", []string{"/a"}, [][]epk.Value{{x}}},
		{"c.a = true AND c.b = null", []string{"/b", "/a"}, [][]epk.Value{{{Kind: epk.Null}, {Kind: epk.True}}}},
		{"c.a = @a", []string{"/a"}, nil},
		{"c.a = 'x'", []string{"/a", "/b"}, nil}, // /b named by nothing
	} {
		q, err := Parse("SELECT * FROM c WHERE " + tt.where)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := KeyValues(ShapeOf(q).Filters, tt.paths)
		if ok != (tt.want != nil) || ok && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s on %v: %v, %v; want %v", tt.where, tt.paths, got, ok, tt.want)
		}
	}
}

// TestKeyPatterns: where some filters are parameters, the literals still
// name their levels, and the others are any value.
func TestKeyPatterns(t *testing.T) {
	x, one, two, none := epk.Str("x"), epk.Value{Kind: epk.Number, Num: 1}, epk.Value{Kind: epk.Number, Num: 2}, epk.Value{}
	for _, tt := range []struct {
		where string
		paths []string
		want  [][]epk.Value // nil for none
		any   []bool
	}{
		{"c.a = @a AND c.b = 'x'", []string{"/a", "/b"}, [][]epk.Value{{none, x}}, []bool{true, false}},
		{"c.b IN (1, 2) AND c.a = @a", []string{"/a", "/b"}, [][]epk.Value{{none, one}, {none, two}}, []bool{true, false}},
		{"c.a = 'x' AND c.b = 1", []string{"/a", "/b"}, [][]epk.Value{{x, one}}, []bool{false, false}},
		{"c.a = @a AND c.b = @b", []string{"/a", "/b"}, nil, nil}, // no literal: the plain average
		{"c.a = @a", []string{"/a", "/b"}, nil, nil},              // /b named by nothing
	} {
		q, err := Parse("SELECT * FROM c WHERE " + tt.where)
		if err != nil {
			t.Fatal(err)
		}
		got, any, ok := KeyPatterns(ShapeOf(q).Filters, tt.paths)
		if ok != (tt.want != nil) || ok && (!reflect.DeepEqual(got, tt.want) || !reflect.DeepEqual(any, tt.any)) {
			t.Errorf("%s on %v: %v %v, %v; want %v %v", tt.where, tt.paths, got, any, ok, tt.want, tt.any)
		}
	}
}
