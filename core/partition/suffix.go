package partition

import (
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
)

// suffixGrowth grows the values of a key whose last term is a computed
// suffix (hash(/id)%N) by their group, the values that share the rest of
// the key: each keeps what the sample holds, and the group's growth is
// shared evenly over its N suffixes.
type suffixGrowth struct {
	n, grow     float64
	group       map[string]*suffixGroup
	unseenBytes float64 // the growth of the suffixes the sample lacks
	unseenDocs  float64
	unseenReq   float64
}

type suffixGroup struct {
	docs, bytes int64
	requests    float64
}

// lastSuffix is the N of a synthetic key whose last term is a computed
// suffix (hash(/path)%N), else 0.
func lastSuffix(spec key.Spec) int {
	if spec.Kind != key.Synthetic || len(spec.Terms) < 2 {
		return 0
	}
	return spec.Terms[len(spec.Terms)-1].Modulus
}

// restOf is the value without its suffix ("contoso-7" is "contoso"), and
// false for a value that is not a synthetic key's string.
func restOf(vals []epk.Value) (string, bool) {
	if len(vals) != 1 || vals[0].Kind != epk.String {
		return "", false
	}
	i := strings.LastIndexByte(vals[0].Str, '-')
	if i < 0 {
		return "", false
	}
	return vals[0].Str[:i], true
}

func (d *Distribution) suffixGrowth(n int, grow float64) *suffixGrowth {
	g := &suffixGrowth{n: float64(n), grow: grow, group: map[string]*suffixGroup{}}
	seen := map[string]int{}
	for i := range d.Logical {
		l := &d.Logical[i]
		rest, ok := restOf(l.Values)
		if !ok {
			continue
		}
		s := g.group[rest]
		if s == nil {
			s = &suffixGroup{}
			g.group[rest] = s
		}
		s.docs += l.Documents
		s.bytes += l.Bytes
		s.requests += l.Requests
		seen[rest]++
	}
	// In the groups' order, not the map's: float sums depend on their
	// order, and the report must be the same bytes on every run.
	for _, rest := range slices.Sorted(maps.Keys(g.group)) {
		s := g.group[rest]
		unseen := max(0, g.n-float64(seen[rest]))
		g.unseenBytes += unseen * float64(s.bytes) * (grow - 1) / g.n
		g.unseenDocs += unseen * float64(s.docs) * (grow - 1) / g.n
		g.unseenReq += unseen * s.requests * (grow - 1) / g.n
	}
	return g
}

// scaled is l at the target scale: what the sample holds, and its share of
// its group's growth.
func (g *suffixGrowth) scaled(l Logical) Logical {
	rest, ok := restOf(l.Values)
	s := g.group[rest]
	if !ok || s == nil {
		l.Documents = int64(math.Round(float64(l.Documents) * g.grow))
		l.Bytes = int64(math.Round(float64(l.Bytes) * g.grow))
		l.Requests *= g.grow
		return l
	}
	add := (g.grow - 1) / g.n
	l.Documents += int64(math.Round(float64(s.docs) * add))
	l.Bytes += int64(math.Round(float64(s.bytes) * add))
	l.Requests += s.requests * add
	return l
}

// largest is the n largest logical partitions at the target scale, as
// Distribution.largest orders them.
func (g *suffixGrowth) largest(d *Distribution, n int) []int32 {
	order := make([]int32, len(d.Logical))
	size := make([]Logical, len(d.Logical))
	for i := range d.Logical {
		order[i] = int32(i)
		size[i] = g.scaled(d.Logical[i])
	}
	slices.SortStableFunc(order, func(i, j int32) int { return compareSize(&size[i], &size[j]) })
	return order[:min(n, len(order))]
}

// SuffixGroupShares are, for a key whose last term is a computed suffix,
// the largest shares of the bytes and of the documents one value of the
// rest of the key holds over all its suffixes; 0 for any other key, or
// past the exact limit.
func (d *Distribution) SuffixGroupShares() (bytes, docs float64) {
	if lastSuffix(d.Spec) == 0 || d.Estimated || d.Documents == 0 || d.Bytes == 0 {
		return 0, 0
	}
	g := d.suffixGrowth(lastSuffix(d.Spec), 1)
	var mostBytes, mostDocs int64
	for _, s := range g.group {
		mostBytes, mostDocs = max(mostBytes, s.bytes), max(mostDocs, s.docs)
	}
	return float64(mostBytes) / float64(d.Bytes), float64(mostDocs) / float64(d.Documents)
}
