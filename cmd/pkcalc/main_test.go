package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/options"
	"github.com/pkcalc/pkcalc/core/sample"
)

func TestPathsText(t *testing.T) {
	var out, errs bytes.Buffer
	code := run([]string{"paths", "testdata/orders.jsonl"}, nil, &out, &errs)
	if code != 1 {
		t.Errorf("exit %d, want 1 (the input has a problem)", code)
	}
	if want := "testdata/orders.jsonl: line 3, column 22 (document 3): expected a JSON value, found '}'\n"; errs.String() != want {
		t.Errorf("stderr %q, want %q", errs.String(), want)
	}
	for _, want := range []string{
		"testdata/orders.jsonl: 3 documents (97 B), read as JSON Lines",
		"/tenantId      string  3     2         \"a\"×2 \"b\"×1        yes\n",
		// Distinct values are counted among scalars: an array has none.
		"/lines         array   1     –                            no: holds arrays in 1 document: a key value",
		"/lines/[]/sku  string  1     1         \"x\"×1              no: inside an array",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestPathsJSONStdin(t *testing.T) {
	var out, errs bytes.Buffer
	code := run([]string{"paths", "--format", "json", "-"}, strings.NewReader(`[{"id":"1","n":1},{"id":"2","n":1.0}]`), &out, &errs)
	if code != 0 || errs.Len() > 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	var got struct {
		Documents int
		Format    string
		Paths     []struct {
			Path     string
			Distinct int
			Usable   bool
			Top      []struct {
				Value json.RawMessage
				Count int
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Documents != 2 || got.Format != "JSON array" || len(got.Paths) != 2 || got.Paths[1].Path != "/n" || got.Paths[1].Distinct != 1 || string(got.Paths[1].Top[0].Value) != "1" || got.Paths[1].Top[0].Count != 2 {
		t.Errorf("got %+v", got)
	}
}

func TestUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 2, "Usage:"},
		{[]string{"frobnicate"}, 2, "pkcalc: unknown command \"frobnicate\"\nRun 'pkcalc help' for the commands.\n"},
		{[]string{"paths"}, 2, "Usage: pkcalc paths"},
		{[]string{"paths", "--format", "xml", "x"}, 2, "pkcalc paths: --format must be text or json, not \"xml\"\nRun 'pkcalc paths --help' for the flags.\n"},
		{[]string{"paths", "--input-format", "xml", "x"}, 2, "--input-format must be json or csv"},
		{[]string{"paths", "--format", "json"}, 2, "pkcalc paths: name a FILE of documents, or - for standard input\n"},
		{[]string{"paths", "testdata/missing.json"}, 1, "no such file"},
		{[]string{"serve", "--dir", "testdata"}, 1, "has no index.html: build the site first"},
		{[]string{"serve", "--port", "80"}, 2, "pkcalc serve: flag provided but not defined: -port\nRun 'pkcalc serve --help' for the flags.\n"},
		{[]string{"serve", "--max-body", "-5"}, 2, "pkcalc serve: --max-body must be 0 (no limit) or more bytes, not -5\n"},
		{[]string{"serve", "--max-analyses", "-1"}, 2, "pkcalc serve: --max-analyses must be 0 (no bound) or more, not -1\n"},
		{[]string{"bundle", "dist"}, 2, "unexpected argument \"dist\": give the file with --out"},
		{[]string{"ranges", "--partitions", "x"}, 2, "pkcalc ranges: invalid value \"x\" for flag -partitions: not a whole number\n"},
		{[]string{"sample", "--count", "2e3", "orders"}, 2, "pkcalc sample: invalid value \"2e3\" for flag -count: not a whole number in digits (such as 400)\n"},
		{[]string{"serve", "--max-body", "1GB"}, 2, "pkcalc serve: invalid value \"1GB\" for flag -max-body: not a whole number\n"},
		{[]string{"epk", "--hash-version", "99999999999999999999", "[1]"}, 2, "pkcalc epk: invalid value \"99999999999999999999\" for flag -hash-version: out of range: at most 9,223,372,036,854,775,807\n"},
		{[]string{"epk", "--hash-version", "3", "[1]"}, 2, "pkcalc epk: --hash-version must be 1 or 2, not 3\nRun 'pkcalc epk --help'"},
	} {
		var out, errs bytes.Buffer
		code := run(tt.args, nil, &out, &errs)
		if code != tt.code || !strings.Contains(errs.String(), tt.msg) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tt.args, code, errs.String(), tt.code, tt.msg)
		}
		// An error stays on screen: the hint, not forty lines of flags.
		if len(tt.args) > 1 && strings.Contains(errs.String(), "Flags:") {
			t.Errorf("%q: the error is followed by the usage:\n%s", tt.args, errs.String())
		}
	}
}

// TestServeBusyPort: a port another program holds is named, with what to
// do, rather than the system's "bind: address already in use".
func TestServeBusyPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal("no loopback port to hold:", err)
	}
	defer ln.Close()
	var out, errs bytes.Buffer
	addr := ln.Addr().String()
	code := run([]string{"serve", "--dir", "../..", "--addr", addr}, nil, &out, &errs)
	if want := "pkcalc serve: " + addr + " is in use by another program"; code != 1 || !strings.Contains(errs.String(), want) || !strings.Contains(errs.String(), "--port") {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, errs.String(), want)
	}
}

// TestHelp: asked for, the usage goes to standard output with exit 0, for
// every command.
// TestHelpNamesNumbers: the usage names what each number flag takes.
func TestHelpNamesNumbers(t *testing.T) {
	var out, errs bytes.Buffer
	run([]string{"analyze", "--help"}, nil, &out, &errs)
	for _, want := range []string{"-max-distinct values", "-ru RU/s", "-read-ru RU", "-target-gb GB", "-workers number", "-doc-bytes bytes"} {
		if !strings.Contains(out.String(), "  "+want+"\n") {
			t.Errorf("analyze --help has no line %q:\n%s", want, out.String())
		}
	}
	// Every command's number flags name their value, which the flag
	// package would call "value" for wholeFlag, realFlag and numberFlag.
	for _, cmd := range [][]string{{"analyze"}, {"paths"}, {"epk"}, {"ranges"}, {"sample"}, {"serve"}, {"bundle"},
		{"plan", "scale"}, {"plan", "redistribute"}, {"plan", "burst"}, {"plan", "ingest"}, {"plan", "migrate"}, {"plan", "hierarchy"}} {
		var out, errs bytes.Buffer
		run(append(cmd, "--help"), nil, &out, &errs)
		for line := range strings.Lines(out.String()) {
			if strings.HasPrefix(line, "  -") && strings.HasSuffix(line, " value\n") {
				t.Errorf("%s --help names no value: %q", strings.Join(cmd, " "), line)
			}
		}
		if !strings.Contains(out.String(), "Flags:") {
			t.Errorf("%s --help lists no flags:\n%s", strings.Join(cmd, " "), out.String())
		}
	}
	// numberFlag's usage names its value from the help alone.
	for _, o := range options.All {
		if (o.Kind == options.Count || o.Kind == options.Number) && !strings.Contains(o.Help, "`") {
			t.Errorf("the help of --%s names no value in backquotes: %q", o.Flag, o.Help)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, cmd := range []string{"analyze", "paths", "epk", "ranges", "aggregate-query", "diagnose-query", "serve", "bundle", "sample"} {
		for _, flag := range []string{"-h", "--help"} {
			var out, errs bytes.Buffer
			code := run([]string{cmd, flag}, nil, &out, &errs)
			if code != 0 || errs.Len() > 0 || !strings.HasPrefix(out.String(), "Usage: pkcalc "+cmd) || !strings.Contains(out.String(), "Flags:") {
				t.Errorf("%s %s: exit %d, stderr %q, stdout %q", cmd, flag, code, errs.String(), out.String())
			}
		}
	}
}

func TestPathsCSV(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "docs.CSV") // the extension in any case
	os.WriteFile(file, []byte("id,t\n1,a\n2,b\n"), 0o644)
	for _, tt := range []struct {
		args  []string
		stdin string
		want  string
		code  int
	}{
		{[]string{"paths", file}, "", file + ": 2 documents (32 B), read as CSV", 0},
		{[]string{"paths", "--input-format", "csv", "-"}, "id,t\n1,a\n", "-: 1 document (16 B), read as CSV", 0},
		// Told, the name does not decide.
		{[]string{"paths", "--input-format", "json", file}, "", "read as empty", 1},
	} {
		code, out, errs := runCmd(t, tt.stdin, tt.args...)
		if code != tt.code || !strings.Contains(out, tt.want) {
			t.Errorf("%q: exit %d, stderr %q, output:\n%s\nwant %q", tt.args, code, errs, out, tt.want)
		}
	}
	// JSON that looks like CSV names the command line's remedies.
	code, _, errs := runCmd(t, "id,t\n1,a\n", "paths", "-")
	if want := "read it as CSV: name the file .csv, or give --input-format csv"; code != 1 || !strings.Contains(errs, want) {
		t.Errorf("stdin CSV as JSON: exit %d, stderr %q; want %q", code, errs, want)
	}
}

// TestPathsNumbers: counts are written with thousands separators.
func TestPathsNumbers(t *testing.T) {
	code, out, errs := runCmd(t, sample.OrdersText(1500), "paths", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"-: 1,500 documents (", "KB), read as JSON Lines", "string  1,500  1,500 ", "\"delivered\"×1,067"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestPathsJSONSeveral: several files make one JSON document, an array of
// the objects one file gives.
func TestPathsJSONSeveral(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "b.csv")
	os.WriteFile(csv, []byte("id,t\n1,a\n"), 0o644)
	code, out, errs := runCmd(t, "", "paths", "--format", "json", "testdata/orders.jsonl", csv)
	if code != 1 || !strings.Contains(errs, "testdata/orders.jsonl: line 3") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	var got []struct {
		File      string
		Format    string
		Documents int
		Errors    []string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if len(got) != 2 || got[0].File != "testdata/orders.jsonl" || got[0].Documents != 3 || len(got[0].Errors) != 1 ||
		got[1].File != csv || got[1].Format != "CSV" || got[1].Documents != 1 {
		t.Errorf("%+v", got)
	}
}

// TestPathsUnreadable: a file that cannot be opened or read keeps its place
// in the JSON with why, and the text shows no empty table for it; the
// other files are still described.
func TestPathsUnreadable(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.json")
	code, out, errs := runCmd(t, "", "paths", "--format", "json", missing, dir, "testdata/orders.jsonl")
	if code != 1 || !strings.Contains(errs, "no such file") || !strings.Contains(errs, "is a directory") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	var got []struct {
		File      string
		Format    string
		Documents int
		Errors    []string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if len(got) != 3 || got[0].File != missing || got[0].Format != "not read" || len(got[0].Errors) != 1 || !strings.Contains(got[0].Errors[0], "no such file") ||
		got[1].File != dir || got[1].Format != "not read" || len(got[1].Errors) != 1 || !strings.Contains(got[1].Errors[0], "is a directory") || got[2].Documents != 3 {
		t.Errorf("%+v", got)
	}
	code, out, _ = runCmd(t, "", "paths", dir, "testdata/orders.jsonl")
	if code != 1 || strings.Contains(out, dir) || !strings.Contains(out, "testdata/orders.jsonl: 3 documents") {
		t.Errorf("exit %d, text:\n%s", code, out)
	}
}

// TestPathsNotes: values read with a change are said, in the text (on
// standard error, beside the problems) and in the JSON; the exit is 0, as
// the documents were kept.
func TestPathsNotes(t *testing.T) {
	in := "{\"a\":1,\"a\":2}\n{\"a\":\"caf\xe9\"}\n"
	note1 := `line 1, column 14 (document 1): property "a" appears more than once in an object; the last one counts`
	note2 := "line 2, column 6 (document 2): a string that is not valid UTF-8; the bad bytes read as U+FFFD"
	code, _, errs := runCmd(t, in, "paths", "-")
	if code != 0 || errs != "-: note: "+note1+"\n-: note: "+note2+"\n" {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	code, out, _ := runCmd(t, in, "paths", "--format", "json", "-")
	var got struct{ Notes []string }
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 || !slices.Equal(got.Notes, []string{note1, note2}) {
		t.Errorf("exit %d, notes %q (%v)", code, got.Notes, err)
	}
}

// TestPathsManyProblems: past the 100 problems listed, the text says how
// many more there are and the JSON counts them all.
func TestPathsManyProblems(t *testing.T) {
	in := strings.Repeat("{\"a\":}\n{\"a\":1}\n", 150)
	code, _, errs := runCmd(t, in, "paths", "-")
	if code != 1 || !strings.HasSuffix(errs, "-: and 50 more problems\n") {
		t.Errorf("exit %d, stderr ends %q", code, errs[max(0, len(errs)-80):])
	}
	_, out, _ := runCmd(t, in, "paths", "--format", "json", "-")
	var got struct {
		Errors     []string
		ErrorCount int
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Errors) != 100 || got.ErrorCount != 150 {
		t.Errorf("%d errors listed, %d counted (%v)", len(got.Errors), got.ErrorCount, err)
	}
}

func TestSiteHandler(t *testing.T) {
	srv := httptest.NewServer(siteHandler("testdata/site"))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/main.wasm")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want, _ := os.ReadFile("testdata/site/main.wasm")
	// Go's client asks for gzip and unpacks it: the .gz beside the file was sent.
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "application/wasm" || !resp.Uncompressed || !bytes.Equal(body, want) {
		t.Errorf("main.wasm: %d %q gzip %v body %q", resp.StatusCode, ct, resp.Uncompressed, body)
	}
	resp, err = http.Post(srv.URL+"/", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", resp.StatusCode)
	}
}

// TestSiteEncodings: the precompressed file the browser takes is sent,
// brotli before gzip; q=0 refuses a coding.
func TestSiteEncodings(t *testing.T) {
	srv := httptest.NewServer(siteHandler("testdata/site"))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	for _, tt := range []struct {
		accept, encoding, file string
	}{
		{"gzip, deflate, br, zstd", "br", "main.wasm.br"},
		{"br", "br", "main.wasm.br"},
		{"gzip", "gzip", "main.wasm.gz"},
		{"br;q=0, gzip;q=0.8", "gzip", "main.wasm.gz"},
		{"br; q=0.0, gzip; q=0", "", "main.wasm"},
		{"", "", "main.wasm"},
		{"identity", "", "main.wasm"},
	} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/main.wasm", nil)
		if tt.accept != "" {
			req.Header.Set("Accept-Encoding", tt.accept)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		want, _ := os.ReadFile("testdata/site/" + tt.file)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != tt.encoding || resp.Header.Get("Content-Type") != "application/wasm" ||
			resp.Header.Get("Vary") != "Accept-Encoding" || !bytes.Equal(body, want) {
			t.Errorf("Accept-Encoding %q: %d, Content-Encoding %q, Content-Type %q, body %q; want %q and %s",
				tt.accept, resp.StatusCode, resp.Header.Get("Content-Encoding"), resp.Header.Get("Content-Type"), body, tt.encoding, tt.file)
		}
	}
}

func TestBundleEscaping(t *testing.T) {
	if got := inlineScript(`a("</script><b>")`); got != "<script>\na(\"<\\/script><b>\")\n</script>" {
		t.Errorf("inlineScript: %q", got)
	}
	if got := jsString("a\"b\\c\n</script>\u2028"); got != `"a\"b\\c\n\u003c/script>\u2028"` {
		t.Errorf("jsString: %s", got)
	}
	var out, errs bytes.Buffer
	if code := run([]string{"bundle", "--dir", "testdata/site", "--out", t.TempDir() + "/x.html"}, nil, &out, &errs); code != 1 || !strings.Contains(errs.String(), "build the site first") {
		t.Errorf("bundle of an incomplete site: %d %q", code, errs.String())
	}
}
