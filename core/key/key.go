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
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/jsontree"
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
	if len(paths.SplitTop(s, '+')) > 1 || len(paths.SplitTop(s, ':')) > 1 || strings.HasPrefix(s, "hash(") {
		return parseSynthetic(s)
	}
	parts := paths.SplitTop(s, ',')
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
	for i, t := range paths.SplitTop(s, '+') {
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
	if parts := paths.SplitTop(t, ':'); len(parts) == 2 {
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
	for _, one := range paths.SplitTop(s, ';') {
		k, err := Parse(one)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
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
	// NotTime: a time-bucket term's path holds a value that is not a time
	// (NotTimeValue finds it), so no bucket, and no key value, can be
	// computed: the item goes under the undefined value, as for Missing.
	NotTime
)

// Extract appends the document's key value to dst, one component per level,
// and says whether the value is complete. A missing path gives an Undefined
// component; for a synthetic key it makes the whole value Undefined, since
// the application could not compute it. (It takes the Spec by pointer:
// every key calls it for every document, and in WebAssembly copying a
// struct of this size is a call.)
func (s *Spec) Extract(doc *jsontree.Value, dst []epk.Value) ([]epk.Value, Status) {
	var buf [MaxLevels]*jsontree.Value
	vals := buf[:0]
	for _, p := range s.Paths {
		vals = append(vals, lookup(doc, p))
	}
	return s.ExtractFrom(vals, dst)
}

// ExtractFrom is Extract given the values at s.Paths, in order, nil for a
// missing one: keys that read the same paths look each up once per
// document.
func (s *Spec) ExtractFrom(vals []*jsontree.Value, dst []epk.Value) ([]epk.Value, Status) {
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
			if v.Kind == jsontree.String {
				if text, ok := bucketText(v.Str, t.Bucket); ok {
					b = append(b, text...)
					break
				}
			}
			at, ok := Time(v)
			if !ok {
				return append(dst, epk.UndefinedValue), NotTime
			}
			b = appendBucket(b, at, t.Bucket)
		default:
			b = appendScalar(b, c)
		}
	}
	return append(dst, epk.Str(string(b))), OK
}

// NotTimeValue is, of the values at s.Paths (as for ExtractFrom), the first
// at a time-bucket term that is there but not a time; nil if there is
// none: what made ExtractFrom say NotTime.
func (s *Spec) NotTimeValue(vals []*jsontree.Value) *jsontree.Value {
	for i, t := range s.Terms {
		if t.Bucket == "" || i >= len(vals) || vals[i] == nil {
			continue
		}
		if _, st := component(vals[i]); st != OK {
			continue
		}
		if v := vals[i]; v.Kind == jsontree.String {
			if _, ok := bucketText(v.Str, t.Bucket); ok {
				continue
			}
		}
		if _, ok := Time(vals[i]); !ok {
			return vals[i]
		}
	}
	return nil
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

func lookup(v *jsontree.Value, path []string) *jsontree.Value {
	for _, name := range path {
		if v.Kind != jsontree.Object {
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
func Lookup(doc *jsontree.Value, path []string) *jsontree.Value { return lookup(doc, path) }

func component(v *jsontree.Value) (epk.Value, Status) {
	if v == nil {
		return epk.UndefinedValue, Missing
	}
	switch v.Kind {
	case jsontree.Null:
		return epk.NullValue, OK
	case jsontree.Bool:
		return epk.Bool(v.Bool), OK
	case jsontree.Number:
		return epk.Num(v.Num), OK
	case jsontree.String:
		return epk.Str(v.Str), OK
	}
	return epk.UndefinedValue, Invalid
}

// appendScalar appends a component as a synthetic key writes it: strings
// as they are, numbers in their shortest form, true, false and null as
// words.
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
