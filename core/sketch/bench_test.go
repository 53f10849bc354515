package sketch

import (
	"strconv"
	"testing"
)

func BenchmarkHLLAdd(b *testing.B) {
	h := NewHLL(14)
	s := splitmix64(1)
	for b.Loop() {
		h.Add(s.next())
	}
}

func BenchmarkHLLCount(b *testing.B) {
	h := NewHLL(14)
	s := splitmix64(1)
	for range 100_000 {
		h.Add(s.next())
	}
	for b.Loop() {
		h.Count()
	}
}

func BenchmarkTopKAdd(b *testing.B) {
	// Hashes precomputed, so that the figures are the summary's own.
	const n = 1 << 20
	streams := []struct {
		name string
		keys []uint64
	}{
		{"zipf1.1", make([]uint64, n)},
		{"hits", make([]uint64, n)}, // 64 keys: every Add finds its entry
	}
	for i, e := range zipf(1, 1.1, n-100_000) {
		streams[0].keys[i] = mix64(e.key)
	}
	for i := range streams[1].keys {
		streams[1].keys[i] = mix64(uint64(i % 64))
	}
	for _, st := range streams {
		b.Run(st.name, func(b *testing.B) {
			t := NewTopK[string](64)
			i, created := 0, 0
			for b.Loop() {
				h := st.keys[i%n]
				t.Add(h, 1, 512, func(string) string {
					created++
					return strconv.FormatUint(h, 16) // one allocation
				})
				i++
			}
			// Allocations should match new entries: none otherwise.
			b.ReportMetric(float64(created)/float64(i), "new/op")
		})
	}
}

func TestAllocs(t *testing.T) {
	h := NewHLL(14)
	s := splitmix64(1)
	if n := testing.AllocsPerRun(1000, func() { h.Add(s.next()) }); n != 0 {
		t.Errorf("HLL.Add: %v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(10, func() { h.Count() }); n != 0 {
		t.Errorf("HLL.Count: %v allocations, want 0", n)
	}

	tk := NewTopK[string](64)
	for range 100_000 { // fill, and let the index settle
		tk.Add(s.next(), 1, 1, nil)
	}
	known := tk.Items()[0].Hash
	if n := testing.AllocsPerRun(1000, func() { tk.Add(known, 1, 1, nil) }); n != 0 {
		t.Errorf("TopK.Add of a kept key: %v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(1000, func() { tk.Add(s.next(), 1, 1, nil) }); n != 0 {
		t.Errorf("TopK.Add of a new key with no value: %v allocations, want 0", n)
	}
}
