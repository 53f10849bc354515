package diagnose

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/pkcalc/pkcalc/core/analysis"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/partition"
	"github.com/pkcalc/pkcalc/core/report"
)

// pair is one logged (key, range) pair.
type pair struct {
	key  int
	rng  string
	rows int
	ru   float64
}

// calibrate checks every logged (key, range) pair against pkcalc's own
// placement of the key on the ranges: the EPK of the value under the
// current key and hash version, located in the ranges feed. A pair
// agrees when the range logged is the one that holds the EPK, or one it
// was split from (the row was logged before the split). Disagreement
// means the hash version, the key paths or the ranges given are not the
// container's; when most disagree, the other hash version is tried, and a
// suggestion names it if it does much better.
func (s *state) calibrate() {
	pl := &s.d.Placement
	pl.Mismatches = []report.Mismatch{}
	pairs := s.pairs()
	if len(pairs) == 0 {
		pl.Message = "no logged key to check"
		return
	}
	if len(s.ranges) == 0 || s.in.Current.Kind == "" {
		pl.Unchecked = len(pairs)
		switch {
		case s.in.Current.Kind == "":
			pl.Message = "not checked: the current key (--current-key) places the logged keys"
		default:
			pl.Message = "not checked: the ranges feed (--ranges) gives the real bounds to place the logged keys on"
		}
		return
	}
	var bad []report.Mismatch
	for _, pr := range pairs {
		if !usableRange(pr.rng) {
			pl.Unchecked++
			continue
		}
		pl.Checked++
		k := s.keys[pr.key]
		placed := ""
		if k.placed >= 0 {
			placed = s.parts[k.placed].id
		}
		switch {
		case placed == pr.rng:
			pl.Agreeing++
			continue
		case placed != "" && slices.Contains(s.parts[k.placed].parent, pr.rng):
			pl.Agreeing++
			pl.BeforeSplit++
			continue
		}
		m := report.Mismatch{Value: analysis.Values(k.values), Logged: k.text, LoggedRange: pr.rng, PlacedRange: placed, EPK: k.epk,
			Rows: pr.rows, RU: round(pr.ru, 2)}
		switch {
		case k.why != "":
			m.Reason = k.why
		case s.listed(pr.rng):
			m.Reason = fmt.Sprintf("logged on range %s, but its EPK lies in range %s", pr.rng, placed)
		default:
			m.Reason = fmt.Sprintf("logged on range %s, which the ranges given do not list (nor as a parent): give the container's current ranges feed", pr.rng)
		}
		bad = append(bad, m)
	}
	slices.SortFunc(bad, func(a, b report.Mismatch) int {
		return cmp.Or(cmp.Compare(b.RU, a.RU), cmp.Compare(b.Rows, a.Rows), strings.Compare(a.Logged, b.Logged), strings.Compare(a.LoggedRange, b.LoggedRange))
	})
	pl.MismatchCount = len(bad)
	pl.Mismatches = append(pl.Mismatches, bad[:min(len(bad), MaxMismatches)]...)
	pl.Share = round(ratio(float64(pl.Agreeing), float64(pl.Checked)), 4)
	switch {
	case pl.Checked == 0:
		pl.Message = fmt.Sprintf("not checked: none of the %d logged pairs names a range", len(pairs))
	case pl.MismatchCount == 0:
		pl.Message = fmt.Sprintf("pkcalc places every one of the %s logged keys where Cosmos DB logged it: its placement, and so the what-if below, is the service's", human.Count(int64(pl.Checked)))
	default:
		pl.Message = fmt.Sprintf("pkcalc places %s of %s logged pairs where Cosmos DB logged them (%s); a disagreement means the hash version (--hash-version), the key paths (--current-key) or the ranges (--ranges) given are not the container's",
			human.Count(int64(pl.Agreeing)), human.Count(int64(pl.Checked)), human.Percent(pl.Share))
	}
	if pl.Share < 0.5 && pl.Checked > 0 {
		s.suggest(pairs)
	}
}

// pairs are the distinct (key, range) pairs of the RU and storage logs,
// each with its rows and RU.
func (s *state) pairs() []pair {
	type pk struct {
		key int
		rng string
	}
	idx := map[pk]int{}
	var out []pair
	add := func(k int, rng string, ru float64) {
		rng = strings.TrimSpace(rng)
		i, ok := idx[pk{k, rng}]
		if !ok {
			i = len(out)
			idx[pk{k, rng}] = i
			out = append(out, pair{key: k, rng: rng})
		}
		out[i].rows++
		out[i].ru += ru
	}
	for i, r := range s.in.RU {
		add(s.ruKey[i], r.RangeID, r.Charge)
	}
	for i, r := range s.in.Storage {
		if r.RangeID != "" {
			add(s.stKey[i], r.RangeID, 0)
		}
	}
	return out
}

func (s *state) listed(id string) bool {
	i, ok := s.byID[id]
	return ok && s.parts[i].listed
}

// suggest tries the other hash version on the pairs, and says so when it
// places most of them where they were logged.
func (s *state) suggest(pairs []pair) {
	spec := s.in.Current
	if spec.Kind == key.MultiHash {
		return // hierarchical keys hash one way only
	}
	other := epk.V1
	if s.in.Version == epk.V1 {
		other = epk.V2
	}
	ranges := s.rangeList()
	agree, checked := 0, 0
	for _, pr := range pairs {
		k := s.keys[pr.key]
		if !usableRange(pr.rng) || len(k.values) != spec.Levels() {
			continue
		}
		checked++
		if i := epk.Locate(ranges, partition.EPK(spec.Kind, other, k.values)); i >= 0 {
			if r := s.ranges[i]; r.ID == pr.rng || slices.Contains(r.Parents, pr.rng) {
				agree++
			}
		}
	}
	share := ratio(float64(agree), float64(checked))
	if checked > 0 && share >= 0.9 {
		s.d.Placement.Suggestion = &report.Notice{Code: "HASH_VERSION",
			Message: fmt.Sprintf("with --hash-version %d, %s of the %s pairs agree (%s): the container's hash version is probably %d", other,
				human.Count(int64(agree)), human.Count(int64(checked)), human.Percent(share), other)}
	}
}
