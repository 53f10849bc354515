package diagnose

import (
	"bytes"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/core/telemetry"
)

// TestKnownEPKs pins the scenarios' premise: the EPKs of the tenants they
// are built on, and the ranges those fall in.
func TestKnownEPKs(t *testing.T) {
	if got := epk.HashV2(epk.Str("contoso")); got != contosoEPK || rangeOf(got) != "2" {
		t.Errorf("contoso: EPK %s in range %s, want %s in range 2", got, rangeOf(got), contosoEPK)
	}
	if got := epk.HashV2(epk.Str("fabrikam")); got != fabrikamEPK || rangeOf(got) != "1" {
		t.Errorf("fabrikam: EPK %s in range %s, want %s in range 1", got, rangeOf(got), fabrikamEPK)
	}
	if got := epk.Ranges(epk.V2, 2)[0].MaxExclusive; got != half {
		t.Errorf("the two-partition boundary is %s, want %s", got, half)
	}
	if mid, _ := epk.MidpointV2("", half); mid != quarter {
		t.Errorf("range 0 splits at %s, want %s", mid, quarter)
	}
}

func partitionOf(d *report.Diagnosis, id string) *report.PartitionLoad {
	for i := range d.Partitions {
		if d.Partitions[i].ID == id {
			return &d.Partitions[i]
		}
	}
	return nil
}

// TestHotTenant: one tenant draws most of its partition's RU; the
// diagnosis names the partition, the key, the throttled seconds, and
// dates the key's way to 20 GB.
func TestHotTenant(t *testing.T) {
	d := Diagnose(hotTenant().input())
	if d.HottestPartition != "2" {
		t.Fatalf("hottest partition %q, want 2 (contoso's range)", d.HottestPartition)
	}
	p := partitionOf(d, "2")
	// 6,000 RU/s of contoso plus its neighbours' for 120 s.
	neighbours := 0.0
	for i := range 59 {
		if rangeOf(epk.HashV2(epk.Str(tenantName(i)))) == "2" {
			neighbours += float64(60 + i%5*20)
		}
	}
	if p.PeakRuPerSecond != 6000+neighbours || *p.ThrottledSeconds != 120 || p.KeySpaceShare != 0.25 {
		t.Errorf("partition 2: peak %v RU/s, %d s throttled, %v of the key space; want %v, 120, 0.25", p.PeakRuPerSecond, *p.ThrottledSeconds, p.KeySpaceShare, 6000+neighbours)
	}
	if d.Settings.ShareRU != 6000 {
		t.Errorf("share %v RU/s, want 6000 (18,000 over 3 partitions)", d.Settings.ShareRU)
	}
	if got := p.TopKeys[0]; got.Value[0] != "contoso" || got.PeakRuPerSecond != 6000 {
		t.Errorf("partition 2's top key %v at %v RU/s, want contoso at 6000", got.Value, got.PeakRuPerSecond)
	}
	hs := d.HotSpot
	if hs == nil || hs.Cause != report.CauseOneKey || hs.Key[0] != "contoso" || !hs.Throttled {
		t.Fatalf("hot spot %+v, want ONE_KEY contoso, throttled", hs)
	}
	// In the 120 throttled seconds contoso draws 6,000 of them.
	if want := math.Round(6000/(6000+neighbours)*1e4) / 1e4; hs.KeyShare != want {
		t.Errorf("key share %v, want %v", hs.KeyShare, want)
	}
	if d.Placement.Checked != 60 || d.Placement.Agreeing != 60 || len(d.Placement.Mismatches) != 0 {
		t.Errorf("placement %d of %d agree, %d mismatches; want all 60", d.Placement.Agreeing, d.Placement.Checked, len(d.Placement.Mismatches))
	}
	// 10 GB on day -10 to 12 GB on day 0: 0.2 GB a day, so 14 GB in 10
	// days and 20 GB in 40 (20 GB = 20 x 1024 x 1024 KB, as the docs'
	// alert query divides).
	k := d.Keys[0]
	if k.Value[0] != "contoso" || k.SizeKb != 12*gb || *k.GrowthKbPerDay != 0.2*gb || *k.DaysTo14Gb != 10 || *k.DaysTo20Gb != 40 || k.Share != 0.6 {
		t.Errorf("contoso's storage %+v, want 12 GB growing 0.2 GB a day, 10 days to 14 GB, 40 to 20 GB", k)
	}
	if k := d.Keys[1]; k.GrowthKbPerDay != nil || k.DaysTo20Gb != nil {
		t.Errorf("a key logged once has a growth: %+v", k)
	}
}

// TestCrowdedRange: no key is hot, but the range left whole by the split
// covers half the key space and carries about half the load.
func TestCrowdedRange(t *testing.T) {
	d := Diagnose(crowded().input())
	if d.HottestPartition != "1" {
		t.Fatalf("hottest partition %q, want 1 (half the key space)", d.HottestPartition)
	}
	hs := d.HotSpot
	if hs.Cause != report.CauseCrowded || hs.KeySpaceShare != 0.5 || hs.MedianKeySpaceShare != 0.25 {
		t.Errorf("hot spot %s at %v of the key space (median %v), want CROWDED_RANGE at 0.5 (0.25)", hs.Cause, hs.KeySpaceShare, hs.MedianKeySpaceShare)
	}
	p := partitionOf(d, "1")
	if p.Keys < 130 || *p.ThrottledSeconds != 120 || p.PeakRuPerSecond < 6000 {
		t.Errorf("range 1 holds %d keys, peaks at %v RU/s and throttles %d s; want about 150, over 6,000, all 120", p.Keys, p.PeakRuPerSecond, *p.ThrottledSeconds)
	}
	// Even ranges spread it: the current key on a new layout of three
	// even partitions does not throttle.
	cur := d.WhatIf[0]
	if !cur.Current || cur.Partitions != 3 || *cur.ThrottledShare != 0 || cur.HottestPartitionShare > 0.4 {
		t.Errorf("the current key on a new layout: %d partitions, throttled %v, hottest %v; want 3, 0, about a third", cur.Partitions, *cur.ThrottledShare, cur.HottestPartitionShare)
	}
	if a := d.Actions[0]; a.Code != report.ActionRedistribute || !a.Helps || a.Targets[len(a.Targets)-1].RU <= 6000 {
		t.Errorf("redistribution %+v, want range 1 given more", a)
	}
}

// TestMovingHotSpot: each day's key leads the container in turn.
func TestMovingHotSpot(t *testing.T) {
	d := Diagnose(movingHotSpot().input())
	hs := d.HotSpot
	if hs == nil || hs.Cause != report.CauseTimePattern {
		t.Fatalf("hot spot %+v, want TIME_PATTERN", hs)
	}
	var days []any
	for _, l := range hs.Leaders {
		days = append(days, l.Value[0])
	}
	if !slices.Equal(days, []any{"2024-05-01", "2024-05-02", "2024-05-03", "2024-05-04"}) || hs.Leaders[0].Minutes != 60 {
		t.Errorf("leaders %v (first for %d minutes), want the four days in turn, an hour each", days, hs.Leaders[0].Minutes)
	}
	if !strings.Contains(hs.Message, "moving hot spot") {
		t.Errorf("message %q", hs.Message)
	}
	// No fixed share of the throughput follows a moving hot spot.
	if a := d.Actions[0]; a.Code != report.ActionRedistribute || a.Helps || len(a.Commands) != 0 {
		t.Errorf("redistribution %+v, want no help and no command", a)
	}
}

// TestOneKeyIsNotTimePattern: a hot tenant that leads every minute is
// one key, not a moving hot spot.
func TestOneKeyIsNotTimePattern(t *testing.T) {
	if hs := Diagnose(hotTenant().input()).HotSpot; hs.Leaders != nil {
		t.Errorf("leaders %v for a hot tenant", hs.Leaders)
	}
}

// TestCalibrationWrongVersion: rows logged by a hash V1 container, read
// as V2, disagree; the diagnosis names each disagreement and suggests
// version 1, with which every pair agrees.
func TestCalibrationWrongVersion(t *testing.T) {
	s := newScenario()
	s.in.Ranges = nil
	for i, r := range epk.Ranges(epk.V1, 4) {
		s.in.Ranges = append(s.in.Ranges, telemetry.Range{ID: string(rune('0' + i)), Range: r})
	}
	v1 := epk.Ranges(epk.V1, 4)
	for i := range 40 {
		k := str(tenantName(i))
		rng := string(rune('0' + epk.Locate(v1, epk.HashV1(k.Values...))))
		s.in.RU = append(s.in.RU, telemetry.RU{Time: t0, Key: k, RangeID: rng, Charge: 10, Line: i + 2})
	}
	d := Diagnose(s.input())
	pl := d.Placement
	if pl.Checked != 40 || pl.Agreeing == 40 || pl.MismatchCount != 40-pl.Agreeing || len(pl.Mismatches) != pl.MismatchCount {
		t.Fatalf("placement %+v", pl)
	}
	if pl.Suggestion == nil || !strings.Contains(pl.Suggestion.Message, "--hash-version 1") || !strings.Contains(pl.Suggestion.Message, "40 of the 40") {
		t.Errorf("suggestion %+v, want hash version 1 with every pair agreeing", pl.Suggestion)
	}
	m := pl.Mismatches[0]
	if m.LoggedRange == m.PlacedRange || m.EPK == "" || !strings.Contains(m.Reason, "logged on range") {
		t.Errorf("mismatch %+v", m)
	}
	s.in.Version = epk.V1
	if d := Diagnose(s.input()); d.Placement.Agreeing != 40 {
		t.Errorf("with hash version 1, %d of 40 agree", d.Placement.Agreeing)
	}
}

// TestCalibrationBeforeSplit: a row logged under range 0 before it split
// agrees with a key now in range 2 or 3, its children; rows logged with
// an "undefined" range are not checked but placed.
func TestCalibrationBeforeSplit(t *testing.T) {
	s := newScenario()
	s.in.RU = []telemetry.RU{
		{Time: t0, Key: str("contoso"), RangeID: "0", Charge: 5},
		{Time: t0, Key: str("fabrikam"), RangeID: "1", Charge: 5},
		{Time: t0, Key: str("fabrikam"), RangeID: "0", Charge: 5},
		{Time: t0, Key: str("northwind"), RangeID: "undefined", Charge: 5},
	}
	d := Diagnose(s.input())
	pl := d.Placement
	if pl.Checked != 3 || pl.Agreeing != 2 || pl.BeforeSplit != 1 || pl.Unchecked != 1 || pl.MismatchCount != 1 {
		t.Errorf("placement %+v, want 3 checked, 2 agreeing (1 before the split), 1 unchecked", pl)
	}
	if m := pl.Mismatches[0]; m.Value[0] != "fabrikam" || m.LoggedRange != "0" || m.PlacedRange != "1" {
		t.Errorf("mismatch %+v, want fabrikam logged on 0, placed on 1", m)
	}
	want := rangeOf(epk.HashV2(epk.Str("northwind")))
	if p := partitionOf(d, want); p == nil || p.RU != 5 {
		t.Errorf("northwind's row, logged without a range, is not on its range %s", want)
	}
}

// TestThroughputFraction: a ranges feed that gives each range its share
// of the throughput (as a redistribution leaves them) sets each
// partition's RU/s: contoso's range, given half of 18,000, no longer
// throttles at its 7,380 RU/s peak.
func TestThroughputFraction(t *testing.T) {
	s := hotTenant()
	for i := range s.in.Ranges {
		s.in.Ranges[i].ThroughputFraction = map[string]float64{"1": 0.25, "2": 0.5, "3": 0.25}[s.in.Ranges[i].ID]
	}
	d := Diagnose(s.input())
	p := partitionOf(d, "2")
	if p.ShareRuPerSecond != 9000 || *p.ThrottledSeconds != 0 || partitionOf(d, "1").ShareRuPerSecond != 4500 {
		t.Errorf("partition 2: share %v, throttled %d s; partition 1: share %v; want 9,000, 0, 4,500", p.ShareRuPerSecond, *p.ThrottledSeconds, partitionOf(d, "1").ShareRuPerSecond)
	}
	// Fractions that do not sum to the whole are not a layout: even.
	s.in.Ranges[0].ThroughputFraction = 0.9
	if p := partitionOf(Diagnose(s.input()), "2"); p.ShareRuPerSecond != 6000 {
		t.Errorf("fractions summing past 1: share %v, want the even 6,000", p.ShareRuPerSecond)
	}
}

// TestHostileValues: key values are user text; no rendering writes a
// control or bidirectional character raw, nor lets one start markup.
func TestHostileValues(t *testing.T) {
	s := hotTenant()
	evil := telemetry.Key{Text: `["\u001b[2J\u202egnp.exe|<b>*x*</b>"]`, Values: []epk.Value{epk.Str("\u001b[2J\u202egnp.exe|<b>*x*</b>")}}
	for sec := range 600 {
		s.ru(evil, sec, 9000)
	}
	s.storage(evil, 0, 15*gb)
	d := Diagnose(s.input())
	for name, write := range map[string]func(io.Writer, *report.Diagnosis) error{"text": report.WriteDiagnosisText, "markdown": report.WriteDiagnosisMarkdown, "json": report.WriteDiagnosisJSON} {
		var b bytes.Buffer
		if err := write(&b, d); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if strings.ContainsAny(out, "\u001b\u202e") {
			t.Errorf("%s writes a control or bidi character raw", name)
		}
		if name == "markdown" && strings.Contains(out, "<b>") {
			t.Errorf("markdown writes the value's HTML raw")
		}
		if !strings.Contains(out, `\u001b`) {
			t.Errorf("%s does not show the escape as \\u001b", name)
		}
	}
}
