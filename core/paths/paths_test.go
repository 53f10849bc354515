package paths

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/sample"
	"github.com/pkcalc/pkcalc/internal/shared"
)

func collect(t testing.TB, src io.Reader, opts Options) *Collector {
	t.Helper()
	c := New(opts)
	r := ingest.NewReader(src)
	for {
		d, err := r.Next()
		if err == io.EOF {
			return c
		}
		if err != nil {
			t.Fatal(err)
		}
		c.Add(&d.Root, d.Bytes)
	}
}

func byPath(ps []Path) map[string]Path {
	m := make(map[string]Path)
	for _, p := range ps {
		m[p.Path] = p
	}
	return m
}

func TestPaths(t *testing.T) {
	in := `
{"id":"1","tenant":"a","n":1,"addr":{"city":"Oslo","zip":"0150"},"tags":["x","y"],"lines":[{"sku":"s1"}],"order date":"2024-01-01","_ts":1700000000}
{"id":"2","tenant":"a","n":1.0,"addr":{"city":"Bergen"},"tags":[],"lines":[{"sku":"s2"},{"sku":"s1"}],"_ts":1700000001}
{"id":"3","tenant":"b","n":"1","addr":null,"mixed":{"a":1},"_ts":1700000002}
{"id":"4","tenant":null,"n":true,"mixed":2,"_ts":1700000003}
`
	c := collect(t, strings.NewReader(in), Options{})
	ps := c.Paths()
	var order []string
	for _, p := range ps {
		order = append(order, p.Path)
	}
	// By average place in their objects: /mixed, fifth of six and fourth
	// of five, comes before /"order date", seventh of eight; /_ts, last in
	// every document, last.
	wantOrder := []string{"/id", "/tenant", "/n", "/addr", "/addr/city", "/addr/zip", "/tags", "/tags/[]", "/lines", "/lines/[]", "/lines/[]/sku", "/mixed", "/mixed/a", `/"order date"`, "/_ts"}
	if !reflect.DeepEqual(order, wantOrder) {
		t.Errorf("order\n%q\nwant\n%q", order, wantOrder)
	}
	m := byPath(ps)
	tests := []struct {
		path     string
		docs     int
		distinct int
		top      string
		usable   bool
		reason   string
	}{
		{"/id", 4, 4, `"1":1 "2":1 "3":1 "4":1 `, true, ""},
		{"/tenant", 4, 3, `"a":2 "b":1 null:1 `, true, ""},
		// 1 and 1.0 are one number; "1" and true are other values.
		{"/n", 4, 3, `1:2 "1":1 true:1 `, true, ""},
		{"/addr", 3, 1, `null:1 `, false, "holds objects in 2 documents"},
		{"/addr/city", 2, 2, `"Bergen":1 "Oslo":1 `, true, ""},
		{"/tags", 2, 0, ``, false, "holds arrays in 2 documents"},
		{"/tags/[]", 1, 2, `"x":1 "y":1 `, false, "inside an array"},
		{"/lines/[]/sku", 2, 2, `"s1":2 "s2":1 `, false, "inside an array"},
		{`/"order date"`, 1, 1, `"2024-01-01":1 `, true, ""},
		{"/_ts", 4, 4, `1700000000:1 1700000001:1 1700000002:1 1700000003:1 `, false, "system property: last-modified time"},
		{"/mixed", 2, 1, `2:1 `, false, "holds objects in 1 document:"},
	}
	for _, tt := range tests {
		p, ok := m[tt.path]
		if !ok {
			t.Errorf("%s: not found", tt.path)
			continue
		}
		var top strings.Builder
		for _, v := range p.Top {
			fmt.Fprintf(&top, "%s:%d ", v.Value, v.Count)
		}
		if p.Documents != tt.docs || p.Distinct != tt.distinct || top.String() != tt.top || p.Usable != tt.usable || !strings.Contains(p.Reason, tt.reason) {
			t.Errorf("%s: docs %d distinct %d top %q usable %v reason %q\nwant docs %d distinct %d top %q usable %v reason %q",
				tt.path, p.Documents, p.Distinct, top.String(), p.Usable, p.Reason, tt.docs, tt.distinct, tt.top, tt.usable, tt.reason)
		}
	}
	if got := m["/n"].TypeMix(); len(got) != 3 || got[0].Kind != jsontree.Number || got[0].Count != 2 {
		t.Errorf("type mix of /n: %v", got)
	}
	if m["/lines/[]/sku"].Segments != nil || !reflect.DeepEqual(m[`/"order date"`].Segments, []string{"order date"}) {
		t.Errorf("segments: %q %q", m["/lines/[]/sku"].Segments, m[`/"order date"`].Segments)
	}
}

func TestDistinctCap(t *testing.T) {
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, "{\"k\":%d,\"c\":\"same\"}\n", i)
	}
	m := byPath(collect(t, strings.NewReader(b.String()), Options{MaxDistinct: 10, Top: 2}).Paths())
	if k := m["/k"]; k.Distinct != 10 || !k.DistinctCapped || len(k.Top) != 2 {
		t.Errorf("/k: %+v", k)
	}
	if c := m["/c"]; c.Distinct != 1 || c.DistinctCapped || c.Top[0].Count != 50 {
		t.Errorf("/c: %+v", c)
	}
}

// TestMaxPaths: past MaxPaths distinct paths the table describes those
// met first, whole, and counts the rest, those inside them included,
// without describing them.
func TestMaxPaths(t *testing.T) {
	var b strings.Builder
	for i := range 20 {
		// A path every document holds, then one of its own holding an
		// object and an array of objects: four paths a document.
		fmt.Fprintf(&b, "{\"k\":\"v%d\",\"u%d\":{\"a\":1,\"l\":[{\"x\":1}]}}\n", i%3, i)
	}
	c := collect(t, strings.NewReader(b.String()), Options{MaxPaths: 6})
	ps := c.Paths()
	if len(ps) != 6 {
		t.Fatalf("%d paths, want 6: %+v", len(ps), ps)
	}
	m := byPath(ps)
	if k := m["/k"]; k.Documents != 20 || k.Distinct != 3 {
		t.Errorf("/k, met before the limit, is not counted whole: %+v", k)
	}
	for _, p := range []string{"/u0", "/u0/a", "/u0/l", "/u0/l/[]", "/u0/l/[]/x"} {
		if _, ok := m[p]; !ok {
			t.Errorf("%s, among the first 6 paths, is not in the table", p)
		}
	}
	// 1 + 5 paths a document, 6 described: 95 left out, in 19 documents.
	paths, docs := c.Omitted()
	if paths < 93 || paths > 97 || docs != 19 {
		t.Errorf("Omitted() = %d paths in %d documents, want about 95 in 19", paths, docs)
	}
	if p, d := collect(t, strings.NewReader(b.String()), Options{}).Omitted(); p != 0 || d != 0 {
		t.Errorf("under the default limit: Omitted() = %d, %d", p, d)
	}
}

// TestTopText: each value the table shows is its compact JSON, as the
// document wrote a number, unseen characters escaped, infinities as
// Extended JSON has them, made again from what the collector kept; past
// the cap too, where kept values are put out and others take their place.
func TestTopText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`null`, `null`},
		{`true`, `true`},
		{`false`, `false`},
		{`7`, `7`},
		{`1.50`, `1.50`},
		{`-0`, `-0`},
		{`1e2`, `1e2`},
		{`12345678901234567890`, `12345678901234567890`},
		{`{"$numberDouble":"-Infinity"}`, `"-Infinity"`}, // the reader keeps the string
		{`{"$numberLong":"42"}`, `42`},
		{`"plain"`, `"plain"`},
		{`"tab\tand \"quote\""`, `"tab\tand \"quote\""`},
		{`"zero\u200bwidth"`, `"zero\u200bwidth"`},
		{`"é"`, `"é"`},
	} {
		for _, opts := range []Options{{}, {MaxDistinct: 3, Top: 1}} {
			// The value twice, the most common, among values once each.
			var b strings.Builder
			fmt.Fprintf(&b, "{\"v\":%s}\n{\"v\":%s}\n", tt.in, tt.in)
			for i := range 20 {
				fmt.Fprintf(&b, "{\"v\":\"other %d\"}\n", i)
			}
			p := byPath(collect(t, strings.NewReader(b.String()), opts).Paths())["/v"]
			if opts.MaxDistinct > 0 && !p.DistinctCapped {
				t.Fatalf("%s: the cap is not reached", tt.in)
			}
			if opts.MaxDistinct == 0 && (len(p.Top) == 0 || p.Top[0].Value != tt.want || p.Top[0].Count != 2) {
				t.Errorf("%s: Top %v, want %s twice first", tt.in, p.Top, tt.want)
			}
			for _, v := range p.Top {
				if v.Count == 2 && v.Value != tt.want {
					t.Errorf("%s, capped %v: shown as %s, want %s", tt.in, opts.MaxDistinct > 0, v.Value, tt.want)
				}
			}
		}
	}
}

// TestTopInfinity: a number JSON cannot write is shown as Extended JSON
// has it.
func TestTopInfinity(t *testing.T) {
	for _, tt := range []struct {
		num  float64
		want string
	}{{math.Inf(1), `{"$numberDouble":"Infinity"}`}, {math.Inf(-1), `{"$numberDouble":"-Infinity"}`}, {math.NaN(), `{"$numberDouble":"NaN"}`}} {
		c := New(Options{})
		c.Add(&jsontree.Value{Kind: jsontree.Object, Members: []jsontree.Member{{Key: "v", Value: jsontree.Value{Kind: jsontree.Number, Num: tt.num}}}}, 0)
		if top := c.Paths()[0].Top; len(top) != 1 || top[0].Value != tt.want {
			t.Errorf("%v: Top %v, want %s", tt.num, top, tt.want)
		}
	}
}

// The table is the same for any order of the same documents: the paths'
// order, their counts, and past the cap the values kept and their counts.
func TestOrderIndependent(t *testing.T) {
	var docs []string
	for i := range 300 {
		// Every tenth document lacks /b and puts /c first; /id and /v
		// (150 values, each twice) pass the cap, and /tags/[] inside an
		// array.
		d := fmt.Sprintf(`{"id":"%d","a":%d,"b":"x%d","v":%d,"tags":[%d,%d]}`, i, i%7, i%3, i%150, i, i+1000)
		if i%10 == 0 {
			d = fmt.Sprintf(`{"c":true,"id":"%d","a":%d,"v":%d,"tags":[%d]}`, i, i%7, i%150, i)
		}
		docs = append(docs, d)
	}
	table := func(docs []string) []Path {
		return collect(t, strings.NewReader(strings.Join(docs, "\n")), Options{MaxDistinct: 100, Top: 3}).Paths()
	}
	want := table(docs)
	if m := byPath(want); !m["/v"].DistinctCapped || !m["/tags/[]"].DistinctCapped || m["/id"].Distinct != 100 {
		t.Fatalf("the test needs capped paths: %+v", want)
	}
	reversed := slices.Clone(docs)
	slices.Reverse(reversed)
	shuffled := slices.Clone(docs)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for name, order := range map[string][]string{"reversed": reversed, "shuffled": shuffled} {
		if got := table(order); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: table differs\n%+v\nwant\n%+v", name, got, want)
		}
	}
	var order []string
	for _, p := range want {
		order = append(order, p.Path)
	}
	if want := []string{"/c", "/id", "/a", "/b", "/v", "/tags", "/tags/[]"}; !reflect.DeepEqual(order, want) {
		t.Errorf("order %q, want %q", order, want)
	}
}

func TestDatasets(t *testing.T) {
	f, err := os.Open(shared.File(t, "datasets", "dp420-tenant-products.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := byPath(collect(t, f, Options{}).Paths())
	tenant := m["/tenantId"]
	if tenant.Documents != 295 || tenant.Distinct != 3 || !tenant.Usable || tenant.Top[0].Count != 201 || tenant.Top[1].Count != 61 || tenant.Top[2].Count != 33 {
		t.Errorf("/tenantId: %+v", tenant)
	}
	if id := m["/id"]; id.Distinct != 295 || !id.Usable {
		t.Errorf("/id: %+v", id)
	}
	if tag := m["/tags/[]/name"]; tag.Usable || !tag.InArray {
		t.Errorf("/tags/[]/name: %+v", tag)
	}
}

func TestFormatParse(t *testing.T) {
	tests := []struct {
		names []string
		path  string
	}{
		{[]string{"a"}, "/a"},
		{[]string{"a", "b_2"}, "/a/b_2"},
		{[]string{"order date"}, `/"order date"`},
		{[]string{"my-key", "x"}, `/"my-key"/x`},
		{[]string{`a"b`, `c\d`}, `/"a\"b"/"c\\d"`},
		{[]string{"a/b"}, `/"a/b"`},
		{[]string{""}, `/""`},
		{[]string{"[]"}, `/"[]"`},
		{[]string{"a\nb", "\x1b[31m", "del\x7f"}, `/"a\u000ab"/"\u001b[31m"/"del\u007f"`},
		{[]string{`\u0041`}, `/"\\u0041"`},
		// C1 controls (U+009B is a terminal's CSI) and the bidirectional
		// formatting characters, which would show one name as another.
		{[]string{"\u009b31m", "nel\u0085"}, `/"\u009b31m"/"nel\u0085"`},
		{[]string{"a\u202egnp.exe", "x\u2066y\u2069", "r\u200fl\u200e", "ar\u061c", "ls\u2028ps\u2029"},
			`/"a\u202egnp.exe"/"x\u2066y\u2069"/"r\u200fl\u200e"/"ar\u061c"/"ls\u2028ps\u2029"`},
		// Characters that show as nothing or as a plain space: a byte
		// order mark kept in a CSV header's first name, zero-width ones, a
		// no-break space, a soft hyphen, a tag (past U+FFFF: a pair).
		{[]string{"\ufeffISO", "tenant\u200bId", "a\u00a0b", "co\u00adop", "x\U000e0041"},
			`/"\ufeffISO"/"tenant\u200bId"/"a\u00a0b"/"co\u00adop"/"x\udb40\udc41"`},
		// Other text outside ASCII is written as it is.
		{[]string{"größe", "日付", "e\u0301", "😀"}, "/\"größe\"/\"日付\"/\"e\u0301\"/\"😀\""},
	}
	for _, tt := range tests {
		if got := Format(tt.names); got != tt.path {
			t.Errorf("Format(%q) = %s, want %s", tt.names, got, tt.path)
		}
		got, err := Parse(tt.path)
		if err != nil || !reflect.DeepEqual(got, tt.names) {
			t.Errorf("Parse(%s) = %q, %v; want %q", tt.path, got, err, tt.names)
		}
	}
	for _, bad := range []struct{ in, msg string }{
		{"", "empty path"},
		{"tenantId", "must start with '/'"},
		{"/a/", "ends with '/'"},
		{"/a//b", "empty step at character 4"},
		{"/tags/[]", "steps into an array"},
		{"/a/*", "wildcard"},
		{`/"open`, "not closed"},
		{`/"a"b`, "expected '/' after the quoted name"},
	} {
		if _, err := Parse(bad.in); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("Parse(%q): %v, want %q", bad.in, err, bad.msg)
		}
	}
}

func Example() {
	c := New(Options{})
	r := ingest.NewReader(strings.NewReader(`
{"id":"o1","tenantId":"contoso","lines":[{"sku":"A"}]}
{"id":"o2","tenantId":"contoso"}
{"id":"o3","tenantId":"fabrikam"}`))
	for {
		d, err := r.Next()
		if err != nil {
			break
		}
		c.Add(&d.Root, d.Bytes)
	}
	for _, p := range c.Paths() {
		fmt.Printf("%-16s in %d of %d documents, %d distinct, usable as key: %v\n", p.Path, p.Documents, c.Documents(), p.Distinct, p.Usable)
	}
	// Output:
	// /id              in 3 of 3 documents, 3 distinct, usable as key: true
	// /tenantId        in 3 of 3 documents, 2 distinct, usable as key: true
	// /lines           in 1 of 3 documents, 0 distinct, usable as key: false
	// /lines/[]        in 1 of 3 documents, 0 distinct, usable as key: false
	// /lines/[]/sku    in 1 of 3 documents, 1 distinct, usable as key: false
}

// Counts in reasons read as everywhere else: with thousands separators.
func TestReasonCount(t *testing.T) {
	var in strings.Builder
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&in, "{\"id\":\"%d\",\"tags\":[%d]}\n", i, i)
	}
	p := byPath(collect(t, strings.NewReader(in.String()), Options{}).Paths())["/tags"]
	if want := "holds arrays in 2,000 documents:"; !strings.Contains(p.Reason, want) {
		t.Errorf("reason %q, want %q", p.Reason, want)
	}
}

// TestEscapeJSON: the characters a path escapes are escaped in JSON text
// too, where the text keeps its values; C0 is the encoder's, and the
// white space between values stays.
func TestEscapeJSON(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`["plain","größe"]`, `["plain","größe"]`},
		{"[\"v\u009b31m\", \"a\u202egnp.exe\"]\n", `["v\u009b31m", "a\u202egnp.exe"]` + "\n"},
		{"{\n  \"\u2066k\u2069\": \"del\x7f\u061c\u200e\u200f\"\n}", "{\n  \"\\u2066k\\u2069\": \"del\\u007f\\u061c\\u200e\\u200f\"\n}"},
		{"\"\xff\xc2\"", "\"\xff\xc2\""}, // invalid UTF-8 stays as it is
		{"{\"\ufeffISO\":\"a\u00a0b\u200d\U000e0041\"}", `{"\ufeffISO":"a\u00a0b\u200d\udb40\udc41"}`},
	} {
		got := EscapeJSON(tt.in)
		if got != tt.want {
			t.Errorf("EscapeJSON(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if b := EscapeJSON([]byte(tt.in)); string(b) != tt.want {
			t.Errorf("EscapeJSON([]byte(%q)) = %q", tt.in, b)
		}
		var in, out any
		if json.Unmarshal([]byte(tt.in), &in) == nil {
			if err := json.Unmarshal([]byte(got), &out); err != nil || !reflect.DeepEqual(in, out) {
				t.Errorf("EscapeJSON(%q) reads as %v (%v), not %v", tt.in, out, err, in)
			}
		}
	}
}

// BenchmarkCollector is the path table of a window of the built-in
// sample's orders (33,000, about 10 MB): /id, /orderDate and /_ts pass
// the distinct values kept, the rest repeat.
func BenchmarkCollector(b *testing.B) {
	var docs []*jsontree.Value
	r := ingest.NewReader(strings.NewReader(sample.OrdersText(33_000)))
	size := 0
	for {
		d, err := r.Next()
		if err == io.EOF {
			break
		} else if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, &d.Root)
		size += d.Bytes
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		c := New(Options{})
		for _, d := range docs {
			c.Add(d, 0)
		}
		c.Paths()
	}
}

// TestValueBytes: a value's Bytes are the sizes of the documents that
// hold it, which a key of the path stores under it: a few large documents
// weigh more than many small ones.
func TestValueBytes(t *testing.T) {
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "{\"t\":\"small\",\"n\":%d}\n", i)
	}
	for i := range 10 {
		fmt.Fprintf(&b, "{\"t\":\"large\",\"n\":%d,\"pad\":%q}\n", i, strings.Repeat("x", 200))
	}
	c := collect(t, strings.NewReader(b.String()), Options{})
	var small, large ValueCount
	for _, v := range byPath(c.Paths())["/t"].Top {
		switch v.Value {
		case `"small"`:
			small = v
		case `"large"`:
			large = v
		}
	}
	// {"t":"small","n":0} is 19 bytes, 20 from n = 10; a large one 228.
	if small.Count != 30 || small.Bytes != 10*19+20*20 || large.Count != 10 || large.Bytes != 10*228 || c.Bytes() != small.Bytes+large.Bytes {
		t.Errorf("small %+v, large %+v, all %d bytes", small, large, c.Bytes())
	}
}

// TestHeaviest: the value of the most bytes, whether or not it is among
// the most common.
func TestHeaviest(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		pad := ""
		if i%8 == 7 {
			pad = strings.Repeat("x", 300)
		}
		fmt.Fprintf(&b, "{\"s\":\"s%d\",\"pad\":%q}\n", i%8, pad)
	}
	p := byPath(collect(t, strings.NewReader(b.String()), Options{Top: 3}).Paths())["/s"]
	if p.Heaviest.Value != `"s7"` || p.Heaviest.Count != 5 || p.Heaviest.Bytes != 5*(19+300) || slices.ContainsFunc(p.Top, func(v ValueCount) bool { return v.Value == `"s7"` }) {
		t.Errorf("heaviest %+v, top %+v", p.Heaviest, p.Top)
	}
}
