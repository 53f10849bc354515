package provision

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/pkcalc/pkcalc/internal/testenv"
)

// Every quoting function must give back the text it was given. bash,
// Python, node, Java and Go evaluate the literal (./build.sh test installs
// them; see internal/testenv), Terraform's HCL library does in process, and
// PowerShell, Bicep and C# are decoded by the rules of their language
// references, written out below.

var texts = []string{
	"", "plain", "/tenantId", "it's", `say "hi"`, `back\slash`, `\u0041 \n \x41 \101 \$`,
	"${x} $${y} %{z} %%{w} $HOME `cmd` $(cmd) !x", "line\nbreak\r\ttab\x00nul\x1b\x7f",
	"\u2028\u2029\u0085", "‘curly’ ‚low‛ “double”", "é 日本 ☃ 😀 \U0010FFFF", "[bracketed]", "'",
}

func TestQuoteRoundTrip(t *testing.T) {
	t.Run("json", func(t *testing.T) {
		for _, s := range texts {
			var got string
			if err := json.Unmarshal([]byte(jsonQuote(s)), &got); err != nil || got != s {
				t.Errorf("%q: %q, %v", s, got, err)
			}
		}
	})
	t.Run("go", func(t *testing.T) {
		for _, s := range texts {
			if got, err := strconv.Unquote(goQuote(s)); err != nil || got != s {
				t.Errorf("%q: %q, %v", s, got, err)
			}
		}
	})
	t.Run("bash", func(t *testing.T) {
		bash := testenv.LookPath(t, "bash", "install bash")
		var args []string
		for _, s := range texts {
			if strings.ContainsRune(s, 0) {
				continue // a shell argument cannot hold NUL
			}
			args = append(args, shellQuote(s))
		}
		out, err := run(exec.Command(bash, "-c", `printf '%s\0' `+strings.Join(args, " ")))
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		want := slices.DeleteFunc(slices.Clone(texts), func(s string) bool { return strings.ContainsRune(s, 0) })
		if !slices.Equal(got, want) {
			t.Errorf("got %q\nwant %q", got, want)
		}
	})
	t.Run("python", func(t *testing.T) {
		python := testenv.LookPath(t, "python3", "./build.sh test installs it from Debian's packages (python3)")
		out, err := run(exec.Command(python, "-W", "error", "-c", "import json\nprint(json.dumps(["+list(texts, jsonQuote, ", ")+"]))"))
		checkJSONList(t, out, err)
	})
	t.Run("javascript", func(t *testing.T) {
		node := testenv.LookPath(t, "node", "./build.sh test installs it from Debian's packages (nodejs)")
		out, err := run(exec.Command(node, "-e", "console.log(JSON.stringify(["+list(texts, jsonQuote, ", ")+"]))"))
		checkJSONList(t, out, err)
	})
	t.Run("java", func(t *testing.T) {
		javac, java := testenv.LookPath(t, "javac", jdk), testenv.LookPath(t, "java", jdk)
		dir := t.TempDir()
		src := `public class Q {
    public static void main(String[] args) throws Exception {
        String[] texts = {` + list(texts, javaQuote, ", ") + `};
        java.io.PrintStream out = new java.io.PrintStream(System.out, true, "UTF-8");
        for (String s : texts) {
            StringBuilder b = new StringBuilder();
            for (char c : s.toCharArray()) b.append(String.format("%04x", (int) c));
            out.println(b);
        }
    }
}
`
		file := filepath.Join(dir, "Q.java")
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		// US-ASCII: the literals must not depend on the source encoding.
		if out, err := exec.Command(javac, "-encoding", "US-ASCII", "-d", dir, file).CombinedOutput(); err != nil {
			t.Fatalf("javac: %v\n%s", err, out)
		}
		out, err := run(exec.Command(java, "-cp", dir, "Q"))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
			var want strings.Builder
			for _, u := range utf16Units(texts[i]) {
				fmt.Fprintf(&want, "%04x", u)
			}
			if line != want.String() {
				t.Errorf("%q: Java reads UTF-16 %s", texts[i], line)
			}
		}
	})
	t.Run("terraform", func(t *testing.T) {
		// Terraform reads a string with the HCL library, which evaluates
		// it here in process, escapes, $${ and %%{ and all.
		for _, s := range texts {
			q := hclQuote(s)
			expr, diags := hclsyntax.ParseExpression([]byte(q), "quote.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Errorf("%q: %s does not parse: %v", s, q, diags)
				continue
			}
			v, diags := expr.Value(nil)
			if diags.HasErrors() || !v.Type().Equals(cty.String) || v.AsString() != s {
				t.Errorf("%q: %s reads as %#v (%v)", s, q, v, diags)
			}
		}
	})
	t.Run("powershell", func(t *testing.T) {
		for _, s := range texts {
			if got, ok := psUnquote(psQuote(s)); !ok || got != s {
				t.Errorf("%q: %s reads as %q", s, psQuote(s), got)
			}
		}
	})
	t.Run("bicep", func(t *testing.T) {
		for _, s := range texts {
			if got, ok := bicepUnquote(bicepQuote(s)); !ok || got != s {
				t.Errorf("%q: %s reads as %q", s, bicepQuote(s), got)
			}
		}
	})
	t.Run("csharp", func(t *testing.T) {
		for _, s := range texts {
			q := csQuote(s)
			if got, ok := csUnquote(q); !ok || got != s {
				t.Errorf("%q: %s reads as %q", s, q, got)
			}
			for _, r := range q {
				if r > 0x7e || r < 0x20 {
					t.Errorf("%q: %s is not printable ASCII", s, q)
					break
				}
			}
		}
	})
}

func checkJSONList(t *testing.T, out []byte, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !slices.Equal(got, texts) {
		t.Errorf("got %q\nwant %q", got, texts)
	}
}

func utf16Units(s string) []uint16 {
	var units []uint16
	for _, r := range s {
		if r > 0xffff {
			r -= 0x10000
			units = append(units, uint16(0xd800+(r>>10)), uint16(0xdc00+(r&0x3ff)))
		} else {
			units = append(units, uint16(r))
		}
	}
	return units
}

// psUnquote reads a PowerShell single-quoted string: any of ' and U+2018 to
// U+201B opens and closes it, and two of them in a row stand for one.
func psUnquote(q string) (string, bool) {
	isQuote := func(r rune) bool { return r == '\'' || r >= '\u2018' && r <= '\u201b' }
	rs := []rune(q)
	if len(rs) < 2 || !isQuote(rs[0]) || !isQuote(rs[len(rs)-1]) {
		return "", false
	}
	var b strings.Builder
	for i := 1; i < len(rs)-1; i++ {
		if isQuote(rs[i]) {
			if !isQuote(rs[i+1]) || i+1 == len(rs)-1 {
				return "", false // the string would end here
			}
			i++
		}
		b.WriteRune(rs[i])
	}
	return b.String(), true
}

// bicepUnquote reads a Bicep string: escapes \\ \' \n \r \t \$ \u{X}, no
// unescaped ', line break or ${.
func bicepUnquote(q string) (string, bool) {
	if len(q) < 2 || q[0] != '\'' || q[len(q)-1] != '\'' {
		return "", false
	}
	s := q[1 : len(q)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'' || c == '\n' || c == '\r' || c == '$' && i+1 < len(s) && s[i+1] == '{':
			return "", false
		case c != '\\':
			b.WriteByte(c)
		case i+1 >= len(s):
			return "", false
		default:
			i++
			switch s[i] {
			case '\\', '\'', '$':
				b.WriteByte(s[i])
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				end := strings.IndexByte(s[i:], '}')
				if end < 0 || s[i+1] != '{' {
					return "", false
				}
				n, err := strconv.ParseUint(s[i+2:i+end], 16, 32)
				if err != nil {
					return "", false
				}
				b.WriteRune(rune(n))
				i += end
			default:
				return "", false
			}
		}
	}
	return b.String(), true
}

// csUnquote reads a C# regular string literal: escapes \\ \" \n \r \t
// \uXXXX \UXXXXXXXX, no unescaped " or line break.
func csUnquote(q string) (string, bool) {
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return "", false
	}
	s := q[1 : len(q)-1]
	var b strings.Builder
	var pending []uint16
	flush := func() {
		for len(pending) > 0 {
			if len(pending) > 1 && pending[0] >= 0xd800 && pending[0] < 0xdc00 {
				b.WriteRune(0x10000 + (rune(pending[0])-0xd800)<<10 + rune(pending[1]) - 0xdc00)
				pending = pending[2:]
			} else {
				b.WriteRune(rune(pending[0]))
				pending = pending[1:]
			}
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' || c == '\n' || c == '\r' {
			return "", false
		}
		if c != '\\' {
			flush()
			r, n := utf8.DecodeRuneInString(s[i:])
			b.WriteRune(r)
			i += n - 1
			continue
		}
		if i+1 >= len(s) {
			return "", false
		}
		i++
		switch s[i] {
		case '\\', '"':
			flush()
			b.WriteByte(s[i])
		case 'n', 'r', 't':
			flush()
			b.WriteByte(map[byte]byte{'n': '\n', 'r': '\r', 't': '\t'}[s[i]])
		case 'u', 'U':
			w := 4
			if s[i] == 'U' {
				w = 8
			}
			if i+w >= len(s) {
				return "", false
			}
			n, err := strconv.ParseUint(s[i+1:i+1+w], 16, 32)
			if err != nil {
				return "", false
			}
			if w == 8 {
				flush()
				b.WriteRune(rune(n))
			} else {
				pending = append(pending, uint16(n))
			}
			i += w
		default:
			return "", false
		}
	}
	flush()
	return b.String(), true
}

func TestComment(t *testing.T) {
	for _, s := range texts {
		c := comment(s)
		if strings.ContainsAny(c, "\n\r\u2028\u2029\u0085") || !utf8.ValidString(c) {
			t.Errorf("comment(%q) = %q", s, c)
		}
		if jc := javaComment(s); strings.Contains(strings.ReplaceAll(jc, `\\`, ""), `\`) {
			t.Errorf("javaComment(%q) = %q has a backslash javac could read as an escape", s, jc)
		}
	}
	if got := pathEscape("a b/c?d#e%f'g"); got != "a%20b%2Fc%3Fd%23e%25f%27g" {
		t.Errorf("pathEscape: %q", got)
	}
}
