package query

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pkcalc/pkcalc/core/human"
)

// Error is a syntax error at a position in the query text.
type Error struct {
	Offset int // bytes from the start of the text
	Line   int // from 1
	Column int // characters from the start of the line, from 1
	Msg    string
}

func (e *Error) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// errorAt builds an Error for a byte offset in src.
func errorAt(src string, off int, msg string) *Error {
	if off > len(src) {
		off = len(src)
	}
	line := 1 + strings.Count(src[:off], "\n")
	start := strings.LastIndexByte(src[:off], '\n') + 1
	return &Error{Offset: off, Line: line, Column: 1 + utf8.RuneCountInString(src[start:off]), Msg: msg}
}

type tokKind uint8

const (
	tEOF tokKind = iota
	tWord
	tNumber
	tString
	tParam
	tPunct
)

type token struct {
	kind     tokKind
	pos, end int     // byte offsets of the token in the text
	text     string  // word as written, operator, parameter name, or decoded string
	kw       string  // for a reserved word: the word in upper case
	num      float64 // tNumber
}

// reserved words cannot name an alias or start an expression as a name.
// ALL, FIRST and LAST are keywords only before "(SELECT".
var reserved = map[string]bool{
	"AND": true, "ARRAY": true, "AS": true, "ASC": true, "BETWEEN": true, "BY": true,
	"DESC": true, "DISTINCT": true, "ESCAPE": true, "EXISTS": true, "FALSE": true,
	"FROM": true, "GROUP": true, "IN": true, "JOIN": true, "LEFT": true, "LIKE": true,
	"LIMIT": true, "NOT": true, "NULL": true, "OFFSET": true, "OR": true, "ORDER": true,
	"RANK": true, "RIGHT": true, "SELECT": true, "TOP": true, "TRUE": true, "UDF": true,
	"UNDEFINED": true, "VALUE": true, "WHERE": true,
}

// Operators, longest first so that ">>>" is not read as ">>" then ">".
var puncts = []string{
	">>>", "<<", ">>", "<=", ">=", "<>", "!=", "||", "??",
	"=", "<", ">", "+", "-", "*", "/", "%", "&", "|", "^", "~",
	"(", ")", "[", "]", "{", "}", ",", ".", ":", "?",
}

// Common habits from other languages, refused with a pointer to the
// NoSQL spelling.
var misspelled = map[string]string{
	"==": "'==' is not NoSQL syntax: compare with '='",
	"&&": "'&&' is not NoSQL syntax: write AND",
	"!":  "'!' is not NoSQL syntax: write NOT, or '!=' to compare",
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// lex splits the text into tokens, ending with tEOF.
func lex(src string) ([]token, *Error) {
	var toks []token
	i := 0
	for {
		// Skip spaces and -- comments. A no-break space or a byte order
		// mark comes with text pasted from web pages and editors.
		for i < len(src) {
			c := src[i]
			switch {
			case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
				i++
				continue
			case c == '-' && i+1 < len(src) && src[i+1] == '-':
				if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
					i += j + 1
				} else {
					i = len(src)
				}
				continue
			case c >= 0x80:
				r, n := utf8.DecodeRuneInString(src[i:])
				if r == '\u00a0' || r == '\ufeff' {
					i += n
					continue
				}
			}
			break
		}
		if i >= len(src) {
			return append(toks, token{kind: tEOF, pos: len(src), end: len(src)}), nil
		}
		start := i
		c := src[i]
		switch {
		case isLetter(c):
			for i < len(src) && (isLetter(src[i]) || isDigit(src[i])) {
				i++
			}
			t := token{kind: tWord, pos: start, end: i, text: src[start:i]}
			if up := strings.ToUpper(t.text); reserved[up] {
				t.kw = up
			}
			toks = append(toks, t)
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]) && !endsValue(toks):
			t, err := lexNumber(src, i)
			if err != nil {
				return nil, err
			}
			i = t.end
			toks = append(toks, t)
		case c == '"' || c == '\'':
			t, err := lexString(src, i)
			if err != nil {
				return nil, err
			}
			i = t.end
			toks = append(toks, t)
		case c == '@':
			i++
			if i >= len(src) || !isLetter(src[i]) {
				return nil, errorAt(src, start, "expected a parameter name after '@', as in @tenantId")
			}
			for i < len(src) && (isLetter(src[i]) || isDigit(src[i])) {
				i++
			}
			toks = append(toks, token{kind: tParam, pos: start, end: i, text: src[start+1 : i]})
		case c == ';':
			// A semicolon pasted from code may end the query; nothing may
			// follow it.
			if onlyTrailing(src[i+1:]) {
				return append(toks, token{kind: tEOF, pos: len(src), end: len(src)}), nil
			}
			return nil, errorAt(src, start, "unexpected ';': a query is one statement, and ';' may only end it")
		default:
			for bad, msg := range misspelled {
				if strings.HasPrefix(src[i:], bad) && !strings.HasPrefix(src[i:], "!=") {
					return nil, errorAt(src, start, msg)
				}
			}
			op := ""
			for _, p := range puncts {
				if strings.HasPrefix(src[i:], p) {
					op = p
					break
				}
			}
			if op == "" {
				return nil, errorAt(src, start, "unexpected character "+describeChar(src[i:]))
			}
			i += len(op)
			toks = append(toks, token{kind: tPunct, pos: start, end: i, text: op})
		}
	}
}

// onlyTrailing reports whether s holds nothing but spaces, comments and
// semicolons.
func onlyTrailing(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == ';':
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return true
			}
			i += j
		default:
			return false
		}
	}
	return true
}

// endsValue reports whether the last token ends a value, so that a dot
// after it is a property access (c.a.5 is not c.a then .5).
func endsValue(toks []token) bool {
	if len(toks) == 0 {
		return false
	}
	t := toks[len(toks)-1]
	switch t.kind {
	case tWord:
		return t.kw == "" || t.kw == "TRUE" || t.kw == "FALSE" || t.kw == "NULL" || t.kw == "UNDEFINED"
	case tNumber, tString, tParam:
		return true
	case tPunct:
		return t.text == ")" || t.text == "]" || t.text == "}"
	}
	return false
}

func describeChar(s string) string {
	r, _ := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return fmt.Sprintf("byte 0x%02x", s[0])
	}
	if human.Unseen(r) {
		return fmt.Sprintf("%U", r) // written raw it would drive the terminal or reorder the message
	}
	return "'" + string(r) + "'"
}

// lexNumber reads digits [. digits] [e [+-] digits], or . digits [exp].
func lexNumber(src string, i int) (token, *Error) {
	start := i
	for i < len(src) && isDigit(src[i]) {
		i++
	}
	if i < len(src) && src[i] == '.' {
		i++
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && isDigit(src[j]) {
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			i = j
		}
	}
	text := src[start:i]
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return token{}, errorAt(src, start, "the number "+clip(text)+" is too large")
	}
	return token{kind: tNumber, pos: start, end: i, text: text, num: f}, nil
}

// lexString reads a string in single or double quotes with JSON escapes
// (and \' too, since people write it in single-quoted strings).
func lexString(src string, i int) (token, *Error) {
	start, quote := i, src[i]
	var b strings.Builder
	i++
	for {
		if i >= len(src) {
			return token{}, errorAt(src, start, "the string that starts here is not closed")
		}
		c := src[i]
		switch {
		case c == quote:
			return token{kind: tString, pos: start, end: i + 1, text: b.String()}, nil
		case c == '\n' || c == '\r':
			return token{}, errorAt(src, start, "the string that starts here is not closed on its line")
		case c < 0x20 && c != '\t':
			return token{}, errorAt(src, i, fmt.Sprintf("a control character (%U) inside a string: write it as an escape", rune(c)))
		case c == '\\':
			if i+1 >= len(src) {
				return token{}, errorAt(src, start, "the string that starts here is not closed")
			}
			e := src[i+1]
			switch e {
			case '"', '\'', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, n, ok := hex4(src, i+2)
				if !ok {
					return token{}, errorAt(src, i, `\u must be followed by four hex digits`)
				}
				// A surrogate pair spells one character beyond U+FFFF.
				if r >= 0xd800 && r < 0xdc00 && strings.HasPrefix(src[i+2+n:], `\u`) {
					if lo, m, ok := hex4(src, i+4+n); ok && lo >= 0xdc00 && lo < 0xe000 {
						r = 0x10000 + (r-0xd800)<<10 + (lo - 0xdc00)
						n += 2 + m
					}
				}
				b.WriteRune(r) // a lone surrogate becomes U+FFFD
				i += 2 + n
				continue
			default:
				r, _ := utf8.DecodeRuneInString(src[i+1:])
				return token{}, errorAt(src, i, fmt.Sprintf(`unknown escape '\%c' in a string`, r))
			}
			i += 2
		default:
			b.WriteByte(c)
			i++
		}
	}
}

func hex4(src string, i int) (rune, int, bool) {
	if i+4 > len(src) {
		return 0, 0, false
	}
	v, err := strconv.ParseUint(src[i:i+4], 16, 32)
	if err != nil {
		return 0, 0, false
	}
	return rune(v), 4, true
}

func clip(s string) string {
	if utf8.RuneCountInString(s) > 24 {
		r := []rune(s)
		return string(r[:24]) + "…"
	}
	return s
}
