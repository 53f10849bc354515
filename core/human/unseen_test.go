package human

import (
	"testing"
	"unicode"
)

// TestUnseen: the characters that show as nothing, as another or as a
// plain space, and only those, are unseen.
func TestUnseen(t *testing.T) {
	for _, r := range []rune{
		0, '\t', '\n', 0x1b, 0x7f, 0x85, 0x9b, // controls
		0xfeff, 0x200b, 0x200c, 0x200d, 0x2060, 0x00ad, 0x180e, 0xfff9, // format characters
		0x200e, 0x200f, 0x061c, 0x202a, 0x202e, 0x2066, 0x2069, // bidirectional
		0xe0001, 0xe0041, 0xe007f, // tags
		0x00a0, 0x2000, 0x2007, 0x200a, 0x202f, 0x205f, 0x3000, 0x1680, // spaces
		0x2028, 0x2029, // separators
		0x034f, 0x115f, 0x1160, 0x3164, 0xffa0, 0x17b4, 0x17b5, // blank without being Cf
	} {
		if !Unseen(r) {
			t.Errorf("Unseen(%U) = false", r)
		}
	}
	for _, r := range []rune{' ', 'a', '~', 0xe9, 0x0301, 0x65e5, 0x1f600, 0xfffd, 0xfe0f, 0x2764, 0x00b7} {
		if Unseen(r) {
			t.Errorf("Unseen(%U) = true", r)
		}
	}
	// Every format character is unseen, and every other Zs than U+0020.
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if (unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zs, r) && r != ' ') && !Unseen(r) {
			t.Fatalf("Unseen(%U) = false", r)
		}
	}
}

func TestUnseenIn(t *testing.T) {
	for _, tt := range []struct{ in, desc, visible string }{
		{"ISO", "", "ISO"},
		{"", "", ""},
		{"\ufeffISO", `a byte order mark (U+FEFF) before "ISO"`, "ISO"},
		{"tenant\u200bId", `a zero-width space (U+200B) inside "tenantId"`, "tenantId"},
		{"name\u00a0", `a no-break space (U+00A0) after "name"`, "name"},
		{"\u200b\u200b", "only a zero-width space (U+200B)", ""},
		{"\ufeffa\u200db", `a byte order mark (U+FEFF) and a zero-width joiner (U+200D) in "ab"`, "ab"},
		{"co\u00adop\u2060x\u200c", `a soft hyphen (U+00AD), a word joiner (U+2060) and a zero-width non-joiner (U+200C) in "coopx"`, "coopx"},
		{"a\u202egnp.exe", `a bidirectional control (U+202E) inside "agnp.exe"`, "agnp.exe"},
		{"a\u200bb\u200cc\u200dd\u2060e", `a zero-width space (U+200B), a zero-width non-joiner (U+200C) and 2 others inside "abcde"`, "abcde"},
		{"x\U000e0041\U000e0042", `a tag character (U+E0041) and a tag character (U+E0042) after "x"`, "x"},
		{"\u2066region\u2069", `a bidirectional control (U+2066) and a bidirectional control (U+2069) around "region"`, "region"},
		{"a\tb", `a tab (U+0009) inside "ab"`, "ab"},
		{"größe\u3000", `a space other than the plain one (U+3000) after "größe"`, "größe"},
	} {
		desc, visible := UnseenIn(tt.in)
		if desc != tt.desc || visible != tt.visible {
			t.Errorf("UnseenIn(%q) = %q, %q; want %q, %q", tt.in, desc, visible, tt.desc, tt.visible)
		}
	}
}
