package epk_test

import (
	"fmt"

	"github.com/pkcalc/pkcalc/core/epk"
)

func Example() {
	// A container with a hash V2 partition key, created with 4 physical
	// partitions.
	ranges := epk.Ranges(epk.V2, 4)
	for _, v := range []string{"redmond", "seattle", "customer42"} {
		key := epk.HashV2(epk.Str(v))
		fmt.Println(v, key, "-> partition", epk.Locate(ranges, key))
	}
	// Output:
	// redmond 22E342F38A486A088463DFF7838A5963 -> partition 2
	// seattle 07E4D14180A45153F00B44907886F856 -> partition 0
	// customer42 19819C94CE42A1654CCC8110539D9589 -> partition 1
}

func ExampleMultiHash() {
	// Hierarchical key /tenantId, /userId: each level is hashed on its own.
	full := epk.MultiHash(epk.Str("contoso"), epk.Str("alice"))
	prefix := epk.MultiHash(epk.Str("contoso"))
	fmt.Println(len(full), full[:32] == prefix)
	// A query on the tenant alone reads [prefix, prefix+"FF").
	fmt.Println(prefix <= full && full < prefix+"FF")
	// Output:
	// 64 true
	// true
}

func ExampleHashV1() {
	// V1 keeps the value, cut to 100 characters, after a hashed prefix.
	fmt.Println(epk.HashV1(epk.Str("redmond")))
	fmt.Println(epk.HashV1(epk.Num(5)))
	// Output:
	// 05C1EFE313830C087366656E706F6500
	// 05C1D9C1C5517C05C014
}

func ExampleRanges() {
	for _, r := range epk.Ranges(epk.V1, 2) {
		fmt.Printf("[%q, %q)\n", r.MinInclusive, r.MaxExclusive)
	}
	// Output:
	// ["", "05C1DFFFFFFFFC")
	// ["05C1DFFFFFFFFC", "FF")
}
