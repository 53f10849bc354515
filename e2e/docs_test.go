package e2e

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestDocumentedOptions: the options README's JavaScript API lists, and
// the address parameters of docs/EMBED.md, are those pkcalc.js takes (the
// address all but inputFormat, and sample). README used to leave out growthGbPerDay
// and retentionDays.
func TestDocumentedOptions(t *testing.T) {
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	m := regexp.MustCompile(`(?s)var names = \[(.*?)\];`).FindStringSubmatch(read("../public/pkcalc.js"))
	if m == nil {
		t.Fatal("pkcalc.js: no list of option names")
	}
	var options []string
	for _, q := range regexp.MustCompile(`"(\w+)"`).FindAllStringSubmatch(m[1], -1) {
		options = append(options, q[1])
	}
	slices.Sort(options)
	names := func(text string) []string {
		var out []string
		for _, q := range regexp.MustCompile("`([a-z][A-Za-z]*)(?:=[^`]*)?`").FindAllStringSubmatch(text, -1) {
			if !slices.Contains(out, q[1]) {
				out = append(out, q[1])
			}
		}
		slices.Sort(out)
		return out
	}

	readme := read("../README.md")
	i, j := strings.Index(readme, "The options are the\ncommand line's flags in camelCase:"), strings.Index(readme, "plus `onProgress(")
	if i < 0 || j < i {
		t.Fatal("README: the JavaScript API's options are not where they were")
	}
	if got := names(readme[i:j]); !slices.Equal(got, options) {
		t.Errorf("README's JavaScript API lists %q; pkcalc.js takes %q", got, options)
	}

	embed := read("../docs/EMBED.md")
	i, j = strings.Index(embed, "| parameter | meaning |"), strings.Index(embed, "## Messages")
	if i < 0 || j < i {
		t.Fatal("EMBED.md: the table of parameters is not where it was")
	}
	want := append(slices.DeleteFunc(slices.Clone(options), func(s string) bool { return s == "inputFormat" || s == "workers" }), "sample")
	slices.Sort(want)
	got := names(embed[i:j])
	if !slices.Equal(got, want) {
		t.Errorf("EMBED.md's address takes %q; pkcalc.js %q and sample", got, want)
	}
}
