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
	if hasBucket(spec) {
		b.WriteString("-- Times are bucketed in UTC: in PySpark, run the SET line as\n")
		b.WriteString("-- spark.conf.set(\"spark.sql.session.timeZone\", \"UTC\").\n")
		b.WriteString("SET spark.sql.session.timeZone = UTC;\n")
	}

	levels := spec.Levels()
	b.WriteString("WITH ")
	if spec.Kind == key.Synthetic {
		// Terms first, as strings, so each path is read once.
		b.WriteString("pk_terms AS (\n    SELECT ")
		for i, t := range spec.Terms {
			s := fmt.Sprintf("cast(%s AS STRING)", sparkPath(t.Path))
			fmt.Fprintf(&b, "%s AS s%d,\n        ", s, i)
			if t.Bucket != "" {
				fmt.Fprintf(&b, "try_cast(%s AS DOUBLE) AS n%d,\n        ", s, i)
			}
		}
		fmt.Fprintf(&b, "octet_length(to_json(struct(*))) AS size\n    FROM %s AS t\n), ", from)
		b.WriteString("pk_keyed AS (\n    SELECT to_json(array(")
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

// sparkTerm is term i's text as key.Extract writes it, or NULL.
func sparkTerm(t key.Term, i int) string {
	s := fmt.Sprintf("s%d", i)
	switch {
	case t.Modulus > 0:
		// FNV-1a over the UTF-8 bytes, two hex digits at a time.
		return fmt.Sprintf("cast(aggregate(regexp_extract_all(hex(%s), '..', 0), cast(%d AS BIGINT), "+
			"(h, b) -> ((h ^ cast(conv(b, 16, 10) AS BIGINT)) * %d) %% 4294967296) %% %d AS STRING)",
			s, fnvOffset, fnvPrime, t.Modulus)
	case t.Bucket != "":
		// A number is epoch seconds, milliseconds or microseconds by size, as key.Time reads it.
		n := fmt.Sprintf("n%d", i)
		ts := fmt.Sprintf("coalesce(timestamp_micros(cast(CASE WHEN abs(%[1]s) < 1e11 THEN %[1]s * 1e6 "+
			"WHEN abs(%[1]s) < 1e14 THEN %[1]s * 1e3 WHEN abs(%[1]s) < 1e17 THEN %[1]s END AS BIGINT)), try_cast(%[2]s AS TIMESTAMP))", n, s)
		switch t.Bucket {
		case key.Hour:
			return fmt.Sprintf("replace(date_format(%s, 'yyyy-MM-dd HH'), ' ', 'T')", ts)
		case key.Day:
			return fmt.Sprintf("date_format(%s, 'yyyy-MM-dd')", ts)
		}
		return fmt.Sprintf("date_format(%s, 'yyyy-MM')", ts)
	}
	return s
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
