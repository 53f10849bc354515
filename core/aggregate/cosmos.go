package aggregate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pkcalc/pkcalc/core/key"
)

// cosmosQuery writes the Cosmos DB for NoSQL query. GROUP BY cannot use
// aliases, so each key expression is written twice; the service puts
// undefined keys in one group and leaves the field out of that row.
func cosmosQuery(spec key.Spec, source string) (string, error) {
	alias := source
	if alias == "" {
		alias = "c"
	}
	if !plainName(alias) || cosmosReserved[strings.ToLower(alias)] {
		return "", fmt.Errorf("the Cosmos DB source is the container's alias in FROM, a name such as c; %q is not one", source)
	}
	var keys []string
	if spec.Kind == key.Synthetic {
		if hasSuffix(spec) {
			return "", fmt.Errorf("synthetic key %s: Cosmos DB queries cannot compute the FNV-1a hash of a hash(...)%%N suffix; "+
				"compute the synthetic property first (store it in the items and aggregate on its path), "+
				"or run the DuckDB or Spark query on an export", spec)
		}
		keys = []string{cosmosSynthetic(spec, alias)}
	} else {
		for _, p := range spec.Paths {
			keys = append(keys, cosmosPath(alias, p))
		}
	}

	var b strings.Builder
	header(&b, spec, "Azure Cosmos DB for NoSQL")
	b.WriteString("-- Run it on the container (Data Explorer, or an SDK for many rows) and save\n")
	b.WriteString("-- the result array as JSON; an item without the key path has no k field.\n")
	b.WriteString("--   " + analyzeCommand(spec, "aggregates.json") + "\n")
	b.WriteString("-- It reads every item, so its RU charge grows with the container. bytes is\n")
	b.WriteString("-- the length in characters of each item's JSON, system properties included\n")
	b.WriteString("-- (bytes for ASCII text); to save RUs, remove the bytes line and the comma\n")
	b.WriteString("-- before it, and pkcalc uses the average item size you give, or its default.\n")
	if hasPlain(spec) {
		b.WriteString("-- ToString writes numbers as JavaScript does, which is pkcalc's text except for\n")
		b.WriteString("-- -0 (0) and sizes below 1e-6 or from 1e21 up, written with an exponent (1e-7,\n")
		b.WriteString("-- not 0.0000001).\n")
	}
	if hasBucket(spec) {
		b.WriteString("-- Times: numbers are epoch seconds, milliseconds or microseconds, told apart\n")
		b.WriteString("-- by size; strings are cut, not parsed: their first characters are the bucket,\n")
		b.WriteString("-- which is pkcalc's for ISO 8601 in UTC (Z, +00:00 or no zone; - or / in the\n")
		b.WriteString("-- date; one T or space before the hour). Other offsets, RFC 1123, a month's\n")
		b.WriteString("-- name first and Twitter's created_at, which pkcalc reads, get other buckets\n")
		b.WriteString("-- here, and text that is no time to pkcalc still gets one (DuckDB and Spark\n")
		b.WriteString("-- queries read every form: run one on an export).\n")
	}
	b.WriteString("SELECT ")
	for i, k := range keys {
		fmt.Fprintf(&b, "%s AS k%d,\n    ", k, i)
	}
	fmt.Fprintf(&b, "COUNT(1) AS documents,\n    SUM(LENGTH(ToString(%s))) AS bytes\n", alias)
	fmt.Fprintf(&b, "FROM %s\nGROUP BY %s\n", alias, strings.Join(keys, ", "))
	return b.String(), nil
}

// cosmosSynthetic is the key value as key.Extract computes it: undefined
// unless every term has a usable value, else the terms' text joined by "-".
func cosmosSynthetic(spec key.Spec, alias string) string {
	var conds, texts []string
	for _, t := range spec.Terms {
		x := cosmosPath(alias, t.Path)
		if t.Bucket == "" {
			// Objects and arrays are not key values: Extract makes the key undefined.
			conds = append(conds, fmt.Sprintf("IS_PRIMITIVE(%s)", x))
			texts = append(texts, fmt.Sprintf("ToString(%s)", x))
			continue
		}
		conds = append(conds, fmt.Sprintf("(IS_NUMBER(%s) OR IS_STRING(%s))", x, x))
		texts = append(texts, cosmosBucket(x, t.Bucket))
	}
	value := texts[0]
	if len(texts) > 1 {
		value = "CONCAT(" + strings.Join(texts, `, "-", `) + ")"
	}
	return fmt.Sprintf("IIF(%s, %s, undefined)", strings.Join(conds, " AND "), value)
}

// cosmosBucket cuts a time to an hour, day or month. Numbers go through
// TimestampToDateTime (milliseconds, UTC, "2006-01-02T15:04:05.0000000Z");
// strings are cut, the query language having no way to take a regular
// expression's groups, so only ISO 8601 text in UTC gets pkcalc's bucket.
func cosmosBucket(x string, b key.Bucket) string {
	n := map[key.Bucket]int{key.Hour: 13, key.Day: 10, key.Month: 7}[b]
	ms := fmt.Sprintf("FLOOR(IIF(ABS(%[1]s) < 100000000000, %[1]s * 1000, IIF(ABS(%[1]s) < 100000000000000, %[1]s, %[1]s / 1000)))", x)
	str := fmt.Sprintf(`REPLACE(LEFT(%s, %d), "/", "-")`, x, n) // 2006/01/02 is read too
	if b == key.Hour {
		str = fmt.Sprintf(`REPLACE(%s, " ", "T")`, str) // and 2006-01-02 15:04
	}
	return fmt.Sprintf("IIF(IS_NUMBER(%s), LEFT(TimestampToDateTime(%s), %d), %s)", x, ms, n, str)
}

// cosmosPath writes c.a.b, with c["a b"] for names that are not plain
// identifiers or may be keywords.
func cosmosPath(alias string, names []string) string {
	var b strings.Builder
	b.WriteString(alias)
	for _, n := range names {
		if plainName(n) && !cosmosReserved[strings.ToLower(n)] {
			b.WriteString(".")
			b.WriteString(n)
			continue
		}
		b.WriteString("[")
		b.WriteString(jsonString(n))
		b.WriteString("]")
	}
	return b.String()
}

// jsonString quotes s as a JSON string, which is also a Cosmos DB string
// literal.
func jsonString(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(buf.String(), "\n")
}

// cosmosReserved holds the words of the Cosmos DB query language, which a
// property name cannot follow a dot as. Quoting a name that needs none is
// harmless, so the list errs on the long side.
var cosmosReserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`all and array as asc between by case cast convert cross desc
		distinct else end escape exists false first for from group having in infinity inner insert
		into is join last left like limit nan not null offset on or order outer over rank right
		select set then top true udf undefined union update value when where with`) {
		cosmosReserved[w] = true
	}
}
