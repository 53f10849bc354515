package key

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pkcalc/pkcalc/core/jsontree"
)

// TestTimeText: times as exports write them, each read as the instant it
// names, and text that only looks like one (versions, zip codes, phone
// numbers, a year alone) read as none.
func TestTimeText(t *testing.T) {
	tests := []struct{ in, want string }{
		// ISO 8601 and RFC 3339, as JSON serializers and MongoDB's
		// Extended JSON ({"$date": ...}, which ingest reads as its text) write them.
		{"2025-03-04T10:11:12Z", "2025-03-04T10:11:12Z"},
		{"2025-03-04T10:11:12.345Z", "2025-03-04T10:11:12.345Z"},
		{"2025-03-04T10:11:12.1234567Z", "2025-03-04T10:11:12.1234567Z"}, // .NET's DateTime "o"
		{"2025-03-04T11:11:12+01:00", "2025-03-04T10:11:12Z"},
		{"2025-03-04T11:11:12+0100", "2025-03-04T10:11:12Z"}, // Java's SimpleDateFormat Z, strftime %z
		{"2025-03-04T11:11:12.5+0100", "2025-03-04T10:11:12.5Z"},
		{"2025-03-04T11:11:12+01", "2025-03-04T10:11:12Z"},
		{"2025-03-04T05:41:12-04:30", "2025-03-04T10:11:12Z"},
		{"2025-03-04T10:11:12", "2025-03-04T10:11:12Z"},
		{"2025-03-04T10:11", "2025-03-04T10:11:00Z"},
		{"2025-03-04 10:11:12", "2025-03-04T10:11:12Z"}, // SQL, Python's str(datetime)
		{"2025-03-04 10:11:12.345678+00:00", "2025-03-04T10:11:12.345678Z"},
		{"2025-03-04 10:11", "2025-03-04T10:11:00Z"},
		{"2025-03-04 10:11:12,5", "2025-03-04T10:11:12.5Z"}, // Python's logging asctime
		{"2025-03-04", "2025-03-04T00:00:00Z"},
		// Slashes.
		{"2001/01/14 21:55", "2001-01-14T21:55:00Z"},
		{"2001/01/14 21:55:07", "2001-01-14T21:55:07Z"},
		{"2001/01/14", "2001-01-14T00:00:00Z"},
		// RFC 1123 (HTTP's Date, RSS's pubDate) and RFC 5322 (mail).
		{"Sun, 06 Nov 1994 08:49:37 GMT", "1994-11-06T08:49:37Z"},
		{"Mon, 02 Jan 2006 15:04:05 -0700", "2006-01-02T22:04:05Z"},
		{"Mon, 2 Jan 2006 15:04:05 +0000", "2006-01-02T15:04:05Z"},
		{"Tue, 04 Mar 2025 10:11:12 UTC", "2025-03-04T10:11:12Z"},
		{"Tuesday, 04 March 2025 10:11 UT", "2025-03-04T10:11:00Z"},
		{"2 Jan 2006 15:04:05 +0000", "2006-01-02T15:04:05Z"},
		{"12 June 1998", "1998-06-12T00:00:00Z"},
		// A month's name first.
		{"Jun 12 1998", "1998-06-12T00:00:00Z"},
		{"June 12, 1998", "1998-06-12T00:00:00Z"},
		{"Sep 1, 2025", "2025-09-01T00:00:00Z"},
		// Twitter API v1.1's created_at, C's asctime.
		{"Wed Aug 27 13:08:45 +0000 2008", "2008-08-27T13:08:45Z"},
		{"Thu Apr 06 15:24:15 -0700 2017", "2017-04-06T22:24:15Z"},
		{"Mon Jan  2 15:04:05 2006", "2006-01-02T15:04:05Z"},

		// Not times.
		{"1.2.3", ""},
		{"10.0.19045.2965", ""},
		{"01001", ""},
		{"01001-1234", ""},
		{"2001", ""},
		{"1741083072", ""}, // epoch seconds are numbers, not text
		{"+1 (555) 123-4567", ""},
		{"555-123-4567", ""},
		{"+44 20 7946 0958", ""},
		{"2025-03", ""},
		{"June 2025", ""},
		{"soon", ""},
		{"customer-000042", ""},
		{"2025-13-01", ""},
		{"2023-02-29", ""},
		{"Jun 31 1998", ""},
		{"2025-03-04T24:00:00Z", ""},
		{"2025-03-04T10:11:60Z", ""},
		{"2025-03-04T10:11:12+25:00", ""},
		{"2025-03-04t10:11:12z", ""},
		{"2025-03-04T10", ""},
		{"2025-03-04Z", ""},
		{"2025/03-04", ""},
		{"03/04/2025", ""}, // month or day first: the text does not say
		{"04.03.2025", ""},
		{"Mon, 02 Jan 2006 15:04:05 PST", ""}, // a zone's name other than GMT gives no offset
		{"Mon Jan 02 2006", ""},
		{"june 12, 1998", ""},
		{"Jun 12 98", ""},
		{" 2025-03-04", ""},
		{"2025-03-04 ", ""},
		{"2025-03-04T10:11:12.123456789123456789123Z", ""}, // over 40 characters
	}
	for _, tt := range tests {
		v := &jsontree.Value{Kind: jsontree.String, Str: tt.in}
		at, ok := Time(v)
		if got := formatOK(at, ok); got != tt.want {
			t.Errorf("Time(%q) = %q, want %q", tt.in, got, tt.want)
		}
		sec, ok := Seconds(v)
		if want := float64(at.UnixNano()) / 1e9; ok != (tt.want != "") || ok && sec != want {
			t.Errorf("Seconds(%q) = %v, %v; want %v", tt.in, sec, ok, want)
		}
	}
}

func formatOK(at time.Time, ok bool) string {
	if !ok {
		return ""
	}
	if at.Location() != time.UTC {
		return "not in UTC: " + at.String()
	}
	return at.Format(time.RFC3339Nano)
}

// timeCorpus is text near the edges of what Time reads: each test's
// examples, and random times written in each form and then changed by a
// character or two.
func timeCorpus() []string {
	texts := []string{
		"2025-01-02T15:04:05Z", "2025-01-02T15:04:05.1Z", "2025-01-02T15:04:05.123456789Z", "2025-01-02T15:04:05.1234567891Z",
		"2025-01-02T15:04:05.Z", "2025-01-02T15:04:05,5Z", "2024-02-29T00:00:00Z", "2025-02-29T00:00:00Z", "1900-02-29T00:00:00Z",
		"2025-12-31T24:00:00Z", "2025-12-31T23:60:00Z", "2025-12-31T23:59:60Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
		"2025-01-02t15:04:05Z", "2025-01-02 15:04:05Z", "2025-01-02T15:04:05+00:00", "2025-1-02T15:04:05Z", "+025-01-02T15:04:05Z",
		"2025-01-02T15:04Z", "2025-01-02T-5:04:05Z", "2024-03-10T23:30:00+0200", "2024-03-10T23:30+05:30", "2024-03-10 23:30",
		"2024-03-10 23:30:00,1+01:00", "2024-03-10T9:30:00Z", "2024-03-10 9:30:00", "2024-03-10T09:30:00+24:60", "2024-03-10T09:30:00+24:61",
		"2024-03-10T09:30:00+05:60", "2024-03-10T23:30:00+02", "2024-3-10", "2024-03-10   01:02:03.5+01:00", "2024-03-10T001:02:03Z",
		"2024-03-10T01:02:03 ", "2024-03-10T01:02:03Z\n", "0000-01-01T00:00:00+00:01", "9999-12-31T23:30:00-01:00", "２０２４-03-10",
		"2024-03-10T23:59:59.999999999999+00:00", "2001/01/14 21:55", "2001/01/14T21:55:07.5Z", "2001/1/14", "Sun, 06 Nov 1994 08:49:37 GMT",
		"Sun, 6 Nov 1994 08:49:37 GMT", "Sun,  06  Nov  1994  08:49:37  GMT", "Sun 06 Nov 1994 08:49:37 GMT", "06 Nov 1994 08:49 +01:00",
		"06 Nov 1994 08:49:37 Z", "06 Nov 1994 08:49:37 UTCX", "6 November 1994", "00 Nov 1994", "Nov 6 1994", "Nov 06, 1994", "Nov 6 ,1994",
		"November 6,1994", "Wed Aug 27 13:08:45 +0000 2008", "Wed Aug 27 13:08:45 2008", "Wed Aug 27 13:08:45 GMT 2008", "Wed Aug 27 13:08:45 +00 2008",
		"Wed Aug 27 13:08:45 +2008", "Wed Aug 27 13:08 +0000 2008", "Wednesday August 27 13:08:45 +0000 2008", "Wed Aug 27 13:08:45.5 -0130 2008",
		"Thurs, 06 Nov 1994", "Junee 12 1998", "Mayday 1 2020", "May 1 2020", "Sunday, 06 Nov 1994 08:49:37 GMT",
	}
	rng := rand.New(rand.NewPCG(3, 4))
	layouts := []string{
		time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04Z0700", "2006-01-02T15:04-07",
		"2006/01/02 15:04", "2006/01/02", "2006-01-02", time.RFC1123, time.RFC1123Z, "2 Jan 2006", "Jan 2 2006", "January 2, 2006", time.RubyDate,
		time.ANSIC, "Monday, 02 January 2006 15:04:05 -07:00",
	}
	const noise = "0123456789 -/:.,+TZzGMUCJanuryFebMoWdSpt"
	for range 3000 {
		at := time.Unix(rng.Int64N(300_000_000_000)-62_000_000_000, rng.Int64N(1e9)*int64(rng.IntN(2))).In(time.FixedZone("", (rng.IntN(97)-48)*900))
		s := at.Format(layouts[rng.IntN(len(layouts))])
		texts = append(texts, s)
		b := []byte(s)
		for range 1 + rng.IntN(2) {
			switch i := rng.IntN(len(b)); rng.IntN(3) {
			case 0:
				b[i] = noise[rng.IntN(len(noise))]
			case 1:
				b = append(b[:i], b[i+1:]...)
			default:
				b = append(b[:i], append([]byte{noise[rng.IntN(len(noise))]}, b[i:]...)...)
			}
		}
		texts = append(texts, string(b))
	}
	return texts
}

// readBefore is how Time read text before it read more than ISO 8601: the
// layouts it tried with time.Parse.
func readBefore(s string) (time.Time, bool) {
	if len(s) < 10 || len(s) > 40 || s[4] != '-' {
		return time.Time{}, false
	}
	for _, l := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00",
		"2006-01-02 15:04:05.999999999", "2006-01-02T15:04Z07:00", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// TestTimeReadsWhatItRead: what Time read with time.Parse's layouts it
// still reads, as the same instant.
func TestTimeReadsWhatItRead(t *testing.T) {
	before := 0
	for _, s := range timeCorpus() {
		want, ok := readBefore(s)
		if !ok {
			continue
		}
		before++
		if got, ok := parseTime(s); !ok || !got.Equal(want) {
			t.Errorf("parseTime(%q) = %v, %v; time.Parse read %v", s, got, ok, want)
		}
	}
	if before < 500 {
		t.Fatalf("only %d texts of the corpus were times before", before)
	}
}

// TestTimeForms: TimeForms' patterns, as another language's regular
// expressions read them, match what readClock reads and give its fields.
func TestTimeForms(t *testing.T) {
	forms := compileForms(t)
	for _, f := range TimeForms {
		if strings.Contains(f.Pattern, `\`) {
			t.Errorf("%s: the pattern has a backslash", f.Name)
		}
		if want := regexp.MustCompile(f.Pattern).NumSubexp(); len(f.Groups) != want {
			t.Errorf("%s: %d groups named, the pattern has %d", f.Name, len(f.Groups), want)
		}
		if _, ok := formsClock(forms, f.Example); !ok {
			t.Errorf("%s: the example %q does not match", f.Name, f.Example)
		}
	}
	read := 0
	for _, s := range append(timeCorpus(), "1.2.3", "01001", "2001", "555-123-4567") {
		if checkForms(t, forms, s) {
			read++
		}
	}
	if read < 2000 {
		t.Errorf("only %d texts of the corpus are times", read)
	}
}

func FuzzTimeForms(f *testing.F) {
	for _, s := range timeCorpus()[:200] {
		f.Add(s)
	}
	forms := compileForms(f)
	f.Fuzz(func(t *testing.T, s string) { checkForms(t, forms, s) })
}

func compileForms(tb testing.TB) []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, f := range TimeForms {
		re, err := regexp.Compile("^(?:" + f.Pattern + ")$")
		if err != nil {
			tb.Fatalf("%s: %v", f.Name, err)
		}
		out = append(out, re)
	}
	return out
}

// checkForms checks that readClock and the patterns agree on s, and
// reports whether s is a time.
func checkForms(t *testing.T, forms []*regexp.Regexp, s string) bool {
	t.Helper()
	var c clock
	ok := readClock(s, &c)
	want, match := formsClock(forms, s)
	if ok != match {
		t.Fatalf("%q: readClock %v, the patterns %v", s, ok, match)
	}
	c.sec, c.nsec = 0, 0 // not captured
	if ok && c != want {
		t.Fatalf("%q: readClock %+v, the patterns %+v", s, c, want)
	}
	return ok
}

// formsClock reads s with the patterns as a program in another language
// would: the first that matches, then its groups, then the day's range.
func formsClock(forms []*regexp.Regexp, s string) (clock, bool) {
	if len(s) < 10 || len(s) > 40 {
		return clock{}, false
	}
	for i, re := range forms {
		m := re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		var c clock
		sign, zh, zn := "", 0, 0
		for j, role := range TimeForms[i].Groups {
			g := m[j+1]
			n, _ := strconv.Atoi(g)
			switch role {
			case 'y':
				c.year = n
			case 'm':
				c.month = n
				if n == 0 {
					c.month = strings.Index("JanFebMarAprMayJunJulAugSepOctNovDec", g[:3])/3 + 1
				}
			case 'd':
				c.day = n
			case 'H':
				c.hour = n
			case 'M':
				c.min = n
			case 's':
				sign = g
			case 'h':
				zh = n
			case 'n':
				zn = n
			}
		}
		c.offset = (zh*60 + zn) * 60
		if sign == "-" {
			c.offset = -c.offset
		}
		return c, c.day <= daysIn(time.Month(c.month), c.year)
	}
	return clock{}, false
}

// TestBucketOfEachForm: a synthetic key's time bucket is the UTC hour, day
// or month of a time in any form.
func TestBucketOfEachForm(t *testing.T) {
	spec, err := Parse("/t:hour")
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"2025-03-04T00:30:00+0100":        "2025-03-03T23",
		"2025-03-04 10:11":                "2025-03-04T10",
		"2001/01/14 21:55":                "2001-01-14T21",
		"Mon, 02 Jan 2006 23:04:05 -0700": "2006-01-03T06",
		"June 12, 1998":                   "1998-06-12T00",
		"Wed Aug 27 13:08:45 +0000 2008":  "2008-08-27T13",
	} {
		d := &jsontree.Value{Kind: jsontree.Object, Members: []jsontree.Member{{Key: "t", Value: jsontree.Value{Kind: jsontree.String, Str: in}}}}
		if got, st := spec.Extract(d, nil); st != OK || got[0].Str != want {
			t.Errorf("/t:hour of %q = %+v (%d), want %s", in, got, st, want)
		}
	}
}

// TestMongoDates: MongoDB Extended JSON dates reach Time as text (ingest
// writes the canonical form's milliseconds as ISO 8601), and mongoexport's
// legacy offset without a colon is read too.
func TestMongoDates(t *testing.T) {
	for in, want := range map[string]string{
		`{"$date":"2016-01-08T13:56:57.360Z"}`:      "2016-01-08T13:56:57.36Z",
		`{"$date":"2016-01-08T13:56:57.360-0500"}`:  "2016-01-08T18:56:57.36Z",
		`{"$date":{"$numberLong":"1452279417360"}}`: "2016-01-08T18:56:57.36Z",
		`{"$date":1452279417360}`:                   "2016-01-08T18:56:57.36Z",
	} {
		v := Lookup(doc(t, `{"t":`+in+`}`), []string{"t"})
		if v == nil || v.Kind != jsontree.String {
			t.Fatalf("%s reached Time as %+v, not as text", in, v)
		}
		if got := formatOK(Time(v)); got != want {
			t.Errorf("Time(%s) = %q, want %q", in, got, want)
		}
	}
}
