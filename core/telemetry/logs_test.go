package telemetry

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/options"
)

// values writes a key's components as pkcalc epk takes them: a JSON
// array, {} for an undefined one.
func values(vs []epk.Value) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		switch v.Kind {
		case epk.String:
			parts[i] = strconv.Quote(v.Str)
		case epk.Number:
			parts[i] = strconv.FormatFloat(v.Num, 'g', -1, 64)
		case epk.True:
			parts[i] = "true"
		case epk.False:
			parts[i] = "false"
		case epk.Null:
			parts[i] = "null"
		default:
			parts[i] = "{}"
		}
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func ruText(r RU) string {
	return fmt.Sprintf("line %d row %d: %s %s/%s %q key %s range %q %s %g RU", r.Line, r.Row, r.Time.Format(time.RFC3339Nano),
		r.Database, r.Collection, r.Region, values(r.Key.Values), r.RangeID, r.Operation, r.Charge)
}

func storageText(s Storage) string {
	t := "no time"
	if !s.Time.IsZero() {
		t = s.Time.Format(time.RFC3339Nano)
	}
	return fmt.Sprintf("line %d row %d: %s %s/%s %q key %s range %q %g KB", s.Line, s.Row, t,
		s.Database, s.Collection, s.Region, values(s.Key.Values), s.RangeID, s.SizeKB)
}

func errorTexts(t *testing.T, errs []error) []string {
	t.Helper()
	var out []string
	for _, err := range errs {
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%T %v is not an *Error", err, err)
			continue
		}
		s := "error: " + e.Error()
		if e.Note {
			s = "note: " + e.Error()
		}
		out = append(out, s)
	}
	return out
}

func open(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func check(t *testing.T, got, want []string) {
	t.Helper()
	if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
		t.Errorf("got\n%s\nwant\n%s", g, w)
	}
}

// contoso and fabrikam are the rows of the same three requests in every
// form of the RU log.
const (
	contosoCreate = `2025-02-25T09:19:25Z shop/orders "West US 2" key ["contoso"] range "1" Create 10.29 RU`
	contosoQuery  = `2025-02-25T09:19:25Z shop/orders "West US 2" key ["contoso"] range "1" Query 2.85 RU`
	fabrikamRead  = `2025-02-25T09:19:26Z shop/orders "West US 2" key ["fabrikam"] range "2" Read 1 RU`
)

func TestReadRU(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"ru/resource-specific.csv", []string{
			"line 2 row 1: " + contosoCreate,
			"line 3 row 2: " + strings.Replace(contosoQuery, "25Z", "25.391Z", 1),
			"line 4 row 3: " + fabrikamRead,
			`line 5 row 4: 2025-02-25T12:00:00Z shop/orders "West US 2" key [42] range "2" Upsert 6.1 RU`,
			`line 6 row 5: 2025-02-25T00:00:01Z shop/orders "West US 2" key [true] range "1" Delete 5.71 RU`,
			`line 7 row 6: 2025-02-25T00:00:02Z shop/orders "West US 2" key [null] range "1" Read 1 RU`,
			"note: line 8: left out 1 row with no partition key (an empty PartitionKey, which Microsoft's queries leave out with isnotempty(PartitionKey)); their 3 RU are on no key",
		}},
		{"ru/diagnose-query.csv", []string{
			"line 2 row 1: " + contosoCreate,
			"line 3 row 2: " + contosoQuery,
			"line 4 row 3: " + fabrikamRead,
		}},
		{"ru/azurediagnostics.csv", []string{
			"line 2 row 1: " + contosoCreate,
			"line 4 row 3: " + strings.Replace(fabrikamRead, `range "2"`, `range ""`, 1),
			"note: line 3: left out 2 rows of other categories or tables (DataPlaneRequests 2): the RU log is category PartitionKeyRUConsumption, table CDBPartitionKeyRUConsumption",
			"note: line 4: 1 row has no partition key range id (empty, or logged as undefined): their keys' RU are counted, but not on a range",
		}},
		{"ru/az-cli.json", []string{
			"line 2 row 1: " + contosoCreate,
			"line 13 row 2: " + strings.Replace(fabrikamRead, `range "2"`, `range ""`, 1),
			"note: line 13: 1 row has no partition key range id (empty, or logged as undefined): their keys' RU are counted, but not on a range",
		}},
		{"ru/query-api.json", []string{
			"line 16 row 1: " + contosoCreate,
			"line 17 row 2: " + contosoQuery,
			"line 18 row 3: " + fabrikamRead,
		}},
		// The AzureDiagnostics query of pkcalc diagnose-query, run through
		// the query API: a compact response, every row on line 1.
		{"ru/query-api-azurediagnostics.json", []string{
			"line 1 row 1: " + contosoCreate,
			"line 1 row 2: " + contosoQuery,
			"line 1 row 3: " + fabrikamRead,
		}},
		{"ru/resource-logs.jsonl", []string{
			"line 1 row 1: " + contosoCreate,
			"line 2 row 2: " + fabrikamRead,
		}},
		{"ru/hierarchical.csv", []string{
			`line 2 row 1: 2025-02-25T09:19:25Z shop/carts "" key ["contoso","u1","s1"] range "0" Create 7.62 RU`,
			`line 3 row 2: 2025-02-25T09:19:25Z shop/carts "" key ["contoso","u2"] range "0" Query 3.1 RU`,
			`line 4 row 3: 2025-02-25T09:19:25Z shop/carts "" key ["contoso",{},{}] range "0" Read 1 RU`,
			`line 5 row 4: 2025-02-25T09:19:25Z shop/carts "" key ["fabrikam",7,1.5] range "3" Read 1 RU`,
		}},
		{"ru/plain-keys.csv", []string{
			`line 2 row 1: 2025-02-25T09:19:25Z /orders "" key ["contoso"] range "0"  10 RU`,
			`line 3 row 2: 2025-02-25T09:19:26Z /orders "" key ["42"] range "0"  1 RU`,
			`line 4 row 3: 2025-02-25T09:19:27Z /orders "" key ["  fabrikam "] range "0"  1 RU`,
		}},
		{"ru/bad-rows.csv", []string{
			`line 2 row 1: 2025-02-25T09:19:25Z / "" key ["contoso"] range "1"  10.29 RU`,
			`error: line 3 (row 2): column RequestCharge: "ten" is not a number`,
			`error: line 4 (row 3): column TimeGenerated: "25.02.2025 09:19:25" is not a time pkcalc reads: give ISO 8601, such as 2021-05-12T23:20:00Z`,
			`error: line 5 (row 4): column TimeGenerated: missing; the RU of each second need their time`,
			`error: line 6 (row 5): column PartitionKey: the partition key ["contoso","u1","o1","x"]: it has 4 values; a key has 1 to 3, one a level`,
			`error: line 7 (row 6): column PartitionKey: the partition key ["contoso" starts with '[' but is not a JSON array: expected the service's form, such as ["contoso"]`,
			`error: line 8 (row 7): column PartitionKey: the partition key [["contoso"]]: value 1 is an array; a key's values are strings, numbers, booleans or null`,
			`error: line 9 (row 8): column RequestCharge: -3 is negative`,
			`error: line 10, column 1 (row 9): 3 fields, the header has 4; skipped`,
			`line 11 row 10: 2025-02-25T09:19:26Z / "" key ["fabrikam"] range "2"  1 RU`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			rows, errs := ReadRU(open(t, tt.file))
			var got []string
			for _, r := range rows {
				got = append(got, ruText(r))
			}
			got = append(got, errorTexts(t, errs)...)
			if strings.HasSuffix(tt.file, "bad-rows.csv") {
				got = byLine(got)
			}
			check(t, got, tt.want)
		})
	}
}

// byLine orders rows and errors by their line, as the bad rows' test
// lists them.
func byLine(lines []string) []string {
	lineOf := func(s string) int {
		i := strings.Index(s, "line ")
		n := 0
		for _, c := range s[i+5:] {
			if c < '0' || c > '9' {
				break
			}
			n = n*10 + int(c-'0')
		}
		return n
	}
	out := append([]string(nil), lines...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && lineOf(out[j]) < lineOf(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func TestReadStorage(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"storage/resource-specific.csv", []string{
			`line 2 row 1: 2025-02-24T09:00:00Z shop/orders "West US 2" key ["contoso"] range "" 1.2582912e+07 KB`,
			`line 3 row 2: 2025-02-25T09:00:00Z shop/orders "West US 2" key ["contoso"] range "" 1.31072e+07 KB`,
			`line 4 row 3: 2025-02-25T09:00:00Z shop/orders "West US 2" key ["fabrikam"] range "" 1.572864e+06 KB`,
		}},
		{"storage/azurediagnostics.csv", []string{
			`line 2 row 1: 2025-02-25T09:00:00Z shop/orders "West US 2" key ["contoso"] range "" 1.31072e+07 KB`,
			`line 3 row 2: 2025-02-25T09:00:00Z KustoQueryResults/CapacityMetrics "West US 2" key ["CapacityMetricsPartition.136"] range "" 2.04827e+06 KB`,
		}},
		{"storage/docs-query.csv", []string{
			`line 2 row 1: no time shop/orders "West US 2" key ["contoso"] range "" 1.31072e+07 KB`,
			"note: line 2: 1 row has no TimeGenerated: their sizes are read, but no growth can be measured from them",
		}},
		{"storage/az-cli.json", []string{
			`line 2 row 1: 2025-02-25T09:00:00Z shop/orders "West US 2" key ["contoso"] range "" 1.31072e+07 KB`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			rows, errs := ReadStorage(open(t, tt.file))
			var got []string
			for _, r := range rows {
				got = append(got, storageText(r))
			}
			check(t, append(got, errorTexts(t, errs)...), tt.want)
		})
	}
}

// TestWrongLog gives each log to the other's reader, and other inputs
// that are no log.
func TestWrongLog(t *testing.T) {
	tests := []struct {
		name    string
		read    func(string) []error
		in, err string
	}{
		{"storage log as the RU log", ruErrs, "storage/resource-specific.csv",
			`line 1: this looks like the storage log (it has column SizeKb), not the RU log`},
		{"RU log as the storage log", storageErrs, "ru/query-api.json",
			`line 16: this looks like the RU log (it has column RequestCharge), not the storage log`},
		{"a table of neither log", storageErrs, `={"tables":[{"columns":[{"name":"TimeGenerated"},{"name":"Computer"}],"rows":[["2025-02-25T09:19:25Z","vm1"]]}]}`,
			`line 1: the storage log needs column SizeKb (or sizeKb_d in AzureDiagnostics), which this export lacks; its columns are TimeGenerated, Computer`},
		{"storage log JSON as the RU log", ruErrs, "storage/az-cli.json",
			`this looks like the storage log (its rows have SizeKb), not the RU log`},
		{"documents", ruErrs, "=" + strings.Repeat(`{"id":"1","tenantId":"contoso"}`+"\n", 12),
			`its first 10 rows have no RequestCharge column (or requestCharge_s): this is not the RU log`},
		{"the ranges", ruErrs, "ranges/python-sdk.json",
			`its 5 rows have no RequestCharge column (or requestCharge_s): this is not the RU log`},
		{"an empty file", ruErrs, "=  \n", `the RU log is empty: expected CSV with a header row, or JSON`},
		{"gzip", ruErrs, "=\x1f\x8b\x08\x00\x00", `the input is gzip-compressed: decompress it first (gunzip FILE)`},
		{"local times", ruErrs, "=\"TimeGenerated [Local Time]\",PartitionKey,RequestCharge\n\"2/25/2025, 9:19:25.000 AM\",a,1\n",
			`line 1: column "TimeGenerated [Local Time]" gives times in Local Time, which pkcalc cannot place in UTC: export with the portal's time zone set to UTC, or give the times as text (the queries of pkcalc diagnose-query do)`},
		{"a table without columns", ruErrs, `={"tables":[{"rows":[[1]]}]}`,
			`line 1 (row 1): the table gives its rows before its columns, or no columns: pkcalc reads columns first, as the query API writes them`},
		{"a row of the wrong width", ruErrs, `={"tables":[{"columns":[{"name":"RequestCharge"}],"rows":[[1, 2]]}]}`,
			`line 1 (row 1): the row has 2 values, its table 1 columns`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := tt.read(tt.in)
			got := strings.Join(errorTexts(t, errs), "\n")
			if !strings.Contains(got, tt.err) {
				t.Errorf("errors\n%s\ndo not say\n%s", got, tt.err)
			}
		})
	}
}

func input(name string) *strings.Reader {
	if text, ok := strings.CutPrefix(name, "="); ok {
		return strings.NewReader(text)
	}
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		panic(err)
	}
	return strings.NewReader(string(data))
}

func ruErrs(name string) []error {
	_, errs := ReadRU(input(name))
	return errs
}

func storageErrs(name string) []error {
	_, errs := ReadStorage(input(name))
	return errs
}

// TestKeysShared reads the rows of one key into one Key: its text and
// values are kept once.
func TestKeysShared(t *testing.T) {
	rows, _ := ReadRU(open(t, "ru/diagnose-query.csv"))
	if len(rows) != 3 || &rows[0].Key.Values[0] != &rows[1].Key.Values[0] {
		t.Errorf("the rows of [\"contoso\"] do not share its values")
	}
}

// TestRowLimit reads an export one row longer than MaxExportRows: the
// rows up to the limit are kept, and one error says where the reading
// stopped.
func TestRowLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("TimeGenerated,PartitionKey,RequestCharge\n")
	for range options.MaxExportRows + 1 {
		b.WriteString("2025-02-25T09:19:25Z,a,1\n")
	}
	rows, errs := ReadRU(strings.NewReader(b.String()))
	got := strings.Join(errorTexts(t, errs), "\n")
	want := "error: line 500002 (row 500001): the RU log has more than 500,000 rows, the most one Log Analytics query returns and pkcalc reads; the rows from here on are not read"
	if len(rows) != options.MaxExportRows || !strings.HasPrefix(got, want) {
		t.Errorf("%d rows, errors %s", len(rows), got)
	}
}
