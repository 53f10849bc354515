package query

import (
	"strings"
	"testing"
	"time"

	"github.com/pkcalc/pkcalc/core/key"
)

func TestRoute(t *testing.T) {
	const (
		hash  = "/tenantId"
		ts    = "/ts"
		hier2 = "/tenantId,/userId"
		hier3 = "/tenantId,/userId,/sessionId"
		synth = "/deviceId+/ts:day"
		month = "/customerId+/orderDate:month"
		sufx  = "/customerId+hash(/id)%8"
		tsday = "/deviceId+/ts:day"
		cat3  = "/tenantId,/categoryId,/id"
		deep  = "/customer/id"
	)
	for _, tt := range []struct {
		key, query string
		kind       Kind
		values     int
		reason     string // "" skips the check
	}{
		// Hash key: equality, either side, literal or parameter.
		{hash, "SELECT * FROM c WHERE c.tenantId = @t", Single, 1, "filters /tenantId with ="},
		{hash, "SELECT * FROM c WHERE 'contoso' = c.tenantId", Single, 1, "filters /tenantId with ="},
		{hash, "SELECT * FROM c WHERE c.tenantId = 42", Single, 1, ""},
		{hash, "SELECT * FROM c WHERE c.tenantId = null", Single, 1, ""},
		{hash, "SELECT * FROM c WHERE c['tenantId'] = 'x'", Single, 1, ""},
		{hash, "SELECT * FROM products p WHERE p.tenantId = @t", Single, 1, ""},
		{hash, "SELECT * FROM products WHERE products.tenantId = @t", Single, 1, ""},
		{hash, "SELECT * FROM ROOT r WHERE r.tenantId = @t", Single, 1, ""},
		{hash, "SELECT * FROM c WHERE c.tenantId = @t AND c.id = @id", Single, 1, ""},
		{hash, "SELECT * FROM c WHERE c.tenantId = @t AND (c.a = 1 OR c.b = 2)", Single, 1, "filters /tenantId with ="},
		{hash, "SELECT * FROM c WHERE (c.status = 'open' AND (c.tenantId = @t))", Single, 1, ""},
		{hash, "SELECT * FROM c WHERE c.tenantId IN ('a')", Single, 1, "filters /tenantId with ="},
		{hash, "SELECT * FROM c WHERE c.tenantId = 'a' OR c.tenantId = 'a'", Single, 1, ""},
		// TOP, ORDER BY, GROUP BY, aggregates and DISTINCT do not change routing.
		{hash, "SELECT TOP 10 * FROM c WHERE c.tenantId = @t ORDER BY c._ts DESC", Single, 1, ""},
		{hash, "SELECT VALUE COUNT(1) FROM c WHERE c.tenantId = @t", Single, 1, ""},
		{hash, "SELECT c.status, COUNT(1) AS n FROM c WHERE c.tenantId = @t GROUP BY c.status", Single, 1, ""},
		{hash, "SELECT DISTINCT VALUE c.status FROM c WHERE c.tenantId = @t OFFSET 0 LIMIT 5", Single, 1, ""},
		{hash, "SELECT TOP 10 * FROM c ORDER BY c._ts DESC", FanOut, 0, "no filter on /tenantId"},
		// Several values: IN, OR of equalities, OR of conjunctions.
		{hash, "SELECT * FROM c WHERE c.tenantId IN ('a', 'b', 'c')", Targeted, 3, "filters /tenantId with IN or OR: one partition per value, 3 values"},
		{hash, "SELECT * FROM c WHERE c.tenantId IN (@a, @b, @a)", Targeted, 2, ""},
		{hash, "SELECT * FROM c WHERE c.tenantId = 'a' OR c.tenantId = 'b'", Targeted, 2, ""},
		{hash, "SELECT * FROM c WHERE (c.tenantId = 'a' AND c.x > 3) OR (c.tenantId = 'b')", Targeted, 2, ""},
		{hash, "SELECT * FROM c WHERE c.tenantId IN ('a', 'b') AND c.tenantId IN ('b', 'c')", Single, 1, ""},
		{hash, "SELECT * FROM c WHERE c.tenantId IN ('a', 'b') AND c.tenantId = @t", Targeted, 2, ""},
		{hash, "SELECT * FROM c WHERE c.tenantId = 'a' AND c.tenantId = 'b'", Single, 0, "the filter can match no item: it asks /tenantId for two different values"},
		// Fan-out: no filter, OR with a branch that does not pin, and every
		// filter the service cannot route by.
		{hash, "SELECT * FROM c", FanOut, 0, "no filter on /tenantId"},
		{hash, "SELECT * FROM c WHERE c.userId = @u", FanOut, 0, "no filter on /tenantId"},
		{hash, "SELECT * FROM c WHERE c.tenantId = 'a' OR c.x = 1", FanOut, 0, "an OR branch does not filter /tenantId: every partition"},
		{hash, "SELECT * FROM c WHERE c.tenantId != 'a'", FanOut, 0, "!= on /tenantId reads every partition"},
		{hash, "SELECT * FROM c WHERE c.tenantId <> 'a'", FanOut, 0, "!= on /tenantId reads every partition"},
		{hash, "SELECT * FROM c WHERE NOT c.tenantId = 'a'", FanOut, 0, "NOT over /tenantId reads every partition"},
		{hash, "SELECT * FROM c WHERE NOT (c.tenantId = 'a' AND c.x = 1)", FanOut, 0, "NOT over /tenantId reads every partition"},
		{hash, "SELECT * FROM c WHERE c.tenantId NOT IN ('a', 'b')", FanOut, 0, "NOT IN on /tenantId reads every partition"},
		{hash, "SELECT * FROM c WHERE c.tenantId > 'm'", FanOut, 0, "a range on /tenantId reads every partition"},
		{hash, "SELECT * FROM c WHERE c.tenantId BETWEEN 'a' AND 'f'", FanOut, 0, "a range on /tenantId reads every partition"},
		{hash, "SELECT * FROM c WHERE c.tenantId LIKE 'con%'", FanOut, 0, "LIKE on /tenantId reads every partition"},
		{hash, "SELECT * FROM c WHERE LOWER(c.tenantId) = 'x'", FanOut, 0, "LOWER(c.tenantId) applies LOWER to /tenantId: every partition"},
		{hash, "SELECT * FROM c WHERE STARTSWITH(c.tenantId, 'a')", FanOut, 0, `STARTSWITH(c.tenantId, "a") applies STARTSWITH to /tenantId: every partition`},
		{hash, "SELECT * FROM c WHERE ARRAY_CONTAINS(@list, c.tenantId)", FanOut, 0, ""},
		{hash, "SELECT * FROM c WHERE c.tenantId = c.ownerId", FanOut, 0, "c.tenantId = c.ownerId compares /tenantId with a value computed per item: every partition"},
		{hash, "SELECT * FROM c WHERE c.tenantId IN ('a', c.other)", FanOut, 0, ""},
		{hash, "SELECT * FROM c WHERE (c.tenantId ?? 'x') = 'a'", FanOut, 0, ""},
		{hash, "SELECT * FROM c WHERE c.tenantId", FanOut, 0, ""},
		{hash, "SELECT * FROM c WHERE EXISTS(SELECT VALUE t FROM t IN c.tags WHERE c.tenantId = 'a')", FanOut, 0, "no filter on /tenantId"},
		{hash, "SELECT * FROM c WHERE c.tenantId = undefined", FanOut, 0, ""},
		// Only the FROM alias leads to key paths.
		{hash, "SELECT * FROM c JOIN t IN c.tags WHERE t.tenantId = 'a'", FanOut, 0, ""},
		{hash, "SELECT * FROM c JOIN t IN c.tags WHERE c.tenantId = 'a' AND t.x = 1", Single, 1, ""},
		{hash, "SELECT * FROM t IN c.tenants WHERE t.tenantId = 'a'", FanOut, 0, "no filter on /tenantId: FROM t IN c.tenants reads array elements, whose paths are not the key"},
		{hash, "SELECT * FROM p WHERE c.tenantId = 'a'", FanOut, 0, ""},
		{hash, "SELECT 1", FanOut, 0, ""},
		{hash, "SELECT * FROM (SELECT * FROM c WHERE c.tenantId = 'a') s", Single, 1, "filters /tenantId with = (in the FROM subquery)"},
		{deep, "SELECT * FROM c WHERE c.customer.id = @id", Single, 1, "filters /customer/id with ="},
		{deep, "SELECT * FROM c WHERE c['customer']['id'] = @id", Single, 1, ""},
		{deep, "SELECT * FROM c.customer cu WHERE cu.id = @id", Single, 1, ""},
		{deep, "SELECT * FROM c WHERE c.customer = {id: 1}", FanOut, 0, ""},
		{ts, "SELECT * FROM c WHERE c.ts > @since", FanOut, 0, "a range on /ts reads every partition"},

		// Hierarchical keys: a prefix of the levels targets its partitions.
		{hier2, "SELECT * FROM c WHERE c.tenantId = @t AND c.userId = @u", Single, 1, "filters every level of /tenantId,/userId with ="},
		{hier2, "SELECT * FROM c WHERE c.tenantId = @t", Targeted, 1, "filters /tenantId, the first level of /tenantId,/userId: the partitions of 1 prefix"},
		{hier2, "SELECT * FROM c WHERE c.tenantId IN ('a', 'b')", Targeted, 2, "filters /tenantId, the first level of /tenantId,/userId: the partitions of 2 prefixes"},
		{hier2, "SELECT * FROM c WHERE c.tenantId = 'a' AND c.userId IN ('x', 'y')", Targeted, 2, "filters every level of /tenantId,/userId with IN or OR: one partition per value, 2 values"},
		{hier2, "SELECT * FROM c WHERE c.userId = @u", FanOut, 0, "filters only /userId, the second level of /tenantId,/userId: every partition"},
		{hier2, "SELECT * FROM c WHERE c.tenantId > 'a' AND c.userId = @u", FanOut, 0, "filters only /userId, the second level of /tenantId,/userId: every partition"},
		{hier2, "SELECT * FROM c WHERE (c.tenantId = 'a' AND c.userId = 'x') OR c.tenantId = 'a'", Targeted, 1, ""},
		{hier2, "SELECT * FROM c WHERE (c.tenantId = 'a' AND c.userId = 'x') OR c.userId = 'y'", FanOut, 0, "an OR branch does not filter /tenantId, the first level of /tenantId,/userId: every partition"},
		{cat3, "SELECT * FROM c WHERE c.tenantId IN ('a') OR c.categoryId = 'x'", FanOut, 0, "an OR branch does not filter /tenantId, the first level of /tenantId,/categoryId,/id: every partition"},
		{cat3, "SELECT * FROM c WHERE c.categoryId = 'x' OR c.categoryId = 'y'", FanOut, 0, "filters only /categoryId, the second level of /tenantId,/categoryId,/id: every partition"},
		{hier2, "SELECT * FROM c WHERE c.tenantId = 'a' AND c.userId = 'x' AND c.userId = 'y'", Single, 0, "the filter can match no item: it asks /userId for two different values"},
		{hier2, "SELECT * FROM c", FanOut, 0, "no filter on /tenantId"},
		{hier3, "SELECT * FROM c WHERE c.tenantId = @t AND c.userId = @u AND c.sessionId = @s", Single, 1, ""},
		{hier3, "SELECT * FROM c WHERE c.tenantId = @t AND c.userId = @u", Targeted, 1, "filters /tenantId and /userId, the first two levels of /tenantId,/userId,/sessionId: the partitions of 1 prefix"},
		{hier3, "SELECT * FROM c WHERE c.tenantId = @t AND c.sessionId = @s", Targeted, 1, "filters /tenantId, the first level of /tenantId,/userId,/sessionId: the partitions of 1 prefix"},
		{hier3, "SELECT * FROM c WHERE c.userId = @u AND c.sessionId = @s", FanOut, 0, "filters only /userId and /sessionId, the second and third levels of /tenantId,/userId,/sessionId: every partition"},
		{hier3, "SELECT * FROM c WHERE c.tenantId IN ('a', 'b') AND c.userId IN ('x', 'y', 'z')", Targeted, 6, ""},

		// Synthetic keys: pinning every source path lets the application
		// compute the key.
		{synth, "SELECT * FROM c WHERE c.deviceId = @d AND c.ts = @ts", Single, 1, "filters /deviceId and /ts with =: the application computes the one value of /deviceId+/ts:day"},
		{synth, "SELECT * FROM c WHERE c.deviceId IN ('a', 'b') AND c.ts = @ts", Targeted, 2, ""},
		{synth, "SELECT * FROM c WHERE c.deviceId = @d AND c.ts >= @from AND c.ts < @to", Targeted, 0, "filters /deviceId with = and /ts with a range: one partition per day in the range"},
		{synth, "SELECT * FROM c WHERE c.deviceId = @d AND c.ts > @since", Targeted, 0, ""},
		{synth, "SELECT * FROM c WHERE c.deviceId = @d AND c.ts >= '2024-01-01' AND c.ts < '2024-02-01'", Targeted, 31, ""},
		{synth, "SELECT * FROM c WHERE c.deviceId = @d AND c.ts BETWEEN '2024-01-01T10:00:00Z' AND '2024-01-03T09:00:00Z'", Targeted, 3, ""},
		{synth, "SELECT * FROM c WHERE c.deviceId IN ('a', 'b') AND c.ts BETWEEN '2024-01-01' AND '2024-01-03'", Targeted, 6, ""},
		{synth, "SELECT * FROM c WHERE c.deviceId = @d", FanOut, 0, "no filter on /ts, a source of the synthetic key /deviceId+/ts:day: every partition"},
		{synth, "SELECT * FROM c WHERE c.ts = @ts", FanOut, 0, "no filter on /deviceId, a source of the synthetic key /deviceId+/ts:day: every partition"},
		{synth, "SELECT * FROM c WHERE c.deviceId > 'a' AND c.ts = @ts", FanOut, 0, "a range on /deviceId reads every partition"},
		{synth, "SELECT * FROM c WHERE c.deviceId = @d AND LOWER(c.ts) = 'x'", FanOut, 0, ""},
		// Ranges: the tighter of two bounds counts, and one that leaves no
		// value matches nothing.
		{tsday, "SELECT * FROM c WHERE c.deviceId = @d AND c.ts > 1594771200 AND c.ts < 1594598400", Single, 0, "the filter can match no item: its range on /ts is empty"},
		{tsday, "SELECT * FROM c WHERE c.deviceId = @d AND c.ts BETWEEN '2024-01-03' AND '2024-01-01'", Single, 0, "the filter can match no item: its range on /ts is empty"},
		{tsday, "SELECT * FROM c WHERE c.deviceId = @d AND c.ts >= '2024-01-02' AND c.ts < '2024-01-02'", Single, 0, ""},
		{tsday, "SELECT * FROM c WHERE c.deviceId = @d AND c.ts >= '2024-01-01' AND c.ts <= '2024-01-01'", Targeted, 1, ""},
		{tsday, "SELECT * FROM c WHERE c.deviceId = @d AND c.ts >= '2024-01-01' AND c.ts >= '2024-01-25' AND c.ts < '2024-02-01'", Targeted, 7, ""},
		{tsday, "SELECT * FROM c WHERE c.deviceId = @d AND c.ts >= '2024-01-25' AND c.ts >= '2024-01-01' AND c.ts < '2024-02-01'", Targeted, 7, ""},
		{tsday, "SELECT * FROM c WHERE c.deviceId = @d AND c.ts < '2024-01-03' AND c.ts < '2024-02-01' AND c.ts >= '2024-01-01'", Targeted, 2, ""},
		{tsday, "SELECT * FROM c WHERE c.deviceId = @d AND c.ts >= @from AND c.ts >= '2024-01-25' AND c.ts < '2024-02-01'", Targeted, 7, ""},
		{tsday, "SELECT * FROM c WHERE c.deviceId = @d AND (c.ts > 20 AND c.ts < 10 OR c.ts = @t)", Single, 1, ""},
		{ts, "SELECT * FROM c WHERE c.ts > 1594771200 AND c.ts < 1594598400", Single, 0, "the filter can match no item: its range on /ts is empty"},
		{month, "SELECT * FROM c WHERE c.customerId = @c AND c.orderDate BETWEEN '2024-01-15' AND '2024-03-02'", Targeted, 3, "filters /customerId with = and /orderDate with a range: one partition per month in the range"},
		{sufx, "SELECT * FROM c WHERE c.customerId = @c AND c.id = @id", Single, 1, ""},
		{sufx, "SELECT * FROM c WHERE c.customerId = @c", Targeted, 8, "filters /customerId with = but not /id: one partition per value of hash(/id)%8, 8 in all"},
		{sufx, "SELECT * FROM c WHERE c.customerId IN (@a, @b)", Targeted, 16, "filters /customerId with IN or OR but not /id: one partition per value of hash(/id)%8 for each value named, 16 in all"},
		{sufx, "SELECT * FROM c WHERE c.id = @id", FanOut, 0, "no filter on /customerId, a source of the synthetic key /customerId+hash(/id)%8: every partition"},
	} {
		spec, err := key.Parse(tt.key)
		if err != nil {
			t.Fatal(err)
		}
		q, err := Parse(tt.query)
		if err != nil {
			t.Errorf("%s: %v", tt.query, err)
			continue
		}
		r := Route(q, spec)
		if r.Kind != tt.kind || r.Values != tt.values || tt.reason != "" && r.Reason != tt.reason {
			t.Errorf("key %s, %s:\n got %s %d %q\nwant %s %d %q", tt.key, tt.query, r.Kind, r.Values, r.Reason, tt.kind, tt.values, tt.reason)
		}
		if r.Reason == "" {
			t.Errorf("key %s, %s: no reason", tt.key, tt.query)
		}
	}
}

func TestRouteEdges(t *testing.T) {
	spec, _ := key.Parse("/tenantId")
	if r := Route(nil, spec); r.Kind != FanOut {
		t.Errorf("nil query: %+v", r)
	}
	q, _ := Parse("SELECT * FROM c WHERE c.tenantId = 'a'")
	if r := Route(q, key.Spec{}); r.Kind != FanOut {
		t.Errorf("no key: %+v", r)
	}
	// An AND of large IN lists multiplies out; Route caps what it lists.
	h2, _ := key.Parse("/a,/b")
	var a, b []string
	for i := range 100 {
		a = append(a, "'a"+string(rune('0'+i%10))+string(rune('0'+i/10))+"'")
		b = append(b, "'b"+string(rune('0'+i%10))+string(rune('0'+i/10))+"'")
	}
	q, err := Parse("SELECT * FROM c WHERE c.a IN (" + join(a) + ") AND c.b IN (" + join(b) + ")")
	if err != nil {
		t.Fatal(err)
	}
	if r := Route(q, h2); r.Kind != Targeted || r.Values != 0 {
		t.Errorf("10000 combinations: %+v", r)
	}
	// Repeating such a conjunction stays quick.
	text := "SELECT * FROM c WHERE c.a IN (" + join(a) + ") AND c.b IN (" + join(b) + ")" +
		strings.Repeat(" AND c.a IN ("+join(a)+")", 200)
	q, err = Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if r := Route(q, h2); r.Kind != Targeted || r.Values != 0 {
		t.Errorf("repeated combinations: %+v", r)
	}
	// A bound for a blow-up of the combinations (minutes), not for speed.
	if d := time.Since(start); d > 2*time.Minute {
		t.Errorf("Route took %v", d)
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}
