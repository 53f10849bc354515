package analysis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/advisor"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/paths"
	"github.com/pkcalc/pkcalc/core/report"
)

// allFormats writes r as JSON, text, Markdown and CSV, failing the test if
// any cannot be written.
func allFormats(t *testing.T, r *report.Report) map[string]string {
	t.Helper()
	var jb bytes.Buffer
	if err := report.WriteJSON(&jb, r); err != nil {
		t.Fatalf("JSON: %v", err)
	}
	text, md, csv := renderAll(t, r)
	return map[string]string{"json": jb.String(), "text": text, "markdown": md, "csv": csv}
}

// raw finds the characters no output may carry as they are (human.Unseen
// past C0, which JSON and the tables already escape), at most n of them.
func raw(s string, n int) (at []int) {
	for i, r := range s {
		if r >= 0x7f && human.Unseen(r) && len(at) < n {
			at = append(at, i)
		}
	}
	return at
}

// TestOutputEscapesControlsAndBidi: C1 controls (U+009B starts a
// terminal's escape sequence), the bidirectional formatting characters and
// those that show as nothing or as a plain space (a byte order mark,
// zero-width ones, a no-break space, a soft hyphen, a tag past U+FFFF) in
// property names and values reach no output raw, in any format: each is
// written \uXXXX, as C0 controls are. The JSON still reads back the
// values as they are.
func TestOutputEscapesControlsAndBidi(t *testing.T) {
	names := []string{"\u009b31m", "a\u202egnp.exe", "x\u2066y\u2069", "r\u200fl", "ar\u061c", "del\u007f", "\ufeffISO", "t\u200bx\u00a0", "s\u00adh\U000e0041"}
	values := []string{"v\u009b2J", "v\u202egnp.exe", "\u2067w\u2069", "z\u200e", "q\u0085", "\ufeffb", "n\u00a0b\u200d"}
	var docs []string
	for i := range 60 {
		d := map[string]any{"id": fmt.Sprint(i)}
		for j, n := range names {
			d[n] = fmt.Sprintf("%s%d", values[(i+j)%len(values)], i%4)
		}
		b, _ := json.Marshal(d)
		docs = append(docs, string(b))
	}
	// The queries' text, its errors and the paths of operations too.
	ops := "10 SELECT * FROM c WHERE c.a = '\u202ex\u009b'\n5 SELECT * FROM c WHERE c.\u202eb = 1\n1 read /id /\u2067z\n"
	r, err := Analyze(strings.NewReader(strings.Join(docs, "\n")), Options{Workload: advisor.Workload{Operations: ops}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Operations == nil || len(r.Operations.Errors) != 1 || r.Operations.Errors[0] != "line 2, column 27: unexpected character U+202E" {
		t.Errorf("operations %+v", r.Operations)
	}
	out := allFormats(t, r)
	var table bytes.Buffer // the path table, as the page shows it
	for _, p := range r.Paths {
		fmt.Fprintln(&table, p.Path)
		for _, v := range p.Top {
			fmt.Fprintln(&table, string(v.Value))
		}
	}
	out["paths"] = table.String()
	for format, s := range out {
		for _, at := range raw(s, 3) {
			t.Errorf("%s carries %U raw: %q", format, []rune(s[at:])[0], s[max(0, at-20):min(len(s), at+10)])
		}
	}
	if !strings.Contains(out["text"], "line 2, column 27: unexpected character U+202E") || !strings.Contains(out["text"], `/"\u2067z"`) {
		t.Error("the text lacks the query's error or the read's path, escaped")
	}
	// Each key shows as its escaped path, which key.Parse reads back.
	for _, want := range []string{`/"\u009b31m"`, `/"a\u202egnp.exe"`, `/"x\u2066y\u2069"`, `/"r\u200fl"`, `/"ar\u061c"`, `/"del\u007f"`, `/"\ufeffISO"`, `/"t\u200bx\u00a0"`, `/"s\u00adh\udb40\udc41"`} {
		for _, format := range []string{"json", "text", "markdown", "csv"} {
			s := out[format]
			switch format {
			case "json":
				s = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(s)
			case "csv":
				s = strings.ReplaceAll(s, `""`, `"`)
			}
			if !strings.Contains(s, want) {
				t.Errorf("%s lacks the key %s", format, want)
			}
		}
	}
	// The values in the JSON read back as they were.
	var back report.Report
	if err := json.Unmarshal([]byte(out["json"]), &back); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range back.Candidates {
		for _, l := range c.Largest {
			for _, v := range l.Values {
				if s, ok := v.(string); ok {
					seen[strings.TrimRight(s, "0123456789")] = true
				}
			}
		}
	}
	for _, v := range values {
		if !seen[v] {
			t.Errorf("no largest value %q read back from the JSON (%v)", v, seen)
		}
	}
	// The Markdown shows values as JSON escapes them.
	if !strings.Contains(out["markdown"], `"v\u202egnp.exe`) {
		t.Errorf("markdown lacks the value v\\u202egnp.exe")
	}
}

// codeSpan reads the code span at the start of s as CommonMark does, \|
// being | in a table's cell (GFM); it returns what the span shows and the
// rest of s.
func codeSpan(t *testing.T, s string, cell bool) (string, string) {
	t.Helper()
	n := len(s) - len(strings.TrimLeft(s, "`"))
	if n == 0 {
		t.Fatalf("no code span at %q", s)
	}
	fence := s[:n]
	for i := n; i < len(s); i++ {
		if strings.HasPrefix(s[i:], fence) && (i+n == len(s) || s[i+n] != '`') && s[i-1] != '`' {
			body := s[n:i]
			if cell {
				body = strings.ReplaceAll(body, `\|`, `|`)
			}
			if len(body) >= 2 && body[0] == ' ' && body[len(body)-1] == ' ' && strings.Trim(body, " ") != "" {
				body = body[1 : len(body)-1]
			}
			return body, s[i+n:]
		}
	}
	t.Fatalf("code span not closed in %q", s)
	return "", ""
}

// TestMarkdownKeysShowExactly: a property name with backticks (a lone `,
// runs of them, one at either end) or a | shows in the Markdown's code
// spans as the same key, not one with ' for ` (/"`" read as /"'", another
// property).
func TestMarkdownKeysShowExactly(t *testing.T) {
	names := []string{"`", "``a", "b`", "c`d``e", "p|q", " s "}
	var docs []string
	for i := range 40 {
		d := map[string]any{"id": fmt.Sprint(i)}
		for j, n := range names {
			d[n] = fmt.Sprintf("`v%d|", (i+j)%5)
		}
		b, _ := json.Marshal(d)
		docs = append(docs, string(b))
	}
	o := Options{NoSuggest: true}
	for _, n := range names {
		o.Keys = append(o.Keys, mustKey(t, paths.Format([]string{n})))
	}
	r, err := Analyze(strings.NewReader(strings.Join(docs, "\n")), o)
	if err != nil {
		t.Fatal(err)
	}
	_, md, _ := renderAll(t, r)
	lines := strings.Split(md, "\n")
	for _, c := range r.Candidates {
		spec := c.Key.Spec
		var row, heading bool
		for _, l := range lines {
			if rest, ok := strings.CutPrefix(l, fmt.Sprintf("| %d | ", c.Rank)); ok {
				got, after := codeSpan(t, rest, true)
				if c.Named {
					after, _ = strings.CutPrefix(after, ` \*`) // the mark of a named key
				}
				row = got == spec && strings.HasPrefix(after, " | hash |")
				if !row {
					t.Errorf("table row of %s shows %q (then %q)", spec, got, after)
				}
			}
			if rest, ok := strings.CutPrefix(l, "## "); ok && strings.Contains(l, fmt.Sprintf("— grade %s (%d/100)", c.Grade, c.Score)) {
				if got, _ := codeSpan(t, rest, false); got == spec {
					heading = true
				}
			}
		}
		if !row || !heading {
			t.Errorf("%s: table row shown %v, heading shown %v", spec, row, heading)
		}
	}
	if strings.Contains(md, "'v") {
		t.Errorf("a backtick became ': %s", md)
	}
	// Messages escape backticks rather than change them.
	if !strings.Contains(md, "\\`") {
		t.Errorf("no escaped backtick in the Markdown's messages")
	}
}
