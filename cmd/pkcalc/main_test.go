package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
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
		"testdata/orders.jsonl: 3 documents, 97 bytes, read as JSON Lines",
		"/tenantId      string  3     2         \"a\"×2 \"b\"×1        yes\n",
		"/lines         array   1     0                            no: holds arrays in 1 document: a key value",
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
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"paths"}, 2, "Usage: pkcalc paths"},
		{[]string{"paths", "--format", "xml", "x"}, 2, "--format must be text or json"},
		{[]string{"paths", "testdata/missing.json"}, 1, "no such file"},
		{[]string{"serve", "--dir", "testdata"}, 1, "has no index.html: build the site first"},
	} {
		var out, errs bytes.Buffer
		if code := run(tt.args, nil, &out, &errs); code != tt.code || !strings.Contains(errs.String(), tt.msg) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tt.args, code, errs.String(), tt.code, tt.msg)
		}
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
