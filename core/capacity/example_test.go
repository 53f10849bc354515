package capacity_test

import (
	"fmt"

	"github.com/pkcalc/pkcalc/core/capacity"
)

func Example() {
	// A 400 RU/s container that has grown to 120 GB of evenly spread data.
	t := capacity.Throughput{RU: 400}
	storage := int64(120) << 30
	n := capacity.Partitions(t, storage)
	fmt.Println("physical partitions:", n)
	fmt.Println("RU/s each:", capacity.PerPartitionRU(t, n))
	fmt.Println("least manual RU/s:", capacity.MinRU(false, storage, 400))

	// Scaling 5 partitions to 150,000 RU/s: go to 200,000 first so all split.
	fmt.Println("scale to first:", capacity.EvenSplitRU(5, 150000))

	// Costs of 1 KB items with 10 indexed values; a query for 20 items on
	// one partition, and fanning out over all 4.
	c := capacity.DefaultCosts(capacity.Item{Bytes: 1024, Indexed: 10})
	fmt.Printf("read %.1f, write %.1f, query %.1f, fan-out query %.1f RU\n",
		c.PointRead, c.Write, c.QueryCharge(1, 20, false), c.QueryCharge(n, 20, false))

	// 100 writes/s land on the partitions unevenly.
	demand := []float64{50 * c.Write, 30 * c.Write, 15 * c.Write, 5 * c.Write}
	th := capacity.Throttling(demand, capacity.PerPartitionRU(t, n))
	fmt.Printf("throttled %.0f%%, hottest #%d at %.0f%%, headroom x%.1f\n",
		100*th.ThrottledFraction, th.Hottest, 100*th.HottestUtilisation, th.Headroom)
	// Output:
	// physical partitions: 4
	// RU/s each: 100
	// least manual RU/s: 400
	// scale to first: 200000
	// read 1.0, write 7.6, query 4.1, fan-out query 11.6 RU
	// throttled 56%, hottest #0 at 382%, headroom x0.3
}
