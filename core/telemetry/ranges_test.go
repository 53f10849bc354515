package telemetry

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/epk"
)

func rangeText(r Range) string {
	s := fmt.Sprintf("line %d: %s [%q, %q)", r.Line, r.ID, r.Range.MinInclusive, r.Range.MaxExclusive)
	if len(r.Parents) > 0 {
		s += " parents " + strings.Join(r.Parents, ",")
	}
	if r.ThroughputFraction > 0 {
		s += fmt.Sprintf(" share %g", r.ThroughputFraction)
	}
	return s
}

func TestReadRanges(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		// The REST reference's example: its first range as given there.
		{"ranges/rest-docs.json", []string{
			`line 4: 0 ["", "05C1CFFFFFFFF8")`,
			`line 13: 1 ["05C1CFFFFFFFF8", "05C1DFFFFFFFFC") share 0.25`,
			`line 26: 2 ["05C1DFFFFFFFFC", "05C1E7FFFFFFFE") share 0.25`,
			`line 39: 3 ["05C1E7FFFFFFFE", "FF") share 0.25`,
		}},
		// The ranges of the Python SDK's routing map tests, as the SDK
		// lists them: an array.
		{"ranges/python-sdk.json", []string{
			`line 2: 0 ["", "05C1C9CD673398")`,
			`line 3: 1 ["05C1C9CD673398", "05C1D9CD673398")`,
			`line 4: 2 ["05C1D9CD673398", "05C1E399CD6732")`,
			`line 5: 3 ["05C1E399CD6732", "05C1E9CD673398")`,
			`line 6: 4 ["05C1E9CD673398", "FF")`,
		}},
		// Range 0 split into 1 and 2, unevenly (a fifth of the key space
		// and the rest), listed beside them as an incremental feed does;
		// a bound in lower case.
		{"ranges/split.json", []string{
			`line 3: 1 ["", "0CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC") parents 0 share 0.5`,
			`line 4: 2 ["0CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC", "FF") parents 0 share 0.5`,
			"note: line 2: left out range 0, which split or merged into the ranges that name it as parents, as the SDKs leave out such a range",
		}},
		// A hierarchical key's range split at a prefix, its bound written
		// with trailing zeros by one neighbour (the Go SDK's routing map
		// test).
		{"ranges/hierarchical.json", []string{
			`line 2: 0 ["", "06AB34CFE4E482236BCACBBF50E234AB")`,
			`line 3: 1 ["06AB34CFE4E482236BCACBBF50E234AB", "FF")`,
		}},
		{"ranges/gap.json", []string{
			`line 2: 0 ["", "03")`,
			`line 3: 1 ["05", "FF")`,
			"error: line 3: a gap between range 0, which ends at 03, and range 1 (line 3), which starts at 05: EPKs between them are in no range (is a range missing from the feed?)",
		}},
		{"ranges/overlap.json", []string{
			`line 2: 1 ["", "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF")`,
			`line 3: 2 ["0FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "FF")`,
			`error: line 4 (row 3): range 3: minInclusive "2" is not an EPK: hex digits come in pairs`,
			`error: line 5 (row 4): range 4: minInclusive "2G" is not an EPK: 'G' is not a hex digit`,
			"error: line 3: range 2 (line 3) overlaps range 1: it starts at 0FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF, before 1 ends at 1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF (is one a range that split, listed without its children's parents?)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			ranges, errs := ReadRanges(open(t, tt.file))
			var got []string
			for _, r := range ranges {
				got = append(got, rangeText(r))
			}
			check(t, append(got, errorTexts(t, errs)...), tt.want)
		})
	}
}

// TestRangesPlace places keys on ranges read from a feed: the bounds
// are in epk's form, so epk.Locate finds the range of every key, and a
// key lies in the range its EPK falls in.
func TestRangesPlace(t *testing.T) {
	ranges, errs := ReadRanges(open(t, "ranges/split.json"))
	if len(errs) != 1 { // the note on range 0
		t.Fatalf("errors %v", errs)
	}
	layout := make([]epk.Range, len(ranges))
	for i, r := range ranges {
		layout[i] = r.Range
	}
	counts := make([]int, len(layout))
	for i := range 1000 {
		e := epk.HashV2(epk.Str(fmt.Sprintf("tenant-%d", i)))
		j := epk.Locate(layout, e)
		if j < 0 {
			t.Fatalf("EPK %s is in no range of %v", e, layout)
		}
		if e < layout[j].MinInclusive || e >= layout[j].MaxExclusive {
			t.Fatalf("EPK %s placed in %v", e, layout[j])
		}
		counts[j]++
	}
	// The split left a fifth of the key space in range 1: about a fifth
	// of 1,000 keys hashed evenly, within four standard deviations
	// (sqrt(1000*0.2*0.8) = 12.6).
	if counts[0] < 200-51 || counts[0] > 200+51 {
		t.Errorf("range 1 holds %d of 1,000 keys, not about 200", counts[0])
	}
}

func TestReadRangesBad(t *testing.T) {
	tests := []struct{ name, in, err string }{
		{"empty feed", `{"_rid":"x","PartitionKeyRanges":[],"_count":0}`, "the feed lists no partition key ranges"},
		{"not ranges", `{"Documents":[{"id":"1"}]}`, "the feed lists no partition key ranges"},
		{"no id", `[{"minInclusive":"","maxExclusive":"FF"}]`, "line 1 (row 1): the range has no id"},
		{"empty range", `[{"id":"0","minInclusive":"FF","maxExclusive":"FF"}]`, `range 0 is empty: it starts at "FF" and ends before, at "FF"`},
		{"past FF", `[{"id":"0","minInclusive":"","maxExclusive":"FF00"}]`, `range 0: maxExclusive "FF00" is past FF, the end of the key space`},
		{"twice", `[{"id":"0","minInclusive":"","maxExclusive":"FF"},{"id":"0","minInclusive":"","maxExclusive":"FF"}]`, "range 0 is listed again (first on line 1); this one is left out"},
		{"no start", `[{"id":"0","minInclusive":"10","maxExclusive":"FF"}]`, `no range starts at "", the start of the key space: the first, range 0, starts at 10`},
		{"no end", `[{"id":"0","minInclusive":"","maxExclusive":"10"}]`, "no range ends at FF, the end of the key space: the last, range 0, ends at 10"},
		{"bad share", `[{"id":"0","minInclusive":"","maxExclusive":"FF","throughputFraction":2}]`, "range 0: throughputFraction 2 is not a share from 0 to 1"},
		{"bad parents", `[{"id":"0","minInclusive":"","maxExclusive":"FF","parents":"1"}]`, `range 0: parents is "1", not an array of range ids`},
		{"broken JSON", `[{"id":"0","minInclusive":"","maxExclusive":"FF"},{"id":"1",]`, "line 1, column 61 (row 2): expected a property name in double quotes, found ']'"},
		{"CSV", "id,minInclusive,maxExclusive\n0,,FF\n", "the input looks like CSV"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := ReadRanges(strings.NewReader(tt.in))
			got := strings.Join(errorTexts(t, errs), "\n")
			if !strings.Contains(got, tt.err) {
				t.Errorf("errors\n%s\ndo not say\n%s", got, tt.err)
			}
		})
	}
}
