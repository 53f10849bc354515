package partition

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/key"
)

// BenchmarkAddFacts counts documents for one key, per document: a key of
// five values (every value kept exactly) and a key with a new value in
// every document (past the 50,000 kept exactly, the sketches; each value's
// string is made in the loop, as the reader makes it).
func BenchmarkAddFacts(b *testing.B) {
	spec, err := key.Parse("/k")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		values int
	}{{"few", 5}, {"unique", 1 << 20}} {
		b.Run(c.name, func(b *testing.B) {
			docs := make([]ingest.Document, c.values%4096+4096)
			for i := range docs {
				docs[i] = ingest.Document{Bytes: 300, Root: jsontree.Value{Kind: jsontree.Object, Members: []jsontree.Member{
					{Key: "k", Value: jsontree.Value{Kind: jsontree.String, Str: fmt.Sprintf("value-%07d", i%c.values)}}}}}
			}
			a := New(spec, Options{})
			f := Facts{Time: 1, Weight: 1}
			buf := append(make([]byte, 0, 32), "value-"...)
			n := 0
			for b.Loop() {
				d := &docs[n%len(docs)]
				if c.values > len(docs) {
					d.Root.Members[0].Value.Str = string(strconv.AppendInt(buf[:6], int64(n), 10))
				}
				a.AddFacts(d, f)
				n++
			}
		})
	}
}

// BenchmarkOrder sorts keys as finishing a key does: 50,000 random EPK
// heads; 50,000 sizes that mostly agree (one document each, a few hundred
// bytes); the 20,000 samples of 330,000 documents, by position.
func BenchmarkOrder(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		name string
		n    int
		key  func() sortKey
	}{
		{"epk", 50_000, func() sortKey { return sortKey{rng.Uint64() >> 2, rng.Uint64(), rng.Uint64()} }},
		{"size", 50_000, func() sortKey { return sortKey{descending(300 + rng.Int64N(200)), descending(1), rng.Uint64() >> 2} }},
		{"samples", 20_000, func() sortKey { return sortKey{rng.Uint64N(330_000)} }},
	} {
		n := c.n
		keys := make([]sortKey, n)
		for i := range keys {
			keys[i] = c.key()
		}
		b.Run(c.name, func(b *testing.B) {
			var s sorter
			for b.Loop() {
				s.sortedKeys(n, func(i int, k *sortKey) { *k = keys[i] })
			}
		})
	}
}
