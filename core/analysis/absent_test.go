package analysis

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/report"
)

// TestKeyNotFound: a named key whose path is in no document says so, and
// which path of the documents it probably meant: one whose name reads the
// same but holds a character that does not show (a byte order mark, a
// zero-width space), or differs by spaces around it, by case, or by one
// slip of typing; the nearest, then the one in most documents.
func TestKeyNotFound(t *testing.T) {
	var docs strings.Builder
	for i := range 4 {
		fmt.Fprintf(&docs, "{\"id\":\"%d\",\"\ufeffISO\":\"FR\",\"tenantId\":\"t%d\",\"region\":\"r\",\"cust\":{\"na\u200bme\":\"n\"},\"lines\":[{\"sku\":\"a\"}]}\n", i, i%2)
	}
	docs.WriteString("{\"id\":\"8\",\"Region\":\"R\"}\n")
	docs.WriteString("{\"id\":\"9\",\"regions\":\"x\"}\n")
	const undefined = ": Cosmos DB would store every item under the undefined value, one logical partition."
	for _, tt := range []struct {
		key, want string
	}{
		{"/ISO", `The key /ISO is in none of the 6 documents` + undefined + ` /"\ufeffISO", with a byte order mark (U+FEFF) before "ISO", is in 4 documents: did you mean it? Its name does not read as it is: clean the name in the data before the import, or name the key /"\ufeffISO" as it is written here.`},
		{"/cust/name", `The key /cust/name is in none of the 6 documents` + undefined + ` /cust/"na\u200bme", with a zero-width space (U+200B) inside "name", is in 4 documents: did you mean it? Its name does not read as it is: clean the name in the data before the import, or name the key /cust/"na\u200bme" as it is written here.`},
		{"/CUST/name", `The key /CUST/name is in none of the 6 documents` + undefined + ` /cust/"na\u200bme", in another case, and with a zero-width space (U+200B) inside "name", is in 4 documents: did you mean it? Its name does not read as it is: clean the name in the data before the import, or name the key /cust/"na\u200bme" as it is written here.`},
		{`/"\u00a0tenantId"`, `The key /"\u00a0tenantId" is in none of the 6 documents` + undefined + ` /tenantId, without the no-break space (U+00A0) before "tenantId" that the key's name holds, is in 4 documents: did you mean it?`},
		{`/"tenantId "`, `The key /"tenantId " is in none of the 6 documents` + undefined + ` /tenantId, without the spaces around the key's name, is in 4 documents: did you mean it?`},
		{"/tenantid", `The key /tenantid is in none of the 6 documents` + undefined + ` /tenantId, in another case, is in 4 documents: did you mean it?`},
		// Of two paths in another case, the one in more documents; one
		// slip away is farther than another case.
		{"/REGION", `The key /REGION is in none of the 6 documents` + undefined + ` /region, in another case, is in 4 documents: did you mean it?`},
		{"/rEgion", `The key /rEgion is in none of the 6 documents` + undefined + ` /region, in another case, is in 4 documents: did you mean it?`},
		{"/regoin", `The key /regoin is in none of the 6 documents` + undefined + ` /region, one slip of typing away, is in 4 documents: did you mean it?`},
		{"/tenatId", `The key /tenatId is in none of the 6 documents` + undefined + ` /tenantId, one slip of typing away, is in 4 documents: did you mean it?`},
		// Nothing near: short names take no slip, nor two slips.
		{"/idx", `The key /idx is in none of the 6 documents` + undefined},
		{"/tnatId", `The key /tnatId is in none of the 6 documents` + undefined},
		// One level of a hierarchical key, one term of a synthetic one.
		{"/tenantId,/ISO", `The key /tenantId,/ISO names /ISO, which none of the 6 documents holds: every item would have the undefined value there. /"\ufeffISO", with a byte order mark (U+FEFF) before "ISO", is in 4 documents: did you mean it? Its name does not read as it is: clean the name in the data before the import, or name the key /"\ufeffISO" as it is written here.`},
		{"/tenantID+hash(/id)%4", `The key /tenantID+hash(/id)%4 names /tenantID, which none of the 6 documents holds: every item would have the undefined value there. /tenantId, in another case, is in 4 documents: did you mean it?`},
		// Found, or KEY_IN_ARRAY's: no word here.
		{"/tenantId", ""},
		{`/"\ufeffISO"`, ""},
		{"/lines/sku", ""},
	} {
		t.Run(tt.key, func(t *testing.T) {
			r, err := Analyze(strings.NewReader(docs.String()), Options{Keys: []key.Spec{mustKey(t, tt.key)}, NoSuggest: true})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range r.Warnings {
				if w.Code == report.KeyNotFound {
					got = append(got, w.Message)
				}
			}
			want := []string{tt.want}
			if tt.want == "" {
				want = nil
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("KEY_NOT_FOUND\n%q\nwant\n%q", got, want)
			}
		})
	}
}

// TestKeyNotFoundWindow: a path missing from the window is said missing
// from its documents only, not from the input.
func TestKeyNotFoundWindow(t *testing.T) {
	var docs strings.Builder
	for i := range 30 {
		fmt.Fprintf(&docs, "{\"id\":\"%d\",\"tenantId\":\"t%d\"}\n", i, i%3)
	}
	docs.WriteString("{\"id\":\"x\",\"late\":1}\n")
	r, err := Analyze(strings.NewReader(docs.String()), Options{Keys: []key.Spec{mustKey(t, "/late")}, NoSuggest: true, Window: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range r.Warnings {
		if w.Code == report.KeyNotFound {
			if !strings.HasPrefix(w.Message, "The key /late is in none of the first 10 documents:") {
				t.Errorf("message %q", w.Message)
			}
			return
		}
	}
	t.Errorf("no KEY_NOT_FOUND in %+v", r.Warnings)
}

func TestOneSlip(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"region", "regoin", true}, {"region", "regions", true}, {"region", "regon", true}, {"region", "rexion", true},
		{"region", "region", true}, {"region", "rgeoin", false}, {"region", "regionsx", false}, {"region", "xregiony", false},
		{"größe", "grösse", false}, {"größe", "gröse", true}, {"ab", "ba", true}, {"abc", "acb", true}, {"abcd", "badc", false},
	} {
		if got := oneSlip(tt.a, tt.b); got != tt.want {
			t.Errorf("oneSlip(%q, %q) = %v", tt.a, tt.b, got)
		}
		if got := oneSlip(tt.b, tt.a); got != tt.want {
			t.Errorf("oneSlip(%q, %q) = %v", tt.b, tt.a, got)
		}
	}
}

// TestIDMeant: documents without an id whose name for it only reads as id
// (a byte order mark before it, as a CSV export's first column keeps it,
// or another case) are told which property to rename.
func TestIDMeant(t *testing.T) {
	for _, tt := range []struct{ name, want string }{
		{"\ufeffid", `3 documents have no id, but /"\ufeffid", with a byte order mark (U+FEFF) before "id", reads as one: rename it id before the import.`},
		{"ID", `3 documents have no id, but /ID, in another case, reads as one: rename it id before the import.`},
		{"key", "3 documents have no id: give each one, a GUID if nothing in it names it."},
	} {
		var docs strings.Builder
		for i := range 3 {
			fmt.Fprintf(&docs, "{%q:\"%d\",\"t\":\"a\"}\n", tt.name, i)
		}
		r, err := Analyze(strings.NewReader(docs.String()), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got string
		for _, w := range r.Warnings {
			if w.Code == report.IDRules {
				got = w.Message
			}
		}
		if !strings.Contains(got, tt.want) {
			t.Errorf("%q: ID_RULES %q, want %q in it", tt.name, got, tt.want)
		}
	}
}
