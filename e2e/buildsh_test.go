//go:build unix

package e2e

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pkcalc/pkcalc/internal/testenv"
)

// TestBuildScriptUsage: ./build.sh help prints the whole usage, an unknown
// target is named, and a missing port number gets a plain message. None of
// these builds anything.
func TestBuildScriptUsage(t *testing.T) {
	run := func(args ...string) (stdout, stderr string, code int) {
		t.Helper()
		cmd := exec.Command("bash", append([]string{"../build.sh"}, args...)...)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errb.String(), code
	}
	out, _, code := run("help")
	if code != 0 || !strings.HasPrefix(out, "pkcalc's one build script.\n") || !strings.HasSuffix(out, "otherwise says what\nto install.\n") ||
		!strings.Contains(out, "./build.sh cloudflare ") {
		t.Errorf("./build.sh help: exit %d, %q", code, out)
	}
	if out2, _, code := run(); code != 0 || out2 != out {
		t.Errorf("./build.sh alone: exit %d, %q; want the usage", code, out2)
	}
	if _, errOut, code := run("nope"); code != 2 || !strings.HasPrefix(errOut, "build.sh: unknown target: nope\n") || !strings.HasSuffix(errOut, out) {
		t.Errorf("./build.sh nope: exit %d, %q", code, errOut)
	}
	for _, args := range [][]string{{"serve", "--port"}, {"serve", "--port", "eighty"}, {"serve", "--port="}, {"serve", "--port", "70000"}} {
		_, errOut, code := run(args...)
		if code != 1 || !strings.HasPrefix(errOut, "build.sh: serve: --port") || strings.Contains(errOut, "line ") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("./build.sh %s: exit %d, %q", strings.Join(args, " "), code, errOut)
		}
	}
}

// TestBuildScriptServe runs ./build.sh serve four times in a copy of the
// checkout, as a person would: built once, served again with nothing
// changed, then after an edit to a public file and after one to a .vugu
// and a .go file. A second serve rebuilds nothing (every file of dist/
// keeps its time, the log says so); an edit is served at once, and a
// compressed copy left by an earlier build is not served in place of the
// edited file. brotli, gzip and apt-get are on PATH as stand-ins that note
// each call: serve never calls them, so Go is all it needs.
func TestBuildScriptServe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the site four times (a minute or more): not with -short")
	}
	testenv.MustHaveExec(t)
	repo := copyCheckout(t)
	tools := t.TempDir()
	calls := filepath.Join(t.TempDir(), "calls")
	for _, name := range []string{"brotli", "gzip", "apt-get"} {
		script := "#!/bin/sh\necho \"" + name + " $*\" >> " + calls + "\nexit 1\n"
		if err := os.WriteFile(filepath.Join(tools, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "PATH="+tools+string(os.PathListSeparator)+os.Getenv("PATH"))
	dist := filepath.Join(repo, "dist")

	// First serve: everything is built, no compressed copy is written.
	log := serveOnce(t, repo, env, nil)
	first := tree(t, dist)
	for name := range first {
		if strings.HasSuffix(name, ".gz") || strings.HasSuffix(name, ".br") {
			t.Errorf("serve wrote %s: it writes no compressed copies", name)
		}
	}
	for _, name := range []string{"index.html", "main.wasm", "engine/engine.wasm", "sw.js", "pkcalc.html", "vugu-render.js"} {
		if _, ok := first[name]; !ok {
			t.Errorf("serve built no dist/%s; log:\n%s", name, log)
		}
	}
	gen := tree(t, filepath.Join(repo, "ui"))

	// Second serve, nothing changed: nothing is written again.
	log = serveOnce(t, repo, env, nil)
	for _, want := range []string{"==> Vugu components are up to date\n", "==> dist/ is up to date: nothing changed since it was built\n"} {
		if !strings.Contains(log, want) {
			t.Errorf("second serve: the log does not say %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "generating") {
		t.Errorf("second serve generated the components again:\n%s", log)
	}
	sameTimes(t, "second serve", first, tree(t, dist))
	sameTimes(t, "second serve", gen, tree(t, filepath.Join(repo, "ui")))

	// An edit to a public file, a new public file, and a stale compressed
	// copy of boot.js, as an earlier ./build.sh dist could have left.
	edit(t, filepath.Join(repo, "public/style.css"), func(s string) string { return s + "\n/* EDITED-PUBLIC-FILE */\n" })
	if err := os.WriteFile(filepath.Join(repo, "public/extra.txt"), []byte("EXTRA-FILE\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stale bytes.Buffer
	zw := gzip.NewWriter(&stale)
	zw.Write([]byte("STALE"))
	zw.Close()
	if err := os.WriteFile(filepath.Join(dist, "boot.js.gz"), stale.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	boot, err := os.ReadFile(filepath.Join(repo, "public/boot.js"))
	if err != nil {
		t.Fatal(err)
	}
	log = serveOnce(t, repo, env, func(get func(path, encoding string) (string, string)) {
		if body, _ := get("/style.css", ""); !strings.Contains(body, "EDITED-PUBLIC-FILE") {
			t.Errorf("after an edit to public/style.css, /style.css is the old one")
		}
		if body, _ := get("/extra.txt", ""); body != "EXTRA-FILE\n" {
			t.Errorf("a new public file is not served: %q", body)
		}
		if body, enc := get("/boot.js", "gzip, br"); enc != "" || body != string(boot) {
			t.Errorf("/boot.js with a stale boot.js.gz beside it: Content-Encoding %q, %d bytes; want public/boot.js as it is", enc, len(body))
		}
	})
	third := tree(t, dist)
	if b, err := os.ReadFile(filepath.Join(dist, "pkcalc.html")); err != nil || !bytes.Contains(b, []byte("EDITED-PUBLIC-FILE")) {
		t.Errorf("pkcalc.html was not written again with the edited style.css (%v)", err)
	}
	for _, name := range []string{"style.css", "sw.js", "pkcalc.html"} {
		if third[name] == first[name] {
			t.Errorf("after the edit to public/style.css, dist/%s was not written again", name)
		}
	}
	for _, name := range []string{"main.wasm", "engine/engine.wasm", "index.html"} {
		if third[name] != first[name] {
			t.Errorf("after an edit to public/style.css alone, dist/%s was written again", name)
		}
	}

	// An edit to a .vugu file and to a Go file of the engine, and the new
	// public file gone again.
	edit(t, filepath.Join(repo, "ui/root.vugu"), func(s string) string { return strings.Replace(s, "</h2>", " EDITED-VUGU-FILE</h2>", 1) })
	edit(t, filepath.Join(repo, "wasm/engine/main.go"), func(s string) string { return s + "\nfunc init() { println(\"EDITED-GO-FILE\") }\n" })
	if err := os.Remove(filepath.Join(repo, "public/extra.txt")); err != nil {
		t.Fatal(err)
	}
	serveOnce(t, repo, env, func(get func(path, encoding string) (string, string)) {
		if body, _ := get("/main.wasm", ""); !strings.Contains(body, "EDITED-VUGU-FILE") {
			t.Errorf("after an edit to ui/root.vugu, /main.wasm is the old one")
		}
		if body, _ := get("/engine/engine.wasm", ""); !strings.Contains(body, "EDITED-GO-FILE") {
			t.Errorf("after an edit to wasm/engine/main.go, /engine/engine.wasm is the old one")
		}
		if _, err := os.Stat(filepath.Join(dist, "extra.txt")); err == nil {
			t.Errorf("dist/extra.txt is still there after public/extra.txt was removed")
		}
	})

	if b, err := os.ReadFile(calls); err == nil {
		t.Errorf("serve called what it must not need:\n%s", b)
	}
}

// serveOnce runs ./build.sh serve in repo on a free port until it serves,
// then calls check with a way to get a path (with an Accept-Encoding, or
// none) and stops the server. It returns what build.sh logged.
func serveOnce(t *testing.T, repo string, env []string, check func(get func(path, encoding string) (body, contentEncoding string))) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	cmd := exec.Command("bash", "build.sh", "serve", "--port", port)
	cmd.Dir, cmd.Env = repo, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var logb strings.Builder
	var mu sync.Mutex
	cmd.Stderr = writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return logb.Write(p) })
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	}
	serving := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		serving <- line
	}()
	var line string
	select {
	case line = <-serving:
	case <-time.After(10 * time.Minute):
	}
	if !strings.Contains(line, "http://127.0.0.1:"+port+"/") {
		stop()
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("./build.sh serve did not serve (it said %q); log:\n%s", line, logb.String())
	}
	if check != nil {
		check(func(path, encoding string) (string, string) {
			t.Helper()
			req, err := http.NewRequest("GET", "http://127.0.0.1:"+port+path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if encoding == "" {
				encoding = "identity"
			}
			req.Header.Set("Accept-Encoding", encoding) // set, so the client decompresses nothing
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != http.StatusOK {
				t.Errorf("GET %s: %s", path, resp.Status)
			}
			return string(b), resp.Header.Get("Content-Encoding")
		})
	}
	stop()
	mu.Lock()
	defer mu.Unlock()
	return logb.String()
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// copyCheckout copies the checkout, less .git and what builds write, to a
// temporary directory, where build.sh may write and files may be edited.
func copyCheckout(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	src, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		switch {
		case rel == ".git" && !d.IsDir(): // a worktree's
			return nil
		case rel == ".git", rel == "build", rel == "dist", d.Name() == "node_modules":
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		case !d.Type().IsRegular():
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// fileStamp is what tells that a file was written again.
type fileStamp struct {
	size int64
	mod  time.Time
}

// tree is every file under dir, by its slash-separated path, with its size
// and time.
func tree(t *testing.T, dir string) map[string]fileStamp {
	t.Helper()
	files := map[string]fileStamp{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = fileStamp{info.Size(), info.ModTime()}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func sameTimes(t *testing.T, what string, before, after map[string]fileStamp) {
	t.Helper()
	for name, b := range before {
		if a, ok := after[name]; !ok {
			t.Errorf("%s removed %s", what, name)
		} else if a != b {
			t.Errorf("%s wrote %s again (%v, %d bytes; was %v, %d bytes)", what, name, a.mod, a.size, b.mod, b.size)
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("%s wrote %s, which was not there", what, name)
		}
	}
}

func edit(t *testing.T, path string, change func(string) string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := change(string(b))
	if s == string(b) {
		t.Fatalf("the edit of %s changed nothing", path)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
