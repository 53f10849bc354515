package aggregate

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/key"
)

// numberCases are doubles with the text DuckDB (d::VARCHAR) and Java
// (Double.toString, as Spark's cast to STRING) give them; a synthetic key
// must write each as strconv.FormatFloat(f, 'f', -1, 64). The Java texts
// are the same before and after Java 19 for these numbers (before 19,
// Double.toString gives more than the shortest digits to some numbers of
// 1e16 or more, such as 1e23 as 9.999999999999999E22).
var numberCases = []struct {
	f          float64
	duck, java string
}{
	{0, "0.0", "0.0"},
	{math.Copysign(0, -1), "-0.0", "-0.0"},
	{1, "1.0", "1.0"},
	{-1, "-1.0", "-1.0"},
	{27, "27.0", "27.0"},
	{100, "100.0", "100.0"},
	{21.5, "21.5", "21.5"},
	{-21.5, "-21.5", "-21.5"},
	{4.35, "4.35", "4.35"},
	{0.1, "0.1", "0.1"},
	{0.5, "0.5", "0.5"},
	{0.001, "0.001", "0.001"},
	{0.002, "0.002", "0.002"},
	{0.0001, "0.0001", "1.0E-4"},
	{1e-5, "1e-05", "1.0E-5"},
	{0.000001, "1e-06", "1.0E-6"},
	{0.0000001, "1e-07", "1.0E-7"},
	{2.5e-7, "2.5e-07", "2.5E-7"},
	{-3.25e-9, "-3.25e-09", "-3.25E-9"},
	{9999999, "9999999.0", "9999999.0"},
	{1e7, "10000000.0", "1.0E7"},
	{12345678.9, "12345678.9", "1.23456789E7"},
	{1594598400, "1594598400.0", "1.5945984E9"},
	{1594598735.7727768, "1594598735.7727768", "1.5945987357727768E9"},
	{1e15, "1000000000000000.0", "1.0E15"},
	{1 << 53, "9007199254740992.0", "9.007199254740992E15"},
	{-(1 << 53), "-9007199254740992.0", "-9.007199254740992E15"},
	{1<<53 + 2, "9007199254740994.0", "9.007199254740994E15"},
	{1e16, "1e+16", "1.0E16"},
	{1e21, "1e+21", "1.0E21"},
	{1e22, "1e+22", "1.0E22"},
	{6.02214076e23, "6.02214076e+23", "6.02214076E23"},
	{123456789012345678901234, "1.2345678901234569e+23", "1.2345678901234569E23"},
	{1.5e300, "1.5e+300", "1.5E300"},
	{math.MaxFloat64, "1.7976931348623157e+308", "1.7976931348623157E308"},
	{math.Inf(1), "inf", "Infinity"},
	{math.Inf(-1), "-inf", "-Infinity"},
}

// TestNumberTextSteps follows numText's steps in Go, from each engine's
// text of a number, and checks that they give Go's text of it.
func TestNumberTextSteps(t *testing.T) {
	for _, c := range numberCases {
		want := strconv.FormatFloat(c.f, 'f', -1, 64)
		for _, e := range []struct {
			text string
			q    dialect
		}{{c.duck, duckDialect}, {c.java, sparkDialect}} {
			if got := numTextSteps(c.f, e.text, e.q); got != want {
				t.Errorf("%v written %s: %q, want %q", c.f, e.text, got, want)
			}
		}
	}
}

// numTextSteps is numText in Go, for the double d that the engine writes r.
func numTextSteps(d float64, r string, q dialect) string {
	switch {
	case d != 0 && math.Abs(d) <= 1<<53 && d == math.Floor(d):
		return strconv.FormatInt(int64(d), 10)
	case r == q.inf:
		return "+Inf"
	case r == "-"+q.inf:
		return "-Inf"
	case !strings.Contains(r, q.exp):
		if strings.Contains(r, ".") {
			return strings.TrimSuffix(strings.TrimRight(r, "0"), ".")
		}
		return r
	}
	mant, exp, _ := strings.Cut(strings.TrimPrefix(r, "-"), q.exp)
	digits := strings.TrimRight(strings.ReplaceAll(mant, ".", ""), "0")
	e, _ := strconv.Atoi(exp)
	p := 1 + e
	sign := ""
	if d < 0 {
		sign = "-"
	}
	switch {
	case p <= 0:
		return sign + "0." + strings.Repeat("0", -p) + digits
	case p >= len(digits):
		return sign + digits + strings.Repeat("0", p-len(digits))
	}
	return sign + digits[:p] + "." + digits[p:]
}

// TestNumberTextDuckDB runs numText in DuckDB on numberCases: on DuckDB's
// own text of each number, and on Java's, which the Spark query reads.
func TestNumberTextDuckDB(t *testing.T) {
	java := duckDialect // DuckDB's functions, on Java's text in column j
	java.str = func(x string) string {
		if x == "d" {
			return "j"
		}
		return duckDialect.str(x)
	}
	java.exp, java.inf = sparkDialect.exp, sparkDialect.inf
	dt, dp := numParts("d", duckDialect)
	jt, jp := numParts("d", java)
	var rows []string
	for i, c := range numberCases {
		g := strconv.FormatFloat(c.f, 'g', -1, 64)
		if math.IsInf(c.f, 0) {
			g = strings.TrimPrefix(strings.Replace(g, "Inf", "inf", 1), "+")
		}
		rows = append(rows, fmt.Sprintf("(%d, '%s'::DOUBLE, '%s')", i, g, c.java))
	}
	sql := fmt.Sprintf("SELECT i, %s AS duck, %s AS java FROM (SELECT *, %s AS dt, %s AS dp, %s AS jt, %s AS jp FROM (VALUES %s) AS n(i, d, j)) ORDER BY i;\n",
		numText("d", "dt", "dp", duckDialect), numText("d", "jt", "jp", java), dt, dp, jt, jp, strings.Join(rows, ", "))
	lines := strings.Split(strings.TrimSpace(duckdb(t, sql)), "\n")
	if len(lines) != len(numberCases)+1 {
		t.Fatalf("%d lines from duckdb, want %d:\n%s", len(lines), len(numberCases)+1, strings.Join(lines, "\n"))
	}
	for i, c := range numberCases {
		want := strconv.FormatFloat(c.f, 'f', -1, 64)
		if got := lines[i+1]; got != fmt.Sprintf("%d,%s,%s", i, want, want) {
			t.Errorf("%v: i,duck,java = %s, want %s twice", c.f, got, want)
		}
	}
}

// TestDuckDBMatchesExtract runs the DuckDB query of synthetic keys on
// documents whose numbers and times DuckDB writes or reads otherwise than
// Go, and checks that it groups them as key.Extract does.
func TestDuckDBMatchesExtract(t *testing.T) {
	duckdbCommand(t) // before the documents are written
	var docs []string
	add := func(field, value string) {
		docs = append(docs, fmt.Sprintf(`{"id":%d,"s":"x","%s":%s}`, len(docs), field, value))
	}
	for _, c := range numberCases {
		switch n := strconv.FormatFloat(c.f, 'g', -1, 64); {
		case n == "-0":
			add("n", "-0.0") // -0 without a fraction is 0 to DuckDB's JSON reader
		case !math.IsInf(c.f, 0):
			add("n", n)
		}
	}
	// Numbers as JSON writes them otherwise.
	for _, n := range []string{"27.0", "1e3", "1E3", "2.50", "1e400", "-1e400", "9007199254740993", "18446744073709551615",
		"123456789012345678901234", "0.000001", "1594598735.7727768", "true", "false", "null", `"27"`, `"Zürich"`, "[1]", `{"a":1}`} {
		add("n", n)
	}
	for _, ts := range []string{
		`"2024-03-10T23:30:00Z"`, `"2024-03-10T23:30Z"`, `"2024-03-10T23:30"`, `"2024-03-10T23:30:00+0200"`,
		`"2024-03-10T23:30:00+02:00"`, `"2024-03-10T23:30+05:30"`, `"2024-03-10T00:30:00-01:00"`, `"2024-03-10 23:30"`,
		`"2024-03-10 23:30:00Z"`, `"2024-03-10 23:30:00,1+01:00"`, `"2024-03-10T23:30:00,5Z"`, `"2024-03-10T9:30:00Z"`,
		`"2024-03-10 9:30:00"`, `"2024-03-10t23:30:00z"`, `"2024-03-10T24:00:00Z"`, `"2024-03-10T23:59:60Z"`,
		`"2024-03-10T23:59:59.9999999Z"`, `"2024-03-10T23:30:00.123456789123456789123Z"`, `"2024-03-10T09:30:00+24:60"`,
		`"2024-03-10T09:30:00+24:61"`, `"2024-03-10T09:30:00+05:60"`, `"2024-03-10T23:30:00+02"`, `"2024-02-29"`,
		`"2023-02-29"`, `"2024-3-10"`, `"2024-03"`, `"1709287200"`, `"2024-12-31T23:59:59-00:30"`,
		// The other forms of key.TimeForms, and near misses.
		`"2024-03-10T01:02:03-01"`, `"2024-03-10T23:30:00.5-0130"`, `"2024-03-10  01:02"`, `"2024/03/10 23:55"`, `"2024/03/10"`,
		`"2024/03/10T01:02:03Z"`, `"2024/3/10"`, `"2024/03-10"`, `"Sun, 10 Mar 2024 23:30:00 GMT"`, `"Sun, 10 Mar 2024 23:30:00 -0700"`,
		`"Sun, 10 Mar 2024 23:30:00 +01:00"`, `"Sun, 10 Mar 2024 23:30:00 PST"`, `"Sunday, 10 March 2024 00:30 UT"`,
		`"10 Mar 2024 00:30:00 +0100"`, `"1 Mar 2024"`, `"Mar 10 2024"`, `"March 10, 2024"`, `"Feb 29 2023"`, `"Feb 29 2024"`,
		`"march 10, 2024"`, `"Mar 10 24"`, `"Sun Mar 10 23:30:00 +0000 2024"`, `"Sun Mar 10 23:30:00 -0800 2024"`,
		`"Sun Mar  1 00:30:00 2024"`, `"Sun Mar 10 23:30:00 UTC 2024"`, `"Sun Mar 10 23:30:00 PST 2024"`, `"2024-03-10\n"`,
		`"#|2024|03|10|||||#"`, `"Fri Dec 31 23:30:00 -0100 9999"`,
		"1709287200", "1709287199.9999999", "3599.9999999", "-0.5", "-1.5", "99999999999", "100000000000", "1709373599999.9",
		"1709373600000123", "99999999999999999", "1e17", "true", "null"} {
		add("ts", ts)
	}
	// The nested and the quoted path of testdata/query's keys.
	for _, v := range []string{`"Zürich"`, `"a,\"b\""`, `""`, "5", "5.0", "-0.0", "true", "null"} {
		add("customer", `{"address":{"city":`+v+`}}`)
		add("order id", "{\"it's \\\"q\\\" a/b~c`d\":"+v+"}")
	}
	add("customer", `{"address":{}}`)
	file := filepath.Join(t.TempDir(), "docs.json")
	if err := os.WriteFile(file, []byte(strings.Join(docs, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	specs := []string{"/s+/n", "/s+hash(/n)%16", "hash(/n)%1000+/s", "/ts:hour", "/ts:day", "/ts:month", "/s+/ts:hour"}
	for _, g := range goldenSpecs {
		if g.name == "nested" || g.name == "quoted" {
			specs = append(specs, g.spec)
		}
	}
	for _, s := range specs {
		t.Run(s, func(t *testing.T) {
			spec, err := key.Parse(s)
			if err != nil {
				t.Fatal(err)
			}
			q, err := Query(spec, DuckDB, file)
			if err != nil {
				t.Fatal(err)
			}
			rows, errs := Read(strings.NewReader(duckdb(t, q)), 1)
			checkErrs(t, errs, nil)
			got := map[string]int64{}
			for _, r := range rows {
				got[fmt.Sprint(r.Values)] += r.Documents
			}
			want := map[string]int64{}
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			r := ingest.NewReader(f)
			for {
				doc, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				v, _ := spec.Extract(&doc.Root, nil)
				want[fmt.Sprint(v)]++
			}
			for k, n := range want {
				if got[k] != n {
					t.Errorf("%s: %d documents from DuckDB, %d from key.Extract", k, got[k], n)
				}
			}
			for k, n := range got {
				if _, ok := want[k]; !ok {
					t.Errorf("%s: %d documents from DuckDB, none from key.Extract", k, n)
				}
			}
		})
	}
}
