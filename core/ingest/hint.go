package ingest

// Messages for the usual ways an input is not JSON: what people give a JSON
// reader instead (a compressed file, UTF-16, a spreadsheet, CSV, MongoDB
// shell output) and the mistakes in hand-written or pasted JSON (comments,
// single quotes, unquoted names, trailing commas, Python's True and None).
// Each names the mistake and its fix in place of "expected a JSON value".
//
// The hints only look ahead from where the Reader already failed (or, for
// the whole input, from its start), so they never change what valid JSON
// reads as and cost nothing until something is wrong.

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// sniffBytes is how much of the start of an input sniff looks at.
const sniffBytes = 4096

// lookahead returns up to n unread bytes without consuming them; fewer at
// the end of the input.
func (r *Reader) lookahead(n int) []byte {
	r.ensure(n)
	return r.buf[r.pos:min(r.end, r.pos+n)]
}

// sniff looks at the start of the input, before its first value, for a
// file that is not JSON text at all: compressed, an archive, UTF-16,
// binary, HTML, CSV. Such an input is one error for the whole of it rather
// than one per line of garbage. It returns nil for anything that may be
// JSON, and looks no further than two bytes into an input that starts as
// JSON does.
func (r *Reader) sniff() *Error {
	head := r.lookahead(2)
	if len(head) == 0 || (head[0] == '{' || head[0] == '[') && (len(head) < 2 || head[1] != 0) {
		return nil // only UTF-16 (or BSON) puts a NUL after a bracket
	}
	head = r.lookahead(sniffBytes)
	remedy := r.csvRemedy
	if remedy == "" {
		remedy = "read it as CSV, from a file named .csv or sent as text/csv"
	}
	msg := wholeInput(head, len(head) < sniffBytes, remedy)
	if msg == "" {
		return nil
	}
	e := r.errorf(1, "%s", msg)
	e.Skipped = true
	return e
}

// magic numbers of files given in place of JSON, and what to do instead.
var magics = []struct {
	prefix, what string
}{
	{"\x1f\x8b", "the input is gzip-compressed: decompress it first (gunzip FILE)"},
	{"\xfd7zXZ\x00", "the input is xz-compressed: decompress it first (unxz FILE)"},
	{"\x28\xb5\x2f\xfd", "the input is zstd-compressed: decompress it first (unzstd FILE)"},
	{"\x04\x22\x4d\x18", "the input is lz4-compressed: decompress it first (unlz4 FILE)"},
	{"7z\xbc\xaf\x27\x1c", "the input is a 7-Zip archive: extract the JSON file from it first"},
	{"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "the input is an Excel 97-2003 workbook or another old Office file, not JSON: save the sheet as CSV UTF-8 and read that"},
	{"Obj\x01", "the input is an Avro file, not JSON: convert it to JSON first (avro-tools tojson FILE)"},
	{"PAR1", "the input is a Parquet file, not JSON: export its rows as JSON Lines or CSV first"},
	{"SQLite format 3\x00", "the input is an SQLite database, not JSON: export the table as JSON or CSV first"},
	{"%PDF-", "the input is a PDF document, not JSON: choose the file that holds the JSON documents"},
	{"\x89PNG\r\n\x1a\n", "the input is a PNG image, not JSON: choose the file that holds the JSON documents"},
	{"\xff\xd8\xff", "the input is a JPEG image, not JSON: choose the file that holds the JSON documents"},
	{"GIF87a", "the input is a GIF image, not JSON: choose the file that holds the JSON documents"},
	{"GIF89a", "the input is a GIF image, not JSON: choose the file that holds the JSON documents"},
}

const utf16Msg = "the input is UTF-16 text: save it as UTF-8 (Windows PowerShell's > writes UTF-16; pipe to Out-File -Encoding utf8 instead)"

// wholeInput says what the input is when its start shows it is not JSON
// text at all, or "". head is the start of the input from its first byte
// that is not white space (after a UTF-8 byte order mark); all reports
// that head is the whole input; csvRemedy says how to read CSV instead.
func wholeInput(head []byte, all bool, csvRemedy string) string {
	if len(head) == 0 {
		return ""
	}
	if msg := NotText(head, "JSON"); msg != "" {
		return msg
	}
	if isBinary(head) {
		// Not for NotText: in CSV or lines of queries a stray NUL is one
		// row's problem; JSON has no place for one outside a string.
		return "the input is binary data, not JSON text: choose the file that holds the JSON documents"
	}
	lower := bytes.ToLower(head[:min(len(head), 64)])
	switch {
	case bytes.HasPrefix(lower, []byte("<?xml")):
		return "the input is XML, not JSON: export the documents as JSON"
	case bytes.HasPrefix(lower, []byte("<!doctype html")), bytes.HasPrefix(lower, []byte("<html")):
		return "the input is an HTML page, not JSON (often an error or sign-in page saved in place of the data): save the JSON itself"
	}
	if len(head) > 2 && head[0] == '"' && (head[1] == '{' || head[1] == '[') && bytes.Contains(head, []byte(`\"`)) {
		return "the input is JSON inside a JSON string (encoded twice): decode it once, so that the documents are objects, not text"
	}
	if first, ok := csvHeader(head, all); ok {
		return fmt.Sprintf("the input looks like CSV (first line %s), not JSON: %s", quoteClip(first), csvRemedy)
	}
	return ""
}

// NotText says what the input is when its start shows it is no text a
// reader of what ("JSON", "CSV") can take: compressed, an archive, a
// spreadsheet, UTF-16 or UTF-32; or "". head is the start of the
// input from its first byte that is not white space, after a UTF-8 byte
// order mark. Such an input is one problem, not one per line of it.
func NotText(head []byte, what string) string {
	if len(head) == 0 {
		return ""
	}
	msg := notText(head)
	if what != "JSON" {
		// The messages are worded for JSON input; the remedies that name
		// another format (save as CSV, convert to JSON) stay.
		msg = strings.NewReplacer("not JSON", "not "+what, "the file that holds the JSON documents", "the "+what+" file",
			"the JSON file", "the "+what+" file").Replace(msg)
	}
	return msg
}

func notText(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\xff\xfe\x00\x00")), bytes.HasPrefix(head, []byte("\x00\x00\xfe\xff")):
		return "the input is UTF-32 text: save it as UTF-8"
	case bytes.HasPrefix(head, []byte("\xff\xfe")), bytes.HasPrefix(head, []byte("\xfe\xff")), utf16NoBOM(head):
		return utf16Msg
	case bytes.HasPrefix(head, []byte("PK\x03\x04")), bytes.HasPrefix(head, []byte("PK\x05\x06")), bytes.HasPrefix(head, []byte("PK\x07\x08")):
		// Office files are zip archives: the names of their parts come
		// first, in the clear.
		switch {
		case bytes.Contains(head, []byte("xl/")):
			return "the input is an Excel workbook, not JSON: save the sheet as CSV UTF-8 and read that"
		case bytes.Contains(head, []byte("opendocument.spreadsheet")):
			return "the input is an OpenDocument spreadsheet, not JSON: save the sheet as CSV UTF-8 and read that"
		}
		return "the input is a zip archive: extract the JSON file from it first (unzip FILE)"
	case bson(head):
		return "the input is BSON (a mongodump file), not JSON: convert it with bsondump FILE > FILE.json, or export with mongoexport"
	case bytes.HasPrefix(head, []byte("BZh")) && len(head) > 3 && head[3] >= '1' && head[3] <= '9':
		return "the input is bzip2-compressed: decompress it first (bunzip2 FILE)"
	case head[0] == 0x1e && len(head) > 1 && (head[1] == '{' || head[1] == '['):
		return "the input is a JSON text sequence (RFC 7464): remove the 0x1E byte before each document to make it JSON Lines"
	case head[0] == 0x1b && len(head) > 1 && head[1] == '[':
		return "the input holds terminal colour codes (ESC [): save it without colour (jq -M, or without -C)"
	}
	for _, m := range magics {
		if bytes.HasPrefix(head, []byte(m.prefix)) {
			return m.what
		}
	}
	return ""
}

// utf16NoBOM reports text in UTF-16 without a byte order mark: mostly
// ASCII, so every other byte is zero.
func utf16NoBOM(h []byte) bool {
	if len(h) < 4 {
		return false
	}
	le := h[0] != 0 && h[1] == 0 && h[2] != 0 && h[3] == 0
	be := h[0] == 0 && h[1] != 0 && h[2] == 0 && h[3] != 0
	return le || be
}

// bson reports a BSON document (mongodump writes them one after another):
// a little-endian length under 16 MB, an element type and a NUL-ended name.
func bson(h []byte) bool {
	if len(h) < 8 || h[3] != 0 || int(h[0])|int(h[1])<<8|int(h[2])<<16 < 5 {
		return false
	}
	if t := h[4]; !(t >= 0x01 && t <= 0x13 || t == 0x7f || t == 0xff) {
		return false
	}
	name := h[5:min(len(h), 5+64)]
	end := bytes.IndexByte(name, 0)
	if end < 1 {
		return false
	}
	for _, c := range name[:end] {
		if c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}

// isBinary reports bytes that are not text: a NUL, or control characters
// other than white space in more than 1 of 16 bytes. Bytes that are not
// UTF-8 do not count: Latin-1 text is text, and it reads with a note.
func isBinary(h []byte) bool {
	controls := 0
	for _, c := range h {
		switch {
		case c == 0:
			return true
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v', c == 0x7f:
			controls++
		}
	}
	return controls*16 > len(h)
}

// csvHeader reports the first line of the input when it reads as a CSV
// header: a line of names split by commas, semicolons or tabs, followed by
// a line with as many of them. No line may start as a JSON document, so
// JSON Lines after a stray first line are never taken for CSV.
func csvHeader(head []byte, all bool) (string, bool) {
	if c := head[0]; !(c == '"' || c == '_' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= 0x80) {
		return "", false
	}
	if !all {
		// The last line may be cut short.
		if i := bytes.LastIndexAny(head, "\r\n"); i >= 0 {
			head = head[:i]
		}
	}
	// Lines end at "\r\n", "\n" or "\r".
	lines := strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(string(head)), "\n")
	if len(lines) < 2 {
		return "", false
	}
	for _, l := range lines {
		if l := strings.TrimLeft(l, " \t"); strings.HasPrefix(l, "{") || strings.HasPrefix(l, "[") {
			return "", false
		}
	}
	for _, sep := range []byte{',', ';', '\t'} {
		n := cells(lines[0], sep)
		if n > 1 && cells(lines[1], sep) == n {
			return lines[0], true
		}
	}
	return "", false
}

// cells counts the cells of a CSV line split by sep, outside quotes.
func cells(line string, sep byte) int {
	n, quoted := 1, false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			quoted = !quoted
		case sep:
			if !quoted {
				n++
			}
		}
	}
	return n
}

// ---- where a value was expected ----

// valueHint names the mistake where a value was expected and byte c, at
// the current position, cannot start one; "" when it is none of the usual
// ones.
func (r *Reader) valueHint(c byte) string {
	b := r.lookahead(80)
	if len(b) == 0 || b[0] != c {
		return ""
	}
	if m := commonHint(b); m != "" {
		return m
	}
	inArray := r.depth > 0 && !r.afterColon() || r.depth == 0 && r.state != stTop
	switch {
	case c == ']' && inArray:
		if r.depth == 0 {
			return "a trailing comma before ']': remove the comma after the last document"
		}
		return "a trailing comma before ']': remove the comma after the last element"
	case (c == ']' || c == '}') && r.depth == 0 && r.state == stTop:
		return fmt.Sprintf("an extra '%c' that closes nothing: remove it", c)
	case c == '+':
		return "JSON numbers take no '+' sign: remove it"
	case c == '.' && len(b) > 1 && b[1] >= '0' && b[1] <= '9':
		n := 2
		for n < len(b) && b[n] >= '0' && b[n] <= '9' {
			n++
		}
		return fmt.Sprintf("a JSON number needs a digit before the decimal point: write 0%s", b[:n])
	case c == '-' && len(b) > 1 && identStart(b[1]):
		if w := ident(b[1:]); w == "Infinity" || w == "inf" || w == "Inf" {
			return nonFinite("-" + w)
		}
	case identStart(c):
		return r.wordHint(b)
	}
	if t := runeText(b); t != "" {
		return "expected a JSON value, found " + t
	}
	return ""
}

// afterColon reports that the value being read follows a property name's
// colon with only white space between, rather than a comma or bracket.
func (r *Reader) afterColon() bool {
	return r.Offset()-r.ws == r.colonEnd
}

// commonHint names the mistakes that read the same where a value or a
// property name was expected: comments, the wrong quotes, characters that
// look like white space but are not.
func commonHint(b []byte) string {
	switch b[0] {
	case '/':
		if len(b) > 1 && b[1] == '/' {
			return "JSON has no comments: remove the // comment"
		}
		if len(b) > 1 && b[1] == '*' {
			return "JSON has no comments: remove the /* */ comment"
		}
	case '#':
		return "JSON has no comments: remove the # comment"
	case '\'':
		return "strings and property names take double quotes, not single quotes"
	case '`':
		if bytes.HasPrefix(b, []byte("```")) {
			return "a Markdown code fence (```): remove the ``` lines around the JSON"
		}
	}
	if b[0] < utf8.RuneSelf {
		return ""
	}
	c, size := utf8.DecodeRune(b)
	switch {
	case c == utf8.RuneError && size <= 1:
		return ""
	case c == '“' || c == '”' || c == '‘' || c == '’' || c == '„' || c == '«' || c == '»':
		return fmt.Sprintf("a curly quote %c (%U): JSON takes straight double quotes (\"); turn off smart quotes or replace them", c, c)
	case c == '\u00a0':
		return "a no-break space (U+00A0), which JSON does not count as white space: replace it with a plain space"
	case unicode.IsSpace(c):
		return fmt.Sprintf("a %U space, which JSON does not count as white space: replace it with a plain space", c)
	case c == '\u200b' || c == '\u200c' || c == '\u200d' || c == '\u2060':
		return fmt.Sprintf("an invisible %U character: remove it", c)
	}
	return ""
}

// wordHint names the mistake of a word where a value was expected.
func (r *Reader) wordHint(b []byte) string {
	w := ident(b)
	next := bytes.TrimLeft(b[len(w):], " \t")
	call := len(next) > 0 && (next[0] == '(' || next[0] == '.')
	switch w {
	case "True", "False":
		return w + " is Python's spelling: JSON writes " + strings.ToLower(w)
	case "None":
		return "None is Python's spelling: JSON writes null"
	case "NaN", "Infinity", "nan", "inf", "Inf":
		return nonFinite(w)
	case "undefined":
		return "undefined is JavaScript's, not JSON: write null, or leave the property out"
	case "nil":
		return "nil is not JSON: JSON writes null"
	case "new":
		if d := ident(next); d == "Date" || d == "ISODate" {
			return mongoHint("new Date")
		}
	}
	for _, lit := range []string{"true", "false", "null"} {
		if w != lit && strings.EqualFold(w, lit) {
			return fmt.Sprintf("%s: JSON writes %s, in lower case", w, lit)
		}
	}
	if call {
		if m := mongoHint(w); m != "" {
			return m
		}
	}
	if r.depth > 0 && w != "" && !strings.ContainsRune("tfn", rune(w[0])) {
		// A word where a value goes is text without its quotes; t, f and
		// n keep the message that names the literal it misspells.
		return fmt.Sprintf("%s is not a JSON value: text takes double quotes (%s)", clip(w), quoteClip(w))
	}
	return ""
}

func nonFinite(w string) string {
	return w + " is not valid JSON: numbers must be finite; write null instead"
}

// mongoShell maps the constructors the MongoDB shells print to the
// Extended JSON that stands for the same value, where the Reader reads it.
var mongoShell = map[string]string{
	"ObjectId": `{"$oid": "..."}`, "ISODate": `{"$date": "..."}`, "Date": `{"$date": "..."}`, "new Date": `{"$date": "..."}`,
	"NumberLong": `{"$numberLong": "..."}`, "Long": `{"$numberLong": "..."}`,
	"NumberInt": `{"$numberInt": "..."}`, "Int32": `{"$numberInt": "..."}`, "Double": `{"$numberDouble": "..."}`,
	"NumberDecimal": `{"$numberDecimal": "..."}`, "Decimal128": `{"$numberDecimal": "..."}`, "UUID": `{"$uuid": "..."}`,
	"Timestamp": "", "BinData": "", "Binary": "", "DBRef": "", "MinKey": "", "MaxKey": "", "BSONRegExp": "",
}

// mongoHint is the message for MongoDB shell syntax such as ObjectId("..."),
// or "" if w is not one of its constructors.
func mongoHint(w string) string {
	ext, ok := mongoShell[w]
	switch {
	case !ok:
		return ""
	case ext == "":
		return w + "(...) is MongoDB shell syntax, not JSON: export with mongoexport instead"
	}
	return w + "(...) is MongoDB shell syntax, not JSON: export with mongoexport, or write " + ext
}

// ---- where a property name was expected ----

// keyHint names the mistake where a property name was expected and byte c,
// at the current position, is not its opening quote; "" when it is none of
// the usual ones.
func (r *Reader) keyHint(c byte) string {
	b := r.lookahead(160)
	if len(b) == 0 || b[0] != c {
		return ""
	}
	if m := commonHint(b); m != "" {
		return m
	}
	switch {
	case c == '}':
		// An object's first name is never '}' (that is {}), so a comma
		// comes before it.
		return "a trailing comma before '}': remove the comma after the last property"
	case identStart(c) || c >= '0' && c <= '9':
		n := 0
		for n < len(b) && (identStart(b[n]) || b[n] >= '0' && b[n] <= '9') {
			n++
		}
		name := string(b[:n])
		// mongosh prints {_id: ObjectId('...')}: name the source, not
		// only the first symptom.
		rest := bytes.TrimLeft(b[n:], " \t")
		if len(rest) > 0 && rest[0] == ':' {
			rest = bytes.TrimLeft(rest[1:], " \t")
			if w := ident(rest); w != "" && mongoHint(w) != "" && bytes.HasPrefix(bytes.TrimLeft(rest[len(w):], " "), []byte("(")) {
				return fmt.Sprintf("this is MongoDB shell output (%s: %s(...)), not JSON: export with mongoexport instead", clip(name), w)
			}
		}
		return fmt.Sprintf("property names must be in double quotes: write %s", quoteClip(name))
	}
	if t := runeText(b); t != "" {
		return "expected a property name in double quotes, found " + t
	}
	return ""
}

// colonHint names the mistake where a ':' should follow property name key
// and byte c, at the current position, does instead; "" when it is none of
// the usual ones.
func (r *Reader) colonHint(key string, c byte) string {
	if c != '=' {
		return ""
	}
	if b := r.lookahead(2); len(b) == 2 && b[1] == '>' {
		return fmt.Sprintf("'=>' after property name %s is Ruby's notation: JSON writes ':'", quoteClip(key))
	}
	return fmt.Sprintf("'=' after property name %s: JSON writes ':'", quoteClip(key))
}

// ---- words ----

func identStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
}

// ident is the identifier at the start of b, or "".
func ident(b []byte) string {
	if len(b) == 0 || !identStart(b[0]) {
		return ""
	}
	n := 1
	for n < len(b) && (identStart(b[n]) || b[n] >= '0' && b[n] <= '9') {
		n++
	}
	return string(b[:n])
}

// runeText shows the character at the start of b for a message, as 'é'
// (U+00E9), when it is a printable character outside ASCII; "" otherwise.
func runeText(b []byte) string {
	c, size := utf8.DecodeRune(b)
	if c < utf8.RuneSelf || c == utf8.RuneError && size <= 1 || !unicode.IsPrint(c) {
		return ""
	}
	return strconv.QuoteRune(c) + fmt.Sprintf(" (%U)", c)
}

// separatorHint names the mistake where a ',' or the closing bracket of an
// object or array should follow a member (things names its members): a
// comment, a missing comma, or brackets that do not match.
func (r *Reader) separatorHint(c, closing byte, things string) string {
	b := r.lookahead(80)
	if len(b) == 0 || b[0] != c {
		return ""
	}
	if m := commonHint(b); m != "" {
		return m
	}
	what := "array"
	if closing == '}' {
		what = "object"
	}
	switch {
	case c == '}' || c == ']':
		return fmt.Sprintf("'%c' where '%c' should close the %s: the brackets do not match", c, closing, what)
	case c == '"' && closing == '}', closing == ']' && strings.IndexByte(`{["-0123456789tfn`, c) >= 0:
		return "a comma is missing between the " + things + ": put ',' before this one"
	}
	return ""
}
