package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/internal/testenv"
)

func TestScript(t *testing.T) {
	for _, tt := range []struct{ src, want, err string }{
		{"package p\n\nconst jsHelperScript = \"(function(){\\\"a\\\"})()\"\n", `(function(){"a"})()`, ""},
		{"package p\n\nconst (\n\tx = 1\n\tjsHelperScript = `raw`\n)\n", "raw", ""},
		{"package p\n\nconst other = \"x\"\n", "", "no constant jsHelperScript"},
		{"package p\n\nvar jsHelperScript = \"x\"\n", "", "no constant jsHelperScript"},
		{"package p\n\nconst jsHelperScript = 1\n", "", "not a string literal"},
		{"package p\n\nconst jsHelperScript = \"a\" + \"b\"\n", "", "not a string literal"},
		{"package p\n\nconst jsHelperScript = \"\"\n", "", "is empty"},
	} {
		got, err := script("x.go", []byte(tt.src))
		if got != tt.want || (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%q: %q, %v; want %q, %q", tt.src, got, err, tt.want, tt.err)
		}
	}
}

// TestVugu writes the script of the Vugu that go.mod names: Vugu's
// renderer, whole, and nothing else.
func TestVugu(t *testing.T) {
	testenv.LookPath(t, "go", "go test puts the go command of its GOROOT on PATH")
	out := filepath.Join(t.TempDir(), "vugu-render.js")
	if b, err := exec.Command("go", "run", ".", "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); !strings.HasPrefix(s, "(function(){if(window.vuguRender)return;") || !strings.HasSuffix(s, "})()\n") || !strings.Contains(s, "window.vuguRender=function()") {
		t.Errorf("not Vugu's renderer script: %.100q…%q", s, s[max(0, len(s)-20):])
	}
}
