package advisor

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/partition"
	"github.com/pkcalc/pkcalc/core/query"
)

// Each rule is tested alone, as an analysis pass is: a table of keys and
// settings, and what the rule's verdict must be (its line of the
// breakdown, its findings and its cap). The other tests judge the rules
// together.

// ruleCase is one row of a rule's table.
type ruleCase struct {
	name    string
	spec    string
	src     func() io.Reader
	opts    partition.Options
	s       Settings
	score   int      // the component's score; -1: no component, -2: not checked
	code    string   // a finding the verdict must have; "" for none at all
	sev     Severity // its severity
	text    string   // in its message (or the component's note when code is "")
	cap     int      // the verdict's cap
	measure bool     // the component was measured
}

func runRule(t *testing.T, rule func(*Evaluation) verdict, cases []ruleCase) {
	t.Helper()
	for _, tt := range cases {
		e := evaluate(t, tt.spec, tt.src(), tt.opts, tt.s)
		v := rule(e)
		switch {
		case tt.score == -1 && v.component != nil:
			t.Errorf("%s: a component %+v, want none", tt.name, v.component)
		case tt.score >= 0 && (v.component == nil || v.component.Score != tt.score):
			t.Errorf("%s: component %+v, want score %d", tt.name, v.component, tt.score)
		case v.component != nil && v.component.Measured != tt.measure:
			t.Errorf("%s: component %+v, want measured %v", tt.name, v.component, tt.measure)
		}
		if v.cap != tt.cap {
			t.Errorf("%s: cap %d, want %d", tt.name, v.cap, tt.cap)
		}
		if tt.code == "" {
			if len(v.findings) != 0 {
				t.Errorf("%s: findings %+v, want none", tt.name, v.findings)
			}
			if tt.text != "" && (v.component == nil || !strings.Contains(v.component.Note, tt.text)) {
				t.Errorf("%s: note %+v, want %q", tt.name, v.component, tt.text)
			}
			continue
		}
		found := false
		for _, f := range v.findings {
			if f.Code == tt.code && f.Severity == tt.sev && strings.Contains(f.Message, tt.text) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: findings %+v\nwant %s %s %q", tt.name, v.findings, tt.sev, tt.code, tt.text)
		}
	}
}

// tenants are n documents over the given tenants, the first taking share
// of them, each with its own id.
func tenants(n int, first float64, others int) func() io.Reader {
	return func() io.Reader {
		return lines(n, func(i int) string {
			t := "big"
			if float64(i%100) >= first*100 {
				t = fmt.Sprintf("t%d", i%others)
			}
			return fmt.Sprintf(`{"id":"%d","tenant":%q,"pad":%q}`, i, t, strings.Repeat("x", 400))
		})
	}
}

func TestDistinctValuesRule(t *testing.T) {
	runRule(t, distinctValues, []ruleCase{
		{name: "ids grow with the data", spec: "/id", src: tenants(500, 0.1, 20), score: 100, measure: true,
			text: "most documents bring a new one"},
		{name: "20 tenants at the sample's size", spec: "/tenant", src: tenants(500, 0.1, 20), score: 100, measure: true,
			code: LowCardinality, sev: Info, text: "That is enough here"},
		// 21 values of at most 20 GB hold 420 GB, less than 1 TB.
		{name: "20 tenants at 1 TB", spec: "/tenant", src: tenants(500, 0.1, 20), s: Settings{TargetBytes: 1 << 40}, score: -2, measure: true,
			code: LowCardinality, sev: Critical, text: "less than the target's 1.0 TB", cap: 40},
		// 10,000 RU/s a value at most: 21 values cannot serve 50,000 writes
		// of 5 RU.
		{name: "20 tenants, more RU/s than they can serve", spec: "/tenant", src: tenants(500, 0.1, 20), s: Settings{Workload: Workload{Writes: 50000}}, score: -2, measure: true,
			code: LowCardinality, sev: Critical, text: "more throughput cannot fix that", cap: 40},
		{name: "20 tenants over 10 partitions", spec: "/tenant", src: tenants(500, 0.1, 20), s: Settings{Throughput: capacity.Throughput{RU: 60000}}, score: -2, measure: true,
			code: LowCardinality, sev: Warning, text: "over the 10 physical partitions the container has that is about 2.1 values a partition", cap: 70},
		{name: "a computed suffix", spec: "/tenant+hash(/id)%4", src: tenants(500, 0.1, 20), score: 100, measure: true,
			code: LowCardinality, sev: Info, text: "by design"},
	})
}

func TestDataSpreadRule(t *testing.T) {
	runRule(t, dataSpread, []ruleCase{
		// One partition: as the values will spread once it splits.
		{name: "one value in half of one partition", spec: "/tenant", src: tenants(500, 0.5, 20), score: 0, measure: true, text: "the largest logical partition holds 50% of the data"},
		{name: "ids on one partition", spec: "/id", src: tenants(500, 0.5, 20), score: 100, measure: true, text: "the largest logical partition holds 0.2% of the data"},
		// 4 partitions at 20,000 RU/s.
		{name: "ids on 4 partitions", spec: "/id", src: tenants(2000, 0.5, 20), s: Settings{Throughput: capacity.Throughput{RU: 20000}}, score: -2, measure: true, text: "the fullest of 4 physical partitions"},
	})
}

func TestRoomToGrowRule(t *testing.T) {
	runRule(t, roomToGrow, []ruleCase{
		{name: "small", spec: "/tenant", src: tenants(500, 0.5, 20), score: 100, measure: true, text: "of the 20 GB limit"},
		// The big tenant holds half of 100 GB.
		{name: "past 20 GB", spec: "/tenant", src: tenants(500, 0.5, 20), s: Settings{TargetBytes: 100 << 30}, score: 0, measure: true,
			code: LogicalPartitionLimit, sev: Critical, text: `the largest, "big", would hold 50`, cap: 35},
		{name: "past the alert line", spec: "/tenant", src: tenants(500, 0.5, 20), s: Settings{TargetBytes: 32 << 30}, score: -2, measure: true,
			code: LogicalPartitionLimit, sev: Warning, text: "the 70% alert line (14 GB)", cap: 80},
	})
}

func TestRequestSpreadRule(t *testing.T) {
	runRule(t, requestSpread, []ruleCase{
		{name: "no workload, a hot value", spec: "/tenant", src: tenants(500, 0.5, 20), score: 0, measure: true,
			code: HotPartition, sev: Critical, text: `The value "big" alone holds 50% of the documents`},
		{name: "no workload, ids", spec: "/id", src: tenants(500, 0.5, 20), score: 100, measure: true, text: "the busiest logical partition takes 0.2% of requests"},
		// 30,000 writes of 7 RU on a value with half of them.
		{name: "one value past 10,000 RU/s", spec: "/tenant", src: tenants(500, 0.5, 20), s: Settings{Workload: Workload{Writes: 30000}}, score: 0, measure: true,
			code: Throttled, sev: Critical, text: "more throughput cannot fix that", cap: 60},
		// 2,000 writes of 5 RU: one partition serves them.
		{name: "ids, enough throughput", spec: "/id", src: tenants(2000, 0.5, 20), s: Settings{Throughput: capacity.Throughput{RU: 20000}, Workload: Workload{Writes: 2000}}, score: 100, measure: true,
			text: "no partition throttles from 10,000 RU/s: create the container with 6,000 RU/s or less, then raise its RU/s, as created with more it would start with more partitions; if every request read one partition, the workload would need 10,000 RU/s"},
		// With no throughput given, the least allowed is not held against
		// the key: only a value past 10,000 RU/s is a finding.
		{name: "ids, no throughput given", spec: "/id", src: tenants(2000, 0.5, 20), s: Settings{Workload: Workload{Writes: 2000}}, score: -2, measure: true,
			text: "no partition throttles from"},
	})
}

func TestWritesOverTimeRule(t *testing.T) {
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	timed := func(n int, key func(i int) string) func() io.Reader {
		return func() io.Reader {
			return lines(n, func(i int) string {
				return fmt.Sprintf(`{"id":"%06d","k":%q,"at":%q}`, i, key(i), start.Add(time.Duration(i)*time.Minute).Format(time.RFC3339))
			})
		}
	}
	at := partition.Options{TimePath: []string{"at"}}
	runRule(t, writesOverTime, []ruleCase{
		// Without a time field, only the file's order tells.
		{name: "no time field", spec: "/id", src: tenants(100, 0.5, 20), score: 0, measure: false,
			code: Monotonic, sev: Info, text: "increases with the order of the file (which need not be the order of writes"},
		{name: "random values written every minute", spec: "/k", src: timed(3000, func(i int) string { return fmt.Sprintf("k%d", (i*7919)%1000) }), opts: at,
			score: 100, measure: true, text: "distinct values in 60 sampled writes per hour"},
		// The hour of the write as the key: every write of an hour shares it.
		{name: "the hour", spec: "/k", src: timed(3000, func(i int) string { return fmt.Sprintf("h%d", i/60) }), opts: at, s: Settings{Partitions: 4},
			score: -2, measure: true, code: Monotonic, sev: Critical, text: "follows time", cap: 50},
	})
}

func TestKeyPresentRule(t *testing.T) {
	half := func() io.Reader {
		return lines(100, func(i int) string {
			if i%2 == 0 {
				return fmt.Sprintf(`{"id":"%d"}`, i)
			}
			return fmt.Sprintf(`{"id":"%d","k":"v%d"}`, i, i)
		})
	}
	objects := func() io.Reader {
		return lines(100, func(i int) string { return fmt.Sprintf(`{"id":"%d","k":{"a":%d}}`, i, i) })
	}
	// A time bucket over values that are no times: the path is there, so
	// the finding says what is wrong with them, not that it is missing.
	notTimes := func() io.Reader {
		return lines(100, func(i int) string {
			switch i % 4 {
			case 0:
				return fmt.Sprintf(`{"id":"%d","t":"a","at":"yesterday"}`, i)
			case 1:
				return fmt.Sprintf(`{"id":"%d","t":"a"}`, i)
			}
			return fmt.Sprintf(`{"id":"%d","t":"a","at":"2025-03-04T10:00:00Z"}`, i)
		})
	}
	runRule(t, keyPresent, []ruleCase{
		{name: "values that are not times", spec: "/t+/at:day", src: notTimes, score: 0, measure: true, code: NotTimeValues, sev: Warning,
			text: `25 documents (25%) hold a value at /at that is not a time (for example "yesterday"), so /at:day gives them no day and the key no value.`},
		{name: "values that are not times, missing ones", spec: "/t+/at:day", src: notTimes, score: 0, measure: true, code: MissingValues, sev: Warning,
			text: "25 documents (25%) lack /t or /at."},
		{name: "every document", spec: "/id", src: tenants(100, 0.5, 20), score: 100, measure: true, text: "0% of documents lack the key"},
		{name: "half lack it", spec: "/k", src: half, score: 0, measure: true, code: MissingValues, sev: Warning, text: "50 documents (50%) lack /k"},
		{name: "objects", spec: "/k", src: objects, score: 0, measure: true, code: InvalidValues, sev: Critical, text: "100 documents hold an object or an array at /k"},
	})
}

func TestQueryRoutingRule(t *testing.T) {
	ops := func(text string) []Operation {
		o, errs := query.ReadWorkload(strings.NewReader(text))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		return asOperations(o)
	}
	runRule(t, queryRouting, []ruleCase{
		{name: "no workload", spec: "/tenant", src: tenants(100, 0.5, 20), score: -1},
		{name: "every query by the key", spec: "/tenant", src: tenants(100, 0.5, 20), s: Settings{Operations: ops("10 SELECT * FROM c WHERE c.tenant = @t")}, score: 100, measure: true,
			text: "100% of the operations read one partition"},
		// Four partitions: a fan-out reads three more.
		{name: "fan-out", spec: "/id", src: tenants(100, 0.5, 20), s: Settings{Partitions: 4, Operations: ops("10 SELECT * FROM c WHERE c.tenant = @t")}, score: 0, measure: true,
			code: CrossPartitionQueries, sev: Critical, text: "costs about 2.5 RU more for each extra physical partition", cap: 65},
		// Writes alone route nowhere to judge.
		{name: "a patch of the key", spec: "/tenant", src: tenants(100, 0.5, 20), s: Settings{Operations: ops("5 patch /tenant")}, score: 0, measure: false,
			code: KeyUpdated, sev: Warning, text: "changes the key"},
		{name: "a batch across ids", spec: "/id", src: tenants(100, 0.5, 20), s: Settings{Operations: ops("5 batch 10 /tenant")}, score: 0, measure: false,
			code: TransactionSpansKeys, sev: Critical, text: "spans items with different key values", cap: 40},
	})
}

func TestKeyValuesRule(t *testing.T) {
	long := func() io.Reader {
		return lines(10, func(i int) string { return fmt.Sprintf(`{"id":"%d","k":"%s%d"}`, i, strings.Repeat("k", 2100), i) })
	}
	runRule(t, keyValues, []ruleCase{
		{name: "short values", spec: "/tenant", src: tenants(100, 0.5, 20), score: -1},
		{name: "over 2,048 bytes", spec: "/k", src: long, score: -1, code: KeyTooLong, sev: Critical, text: "10 documents have a key value over 2,048 bytes", cap: 40},
		{name: "the id", spec: "/id", src: tenants(100, 0.5, 20), score: -1, code: IDKey, sev: Info, text: "only point reads"},
	})
}

func TestDayOneRule(t *testing.T) {
	three := func() io.Reader {
		return lines(300, func(i int) string { return fmt.Sprintf(`{"id":"%d","t":"t%d"}`, i, i%3) })
	}
	runRule(t, dayOneFit, []ruleCase{
		{name: "one partition", spec: "/t,/id", src: three, score: -1},
		{name: "ids over 4 partitions", spec: "/id", src: three, s: Settings{Throughput: capacity.Throughput{RU: 20000}}, score: -1},
		// Three first-level values hashed onto 8 partitions fill 3 at most.
		{name: "three tenants over 8 partitions", spec: "/t,/id", src: three, s: Settings{Throughput: capacity.Throughput{RU: 48000}}, score: -1,
			code: DayOneSpread, sev: Info, text: "keeps 5 of them empty"},
		// 12,000 writes of 5.5 RU, a third on one partition of 6,000 RU/s:
		// more than any partition can have, on one first-level value,
		// which more partitions at the start do not split.
		{name: "their writes throttle", spec: "/t,/id", src: three, s: Settings{Throughput: capacity.Throughput{RU: 48000}, Workload: Workload{Writes: 12000}}, score: -1,
			code: DayOneSpread, sev: Warning, text: "they throttle from the first day, more than the 10,000 RU/s one partition can have, whatever the container's total: they fall on one value of the first level, which one partition holds until it splits."},
		// 4,000 writes: 7,333 RU/s, which more RU/s a partition serve.
		{name: "their writes throttle at this throughput", spec: "/t,/id", src: three, s: Settings{Throughput: capacity.Throughput{RU: 48000}, Workload: Workload{Writes: 4000}}, score: -1,
			code: DayOneSpread, sev: Warning, text: "they throttle from the first day at this throughput"},
	})
}

// WriteRU prices the workload's writes as the load does: an insert, twice
// that for a replace, upsert or patch, one for each item of a batch, and
// a measured charge where one is given.
func TestWriteRU(t *testing.T) {
	ops, errs := query.ReadWorkload(strings.NewReader("10 create\n5 replace /x\n2 batch 3 /x\n4 ru=9 upsert /x\n100 SELECT * FROM c\n50 read /id\n"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	it := capacity.Item{Bytes: 1024}
	for _, tt := range []struct {
		w    Workload
		want float64
	}{
		{Workload{Writes: 1}, 5 + 10*5 + 5*10 + 2*15 + 4*9},
		{Workload{Writes: 1, Measured: capacity.Costs{Write: 7}}, 7 + 10*7 + 5*14 + 2*21 + 4*9},
	} {
		if got := WriteRU(tt.w, ops, it); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("WriteRU(%+v) = %v, want %v", tt.w, got, tt.want)
		}
	}
}

// TestJustifyMiddle: a middle level that no operation names is held to
// the score of the key without it, which then ranks first (the simpler);
// one that a query's prefix names keeps its own.
func TestJustifyMiddle(t *testing.T) {
	src := func() io.Reader {
		return lines(600, func(i int) string {
			return fmt.Sprintf(`{"id":"r%d","asin":"p%d","reviewer":"u%d"}`, i, i%30, i%97)
		})
	}
	for _, tt := range []struct {
		workload string
		held     bool
	}{
		{"500 SELECT TOP 10 * FROM c WHERE c.asin = @a\n100 read /id /asin\n", true},
		{"500 SELECT * FROM c WHERE c.asin = @a AND c.reviewer = @r\n", false},
	} {
		ops, errs := query.ReadWorkload(strings.NewReader(tt.workload))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		s := Settings{Operations: asOperations(ops)}
		short := evaluate(t, "/asin,/id", src(), partition.Options{}, s)
		long := evaluate(t, "/asin,/reviewer,/id", src(), partition.Options{}, s)
		// As the chance of a layout at the target can make it.
		long.Score, long.Uncapped = short.Score+3, short.Uncapped+3
		rank := Rank([]*Evaluation{short, long})
		held := long.Score == short.Score && rank[0] == 1
		if held != tt.held {
			t.Errorf("%q: /asin,/reviewer,/id %d against %d, ranks %v; want held: %v", tt.workload, long.Score, short.Score, rank, tt.held)
		}
		if f := finding(long, CompositeKey); held && (f == nil || !strings.Contains(f.Message, "Nothing in the data or the workload calls for the middle level /reviewer over /asin,/id")) {
			t.Errorf("COMPOSITE_KEY %+v", f)
		}
	}
}

// TestFixesMoment: a computed suffix spreads the writes of a moment that
// share a value of the plain key; a time bucket does not, as they share
// the bucket too ("/conversationId+/created_date:month does better: the
// writes of a moment share a value of /conversationId, which this key
// spreads" was said of a key ranked below it).
func TestFixesMoment(t *testing.T) {
	plain := &Evaluation{Dist: &partition.Distribution{Spec: hashKey([]string{"c"})}, Findings: []Finding{{Monotonic, Warning, ""}}}
	for _, tt := range []struct {
		spec    string
		spreads bool
	}{{"/c+hash(/id)%4", true}, {"/c+/t:month", false}} {
		spec, err := key.Parse(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		why := fixes(&Evaluation{Dist: &partition.Distribution{Spec: spec}}, plain)
		if got := slices.ContainsFunc(why, func(s string) bool { return strings.Contains(s, "writes of a moment") }); got != tt.spreads {
			t.Errorf("%s: %q", tt.spec, why)
		}
	}
}
