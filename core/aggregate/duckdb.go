package aggregate

import (
	"fmt"
	"strings"

	"github.com/pkcalc/pkcalc/core/key"
)

// duckQuery writes the DuckDB query. It reads each document as raw JSON
// (read_json_objects) rather than as typed columns (read_json_auto), because
// schema inference merges 1 and "1" into one type, reads a missing property
// and null both as NULL, and turns date strings into timestamps.
// json_extract with a JSON Pointer keeps all three apart: it gives SQL NULL
// for a missing path and the JSON text of the value otherwise.
func duckQuery(spec key.Spec, source string) string {
	docs := "SELECT json AS doc FROM read_json_objects('documents.json', format = 'auto')"
	switch {
	case source == "":
	case strings.HasPrefix(source, "'"): // already a string literal, perhaps a glob
		docs = "SELECT json AS doc FROM read_json_objects(" + source + ", format = 'auto')"
	case looksLikePath(source):
		docs = "SELECT json AS doc FROM read_json_objects(" + sqlString(source) + ", format = 'auto')"
	default: // a table or view: each row as a JSON object
		docs = "SELECT to_json(t) AS doc FROM " + source + " AS t"
	}

	var b strings.Builder
	header(&b, spec, "DuckDB")
	b.WriteString("-- Save the result as CSV and give it to pkcalc:\n")
	b.WriteString("--   duckdb -csv < aggregates.sql > aggregates.csv\n")
	b.WriteString("--   " + analyzeCommand(spec, "aggregates.csv") + "\n")
	b.WriteString("-- (or COPY (the query) TO 'aggregates.csv' (HEADER)). Keep to CSV: an empty k\n")
	b.WriteString("-- cell is a document without the key path, which JSON output prints as null.\n")
	b.WriteString("-- Key values are JSON text, so 1 and \"1\" stay apart; bytes is each\n")
	b.WriteString("-- document's minified JSON size in bytes.\n")
	if hasSuffix(spec) {
		b.WriteString("-- The hash suffix uses lambda syntax: DuckDB 1.3 or later.\n")
	}
	if hasBucket(spec) {
		b.WriteString("-- Times are bucketed in UTC; strings without a zone are taken as UTC.\n")
		b.WriteString("SET TimeZone = 'UTC';\n")
	}
	fmt.Fprintf(&b, "WITH pk_docs AS (\n    %s\n), ", docs)

	if spec.Kind == key.Synthetic {
		b.WriteString("pk_vals AS (\n    SELECT ")
		for i, t := range spec.Terms {
			fmt.Fprintf(&b, "json_extract(doc, %s) AS v%d,\n        ", sqlString(jsonPointer(t.Path)), i)
		}
		b.WriteString("strlen(json(doc)) AS size\n    FROM pk_docs\n), pk_terms AS (\n    SELECT ")
		for i, t := range spec.Terms {
			if t.Bucket != "" {
				fmt.Fprintf(&b, "%s AS ts%d,\n        ", duckTime(fmt.Sprintf("v%d", i)), i)
			} else {
				fmt.Fprintf(&b, "%s AS x%d,\n        ", duckText(fmt.Sprintf("v%d", i)), i)
			}
		}
		b.WriteString("size\n    FROM pk_vals\n), pk_keyed AS (\n    SELECT to_json(")
		parts := make([]string, len(spec.Terms))
		for i, t := range spec.Terms {
			parts[i] = duckTerm(t, i)
		}
		b.WriteString(strings.Join(parts, " || '-' || "))
		b.WriteString(") AS k0,\n        size\n    FROM pk_terms\n)\n")
	} else {
		b.WriteString("pk_keyed AS (\n    SELECT ")
		for i, p := range spec.Paths {
			fmt.Fprintf(&b, "json_extract(doc, %s) AS k%d,\n        ", sqlString(jsonPointer(p)), i)
		}
		b.WriteString("strlen(json(doc)) AS size\n    FROM pk_docs\n)\n")
	}
	ks := make([]string, spec.Levels())
	for i := range ks {
		ks[i] = fmt.Sprintf("k%d", i)
	}
	fmt.Fprintf(&b, "SELECT %s,\n    count(*) AS documents,\n    sum(size) AS bytes\nFROM pk_keyed\nGROUP BY %s;\n",
		strings.Join(ks, ", "), strings.Join(ks, ", "))
	return b.String()
}

// duckText is a JSON value's text as key.Extract writes it in a synthetic
// key: strings without quotes, other scalars as JSON prints them; NULL for a
// missing path, an object or an array.
func duckText(v string) string {
	return fmt.Sprintf("CASE WHEN json_type(%[1]s) IN ('OBJECT', 'ARRAY') THEN NULL "+
		"WHEN json_type(%[1]s) = 'VARCHAR' THEN json_extract_string(%[1]s, '$') ELSE %[1]s::VARCHAR END", v)
}

// duckTime reads a JSON value as key.Time does: an ISO 8601 string, or
// epoch seconds, milliseconds or microseconds told apart by size.
func duckTime(v string) string {
	return fmt.Sprintf("CASE WHEN json_type(%[1]s) = 'VARCHAR' THEN try_cast(json_extract_string(%[1]s, '$') AS TIMESTAMPTZ) "+
		"WHEN json_type(%[1]s) IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN to_timestamp(CASE "+
		"WHEN abs(%[1]s::DOUBLE) < 1e11 THEN %[1]s::DOUBLE "+
		"WHEN abs(%[1]s::DOUBLE) < 1e14 THEN %[1]s::DOUBLE / 1e3 "+
		"WHEN abs(%[1]s::DOUBLE) < 1e17 THEN %[1]s::DOUBLE / 1e6 END) END", v)
}

// duckTerm is term i's text in the synthetic key, or NULL.
func duckTerm(t key.Term, i int) string {
	switch {
	case t.Modulus > 0:
		// FNV-1a over the UTF-8 bytes, read two hex digits at a time; the
		// offset basis goes first because list_reduce has no initial value.
		x := fmt.Sprintf("x%d", i)
		const digits = "'0123456789ABCDEF'"
		fnv := fmt.Sprintf("list_reduce(list_prepend(%d::BIGINT, list_transform(regexp_extract_all(hex(%s), '..'), "+
			"lambda d: ((strpos(%s, d[1]) - 1) * 16 + strpos(%s, d[2]) - 1)::BIGINT)), "+
			"lambda h, c: (xor(h, c) * %d) %% 4294967296)", fnvOffset, x, digits, digits, fnvPrime)
		return fmt.Sprintf("CASE WHEN %s IS NULL THEN NULL ELSE (%s %% %d)::VARCHAR END", x, fnv, t.Modulus)
	case t.Bucket != "":
		f := map[key.Bucket]string{key.Hour: "%Y-%m-%dT%H", key.Day: "%Y-%m-%d", key.Month: "%Y-%m"}[t.Bucket]
		return fmt.Sprintf("strftime(ts%d, '%s')", i, f)
	}
	return fmt.Sprintf("x%d", i)
}

// jsonPointer writes a path as an RFC 6901 JSON Pointer, which DuckDB's
// json_extract reads exactly, unlike its JSONPath ($."a b"), which cannot
// hold a double quote.
func jsonPointer(names []string) string {
	var b strings.Builder
	r := strings.NewReplacer("~", "~0", "/", "~1")
	for _, n := range names {
		b.WriteString("/")
		b.WriteString(r.Replace(n))
	}
	return b.String()
}
