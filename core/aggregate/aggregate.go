// Package aggregate lets pkcalc work from totals computed where the data
// lives, for data far larger than a sample. [Query] writes the GROUP BY query
// that counts documents and bytes per partition key value on an engine
// (Azure Cosmos DB for NoSQL, Apache Spark SQL or DuckDB); [Read] reads the
// engine's output back, as CSV or JSON, into one [Row] per key value.
//
// Every query returns the same columns in the same order: k0, k1, k2 (one per
// key level; a synthetic key is a single k0 computed as key.Extract computes
// it), documents and bytes. Key values keep their JSON type, so that 1 and
// "1", two different partition keys, stay apart: Cosmos DB returns them
// typed, Spark and DuckDB as JSON text. A missing key path (the undefined
// key) is an absent field in Cosmos DB output and an empty cell in CSV.
//
// What each engine can compute:
//
//   - Cosmos DB reads every item (a full scan, charged in RUs). bytes is
//     LENGTH(ToString(c)): the characters of the item's JSON with its system
//     properties, equal to bytes for ASCII text. Time buckets cut strings
//     rather than parse them, so strings must be UTC (ending in Z, or with
//     no zone). ToString writes numbers as JavaScript does, which differs
//     from pkcalc's text below 1e-6 and from 1e21 up (1e-7, not
//     0.0000001). Its queries cannot compute FNV-1a, so a synthetic key with
//     a hash suffix is refused: store the key as a property first.
//   - Spark reads a table or view with typed columns: where Spark inferred
//     the schema from JSON, a property holding both numbers and strings is a
//     string column, and null and missing properties are both NULL, read as
//     a missing key path. A synthetic key writes numbers of numeric columns
//     as pkcalc does (27, not 27.0), from Java's digits: on Java before 19
//     these are not always the shortest for numbers of 1e16 or more. Needs
//     Spark 3.2 or later.
//   - DuckDB reads the documents as raw JSON, so types, null and missing stay
//     exact. A synthetic key writes numbers as pkcalc does (27, not 27.0;
//     0.0000001, not 1e-07). A hash suffix needs DuckDB 1.3 or later (lambda
//     syntax).
//
// Spark and DuckDB read times as key.Time does: strings in key.TimeForms
// only, by their regular expressions, numbers as epoch seconds,
// milliseconds or microseconds by size (text.go); Cosmos DB, which cannot
// take a regular expression's groups, cuts strings, which is right for ISO
// 8601 in UTC alone. Each query's comments say what text may still differ.
//
// The package does not run queries or connect to engines, and it does not
// merge rows: an engine may print one key value twice (1 and 1.0), so
// callers add up rows with equal values.
package aggregate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pkcalc/pkcalc/core/key"
)

// Engine is where the aggregation query runs.
type Engine string

const (
	Cosmos Engine = "cosmos" // Azure Cosmos DB for NoSQL
	Spark  Engine = "spark"  // Apache Spark SQL
	DuckDB Engine = "duckdb" // DuckDB
)

// Query returns the query that computes per-key aggregates for spec on
// engine, with comments saying how to save its result for
// `pkcalc analyze --aggregates FILE`. source is what the query reads: the
// container alias for Cosmos DB (default "c"); a table or view, or a JSON
// file path, for Spark (default the view "documents"); a JSON file path, or
// a table, for DuckDB (default 'documents.json').
func Query(spec key.Spec, engine Engine, source string) (string, error) {
	if err := check(spec); err != nil {
		return "", err
	}
	source = strings.TrimSpace(source)
	switch engine {
	case Cosmos:
		return cosmosQuery(spec, source)
	case Spark:
		return sparkQuery(spec, source), nil
	case DuckDB:
		return duckQuery(spec, source), nil
	}
	return "", fmt.Errorf("unknown engine %q: use %s, %s or %s", engine, Cosmos, Spark, DuckDB)
}

// check refuses specs that key.Parse would not produce, since the
// generators index Paths and Terms freely.
func check(spec key.Spec) error {
	switch spec.Kind {
	case key.Hash:
		if len(spec.Paths) != 1 {
			return fmt.Errorf("a hash key has one path, not %d", len(spec.Paths))
		}
	case key.MultiHash:
		if len(spec.Paths) < 1 || len(spec.Paths) > key.MaxLevels {
			return fmt.Errorf("a hierarchical key has 1 to %d paths, not %d", key.MaxLevels, len(spec.Paths))
		}
	case key.Synthetic:
		if len(spec.Terms) < 1 || len(spec.Terms) > 3 {
			return fmt.Errorf("a synthetic key has 1 to 3 terms, not %d", len(spec.Terms))
		}
		for _, t := range spec.Terms {
			if len(t.Path) == 0 {
				return fmt.Errorf("term %s of the synthetic key has no path", t)
			}
		}
		return nil
	default:
		return fmt.Errorf("unknown key kind %q", spec.Kind)
	}
	for _, p := range spec.Paths {
		if len(p) == 0 {
			return fmt.Errorf("the key has an empty path")
		}
	}
	return nil
}

// header starts every query: what it computes and for which key.
func header(b *strings.Builder, spec key.Spec, engine string) {
	fmt.Fprintf(b, "-- pkcalc: documents and bytes per value of the partition key %s, for %s.\n", commentText(spec.String()), engine)
}

// analyzeCommand is the command that reads the query's saved result in
// file: the key is part of it, since aggregates are for one key.
func analyzeCommand(spec key.Spec, file string) string {
	return "pkcalc analyze --key " + shellWord(spec.String()) + " --aggregates " + file
}

// commentText escapes the control characters of s, so that a property name
// holding a line break cannot end a -- comment and become SQL.
func commentText(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 }

// shellWord quotes s for a POSIX shell where it needs it: in single
// quotes, or, when it holds control characters, in $'...' (bash, zsh).
func shellWord(s string) string {
	plain := s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/_,.:+%=@-", r))
	})
	switch {
	case plain:
		return s
	case !strings.ContainsFunc(s, isControl):
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for _, r := range s {
		switch {
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case isControl(r) && r < 0x80:
			fmt.Fprintf(&b, "\\x%02x", r)
		case isControl(r):
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// plainName reports whether a property name needs no quoting in SQL.
func plainName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// sqlString quotes s as a standard SQL string literal.
func sqlString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// looksLikePath tells a file path from a table name in a Spark or DuckDB
// source.
func looksLikePath(s string) bool {
	if strings.ContainsAny(s, `/\*`) {
		return true
	}
	l := strings.ToLower(s)
	for _, ext := range []string{".json", ".jsonl", ".ndjson", ".gz", ".zst"} {
		if strings.HasSuffix(l, ext) {
			return true
		}
	}
	return false
}

func hasBucket(spec key.Spec) bool {
	for _, t := range spec.Terms {
		if t.Bucket != "" {
			return true
		}
	}
	return false
}

// hasPlain reports whether a synthetic key has a term that is a value's
// text: a plain term or a suffix.
func hasPlain(spec key.Spec) bool {
	for _, t := range spec.Terms {
		if t.Bucket == "" {
			return true
		}
	}
	return false
}

func hasSuffix(spec key.Spec) bool {
	for _, t := range spec.Terms {
		if t.Modulus > 0 {
			return true
		}
	}
	return false
}

// FNV-1a (32-bit) constants, as key.Suffix uses them. Engines compute the
// hash in 64-bit integers: h < 2^32 and the prime < 2^25, so h*prime never
// overflows before the modulo.
const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
)
