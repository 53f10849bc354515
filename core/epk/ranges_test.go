package epk

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func bounds(rs []Range) []string {
	var b []string
	for _, r := range rs[1:] {
		b = append(b, r.MinInclusive)
	}
	return b
}

func TestRanges(t *testing.T) {
	tests := []struct {
		v    Version
		n    int
		want []string // inner boundaries
	}{
		{V1, 1, nil},
		{V2, 1, nil},
		// V1: (2^32-1)/n*i as a binary-encoded number. 2147483647 is
		// Integer.MAX_VALUE, whose encoding 05C1DFFFFFFFFC ends the Java
		// vector in PartitionKeyHashingTests.effectivePartitionKeyHashV1.
		{V1, 2, []string{"05C1DFFFFFFFFC"}},
		{V1, 3, []string{"05C1D5AB55AB54", "05C1E5AB55AB54"}},                   // 1431655765, 2863311530
		{V1, 4, []string{"05C1CFFFFFFFF8", "05C1DFFFFFFFF8", "05C1E7FFFFFFFA"}}, // 1073741823, 2147483646, 3221225469
		// V2: 0x3FFF…FF/n*i. The integer division makes n=4's middle
		// boundary one below n=2's.
		{V2, 2, []string{"1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"}},
		{V2, 3, []string{"15555555555555555555555555555555", "2AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}},
		{V2, 4, []string{"0FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFE", "2FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFD"}},
	}
	for _, tt := range tests {
		rs := Ranges(tt.v, tt.n)
		if len(rs) != tt.n {
			t.Fatalf("Ranges(%d, %d): %d ranges", tt.v, tt.n, len(rs))
		}
		if got := bounds(rs); !slices.Equal(got, tt.want) {
			t.Errorf("Ranges(%d, %d) boundaries = %q, want %q", tt.v, tt.n, got, tt.want)
		}
	}
	if got := Ranges(V2, 1); len(got) != 1 || got[0] != (Range{"", "FF"}) {
		t.Errorf("Ranges(V2, 1) = %q, want [{\"\" \"FF\"}]", got)
	}
}

// TestRangesMidpoint checks V1 boundaries against the .NET SDK's own
// arithmetic: PartitionKeyInternalTest.TestMidPoint (Azure/azure-cosmos-dotnet-v3
// Microsoft.Azure.Cosmos/tests/Microsoft.Azure.Cosmos.Tests/Routing/PartitionKeyInternalTest.cs)
// expects the middle of range 24 of 25, (4123168584 + 4294967295) / 2, to
// encode as 05C1EFAF0B1F46, and the middle of the whole space to equal
// range 0 of 2's maximum.
func TestRangesMidpoint(t *testing.T) {
	rs := Ranges(V1, 25)
	if got := rs[24].MinInclusive; got != v1Number(4123168584) {
		t.Errorf("V1 25 ranges: last minimum %s", got)
	}
	if got := v1Number((4123168584 + 4294967295) / 2); got != "05C1EFAF0B1F46" {
		t.Errorf("midpoint encoding %s, want 05C1EFAF0B1F46", got)
	}
	if got := Ranges(V1, 2)[0].MaxExclusive; got != v1Number(2147483647) {
		t.Errorf("V1 2 ranges: middle %s", got)
	}
}

// v1Number is the V1 binary encoding of one number, in hex.
func v1Number(f float64) string { return hexString(appendNumber(nil, f)) }

func TestRangesContiguous(t *testing.T) {
	for _, v := range []Version{V1, V2} {
		for _, n := range []int{1, 2, 3, 5, 7, 10, 25, 64, 100, 1000, 4097} {
			rs := Ranges(v, n)
			if len(rs) != n || rs[0].MinInclusive != "" || rs[n-1].MaxExclusive != "FF" {
				t.Fatalf("Ranges(%d, %d): bad ends", v, n)
			}
			for i, r := range rs {
				if r.MinInclusive >= r.MaxExclusive {
					t.Fatalf("Ranges(%d, %d)[%d] = %q: empty", v, n, i, r)
				}
				if i > 0 && r.MinInclusive != rs[i-1].MaxExclusive {
					t.Fatalf("Ranges(%d, %d)[%d]: gap", v, n, i)
				}
				if v == V2 && i > 0 && len(r.MinInclusive) != 32 {
					t.Fatalf("Ranges(V2, %d)[%d] = %q: want 32 digits", n, i, r.MinInclusive)
				}
			}
		}
	}
}

func TestRangesClamp(t *testing.T) {
	for _, n := range []int{-5, 0} {
		if got := Ranges(V2, n); len(got) != 1 {
			t.Errorf("Ranges(V2, %d): %d ranges, want 1", n, len(got))
		}
	}
	if got := Ranges(Version(0), 2); !slices.Equal(got, Ranges(V2, 2)) {
		t.Errorf("unknown version: %q, want the V2 layout", got)
	}
}

func TestLocate(t *testing.T) {
	rs := Ranges(V2, 4)
	tests := []struct {
		epk  string
		want int
	}{
		{"", 0},
		{"00", 0},
		{"0FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFE", 0},
		{"0FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", 1}, // a minimum is inclusive
		{"1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFD", 1},
		{"1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFE", 2},
		{"2FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFD", 3},
		{"3FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", 3},
		{"FE", 3},
		{"FF", -1}, // the maximum is exclusive
		{"FF00", -1},
	}
	for _, tt := range tests {
		if got := Locate(rs, tt.epk); got != tt.want {
			t.Errorf("Locate(%q) = %d, want %d", tt.epk, got, tt.want)
		}
	}
	if got := Locate(nil, "00"); got != -1 {
		t.Errorf("Locate(nil) = %d, want -1", got)
	}
	if got := Locate([]Range{{"10", "20"}}, "05"); got != -1 {
		t.Errorf("Locate below the first range = %d, want -1", got)
	}

	// Every hashed key lands in the range that contains it.
	for _, v := range []Version{V1, V2} {
		rs := Ranges(v, 7)
		for i := range 500 {
			key := Str(strings.Repeat("x", i%13) + string(rune('a'+i%26)) + string(rune('0'+i%10)))
			epk := HashV2(key)
			if v == V1 {
				epk = HashV1(key)
			}
			j := Locate(rs, epk)
			if j < 0 || epk < rs[j].MinInclusive || epk >= rs[j].MaxExclusive {
				t.Fatalf("Locate(%q) = %d", epk, j)
			}
		}
	}
}

// TestLocateHead checks that placing an EPK by its first 16 digits agrees
// with Locate whenever it answers, and that it declines only when a
// boundary starts with those digits.
func TestLocateHead(t *testing.T) {
	var layouts [][]Range
	for _, n := range []int{1, 2, 3, 7, 64, 1000} {
		layouts = append(layouts, Ranges(V2, n))
	}
	// Boundaries that start with the head of a value placed below, of
	// every length around 16 digits, and the service's padded ones.
	head := HashV2(Str("v7"))
	for _, n := range []int{1, 4, 15, 16, 17, 20, 32, 40} {
		cut := (head + "00000000")[:n]
		layouts = append(layouts, []Range{{"", cut}, {cut, "FF"}})
	}
	layouts = append(layouts, []Range{{"", head}, {head, head + "00"}, {head + "00", "FF"}})
	declined := 0
	for _, rs := range layouts {
		for i := range 3000 {
			for _, key := range [][]Value{{Str(fmt.Sprint("v", i))}, {Num(float64(i) / 7)}, {Str("t"), Str(fmt.Sprint(i))}} {
				e := HashV2(key...)
				h := HeadV2(key...)
				if len(key) > 1 {
					e = MultiHash(key...)
					h = HeadV2(key[0])
				}
				got, ok := LocateHead(rs, h)
				if !ok {
					declined++
					shared := false
					for _, r := range rs {
						shared = shared || (len(r.MinInclusive) > 16 && strings.HasPrefix(r.MinInclusive, e[:16])) ||
							(len(r.MaxExclusive) > 16 && strings.HasPrefix(r.MaxExclusive, e[:16]))
					}
					if !shared {
						t.Errorf("LocateHead(%s) declined with no boundary starting with it", e[:16])
					}
					continue
				}
				if want := Locate(rs, e); got != want {
					t.Errorf("LocateHead(%s) = %d, Locate(%s) = %d, ranges %v", e[:16], got, e, want, rs)
				}
			}
		}
	}
	if declined == 0 {
		t.Error("LocateHead never declined: the boundaries sharing a head were not reached")
	}
	if i, ok := LocateHead(nil, 0); i != -1 || !ok {
		t.Errorf("LocateHead(nil) = %d, %v", i, ok)
	}
	if i, ok := LocateHead([]Range{{"10", "20"}}, 0x05<<56); i != -1 || !ok {
		t.Errorf("LocateHead below the first range = %d, %v", i, ok)
	}
}

// TestMultiHashPrefixRange checks that every full key extending a prefix falls
// in [MultiHash(prefix), MultiHash(prefix)+"FF").
func TestMultiHashPrefixRange(t *testing.T) {
	lo := MultiHash(Str("tenant-7"))
	r := []Range{{lo, lo + "FF"}}
	for i := range 100 {
		full := MultiHash(Str("tenant-7"), Num(float64(i)), Str("x"))
		if Locate(r, full) != 0 {
			t.Fatalf("%s outside the prefix range", full)
		}
	}
}

// TestHeadNumberV1: the number a V1 EPK starts with reads back as the
// value's hash, and a boundary as the number it was made of.
func TestHeadNumberV1(t *testing.T) {
	for _, x := range []float64{0, 1, 2, 3, 127, 128, 255, 256, 0.5, 1 << 31, 1<<32 - 1, 1234567891, 858993459, 2147483647} {
		if got, ok := HeadNumberV1(BoundaryV1(x)); !ok || got != x {
			t.Errorf("HeadNumberV1(BoundaryV1(%v)) = %v, %v", x, got, ok)
		}
	}
	for i, k := range [][]Value{{Str("contoso")}, {Num(42)}, {Str(strings.Repeat("x", 150))}, {Bool(true)}, {Value{Kind: Null}}, {Value{Kind: Undefined}}, {Str("a"), Num(-1)}} {
		got, ok := HeadNumberV1(HashV1(k...))
		if want := float64(sumV1(k)); !ok || got != want {
			t.Errorf("key %d: HeadNumberV1 = %v, %v; want its hash %v", i, got, ok, want)
		}
	}
	for _, s := range []string{"", "FF", "05", "0", "XY", "08C0", "05C1FFFFFFFFFFFFFFFFFFFF"} {
		got, ok := HeadNumberV1(s)
		switch s {
		case "":
			ok = ok && got == 0
		case "FF":
			ok = ok && got == 1<<32
		default:
			ok = !ok
		}
		if !ok {
			t.Errorf("HeadNumberV1(%q) = %v", s, got)
		}
	}
}
