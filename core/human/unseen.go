package human

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Unseen reports whether r does not show as itself where text is printed,
// so that a name or a value holding it would read as another: paths write
// it \uXXXX, and so does every output that shows names and values
// (package paths' Format and EscapeJSON), and a property name holding one
// is noted as it is read. They are:
//
//   - the control characters: C0, DEL and C1 (U+0080 to U+009F), which
//     written raw break a table's line or drive the terminal showing them
//     (ESC and U+009B start its escape sequences), and the line and
//     paragraph separators U+2028 and U+2029;
//   - the format characters (Unicode's category Cf), which show as
//     nothing: the byte order mark U+FEFF (a file's first bytes, kept in
//     its first name by a program that did not expect it), the zero-width
//     space, joiner and non-joiner U+200B to U+200D, the word joiner
//     U+2060, the soft hyphen U+00AD, the tags U+E0001 to U+E007F, and the
//     bidirectional marks, embeddings, overrides and isolates (U+200E,
//     U+200F, U+061C, U+202A to U+202E, U+2066 to U+2069), which reorder
//     the text around them: a name "a\u202egnp.exe" shows as "aexe.png";
//   - the spaces other than U+0020 (category Zs: the no-break space U+00A0,
//     U+2000 to U+200A, U+202F, U+3000, ...), which show as a plain one;
//   - the characters that show as nothing without being format
//     characters: the combining grapheme joiner U+034F, the Hangul fillers
//     U+115F, U+1160, U+3164 and U+FFA0, and the Khmer vowels U+17B4 and
//     U+17B5.
func Unseen(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f, r == 0x2028, r == 0x2029:
		return true
	case r < 0xa0:
		return false
	case r == 0x034f, r == 0x115f, r == 0x1160, r == 0x17b4, r == 0x17b5, r == 0x3164, r == 0xffa0:
		return true
	}
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zs, r)
}

// UnseenName names r, which Unseen reports, for a message: "a byte order
// mark (U+FEFF)".
func UnseenName(r rune) string {
	name, ok := unseenNames[r]
	switch {
	case ok:
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		name = "a bidirectional control"
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		name = "a control character"
	case r >= 0xe0000 && r <= 0xe007f:
		name = "a tag character"
	case unicode.Is(unicode.Zs, r):
		name = "a space other than the plain one"
	default:
		name = "an invisible character"
	}
	return fmt.Sprintf("%s (%U)", name, r)
}

// unseenNames names the characters Unseen reports that have a name of
// their own; UnseenName names the rest by their kind.
var unseenNames = map[rune]string{
	0xfeff: "a byte order mark",
	0x200b: "a zero-width space",
	0x200c: "a zero-width non-joiner",
	0x200d: "a zero-width joiner",
	0x2060: "a word joiner",
	0x00ad: "a soft hyphen",
	0x00a0: "a no-break space",
	0x202f: "a narrow no-break space",
	0x200e: "a left-to-right mark",
	0x200f: "a right-to-left mark",
	0x061c: "a right-to-left mark",
	0x2028: "a line separator",
	0x2029: "a paragraph separator",
	'\t':   "a tab",
	'\n':   "a line feed",
	'\r':   "a carriage return",
}

func seen(r rune) bool { return !Unseen(r) }

// UnseenIn describes the characters of s that Unseen reports, and where
// they are in it: `a byte order mark (U+FEFF) before "ISO"`, `a
// zero-width space (U+200B) inside "tenantId"`. It returns "" when s holds
// none. visible is s without them, as it shows.
func UnseenIn(s string) (desc, visible string) {
	var names []string
	var b strings.Builder
	for _, r := range s {
		if !Unseen(r) {
			b.WriteRune(r)
			continue
		}
		if n := UnseenName(r); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if names == nil {
		return "", s
	}
	visible = b.String()
	what := names[0]
	switch n := len(names); {
	case n == 2:
		what += " and " + names[1]
	case n == 3:
		what += ", " + names[1] + " and " + names[2]
	case n > 3:
		what += ", " + names[1] + " and " + strconv.Itoa(n-2) + " others"
	}
	if visible == "" {
		return "only " + what, ""
	}
	// Where: before the visible text, after it, both, or inside it.
	head := strings.IndexFunc(s, seen)
	tail := strings.LastIndexFunc(s, seen)
	_, size := utf8.DecodeRuneInString(s[tail:])
	before, after := head > 0, tail+size < len(s)
	inside := strings.ContainsFunc(s[head:tail+size], Unseen)
	where := " in "
	switch {
	case inside && !before && !after:
		where = " inside "
	case inside:
	case before && after:
		where = " around "
	case before:
		where = " before "
	case after:
		where = " after "
	}
	return what + where + strconv.Quote(visible), visible
}
