package diagnose

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/pkcalc/pkcalc/core/analysis"
	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/partition"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/core/telemetry"
)

// valueID is a key value's identity: its components as JSON, so that a
// value logged as ["contoso"] and as contoso is one key.
func valueID(vals []epk.Value) string {
	b, _ := json.Marshal(analysis.Values(vals))
	return string(b)
}

// readRU gathers the request-unit log into cells: the RU each key drew on
// each partition in each region and time bin.
//
// The log is written per second: PartitionKeyRUConsumption "logs the
// aggregated per-second RU/s consumption of partition keys"
// (monitor-resource-logs.md), and the documented queries sum RequestCharge
// by bin(TimeGenerated, 1s) per partition key range
// (how-to-redistribute-throughput-across-partitions.md). A second's RU
// is its RU/s, summed over the rows of that second (one per key,
// operation and region). An export binned by minute or hour (as the
// docs' top-keys-per-hour query bins it) is read in its bins, their RU
// divided by the bin's seconds: an average, which hides peaks, and a
// warning says so.
func (s *state) readRU() {
	if len(s.in.RU) == 0 {
		return
	}
	s.grain = grainOf(s.in.RU)
	type cellKey struct {
		key    int32
		part   int32
		region int16
		bin    int64
	}
	sums := map[cellKey]float64{}
	region := map[string]int16{}
	dbs, colls := map[string]int{}, map[string]int{}
	first, last := int64(math.MaxInt64), int64(math.MinInt64)
	s.ruKey = make([]int, len(s.in.RU))
	for i, r := range s.in.RU {
		k := s.keyOf(r.Key)
		s.ruKey[i] = k
		if !(r.Charge >= 0) || math.IsInf(r.Charge, 0) {
			continue
		}
		p := -1
		if usableRange(r.RangeID) {
			p = s.partOf(strings.TrimSpace(r.RangeID))
		}
		ri, ok := region[r.Region]
		if !ok {
			ri = int16(len(s.regions))
			region[r.Region] = ri
			s.regions = append(s.regions, r.Region)
		}
		bin := r.Time.Unix() / s.grain * s.grain
		first, last = min(first, bin), max(last, bin)
		sums[cellKey{int32(k), int32(p), ri, bin}] += r.Charge
		s.keys[k].ru += r.Charge
		dbs[r.Database]++
		colls[r.Collection]++
	}
	if first > last {
		return
	}
	s.first, s.last = first, last
	s.database, s.collection = mostFrequent(dbs), mostFrequent(colls)
	s.cells = make([]cell, 0, len(sums))
	for k, ru := range sums {
		s.cells = append(s.cells, cell{key: k.key, part: k.part, region: k.region, bin: k.bin, ru: ru})
	}
	slices.SortFunc(s.cells, func(a, b cell) int {
		return cmp.Or(cmp.Compare(a.region, b.region), cmp.Compare(a.bin, b.bin), cmp.Compare(a.part, b.part), cmp.Compare(a.key, b.key))
	})
	s.d.Window = &report.Window{
		From: time.Unix(first, 0).UTC().Format(time.RFC3339), To: time.Unix(last+s.grain-1, 0).UTC().Format(time.RFC3339),
		Seconds: last - first + s.grain, GrainSeconds: s.grain, Regions: append([]string{}, s.regions...),
	}
	if s.grain > 1 {
		s.warn(BinnedLog, fmt.Sprintf("the request-unit log's rows fall on whole %ss, as a query binned by %s writes them: each RU/s is a bin's RU over its %d seconds, an average that hides the busiest seconds; export the rows as the log writes them, a second each",
			grainWord(s.grain), grainWord(s.grain), s.grain))
	}
	s.warn(PartialRU, "the request-unit log charges point reads and writes, queries and stored procedures to their key (monitor-resource-logs.md): other operations, and requests throttled with 429, are not in it, so each partition's logged RU/s is a floor of what it drew and of what it was asked for")
}

// grainOf is the seconds between bins of the log: 1, unless every row
// falls on a whole minute (60) or hour (3600), as a binned export writes
// them. A log of one time is read a second at a time.
func grainOf(rows []telemetry.RU) int64 {
	hour, times := true, map[int64]bool{}
	for _, r := range rows {
		t := r.Time
		if t.Nanosecond() != 0 || t.Second() != 0 {
			return 1
		}
		hour = hour && t.Minute() == 0
		if len(times) < 3 {
			times[t.Unix()] = true
		}
	}
	switch {
	case len(times) < 3:
		return 1
	case hour:
		return 3600
	}
	return 60
}

func grainWord(g int64) string {
	if g == 3600 {
		return "hour"
	}
	return "minute"
}

func mostFrequent(m map[string]int) string {
	best, n := "", 0
	for k, c := range m {
		if c > n || c == n && k < best {
			best, n = k, c
		}
	}
	return best
}

// readMetrics keeps each range's NormalizedRUConsumption points.
func (s *state) readMetrics() {
	for _, m := range s.in.Metrics {
		if !usableRange(m.RangeID) || math.IsNaN(m.Percent) {
			continue
		}
		p := s.parts[s.partOf(strings.TrimSpace(m.RangeID))]
		p.normal = append(p.normal, m)
	}
}

// place puts each logged key on the ranges by its EPK under the current
// key: where pkcalc says it lives, which calibrate checks against the
// logged range. Rows logged without a range take pkcalc's.
func (s *state) place() {
	defer s.undefinedPart()
	if s.in.Current.Kind == "" {
		if len(s.keys) > 0 {
			s.warn(NoCurrentKey, "no current key (--current-key): the logged keys are taken where the logs put them, unchecked, and no other key can be replayed from them")
		}
		return
	}
	levels := s.in.Current.Levels()
	for _, k := range s.keys {
		if len(k.values) != levels {
			k.why = fmt.Sprintf("logged with %d %s, but the key %s has %d %s", len(k.values), human.Plural(int64(len(k.values)), "component", "components"),
				s.in.Current, levels, human.Plural(int64(levels), "level", "levels"))
			continue
		}
		k.epk = partition.EPK(s.in.Current.Kind, s.in.Version, k.values)
		if len(s.ranges) == 0 {
			continue
		}
		if i := epk.Locate(s.rangeList(), k.epk); i >= 0 {
			k.placed = s.byID[s.ranges[i].ID]
		} else {
			k.why = "no range given holds its EPK " + k.epk
		}
	}
	for i := range s.cells {
		if c := &s.cells[i]; c.part < 0 {
			if p := s.keys[c.key].placed; p >= 0 {
				c.part = int32(p)
			}
		}
	}
}

// undefinedPart gives the rows logged without a range that pkcalc cannot
// place a part of their own, "undefined", so that their RU is not lost.
func (s *state) undefinedPart() {
	for i := range s.cells {
		if c := &s.cells[i]; c.part < 0 {
			c.part = int32(s.partOf("undefined"))
		}
	}
}

// rangeList is the ranges' bounds, in order, for epk.Locate.
func (s *state) rangeList() []epk.Range {
	out := make([]epk.Range, len(s.ranges))
	for i, r := range s.ranges {
		out[i] = r.Range
	}
	return out
}

// partitions fills each physical partition's row: its load second by
// second against its share, its normalized consumption, and its keys.
func (s *state) partitions() {
	if n := s.physical(); s.in.Throughput.RU > 0 && n > 0 {
		s.share = capacity.PerPartitionRU(s.in.Throughput, n)
		s.d.Settings.ShareRU = round(s.share, 2)
		s.shares()
	}
	type keyOnPart struct {
		ru, peak float64
	}
	onPart := make([]map[int32]*keyOnPart, len(s.parts))
	for i := range onPart {
		onPart[i] = map[int32]*keyOnPart{}
	}
	for _, c := range s.cells {
		p := s.parts[c.part]
		p.bins[binKey{c.region, c.bin}] += c.ru
		k := onPart[c.part][c.key]
		if k == nil {
			k = &keyOnPart{}
			onPart[c.part][c.key] = k
		}
		k.ru += c.ru
		k.peak = max(k.peak, c.ru/float64(s.grain))
	}
	bins := int64(0)
	if s.d.Window != nil {
		bins = s.d.Window.Seconds / s.grain * int64(max(len(s.regions), 1))
	}
	for pi, p := range s.parts {
		row := report.PartitionLoad{ID: p.id, Listed: p.listed, Parents: p.parent, TopKeys: []report.KeyRU{}, LargestKeys: []report.KeySize{}}
		if p.listed {
			row.MinInclusive, row.MaxExclusive = p.rng.MinInclusive, p.rng.MaxExclusive
			row.KeySpaceShare = round(p.space, 6)
		}
		var vals []float64
		var peakAt int64
		for bk, ru := range p.bins {
			perSec := ru / float64(s.grain)
			vals = append(vals, perSec)
			row.RU += ru
			if perSec > row.PeakRuPerSecond || perSec == row.PeakRuPerSecond && bk.bin < peakAt {
				row.PeakRuPerSecond, peakAt = perSec, bk.bin
			}
		}
		row.Seconds = int64(len(vals)) * s.grain
		row.RU = round(row.RU, 2)
		row.PeakRuPerSecond = round(row.PeakRuPerSecond, 2)
		if len(vals) > 0 {
			row.PeakAt = time.Unix(peakAt, 0).UTC().Format(time.RFC3339)
		}
		row.P99RuPerSecond = round(percentile(vals, bins, 0.99), 2)
		if share := p.share; share > 0 {
			row.ShareRuPerSecond = round(share, 2)
			row.PeakUtilisation = ptr(round(row.PeakRuPerSecond/share, 4))
			n := int64(0)
			for _, v := range vals {
				if v >= share {
					n += s.grain
				}
			}
			row.ThrottledSeconds = ptr(n)
		}
		if len(p.normal) > 0 {
			peak, full := 0.0, int64(0)
			for _, m := range p.normal {
				peak = max(peak, m.Percent)
				if m.Percent >= 100 {
					full += int64(max(m.Interval, time.Minute) / time.Minute)
				}
			}
			row.NormalizedPeak, row.NormalizedFullMinutes = ptr(round(min(peak, 100)/100, 4)), ptr(full)
		}
		ks := make([]int32, 0, len(onPart[pi]))
		for k := range onPart[pi] {
			ks = append(ks, k)
		}
		row.Keys = len(ks)
		slices.SortFunc(ks, func(a, b int32) int {
			return cmp.Or(cmp.Compare(onPart[pi][b].ru, onPart[pi][a].ru), strings.Compare(s.keys[a].id, s.keys[b].id))
		})
		for _, k := range ks[:min(len(ks), MaxListed)] {
			kp := onPart[pi][k]
			row.TopKeys = append(row.TopKeys, report.KeyRU{Value: analysis.Values(s.keys[k].values), RU: round(kp.ru, 2),
				Share: round(ratio(kp.ru, row.RU), 4), PeakRuPerSecond: round(kp.peak, 2)})
		}
		s.d.Partitions = append(s.d.Partitions, row)
	}
	// The pointers into the slice are taken once it is complete.
	for i, p := range s.parts {
		p.load = &s.d.Partitions[i]
	}
	s.pickHottest()
}

// shares gives each partition its RU/s: the throughput divided evenly
// (partitioning-overview.md: 18,000 RU/s over three partitions is 6,000
// each), or, when the ranges feed gives every listed range its
// throughputFraction and they sum to the whole (within 1 %), each range
// its fraction, as a redistribution leaves them; at most 10,000 each.
func (s *state) shares() {
	sum, all := 0.0, true
	for _, p := range s.parts {
		if p.listed {
			sum += p.frac
			all = all && p.frac > 0
		}
	}
	byFraction := all && sum > 0.99 && sum < 1.01
	for _, p := range s.parts {
		switch {
		case byFraction && p.listed:
			p.share = min(float64(s.in.Throughput.RU)*p.frac, capacity.PartitionMaxRU)
		case !p.listed && p.id == "undefined":
		default:
			p.share = s.share
		}
	}
}

// shareOf is part i's RU/s.
func (s *state) shareOf(i int) float64 { return s.parts[i].share }

// physical is how many physical partitions the throughput is shared by:
// the ranges listed, or without a ranges feed the ids the logs name.
func (s *state) physical() int {
	n := 0
	for _, p := range s.parts {
		if p.listed {
			n++
		}
	}
	if n > 0 {
		return n
	}
	for _, p := range s.parts {
		if p.id != "undefined" {
			n++
		}
	}
	return n
}

// pickHottest is the partition whose busiest second is the most over its
// share (without the throughput, the busiest); without the RU log, the one
// whose normalized consumption peaked highest. Ties go to the first in
// key order.
func (s *state) pickHottest() {
	best, bestScore := -1, 0.0
	for i, p := range s.parts {
		score := p.load.PeakRuPerSecond
		if p.share > 0 {
			score = p.load.PeakRuPerSecond / p.share
		}
		if len(s.cells) == 0 {
			score = 0
			if p.load.NormalizedPeak != nil {
				score = *p.load.NormalizedPeak
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	s.hottest = best
	if best >= 0 {
		s.d.HottestPartition = s.parts[best].id
	}
}

// percentile is the p-th percentile (nearest rank) of vals padded with
// zeros to n values: the quiet bins of the window, which no row logs.
func percentile(vals []float64, n int64, p float64) float64 {
	if len(vals) == 0 {
		return 0
	}
	n = max(n, int64(len(vals)))
	rank := int64(math.Ceil(p * float64(n))) // 1-based
	zeros := n - int64(len(vals))
	if rank <= zeros {
		return 0
	}
	sorted := slices.Clone(vals)
	slices.Sort(sorted)
	return sorted[rank-zeros-1]
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
