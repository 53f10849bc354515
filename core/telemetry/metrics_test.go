package telemetry

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func metricText(m Metric) string {
	s := fmt.Sprintf("line %d: range %s %s every %s: %g%%", m.Line, m.RangeID, m.Time.Format(time.RFC3339), m.Interval, m.Percent)
	if m.Database != "" || m.Collection != "" || m.Region != "" {
		s += fmt.Sprintf(" (%s/%s %s)", m.Database, m.Collection, m.Region)
	}
	return s
}

func TestReadMetrics(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		// As az monitor metrics list prints it: keys sorted, every
		// aggregation given (null where not asked for), the interval as
		// Python writes a timedelta. The minute with no data has no point.
		{"metrics/az-cli.json", []string{
			"line 18: range 1 2025-02-25T09:19:00Z every 1m0s: 100%",
			"line 47: range 2 2025-02-25T09:19:00Z every 1m0s: 12%",
		}},
		// As the metrics REST API returns it.
		{"metrics/rest.json", []string{
			"line 12: range 1 2025-02-25T09:19:00Z every 1m0s: 100% (/orders )",
			"line 12: range 1 2025-02-25T09:20:00Z every 1m0s: 87.5% (/orders )",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			points, errs := ReadMetrics(open(t, tt.file))
			var got []string
			for _, p := range points {
				got = append(got, metricText(p))
			}
			check(t, append(got, errorTexts(t, errs)...), tt.want)
		})
	}
}

func TestReadMetricsBad(t *testing.T) {
	series := func(dims, data string) string {
		return `{"interval":"PT5M","value":[{"name":{"value":"NormalizedRUConsumption"},"timeseries":[{"metadatavalues":[` + dims + `],"data":[` + data + `]}]}]}`
	}
	rangeDim := `{"name":{"value":"PartitionKeyRangeId"},"value":"0"}`
	tests := []struct{ name, in, want string }{
		{"a bare array of metrics, interval unknown",
			`[{"name":{"value":"NormalizedRUConsumption"},"timeseries":[{"metadatavalues":[` + rangeDim + `],"data":[{"timeStamp":"2025-02-25T09:19:00Z","average":3}]}]}]`,
			"line 1: range 0 2025-02-25T09:19:00Z every 1m0s: 3%\nnote: line 1: the response gives no interval: its points are taken as minutes, the metric's grain"},
		{"dimension names in any case", series(`{"name":{"value":"PARTITIONKEYRANGEID"},"value":"7"},{"name":"Region","value":"West US 2"}`, `{"timeStamp":"2025-02-25T09:19:00Z","maximum":50}`),
			"line 1: range 7 2025-02-25T09:19:00Z every 5m0s: 50% (/ West US 2)"},
		{"not split by range", series(``, `{"timeStamp":"2025-02-25T09:19:00Z","maximum":50}`),
			`error: line 1: a series is not split by partition key range, and left out: ask for the metric with --filter "PartitionKeyRangeId eq '*'"`},
		{"another metric", `{"value":[{"name":{"value":"TotalRequestUnits"},"timeseries":[{"data":[]}]}]}`,
			"note: left out the series of other metrics, TotalRequestUnits (1): pkcalc reads NormalizedRUConsumption"},
		{"only totals", series(rangeDim, `{"timeStamp":"2025-02-25T09:19:00Z","total":50}`),
			"error: no point has a maximum or an average: ask for the metric with --aggregation Maximum"},
		{"over 100", series(rangeDim, `{"timeStamp":"2025-02-25T09:19:00Z","maximum":150},{"timeStamp":"x","maximum":1},{"maximum":1}`),
			"error: line 1: point 1 of range 0 (2025-02-25T09:19:00Z): 150 is not a percentage from 0 to 100\n" +
				`error: line 1: point 2 of range 0: timeStamp "x" is not a time pkcalc reads: give ISO 8601, such as 2021-05-12T23:20:00Z` + "\n" +
				"error: line 1: point 3 of range 0 has no timeStamp"},
		{"a bad interval", strings.Replace(series(rangeDim, ``), "PT5M", "often", 1),
			`error: line 1: interval "often": not an interval pkcalc reads (PT1M, PT5M, PT1H, P1D, or 0:01:00)`},
		{"nothing", `{"cost":0}`,
			`error: the input holds no metric series: expected the JSON of az monitor metrics list, {"value": [{"timeseries": [...]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			points, errs := ReadMetrics(strings.NewReader(tt.in))
			var got []string
			for _, p := range points {
				got = append(got, metricText(p))
			}
			check(t, append(got, errorTexts(t, errs)...), strings.Split(tt.want, "\n"))
		})
	}
}

func TestDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"PT1M": time.Minute, "PT5M": 5 * time.Minute, "PT1H": time.Hour, "P1D": 24 * time.Hour, "PT30S": 30 * time.Second,
		"0:01:00": time.Minute, "1:00:00": time.Hour, "1 day, 0:00:00": 24 * time.Hour, "2 days, 6:00:00": 54 * time.Hour,
	} {
		if got, err := duration(in); err != nil || got != want {
			t.Errorf("duration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "P", "PT", "1M", "PT1X", "0:60:00", "P1H", "-PT1M", "PT0M"} {
		if got, err := duration(in); err == nil {
			t.Errorf("duration(%q) = %v, want an error", in, got)
		}
	}
}

// TestSeriesLimit reads a series of 12 days of minutes as az prints it,
// and refuses one of 13 days, as ReadMetrics and the query's comment say.
func TestSeriesLimit(t *testing.T) {
	series := func(days int) string {
		var b strings.Builder
		b.WriteString(`{"interval":"0:01:00","value":[{"name":{"value":"NormalizedRUConsumption"},"timeseries":[{"data":[`)
		start := time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC)
		for i := range days * 1440 {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"average":null,"count":null,"maximum":100.0,"minimum":null,"timeStamp":"%s","total":null}`,
				start.Add(time.Duration(i)*time.Minute).Format("2006-01-02T15:04:05+00:00"))
		}
		b.WriteString(`],"metadatavalues":[{"name":{"localizedValue":"partitionkeyrangeid","value":"partitionkeyrangeid"},"value":"0"}]}]}]}`)
		return b.String()
	}
	points, errs := ReadMetrics(strings.NewReader(series(12)))
	if len(points) != 12*1440 || len(errs) != 0 {
		t.Errorf("12 days: %d points, errors %v", len(points), errs)
	}
	points, errs = ReadMetrics(strings.NewReader(series(13)))
	got := strings.Join(errorTexts(t, errs), "\n")
	if len(points) != 0 || !strings.Contains(got, "line 1, column 90: the series is larger than the 2 MB pkcalc reads as one series; skipped: ask for a shorter time (--offset, or --start-time and --end-time) or a coarser --interval") {
		t.Errorf("13 days: %d points, errors %s", len(points), got)
	}
}
