package ui

import (
	"strings"
	"testing"
)

func TestBreakable(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/movie_id", "/movie_id"},
		{"/tenantId,/userId,/id", "/tenantId,<wbr>/userId,<wbr>/id"},
		{"/deviceId+/ts:day", "/deviceId+<wbr>/ts:day"},
		{"/tenantId+hash(/id)%8", "/tenantId+<wbr>hash(<wbr>/id)%8"},
		{"/a/[]/b", "/a<wbr>/[]<wbr>/b"},
		{"", ""},
		// Markup in a name stays text.
		{`/<script>alert("x")</script>`, `/&lt;script&gt;alert(&#34;x&#34;)&lt;<wbr>/script&gt;`},
		// A name longer than longestRun breaks every longestRun characters.
		{"/" + strings.Repeat("p", 70), "/" + strings.Repeat("p", 31) + "<wbr>" + strings.Repeat("p", 32) + "<wbr>" + strings.Repeat("p", 7)},
		{"/é" + strings.Repeat("ü", 40), "/é" + strings.Repeat("ü", 30) + "<wbr>" + strings.Repeat("ü", 10)},
	} {
		if got := string(Breakable(c.in)); got != c.want {
			t.Errorf("Breakable(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
