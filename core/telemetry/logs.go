package telemetry

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/ingest"
	"github.com/pkcalc/pkcalc/core/jsontree"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/options"
)

// ReadRU reads the log of request units per logical partition key: the
// resource-specific table CDBPartitionKeyRUConsumption, or the rows of
// category PartitionKeyRUConsumption of AzureDiagnostics, exported from
// Log Analytics as CSV (the portal's export, with its header) or JSON (an
// array of row objects as az monitor log-analytics query prints it, the
// {"tables": [...]} response of the Log Analytics query API, or the
// diagnostic log's own records with their properties). Columns match in
// any case, under either form's names (columnName); rows of other
// categories or tables are left out and counted. A row needs
// TimeGenerated, PartitionKey and RequestCharge; PartitionKeyRangeId,
// DatabaseName, CollectionName, RegionName and OperationName (or
// operationType_s) are kept when given.
//
// Every row that cannot be used gives an *Error naming its line, row and
// column; the others are returned, in input order. Errors marked Note are
// remarks on rows that were kept (a row without a range id).
func ReadRU(r io.Reader) ([]RU, []error) {
	lr := readLog(r, ruLog)
	return lr.ru, lr.errs
}

// ReadStorage reads the log of storage per logical partition key: the
// resource-specific table CDBPartitionKeyStatistics, or the rows of
// category PartitionKeyStatistics of AzureDiagnostics (sizeKb_d), in the
// forms ReadRU reads. A row needs PartitionKey and SizeKb; TimeGenerated,
// PartitionKeyRangeId, DatabaseName, CollectionName and RegionName are
// kept when given. Cosmos DB logs only the largest keys, sampled
// (Microsoft's table reference: "partition keys that are below 1GB of
// storage may not show up"): a key absent from the log is not known to
// be small.
func ReadStorage(r io.Reader) ([]Storage, []error) {
	lr := readLog(r, storageLog)
	return lr.st, lr.errs
}

// logKind is the log being read.
type logKind uint8

const (
	ruLog logKind = iota
	storageLog
)

// Each log's category in AzureDiagnostics, table of its resource-specific
// form, the column only it has, and the flag that names it.
var logs = [...]struct {
	name, category, table string
	need                  field
}{
	ruLog:      {"RU log", "PartitionKeyRUConsumption", "CDBPartitionKeyRUConsumption", fCharge},
	storageLog: {"storage log", "PartitionKeyStatistics", "CDBPartitionKeyStatistics", fSize},
}

// other is the other log, for the message on an export of it.
func (k logKind) other() logKind { return 1 - k }

// sniffRows is how many JSON rows without a column of the log, and no
// row of it before them, make the reading stop: the input is something
// else.
const sniffRows = 10

// logReader reads one export of a log.
type logReader struct {
	kind  logKind
	keys  *keys
	names map[string]string // names and range ids, kept once
	ru    []RU
	st    []Storage
	errs  []error
	rows  int  // rows met, kept or not
	used  int  // rows kept
	done  bool // reading stops
	json  bool
	azCLI bool // rows as az monitor log-analytics query prints them: a null is the text None

	// JSON rows, before any row of the log: how many lack its column, how
	// many have the other log's, and the messages on them, kept until the
	// input is known to be the log (strays < 0 then).
	strays, others int
	strayErrs      []error

	// Rows left out or kept with a remark, counted for one message each.
	otherRows            map[string]int // by category or table
	otherLine            int
	noKey, noKeyLine     int
	noKeyRU              float64
	noRange, noRangeLine int
	noTime, noTimeLine   int

	nameFields map[string]field // JSON member names read so far
}

// row is one row of a log: its cells by field, with the names of their
// columns as written.
type row struct {
	cells       [nFields]*jsontree.Value
	cols        [nFields]string
	line, index int
}

func readLog(src io.Reader, kind logKind) *logReader {
	lr := &logReader{kind: kind, keys: newKeys(), names: make(map[string]string), otherRows: make(map[string]int), nameFields: make(map[string]field)}
	br := bufio.NewReaderSize(src, 64<<10)
	head, err := br.Peek(br.Size())
	if len(head) == 0 && err != nil && err != io.EOF {
		lr.errs = append(lr.errs, fmt.Errorf("reading the %s: %w", logs[kind].name, err))
		return lr
	}
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\uFEFF")), " \t\r\n")
	if len(head) == 0 {
		lr.fail(0, 0, "the %s is empty: expected CSV with a header row, or JSON", logs[kind].name)
		return lr
	}
	if msg := ingest.NotText(head, "CSV or JSON"); msg != "" {
		lr.fail(0, 0, "%s", msg)
		return lr
	}
	switch {
	case head[0] == '{' && tables(head):
		lr.json = true
		lr.readTables(br)
	case head[0] == '[' || head[0] == '{':
		lr.json = true
		lr.readJSON(br)
	default:
		lr.readCSV(br)
	}
	lr.finish()
	return lr
}

// tables reports whether the start of a JSON input is the response of
// the Log Analytics query API: an object with a "tables" array.
func tables(head []byte) bool {
	h := bytes.ToLower(head[:min(len(head), 4096)])
	i := bytes.Index(h, []byte(`"tables"`))
	if i < 0 {
		return false
	}
	rest := bytes.TrimLeft(h[i+len(`"tables"`):], " \t\r\n")
	if len(rest) == 0 || rest[0] != ':' {
		return false
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	return len(rest) > 0 && rest[0] == '['
}

// fail records a problem: at a line (0 for the whole file) and row.
func (lr *logReader) fail(line, row int, format string, args ...any) {
	lr.errs = append(lr.errs, &Error{Line: line, Row: row, Msg: fmt.Sprintf(format, args...)})
}

// readError records an error of ingest's readers, and reports whether
// reading can go on: an *ingest.Error is confined to its place; any other
// is the input failing.
func (lr *logReader) readError(err error) bool {
	var e *ingest.Error
	if !errors.As(err, &e) {
		lr.errs = append(lr.errs, fmt.Errorf("reading the %s: %w", logs[lr.kind].name, err))
		return false
	}
	lr.errs = append(lr.errs, &Error{Line: e.Line, Column: e.Column, Row: e.Document, Msg: e.Msg})
	return true
}

// more counts a row met, and reports whether it may be read: past
// MaxExportRows the reading stops.
func (lr *logReader) more(line int) bool {
	if lr.done {
		return false
	}
	lr.rows++
	if lr.rows > options.MaxExportRows {
		lr.fail(line, lr.rows, "the %s has more than %s rows, the most one Log Analytics query returns and pkcalc reads; the rows from here on are not read (query a shorter time, or summarize per second as pkcalc diagnose-query does)",
			logs[lr.kind].name, human.Count(options.MaxExportRows))
		lr.done = true
		return false
	}
	return true
}

// readCSV reads the rows of a CSV export. Its cells are typed as CSV
// documents' are (ingest.CSVReader): a key's JSON text is a string, read
// by the key's reader once for all its rows.
func (lr *logReader) readCSV(src io.Reader) {
	cr := ingest.NewCSVReader(src)
	cr.SetJSONRemedy("save the export as CSV or JSON, whole")
	names, line := cr.Header()
	if names == nil {
		if _, err := cr.Next(); err != nil && err != io.EOF {
			lr.readError(err)
		}
		return
	}
	cols := make([][]string, nFields) // the columns of each field, as written
	for _, name := range names {
		f, zone := columnName(name)
		if f == fNone {
			continue
		}
		if f == fTime && zone != "" && !strings.EqualFold(zone, "UTC") {
			lr.fail(line, 0, "column %q gives times in %s, which pkcalc cannot place in UTC: export with the portal's time zone set to UTC, or give the times as text (the queries of pkcalc diagnose-query do)", name, zone)
			return
		}
		cols[f] = append(cols[f], name)
	}
	if !lr.columnsOf(cols, line, names) {
		return
	}
	for {
		doc, err := cr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			if !lr.readError(err) || !lr.more(0) {
				return
			}
			continue
		}
		if !lr.more(doc.Line) {
			return
		}
		rw := row{line: doc.Line, index: doc.Index}
		for f := field(1); f < nFields; f++ {
			for _, name := range cols[f] {
				if v, ok := doc.Root.Get(name); ok && !empty(v) {
					rw.cells[f], rw.cols[f] = v, name
					break
				}
			}
		}
		lr.row(&rw)
	}
}

// columnsOf checks that an export with a header has the columns of its
// log, and says what it is if not.
func (lr *logReader) columnsOf(cols [][]string, line int, names []string) bool {
	need := logs[lr.kind].need
	if len(cols[need]) > 0 {
		return true
	}
	if other := lr.kind.other(); len(cols[logs[other].need]) > 0 {
		lr.fail(line, 0, "this looks like the %s (it has column %s), not the %s", logs[other].name, cols[logs[other].need][0], logs[lr.kind].name)
		return false
	}
	shown := names
	if len(shown) > 8 {
		shown = append(slices.Clone(shown[:8]), "...")
	}
	lr.fail(line, 0, "the %s needs column %s (or %s in AzureDiagnostics), which this export lacks; its columns are %s",
		logs[lr.kind].name, display[need], azureName(need), strings.Join(shown, ", "))
	return false
}

// azureName is a field's column in AzureDiagnostics.
func azureName(f field) string {
	switch f {
	case fSize:
		return "sizeKb_d"
	case fCharge:
		return "requestCharge_s"
	}
	return display[f]
}

// readJSON reads rows as objects: an array of them, one after another,
// or wrapped in an object ({"records": [...]}, {"value": [...]}).
func (lr *logReader) readJSON(src io.Reader) {
	jr := ingest.NewReader(src)
	jr.SetPages(true)
	for {
		doc, err := jr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			if !lr.readError(err) {
				return
			}
			continue
		}
		if !lr.more(doc.Line) {
			return
		}
		rw := row{line: doc.Line, index: doc.Index}
		if !lr.azCLI {
			_, lr.azCLI = doc.Root.Get("TableName")
		}
		lr.objectRow(&rw, doc.Root.Members, true)
		if !lr.sniff(&rw) {
			continue
		}
		lr.row(&rw)
		if lr.done {
			return
		}
	}
}

// objectRow fills a row from an object's members, and from those of its
// properties, as the diagnostic log's own records hold them.
func (lr *logReader) objectRow(rw *row, members []jsontree.Member, top bool) {
	for i := range members {
		m := &members[i]
		if top && strings.EqualFold(m.Key, "properties") && m.Value.Kind == jsontree.Object {
			lr.objectRow(rw, m.Value.Members, false)
			continue
		}
		f, ok := lr.nameFields[m.Key]
		if !ok {
			f, _ = columnName(m.Key)
			if len(lr.nameFields) < 1024 {
				lr.nameFields[m.Key] = f
			}
		}
		if f != fNone && rw.cells[f] == nil && !lr.empty(&m.Value) {
			rw.cells[f], rw.cols[f] = &m.Value, m.Key
		}
	}
}

// sniff checks a JSON row for the log's column, and reports whether to
// read it. Rows of objects none of which has it, and no row of the log
// before them, stop the reading with one error: the input is another
// export, or no log at all.
func (lr *logReader) sniff(rw *row) bool {
	need, otherNeed := logs[lr.kind].need, logs[lr.kind.other()].need
	if lr.strays < 0 {
		return true
	}
	if rw.cells[need] != nil || rw.cells[fCategory] != nil || rw.cells[fType] != nil {
		// A row of the log, or of another category, counted as such: from
		// here on every row is read.
		lr.strays = -1
		lr.errs = append(lr.errs, lr.strayErrs...)
		lr.strayErrs = nil
		return true
	}
	lr.strays++
	if rw.cells[otherNeed] != nil {
		lr.others++
	}
	if lr.strays < sniffRows {
		lr.strayErrs = append(lr.strayErrs, &Error{Line: rw.line, Row: rw.index,
			Msg: fmt.Sprintf("no %s column (or %s): not a row of the %s", display[need], azureName(need), logs[lr.kind].name)})
		return false
	}
	lr.notLog()
	lr.done = true
	return false
}

// notLog says, in one message for them all, that the JSON rows read are
// none of the log's.
func (lr *logReader) notLog() {
	lr.strayErrs = nil
	need, otherNeed := logs[lr.kind].need, logs[lr.kind.other()].need
	if lr.others == lr.strays {
		lr.fail(0, 0, "this looks like the %s (its rows have %s), not the %s", logs[lr.kind.other()].name, display[otherNeed], logs[lr.kind].name)
		return
	}
	first := "its first"
	if lr.strays < sniffRows {
		first = "its"
	}
	lr.fail(0, 0, "%s %d %s no %s column (or %s): this is not the %s", first, lr.strays, human.Plural(int64(lr.strays), "row has", "rows have"),
		display[need], azureName(need), logs[lr.kind].name)
}

// readTables reads the response of the Log Analytics query API: each row
// of each table, by the table's columns.
func (lr *logReader) readTables(src io.Reader) {
	rs := ingest.NewRecords(src, ingest.Path{"tables", ingest.Each, "rows", ingest.Each})
	var (
		last    *jsontree.Value // the columns of the table being read
		fields  []field
		named   []string
		checked bool
	)
	for {
		rec, err := rs.Next()
		if err == io.EOF {
			if !checked && lr.rows == 0 {
				lr.fail(0, 0, "the response holds no rows")
			}
			return
		}
		if err != nil {
			if !lr.readError(err) {
				return
			}
			continue
		}
		if !lr.more(rec.Line) {
			return
		}
		cols := columnsMember(rec.Context)
		if cols == nil {
			lr.fail(rec.Line, rec.Index, "the table gives its rows before its columns, or no columns: pkcalc reads columns first, as the query API writes them")
			lr.done = true
			return
		}
		if cols != last {
			last, fields, named = cols, fields[:0], named[:0]
			byField := make([][]string, nFields)
			for i := range cols.Elems {
				name := ""
				if n, ok := cols.Elems[i].Get("name"); ok && n.Kind == jsontree.String {
					name = n.Str
				}
				f, _ := columnName(name)
				fields, named = append(fields, f), append(named, name)
				if f != fNone {
					byField[f] = append(byField[f], name)
				}
			}
			if !checked && !lr.columnsOf(byField, rec.Line, named) {
				return
			}
			checked = true
		}
		rw := row{line: rec.Line, index: rec.Index}
		if rec.Value.Kind != jsontree.Array || len(rec.Value.Elems) != len(fields) {
			lr.fail(rec.Line, rec.Index, "the row has %d values, its table %d columns", len(rec.Value.Elems), len(fields))
			continue
		}
		for i, f := range fields {
			if v := &rec.Value.Elems[i]; f != fNone && rw.cells[f] == nil && !empty(v) {
				rw.cells[f], rw.cols[f] = v, named[i]
			}
		}
		lr.row(&rw)
	}
}

// columnsMember is the columns of the table a record is a row of: the
// "columns" array of the innermost object around it.
func columnsMember(ctx []jsontree.Value) *jsontree.Value {
	if len(ctx) == 0 {
		return nil
	}
	t := &ctx[len(ctx)-1]
	for i := range t.Members {
		if strings.EqualFold(t.Members[i].Key, "columns") && t.Members[i].Value.Kind == jsontree.Array {
			return &t.Members[i].Value
		}
	}
	return nil
}

// empty reports whether a cell holds nothing: null or an empty string.
func empty(v *jsontree.Value) bool {
	return v.Kind == jsontree.Null || v.Kind == jsontree.String && v.Str == ""
}

// empty is the package's empty, and also the text None by which az
// monitor log-analytics query prints a null (it prints every value with
// Python's str).
func (lr *logReader) empty(v *jsontree.Value) bool {
	return empty(v) || lr.azCLI && v.Kind == jsontree.String && v.Str == "None"
}

// row reads one row of the log.
func (lr *logReader) row(rw *row) {
	if lr.other(rw) {
		return
	}
	fail := func(f field, format string, args ...any) {
		col := rw.cols[f]
		if col == "" {
			col = display[f]
		}
		lr.fail(rw.line, rw.index, "column %s: %s", col, fmt.Sprintf(format, args...))
	}
	need := logs[lr.kind].need
	if rw.cells[need] == nil {
		fail(need, "missing; a row of the %s needs it", logs[lr.kind].name)
		return
	}
	amount, err := number(rw.cells[need])
	if err == nil {
		switch {
		case amount < 0:
			err = fmt.Errorf("%s is negative", literal(rw.cells[need]))
		case need == fCharge && amount > options.MaxCharge:
			err = fmt.Errorf("%s RU is more than any request is charged (%s)", literal(rw.cells[need]), human.Count(options.MaxCharge))
		case need == fSize && amount > options.MaxSizeKB:
			err = fmt.Errorf("%s KB is more than pkcalc models (%s GB)", literal(rw.cells[need]), human.Count(options.MaxTargetGB))
		}
	}
	if err != nil {
		fail(need, "%v", err)
		return
	}
	var t time.Time
	if c := rw.cells[fTime]; c != nil {
		if t, err = timeOf(c); err != nil {
			fail(fTime, "%v", err)
			return
		}
	} else if lr.kind == ruLog {
		fail(fTime, "missing; the RU of each second need their time")
		return
	} else {
		lr.noTime++
		lr.noTimeLine = firstLine(lr.noTimeLine, rw.line)
	}
	k, err := lr.keys.read(rw.cells[fKey])
	switch {
	case err == errNoKey:
		lr.noKey++
		lr.noKeyLine = firstLine(lr.noKeyLine, rw.line)
		lr.noKeyRU += amount
		return
	case err == errKeysFull:
		lr.fail(rw.line, rw.index, "%v", err)
		lr.done = true
		return
	case err != nil:
		fail(fKey, "%v", err)
		return
	}
	var names [nFields]string
	for _, f := range []field{fDatabase, fCollection, fRegion, fRange, fOperation, fOperationType} {
		s, err := lr.name(rw.cells[f])
		if err != nil {
			fail(f, "%v", err)
			return
		}
		names[f] = s
	}
	if names[fOperationType] != "" {
		names[fOperation] = names[fOperationType] // the operation, where OperationName is the category's
	}
	if r := names[fRange]; r == "" || strings.EqualFold(r, "undefined") {
		names[fRange] = ""
		if lr.kind == ruLog {
			lr.noRange++
			lr.noRangeLine = firstLine(lr.noRangeLine, rw.line)
		}
	}
	lr.used++
	if lr.kind == ruLog {
		lr.ru = append(lr.ru, RU{Time: t, Database: names[fDatabase], Collection: names[fCollection], Region: names[fRegion],
			Key: k, RangeID: names[fRange], Operation: names[fOperation], Charge: amount, Line: rw.line, Row: rw.index})
		return
	}
	lr.st = append(lr.st, Storage{Time: t, Database: names[fDatabase], Collection: names[fCollection], Region: names[fRegion],
		Key: k, RangeID: names[fRange], SizeKB: amount, Line: rw.line, Row: rw.index})
}

// other reports whether a row is of another category of AzureDiagnostics,
// or another resource-specific table, and counts it.
func (lr *logReader) other(rw *row) bool {
	what := ""
	if c := rw.cells[fCategory]; c != nil && c.Kind == jsontree.String && !strings.EqualFold(c.Str, logs[lr.kind].category) {
		what = c.Str
	} else if t := rw.cells[fType]; t != nil && t.Kind == jsontree.String && strings.HasPrefix(t.Str, "CDB") && !strings.EqualFold(t.Str, logs[lr.kind].table) {
		what = t.Str
	}
	if what == "" {
		return false
	}
	if len(lr.otherRows) < 100 || lr.otherRows[what] > 0 {
		lr.otherRows[what]++
	} else {
		lr.otherRows["others"]++
	}
	lr.otherLine = firstLine(lr.otherLine, rw.line)
	return true
}

func firstLine(first, line int) int {
	if first == 0 {
		return line
	}
	return first
}

// name reads a name or range id, kept once for all the rows that give it.
func (lr *logReader) name(v *jsontree.Value) (string, error) {
	if v == nil {
		return "", nil
	}
	if !v.Kind.Scalar() {
		return "", fmt.Errorf("%s, not a name", clip(v.JSON()))
	}
	s := literal(v)
	if len(s) > options.MaxNameBytes {
		return "", fmt.Errorf("%s is longer than any name Cosmos DB gives (%d bytes)", clip(s), options.MaxNameBytes)
	}
	if kept, ok := lr.names[s]; ok {
		return kept, nil
	}
	if len(lr.names) < 100_000 {
		lr.names[s] = s
	}
	return s, nil
}

// number reads a number, or a string that holds one (AzureDiagnostics'
// requestCharge_s, and every value az monitor log-analytics query prints).
func number(v *jsontree.Value) (float64, error) {
	switch v.Kind {
	case jsontree.Number:
		if math.IsInf(v.Num, 0) {
			return 0, fmt.Errorf("%s is out of range", literal(v))
		}
		return v.Num, nil
	case jsontree.String:
		f, err := strconv.ParseFloat(strings.TrimSpace(v.Str), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("%q is not a number", clip(v.Str))
		}
		return f, nil
	}
	return 0, fmt.Errorf("%s is not a number", clip(v.JSON()))
}

// portalTime is how the Log Analytics portal writes a time into its CSV
// export under the en-US locale: "2/25/2025, 9:19:25.391 AM", in the time
// zone its header names ("TimeGenerated [UTC]"). A fraction of a second
// is read too.
const portalTime = "1/2/2006, 3:04:05 PM"

// timeOf reads a time: ISO 8601 text, as the query API, az and the
// queries of pkcalc diagnose-query write it ("2021-05-12T23:20:00Z";
// without a zone it is UTC, as TimeGenerated is), any other form package
// key reads, or the portal's CSV form.
func timeOf(v *jsontree.Value) (time.Time, error) {
	if t, ok := key.Time(v); ok {
		return t.UTC(), nil
	}
	if v.Kind == jsontree.String {
		if t, err := time.Parse(portalTime, strings.TrimSpace(v.Str)); err == nil {
			return t, nil
		}
		return time.Time{}, fmt.Errorf("%q is not a time pkcalc reads: give ISO 8601, such as 2021-05-12T23:20:00Z", clip(v.Str))
	}
	return time.Time{}, fmt.Errorf("%s is not a time", clip(v.JSON()))
}

// finish adds the messages on rows left out or kept with a remark.
func (lr *logReader) finish() {
	if lr.strays > 0 {
		lr.notLog() // fewer than sniffRows rows, none of the log's
	}
	if n := len(lr.otherRows); n > 0 {
		cats := make([]string, 0, n)
		total := 0
		for c, k := range lr.otherRows {
			cats = append(cats, c)
			total += k
		}
		slices.SortFunc(cats, func(a, b string) int {
			if d := lr.otherRows[b] - lr.otherRows[a]; d != 0 {
				return d
			}
			return strings.Compare(a, b)
		})
		parts := make([]string, 0, min(len(cats), 5))
		for i, c := range cats {
			if i == 5 {
				parts = append(parts, "...")
				break
			}
			parts = append(parts, fmt.Sprintf("%s %s", c, human.Count(int64(lr.otherRows[c]))))
		}
		lr.note(lr.otherLine, "left out %s %s of other categories or tables (%s): the %s is category %s, table %s",
			human.Count(int64(total)), human.Plural(int64(total), "row", "rows"), strings.Join(parts, ", "), logs[lr.kind].name, logs[lr.kind].category, logs[lr.kind].table)
	}
	if lr.noKey > 0 {
		what := ""
		if lr.kind == ruLog {
			what = fmt.Sprintf("; their %s RU are on no key", human.Count(int64(math.Round(lr.noKeyRU))))
		}
		lr.note(lr.noKeyLine, "left out %s %s with no partition key (an empty PartitionKey, which Microsoft's queries leave out with isnotempty(PartitionKey))%s",
			human.Count(int64(lr.noKey)), human.Plural(int64(lr.noKey), "row", "rows"), what)
	}
	if lr.noRange > 0 {
		lr.note(lr.noRangeLine, "%s %s no partition key range id (empty, or logged as undefined): their keys' RU are counted, but not on a range",
			human.Count(int64(lr.noRange)), human.Plural(int64(lr.noRange), "row has", "rows have"))
	}
	if lr.noTime > 0 {
		lr.note(lr.noTimeLine, "%s %s no TimeGenerated: their sizes are read, but no growth can be measured from them",
			human.Count(int64(lr.noTime)), human.Plural(int64(lr.noTime), "row has", "rows have"))
	}
	if lr.used == 0 && len(lr.errs) == 0 {
		lr.fail(0, 0, "the %s has no rows", logs[lr.kind].name)
	}
}

// note records a remark: rows kept, or left out as they should be.
func (lr *logReader) note(line int, format string, args ...any) {
	lr.errs = append(lr.errs, &Error{Line: line, Note: true, Msg: fmt.Sprintf(format, args...)})
}
