package key

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/jsontree"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in    string
		kind  Kind
		paths []string
		out   string
	}{
		{"/tenantId", Hash, []string{"/tenantId"}, "/tenantId"},
		{" /a/b ", Hash, []string{"/a/b"}, "/a/b"},
		{`/"order date"`, Hash, []string{`/"order date"`}, `/"order date"`},
		{"/tenantId,/userId,/id", MultiHash, []string{"/tenantId", "/userId", "/id"}, "/tenantId,/userId,/id"},
		{"/tenantId, /id", MultiHash, []string{"/tenantId", "/id"}, "/tenantId,/id"},
		{`/"a,b",/c`, MultiHash, []string{`/"a,b"`, "/c"}, `/"a,b",/c`},
		{"/deviceId+/ts:day", Synthetic, []string{"/deviceId", "/ts"}, "/deviceId+/ts:day"},
		{"/a+/b+/c", Synthetic, []string{"/a", "/b", "/c"}, "/a+/b+/c"},
		{"/orderDate:month", Synthetic, []string{"/orderDate"}, "/orderDate:month"},
		{"/date+hash(/vin)%20", Synthetic, []string{"/date", "/vin"}, "/date+hash(/vin)%20"},
		{`/"a:b"`, Hash, []string{`/"a:b"`}, `/"a:b"`},
		{`/"a:b":hour`, Synthetic, []string{`/"a:b"`}, `/"a:b":hour`},
		{`/"a+b"`, Hash, []string{`/"a+b"`}, `/"a+b"`},
		// The time of the write, bucketed, is the one use of a system
		// property; a property of that name deeper down is the user's own.
		{"/tenantId+/_ts:day", Synthetic, []string{"/tenantId", "/_ts"}, "/tenantId+/_ts:day"},
		{"/meta/_ts", Hash, []string{"/meta/_ts"}, "/meta/_ts"},
	}
	for _, tt := range tests {
		s, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if s.Kind != tt.kind || !reflect.DeepEqual(s.PathStrings(), tt.paths) || s.String() != tt.out {
			t.Errorf("Parse(%q) = %s %q %q; want %s %q %q", tt.in, s.Kind, s.PathStrings(), s.String(), tt.kind, tt.paths, tt.out)
		}
		for i, term := range s.Terms { // ExtractFrom takes a synthetic key's values in Paths' order
			if !reflect.DeepEqual(term.Path, s.Paths[i]) {
				t.Errorf("Parse(%q): term %d reads %q, Paths holds %q", tt.in, i, term.Path, s.Paths[i])
			}
		}
		if again, err := Parse(s.String()); err != nil || !reflect.DeepEqual(again, s) {
			t.Errorf("round trip of %q: %+v %v", tt.in, again, err)
		}
	}
	for _, bad := range []struct{ in, msg string }{
		{"", "empty key"},
		{"tenantId", "must start with '/'"},
		{"/a,/b,/c,/d", "at most 3"},
		{"/a,tenant", "level 2 of key"},
		{"/a+/b+/c+/d", "at most 3"},
		{"/ts:week", `unknown time unit "week"`},
		{"/a+hash(/id)%1", "from 2 to 1000"},
		{"/a+hash(/id)", "hash(/path)%N"},
		{"/tags/[]", "steps into an array"},
		{"/tags/[0]/id", "steps into an array"},
		// System properties: the service writes them as it stores an item.
		{"/_ts", "/_ts is a system property (last-modified time in epoch seconds, set by Cosmos DB): the service writes it as it stores the item, so it cannot place the item; name a property the application writes, or for the time of the write a time bucket of it (/tenantId+/_ts:day)"},
		{"/_rid", "/_rid is a system property (resource id, set by Cosmos DB)"},
		{"/_etag", "/_etag is a system property (entity tag"},
		{"/_self", "/_self is a system property"},
		{"/_attachments", "/_attachments is a system property"},
		{"/_lsn", "/_lsn is a system property"},
		{"/tenantId,/_etag", "level 2 of key \"/tenantId,/_etag\": /_etag is a system property"},
		{"/tenantId+/_ts", "term 2 (\"/_ts\") of synthetic key \"/tenantId+/_ts\": /_ts is a system property"},
		{"/tenantId+hash(/_rid)%4", "/_rid is a system property"},
		{"/tenantId+/_etag:day", "/_etag is a system property"},
	} {
		if _, err := Parse(bad.in); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("Parse(%q): %v, want %q", bad.in, err, bad.msg)
		}
	}
}

func doc(t *testing.T, s string) *jsontree.Value {
	t.Helper()
	d, err := ingest.NewReader(strings.NewReader(s)).Next()
	if err != nil {
		t.Fatal(err)
	}
	return &d.Root
}

func TestExtract(t *testing.T) {
	d := doc(t, `{"id":"o1","tenant":"contoso","n":42,"ok":true,"nil":null,"addr":{"city":"Oslo"},"tags":["a"],
		"at":"2025-03-04T10:11:12Z","ts":1741083072,"ms":1741083072000,"vin":"WVW123"}`)
	tests := []struct {
		spec   string
		want   []epk.Value
		status Status
	}{
		{"/tenant", []epk.Value{epk.Str("contoso")}, OK},
		{"/n", []epk.Value{epk.Num(42)}, OK},
		{"/ok", []epk.Value{epk.Bool(true)}, OK},
		{"/nil", []epk.Value{epk.NullValue}, OK},
		{"/addr/city", []epk.Value{epk.Str("Oslo")}, OK},
		{"/missing", []epk.Value{epk.UndefinedValue}, Missing},
		{"/addr/city/deeper", []epk.Value{epk.UndefinedValue}, Missing},
		{"/addr", []epk.Value{epk.UndefinedValue}, Invalid},
		{"/tags", []epk.Value{epk.UndefinedValue}, Invalid},
		{"/tenant,/addr/city,/id", []epk.Value{epk.Str("contoso"), epk.Str("Oslo"), epk.Str("o1")}, OK},
		{"/tenant,/missing", []epk.Value{epk.Str("contoso"), epk.UndefinedValue}, Missing},
		{"/tenant+/n", []epk.Value{epk.Str("contoso-42")}, OK},
		{"/tenant+/at:day", []epk.Value{epk.Str("contoso-2025-03-04")}, OK},
		{"/tenant+/at:hour", []epk.Value{epk.Str("contoso-2025-03-04T10")}, OK},
		{"/tenant+/ts:month", []epk.Value{epk.Str("contoso-2025-03")}, OK},
		{"/ms:day", []epk.Value{epk.Str("2025-03-04")}, OK},
		// FNV-1a 32 of "WVW123" is 0x2e82230b = 780280587; mod 20 = 7.
		{"/at:day+hash(/vin)%20", []epk.Value{epk.Str("2025-03-04-7")}, OK},
		{"/tenant+/missing", []epk.Value{epk.UndefinedValue}, Missing},
		// A time bucket of what is no time is no key value either, but
		// the path is there: NotTime, not Missing.
		{"/tenant+/tenant:day", []epk.Value{epk.UndefinedValue}, NotTime},
		{"/tenant+/missing:day", []epk.Value{epk.UndefinedValue}, Missing},
	}
	for _, tt := range tests {
		s, err := Parse(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		got, st := s.Extract(d, nil)
		if !reflect.DeepEqual(got, tt.want) || st != tt.status {
			t.Errorf("%s: %+v %d, want %+v %d", tt.spec, got, st, tt.want, tt.status)
		}
		// NotTimeValue finds the value that is not a time, and only then.
		if v := s.NotTimeValue(lookups(d, s)); (v != nil) != (st == NotTime) || v != nil && v.JSON() != `"contoso"` {
			t.Errorf("%s: NotTimeValue %v with status %d", tt.spec, v, st)
		}
	}
}

// lookups is the values at the key's paths in doc, as for ExtractFrom.
func lookups(doc *jsontree.Value, s Spec) []*jsontree.Value {
	var vals []*jsontree.Value
	for _, p := range s.Paths {
		vals = append(vals, Lookup(doc, p))
	}
	return vals
}

func TestTime(t *testing.T) {
	want := "2025-03-04T10:11:12Z"
	for _, in := range []string{`"2025-03-04T10:11:12Z"`, `"2025-03-04T11:11:12+01:00"`, `"2025-03-04T10:11:12"`, `"2025-03-04 10:11:12"`, `1741083072`, `1741083072000`, `1741083072000000`, `1741083072.25`} {
		v := doc(t, `{"t":`+in+`}`)
		at, ok := Time(Lookup(v, []string{"t"}))
		if !ok || at.Format("2006-01-02T15:04:05Z07:00") != want {
			t.Errorf("%s: %v %v", in, at, ok)
		}
	}
	for _, in := range []string{`"soon"`, `"2025"`, `true`, `null`, `{}`} {
		if _, ok := Time(Lookup(doc(t, `{"t":`+in+`}`), []string{"t"})); ok {
			t.Errorf("%s read as a time", in)
		}
	}
}

// TestSuffixIsFNV1a: the suffix is FNV-1a of the value's text modulo n,
// as the snippets pkcalc writes for applications compute it.
func TestSuffixIsFNV1a(t *testing.T) {
	for i, text := range []string{"", "a", "contoso", "customer-000042", "12.5", "true", "ünïcode", strings.Repeat("x", 300)} {
		n := 2 + i*7
		h := fnv.New32a()
		h.Write([]byte(text))
		if got, want := Suffix(text, n), int(h.Sum32()%uint32(n)); got != want {
			t.Errorf("Suffix(%q, %d) = %d, want %d", text, n, got, want)
		}
	}
}

// TestAppendBucket: buckets written out read as time's own layouts do, in
// the time's own zone, for years of any width.
func TestAppendBucket(t *testing.T) {
	east := time.FixedZone("east", 5*3600+30*60)
	layouts := map[Bucket]string{Hour: "2006-01-02T15", Day: "2006-01-02", Month: "2006-01"}
	for _, year := range []int{-1, 0, 7, 999, 1000, 2025, 9999, 10000} {
		for _, at := range []time.Time{time.Date(year, 3, 4, 10, 5, 0, 0, time.UTC), time.Date(year, 12, 31, 23, 59, 0, 0, east)} {
			for b, layout := range layouts {
				if got, want := string(appendBucket([]byte("x-"), at, b)), "x-"+at.Format(layout); got != want {
					t.Errorf("appendBucket(%v, %s) = %q, want %q", at, b, got, want)
				}
			}
		}
	}
}

// TestParseUTC: what the fast path reads, time.Parse reads as the same
// instant; the rest (time.Parse's other forms, values out of range) it
// leaves to time.Parse.
func TestParseUTC(t *testing.T) {
	texts := []string{
		"2025-01-02T15:04:05Z", "2025-01-02T15:04:05.1Z", "2025-01-02T15:04:05.123456789Z", "2025-01-02T15:04:05.1234567891Z",
		"2025-01-02T15:04:05.Z", "2025-01-02T15:04:05,5Z", "2024-02-29T00:00:00Z", "2025-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "2025-04-31T00:00:00Z",
		"2025-12-31T23:59:59Z", "2025-12-31T24:00:00Z", "2025-12-31T23:60:00Z", "2025-12-31T23:59:60Z", "2025-00-10T00:00:00Z",
		"2025-13-10T00:00:00Z", "2025-01-00T00:00:00Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
		"2025-01-02t15:04:05Z", "2025-01-02T15:04:05z", "2025-01-02 15:04:05Z", "2025-01-02T15:04:05+00:00", "2025-1-02T15:04:05Z",
		"2025-01-02T15:04:0aZ", "+025-01-02T15:04:05Z", "2025-01-02T15:04Z", "2025-01-02T15:04:05.12345Z", "2025-01-02T-5:04:05Z",
	}
	for _, s := range texts {
		want, err := time.Parse(time.RFC3339Nano, s)
		got, ok := parseUTC(s)
		if ok && (err != nil || !got.Equal(want) || got.Location() != time.UTC) {
			t.Errorf("parseUTC(%q) = %v; time.Parse gives %v, %v", s, got, want, err)
		}
	}
	// The forms it is for.
	for _, s := range []string{"2025-01-02T15:04:05Z", "2025-01-02T15:04:05.1Z", "2025-01-02T15:04:05.123456789Z", "2024-02-29T00:00:00Z", "2000-02-29T00:00:00Z"} {
		if _, ok := parseUTC(s); !ok {
			t.Errorf("parseUTC(%q) left it to time.Parse", s)
		}
	}
}

func TestBucketStart(t *testing.T) {
	at := time.Date(2024, time.February, 29, 23, 59, 59, 999, time.UTC)
	for _, c := range []struct {
		b    Bucket
		want time.Time
	}{
		{Hour, time.Date(2024, time.February, 29, 23, 0, 0, 0, time.UTC)},
		{Day, time.Date(2024, time.February, 29, 0, 0, 0, 0, time.UTC)},
		{Month, time.Date(2024, time.February, 1, 0, 0, 0, 0, time.UTC)},
	} {
		if got := c.b.Start(at); !got.Equal(c.want) {
			t.Errorf("%s.Start(%v) = %v, want %v", c.b, at, got, c.want)
		}
	}
}

// TestBucketText: a bucket taken from the text of a time is the one
// written from the parsed time, and only text parseUTC reads is taken so.
func TestBucketText(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	texts := []string{"2024-02-29T23:59:59Z", "2023-02-29T00:00:00Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
		"2025-01-02T15:04:05.5Z", "2025-01-02T15:04:05.Z", "2025-01-02 15:04:05Z", "2025-01-02T15:04:05+01:00", "2025-13-02T15:04:05Z",
		"2025-01-02T24:00:00Z", "2025-01-32T10:00:00Z", "2025/01/02T15:04:05Z", "2025x01-02T15:04:05Z", "20250102T150405Z", "2025-01-02T15:04:60Z",
		"20x5-01-02T15:04:05Z", "x025-01-02T15:04:05Z", "2025-0a-02T15:04:05Z", "2025-01-02T1 :04:05Z", "2025-01-02T15:04:05.1x3Z"}
	for range 2000 {
		at := time.Unix(rng.Int64N(400_000_000_000)-62_000_000_000, rng.Int64N(1e9)*int64(rng.IntN(2))).UTC()
		texts = append(texts, at.Format(time.RFC3339Nano))
	}
	for _, s := range texts {
		at, parsed := parseTime(s)
		_, quick := parseUTC(s)
		for _, b := range []Bucket{Hour, Day, Month} {
			got, ok := bucketText(s, b)
			if ok != quick {
				t.Fatalf("bucketText(%q, %s): ok %v, parseUTC %v", s, b, ok, quick)
			}
			if want := string(appendBucket(nil, at, b)); ok && (!parsed || got != want) {
				t.Errorf("bucketText(%q, %s) = %q, want %q (parsed: %v)", s, b, got, want, parsed)
			}
		}
	}
}

// TestSeconds: a time counted from its fields is the seconds package time
// gives, on every day from year 0 to 9999 and at random instants.
func TestSeconds(t *testing.T) {
	for day := time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC); day.Year() < 10000; day = day.AddDate(0, 0, 1) {
		y, m, d := day.Date()
		if got, want := civilDays(y, int(m), d), day.Unix()/86400-boolInt(day.Unix()%86400 < 0); got != want {
			t.Fatalf("civilDays(%d, %d, %d) = %d, want %d", y, m, d, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(9, 10))
	first, last := time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Unix(), time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC).Unix()
	for range 20_000 {
		at := time.Unix(first+rng.Int64N(last-first+1), rng.Int64N(1e9)*int64(rng.IntN(2))).UTC()
		v := &jsontree.Value{Kind: jsontree.String, Str: at.Format(time.RFC3339Nano)}
		got, ok := Seconds(v)
		if want := float64(at.UnixNano()) / 1e9; !ok || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("Seconds(%s) = %v, %v; want %v", v.Str, got, ok, want)
		}
	}
	for _, v := range []*jsontree.Value{nil, {Kind: jsontree.Number, Num: 1735711587}, {Kind: jsontree.String, Str: "2025-01-01T06:06:27+02:00"}, {Kind: jsontree.String, Str: "not a time"}} {
		at, ok := Time(v)
		got, gotOK := Seconds(v)
		if ok != gotOK || ok && got != float64(at.UnixNano())/1e9 {
			t.Errorf("Seconds(%v) = %v, %v; Time gives %v, %v", v, got, gotOK, at, ok)
		}
	}
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
