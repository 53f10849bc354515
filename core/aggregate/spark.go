package aggregate

import (
	"fmt"
	"strings"

	"github.com/pkcalc/pkcalc/core/key"
)

// sparkQuery writes the Spark SQL query. Spark reads tables with typed
// columns, so a key value becomes JSON text through to_json, which in Spark
// 3 takes only structs, arrays and maps: the value is wrapped in an array
// and the brackets are cut off again.
func sparkQuery(spec key.Spec, source string) string {
	from := "documents"
	switch {
	case source == "":
	case looksLikePath(source):
		from = "json.`" + strings.ReplaceAll(source, "`", "``") + "`"
	default:
		from = source
	}

	var b strings.Builder
	header(&b, spec, "Apache Spark SQL 3.2 or later")
	b.WriteString("-- It reads the table or view " + from + " of the items; for JSON Lines files,\n")
	b.WriteString("-- first run (adding multiLine 'true' for a JSON array):\n")
	b.WriteString("--   CREATE TEMPORARY VIEW documents USING json OPTIONS (path 'documents.json');\n")
	b.WriteString("-- Save the result as one CSV file with a header and quotes doubled (Spark's\n")
	b.WriteString("-- default escape, \\, is not CSV), e.g. in PySpark:\n")
	b.WriteString("--   spark.sql(query).coalesce(1).write.option(\"header\", True).option(\"escape\", '\"').csv(\"aggregates\")\n")
	b.WriteString("--   " + analyzeCommand(spec, "aggregates/part-00000-....csv") + "\n")
	b.WriteString("-- Key values are JSON text, so 1 and \"1\" stay apart where the column types do\n")
	b.WriteString("-- (reading JSON, Spark makes a property holding both a string); a null or\n")
	b.WriteString("-- missing value leaves the cell empty, read as a missing key path. bytes is\n")
	b.WriteString("-- each row's JSON size in bytes.\n")
	if hasPlain(spec) {
		b.WriteString("-- Numbers in the key are written as pkcalc writes them (27, not 27.0; 0.0000001,\n")
		b.WriteString("-- not 1.0E-7), except: -0 is 0; in a column Spark made a string, a number keeps\n")
		b.WriteString("-- Spark's text (27.0); and on Java before 19, Double.toString gives some numbers\n")
		b.WriteString("-- of 1e16 or more extra digits (1e23 as 9.999999999999999E22), which then differ.\n")
	}
	if hasBucket(spec) {
		b.WriteString("-- Times are read as pkcalc reads them: strings in its forms (ISO 8601 with\n")
		b.WriteString("-- a T or spaces, offsets Z, +01:00, +0100 or +01, slashes, RFC 1123, a month's\n")
		b.WriteString("-- name first, Twitter's created_at), numbers as epoch seconds, milliseconds or\n")
		b.WriteString("-- microseconds by size; except numbers in a column Spark made a string, which\n")
		b.WriteString("-- are not times here.\n")
		b.WriteString("-- Times are bucketed in UTC: in PySpark, run the SET line as\n")
		b.WriteString("-- spark.conf.set(\"spark.sql.session.timeZone\", \"UTC\").\n")
		b.WriteString("SET spark.sql.session.timeZone = UTC;\n")
	}

	levels := spec.Levels()
	b.WriteString("WITH ")
	if spec.Kind == key.Synthetic {
		// Each path is read once, as a number (n) or as text (s); then
		// each term's text (x), then the key.
		b.WriteString("pk_vals AS (\n    SELECT ")
		for i, t := range spec.Terms {
			x := sparkPath(t.Path)
			ty := fmt.Sprintf("typeof(%s)", x)
			fmt.Fprintf(&b, "CASE WHEN %s RLIKE '%s' THEN cast(cast(%s AS STRING) AS DOUBLE) END AS n%d,\n        ", ty, sparkNumeric, x, i)
			fmt.Fprintf(&b, "CASE WHEN %s RLIKE '%s|%s' THEN NULL ELSE cast(%s AS STRING) END AS s%d,\n        ", ty, sparkNumeric, sparkNested, x, i)
		}
		fmt.Fprintf(&b, "octet_length(to_json(struct(*))) AS size\n    FROM %s AS t\n), ", from)
		vals := "pk_vals"
		if hasPlain(spec) {
			// The digits and exponent of numbers' text (numParts).
			b.WriteString("pk_parts AS (\n    SELECT *")
			for i, t := range spec.Terms {
				if t.Bucket == "" {
					digits, point := numParts(fmt.Sprintf("n%d", i), sparkDialect)
					fmt.Fprintf(&b, ",\n        %s AS t%d,\n        %s AS p%d", digits, i, point, i)
				}
			}
			b.WriteString("\n    FROM pk_vals\n), ")
			vals = "pk_parts"
		}
		if hasBucket(spec) {
			// Each time's text rewritten as its fields (timeFields).
			b.WriteString("pk_times AS (\n    SELECT *")
			for i, t := range spec.Terms {
				if t.Bucket != "" {
					fmt.Fprintf(&b, ",\n        %s AS z%d", timeFields(fmt.Sprintf("s%d", i), sparkDialect), i)
				}
			}
			fmt.Fprintf(&b, "\n    FROM %s\n), ", vals)
			vals = "pk_times"
		}
		b.WriteString("pk_terms AS (\n    SELECT ")
		for i, t := range spec.Terms {
			fmt.Fprintf(&b, "%s AS x%d,\n        ", sparkText(t, i), i)
		}
		fmt.Fprintf(&b, "size\n    FROM %s\n), pk_keyed AS (\n    SELECT to_json(array(", vals)
		parts := make([]string, len(spec.Terms))
		for i, t := range spec.Terms {
			parts[i] = sparkTerm(t, i)
		}
		if len(parts) == 1 {
			b.WriteString(parts[0])
		} else {
			b.WriteString("concat(" + strings.Join(parts, ", '-', ") + ")")
		}
		b.WriteString(")) AS j0,\n        size\n    FROM pk_terms\n)\n")
	} else {
		b.WriteString("pk_keyed AS (\n    SELECT ")
		for i, p := range spec.Paths {
			fmt.Fprintf(&b, "to_json(array(%s)) AS j%d,\n        ", sparkPath(p), i)
		}
		fmt.Fprintf(&b, "octet_length(to_json(struct(*))) AS size\n    FROM %s AS t\n)\n", from)
	}
	b.WriteString("SELECT ")
	groups := make([]string, levels)
	for i := range levels {
		j := fmt.Sprintf("j%d", i)
		groups[i] = j
		fmt.Fprintf(&b, "CASE WHEN %[1]s = '[null]' THEN NULL ELSE substr(%[1]s, 2, length(%[1]s) - 2) END AS k%[2]d,\n    ", j, i)
	}
	b.WriteString("count(*) AS documents,\n    sum(size) AS bytes\nFROM pk_keyed\n")
	fmt.Fprintf(&b, "GROUP BY %s;\n", strings.Join(groups, ", "))
	return b.String()
}

// Column types, as typeof names them, that hold numbers, and those that hold
// objects and arrays (an invalid key value: no text).
const (
	sparkNumeric = "^(tinyint|smallint|int|bigint|float|double|decimal)"
	sparkNested  = "^(struct|array|map)"
)

// sparkText is term i's value as text: for a plain term or a suffix, the
// value's text as key.Extract writes it (a number through the text of a
// double, since pkcalc reads every number as one); for a time bucket, the
// bucket.
func sparkText(t key.Term, i int) string {
	n, s := fmt.Sprintf("n%d", i), fmt.Sprintf("s%d", i)
	if t.Bucket == "" {
		num := numText(n, fmt.Sprintf("t%d", i), fmt.Sprintf("p%d", i), sparkDialect)
		return fmt.Sprintf("CASE WHEN %s IS NOT NULL THEN %s ELSE %s END", n, num, s)
	}
	valid, local, offset := strTimeParts(s, fmt.Sprintf("z%d", i), sparkDialect)
	trunc := func(x string) string { return "try_cast(" + x + " AS BIGINT)" }
	ts := fmt.Sprintf("timestamp_micros(CASE WHEN %s IS NOT NULL THEN %s WHEN %s THEN unix_micros(try_cast(%s AS TIMESTAMP)) - cast(%s AS BIGINT) * 60000000 END)",
		n, epochMicros(n, trunc), valid, local, offset)
	switch t.Bucket {
	case key.Hour:
		return fmt.Sprintf("replace(date_format(%s, 'yyyy-MM-dd HH'), ' ', 'T')", ts)
	case key.Day:
		return fmt.Sprintf("date_format(%s, 'yyyy-MM-dd')", ts)
	}
	return fmt.Sprintf("date_format(%s, 'yyyy-MM')", ts)
}

// sparkTerm is term i's part of the key, or NULL.
func sparkTerm(t key.Term, i int) string {
	x := fmt.Sprintf("x%d", i)
	if t.Modulus > 0 {
		// FNV-1a over the UTF-8 bytes, two hex digits at a time.
		return fmt.Sprintf("cast(aggregate(regexp_extract_all(hex(%s), '..', 0), cast(%d AS BIGINT), "+
			"(h, b) -> ((h ^ cast(conv(b, 16, 10) AS BIGINT)) * %d) %% 4294967296) %% %d AS STRING)",
			x, fnvOffset, fnvPrime, t.Modulus)
	}
	return x
}

// sparkPath writes t.a.b, with backquotes around names that need them.
func sparkPath(names []string) string {
	var b strings.Builder
	b.WriteString("t")
	for _, n := range names {
		b.WriteString(".")
		if plainName(n) {
			b.WriteString(n)
		} else {
			b.WriteString("`" + strings.ReplaceAll(n, "`", "``") + "`")
		}
	}
	return b.String()
}
