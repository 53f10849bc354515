package sketch

import (
	"math"
	"math/rand/v2"
	"testing"
)

// splitmix64 yields well-mixed distinct 64-bit hashes: a bijection of its
// counter, so n calls give n distinct values.
type splitmix64 uint64

func (s *splitmix64) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	return mix64(uint64(*s))
}

// mix64 is splitmix64's finaliser, a bijection that spreads every input bit
// over the output.
func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func relErr(est uint64, n int) float64 {
	if n == 0 {
		return float64(est)
	}
	return (float64(est) - float64(n)) / float64(n)
}

func TestHLLCount(t *testing.T) {
	for _, n := range []int{0, 1, 10, 1000, 100_000, 1_000_000} {
		h := NewHLL(14)
		s := splitmix64(n)
		for range n {
			h.Add(s.next())
		}
		got := h.Count()
		tol := 3 * h.StdError() * float64(n)
		if math.Abs(float64(got)-float64(n)) > tol {
			t.Errorf("n=%d: Count = %d, want within %.1f", n, got, tol)
		}
		t.Logf("n=%d: Count = %d, error %+.4f%%", n, got, 100*relErr(got, n))
	}
}

func TestHLLDuplicates(t *testing.T) {
	h := NewHLL(14)
	hashes := make([]uint64, 50_000)
	s := splitmix64(7)
	for i := range hashes {
		hashes[i] = s.next()
		h.Add(hashes[i])
	}
	want := h.Count()
	for range 3 {
		for i := len(hashes) - 1; i >= 0; i-- {
			h.Add(hashes[i])
		}
	}
	if got := h.Count(); got != want {
		t.Errorf("Count after duplicates = %d, want %d", got, want)
	}
}

func TestHLLMerge(t *testing.T) {
	for _, p := range []uint8{4, 10, 14, 18} {
		a, b, both := NewHLL(p), NewHLL(p), NewHLL(p)
		s := splitmix64(p)
		for i := range 30_000 {
			x := s.next()
			switch i % 3 {
			case 0:
				a.Add(x)
			case 1:
				b.Add(x)
			default: // in both streams
				a.Add(x)
				b.Add(x)
			}
			both.Add(x)
		}
		if err := a.Merge(b); err != nil {
			t.Fatalf("p=%d: Merge: %v", p, err)
		}
		if a.Count() != both.Count() || string(a.reg) != string(both.reg) {
			t.Errorf("p=%d: merged Count = %d, want %d as if added to one sketch", p, a.Count(), both.Count())
		}
		var zero HLL
		if p == DefaultPrecision {
			if err := zero.Merge(both); err != nil || zero.Count() != both.Count() {
				t.Errorf("zero.Merge: Count = %d, err %v; want %d, nil", zero.Count(), err, both.Count())
			}
		}
	}

	a := NewHLL(14)
	a.Add(1)
	if err := a.Merge(nil); err != nil || a.Count() != 1 {
		t.Errorf("Merge(nil): Count = %d, err %v; want 1, nil", a.Count(), err)
	}
	if err := a.Merge(NewHLL(12)); err == nil {
		t.Error("Merge of precision 12 into 14: no error")
	}
	if err := a.Merge(&HLL{}); err != nil || a.Count() != 1 {
		t.Errorf("Merge(zero HLL): Count = %d, err %v; want 1, nil", a.Count(), err)
	}
}

func TestHLLPrecision(t *testing.T) {
	tests := []struct {
		in, want uint8
		stdErr   float64
	}{
		{0, 4, 0.26},
		{4, 4, 0.26},
		{14, 14, 1.04 / 128},
		{18, 18, 1.04 / 512},
		{19, 18, 1.04 / 512},
		{255, 18, 1.04 / 512},
	}
	for _, tt := range tests {
		h := NewHLL(tt.in)
		if h.Precision() != tt.want || len(h.reg) != 1<<tt.want {
			t.Errorf("NewHLL(%d): precision %d with %d registers, want %d", tt.in, h.Precision(), len(h.reg), tt.want)
		}
		if math.Abs(h.StdError()-tt.stdErr) > 1e-12 {
			t.Errorf("NewHLL(%d).StdError() = %g, want %g", tt.in, h.StdError(), tt.stdErr)
		}
		for i := range uint64(5) {
			h.Add(mix64(i))
		}
		if h.Count() != 5 && tt.want > 4 {
			t.Errorf("NewHLL(%d): Count of 5 = %d", tt.in, h.Count())
		}
	}
}

func TestHLLZero(t *testing.T) {
	var h HLL
	if h.Count() != 0 || h.Precision() != DefaultPrecision || h.StdError() != NewHLL(DefaultPrecision).StdError() {
		t.Errorf("zero HLL: Count %d, Precision %d, StdError %g", h.Count(), h.Precision(), h.StdError())
	}
	h.Add(42)
	h.Add(42)
	if h.Count() != 1 {
		t.Errorf("zero HLL after one hash: Count = %d, want 1", h.Count())
	}
}

// Hashes whose bits after the index are all zero take the largest register
// value; a sketch of only those is saturated, and must not overflow Count.
func TestHLLSaturated(t *testing.T) {
	h := NewHLL(4)
	for i := range uint64(16) {
		h.Add(i << 60)
	}
	if got := h.Count(); got != math.MaxUint64 {
		t.Errorf("saturated Count = %d, want MaxUint64", got)
	}
}

// TestHLLAccuracy measures bias and root-mean-square error over many
// independent streams, across the small range (where the estimator acts as
// linear counting), the transition and the large range.
func TestHLLAccuracy(t *testing.T) {
	const trials = 200
	for _, p := range []uint8{10, 14} {
		m := 1 << p
		for _, n := range []int{m / 10, m / 2, m, 2 * m, 5 * m / 2, 3 * m, 5 * m, 10 * m, 100 * m} {
			if p == 14 && n > 10*m {
				continue // slow under WebAssembly; p=10 covers the range
			}
			var sum, sumSq float64
			for trial := range trials {
				h := NewHLL(p)
				s := splitmix64(uint64(trial) << 40)
				for range n {
					h.Add(s.next())
				}
				e := relErr(h.Count(), n)
				sum += e
				sumSq += e * e
			}
			bias, rmse := sum/trials, math.Sqrt(sumSq/trials)
			se := NewHLL(p).StdError()
			t.Logf("p=%d n=%d: bias %+.3f%%, RMSE %.3f%% (StdError %.3f%%)", p, n, 100*bias, 100*rmse, 100*se)
			if rmse > 1.2*se {
				t.Errorf("p=%d n=%d: RMSE %.4f > 1.2 × StdError %.4f", p, n, rmse, se)
			}
			if math.Abs(bias) > 3*se/math.Sqrt(trials)+0.001 {
				t.Errorf("p=%d n=%d: bias %.4f", p, n, bias)
			}
		}
	}
}

// TestHLLLargeRange checks the estimator at cardinalities too large to add
// one by one. Under the Poisson model the estimator assumes, a register after
// n distinct hashes holds at most k with probability exp(-n/m · 2^-k) for
// k <= q, so registers can be drawn directly.
func TestHLLLargeRange(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, p := range []uint8{8, 14} {
		q := 64 - int(p)
		for _, n := range []float64{1e9, 1e12, 1e15, 1e18, 0x1p62, 0x1p63} {
			h := NewHLL(p)
			lambda := n / float64(len(h.reg))
			for i := range h.reg {
				u := r.Float64()
				k := 0
				for k <= q && math.Exp(-lambda*math.Exp2(-float64(k))) < u {
					k++
				}
				h.reg[i] = uint8(k)
			}
			got := float64(h.Count())
			if e := math.Abs(got-n) / n; e > 3*h.StdError() {
				t.Errorf("p=%d n=%g: Count = %g, error %.4f beyond 3 standard errors", p, n, got, e)
			}
		}
	}
}
