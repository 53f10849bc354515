// Package hostile loads, for tests, pkcalc's shared corpus of broken and
// hostile inputs, testdata/hostile at the top of the module: the cases
// that its cases.json lists, and the bytes of each, read from a file there
// or generated (10 MB strings and the like are not committed).
//
// It says nothing of what pkcalc must make of an input: each test that
// reads the corpus keeps its own expectations.
package hostile

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A Case is one input of the corpus, as cases.json lists it.
type Case struct {
	Name     string `json:"name"`     // unique; a file's name, or the name a generated input goes by
	File     string `json:"file"`     // the file in Dir, or "" for a generated input
	Wrong    string `json:"wrong"`    // what is wrong with it, in words
	Generate []Part `json:"generate"` // a generated input's parts, one after another
	Format   string `json:"format"`   // "csv" for an input read as CSV (sent as text/csv); "" for JSON
}

// A Part of a generated input is Text written Times times (at least once),
// with {i} in it standing for the repetition's number, from 0.
type Part struct {
	Text  string `json:"text"`
	Times int    `json:"times"`
}

// Dir is the path of testdata/hostile, found upwards from the test's
// directory, or the test fails.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testdata", "hostile")
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("hostile: no go.mod above the test's directory, and so no testdata/hostile")
		}
		dir = up
	}
}

// Cases are every input of the corpus, in the order of cases.json.
func Cases(t testing.TB) []Case {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(Dir(t), "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []Case
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatalf("hostile: cases.json: %v", err)
	}
	return cases
}

// Find is the case named name, or the test fails.
func Find(t testing.TB, name string) Case {
	t.Helper()
	for _, c := range Cases(t) {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("hostile: cases.json lists no %s", name)
	return Case{}
}

// Input is the case's bytes: its file, or the input generated from its
// parts.
func (c Case) Input(t testing.TB) []byte {
	t.Helper()
	if c.File != "" {
		b, err := os.ReadFile(filepath.Join(Dir(t), c.File))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var b bytes.Buffer
	for _, p := range c.Generate {
		n := max(p.Times, 1)
		if !strings.Contains(p.Text, "{i}") {
			b.WriteString(strings.Repeat(p.Text, n))
			continue
		}
		for i := range n {
			b.WriteString(strings.ReplaceAll(p.Text, "{i}", strconv.Itoa(i)))
		}
	}
	return b.Bytes()
}
