package sketch_test

import (
	"fmt"
	"hash/fnv"

	"github.com/pkcalc/pkcalc/core/sketch"
)

// hash stands in for xxhash.Sum64String, which callers should use: FNV-1a
// followed by a finaliser that spreads its bits, as HyperLogLog needs.
func hash(s string) uint64 {
	f := fnv.New64a()
	f.Write([]byte(s))
	z := f.Sum64()
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func ExampleHLL() {
	h := sketch.NewHLL(14)
	for i := range 250_000 {
		// 50,000 tenants, each seen five times.
		h.Add(hash(fmt.Sprintf("tenant-%d", i%50_000)))
	}
	n := h.Count()
	fmt.Printf("about %d distinct tenants (±%.2f%%)\n", n, 100*h.StdError())
	fmt.Println("within 3 standard errors:", float64(max(n, 50_000)-min(n, 50_000)) <= 3*h.StdError()*50_000)
	// Output:
	// about 49877 distinct tenants (±0.81%)
	// within 3 standard errors: true
}

func ExampleTopK() {
	t := sketch.NewTopK[string](3)
	docs := []struct {
		tenant string
		size   int64
	}{
		{"contoso", 1200}, {"fabrikam", 800}, {"contoso", 900},
		{"northwind", 400}, {"contoso", 1100}, {"tailspin", 300},
		{"fabrikam", 700}, {"contoso", 1000},
	}
	for _, d := range docs {
		// The closure builds the value only for keys that get an entry.
		t.Add(hash(d.tenant), 1, d.size, func(string) string { return d.tenant })
	}
	for _, it := range t.Items() {
		fmt.Printf("%-9s docs %d (may overcount by %d), bytes %d\n", it.Value, it.Docs, it.DocsError, it.Bytes)
	}
	docsTotal, bytesTotal := t.Total()
	fmt.Println("total:", docsTotal, "docs,", bytesTotal, "bytes")
	// Tailspin, seen once, took the entry fabrikam had then, and fabrikam
	// took northwind's: each count may include one document of another key.

	// Output:
	// contoso   docs 4 (may overcount by 0), bytes 4200
	// tailspin  docs 2 (may overcount by 1), bytes 300
	// fabrikam  docs 2 (may overcount by 1), bytes 700
	// total: 8 docs, 6400 bytes
}
