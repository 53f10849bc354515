package query

import (
	"math"
	"strconv"
	"strings"
)

const (
	// maxDepth is how deeply expressions and subqueries may nest. Deeper
	// text is refused with an error rather than risking the stack.
	maxDepth = 256
	// maxLen is the longest query Cosmos DB accepts (512 KB).
	maxLen = 512 << 10
)

// Parse reads one query. Keywords are case-insensitive; -- starts a comment
// that runs to the end of the line; a final ';' is allowed. A syntax error
// is an *Error that says where it is, what was expected and what was
// found. Expressions and subqueries may nest 256 levels deep.
func Parse(text string) (*Query, error) {
	if len(text) > maxLen {
		return nil, errorAt(text, maxLen, "the query is longer than 512 KB, the most Cosmos DB accepts")
	}
	toks, lerr := lex(text)
	if lerr != nil {
		return nil, lerr
	}
	p := &parser{src: text, toks: toks}
	return p.run()
}

type parser struct {
	src   string
	toks  []token
	i     int
	depth int
}

// bail carries a syntax error up the parser's recursion to run.
type bail struct{ err *Error }

func (p *parser) run() (q *Query, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bail)
			if !ok {
				panic(r)
			}
			q, err = nil, b.err
		}
	}()
	if p.tok().kind == tEOF {
		p.fail(p.tok(), "expected SELECT to start the query")
	}
	q = p.query()
	if t := p.tok(); t.kind != tEOF {
		p.fail(t, "expected "+clausesAfter(q)+" or the end of the query")
	}
	return q, nil
}

// clausesAfter lists the clauses that may still follow what q has.
func clausesAfter(q *Query) string {
	var c []string
	switch {
	case q.Offset != nil:
	case len(q.OrderBy) > 0:
		c = []string{"OFFSET"}
	case len(q.GroupBy) > 0:
		c = []string{"ORDER BY", "OFFSET"}
	case q.Where != nil:
		c = []string{"GROUP BY", "ORDER BY", "OFFSET"}
	case q.From != nil:
		c = []string{"JOIN", "WHERE", "GROUP BY", "ORDER BY", "OFFSET"}
	default:
		c = []string{"FROM", "WHERE", "GROUP BY", "ORDER BY", "OFFSET"}
		if !q.Star && !q.Value {
			c = append([]string{"','", "AS"}, c...)
		}
	}
	if len(c) == 0 {
		return "nothing more"
	}
	if len(c) == 1 {
		return c[0]
	}
	return strings.Join(c[:len(c)-1], ", ") + ", " + c[len(c)-1]
}

func (p *parser) tok() token { return p.toks[p.i] }

func (p *parser) peekN(n int) token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) isKw(kw string) bool { t := p.tok(); return t.kind == tWord && t.kw == kw }
func (p *parser) isOp(op string) bool { t := p.tok(); return t.kind == tPunct && t.text == op }

func (p *parser) acceptKw(kw string) bool {
	if p.isKw(kw) {
		p.i++
		return true
	}
	return false
}

func (p *parser) acceptOp(op string) bool {
	if p.isOp(op) {
		p.i++
		return true
	}
	return false
}

func (p *parser) expectKw(kw, what string) {
	if !p.acceptKw(kw) {
		p.fail(p.tok(), "expected "+kw+" "+what)
	}
}

func (p *parser) expectOp(op, what string) {
	if !p.acceptOp(op) {
		p.fail(p.tok(), "expected '"+op+"' "+what)
	}
}

// fail stops parsing with "<msg>, found <t>" at t.
func (p *parser) fail(t token, msg string) {
	panic(bail{errorAt(p.src, t.pos, msg+", found "+p.describe(t))})
}

func (p *parser) failAt(pos int, msg string) {
	panic(bail{errorAt(p.src, pos, msg)})
}

func (p *parser) describe(t token) string {
	switch t.kind {
	case tEOF:
		return "the end of the query"
	case tString:
		return "the string " + clip(p.src[t.pos:t.end])
	case tNumber:
		return "the number " + clip(t.text)
	}
	return "'" + clip(p.src[t.pos:t.end]) + "'"
}

// prevText is the token before the current one, for "after X" messages.
func (p *parser) prevText() string {
	if p.i == 0 {
		return "the start"
	}
	t := p.toks[p.i-1]
	return "'" + clip(p.src[t.pos:t.end]) + "'"
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.failAt(p.tok().pos, "the query nests more than 256 levels deep here")
	}
}

func (p *parser) leave() { p.depth-- }

func isIdent(t token) bool { return t.kind == tWord && t.kw == "" }

func (p *parser) query() *Query {
	p.enter()
	defer p.leave()
	p.expectKw("SELECT", "to start the query")
	q := &Query{}
	q.Distinct = p.acceptKw("DISTINCT")
	if p.acceptKw("TOP") {
		q.Top = p.count("TOP")
	}
	switch {
	case p.acceptOp("*"):
		q.Star = true
	case p.acceptKw("VALUE"):
		q.Value = true
		q.Select = []Item{{Expr: p.expr()}}
	default:
		for {
			it := Item{Expr: p.expr()}
			if p.acceptKw("AS") {
				it.Alias = p.name("AS")
			} else if t := p.tok(); isIdent(t) {
				p.fail(t, "expected AS before the name of a select item")
			}
			q.Select = append(q.Select, it)
			if !p.acceptOp(",") {
				break
			}
		}
	}
	if p.acceptKw("FROM") {
		q.From = append(q.From, p.source())
		for p.acceptKw("JOIN") {
			q.From = append(q.From, p.source())
		}
	}
	if p.acceptKw("WHERE") {
		q.Where = p.expr()
	}
	if p.acceptKw("GROUP") {
		p.expectKw("BY", "after GROUP")
		q.GroupBy = p.list()
	}
	if p.acceptKw("ORDER") {
		p.expectKw("BY", "after ORDER")
		q.Rank = p.acceptKw("RANK")
		for {
			o := Order{Expr: p.expr()}
			if p.acceptKw("DESC") {
				o.Desc = true
			} else {
				p.acceptKw("ASC")
			}
			q.OrderBy = append(q.OrderBy, o)
			if !p.acceptOp(",") {
				break
			}
		}
	}
	if p.isKw("LIMIT") {
		p.failAt(p.tok().pos, "LIMIT needs OFFSET before it: write OFFSET 0 LIMIT n")
	}
	if p.acceptKw("OFFSET") {
		q.Offset = p.count("OFFSET")
		p.expectKw("LIMIT", "after OFFSET n")
		q.Limit = p.count("LIMIT")
	}
	return q
}

// count reads the number after TOP, OFFSET or LIMIT: a whole number or a
// parameter.
func (p *parser) count(after string) Expr {
	t := p.tok()
	switch t.kind {
	case tParam:
		p.i++
		return &Param{Name: t.text}
	case tNumber:
		if t.num != math.Trunc(t.num) || t.num > 1<<53 {
			p.failAt(t.pos, after+" takes a whole number, not "+clip(t.text))
		}
		p.i++
		return &Literal{Kind: NumberLit, Num: t.num}
	}
	p.fail(t, "expected a number or a @parameter after "+after)
	return nil
}

// name reads an alias: an identifier that is not a reserved word.
func (p *parser) name(after string) string {
	t := p.tok()
	if !isIdent(t) {
		p.fail(t, "expected a name after "+after)
	}
	p.i++
	return t.text
}

func (p *parser) source() Source {
	var s Source
	t := p.tok()
	if isIdent(t) && p.peekN(1).kind == tWord && p.peekN(1).kw == "IN" {
		s.Alias, s.In = t.text, true
		p.i += 2
	}
	if p.isOp("(") {
		open := p.next()
		if !p.isKw("SELECT") {
			p.fail(p.tok(), "expected SELECT after '(' in FROM or JOIN")
		}
		s.Subquery = p.query()
		p.closeParen(open)
	} else {
		s.Path = p.collection()
	}
	if !s.In {
		if p.acceptKw("AS") {
			s.Alias = p.name("AS")
		} else if isIdent(p.tok()) {
			s.Alias = p.next().text
		}
	}
	return s
}

// collection reads a container name, ROOT or an alias, with steps:
// c.children, c["a b"], c.items[0].
func (p *parser) collection() *Property {
	t := p.tok()
	if !isIdent(t) {
		if p.i > 0 && p.toks[p.i-1].kw == "JOIN" {
			p.fail(t, "expected 'alias IN array', a collection or '(' after JOIN")
		}
		p.fail(t, "expected a container name, an alias or '(' after "+p.prevText())
	}
	p.i++
	prop := &Property{Root: t.text}
	for {
		switch {
		case p.isOp("."):
			n := p.propertyName()
			prop.Path = append(prop.Path, n.text)
		case p.isOp("["):
			open := p.next()
			k := p.tok()
			switch {
			case k.kind == tString && !isIndexStep(k.text):
				prop.Path = append(prop.Path, k.text)
			case k.kind == tNumber && indexable(k.num):
				prop.Path = append(prop.Path, "["+strconv.FormatInt(int64(k.num), 10)+"]")
			default:
				p.fail(k, "expected a property name in quotes or an array index after '[' in FROM")
			}
			p.i++
			p.expectOp("]", "to close the '[' at "+position(p.src, open.pos))
		default:
			return prop
		}
	}
}

// propertyName reads ".name". A reserved word may name a property
// (c.value) when it follows the dot directly; "c.a. FROM" is a stray dot.
func (p *parser) propertyName() token {
	dot := p.next()
	n := p.tok()
	if n.kind != tWord || n.kw != "" && n.pos != dot.end {
		p.fail(n, "expected a property name after '.'")
	}
	p.i++
	return n
}

func indexable(f float64) bool { return f >= 0 && f == math.Trunc(f) && f <= 1<<53 }

func position(src string, off int) string {
	e := errorAt(src, off, "")
	return "line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column)
}

func (p *parser) closeParen(open token) {
	p.expectOp(")", "to close the '(' at "+position(p.src, open.pos))
}

func (p *parser) list() []Expr {
	l := []Expr{p.expr()}
	for p.acceptOp(",") {
		l = append(l, p.expr())
	}
	return l
}

func (p *parser) expr() Expr {
	p.enter()
	defer p.leave()
	return p.ternary()
}

func (p *parser) ternary() Expr {
	c := p.coalesce()
	if !p.isOp("?") {
		return c
	}
	q := p.next()
	p.enter()
	defer p.leave()
	then := p.ternary()
	p.expectOp(":", "for the '?' at "+position(p.src, q.pos))
	return &Ternary{Cond: c, Then: then, Else: p.ternary()}
}

func (p *parser) coalesce() Expr {
	x := p.or()
	for p.acceptOp("??") {
		x = &Binary{Op: "??", Left: x, Right: p.or()}
	}
	return x
}

func (p *parser) or() Expr {
	x := p.and()
	for p.acceptKw("OR") {
		x = &Binary{Op: "OR", Left: x, Right: p.and()}
	}
	return x
}

func (p *parser) and() Expr {
	x := p.not()
	for p.acceptKw("AND") {
		x = &Binary{Op: "AND", Left: x, Right: p.not()}
	}
	return x
}

// not reads NOT as SQL has it: NOT c.a = 1 is NOT (c.a = 1).
func (p *parser) not() Expr {
	if !p.isKw("NOT") {
		return p.comparison()
	}
	p.i++
	p.enter()
	defer p.leave()
	return &Unary{Op: "NOT", X: p.not()}
}

var comparisons = map[string]bool{"=": true, "!=": true, "<>": true, "<": true, "<=": true, ">": true, ">=": true}

func (p *parser) comparison() Expr {
	x := p.binary(precConcat)
	for {
		t := p.tok()
		if t.kind == tPunct && comparisons[t.text] {
			p.i++
			op := t.text
			if op == "<>" {
				op = "!="
			}
			x = &Binary{Op: op, Left: x, Right: p.binary(precConcat)}
			continue
		}
		negated := false
		if t.kw == "NOT" {
			switch p.peekN(1).kw {
			case "IN", "LIKE", "BETWEEN":
				negated = true
				p.i++
				t = p.tok()
			}
		}
		switch t.kw {
		case "IN":
			p.i++
			open := p.tok()
			p.expectOp("(", "after IN")
			if p.isKw("SELECT") {
				p.failAt(p.tok().pos, "IN takes a list of values, not a subquery: use EXISTS or JOIN")
			}
			list := p.list()
			p.closeParen(open)
			x = &In{Not: negated, X: x, List: list}
		case "LIKE":
			p.i++
			l := &Like{Not: negated, X: x, Pattern: p.binary(precConcat)}
			if p.acceptKw("ESCAPE") {
				e := p.tok()
				if e.kind != tString {
					p.fail(e, "expected a string after ESCAPE")
				}
				p.i++
				l.Escape = &Literal{Kind: StringLit, Str: e.text}
			}
			x = l
		case "BETWEEN":
			p.i++
			b := &Between{Not: negated, X: x, Low: p.binary(precConcat)}
			p.expectKw("AND", "between the two bounds of BETWEEN")
			b.High = p.binary(precConcat)
			x = b
		default:
			return x
		}
	}
}

// binary reads the operators from || up to * by precedence climbing, so a
// long chain (a + b + c ...) loops instead of recursing.
func (p *parser) binary(min int) Expr {
	x := p.unary()
	for {
		t := p.tok()
		if t.kind != tPunct {
			return x
		}
		prec, ok := binaryPrec[t.text]
		if !ok || prec < min || prec < precConcat {
			return x
		}
		p.i++
		x = &Binary{Op: t.text, Left: x, Right: p.binary(prec + 1)}
	}
}

func (p *parser) unary() Expr {
	t := p.tok()
	op := ""
	switch {
	case t.kind == tPunct && (t.text == "-" || t.text == "+" || t.text == "~"):
		op = t.text
	case t.kw == "NOT":
		op = "NOT"
	default:
		return p.postfix(p.primary())
	}
	p.i++
	p.enter()
	defer p.leave()
	x := p.unary()
	if l, ok := x.(*Literal); ok && op == "-" && l.Kind == NumberLit {
		return &Literal{Kind: NumberLit, Num: -l.Num}
	}
	return &Unary{Op: op, X: x}
}

func (p *parser) primary() Expr {
	t := p.tok()
	switch t.kind {
	case tNumber:
		p.i++
		return &Literal{Kind: NumberLit, Num: t.num}
	case tString:
		p.i++
		return &Literal{Kind: StringLit, Str: t.text}
	case tParam:
		p.i++
		return &Param{Name: t.text}
	case tPunct:
		switch t.text {
		case "(":
			p.i++
			if p.isKw("SELECT") {
				s := &Subquery{Query: p.subqueryBody()}
				p.closeParen(t)
				return s
			}
			x := p.expr()
			p.closeParen(t)
			return x
		case "[":
			p.i++
			a := &ArrayLit{}
			if !p.acceptOp("]") {
				a.Elems = p.list()
				p.expectOp("]", "to close the array at "+position(p.src, t.pos))
			}
			return a
		case "{":
			p.i++
			return p.object(t)
		}
	case tWord:
		return p.word(t)
	}
	p.fail(t, "expected an expression after "+p.prevText())
	return nil
}

func (p *parser) object(open token) Expr {
	o := &ObjectLit{}
	if p.acceptOp("}") {
		return o
	}
	for {
		k := p.tok()
		if k.kind != tWord && k.kind != tString {
			p.fail(k, "expected a property name in the object at "+position(p.src, open.pos))
		}
		p.i++
		p.expectOp(":", "after the property name "+p.describe(k))
		o.Fields = append(o.Fields, Field{Name: k.text, Value: p.expr()})
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp("}", "to close the object at "+position(p.src, open.pos))
	return o
}

// word reads what starts with a word: a literal, a function call, a
// subquery operator or a property path.
func (p *parser) word(t token) Expr {
	next := p.peekN(1)
	isCall := next.kind == tPunct && next.text == "("
	up := strings.ToUpper(t.text)
	switch t.kw {
	case "TRUE", "FALSE":
		p.i++
		return &Literal{Kind: BoolLit, Bool: t.kw == "TRUE"}
	case "NULL":
		p.i++
		return &Literal{Kind: NullLit}
	case "UNDEFINED":
		p.i++
		return &Literal{Kind: UndefinedLit}
	case "EXISTS", "ARRAY":
		p.i++
		return p.subquery(t.kw, "after "+t.kw)
	case "UDF":
		if next.kind == tPunct && next.text == "." {
			n := p.peekN(2)
			if n.kind == tWord && p.peekN(3).kind == tPunct && p.peekN(3).text == "(" {
				p.i += 3
				return &Call{Name: n.text, UDF: true, Args: p.args()}
			}
			p.fail(n, "expected a function name and '(' after 'udf.'")
		}
	case "LEFT", "RIGHT":
		if isCall {
			p.i++
			return &Call{Name: t.kw, Args: p.args()}
		}
	case "":
		if isCall {
			if (up == "ALL" || up == "FIRST" || up == "LAST") && p.peekN(2).kw == "SELECT" {
				p.i++
				return p.subquery(up, "")
			}
			if up == "COUNT" && p.peekN(2).kind == tPunct && p.peekN(2).text == "*" {
				p.failAt(p.peekN(2).pos, "COUNT(*) is not NoSQL syntax: write COUNT(1)")
			}
			p.i++
			return &Call{Name: up, Args: p.args()}
		}
		p.i++
		return &Property{Root: t.text}
	}
	p.fail(t, "expected an expression after "+p.prevText())
	return nil
}

func (p *parser) subquery(op, after string) Expr {
	open := p.tok()
	p.expectOp("(", after)
	if !p.isKw("SELECT") {
		p.fail(p.tok(), "expected SELECT after "+op+"(")
	}
	s := &Subquery{Op: op, Query: p.subqueryBody()}
	p.closeParen(open)
	return s
}

// subqueryBody reads a query inside an expression: one level of nesting
// with the expression that holds it, not two.
func (p *parser) subqueryBody() *Query {
	p.depth--
	q := p.query()
	p.depth++
	return q
}

// args reads a parenthesized argument list; the current token is "(".
func (p *parser) args() []Expr {
	open := p.next()
	if p.acceptOp(")") {
		return nil
	}
	l := p.list()
	p.closeParen(open)
	return l
}

// postfix applies .name and [index] to x. Constant steps on a property
// extend its path; the rest become Index expressions.
func (p *parser) postfix(x Expr) Expr {
	for {
		switch {
		case p.isOp("."):
			n := p.propertyName()
			if prop, ok := x.(*Property); ok {
				prop.Path = append(prop.Path, n.text)
			} else {
				x = &Index{X: x, Key: &Literal{Kind: StringLit, Str: n.text}}
			}
		case p.isOp("["):
			open := p.next()
			k := p.expr()
			p.expectOp("]", "to close the '[' at "+position(p.src, open.pos))
			prop, ok := x.(*Property)
			l, isLit := k.(*Literal)
			switch {
			case ok && isLit && l.Kind == StringLit && !isIndexStep(l.Str):
				prop.Path = append(prop.Path, l.Str)
			case ok && isLit && l.Kind == NumberLit && indexable(l.Num) && !math.Signbit(l.Num):
				prop.Path = append(prop.Path, "["+strconv.FormatInt(int64(l.Num), 10)+"]")
			default:
				x = &Index{X: x, Key: k}
			}
		default:
			return x
		}
	}
}
