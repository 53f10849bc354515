package aggregate

import (
	"fmt"
	"strings"

	"github.com/pkcalc/pkcalc/core/key"
)

// The text of a synthetic key's term, as key.Extract writes it, in the SQL
// of Spark and DuckDB. Both engines print a double in their own way (27.0,
// 1e-07, 1.5945987357727768E9) where pkcalc, like the application it
// stands for, writes Go's strconv.FormatFloat(f, 'f', -1, 64): the shortest
// digits that read back as f, never an exponent (27, 0.0000001,
// 1594598735.7727768). The expressions here rebuild that text from the
// engine's own digits, and read times as key.Time does (key.TimeForms).
//
// DuckDB writes the shortest digits of every double. Spark writes Java's
// Double.toString, the shortest digits from Java 19 on; before, some
// numbers of 1e16 or more get more (1e23 is 9.999999999999999E22, and so
// 99999999999999990000000 in the key), which no expression can undo.

// dialect spells what those expressions need in one engine's SQL. Both
// engines take the same regexp_extract, regexp_replace, replace, repeat,
// substr, length, lpad, right, floor and abs; patterns avoid backslashes,
// which Spark's string literals would eat.
type dialect struct {
	str, bigint, integer func(x string) string // casts
	match                func(s, re string) string
	group                func(i int) string           // group i in a regexp_replace replacement
	part                 func(s string, i int) string // field i (from 0) of s split at |
	exp                  string                       // the engine's exponent letter: 1e-07, 1.0E-7
	inf                  string                       // the engine's text of +Infinity
}

var duckDialect = dialect{
	str:     func(x string) string { return x + "::VARCHAR" },
	bigint:  func(x string) string { return x + "::BIGINT" },
	integer: func(x string) string { return "try_cast(" + x + " AS INTEGER)" }, // '' (no exponent) is NULL, not an error
	match:   func(s, re string) string { return fmt.Sprintf("regexp_matches(%s, '%s')", s, re) },
	group:   func(i int) string { return fmt.Sprintf(`\%d`, i) }, // RE2's rewrite: DuckDB's strings keep backslashes
	part:    func(s string, i int) string { return fmt.Sprintf("split_part(%s, '|', %d)", s, i+1) },
	exp:     "e",
	inf:     "inf",
}

var sparkDialect = dialect{
	str:     func(x string) string { return "cast(" + x + " AS STRING)" },
	bigint:  func(x string) string { return "cast(" + x + " AS BIGINT)" },
	integer: func(x string) string { return "try_cast(" + x + " AS INT)" },
	match:   func(s, re string) string { return fmt.Sprintf("%s RLIKE '%s'", s, re) },
	group:   func(i int) string { return fmt.Sprintf("$%d", i) }, // Java's replaceAll
	part:    func(s string, i int) string { return fmt.Sprintf("split(%s, '[|]')[%d]", s, i) },
	exp:     "E",
	inf:     "Infinity",
}

// maxExact is 2^53: every whole number up to it is a double, and its
// shortest digits are all of its own.
const maxExact = "9007199254740992"

// numParts returns, for the double d, the digits T and the point's
// position P of the engine's text of d, for numText: its digits without the
// point and without trailing zeros, and 1 + its exponent. They are
// meaningful for text with an exponent, which both engines write with one
// digit, never 0, before the point (1e-07, 1.5945987357727768E9).
func numParts(d string, q dialect) (digits, point string) {
	r := q.str(d)
	digits = fmt.Sprintf("regexp_replace(replace(regexp_extract(%s, '^-?([0-9.]+)', 1), '.', ''), '0+$', '')", r)
	point = fmt.Sprintf("1 + %s", q.integer(fmt.Sprintf("regexp_extract(%s, '%s([-+]?[0-9]+)', 1)", r, q.exp)))
	return digits, point
}

// numText is the text of the double d as strconv.FormatFloat(d, 'f', -1,
// 64) writes it, given the engine prints d with its shortest digits and
// numParts(d) are t and p:
//
//   - a whole number up to 2^53 is cast to an integer, exact whatever the
//     engine's digits (0 is left to the next cases, which keep the sign of
//     -0.0);
//   - infinities are +Inf and -Inf, as Go writes them;
//   - text without an exponent (21.5, 0.001, 1e16 as 10000000000000000.0)
//     loses the trailing zeros of its fraction, and a bare point;
//   - text with one is its digits t with the point moved to position p:
//     0.000ttt, ttt000 or tt.t.
func numText(d, t, p string, q dialect) string {
	r := q.str(d)
	moved := fmt.Sprintf("CASE WHEN %[2]s <= 0 THEN '0.' || repeat('0', -%[2]s) || %[1]s "+
		"WHEN %[2]s >= length(%[1]s) THEN %[1]s || repeat('0', %[2]s - length(%[1]s)) "+
		"ELSE substr(%[1]s, 1, %[2]s) || '.' || substr(%[1]s, %[2]s + 1) END", t, p)
	return fmt.Sprintf("CASE WHEN %[1]s <> 0 AND abs(%[1]s) <= %[3]s AND %[1]s = floor(%[1]s) THEN %[4]s "+
		"WHEN %[2]s = '%[5]s' THEN '+Inf' WHEN %[2]s = '-%[5]s' THEN '-Inf' "+
		"WHEN %[2]s NOT LIKE '%%%[6]s%%' THEN CASE WHEN %[2]s LIKE '%%.%%' THEN regexp_replace(regexp_replace(%[2]s, '0+$', ''), '[.]$', '') ELSE %[2]s END "+
		"ELSE CASE WHEN %[1]s < 0 THEN '-' ELSE '' END || %[7]s END",
		d, r, maxExact, q.str(q.bigint(d)), q.inf, q.exp, moved)
}

// timeFields rewrites the string s, if it is text in one of key.TimeForms,
// as its fields, #|year|month|day|hour|minute|sign|hours|minutes|# (a
// field the text lacks empty), with each form's pattern in turn: the text of
// the fields matches no pattern. Any other string comes out unchanged.
func timeFields(s string, q dialect) string {
	z := s
	for _, f := range key.TimeForms {
		refs := make([]string, len(timeRoles))
		for i, role := range timeRoles {
			if j := strings.IndexRune(f.Groups, role); j >= 0 {
				refs[i] = q.group(j + 1)
			}
		}
		z = fmt.Sprintf("regexp_replace(%s, '^(?:%s)$', '#|%s|#')", z, f.Pattern, strings.Join(refs, "|"))
	}
	return z
}

// timeRoles are the fields timeFields writes, in order, named as
// key.TimeForm's Groups name them.
const timeRoles = "ymdHMshn"

// months gives a month's number after its name's first three letters.
const months = "Jan01Feb02Mar03Apr04May05Jun06Jul07Aug08Sep09Oct10Nov11Dec12"

// strTimeParts returns, for a string s and its timeFields z, whether s is
// a time key.Time reads, its date and time to the minute in the engine's
// plain form (2024-03-10 09:30:00), and its zone's offset east of UTC in
// minutes. The patterns bound every field but the day by its month, which
// the cast of local to a timestamp checks (NULL for 2023-02-29). Seconds,
// their fraction and the zone's own rules do not matter: a bucket is at
// least an hour, and an offset is whole minutes, so the offset is applied
// by arithmetic, which also takes +24:00 as Go does. A rewritten string
// must end with its own # as well as start with one: Java's $ also
// matches before a line break that ends the text.
func strTimeParts(s, z string, q dialect) (valid, local, offset string) {
	valid = fmt.Sprintf("length(%[1]s) BETWEEN 10 AND 40 AND %[2]s <> %[1]s AND %[2]s LIKE '#%%#'", s, z)
	field := func(role rune) string { return q.part(z, 1+strings.IndexRune(timeRoles, role)) }
	month := fmt.Sprintf("CASE WHEN length(%[1]s) = 2 THEN %[1]s ELSE substr('%[2]s', instr('%[2]s', substr(%[1]s, 1, 3)) + 3, 2) END", field('m'), months)
	local = fmt.Sprintf("%s || '-' || %s || '-' || lpad(%s, 2, '0') || ' ' || lpad(coalesce(nullif(%s, ''), '0'), 2, '0') || ':' || coalesce(nullif(%s, ''), '00') || ':00'",
		field('y'), month, field('d'), field('H'), field('M'))
	offset = fmt.Sprintf("CASE WHEN %s = '-' THEN -1 ELSE 1 END * (coalesce(%s, 0) * 60 + coalesce(%s, 0))",
		field('s'), q.integer(field('h')), q.integer(field('n')))
	return valid, local, offset
}

// epochMicros is the number n as key.Time reads an epoch time, in
// microseconds since 1970: seconds below 1e11, milliseconds below 1e14,
// microseconds below 1e17, else NULL. Like Go it truncates n toward zero
// (whole milliseconds and microseconds; a second's fraction to whole
// nanoseconds) and only then counts, so that a time a hair before an hour
// stays in that hour. trunc is the engine's truncation toward zero, as a
// BIGINT.
func epochMicros(n string, trunc func(string) string) string {
	return fmt.Sprintf("CASE WHEN abs(%[1]s) < 1e11 THEN %[2]s * 1000000 + %[3]s "+
		"WHEN abs(%[1]s) < 1e14 THEN %[2]s * 1000 WHEN abs(%[1]s) < 1e17 THEN %[2]s END",
		n, trunc(n), trunc(fmt.Sprintf("floor(%s / 1000)", trunc(fmt.Sprintf("(%s - %s) * 1e9", n, trunc(n))))))
}
