package telemetry

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// seed adds the testdata files under dir to a fuzz target's corpus.
func seed(f *testing.F, dir string) {
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seeds in testdata/%s: %v", dir, err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// checkErrors fails on an error that is not an *Error placed in the
// input.
func checkErrors(t *testing.T, in []byte, errs []error) {
	t.Helper()
	lines := strings.Count(string(in), "\n") + strings.Count(string(in), "\r") + 1
	for _, err := range errs {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%T %v is not an *Error", err, err)
		}
		if e.Line < 0 || e.Line > lines || e.Column < 0 || e.Row < 0 || e.Msg == "" {
			t.Fatalf("error outside the input of %d lines: %+v", lines, e)
		}
	}
}

func FuzzReadRanges(f *testing.F) {
	seed(f, "ranges")
	f.Fuzz(func(t *testing.T, in []byte) {
		ranges, errs := ReadRanges(strings.NewReader(string(in)))
		checkErrors(t, in, errs)
		for i, r := range ranges {
			if r.ID == "" || r.Range.MinInclusive >= r.Range.MaxExclusive || r.Range.MaxExclusive > "FF" {
				t.Fatalf("range %+v", r)
			}
			if strings.ToUpper(r.Range.MinInclusive) != r.Range.MinInclusive || strings.ToUpper(r.Range.MaxExclusive) != r.Range.MaxExclusive {
				t.Fatalf("bounds not in upper case: %+v", r)
			}
			if i > 0 && ranges[i-1].Range.MinInclusive > r.Range.MinInclusive {
				t.Fatalf("ranges not sorted: %+v before %+v", ranges[i-1], r)
			}
		}
	})
}

func FuzzReadRU(f *testing.F) {
	seed(f, "ru")
	f.Fuzz(func(t *testing.T, in []byte) {
		rows, errs := ReadRU(strings.NewReader(string(in)))
		checkErrors(t, in, errs)
		for _, r := range rows {
			if r.Line < 1 || r.Row < 1 || len(r.Key.Values) < 1 || len(r.Key.Values) > 3 || r.Time.IsZero() ||
				r.Charge < 0 || math.IsNaN(r.Charge) || math.IsInf(r.Charge, 0) {
				t.Fatalf("row %+v", r)
			}
		}
	})
}

func FuzzReadStorage(f *testing.F) {
	seed(f, "storage")
	f.Fuzz(func(t *testing.T, in []byte) {
		rows, errs := ReadStorage(strings.NewReader(string(in)))
		checkErrors(t, in, errs)
		for _, r := range rows {
			if r.Line < 1 || r.Row < 1 || len(r.Key.Values) < 1 || len(r.Key.Values) > 3 ||
				r.SizeKB < 0 || math.IsNaN(r.SizeKB) || math.IsInf(r.SizeKB, 0) {
				t.Fatalf("row %+v", r)
			}
		}
	})
}

func FuzzReadMetrics(f *testing.F) {
	seed(f, "metrics")
	f.Fuzz(func(t *testing.T, in []byte) {
		points, errs := ReadMetrics(strings.NewReader(string(in)))
		checkErrors(t, in, errs)
		for _, p := range points {
			if p.Line < 1 || p.RangeID == "" || p.Interval <= 0 || p.Percent < 0 || p.Percent > 100 || p.Time.IsZero() {
				t.Fatalf("point %+v", p)
			}
		}
	})
}
