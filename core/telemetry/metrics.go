package telemetry

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/options"
)

// metricName is the metric ReadMetrics reads.
const metricName = "NormalizedRUConsumption"

// defaultInterval is the metric's grain, where the response gives none:
// Cosmos DB emits NormalizedRUConsumption at 1-minute intervals
// (monitor-normalized-request-units).
const defaultInterval = time.Minute

// ReadMetrics reads the metric NormalizedRUConsumption per partition key
// range, as az monitor metrics list --metric NormalizedRUConsumption
// --filter "PartitionKeyRangeId eq '*'" prints it, and as Azure Monitor's
// metrics REST API returns it: {"interval": "PT1M", "value": [{"name":
// {"value": "NormalizedRUConsumption"}, "timeseries": [{"metadatavalues":
// [{"name": {"value": "partitionkeyrangeid"}, "value": "0"}], "data":
// [{"timeStamp": ..., "maximum": ...}]}]}]}, or the array of metrics alone.
// Dimension names match in any case. A point's value is its maximum,
// else its average (Microsoft's guidance reads the maximum); a point with
// neither had no data and is left out. The interval is the response's
// ("PT1M"; az prints it as "0:01:00"), or one minute.
//
// A series is at most 2 MB of JSON (MaxDocumentBytes, as compact text):
// about 12 days of one range at PT1M as az prints it, with every
// aggregation's null. A longer one is an *Error saying to ask for less,
// and the other series are read.
func ReadMetrics(r io.Reader) ([]Metric, []error) {
	rs := ingest.NewRecords(r,
		ingest.Path{"value", ingest.Each, "timeseries", ingest.Each},
		ingest.Path{ingest.Each, "timeseries", ingest.Each})
	mr := metricReader{others: make(map[string]int)}
	for {
		rec, err := rs.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var e *ingest.Error
			if !errors.As(err, &e) {
				mr.errs = append(mr.errs, fmt.Errorf("reading the metric: %w", err))
				break
			}
			msg := e.Msg
			if strings.Contains(msg, "larger than the 2 MB") {
				msg = "the series is larger than the 2 MB pkcalc reads as one series; skipped: ask for a shorter time (--offset, or --start-time and --end-time) or a coarser --interval"
			}
			mr.errs = append(mr.errs, &Error{Line: e.Line, Column: e.Column, Msg: msg})
			continue
		}
		if !mr.read(rec) {
			break
		}
	}
	mr.finish()
	return mr.points, mr.errs
}

type metricReader struct {
	points  []Metric
	errs    []error
	nSeries int

	others         map[string]int // series of other metrics, by name
	unsplit        int            // series without a range dimension
	unsplitLine    int
	noValue, total int // points without a value, and all
	noInterval     bool
	intervalLine   int
}

// read reads one series, and reports whether reading goes on.
func (mr *metricReader) read(rec *ingest.Record) bool {
	mr.nSeries++
	var top, metric *jsontree.Value
	switch len(rec.Context) {
	case 2:
		top, metric = &rec.Context[0], &rec.Context[1]
	case 1:
		metric = &rec.Context[0]
	}
	fail := func(format string, args ...any) {
		mr.errs = append(mr.errs, &Error{Line: rec.Line, Msg: fmt.Sprintf(format, args...)})
	}
	if name := metricOf(metric); !strings.EqualFold(name, metricName) {
		if name == "" {
			name = "with no name"
		}
		mr.others[name]++
		return true
	}
	interval := defaultInterval
	if v := member(top, "interval"); v != nil && v.Kind == jsontree.String {
		d, err := duration(v.Str)
		if err != nil {
			fail("interval %q: %v", clip(v.Str), err)
			return true
		}
		interval = d
	} else if !mr.noInterval {
		mr.noInterval, mr.intervalLine = true, rec.Line
	}
	ts := &rec.Value
	if ts.Kind != jsontree.Object {
		fail("a series is an object with metadatavalues and data, not %s", clip(ts.JSON()))
		return true
	}
	var m Metric
	m.Interval = interval
	m.Line = rec.Line
	if dims := member(ts, "metadatavalues"); dims != nil && dims.Kind == jsontree.Array {
		for i := range dims.Elems {
			d := &dims.Elems[i]
			name, value := dimensionName(member(d, "name")), member(d, "value")
			if value == nil || !value.Kind.Scalar() {
				continue
			}
			s := literal(value)
			if len(s) > options.MaxNameBytes {
				fail("dimension %s: %s is longer than %d bytes", name, clip(s), options.MaxNameBytes)
				return true
			}
			switch strings.ToLower(name) {
			case "partitionkeyrangeid":
				m.RangeID = s
			case "databasename":
				m.Database = s
			case "collectionname":
				m.Collection = s
			case "region":
				m.Region = s
			}
		}
	}
	if m.RangeID == "" {
		mr.unsplit++
		mr.unsplitLine = firstLine(mr.unsplitLine, rec.Line)
		return true
	}
	data := member(ts, "data")
	if data == nil || data.Kind != jsontree.Array {
		fail("the series of range %s has no data array", m.RangeID)
		return true
	}
	for i := range data.Elems {
		p := &data.Elems[i]
		mr.total++
		at := member(p, "timeStamp")
		if at == nil {
			fail("point %d of range %s has no timeStamp", i+1, m.RangeID)
			continue
		}
		t, err := timeOf(at)
		if err != nil {
			fail("point %d of range %s: timeStamp %v", i+1, m.RangeID, err)
			continue
		}
		v := member(p, "maximum")
		if v == nil || v.Kind == jsontree.Null {
			v = member(p, "average")
		}
		if v == nil || v.Kind == jsontree.Null {
			mr.noValue++
			continue
		}
		x, err := number(v)
		if err == nil && (x < 0 || x > 100) {
			err = fmt.Errorf("%s is not a percentage from 0 to 100", literal(v))
		}
		if err != nil {
			fail("point %d of range %s (%s): %v", i+1, m.RangeID, t.Format(time.RFC3339), err)
			continue
		}
		if len(mr.points) == options.MaxExportRows {
			fail("the metric has more than %s points, the most pkcalc reads from one export; the points from here on are not read", human.Count(options.MaxExportRows))
			return false
		}
		m.Time, m.Percent = t, x
		mr.points = append(mr.points, m)
	}
	return true
}

// finish adds the messages on series and points left out.
func (mr *metricReader) finish() {
	if len(mr.others) > 0 {
		var parts []string
		for name, n := range mr.others {
			parts = append(parts, fmt.Sprintf("%s (%d)", name, n))
		}
		slices.Sort(parts)
		mr.errs = append(mr.errs, &Error{Note: true, Msg: fmt.Sprintf("left out the series of other metrics, %s: pkcalc reads %s", strings.Join(parts, ", "), metricName)})
	}
	if mr.unsplit > 0 {
		what := "a series is"
		if mr.unsplit > 1 {
			what = fmt.Sprintf("%d series are", mr.unsplit)
		}
		mr.errs = append(mr.errs, &Error{Line: mr.unsplitLine, Msg: what + " not split by partition key range, and left out: ask for the metric with --filter \"PartitionKeyRangeId eq '*'\""})
	}
	if mr.noInterval && len(mr.points) > 0 {
		mr.errs = append(mr.errs, &Error{Line: mr.intervalLine, Note: true, Msg: "the response gives no interval: its points are taken as minutes, the metric's grain"})
	}
	if mr.noValue > 0 && mr.noValue == mr.total {
		mr.errs = append(mr.errs, &Error{Msg: "no point has a maximum or an average: ask for the metric with --aggregation Maximum"})
	}
	if mr.nSeries == 0 && len(mr.errs) == 0 {
		mr.errs = append(mr.errs, &Error{Msg: "the input holds no metric series: expected the JSON of az monitor metrics list, {\"value\": [{\"timeseries\": [...]}]}"})
	}
}

// metricOf is a metric's name: name.value, or name as a string.
func metricOf(metric *jsontree.Value) string {
	name := member(metric, "name")
	if name == nil {
		return ""
	}
	if name.Kind == jsontree.String {
		return name.Str
	}
	if v := member(name, "value"); v != nil && v.Kind == jsontree.String {
		return v.Str
	}
	return ""
}

// dimensionName is a dimension's name: name.value, or name as a string.
func dimensionName(name *jsontree.Value) string {
	if name == nil {
		return ""
	}
	if name.Kind == jsontree.String {
		return name.Str
	}
	if v := member(name, "value"); v != nil && v.Kind == jsontree.String {
		return v.Str
	}
	return ""
}

// member is the value of an object's member, named in any case; nil if
// none.
func member(obj *jsontree.Value, name string) *jsontree.Value {
	if obj == nil || obj.Kind != jsontree.Object {
		return nil
	}
	for i := range obj.Members {
		if strings.EqualFold(obj.Members[i].Key, name) {
			return &obj.Members[i].Value
		}
	}
	return nil
}

// duration reads an interval: ISO 8601 (PT1M, PT1H, P1D), as the REST API
// writes it, or Python's text of a timedelta (0:01:00, 1 day, 0:00:00),
// as az prints it.
func duration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if d, ok := isoDuration(s); ok && d > 0 {
		return d, nil
	}
	if d, ok := pythonDuration(s); ok && d > 0 {
		return d, nil
	}
	return 0, errors.New("not an interval pkcalc reads (PT1M, PT5M, PT1H, P1D, or 0:01:00)")
}

// isoDuration reads P[nD][T[nH][nM][nS]].
func isoDuration(s string) (time.Duration, bool) {
	if len(s) < 3 || (s[0] != 'P' && s[0] != 'p') {
		return 0, false
	}
	var d time.Duration
	inTime := false
	num := ""
	for _, c := range strings.ToUpper(s[1:]) {
		switch {
		case c >= '0' && c <= '9' || c == '.':
			num += string(c)
			continue
		case c == 'T' && !inTime && num == "":
			inTime = true
			continue
		}
		f, err := strconv.ParseFloat(num, 64)
		if err != nil || f > 1e6 {
			return 0, false
		}
		num = ""
		switch {
		case c == 'D' && !inTime:
			d += time.Duration(f * float64(24*time.Hour))
		case c == 'H' && inTime:
			d += time.Duration(f * float64(time.Hour))
		case c == 'M' && inTime:
			d += time.Duration(f * float64(time.Minute))
		case c == 'S' && inTime:
			d += time.Duration(f * float64(time.Second))
		default:
			return 0, false
		}
	}
	return d, num == ""
}

// pythonDuration reads [n day[s], ]h:mm:ss.
func pythonDuration(s string) (time.Duration, bool) {
	var d time.Duration
	if i := strings.Index(s, " day"); i > 0 {
		n, err := strconv.Atoi(s[:i])
		if err != nil || n < 0 || n > 1e5 {
			return 0, false
		}
		d = time.Duration(n) * 24 * time.Hour
		rest := strings.TrimPrefix(strings.TrimPrefix(s[i:], " days"), " day")
		s = strings.TrimSpace(strings.TrimPrefix(rest, ","))
	}
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return 0, false
	}
	h, err1 := strconv.Atoi(parts[0])
	m, err2 := strconv.Atoi(parts[1])
	sec, err3 := strconv.ParseFloat(parts[2], 64)
	if err1 != nil || err2 != nil || err3 != nil || h < 0 || h > 23 || m < 0 || m > 59 || sec < 0 || sec >= 60 {
		return 0, false
	}
	return d + time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec*float64(time.Second)), true
}
