package ingest

import (
	"fmt"
	"strings"
	"testing"
	"testing/iotest"
)

// problems lists a read's errors and the notes of its documents, each as
// "error" or "note", its position and its message.
func (r result) problems() []string {
	var out []string
	for _, d := range r.docs {
		for _, n := range d.Notes {
			out = append(out, "note "+n.Error())
		}
	}
	for _, e := range r.errs {
		out = append(out, "error "+e.Error())
	}
	return out
}

// TestTable: JSON Lines of arrays, and a JSON array of arrays, whose first
// row names the columns, read as a CSV file is: a document per row, with a
// note saying so, and an error for a row of another length.
func TestTable(t *testing.T) {
	const lines = "the first line is an array of %s and the lines after it arrays of values: read as a table, as a CSV file is, each row a document with those names as its properties"
	const array = "the array's first element is an array of %s and the elements after it arrays of values: read as a table, as a CSV file is, each row a document with those names as its properties"
	for _, tt := range []struct {
		name, in, format string
		docs             []string
		problems         []string
	}{
		{"lines", "[\"id\",\"city\"]\n[\"1\",\"Oslo\"]\n[\"2\",\"Rome\"]\n", "JSON Lines of arrays",
			[]string{`{"id":"1","city":"Oslo"}`, `{"id":"2","city":"Rome"}`},
			[]string{"note line 1, column 1 (document 1): " + fmt.Sprintf(lines, "2 names")}},
		{"array", "[[\"id\",\"city\"],\n [\"1\",\"Oslo\"],\n [\"2\",\"Rome\"]]\n", "JSON array of arrays",
			[]string{`{"id":"1","city":"Oslo"}`, `{"id":"2","city":"Rome"}`},
			[]string{"note line 1, column 2 (document 1): " + fmt.Sprintf(array, "2 names")}},
		{"crlf, blank lines and a byte order mark", "\ufeff[\"id\"]\r\n\r\n[1]\r\n[2]", "JSON Lines of arrays",
			[]string{`{"id":1}`, `{"id":2}`},
			[]string{"note line 1, column 1 (document 1): " + fmt.Sprintf(lines, "1 name")}},
		// Cells keep their JSON values: nested objects and arrays, null,
		// booleans, numbers as written, Extended JSON as what it stands for.
		{"values as they are", `["id","n","tags","meta","gone","ok","_id"]` + "\n" + `["a",12.50,["x","y"],{"k":{"l":1}},null,true,{"$oid":"5f1b"}]`, "JSON Lines of arrays",
			[]string{`{"id":"a","n":12.50,"tags":["x","y"],"meta":{"k":{"l":1}},"gone":null,"ok":true,"_id":"5f1b"}`},
			[]string{"note line 1, column 1 (document 1): " + fmt.Sprintf(lines, "7 names")}},
		// A row of another length is an error at its start; the rows after
		// it are read, and the note goes with the first document read.
		{"rows of other lengths", "[\"id\",\"city\"]\n[\"1\"]\n[\"2\",\"Rome\",\"x\"]\n[]\n[\"3\",\"Lima\"]\n", "JSON Lines of arrays",
			[]string{`{"id":"3","city":"Lima"}`},
			[]string{"note line 1, column 1 (document 4): " + fmt.Sprintf(lines, "2 names"),
				"error line 2, column 1 (document 1): a row of 1 value, and the header row names 2 columns; skipped",
				"error line 3, column 1 (document 2): a row of 3 values, and the header row names 2 columns; skipped",
				"error line 4, column 1 (document 3): a row of 0 values, and the header row names 2 columns; skipped"}},
		{"a row cut short", "[\"id\",\"n\"]\n[\"1\",2\n[\"2\",3]\n", "JSON Lines of arrays",
			[]string{`{"id":"2","n":3}`},
			[]string{"note line 1, column 1 (document 2): " + fmt.Sprintf(lines, "2 names"),
				"error line 3, column 1 (document 1): a new document starts here while document 1, begun on line 2, is still open: is a '}' or ']' missing at the end of line 2?"}},
		{"array with a row of another length", `[["a","b"],[1,2],[3],[4,5]]`, "JSON array of arrays",
			[]string{`{"a":1,"b":2}`, `{"a":4,"b":5}`},
			[]string{"note line 1, column 2 (document 1): " + fmt.Sprintf(array, "2 names"),
				"error line 1, column 18 (document 2): a row of 1 value, and the header row names 2 columns; skipped"}},
		// The header's names follow CSV's rules: an empty or a repeated
		// one is renamed, with a note each; spaces around a name go; dotted
		// names nest.
		{"names renamed", `["id","id","","city "]` + "\n" + `[1,2,3,4]`, "JSON Lines of arrays",
			[]string{`{"id":1,"id_2":2,"column_3":3,"city":4}`},
			[]string{"note line 1, column 1 (document 1): " + fmt.Sprintf(lines, "4 names"),
				`note line 1, column 7 (document 1): column 2 repeats the name "id" of column 1; it is read as "id_2"`,
				`note line 1, column 12 (document 1): column 3 has no name; it is read as "column_3"`}},
		{"dotted names nest", `["id","address.city","address.zip"]` + "\n" + `[1,"Oslo","0150"]`, "JSON Lines of arrays",
			[]string{`{"id":1,"address":{"city":"Oslo","zip":"0150"}}`},
			[]string{"note line 1, column 1 (document 1): " + fmt.Sprintf(lines, "3 names")}},
		{"escapes in names", `["a\u0062","c\"d"]` + "\n" + `[1,2]`, "JSON Lines of arrays",
			[]string{`{"ab":1,"c\"d":2}`},
			[]string{"note line 1, column 1 (document 1): " + fmt.Sprintf(lines, "2 names")}},
		{"a name that does not show as itself", "[\"\ufeffISO\",\"n\"]\n[\"FR\",1]\n", "JSON Lines of arrays",
			[]string{"{\"\ufeffISO\":\"FR\",\"n\":1}"},
			[]string{"note line 1, column 1 (document 1): " + fmt.Sprintf(lines, "2 names"),
				`note line 1, column 2 (document 1): the name of column 1, "\ufeffISO", holds a byte order mark (U+FEFF) before "ISO": it reads as "ISO" but is another name, and a key or query naming "ISO" does not find it`}},
		// An object among the rows is a document as it is; a string is no
		// document, nor a row.
		{"objects and strings among rows", "[\"id\"]\n[1]\n{\"id\":2}\n\"x\"\n[3]\n", "JSON Lines of arrays",
			[]string{`{"id":1}`, `{"id":2}`, `{"id":3}`},
			[]string{"note line 1, column 1 (document 1): " + fmt.Sprintf(lines, "1 name"),
				"error line 4, column 1 (document 3): a string is not a document: documents are JSON objects; skipped"}},
		// Not tables: a header row alone, names followed by documents, a
		// first array that is not all strings.
		{"a header row alone", "[\"id\",\"city\"]\n", "JSON array", nil,
			[]string{"error line 1, column 1 (document 1): an array of 2 strings is not a document: documents are JSON objects, or the rows of a table after a header row of names, which it would be with arrays of values after it; skipped"}},
		{"names, then a document", "[\"id\"]\n{\"id\":1}\n", "JSON array",
			[]string{`{"id":1}`},
			[]string{"error line 1, column 2 (document 1): a string is not a document: documents are JSON objects; skipped"}},
		{"numbers first", "[1,2]\n[3,4]\n", "JSON array", nil,
			[]string{"error line 1, column 2 (document 1): a number is not a document: documents are JSON objects; skipped",
				"error line 1, column 4 (document 2): a number is not a document: documents are JSON objects; skipped",
				"error line 2, column 2 (document 3): a number is not a document: documents are JSON objects; skipped",
				"error line 2, column 4 (document 4): a number is not a document: documents are JSON objects; skipped"}},
		{"an array of arrays of documents", `[[{"id":1}],[]]`, "JSON array", nil,
			[]string{"error line 1, column 2 (document 1): an array is not a document: documents are JSON objects; skipped",
				"error line 1, column 13 (document 2): an array is not a document: documents are JSON objects; skipped"}},
		{"an array of one array of names", `[["a","b"]]`, "JSON array", nil,
			[]string{"error line 1, column 2 (document 1): an array is not a document: documents are JSON objects; skipped"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, src := range []struct {
				name string
				res  result
			}{
				{"whole", readAll(t, strings.NewReader(tt.in))},
				{"one byte at a time", readAll(t, iotest.OneByteReader(strings.NewReader(tt.in)))},
			} {
				res := src.res
				if got := strings.Join(res.texts(), "\n"); got != strings.Join(tt.docs, "\n") {
					t.Errorf("%s: documents\n%s\nwant\n%s", src.name, got, strings.Join(tt.docs, "\n"))
				}
				if got := strings.Join(res.problems(), "\n"); got != strings.Join(tt.problems, "\n") {
					t.Errorf("%s: problems\n%s\nwant\n%s", src.name, got, strings.Join(tt.problems, "\n"))
				}
				if res.format != tt.format {
					t.Errorf("%s: format %q, want %q", src.name, res.format, tt.format)
				}
				for _, e := range res.errs {
					checkPosition(t, []byte(tt.in), e.Error(), e.Line, e.Column, e.Offset)
				}
				for _, d := range res.docs {
					for _, n := range d.Notes {
						checkPosition(t, []byte(tt.in), n.Error(), n.Line, n.Column, n.Offset)
					}
					if d.Bytes != len(d.Root.JSON()) {
						t.Errorf("%s: document %d has Bytes %d, its JSON %d", src.name, d.Index, d.Bytes, len(d.Root.JSON()))
					}
				}
			}
			// A projection, quick or careful, reads a table's rows as a
			// whole read does.
			checkProjection(t, []byte(tt.in))
		})
	}
}

// TestTableRowLimit: a row whose document would pass 2 MB is skipped, as
// an item Cosmos DB refuses, though its values alone fit.
func TestTableRowLimit(t *testing.T) {
	long, a, b := strings.Repeat("x", 1<<20-40), strings.Repeat("n", 99)+"a", strings.Repeat("n", 99)+"b"
	row := `["` + long + `","` + long + `"]`
	in := `["` + a + `","` + b + `"]` + "\n" + row + "\n" + `[1,2]`
	if len(row) >= MaxDocumentBytes {
		t.Fatalf("the row is %d bytes", len(row))
	}
	res := readAll(t, strings.NewReader(in))
	if got := res.texts(); len(got) != 1 || got[0] != `{"`+a+`":1,"`+b+`":2}` {
		t.Errorf("documents %.80q", got)
	}
	if len(res.errs) != 1 || res.errs[0].Line != 2 || !strings.Contains(res.errs[0].Msg, "row is 2.0 MB as a document, over the 2 MB Cosmos DB allows for an item; skipped") {
		t.Errorf("errors %v", res.errs)
	}
}
