package e2e

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// scalingRun is pkcalc analyze over one file of the benchmark's orders,
// as people run it: the command, on every core.
type scalingRun struct {
	MB      float64
	Seconds float64 // the best of three
	PeakRSS int64   // the largest of the three, in bytes
}

func (r scalingRun) rate() float64 { return r.MB / r.Seconds }

// measureScaling runs pkcalc analyze three times over each file, for the
// engine issue's aim that cost grows linearly: MB/s at 10, 100 and 500 MB
// within 15 % of each other, and peak memory bounded by the values kept,
// not by the input.
func measureScaling(t *testing.T, files ...string) []scalingRun {
	t.Helper()
	var runs []scalingRun
	for _, file := range files {
		st, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		r := scalingRun{MB: float64(st.Size()) / 1e6, Seconds: math.Inf(1)}
		for range 3 {
			cmd := exec.Command(pkcalcBin, "analyze", "--format", "json", file)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			start := time.Now()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			var peak int64
			go func() {
				// The process's own high-water mark, read until it ends: the
				// rusage of a child waited for is not its own on every kernel.
				defer close(done)
				for {
					if hwm := highWater(cmd.Process.Pid); hwm > 0 {
						peak = max(peak, hwm)
					} else {
						return
					}
					time.Sleep(5 * time.Millisecond)
				}
			}()
			err := cmd.Wait()
			r.Seconds = min(r.Seconds, time.Since(start).Seconds())
			<-done
			if err != nil {
				t.Fatalf("pkcalc analyze %s: %v\n%s", file, err, stderr.String())
			}
			r.PeakRSS = max(r.PeakRSS, peak)
		}
		runs = append(runs, r)
	}
	return runs
}

// highWater is a process's peak resident memory (VmHWM), 0 once it has
// ended.
func highWater(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// scalingRows are the End to end table's rows for runs.
func scalingRows(runs []scalingRun) [][3]string {
	var rows [][3]string
	lo, hi := math.Inf(1), 0.0
	for _, r := range runs {
		rows = append(rows, [3]string{fmt.Sprintf("`pkcalc analyze` on %.0f MB of the same orders (all cores, best of 3)", r.MB),
			fmt.Sprintf("%.2f s, %.1f MB/s, peak RSS %s", r.Seconds, r.rate(), fmtMB(r.PeakRSS)), "–"})
		lo, hi = min(lo, r.rate()), max(hi, r.rate())
	}
	rows = append(rows, [3]string{"spread of those MB/s (slowest below fastest)", fmt.Sprintf("%.0f %%", 100*(hi-lo)/hi), "within 15 % (engine issue)"})
	return rows
}
