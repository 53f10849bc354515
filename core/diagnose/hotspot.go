package diagnose

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/pkcalc/pkcalc/core/analysis"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/report"
)

// pkcalc's rules for why a partition is hot. No threshold is documented
// for these: Microsoft's guidance names the patterns (a hot partition key,
// a time-based key that writes to one partition at a time, keys that
// crowd a partition) and says to find the keys that consume the most
// (how-to-redistribute-throughput-across-partitions.md,
// troubleshoot-request-rate-too-large.md), so pkcalc states its own.
const (
	// OneKeyShare: a key is "most of" a partition's RU when it draws more
	// than half of it over the partition's busiest seconds.
	OneKeyShare = 0.5
	// LeadShare: a key leads a minute when it draws more than half of the
	// container's RU in it; a hot spot moves when at least two keys each
	// lead in turn, and the minutes led are at least LedMinutes of the
	// minutes logged.
	LeadShare  = 0.5
	LedMinutes = 0.5
)

// hotSpot says why the hottest partition is hot: one key (a hot tenant);
// keys that lead the container in turn (a moving hot spot, as a
// time-based key makes); many keys on a range wider than the others' (a
// crowded range, as an uneven split leaves); or many keys on an ordinary
// range.
func (s *state) hotSpot() {
	if s.hottest < 0 || len(s.cells) == 0 {
		return
	}
	p := s.parts[s.hottest]
	hs := &report.HotSpot{Partition: p.id, Key: []any{}}
	hs.Throttled = p.load.ThrottledSeconds != nil && *p.load.ThrottledSeconds > 0 ||
		p.load.NormalizedPeak != nil && *p.load.NormalizedPeak >= 1

	// The busiest bins: those at or over the share, or else the top 1 %.
	busy := map[binKey]bool{}
	threshold := p.load.P99RuPerSecond
	if p.share > 0 && p.load.ThrottledSeconds != nil && *p.load.ThrottledSeconds > 0 {
		threshold = p.share
	}
	for bk, ru := range p.bins {
		if perSec := ru / float64(s.grain); perSec >= threshold && perSec > 0 {
			busy[bk] = true
		}
	}
	byKey := map[int32]float64{}
	total := 0.0
	for _, c := range s.cells {
		if int(c.part) == s.hottest && busy[binKey{c.region, c.bin}] {
			byKey[c.key] += c.ru
			total += c.ru
		}
	}
	top := int32(-1)
	for k, ru := range byKey {
		if top < 0 || ru > byKey[top] || ru == byKey[top] && s.keys[k].id < s.keys[top].id {
			top = k
		}
	}
	if top >= 0 {
		s.hotKey = int(top)
		hs.Key = analysis.Values(s.keys[top].values)
		hs.KeyShare = round(ratio(byKey[top], total), 4)
	}
	median := s.medianSpace()
	if p.listed && median > 0 {
		hs.KeySpaceShare, hs.MedianKeySpaceShare = round(p.space, 6), round(median, 6)
	}
	name := p.id
	topText := ""
	if top >= 0 {
		topText = s.keyText(int(top))
	}
	leaders := s.leaders()
	switch {
	case leaders != nil:
		hs.Cause, hs.Leaders = report.CauseTimePattern, leaders
		var names []string
		for _, l := range leaders[:min(len(leaders), 4)] {
			names = append(names, fmt.Sprintf("%s from %s (%s of the RU)", valueText(l.Value), shortTime(l.From), human.Percent(l.Share)))
		}
		more := ""
		if len(leaders) > 4 {
			more = fmt.Sprintf(", and %d more", len(leaders)-4)
		}
		hs.Message = fmt.Sprintf("a moving hot spot: the busiest key changes over time, %s%s, and each in turn draws most of the RU on its partition; partition %s is the one the busiest of them hash to. %s",
			strings.Join(names, ", then "), more, name, s.timeKeyNote(leaders))
	case top >= 0 && hs.KeyShare > OneKeyShare:
		hs.Cause = report.CauseOneKey
		hs.Message = fmt.Sprintf("one key: %s draws %s of partition %s's RU in its busiest seconds; a hot tenant, which no split or redistribution spreads, since a logical partition lives on one physical partition and serves at most 10,000 RU/s",
			topText, human.Percent(hs.KeyShare), name)
	case p.listed && median > 0 && p.space > median*1.0000001:
		hs.Cause = report.CauseCrowded
		hs.Message = fmt.Sprintf("a crowded range: partition %s covers %s of the key space, %.1f times the median range's %s, so it holds the keys of %.1f partitions and their traffic (its busiest key draws %s); an uneven split leaves such a range, and splitting it evens the layout",
			name, human.Percent(p.space), p.space/median, human.Percent(median), p.space/median, human.Percent(hs.KeyShare))
	default:
		hs.Cause = report.CauseManyKeys
		hs.Message = fmt.Sprintf("many keys: no key draws most of partition %s's RU in its busiest seconds (the busiest, %s, draws %s) and its range is no wider than the others': its keys are busier than the rest",
			name, topText, human.Percent(hs.KeyShare))
	}
	if !hs.Throttled {
		hs.Message = "the busiest partition, though it never reached its share of the throughput: " + hs.Message
	}
	s.cause = hs.Cause
	s.d.HotSpot = hs
}

// medianSpace is the median share of the key space of the listed ranges.
func (s *state) medianSpace() float64 {
	var sp []float64
	for _, p := range s.parts {
		if p.listed && p.space > 0 {
			sp = append(sp, p.space)
		}
	}
	if len(sp) == 0 {
		return 0
	}
	slices.Sort(sp)
	if len(sp)%2 == 1 {
		return sp[len(sp)/2]
	}
	return (sp[len(sp)/2-1] + sp[len(sp)/2]) / 2
}

// leaders finds a moving hot spot: for each minute of the log, the key that
// draws the most of the container's RU; the minutes where it draws more
// than LeadShare are led. The hot spot moves when at least two keys lead,
// the minutes led are at least LedMinutes of those logged, each leader's
// minutes come in few stretches (at most two per leader, all told), and
// either the leaders' values read as times or rise in the order they
// lead, or no leader leads more than half the led minutes. nil when it
// does not move.
func (s *state) leaders() []report.Leader {
	step := max(s.grain, 60)
	type minute struct {
		total float64
		byKey map[int32]float64
	}
	mins := map[int64]*minute{}
	for _, c := range s.cells {
		at := c.bin / step * step
		m := mins[at]
		if m == nil {
			m = &minute{byKey: map[int32]float64{}}
			mins[at] = m
		}
		m.total += c.ru
		m.byKey[c.key] += c.ru
	}
	type run struct {
		key             int32
		from, to        int64
		minutes         int
		ru, containerRU float64
	}
	var runs []run
	led, count := 0, map[int32]int{}
	for _, at := range slices.Sorted(maps.Keys(mins)) {
		m := mins[at]
		top := int32(-1)
		for k, ru := range m.byKey {
			if top < 0 || ru > m.byKey[top] || ru == m.byKey[top] && s.keys[k].id < s.keys[top].id {
				top = k
			}
		}
		if top < 0 || m.byKey[top] <= LeadShare*m.total {
			continue
		}
		led++
		count[top]++
		if n := len(runs); n > 0 && runs[n-1].key == top {
			r := &runs[n-1]
			r.to, r.minutes, r.ru, r.containerRU = at+step-1, r.minutes+int(step/60), r.ru+m.byKey[top], r.containerRU+m.total
			continue
		}
		runs = append(runs, run{key: top, from: at, to: at + step - 1, minutes: int(step / 60), ru: m.byKey[top], containerRU: m.total})
	}
	if len(count) < 2 || float64(led) < LedMinutes*float64(len(mins)) || len(runs) > 2*len(count) {
		return nil
	}
	most := 0
	for _, n := range count {
		most = max(most, n)
	}
	keys := make([]int32, len(runs))
	for i, r := range runs {
		keys[i] = r.key
	}
	if !s.timeLike(keys) && most*2 > led {
		return nil
	}
	out := make([]report.Leader, len(runs))
	for i, r := range runs {
		out[i] = report.Leader{Value: analysis.Values(s.keys[r.key].values), From: unixText(r.from), To: unixText(r.to),
			Minutes: r.minutes, Share: round(ratio(r.ru, r.containerRU), 4)}
	}
	return out
}

// timeLike reports whether the leaders' values read as times, or rise in
// the order they lead, as a key built on time does.
func (s *state) timeLike(keys []int32) bool {
	times, rising := true, true
	for i, k := range keys {
		v := s.keys[k].values
		if len(v) == 0 {
			return false
		}
		last := v[len(v)-1]
		var node jsontree.Value
		switch last.Kind {
		case epk.String:
			node = jsontree.Value{Kind: jsontree.String, Str: last.Str}
		case epk.Number:
			node = jsontree.Value{Kind: jsontree.Number, Num: last.Num}
		}
		if _, ok := key.Time(&node); !ok {
			times = false
		}
		if i > 0 && compareValues(s.keys[keys[i-1]].values, v) >= 0 {
			rising = false
		}
	}
	return times || rising
}

// compareValues orders key values component by component: numbers by
// value, strings by their text, other kinds by kind.
func compareValues(a, b []epk.Value) int {
	for i := range min(len(a), len(b)) {
		x, y := a[i], b[i]
		if c := cmp.Compare(x.Kind, y.Kind); c != 0 {
			return c
		}
		if c := cmp.Or(cmp.Compare(x.Num, y.Num), strings.Compare(x.Str, y.Str)); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

func unixText(t int64) string { return time.Unix(t, 0).UTC().Format(time.RFC3339) }

// timeKeyNote says what a moving hot spot means for the key.
func (s *state) timeKeyNote([]report.Leader) string {
	return "A key built on time (a date, an hour) sends each period's writes to one partition: every partition serves at most its share of the throughput while the others idle (partitioning-overview.md: avoid a key whose current values take all new writes)."
}

// keyText is a logged key's value as people read it.
func (s *state) keyText(k int) string { return valueText(analysis.Values(s.keys[k].values)) }

// valueText writes a key value as JSON text: ["contoso"], ["contoso",42].
func valueText(v []any) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, c := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(jsonText(c))
	}
	b.WriteByte(']')
	return b.String()
}

// shortTime writes an RFC 3339 time as 2024-05-01 10:00.
func shortTime(t string) string {
	if at, err := time.Parse(time.RFC3339, t); err == nil {
		return at.UTC().Format("2006-01-02 15:04")
	}
	return t
}

// jsonText is a component as JSON text.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
