package aggregate

import "fmt"

// The text of a synthetic key's term, as key.Extract writes it, in the SQL
// of Spark and DuckDB. Both engines print a double in their own way (27.0,
// 1e-07, 1.5945987357727768E9) where pkcalc, like the application it
// stands for, writes Go's strconv.FormatFloat(f, 'f', -1, 64): the shortest
// digits that read back as f, never an exponent (27, 0.0000001,
// 1594598735.7727768). The expressions here rebuild that text from the
// engine's own digits, and read times as key.Time does.
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
	exp                  string // the engine's exponent letter: 1e-07, 1.0E-7
	inf                  string // the engine's text of +Infinity
}

var duckDialect = dialect{
	str:     func(x string) string { return x + "::VARCHAR" },
	bigint:  func(x string) string { return x + "::BIGINT" },
	integer: func(x string) string { return "try_cast(" + x + " AS INTEGER)" }, // '' (no exponent) is NULL, not an error
	match:   func(s, re string) string { return fmt.Sprintf("regexp_matches(%s, '%s')", s, re) },
	exp:     "e",
	inf:     "inf",
}

var sparkDialect = dialect{
	str:     func(x string) string { return "cast(" + x + " AS STRING)" },
	bigint:  func(x string) string { return "cast(" + x + " AS BIGINT)" },
	integer: func(x string) string { return "try_cast(" + x + " AS INT)" },
	match:   func(s, re string) string { return fmt.Sprintf("%s RLIKE '%s'", s, re) },
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

// goTime matches the strings key.Time reads (see its layouts): a date, or a
// date and a time with a T, or a space when it has seconds; an hour of one
// or two digits, minutes and seconds of two, a fraction after a point or a
// comma, and a zone Z or ±hh:mm up to +24:60. Lowercase t and z, offsets
// without a colon (+0200) or hours (+02), and 24:00 are not times to
// pkcalc, so they are not to the query either.
const goTime = "^[0-9]{4}-[0-9]{2}-[0-9]{2}" +
	"(T([01]?[0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9]([.,][0-9]+)?)?(Z|[+-]([01][0-9]|2[0-4]):([0-5][0-9]|60))?" +
	"| ([01]?[0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]([.,][0-9]+)?(Z|[+-]([01][0-9]|2[0-4]):([0-5][0-9]|60))?)?$"

// strTimeParts returns, for a string s that key.Time reads, its date and
// time to the minute in the engine's plain form (2024-03-10 09:30:00) and
// its zone's offset east of UTC in minutes. Seconds, their fraction and the
// zone's own rules do not matter: a bucket is at least an hour, and an
// offset is whole minutes, so the offset is applied by arithmetic, which
// also takes +24:00 as Go does.
func strTimeParts(s string, q dialect) (valid, local, offset string) {
	valid = fmt.Sprintf("length(%s) <= 40 AND %s", s, q.match(s, goTime))
	local = fmt.Sprintf("CASE WHEN length(%[1]s) = 10 THEN %[1]s || ' 00:00:00' "+
		"ELSE substr(%[1]s, 1, 10) || ' ' || lpad(regexp_extract(%[1]s, '^.{10}[T ]([0-9]+):', 1), 2, '0') || ':' || "+
		"regexp_extract(%[1]s, '^.{10}[T ][0-9]+:([0-9]{2})', 1) || ':00' END", s)
	zone := fmt.Sprintf("right(%s, 6)", s)
	offset = fmt.Sprintf("CASE WHEN %s THEN CASE WHEN substr(%s, 1, 1) = '-' THEN -1 ELSE 1 END * (%s * 60 + %s) ELSE 0 END",
		q.match(s, "[+-][0-9]{2}:[0-9]{2}$"), zone,
		q.integer(fmt.Sprintf("substr(%s, 2, 2)", zone)), q.integer(fmt.Sprintf("substr(%s, 5, 2)", zone)))
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
