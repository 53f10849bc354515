// Package key describes partition keys and reads their values from
// documents. A key is one of:
//
//	/tenantId                     a hash key on one path
//	/tenantId,/userId,/id         a hierarchical key (MultiHash), two or three levels
//	/deviceId+/ts:day             a synthetic key: terms joined with "-" into one string
//
// A synthetic key is a property the application computes and stores; its
// terms are a path's value (/customerId), a path's date or epoch time cut to
// an hour, day or month (/orderDate:month), or a computed suffix: a stable
// hash of a path's value modulo N (hash(/id)%8), which spreads one value over
// N partitions while a point read can still compute the key.
//
// Package key parses and prints these specs and extracts a document's key
// value as the components epk hashes. It does not hash, group or score.
package key

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/paths"
)

// Kind is the kind of a key, as the report names it.
type Kind string

const (
	Hash      Kind = "hash"
	MultiHash Kind = "multihash"
	Synthetic Kind = "synthetic"
)

// MaxLevels is the most levels a hierarchical key may have.
const MaxLevels = 3

// MaxModulus is the largest N of a computed suffix hash(/path)%N.
const MaxModulus = 1000

// Bucket is the time unit of a time-bucket term.
type Bucket string

const (
	Hour  Bucket = "hour"
	Day   Bucket = "day"
	Month Bucket = "month"
)

// Start returns the start of the bucket that holds t, a time in UTC.
func (b Bucket) Start(t time.Time) time.Time {
	switch b {
	case Hour:
		return t.Truncate(time.Hour)
	case Day:
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	}
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// Term is one part of a synthetic key.
type Term struct {
	Path    []string
	Bucket  Bucket // cut the path's time to this unit; "" for the plain value
	Modulus int    // > 0: the term is fnv32a(value) mod Modulus, a computed suffix
}

// Spec is a partition key.
type Spec struct {
	Kind  Kind
	Paths [][]string // hash: one path; multihash: one per level; synthetic: each term's path, in term order
	Terms []Term     // synthetic only
}

// Parse reads a key spec (see the package comment).
func Parse(s string) (Spec, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Spec{}, fmt.Errorf("empty key: name a path such as /tenantId")
	}
	if len(splitTop(s, '+')) > 1 || len(splitTop(s, ':')) > 1 || strings.HasPrefix(s, "hash(") {
		return parseSynthetic(s)
	}
	parts := splitTop(s, ',')
	if len(parts) > MaxLevels {
		return Spec{}, fmt.Errorf("key %q has %d levels; a hierarchical key has at most %d", s, len(parts), MaxLevels)
	}
	spec := Spec{Kind: Hash}
	if len(parts) > 1 {
		spec.Kind = MultiHash
	}
	for i, p := range parts {
		names, err := paths.Parse(strings.TrimSpace(p))
		if err == nil {
			err = notSystem(names)
		}
		if err != nil {
			if len(parts) > 1 {
				return Spec{}, fmt.Errorf("level %d of key %q: %w", i+1, s, err)
			}
			return Spec{}, err
		}
		spec.Paths = append(spec.Paths, names)
	}
	return spec, nil
}

func parseSynthetic(s string) (Spec, error) {
	spec := Spec{Kind: Synthetic}
	for i, t := range splitTop(s, '+') {
		t = strings.TrimSpace(t)
		term, err := parseTerm(t)
		if err != nil {
			return Spec{}, fmt.Errorf("term %d (%q) of synthetic key %q: %w", i+1, t, s, err)
		}
		spec.Terms = append(spec.Terms, term)
		spec.Paths = append(spec.Paths, term.Path)
	}
	if len(spec.Terms) > 3 {
		return Spec{}, fmt.Errorf("synthetic key %q has %d terms; pkcalc combines at most 3", s, len(spec.Terms))
	}
	return spec, nil
}

func parseTerm(t string) (Term, error) {
	if rest, ok := strings.CutPrefix(t, "hash("); ok {
		// The modulus is digits, so the last ")%" ends the path, which
		// may hold ")%" itself in a quoted name: hash(/"a)%b")%8.
		i := strings.LastIndex(rest, ")%")
		if i < 0 {
			return Term{}, fmt.Errorf("a computed suffix is written hash(/path)%%N, as in hash(/id)%%8")
		}
		inner, mod := rest[:i], rest[i+2:]
		n, err := strconv.Atoi(mod)
		if err != nil || n < 2 || n > MaxModulus {
			return Term{}, fmt.Errorf("the modulus %q must be a whole number from 2 to %d", mod, MaxModulus)
		}
		p, err := paths.Parse(inner)
		if err == nil {
			err = notSystem(p)
		}
		if err != nil {
			return Term{}, err
		}
		return Term{Path: p, Modulus: n}, nil
	}
	path, unit := t, ""
	if parts := splitTop(t, ':'); len(parts) == 2 {
		path, unit = parts[0], parts[1]
		if unit == "" {
			return Term{}, fmt.Errorf("a time unit must follow ':': hour, day or month, as in /ts:day")
		}
	} else if len(parts) > 2 {
		return Term{}, fmt.Errorf("more than one ':' outside quotes")
	}
	p, err := paths.Parse(path)
	if err == nil && (unit == "" || !slices.Equal(p, []string{"_ts"})) {
		// The time of the write, which /_ts records, is the one use of a
		// system property a key can make: the application computes the
		// bucket of its own clock as it writes.
		err = notSystem(p)
	}
	if err != nil {
		return Term{}, err
	}
	term := Term{Path: p}
	switch Bucket(unit) {
	case "":
	case Hour, Day, Month:
		term.Bucket = Bucket(unit)
	default:
		return Term{}, fmt.Errorf("unknown time unit %q: use hour, day or month", unit)
	}
	return term, nil
}

// notSystem refuses a system property as a key path: Cosmos DB sets it as
// it stores an item, once the key has placed the item, and changes /_ts,
// /_etag and /_lsn with every write; the key must be in the item the
// application sends.
func notSystem(names []string) error {
	what := paths.SystemProperty(names)
	if what == "" {
		return nil
	}
	hint := "name a property the application writes"
	if slices.Equal(names, []string{"_ts"}) {
		hint += ", or for the time of the write a time bucket of it (/tenantId+/_ts:day)"
	}
	return fmt.Errorf("%s is a system property (%s): the service writes it as it stores the item, so it cannot place the item; %s",
		paths.Format(names), what, hint)
}

// ParseList reads keys separated by ';' (a hierarchical key has commas of
// its own), as one setting can hold several: "/tenantId;/tenantId,/id".
func ParseList(s string) ([]Spec, error) {
	var out []Spec
	for _, one := range splitTop(s, ';') {
		k, err := Parse(one)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
}

// splitTop splits s at sep outside double quotes.
func splitTop(s string, sep byte) []string {
	var out []string
	quoted, start := false, 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && quoted:
			i++
		case s[i] == '"':
			quoted = !quoted
		case s[i] == sep && !quoted:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// String returns the spec as Parse reads it.
func (s Spec) String() string {
	switch s.Kind {
	case Synthetic:
		parts := make([]string, len(s.Terms))
		for i, t := range s.Terms {
			parts[i] = t.String()
		}
		return strings.Join(parts, "+")
	}
	return strings.Join(s.PathStrings(), ",")
}

// String returns the term as Parse reads it.
func (t Term) String() string {
	p := paths.Format(t.Path)
	switch {
	case t.Modulus > 0:
		return fmt.Sprintf("hash(%s)%%%d", p, t.Modulus)
	case t.Bucket != "":
		return p + ":" + string(t.Bucket)
	}
	return p
}

// PathStrings returns the key's paths in Cosmos DB syntax.
func (s Spec) PathStrings() []string {
	out := make([]string, len(s.Paths))
	for i, p := range s.Paths {
		out[i] = paths.Format(p)
	}
	return out
}

// TimeBucket is the unit of a synthetic key's time bucket term, or "" if
// it has none. Such a key gains a new set of values with each new hour,
// day or month.
func (s Spec) TimeBucket() Bucket {
	for _, t := range s.Terms {
		if t.Bucket != "" {
			return t.Bucket
		}
	}
	return ""
}

// Levels is the number of components a key value has: the levels of a
// hierarchical key, else one.
func (s Spec) Levels() int {
	if s.Kind == MultiHash {
		return len(s.Paths)
	}
	return 1
}

// Status says whether a document could be stored with a key value.
type Status uint8

const (
	OK      Status = iota
	Missing        // a path is absent: Cosmos DB stores the item under the undefined value
	Invalid        // a path holds an object or an array: Cosmos DB rejects the item
)

// Extract appends the document's key value to dst, one component per level,
// and says whether the value is complete. A missing path gives an Undefined
// component; for a synthetic key it makes the whole value Undefined, since
// the application could not compute it. (It takes the Spec by pointer:
// every key calls it for every document, and in WebAssembly copying a
// struct of this size is a call.)
func (s *Spec) Extract(doc *ingest.Value, dst []epk.Value) ([]epk.Value, Status) {
	var buf [MaxLevels]*ingest.Value
	vals := buf[:0]
	for _, p := range s.Paths {
		vals = append(vals, lookup(doc, p))
	}
	return s.ExtractFrom(vals, dst)
}

// ExtractFrom is Extract given the values at s.Paths, in order, nil for a
// missing one: keys that read the same paths look each up once per
// document.
func (s *Spec) ExtractFrom(vals []*ingest.Value, dst []epk.Value) ([]epk.Value, Status) {
	if s.Kind != Synthetic {
		status := OK
		for _, v := range vals {
			c, st := component(v)
			if st > status {
				status = st
			}
			// Field by field: a Value appended whole is built aside and
			// read back in wider words than it was written, which stalls.
			dst = slices.Grow(dst, 1)[:len(dst)+1]
			e := &dst[len(dst)-1]
			e.Kind, e.Num, e.Str = c.Kind, c.Num, c.Str
		}
		return dst, status
	}
	// The value is assembled on the stack and allocated once: a synthetic
	// key is extracted from every document.
	var buf [128]byte
	b := buf[:0]
	for i, t := range s.Terms {
		v := vals[i]
		c, st := component(v)
		if st != OK {
			return append(dst, epk.UndefinedValue), st
		}
		if i > 0 {
			b = append(b, '-')
		}
		switch {
		case t.Modulus > 0:
			var text [64]byte
			b = strconv.AppendInt(b, int64(suffix(appendScalar(text[:0], c), t.Modulus)), 10)
		case t.Bucket != "":
			if v.Kind == ingest.String {
				if text, ok := bucketText(v.Str, t.Bucket); ok {
					b = append(b, text...)
					break
				}
			}
			at, ok := Time(v)
			if !ok {
				return append(dst, epk.UndefinedValue), Missing
			}
			b = appendBucket(b, at, t.Bucket)
		default:
			b = appendScalar(b, c)
		}
	}
	return append(dst, epk.Str(string(b))), OK
}

// Suffix is the computed suffix of a value as a synthetic key computes it:
// FNV-1a (32-bit) of the value's text, modulo n. It is written out so that
// application code in any language can compute the same number.
func Suffix(text string, n int) int { return suffix([]byte(text), n) }

// suffix is FNV-1a written out: hash/fnv's hasher would allocate per
// document.
func suffix(text []byte, n int) int {
	h := uint32(2166136261)
	for _, c := range text {
		h = (h ^ uint32(c)) * 16777619
	}
	return int(h % uint32(n))
}

func lookup(v *ingest.Value, path []string) *ingest.Value {
	for _, name := range path {
		if v.Kind != ingest.Object {
			return nil
		}
		var ok bool
		if v, ok = v.Get(name); !ok {
			return nil
		}
	}
	return v
}

// Lookup returns the value at path in doc, or nil when it is missing.
func Lookup(doc *ingest.Value, path []string) *ingest.Value { return lookup(doc, path) }

func component(v *ingest.Value) (epk.Value, Status) {
	if v == nil {
		return epk.UndefinedValue, Missing
	}
	switch v.Kind {
	case ingest.Null:
		return epk.NullValue, OK
	case ingest.Bool:
		return epk.Bool(v.Bool), OK
	case ingest.Number:
		return epk.Num(v.Num), OK
	case ingest.String:
		return epk.Str(v.Str), OK
	}
	return epk.UndefinedValue, Invalid
}

// scalarText is a component as a synthetic key writes it: strings as they
// are, numbers in their shortest form, true, false and null as words.
func scalarText(c epk.Value) string {
	if c.Kind == epk.String {
		return c.Str
	}
	return string(appendScalar(nil, c))
}

func appendScalar(dst []byte, c epk.Value) []byte {
	switch c.Kind {
	case epk.String:
		return append(dst, c.Str...)
	case epk.Number:
		return strconv.AppendFloat(dst, c.Num, 'f', -1, 64)
	case epk.True:
		return append(dst, "true"...)
	case epk.False:
		return append(dst, "false"...)
	case epk.Null:
		return append(dst, "null"...)
	}
	return dst
}

// Time reads a date-time from a value: an ISO 8601 string (a date, or a date
// and time with or without a zone, taken as UTC when it has none), or a
// number of seconds, milliseconds or microseconds since 1970, told apart by
// size.
func Time(v *ingest.Value) (time.Time, bool) {
	if v == nil {
		return time.Time{}, false
	}
	switch v.Kind {
	case ingest.Number:
		return epochTime(v.Num)
	case ingest.String:
		return parseTime(v.Str)
	}
	return time.Time{}, false
}

// Seconds is Time as seconds since 1970: float64(t.UnixNano()) / 1e9. A
// time in parseUTC's form is counted from its fields, without building a
// time.Time: every document's time is read so.
func Seconds(v *ingest.Value) (float64, bool) {
	if v != nil && v.Kind == ingest.String {
		var f [7]int
		if utcFields(v.Str, &f) {
			sec := civilDays(f[0], f[1], f[2])*86400 + int64(f[3]*3600+f[4]*60+f[5])
			return float64(sec*1e9+int64(f[6])) / 1e9, true
		}
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

var timeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02",
}

func parseTime(s string) (time.Time, bool) {
	if len(s) < 10 || len(s) > 40 || s[4] != '-' {
		return time.Time{}, false
	}
	if t, ok := parseUTC(s); ok {
		return t, true
	}
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// parseUTC reads the form most documents use, 2025-01-02T15:04:05Z with
// up to nine digits of fraction, as time.Parse would read it with
// time.RFC3339Nano; any other text, or a field out of range, is left to
// time.Parse. Every document of a time field or time bucket is parsed, and
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
