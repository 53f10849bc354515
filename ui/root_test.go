package ui

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/vugu/vugu"
	"github.com/vugu/vugu/staticrender"
)

// render returns the HTML of the page for c, as the browser would build it.
func render(t *testing.T, c *Root) string {
	t.Helper()
	var buf bytes.Buffer
	r := staticrender.New(&buf)
	env, err := vugu.NewBuildEnv(r.EventEnv())
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Render(env.RunBuild(c)); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

type fakeInput struct{ text string }

func (f *fakeInput) SetText(s string) { f.text = s }

func TestSampleFillsTable(t *testing.T) {
	in := &fakeInput{}
	c := &Root{Input: in, Loaded: true}
	c.LoadSample()
	if !strings.HasPrefix(in.text, `{"id":"ord-000001"`) {
		t.Errorf("paste area got %.40q", in.text)
	}
	html := render(t, c)
	for _, want := range []string{
		`Read 2,000 documents (`, `as JSON Lines from the built-in sample`,
		`<code>/tenantId</code>`, `<code>&#34;contoso&#34;</code>`,
		`<code>/items/[]/sku</code>`, `No: inside an array`,
		`<code>/_ts</code><span class="badge">system</span>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	rows := regexp.MustCompile(`<tr class="(usable|unusable)"`).FindAllString(html, -1)
	if len(rows) != 14 {
		t.Errorf("%d path rows, want 14", len(rows))
	}
}

func TestUserDataIsText(t *testing.T) {
	c := &Root{Loaded: true}
	c.Analyse(`{"<img src=x onerror=alert(1)>":"<script>alert(2)</script>"}`+"\n"+`{"a":}`, "pasted text")
	html := render(t, c)
	if strings.Contains(html, "<script>alert") || strings.Contains(html, "<img src=x") {
		t.Fatalf("user data became markup:\n%s", html)
	}
	for _, want := range []string{
		`<code>/&#34;&lt;img src=x onerror=alert(1)&gt;&#34;</code>`,
		`&#34;&lt;script&gt;alert(2)&lt;/script&gt;&#34;`,
		`line 2, column 6 (document 2): expected a JSON value, found &#39;}&#39;`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

func TestStatus(t *testing.T) {
	c := &Root{}
	if got := c.Status(); got != "Loading the engine…" {
		t.Errorf("before load: %q", got)
	}
	c.Loaded = true
	if got := c.Status(); got != "Paste documents or try the sample." {
		t.Errorf("empty: %q", got)
	}
	c.Analyse("[{\"a\":1},{\"a\":2}]", "pasted text")
	if got := c.Status(); !strings.HasPrefix(got, "Read 2 documents (14 B) as JSON array from pasted text in ") {
		t.Errorf("status %q", got)
	}
}

func TestFormat(t *testing.T) {
	tests := []struct{ got, want string }{
		{Count(950), "950"}, {Count(2000), "2,000"}, {Count(-1234), "-1,234"}, {Count(12345), "12.3 k"}, {Count(4_500_000), "4.5 M"},
		{Bytes(512), "512 B"}, {Bytes(1234), "1.2 KB"}, {Bytes(171366), "171 KB"}, {Bytes(2_410_967), "2.4 MB"}, {Bytes(20e9), "20.0 GB"},
		{Percent(1, 3), "33%"}, {Percent(1, 200), "<1%"}, {Percent(3, 3), "100%"}, {Percent(199, 200), ">99%"}, {Percent(5, 100), "5.0%"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q want %q", tt.got, tt.want)
		}
	}
}
