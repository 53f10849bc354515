package advisor

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/paths"
	"github.com/pkcalc/pkcalc/core/query"
)

// sampleOf reads documents into the Sample Candidates takes, with the
// workload's operations.
func sampleOf(t *testing.T, docs io.Reader, workload string) Sample {
	t.Helper()
	c := paths.New(paths.Options{})
	r := ingest.NewReader(docs)
	for {
		d, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		c.Add(&d.Root, d.Bytes)
	}
	s := Sample{Paths: c.Paths(), Documents: c.Documents(), Bytes: c.Bytes()}
	if workload != "" {
		ops, errs := query.ReadWorkload(strings.NewReader(workload))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		s.Operations = ops
	}
	return s
}

func specText(ss []key.Spec) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.String()
	}
	return out
}

// reading are the keys that read path.
func reading(ss []key.Spec, path string) []string {
	var out []string
	for _, s := range ss {
		if slices.Contains(s.PathStrings(), path) {
			out = append(out, s.String())
		}
	}
	return out
}

// profile is a MongoDB profiler log (system.profile, exported): five
// namespaces of 50, 20, 15, 10 and 5 %, an ObjectId, a timing, a time a
// second apart, twenty clients and four users.
func profile(n int) io.Reader {
	ns := []string{"shop.orders", "shop.orders", "shop.orders", "shop.orders", "shop.orders", "shop.orders", "shop.orders", "shop.orders", "shop.orders", "shop.orders",
		"shop.products", "shop.products", "shop.products", "shop.products", "shop.carts", "shop.carts", "shop.carts", "admin.$cmd", "admin.$cmd", "shop.users"}
	start := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	return lines(n, func(i int) string {
		return fmt.Sprintf(`{"op":"query","ns":%q,"millis":%d,"nreturned":%d,"ts":%q,"_id":{"$oid":"%024x"},"client":"10.0.0.%d","user":"u%d@admin"}`,
			ns[i%20], (i*7)%40, (i*3)%25, start.Add(time.Duration(i)*time.Second).Format(time.RFC3339), uint64(i)*2654435761+1, i%20+2, i%4)
	})
}

// TestCandidatesWorkloadFirst: the paths the workload finds its items by
// lead the candidates, weighted by the operations' rates, whatever their
// spread; as plain keys only when the data lets them stand alone.
func TestCandidatesWorkloadFirst(t *testing.T) {
	tenants := func(n int) io.Reader { // three tenants, 50, 30 and 20 %; 30 categories
		return lines(n, func(i int) string {
			tenant := []string{"contoso", "contoso", "contoso", "contoso", "contoso", "fabrikam", "fabrikam", "fabrikam", "tailspin", "tailspin"}[i%10]
			return fmt.Sprintf(`{"id":"p%d","tenantId":%q,"categoryId":"c%d","customerId":"k%d","sku":"s%d"}`, i, tenant, i%30, i%200, i)
		})
	}
	for _, tt := range []struct {
		name     string
		docs     io.Reader
		workload string
		sample   func(*Sample)
		first    []string // the candidates start so
		absent   []string // keys not proposed
		after    [2]string
	}{
		{
			name:     "a profiler log: /ns leads, five namespaces make no key alone",
			docs:     profile(2000),
			workload: "200 SELECT * FROM c WHERE c.ns = @ns AND c.ts > @since",
			sample:   func(s *Sample) { s.TimePath, s.TimeSpan = []string{"ts"}, 2000*time.Second },
			first:    []string{"/ns,/_id", "/ns,/client,/_id", "/ns+/ts:hour"},
			// No namespace nears a limit: a suffix would only make every
			// query for one read two partitions.
			absent: []string{"/ns", "/ns+hash(/_id)%2", "/ts", "/millis", "/nreturned"},
		},
		{
			name:     "at 100 GB the largest namespace passes 20 GB: /ns alone is measured after the keys that spread it",
			docs:     profile(2000),
			workload: "200 SELECT * FROM c WHERE c.ns = @ns AND c.ts > @since",
			sample:   func(s *Sample) { s.TimePath, s.TimeSpan, s.TargetBytes = []string{"ts"}, 2000*time.Second, 100<<30 },
			first:    []string{"/ns,/_id", "/ns,/client,/_id", "/ns+/ts:hour", "/ns+hash(/_id)%5", "/ns"},
		},
		{
			name:     "the busier query's path first",
			docs:     tenants(600),
			workload: "10 SELECT * FROM c WHERE c.categoryId = @c\n100 SELECT * FROM c WHERE c.customerId = @k",
			first:    []string{"/customerId", "/customerId,/id", "/categoryId", "/categoryId,/id", "/categoryId,/customerId,/id"},
			absent:   []string{"/customerId+hash(/id)%2", "/categoryId+hash(/id)%2"},
		},
		{
			name:     "both filtered: the coarser is the first level, the finer the middle",
			docs:     tenants(600),
			workload: "1000 SELECT * FROM c WHERE c.tenantId = @t AND c.categoryId = @c",
			first:    []string{"/tenantId,/id", "/tenantId,/categoryId,/id", "/categoryId"},
			absent:   []string{"/tenantId", "/tenantId+hash(/id)%2"},
		},
		{
			name:     "IN targets the values it lists",
			docs:     tenants(600),
			workload: "SELECT * FROM c WHERE c.tenantId IN ('contoso', 'fabrikam')",
			first:    []string{"/tenantId,/id", "/tenantId,/customerId,/id"},
		},
		{
			name:     "a point read by id and key",
			docs:     tenants(600),
			workload: "500 read /id /customerId",
			first:    []string{"/customerId", "/customerId,/id", "/id"},
		},
		{
			name: "a path in few documents, because the queries use it",
			docs: lines(600, func(i int) string {
				if i%5 == 0 {
					return fmt.Sprintf(`{"id":"e%d","region":"r%d","n":%d}`, i, i%4, i)
				}
				return fmt.Sprintf(`{"id":"e%d","n":%d}`, i, i)
			}),
			workload: "SELECT * FROM c WHERE c.region = @r",
			first:    []string{"/region,/id"},
			absent:   []string{"/region"}, // four in five documents would share the undefined value
		},
		{
			name:  "no workload: the grouping path leads, and is measured alone to show why",
			docs:  tenants(600),
			first: []string{"/tenantId,/id", "/tenantId,/customerId,/id", "/tenantId", "/id"},
			after: [2]string{"/id", "/customerId"},
		},
		{
			// Titles read as prose, but the application knows a film's
			// title when it reads its page: by the workload, a key.
			name: "a point read by a title",
			docs: lines(600, func(i int) string {
				return fmt.Sprintf(`{"id":"m%d","title":"The Film Number %d","genre":"g%d","description":"A film of %d things"}`, i, i, i%12, i%40)
			}),
			workload: "500 read /id /title\n50 SELECT * FROM c WHERE c.description = @d",
			first:    []string{"/id", "/title"},
			// Every title its own film's: /id after it tells nothing more apart.
			absent: []string{"/description", "/title,/id"},
		},
		{
			name: "titles with no workload",
			docs: lines(600, func(i int) string {
				return fmt.Sprintf(`{"id":"m%d","title":"The Film Number %d","genre":"g%d"}`, i, i, i%12)
			}),
			absent: []string{"/title"},
		},
		{
			// One repository's issues: the application finds them by
			// repository and number, so the sample is one tenant of many,
			// and the path leads its family (not alone: one value).
			name: "a filter path of one value",
			docs: lines(600, func(i int) string {
				return fmt.Sprintf(`{"id":"i%d","repository_url":"https://api.github.com/repos/o/r","number":%d,"state":"s%d"}`, i, i, i%2)
			}),
			workload: "400 SELECT * FROM c WHERE c.repository_url = @repo AND c.number = @n\n150 SELECT * FROM c WHERE c.repository_url = @repo AND c.state = 'open'",
			first:    []string{"/repository_url,/id"},
			absent:   []string{"/repository_url"},
		},
		{
			// An issue's URL and node id are its own, as its id is: beside
			// the id they spread as it does and serve no operation. Its
			// number, which the workload finds it by, is proposed alone,
			// with no level or time bucket after it.
			name: "paths whose every value is its own",
			docs: lines(600, func(i int) string {
				return fmt.Sprintf(`{"id":"i%d","number":%d,"html_url":"https://x/issues/%d","node_id":"N_%d","user":"u%d","created_at":"2024-01-%02dT00:00:00Z"}`, i, i, i, i, i%40, 1+i%28)
			}),
			workload: "400 SELECT * FROM c WHERE c.number = @n\n40 SELECT * FROM c WHERE c.user = @u",
			sample:   func(s *Sample) { s.TimePath, s.TimeSpan = []string{"created_at"}, 28*24*time.Hour },
			first:    []string{"/number", "/user"},
			absent:   []string{"/html_url", "/node_id", "/number,/id", "/number+/created_at:day"},
		},
		{
			// A person's name, two words, is what the page shows of a
			// customer, not what finds one: like prose, a key only where
			// the workload looks customers up by it.
			name: "a customer's name",
			docs: lines(600, func(i int) string {
				return fmt.Sprintf(`{"id":"o%d","customerId":"C-%d","customerName":"Claire Gute%d","region":"r%d"}`, i, i%80, i%80, i%4)
			}),
			workload: "100 SELECT * FROM c WHERE c.customerId = @c",
			first:    []string{"/customerId", "/customerId,/id"},
			absent:   []string{"/customerName"},
		},
		{
			name: "a lookup by a customer's name",
			docs: lines(600, func(i int) string {
				return fmt.Sprintf(`{"id":"o%d","customerId":"C-%d","customerName":"Claire Gute%d","region":"r%d"}`, i, i%80, i%80, i%4)
			}),
			workload: "100 SELECT * FROM c WHERE c.customerName = @n",
			first:    []string{"/customerName"},
		},
		{
			// 300 engines' flights at 5 TB: an engine holds 17 GB as the
			// sample grows, and 400 bytes if new engines keep coming. Sized by
			// the sample's share, /engineId was never proposed alone.
			name: "values that keep coming stand alone",
			docs: lines(3000, func(i int) string {
				return fmt.Sprintf(`{"id":"f%d","engineId":"e%d","cycle":%d}`, i, i%300, i/300)
			}),
			workload: "100 SELECT * FROM c WHERE c.engineId = @e\n50 create",
			sample:   func(s *Sample) { s.TargetBytes, s.NewValues = 5000<<30, [][]string{{"engineId"}} },
			first:    []string{"/engineId", "/engineId,/id"},
			absent:   []string{"/engineId+hash(/id)%2"},
		},
		{
			name: "the same engines as all there are",
			docs: lines(3000, func(i int) string {
				return fmt.Sprintf(`{"id":"f%d","engineId":"e%d","cycle":%d}`, i, i%300, i/300)
			}),
			workload: "100 SELECT * FROM c WHERE c.engineId = @e\n50 create",
			sample:   func(s *Sample) { s.TargetBytes = 5000 << 30 },
			absent:   []string{"/engineId"},
		},
		{
			name:     "a query on nothing the documents hold: as without a workload",
			docs:     tenants(600),
			workload: "SELECT * FROM c WHERE c.missing = @m",
			first:    []string{"/tenantId,/id"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := sampleOf(t, tt.docs, tt.workload)
			if tt.sample != nil {
				tt.sample(&s)
			}
			got := specText(Candidates(s))
			if len(got) < len(tt.first) || !slices.Equal(got[:len(tt.first)], tt.first) {
				t.Errorf("candidates %q, want them to start %q", got, tt.first)
			}
			for _, k := range tt.absent {
				if slices.Contains(got, k) {
					t.Errorf("candidates %q hold %s", got, k)
				}
			}
			if a, b := slices.Index(got, tt.after[0]), slices.Index(got, tt.after[1]); tt.after[0] != "" && (a < 0 || b < 0 || a > b) {
				t.Errorf("candidates %q: want %s before %s", got, tt.after[0], tt.after[1])
			}
		})
	}
}

// TestCandidatesNeverMeasurements: measurements, counters, values that
// change during an item's life, times and flags are never proposed, however
// well they spread; identifiers and groups are, numbers among them.
func TestCandidatesNeverMeasurements(t *testing.T) {
	states := []string{"AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME", "MD"}
	workflow := []string{"pending", "shipped", "Active", "Closed"}
	for _, tt := range []struct {
		field string
		value func(i int) string // JSON
		docs  int                // 0 for 600
		want  bool               // proposed
	}{
		// timings
		{"millis", func(i int) string { return fmt.Sprint(i) }, 0, false},
		{"durationMs", func(i int) string { return fmt.Sprint(i % 97) }, 0, false},
		{"latency", func(i int) string { return fmt.Sprint(i) }, 0, false},
		{"elapsed", func(i int) string { return fmt.Sprint(i % 60) }, 0, false},
		{"runtime", func(i int) string { return fmt.Sprint(80 + i%90) }, 0, false},
		// votes, likes, counts, money, ratings, population
		{"votes", func(i int) string { return fmt.Sprint(i * 13) }, 0, false},
		{"likes", func(i int) string { return fmt.Sprint(i % 300) }, 0, false},
		{"likeCount", func(i int) string { return fmt.Sprint(i) }, 0, false},
		{"gross_takings", func(i int) string { return fmt.Sprint(i * 1000) }, 0, false},
		{"revenue", func(i int) string { return fmt.Sprint(i * 7) }, 0, false},
		{"price", func(i int) string { return fmt.Sprintf(`"$%d.00"`, i%50) }, 0, false},
		{"amount", func(i int) string { return fmt.Sprint(i % 50) }, 0, false},
		{"total", func(i int) string { return fmt.Sprint(i) }, 0, false},
		{"rating", func(i int) string { return fmt.Sprint(i%5 + 1) }, 0, false},
		{"imdbScore", func(i int) string { return fmt.Sprint(i % 100) }, 0, false},
		{"population", func(i int) string { return fmt.Sprint(1000 + i*37) }, 0, false},
		{"tenantCount", func(i int) string { return fmt.Sprint(i % 50) }, 0, false},
		// sensor readings
		{"temperature", func(i int) string { return fmt.Sprint(15 + i%20) }, 0, false},
		{"humidity", func(i int) string { return fmt.Sprintf("%d.5", 40+i%50) }, 0, false},
		{"co", func(i int) string { return fmt.Sprint(i) }, 0, false},
		{"lpg", func(i int) string { return fmt.Sprint(i % 70) }, 0, false},
		{"smoke", func(i int) string { return fmt.Sprint(i % 80) }, 0, false},
		{"battery", func(i int) string { return fmt.Sprint(100 - i%100) }, 0, false},
		{"voltage", func(i int) string { return fmt.Sprint(200 + i%40) }, 0, false},
		{"pressure", func(i int) string { return fmt.Sprint(990 + i%50) }, 0, false},
		// a number no name explains, and one that never repeats
		{"n", func(i int) string { return fmt.Sprint(i % 50) }, 0, false},
		{"seq", func(i int) string { return fmt.Sprint(1000 + i) }, 0, true},
		{"seq", func(i int) string { return fmt.Sprint(1000 + i) }, minIdentityDocs - 1, false},
		{"seq", func(i int) string { return fmt.Sprintf("%d.5", i) }, 0, false},
		// numbers named as identifiers or groups
		{"orderNo", func(i int) string { return fmt.Sprint(i % 50) }, 0, true},
		{"customerNumber", func(i int) string { return fmt.Sprint(i % 60) }, 0, true},
		{"deviceId", func(i int) string { return fmt.Sprint(i % 60) }, 0, true},
		{"tenant", func(i int) string { return fmt.Sprint(i % 60) }, 0, true},
		// what changes during an item's life
		{"status", func(i int) string { return fmt.Sprintf(`"s%d"`, i%50) }, 0, false},
		{"orderState", func(i int) string { return fmt.Sprintf(`"%s"`, workflow[i%4]) }, 0, false},
		{"state", func(i int) string { return fmt.Sprintf(`"%s"`, workflow[i%4]) }, 0, false},
		{"state", func(i int) string { return fmt.Sprintf(`"%s"`, states[i%20]) }, 0, true},
		{"version", func(i int) string { return fmt.Sprintf(`"v%d"`, i%50) }, 0, false},
		{"updatedAt", func(i int) string { return fmt.Sprintf(`"2024-01-01T00:%02d:%02dZ"`, i/60%60, i%60) }, 0, false},
		{"lastModified", func(i int) string { return fmt.Sprintf(`"m%d"`, i%50) }, 0, false},
		{"lastSeen", func(i int) string { return fmt.Sprintf(`"m%d"`, i%50) }, 0, false},
		{"lastName", func(i int) string { return fmt.Sprintf(`"Name%d"`, i%50) }, 0, true},
		// times alone, flags, prose
		{"createdAt", func(i int) string { return fmt.Sprintf(`"2024-01-01T00:%02d:%02dZ"`, i/60%60, i%60) }, 0, false},
		// a time whose name does not say so, of any year (MongoDB's
		// sample customers' birthdate), and text that is not one
		{"birthdate", func(i int) string { return fmt.Sprintf(`"1966-07-%02dT17:22:%02d.000Z"`, 1+i%28, i%60) }, 0, false},
		{"expires", func(i int) string { return fmt.Sprintf(`"2031-%02d-%02d"`, 1+i%12, 1+i%28) }, 0, false},
		{"batch", func(i int) string { return fmt.Sprintf(`"b-%d"`, i%50) }, 0, true},
		{"isActive", func(i int) string { return fmt.Sprint(i%2 == 0) }, 0, false},
		{"description", func(i int) string { return fmt.Sprintf(`"d%d"`, i%50) }, 0, false},
	} {
		docs := cmp.Or(tt.docs, 600)
		name := fmt.Sprintf("%s in %d documents", tt.field, docs)
		t.Run(name, func(t *testing.T) {
			s := sampleOf(t, lines(docs, func(i int) string {
				return fmt.Sprintf(`{"id":"d%d","%s":%s}`, i, tt.field, tt.value(i))
			}), "")
			// A query on the path does not make it a key either.
			s2 := sampleOf(t, lines(docs, func(i int) string {
				return fmt.Sprintf(`{"id":"d%d","%s":%s}`, i, tt.field, tt.value(i))
			}), fmt.Sprintf("SELECT * FROM c WHERE c.%s = @v", tt.field))
			for _, s := range []Sample{s, s2} {
				got := Candidates(s)
				if uses := reading(got, "/"+tt.field); (len(uses) > 0) != tt.want {
					t.Errorf("candidates %q: want /%s proposed %v", specText(got), tt.field, tt.want)
				}
			}
		})
	}
}

// TestCandidatesNeverUpdated: a path the workload's patch, replace or
// upsert sets is a value that changes, whatever its name: MongoDB's
// sample users' /password was proposed beside "KEY_UPDATED: The patch of
// /password (line 8) changes the key".
func TestCandidatesNeverUpdated(t *testing.T) {
	docs := func() io.Reader {
		return lines(600, func(i int) string {
			// Two users to a hash: a path whose every value is its own
			// is left out anyway, as the id's clone.
			return fmt.Sprintf(`{"id":"d%d","email":"u%d@x.org","password":"$2b$%d"}`, i, i, i%300)
		})
	}
	for _, tt := range []struct {
		workload string
		want     bool // /password proposed
	}{
		{"SELECT * FROM c WHERE c.email = @e", true},
		{"SELECT * FROM c WHERE c.email = @e\n1 patch /password", false},
		{"SELECT * FROM c WHERE c.email = @e\n1 upsert /password", false},
		{"SELECT * FROM c WHERE c.email = @e\n1 patch /email", true},
	} {
		got := Candidates(sampleOf(t, docs(), tt.workload))
		if uses := reading(got, "/password"); (len(uses) > 0) != tt.want {
			t.Errorf("%q: candidates %q, want /password proposed %v", tt.workload, specText(got), tt.want)
		}
	}
}

// TestNameWords: a property name splits into the words the lists hold.
func TestNameWords(t *testing.T) {
	for _, tt := range []struct {
		name string
		want []string
	}{
		{"deviceId", []string{"device", "id"}},
		{"device_id", []string{"device", "id"}},
		{"DeviceID", []string{"device", "id"}},
		{"HTTPStatus", []string{"http", "status"}},
		{"_id", []string{"id"}},
		{"co2", []string{"co", "2"}},
		{"gross-takings", []string{"gross", "takings"}},
		{"keysExamined", []string{"keys", "examined"}},
		{"nreturned", []string{"nreturned"}},
		{"accountId", []string{"account", "id"}},
	} {
		if got := nameWords(tt.name); !slices.Equal(got, tt.want) {
			t.Errorf("nameWords(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestCandidatesItemID: every Cosmos DB item has an id; a MongoDB export's
// /_id is what becomes it: the last level and the suffix's source.
func TestCandidatesItemID(t *testing.T) {
	tenant := func(i int) string { return []string{"a", "a", "a", "b", "b", "c"}[i%6] }
	for _, tt := range []struct {
		name   string
		doc    func(i int) string
		time   []string
		want   []string
		absent []string
	}{
		{"a MongoDB export", func(i int) string {
			return fmt.Sprintf(`{"_id":{"$oid":"%024x"},"tenant":%q,"user":"u%d"}`, uint64(i)*2654435761+1, tenant(i), i%300)
		}, nil, []string{"/tenant,/_id", "/tenant,/user,/_id", "/_id"}, []string{"/id", "/tenant+hash(/_id)%2"}},
		{"id and _id: the id wins", func(i int) string {
			return fmt.Sprintf(`{"id":"d%d","_id":"m%d","tenant":%q}`, i, i, tenant(i))
		}, nil, []string{"/tenant,/id", "/id"}, []string{"/tenant,/_id", "/tenant+hash(/id)%2"}},
		{"no id: the time is the last level", func(i int) string {
			return fmt.Sprintf(`{"tenant":%q,"ts":%d}`, tenant(i), 1700000000+i)
		}, []string{"ts"}, []string{"/tenant,/ts", "/tenant+/ts:hour"}, []string{"/ts", "/tenant+hash(/ts)%2"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := sampleOf(t, lines(600, tt.doc), "")
			s.TimePath, s.TimeSpan = tt.time, time.Hour
			got := specText(Candidates(s))
			for _, k := range tt.want {
				if !slices.Contains(got, k) {
					t.Errorf("candidates %q lack %s", got, k)
				}
			}
			for _, k := range tt.absent {
				if slices.Contains(got, k) {
					t.Errorf("candidates %q hold %s", got, k)
				}
			}
		})
	}
}

// TestSuffixCount: the fewest suffixes, at least 2, that keep the largest
// value under half of 20 GB at the target, by its share of the data, and
// under half of 10,000 RU/s of its writes, by its share of the documents
// (concepts-limits).
func TestSuffixCount(t *testing.T) {
	for _, tt := range []struct {
		name              string
		bytes, writeShare float64
		targetGB          float64
		writeRU           float64
		want              int
	}{
		{"nothing to spread: the least", 0.5, 0.5, 0, 0, 2},
		{"a small largest value: the least", 0.146, 0.146, 10, 0, 2},
		{"68 % of 100 GB in 10 GB suffixes", 0.68, 0.68, 100, 0, 7},
		{"47 % of 200 GB, and of 17,000 RU/s of writes", 0.47, 0.47, 200, 17000, 10},
		{"writes decide: 50 % of 30,000 RU/s in 5,000 RU/s", 0.5, 0.5, 1, 30000, 3},
		{"exactly half a limit is enough", 1, 1, 10, 5000, 2},
		{"past the most Parse allows: the most", 1, 1, 1e6, 0, key.MaxModulus},
		// A log source with 6.2 % of the lines and 8.4 % of the bytes of
		// 1.2 TB: 8 suffixes by its lines held 12.6 GB each.
		{"bytes decide: 8.4 % of the data in 6.2 % of the documents", 0.084, 0.062, 1200, 0, 11},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := suffixCount(tt.bytes, tt.writeShare, int64(tt.targetGB*(1<<30)), tt.writeRU); got != tt.want {
				t.Errorf("suffixCount(%v, %v, %v GB, %v RU/s) = %d, want %d", tt.bytes, tt.writeShare, tt.targetGB, tt.writeRU, got, tt.want)
			}
		})
	}
	// Through Candidates: three tenants of 68, 21 and 11 %.
	s := sampleOf(t, lines(1000, func(i int) string {
		t := "big"
		if i%100 >= 68 {
			t = []string{"mid", "small"}[min(1, (i%100-68)/21)]
		}
		return fmt.Sprintf(`{"id":"d%d","tenantId":%q}`, i, t)
	}), "")
	for _, tt := range []struct {
		targetGB float64
		writeRU  float64
		want     string
	}{
		{100, 0, "/tenantId+hash(/id)%7"},
		{100, 30000, "/tenantId+hash(/id)%7"},
		{0, 100000, "/tenantId+hash(/id)%14"},
	} {
		s.TargetBytes, s.WriteRU = int64(tt.targetGB*(1<<30)), tt.writeRU
		if got := specText(Candidates(s)); !slices.Contains(got, tt.want) {
			t.Errorf("at %v GB and %v RU/s of writes: candidates %q lack %s", tt.targetGB, tt.writeRU, got, tt.want)
		}
	}
}

// TestSuffixHolds: where a computed suffix's N stops holding.
func TestSuffixHolds(t *testing.T) {
	gb := float64(capacity.LogicalPartitionMaxBytes) / 20
	for _, tt := range []struct {
		spec              string
		share, writeShare float64
		ok                bool
		gb, ru            float64
		says              string
	}{
		{"/tenantId+hash(/id)%7", 0.68, 0, true, 7 * 20 / 0.68, 7 * 10000 / 0.68,
			"hash(/id)%7 holds while the largest value of /tenantId (68% of the data, 68% of the writes) fits its 7 suffixes: up to 206 GB in all (7 x 20 GB / 68%) and 102,941 RU/s of writes (7 x 10,000 RU/s / 68%)."},
		{"/device_id+hash(/ts)%10", 0.47, 0.8, true, 10 * 20 / 0.47, 10 * 10000 / 0.8,
			"up to 426 GB in all (10 x 20 GB / 47%) and 125,000 RU/s of writes (10 x 10,000 RU/s / 80%)"},
		{"/a+/ts:day+hash(/id)%4", 1, 1, true, 80, 40000, "largest value of /a+/ts:day (100% of the data"},
		{"/tenantId+/ts:day", 0.5, 0, false, 0, 0, ""},
		{"/tenantId,/id", 0.5, 0, false, 0, 0, ""},
		{"/tenantId+hash(/id)%7", 0, 0, false, 0, 0, ""},
		{"/tenantId+hash(/id)%7", 1.5, 0, false, 0, 0, ""},
		{"/tenantId+hash(/id)%7", math.NaN(), 0, false, 0, 0, ""},
	} {
		t.Run(fmt.Sprintf("%s at %v", tt.spec, tt.share), func(t *testing.T) {
			spec, err := key.Parse(tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			room, ok := SuffixHolds(spec, tt.share, tt.writeShare)
			if ok != tt.ok {
				t.Fatalf("ok %v, want %v: %+v", ok, tt.ok, room)
			}
			if !ok {
				return
			}
			if got := float64(room.Bytes) / gb; math.Abs(got-tt.gb) > 0.01 {
				t.Errorf("bytes %.2f GB, want %.2f GB", got, tt.gb)
			}
			if math.Abs(room.WriteRU-tt.ru) > 0.5 {
				t.Errorf("write RU/s %.1f, want %.1f", room.WriteRU, tt.ru)
			}
			if !strings.Contains(room.Message, tt.says) || !strings.Contains(room.Message, "a new N changes every item's key") {
				t.Errorf("message %q lacks %q", room.Message, tt.says)
			}
		})
	}
}

// TestCandidatesOrder: the keys, their number and their order depend on
// the documents and the workload, not on the order the paths were seen.
func TestCandidatesOrder(t *testing.T) {
	// Thirty paths, each a fine key alone, seen in a different order.
	wide := func(i int) string {
		var b strings.Builder
		fmt.Fprintf(&b, `{"id":"d%d"`, i)
		for m := range 30 {
			j := (m + i) % 30
			fmt.Fprintf(&b, `,"k%02dId":"v%d"`, j, i%(40+j))
		}
		return b.String() + "}"
	}
	s := sampleOf(t, lines(600, wide), "10 SELECT * FROM c WHERE c.k03Id = @a\n10 SELECT * FROM c WHERE c.k01Id = @b")
	got := Candidates(s)
	if len(got) != MaxCandidates {
		t.Errorf("%d candidates, want %d: %q", len(got), MaxCandidates, specText(got))
	}
	reversed := s
	reversed.Paths = slices.Clone(s.Paths)
	slices.Reverse(reversed.Paths)
	if a, b := specText(got), specText(Candidates(reversed)); !slices.Equal(a, b) {
		t.Errorf("the order of the paths moved the candidates:\n%q\n%q", a, b)
	}
	// k01Id and k03Id are filtered alike: they lead, the coarser first.
	if txt := specText(got); !strings.HasPrefix(txt[0], "/k01Id") || !slices.ContainsFunc(txt[:6], func(k string) bool { return strings.HasPrefix(k, "/k03Id") }) {
		t.Errorf("candidates %q do not start with the filtered paths", txt)
	}
	s.Limit = 3
	if got := Candidates(s); len(got) != 3 {
		t.Errorf("limit 3: %q", specText(got))
	}
	// Hash version 1 has no hierarchical keys.
	s.Limit, s.Version = 0, epk.V1
	for _, k := range Candidates(s) {
		if k.Kind == key.MultiHash {
			t.Errorf("hash V1: %s", k)
		}
	}
	if Candidates(Sample{}) != nil {
		t.Error("candidates of no documents")
	}
}

// TestCandidatesDatasets: the real datasets with the workloads their
// owners run (the casebook's).
func TestCandidatesDatasets(t *testing.T) {
	iotAvg := 241.0 // bytes: 2,410,967 over 9,995 readings
	for _, tt := range []struct {
		file     string
		workload string
		sample   func(*Sample)
		first    []string
		want     []string
		noPath   string // no candidate reads a path starting so
	}{
		{file: "cosmicworks-v4-product.json",
			workload: "2000 SELECT * FROM c WHERE c.categoryId = @c AND c.id = @id\n500 SELECT * FROM c WHERE c.categoryId = @c",
			sample:   func(s *Sample) { s.TargetBytes = 10 << 30 },
			first:    []string{"/categoryId", "/categoryId,/id", "/id"},
			noPath:   "/price"},
		{file: "dp420-tenant-products.json",
			workload: "1000 SELECT * FROM c WHERE c.tenantId = @t AND c.categoryId = @c\n200 SELECT * FROM c WHERE c.tenantId = @t",
			sample:   func(s *Sample) { s.TargetBytes = 100 << 30 },
			first:    []string{"/tenantId,/id", "/tenantId,/categoryId,/id", "/tenantId+hash(/id)%7", "/tenantId"},
			noPath:   "/price"},
		{file: "iot-env-sensor-telemetry.json",
			sample: func(s *Sample) {
				s.TargetBytes, s.TimePath, s.TimeSpan = 200<<30, []string{"ts"}, 24*time.Hour
				s.WriteRU = 3000 * capacity.DefaultCosts(capacity.Item{Bytes: iotAvg}).Write
			},
			// iot-device-03 sends 46.7 % of the readings, 44.6 % of the
			// bytes: 89 GB of 200 in suffixes of 10 GB.
			want:   []string{"/device_id+/ts:hour", "/device_id+hash(/ts)%9", "/device_id"},
			noPath: "/data/"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			s := sampleOf(t, dataset(t, tt.file), tt.workload)
			if tt.sample != nil {
				tt.sample(&s)
			}
			got := specText(Candidates(s))
			if len(got) < len(tt.first) || !slices.Equal(got[:len(tt.first)], tt.first) {
				t.Errorf("candidates %q, want them to start %q", got, tt.first)
			}
			for _, k := range tt.want {
				if !slices.Contains(got, k) {
					t.Errorf("candidates %q lack %s", got, k)
				}
			}
			for _, k := range Candidates(s) {
				for _, p := range k.PathStrings() {
					if strings.HasPrefix(p, tt.noPath) {
						t.Errorf("candidate %s reads %s", k, p)
					}
				}
			}
		})
	}
}
