// Package query reads Azure Cosmos DB for NoSQL queries as people write
// them and says which partitions each one reads under a partition key.
//
// Parse turns query text into a small syntax tree; Query.String prints it
// back in one canonical form that parses to the same tree. Route looks only
// at the filter (WHERE) and says whether a query reads one logical
// partition, a few, or every partition, as the service routes it.
// ReadWorkload reads an application's operations (queries, point reads,
// writes, batches) with their rates, and Assess says what each one costs
// under a key: fan-out reads, key updates, transactions spanning keys.
//
// The package does not execute queries, check that names are bound, know
// an indexing policy or estimate request units: it reads syntax, not data.
package query

import (
	"math"
	"strconv"
	"strings"
)

// Query is one parsed query: SELECT, then the optional clauses.
type Query struct {
	Distinct bool
	Top      Expr     // TOP n: a number Literal or a Param; nil without TOP
	Star     bool     // SELECT *
	Value    bool     // SELECT VALUE e: Select holds the one expression
	Select   []Item   // the projection; nil with Star
	From     []Source // the FROM source, then one per JOIN; nil without FROM
	Where    Expr     // nil without WHERE
	GroupBy  []Expr
	OrderBy  []Order
	Rank     bool // ORDER BY RANK: ordered by score functions
	Offset   Expr // OFFSET n LIMIT m, each a number Literal or a Param; nil without
	Limit    Expr
}

// Item is one projected expression, with its AS name.
type Item struct {
	Expr  Expr
	Alias string
}

// Order is one ORDER BY item. ASC is the default and is not kept.
type Order struct {
	Expr Expr
	Desc bool
}

// Source is the FROM source or one JOIN: a collection, optionally named.
//
//	FROM products AS p      Path products, Alias p
//	JOIN t IN p.tags        Path p.tags, Alias t, In: t ranges over array elements
//	JOIN (SELECT ...) AS s  Subquery, Alias s
type Source struct {
	Alias    string    // the name given to it; "" when the query gives none
	In       bool      // Alias IN collection
	Path     *Property // a container (its name or ROOT) or an alias, with steps
	Subquery *Query    // set instead of Path for a subquery
}

// Expr is a scalar expression: one of *Property, *Param, *Literal,
// *Binary, *Unary, *Between, *In, *Like, *Call, *Subquery, *Ternary,
// *Index, *ArrayLit and *ObjectLit. String prints it in canonical form.
type Expr interface {
	String() string
	prec() int
}

// Property is a path of constant steps from a name: c, c.a.b, c["a b"],
// c.items[0].sku. Path holds property names; an array index is a step
// written in brackets, "[0]". A property named like an index (c["[0]"])
// is kept as an Index expression, so the two never mix.
type Property struct {
	Root string   // the alias or container name the path starts from
	Path []string // steps from Root; nil for Root alone
}

// Param is a query parameter, @name.
type Param struct {
	Name string // without the @
}

// LitKind is the type of a Literal.
type LitKind uint8

const (
	NullLit LitKind = iota
	UndefinedLit
	BoolLit
	NumberLit
	StringLit
)

// Literal is a constant: null, undefined, true, false, a number or a string.
// A minus sign before a number is part of the number.
type Literal struct {
	Kind LitKind
	Bool bool
	Num  float64
	Str  string
}

// Binary is a binary operator. Op is one of AND, OR, =, != (also written
// <>), <, <=, >, >=, +, -, *, /, %, || (string concatenation), ?? (coalesce),
// &, |, ^, <<, >>, >>>.
type Binary struct {
	Op          string
	Left, Right Expr
}

// Unary is NOT, -, + or ~ applied to X.
type Unary struct {
	Op string
	X  Expr
}

// Between is X [NOT] BETWEEN Low AND High.
type Between struct {
	Not          bool
	X, Low, High Expr
}

// In is X [NOT] IN (List...).
type In struct {
	Not  bool
	X    Expr
	List []Expr
}

// Like is X [NOT] LIKE Pattern [ESCAPE 'c'].
type Like struct {
	Not     bool
	X       Expr
	Pattern Expr
	Escape  *Literal // nil without ESCAPE
}

// Call is a function call. Built-in names are case-insensitive and kept in
// upper case; a user-defined function (udf.name) keeps its name as written.
type Call struct {
	Name string
	UDF  bool
	Args []Expr
}

// Subquery is a query used as a value: (SELECT ...), or EXISTS, ARRAY,
// ALL, FIRST or LAST applied to one.
type Subquery struct {
	Op    string // "", EXISTS, ARRAY, ALL, FIRST or LAST
	Query *Query
}

// Ternary is Cond ? Then : Else.
type Ternary struct {
	Cond, Then, Else Expr
}

// Index is X[Key] or X.name where X is not a plain property path, or
// where Key is not a constant: c.items[@i], {a: 1}.a, udf.f(c)[0].
type Index struct {
	X, Key Expr
}

// ArrayLit is an array built in the query: [a, b].
type ArrayLit struct {
	Elems []Expr
}

// ObjectLit is an object built in the query: {name: c.name, "a b": 1}.
type ObjectLit struct {
	Fields []Field
}

// Field is one property of an ObjectLit.
type Field struct {
	Name  string
	Value Expr
}

// Precedence levels, lowest first; Parse and String share them so that
// printing adds exactly the parentheses parsing needs.
const (
	precTernary = iota + 1
	precCoalesce
	precOr
	precAnd
	precNot
	precCmp // =, !=, <, <=, >, >=, IN, LIKE, BETWEEN
	precConcat
	precBitOr
	precBitXor
	precBitAnd
	precShift
	precAdd
	precMul
	precUnary
	precPrimary
)

var binaryPrec = map[string]int{
	"??": precCoalesce, "OR": precOr, "AND": precAnd,
	"=": precCmp, "!=": precCmp, "<": precCmp, "<=": precCmp, ">": precCmp, ">=": precCmp,
	"||": precConcat, "|": precBitOr, "^": precBitXor, "&": precBitAnd,
	"<<": precShift, ">>": precShift, ">>>": precShift,
	"+": precAdd, "-": precAdd, "*": precMul, "/": precMul, "%": precMul,
}

func (e *Property) prec() int  { return precPrimary }
func (e *Param) prec() int     { return precPrimary }
func (e *Call) prec() int      { return precPrimary }
func (e *Subquery) prec() int  { return precPrimary }
func (e *Index) prec() int     { return precPrimary }
func (e *ArrayLit) prec() int  { return precPrimary }
func (e *ObjectLit) prec() int { return precPrimary }
func (e *Ternary) prec() int   { return precTernary }
func (e *Between) prec() int   { return precCmp }
func (e *In) prec() int        { return precCmp }
func (e *Like) prec() int      { return precCmp }

func (e *Literal) prec() int {
	// -1 prints with its sign, so it binds like a unary minus.
	if e.Kind == NumberLit && math.Signbit(e.Num) {
		return precUnary
	}
	return precPrimary
}

func (e *Binary) prec() int {
	if p, ok := binaryPrec[e.Op]; ok {
		return p
	}
	return precPrimary
}

func (e *Unary) prec() int {
	if e.Op == "NOT" {
		return precNot
	}
	return precUnary
}

// String returns the query in canonical form, on one line: keywords in
// upper case, AS before every alias, strings in double quotes, only the
// parentheses precedence needs. Parse(q.String()) gives q back.
func (q *Query) String() string {
	var b strings.Builder
	writeQuery(&b, q)
	return b.String()
}

func writeQuery(b *strings.Builder, q *Query) {
	b.WriteString("SELECT ")
	if q.Distinct {
		b.WriteString("DISTINCT ")
	}
	if q.Top != nil {
		b.WriteString("TOP ")
		writeExpr(b, q.Top, precPrimary)
		b.WriteByte(' ')
	}
	switch {
	case q.Star:
		b.WriteByte('*')
	case q.Value:
		b.WriteString("VALUE ")
		if len(q.Select) > 0 {
			writeExpr(b, q.Select[0].Expr, 0)
		}
	default:
		for i, it := range q.Select {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, it.Expr, 0)
			if it.Alias != "" {
				b.WriteString(" AS ")
				b.WriteString(it.Alias)
			}
		}
	}
	for i, s := range q.From {
		if i == 0 {
			b.WriteString(" FROM ")
		} else {
			b.WriteString(" JOIN ")
		}
		writeSource(b, s)
	}
	if q.Where != nil {
		b.WriteString(" WHERE ")
		writeExpr(b, q.Where, 0)
	}
	if len(q.GroupBy) > 0 {
		b.WriteString(" GROUP BY ")
		writeList(b, q.GroupBy)
	}
	if len(q.OrderBy) > 0 {
		b.WriteString(" ORDER BY ")
		if q.Rank {
			b.WriteString("RANK ")
		}
		for i, o := range q.OrderBy {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, o.Expr, 0)
			if o.Desc {
				b.WriteString(" DESC")
			}
		}
	}
	if q.Offset != nil || q.Limit != nil {
		b.WriteString(" OFFSET ")
		writeExpr(b, q.Offset, precPrimary)
		b.WriteString(" LIMIT ")
		writeExpr(b, q.Limit, precPrimary)
	}
}

func writeSource(b *strings.Builder, s Source) {
	if s.In {
		b.WriteString(s.Alias)
		b.WriteString(" IN ")
	}
	if s.Subquery != nil {
		b.WriteByte('(')
		writeQuery(b, s.Subquery)
		b.WriteByte(')')
	} else if s.Path != nil {
		writeProperty(b, s.Path)
	}
	if !s.In && s.Alias != "" {
		b.WriteString(" AS ")
		b.WriteString(s.Alias)
	}
}

func writeList(b *strings.Builder, list []Expr) {
	for i, e := range list {
		if i > 0 {
			b.WriteString(", ")
		}
		writeExpr(b, e, 0)
	}
}

// writeExpr writes e, in parentheses when it binds more loosely than min.
func writeExpr(b *strings.Builder, e Expr, min int) {
	if e == nil {
		b.WriteString("undefined")
		return
	}
	if e.prec() < min {
		b.WriteByte('(')
		writeExpr(b, e, 0)
		b.WriteByte(')')
		return
	}
	switch e := e.(type) {
	case *Property:
		writeProperty(b, e)
	case *Param:
		b.WriteByte('@')
		b.WriteString(e.Name)
	case *Literal:
		writeLiteral(b, e)
	case *Binary:
		p := e.prec()
		if p == precCmp {
			writeCmpOperand(b, e.Left, precCmp)
		} else {
			writeExpr(b, e.Left, p)
		}
		b.WriteByte(' ')
		b.WriteString(e.Op)
		b.WriteByte(' ')
		if p == precCmp {
			writeCmpOperand(b, e.Right, precCmp+1)
		} else {
			writeExpr(b, e.Right, p+1)
		}
	case *Unary:
		if e.Op == "NOT" {
			b.WriteString("NOT ")
			writeExpr(b, e.X, precNot)
			return
		}
		b.WriteString(e.Op)
		var x strings.Builder
		writeExpr(&x, e.X, precUnary)
		if s := x.String(); len(s) > 0 && (s[0] == '-' || s[0] == '+') {
			b.WriteByte(' ') // "- -1", never "--", which starts a comment
		}
		b.WriteString(x.String())
	case *Between:
		writeCmpOperand(b, e.X, precCmp)
		b.WriteString(not(e.Not, " BETWEEN "))
		writeCmpOperand(b, e.Low, precCmp+1)
		b.WriteString(" AND ")
		writeCmpOperand(b, e.High, precCmp+1)
	case *In:
		writeCmpOperand(b, e.X, precCmp)
		b.WriteString(not(e.Not, " IN ("))
		writeList(b, e.List)
		b.WriteByte(')')
	case *Like:
		writeCmpOperand(b, e.X, precCmp)
		b.WriteString(not(e.Not, " LIKE "))
		writeCmpOperand(b, e.Pattern, precCmp+1)
		if e.Escape != nil {
			b.WriteString(" ESCAPE ")
			writeLiteral(b, e.Escape)
		}
	case *Call:
		if e.UDF {
			b.WriteString("udf.")
		}
		b.WriteString(e.Name)
		b.WriteByte('(')
		writeList(b, e.Args)
		b.WriteByte(')')
	case *Subquery:
		b.WriteString(e.Op)
		b.WriteByte('(')
		if e.Query != nil {
			writeQuery(b, e.Query)
		}
		b.WriteByte(')')
	case *Ternary:
		writeExpr(b, e.Cond, precCoalesce)
		b.WriteString(" ? ")
		writeExpr(b, e.Then, 0)
		b.WriteString(" : ")
		writeExpr(b, e.Else, precTernary)
	case *Index:
		writeExpr(b, e.X, precPrimary)
		if l, ok := e.Key.(*Literal); ok && l.Kind == StringLit && plainName(l.Str) && !isIndexStep(l.Str) {
			_, isProp := e.X.(*Property)
			num, isNum := e.X.(*Literal)
			if !isProp && !(isNum && num.Kind == NumberLit) { // 0.a would read as the number 0.
				b.WriteByte('.')
				b.WriteString(l.Str)
				return
			}
		}
		b.WriteByte('[')
		writeExpr(b, e.Key, 0)
		b.WriteByte(']')
	case *ArrayLit:
		b.WriteByte('[')
		writeList(b, e.Elems)
		b.WriteByte(']')
	case *ObjectLit:
		b.WriteByte('{')
		for i, f := range e.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			if plainName(f.Name) {
				b.WriteString(f.Name)
			} else {
				writeString(b, f.Name)
			}
			b.WriteString(": ")
			writeExpr(b, f.Value, 0)
		}
		b.WriteByte('}')
	}
}

// mixed reports whether e is a bitwise or || operation. Next to a
// comparison it is printed in parentheses: grammars of the language
// disagree on which binds tighter, and the parentheses make the text mean
// the same under both.
func mixed(e Expr) bool {
	p := e.prec()
	return p >= precConcat && p <= precShift
}

// writeCmpOperand writes an operand of a comparison, (a & b) = c rather
// than a & b = c.
func writeCmpOperand(b *strings.Builder, x Expr, min int) {
	if mixed(x) {
		b.WriteByte('(')
		writeExpr(b, x, 0)
		b.WriteByte(')')
		return
	}
	writeExpr(b, x, min)
}

func not(n bool, s string) string {
	if n {
		return " NOT" + s
	}
	return s
}

func writeProperty(b *strings.Builder, p *Property) {
	b.WriteString(p.Root)
	for _, s := range p.Path {
		switch {
		case isIndexStep(s):
			b.WriteString(s)
		case plainName(s):
			b.WriteByte('.')
			b.WriteString(s)
		default:
			b.WriteByte('[')
			writeString(b, s)
			b.WriteByte(']')
		}
	}
}

func writeLiteral(b *strings.Builder, l *Literal) {
	switch l.Kind {
	case NullLit:
		b.WriteString("null")
	case UndefinedLit:
		b.WriteString("undefined")
	case BoolLit:
		b.WriteString(strconv.FormatBool(l.Bool))
	case NumberLit:
		b.WriteString(formatNumber(l.Num))
	case StringLit:
		writeString(b, l.Str)
	}
}

// formatNumber prints the shortest text that reads back as f: whole numbers
// without an exponent up to 1e21, others in the shorter of the two forms.
func formatNumber(f float64) string {
	if f == float64(int64(f)) && f > -1e21 && f < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func writeString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&15])
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
}

// plainName reports whether a property name can follow a dot: an
// identifier that is not a reserved word.
func plainName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return !reserved[strings.ToUpper(s)]
}

// isIndexStep reports whether a Property step is an array index, "[12]".
func isIndexStep(s string) bool {
	if len(s) < 3 || s[0] != '[' || s[len(s)-1] != ']' {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func (e *Property) String() string  { return exprString(e) }
func (e *Param) String() string     { return exprString(e) }
func (e *Literal) String() string   { return exprString(e) }
func (e *Binary) String() string    { return exprString(e) }
func (e *Unary) String() string     { return exprString(e) }
func (e *Between) String() string   { return exprString(e) }
func (e *In) String() string        { return exprString(e) }
func (e *Like) String() string      { return exprString(e) }
func (e *Call) String() string      { return exprString(e) }
func (e *Subquery) String() string  { return exprString(e) }
func (e *Ternary) String() string   { return exprString(e) }
func (e *Index) String() string     { return exprString(e) }
func (e *ArrayLit) String() string  { return exprString(e) }
func (e *ObjectLit) String() string { return exprString(e) }

func exprString(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e, 0)
	return b.String()
}
