package query

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/key"
)

func TestReadWorkloadText(t *testing.T) {
	in := "# the orders service\n" +
		"120 SELECT * FROM c WHERE c.tenantId = @t\n" +
		"\n" +
		"-- a comment\n" +
		"SELECT VALUE COUNT(1) FROM c\n" +
		"  7.5/s  select * from c where c.status = 'open'\r\n" +
		"500 read /id /tenantId\n" +
		"20 patch /status, /\"order date\"\n" +
		"5 batch /orderId\n" +
		"3 query SELECT * FROM c\n" +
		"1 SELECT * FROM c WHERE c.a = ORDER BY c.x\n" +
		"abc SELECT * FROM c\n" +
		"-4 SELECT * FROM c\n" +
		"12\n" +
		"12x SELECT * FROM c\n" +
		"2 read tenantId\n" +
		"SELECT * FROM c WHERE\n" +
		"4 read /tenantId\n" +
		"delete /tenantId /userId\n" +
		"2 batch 10 /orderId\n" +
		"sproc 3\n" +
		"read 2 /id\n" +
		"batch 0 /orderId\n" +
		"5 batch -3 /orderId\n" +
		"300 read /_id /movie_id\n" +
		"delete /_id\n"
	ops, errs := ReadWorkload(strings.NewReader(in))
	want := []Op{
		{Kind: QueryOp, Weight: 120, Text: "SELECT * FROM c WHERE c.tenantId = @t", Line: 2},
		{Kind: QueryOp, Weight: 1, Text: "SELECT VALUE COUNT(1) FROM c", Line: 5},
		{Kind: QueryOp, Weight: 7.5, Text: "select * from c where c.status = 'open'", Line: 6},
		{Kind: ReadOp, Weight: 500, Paths: []string{"/id", "/tenantId"}, Line: 7},
		{Kind: PatchOp, Weight: 20, Paths: []string{"/status", `/"order date"`}, Line: 8},
		{Kind: BatchOp, Weight: 5, Paths: []string{"/orderId"}, Line: 9},
		{Kind: QueryOp, Weight: 3, Text: "SELECT * FROM c", Line: 10},
		{Kind: BatchOp, Weight: 2, Items: 10, Paths: []string{"/orderId"}, Line: 20},
		{Kind: SprocOp, Weight: 1, Items: 3, Line: 21},
		// A MongoDB document's _id is its id once imported.
		{Kind: ReadOp, Weight: 300, Paths: []string{"/id", "/movie_id"}, Line: 25},
		{Kind: DeleteOp, Weight: 1, Paths: []string{"/id"}, Line: 26},
	}
	if len(ops) != len(want) {
		t.Fatalf("got %d ops, want %d: %+v", len(ops), len(want), ops)
	}
	for i, w := range want {
		got := ops[i]
		if (got.Query != nil) != (w.Kind == QueryOp) {
			t.Errorf("op %d: query parsed = %v", i, got.Query != nil)
		}
		got.Query = nil
		if !reflect.DeepEqual(got, w) {
			t.Errorf("op %d:\n got %+v\nwant %+v", i, got, w)
		}
	}
	wantErrs := []string{
		"line 11, column 31: expected an expression after '=', found 'ORDER'",
		"line 12, column 1: expected SELECT to start the query, found 'abc'",
		"line 13: the weight -4 is negative: give operations per second or a relative weight",
		"line 14: a weight but no operation: write a query or a kind such as read /id /tenantId",
		`line 15: the weight "12x" is not a number`,
		`line 16: path "tenantId" must start with '/', as in /tenantId`,
		"line 17, column 22: expected an expression after 'WHERE', found the end of the query",
		// A point read or delete needs the id; without it, it is a query.
		"line 18: a point read names its item by /id: list it, as in read /id /tenantId, or write the query that finds the item",
		"line 19: a delete names its item by /id: list it, as in delete /id /tenantId, or write the query that finds the item",
		"line 22: read takes paths, not the number 2: only a batch or sproc gives the items it writes",
		`line 23: the items "0" of a batch are not a whole number of at least 1`,
		// A count meant, not a path "/-3".
		`line 24: the items "-3" of a batch are not a whole number of at least 1`,
	}
	if len(errs) != len(wantErrs) {
		t.Fatalf("got %d errors, want %d: %v", len(errs), len(wantErrs), errs)
	}
	for i, w := range wantErrs {
		if errs[i].Error() != w {
			t.Errorf("error %d: got %q, want %q", i, errs[i], w)
		}
	}
	var pe *Error
	if !errors.As(errs[0], &pe) || pe.Line != 11 || pe.Column != 31 {
		t.Errorf("a query's syntax error is an *Error at its place in the file: %#v", errs[0])
	}
}

func TestReadWorkloadJSON(t *testing.T) {
	in := `[
  {"kind": "query", "weight": 120, "query": "SELECT * FROM c WHERE c.tenantId = @t"},
  {"kind": "read", "weight": 500, "paths": ["/id", "/tenantId"]},
  {"kind": "patch", "weight": 20, "paths": ["/status"]},
  {"kind": "batch", "weight": 5, "paths": ["/orderId"]},
  {"query": "SELECT VALUE 1"},
  {"kind": "Sproc", "paths": []},
  {"kind": "query", "weight": 3, "query": "SELECT * FROM c WHERE c.a = ORDER BY c.x"},
  {"kind": "fetch", "weight": 1},
  {"kind": "read", "wieght": 1},
  {"kind": "query"},
  {"kind": "delete", "weight": -1},
  {"kind": "upsert", "paths": ["nope"]},
  {"kind": "create", "weight": 40},
  {"kind": "read", "paths": ["/tenantId"]},
  {"kind": "batch", "weight": 2, "items": 10, "paths": ["/orderId"]},
  {"kind": "patch", "items": 2, "paths": ["/status"]}
]`
	ops, errs := ReadWorkload(strings.NewReader(in))
	var kinds []OpKind
	var lines []int
	for _, op := range ops {
		kinds = append(kinds, op.Kind)
		lines = append(lines, op.Line)
	}
	if want := []OpKind{QueryOp, ReadOp, PatchOp, BatchOp, QueryOp, SprocOp, CreateOp, BatchOp}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("kinds %v, want %v", kinds, want)
	}
	if want := []int{2, 3, 4, 5, 6, 7, 14, 16}; !reflect.DeepEqual(lines, want) {
		t.Errorf("lines %v, want %v", lines, want)
	}
	if ops[0].Weight != 120 || ops[0].Query == nil || ops[4].Weight != 1 || ops[6].Weight != 40 || ops[7].Items != 10 || ops[3].Items != 0 {
		t.Errorf("weights or queries: %+v", ops)
	}
	wantErrs := []string{
		"line 8: operation 7: its query: line 1, column 29: expected an expression after '=', found 'ORDER'",
		`line 9: operation 8: kind "fetch" is not one of query, read, create, replace, patch, upsert, delete, batch, sproc`,
		`line 10: operation 9: json: unknown field "wieght" (fields are kind, weight, query, paths, items, ru)`,
		`line 11: operation 10: a query operation needs "query": "SELECT ..."`,
		"line 12: operation 11: the weight -1 is negative: give operations per second or a relative weight",
		`line 13: operation 12: path "nope" must start with '/', as in /nope`,
		"line 15: operation 14: a point read names its item by /id: list it, as in read /id /tenantId, or write the query that finds the item",
		"line 17: operation 16: patch takes paths, not the number 2: only a batch or sproc gives the items it writes",
	}
	if len(errs) != len(wantErrs) {
		t.Fatalf("got %d errors, want %d: %v", len(errs), len(wantErrs), errs)
	}
	for i, w := range wantErrs {
		if errs[i].Error() != w {
			t.Errorf("error %d:\n got %q\nwant %q", i, errs[i], w)
		}
	}
	var pe *Error
	if !errors.As(errs[0], &pe) || pe.Column != 29 {
		t.Errorf("the query's *Error is wrapped: %v", errs[0])
	}

	// The object form, with other keys around the operations.
	ops, errs = ReadWorkload(strings.NewReader(`{"name": "orders", "notes": {"a": [1]},
  "operations": [
    {"kind": "read", "paths": ["/id"]}
  ]}`))
	if len(errs) != 0 || len(ops) != 1 || ops[0].Kind != ReadOp || ops[0].Line != 3 {
		t.Errorf("object form: %+v %v", ops, errs)
	}
	for _, tt := range []struct{ in, want string }{
		{`{"ops": []}`, `line 1: a JSON workload is an array of operations or {"operations": [...]}`},
		{"[\n{\"kind\": \"create\"},\n{\"kind\": ", "line 3: the JSON ends too soon"},
		{"[\n {\"kind\": \"create\"}\n {\"kind\": \"create\"}]", "line 3: the JSON is not valid: "},
		{`{"operations": 5}`, `line 1: expected an array of operations, as in [{"kind": "query", "weight": 120, "query": "SELECT ..."}]`},
	} {
		_, errs := ReadWorkload(strings.NewReader(tt.in))
		if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), tt.want) {
			t.Errorf("%q: got %v, want %q", tt.in, errs, tt.want)
		}
	}
}

func TestAssess(t *testing.T) {
	mustKey := func(s string) key.Spec {
		k, err := key.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	hash, hier, synth := mustKey("/tenantId"), mustKey("/tenantId,/userId"), mustKey("/customer/id+/orderDate:month")
	hier3, sufx := mustKey("/tenantId,/categoryId,/id"), mustKey("/device+hash(/ts)%4")
	q := func(text string) Op { return Op{Kind: QueryOp, Weight: 1, Text: text} }
	op := func(k OpKind, paths ...string) Op { return Op{Kind: k, Weight: 1, Paths: paths} }
	batch := func(items int, paths ...string) Op { return Op{Kind: BatchOp, Weight: 1, Items: items, Paths: paths} }
	for _, tt := range []struct {
		op         Op
		spec       key.Spec
		kind       Kind
		keyUpdated bool
		spans      bool
		msg        string
	}{
		{q("SELECT * FROM c WHERE c.tenantId = @t"), hash, Single, false, false, "reads one logical partition: filters /tenantId with ="},
		{q("SELECT * FROM c WHERE c.tenantId IN (@a, @b)"), hash, Targeted, false, false, "reads the partitions of 2 key values: filters /tenantId with IN or OR: one partition per value, 2 values"},
		{q("SELECT * FROM c"), hash, FanOut, false, false, "reads every partition: no filter on /tenantId"},
		{q("SELECT * FROM"), hash, FanOut, false, false, "the query does not parse: line 1, column 14: expected a container name, an alias or '(' after 'FROM', found the end of the query"},
		{op(ReadOp, "/id", "/tenantId"), hash, Single, false, false, "a point read by id and key: one logical partition"},
		{op(ReadOp, "/id"), hash, FanOut, false, false, "a read without /tenantId must first query every partition to find the item: give it the key"},
		// Part of the key routes as the query on it would: a hierarchical
		// key's first level, a synthetic key's sources but its suffix.
		{op(ReadOp, "/id", "/tenantId"), hier, Targeted, false, false, "a read without /userId must first query the partitions of 1 prefix to find the item: give it the whole key"},
		{op(ReadOp, "/id", "/tenantId"), hier3, Targeted, false, false, "a read without /categoryId must first query the partitions of 1 prefix to find the item: give it the whole key"},
		{op(DeleteOp, "/id", "/tenantId", "/categoryId"), hier3, Single, false, false, "a point delete by id and key: one logical partition"},
		{op(ReadOp, "/id", "/categoryId"), hier3, FanOut, false, false, "a read without /tenantId must first query every partition to find the item: give it the key"},
		{op(ReadOp, "/id", "/device"), sufx, Targeted, false, false, "a read without /ts must first query the partitions of 4 key values to find the item: give it the whole key"},
		{op(ReadOp, "/id", "/device", "/ts"), sufx, Single, false, false, ""},
		{op(ReadOp, "/id", "/ts"), sufx, FanOut, false, false, ""},
		{op(ReadOp, "/id", "/customer", "/orderDate"), synth, Single, false, false, ""},
		{op(ReadOp, "/id", "/customer/id"), synth, FanOut, false, false, "a read without /orderDate must first query every partition to find the item: give it the key"},
		{op(DeleteOp), hash, FanOut, false, false, "a delete without /tenantId must first query every partition to find the item: give it the key"},
		{op(CreateOp), hash, Single, false, false, "a create writes to the logical partition of the item's key"},
		{op(PatchOp, "/status"), hash, Single, false, false, "a patch in one logical partition; it does not change /tenantId"},
		{op(PatchOp, "/status", "/tenantId"), hash, Single, true, false, "the patch sets /tenantId, a key path: partition keys are immutable, so the change must be a delete and an insert"},
		{op(ReplaceOp, "/userId"), hier, Single, true, false, ""},
		{op(ReplaceOp, "/customer"), synth, Single, true, false, "the replace sets /customer, a source of the synthetic key /customer/id+/orderDate:month: partition keys are immutable, so the change must be a delete and an insert"},
		{op(UpsertOp, "/tenantId"), hash, Single, true, false, "the upsert sets /tenantId, a key path: with a new value it creates a second item instead of moving this one; a key change is a delete and an insert"},
		{op(PatchOp, "/tenantIdOld"), hash, Single, false, false, ""},
		{op(BatchOp, "/orderId"), hash, Single, false, false, "a transactional batch within one logical partition"},
		{op(BatchOp, "/orderId", "/tenantId"), hash, Targeted, false, true, "a transactional batch runs in one logical partition, but its items differ in /tenantId, a key path: split it by key value or choose a key its items share"},
		{op(SprocOp, "/userId"), hier, Targeted, false, true, ""},
		{op(SprocOp, "/orderDate"), synth, Targeted, false, true, ""},
		// Every item has an id of its own: a batch of several cannot share
		// a key made with /id; a batch of one can.
		{batch(10, "/orderId"), hier3, Targeted, false, true, "a transactional batch runs in one logical partition, but its items differ in /id (each item has its own), a key path: split it by key value or choose a key its items share"},
		{batch(10, "/orderId"), mustKey("/tenantId+hash(/id)%8"), Targeted, false, true, ""},
		{batch(1, "/orderId"), hier3, Single, false, false, ""},
		{batch(10, "/orderId"), hash, Single, false, false, ""},
		{op("bulk"), hash, FanOut, false, false, `unknown operation kind "bulk"`},
	} {
		a := Assess(tt.op, tt.spec)
		if a.Routing.Kind != tt.kind || a.KeyUpdated != tt.keyUpdated || a.SpansKeys != tt.spans || tt.msg != "" && a.Message != tt.msg {
			t.Errorf("%s %v %q under %s:\n got %s %v %v %q\nwant %s %v %v %q", tt.op.Kind, tt.op.Paths, tt.op.Text, tt.spec,
				a.Routing.Kind, a.KeyUpdated, a.SpansKeys, a.Message, tt.kind, tt.keyUpdated, tt.spans, tt.msg)
		}
		if a.Message == "" {
			t.Errorf("%s: no message", tt.op.Kind)
		}
	}
}

// A measured charge follows the weight, in the text and in JSON, and
// replaces the model for that operation.
func TestReadWorkloadCharge(t *testing.T) {
	ops, errs := ReadWorkload(strings.NewReader("500 ru=1.3 read /id /tenantId\n" +
		"1000\tRU=4.25\tSELECT * FROM c WHERE c.tenantId = @t\n" +
		"ru=9 create\n" +
		"5 ru=0 create\n" +
		"5 ru=abc create\n" +
		"5 ru=2e7 create\n" +
		"5 ru=3\n"))
	want := []struct {
		kind OpKind
		ru   float64
	}{{ReadOp, 1.3}, {QueryOp, 4.25}, {CreateOp, 9}}
	if len(ops) != len(want) {
		t.Fatalf("got %d ops, want %d: %+v", len(ops), len(want), ops)
	}
	for i, w := range want {
		if ops[i].Kind != w.kind || ops[i].RU != w.ru {
			t.Errorf("op %d: %s ru=%v, want %s ru=%v", i, ops[i].Kind, ops[i].RU, w.kind, w.ru)
		}
	}
	if ops[1].Text != "SELECT * FROM c WHERE c.tenantId = @t" {
		t.Errorf("query text %q", ops[1].Text)
	}
	wantErrs := []string{
		"line 4: the charge ru=0 is not a number of request units above 0 and at most 1000000",
		"line 5: the charge ru=abc is not a number of request units above 0 and at most 1000000",
		"line 6: the charge ru=2e7 is not a number of request units above 0 and at most 1000000",
		"line 7: a weight but no operation: write a query or a kind such as read /id /tenantId",
	}
	if len(errs) != len(wantErrs) {
		t.Fatalf("errors %v, want %v", errs, wantErrs)
	}
	for i, w := range wantErrs {
		if errs[i].Error() != w {
			t.Errorf("error %d: %q, want %q", i, errs[i], w)
		}
	}
	ops, errs = ReadWorkload(strings.NewReader(`[{"kind": "read", "weight": 5, "paths": ["/id"], "ru": 1.5}, {"kind": "create", "ru": -2}]`))
	if len(ops) != 1 || ops[0].RU != 1.5 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "the charge ru=-2 is not") {
		t.Errorf("JSON: %+v %v", ops, errs)
	}
}
