//go:build unix

package e2e

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
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
