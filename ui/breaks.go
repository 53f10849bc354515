package ui

import (
	"html"
	"strings"

	"github.com/vugu/vugu"
)

// longestRun is the most characters a key or path is written without a
// place to break: a longer property name (they can be hundreds) breaks
// every longestRun characters where it must, so that a table column that
// holds it need not be wider than 32 characters of code (about 270 px).
const longestRun = 32

// Breakable writes a key or a path as text that wraps only between its
// parts: before each "/", after each "," and "+", and inside a name only
// every longestRun characters. The places are <wbr> elements, which
// copying leaves out; the browser's own breaking (overflow-wrap) breaks
// wherever the column ends, "/movie" and "_id" on two lines. The parts
// are HTML-escaped as vg-content escapes text: only <wbr> is markup.
func Breakable(s string) vugu.HTML {
	var b strings.Builder
	start, run := 0, 0
	for i, r := range s {
		if i > 0 && (s[i-1] == ',' || s[i-1] == '+' || r == '/' || run >= longestRun) {
			b.WriteString(html.EscapeString(s[start:i]) + "<wbr>")
			start, run = i, 0
		}
		run++
	}
	b.WriteString(html.EscapeString(s[start:]))
	return vugu.HTML(b.String())
}
