// Package jsontree is a JSON value as pkcalc holds a document: a tree of
// objects (members in document order), arrays and
// scalars, with numbers as the doubles Cosmos DB stores and hashes. It
// writes a value back as compact JSON text and measures that text without
// building it.
//
// It reads nothing: the ingest package builds trees from JSON and CSV, and
// the key and paths packages read them.
package jsontree

import (
	"math"
	"strconv"
	"strings"
)

// Kind is the JSON type of a Value.
type Kind uint8

const (
	Null Kind = iota
	Bool
	Number
	String
	Object
	Array
)

var kindNames = [...]string{"null", "boolean", "number", "string", "object", "array"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Scalar reports whether values of kind k can be partition key values.
func (k Kind) Scalar() bool { return k <= String }

// Value is one JSON value of a document.
type Value struct {
	Kind    Kind
	Bool    bool
	Num     float64  // Number: the value as a double, as Cosmos DB stores and hashes it
	Str     string   // String: the text; Number: the literal as written when the double would not print it back, else ""
	Members []Member // Object, in document order
	Elems   []Value  // Array
}

// Member is one property of an object.
type Member struct {
	Key   string
	Value Value
}

// Get returns the member named key, and whether it exists.
func (v *Value) Get(key string) (*Value, bool) {
	for i := range v.Members {
		if v.Members[i].Key == key {
			return &v.Members[i].Value, true
		}
	}
	return nil, false
}

// JSON returns v as compact JSON text. Strings are escaped as encoding/json
// does without HTML escaping, so the text is stable and readable.
func (v *Value) JSON() string {
	var b strings.Builder
	v.appendJSON(&b)
	return b.String()
}

func (v *Value) appendJSON(b *strings.Builder) {
	switch v.Kind {
	case Null:
		b.WriteString("null")
	case Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case Number:
		b.WriteString(numberText(v))
	case String:
		writeQuoted(b, v.Str)
	case Object:
		b.WriteByte('{')
		for i := range v.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			writeQuoted(b, v.Members[i].Key)
			b.WriteByte(':')
			v.Members[i].Value.appendJSON(b)
		}
		b.WriteByte('}')
	case Array:
		b.WriteByte('[')
		for i := range v.Elems {
			if i > 0 {
				b.WriteByte(',')
			}
			v.Elems[i].appendJSON(b)
		}
		b.WriteByte(']')
	}
}

func numberText(v *Value) string {
	if v.Str != "" {
		return v.Str
	}
	if math.IsInf(v.Num, 0) || math.IsNaN(v.Num) {
		return strconv.Quote(strconv.FormatFloat(v.Num, 'g', -1, 64))
	}
	if a := math.Abs(v.Num); a != 0 && (a < 1e-6 || a >= 1e21) {
		return strconv.FormatFloat(v.Num, 'g', -1, 64)
	}
	return strconv.FormatFloat(v.Num, 'f', -1, 64)
}

const hexDigits = "0123456789abcdef"

func writeQuoted(b *strings.Builder, s string) {
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b.WriteString(s[start:i])
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
		default:
			b.WriteString(`\u00`)
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&0xF])
		}
		start = i + 1
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// CompactLen is the length of v.JSON() without building it: the size a
// document has as compact JSON, the same whatever its input layout.
func (v *Value) CompactLen() int {
	switch v.Kind {
	case Null:
		return 4
	case Bool:
		if v.Bool {
			return 4
		}
		return 5
	case Number:
		return len(numberText(v))
	case String:
		return quotedLen(v.Str)
	case Object:
		n := 2
		if len(v.Members) > 1 {
			n += len(v.Members) - 1
		}
		for i := range v.Members {
			n += quotedLen(v.Members[i].Key) + 1 + v.Members[i].Value.CompactLen()
		}
		return n
	case Array:
		n := 2
		if len(v.Elems) > 1 {
			n += len(v.Elems) - 1
		}
		for i := range v.Elems {
			n += v.Elems[i].CompactLen()
		}
		return n
	}
	return 0
}

func quotedLen(s string) int {
	n := len(s) + 2
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t':
			n++
		case c < 0x20:
			n += 5
		}
	}
	return n
}
