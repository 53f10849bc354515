package advisor

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/partition"
	"github.com/pkcalc/pkcalc/core/paths"
)

// evaluate measures spec over src and judges it.
func evaluate(t *testing.T, spec string, src io.Reader, opts partition.Options, s Settings) *Evaluation {
	t.Helper()
	k, err := key.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	a := partition.New(k, opts)
	r := ingest.NewReader(src)
	for {
		d, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		a.Add(d)
	}
	return Evaluate(a.Finish(), s)
}

func dataset(t *testing.T, name string) io.Reader {
	t.Helper()
	b, err := os.ReadFile("../../../shared/datasets/" + name)
	if err != nil {
		t.Skip(err)
	}
	return strings.NewReader(string(b))
}

func finding(e *Evaluation, code string) *Finding {
	for i := range e.Findings {
		if e.Findings[i].Code == code {
			return &e.Findings[i]
		}
	}
	return nil
}

func lines(n int, f func(i int) string) io.Reader {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(f(i))
		b.WriteByte('\n')
	}
	return strings.NewReader(b.String())
}

// The seed guidance: three devices are far too few values for a key.
func TestTelemetryDeviceIsPoor(t *testing.T) {
	e := evaluate(t, "/device_id", dataset(t, "iot-env-sensor-telemetry.json"), partition.Options{TimePath: []string{"ts"}}, Settings{})
	if e.Grade != "F" || e.Score > 35 {
		t.Errorf("/device_id: score %d grade %s, want F", e.Score, e.Grade)
	}
	f := finding(e, LowCardinality)
	if f == nil || f.Severity != Critical || !strings.Contains(f.Message, "only 3 distinct values") {
		t.Errorf("LOW_CARDINALITY: %+v", f)
	}
	if finding(e, HotPartition) == nil {
		t.Errorf("no HOT_PARTITION: %+v", e.Findings)
	}
}

// The seed guidance: one dominant tenant is flagged by name.
func TestDominantTenantFlagged(t *testing.T) {
	e := evaluate(t, "/tenantId", dataset(t, "dp420-tenant-products.json"), partition.Options{}, Settings{})
	f := finding(e, HotPartition)
	if f == nil || f.Severity != Critical || !strings.Contains(f.Message, `"contoso-outdoors" alone holds 68% of the documents`) {
		t.Errorf("HOT_PARTITION: %+v", f)
	}
	if e.Grade != "F" {
		t.Errorf("/tenantId graded %s (%d)", e.Grade, e.Score)
	}
	// At 500 GB the tenant passes the 20 GB limit of a logical partition.
	big := evaluate(t, "/tenantId", dataset(t, "dp420-tenant-products.json"), partition.Options{}, Settings{TargetBytes: 500 << 30})
	if f := finding(big, LogicalPartitionLimit); f == nil || f.Severity != Critical || !strings.Contains(f.Message, `"contoso-outdoors", would hold 33`) {
		t.Errorf("LOGICAL_PARTITION_LIMIT at 500 GB: %+v", f)
	}
	if big.Projection.OverLimitN != 3 {
		t.Errorf("%d tenants over 20 GB, want 3", big.Projection.OverLimitN)
	}
}

func TestTimeKeyConcentratesWrites(t *testing.T) {
	in := func() io.Reader {
		return lines(6000, func(i int) string {
			return fmt.Sprintf(`{"id":"%d","day":"2025-01-%02dT10:00:00Z","ts":%d}`, i, 1+i/200, 1735700000+i*432)
		})
	}
	opts := partition.Options{TimePath: []string{"ts"}}
	e := evaluate(t, "/day:day", in(), opts, Settings{Partitions: 8})
	f := finding(e, Monotonic)
	if f == nil || f.Severity != Critical || e.Score > 50 {
		t.Errorf("/day:day: score %d, MONOTONIC %+v", e.Score, f)
	}
	id := evaluate(t, "/id", in(), opts, Settings{Partitions: 8})
	if f := finding(id, Monotonic); f != nil && f.Severity != Info {
		t.Errorf("/id: %+v", f)
	}
	if id.Grade != "A" {
		t.Errorf("/id graded %s (%d): %+v", id.Grade, id.Score, id.Breakdown)
	}
}

func TestValueProblems(t *testing.T) {
	long := strings.Repeat("k", 120)
	in := fmt.Sprintf("{\"k\":\"a\"}\n{\"k\":{\"x\":1}}\n{\"other\":1}\n{\"k\":%q}\n{\"k\":%q}\n", long+"1", long+"2")
	v1 := evaluate(t, "/k", strings.NewReader(in), partition.Options{Version: epk.V1}, Settings{})
	for _, code := range []string{InvalidValues, MissingValues, KeyTooLong, TruncationCollision} {
		if finding(v1, code) == nil {
			t.Errorf("V1: no %s in %+v", code, v1.Findings)
		}
	}
	if v1.Score > 40 {
		t.Errorf("an item Cosmos DB rejects must cap the score: %d", v1.Score)
	}
	v2 := evaluate(t, "/k", strings.NewReader(in), partition.Options{Version: epk.V2}, Settings{})
	if finding(v2, TruncationCollision) != nil || finding(v2, KeyTooLong) != nil {
		t.Errorf("V2: %+v", v2.Findings)
	}
	tooLong := evaluate(t, "/k", strings.NewReader(fmt.Sprintf(`{"k":%q}`, strings.Repeat("x", 2049))), partition.Options{}, Settings{})
	if f := finding(tooLong, KeyTooLong); f == nil || f.Severity != Critical {
		t.Errorf("2,049-byte key: %+v", tooLong.Findings)
	}
}

func TestWorkload(t *testing.T) {
	// 10 tenants, one with 91% of documents.
	in := func() io.Reader {
		return lines(1000, func(i int) string {
			t := "big"
			if i%11 == 0 {
				t = fmt.Sprintf("small-%d", i%10)
			}
			return fmt.Sprintf(`{"id":"%d","tenant":%q}`, i, t)
		})
	}
	s := Settings{Throughput: capacity.Throughput{RU: 40000}, Workload: Workload{Writes: 3000}}
	e := evaluate(t, "/tenant", in(), partition.Options{}, s)
	if !e.Load.Active || e.Load.CapacityRU != 40000.0/float64(len(e.Physical)) {
		t.Fatalf("load %+v", e.Load)
	}
	f := finding(e, Throttled)
	if f == nil || f.Severity != Critical || !strings.Contains(f.Message, "past the 10,000 RU/s any single key value can get") {
		t.Errorf("THROTTLED: %+v", e.Findings)
	}
	id := evaluate(t, "/id", in(), partition.Options{}, s)
	if finding(id, Throttled) != nil || id.Load.Throttle.ThrottledFraction != 0 {
		t.Errorf("/id throttled: %+v", id.Load.Throttle)
	}
	under := evaluate(t, "/id", in(), partition.Options{}, Settings{Throughput: capacity.Throughput{RU: 400}, Workload: Workload{Writes: 2000}})
	if finding(under, Underprovisioned) == nil || finding(under, Throttled) != nil {
		t.Errorf("underprovisioned: %+v", under.Findings)
	}
}

func TestCandidates(t *testing.T) {
	c := paths.New(paths.Options{})
	r := ingest.NewReader(dataset(t, "dp420-tenant-products.json"))
	for {
		d, err := r.Next()
		if err != nil {
			break
		}
		c.Add(&d.Root)
	}
	var got []string
	for _, s := range Candidates(Sample{Paths: c.Paths(), Documents: c.Documents()}) {
		got = append(got, s.String())
	}
	for _, want := range []string{"/id", "/tenantId", "/tenantId,/id", "/categoryId", "/tenantId+hash(/id)%14"} {
		if !slices.Contains(got, want) {
			t.Errorf("candidates %q lack %s", got, want)
		}
	}
	for _, not := range []string{"/price", "/description", "/tags"} {
		if slices.Contains(got, not) {
			t.Errorf("candidates %q include %s", got, not)
		}
	}
	// At 500 GB the suffix must cut the largest tenant into chunks of 10 GB at most.
	for _, s := range Candidates(Sample{Paths: c.Paths(), Documents: c.Documents(), TargetBytes: 500 << 30}) {
		if s.Kind == key.Synthetic && s.Terms[1].Modulus > 0 && s.Terms[1].Modulus != 35 {
			t.Errorf("suffix %s: want %%35 (68%% of 500 GB in 10 GB chunks)", s)
		}
		// key.Spec.ExtractFrom takes a synthetic key's values in Paths' order.
		for i, term := range s.Terms {
			if !slices.Equal(term.Path, s.Paths[i]) {
				t.Errorf("%s: term %d reads %q, Paths holds %q", s, i, term.Path, s.Paths[i])
			}
		}
	}
}

func TestRecommend(t *testing.T) {
	var evals []*Evaluation
	for _, spec := range []string{"/tenantId", "/tenantId,/id", "/tenantId+hash(/id)%14"} {
		evals = append(evals, evaluate(t, spec, dataset(t, "dp420-tenant-products.json"), partition.Options{}, Settings{}))
	}
	recs := Recommend(evals)
	var codes []string
	for _, r := range recs[0] {
		codes = append(codes, r.Code)
	}
	if !slices.Equal(codes, []string{UseHierarchical, DedicatedContainer}) && !slices.Equal(codes, []string{UseSynthetic, UseHierarchical, DedicatedContainer}) {
		t.Errorf("advice for /tenantId: %q", codes)
	}
	if len(recs[1]) != 0 {
		t.Errorf("advice for the best key: %+v", recs[1])
	}
	if !strings.Contains(recs[0][0].Message, "/tenantId,/id") && !strings.Contains(recs[0][0].Message, "/tenantId+hash(/id)%14") {
		t.Errorf("advice names no key: %q", recs[0][0].Message)
	}
}

func TestGrades(t *testing.T) {
	for score, want := range map[int]string{100: "A", 85: "A", 84: "B", 70: "B", 55: "C", 40: "D", 39: "F", 0: "F"} {
		if g := grade(score); g != want {
			t.Errorf("grade(%d) = %s, want %s", score, g, want)
		}
	}
}
