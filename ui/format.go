package ui

import (
	"fmt"
	"strconv"
	"time"
)

// Count formats a number for people: 950, 2,000, 12.3 k, 4.5 M.
func Count(n int) string {
	f := float64(n)
	switch {
	case n < 1000 && n > -1000:
		return strconv.Itoa(n)
	case n < 10000 && n > -10000:
		s := strconv.Itoa(n)
		return s[:len(s)-3] + "," + s[len(s)-3:]
	case f < 1e6:
		return trim(f/1e3) + " k"
	case f < 1e9:
		return trim(f/1e6) + " M"
	}
	return trim(f/1e9) + " G"
}

// Bytes formats a size: 512 B, 1.2 KB, 3.4 MB, 1.2 GB (powers of 1,000, as
// Azure quotes storage).
func Bytes(n int64) string {
	f := float64(n)
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case f < 1e6:
		return trim(f/1e3) + " KB"
	case f < 1e9:
		return trim(f/1e6) + " MB"
	}
	return trim(f/1e9) + " GB"
}

// Percent formats part/whole as a percentage with sensible precision.
func Percent(part, whole int) string {
	if whole == 0 {
		return "–"
	}
	p := 100 * float64(part) / float64(whole)
	switch {
	case part == whole:
		return "100%"
	case p >= 99.5:
		return ">99%"
	case p >= 10:
		return strconv.Itoa(int(p+0.5)) + "%"
	case p >= 1:
		return strconv.FormatFloat(p, 'f', 1, 64) + "%"
	case part > 0:
		return "<1%"
	}
	return "0%"
}

// Duration formats an elapsed time: 850 µs, 12 ms, 1.4 s.
func Duration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%d µs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return trim(d.Seconds()) + " s"
}

func trim(f float64) string {
	if f >= 100 {
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
	return strconv.FormatFloat(f, 'f', 1, 64)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
