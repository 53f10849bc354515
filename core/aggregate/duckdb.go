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
	if hasPlain(spec) {
		b.WriteString("-- Numbers in the key are written as pkcalc writes them (27, not 27.0;\n")
		b.WriteString("-- 0.0000001, not 1e-07), except -0 without a fraction, which DuckDB reads as 0.\n")
	}
	if hasBucket(spec) {
		b.WriteString("-- Times are read as pkcalc reads them: strings in its forms (ISO 8601 with\n")
		b.WriteString("-- a T or spaces, offsets Z, +01:00, +0100 or +01, slashes, RFC 1123, a month's\n")
		b.WriteString("-- name first, Twitter's created_at), numbers as epoch seconds, milliseconds or\n")
		b.WriteString("-- microseconds by size.\n")
		b.WriteString("-- Times are bucketed in UTC; strings without a zone are taken as UTC.\n")
		b.WriteString("SET TimeZone = 'UTC';\n")
	}
	fmt.Fprintf(&b, "WITH pk_docs AS (\n    %s\n), ", docs)

	if spec.Kind == key.Synthetic {
		b.WriteString("pk_vals AS (\n    SELECT ")
		for i, t := range spec.Terms {
			fmt.Fprintf(&b, "json_extract(doc, %s) AS v%d,\n        ", sqlString(jsonPointer(t.Path)), i)
		}
		b.WriteString("strlen(json(doc)) AS size\n    FROM pk_docs\n), ")
		// Each value as a number (d) or a string (s) where it is one; for
		// a term that is a value's text, the digits and exponent of a
		// number's text (numParts, from any value, used for numbers only).
		b.WriteString("pk_parts AS (\n    SELECT *")
		for i, t := range spec.Terms {
			v := fmt.Sprintf("v%d", i)
			fmt.Fprintf(&b, ",\n        CASE WHEN json_type(%[1]s) IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN %[1]s::DOUBLE END AS d%[2]d", v, i)
			if t.Bucket != "" {
				fmt.Fprintf(&b, ",\n        CASE WHEN json_type(%[1]s) = 'VARCHAR' THEN json_extract_string(%[1]s, '$') END AS s%[2]d", v, i)
				continue
			}
			digits, point := numParts("try_cast("+v+" AS DOUBLE)", duckDialect)
			fmt.Fprintf(&b, ",\n        %[1]s AS t%[3]d,\n        %[2]s AS p%[3]d", digits, point, i)
		}
		b.WriteString("\n    FROM pk_vals\n), ")
		from := "pk_parts"
		if hasBucket(spec) {
			// Each time's text rewritten as its fields (timeFields).
			b.WriteString("pk_times AS (\n    SELECT *")
			for i, t := range spec.Terms {
				if t.Bucket != "" {
					fmt.Fprintf(&b, ",\n        %s AS z%d", timeFields(fmt.Sprintf("s%d", i), duckDialect), i)
				}
			}
			b.WriteString("\n    FROM pk_parts\n), ")
			from = "pk_times"
		}
		b.WriteString("pk_terms AS (\n    SELECT ")
		for i, t := range spec.Terms {
			if t.Bucket != "" {
				fmt.Fprintf(&b, "%s AS ts%d,\n        ", duckTime(i), i)
			} else {
				fmt.Fprintf(&b, "%s AS x%d,\n        ", duckText(i), i)
			}
		}
		fmt.Fprintf(&b, "size\n    FROM %s\n), pk_keyed AS (\n    SELECT to_json(", from)
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

// duckText is term i's JSON value's text as key.Extract writes it in a
// synthetic key: strings without quotes, numbers as Go writes a float64
// (numText, from pk_parts), true, false and null as words; NULL for a
// missing path, an object or an array.
func duckText(i int) string {
	v, d := fmt.Sprintf("v%d", i), fmt.Sprintf("d%d", i)
	return fmt.Sprintf("CASE WHEN json_type(%[1]s) IN ('OBJECT', 'ARRAY') THEN NULL "+
		"WHEN json_type(%[1]s) = 'VARCHAR' THEN json_extract_string(%[1]s, '$') "+
		"WHEN %[2]s IS NOT NULL THEN %[3]s ELSE %[1]s::VARCHAR END",
		v, d, numText(d, fmt.Sprintf("t%d", i), fmt.Sprintf("p%d", i), duckDialect))
}

// duckTime reads term i's value as key.Time does, into a TIMESTAMP in
// UTC: epoch seconds, milliseconds or microseconds told apart by size
// (epochMicros), or a string in one of key.TimeForms (strTimeParts, on
// its fields z from pk_times).
func duckTime(i int) string {
	d, s, z := fmt.Sprintf("d%d", i), fmt.Sprintf("s%d", i), fmt.Sprintf("z%d", i)
	valid, local, offset := strTimeParts(s, z, duckDialect)
	trunc := func(x string) string { return "trunc(" + x + ")::BIGINT" }
	return fmt.Sprintf("CASE WHEN %[1]s IS NOT NULL THEN make_timestamp(%[2]s) "+
		"WHEN %[3]s THEN try_cast(%[4]s AS TIMESTAMP) - to_minutes(%[5]s) END",
		d, epochMicros(d, trunc), valid, local, offset)
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
