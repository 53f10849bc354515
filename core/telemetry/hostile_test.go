package telemetry

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/pkcalc/pkcalc/internal/hostile"
)

// TestHostile gives every input of the shared corpus of broken and
// hostile inputs (testdata/hostile: 10 MB strings, 10,000 levels of
// nesting, bad UTF-8, cut files, 100,000 documents) to each reader: each
// ends within its time, without a panic, every problem an *Error, and
// none of them documents taken for an export's rows.
func TestHostile(t *testing.T) {
	readers := []struct {
		name string
		read func([]byte) (int, []error)
	}{
		{"ranges", func(b []byte) (int, []error) { r, e := ReadRanges(bytes.NewReader(b)); return len(r), e }},
		{"ru-log", func(b []byte) (int, []error) { r, e := ReadRU(bytes.NewReader(b)); return len(r), e }},
		{"storage-log", func(b []byte) (int, []error) { r, e := ReadStorage(bytes.NewReader(b)); return len(r), e }},
		{"metrics", func(b []byte) (int, []error) { r, e := ReadMetrics(bytes.NewReader(b)); return len(r), e }},
	}
	var slowest time.Duration
	var slowestCase string
	for _, c := range hostile.Cases(t) {
		in := c.Input(t)
		for _, rd := range readers {
			start := time.Now()
			n, errs := rd.read(in)
			if d := time.Since(start); d > slowest {
				slowest, slowestCase = d, c.Name+" as "+rd.name
			}
			if n > 0 {
				// The corpus holds documents, none of them a range, a log
				// row or a metric's point.
				t.Errorf("%s as %s: %d records read from documents", c.Name, rd.name, n)
			}
			for _, err := range errs {
				var e *Error
				if !errors.As(err, &e) || e.Msg == "" {
					t.Errorf("%s as %s: %T %v is not an *Error", c.Name, rd.name, err, err)
				}
			}
		}
	}
	if slowest > 20*time.Second {
		t.Errorf("%s took %v", slowestCase, slowest)
	}
	t.Logf("slowest: %s, %v", slowestCase, slowest)
}
