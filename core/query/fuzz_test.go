package query

import (
	"reflect"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/key"
)

// FuzzParse checks that any text parses or fails with a positioned error,
// never panics, and that what parses prints to text that parses back to the
// same tree. Route runs on every parsed query under each kind of key.
func FuzzParse(f *testing.F) {
	entries, _ := readCorpus(f)
	for _, e := range entries {
		f.Add(e.query)
	}
	for _, s := range []string{
		"", "SELECT", "--", "'", `"\u`, "@", ".5", "SELECT VALUE -0",
		"SELECT * FROM c WHERE c.a = 1 ? 2 : 3 ?? 4",
		"SELECT VALUE " + strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300),
		"SELECT * FROM c WHERE c.tenantId IN ('a', 'b') AND c.userId = @u OR c.ts BETWEEN 1 AND 2",
	} {
		f.Add(s)
	}
	var specs []key.Spec
	for _, k := range []string{"/tenantId", "/tenantId,/userId,/id", "/deviceId+/ts:day", "/a+hash(/id)%8", "/a/b"} {
		s, err := key.Parse(k)
		if err != nil {
			f.Fatal(err)
		}
		specs = append(specs, s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		q, err := Parse(text)
		if err != nil {
			pe, ok := err.(*Error)
			if !ok {
				t.Fatalf("error is %T, not *Error: %v", err, err)
			}
			if pe.Offset < 0 || pe.Offset > len(text) || pe.Line < 1 || pe.Column < 1 || pe.Msg == "" {
				t.Fatalf("bad error position %+v for %q", pe, text)
			}
			return
		}
		out := q.String()
		again, err := Parse(out)
		if err != nil {
			t.Fatalf("%q prints as %q, which does not parse: %v", text, out, err)
		}
		if !reflect.DeepEqual(q, again) {
			t.Fatalf("%q prints as %q, which parses to %q", text, out, again)
		}
		for _, s := range specs {
			r := Route(q, s)
			if r.Kind != Single && r.Kind != Targeted && r.Kind != FanOut || r.Reason == "" {
				t.Fatalf("Route(%q, %s) = %+v", text, s, r)
			}
		}
	})
}
