// Package sample generates the built-in example dataset: orders of a
// multi-tenant shop, with the skew real tenants have (one tenant places
// almost half the orders), a low-cardinality status, a monotonic order
// date and nested line items, so that a first look at it already shows what
// makes a partition key good or bad; readings of a fleet of sensors; and
// the exports of a live container that docs/DIAGNOSE.md's worked example
// diagnoses (diagnose.go).
//
// The output depends only on the document count: the same n gives the same
// bytes on every platform.
package sample

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"
)

var tenants = []struct {
	name   string
	weight int // share of orders, in per mille
	region string
}{
	{"contoso", 460, "westeurope"},
	{"fabrikam", 180, "eastus"},
	{"northwind", 110, "eastus"},
	{"adventure-works", 80, "westus2"},
	{"tailspin", 50, "northeurope"},
	{"wingtip", 40, "southeastasia"},
	{"litware", 30, "westeurope"},
	{"proseware", 20, "japaneast"},
	{"lamna", 12, "australiaeast"},
	{"woodgrove", 10, "eastus"},
	{"relecloud", 5, "brazilsouth"},
	{"alpine-ski", 3, "switzerlandnorth"},
}

var statuses = []struct {
	name   string
	weight int
}{{"delivered", 70}, {"shipped", 15}, {"placed", 8}, {"cancelled", 5}, {"returned", 2}}

var products = []struct {
	sku   string
	price float64
}{
	{"TENT-2P", 189.00}, {"STOVE-CMP", 49.95}, {"BOOT-HIKE", 129.50}, {"SOCK-WOOL", 14.99},
	{"PACK-45L", 159.00}, {"LAMP-HEAD", 34.90}, {"MAT-SLEEP", 79.00}, {"BOTTLE-1L", 19.95},
	{"JACKET-RN", 210.00}, {"GLOVE-TR", 29.00}, {"POLE-TREK", 89.00}, {"MAP-TOPO", 9.50},
}

// Orders writes n orders as JSON Lines.
func Orders(w io.Writer, n int) error {
	rng := rand.New(rand.NewPCG(20250101, 7))
	bw := bufio.NewWriter(w)
	at := time.Date(2025, 1, 1, 6, 0, 0, 0, time.UTC)
	for i := 1; i <= n; i++ {
		t := tenants[pick(rng, len(tenants), func(k int) int { return tenants[k].weight })]
		// Customers per tenant grow with the tenant's share; a few buy often.
		customers := 20 + t.weight*2
		cust := int(float64(customers) * rng.Float64() * rng.Float64())
		status := statuses[pick(rng, len(statuses), func(k int) int { return statuses[k].weight })].name
		at = at.Add(time.Duration(rng.IntN(1200)) * time.Second)

		var items strings.Builder
		total := 0.0
		lines := 1 + rng.IntN(4)
		for l := 0; l < lines; l++ {
			p := products[rng.IntN(len(products))]
			qty := 1 + rng.IntN(3)
			total += p.price * float64(qty)
			if l > 0 {
				items.WriteByte(',')
			}
			fmt.Fprintf(&items, `{"sku":%q,"qty":%d,"price":%.2f}`, p.sku, qty, p.price)
		}
		_, err := fmt.Fprintf(bw, `{"id":"ord-%06d","tenantId":%q,"customerId":"%s-c%04d","orderDate":%q,"status":%q,"region":%q,"total":%.2f,"currency":"EUR","items":[%s],"_ts":%d}`+"\n",
			i, t.name, t.name, cust, at.Format(time.RFC3339), status, t.region, total, items.String(), at.Unix())
		if err != nil {
			return err
		}
	}
	return bw.Flush()
}

// OrdersText returns n orders as JSON Lines.
func OrdersText(n int) string {
	var b strings.Builder
	Orders(&b, n) // a strings.Builder does not fail
	return b.String()
}

// DefaultOrders is the number of orders in the built-in sample.
const DefaultOrders = 2000

// pick draws an index with probability proportional to weight(index).
func pick(rng *rand.Rand, n int, weight func(int) int) int {
	sum := 0
	for k := 0; k < n; k++ {
		sum += weight(k)
	}
	x := rng.IntN(sum)
	for k := 0; k < n; k++ {
		x -= weight(k)
		if x < 0 {
			return k
		}
	}
	return n - 1
}

// Telemetry writes n readings of a fleet of sensors as JSON Lines: 40
// devices of which a few report far more often, a reading every few
// seconds over about a day, and a battery level that falls with time. A
// device alone shows too few values; the battery level follows the order
// of writes (MONOTONIC) with too few values; the timestamp, new in every
// reading, follows it too, but Cosmos DB's hashing spreads its writes.
func Telemetry(w io.Writer, n int) error {
	rng := rand.New(rand.NewPCG(20250301, 11))
	bw := bufio.NewWriter(w)
	at := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	sites := []string{"oslo-1", "oslo-2", "bergen", "trondheim"}
	for i := 1; i <= n; i++ {
		// Device d reports with weight 1/(d+1): a long tail behind a few busy ones.
		dev := int(40 * rng.Float64() * rng.Float64() * rng.Float64())
		at = at.Add(time.Duration(1+rng.IntN(8)) * time.Second)
		temp := 18 + 6*rng.Float64()
		_, err := fmt.Fprintf(bw, `{"id":"r-%07d","deviceId":"sensor-%03d","site":%q,"ts":%d,"temperature":%.2f,"humidity":%.1f,"battery":%d}`+"\n",
			i, dev, sites[dev%len(sites)], at.Unix(), temp, 30+40*rng.Float64(), 100-i*60/max(n, 1))
		if err != nil {
			return err
		}
	}
	return bw.Flush()
}

// TelemetryText returns n readings as JSON Lines.
func TelemetryText(n int) string {
	var b strings.Builder
	Telemetry(&b, n) // a strings.Builder does not fail
	return b.String()
}

// DefaultTelemetry is the number of readings in the built-in telemetry sample.
const DefaultTelemetry = 5000
