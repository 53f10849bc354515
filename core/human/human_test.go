package human

import (
	"math"
	"testing"
	"time"
)

func TestFormats(t *testing.T) {
	tests := []struct{ got, want string }{
		{Count(0), "0"}, {Count(950), "950"}, {Count(2000), "2,000"}, {Count(-1234567), "-1,234,567"}, {Count(-123), "-123"},
		{Count(math.MinInt64), "-9,223,372,036,854,775,808"}, {Count(math.MaxInt64), "9,223,372,036,854,775,807"},
		{Short(9999), "9,999"}, {Short(12345), "12.3 k"}, {Short(4_500_000), "4.5 M"}, {Short(2e9), "2.0 G"},
		{Bytes(512), "512 B"}, {Bytes(1536), "1.5 KB"}, {Bytes(171366), "167 KB"}, {Bytes(2410967), "2.3 MB"},
		{Bytes(20 << 30), "20.0 GB"}, {Bytes(3 << 40), "3.0 TB"},
		{Percent(0), "0%"}, {Percent(0.0004), "<0.1%"}, {Percent(0.045), "4.5%"}, {Percent(0.68), "68%"},
		{Percent(0.999), ">99%"}, {Percent(1), "100%"}, {Percent(math.NaN()), "0%"}, {Percent(math.Inf(1)), "100%"},
		// A figure past int64 counts as its end, not as the least int64.
		{Count(Int(1e300)), "9,223,372,036,854,775,807"}, {Count(Int(math.Inf(1))), "9,223,372,036,854,775,807"},
		{Count(Int(math.Inf(-1))), "-9,223,372,036,854,775,808"}, {Count(Int(math.NaN())), "0"}, {Count(Int(1234.9)), "1,234"}, {Count(Int(-2.5)), "-2"},
		{Duration(850 * time.Microsecond), "850 µs"}, {Duration(12 * time.Millisecond), "12 ms"}, {Duration(1400 * time.Millisecond), "1.4 s"},
		{Plural(1, "document", "documents"), "document"}, {Plural(2, "document", "documents"), "documents"},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%d: got %q, want %q", i, tt.got, tt.want)
		}
	}
}
