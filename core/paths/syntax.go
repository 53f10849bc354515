package paths

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/pkcalc/pkcalc/core/human"
)

// Format writes property names as a Cosmos DB path: /a/b. A name that is
// not plain letters, digits and underscores is quoted: /"order date"/"a\"b",
// with the characters that do not show as themselves (human.Unseen)
// written as in JSON: /"a\u000ab", /"\u202etxt.exe", /"\ufeffISO".
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
	var b []byte
	b = append(b, '"')
	for i := 0; i < len(name); {
		r, size := utf8.DecodeRuneInString(name[i:])
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', name[i])
		case human.Unseen(r):
			b = appendEscape(b, r)
		default:
			// A byte of invalid UTF-8 too, as Parse reads it back.
			b = append(b, name[i:i+size]...)
		}
		i += size
	}
	return string(append(b, '"'))
}

// appendEscape writes r as JSON escapes it: \uXXXX, or a pair of them
// (UTF-16 surrogates) past U+FFFF.
func appendEscape(b []byte, r rune) []byte {
	if r > 0xffff {
		r1, r2 := utf16.EncodeRune(r)
		return fmt.Appendf(b, `\u%04x\u%04x`, r1, r2)
	}
	return fmt.Appendf(b, `\u%04x`, r)
}

// EscapeJSON returns JSON text with every character human.Unseen reports
// that a JSON encoder leaves raw (all but C0, which it escapes or which is
// white space between values) written \uXXXX. Such characters occur only
// in the text's strings, where \uXXXX is the same character: the text
// holds the same values. It returns text itself when there is nothing to
// escape.
func EscapeJSON[T string | []byte](text T) T {
	var out []byte
	done := 0
	for i := 0; i < len(text); {
		if c := text[i]; c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(string(text[i:min(i+utf8.UTFMax, len(text))]))
		if human.Unseen(r) {
			if out == nil {
				out = make([]byte, 0, len(text)+16)
			}
			out = append(out, text[done:i]...)
			out = appendEscape(out, r)
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

// SplitTop splits s at sep outside double quotes: the paths of a list, or
// of a key's levels and terms, whose quoted names may hold sep.
func SplitTop(s string, sep byte) []string {
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

// ParseList reads paths separated by commas, as Parse reads each:
// "/customerId, /"ship to"/city".
func ParseList(list string) ([][]string, error) {
	var out [][]string
	for _, p := range SplitTop(list, ',') {
		names, err := Parse(strings.TrimSpace(p))
		if err != nil {
			return nil, err
		}
		out = append(out, names)
	}
	return out, nil
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
							j += 4
							// A pair of surrogates, as Format writes a
							// character past U+FFFF, is that character.
							if r2, ok := lowSurrogate(path[j+1:]); ok && utf16.IsSurrogate(rune(r)) {
								if d := utf16.DecodeRune(rune(r), r2); d != utf8.RuneError {
									b.WriteRune(d)
									j += 6
									continue
								}
							}
							b.WriteRune(rune(r))
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

// lowSurrogate reads a \uXXXX escape of a low surrogate at the start of s.
func lowSurrogate(s string) (rune, bool) {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return 0, false
	}
	r, err := strconv.ParseUint(s[2:6], 16, 16)
	if err != nil || r < 0xdc00 || r > 0xdfff {
		return 0, false
	}
	return rune(r), true
}
