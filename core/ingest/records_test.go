package ingest

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/pkcalc/pkcalc/core/jsontree"
)

// readRecords reads every record and error of in at paths, as text: a
// record as "line L #I pP: JSON | context", an error as its message.
func readRecords(t *testing.T, src io.Reader, paths ...Path) []string {
	t.Helper()
	rs := NewRecords(src, paths...)
	var out []string
	for i := 0; ; i++ {
		if i > 10000 {
			t.Fatal("Next does not reach io.EOF")
		}
		rec, err := rs.Next()
		if err == io.EOF {
			if rec != nil {
				t.Fatal("a record with io.EOF")
			}
			return out
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Next returned %T %v, not an *Error", err, err)
			}
			out = append(out, "error: "+e.Error())
			continue
		}
		var ctx []string
		for _, c := range rec.Context {
			ctx = append(ctx, c.JSON())
		}
		s := fmt.Sprintf("line %d #%d p%d: %s", rec.Line, rec.Index, rec.Path, rec.Value.JSON())
		if len(ctx) > 0 {
			s += " | " + strings.Join(ctx, " ")
		}
		for _, n := range rec.Notes {
			s += " [note: " + n.Msg + "]"
		}
		out = append(out, s)
	}
}

var (
	tablesPath  = Path{"tables", Each, "rows", Each}
	metricsPath = Path{"value", Each, "timeseries", Each}
)

func TestRecords(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		paths []Path
		want  []string
	}{
		{
			name: "the Log Analytics query API's tables",
			in: `{"tables":[{"name":"PrimaryResult","columns":[{"name":"A","type":"string"}],"rows":[
["x"],
["y"]]}]}`,
			paths: []Path{tablesPath},
			want: []string{
				`line 2 #1 p0: ["x"] | {} {"name":"PrimaryResult","columns":[{"name":"A","type":"string"}]}`,
				`line 3 #2 p0: ["y"] | {} {"name":"PrimaryResult","columns":[{"name":"A","type":"string"}]}`,
			},
		},
		{
			name:  "names in any case, metadata before the records kept, after them read past",
			in:    `{"cost":0,"interval":"PT1M","Value":[{"name":{"value":"NormalizedRUConsumption"},"TimeSeries":[{"data":[]},{"data":[1]}],"unit":"Percent"}],"namespace":"x"}`,
			paths: []Path{metricsPath},
			want: []string{
				`line 1 #1 p0: {"data":[]} | {"cost":0,"interval":"PT1M"} {"name":{"value":"NormalizedRUConsumption"}}`,
				`line 1 #2 p0: {"data":[1]} | {"cost":0,"interval":"PT1M"} {"name":{"value":"NormalizedRUConsumption"}}`,
			},
		},
		{
			name:  "an array report, and pages one after another",
			in:    "[{\"a\":1}]\n{\"Ranges\":[{\"a\":2}],\"_count\":1}\n{\"Ranges\":[{\"a\":3}]}",
			paths: []Path{{Each}, {"ranges", Each}},
			want: []string{
				`line 1 #1 p0: {"a":1}`,
				`line 2 #2 p1: {"a":2} | {}`,
				`line 3 #3 p1: {"a":3} | {}`,
			},
		},
		{
			name:  "a bad record is skipped, the next read",
			in:    "{\"rows\":[\n[1, 2x],\n[\"a\" \"b\"],\n[3]\n]}",
			paths: []Path{{"rows", Each}},
			want: []string{
				"error: line 2, column 6 (document 1): expected ',' or ']' in an array, found 'x'",
				"error: line 3, column 6 (document 2): a comma is missing between the elements: put ',' before this one",
				"line 4 #3 p0: [3] | {}",
			},
		},
		{
			name:  "a value that holds no records is said and read past",
			in:    `{"tables":[{"rows":null},{"rows":[[1]]}]}`,
			paths: []Path{tablesPath},
			want: []string{
				"error: line 1, column 20: expected an array, found 'n'; it holds no records",
				`line 1 #1 p0: [1] | {} {}`,
			},
		},
		{
			name:  "a report of the wrong shape",
			in:    `[1, 2]`,
			paths: []Path{tablesPath},
			want:  []string{"error: line 1, column 1: expected an object, found '['"},
		},
		{
			name:  "a report that ends early",
			in:    `{"tables":[{"rows":[[1],`,
			paths: []Path{tablesPath},
			want:  []string{`line 1 #1 p0: [1] | {} {}`, "error: line 1, column 25 (document 2): the input ends where a value was expected"},
		},
		{
			name:  "a report cut after a record",
			in:    `{"tables":[{"rows":[[1]`,
			paths: []Path{tablesPath},
			want:  []string{`line 1 #1 p0: [1] | {} {}`, "error: line 1, column 24: the input ends inside an array: expected ',' or ']'"},
		},
		{
			name:  "a broken report ends the reading",
			in:    `{"tables":[{"rows":[[1]] "name":"x"}]} {"tables":[{"rows":[[2]]}]}`,
			paths: []Path{tablesPath},
			want:  []string{`line 1 #1 p0: [1] | {} {}`, "error: line 1, column 26: a comma is missing between the properties: put ',' before this one"},
		},
		{
			name:  "not JSON at all",
			in:    "\x1f\x8b\x08\x00",
			paths: []Path{tablesPath},
			want:  []string{"error: line 1, column 1 (document 1): the input is gzip-compressed: decompress it first (gunzip FILE)"},
		},
		{
			name:  "a byte order mark, and an empty input",
			in:    "\uFEFF[]",
			paths: []Path{{Each}},
		},
		{
			name:  "notes on a record",
			in:    `[{"a":1,"a":2}]`,
			paths: []Path{{Each}},
			want:  []string{`line 1 #1 p0: {"a":2} [note: property "a" appears more than once in an object; the last one counts]`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, src := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in))} {
				got := readRecords(t, src, tt.paths...)
				if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
					t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
				}
			}
		})
	}
}

// TestRecordsLimits reads a report far over the 2 MB of a document, a
// record by record, and skips a record over the limit unbuilt.
func TestRecordsLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"tables":[{"columns":[{"name":"A"}],"rows":[`)
	const rows = 100_000
	for i := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `["row %d, some text to make it longer"]`, i)
	}
	b.WriteString(`,["` + strings.Repeat("x", MaxDocumentBytes) + `"],[0]]}]}`)
	if b.Len() < 2*MaxDocumentBytes {
		t.Fatalf("the report is only %d bytes", b.Len())
	}
	rs := NewRecords(strings.NewReader(b.String()), tablesPath)
	n := 0
	var errs []string
	for {
		rec, err := rs.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		n++
		if cols := rec.Context[1].Members; len(cols) != 1 || cols[0].Key != "columns" {
			t.Fatalf("record %d: context %v", rec.Index, rec.Context)
		}
	}
	if n != rows+1 {
		t.Errorf("read %d records, want %d", n, rows+1)
	}
	want := "line 1, column 4288936 (document 100001): record 100001 is larger than the 2 MB pkcalc reads as one record; skipped"
	if len(errs) != 1 || errs[0] != want {
		t.Errorf("errors %q, want %q", errs, want)
	}
}

// TestRecordsContextBound keeps no more than MaxDocumentBytes of context
// at one level, however much comes before the records.
func TestRecordsContextBound(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 40 {
		fmt.Fprintf(&b, `"m%d":"%s",`, i, strings.Repeat("x", 100_000))
	}
	b.WriteString(`"rows":[[1]]}`)
	rs := NewRecords(strings.NewReader(b.String()), Path{"rows", Each})
	rec, err := rs.Next()
	if err != nil {
		t.Fatal(err)
	}
	kept := rec.Context[0]
	if size := kept.CompactLen(); size > MaxDocumentBytes || len(kept.Members) != 20 {
		t.Errorf("kept %d members of %d bytes", len(kept.Members), size)
	}
	if rec.Value.Kind != jsontree.Array {
		t.Errorf("record %s", rec.Value.JSON())
	}
}

// FuzzRecords reads any input at the paths of the reports pkcalc reads:
// it ends, every problem is an *Error placed in the input, and every
// record is within the limits.
func FuzzRecords(f *testing.F) {
	for _, s := range []string{
		`{"tables":[{"name":"PrimaryResult","columns":[{"name":"A","type":"string"}],"rows":[["x"],["y"]]}]}`,
		`{"cost":0,"interval":"PT1M","value":[{"name":{"value":"NormalizedRUConsumption"},"timeseries":[{"metadatavalues":[],"data":[{"timeStamp":"2024-01-01T00:00:00Z","maximum":5}]}]}]}`,
		`[{"id":"0","minInclusive":"","maxExclusive":"FF"}]`,
		`{"_rid":"x","PartitionKeyRanges":[{"id":"0"}],"_count":1}{"PartitionKeyRanges":[]}`,
		"{\"rows\":[\n[1, 2x],\n[3]\n]}",
	} {
		f.Add([]byte(s))
	}
	paths := []Path{tablesPath, metricsPath, {Each}, {"PartitionKeyRanges", Each}, {"rows", Each}}
	f.Fuzz(func(t *testing.T, in []byte) {
		rs := NewRecords(strings.NewReader(string(in)), paths...)
		for i := 0; ; i++ {
			if i > 2*len(in)+10 {
				t.Fatalf("Next did not reach io.EOF after %d calls on %d bytes", i, len(in))
			}
			rec, err := rs.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("Next returned %T %v", err, err)
				}
				if e.Line < 1 || e.Column < 1 || e.Offset < 0 || e.Offset > int64(len(in)) {
					t.Fatalf("error outside the input: %+v", e)
				}
				continue
			}
			if rec.Line < 1 || rec.Offset < 0 || rec.Offset >= int64(len(in)) || rec.Path < 0 || rec.Path >= len(paths) {
				t.Fatalf("record outside the input: %+v", rec)
			}
			if rec.Value.CompactLen() > MaxDocumentBytes {
				t.Fatalf("record %d is %d bytes", rec.Index, rec.Value.CompactLen())
			}
		}
	})
}
