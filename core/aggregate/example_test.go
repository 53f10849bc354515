package aggregate_test

import (
	"fmt"
	"strings"

	"github.com/pkcalc/pkcalc/core/aggregate"
	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
)

func Example() {
	// The query to run on the container, without its comments.
	spec, _ := key.Parse("/tenantId")
	q, _ := aggregate.Query(spec, aggregate.Cosmos, "")
	for _, line := range strings.Split(strings.TrimSpace(q), "\n") {
		if !strings.HasPrefix(line, "--") {
			fmt.Println(line)
		}
	}

	// What Cosmos DB returns: typed values, and no k0 for items without
	// the key path.
	out := `[
  {"k0": "contoso", "documents": 120, "bytes": 48000},
  {"k0": 42, "documents": 3, "bytes": 900},
  {"documents": 4, "bytes": 1000},
  {"k0": "fabrikam", "documents": -1}
]`
	rows, errs := aggregate.Read(strings.NewReader(out), spec.Levels())
	for _, r := range rows {
		fmt.Printf("line %d: %s, %d documents, %d bytes\n", r.Line, show(r.Values[0]), r.Documents, r.Bytes)
	}
	for _, err := range errs {
		fmt.Println(err)
	}
	// Output:
	// SELECT c.tenantId AS k0,
	//     COUNT(1) AS documents,
	//     SUM(LENGTH(ToString(c))) AS bytes
	// FROM c
	// GROUP BY c.tenantId
	// line 2: "contoso", 120 documents, 48000 bytes
	// line 3: 42, 3 documents, 900 bytes
	// line 4: undefined, 4 documents, 1000 bytes
	// line 5, row 4: field documents: negative count -1
}

func show(v epk.Value) string {
	switch v.Kind {
	case epk.String:
		return fmt.Sprintf("%q", v.Str)
	case epk.Number:
		return fmt.Sprint(v.Num)
	case epk.Undefined:
		return "undefined"
	}
	return fmt.Sprint(v.Kind)
}

func ExampleRead() {
	// DuckDB's or Spark's CSV: key cells are JSON text, quotes doubled.
	csv := "k0,documents,bytes\n" +
		"\"\"\"42\"\"\",2,700\n" + // the string "42"
		"42,3,900\n" + // the number 42
		",4,1000\n" // no key path
	rows, _ := aggregate.Read(strings.NewReader(csv), 1)
	for _, r := range rows {
		fmt.Println(r.Line, show(r.Values[0]), r.Documents, r.Bytes)
	}
	// Output:
	// 2 "42" 2 700
	// 3 42 3 900
	// 4 undefined 4 1000
}
