// Vuguscript writes Vugu's DOM renderer script, the jsHelperScript
// constant of github.com/vugu/vugu/domrender at the version go.mod names,
// to a file, so that the page can load it as a script of its own instead
// of letting Vugu eval() it: the Content-Security-Policy then needs no
// 'unsafe-eval'. build.sh runs it; it is no part of the pkcalc command.
//
// Usage:
//
//	go run ./internal/cmd/vuguscript -o FILE
//
// It reads the constant from Vugu's source, found with go list, and writes
// it as it is, with a line end after it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// The package and file that hold the script, and the constant's name.
const (
	domrender = "github.com/vugu/vugu/domrender"
	file      = "renderer-js-script.go"
	name      = "jsHelperScript"
)

func main() {
	out := flag.String("o", "", "the file to write the script to")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: go run ./internal/cmd/vuguscript -o FILE")
		os.Exit(2)
	}
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "vuguscript:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	dir, err := exec.Command("go", "list", "-f", "{{.Dir}}", domrender).Output()
	if err != nil {
		var e *exec.ExitError
		if errors.As(err, &e) {
			err = fmt.Errorf("%v: %s", err, e.Stderr)
		}
		return fmt.Errorf("go list %s: %v", domrender, err)
	}
	path := filepath.Join(strings.TrimSpace(string(dir)), file)
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s, err := script(path, src)
	if err != nil {
		return err
	}
	return os.WriteFile(out, []byte(s+"\n"), 0o644)
}

// script is the value of the string constant jsHelperScript in the Go
// source src, read from path.
func script(path string, src []byte) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.SkipObjectResolution)
	if err != nil {
		return "", err
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			v := spec.(*ast.ValueSpec)
			for i, n := range v.Names {
				if n.Name != name {
					continue
				}
				// One string literal, as Vugu's renderer-js-script-maker.go
				// writes it: anything else is a Vugu this tool does not know.
				if i >= len(v.Values) {
					return "", fmt.Errorf("%s: %s has no value of its own", path, name)
				}
				lit, ok := v.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return "", fmt.Errorf("%s: %s is not a string literal", path, name)
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					return "", fmt.Errorf("%s: %s: %v", path, name, err)
				}
				if s == "" {
					return "", fmt.Errorf("%s: %s is empty", path, name)
				}
				return s, nil
			}
		}
	}
	return "", fmt.Errorf("%s: no constant %s", path, name)
}
