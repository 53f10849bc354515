package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/analysis"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/core/sample"
)

// The peers of TestBrowserBenchmark count the documents per value of the
// keys pkcalc's default analysis measures, over the same file in the same
// run: DuckDB natively (testdata/duckdb-peer.mjs, one GROUPING SETS query)
// and a plain script in the tab (testdata/js-peer.js). That they did the
// same work is checked: each key's number of groups is pkcalc's count of
// its logical partitions.

// peerKey is a candidate key as the peers read it: its terms, a
// hierarchical key's levels or a synthetic key's terms.
type peerKey struct {
	Spec  string     `json:"spec"`
	Kind  string     `json:"kind"`
	Terms []peerTerm `json:"terms"`
}

type peerTerm struct {
	Path    []string `json:"path"`
	Bucket  string   `json:"bucket,omitempty"`
	Modulus int      `json:"modulus,omitempty"`
}

// hashed is whether the key has a computed suffix, which DuckDB computes
// with its own hash, not pkcalc's FNV-1a: its groups can differ.
func (k peerKey) hashed() bool {
	return slices.ContainsFunc(k.Terms, func(t peerTerm) bool { return t.Modulus > 0 })
}

// peerKeys are the report's candidates. With no workload these are all
// the keys the analysis counts: the filters' groupings (workload.go) come
// only from queries.
func peerKeys(t *testing.T, rep *report.Report) []peerKey {
	t.Helper()
	var keys []peerKey
	for _, c := range rep.Candidates {
		s, err := key.Parse(c.Key.Spec)
		if err != nil {
			t.Fatalf("the report's key %q: %v", c.Key.Spec, err)
		}
		k := peerKey{Spec: c.Key.Spec, Kind: string(s.Kind)}
		if s.Kind == key.Synthetic {
			for _, term := range s.Terms {
				k.Terms = append(k.Terms, peerTerm{Path: term.Path, Bucket: string(term.Bucket), Modulus: term.Modulus})
			}
		} else {
			for _, p := range s.Paths {
				k.Terms = append(k.Terms, peerTerm{Path: p})
			}
		}
		keys = append(keys, k)
	}
	return keys
}

// exactGroups is each key's logical partitions counted exactly: the
// report's figure where it is exact, else that of an analysis of the key
// alone that keeps all its values exactly (past 50,000 values the default
// analysis estimates).
func exactGroups(t *testing.T, data []byte, rep *report.Report) []int64 {
	t.Helper()
	out := make([]int64, len(rep.Candidates))
	for i, c := range rep.Candidates {
		if !c.LogicalPartitionsEstimated {
			out[i] = c.LogicalPartitions
			continue
		}
		s, _ := key.Parse(c.Key.Spec)
		r, err := analysis.Analyze(bytes.NewReader(data), analysis.Options{Keys: []key.Spec{s}, NoSuggest: true, MaxDistinct: int(rep.Documents) + 1})
		if err != nil {
			t.Fatal(err)
		}
		if e := r.Candidates[0]; e.LogicalPartitionsEstimated {
			t.Fatalf("%s alone, keeping %d values exactly: still estimated", c.Key.Spec, rep.Documents+1)
		} else {
			out[i] = e.LogicalPartitions
		}
	}
	return out
}

// checkGroups fails t unless the peer found as many groups of each key it
// counts as pkcalc does as pkcalc's exact count, and says, per key, how
// its figure compared.
func checkGroups(t *testing.T, peer string, keys []peerKey, exact, groups []int64, compares func(peerKey) bool) []string {
	t.Helper()
	out := make([]string, len(keys))
	for i, k := range keys {
		switch {
		case !compares(k):
			out[i] = "not compared"
		case groups[i] == exact[i]:
			out[i] = "same"
		default:
			out[i] = "differs"
			t.Errorf("%s found %d groups of %s, pkcalc %d logical partitions: the peer did not count the same values", peer, groups[i], k.Spec, exact[i])
		}
	}
	return out
}

// duckdbRun is what duckdb-peer.mjs prints.
type duckdbRun struct {
	DuckDB  string    `json:"duckdb"`
	Package string    `json:"package"`
	Threads int       `json:"threads"`
	Seconds float64   `json:"seconds"`
	Runs    []float64 `json:"runs"`
	Query   string    `json:"query"`
	Sets    []struct {
		Columns   string `json:"columns"`
		Groups    int64  `json:"groups"`
		Documents int64  `json:"documents"`
	} `json:"sets"`
	Keys []struct {
		Spec string `json:"spec"`
		Set  int    `json:"set"`
	} `json:"keys"`
}

// groups is each key's groups, from its grouping set.
func (r duckdbRun) groups() []int64 {
	out := make([]int64, len(r.Keys))
	for i, k := range r.Keys {
		out[i] = r.Sets[k.Set].Groups
	}
	return out
}

// duckdbPeers are the DuckDB peer's runs on one thread and on GOMAXPROCS,
// and how each key's groups compared with pkcalc's.
type duckdbPeers struct {
	one, all duckdbRun
	compared []string
}

// measureDuckDB runs the DuckDB peer over file, which holds data, with the
// keys of rep, and checks its work.
func measureDuckDB(t *testing.T, file string, rep *report.Report, keys []peerKey, exact []int64) duckdbPeers {
	t.Helper()
	script := os.Getenv("PKCALC_DUCKDB_PEER")
	if script == "" {
		t.Fatal("PKCALC_DUCKDB_PEER is not set: ./build.sh test and ./build.sh bench install DuckDB in build/duckdb and set it to duckdb-peer.mjs there")
	}
	arg, _ := json.Marshal(keys)
	run := func(threads int) duckdbRun {
		var stderr bytes.Buffer
		cmd := exec.Command("node", script, file, strconv.Itoa(threads), string(arg))
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("node %s on %d threads: %v\n%s", script, threads, err, stderr.Bytes())
		}
		var r duckdbRun
		if err := json.Unmarshal(out, &r); err != nil || len(r.Keys) != len(keys) {
			t.Fatalf("node %s printed %q (%v)", script, out, err)
		}
		for _, s := range r.Sets {
			if s.Documents != rep.Documents {
				t.Errorf("DuckDB on %d threads counted %d documents in the groups of %s, pkcalc read %d", threads, s.Documents, s.Columns, rep.Documents)
			}
		}
		return r
	}
	p := duckdbPeers{one: run(1), all: run(runtime.GOMAXPROCS(0))}
	if !slices.Equal(p.one.groups(), p.all.groups()) {
		t.Errorf("DuckDB found %v groups on one thread, %v on %d", p.one.groups(), p.all.groups(), p.all.Threads)
	}
	p.compared = checkGroups(t, "DuckDB", keys, exact, p.one.groups(), func(k peerKey) bool { return !k.hashed() })
	return p
}

// jsRun is what js-peer.js resolves to.
type jsRun struct {
	Seconds   float64   `json:"seconds"`
	Runs      []float64 `json:"runs"`
	Documents int64     `json:"documents"`
	Groups    []int64   `json:"groups"`
}

// measureScript runs the plain script in the tab of ctx over the File in
// its #bench-file input.
func measureScript(t *testing.T, ctx context.Context, keys []peerKey) jsRun {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "js-peer.js"))
	if err != nil {
		t.Fatal(err)
	}
	arg, _ := json.Marshal(keys)
	r := eval[jsRun](t, ctx, fmt.Sprintf("(%s)(document.getElementById(\"bench-file\").files[0], %s)", src, arg))
	if len(r.Groups) != len(keys) {
		t.Fatalf("the script counted %d keys, not %d", len(r.Groups), len(keys))
	}
	return r
}

// TestDuckDBPeer checks the DuckDB peer's work on 40,000 orders (12 MB,
// past the window): DuckDB's groups of each key are pkcalc's logical
// partitions, so that the benchmark's ratio compares the same work. The
// times it logs are of one run on a small file, not the benchmark's.
func TestDuckDBPeer(t *testing.T) {
	file := filepath.Join(t.TempDir(), "orders.jsonl")
	var data bytes.Buffer
	sample.Orders(&data, 40_000)
	if err := os.WriteFile(file, data.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := analysis.Analyze(bytes.NewReader(data.Bytes()), analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	keys := peerKeys(t, rep)
	exact := exactGroups(t, data.Bytes(), rep)
	p := measureDuckDB(t, file, rep, keys, exact)
	t.Logf("%s (%s), query:\n%s", p.one.DuckDB, p.one.Package, p.one.Query)
	for i, k := range keys {
		t.Logf("%-30s pkcalc %7d%s, exact %7d; DuckDB %7d (%s)", k.Spec, rep.Candidates[i].LogicalPartitions,
			map[bool]string{true: " (estimated)", false: ""}[rep.Candidates[i].LogicalPartitionsEstimated], exact[i], p.one.groups()[i], p.compared[i])
	}
	if !slices.Contains(p.compared, "same") {
		t.Error("no key compared with DuckDB's groups")
	}
}

// peersSection is docs/PERFORMANCE.md's account of the peers: what each
// ran, the query, and each key's groups against pkcalc's.
func peersSection(file string, mb float64, rep *report.Report, keys []peerKey, exact []int64, duck duckdbPeers, script jsRun, scriptCompared []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n## Peers\n\nThe same run measures two peers on the same %.1f MB file and the same keys, the %d candidates of "+
		"pkcalc's default analysis (with no workload there are no filter groupings: only queries add them). Each peer "+
		"counts the documents per value of each key and does nothing else; pkcalc's figures are of its whole analysis "+
		"(placement, sketches, projection, score), so the ratios weigh that against counting alone.\n\n",
		mb, len(keys))
	fmt.Fprintf(&b, "- **DuckDB** %s (`%s` from npm, in memory, run from Node by `e2e/testdata/duckdb-peer.mjs`): one query "+
		"with %d grouping sets, one per distinct grouping of the keys, run three times on 1 thread and three times on %d "+
		"(`SET threads`), the best of each (1 thread: %s s; %d threads: %s s). `read_ndjson` reads only the columns "+
		"named, as VARCHAR; a time bucket is the UTC time cut by `date_trunc`, cast through TIMESTAMPTZ so that an "+
		"offset applies; a synthetic key groups by its terms' columns together, a hierarchical key by its levels.\n",
		duck.one.DuckDB, duck.one.Package, len(duck.one.Sets), duck.all.Threads, seconds(duck.one.Runs), duck.all.Threads, seconds(duck.all.Runs))
	fmt.Fprintf(&b, "- **The script** (`e2e/testdata/js-peer.js`), in the tab that measured pkcalc, on the page's main thread "+
		"(pkcalc's engine runs in a Web Worker): the same File through `File.stream()` and a `TextDecoderStream`, cut "+
		"into lines, `JSON.parse` for each, and one `Map` per key from the key's value, built as pkcalc builds it "+
		"(a synthetic key's terms joined with -, a computed suffix by FNV-1a), to its count; the best of three (%s s).\n\n",
		seconds(script.Runs))
	fmt.Fprintf(&b, "```sql\n%s\n```\n\n", strings.ReplaceAll(duck.one.Query, file, filepath.Base(file)))
	b.WriteString("| key | DuckDB grouping set | DuckDB's groups | the script's | pkcalc's logical partitions | pkcalc's, exact | DuckDB | script |\n|---|---|---|---|---|---|---|---|\n")
	estimated, hashed := false, false
	for i, k := range keys {
		c := rep.Candidates[i]
		reported := human.Count(c.LogicalPartitions)
		if c.LogicalPartitionsEstimated {
			reported += " (estimated)"
			estimated = true
		}
		hashed = hashed || k.hashed()
		set := duck.one.Sets[duck.one.Keys[i].Set]
		fmt.Fprintf(&b, "| `%s` | `%s` | %s | %s | %s | %s | %s | %s |\n", k.Spec, set.Columns, human.Count(set.Groups),
			human.Count(script.Groups[i]), reported, human.Count(exact[i]), duck.compared[i], scriptCompared[i])
	}
	b.WriteString("\nThe last two columns say whether each peer's groups are pkcalc's exact count (the test fails where they differ)")
	if estimated {
		b.WriteString("; where the default analysis estimates (past the values it keeps exactly), the exact count is that of " +
			"an analysis of the key alone keeping all its values exactly")
	}
	b.WriteString(".")
	if hashed {
		b.WriteString(" A key with a computed suffix is not compared for DuckDB: its `hash()` is not pkcalc's FNV-1a, so the " +
			"documents fall into other buckets; the work, a hash and a modulo per document, is the same kind.")
	}
	b.WriteString("\n\nDuckDB-Wasm is no peer in the browser: its builds leave the JSON extension out and fetch it at run " +
		"time when a query first needs it (duckdb/duckdb-wasm's README: core extensions such as JSON, Parquet and ICU " +
		"\"are autoloaded (including fetching them) at runtime\"), so it cannot read JSON offline, where pkcalc runs; " +
		"the plain script stands in for it.\n")
	return b.String()
}

// seconds writes run times as "0.41, 0.44, 0.45".
func seconds(runs []float64) string {
	s := make([]string, len(runs))
	for i, r := range runs {
		s[i] = fmt.Sprintf("%.2f", r)
	}
	return strings.Join(s, ", ")
}
