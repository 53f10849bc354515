//go:build !js

package ui

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestPageLinksNoEngine: the page's WebAssembly carries Vugu, the report,
// the option table and what presenting needs; the engine runs in its own
// worker (wasm/engine), so the page does not download it a second time.
// go/format went with it: the snippets are written as gofmt writes them.
func TestPageLinksNoEngine(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "github.com/pkcalc/pkcalc/wasm/page")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, p := range []string{"ingest", "partition", "advisor", "query", "aggregate", "analysis", "api", "sketch"} {
		if slices.Contains(deps, "github.com/pkcalc/pkcalc/core/"+p) {
			t.Errorf("the page links core/%s", p)
		}
	}
	if slices.Contains(deps, "go/format") {
		t.Error("the page links go/format")
	}
	if !slices.Contains(deps, "github.com/pkcalc/pkcalc/core/report") {
		t.Error("the page does not link core/report: is the package list right?")
	}
}
