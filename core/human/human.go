// Package human formats numbers for people: counts with thousands
// separators, sizes in KB, MB and GB, shares as percentages, durations. The
// report, the advisor's messages and the page all use it, so a figure reads
// the same everywhere.
//
// Sizes use 1,024-based units labelled KB, MB and GB, as Azure quotes Cosmos
// DB's limits (a 20 GB logical partition is 20 x 2^30 bytes).
package human

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// Count writes n with thousands separators: 950, 2,000, 1,234,567.
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	digits := 0 // where the digits start: after a sign (-n overflows for the least int64)
	if n < 0 {
		digits = 1
	}
	for i := len(s) - 3; i > digits; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Int is f as an int64 for Count, truncated as int64(f) truncates it, but
// NaN is 0 and a figure past int64's range is its end: there int64(f) is
// undefined (on amd64 the least int64, which wrote negative RU/s).
func Int(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

// Short writes a count compactly: 950, 9,999, 12.3 k, 4.5 M, 1.2 G.
func Short(n int64) string {
	f := float64(n)
	switch {
	case n > -10000 && n < 10000:
		return Count(n)
	case f > -1e6 && f < 1e6:
		return trim(f/1e3) + " k"
	case f > -1e9 && f < 1e9:
		return trim(f/1e6) + " M"
	}
	return trim(f/1e9) + " G"
}

// Bytes writes a size: 512 B, 1.2 KB, 3.4 MB, 20.0 GB.
func Bytes(n int64) string {
	f := float64(n)
	switch {
	case f >= 1<<40:
		return trim(f/(1<<40)) + " TB"
	case f >= 1<<30:
		return trim(f/(1<<30)) + " GB"
	case f >= 1<<20:
		return trim(f/(1<<20)) + " MB"
	case f >= 1<<10:
		return trim(f/(1<<10)) + " KB"
	}
	return strconv.FormatInt(n, 10) + " B"
}

// Percent writes a share (0.25 is 25%) with the precision it deserves:
// 68%, 4.5%, <0.1%, and 100% only when it is all.
func Percent(f float64) string {
	switch {
	case !(f > 0): // NaN too: no share to show
		return "0%"
	case f >= 1:
		return "100%"
	case f < 0.001:
		return "<0.1%"
	case f < 0.1:
		return strconv.FormatFloat(100*f, 'f', 1, 64) + "%"
	case f > 0.995:
		return ">99%"
	}
	return strconv.FormatFloat(100*f, 'f', 0, 64) + "%"
}

// Duration writes an elapsed time: 850 µs, 12 ms, 1.4 s.
func Duration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%d µs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return trim(d.Seconds()) + " s"
}

// Plural picks the word for n.
func Plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func trim(f float64) string {
	if f >= 100 || f <= -100 {
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
	return strconv.FormatFloat(f, 'f', 1, 64)
}

// Position is a place in the input as people read it: "line 3, column 7",
// with " (document 2)" when the place is in a document (document > 0).
func Position(line, column, document int) string {
	where := "line " + strconv.Itoa(line) + ", column " + strconv.Itoa(column)
	if document > 0 {
		where += " (document " + strconv.Itoa(document) + ")"
	}
	return where
}
