package ui

import "bytes"

// CSVHeader finds the header row at the start of a CSV file: its text
// (without a byte order mark or the line end) and the bytes it takes with
// its line end. Files picked together are read as one table, so the page
// keeps the first file's header and drops the others', which must match
// it: read as data, they would be a document of column names each. ok is
// false when start holds no line end (a file of one line is all header).
func CSVHeader(start []byte) (header string, n int, ok bool) {
	i := bytes.IndexByte(start, '\n')
	if i < 0 {
		return "", 0, false
	}
	line := bytes.TrimSuffix(start[:i], []byte("\r"))
	return string(bytes.TrimPrefix(line, []byte("\ufeff"))), i + 1, true
}
