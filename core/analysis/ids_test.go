package analysis

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/advisor"
	"github.com/pkcalc/pkcalc/core/aggregate"
	"github.com/pkcalc/pkcalc/core/capacity"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/partition"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/internal/shared"
)

// idWarning is the report's ID_RULES warning, or "".
func idWarning(r *report.Report) string {
	for _, w := range r.Warnings {
		if w.Code == report.IDRules {
			return w.Message
		}
	}
	return ""
}

// TestIDRules: every item needs an id, a string of at most 1,023 bytes
// (UTF-8) without / or \ (docs: concepts-limits, per-item limits), under
// that very name (docs: how-to-dotnet-create-item: _id and Id are other
// properties), unique within its logical partition. Each rule broken is
// counted, positioned and said in the warning, with what to do.
func TestIDRules(t *testing.T) {
	for _, tc := range []struct {
		name     string
		in       string
		want     report.IDs // Examples: the rules only
		rules    []string
		dups     int64
		says     []string // in the warning; none for no warning
		notSaid  []string
		position *report.IDExample // the first example, when it is checked
	}{
		{name: "good ids", in: `{"id":"a","tenantId":"t"}
{"id":"b","tenantId":"t"}
{"id":"a","tenantId":"u"}`, want: report.IDs{DuplicatesChecked: 3}},
		{name: "no id", in: `{"id":"a","tenantId":"t"}
{"tenantId":"t"}
{"Id":"c","tenantId":"t"}`, want: report.IDs{Missing: 2, DuplicatesChecked: 3}, rules: []string{report.IDMissing, report.IDMissing},
			says: []string{"2 documents have no id: give each one, a GUID if nothing in it names it."}, notSaid: []string{"_id"},
			position: &report.IDExample{Document: 2, Line: 2, Rule: report.IDMissing}},
		{name: "a MongoDB export", in: `{"_id":{"$oid":"65a000000000000000000001"},"tenantId":"t"}
{"_id":"65a000000000000000000002","tenantId":"t"}`, want: report.IDs{Missing: 2, MissingWithUnderscoreID: 2, UnderscoreIDAsID: true, DuplicatesChecked: 2}, rules: []string{report.IDMissing, report.IDMissing},
			says: []string{"2 documents have no id but a MongoDB _id: map _id to id before the import", "Every figure here reads each _id as the id"}},
		{name: "a MongoDB export numbered", in: `{"_id":1,"tenantId":"t"}
{"_id":2,"tenantId":"t"}`, want: report.IDs{Missing: 2, MissingWithUnderscoreID: 2, UnderscoreIDAsID: true, UnderscoreIDNonString: 2, DuplicatesChecked: 2}, rules: []string{report.IDMissing, report.IDMissing},
			says:    []string{"map _id to id before the import. No _id here is a string, and an id must be one: write each as a string in the import, \"1004\" rather than 1004. Every figure"},
			notSaid: []string{"ObjectId"}},
		{name: "a MongoDB export, numbers and ObjectIds", in: `{"_id":1,"tenantId":"t"}
{"_id":{"$oid":"65a000000000000000000002"},"tenantId":"t"}
{"_id":3,"tenantId":"t"}`, want: report.IDs{Missing: 3, MissingWithUnderscoreID: 3, UnderscoreIDAsID: true, UnderscoreIDNonString: 2, DuplicatesChecked: 3}, rules: []string{report.IDMissing, report.IDMissing, report.IDMissing},
			says: []string{"(an ObjectId reads as its 24 hex digits). 2 of the _id are not strings, and an id must be one: write each as a string"}},
		{name: "some with _id", in: `{"_id":"x","tenantId":"t"}
{"tenantId":"t"}
{"tenantId":"t"}`, want: report.IDs{Missing: 3, MissingWithUnderscoreID: 1, DuplicatesChecked: 3}, rules: []string{report.IDMissing, report.IDMissing, report.IDMissing},
			says: []string{"3 documents have no id, 1 of them a MongoDB _id: map _id to id before the import, and give the rest an id."}, notSaid: []string{"not a string"}},
		{name: "some with a numbered _id", in: `{"_id":7,"tenantId":"t"}
{"tenantId":"t"}
{"tenantId":"t"}`, want: report.IDs{Missing: 3, MissingWithUnderscoreID: 1, UnderscoreIDNonString: 1, DuplicatesChecked: 3}, rules: []string{report.IDMissing, report.IDMissing, report.IDMissing},
			says: []string{"and give the rest an id. No _id here is a string, and an id must be one"}},
		{name: "not strings", in: `{"id":1004,"tenantId":"t"}
{"id":null,"tenantId":"t"}
{"id":true,"tenantId":"t"}
{"id":{"n":1},"tenantId":"t"}
{"id":["a"],"tenantId":"t"}
{"id":{"$numberLong":"7"},"tenantId":"t"}`, want: report.IDs{NonString: 6, DuplicatesChecked: 6},
			rules: []string{report.IDNonString, report.IDNonString, report.IDNonString, report.IDNonString, report.IDNonString, report.IDNonString},
			says:  []string{`6 documents hold an id that is not a string`, `write it as a string, "1004" rather than 1004.`}},
		{name: "an ObjectId id is its hex string", in: `{"id":{"$oid":"65a000000000000000000001"},"tenantId":"t"}`, want: report.IDs{DuplicatesChecked: 1}},
		{name: "1,023 bytes, not characters", in: `{"id":"` + strings.Repeat("x", 1023) + `","tenantId":"t"}
{"id":"` + strings.Repeat("x", 1024) + `","tenantId":"t"}
{"id":"` + strings.Repeat("é", 511) + `","tenantId":"t"}
{"id":"` + strings.Repeat("é", 512) + `","tenantId":"t"}`, want: report.IDs{TooLong: 2, DuplicatesChecked: 4}, rules: []string{report.IDTooLong, report.IDTooLong},
			says: []string{"2 documents hold an id over 1,023 bytes: shorten it."}, position: &report.IDExample{Document: 2, Line: 2, Rule: report.IDTooLong}},
		{name: "slash and backslash", in: `{"id":"a/b","tenantId":"t"}
{"id":"a\\b","tenantId":"t"}
{"id":"a?b#c%d","tenantId":"t"}
{"id":"ünïcødé 😀","tenantId":"t"}`, want: report.IDs{InvalidCharacters: 2, DuplicatesChecked: 4}, rules: []string{report.IDInvalidCharacters, report.IDInvalidCharacters},
			says: []string{`2 documents hold an id with / or \ in it: replace them, or encode the id`}},
		{name: "too long and a slash: counted twice, shown once", in: `{"id":"` + strings.Repeat("/", 1024) + `","tenantId":"t"}`,
			want: report.IDs{TooLong: 1, InvalidCharacters: 1, DuplicatesChecked: 1}, rules: []string{report.IDTooLong}},
		{name: "a repeated id in one tenant", in: `{"id":"o-7","tenantId":"fabrikam"}
{"id":"o-7","tenantId":"fabrikam"}
{"id":"o-7","tenantId":"contoso"}`, want: report.IDs{DuplicatesChecked: 3}, dups: 1,
			says:    []string{"Under /tenantId, 1 document repeats the id of an earlier one with the same key value, which the service refuses with 409 Conflict."},
			notSaid: []string{"Only the first"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Analyze(strings.NewReader(tc.in), Options{Keys: schemaKeys(t, "/tenantId"), NoSuggest: true})
			if err != nil {
				t.Fatal(err)
			}
			if rep.IDs == nil {
				t.Fatal("no ids in the report")
			}
			got := *rep.IDs
			var rules []string
			for _, e := range got.Examples {
				rules = append(rules, e.Rule)
			}
			got.Examples = nil
			if !reflect.DeepEqual(got, tc.want) || fmt.Sprint(rules) != fmt.Sprint(tc.rules) {
				t.Errorf("ids %+v, rules %q; want %+v, %q", got, rules, tc.want, tc.rules)
			}
			if tc.position != nil && rep.IDs.Examples[0] != *tc.position {
				t.Errorf("first example %+v, want %+v", rep.IDs.Examples[0], *tc.position)
			}
			if d := rep.Candidates[0].DuplicateIDs; d == nil || *d != tc.dups {
				t.Errorf("duplicateIds %v, want %d", d, tc.dups)
			}
			msg := idWarning(rep)
			if (msg != "") != (tc.says != nil || tc.want.TooLong > 0) {
				t.Errorf("warning %q", msg)
			}
			for _, s := range tc.says {
				if !strings.Contains(msg, s) {
					t.Errorf("the warning does not say %q:\n%s", s, msg)
				}
			}
			for _, s := range tc.notSaid {
				if strings.Contains(msg, s) {
					t.Errorf("the warning says %q:\n%s", s, msg)
				}
			}
		})
	}
}

// TestIDsEveryDocument: past the window documents are read only for the
// paths the analysis needs; the id and _id are among them, so every
// document is checked, not only the window's.
func TestIDsEveryDocument(t *testing.T) {
	var in strings.Builder
	for i := range 40 {
		switch {
		case i >= 30:
			fmt.Fprintf(&in, `{"_id":{"$oid":"65a0000000000000000000%02d"},"tenantId":"t%d","x":{"id":5}}`+"\n", i, i%3)
		case i >= 20:
			fmt.Fprintf(&in, `{"id":%d,"tenantId":"t%d"}`+"\n", i, i%3)
		default:
			fmt.Fprintf(&in, `{"id":"%d","tenantId":"t%d"}`+"\n", i%10, i%2)
		}
	}
	rep, err := Analyze(strings.NewReader(in.String()), Options{Keys: schemaKeys(t, "/tenantId"), NoSuggest: true, Window: 5})
	if err != nil {
		t.Fatal(err)
	}
	want := report.IDs{Missing: 10, MissingWithUnderscoreID: 10, NonString: 10, DuplicatesChecked: 40}
	got := *rep.IDs
	got.Examples = nil
	// Ids 0-9 under tenants t0 and t1: the second ten repeat the first.
	if !reflect.DeepEqual(got, want) || *rep.Candidates[0].DuplicateIDs != 10 || len(rep.IDs.Examples) != maxIDExamples || rep.IDs.Examples[0].Document != 21 {
		t.Errorf("ids %+v, duplicates %d, examples %+v; want %+v, 10, 10 from document 21", got, *rep.Candidates[0].DuplicateIDs, rep.IDs.Examples, want)
	}
}

// TestIDsDuplicatesBounded: past partition.HashedDocuments documents the
// duplicates are not looked for, and the warning says which were.
func TestIDsDuplicatesBounded(t *testing.T) {
	var in bytes.Buffer
	for i := range partition.HashedDocuments + 10 {
		id := i
		if i == 1 || i >= partition.HashedDocuments {
			id = 0 // the second document, and those past the bound, repeat the first's
		}
		fmt.Fprintf(&in, `{"id":"%d","k":"v"}`+"\n", id)
	}
	rep, err := Analyze(&in, Options{Keys: schemaKeys(t, "/k"), NoSuggest: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.IDs.DuplicatesChecked != partition.HashedDocuments || *rep.Candidates[0].DuplicateIDs != 1 {
		t.Errorf("checked %d, duplicates %d; want %d and 1", rep.IDs.DuplicatesChecked, *rep.Candidates[0].DuplicateIDs, partition.HashedDocuments)
	}
	if msg := idWarning(rep); !strings.Contains(msg, "(Only the first 100,000 documents are checked for this.)") {
		t.Errorf("the warning does not say which documents were checked: %q", msg)
	}
}

// TestIDsNotInAggregates: per-key aggregates have no documents, so no ids:
// the JSON has neither ids nor a candidate's duplicateIds, and the CSV
// leaves the cell empty.
func TestIDsNotInAggregates(t *testing.T) {
	k := schemaKeys(t, "/tenantId")[0]
	rows, problems := aggregate.Read(strings.NewReader("k0,documents,bytes\n\"contoso\",10,1000\n"), 1)
	rep := AnalyzeAggregates(rows, problems, k, Options{})
	var buf bytes.Buffer
	if err := report.WriteJSON(&buf, rep); err != nil {
		t.Fatal(err)
	}
	if rep.IDs != nil || bytes.Contains(buf.Bytes(), []byte(`"ids"`)) || bytes.Contains(buf.Bytes(), []byte(`"duplicateIds"`)) {
		t.Errorf("aggregates report ids:\n%s", buf.Bytes())
	}
	_, _, c := renderAll(t, rep)
	rec, err := csv.NewReader(strings.NewReader(c)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := csvColumn(t, rec[0], "duplicate_ids")
	if rec[1][col] != "" {
		t.Errorf("duplicate_ids %q for aggregates, want an empty cell", rec[1][col])
	}
}

func csvColumn(t *testing.T, header []string, name string) int {
	t.Helper()
	for i, h := range header {
		if h == name {
			return i
		}
	}
	t.Fatalf("no column %q in %q", name, header)
	return -1
}

// TestIDNotice: the warning names the keys with duplicates in the
// report's order, three at most, and says nothing when no rule is broken.
func TestIDNotice(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	cand := func(spec string, dups *int64) report.Candidate {
		return report.Candidate{Key: report.Key{Spec: spec}, DuplicateIDs: dups}
	}
	for _, tc := range []struct {
		name  string
		cands []report.Candidate
		want  string // the warning's last sentences; "" for none
	}{
		{"none", []report.Candidate{cand("/a", n(0))}, ""},
		{"one key", []report.Candidate{cand("/a", n(0)), cand("/b", n(2))},
			"Under /b, 2 documents repeat the id of an earlier one with the same key value, which the service refuses with 409 Conflict. Make each id unique"},
		{"two keys", []report.Candidate{cand("/a", n(1)), cand("/b", n(0)), cand("/c", n(3))},
			"Documents repeat the id of an earlier one with the same key value, which the service refuses with 409 Conflict: 1 under /a and 3 under /c. Make"},
		{"five keys", []report.Candidate{cand("/a", n(1)), cand("/b", n(2)), cand("/c", n(3)), cand("/d", n(4)), cand("/e", n(5))},
			"409 Conflict: 1 under /a, 2 under /b, 3 under /c and more under 2 other keys. Make"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := idNotice(&report.IDs{DuplicatesChecked: 10}, tc.cands, 10, "")
			switch {
			case tc.want == "" && got != nil:
				t.Errorf("a warning with no rule broken: %q", got.Message)
			case tc.want != "" && (got == nil || got.Code != report.IDRules || !strings.Contains(got.Message, tc.want)):
				t.Errorf("warning %+v, want one saying %q", got, tc.want)
			}
		})
	}
	if got := idNotice(nil, nil, 0, ""); got != nil {
		t.Errorf("a warning without ids: %+v", got)
	}
}

// casebookFile is a file of the casebook, shared/casebook beside the
// checkout.
func casebookFile(t *testing.T, name string) string {
	t.Helper()
	return shared.File(t, "casebook", name)
}

// TestCasebookItemIDs is the casebook's case "cosmos-item-ids": documents
// 1-3 lack id (they carry a MongoDB _id), 4-5 hold a number there, 7 and
// 8 repeat an id and a tenant. Its counts are read as a runner reads
// cases.json's: missingId is ids.missing, nonStringId ids.nonString,
// duplicateIdWithinKey the named key's duplicateIds.
func TestCasebookItemIDs(t *testing.T) {
	f, err := os.Open(casebookFile(t, "ids.jsonl"))
	if err != nil {
		t.Fatal(err) // the casebook is part of what the project is tested on: its absence fails
	}
	defer f.Close()
	rep, err := Analyze(f, Options{Keys: schemaKeys(t, "/tenantId")})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := report.WriteJSON(&out, rep); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Warnings []report.Notice `json:"warnings"`
		IDs      struct {
			Missing   int `json:"missing"`
			NonString int `json:"nonString"`
		} `json:"ids"`
		Candidates []struct {
			Key          struct{ Spec string } `json:"key"`
			DuplicateIDs *int                  `json:"duplicateIds"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.IDs.Missing != 3 || doc.IDs.NonString != 2 {
		t.Errorf("ids.missing %d, ids.nonString %d; the casebook has 3 and 2", doc.IDs.Missing, doc.IDs.NonString)
	}
	if c := doc.Candidates[0]; c.Key.Spec != "/tenantId" || c.DuplicateIDs == nil || *c.DuplicateIDs != 1 {
		t.Errorf("first candidate %s, duplicateIds %v; the casebook has /tenantId with 1", c.Key.Spec, c.DuplicateIDs)
	}
	// The expert's words: every item needs a string id unique within its
	// logical partition, and a MongoDB export's _id is mapped to it.
	msg := idWarning(rep)
	for _, s := range []string{"every item to have an id, a string", "unique within its logical partition", "map _id to id", "1 under /tenantId"} {
		if !strings.Contains(msg, s) {
			t.Errorf("the warning does not say %q: %q", s, msg)
		}
	}
	if !regexp.MustCompile(`\bid\b`).MatchString(msg) {
		t.Errorf("the report does not mention id: %q", msg)
	}
	text, md, _ := renderAll(t, rep)
	if !strings.Contains(text, "warning "+report.IDRules+": "+msg) || !strings.Contains(md, "**Warning, "+report.IDRules+"**: ") {
		t.Errorf("the text or Markdown does not show the warning:\n%s\n%s", text, md)
	}
}

// TestIDsCSV: the CSV has each candidate's duplicates.
func TestIDsCSV(t *testing.T) {
	rep, err := Analyze(strings.NewReader("{\"id\":\"a\",\"k\":\"x\"}\n{\"id\":\"a\",\"k\":\"x\"}\n{\"id\":\"a\",\"k\":\"y\"}\n"),
		Options{Keys: schemaKeys(t, "/k", "/id"), NoSuggest: true})
	if err != nil {
		t.Fatal(err)
	}
	_, _, c := renderAll(t, rep)
	rec, err := csv.NewReader(strings.NewReader(c)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := csvColumn(t, rec[0], "duplicate_ids")
	if got := [2]string{rec[1][col], rec[2][col]}; got != [2]string{"1", "2"} {
		t.Errorf("duplicate_ids %q for /k and /id, want 1 and 2", got)
	}
}

// TestIDDuplicates: of the documents whose id hash another shares, those
// whose key value hash is also another's count, once for each copy past the
// first; a document without a string id (0) or in no logical partition
// (value 0) counts for nothing. Hashes that share slots are told apart.
func TestIDDuplicates(t *testing.T) {
	for _, tc := range []struct {
		name           string
		ids, values    []uint64
		repeated, dups int
	}{
		{"unique ids", []uint64{1, 2, 3}, []uint64{9, 9, 9}, 0, 0},
		{"one id, two values", []uint64{1, 2, 1, 3, 1}, []uint64{7, 7, 7, 7, 8}, 3, 1},
		{"three copies", []uint64{5, 5, 5}, []uint64{7, 7, 7}, 3, 2},
		{"no id", []uint64{0, 0}, []uint64{7, 7}, 0, 0},
		{"no partition", []uint64{5, 5, 5}, []uint64{0, 0, 7}, 3, 0},
		// 4, 8 and 12 share a slot of the ids' table; 1<<60 and 1<<61 a
		// slot of the pairs' table.
		{"shared slots", []uint64{4, 8, 12, 8, 4, 4, 16}, []uint64{1 << 60, 1 << 61, 1, 1 << 61, 1 << 60, 1 << 61, 1}, 5, 2},
		{"fewer values than ids", []uint64{5, 5, 5}, []uint64{7}, 3, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &idCheck{hashes: tc.ids}
			c.repeats()
			if got := c.duplicates(tc.values); len(c.repeated) != tc.repeated || got != int64(tc.dups) {
				t.Errorf("%d repeated ids, %d duplicates; want %d and %d", len(c.repeated), got, tc.repeated, tc.dups)
			}
		})
	}
}

// TestMongoExportIDs: documents with no id and a MongoDB _id are an export
// whose import maps _id to id, so pkcalc reads them so: the path table has
// /id, keys on /id read the _id, and the workload's point reads by /id are
// point reads. The counts still say that no document has an id. Where some
// documents have an id, nothing is read in its place.
func TestMongoExportIDs(t *testing.T) {
	var export, mixed strings.Builder
	for i := range 200 {
		fmt.Fprintf(&export, `{"_id":{"$oid":"65a0000000000000000%05d"},"state":"s%d","pop":%d}`+"\n", i, i%7, i*13)
		if i%2 == 0 {
			fmt.Fprintf(&mixed, `{"id":"x%d","_id":"m%d","state":"s%d"}`+"\n", i, i, i%7)
		} else {
			fmt.Fprintf(&mixed, `{"_id":"m%d","state":"s%d"}`+"\n", i, i%7)
		}
	}
	r, err := Analyze(strings.NewReader(export.String()), Options{Workload: advisor.Workload{Operations: "1500 read /id\n100 SELECT * FROM c WHERE c.state = @s\n"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.IDs == nil || r.IDs.Missing != 200 || r.IDs.MissingWithUnderscoreID != 200 || !r.IDs.UnderscoreIDAsID {
		t.Fatalf("ids %+v", r.IDs)
	}
	if !slices.ContainsFunc(r.Paths, func(p report.Path) bool { return p.Path == "/id" }) || slices.ContainsFunc(r.Paths, func(p report.Path) bool { return p.Path == "/_id" }) {
		t.Errorf("path table %+v", r.Paths)
	}
	c := candidateOf(r, "/id")
	if r.Recommended != "/id" || c == nil || c.LogicalPartitions != 200 || c.Missing != 0 || c.Queries == nil || c.Queries.Verdicts[0].Routing != "single" {
		t.Errorf("recommended %q; /id %+v", r.Recommended, c)
	}
	if n := idNotice(r.IDs, r.Candidates, r.Documents, ""); n == nil || !strings.Contains(n.Message, "Every figure here reads each _id as the id") {
		t.Errorf("notice %+v", n)
	}
	m, err := Analyze(strings.NewReader(mixed.String()), Options{Keys: []key.Spec{mustKey(t, "/id")}, NoSuggest: true})
	if err != nil {
		t.Fatal(err)
	}
	if m.IDs.UnderscoreIDAsID || m.Candidates[0].Missing != 100 {
		t.Errorf("some documents have an id: ids %+v, /id missing in %d", m.IDs, m.Candidates[0].Missing)
	}
}

// TestMissingIDsAsUnique: documents with no id and no _id will each get
// one of their own (a GUID) on import, so the keys read it so: /id was
// one undefined value holding every document ("1 logical partition,
// 100 %"), and /origin,/id had as few values as /origin. The candidates
// take /id as a last level, not as a key alone; the same input in another
// order gives the same report.
func TestMissingIDsAsUnique(t *testing.T) {
	var in strings.Builder
	for i := range 300 {
		fmt.Fprintf(&in, `{"origin":"o%d","delay":%d,"n":%d}`+"\n", i%9, i%40, i)
	}
	opts := Options{Keys: []key.Spec{mustKey(t, "/id"), mustKey(t, "/origin,/id")},
		Workload: advisor.Workload{Operations: "500 SELECT * FROM c WHERE c.origin = @o\n"}}
	r, err := Analyze(strings.NewReader(in.String()), opts)
	if err != nil {
		t.Fatal(err)
	}
	if r.IDs == nil || r.IDs.Missing != 300 || !r.IDs.MissingAsUnique || !strings.Contains(idWarning(r), "Every figure here reads each document's id as one of its own") {
		t.Fatalf("ids %+v, %q", r.IDs, idWarning(r))
	}
	for _, spec := range []string{"/id", "/origin,/id"} {
		if c := candidateOf(r, spec); c == nil || c.LogicalPartitions != 300 || c.Missing != 0 {
			t.Errorf("%s: %+v", spec, c)
		}
	}
	var specs []string
	for _, c := range r.Candidates {
		if !c.Named {
			specs = append(specs, c.Key.Spec)
		}
	}
	if slices.Contains(specs, "/id") || !slices.Contains(specs, "/origin") {
		t.Errorf("candidates %q: want /origin, and /id only as named", specs)
	}
	lines := strings.SplitAfter(strings.TrimSpace(in.String()), "\n")
	slices.Reverse(lines)
	back, err := Analyze(strings.NewReader(strings.Join(lines, "\n")+"\n"), opts)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range r.Candidates {
		if b := back.Candidates[i]; b.Key.Spec != c.Key.Spec || b.LogicalPartitions != c.LogicalPartitions || b.Score != c.Score {
			t.Errorf("reversed: %s %d %d, was %s %d %d", b.Key.Spec, b.LogicalPartitions, b.Score, c.Key.Spec, c.LogicalPartitions, c.Score)
		}
	}
}

// TestIDKeysFound: a named /_id of a MongoDB export, which the path table
// lists as /id, and a named /id where none has one, which every document
// is to get, are keys the documents hold: KEY_NOT_FOUND said "in none of
// the 29,470 documents" beside 29,470 logical partitions.
func TestIDKeysFound(t *testing.T) {
	var export, bare strings.Builder
	for i := range 50 {
		fmt.Fprintf(&export, `{"_id":{"$oid":"65a0000000000000000%05d"},"state":"s%d"}`+"\n", i, i%7)
		fmt.Fprintf(&bare, `{"state":"s%d","n":%d}`+"\n", i%7, i)
	}
	for _, tt := range []struct{ in, key string }{{export.String(), "/_id"}, {bare.String(), "/id"}} {
		r, err := Analyze(strings.NewReader(tt.in), Options{Keys: []key.Spec{mustKey(t, tt.key)}, NoSuggest: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range r.Warnings {
			if w.Code == report.KeyNotFound {
				t.Errorf("%s: %s", tt.key, w.Message)
			}
		}
		if c := candidateOf(r, tt.key); c == nil || c.LogicalPartitions != 50 {
			t.Errorf("%s: %+v", tt.key, c)
		}
	}
}

// TestIDMeantUnique: with no id, a top-level identifier that holds a
// value of its own in every document (a CSV export's order_id) is the one
// to map to id, which ID_RULES says rather than "a GUID".
func TestIDMeantUnique(t *testing.T) {
	var in strings.Builder
	for i := range 60 {
		fmt.Fprintf(&in, `{"order_id":"o%d","customer_id":"c%d","status":"s%d"}`+"\n", i, i%7, i%3)
	}
	r, err := Analyze(strings.NewReader(in.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w := idWarning(r); !strings.Contains(w, "60 documents have no id, but /order_id, a value of its own in every document, reads as one: rename it id before the import. Every figure here reads each document's id as one of its own") {
		t.Errorf("ID_RULES %q", w)
	}
}

// TestDuplicateIDsRank: a key under which documents repeat an id is
// judged on the documents the service would refuse, before it is ranked.
// Posts numbered within their site repeat ids across sites: /thread, the
// thread's number, merged two sites' posts and was recommended at grade A
// with the duplicates named only in a warning on the report.
func TestDuplicateIDsRank(t *testing.T) {
	var in strings.Builder
	for i := range 3000 {
		site := fmt.Sprintf("site-%d", i%3)
		post := i / 3 // the same numbers on every site
		fmt.Fprintf(&in, `{"id":"%d","site":%q,"thread":"%d","score":%d}`+"\n", post, site, post/4, i%7)
	}
	ops := "300 SELECT * FROM c WHERE c.site = @s AND c.thread = @t\n100 read /id /site /thread\n"
	rep, err := Analyze(strings.NewReader(in.String()), Options{Keys: schemaKeys(t, "/thread", "/site,/thread,/id"), NoSuggest: true,
		Workload: advisor.Workload{Operations: ops}, TargetBytes: 200 << 30, Throughput: capacity.Throughput{RU: 30000}})
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[string]report.Candidate{}
	for _, c := range rep.Candidates {
		byKey[c.Key.Spec] = c
	}
	thread, site := byKey["/thread"], byKey["/site,/thread,/id"]
	if *thread.DuplicateIDs != 2000 || *site.DuplicateIDs != 0 {
		t.Fatalf("duplicates %d under /thread, %d under /site,/thread,/id; want 2,000 and 0", *thread.DuplicateIDs, *site.DuplicateIDs)
	}
	if !hasFinding(thread, advisor.DuplicateIDs) || thread.Score > 60 || hasFinding(site, advisor.DuplicateIDs) {
		t.Errorf("/thread scores %d with findings %+v; /site,/thread,/id %d", thread.Score, thread.Findings, site.Score)
	}
	if rep.Recommended != "/site,/thread,/id" || site.Score <= thread.Score {
		t.Errorf("recommended %q; /site,/thread,/id %d against /thread %d", rep.Recommended, site.Score, thread.Score)
	}
	for _, f := range thread.Findings {
		if f.Code == advisor.DuplicateIDs && (f.Severity != string(advisor.Critical) || !strings.Contains(f.Message, "2,000 documents (67%) repeat the id of an earlier document with the same value of /thread")) {
			t.Errorf("DUPLICATE_IDS: %+v", f)
		}
	}
}
