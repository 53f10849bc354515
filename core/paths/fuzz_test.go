package paths

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzPaths: Parse of any text either fails or gives names that Format
// writes as a path that parses back to the same names; and any names (here
// the fuzzer's string cut at NUL bytes) format to a path that parses back
// to them.
func FuzzPaths(f *testing.F) {
	for _, s := range []string{
		"", "/", "a", "/a", "/a/b_2", `/"order date"`, `/"my-key"/x`, `/"a\"b"/"c\\d"`, `/"a/b"`, `/""`,
		`/"[]"`, "/tags/[]", "/a/*", "/a/?", `/"open`, `/"a"b`, "/a//b", "/a/", `/"\`, `/"a\"`, `/a"b`,
		"/a b", "/ a", "/\xff\xfe", "/é/ü", "/a\x00b", `/"a)%b"`, `/"a:b"/"c+d"/"e,f"`, "/[0]", "/a/[", `/"x"/`,
		"a\x00b\x00", "\x00", "\"\x00\\\x00/", "[]\x00*\x00?",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if names, err := Parse(s); err == nil {
			if len(names) == 0 {
				t.Fatalf("Parse(%q) gave no names and no error", s)
			}
			out := Format(names)
			again, err := Parse(out)
			if err != nil {
				t.Fatalf("Parse(%q) = %q, which formats as %q, which does not parse: %v", s, names, out, err)
			}
			if !reflect.DeepEqual(again, names) {
				t.Fatalf("Parse(%q) = %q, formats as %q, which parses to %q", s, names, out, again)
			}
			if Format(again) != out {
				t.Fatalf("Format is not stable: %q then %q", out, Format(again))
			}
		} else if err.Error() == "" {
			t.Fatalf("Parse(%q): an empty error", s)
		}
		names := strings.Split(s, "\x00")
		out := Format(names)
		again, err := Parse(out)
		if err != nil {
			t.Fatalf("Format(%q) = %q, which does not parse: %v", names, out, err)
		}
		if !reflect.DeepEqual(again, names) {
			t.Fatalf("Format(%q) = %q, which parses to %q", names, out, again)
		}
	})
}
