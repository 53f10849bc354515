package partition

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/pkcalc/pkcalc/core/ingest"
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
				docs[i] = ingest.Document{Bytes: 300, Root: ingest.Value{Kind: ingest.Object, Members: []ingest.Member{
					{Key: "k", Value: ingest.Value{Kind: ingest.String, Str: fmt.Sprintf("value-%07d", i%c.values)}}}}}
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
