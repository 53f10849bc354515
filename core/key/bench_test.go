package key

import (
	"testing"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/jsontree"
)

// benchTimes are a time field's values as documents hold them: the common
// ISO 8601 form first (the fast path, on every document's path), then the
// other forms Time reads, and text that is no time.
var benchTimes = []struct{ name, text string }{
	{"iso-utc", "2025-03-04T10:11:12.345Z"},
	{"iso-offset", "2025-03-04T11:11:12+01:00"},
	{"iso-space", "2025-03-04 10:11:12"},
	{"date", "2025-03-04"},
	{"rfc1123", "Tue, 04 Mar 2025 10:11:12 GMT"},
	{"twitter", "Tue Mar 04 10:11:12 +0000 2025"},
	{"not-a-time", "customer-000042"},
}

func BenchmarkSeconds(b *testing.B) {
	for _, c := range benchTimes {
		b.Run(c.name, func(b *testing.B) {
			v := &jsontree.Value{Kind: jsontree.String, Str: c.text}
			for b.Loop() {
				Seconds(v)
			}
		})
	}
	b.Run("epoch", func(b *testing.B) {
		v := &jsontree.Value{Kind: jsontree.Number, Num: 1741083072}
		for b.Loop() {
			Seconds(v)
		}
	})
}

// BenchmarkExtractBucket extracts a synthetic key with a day bucket, as
// every document of such a key is.
func BenchmarkExtractBucket(b *testing.B) {
	spec, err := Parse("/d+/t:day")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range benchTimes[:len(benchTimes)-1] {
		b.Run(c.name, func(b *testing.B) {
			d := jsontree.Value{Kind: jsontree.Object, Members: []jsontree.Member{
				{Key: "d", Value: jsontree.Value{Kind: jsontree.String, Str: "device-7"}},
				{Key: "t", Value: jsontree.Value{Kind: jsontree.String, Str: c.text}}}}
			var dst []epk.Value
			for b.Loop() {
				dst, _ = spec.Extract(&d, dst[:0])
			}
		})
	}
}
