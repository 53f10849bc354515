package paths

import (
	"fmt"
	"strconv"
	"strings"
)

// Format writes property names as a Cosmos DB path: /a/b. A name that is
// not plain letters, digits and underscores is quoted: /"order date"/"a\"b",
// with control characters escaped as in JSON: /"a\u000ab".
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
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			// Written raw, a control character in a name would break
			// the line of a table or drive the terminal showing it.
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
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
