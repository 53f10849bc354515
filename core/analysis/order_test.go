package analysis

import (
	"cmp"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/internal/shared"
)

// orderings are a dataset's documents as JSON Lines: in the file's order,
// sorted by one path's values (stable, so ties keep the file's order), and
// shuffled with a fixed seed.
func orderings(t *testing.T, name string, by []string) (file string, docs map[string]string) {
	t.Helper()
	file = shared.File(t, "datasets", name)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var roots []jsontree.Value
	r := ingest.NewReader(strings.NewReader(string(data)))
	for {
		d, err := r.Next()
		if err != nil {
			break
		}
		roots = append(roots, d.Root)
	}
	lines := func(vs []jsontree.Value) string {
		var b strings.Builder
		for i := range vs {
			b.WriteString(vs[i].JSON())
			b.WriteByte('\n')
		}
		return b.String()
	}
	sorted := slices.Clone(roots)
	slices.SortStableFunc(sorted, func(a, b jsontree.Value) int {
		return cmp.Compare(key.Lookup(&a, by).JSON(), key.Lookup(&b, by).JSON())
	})
	shuffled := slices.Clone(roots)
	rand.New(rand.NewPCG(20261201, 1)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	return file, map[string]string{"file's order": lines(roots), "sorted": lines(sorted), "shuffled": lines(shuffled)}
}

// seen is what a user reads of a report that must not depend on the order
// of the documents: the candidates in their order with their figures (but
// the monotonicity with the file's order, which is about the order, and the
// findings and score that follow from it), the recommendation and the path
// table.
type seen struct {
	Candidates  []string
	Recommended string
	TimeField   string
	Paths       []report.Path
	Figures     []figures
}

type figures struct {
	Logical   int64
	Documents int64
	Missing   int64
	Largest   []report.Largest
	Physical  []report.Physical
	PerLogic  report.PerLogical
}

func seenOf(r *report.Report) seen {
	s := seen{Recommended: r.Recommended, TimeField: r.TimeField, Paths: r.Paths}
	for _, c := range r.Candidates {
		s.Candidates = append(s.Candidates, c.Key.Spec)
		s.Figures = append(s.Figures, figures{c.LogicalPartitions, c.Documents, c.Missing, c.Largest, c.PhysicalPartitions, c.PerLogicalPartition})
	}
	return s
}

// TestOrderIndependent: a real dataset in its file's order, sorted by a
// path and shuffled gives the same candidates in the same order, the same
// recommendation and the same path table, when the window holds the whole
// input. With a window shorter than the input, the named keys' figures
// still hold, since every document streams through them, and the report
// says the table and the candidates come from the first documents, more
// strongly when those are sorted.
func TestOrderIndependent(t *testing.T) {
	for _, tt := range []struct {
		file   string
		by     []string
		named  string
		window int
		// the paths the window of each order looks sorted by
		sortedBy map[string][]string
	}{
		{
			file: "cosmicworks-v4-product.json", by: []string{"categoryName"}, named: "/categoryId", window: 100,
			sortedBy: map[string][]string{"file's order": nil, "sorted": {"/categoryName"}, "shuffled": nil},
		},
		{
			// 4,671, 2,713 and 2,611 readings of three devices over a day, in
			// the order of their times; sorted by device (and so by its
			// address, one to a device), the first 6,000 hold all of 01 and
			// 02 and a few of 03.
			file: "iot-env-sensor-telemetry.json", by: []string{"device"}, named: "/device_id", window: 6000,
			sortedBy: map[string][]string{"file's order": {"/ts"}, "sorted": {"/device_id", "/device"}, "shuffled": nil},
		},
	} {
		t.Run(tt.file, func(t *testing.T) {
			file, docs := orderings(t, tt.file, tt.by)
			in, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			inPlace, err := Analyze(in, Options{})
			if err != nil {
				t.Fatal(err)
			}
			want := seenOf(inPlace)
			windowed := slices.ContainsFunc(inPlace.Warnings, func(n report.Notice) bool { return n.Code == report.WindowPartial || n.Code == report.WindowSorted })
			if len(want.Candidates) < 3 || want.Recommended == "" || windowed {
				t.Fatalf("the file read in place: candidates %q, recommended %q, warnings %+v", want.Candidates, want.Recommended, inPlace.Warnings)
			}
			named := Options{Keys: []key.Spec{mustKey(t, tt.named)}, Window: tt.window}
			var wantNamed figures
			for _, order := range []string{"file's order", "sorted", "shuffled"} {
				rep, err := Analyze(strings.NewReader(docs[order]), Options{})
				if err != nil {
					t.Fatal(err)
				}
				got := seenOf(rep)
				if !reflect.DeepEqual(got.Candidates, want.Candidates) || got.Recommended != want.Recommended || got.TimeField != want.TimeField {
					t.Errorf("%s: candidates %q, recommended %q, time field %q\nwant %q, %q, %q", order,
						got.Candidates, got.Recommended, got.TimeField, want.Candidates, want.Recommended, want.TimeField)
				}
				if !reflect.DeepEqual(got.Paths, want.Paths) {
					t.Errorf("%s: the path table differs:\n%+v\nwant\n%+v", order, got.Paths, want.Paths)
				}
				if !reflect.DeepEqual(got.Figures, want.Figures) {
					t.Errorf("%s: the candidates' figures differ", order)
				}
				if w := orderWarnings(rep); len(w) != 0 {
					t.Errorf("%s: warnings %+v", order, w)
				}

				// A window shorter than the input.
				short, err := Analyze(strings.NewReader(docs[order]), named)
				if err != nil {
					t.Fatal(err)
				}
				if short.PathsDocuments != int64(tt.window) || short.Candidates[0].Key.Spec != tt.named {
					t.Fatalf("%s: the path table describes %d documents, first candidate %s", order, short.PathsDocuments, short.Candidates[0].Key.Spec)
				}
				if f := seenOf(short).Figures[0]; order == "file's order" {
					wantNamed = f
				} else if !reflect.DeepEqual(f, wantNamed) {
					t.Errorf("%s: with a window of %d, the figures of the named key %s differ from those in the file's order", order, tt.window, tt.named)
				}
				if c := short.Candidates[0]; c.Documents != inPlace.Documents {
					t.Errorf("%s: the named key counts %d documents, want every one of %d", order, c.Documents, inPlace.Documents)
				}
				checkWindowWarning(t, order, short, tt.sortedBy[order])
			}
		})
	}
}

// orderWarnings are a report's warnings but ID_RULES, which is about the
// documents whatever their order (the telemetry has no ids).
func orderWarnings(r *report.Report) []report.Notice {
	return slices.DeleteFunc(slices.Clone(r.Warnings), func(n report.Notice) bool { return n.Code == report.IDRules })
}

// checkWindowWarning checks the one warning of a report whose window was
// shorter than its input: sorted by the paths by, or, for none, partial.
func checkWindowWarning(t *testing.T, order string, r *report.Report, by []string) {
	t.Helper()
	ws := orderWarnings(r)
	if len(ws) != 1 {
		t.Errorf("%s: warnings %+v, want one about the window", order, ws)
		return
	}
	w := ws[0]
	first := "the first " + human.Count(r.PathsDocuments) + " of " + human.Count(r.Documents) + " documents"
	if !strings.Contains(w.Message, first) || !strings.Contains(w.Message, "shuffle") && !strings.Contains(w.Message, "Shuffle") {
		t.Errorf("%s: %s does not say %q, nor to shuffle: %s", order, w.Code, first, w.Message)
	}
	if by == nil {
		if w.Code != report.WindowPartial {
			t.Errorf("%s: %s, want %s: %s", order, w.Code, report.WindowPartial, w.Message)
		}
		return
	}
	if w.Code != report.WindowSorted {
		t.Errorf("%s: %s, want %s naming %q: %s", order, w.Code, report.WindowSorted, by, w.Message)
		return
	}
	for _, p := range by {
		if !strings.Contains(w.Message, " "+p+" (rising, from ") && !strings.Contains(w.Message, " "+p+" (falling, from ") {
			t.Errorf("%s: %s does not name %s: %s", order, w.Code, p, w.Message)
		}
	}
	if n := strings.Count(w.Message, "ing, from "); n != len(by) {
		t.Errorf("%s: %s names %d paths, want %q: %s", order, w.Code, n, by, w.Message)
	}
}
