//go:build !js

package ui

import (
	"bytes"
	"go/format"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vugu/vugu/gen"

	"github.com/pkcalc/pkcalc/internal/testenv"
)

// TestGenerated: the committed *_gen.go files are what vugugen makes of the
// .vugu files now, gofmt-formatted (go generate ./ui writes them: vugugen
// tidies imports after its own gofmt pass, so it leaves them unformatted).
// It generates again, with the vugugen that go.mod names, into a copy of
// the package's sources.
// Natively only: vugugen runs gofmt, and WebAssembly starts no processes.
func TestGenerated(t *testing.T) {
	testenv.LookPath(t, "gofmt", "vugugen formats what it writes with gofmt, which comes with Go")
	dir := filepath.Join(t.TempDir(), "ui")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var committed []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case e.IsDir():
		case strings.HasSuffix(name, "_gen.go"):
			committed = append(committed, name)
		case strings.HasSuffix(name, ".go"), strings.HasSuffix(name, ".vugu"):
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := gen.Run(dir, &gen.ParserGoPkgOpts{SkipGoMod: true}); err != nil {
		t.Fatalf("vugugen: %v", err)
	}
	made, err := filepath.Glob(filepath.Join(dir, "*_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range made {
		made[i] = filepath.Base(f)
	}
	if !slices.Equal(made, committed) {
		t.Errorf("vugugen writes %q; committed are %q: run go generate ./ui and commit what it writes", made, committed)
	}
	for _, name := range made {
		raw, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := format.Source(raw)
		if err != nil {
			t.Fatalf("gofmt %s: %v", name, err)
		}
		if got, err := os.ReadFile(name); err != nil || !bytes.Equal(got, want) {
			t.Errorf("ui/%s is not what vugugen makes of the .vugu files (%v): run go generate ./ui and commit it", name, err)
		}
	}
}
