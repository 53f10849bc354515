package query_test

import (
	"fmt"

	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/query"
)

func ExampleParse() {
	q, err := query.Parse(`select top 10 o.id, o.total
from orders o
where o.tenantId = @tenant and o.status in ('open', 'held') -- live orders
order by o._ts desc`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(q)

	_, err = query.Parse("SELECT * FROM c WHERE c.status = ORDER BY c._ts")
	fmt.Println(err)
	// Output:
	// SELECT TOP 10 o.id, o.total FROM orders AS o WHERE o.tenantId = @tenant AND o.status IN ("open", "held") ORDER BY o._ts DESC
	// line 1, column 34: expected an expression after '=', found 'ORDER'
}

func ExampleRoute() {
	tenant, _ := key.Parse("/tenantId")
	hierarchical, _ := key.Parse("/tenantId,/userId")
	for _, text := range []string{
		"SELECT * FROM c WHERE c.tenantId = @t AND c.userId = @u",
		"SELECT * FROM c WHERE c.tenantId IN ('contoso', 'fabrikam')",
		"SELECT * FROM c WHERE c.userId = @u",
	} {
		q, _ := query.Parse(text)
		for _, spec := range []key.Spec{tenant, hierarchical} {
			r := query.Route(q, spec)
			fmt.Printf("%-17s %-8s %d  %s\n", spec, r.Kind, r.Values, r.Reason)
		}
	}
	// Output:
	// /tenantId         single   1  filters /tenantId with =
	// /tenantId,/userId single   1  filters every level of /tenantId,/userId with =
	// /tenantId         targeted 2  filters /tenantId with IN or OR: one partition per value, 2 values
	// /tenantId,/userId targeted 2  filters /tenantId, the first level of /tenantId,/userId: the partitions of 2 prefixes
	// /tenantId         fanOut   0  no filter on /tenantId
	// /tenantId,/userId fanOut   0  filters only /userId, the second level of /tenantId,/userId: every partition
}
