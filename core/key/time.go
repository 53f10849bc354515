package key

import (
	"math"
	"strings"
	"time"

	"github.com/pkcalc/pkcalc/core/jsontree"
)

// Time reads a date-time from a value: a number of seconds, milliseconds or
// microseconds since 1970, told apart by size, or text of 10 to 40
// characters in one of TimeForms' forms:
//
//	2025-03-04T10:11:12.345Z       ISO 8601: a date, or a date and a time after T or spaces,
//	2025-03-04 10:11+01:00         seconds, a fraction and a zone (Z, +01:00, +0100, +01) optional
//	2025/03/04 10:11               the same with slashes
//	Tue, 04 Mar 2025 10:11:12 GMT  RFC 1123 (zone GMT, UTC, UT, Z or -0700), RFC 5322, 4 March 2025
//	Mar 4 2025, March 4, 2025      a month's name, the day, the year
//	Tue Mar 04 10:11:12 +0000 2025 Twitter's created_at (Ruby's Time#to_s), C's asctime without a zone
//
// Text without a zone is taken as UTC. Names are English, written as Go
// writes them (Mar, March; Tue, Tuesday).
func Time(v *jsontree.Value) (time.Time, bool) {
	if v == nil {
		return time.Time{}, false
	}
	switch v.Kind {
	case jsontree.Number:
		return epochTime(v.Num)
	case jsontree.String:
		return parseTime(v.Str)
	}
	return time.Time{}, false
}

// Seconds is Time as seconds since 1970: float64(t.UnixNano()) / 1e9. Text
// is counted from its fields, without building a time.Time: every
// document's time is read so.
func Seconds(v *jsontree.Value) (float64, bool) {
	if v != nil && v.Kind == jsontree.String {
		var f [7]int
		if utcFields(v.Str, &f) {
			sec := civilDays(f[0], f[1], f[2])*86400 + int64(f[3]*3600+f[4]*60+f[5])
			return float64(sec*1e9+int64(f[6])) / 1e9, true
		}
		var c clock
		if !readClock(v.Str, &c) {
			return 0, false
		}
		return float64(c.unix()*1e9+int64(c.nsec)) / 1e9, true
	}
	t, ok := Time(v)
	if !ok {
		return 0, false
	}
	return float64(t.UnixNano()) / 1e9, true
}

// civilDays is the number of days from 1970-01-01 to a date of the
// proleptic Gregorian calendar, as package time counts them (Howard
// Hinnant's days_from_civil).
func civilDays(year, month, day int) int64 {
	if month <= 2 {
		year--
	}
	era := year / 400
	if year < 0 {
		era = (year - 399) / 400
	}
	yoe := year - era*400
	doy := (153*((month+9)%12)+2)/5 + day - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

func epochTime(f float64) (time.Time, bool) {
	a := math.Abs(f)
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return time.Time{}, false
	case a < 1e11: // seconds until the year 5138
		sec, frac := math.Modf(f)
		return time.Unix(int64(sec), int64(frac*1e9)).UTC(), true
	case a < 1e14: // milliseconds
		return time.UnixMilli(int64(f)).UTC(), true
	case a < 1e17: // microseconds
		return time.UnixMicro(int64(f)).UTC(), true
	}
	return time.Time{}, false
}

func parseTime(s string) (time.Time, bool) {
	if t, ok := parseUTC(s); ok {
		return t, true
	}
	var c clock
	if !readClock(s, &c) {
		return time.Time{}, false
	}
	return time.Unix(c.unix(), int64(c.nsec)).UTC(), true
}

// parseUTC reads the form most documents use, 2025-01-02T15:04:05Z with
// up to nine digits of fraction, as time.Parse would read it with
// time.RFC3339Nano; any other text, or a field out of range, is left to
// readClock. Every document of a time field or time bucket is parsed, and
// this is several times faster.
func parseUTC(s string) (time.Time, bool) {
	var f [7]int
	if !utcFields(s, &f) {
		return time.Time{}, false
	}
	return time.Date(f[0], time.Month(f[1]), f[2], f[3], f[4], f[5], f[6], time.UTC), true
}

// utcFields reads into f the fields of a time in parseUTC's form: year,
// month, day, hour, minute, second and nanosecond. Text that parses this
// way starts with its own day, hour and month buckets (bucketText).
func utcFields(s string, f *[7]int) bool {
	n := len(s)
	if n < 20 || n == 21 || n > 30 || s[n-1] != 'Z' || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return false
	}
	// Every document's time goes through here: the fields are written in
	// place (an array returned was copied through the stack), and a field
	// that is not all digits comes out negative.
	f[0] = twoDigits(s, 0)*100 + twoDigits(s, 2)
	f[1], f[2], f[3], f[4], f[5], f[6] = twoDigits(s, 5), twoDigits(s, 8), twoDigits(s, 11), twoDigits(s, 14), twoDigits(s, 17), 0
	if n > 20 {
		if s[19] != '.' {
			return false
		}
		for i := 20; i < n-1; i++ {
			d := int(s[i]) - '0'
			if uint(d) > 9 {
				return false
			}
			f[6] = f[6]*10 + d
		}
		for range 9 - (n - 21) {
			f[6] *= 10
		}
	}
	year, month, day := f[0], f[1], f[2]
	return year >= 0 && min(f[3], f[4], f[5]) >= 0 && month >= 1 && month <= 12 && day >= 1 &&
		day <= daysIn(time.Month(month), year) && f[3] <= 23 && f[4] <= 59 && f[5] <= 59
}

// twoDigits is the number s[i:i+2] writes, or a negative one if it is not
// two digits.
func twoDigits(s string, i int) int {
	a, b := int(s[i])-'0', int(s[i+1])-'0'
	if uint(a) > 9 || uint(b) > 9 {
		return -1 << 30
	}
	return a*10 + b
}

// A TimeForm is one form of the text Time reads, as a regular expression,
// for code that must read times as pkcalc does in another language: the
// queries of package aggregate and the application code of package
// provision. The pattern has no anchors and no backslash, so it reads the
// same in RE2, Java, JavaScript, Python and .NET string literals; Groups
// names what each capturing group holds, in order:
//
//	y year, m month (01 to 12, or an English name: Jan, January), d day,
//	H hour, M minute, s the zone's sign, h its hours, n its minutes
//
// A group that takes no part in the match is absent: no zone is UTC, no
// time midnight. The patterns bound every field but the day by the month,
// which the reader checks (2023-02-29 matches, and is no time). Seconds
// and their fraction are matched but not captured: a time bucket is an
// hour or longer, and a zone's offset whole minutes. Text is a time when
// it is 10 to 40 characters long and one of the patterns matches it whole.
type TimeForm struct {
	Name, Example, Pattern, Groups string
}

// The parts of TimeForms' patterns; readClock reads the same.
const (
	patYear     = `([0-9]{4})`
	patMonthNum = `(0[1-9]|1[0-2])`
	patDay2     = `(0[1-9]|[12][0-9]|3[01])`
	patDay      = `(0?[1-9]|[12][0-9]|3[01])`
	patClock    = `([01]?[0-9]|2[0-3]):([0-5][0-9])(?::[0-5][0-9](?:[.,][0-9]+)?)?`
	patOffset   = `([+-])([01][0-9]|2[0-4])(?::?([0-5][0-9]|60))?`
	patZone     = `(?:Z|` + patOffset + `)`
	patNamedZ   = `(?:GMT|UTC|UT|Z|` + patOffset + `)`
)

var (
	monthNames   = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	weekdayNames = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	patMonthName = "(" + namesPattern(monthNames) + ")"
	patWeekday   = "(?:" + namesPattern(weekdayNames) + ")"
)

// namesPattern matches each name whole or by its first three letters.
func namesPattern(names []string) string {
	alts := make([]string, len(names))
	for i, n := range names {
		alts[i] = n[:3]
		if len(n) > 3 {
			alts[i] += "(?:" + n[3:] + ")?"
		}
	}
	return strings.Join(alts, "|")
}

// TimeForms are the forms of text Time reads, each a regular expression.
var TimeForms = []TimeForm{
	{"ISO 8601", "2025-03-04T10:11:12.345+01:00", patYear + "-" + patMonthNum + "-" + patDay2 + "(?:(?:T| +)" + patClock + patZone + "?)?", "ymdHMshn"},
	{"ISO 8601 with slashes", "2025/03/04 10:11", patYear + "/" + patMonthNum + "/" + patDay2 + "(?:(?:T| +)" + patClock + patZone + "?)?", "ymdHMshn"},
	{"RFC 1123", "Tue, 04 Mar 2025 10:11:12 GMT", "(?:" + patWeekday + ", +)?" + patDay + " +" + patMonthName + " +" + patYear + "(?: +" + patClock + "(?: +" + patNamedZ + ")?)?", "dmyHMshn"},
	{"month day year", "March 4, 2025", patMonthName + " +" + patDay + ",? +" + patYear, "mdy"},
	{"Twitter", "Tue Mar 04 10:11:12 +0000 2025", patWeekday + " +" + patMonthName + " +" + patDay + " +" + patClock + "(?: +" + patNamedZ + ")? +" + patYear, "mdHMshny"},
}

// clock is a time as text writes it: its fields, and its zone's offset
// east of UTC in seconds.
type clock struct {
	year, month, day, hour, min, sec, nsec, offset int
}

// unix is the clock's second since 1970.
func (c *clock) unix() int64 {
	return civilDays(c.year, c.month, c.day)*86400 + int64(c.hour*3600+c.min*60+c.sec-c.offset)
}

// readClock reads text in any of TimeForms' forms into c. It reads what
// their patterns match, field by field, without a regular expression.
func readClock(s string, c *clock) bool {
	if len(s) < 10 || len(s) > 40 {
		return false
	}
	*c = clock{}
	p := scanner{s: s, ok: true}
	switch {
	case isDigit(s[0]) && (s[4] == '-' || s[4] == '/'): // ISO 8601
		sep := s[4]
		c.year = p.num(4, 4)
		p.need(sep)
		c.month = p.num(2, 2)
		p.need(sep)
		c.day = p.num(2, 2)
		if p.more() {
			if !p.take('T') {
				p.spaces()
			}
			p.clock(c)
			if p.more() {
				p.zone(c, false)
			}
		}
	case isDigit(s[0]): // RFC 1123 without its weekday
		p.dayFirst(c)
	case s[0] < 'A' || s[0] > 'Z': // no name
		return false
	default:
		if p.name(weekdayNames) < 0 {
			c.month = p.month() // month day year
			p.spaces()
			c.day = p.num(1, 2)
			p.take(',')
			p.spaces()
			c.year = p.num(4, 4)
			break
		}
		if p.take(',') { // RFC 1123
			p.spaces()
			p.dayFirst(c)
			break
		}
		p.spaces() // Twitter
		c.month = p.month()
		p.spaces()
		c.day = p.num(1, 2)
		p.spaces()
		p.clock(c)
		p.spaces()
		if p.more() && !isDigit(s[p.i]) {
			p.zone(c, true)
			p.spaces()
		}
		c.year = p.num(4, 4)
	}
	return p.ok && p.i == len(s) && c.month >= 1 && c.month <= 12 && c.day >= 1 &&
		c.day <= daysIn(time.Month(c.month), c.year)
}

// scanner reads text left to right; ok turns false at the first thing
// that is not as expected, and the reads after it do nothing.
type scanner struct {
	s  string
	i  int
	ok bool
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// more reports whether text is left.
func (p *scanner) more() bool { return p.ok && p.i < len(p.s) }

// fail stops the scan and returns -1, a value no field takes.
func (p *scanner) fail() int {
	p.ok = false
	return -1
}

// num reads lo to hi digits, as many as there are.
func (p *scanner) num(lo, hi int) int {
	if !p.ok {
		return -1
	}
	n, k := 0, 0
	for k < hi && p.i+k < len(p.s) && isDigit(p.s[p.i+k]) {
		n = n*10 + int(p.s[p.i+k]-'0')
		k++
	}
	if k < lo {
		return p.fail()
	}
	p.i += k
	return n
}

// take reads b if it comes next.
func (p *scanner) take(b byte) bool {
	if p.more() && p.s[p.i] == b {
		p.i++
		return true
	}
	return false
}

func (p *scanner) need(b byte) {
	if !p.take(b) {
		p.fail()
	}
}

// spaces reads one or more spaces.
func (p *scanner) spaces() {
	p.need(' ')
	for p.take(' ') {
	}
}

// prefix reads w if it comes next.
func (p *scanner) prefix(w string) bool {
	if p.ok && strings.HasPrefix(p.s[p.i:], w) {
		p.i += len(w)
		return true
	}
	return false
}

// name reads one of names, whole or its first three letters, and returns
// its index, or -1 if none comes next.
func (p *scanner) name(names []string) int {
	if !p.ok || p.i+3 > len(p.s) {
		return -1
	}
	a, b, c := p.s[p.i], p.s[p.i+1], p.s[p.i+2]
	for i, n := range names {
		if n[0] == a && n[1] == b && n[2] == c {
			p.i += 3
			p.prefix(n[3:])
			return i
		}
	}
	return -1
}

// month reads a month's name and returns its number.
func (p *scanner) month() int {
	if m := p.name(monthNames); m >= 0 {
		return m + 1
	}
	return p.fail()
}

// clock reads the hour, minute, and optional seconds and fraction of
// patClock.
func (p *scanner) clock(c *clock) {
	if c.hour = p.num(1, 2); c.hour > 23 {
		p.fail()
	}
	p.need(':')
	if c.min = p.num(2, 2); c.min > 59 {
		p.fail()
	}
	if !p.take(':') {
		return
	}
	if c.sec = p.num(2, 2); c.sec > 59 {
		p.fail()
	}
	if p.take('.') || p.take(',') {
		digits := 0
		for ; p.more() && isDigit(p.s[p.i]); p.i++ {
			if digits < 9 { // as time.Parse, the first nine
				c.nsec = c.nsec*10 + int(p.s[p.i]-'0')
			}
			digits++
		}
		if digits == 0 {
			p.fail()
		}
		for ; digits < 9; digits++ {
			c.nsec *= 10
		}
	}
}

// zone reads patZone, or with names patNamedZ.
func (p *scanner) zone(c *clock, names bool) {
	if p.take('Z') || names && (p.prefix("GMT") || p.prefix("UTC") || p.prefix("UT")) {
		return
	}
	sign := 1
	if p.take('-') {
		sign = -1
	} else if !p.take('+') {
		p.fail()
		return
	}
	h, m := p.num(2, 2), 0
	if p.take(':') || p.more() && isDigit(p.s[p.i]) {
		m = p.num(2, 2)
	}
	if h > 24 || m > 60 {
		p.fail()
	}
	c.offset = sign * (h*3600 + m*60)
}

// dayFirst reads the day, month's name, year and optional time and zone
// of RFC 1123.
func (p *scanner) dayFirst(c *clock) {
	c.day = p.num(1, 2)
	p.spaces()
	c.month = p.month()
	p.spaces()
	c.year = p.num(4, 4)
	if !p.more() {
		return
	}
	p.spaces()
	p.clock(c)
	if p.more() {
		p.spaces()
		p.zone(c, true)
	}
}

// bucketText is the text of b's bucket of a time written in parseUTC's form:
// the time's own first characters, as appendBucket would write them from
// the parsed time, without parsing a time only to print part of it back.
func bucketText(s string, b Bucket) (string, bool) {
	var f [7]int
	if !utcFields(s, &f) {
		return "", false
	}
	switch b {
	case Hour:
		return s[:13], true
	case Day:
		return s[:10], true
	}
	return s[:7], true
}

func daysIn(m time.Month, year int) int {
	if m == time.February && year%4 == 0 && (year%100 != 0 || year%400 == 0) {
		return 29
	}
	return [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
}

func appendBucket(dst []byte, t time.Time, b Bucket) []byte {
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		switch b {
		case Hour:
			return t.AppendFormat(dst, "2006-01-02T15")
		case Day:
			return t.AppendFormat(dst, "2006-01-02")
		}
		return t.AppendFormat(dst, "2006-01")
	}
	// Written out: a synthetic key formats a bucket for every document, and
	// AppendFormat interprets its layout each time.
	two := func(dst []byte, n int) []byte { return append(dst, byte('0'+n/10), byte('0'+n%10)) }
	dst = two(two(dst, year/100), year%100)
	dst = two(append(dst, '-'), int(month))
	if b == Day || b == Hour {
		dst = two(append(dst, '-'), day)
	}
	if b == Hour {
		dst = two(append(dst, 'T'), t.Hour())
	}
	return dst
}
