package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/sample"
)

// TestBrowserWorkers: in the browser the report is byte for byte the same
// whether the engine reads alone (workers 1) or its helpers, Web Workers
// of their own, read the chunks (2 and 3), and it is pkcalc analyze's: on
// clean JSON Lines, on lines with a bad one amid them (from which the
// engine reads on itself), and on the same orders as a JSON array on one
// line. The helpers do read: the engine counts the chunks they answered.
func TestBrowserWorkers(t *testing.T) {
	ctx := page(t)
	watchChunks(t, ctx)
	var orders strings.Builder
	sample.Orders(&orders, 15_000) // 4.5 MB: chunks of a megabyte
	lines := strings.SplitAfter(orders.String(), "\n")
	var before float64 // chunks read by helpers so far
	dirty := strings.Join(lines[:9_000], "") + "{\"id\": oops}\n" + strings.Join(lines[9_000:], "")
	array := "[" + strings.Join(strings.Split(strings.TrimSuffix(orders.String(), "\n"), "\n"), ",") + "]"
	for name, input := range map[string]string{"clean": orders.String(), "dirty": dirty, "a JSON array on one line": array} {
		file := filepath.Join(t.TempDir(), "orders.jsonl")
		if err := os.WriteFile(file, []byte(input), 0o644); err != nil {
			t.Fatal(err)
		}
		native, err := exec.Command(pkcalcBin, "analyze", "--format", "json", file).Output()
		if err != nil && len(native) == 0 {
			t.Fatal(err)
		}
		lit, _ := json.Marshal(input)
		eval[bool](t, ctx, `(window.docs = new Blob([`+string(lit)+`]), true)`)
		for _, workers := range []int{1, 2, 3} {
			// Chunks sent before the engine read on itself may still be
			// answered after the report: count those first.
			before = settledChunks(t, ctx)
			got := eval[string](t, ctx, `pkcalc.analyze(window.docs, {workers: `+strconv.Itoa(workers)+`, as: "text"})`)
			if got != string(native) {
				t.Errorf("%s, %d workers: the report differs from pkcalc analyze's (%d and %d bytes)", name, workers, len(got), len(native))
			}
			read := eval[float64](t, ctx, `window.chunksElsewhere`)
			switch {
			case workers == 1 && read != before:
				t.Errorf("%s, one worker: helpers read %v chunks", name, read-before)
			case workers > 1 && read < before+3:
				t.Errorf("%s, %d workers: helpers read %v chunks of 4.5 MB", name, workers, read-before)
			}
			before = read
		}
	}
}

// watchChunks makes window.chunksElsewhere the count of chunks the
// engine's helpers have read, from the engine's reports. The engine's
// worker is made at the first analysis, which must come after.
func watchChunks(t *testing.T, ctx context.Context) {
	t.Helper()
	eval[bool](t, ctx, `(() => {
		const W = window.Worker;
		window.chunksElsewhere = 0;
		window.Worker = function (url, opts) {
			const w = new W(url, opts);
			w.addEventListener("message", (e) => { if (e.data.type === "report") window.chunksElsewhere = e.data.chunksElsewhere; });
			return w;
		};
		return true;
	})()`)
}

// sameWithHelpers checks, in the page of ctx, that 4.5 MB of JSON Lines
// give the same report read by the engine alone and by two helpers, and
// that the helpers read them.
func sameWithHelpers(t *testing.T, ctx context.Context) {
	t.Helper()
	got := eval[map[string]any](t, ctx, `(async () => {
		const lines = Array.from({length: 30000}, (_, i) => JSON.stringify({id: "d" + i, tenantId: "t" + (i % 97), pad: "p".repeat(120)}));
		const docs = new Blob([lines.join("\n")]);
		const alone = await pkcalc.analyze(docs, {workers: 1, as: "text"});
		await new Promise((resolve) => setTimeout(resolve, 500));
		await pkcalc.analyze("{\"id\":\"a\"}", {workers: 1});
		const before = window.chunksElsewhere;
		const helped = await pkcalc.analyze(docs, {workers: 2, as: "text"});
		return {same: alone === helped, read: window.chunksElsewhere - before};
	})()`)
	if got["same"] != true || got["read"].(float64) < 3 {
		t.Errorf("with two helpers: same report %v, chunks read by helpers %v", got["same"], got["read"])
	}
}

// settledChunks is window.chunksElsewhere once the helpers have answered
// what they were sent: after a pause, as a small analysis reports it.
func settledChunks(t *testing.T, ctx context.Context) float64 {
	t.Helper()
	return eval[float64](t, ctx, `(async () => {
		await new Promise((resolve) => setTimeout(resolve, 500));
		await pkcalc.analyze("{\"id\":\"a\"}", {workers: 1});
		return window.chunksElsewhere;
	})()`)
}
