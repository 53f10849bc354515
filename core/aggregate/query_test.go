package aggregate

import (
	"encoding/hex"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/query")

// goldenSpecs are the keys whose queries are kept in testdata/query.
var goldenSpecs = []struct{ name, spec string }{
	{"hash", "/tenantId"},
	{"nested", "/customer/address/city"},
	{"quoted", "/\"order id\"/\"it's \\\"q\\\" a/b~c`d\""},
	{"hierarchical", "/tenantId,/userId,/sessionId"},
	{"bucket", "/deviceId+/ts:day"},
	{"suffix", "/customerId+hash(/id)%8"},
}

func TestQueryGolden(t *testing.T) {
	for _, engine := range []Engine{Cosmos, Spark, DuckDB} {
		for _, g := range goldenSpecs {
			t.Run(string(engine)+"-"+g.name, func(t *testing.T) {
				spec, err := key.Parse(g.spec)
				if err != nil {
					t.Fatal(err)
				}
				got, err := Query(spec, engine, "")
				if engine == Cosmos && g.name == "suffix" {
					if err == nil || !strings.Contains(err.Error(), "FNV-1a") || !strings.Contains(err.Error(), "compute the synthetic property first") {
						t.Fatalf("Query = %v, want an error about FNV-1a", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				file := filepath.Join("testdata", "query", string(engine)+"-"+g.name+".sql")
				if *update {
					if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(file)
				if err != nil {
					t.Fatalf("%v (run go test -update to write it)", err)
				}
				if got != string(want) {
					t.Errorf("query differs from %s (run go test -update after checking it):\n%s", file, got)
				}
			})
		}
	}
}

func TestQueryParts(t *testing.T) {
	tests := []struct {
		spec   string
		engine Engine
		source string
		want   []string // substrings, in order
		not    []string
	}{
		// Sources.
		{"/tenantId", Cosmos, "orders", []string{"SELECT orders.tenantId AS k0", "SUM(LENGTH(ToString(orders)))", "FROM orders\nGROUP BY orders.tenantId\n"}, nil},
		{"/tenantId", Spark, "sales.items", []string{"FROM sales.items AS t"}, nil},
		{"/tenantId", Spark, "/data/items/*.json", []string{"FROM json.`/data/items/*.json` AS t"}, nil},
		{"/tenantId", DuckDB, "items", []string{"SELECT to_json(t) AS doc FROM items AS t"}, []string{"read_json_objects"}},
		{"/tenantId", DuckDB, "logs/*.jsonl", []string{"read_json_objects('logs/*.jsonl', format = 'auto')"}, nil},
		{"/tenantId", DuckDB, "it's.json", []string{"read_json_objects('it''s.json', format = 'auto')"}, nil},
		{"/tenantId", DuckDB, "'s3://b/*.json.gz'", []string{"read_json_objects('s3://b/*.json.gz', format = 'auto')"}, nil},
		// Names that are keywords or not identifiers are quoted.
		{"/value/2nd", Cosmos, "", []string{`c["value"]["2nd"]`}, nil},
		{"/value/2nd", Spark, "", []string{"t.value.`2nd`"}, nil},
		{"/value/2nd", DuckDB, "", []string{"json_extract(doc, '/value/2nd')"}, nil},
		// Time buckets other than day.
		{"/ts:hour", Cosmos, "", []string{`IIF((IS_NUMBER(c.ts) OR IS_STRING(c.ts)), IIF(IS_NUMBER(c.ts), LEFT(TimestampToDateTime(`, `), 13), REPLACE(REPLACE(LEFT(c.ts, 13), "/", "-"), " ", "T")), undefined)`}, []string{"CONCAT"}},
		{"/ts:month", Cosmos, "", []string{`REPLACE(LEFT(c.ts, 7), "/", "-")`}, nil},
		{"/ts:hour", Spark, "", []string{"SET spark.sql.session.timeZone = UTC;", "pk_times AS (", "'#|$1|$2|$3|$4|$5|$6|$7|$8|#'", "replace(date_format(", "split(z0, '[|]')[1]", "'yyyy-MM-dd HH'), ' ', 'T')"}, []string{"concat("}},
		{"/ts:hour", DuckDB, "", []string{"pk_times AS (", `'#|\1|\2|\3|\4|\5|\6|\7|\8|#'`, "split_part(z0, '|', 2)", "FROM pk_times"}, nil},
		// Only keys with time buckets rewrite times.
		{"/a+/b", Spark, "", nil, []string{"pk_times"}},
		{"/a+/b", DuckDB, "", nil, []string{"pk_times"}},
		{"/ts:month", DuckDB, "", []string{"SET TimeZone = 'UTC';", "strftime(ts0, '%Y-%m')"}, nil},
		{"/ts:hour", DuckDB, "", []string{"strftime(ts0, '%Y-%m-%dT%H')"}, nil},
		// Only keys with time buckets set the time zone.
		{"/tenantId", Spark, "", nil, []string{"SET "}},
		{"/tenantId", DuckDB, "", nil, []string{"SET "}},
		{"/a+/b+/c", Cosmos, "", []string{`CONCAT(ToString(c.a), "-", ToString(c.b), "-", ToString(c.c))`}, nil},
		{"/a+/b+/c", Spark, "", []string{"to_json(array(concat(x0, '-', x1, '-', x2))) AS j0"}, nil},
		{"/a+/b+/c", DuckDB, "", []string{"to_json(x0 || '-' || x1 || '-' || x2) AS k0"}, nil},
	}
	for _, tt := range tests {
		spec, err := key.Parse(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Query(spec, tt.engine, tt.source)
		if err != nil {
			t.Errorf("Query(%s, %s, %q): %v", tt.spec, tt.engine, tt.source, err)
			continue
		}
		rest := got
		for _, w := range tt.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("Query(%s, %s, %q) lacks %q (or has it out of order):\n%s", tt.spec, tt.engine, tt.source, w, got)
				break
			}
			rest = rest[i+len(w):]
		}
		for _, n := range tt.not {
			if strings.Contains(got, n) {
				t.Errorf("Query(%s, %s, %q) has %q:\n%s", tt.spec, tt.engine, tt.source, n, got)
			}
		}
	}
}

func TestQueryErrors(t *testing.T) {
	hash, _ := key.Parse("/tenantId")
	tests := []struct {
		spec   key.Spec
		engine Engine
		source string
		want   string
	}{
		{hash, "mongodb", "", `unknown engine "mongodb"`},
		{hash, Cosmos, "my container", "container's alias"},
		{hash, Cosmos, "select", "container's alias"},
		{key.Spec{}, DuckDB, "", "unknown key kind"},
		{key.Spec{Kind: key.Hash}, Spark, "", "one path"},
		{key.Spec{Kind: key.MultiHash, Paths: [][]string{{"a"}, {}}}, Spark, "", "empty path"},
		{key.Spec{Kind: key.Synthetic}, Spark, "", "1 to 3 terms"},
	}
	for _, tt := range tests {
		if _, err := Query(tt.spec, tt.engine, tt.source); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Query(%+v, %s, %q) = %v, want %q", tt.spec, tt.engine, tt.source, err, tt.want)
		}
	}
}

// TestFNVArithmetic checks the hash the Spark and DuckDB queries compute,
// step for step (hex digits of the UTF-8 bytes, XOR, multiply, mod 2^32 in
// 64-bit integers), against key.Suffix.
func TestFNVArithmetic(t *testing.T) {
	for _, s := range []string{"", "a", "order-42", "Zürich", "日本", "🦆 duck", strings.Repeat("x", 300)} {
		h := int64(fnvOffset)
		hx := strings.ToUpper(hex.EncodeToString([]byte(s)))
		for i := 0; i+1 < len(hx); i += 2 {
			d := int64(strings.IndexByte("0123456789ABCDEF", hx[i]))*16 + int64(strings.IndexByte("0123456789ABCDEF", hx[i+1]))
			h = ((h ^ d) * fnvPrime) % 4294967296
		}
		for _, n := range []int{2, 8, 1000} {
			if got, want := int(h%int64(n)), key.Suffix(s, n); got != want {
				t.Errorf("FNV-1a of %q mod %d = %d, key.Suffix says %d", s, n, got, want)
			}
		}
	}
}

func TestJSONPointer(t *testing.T) {
	for _, tt := range []struct {
		names []string
		want  string
	}{
		{[]string{"a", "b"}, "/a/b"},
		{[]string{"a/b", "~x"}, "/a~1b/~0x"},
		{[]string{""}, "/"},
	} {
		if got := jsonPointer(tt.names); got != tt.want {
			t.Errorf("jsonPointer(%q) = %q, want %q", tt.names, got, tt.want)
		}
	}
}

// TestQueryCommand: the comment's command names the key, without which
// pkcalc analyze refuses the aggregates, quoted as a shell reads it.
func TestQueryCommand(t *testing.T) {
	// A shell reads each key back, except under WebAssembly, which starts
	// no processes: the native run does that part.
	sh := ""
	if runtime.GOOS != "js" && runtime.GOOS != "wasip1" {
		sh = testenv.LookPath(t, "sh", "install a POSIX shell")
	}
	for _, tt := range []struct{ spec, word string }{
		{"/tenantId", "/tenantId"},
		{"/tenantId,/userId", "/tenantId,/userId"},
		{"/deviceId+/ts:day", "/deviceId+/ts:day"},
		{"/customerId+hash(/id)%8", "'/customerId+hash(/id)%8'"},
		{`/"order id"`, `'/"order id"'`},
		{`/"it's"`, `'/"it'\''s"'`},
		// A line break in a name is \u000a in the key's text.
		{"/\"a\nb\"", `'/"a\u000ab"'`},
	} {
		spec, err := key.Parse(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, engine := range []Engine{Cosmos, Spark, DuckDB} {
			q, err := Query(spec, engine, "")
			if err != nil {
				continue // Cosmos DB cannot hash
			}
			if want := "--   pkcalc analyze --key " + tt.word + " --aggregates "; !strings.Contains(q, want) {
				t.Errorf("%s %s: lacks %q:\n%s", tt.spec, engine, want, q)
			}
			// Every line before the query itself is a comment: a line
			// break in a name cannot end one.
			for _, line := range strings.Split(q, "\n") {
				if strings.HasPrefix(line, "SELECT") || strings.HasPrefix(line, "SET") || strings.HasPrefix(line, "WITH") {
					break
				}
				if !strings.HasPrefix(line, "--") {
					t.Errorf("%q %s: line %q is not a comment:\n%s", tt.spec, engine, line, q)
				}
			}
		}
		if sh != "" && !strings.Contains(tt.word, "$'") {
			// The shell gives back the key exactly.
			out, err := exec.Command(sh, "-c", "printf %s "+tt.word).Output()
			if err != nil || string(out) != spec.String() {
				t.Errorf("sh reads %s as %q (%v), want %q", tt.word, out, err, spec.String())
			}
		}
	}
}
