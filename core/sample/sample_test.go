package sample

import (
	"crypto/sha256"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/paths"
)

func TestOrdersDeterministic(t *testing.T) {
	a, b := OrdersText(500), OrdersText(500)
	if a != b {
		t.Fatal("two runs differ")
	}
	// Pin the bytes so a change of generator is a deliberate one (the same
	// digest natively and in WebAssembly).
	if got := fmt.Sprintf("%x", sha256.Sum256([]byte(a)))[:16]; got != "78127d87efc6153d" {
		t.Errorf("sha256 prefix %s: the sample changed", got)
	}
}

func TestOrdersTeach(t *testing.T) {
	c := paths.New(paths.Options{})
	r := ingest.NewReader(strings.NewReader(OrdersText(DefaultOrders)))
	for {
		d, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		c.Add(&d.Root, d.Bytes)
	}
	if c.Documents() != DefaultOrders {
		t.Fatalf("%d documents", c.Documents())
	}
	m := map[string]paths.Path{}
	for _, p := range c.Paths() {
		m[p.Path] = p
	}
	tenant := m["/tenantId"]
	if tenant.Distinct != 12 || tenant.Top[0].Value != `"contoso"` {
		t.Errorf("/tenantId: %+v", tenant)
	}
	// One tenant dominates: the skew the sample exists to show.
	if share := float64(tenant.Top[0].Count) / DefaultOrders; share < 0.40 || share > 0.52 {
		t.Errorf("contoso has %.0f%% of orders", share*100)
	}
	if s := m["/status"]; s.Distinct != 5 {
		t.Errorf("/status: %d distinct", s.Distinct)
	}
	if id := m["/id"]; id.Distinct != DefaultOrders {
		t.Errorf("/id: %d distinct", id.Distinct)
	}
	if cu := m["/customerId"]; cu.Distinct < 500 {
		t.Errorf("/customerId: %d distinct", cu.Distinct)
	}
	if it := m["/items/[]/sku"]; it.Usable {
		t.Errorf("/items/[]/sku usable")
	}
}

func TestTelemetry(t *testing.T) {
	text := TelemetryText(DefaultTelemetry)
	if text != TelemetryText(DefaultTelemetry) {
		t.Fatal("two runs differ")
	}
	c := paths.New(paths.Options{})
	r := ingest.NewReader(strings.NewReader(text))
	for {
		d, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		c.Add(&d.Root, d.Bytes)
	}
	m := map[string]paths.Path{}
	for _, p := range c.Paths() {
		m[p.Path] = p
	}
	if d := m["/deviceId"]; d.Distinct < 30 || d.Distinct > 40 || float64(d.Top[0].Count)/DefaultTelemetry < 0.1 {
		t.Errorf("/deviceId: %d distinct, top %v", d.Distinct, d.Top)
	}
	if s := m["/site"]; s.Distinct != 4 {
		t.Errorf("/site: %d distinct", s.Distinct)
	}
}
