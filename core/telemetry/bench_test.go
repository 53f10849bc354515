package telemetry

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
)

// ruExport is an RU log of n rows as the query of pkcalc diagnose-query
// writes it: one row per second, key, range and operation, over 1,000
// keys.
func ruExport(n int, tables bool) []byte {
	var b bytes.Buffer
	if tables {
		b.WriteString(`{"tables":[{"name":"PrimaryResult","columns":[{"name":"TimeGenerated","type":"string"},{"name":"DatabaseName","type":"string"},{"name":"CollectionName","type":"string"},{"name":"RegionName","type":"string"},{"name":"PartitionKeyRangeId","type":"string"},{"name":"PartitionKey","type":"string"},{"name":"OperationName","type":"string"},{"name":"RequestCharge","type":"real"}],"rows":[`)
	} else {
		b.WriteString("TimeGenerated,DatabaseName,CollectionName,RegionName,PartitionKeyRangeId,PartitionKey,OperationName,RequestCharge\n")
	}
	for i := range n {
		sec, key := i/100, i%1000
		t := fmt.Sprintf("2025-02-25T%02d:%02d:%02dZ", sec/3600%24, sec/60%60, sec%60)
		if tables {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `["%s","shop","orders","West US 2","%d","[\"tenant-%d\"]","Create",%d.5]`, t, key%8, key, i%50)
		} else {
			fmt.Fprintf(&b, "%s,shop,orders,West US 2,%d,\"[\"\"tenant-%d\"\"]\",Create,%d.5\n", t, key%8, key, i%50)
		}
	}
	if tables {
		b.WriteString("]}]}")
	}
	return b.Bytes()
}

func benchmarkReadRU(b *testing.B, tables bool) {
	const n = 100_000
	in := ruExport(n, tables)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	var kept []RU
	for b.Loop() {
		rows, errs := ReadRU(bytes.NewReader(in))
		if len(rows) != n || len(errs) != 0 {
			b.Fatalf("%d rows, errors %v", len(rows), errs)
		}
		kept = rows
	}
	b.StopTimer()
	// What the rows keep: the heap with them, less the heap without.
	runtime.GC()
	var with, without runtime.MemStats
	runtime.ReadMemStats(&with)
	runtime.KeepAlive(kept)
	kept = nil
	runtime.GC()
	runtime.ReadMemStats(&without)
	b.ReportMetric(float64(with.HeapAlloc-without.HeapAlloc)/n, "kept-B/row")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/row")
}

func BenchmarkReadRUCSV(b *testing.B)    { benchmarkReadRU(b, false) }
func BenchmarkReadRUTables(b *testing.B) { benchmarkReadRU(b, true) }
