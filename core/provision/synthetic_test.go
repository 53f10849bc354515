package provision

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/internal/testenv"
)

// The synthetic-key functions are run for real on testdata/documents.jsonl
// and must return, document by document, what key.Spec.Extract returns: the
// same string, or no key (null) where Extract gives Undefined. The documents
// cover time strings at the edges of each of key.TimeForms, epoch
// numbers of every size and sign, numbers whose shortest form needs many
// digits or no exponent, non-ASCII text for the hash, and missing, null,
// object and array values. They avoid what a language's own JSON reader
// changes before the function sees it: duplicate keys, unpaired surrogates,
// and the integer -0 (Python reads it as 0).

var syntheticSpecs = []string{
	"/c+/ts:day+hash(/id)%8",
	"/ts:hour",
	"/ts:month+/n",
	"hash(/n)%1000+/c",
	"/ts:hour+hash(/ts)%3",
	`/"order date":day+hash(/"we'ird \"name\""/"x\\u000a y")%7`,
}

const documentsFile = "testdata/documents.jsonl"

// expected returns, per spec, the JSON of each document's key as pkcalc
// computes it: a string, or null.
func expected(t *testing.T) [][]string {
	f, err := os.Open(documentsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var docs []*ingest.Document
	r := ingest.NewReader(f)
	for {
		d, err := r.Next()
		if err != nil {
			break
		}
		docs = append(docs, d)
	}
	data, _ := os.ReadFile(documentsFile)
	if lines := bytes.Count(data, []byte("\n")); len(docs) != lines {
		t.Fatalf("ingest read %d documents from %d lines", len(docs), lines)
	}
	out := make([][]string, len(syntheticSpecs))
	for i, s := range syntheticSpecs {
		spec := mustParse(t, s)
		for _, d := range docs {
			vals, _ := spec.Extract(&d.Root, nil)
			if vals[0].Kind == epk.Undefined {
				out[i] = append(out[i], "null")
			} else {
				out[i] = append(out[i], jsonQuote(vals[0].Str))
			}
		}
	}
	return out
}

// compare checks a harness's output: one line per spec and document, in
// spec order, each the JSON of the key.
func compare(t *testing.T, lang string, out []byte, want [][]string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	n := 0
	for i, spec := range syntheticSpecs {
		for j, w := range want[i] {
			if n >= len(lines) {
				t.Fatalf("%s: output ends after %d lines", lang, n)
			}
			got := lines[n]
			n++
			if !sameJSON(got, w) {
				t.Errorf("%s, %s, document %d: got %s, pkcalc %s", lang, spec, j+1, got, w)
			}
		}
	}
	if n != len(lines) {
		t.Errorf("%s: %d extra lines", lang, len(lines)-n)
	}
}

// sameJSON compares two JSON strings or nulls by value, so that the
// languages' choices of escapes do not matter.
func sameJSON(a, b string) bool {
	var x, y *string
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return x == nil && y == nil || x != nil && y != nil && *x == *y
}

func TestSyntheticAgreesWithExtract(t *testing.T) {
	want := expected(t)
	// The documents must exercise both outcomes of every spec.
	for i, w := range want {
		if !slices.Contains(w, "null") || slices.IndexFunc(w, func(s string) bool { return s != "null" }) < 0 {
			t.Errorf("%s: the documents give only one outcome", syntheticSpecs[i])
		}
	}
	abs, err := filepath.Abs(documentsFile)
	if err != nil {
		t.Fatal(err)
	}
	for lang, run := range map[string]func(*testing.T, string, [][]string){
		"python": runPython, "javascript": runJavaScript, "java": runJava, "go": runGo,
	} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			run(t, abs, want)
		})
	}
}

func runPython(t *testing.T, docs string, want [][]string) {
	python := testenv.LookPath(t, "python3", "./build.sh test installs it from Debian's packages (python3)")
	dir := t.TempDir()
	var mods []string
	for i, s := range syntheticSpecs {
		fn := pythonKey(mustParse(t, s))
		name := filepath.Join(dir, fmt.Sprintf("k%d.py", i))
		if err := os.WriteFile(name, []byte(strings.Join(fn.imports, "\n")+"\n\n"+fn.code), 0o644); err != nil {
			t.Fatal(err)
		}
		mods = append(mods, name)
	}
	harness := `import json, sys
with open(sys.argv[1], encoding="utf-8") as f:
    docs = [json.loads(line) for line in f]
for path in sys.argv[2:]:
    ns = {}
    with open(path, encoding="utf-8") as f:
        exec(compile(f.read(), path, "exec"), ns)
    for doc in docs:
        print(json.dumps(ns["partition_key"](doc)))
`
	out, err := run(exec.Command(python, append([]string{"-W", "error", "-c", harness, docs}, mods...)...))
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	compare(t, "python", out, want)
}

func runJavaScript(t *testing.T, docs string, want [][]string) {
	node := testenv.LookPath(t, "node", "./build.sh test installs it from Debian's packages (nodejs)")
	var b strings.Builder
	b.WriteString("import { readFileSync } from \"node:fs\";\nconst fns = [];\n")
	for _, s := range syntheticSpecs {
		fmt.Fprintf(&b, "fns.push((() => {\n%s\nreturn partitionKey;\n})());\n", javascriptKey(mustParse(t, s)).code)
	}
	b.WriteString(`const docs = readFileSync(process.argv[2], "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
for (const fn of fns) {
  for (const doc of docs) {
    const key = fn(doc);
    console.log(JSON.stringify(key === undefined ? null : key));
  }
}
`)
	file := filepath.Join(t.TempDir(), "harness.mjs")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := run(exec.Command(node, file, docs))
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	compare(t, "javascript", out, want)
}

func runJava(t *testing.T, docs string, want [][]string) {
	javac, java := testenv.LookPath(t, "javac", jdk), testenv.LookPath(t, "java", jdk)
	data, err := os.ReadFile(docs)
	if err != nil {
		t.Fatal(err)
	}
	// Java has no JSON reader of its own: the documents become Map
	// literals with the numbers Jackson would give (Long, BigInteger,
	// Double).
	var docExprs []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		docExprs = append(docExprs, javaValue(v))
	}
	imports := map[string]bool{}
	var b strings.Builder
	b.WriteString("public class Harness {\n")
	for i, s := range syntheticSpecs {
		fn := javaKey(mustParse(t, s))
		for _, imp := range fn.imports {
			imports[imp] = true
		}
		fmt.Fprintf(&b, "static class K%d {\n%s}\n", i, fn.code)
	}
	b.WriteString(`static Map<String, Object> m(Object... kv) {
    Map<String, Object> m = new java.util.LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
    return m;
}
static String json(String s) {
    if (s == null) return "null";
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
        if (c == '"' || c == '\\') b.append('\\').append(c);
        else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
        else b.append(c);
    }
    return b.append('"').toString();
}

public static void main(String[] args) throws Exception {
    java.util.List<Map<String, Object>> docs = new java.util.ArrayList<>();
`)
	for _, e := range docExprs {
		fmt.Fprintf(&b, "    docs.add(%s);\n", e)
	}
	b.WriteString("    java.io.PrintStream out = new java.io.PrintStream(System.out, true, \"UTF-8\");\n")
	for i := range syntheticSpecs {
		fmt.Fprintf(&b, "    for (Map<String, Object> d : docs) out.println(json(K%d.partitionKey(d)));\n", i)
	}
	b.WriteString("}\n}\n")
	var head strings.Builder
	for _, imp := range slices.Sorted(maps.Keys(imports)) {
		fmt.Fprintf(&head, "import %s;\n", imp)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "Harness.java")
	if err := os.WriteFile(file, []byte(head.String()+b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(javac, "--release", "8", "-encoding", "UTF-8", "-Xlint:all", "-Werror", "-d", dir, file).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	out, err := run(exec.Command(java, "-cp", dir, "Harness"))
	if err != nil {
		t.Fatalf("java: %v", err)
	}
	compare(t, "java", out, want)
}

// javaValue writes a JSON value as a Java expression.
func javaValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return fmt.Sprintf("Boolean.valueOf(%t)", v)
	case string:
		return javaQuote(v)
	case json.Number:
		s := string(v)
		if !strings.ContainsAny(s, ".eE") {
			if _, err := strconv.ParseInt(s, 10, 64); err == nil {
				return "Long.valueOf(" + s + "L)"
			}
			return "new java.math.BigInteger(\"" + s + "\")"
		}
		return "Double.valueOf(\"" + s + "\")"
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = javaValue(e)
		}
		return "java.util.Arrays.asList(new Object[] {" + strings.Join(parts, ", ") + "})"
	case map[string]any:
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(v)) {
			parts = append(parts, javaQuote(k), javaValue(v[k]))
		}
		return "m(" + strings.Join(parts, ", ") + ")"
	}
	panic(fmt.Sprintf("unexpected %T", v))
}

// runGo builds the Go functions, one package per spec, with a main that
// decodes the documents with encoding/json (UseNumber, so json.Number and
// numbers beyond a double are exercised too).
func runGo(t *testing.T, docs string, want [][]string) {
	goTool := testenv.LookPath(t, "go", "go test puts the go command of its GOROOT on PATH")
	dir := t.TempDir()
	write := func(name, content string) {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module harness\n\ngo 1.22\n")
	var imports, calls strings.Builder
	for i, s := range syntheticSpecs {
		fn := goKey(mustParse(t, s))
		var b strings.Builder
		fmt.Fprintf(&b, "package k%d\n\nimport (\n", i)
		for _, imp := range fn.imports {
			fmt.Fprintf(&b, "\t%q\n", imp)
		}
		b.WriteString(")\n\n" + fn.code + "\n// Key is partitionKey for the harness.\nfunc Key(doc map[string]any) (string, bool) { return partitionKey(doc) }\n")
		write(fmt.Sprintf("k%d/k.go", i), b.String())
		fmt.Fprintf(&imports, "\t\"harness/k%d\"\n", i)
		fmt.Fprintf(&calls, "\t\tk%d.Key,\n", i)
	}
	write("main.go", `package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"

`+imports.String()+`)

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var docs []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.UseNumber()
		var doc map[string]any
		if err := dec.Decode(&doc); err != nil {
			panic(err)
		}
		docs = append(docs, doc)
	}
	for _, key := range []func(map[string]any) (string, bool){
`+calls.String()+`	} {
		for _, doc := range docs {
			if k, ok := key(doc); ok {
				b, _ := json.Marshal(k)
				fmt.Println(string(b))
			} else {
				fmt.Println("null")
			}
		}
	}
}
`)
	vet := exec.Command(goTool, "vet", "./...")
	vet.Dir = dir
	vet.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	if out, err := vet.CombinedOutput(); err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
	cmd := exec.Command(goTool, "run", ".", docs)
	cmd.Dir = dir
	cmd.Env = vet.Env
	out, err := run(cmd)
	if err != nil {
		t.Fatalf("go run: %v", err)
	}
	compare(t, "go", out, want)
}

// TestSyntheticInSnippets checks that the functions run above are the ones
// the SDK snippets carry, and that only synthetic keys get one.
func TestSyntheticInSnippets(t *testing.T) {
	for _, s := range syntheticSpecs {
		spec := mustParse(t, s)
		ss := Snippets(spec, epk.V2, Container{})
		for id, code := range map[string]string{
			"python": pythonKey(spec).code, "javascript": javascriptKey(spec).code,
			"java": javaKey(spec).code, "dotnet": csharpKey(spec).code,
		} {
			if !strings.Contains(byID(ss, id), code) {
				t.Errorf("%s: the %s snippet lacks the key function", s, id)
			}
		}
		if !strings.Contains(byID(ss, "go"), "func partitionKey(doc map[string]any) (string, bool)") {
			t.Errorf("%s: the Go snippet lacks partitionKey", s)
		}
	}
	if got := Snippets(mustParse(t, "/a"), epk.V2, Container{}); strings.Contains(byID(got, "python"), "def partition_key") {
		t.Error("a hash key's snippet has a synthetic key function")
	}
}

// run returns the command's standard output; its standard error goes into
// the error, or must be empty.
func run(cmd *exec.Cmd) ([]byte, error) {
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err == nil && stderr.Len() > 0 {
		err = fmt.Errorf("unexpected standard error output")
	}
	if err != nil {
		return out, fmt.Errorf("%w\n%s", err, stderr.String())
	}
	return out, nil
}
