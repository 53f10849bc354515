package diagnose

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/pkcalc/pkcalc/core/analysis"
	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/partition"
	"github.com/pkcalc/pkcalc/core/report"
)

// joint is the documents' joint distribution of current and candidate key
// values: for each current value the logs name, how its documents (and
// bytes) spread over each candidate's values.
type joint struct {
	rows    map[string]*jointRow // by the current value's identity
	pairs   int
	capped  int64   // documents whose pair was past MaxPairs
	docs    int64   // documents read
	missing []int64 // per candidate: documents that lack its paths
}

type jointRow struct {
	docs, bytes int64
	per         []map[string]*jointVal // per candidate, by value identity
}

type jointVal struct {
	values      []epk.Value
	docs, bytes int64
}

// readDocuments reads the documents into the joint distribution of the
// current key's values (those the logs name) and each candidate's.
func (s *state) readDocuments(cands []key.Spec) *joint {
	if s.in.Documents == nil || s.in.Current.Kind == "" {
		return nil
	}
	j := &joint{rows: map[string]*jointRow{}, missing: make([]int64, len(cands))}
	cur := s.in.Current
	var buf []epk.Value
	for doc, size := range s.in.Documents {
		j.docs++
		buf, _ = cur.Extract(doc, buf[:0])
		id := valueID(buf)
		if _, ok := s.keyBy[id]; !ok {
			continue // a value the logs do not name draws no logged RU
		}
		row := j.rows[id]
		if row == nil {
			row = &jointRow{per: make([]map[string]*jointVal, len(cands))}
			for i := range row.per {
				row.per[i] = map[string]*jointVal{}
			}
			j.rows[id] = row
		}
		row.docs++
		row.bytes += int64(size)
		for ci := range cands {
			vals, st := cands[ci].Extract(doc, nil)
			if st == key.Missing || st == key.NotTime || st == key.Invalid {
				j.missing[ci]++
			}
			vid := valueID(vals)
			v := row.per[ci][vid]
			if v == nil {
				if j.pairs >= MaxPairs {
					j.capped++
					continue
				}
				j.pairs++
				v = &jointVal{values: vals}
				row.per[ci][vid] = v
			}
			v.docs++
			v.bytes += int64(size)
		}
	}
	return j
}

// share is a part of a logged key's traffic and storage given to one
// candidate value.
type share struct {
	val         int     // index in the candidate's values
	docs, bytes float64 // fractions of the key's documents and bytes
}

// candidate is one key being replayed.
type candidate struct {
	spec    key.Spec
	version epk.Version
	values  []string // EPK of each candidate value
	texts   [][]any
	spreads [][]share // per logged key, its values by share, the largest first
	mapped  []bool    // per logged key: spread by the documents or derived, not kept whole
}

// spread builds how each logged key's traffic spreads over the
// candidate's values: through the documents' joint distribution; or, for
// the current key itself and a prefix of a hierarchical current key, from
// the logged value alone; or, for a value the documents do not hold, kept
// whole as one value (it may be no better spread under the candidate).
func (s *state) spread(spec key.Spec, ci int, j *joint) *candidate {
	c := &candidate{spec: spec, version: s.in.Version}
	if spec.Kind == key.MultiHash {
		c.version = epk.V2
	}
	index := map[string]int{}
	value := func(vals []epk.Value) int {
		id := valueID(vals)
		if i, ok := index[id]; ok {
			return i
		}
		index[id] = len(c.values)
		c.values = append(c.values, partition.EPK(spec.Kind, c.version, vals))
		c.texts = append(c.texts, analysis.Values(vals))
		return len(c.values) - 1
	}
	prefix := derivable(s.in.Current, spec)
	c.spreads = make([][]share, len(s.keys))
	c.mapped = make([]bool, len(s.keys))
	for ki, k := range s.keys {
		switch row := j.row(k.id); {
		case prefix > 0 && len(k.values) >= prefix:
			c.spreads[ki] = []share{{val: value(k.values[:prefix]), docs: 1, bytes: 1}}
			c.mapped[ki] = true
		case row != nil && len(row.per[ci]) > 0:
			ids := slices.Sorted(mapKeys(row.per[ci]))
			kept := int64(0)
			for _, id := range ids {
				kept += row.per[ci][id].docs
			}
			var out []share
			for _, id := range ids {
				v := row.per[ci][id]
				out = append(out, share{val: value(v.values), docs: float64(v.docs) / float64(kept), bytes: ratio(float64(v.bytes), float64(row.bytes))})
			}
			slices.SortStableFunc(out, func(a, b share) int { return cmp.Compare(b.docs, a.docs) })
			c.spreads[ki] = out
			c.mapped[ki] = true
		default:
			c.spreads[ki] = []share{{val: value(k.values), docs: 1, bytes: 1}}
		}
	}
	return c
}

func (j *joint) row(id string) *jointRow {
	if j == nil {
		return nil
	}
	return j.rows[id]
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// derivable is how many components of the current key's value make the
// candidate's: all of them for the current key itself, the first m for a
// candidate whose paths are the first m of a hierarchical current key's;
// 0 when the candidate cannot be told from the logged value.
func derivable(cur, cand key.Spec) int {
	if cur.Kind == "" {
		return 0
	}
	if cur.String() == cand.String() {
		return cur.Levels()
	}
	if cur.Kind != key.MultiHash || cand.Kind == key.Synthetic || len(cand.Paths) >= len(cur.Paths) {
		return 0
	}
	for i, p := range cand.Paths {
		if !slices.Equal(p, cur.Paths[i]) {
			return 0
		}
	}
	return len(cand.Paths)
}

// outcome is one replay of the logged traffic on a layout.
type outcome struct {
	n         int
	total     float64   // RU replayed
	perPart   []float64 // RU on each partition
	peakPart  []float64 // each partition's busiest second, RU/s
	throttled float64   // RU over the partitions' capacity, second by second
	peakValue float64   // the busiest candidate value's busiest second, RU/s
	busiest   int       // that value
}

// maxValueFanOut is how many of a logged key's candidate values, the
// largest shares first, the busiest value is looked for among: a value
// with a smaller share of a key is the busiest only by sharing in many
// keys, as values of a coarser key do, and those keys spread over few.
const maxValueFanOut = 64

// replay puts the logged traffic, second by second, on n evenly split
// partitions of the candidate, each serving capacity RU/s (0: no limit).
func (s *state) replay(c *candidate, n int, capacityRU float64) outcome {
	ranges := epk.Ranges(c.version, n)
	part := make([]int, len(c.values))
	for i, e := range c.values {
		part[i] = max(epk.Locate(ranges, e), 0)
	}
	type weight struct {
		part int
		w    float64
	}
	perKey := make([][]weight, len(s.keys))
	for ki, sp := range c.spreads {
		acc := map[int]float64{}
		for _, sh := range sp {
			acc[part[sh.val]] += sh.docs
		}
		for _, p := range slices.Sorted(intKeys(acc)) {
			perKey[ki] = append(perKey[ki], weight{p, acc[p]})
		}
	}
	o := outcome{n: n, perPart: make([]float64, n), peakPart: make([]float64, n), busiest: -1}
	demand := make([]float64, n)
	values := make([]float64, len(c.values)) // this bin's demand per value
	var touched []int
	g := float64(s.grain)
	flush := func() {
		for p, d := range demand {
			if d == 0 {
				continue
			}
			perSec := d / g
			o.perPart[p] += d
			o.total += d
			o.peakPart[p] = max(o.peakPart[p], perSec)
			if capacityRU > 0 && perSec > capacityRU {
				o.throttled += (perSec - capacityRU) * g
			}
			demand[p] = 0
		}
		for _, v := range touched {
			if perSec := values[v] / g; perSec > o.peakValue || perSec == o.peakValue && v < o.busiest {
				o.peakValue, o.busiest = perSec, v
			}
			values[v] = 0
		}
		touched = touched[:0]
	}
	for i, cl := range s.cells {
		if i > 0 && (cl.bin != s.cells[i-1].bin || cl.region != s.cells[i-1].region) {
			flush()
		}
		for _, w := range perKey[cl.key] {
			demand[w.part] += cl.ru * w.w
		}
		for _, sh := range c.spreads[cl.key][:min(len(c.spreads[cl.key]), maxValueFanOut)] {
			if values[sh.val] == 0 {
				touched = append(touched, sh.val)
			}
			values[sh.val] += cl.ru * sh.docs
		}
	}
	flush()
	return o
}

func intKeys[V any](m map[int]V) func(func(int) bool) {
	return func(yield func(int) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// whatIf replays the logged traffic and storage onto each candidate (and
// the current key, on a new container's layout).
func (s *state) whatIf() {
	if len(s.keys) == 0 {
		return
	}
	cands := s.candidates()
	for _, c := range cands {
		if c.String() != s.d.Settings.CurrentKey {
			s.d.Settings.Keys = append(s.d.Settings.Keys, c.String())
		}
	}
	j := s.readDocuments(cands)
	if j != nil {
		s.docs = j
		if j.capped > 0 {
			s.warn(PairsCapped, fmt.Sprintf("the documents held more than %s pairs of current and candidate values: %s documents past them counted only for pairs already kept", human.Count(MaxPairs), human.Count(j.capped)))
		}
	}
	storageKb := 0.0
	for _, k := range s.keys {
		storageKb += max(k.sizeKb, 0)
	}
	storage := int64(storageKb * 1024)
	for ci, spec := range cands {
		if s.in.Current.Kind == "" {
			break
		}
		if derivable(s.in.Current, spec) == 0 && j == nil {
			s.warn(NoReplay, fmt.Sprintf("key %s is not replayed: the logs give the current key's values, and only the documents (DOCUMENTS) say which values of %s their items hold", spec, spec))
			continue
		}
		if j != nil && j.docs > 0 && derivable(s.in.Current, spec) == 0 && float64(j.missing[ci]) > 0.5*float64(j.docs) {
			s.warn(CandidateMissing, fmt.Sprintf("most documents (%s of %s) lack a path of key %s, or hold a value it cannot take: their items would all go under one value", human.Count(j.missing[ci]), human.Count(j.docs), spec))
		}
		s.d.WhatIf = append(s.d.WhatIf, s.replayKey(spec, ci, j, storage))
	}
}

// replayKey replays the logs onto one key.
func (s *state) replayKey(spec key.Spec, ci int, j *joint, storage int64) report.WhatIf {
	c := s.spread(spec, ci, j)
	w := report.WhatIf{Key: spec.String(), Kind: string(spec.Kind), Current: spec.String() == s.d.Settings.CurrentKey, BusiestValue: []any{}, Notes: []string{}}
	t := s.in.Throughput
	n := capacity.Partitions(t, storage)
	capacityRU := 0.0
	if t.RU > 0 {
		capacityRU = capacity.PerPartitionRU(t, n)
	}
	o := s.replay(c, n, capacityRU)
	w.Partitions = n
	hot := 0
	for p := range o.perPart {
		if o.perPart[p] > o.perPart[hot] {
			hot = p
		}
	}
	w.HottestPartitionShare = round(ratio(o.perPart[hot], o.total), 4)
	w.HottestPeakRuPerSecond = round(o.peakPart[hot], 2)
	if t.RU > 0 {
		w.ThrottledShare = ptr(round(ratio(o.throttled, o.total), 4))
	}
	if o.busiest >= 0 {
		w.BusiestValue, w.BusiestValueRuPerSecond = c.texts[o.busiest], round(o.peakValue, 2)
	}
	mapped, all := 0.0, 0.0
	sizes := make([]float64, len(c.values))
	for ki, k := range s.keys {
		all += k.ru
		if c.mapped[ki] {
			mapped += k.ru
		}
		if k.sizeKb > 0 {
			for _, sh := range c.spreads[ki] {
				sizes[sh.val] += k.sizeKb * sh.bytes
			}
		}
	}
	w.Coverage = round(ratio(mapped, all), 4)
	if len(sizes) > 0 {
		w.LargestValueKb = round(slices.Max(sizes), 0)
	}
	if o.peakValue > capacity.PartitionMaxRU {
		w.Notes = append(w.Notes, fmt.Sprintf("value %s draws %s RU/s in its busiest second, more than the 10,000 RU/s a logical partition serves: no RU/s cures it under this key",
			valueText(w.BusiestValue), human.Count(int64(math.Ceil(o.peakValue)))))
	} else {
		if ru, parts := s.required(c, storage); parts > 0 {
			w.RequiredRu, w.RequiredPartitions = ptr(ru), parts
		}
	}
	if w.LargestValueKb >= LimitKb {
		w.Notes = append(w.Notes, fmt.Sprintf("its largest value would hold %s, past the 20 GB a logical partition holds", kbText(w.LargestValueKb)))
	}
	if w.Coverage < 1 && !w.Current && derivable(s.in.Current, spec) == 0 {
		w.Notes = append(w.Notes, fmt.Sprintf("%s of the logged RU is of current values the documents do not hold: each is replayed as one value", human.Percent(1-w.Coverage)))
	}
	if note := s.multiHashNote(spec, c, o); note != "" {
		w.Notes = append(w.Notes, note)
	}
	return w
}

// required is the least RU/s (in the service's steps) at which no replayed
// second throttles, over the layouts a new container can have: n evenly
// split partitions, made by creating it with n x 6,000 RU/s (10,000
// autoscale: capacity.CreateRU) and then setting the RU/s anywhere up to
// n x 10,000, which keeps them (scaling-provisioned-throughput-best-
// practices.md). On n partitions it needs n times its busiest
// partition-second; n is at least what the storage needs (50 GB each),
// and no layout does better than the busiest value's second times n, which
// ends the search. At least the least the service allows for the storage
// (capacity.MinRU).
func (s *state) required(c *candidate, storage int64) (ru, parts int) {
	auto := s.in.Throughput.Autoscale
	step := capacity.RUStep(auto)
	floor := capacity.MinRU(auto, storage, 0)
	least := capacity.Partitions(capacity.Throughput{}, storage)
	best, bestN := math.MaxInt, 0
	for n := least; n <= capacity.MaxPartitions; n = nextLayout(n, least) {
		o := s.replay(c, n, 0)
		if float64(n)*o.peakValue > float64(best) {
			break
		}
		peak := slices.Max(o.peakPart)
		if peak > capacity.PartitionMaxRU {
			continue
		}
		need := max(int(math.Ceil(peak*float64(n)/float64(step)))*step, floor, step)
		if need < best {
			best, bestN = need, n
		}
	}
	if bestN == 0 {
		return 0, 0
	}
	return best, bestN
}

// nextLayout is the next partition count required tries: every count up
// to 32 partitions past the least, then doubling.
func nextLayout(n, least int) int {
	if n < least+32 {
		return n + 1
	}
	return n * 2
}

// multiHashNote says, for a hierarchical candidate whose first level is
// the current key, that on a first layout its hot values stay on one
// partition: the layout's ranges are cut on the first level's hash, so all
// of a prefix's values lie in one range until that range splits inside
// the prefix.
func (s *state) multiHashNote(spec key.Spec, c *candidate, o outcome) string {
	cur := s.in.Current
	if spec.Kind != key.MultiHash || cur.Kind != key.Hash || !slices.Equal(spec.Paths[0], cur.Paths[0]) || s.hotKey < 0 {
		return ""
	}
	hot := s.keys[s.hotKey]
	size := ""
	if hot.sizeKb > 0 {
		size = fmt.Sprintf(" (it holds %s", kbText(hot.sizeKb))
		if g, ok := growth(hot.series); ok && g > 0 {
			days := (float64(capacity.PhysicalPartitionMaxBytes)/1024 - hot.sizeKb) / g
			size += fmt.Sprintf(", and at its logged growth the prefix alone passes 50 GB in %s days", numText(round(max(days, 0), 0)))
		}
		size += ")"
	}
	return fmt.Sprintf("%s keeps %s on one partition on a first layout: a new container's %d ranges are cut on the first level's hash, and every value under %s shares it, so its traffic stays together as under %s. "+
		"It spreads only when that partition splits inside the prefix: when the partition passes 50 GB a storage split cuts it where about half its data lies, which for a partition that is mostly %s falls inside it%s; "+
		"raising RU/s past partitions x 10,000 splits it too, where the service chooses. Hierarchical partition keys' FAQ gives the plan: create with less than 10,000 RU/s, ingest, then scale up so the partitions split uniformly",
		spec, valueText(analysis.Values(hot.values)), o.n, valueText(analysis.Values(hot.values)), cur, valueText(analysis.Values(hot.values)), size)
}

// candidates are the keys to replay: the current key first (on a new
// layout), then those named, or else suggestions from the hot spot.
func (s *state) candidates() []key.Spec {
	var out []key.Spec
	seen := map[string]bool{}
	add := func(k key.Spec) {
		if !seen[k.String()] {
			seen[k.String()] = true
			out = append(out, k)
		}
	}
	if s.in.Current.Kind != "" {
		add(s.in.Current)
	}
	for _, k := range s.in.Candidates {
		add(k)
	}
	if len(s.in.Candidates) == 0 {
		for _, k := range s.suggestions() {
			add(k)
		}
	}
	return out
}

// suggestions are the keys worth replaying for a hash key without named
// candidates, with documents to replay them through: the key with the
// item id under it (a hierarchical key, which spreads a hot value once its
// partition splits), and the key with a computed suffix of the id
// (hash(/id)%N, N the fewest that keep the hot key's busiest second under
// half of 10,000 RU/s and its size under half of 20 GB per suffix, as the
// analysis chooses N, and at least the partitions a new container starts
// with, so that the hot key can reach each of them).
func (s *state) suggestions() []key.Spec {
	cur := s.in.Current
	if cur.Kind != key.Hash || s.in.Documents == nil {
		return nil
	}
	var out []key.Spec
	if k, err := key.Parse(cur.String() + ",/id"); err == nil && s.in.Version != epk.V1 {
		out = append(out, k)
	}
	n := 2
	if s.hotKey >= 0 {
		hot := s.keys[s.hotKey]
		peak := 0.0
		for _, r := range s.d.Partitions {
			for _, t := range r.TopKeys {
				if valueText(t.Value) == s.keyText(s.hotKey) {
					peak = max(peak, t.PeakRuPerSecond)
				}
			}
		}
		n = max(n, int(math.Ceil(peak/(capacity.PartitionMaxRU/2))), int(math.Ceil(max(hot.sizeKb, 0)/(LimitKb/2))))
	}
	storageKb := 0.0
	for _, k := range s.keys {
		storageKb += max(k.sizeKb, 0)
	}
	n = max(n, capacity.Partitions(s.in.Throughput, int64(storageKb*1024)))
	n = min(n, key.MaxModulus)
	if k, err := key.Parse(fmt.Sprintf("%s+hash(/id)%%%d", cur, n)); err == nil {
		out = append(out, k)
	}
	return out
}

// inputs are the exports as read: the caller's, taken once the
// documents are read (their problems are counted as they are), with the
// documents' count.
func (s *state) inputs() []report.ExportRead {
	out := append([]report.ExportRead{}, s.in.Exports...)
	if s.docs == nil {
		return out
	}
	for i := range out {
		if out[i].Kind == report.ExportDocuments {
			out[i].Records = int(s.docs.docs)
			return out
		}
	}
	return append(out, report.ExportRead{Kind: report.ExportDocuments, Name: "documents", Records: int(s.docs.docs), Errors: []report.Problem{}})
}
