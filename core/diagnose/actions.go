package diagnose

import (
	"fmt"
	"math"
	"strings"

	"github.com/pkcalc/pkcalc/core/analysis"
	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/provision"
	"github.com/pkcalc/pkcalc/core/report"
)

// The documented rules the actions follow.
const (
	sourceRedistribute = "nosql/how-to-redistribute-throughput-across-partitions.md: a partition's target is its consumed RU/s plus its 429s times their charge; for a hot one, double its RU/s or raise them to 10,000, whichever is lower; a partition serves at most 10,000 RU/s and takes a target of up to 20,000, past 10,000 splitting in two; a total that differs from the container's becomes its throughput"
	sourceRaise        = "scaling-provisioned-throughput-best-practices.md: RU/s are shared evenly by the physical partitions; up to partitions x 10,000 a change is instant, past it partitions split, and to keep them even scale to 10,000 x P x 2^ROUNDUP(LOG2(S / (10,000 x P))) first"
	sourceSplitTenant  = "Azure Architecture Center, Multitenancy and Azure Cosmos DB (guide/multitenant/service/cosmos-db): models combine, and a busy tenant moves to a container with throughput of its own; a logical partition serves at most 10,000 RU/s and holds 20 GB (concepts-limits.md)"
	sourceChangeKey    = "nosql/change-partition-key.md: a container's key cannot change, its items are copied to a new container (container copy jobs, nosql/how-to-container-copy.md; or the change feed); hierarchical keys cannot be added to an existing container (hierarchical-partition-keys-faq)"
)

// actions lists what to do about the hot spot, in order of cost: share
// the same throughput out unevenly, raise it, move the hot key to its own
// container, change the key. Each says its effect on the figures above
// and whether it cures the hot spot.
func (s *state) actions() {
	s.limitKey = s.nearestLimit()
	hot := s.hottest >= 0 && s.share > 0 && len(s.cells) > 0
	if hot {
		s.d.Actions = append(s.d.Actions, s.redistribute(), s.raise())
	}
	if hot || s.limitKey >= 0 {
		s.d.Actions = append(s.d.Actions, s.splitTenant(), s.changeKey())
	}
}

// nearestLimit is the logged key nearest 20 GB: past the alert line, or
// growing to 20 GB within a year; -1 when none is.
func (s *state) nearestLimit() int {
	best, bestDays := -1, math.Inf(1)
	for i, k := range s.keys {
		if k.sizeKb < 0 {
			continue
		}
		days := math.Inf(1)
		if g, ok := growth(k.series); ok && g > 0 {
			days = max(LimitKb-k.sizeKb, 0) / g
		}
		if k.sizeKb >= AlertKb {
			days = min(days, 1e9)
		}
		if days <= NearDays || k.sizeKb >= AlertKb {
			if days < bestDays || days == bestDays && (best < 0 || k.sizeKb > s.keys[best].sizeKb) {
				best, bestDays = i, days
			}
		}
	}
	return best
}

// NearDays: a key that reaches 20 GB within a year at its logged growth
// needs acting on now, since the cure (a new key, a container of its
// own) copies its items: pkcalc's rule.
const NearDays = 365

// container names the container in the commands, as the logs name it.
func (s *state) container(ru int) provision.Container {
	return provision.Container{Account: s.in.Account, ResourceGroup: s.in.ResourceGroup, Database: s.database, Name: s.collection,
		RU: ru, Autoscale: s.in.Throughput.Autoscale}
}

// listedParts are the partitions a redistribution names: the ranges
// listed, or without a ranges feed the ids the logs name.
func (s *state) listedParts() []int {
	var out []int
	for i, p := range s.parts {
		if p.listed {
			out = append(out, i)
		}
	}
	if len(out) > 0 {
		return out
	}
	for i, p := range s.parts {
		if p.id != "undefined" {
			out = append(out, i)
		}
	}
	return out
}

// need is what a partition needs, RU/s: its busiest logged second,
// rounded up to 100; for one that reached its share, whose 429s the log
// does not hold, the documented first step, twice its share or 10,000,
// whichever is lower.
func (s *state) need(i int) float64 {
	p := s.parts[i].load
	if p.ThrottledSeconds != nil && *p.ThrottledSeconds > 0 {
		return max(capacity.RedistributeHotRU(s.shareOf(i)), roundUp(p.PeakRuPerSecond, capacity.RedistributeStep))
	}
	return max(roundUp(p.PeakRuPerSecond, capacity.RedistributeStep), capacity.RedistributeStep)
}

func roundUp(f float64, step float64) float64 { return math.Ceil(f/step) * step }

// throttledAt counts the hot partition's logged seconds at or over
// capacity RU/s, leaving out the key skip (-1: none).
func (s *state) throttledAt(capacityRU float64, skip int) int64 {
	bins := map[binKey]float64{}
	for _, c := range s.cells {
		if int(c.part) == s.hottest && int(c.key) != skip {
			bins[binKey{c.region, c.bin}] += c.ru
		}
	}
	n := int64(0)
	for _, ru := range bins {
		if ru/float64(s.grain) >= capacityRU {
			n += s.grain
		}
	}
	return n
}

// hotKeyPeak is the hot key's busiest second on the hot partition.
func (s *state) hotKeyPeak() float64 {
	peak := 0.0
	for _, c := range s.cells {
		if int(c.key) == s.hotKey && int(c.part) == s.hottest {
			peak = max(peak, c.ru/float64(s.grain))
		}
	}
	return peak
}

// redistribute gives the hot partition what it needs from the others'
// unused share, each kept at its own need, and names the total that
// results.
func (s *state) redistribute() report.Action {
	a := report.Action{Code: report.ActionRedistribute, Source: sourceRedistribute, Commands: []string{}}
	parts := s.listedParts()
	hot := s.parts[s.hottest]
	if !hot.listed && len(parts) > 0 && s.parts[parts[0]].listed {
		a.Message = fmt.Sprintf("partition %s is not in the ranges given: give the current ranges feed to redistribute", hot.id)
		return a
	}
	targets := map[int]float64{}
	share := s.shareOf(s.hottest)
	hotNeed := s.need(s.hottest)
	oneKey := s.cause == report.CauseOneKey
	switch {
	case share >= capacity.PartitionMaxRU && !oneKey:
		hotNeed = capacity.RedistributeMaxTargetRU // 10,000 is not enough: split it, up to 20,000
	case s.cause == report.CauseCrowded && 2*share > capacity.PartitionMaxRU:
		// Twice its share splits a crowded range into two of its share,
		// each as wide as the others: the layout the split left uneven
		// evens out.
		hotNeed = min(2*share, capacity.RedistributeMaxTargetRU)
	}
	extra := hotNeed - share
	slack := 0.0
	for _, i := range parts {
		if i != s.hottest {
			slack += max(s.shareOf(i)-s.need(i), 0)
		}
	}
	crowdedSplit := s.cause == report.CauseCrowded && hotNeed > capacity.PartitionMaxRU
	for _, i := range parts {
		switch {
		case i == s.hottest:
			targets[i] = hotNeed
		case extra > 0 && slack > 0 && !crowdedSplit:
			give := min(extra, slack) * max(s.shareOf(i)-s.need(i), 0) / slack
			targets[i] = max(roundUp(s.shareOf(i)-give, 100), s.need(i))
		default:
			targets[i] = roundUp(s.shareOf(i), 100)
		}
	}
	var pr []provision.PartitionRU
	var ts []int
	for _, i := range parts {
		ru := int(targets[i])
		ts = append(ts, ru)
		pr = append(pr, provision.PartitionRU{ID: s.parts[i].id, RU: ru})
		a.Targets = append(a.Targets, report.Target{Partition: s.parts[i].id, RU: ru})
	}
	total, _ := capacity.Redistributed(ts)
	a.RU = total
	after := s.throttledAt(min(hotNeed, capacity.PartitionMaxRU), -1)
	a.ThrottledSeconds = ptr(after)
	before := int64(0)
	if hot.load.ThrottledSeconds != nil {
		before = *hot.load.ThrottledSeconds
	}
	totalWord := fmt.Sprintf("the container's throughput stays %s RU/s", human.Count(int64(s.in.Throughput.RU)))
	if total != s.in.Throughput.RU {
		totalWord = fmt.Sprintf("the container's throughput becomes %s RU/s (from %s)", human.Count(int64(total)), human.Count(int64(s.in.Throughput.RU)))
	}
	throttling := 0
	for _, i := range parts {
		if t := s.parts[i].load.ThrottledSeconds; t != nil && *t > 0 {
			throttling++
		}
	}
	switch {
	case s.cause == report.CauseTimePattern && throttling > 1:
		a.Message = fmt.Sprintf("the hot spot moves: %d partitions reach their share in turn, as the key's current values change, so no fixed share of the throughput follows it; raise the RU/s, or change the key", throttling)
	case oneKey && s.hotKeyPeak() >= capacity.PartitionMaxRU:
		a.Message = fmt.Sprintf("partition %s's hot key already draws %s RU/s, the most a logical partition serves: no share of the throughput helps it", hot.id, human.Count(int64(s.hotKeyPeak())))
	case hotNeed <= share:
		a.Message = fmt.Sprintf("partition %s never reached its share (%s RU/s): nothing to move", hot.id, human.Count(int64(share)))
	default:
		a.Helps = true
		a.Commands = append(a.Commands, provision.PreviewExtension+"\n", provision.Redistribute(s.container(0), pr))
		split := ""
		if hotNeed > capacity.PartitionMaxRU {
			split = fmt.Sprintf("; a target over 10,000 splits it in two of %s RU/s each", human.Count(int64(hotNeed/2)))
		}
		from := "taken from the partitions that never used their share (each keeps its busiest second)"
		if crowdedSplit {
			from = "the others keeping theirs, so that every partition has the same share of the throughput and of the key space"
		}
		a.Message = fmt.Sprintf("give partition %s %s RU/s instead of %s, %s; %s%s. Of its %s logged seconds at its share, %s would still be at the new target: the log holds no throttled request, so measure the 429s after, and raise it again if they stay. Undo with --evenly-distribute; until then the throughput changes only by this command",
			hot.id, human.Count(int64(hotNeed)), human.Count(int64(share)), from, totalWord, split, human.Count(before), human.Count(after))
		if oneKey {
			a.Message += fmt.Sprintf(". Its hot key alone is capped at 10,000 RU/s, whatever the partition gets")
		}
	}
	if len(parts) > 50 {
		s.warn(ManyPartitions, fmt.Sprintf("the container has %d partitions: users report redistribute-partition-throughput failing past 50 (Azure/azure-cli issue 29341)", len(parts)))
	}
	return a
}

// raise is the least RU/s, in the service's steps, at which every
// partition's share covers what it needs on the same layout, and what
// that does to the layout.
func (s *state) raise() report.Action {
	a := report.Action{Code: report.ActionRaiseRU, Source: sourceRaise, Commands: []string{}}
	n := s.physical()
	// Each partition keeps its fraction of the RU/s as they rise: the
	// total each needs is its need over its fraction.
	most := 0.0
	for _, i := range s.listedParts() {
		if f := s.shareOf(i) / float64(s.in.Throughput.RU); f > 0 {
			most = max(most, s.need(i)/f)
		}
	}
	step := capacity.RUStep(s.in.Throughput.Autoscale)
	ru := int(math.Ceil(most/float64(step))) * step
	ru = max(ru, s.in.Throughput.RU)
	a.RU = ru
	share := min(s.shareOf(s.hottest)*float64(ru)/float64(s.in.Throughput.RU), capacity.PartitionMaxRU)
	after := s.throttledAt(share, -1)
	a.ThrottledSeconds = ptr(after)
	c := s.container(ru)
	hot := s.parts[s.hottest]
	oneKey := s.cause == report.CauseOneKey
	switch {
	case ru <= s.in.Throughput.RU:
		a.Message = "no partition reached its share of the throughput: it is enough for the logged load"
		return a
	case oneKey && s.hotKeyPeak() >= capacity.PartitionMaxRU:
		a.Message = fmt.Sprintf("partition %s's hot key already draws the 10,000 RU/s a logical partition serves: more RU/s cannot serve it more", hot.id)
		return a
	}
	a.Helps = true
	cost := float64(ru) / float64(s.in.Throughput.RU)
	if ru <= n*capacity.PartitionMaxRU {
		a.Commands = append(a.Commands, provision.UpdateThroughput(c))
		a.Message = fmt.Sprintf("raise the RU/s from %s to %s (%.1f times the cost): each of the %d partitions gets %s RU/s at once, no split; of the hot partition's logged seconds, %s would still be at its share",
			human.Count(int64(s.in.Throughput.RU)), human.Count(int64(ru)), cost, n, human.Count(int64(share)), human.Count(after))
	} else {
		even := capacity.EvenSplitRU(n, ru)
		first := c
		first.RU = even
		a.Commands = append(a.Commands, provision.UpdateThroughput(first), provision.UpdateThroughput(c))
		a.Message = fmt.Sprintf("raise the RU/s from %s to %s (%.1f times the cost): past %d x 10,000 the partitions split, so set %s first for even splits, then lower it to %s once they finish (the least RU/s allowed then rises to a hundredth of the highest ever set)",
			human.Count(int64(s.in.Throughput.RU)), human.Count(int64(ru)), cost, n, human.Count(int64(even)), human.Count(int64(ru)))
	}
	if oneKey {
		a.Message += "; the hot key's share grows with it, up to the 10,000 RU/s a logical partition serves"
	}
	return a
}

// splitTenant moves a key to a container of its own: the hot key, with
// throughput for its busiest second, or the key nearest 20 GB, under a
// key that splits it. It says what the hot partition is left with.
func (s *state) splitTenant() report.Action {
	a := report.Action{Code: report.ActionSplitTenant, Source: sourceSplitTenant, Commands: []string{}}
	k := -1
	switch {
	case s.cause == report.CauseOneKey && s.hotKey >= 0:
		k = s.hotKey
	case s.limitKey >= 0:
		k = s.limitKey
	default:
		a.Message = "no one key makes the hot partition hot: moving a key out would not cool it"
		return a
	}
	tenant := s.keys[k]
	peak := 0.0
	for _, c := range s.cells {
		if int(c.key) == k {
			peak = max(peak, c.ru/float64(s.grain))
		}
	}
	// Its partition reached its share, so its own need is not logged
	// either: the documented first step, as for the partition (need).
	need := roundUp(peak, 100)
	if s.hottest >= 0 && k == s.hotKey {
		if t := s.parts[s.hottest].load.ThrottledSeconds; t != nil && *t > 0 {
			need = max(need, math.Min(2*peak, capacity.PartitionMaxRU))
		}
	}
	ru := max(int(roundUp(need, 100)), capacity.MinRU(s.in.Throughput.Autoscale, int64(max(tenant.sizeKb, 0)*1024), 0))
	if s.in.Throughput.Autoscale {
		ru = int(roundUp(float64(ru), 1000))
	}
	a.RU = ru
	if s.hottest >= 0 && s.share > 0 && len(s.cells) > 0 {
		a.ThrottledSeconds = ptr(s.throttledAt(s.shareOf(s.hottest), k))
	}
	c := s.container(ru)
	c.Name = orName(s.collection) + "-" + safeName(s.keyTextPlain(k))
	spec := s.in.Current
	why := ""
	if k == s.limitKey || tenant.sizeKb >= AlertKb {
		// Under the same key it stays one logical partition, and its
		// 20 GB stays: its own container needs a key that splits it.
		if w := s.splitting(); w != nil {
			spec, _ = key.Parse(w.Key)
			why = fmt.Sprintf(", keyed %s so that it is no longer one logical partition of at most 20 GB (its largest value would hold %s)", w.Key, kbText(w.LargestValueKb))
		} else {
			why = "; under the same key it stays one logical partition of at most 20 GB, so key its container by a path that splits it (name one with --key, with DOCUMENTS, to see its replay)"
		}
	}
	if peak > capacity.PartitionMaxRU && spec.String() == s.in.Current.String() {
		a.Message = fmt.Sprintf("key %s draws %s RU/s in its busiest second, more than one logical partition serves: a container of its own needs a finer key inside it (a hierarchical key under it, or a computed suffix; see the what-if)",
			s.keyText(k), human.Count(int64(peak)))
		return a
	}
	a.Helps = true
	if snips := provision.Snippets(spec, s.in.Version, c); len(snips) > 0 {
		a.Commands = append(a.Commands, snips[0].Code)
	}
	left := ""
	if a.ThrottledSeconds != nil && s.hottest >= 0 {
		left = fmt.Sprintf("; partition %s keeps the other keys, with %s of its logged seconds still at its share", s.parts[s.hottest].id, human.Count(*a.ThrottledSeconds))
	}
	size := ""
	if tenant.sizeKb > 0 {
		size = fmt.Sprintf(" (it holds %s)", kbText(tenant.sizeKb))
	}
	a.Message = fmt.Sprintf("move key %s%s to a container of its own with %s RU/s (twice its busiest logged second when its partition throttled, whose 429s the log does not hold; in the service's steps)%s: copy its items, %s, with Data Factory's Cosmos DB source or a change feed processor that keeps only them, and route its requests there%s",
		s.keyText(k), size, human.Count(int64(ru)), why, s.keyQuery(k), left)
	return a
}

// splitting is the replayed candidate, other than the current key, that
// keeps its largest value furthest under 20 GB, with the fewest RU/s on
// ties; nil when none keeps it under.
func (s *state) splitting() *report.WhatIf {
	var best *report.WhatIf
	for i := range s.d.WhatIf {
		w := &s.d.WhatIf[i]
		if w.Current || w.LargestValueKb >= AlertKb {
			continue
		}
		if best == nil || w.LargestValueKb < best.LargestValueKb || w.LargestValueKb == best.LargestValueKb && better(w, best) {
			best = w
		}
	}
	return best
}

// changeKey points at the candidate whose replay needs the fewest RU/s,
// when it needs at least ChangeKeySaving fewer than the current key on a
// new layout, or keeps under 20 GB a key that nears it; with the
// commands that copy the container to one with it.
func (s *state) changeKey() report.Action {
	a := report.Action{Code: report.ActionChangeKey, Source: sourceChangeKey, Commands: []string{}}
	var cur, best *report.WhatIf
	for i := range s.d.WhatIf {
		w := &s.d.WhatIf[i]
		if w.Current {
			cur = w
			continue
		}
		if s.limitKey >= 0 && w.LargestValueKb >= AlertKb {
			continue // it would not cure the key nearing 20 GB
		}
		if best == nil || better(w, best) {
			best = w
		}
	}
	if best == nil {
		switch {
		case len(s.d.WhatIf) > 1 && s.limitKey >= 0:
			a.Message = fmt.Sprintf("no key replayed keeps %s under the 20 GB alert line: name a key that splits it with --key", s.keyText(s.limitKey))
		default:
			a.Message = "no other key was replayed: name candidates with --key and give DOCUMENTS to replay the traffic onto them"
		}
		return a
	}
	saves := cur == nil || cur.RequiredRu == nil ||
		best.RequiredRu != nil && float64(*best.RequiredRu) <= (1-ChangeKeySaving)*float64(*cur.RequiredRu)
	cures := s.limitKey >= 0
	if !saves && !cures {
		a.Message = fmt.Sprintf("no key replayed needs a tenth fewer RU/s than %s on a new layout (the best, %s: %s; %s: %s), too little to copy every item for",
			cur.Key, best.Key, whatIfText(best), cur.Key, whatIfText(cur))
		return a
	}
	a.Helps = true
	spec, _ := key.Parse(best.Key)
	ru := s.in.Throughput.RU
	if best.RequiredRu != nil {
		ru = *best.RequiredRu
	}
	a.RU = ru
	c := s.container(ru)
	dest := c
	dest.Name = orName(s.collection) + "-new"
	start := ""
	lower := ""
	if n := best.RequiredPartitions; n > 0 && n != capacity.InitialPartitions(capacity.Throughput{RU: ru, Autoscale: s.in.Throughput.Autoscale}) {
		// Created with n x 6,000 (10,000 autoscale) it starts with n
		// partitions, and keeps them when set anywhere up to n x 10,000.
		dest.RU = capacity.CreateRU(n, s.in.Throughput.Autoscale)
		then := dest
		then.RU = ru
		lower = provision.UpdateThroughput(then)
		start = fmt.Sprintf(" Create it with %s RU/s so that it starts with %d %s, then set it to %s.", human.Count(int64(dest.RU)), n,
			human.Plural(int64(n), "partition", "partitions"), human.Count(int64(ru)))
	}
	if snips := provision.Snippets(spec, s.in.Version, dest); len(snips) > 0 {
		a.Commands = append(a.Commands, snips[0].Code)
	}
	if lower != "" {
		a.Commands = append(a.Commands, lower)
	}
	a.Commands = append(a.Commands, provision.PreviewExtension+"\n", provision.CopyJob(c, dest.Name, "change-key", false))
	why := ""
	switch {
	case cures && cur != nil:
		why = fmt.Sprintf("; it keeps %s under 20 GB (its largest value would hold %s)", s.keyText(s.limitKey), kbText(best.LargestValueKb))
	case cures:
		why = fmt.Sprintf("; it keeps %s under 20 GB", s.keyText(s.limitKey))
	}
	against := ""
	if cur != nil {
		against = fmt.Sprintf(" (%s on a new layout: %s)", cur.Key, whatIfText(cur))
	}
	a.Message = fmt.Sprintf("copy the container to one keyed %s: %s%s%s.%s A container copy job copies every item (offline; --mode Online copies while the source takes writes, then az cosmosdb copy complete); the change feed (the Azure-Samples live data migrator) does the same from code. Then point the application at the new container",
		best.Key, whatIfText(best), against, why, start)
	return a
}

// ChangeKeySaving is the least share of RU/s a new key must save over the
// current one on a new layout for pkcalc to advise copying every item to
// it, when no key nears 20 GB: pkcalc's rule, as a copy is the costliest
// change.
const ChangeKeySaving = 0.1

// better reports whether a replay needs less than b: fewer RU/s (one
// that no RU/s serves is worst), then less throttled, then a cooler
// hottest partition.
func better(a, b *report.WhatIf) bool {
	ra, rb := math.Inf(1), math.Inf(1)
	if a.RequiredRu != nil {
		ra = float64(*a.RequiredRu)
	}
	if b.RequiredRu != nil {
		rb = float64(*b.RequiredRu)
	}
	if ra != rb {
		return ra < rb
	}
	ta, tb := 0.0, 0.0
	if a.ThrottledShare != nil {
		ta = *a.ThrottledShare
	}
	if b.ThrottledShare != nil {
		tb = *b.ThrottledShare
	}
	if ta != tb {
		return ta < tb
	}
	return a.HottestPartitionShare < b.HottestPartitionShare
}

// whatIfText words a replay's figures.
func whatIfText(w *report.WhatIf) string {
	need := "no RU/s serves its busiest value"
	if w.RequiredRu != nil {
		need = fmt.Sprintf("it needs %s RU/s", human.Count(int64(*w.RequiredRu)))
	}
	thr := ""
	if w.ThrottledShare != nil {
		thr = fmt.Sprintf(", %s of the RU throttled at the current RU/s", human.Percent(*w.ThrottledShare))
	}
	return fmt.Sprintf("its hottest partition takes %s of the RU%s, and %s", human.Percent(w.HottestPartitionShare), thr, need)
}

func orName(s string) string {
	if s == "" {
		return "items"
	}
	return s
}

// keyTextPlain is a key's value as plain text, its components joined by
// "-".
func (s *state) keyTextPlain(k int) string {
	var parts []string
	for _, v := range s.keys[k].values {
		parts = append(parts, strings.Trim(jsonText(valueOf(v)), `"`))
	}
	return strings.Join(parts, "-")
}

// safeName keeps the letters, digits and dashes of s, for a container
// name.
func safeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-':
			b.WriteRune(r)
		}
		if b.Len() >= 40 {
			break
		}
	}
	if b.Len() == 0 {
		return "tenant"
	}
	return b.String()
}

// valueOf is one component as the report writes it.
func valueOf(v epk.Value) any { return analysis.Values([]epk.Value{v})[0] }

// keyQuery is the query that reads a key's items: each level's path
// equal to its component.
func (s *state) keyQuery(k int) string {
	spec := s.in.Current
	paths := spec.Paths
	if spec.Kind == key.Synthetic {
		paths = [][]string{{strings.TrimPrefix(provision.SyntheticPath, "/")}}
	}
	var conds []string
	for i, p := range paths {
		if i >= len(s.keys[k].values) {
			break
		}
		ref := "c"
		for _, name := range p {
			ref += "[" + jsonText(name) + "]"
		}
		conds = append(conds, ref+" = "+jsonText(valueOf(s.keys[k].values[i])))
	}
	return "SELECT * FROM c WHERE " + strings.Join(conds, " AND ")
}
