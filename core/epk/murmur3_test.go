package epk

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"
)

func murmur3x86_32(p []byte, seed uint32) uint32 {
	m := newMurmur32(seed)
	write32(&m, p)
	return m.sum()
}

func murmur3x64_128(p []byte, seed uint32) (h1, h2 uint64) {
	m := newMurmur128(seed)
	m.write(p)
	return m.sum()
}

// digest128 returns the 16-byte digest as the reference writes it: h1 then
// h2, little-endian.
func digest128(h1, h2 uint64) []byte {
	d := binary.LittleEndian.AppendUint64(nil, h1)
	return binary.LittleEndian.AppendUint64(d, h2)
}

// reversedHex is the digest reversed, in hex: how .NET's UInt128.ToString
// prints it in the SDK baseline files.
func reversedHex(h1, h2 uint64) string { return fmt.Sprintf("%016X%016X", h2, h1) }

// TestMurmur3Verification runs SMHasher's VerificationTest (KeysetTest.cpp):
// hash the keys {}, {0}, {0,1}, ... {0..254} with seeds 256-i, hash the
// concatenated digests with seed 0, and compare the first 4 bytes with the
// values SMHasher publishes for the reference implementation.
func TestMurmur3Verification(t *testing.T) {
	key := make([]byte, 256)
	var all32 []byte
	var all128 []byte
	for i := range 256 {
		key[i] = byte(i)
		all32 = binary.LittleEndian.AppendUint32(all32, murmur3x86_32(key[:i], uint32(256-i)))
		all128 = append(all128, digest128(murmur3x64_128(key[:i], uint32(256-i)))...)
	}
	if got := murmur3x86_32(all32, 0); got != 0xB0F57EE3 {
		t.Errorf("MurmurHash3_x86_32 verification = %#08x, want 0xb0f57ee3", got)
	}
	h1, _ := murmur3x64_128(all128, 0)
	if got := uint32(h1); got != 0x6384BA69 {
		t.Errorf("MurmurHash3_x64_128 verification = %#08x, want 0x6384ba69", got)
	}
}

func f64le(f float64) []byte { return binary.LittleEndian.AppendUint64(nil, math.Float64bits(f)) }

func TestMurmur3x86_32(t *testing.T) {
	tests := []struct {
		in   []byte
		want uint32
	}{
		// The empty input with seed 0 hashes to 0 (reference behaviour).
		{nil, 0},
		// Azure/azure-sdk-for-go sdk/data/azcosmos/internal/rntbd/murmurhash_test.go
		// (values checked there against Guava's murmur3_32).
		{[]byte("test"), 3127628307},
		{[]byte("hello"), 613153351},
		{[]byte("world"), 4220927227},
		// Azure/azure-cosmos-dotnet-v3 Microsoft.Azure.Cosmos/tests/Microsoft.Azure.Cosmos.Tests/Routing/MurmurHash3Test.cs
		{f64le(374.0), 3717946798},
		{[]byte("afdgdd"), 1099701186},
		// Azure/azure-cosmos-dotnet-v3 Microsoft.Azure.Cosmos/tests/Microsoft.Azure.Cosmos.Tests/BaselineTest/TestBaseline/PartitionKeyHashBaselineTest.Strings.xml
		// and .Lists.xml, PartitionKeyHashV1: that harness (tests/.../Routing/PartitionKeyHash.cs)
		// hashes a string as 0x08 + UTF-8 with no terminator, so these are plain
		// MurmurHash3 vectors rather than EPKs.
		{[]byte("\x08"), 0x2036BCC7},
		{[]byte("\x08asdf"), 0xFA36E790},
		{[]byte("\x08" + strings.Repeat("a", 99)), 0xA36F6BFE},
		{[]byte("\x08" + strings.Repeat("a", 100)), 0x0D64E325},
		{[]byte("\x08/path1"), 0x0AA1CC05},
		{[]byte("\x08/path2"), 0xC91EF078},
		{[]byte("\x08/path3"), 0x9AB468CD},
	}
	for _, tt := range tests {
		if got := murmur3x86_32(tt.in, 0); got != tt.want {
			t.Errorf("murmur3x86_32(%q) = %#08x, want %#08x", tt.in, got, tt.want)
		}
	}
}

func TestMurmur3x64_128(t *testing.T) {
	tests := []struct {
		in   []byte
		want string // digest reversed, as .NET prints it
	}{
		// Azure/azure-cosmos-dotnet-v3 Microsoft.Azure.Cosmos/tests/Microsoft.Azure.Cosmos.Tests/BaselineTest/TestBaseline/PartitionKeyHashBaselineTest.Strings.xml
		// and .Lists.xml, PartitionKeyHashV2 (0x08 + UTF-8, no terminator, no mask).
		{[]byte("\x08"), "6A63D2CF33E52BDBDFA3A1B71AF6E07E"},
		{[]byte("\x08asdf"), "498D89FE394B068D05EE6EB149D83908"},
		{[]byte("\x08" + strings.Repeat("a", 99)), "83A559265D272A0B0897D5DAB8497A67"},
		{[]byte("\x08" + strings.Repeat("a", 100)), "A9288CFBBD2936CE26ED98C272505B4E"},
		{[]byte("\x08" + strings.Repeat("a", 101)), "4346A8E3F50BE781D8E072651D398EAE"},
		{[]byte("\x08" + strings.Repeat("a", 2048)), "CECAB75F2B220F6142080AFA1CFB6CD6"},
		{[]byte("\x08/path1"), "B63DB6C43A4F1B014C63B0C2E628E812"},
		{[]byte("\x08/path2"), "A60C6CBE5A2D386E5DAE1AAC94216B6C"},
		{[]byte("\x08/path3"), "88A6185D2DD51C96D04775B72EFABE08"},
	}
	for _, tt := range tests {
		if got := reversedHex(murmur3x64_128(tt.in, 0)); got != tt.want {
			t.Errorf("murmur3x64_128(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestMurmur3Incremental checks that feeding the input in pieces, however cut,
// gives the same hash as feeding it whole.
func TestMurmur3Incremental(t *testing.T) {
	data := make([]byte, 70)
	for i := range data {
		data[i] = byte(i*37 + 11)
	}
	for n := 0; n <= len(data); n++ {
		p := data[:n]
		want32 := murmur3x86_32(p, 7)
		want1, want2 := murmur3x64_128(p, 7)
		for cut := 0; cut <= n; cut++ {
			m32 := newMurmur32(7)
			m32.writeString(string(p[:cut]))
			for _, c := range p[cut:] {
				m32.writeByte(c)
			}
			if got := m32.sum(); got != want32 {
				t.Fatalf("x86_32 len %d cut %d = %#x, want %#x", n, cut, got, want32)
			}
			m128 := newMurmur128(7)
			for _, c := range p[:cut] {
				m128.writeByte(c)
			}
			m128.writeString(string(p[cut:]))
			if h1, h2 := m128.sum(); h1 != want1 || h2 != want2 {
				t.Fatalf("x64_128 len %d cut %d differs", n, cut)
			}
		}
	}
}
