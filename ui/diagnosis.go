package ui

import (
	"fmt"
	"strings"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/plan"
	"github.com/pkcalc/pkcalc/core/report"
)

// DiagnosisView shows a diagnosis, the answer first: the hot partition and
// why, and the first thing to do with its commands; then the partitions,
// the calibration, the keys' storage, the what-if and every action. Its
// texts are core/report's, the same cells the text and Markdown write.
type DiagnosisView struct {
	Root *Root

	plans    []plan.Plan // of plansFor, made once
	plansFor *report.Diagnosis
}

// D is the diagnosis shown.
func (c *DiagnosisView) D() *report.Diagnosis { return c.Root.Diagnosis }

// causeText says what a hot-spot cause means, in a few words.
var causeText = map[string]string{
	report.CauseOneKey:      "one hot key",
	report.CauseTimePattern: "a moving hot spot",
	report.CauseCrowded:     "a crowded range",
	report.CauseManyKeys:    "many busy keys",
}

// HotTitle heads the answer: which partition is hot, and the kind of
// cause; or that none is.
func HotTitle(d *report.Diagnosis) string {
	h := d.HotSpot
	switch {
	case h == nil && d.HottestPartition != "":
		return "Partition " + d.HottestPartition + " is the busiest"
	case h == nil:
		return "No partition's load is known"
	case d.Settings.RU == 0:
		return fmt.Sprintf("Partition %s is the busiest: %s", h.Partition, causeText[h.Cause])
	case !h.Throttled:
		return fmt.Sprintf("Partition %s is the busiest, and it stayed under its share (%s)", h.Partition, causeText[h.Cause])
	}
	return fmt.Sprintf("Partition %s is hot: %s", h.Partition, causeText[h.Cause])
}

// HotWhy says why, in a sentence or two: core/diagnose's own message,
// with the peak against the share when the throughput is known.
func HotWhy(d *report.Diagnosis) string {
	h := d.HotSpot
	if h == nil {
		return "The exports give no request units per partition: add the RU log or the metric to find the hot partition."
	}
	why := Sentence(h.Message)
	for _, p := range d.Partitions {
		if p.ID != h.Partition {
			continue
		}
		if p.ShareRuPerSecond > 0 && p.ThrottledSeconds != nil {
			why += fmt.Sprintf(" Its busiest second drew %s RU/s against a share of %s (%s); %s %s at or over it.",
				human.Count(human.Int(p.PeakRuPerSecond)), human.Count(human.Int(p.ShareRuPerSecond)), report.PercentText(p.PeakUtilisation),
				human.Count(*p.ThrottledSeconds), human.Plural(*p.ThrottledSeconds, "second was", "seconds were"))
		}
	}
	return why
}

// HotKeyShare says how much of the hot partition's busiest seconds its
// busiest key draws.
func HotKeyShare(d *report.Diagnosis) string {
	return "(" + human.Percent(d.HotSpot.KeyShare) + " of the partition's RU in its busiest seconds)"
}

// HotKey is the hot partition's busiest key, as JSON text.
func HotKey(d *report.Diagnosis) string {
	if d.HotSpot == nil || len(d.HotSpot.Key) == 0 {
		return ""
	}
	return report.ValueJSON(d.HotSpot.Key)
}

// ActionTitle names an action for people.
func ActionTitle(a report.Action) string {
	t := map[string]string{
		report.ActionRedistribute: "Redistribute the throughput",
		report.ActionRaiseRU:      "Raise the RU/s",
		report.ActionSplitTenant:  "Move the key to a container of its own",
		report.ActionChangeKey:    "Change the partition key",
	}[a.Code]
	if t == "" {
		t = CodeText(a.Code)
	}
	return t
}

// HelpsText says whether an action cures the hot spot.
func HelpsText(a report.Action) string {
	if a.Helps {
		return "helps"
	}
	return "does not help"
}

// CommandsText is an action's commands, one after another, as they are
// copied.
func CommandsText(a report.Action) string {
	var lines []string
	for _, c := range a.Commands {
		lines = append(lines, strings.TrimRight(c, "\n"))
	}
	return strings.Join(lines, "\n")
}

// First is the first action, the cheapest; HasFirst says whether there
// is one.
func (c *DiagnosisView) HasFirst() bool { return len(c.D().Actions) > 0 }
func (c *DiagnosisView) First() report.Action {
	return c.D().Actions[0]
}

// PartitionRow is a partition's row of the table.
type PartitionRow struct {
	ID, Range, KeySpace, Peak, P99, Share, PeakShare, Throttled, Normalized, Storage, Keys string
	TopKeys                                                                                []string
	Hot                                                                                    bool
}

// PartitionRows are the table's rows, in the diagnosis's order.
func PartitionRows(d *report.Diagnosis) []PartitionRow {
	var out []PartitionRow
	for _, p := range d.Partitions {
		r := PartitionRow{
			ID: p.ID, Range: report.RangeText(p), KeySpace: report.KeySpaceText(p),
			Peak: human.Count(human.Int(p.PeakRuPerSecond)), P99: human.Count(human.Int(p.P99RuPerSecond)), Share: "–",
			PeakShare: report.PercentText(p.PeakUtilisation), Throttled: report.SecondsText(p.ThrottledSeconds),
			Normalized: report.PercentText(p.NormalizedPeak), Storage: report.KBText(p.StorageKb), Keys: human.Count(int64(p.Keys)),
			Hot: p.ID == d.HottestPartition,
		}
		if p.ShareRuPerSecond > 0 {
			r.Share = human.Count(human.Int(p.ShareRuPerSecond))
		}
		for _, k := range p.TopKeys[:min(len(p.TopKeys), 3)] {
			r.TopKeys = append(r.TopKeys, fmt.Sprintf("%s %s", report.ValueJSON(k.Value), human.Percent(k.Share)))
		}
		if len(r.TopKeys) == 0 {
			r.TopKeys = []string{"–"}
		}
		out = append(out, r)
	}
	return out
}

// RowClass marks the hot partition's row.
func (r PartitionRow) RowClass() string {
	if r.Hot {
		return "hot"
	}
	return ""
}

// IDText is the partition's id, marked when it is the hottest.
func (r PartitionRow) IDText() string {
	if r.Hot {
		return r.ID + " (hot)"
	}
	return r.ID
}

// PlacementText is the calibration in a line: how many logged pairs
// pkcalc places where the service logged them.
func PlacementText(d *report.Diagnosis) string { return Sentence(d.Placement.Message) }

// Sentence makes a message of the diagnosis a sentence: a capital first
// (but pkcalc's name) and a full stop.
func Sentence(s string) string {
	if !strings.HasPrefix(s, "pkcalc") {
		s = sentence(s)
	}
	if s == "" || strings.HasSuffix(s, ".") {
		return s
	}
	return s + "."
}

// MismatchText is one pair pkcalc places elsewhere, with why.
func MismatchText(m report.Mismatch) string {
	return fmt.Sprintf("%s: %s (%s %s, %s RU)", report.ValueJSON(m.Value), m.Reason, human.Count(int64(m.Rows)), human.Plural(int64(m.Rows), "row", "rows"), human.Count(human.Int(m.RU)))
}

// MoreMismatches says how many mismatches are not listed.
func MoreMismatches(d *report.Diagnosis) string {
	if n := d.Placement.MismatchCount - len(d.Placement.Mismatches); n > 0 {
		return fmt.Sprintf("and %s more", human.Count(int64(n)))
	}
	return ""
}

// KeyRow is a logged key's row of the storage table.
type KeyRow struct {
	Key, Size, Of20, Growth, To14, To20, Partition, Logged string
	Over                                                   bool // past the 70 % alert line
}

// KeyRows are the storage table's rows.
func KeyRows(d *report.Diagnosis) []KeyRow {
	var out []KeyRow
	for _, k := range d.Keys {
		out = append(out, KeyRow{
			Key: report.ValueJSON(k.Value), Size: report.KBText(k.SizeKb), Of20: human.Percent(k.Share),
			Growth: report.GrowthText(k.GrowthKbPerDay), To14: report.DaysText(k.DaysTo14Gb), To20: report.DaysText(k.DaysTo20Gb),
			Partition: cmpOr(k.Partition, "–"), Logged: report.ShortTime(k.At), Over: k.DaysTo14Gb != nil && *k.DaysTo14Gb == 0,
		})
	}
	return out
}

// RowClass marks a key past the alert line.
func (r KeyRow) RowClass() string {
	if r.Over {
		return "over"
	}
	return ""
}

// WhatIfRow is a candidate's row of the what-if table.
type WhatIfRow struct {
	Key, Kind, Partitions, Hottest, Throttled, Needs, Busiest, Largest, Coverage string
	Notes                                                                        []string
}

// WhatIfRows are the what-if table's rows.
func WhatIfRows(d *report.Diagnosis) []WhatIfRow {
	var out []WhatIfRow
	for _, w := range d.WhatIf {
		kind := map[string]string{"hash": "hash", "multihash": "hierarchical", "synthetic": "synthetic"}[w.Kind]
		if w.Current {
			kind = "the current key, on a new layout"
		}
		out = append(out, WhatIfRow{
			Key: w.Key, Kind: kind, Partitions: human.Count(int64(w.Partitions)), Hottest: human.Percent(w.HottestPartitionShare),
			Throttled: report.ShareText(w.ThrottledShare), Needs: report.RequiredText(w),
			Busiest: report.ValueJSON(w.BusiestValue) + " " + human.Count(human.Int(w.BusiestValueRuPerSecond)) + " RU/s",
			Largest: report.KBText(w.LargestValueKb), Coverage: human.Percent(w.Coverage), Notes: w.Notes,
		})
	}
	return out
}

// HasNotes reports whether any what-if row has notes.
func HasNotes(rows []WhatIfRow) bool {
	for _, r := range rows {
		if len(r.Notes) > 0 {
			return true
		}
	}
	return false
}

// Heading says what was diagnosed, in a line.
func (c *DiagnosisView) Heading() string { return report.DiagnosisHeading(c.D()) }

// WindowLine says what the RU log covers; "" without one.
func (c *DiagnosisView) WindowLine() string {
	if c.D().Window == nil {
		return ""
	}
	return report.WindowText(c.D().Window) + "."
}

// CopyID is the id of an action's Copy button.
func CopyID(i int) string { return fmt.Sprintf("copy-action-%d", i) }

// ActionID is the id of an action's item.
func ActionID(i int) string { return fmt.Sprintf("action-%d", i) }

// Number is an action's place in the order.
func Number(i int) string { return fmt.Sprintf("%d.", i+1) }

// ActionClass marks the actions that would not cure the hot spot.
func ActionClass(a report.Action) string {
	if a.Helps {
		return "finding advice"
	}
	return "finding"
}
