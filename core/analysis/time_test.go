package analysis

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/advisor"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/paths"
	"github.com/pkcalc/pkcalc/internal/shared"
)

// TestTimeRank: names that say a field holds a time, and names that only
// look as if they might.
func TestTimeRank(t *testing.T) {
	for _, name := range []string{"ts", "_ts", "timestamp", "Timestamp", "TS", "time", "eventTime", "event_time", "createdAt",
		"created_at", "CreatedAT", "createdOn", "modified_on", "updatedAt", "updated", "lastModified", "date", "orderDate",
		"order-date", "dateTime", "datetime", "ts_ms", "timestamp_ms", "timeMs", "time_utc", "epoch", "epoch_seconds", "unixTime",
		"URLTime", "date_created", "expiresAt"} {
		if timeRank([]string{name}) < 0 {
			t.Errorf("%s does not say time", name)
		}
	}
	for _, name := range []string{"id", "userId", "user_id", "movie_id", "millis", "ms", "uptime", "runtime", "lifetime",
		"update", "candidate", "format", "counts", "posts", "at", "on", "status", "price", "zip", "phone", "version", "timeZone",
		"times", "dates", "ttl"} {
		if r := timeRank([]string{name}); r >= 0 {
			t.Errorf("%s says time (rank %d)", name, r)
		}
	}
	// A document's own time before its last change, and the system
	// property after both.
	if !(timeRank([]string{"createdAt"}) < timeRank([]string{"updatedAt"}) && timeRank([]string{"updatedAt"}) < timeRank([]string{"_ts"})) {
		t.Errorf("createdAt %d, updatedAt %d, _ts %d", timeRank([]string{"createdAt"}), timeRank([]string{"updatedAt"}), timeRank([]string{"_ts"}))
	}
	if timeRank([]string{"meta", "_ts"}) != timeRank([]string{"ts"}) {
		t.Errorf("a nested _ts is not the system property")
	}
}

// TestDetectTime: the time field of documents as applications write them,
// found by its values and name, whatever the order of the documents and
// of their properties.
func TestDetectTime(t *testing.T) {
	tests := []struct {
		name string
		doc  func(i int) string
		want string
	}{
		{"tweet", func(i int) string {
			return fmt.Sprintf(`{"created_at":"Wed Aug 27 13:%02d:45 +0000 2008","id":%d,"id_str":"%d","text":"hi","user":{"id":%d,"created_at":"Tue Mar 21 20:50:14 +0000 2006"}}`,
				i%60, 1234567890+i, 1234567890+i, 1600000000+i)
		}, "/created_at"},
		{"profiler log", func(i int) string {
			return fmt.Sprintf(`{"op":"query","ns":"shop.orders","millis":%d,"ts":"2024-05-01T10:%02d:00.123Z","user":"app"}`, 1500000000+i, i%60)
		}, "/ts"},
		{"numeric user id", func(i int) string {
			return fmt.Sprintf(`{"userId":%d,"movie_id":%d,"rating":4}`, 1600000000+i, 1262304000+i)
		}, ""},
		{"epoch seconds named", func(i int) string {
			return fmt.Sprintf(`{"device_id":"d%d","ts":%d,"reading":{"seq":%d}}`, i%3, 1594598735+i, 1594598735+i)
		}, "/ts"},
		{"epoch milliseconds with a unit", func(i int) string {
			return fmt.Sprintf(`{"sessionId":"s%d","event_ts_ms":%d}`, i, 1594598735000+int64(i)*1000)
		}, "/event_ts_ms"},
		{"a name says more than _ts", func(i int) string {
			return fmt.Sprintf(`{"_ts":%d,"orderDate":"2024-05-%02d","id":"o%d"}`, 1700000000+i, 1+i%28, i)
		}, "/orderDate"},
		{"_ts before a date a name does not announce", func(i int) string {
			return fmt.Sprintf(`{"_ts":%d,"shipped":"2024/05/%02d 10:00","id":"o%d"}`, 1700000000+i, 1+i%28, i)
		}, "/_ts"},
		{"created before updated", func(i int) string {
			return fmt.Sprintf(`{"updatedAt":"2024-06-01T00:00:00Z","createdAt":"2024-05-01T00:%02d:00Z"}`, i%60)
		}, "/createdAt"},
		{"the shallower of two equal names", func(i int) string {
			return fmt.Sprintf(`{"meta":{"timestamp":"2024-05-01T00:00:00Z"},"timestamp":"Wed, 01 May 2024 00:%02d:00 GMT"}`, i%60)
		}, "/timestamp"},
		{"a date whatever the name", func(i int) string {
			return fmt.Sprintf(`{"id":%d,"when":"June %d, 2024"}`, i, 1+i%28)
		}, "/when"},
		{"versions, zip codes, phone numbers", func(i int) string {
			return fmt.Sprintf(`{"version":"1.2.%d","zip":"0100%d","phone":"555-123-%04d","year":"2001","date":"soon"}`, i, i%10, i)
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var docs []string
			for i := range 50 {
				docs = append(docs, tt.doc(i))
			}
			if got := detectIn(t, docs); got != tt.want {
				t.Errorf("time field %q, want %q", got, tt.want)
			}
			// Documents in the other order, properties in the other order.
			slices.Reverse(docs)
			for i, d := range docs {
				docs[i] = reverseMembers(t, d)
			}
			if got := detectIn(t, docs); got != tt.want {
				t.Errorf("reversed: time field %q, want %q", got, tt.want)
			}
		})
	}
}

// detectIn returns the time field detectTime finds in docs, as a path.
func detectIn(t *testing.T, docs []string) string {
	t.Helper()
	r := ingest.NewReader(strings.NewReader(strings.Join(docs, "\n")))
	c := paths.New(paths.Options{})
	var window []*ingest.Document
	for {
		d, err := r.Next()
		if err != nil {
			break
		}
		c.Add(&d.Root, d.Bytes)
		window = append(window, d)
	}
	if len(window) != len(docs) {
		t.Fatalf("read %d of %d documents", len(window), len(docs))
	}
	if p := detectTime(c.Paths(), window, nil); p != nil {
		return paths.Format(p)
	}
	return ""
}

// reverseMembers writes a JSON object with its properties, at every level,
// in the reverse order.
func reverseMembers(t *testing.T, doc string) string {
	t.Helper()
	d, err := ingest.NewReader(strings.NewReader(doc)).Next()
	if err != nil {
		t.Fatal(err)
	}
	var write func(v *jsontree.Value) string
	write = func(v *jsontree.Value) string {
		if v.Kind != jsontree.Object {
			return ingestText(v)
		}
		var parts []string
		for i := len(v.Members) - 1; i >= 0; i-- {
			m := &v.Members[i]
			parts = append(parts, fmt.Sprintf("%q:%s", m.Key, write(&m.Value)))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	return write(&d.Root)
}

func ingestText(v *jsontree.Value) string {
	switch v.Kind {
	case jsontree.String:
		return fmt.Sprintf("%q", v.Str)
	case jsontree.Number:
		return fmt.Sprint(v.Num)
	}
	return "null"
}

// TestDetectTimeOnDatasets: the real datasets' time fields: the IoT
// readings' epoch seconds at /ts; none in the product catalogs, whose
// numbers (prices) are no times and whose text holds no dates.
func TestDetectTimeOnDatasets(t *testing.T) {
	for file, want := range map[string]string{
		"iot-env-sensor-telemetry.json": "/ts",
		"cosmicworks-v4-product.json":   "",
		"dp420-tenant-products.json":    "",
	} {
		f, err := os.Open(shared.File(t, "datasets", file))
		if err != nil {
			t.Fatal(err)
		}
		r, err := Analyze(f, Options{})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if r.TimeField != want {
			t.Errorf("%s: time field %q, want %q", file, r.TimeField, want)
		}
	}
}

// TestTimeFieldTheWorkloadOrdersBy: of two time fields, the one the
// workload's queries sort by or bound wins; without a workload, the name
// and the text decide. A review's taxi trips took /dropoff, first in
// text, though every range and ORDER BY was on /pickup.
func TestTimeFieldTheWorkloadOrdersBy(t *testing.T) {
	trips := schemaLines(500, func(i int) string {
		return fmt.Sprintf(`{"id":"t%d","zone":"z%d","pickup":"2019-03-01T%02d:%02d:00Z","dropoff":"2019-03-01T%02d:%02d:30Z"}`, i, i%20, i%24, i%60, i%24, i%60)
	})
	for _, tt := range []struct{ ops, want string }{
		{"", "/dropoff"},
		{"100 SELECT TOP 10 * FROM c WHERE c.zone = @z ORDER BY c.pickup DESC\n", "/pickup"},
		{"100 SELECT * FROM c WHERE c.zone = @z AND c.pickup >= @from\n", "/pickup"},
		// Both ordered by: the busier query's.
		{"10 SELECT * FROM c WHERE c.dropoff >= @t\n100 SELECT * FROM c WHERE c.zone = @z AND c.pickup >= @from\n", "/pickup"},
	} {
		r, err := Analyze(strings.NewReader(trips), Options{Workload: advisor.Workload{Operations: tt.ops}})
		if err != nil {
			t.Fatal(err)
		}
		if r.TimeField != tt.want {
			t.Errorf("%q: time field %q, want %q", tt.ops, r.TimeField, tt.want)
		}
	}
}
