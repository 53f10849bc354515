package provision

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// String literals, one function per target language. Each takes any text and
// returns a literal that evaluates to exactly that text (after invalid UTF-8
// is replaced), so no input can end the literal early or interpolate.

// shellQuote quotes s for bash and other POSIX shells. Plain words stay bare
// for readability; anything else is single-quoted, where only ' is special.
func shellQuote(s string) string {
	s = validUTF8(s)
	plain := s != ""
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_-./:@%+,", c) >= 0
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// psQuote writes a PowerShell single-quoted string. PowerShell takes the
// typographic single quotes U+2018-U+201B as quotes too; each quote is
// escaped by doubling it.
func psQuote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range validUTF8(s) {
		if r == '\'' || r >= '\u2018' && r <= '\u201b' {
			b.WriteRune(r)
		}
		b.WriteRune(r)
	}
	b.WriteByte('\'')
	return b.String()
}

// bicepQuote writes a Bicep string: '…' with \\ \' \$ (so ${ cannot
// interpolate) \n \r \t and \u{…} for other control characters.
func bicepQuote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range validUTF8(s) {
		switch r {
		case '\\', '\'', '$':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u{%X}`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// hclQuote writes a Terraform (HCL) string: "…" with \\ \" \n \r \t and
// \uNNNN escapes, and $${ and %%{ so that no template sequence starts.
func hclQuote(s string) string {
	s = validUTF8(s)
	var b strings.Builder
	b.WriteByte('"')
	for i, r := range s {
		switch r {
		case '\\', '"':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '$', '%':
			b.WriteRune(r)
			if strings.HasPrefix(s[i+1:], "{") {
				b.WriteRune(r)
			}
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// jsonQuote writes a JSON string. It is also a valid Python and JavaScript
// string literal: encoding/json escapes only with \" \\ \n \r \t \uNNNN
// (including U+2028 and U+2029, which end a line in older JavaScript).
func jsonQuote(s string) string {
	return string(jsonBytes(validUTF8(s)))
}

// jsonBytes encodes v as compact JSON without HTML escaping.
func jsonBytes(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only strings, numbers, maps and slices are encoded
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// csQuote writes a C# regular string literal. Non-ASCII characters are
// written as \u escapes so the source is ASCII whatever its encoding.
func csQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range validUTF8(s) {
		switch {
		case r == '\\' || r == '"':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r >= 0x7f && r <= 0xffff:
			fmt.Fprintf(&b, `\u%04X`, r)
		case r > 0xffff:
			fmt.Fprintf(&b, `\U%08X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// javaQuote writes a Java string literal. javac turns \uNNNN escapes into
// characters before it reads the program, so \u is used only for non-ASCII
// characters (never for a quote, a backslash or a line break), and other
// control characters get three-digit octal escapes.
func javaQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range validUTF8(s) {
		switch {
		case r == '\\' || r == '"':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\%03o`, r)
		case r > 0x7f:
			var units [2]uint16
			n := 1
			if r > 0xffff {
				r -= 0x10000
				units[0], units[1], n = uint16(0xd800+(r>>10)), uint16(0xdc00+(r&0x3ff)), 2
			} else {
				units[0] = uint16(r)
			}
			for _, u := range units[:n] {
				fmt.Fprintf(&b, `\u%04X`, u)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// goQuote writes a Go string literal.
func goQuote(s string) string { return strconv.Quote(validUTF8(s)) }

// javaComment is comment for Java, where \u escapes are decoded even inside
// comments: doubling backslashes keeps a name's \u from becoming a line break.
func javaComment(s string) string { return strings.ReplaceAll(comment(s), `\`, `\\`) }

// list joins quoted strings.
func list(ss []string, quote func(string) string, sep string) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = quote(s)
	}
	return strings.Join(out, sep)
}

// pathEscape percent-escapes a URL path segment, keeping only unreserved
// characters, so the result is also plain text to a shell.
func pathEscape(s string) string {
	var b strings.Builder
	for _, c := range []byte(validUTF8(s)) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
