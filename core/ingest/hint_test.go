package ingest

import (
	"strings"
	"testing"
	"testing/iotest"
)

// readHinted reads in whole and one byte at a time, which must agree (the
// hints look ahead, and the buffer is never more than one byte then), and
// returns the documents as JSON and the errors as their text.
func readHinted(t *testing.T, in string) (docs, errs []string, read fuzzRead) {
	t.Helper()
	whole := readFuzz(t, []byte(in), strings.NewReader(in))
	one := readFuzz(t, []byte(in), iotest.OneByteReader(strings.NewReader(in)))
	if a, b := strings.Join(whole.events, "\n"), strings.Join(one.events, "\n"); a != b {
		t.Fatalf("read whole:\n%s\none byte at a time:\n%s", a, b)
	}
	for _, d := range whole.docs {
		docs = append(docs, d.Root.JSON())
	}
	for _, e := range whole.errs {
		errs = append(errs, e.Error())
	}
	return docs, errs, whole
}

// TestMistakes: each usual mistake in JSON is named, with its fix, at the
// byte where reading failed; the documents around it read as before.
func TestMistakes(t *testing.T) {
	tests := []struct {
		name string
		in   string
		docs int    // documents kept
		err  string // the first error, in full
	}{
		// Comments.
		{"line comment first", "// the orders\n{\"a\":1}\n", 1, "line 1, column 1 (document 1): JSON has no comments: remove the // comment"},
		{"block comment in an array", `[{"a":1}, /* x */ {"a":2}]`, 1, "line 1, column 11 (document 2): JSON has no comments: remove the /* */ comment"},
		{"Markdown code fence", "```json\n[{\"a\":1}]\n```\n", 1, "line 1, column 1 (document 1): a Markdown code fence (```): remove the ``` lines around the JSON"},
		{"hash comment line", "{\"a\":1}\n# note\n{\"a\":2}\n", 2, "line 2, column 1 (document 2): JSON has no comments: remove the # comment"},
		{"comment between properties", "{\"a\":1, // one\n\"b\":2}", 0, "line 1, column 9 (document 1): JSON has no comments: remove the // comment"},

		// Quotes.
		{"single-quoted value", `{"a":'x'}`, 0, "line 1, column 6 (document 1): strings and property names take double quotes, not single quotes"},
		{"single-quoted name", `{'a':1}`, 0, "line 1, column 2 (document 1): strings and property names take double quotes, not single quotes"},
		{"python dict lines", "{'a': 1}\n{\"a\": 2}\n", 1, "line 1, column 2 (document 1): strings and property names take double quotes, not single quotes"},
		{"unquoted name", `{id:1}`, 0, `line 1, column 2 (document 1): property names must be in double quotes: write "id"`},
		{"unquoted name after one", `{"a":1, $b:2}`, 0, `line 1, column 9 (document 1): property names must be in double quotes: write "$b"`},
		{"number as name", `{1:"a"}`, 0, `line 1, column 2 (document 1): property names must be in double quotes: write "1"`},
		{"unquoted text", `{"status":shipped}`, 0, `line 1, column 11 (document 1): shipped is not a JSON value: text takes double quotes ("shipped")`},
		{"curly quotes value", "{\"a\":\u201cx\u201d}", 0, "line 1, column 6 (document 1): a curly quote \u201c (U+201C): JSON takes straight double quotes (\"); turn off smart quotes or replace them"},
		{"curly quotes name", "{\u201ca\u201d:1}", 0, "line 1, column 2 (document 1): a curly quote \u201c (U+201C): JSON takes straight double quotes (\"); turn off smart quotes or replace them"},

		// Commas and brackets.
		{"trailing comma in an object", "{\"a\":1,}\n{\"a\":2}", 1, "line 1, column 8 (document 1): a trailing comma before '}': remove the comma after the last property"},
		{"trailing comma in an array", `{"a":[1,2,]}`, 0, "line 1, column 11 (document 1): a trailing comma before ']': remove the comma after the last element"},
		{"trailing comma in the array of documents", `[{"a":1},]`, 1, "line 1, column 10 (document 2): a trailing comma before ']': remove the comma after the last document"},
		{"trailing comma in a wrapper", `{"Documents":[{"a":1},{"a":2},]}`, 2, "line 1, column 31 (document 3): a trailing comma before ']': remove the comma after the last document"},
		{"bracket after a colon is no trailing comma", `{"a": ]}`, 0, "line 1, column 7 (document 1): expected a JSON value, found ']'"},
		{"missing comma between properties", "{\"a\":1 \"b\":2}\n{\"a\":3}", 1, "line 1, column 8 (document 1): a comma is missing between the properties: put ',' before this one"},
		{"missing comma in a nested object", `{"a":{"b":1 "c":2}}`, 0, "line 1, column 13 (document 1): a comma is missing between the properties: put ',' before this one"},
		{"missing comma between elements", `{"a":[1 2]}`, 0, "line 1, column 9 (document 1): a comma is missing between the elements: put ',' before this one"},
		{"missing comma between documents", `[{"a":1} {"a":2}]`, 1, "line 1, column 10 (document 2): a comma is missing between the documents: put ',' before this one"},
		{"brackets that do not match in an object", `{"a":1]`, 0, "line 1, column 7 (document 1): ']' where '}' should close the object: the brackets do not match"},
		{"brackets that do not match in an array", `{"a":[1}`, 0, "line 1, column 8 (document 1): '}' where ']' should close the array: the brackets do not match"},
		{"comment after a value", "{\"a\":1 // one\n}", 0, "line 1, column 8 (document 1): JSON has no comments: remove the // comment"},
		{"comment after an element", "{\"a\":[1 # one\n]}", 0, "line 1, column 9 (document 1): JSON has no comments: remove the # comment"},
		{"bracket after a nested colon", "{\"a\": [1, {\"b\":\n ]}]}", 0, "line 2, column 2 (document 1): expected a JSON value, found ']'"},
		{"extra closing brace", "{\"a\":1}}\n{\"a\":2}", 2, "line 1, column 8 (document 2): an extra '}' that closes nothing: remove it"},
		{"extra closing bracket", "[{\"a\":1}]]", 1, "line 1, column 10 (document 2): an extra ']' that closes nothing: remove it"},

		// Words of other languages.
		{"Python True", `{"a":True}`, 0, "line 1, column 6 (document 1): True is Python's spelling: JSON writes true"},
		{"Python False", `{"a":False}`, 0, "line 1, column 6 (document 1): False is Python's spelling: JSON writes false"},
		{"Python None", "{\"a\":1}\n{\"a\":None}\n{\"a\":3}", 2, "line 2, column 6 (document 2): None is Python's spelling: JSON writes null"},
		{"SQL NULL", `{"a":NULL}`, 0, "line 1, column 6 (document 1): NULL: JSON writes null, in lower case"},
		{"TRUE", `{"a":[TRUE]}`, 0, "line 1, column 7 (document 1): TRUE: JSON writes true, in lower case"},
		{"undefined", `{"a":undefined}`, 0, "line 1, column 6 (document 1): undefined is JavaScript's, not JSON: write null, or leave the property out"},
		{"nil", `{"a":nil}`, 0, "line 1, column 6 (document 1): nil is not JSON: JSON writes null"},
		{"misspelt true keeps its message", `{"a":tru}`, 0, `line 1, column 6 (document 1): "tru" is not a JSON value (expected true)`},
		{"NaN", `{"a":NaN}`, 0, "line 1, column 6 (document 1): NaN is not valid JSON: numbers must be finite; write null instead"},
		{"Infinity", `{"a":Infinity}`, 0, "line 1, column 6 (document 1): Infinity is not valid JSON: numbers must be finite; write null instead"},
		{"-Infinity", `{"a":-Infinity}`, 0, "line 1, column 6 (document 1): -Infinity is not valid JSON: numbers must be finite; write null instead"},
		{"numpy nan", `{"a":nan}`, 0, "line 1, column 6 (document 1): nan is not valid JSON: numbers must be finite; write null instead"},
		{"a word like NaN", `{"a":Nope}`, 0, `line 1, column 6 (document 1): Nope is not a JSON value: text takes double quotes ("Nope")`},
		{"plus sign", `{"a":+1}`, 0, "line 1, column 6 (document 1): JSON numbers take no '+' sign: remove it"},
		{"no leading digit", `{"a":.25}`, 0, "line 1, column 6 (document 1): a JSON number needs a digit before the decimal point: write 0.25"},
		{"lone minus keeps its message", `{"a":-}`, 0, "line 1, column 7 (document 1): invalid number: expected a digit"},

		// MongoDB shell output.
		{"ObjectId", `{"_id":ObjectId("5f1b2c3d4e5f6a7b8c9d0e1f")}`, 0, `line 1, column 8 (document 1): ObjectId(...) is MongoDB shell syntax, not JSON: export with mongoexport, or write {"$oid": "..."}`},
		{"ISODate", `{ "_id" : 1, "at" : ISODate("2024-03-01T12:00:00Z") }`, 0, `line 1, column 21 (document 1): ISODate(...) is MongoDB shell syntax, not JSON: export with mongoexport, or write {"$date": "..."}`},
		{"NumberLong", `{"n":NumberLong(5)}`, 0, `line 1, column 6 (document 1): NumberLong(...) is MongoDB shell syntax, not JSON: export with mongoexport, or write {"$numberLong": "..."}`},
		{"new Date", `{"at":new Date(0)}`, 0, `line 1, column 7 (document 1): new Date(...) is MongoDB shell syntax, not JSON: export with mongoexport, or write {"$date": "..."}`},
		{"Timestamp", `{"ts":Timestamp(1, 2)}`, 0, "line 1, column 7 (document 1): Timestamp(...) is MongoDB shell syntax, not JSON: export with mongoexport instead"},
		{"mongosh", "[\n  {\n    _id: ObjectId('65a1'),\n    name: 'x'\n  }\n]", 0, "line 3, column 5 (document 1): this is MongoDB shell output (_id: ObjectId(...)), not JSON: export with mongoexport instead"},

		// Characters that look right and are not.
		{"no-break space", "{\"a\":\u00a01}", 0, "line 1, column 6 (document 1): a no-break space (U+00A0), which JSON does not count as white space: replace it with a plain space"},
		{"em space", "{\u2003\"a\":1}", 0, "line 1, column 2 (document 1): a U+2003 space, which JSON does not count as white space: replace it with a plain space"},
		{"zero-width space", "{\"a\":\u200b1}", 0, "line 1, column 6 (document 1): an invisible U+200B character: remove it"},
		{"other character", `{"a":é}`, 0, "line 1, column 6 (document 1): expected a JSON value, found 'é' (U+00E9)"},
		{"Latin-1 byte", "{\"a\":\xe9}", 0, "line 1, column 6 (document 1): expected a JSON value, found byte 0xE9"},
		{"Ruby hash", `{"a"=>1}`, 0, `line 1, column 5 (document 1): '=>' after property name "a" is Ruby's notation: JSON writes ':'`},
		{"equals sign", `{"a" = 1}`, 0, `line 1, column 6 (document 1): '=' after property name "a": JSON writes ':'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, errs, _ := readHinted(t, tt.in)
			if len(docs) != tt.docs {
				t.Errorf("%d documents %v, want %d", len(docs), docs, tt.docs)
			}
			if len(errs) == 0 || errs[0] != tt.err {
				t.Errorf("errors %q\nwant first %q", errs, tt.err)
			}
		})
	}
}

// TestNotJSON: an input that is not JSON text at all is one error, at its
// start, naming what it is and what to do; nothing of it is read.
func TestNotJSON(t *testing.T) {
	gzip := "\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff\n{\n[\n{\n\x8b\xae\x56\xca\x4c\x51"
	bsonDoc := "\x16\x00\x00\x00\x07_id\x00\x65\xa1\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00"
	tests := []struct {
		name, in, at, msg string
	}{
		{"gzip", gzip, "1:1", "the input is gzip-compressed: decompress it first (gunzip FILE)"},
		{"gzip after blank lines", "\n \n" + gzip, "3:1", "the input is gzip-compressed: decompress it first (gunzip FILE)"},
		{"bzip2", "BZh91AY&SY\x00\x01", "1:1", "the input is bzip2-compressed: decompress it first (bunzip2 FILE)"},
		{"xz", "\xfd7zXZ\x00\x00\x04", "1:1", "the input is xz-compressed: decompress it first (unxz FILE)"},
		{"zstd", "\x28\xb5\x2f\xfd\x04\x00", "1:1", "the input is zstd-compressed: decompress it first (unzstd FILE)"},
		{"7z", "7z\xbc\xaf\x27\x1c\x00\x04", "1:1", "the input is a 7-Zip archive: extract the JSON file from it first"},
		{"zip", "PK\x03\x04\x14\x00\x00\x00\x08\x00docs.json", "1:1", "the input is a zip archive: extract the JSON file from it first (unzip FILE)"},
		{"xlsx", "PK\x03\x04\x14\x00\x06\x00\x08\x00[Content_Types].xml\x00\x00PK\x03\x04xl/workbook.xml", "1:1", "the input is an Excel workbook, not JSON: save the sheet as CSV UTF-8 and read that"},
		{"ods", "PK\x03\x04\x14\x00\x00\x00\x00\x00mimetypeapplication/vnd.oasis.opendocument.spreadsheet", "1:1", "the input is an OpenDocument spreadsheet, not JSON: save the sheet as CSV UTF-8 and read that"},
		{"xls", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00", "1:1", "the input is an Excel 97-2003 workbook or another old Office file, not JSON: save the sheet as CSV UTF-8 and read that"},
		{"UTF-16 LE", "\xff\xfe[\x00{\x00}\x00]\x00", "1:1", utf16Msg},
		{"UTF-16 BE", "\xfe\xff\x00[\x00{\x00}\x00]", "1:1", utf16Msg},
		{"UTF-16 LE without BOM", "{\x00\"\x00a\x00\"\x00:\x001\x00}\x00", "1:1", utf16Msg},
		{"UTF-16 BE without BOM", "\x00[\x00{\x00}\x00]", "1:1", utf16Msg},
		{"UTF-16 after a UTF-8 BOM", "\xef\xbb\xbf{\x00\"\x00a\x00", "1:1", utf16Msg},
		{"UTF-32", "\xff\xfe\x00\x00[\x00\x00\x00", "1:1", "the input is UTF-32 text: save it as UTF-8"},
		{"BSON", bsonDoc + bsonDoc, "1:1", "the input is BSON (a mongodump file), not JSON: convert it with bsondump FILE > FILE.json, or export with mongoexport"},
		{"Parquet", "PAR1\x15\x04\x15\x10\x00", "1:1", "the input is a Parquet file, not JSON: export its rows as JSON Lines or CSV first"},
		{"Avro", "Obj\x01\x04\x14avro.codec", "1:1", "the input is an Avro file, not JSON: convert it to JSON first (avro-tools tojson FILE)"},
		{"SQLite", "SQLite format 3\x00\x10\x00", "1:1", "the input is an SQLite database, not JSON: export the table as JSON or CSV first"},
		{"PDF", "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "1:1", "the input is a PDF document, not JSON: choose the file that holds the JSON documents"},
		{"PNG", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "1:1", "the input is a PNG image, not JSON: choose the file that holds the JSON documents"},
		{"JPEG", "\xff\xd8\xff\xe0\x00\x10JFIF", "1:1", "the input is a JPEG image, not JSON: choose the file that holds the JSON documents"},
		{"binary", "\x01\x02\x03\x04abcdefgh\n{\"a\":1}\n", "1:1", "the input is binary data, not JSON text: choose the file that holds the JSON documents"},
		{"NUL", "ab\x00cd", "1:1", "the input is binary data, not JSON text: choose the file that holds the JSON documents"},
		{"JSON text sequence", "\x1e{\"a\":1}\n\x1e{\"a\":2}\n", "1:1", "the input is a JSON text sequence (RFC 7464): remove the 0x1E byte before each document to make it JSON Lines"},
		{"terminal colours", "\x1b[1;39m{\n  \x1b[0m\x1b[34;1m\"a\"", "1:1", "the input holds terminal colour codes (ESC [): save it without colour (jq -M, or without -C)"},
		{"HTML", "<!DOCTYPE html>\n<html><body>Sign in</body></html>", "1:1", "the input is an HTML page, not JSON (often an error or sign-in page saved in place of the data): save the JSON itself"},
		{"XML", "<?xml version=\"1.0\"?>\n<docs/>", "1:1", "the input is XML, not JSON: export the documents as JSON"},
		{"JSON in a string", `"[{\"id\":\"1\"}]"`, "1:1", "the input is JSON inside a JSON string (encoded twice): decode it once, so that the documents are objects, not text"},
		{"CSV", "id,tenant\n1,a\n2,b\n", "1:1", `the input looks like CSV (first line "id,tenant"), not JSON: read it as CSV, from a file named .csv or sent as text/csv`},
		{"CSV from Excel", "\xef\xbb\xbfid;name\r\n1;Zoë\r\n", "1:1", `the input looks like CSV (first line "id;name"), not JSON: read it as CSV, from a file named .csv or sent as text/csv`},
		{"TSV", "id\ttenant\n1\ta", "1:1", `the input looks like CSV (first line "id\ttenant"), not JSON: read it as CSV, from a file named .csv or sent as text/csv`},
		{"CSV with CR line ends", "id,tenant\r1,a\r2,b\r", "1:1", `the input looks like CSV (first line "id,tenant"), not JSON: read it as CSV, from a file named .csv or sent as text/csv`},
		{"CSV quoted", "\"id\",\"name, full\"\n\"1\",\"a, b\"\n", "1:1", `the input looks like CSV (first line "\"id\",\"name, full\""), not JSON: read it as CSV, from a file named .csv or sent as text/csv`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, errs, read := readHinted(t, tt.in)
			if len(docs) != 0 || len(errs) != 1 {
				t.Fatalf("%d documents, errors %q; want one error and nothing read", len(docs), errs)
			}
			e := read.errs[0]
			if at := itoa(e.Line) + ":" + itoa(e.Column); at != tt.at || e.Msg != tt.msg || e.Document != 1 || !e.Skipped {
				t.Errorf("error at %s: %q (document %d, skipped %v)\nwant at %s: %q", at, e.Msg, e.Document, e.Skipped, tt.at, tt.msg)
			}
		})
	}
}

// TestStillJSON: what may be JSON is read as it always was. Valid JSON
// with text in any script, Latin-1, a stray first line before JSON Lines
// and comment lines with commas are not taken for binary or CSV.
func TestStillJSON(t *testing.T) {
	tests := []struct {
		name string
		in   string
		docs int
		err  string // the first error, "" for none
	}{
		{"non-ASCII", `[{"name":"Zoë","city":"東京","emoji":"😀","ar":"مرحبا"}]`, 1, ""},
		{"non-ASCII lines", "{\"ß\":\"Straße\"}\n{\"я\":\"Привет, мир\"}\n", 2, ""},
		{"non-ASCII string document", `"東京, 大阪"` + "\n" + `"Zoë, Ana"` + "\n", 0, "line 1, column 1 (document 1): a string is not a document: documents are JSON objects; skipped"},
		{"Latin-1 text", "caf\xe9, cr\xe8me\nna\xefve, fa\xe7ade\n{\"a\":1}\n", 1, "line 1, column 1 (document 1): expected a JSON value, found 'c'"},
		{"Latin-1 in JSON", "{\"a\":\"caf\xe9\"}", 1, ""},
		{"stray line before JSON Lines", "id,name\n{\"id\":1,\"n\":2}\n", 1, "line 1, column 1 (document 1): expected a JSON value, found 'i'"},
		{"comment lines with commas", "// a, b\n// c, d\n[{\"a\":1}]", 1, "line 1, column 1 (document 1): JSON has no comments: remove the // comment"},
		{"BOM and object", "\xef\xbb\xbf{\"a\":1}", 1, ""},
		{"garbage words", "not json\n{\"a\":1}", 1, `line 1, column 1 (document 1): "not" is not a JSON value (expected null)`},
		{"a word at the top", "hello\n{\"a\":1}", 1, "line 1, column 1 (document 1): expected a JSON value, found 'h'"},
		{"BSON-like text", "{\"a\":\"\\u0000\"}", 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, errs, _ := readHinted(t, tt.in)
			first := ""
			if len(errs) > 0 {
				first = errs[0]
			}
			if len(docs) != tt.docs || first != tt.err {
				t.Errorf("%d documents, errors %q\nwant %d documents, first error %q", len(docs), errs, tt.docs, tt.err)
			}
		})
	}
}

// TestNotJSONIsOneError: a large binary file, whose bytes here and there
// look like the start of a document after a newline, is still one error.
func TestNotJSONIsOneError(t *testing.T) {
	var b strings.Builder
	b.WriteString("\x1f\x8b\x08\x00")
	for i := 0; i < 5000; i++ {
		b.WriteString("\n{\x00\x8b\n[\xff")
	}
	r := NewReader(strings.NewReader(b.String()))
	n := 0
	for {
		_, err := r.Next()
		if err != nil && err.Error() == "EOF" {
			break
		}
		n++
		if n > 1 {
			t.Fatalf("a second problem: %v", err)
		}
	}
}

// A front end words the way to read CSV its own way.
func TestCSVRemedy(t *testing.T) {
	r := NewReader(strings.NewReader("id,tenant\n1,a\n"))
	r.SetCSVRemedy("give --input-format csv")
	_, err := r.Next()
	if want := `the input looks like CSV (first line "id,tenant"), not JSON: give --input-format csv`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}
