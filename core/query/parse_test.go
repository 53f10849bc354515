package query

import (
	"errors"
	"flag"
	"os"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the => lines of testdata/corpus.txt")

// corpusEntry is one block of testdata/corpus.txt.
type corpusEntry struct {
	line  int // of the query's first line
	query string
	want  string
}

func readCorpus(t testing.TB) ([]corpusEntry, []string) {
	data, err := os.ReadFile("testdata/corpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var out []corpusEntry
	var cur []string
	start := 0
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "=> "):
			if len(cur) == 0 {
				t.Fatalf("corpus line %d: a => line without a query", i+1)
			}
			out = append(out, corpusEntry{line: start, query: strings.Join(cur, "\n"), want: strings.TrimPrefix(l, "=> ")})
			cur = nil
		case strings.TrimSpace(l) == "":
			if len(cur) > 0 {
				t.Fatalf("corpus line %d: a query without a => line", start)
			}
		case strings.HasPrefix(l, "#") && len(cur) == 0:
		default:
			if len(cur) == 0 {
				start = i + 1
			}
			cur = append(cur, l)
		}
	}
	return out, lines
}

// TestCorpus parses every query of the corpus, compares its canonical form
// and checks that the canonical form parses back to the same tree.
func TestCorpus(t *testing.T) {
	entries, lines := readCorpus(t)
	if len(entries) < 120 {
		t.Errorf("the corpus has %d queries; keep at least 120", len(entries))
	}
	got := map[int]string{}
	for _, e := range entries {
		q, err := Parse(e.query)
		if err != nil {
			got[e.line] = "error: " + err.Error()
		} else {
			got[e.line] = q.String()
			checkRoundTrip(t, e.query, q)
		}
		if !*update && got[e.line] != e.want {
			t.Errorf("corpus line %d: %s\n got %s\nwant %s", e.line, e.query, got[e.line], e.want)
		}
	}
	if *update {
		var out []string
		var pending string
		for i, l := range lines {
			if s, ok := got[i+1]; ok && pending == "" {
				pending = s
			}
			if strings.HasPrefix(l, "=> ") {
				l, pending = "=> "+pending, ""
			}
			out = append(out, l)
		}
		if err := os.WriteFile("testdata/corpus.txt", []byte(strings.Join(out, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func checkRoundTrip(t *testing.T, src string, q *Query) {
	t.Helper()
	text := q.String()
	again, err := Parse(text)
	if err != nil {
		t.Errorf("%s\ncanonical form %s does not parse: %v", src, text, err)
		return
	}
	if !reflect.DeepEqual(q, again) {
		t.Errorf("%s\ncanonical form %s parses to a different tree: %s", src, text, again)
	}
	if again.String() != text {
		t.Errorf("canonical form is not stable: %s then %s", text, again)
	}
}

func TestParseTree(t *testing.T) {
	q, err := Parse(`SELECT TOP 5 c.id AS i FROM products c JOIN t IN c.tags WHERE c.a["b c"].d[2] = @p AND -3 < 2 ORDER BY c.x DESC`)
	if err != nil {
		t.Fatal(err)
	}
	want := &Query{
		Top:    &Literal{Kind: NumberLit, Num: 5},
		Select: []Item{{Expr: &Property{Root: "c", Path: []string{"id"}}, Alias: "i"}},
		From: []Source{
			{Alias: "c", Path: &Property{Root: "products"}},
			{Alias: "t", In: true, Path: &Property{Root: "c", Path: []string{"tags"}}},
		},
		Where: &Binary{Op: "AND",
			Left:  &Binary{Op: "=", Left: &Property{Root: "c", Path: []string{"a", "b c", "d", "[2]"}}, Right: &Param{Name: "p"}},
			Right: &Binary{Op: "<", Left: &Literal{Kind: NumberLit, Num: -3}, Right: &Literal{Kind: NumberLit, Num: 2}},
		},
		OrderBy: []Order{{Expr: &Property{Root: "c", Path: []string{"x"}}, Desc: true}},
	}
	if !reflect.DeepEqual(q, want) {
		t.Errorf("got  %#v\nwant %#v", q, want)
	}
	// Names that look like array steps stay apart from them.
	q, _ = Parse(`SELECT c["[0]"], c[0], c[1.5], c[-1], c[@i], {a: 1}.a FROM c`)
	wantItems := []Expr{
		&Index{X: &Property{Root: "c"}, Key: &Literal{Kind: StringLit, Str: "[0]"}},
		&Property{Root: "c", Path: []string{"[0]"}},
		&Index{X: &Property{Root: "c"}, Key: &Literal{Kind: NumberLit, Num: 1.5}},
		&Index{X: &Property{Root: "c"}, Key: &Literal{Kind: NumberLit, Num: -1}},
		&Index{X: &Property{Root: "c"}, Key: &Param{Name: "i"}},
		&Index{X: &ObjectLit{Fields: []Field{{Name: "a", Value: &Literal{Kind: NumberLit, Num: 1}}}}, Key: &Literal{Kind: StringLit, Str: "a"}},
	}
	for i, w := range wantItems {
		if !reflect.DeepEqual(q.Select[i].Expr, w) {
			t.Errorf("item %d: got %#v, want %#v", i, q.Select[i].Expr, w)
		}
	}
	checkRoundTrip(t, "", q)
}

func TestPrecedence(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"SELECT VALUE 1 + 2 * 3", "(1 + (2 * 3))"},
		{"SELECT VALUE (1 + 2) * 3", "((1 + 2) * 3)"},
		{"SELECT VALUE 1 - 2 - 3", "((1 - 2) - 3)"},
		{"SELECT VALUE a OR b AND c", "(a OR (b AND c))"},
		{"SELECT VALUE NOT a = 1 AND b", "((NOT (a = 1)) AND b)"},
		{"SELECT VALUE a = NOT b", "(a = (NOT b))"},
		{"SELECT VALUE a || b = c", "((a || b) = c)"},
		{"SELECT VALUE a ?? b OR c", "(a ?? (b OR c))"},
		{"SELECT VALUE a ? b : c ? d : e", "(a ? b : (c ? d : e))"},
		{"SELECT VALUE a & b | c ^ d", "((a & b) | (c ^ d))"},
		{"SELECT VALUE 1 << 2 + 3", "(1 << (2 + 3))"},
		{"SELECT VALUE x BETWEEN 1 + 1 AND 5 AND y", "((x BETWEEN (1 + 1) AND 5) AND y)"},
		{"SELECT VALUE -a.b[0]", "(-a.b[0])"},
		{"SELECT VALUE - 2", "-2"},
	} {
		q, err := Parse(tt.in)
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if got := paren(q.Select[0].Expr); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.in, got, tt.want)
		}
	}
}

// paren prints e with every operator in parentheses, to show its shape.
func paren(e Expr) string {
	switch e := e.(type) {
	case *Binary:
		return "(" + paren(e.Left) + " " + e.Op + " " + paren(e.Right) + ")"
	case *Unary:
		if e.Op == "NOT" {
			return "(NOT " + paren(e.X) + ")"
		}
		return "(" + e.Op + paren(e.X) + ")"
	case *Ternary:
		return "(" + paren(e.Cond) + " ? " + paren(e.Then) + " : " + paren(e.Else) + ")"
	case *Between:
		return "(" + paren(e.X) + " BETWEEN " + paren(e.Low) + " AND " + paren(e.High) + ")"
	}
	return e.String()
}

func TestParseErrors(t *testing.T) {
	for _, tt := range []struct {
		in        string
		line, col int
		msg       string
	}{
		{"SELECT * FROM c WHERE c.a = ORDER BY c.x", 1, 29, "expected an expression after '=', found 'ORDER'"},
		{"SELECT * FROM c WHERE c.tenant =ORDER BY c.x", 1, 33, "expected an expression after '=', found 'ORDER'"},
		{"", 1, 1, "expected SELECT to start the query, found the end of the query"},
		{"   -- nothing\n", 2, 1, "expected SELECT to start the query, found the end of the query"},
		{"SELECT", 1, 7, "expected an expression after 'SELECT', found the end of the query"},
		{"SELECT * FROM c WHERE", 1, 22, "expected an expression after 'WHERE', found the end of the query"},
		{"SELECT * FROM c\nWHERE c.a = 1\nAND", 3, 4, "expected an expression after 'AND', found the end of the query"},
		{"SELECT * FROM c LIMIT 10", 1, 17, "LIMIT needs OFFSET before it: write OFFSET 0 LIMIT n"},
		{"SELECT * FROM c OFFSET 5", 1, 25, "expected LIMIT after OFFSET n, found the end of the query"},
		{"SELECT c.id myid FROM c", 1, 13, "expected AS before the name of a select item, found 'myid'"},
		{"SELECT c.id AS FROM c", 1, 16, "expected a name after AS, found 'FROM'"},
		{"SELECT * FROM c WHERE c.a == 1", 1, 27, "'==' is not NoSQL syntax: compare with '='"},
		{"SELECT * FROM c WHERE c.a = 1 && c.b = 2", 1, 31, "'&&' is not NoSQL syntax: write AND"},
		{"SELECT * FROM c WHERE !c.a", 1, 23, "'!' is not NoSQL syntax: write NOT, or '!=' to compare"},
		{"SELECT * FROM c WHERE c.a = 'abc", 1, 29, "the string that starts here is not closed"},
		{"SELECT * FROM c WHERE c.a = 'ab\nc'", 1, 29, "the string that starts here is not closed on its line"},
		{`SELECT * FROM c WHERE c.a = "a\qb"`, 1, 31, `unknown escape '\q' in a string`},
		{`SELECT "\u12"`, 1, 9, `\u must be followed by four hex digits`},
		{"SELECT * FROM c WHERE c.a IN (SELECT VALUE 1)", 1, 31, "IN takes a list of values, not a subquery: use EXISTS or JOIN"},
		{"SELECT * FROM c WHERE c.a IN ()", 1, 31, "expected an expression after '(', found ')'"},
		{"SELECT * FROM c WHERE (c.a = 1", 1, 31, "expected ')' to close the '(' at line 1, column 23, found the end of the query"},
		{"SELECT * FROM c x y", 1, 19, "expected JOIN, WHERE, GROUP BY, ORDER BY, OFFSET or the end of the query, found 'y'"},
		{"SELECT * FROM c WHERE c.a = 1 ORDER BY c.a GROUP BY c.b", 1, 44, "expected OFFSET or the end of the query, found 'GROUP'"},
		{"SELECT *, c.id FROM c", 1, 9, "expected FROM, WHERE, GROUP BY, ORDER BY, OFFSET or the end of the query, found ','"},
		{"SELECT a b", 1, 10, "expected AS before the name of a select item, found 'b'"},
		{"SELECT TOP -1 * FROM c", 1, 12, "expected a number or a @parameter after TOP, found '-'"},
		{"SELECT TOP 2.5 * FROM c", 1, 12, "TOP takes a whole number, not 2.5"},
		{"SELECT * FROM c WHERE c.a = @", 1, 29, "expected a parameter name after '@', as in @tenantId"},
		{"SELECT * FROM c WHERE c.a = 1e999", 1, 29, "the number 1e999 is too large"},
		{"SELECT * FROM c WHERE c.a = #x", 1, 29, "unexpected character '#'"},
		{"SELECT * FROM c WHERE c.é = 1", 1, 25, "unexpected character 'é'"},
		// A bidirectional override or a C1 control is named, not written.
		{"SELECT * FROM c WHERE c.\u202eb = 1", 1, 25, "unexpected character U+202E"},
		{"SELECT * FROM c WHERE c.a = \u009b1", 1, 29, "unexpected character U+009B"},
		{"SELECT * FROM c WHERE c.a = 1 ?", 1, 32, "expected an expression after '?', found the end of the query"},
		{"SELECT * FROM c WHERE c.a ? 1 2", 1, 31, "expected ':' for the '?' at line 1, column 27, found the number 2"},
		{"SELECT * FROM c WHERE c.a BETWEEN 1 OR 2", 1, 37, "expected AND between the two bounds of BETWEEN, found 'OR'"},
		{"SELECT * FROM c JOIN IN c.tags", 1, 22, "expected 'alias IN array', a collection or '(' after JOIN, found 'IN'"},
		{"SELECT * FROM WHERE", 1, 15, "expected a container name, an alias or '(' after 'FROM', found 'WHERE'"},
		{"SELECT * FROM c WHERE EXISTS (c.a)", 1, 31, "expected SELECT after EXISTS(, found 'c'"},
		{"SELECT udf.(1)", 1, 12, "expected a function name and '(' after 'udf.', found '('"},
		{"SELECT {a 1}", 1, 11, "expected ':' after the property name 'a', found the number 1"},
		{"SELECT [1, 2", 1, 13, "expected ']' to close the array at line 1, column 8, found the end of the query"},
		{"SELECT c.a. FROM c", 1, 13, "expected a property name after '.', found 'FROM'"},
		{"SELECT * FROM c WHERE c.a LIKE 'x' ESCAPE 1", 1, 43, "expected a string after ESCAPE, found the number 1"},
		{"SELECT * FROM c ORDER c.a", 1, 23, "expected BY after ORDER, found 'c'"},
		{"SELECT * FROM c WHERE c.a = 1)", 1, 30, "expected GROUP BY, ORDER BY, OFFSET or the end of the query, found ')'"},
		{"SELECT COUNT(*) FROM c", 1, 14, "COUNT(*) is not NoSQL syntax: write COUNT(1)"},
		{"SELECT * FROM c; SELECT 1", 1, 16, "unexpected ';': a query is one statement, and ';' may only end it"},
		{"SELECT * FROM c\n  WHERE c.name = 'é' AND = 2", 2, 26, "expected an expression after 'AND', found '='"},
	} {
		_, err := Parse(tt.in)
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q) = %v, want an *Error", tt.in, err)
			continue
		}
		if pe.Line != tt.line || pe.Column != tt.col || pe.Msg != tt.msg {
			t.Errorf("Parse(%q):\n got line %d, column %d: %s\nwant line %d, column %d: %s", tt.in, pe.Line, pe.Column, pe.Msg, tt.line, tt.col, tt.msg)
		}
		if want := tt.in[:pe.Offset]; pe.Offset > len(tt.in) || strings.Count(want, "\n")+1 != pe.Line {
			t.Errorf("Parse(%q): offset %d does not match line %d", tt.in, pe.Offset, pe.Line)
		}
	}
}

func TestDepthLimit(t *testing.T) {
	for _, tt := range []struct {
		open, close string
	}{
		{"(", ")"},
		{"[", "]"},
		{"{a: ", "}"},
		{"- ", ""},
		{"NOT ", ""},
		{"ABS(", ")"},
		{"(SELECT VALUE ", ")"},
		{"EXISTS(SELECT VALUE ", ")"},
		{"1 ? 2 : ", ""},
	} {
		ok := "SELECT VALUE " + strings.Repeat(tt.open, 200) + "1" + strings.Repeat(tt.close, 200)
		if _, err := Parse(ok); err != nil {
			t.Errorf("200 levels of %q: %v", tt.open, err)
		}
		deep := "SELECT VALUE " + strings.Repeat(tt.open, 10000) + "1" + strings.Repeat(tt.close, 10000)
		_, err := Parse(deep)
		var pe *Error
		if !errors.As(err, &pe) || !strings.Contains(pe.Msg, "nests more than 256 levels") {
			t.Errorf("10000 levels of %q: %v", tt.open, err)
		}
	}
	// Long flat chains are not nesting.
	chain := "SELECT * FROM c WHERE c.a = 0" + strings.Repeat(" OR c.a = 1", 5000)
	if _, err := Parse(chain); err != nil {
		t.Errorf("a chain of 5000 ORs: %v", err)
	}
	if _, err := Parse("SELECT VALUE '" + strings.Repeat("x", maxLen) + "'"); err == nil || !strings.Contains(err.Error(), "512 KB") {
		t.Errorf("a query over 512 KB: %v", err)
	}
}

func TestLexerDetails(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"SELECT\u00a0*\u00a0FROM c", "SELECT * FROM c"},
		{"\ufeffSELECT * FROM c", "SELECT * FROM c"},
		{"SELECT VALUE 'a--b' -- not a comment inside a string", `SELECT VALUE "a--b"`},
		{"SELECT VALUE 1 - -1", "SELECT VALUE 1 - -1"},
		{"SELECT VALUE - -c.a", "SELECT VALUE - -c.a"},
		{"SELECT VALUE c.a.b.c", "SELECT VALUE c.a.b.c"},
		{"SELECT VALUE [.5, 5., 0.5e1]", "SELECT VALUE [0.5, 5, 5]"},
		{`SELECT VALUE "\ud800x"`, "SELECT VALUE \"\ufffdx\""},
		{`SELECT VALUE "\u0001\/"`, `SELECT VALUE "\u0001/"`},
		{"SELECT VALUE TRUE AND False OR NULL", "SELECT VALUE true AND false OR null"},
		{"select value udf.MyFn(1)", "SELECT VALUE udf.MyFn(1)"},
		{"select value array_contains(@a, 1)", "SELECT VALUE ARRAY_CONTAINS(@a, 1)"},
		{"SELECT * FROM c WHERE c.a = 1;  -- done\n", "SELECT * FROM c WHERE c.a = 1"},
		{"SELECT VALUE left('abc', 1)", `SELECT VALUE LEFT("abc", 1)`},
		// Bitwise and || operands of a comparison keep their parentheses.
		{"SELECT VALUE c.a || c.b = 'x'", `SELECT VALUE (c.a || c.b) = "x"`},
		{"SELECT VALUE c.a = c.b | 1", `SELECT VALUE c.a = (c.b | 1)`},
		{"SELECT VALUE c.a & 1 IN (1)", `SELECT VALUE (c.a & 1) IN (1)`},
		{"SELECT VALUE c.a BETWEEN c.b << 1 AND 9", `SELECT VALUE c.a BETWEEN (c.b << 1) AND 9`},
		{"SELECT VALUE c.a || c.b || (c.c | 2)", `SELECT VALUE c.a || c.b || c.c | 2`},
	} {
		q, err := Parse(tt.in)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if got := q.String(); got != tt.want {
			t.Errorf("%q: got %s, want %s", tt.in, got, tt.want)
		}
		checkRoundTrip(t, tt.in, q)
	}
}
