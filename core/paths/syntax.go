package paths

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Format writes property names as a Cosmos DB path: /a/b. A name that is
// not plain letters, digits and underscores is quoted: /"order date"/"a\"b",
// with the characters Escaped names written as in JSON: /"a\u000ab",
// /"\u202etxt.exe".
func Format(names []string) string {
	var b strings.Builder
	for _, n := range names {
		b.WriteByte('/')
		b.WriteString(quote(n))
	}
	return b.String()
}

func quote(name string) string {
	if plain(name) {
		return name
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(name); {
		r, size := utf8.DecodeRuneInString(name[i:])
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteByte(name[i])
		case Escaped(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			// A byte of invalid UTF-8 too, as Parse reads it back.
			b.WriteString(name[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

// Escaped reports whether r is written \uXXXX, not as it is, in a path
// (Format) and in the values shown beside one (EscapeJSON), so that no
// report shows a name or a value other than it is:
//
//   - the control characters: C0, DEL and C1 (U+0080 to U+009F), which
//     written raw break a table's line or drive the terminal showing them
//     (ESC and U+009B start its escape sequences), and the line and
//     paragraph separators U+2028 and U+2029;
//   - the bidirectional formatting characters: the marks U+200E, U+200F
//     and U+061C, the embeddings and overrides U+202A to U+202E and the
//     isolates U+2066 to U+2069, which reorder the text around them: a
//     name "a\u202egnp.exe" shows as "aexe.png".
func Escaped(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r == 0x2028, r == 0x2029:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// EscapeJSON returns JSON text with every character Escaped names that a
// JSON encoder leaves raw (all but C0, which it escapes or which is white
// space between values) written \uXXXX. Such characters occur only in the
// text's strings, where \uXXXX is the same character: the text holds the
// same values. It returns text itself when there is nothing to escape.
func EscapeJSON[T string | []byte](text T) T {
	var out []byte
	done := 0
	for i := 0; i < len(text); {
		if c := text[i]; c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(string(text[i:min(i+utf8.UTFMax, len(text))]))
		if Escaped(r) {
			if out == nil {
				out = make([]byte, 0, len(text)+16)
			}
			out = append(out, text[done:i]...)
			out = fmt.Appendf(out, `\u%04x`, r)
			done = i + size
		}
		i += size
	}
	if out == nil {
		return text
	}
	return T(append(out, text[done:]...))
}

func plain(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// Parse reads a Cosmos DB path such as /a/b or /"a b"/c into its property
// names; in quotes, \uXXXX is a character and \ takes the next one as it
// is. Array steps ([] or [0]) are refused: a partition key path names a
// single value.
func Parse(path string) ([]string, error) {
	if path == "" {
		return nil, fmt.Errorf("empty path: a path starts with '/', as in /tenantId")
	}
	if path[0] != '/' {
		return nil, fmt.Errorf("path %q must start with '/', as in /%s", path, path)
	}
	var names []string
	i := 0
	for i < len(path) {
		// path[i] == '/'
		i++
		if i >= len(path) {
			return nil, fmt.Errorf("path %q ends with '/': a property name must follow it", path)
		}
		if path[i] == '"' {
			var b strings.Builder
			j := i + 1
			for ; j < len(path) && path[j] != '"'; j++ {
				if path[j] == '\\' && j+1 < len(path) {
					j++
					if path[j] == 'u' && j+5 <= len(path) {
						if r, err := strconv.ParseUint(path[j+1:j+5], 16, 16); err == nil {
							b.WriteRune(rune(r))
							j += 4
							continue
						}
					}
				}
				b.WriteByte(path[j])
			}
			if j >= len(path) {
				return nil, fmt.Errorf("path %q: the quote at character %d is not closed", path, i+1)
			}
			names = append(names, b.String())
			i = j + 1
			if i < len(path) && path[i] != '/' {
				return nil, fmt.Errorf("path %q: expected '/' after the quoted name at character %d", path, i+1)
			}
			continue
		}
		j := strings.IndexByte(path[i:], '/')
		if j < 0 {
			j = len(path) - i
		}
		name := path[i : i+j]
		switch {
		case name == "":
			return nil, fmt.Errorf("path %q has an empty step at character %d", path, i+1)
		case strings.HasPrefix(name, "[") || name == "*" || name == "?":
			return nil, fmt.Errorf("path %q steps into an array or a wildcard (%s): a partition key path names one value per item", path, name)
		}
		names = append(names, name)
		i += j
	}
	return names, nil
}
