package diagnose

import (
	"fmt"
	"iter"
	"time"

	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/telemetry"
)

// The scenarios the tests diagnose: a container keyed /tenantId (hash V2)
// that began with two physical partitions, 0 and 1, of which 0 split into
// 2 and 3, so that range 1 covers half the key space and 2 and 3 a quarter
// each. The EPKs are known (pkcalc epk, checked against the SDKs' vectors
// in core/epk): "contoso" hashes to 0A4BA226…, in range 2; "fabrikam" to
// 2DC48EE6…, in range 1.
const (
	contosoEPK  = "0A4BA22644167DA7161C260336FB5423"
	fabrikamEPK = "2DC48EE62C5D597C12F015E1F6988E2F"
	quarter     = "0FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF" // the split point of range 0
	half        = "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF" // epk.Ranges(V2, 2)'s boundary
)

var t0 = time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)

// splitRanges is the pkranges feed after the split, in the order the
// service lists it (not key order).
func splitRanges() []telemetry.Range {
	return []telemetry.Range{
		{ID: "1", Range: epk.Range{MinInclusive: half, MaxExclusive: "FF"}},
		{ID: "2", Range: epk.Range{MinInclusive: "", MaxExclusive: quarter}, Parents: []string{"0"}},
		{ID: "3", Range: epk.Range{MinInclusive: quarter, MaxExclusive: half}, Parents: []string{"0"}},
	}
}

// rangeOf is the range of splitRanges that holds a V2 EPK, found by the
// bounds above.
func rangeOf(e string) string {
	switch {
	case e < quarter:
		return "2"
	case e < half:
		return "3"
	}
	return "1"
}

func str(s string) telemetry.Key {
	return telemetry.Key{Text: fmt.Sprintf("[%q]", s), Values: []epk.Value{epk.Str(s)}}
}

func tenantName(i int) string { return fmt.Sprintf("tenant-%02d", i) }

// scenario is a container's exports, built row by row.
type scenario struct {
	in   Input
	docs []*jsontree.Value
}

func newScenario() *scenario {
	cur, _ := key.Parse("/tenantId")
	return &scenario{in: Input{
		Ranges:     splitRanges(),
		Current:    cur,
		Version:    epk.V2,
		Throughput: capacity.Throughput{RU: 18000},
	}}
}

// ru adds rows for key k in second sec of the window, split over
// operations as the log writes them (one row per operation).
func (s *scenario) ru(k telemetry.Key, sec int, charge float64) {
	rng := rangeOf(epk.HashV2(k.Values...))
	ops := []struct {
		name  string
		share float64
	}{{"Read", 0.5}, {"Create", 0.3}, {"Query", 0.2}}
	for _, op := range ops {
		s.in.RU = append(s.in.RU, telemetry.RU{Time: t0.Add(time.Duration(sec) * time.Second), Database: "shop", Collection: "orders",
			Region: "West Europe", Key: k, RangeID: rng, Operation: op.name, Charge: charge * op.share, Line: len(s.in.RU) + 2})
	}
}

// storage adds a storage row for k, days after t0.
func (s *scenario) storage(k telemetry.Key, days float64, sizeKb float64) {
	s.in.Storage = append(s.in.Storage, telemetry.Storage{Time: t0.Add(time.Duration(days * 24 * float64(time.Hour))), Database: "shop",
		Collection: "orders", Region: "West Europe", Key: k, SizeKB: sizeKb, Line: len(s.in.Storage) + 2})
}

// doc adds a document.
func (s *scenario) doc(fields ...any) {
	obj := jsontree.Value{Kind: jsontree.Object}
	for i := 0; i+1 < len(fields); i += 2 {
		var v jsontree.Value
		switch x := fields[i+1].(type) {
		case string:
			v = jsontree.Value{Kind: jsontree.String, Str: x}
		case int:
			v = jsontree.Value{Kind: jsontree.Number, Num: float64(x)}
		}
		obj.Members = append(obj.Members, jsontree.Member{Key: fields[i].(string), Value: v})
	}
	s.docs = append(s.docs, &obj)
}

func (s *scenario) input() Input {
	in := s.in
	if s.docs != nil {
		docs := s.docs
		in.Documents = iter.Seq2[*jsontree.Value, int](func(yield func(*jsontree.Value, int) bool) {
			for _, d := range docs {
				if !yield(d, 200) {
					return
				}
			}
		})
	}
	return in
}

const gb = 1024 * 1024 // KB

// hotTenant is the hot-tenant case: contoso draws 4,000 RU/s, and 6,000
// for two minutes, on range 2 (6,000 RU/s each of three partitions at
// 18,000); 59 other tenants 60 to 140 RU/s each, some 5,900 in all. contoso grew from 10 GB to
// 12 GB over ten days, 0.2 GB a day; two others hold 1 GB.
func hotTenant() *scenario {
	s := newScenario()
	contoso := str("contoso")
	for sec := range 600 {
		charge := 4000.0
		if sec >= 100 && sec < 220 {
			charge = 6000
		}
		s.ru(contoso, sec, charge)
		for i := range 59 {
			s.ru(str(tenantName(i)), sec, float64(60+i%5*20))
		}
	}
	for day := range 11 {
		s.storage(contoso, float64(day-10), 10*gb+0.2*gb*float64(day))
	}
	s.storage(str(tenantName(1)), 0, 1*gb)
	s.storage(str(tenantName(2)), 0, 1*gb)
	for u := range 40 {
		s.doc("id", fmt.Sprintf("c%03d", u), "tenantId", "contoso", "userId", fmt.Sprintf("u%02d", u%20))
	}
	for i := range 59 {
		for u := range 4 {
			s.doc("id", fmt.Sprintf("t%02d-%d", i, u), "tenantId", tenantName(i), "userId", fmt.Sprintf("u%d", u%2))
		}
	}
	return s
}

// crowded is the crowded-range case: 300 tenants, none busier than the
// rest, each 50 RU/s, 15,000 in all at 18,000 RU/s; range 1 covers half
// the key space, so it holds about half the tenants, and their load
// passes its share of 6,000.
func crowded() *scenario {
	s := newScenario()
	for sec := range 120 {
		for i := range 300 {
			s.ru(str(fmt.Sprintf("tenant-%03d", i)), sec, 50)
		}
	}
	return s
}

// movingHotSpot is a container keyed by day (/day): each day's key takes
// most of the writes, 6,500 RU/s against a share of 6,000, while it is the
// current one. The log covers four
// "days" of an hour each, in minutes: day d leads minutes [60d, 60d+60).
func movingHotSpot() *scenario {
	s := newScenario()
	s.in.Current, _ = key.Parse("/day")
	s.in.Throughput.RU = 18000
	days := []string{"2024-05-01", "2024-05-02", "2024-05-03", "2024-05-04"}
	for minute := range 240 {
		for sec := 0; sec < 60; sec += 10 {
			at := minute*60 + sec
			for d, day := range days {
				charge := 20.0
				if d == minute/60 {
					charge = 6500
				}
				s.ru(str(day), at, charge)
			}
		}
	}
	return s
}

// metrics adds NormalizedRUConsumption points, a minute each, for every
// range: pct(rangeID, minute).
func (s *scenario) metrics(minutes int, pct func(rng string, minute int) float64) {
	for _, r := range s.in.Ranges {
		for m := range minutes {
			s.in.Metrics = append(s.in.Metrics, telemetry.Metric{Time: t0.Add(time.Duration(m) * time.Minute), Interval: time.Minute,
				RangeID: r.ID, Percent: pct(r.ID, m)})
		}
	}
}
