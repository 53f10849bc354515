package telemetry

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/options"
)

// The ends of the key space, as epk.Range holds them.
const (
	minEPK = ""
	maxEPK = "FF"
)

// ReadRanges reads a container's partition key ranges: the body of the
// REST API's GET .../colls/{coll}/pkranges, {"_rid": ...,
// "PartitionKeyRanges": [{"id", "minInclusive", "maxExclusive",
// "parents", "throughputFraction", ...}], "_count": ...}, several such
// pages one after another, or the array of ranges alone (as the SDKs list
// them). The bounds are hex in any case, written in upper case as epk
// does.
//
// The ranges are returned sorted by their bounds. A range that another
// names among its parents is gone (it split or merged into them) and left
// out, as the SDKs' routing maps leave it out: an incremental feed lists
// it beside its children. The rest must tile the key space from "" to
// "FF" without a gap or an overlap; each place they do not is an *Error
// naming the ranges and their lines, and the ranges are still returned.
// Where two neighbours write their common bound with and without trailing
// zeros (a hierarchical key's range split at a prefix: 06AB...AB and
// 06AB...AB000...0), it is one bound, as the SDKs' length-aware comparer
// takes it, kept in its shorter form.
func ReadRanges(r io.Reader) ([]Range, []error) {
	rs := ingest.NewRecords(r, ingest.Path{ingest.Each}, ingest.Path{"PartitionKeyRanges", ingest.Each})
	var (
		ranges []Range
		errs   []error
		seen   = make(map[string]int) // id -> its line
	)
	for {
		rec, err := rs.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var e *ingest.Error
			if !errors.As(err, &e) {
				errs = append(errs, fmt.Errorf("reading the partition key ranges: %w", err))
				break
			}
			errs = append(errs, &Error{Line: e.Line, Column: e.Column, Row: e.Document, Msg: e.Msg})
			continue
		}
		if len(ranges) == options.MaxRanges {
			errs = append(errs, &Error{Line: rec.Line, Row: rec.Index, Msg: fmt.Sprintf("the feed lists more than %s ranges, the most physical partitions pkcalc models; the ranges from here on are not read", human.Count(options.MaxRanges))})
			break
		}
		rg, err := rangeOf(&rec.Value)
		if err != nil {
			errs = append(errs, &Error{Line: rec.Line, Row: rec.Index, Msg: err.Error()})
			continue
		}
		rg.Line = rec.Line
		if line, dup := seen[rg.ID]; dup {
			errs = append(errs, &Error{Line: rec.Line, Row: rec.Index, Msg: fmt.Sprintf("range %s is listed again (first on line %d); this one is left out", rg.ID, line)})
			continue
		}
		seen[rg.ID] = rec.Line
		ranges = append(ranges, rg)
	}
	if len(ranges) == 0 {
		if len(errs) == 0 {
			errs = append(errs, &Error{Msg: "the feed lists no partition key ranges: expected the body of GET .../pkranges, {\"PartitionKeyRanges\": [...]}, or an array of ranges"})
		}
		return nil, errs
	}
	ranges, gone := withoutGone(ranges)
	if len(gone) > 0 {
		errs = append(errs, &Error{Line: gone[0].Line, Note: true, Msg: fmt.Sprintf("left out %s, which split or merged into the ranges that name %s as parents, as the SDKs leave out such a range",
			rangeList(gone), human.Plural(int64(len(gone)), "it", "them"))})
	}
	slices.SortStableFunc(ranges, func(a, b Range) int {
		if c := strings.Compare(a.Range.MinInclusive, b.Range.MinInclusive); c != 0 {
			return c
		}
		return strings.Compare(a.Range.MaxExclusive, b.Range.MaxExclusive)
	})
	return ranges, append(errs, tile(ranges)...)
}

// rangeOf reads one range of the feed.
func rangeOf(v *jsontree.Value) (Range, error) {
	if v.Kind != jsontree.Object {
		return Range{}, fmt.Errorf("a range is an object with id, minInclusive and maxExclusive, not %s", clip(v.JSON()))
	}
	get := func(name string) *jsontree.Value {
		for i := range v.Members {
			if strings.EqualFold(v.Members[i].Key, name) {
				return &v.Members[i].Value
			}
		}
		return nil
	}
	var rg Range
	id := get("id")
	if id == nil || !id.Kind.Scalar() || id.Kind == jsontree.Null || literal(id) == "" {
		return Range{}, errors.New("the range has no id")
	}
	rg.ID = literal(id)
	if len(rg.ID) > options.MaxNameBytes {
		return Range{}, fmt.Errorf("range id %s is longer than %d bytes", clip(rg.ID), options.MaxNameBytes)
	}
	var err error
	if rg.Range.MinInclusive, err = bound(get("minInclusive"), "minInclusive"); err != nil {
		return Range{}, fmt.Errorf("range %s: %w", rg.ID, err)
	}
	if rg.Range.MaxExclusive, err = bound(get("maxExclusive"), "maxExclusive"); err != nil {
		return Range{}, fmt.Errorf("range %s: %w", rg.ID, err)
	}
	if rg.Range.MinInclusive >= rg.Range.MaxExclusive {
		return Range{}, fmt.Errorf("range %s is empty: it starts at %q and ends before, at %q", rg.ID, rg.Range.MinInclusive, rg.Range.MaxExclusive)
	}
	if p := get("parents"); p != nil && p.Kind != jsontree.Null {
		if p.Kind != jsontree.Array {
			return Range{}, fmt.Errorf("range %s: parents is %s, not an array of range ids", rg.ID, clip(p.JSON()))
		}
		for i := range p.Elems {
			e := &p.Elems[i]
			if !e.Kind.Scalar() || e.Kind == jsontree.Null || len(literal(e)) > options.MaxNameBytes {
				return Range{}, fmt.Errorf("range %s: parent %d, %s, is not a range id", rg.ID, i+1, clip(e.JSON()))
			}
			rg.Parents = append(rg.Parents, literal(e))
		}
	}
	if f := get("throughputFraction"); f != nil && f.Kind != jsontree.Null {
		x, err := number(f)
		if err != nil || x < 0 || x > 1 {
			return Range{}, fmt.Errorf("range %s: throughputFraction %s is not a share from 0 to 1", rg.ID, clip(literal(f)))
		}
		rg.ThroughputFraction = x
	}
	return rg, nil
}

// bound reads a range's bound: an EPK as hex digits in pairs, "" the
// start of the key space, "FF" its end.
func bound(v *jsontree.Value, name string) (string, error) {
	if v == nil || v.Kind != jsontree.String {
		if v == nil {
			return "", fmt.Errorf("no %s", name)
		}
		return "", fmt.Errorf("%s is %s, not a string of hex digits", name, clip(v.JSON()))
	}
	s := strings.ToUpper(strings.TrimSpace(v.Str))
	if len(s)%2 != 0 {
		return "", fmt.Errorf("%s %q is not an EPK: hex digits come in pairs", name, clip(v.Str))
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'A' <= c && c <= 'F') {
			return "", fmt.Errorf("%s %q is not an EPK: %q is not a hex digit", name, clip(v.Str), c)
		}
	}
	if s > maxEPK {
		return "", fmt.Errorf("%s %q is past FF, the end of the key space", name, v.Str)
	}
	return s, nil
}

// withoutGone leaves out the ranges that another range names as a
// parent, and returns them.
func withoutGone(ranges []Range) (kept, gone []Range) {
	parents := make(map[string]bool)
	for _, r := range ranges {
		for _, p := range r.Parents {
			parents[p] = true
		}
	}
	for _, r := range ranges {
		if parents[r.ID] {
			gone = append(gone, r)
		} else {
			kept = append(kept, r)
		}
	}
	return kept, gone
}

// rangeList names ranges for a message: "range 0", "ranges 0 and 3".
func rangeList(rs []Range) string {
	ids := make([]string, len(rs))
	for i, r := range rs {
		ids[i] = r.ID
	}
	if len(ids) == 1 {
		return "range " + ids[0]
	}
	if len(ids) > 10 {
		ids = append(ids[:10], fmt.Sprintf("%d more", len(rs)-10))
	}
	return "ranges " + strings.Join(ids[:len(ids)-1], ", ") + " and " + ids[len(ids)-1]
}

// tile checks that sorted ranges cover the key space from "" to "FF",
// each bound shared by the range that ends there and the one that starts
// there, and says where they do not. A bound written with and without
// trailing zeros by two neighbours is made one, in its shorter form.
func tile(ranges []Range) []error {
	var errs []error
	first, last := &ranges[0], &ranges[len(ranges)-1]
	if strings.Trim(first.Range.MinInclusive, "0") == "" {
		first.Range.MinInclusive = minEPK // 00...0 is the start too
	}
	if first.Range.MinInclusive != minEPK {
		errs = append(errs, &Error{Line: first.Line, Msg: fmt.Sprintf("no range starts at \"\", the start of the key space: the first, range %s, starts at %s; EPKs below it are in no range (is a range missing from the feed?)", first.ID, first.Range.MinInclusive)})
	}
	for i := 0; i+1 < len(ranges); i++ {
		a, b := &ranges[i], &ranges[i+1]
		end, start := a.Range.MaxExclusive, b.Range.MinInclusive
		if end == start {
			continue
		}
		if short, ok := sameBound(end, start); ok {
			a.Range.MaxExclusive, b.Range.MinInclusive = short, short
			continue
		}
		if end < start {
			errs = append(errs, &Error{Line: b.Line, Msg: fmt.Sprintf("a gap between range %s, which ends at %s, and range %s (line %d), which starts at %s: EPKs between them are in no range (is a range missing from the feed?)", a.ID, end, b.ID, b.Line, start)})
		} else {
			errs = append(errs, &Error{Line: b.Line, Msg: fmt.Sprintf("range %s (line %d) overlaps range %s: it starts at %s, before %s ends at %s (is one a range that split, listed without its children's parents?)", b.ID, b.Line, a.ID, start, a.ID, end)})
		}
	}
	if last.Range.MaxExclusive != maxEPK {
		errs = append(errs, &Error{Line: last.Line, Msg: fmt.Sprintf("no range ends at FF, the end of the key space: the last, range %s, ends at %s; EPKs above it are in no range (is a range missing from the feed?)", last.ID, last.Range.MaxExclusive)})
	}
	return errs
}

// sameBound reports whether two bounds differ only by trailing zeros,
// and returns the shorter.
func sameBound(a, b string) (string, bool) {
	if len(a) > len(b) {
		a, b = b, a
	}
	if a == "" || !strings.HasPrefix(b, a) || strings.Trim(b[len(a):], "0") != "" {
		return "", false
	}
	return a, true
}
