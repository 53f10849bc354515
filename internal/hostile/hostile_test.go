package hostile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestCases: the names are unique, each input is a file of the folder or
// generated, and every file of the folder but the list and its manifest
// is an input.
func TestCases(t *testing.T) {
	cases := Cases(t)
	names, files := map[string]bool{}, map[string]bool{}
	for _, c := range cases {
		if c.Name == "" || names[c.Name] {
			t.Errorf("a case named %q, empty or twice", c.Name)
		}
		names[c.Name] = true
		if (c.File == "") == (len(c.Generate) == 0) {
			t.Errorf("%s: a file or generated parts, not both or neither", c.Name)
		}
		if c.Format != "" && c.Format != "csv" {
			t.Errorf("%s: format %q; only csv, or none for JSON", c.Name, c.Format)
		}
		if c.File != "" {
			if _, err := os.Stat(filepath.Join(Dir(t), c.File)); err != nil {
				t.Errorf("%s: %v", c.Name, err)
			}
			files[c.File] = true
		}
	}
	if gen := Find(t, "deep-10000.jsonl"); gen.File != "" || !bytes.Contains(gen.Input(t), bytes.Repeat([]byte(`{"a":`), 10000)) {
		t.Errorf("deep-10000.jsonl is not the 10,000 levels generated")
	}
	entries, err := os.ReadDir(Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if name := e.Name(); name != "cases.json" && name != "README.md" && !files[name] {
			t.Errorf("%s is in %s but not in cases.json", name, filepath.Base(Dir(t)))
		}
	}
}
