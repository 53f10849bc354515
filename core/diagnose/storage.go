package diagnose

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/pkcalc/pkcalc/core/analysis"
	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/report"
)

// The logical partition's limit and the docs' alert line, in the KB the
// storage log writes: 20 GB is 20 x 1024 x 1024 KB, as the documented alert
// divides SizeKb by 20.0 * 1024.0 * 1024.0
// (how-to-alert-on-logical-partition-key-storage-size.md), and the alert
// line is 70 % of it, 14 GB (capacity.AlertFraction).
const (
	LimitKb = float64(capacity.LogicalPartitionMaxBytes) / 1024
	AlertKb = capacity.AlertFraction * LimitKb
)

// readStorage gathers each key's sizes over time. Regions hold the same
// data, so a time logged in several regions counts once, at its largest.
func (s *state) readStorage() {
	if len(s.in.Storage) == 0 {
		return
	}
	type at struct {
		key int
		t   int64
	}
	sizes := map[at]float64{}
	rangeAt := map[at]string{}
	s.stKey = make([]int, len(s.in.Storage))
	for i, r := range s.in.Storage {
		k := s.keyOf(r.Key)
		s.stKey[i] = k
		if !(r.SizeKB >= 0) || math.IsInf(r.SizeKB, 0) {
			continue
		}
		a := at{k, r.Time.Unix()}
		if old, ok := sizes[a]; !ok || r.SizeKB > old {
			sizes[a] = r.SizeKB
		}
		if usableRange(r.RangeID) {
			rangeAt[a] = strings.TrimSpace(r.RangeID)
		}
	}
	for a, size := range sizes {
		s.keys[a.key].series = append(s.keys[a.key].series, sizePoint{a.t, size})
	}
	for ki, k := range s.keys {
		if len(k.series) == 0 {
			continue
		}
		slices.SortFunc(k.series, func(a, b sizePoint) int { return cmp.Compare(a.at, b.at) })
		last := k.series[len(k.series)-1]
		k.sizeKb, k.sizeAt = last.sizeKb, last.at
		k.sizePart = rangeAt[at{ki, last.at}]
	}
	s.warn(SampledStorage, "the storage log lists a physical partition's largest keys only (its top three, each holding at least 1 % of its documents), sized by sampling that assumes equal document sizes (monitor-resource-logs.md): a key absent from it is not known to be small, and each partition's logged storage is a floor")
}

// storage dates each logged key's way to the alert line and to 20 GB at
// its logged growth, and sums the logged sizes on each partition.
func (s *state) storage() {
	var ks []int
	for i, k := range s.keys {
		if k.sizeKb >= 0 {
			ks = append(ks, i)
		}
	}
	slices.SortFunc(ks, func(a, b int) int {
		return cmp.Or(cmp.Compare(s.keys[b].sizeKb, s.keys[a].sizeKb), strings.Compare(s.keys[a].id, s.keys[b].id))
	})
	onPart := map[int][]int{}
	for _, ki := range ks {
		k := s.keys[ki]
		row := report.KeyStore{Value: analysis.Values(k.values), SizeKb: round(k.sizeKb, 0), At: unixText(k.sizeAt),
			Share: round(k.sizeKb/LimitKb, 4), Samples: len(k.series)}
		p := -1
		switch {
		case k.sizePart != "":
			p = s.partOf(k.sizePart)
		case k.placed >= 0:
			p = k.placed
		}
		if p >= 0 {
			row.Partition = s.parts[p].id
			onPart[p] = append(onPart[p], ki)
		}
		if g, ok := growth(k.series); ok {
			row.GrowthKbPerDay = ptr(round(g, 1))
			row.DaysTo14Gb, row.DaysTo20Gb = daysTo(k.sizeKb, AlertKb, g), daysTo(k.sizeKb, LimitKb, g)
		}
		s.d.Keys = append(s.d.Keys, row)
	}
	// Parts the storage log named after the partition rows were made.
	for len(s.d.Partitions) < len(s.parts) {
		p := s.parts[len(s.d.Partitions)]
		s.d.Partitions = append(s.d.Partitions, report.PartitionLoad{ID: p.id, Listed: p.listed, TopKeys: []report.KeyRU{}, LargestKeys: []report.KeySize{}})
	}
	for i, p := range s.parts {
		p.load = &s.d.Partitions[i]
		total := 0.0
		for j, ki := range onPart[i] {
			total += s.keys[ki].sizeKb
			if j < MaxListed {
				p.load.LargestKeys = append(p.load.LargestKeys, report.KeySize{Value: analysis.Values(s.keys[ki].values), SizeKb: round(s.keys[ki].sizeKb, 0)})
			}
		}
		p.load.StorageKb = round(total, 0)
	}
}

// growth is the least-squares slope of a key's size over time, in KB a
// day; ok is false with fewer than two times.
func growth(series []sizePoint) (kbPerDay float64, ok bool) {
	if len(series) < 2 || series[0].at == series[len(series)-1].at {
		return 0, false
	}
	t0 := series[0].at
	var n, sx, sy, sxx, sxy float64
	for _, p := range series {
		x := float64(p.at-t0) / 86400
		n++
		sx += x
		sy += p.sizeKb
		sxx += x * x
		sxy += x * p.sizeKb
	}
	den := n*sxx - sx*sx
	if den == 0 {
		return 0, false
	}
	return (n*sxy - sx*sy) / den, true
}

// daysTo is the days from size to limit at growth KB a day: 0 when there
// already, nil when it does not grow.
func daysTo(size, limit, growth float64) *float64 {
	switch {
	case size >= limit:
		return ptr(0.0)
	case !(growth > 0):
		return nil
	}
	return ptr(round((limit-size)/growth, 1))
}

// storageWarning names the keys past the alert line or soon at 20 GB.
func (s *state) storageWarnings() {
	for _, k := range s.d.Keys {
		switch {
		case k.SizeKb >= LimitKb:
			s.warn(KeyAtLimit, fmt.Sprintf("key %s holds %s, at the 20 GB a logical partition holds: writes of new items to it fail", valueText(k.Value), kbText(k.SizeKb)))
		case k.SizeKb >= AlertKb:
			days := "it is not growing"
			if k.DaysTo20Gb != nil {
				days = fmt.Sprintf("at its logged growth it reaches 20 GB in %s days (by %s)", numText(*k.DaysTo20Gb), dayAfter(k.At, *k.DaysTo20Gb))
			}
			s.warn(KeyOverAlert, fmt.Sprintf("key %s holds %s, past the 70 %% alert line (14 GB) of the 20 GB a logical partition holds; %s", valueText(k.Value), kbText(k.SizeKb), days))
		}
	}
}

// kbText writes KB as people read storage: 12 GB, 300 MB.
func kbText(kb float64) string { return human.Bytes(human.Int(kb * 1024)) }

func numText(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return fmt.Sprintf("%d", int64(f))
	}
	return fmt.Sprint(f)
}

// dayAfter is the date days after an RFC 3339 time.
func dayAfter(at string, days float64) string {
	t, err := time.Parse(time.RFC3339, at)
	if err != nil || days > 1e5 {
		return "a date past any plan"
	}
	return t.Add(time.Duration(days * 24 * float64(time.Hour))).UTC().Format("2006-01-02")
}
