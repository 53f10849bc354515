package key

import (
	"reflect"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/jsontree"
)

// fuzzDoc is the document every fuzzed key is extracted from: each kind of
// value, times in each form, and names that need quoting.
const fuzzDoc = `{"id":"o1","tenant":"contoso","n":42,"f":-0.5,"z":-0,"big":1e300,"huge":1e999,"ok":true,"nil":null,
	"addr":{"city":"Oslo","a b":{"c":"d"}},"tags":["a",{"x":1}],"at":"2025-03-04T10:11:12Z","d":"2025-03-04",
	"bad":"2025-13-45T99:99","ts":1741083072,"ms":1741083072000,"us":1741083072000000,"neg":-1e16,"tiny":1e-300,
	"":"empty","a)%b":"x","a:b":1,"\"q\"":"quoted","/":"slash","~":"tilde","a,b":"comma","a+b":"plus","h":"hash(/id)%8",
	"ü":"\ud83d\ude00","ctl":"\u0000\n"}`

// FuzzKeySpec: any text either fails to parse as a key or parses to a spec
// that prints as text that parses back to the same spec; specs built from
// any property names print as text that parses back to them; and
// extracting any parsed spec's value from a fixed document never panics
// and gives one component per level.
func FuzzKeySpec(f *testing.F) {
	for _, s := range []string{
		"", " ", "/tenantId", " /a/b ", `/"order date"`, "/tenantId,/userId,/id", "/tenantId, /id", `/"a,b",/c`,
		"/deviceId+/ts:day", "/a+/b+/c", "/orderDate:month", "/date+hash(/vin)%20", `/"a:b"`, `/"a:b":hour`,
		`/"a+b"`, "tenantId", "/a,/b,/c,/d", "/a,tenant", "/a+/b+/c+/d", "/ts:week", "/a+hash(/id)%1",
		"/a+hash(/id)", "/tags/[]", "/a:", "/a::day", ":", "+", ",", "hash(", "hash()%", "hash(/a)%", "hash(/a)%+8",
		`hash(/"a)%b")%3`, "hash(/a)%08+/b:day", `/"\"`, `/"a\"b":day`, "/a:day,/b", "/at:hour+/ts:month+/ms:day",
		"/tenant+/tags", "/addr/city,/n,/ok", "/nil+/z+/f", "hash(/big)%1000", "/huge:day", "/us:month", "/bad:hour",
		`/"a)%b"`, `/""+/"/"+/"~"`,
	} {
		f.Add(s, "tenant\x00id", uint16(8), uint8(1))
	}
	f.Add("/a", "a)%b", uint16(3), uint8(0))
	f.Add("/a", "", uint16(0), uint8(2))
	f.Add("/a", "\"\x00\\\x00:\x00+\x00,", uint16(999), uint8(3))
	doc := mustDoc(f, fuzzDoc)
	units := []Bucket{Hour, Day, Month}
	f.Fuzz(func(t *testing.T, s string, name string, mod uint16, unit uint8) {
		if spec, err := Parse(s); err == nil {
			checkSpec(t, s, spec)
			vals, st := spec.Extract(doc, nil)
			if len(vals) != spec.Levels() || st > NotTime || st == NotTime && spec.NotTimeValue(lookups(doc, spec)) == nil {
				t.Fatalf("Extract with %q: %v, status %d", s, vals, st)
			}
			if spec.Kind == Synthetic && st == OK && vals[0].Kind != epk.String {
				t.Fatalf("synthetic key %q extracted %+v", s, vals[0])
			}
		} else if err.Error() == "" {
			t.Fatalf("Parse(%q): an empty error", s)
		}
		path := strings.Split(name, "\x00")
		n := 2 + int(mod)%999
		for _, spec := range []Spec{
			{Kind: Hash, Paths: [][]string{path}},
			{Kind: MultiHash, Paths: [][]string{path, {"id"}, path}},
			{Kind: Synthetic, Paths: [][]string{path}, Terms: []Term{{Path: path, Modulus: n}}},
			{Kind: Synthetic, Paths: [][]string{path}, Terms: []Term{{Path: path, Bucket: units[int(unit)%3]}}},
			{Kind: Synthetic, Paths: [][]string{path, path, {"id"}}, Terms: []Term{{Path: path}, {Path: path, Modulus: n}, {Path: []string{"id"}}}},
		} {
			checkSpec(t, "", spec)
		}
	})
}

// checkSpec checks that a spec prints as text that parses back to it.
func checkSpec(t *testing.T, from string, spec Spec) {
	t.Helper()
	out := spec.String()
	again, err := Parse(out)
	if err != nil {
		t.Fatalf("%+v (from %q) prints as %q, which does not parse: %v", spec, from, out, err)
	}
	if !reflect.DeepEqual(again, spec) {
		t.Fatalf("%+v (from %q) prints as %q, which parses to %+v", spec, from, out, again)
	}
	if again.String() != out {
		t.Fatalf("String is not stable: %q then %q", out, again.String())
	}
}

func mustDoc(tb testing.TB, s string) *jsontree.Value {
	tb.Helper()
	d, err := ingest.NewReader(strings.NewReader(s)).Next()
	if err != nil {
		tb.Fatal(err)
	}
	return &d.Root
}

// TestFuzzRegressions keeps what FuzzKeySpec found, each with its fix.
func TestFuzzRegressions(t *testing.T) {
	// "/a:" parsed as a synthetic key of one plain term, which prints as
	// "/a", a hash key: a ':' needs its time unit.
	for _, in := range []string{"/a:", "/a+/b:", `/"x:y":`} {
		if s, err := Parse(in); err == nil || !strings.Contains(err.Error(), "a time unit must follow ':'") {
			t.Errorf("Parse(%q) = %v, %v; want the missing time unit", in, s, err)
		}
	}
	// A computed suffix on a property whose name holds ")%" printed as
	// text that did not parse: the path ended at the first ")%".
	spec := Spec{Kind: Synthetic, Paths: [][]string{{"a)%b"}}, Terms: []Term{{Path: []string{"a)%b"}, Modulus: 3}}}
	if got := spec.String(); got != `hash(/"a)%b")%3` {
		t.Errorf("String() = %s", got)
	}
	checkSpec(t, "", spec)
	if s, err := Parse(`/d:day+hash(/"x)%8)%9")%12`); err != nil || s.Terms[1].Modulus != 12 || s.Terms[1].Path[0] != "x)%8)%9" {
		t.Errorf("Parse: %+v %v", s, err)
	}
}
