package epk

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// Levels of MultiHash EPKs, 32 digits each.
const (
	level1 = "10000000000000000000000000000000"
	level2 = "20000000000000000000000000000000"
	level3 = "30000000000000000000000000000000"
	half   = level2 // 2^125, the middle of the key space
)

func TestPositionV2(t *testing.T) {
	for _, tt := range []struct {
		epk  string
		want float64
	}{
		{"", 0},
		{"FF", 1},
		{"0", 0},
		{half, 0.5},
		{"1", 0.25},
		{"3", 0.75},
		{"30", 0.75},
		{level1 + level3, 0.25},                 // a MultiHash EPK by its first level
		{"3FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", 1}, // 1 - 2^-126, rounded
		{"00000000000000000000000000000001", 0x1p-126},
		{"abcdef", 0xabcdef * 0x1p-22}, // lower case, and past the top: not checked
		{"XYZ", math.NaN()},
		{"12G4", math.NaN()},
	} {
		if got := PositionV2(tt.epk); !sameFloat(got, tt.want) {
			t.Errorf("PositionV2(%q) = %v, want %v", tt.epk, got, tt.want)
		}
	}
}

// TestPositionV2Exact: the key-space position of an EPK, worked out in two
// words, is the one big numbers give, to the last bit.
func TestPositionV2Exact(t *testing.T) {
	slow := func(s string) float64 {
		n, ok := numberV2(s, false)
		if !ok {
			return math.NaN()
		}
		f, _ := new(big.Float).Quo(new(big.Float).SetInt(n), new(big.Float).SetInt(new(big.Int).Lsh(big.NewInt(1), 126))).Float64()
		return f
	}
	cases := []string{"0", "00", "1", "3FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "20000000000000000000000000000000",
		"0000000000000000000000000000001", "00000000000000000000000000000001", "000000000000000000000000000000FF",
		"0000000000000010000000000000001", "3FFFFFFFFFFFFC000000000000000001", "3FFFFFFFFFFFFC00", "abcdef", "XYZ", "12G4"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		n := 1 + r.IntN(48)
		for i := range n {
			d := r.IntN(16)
			if i == 0 {
				d &= 3
			}
			if r.IntN(4) == 0 {
				d = []int{0, 15}[r.IntN(2)] // runs of zeros and ones make ties
			}
			fmt.Fprintf(&b, "%X", d)
		}
		cases = append(cases, b.String())
	}
	for _, s := range cases {
		if s == "FF" {
			continue // the top of the space, in TestPositionV2
		}
		if got, want := PositionV2(s), slow(s); !sameFloat(got, want) {
			t.Errorf("PositionV2(%q) = %v, want %v", s, got, want)
		}
	}
}

func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

func TestFractionV2(t *testing.T) {
	for _, tt := range []struct {
		lo, mid, hi string
		want        float64 // 0 for none
	}{
		{"", half, "FF", 0.5},
		{"", "3", "FF", 0.75},
		{"", level1, level2, 0.5},
		{level1, "18", level2, 0.5},
		{"", "", "FF", 0},         // at lo
		{"", level2, level2, 0},   // at hi
		{level2, level1, "FF", 0}, // before lo
		{"", "FF", "FF", 0},       // "FF" is the top only as an upper bound
		{level2, level3, level2, 0},
		{"", "XY", "FF", 0},
	} {
		got, ok := FractionV2(tt.lo, tt.mid, tt.hi)
		if ok != (tt.want != 0) || got != tt.want {
			t.Errorf("FractionV2(%q, %q, %q) = %v, %v; want %v", tt.lo, tt.mid, tt.hi, got, ok, tt.want)
		}
	}
}

func TestMidpointV2(t *testing.T) {
	for _, tt := range []struct {
		lo, hi, want string // want "" for none
	}{
		{"", "FF", half},
		{"", half, level1},
		{"10", "20", "18000000000000000000000000000000"},
		{"00000000000000000000000000000001", "00000000000000000000000000000003", "00000000000000000000000000000002"},
		{"00000000000000000000000000000001", "00000000000000000000000000000002", ""}, // no room
		{level1, level1, ""},
		{level1 + level3, level2, "18000000000000000000000000000000"}, // by the first 32 digits
		{"XY", "FF", ""},
	} {
		got, ok := MidpointV2(tt.lo, tt.hi)
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("MidpointV2(%q, %q) = %q, %v; want %q", tt.lo, tt.hi, got, ok, tt.want)
		}
	}
}

func TestPointV2(t *testing.T) {
	for _, tt := range []struct {
		lo, hi string
		x      float64
		want   string // "" for none
	}{
		{"", "FF", 0.5, half},
		{"", "FF", 0.25, level1},
		{level1, level2, 0.5, "18000000000000000000000000000000"},
		{"", "FF", 0, "00000000000000000000000000000000"}, // lo itself: the caller tells
		{"", "FF", 2, "80000000000000000000000000000000"},
		{"", "FF", 4, ""}, // past 32 digits
		{level2, level1, 0.5, ""},
		{level1, level1, 0.5, ""},
		{"XY", "FF", 0.5, ""},
	} {
		got, ok := PointV2(tt.lo, tt.hi, tt.x)
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("PointV2(%q, %q, %v) = %q, %v; want %q", tt.lo, tt.hi, tt.x, got, ok, tt.want)
		}
	}
}

func TestPointMultiHash(t *testing.T) {
	for _, tt := range []struct {
		name   string
		lo, hi string
		y      float64
		want   string // "" for none
	}{
		{"second level, between two values", level1 + level1, level1 + level3, 0.5, level1 + level2},
		{"second level, to the next first level", level1, level2, 0.5, level1 + half},
		{"second level, to the end", level1, "FF", 0.25, level1 + level1},
		{"third level", level1 + level2 + level1, level1 + level2 + level3, 0.5, level1 + level2 + level2},
		{"the same EPK: the point is past hi", level1 + level2, level1 + level2, 0.5, ""},
		{"no room", level1 + level1, level1 + "10000000000000000000000000000001", 0.5, ""},
		{"hi before lo", level1 + level3, level1 + level1, 0.5, ""},
		{"lo short of a level", "", "FF", 0.5, ""},
		{"lo not hex", level1 + "XY", level2, 0.5, ""},
	} {
		got, ok := PointMultiHash(tt.lo, tt.hi, tt.y)
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("%s: PointMultiHash(%q, %q, %v) = %q, %v; want %q", tt.name, tt.lo, tt.hi, tt.y, got, ok, tt.want)
		}
	}
}
