package ui

import (
	"bytes"
	"encoding/json"
	"html"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/core/api"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/core/sample"
)

// engineDiagnose is what the engine answers the page's diagnosis: the
// slots' texts as the parts of POST /v1/diagnose, each under its file
// name, as engine.js sends them.
func engineDiagnose(t *testing.T, slots []string, texts, names map[string]string, params url.Values) string {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, s := range slots {
		w, err := mw.CreateFormFile(s, cmpOr(names[s], s))
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, texts[s])
	}
	mw.Close()
	req := httptest.NewRequest(http.MethodPost, "/v1/diagnose?"+params.Encode(), &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	rec := httptest.NewRecorder()
	api.Handler(api.Config{}).ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("the engine answers %d: %s", rec.Code, rec.Body)
	}
	return rec.Body.String()
}

// exampleNames are the worked example's file names, by slot.
func exampleNames() map[string]string {
	out := map[string]string{}
	for _, e := range sample.DiagnoseExample() {
		out[e.Kind] = e.Name
	}
	return out
}

// byID is the text of the element with an id in rendered HTML, its tags
// dropped and its entities read.
func byID(t *testing.T, page, id string) string {
	t.Helper()
	open := regexp.MustCompile(`<(\w+)[^>]* id="` + regexp.QuoteMeta(id) + `"[^>]*>`)
	loc := open.FindStringSubmatchIndex(page)
	if loc == nil {
		t.Fatalf("no element #%s", id)
	}
	tag := page[loc[2]:loc[3]]
	// The element ends where its own closing tag balances the ones opened
	// inside it.
	tags := regexp.MustCompile(`<(/?)` + tag + `\b[^>]*>`)
	depth, end := 1, len(page)
	for _, m := range tags.FindAllStringSubmatchIndex(page[loc[1]:], -1) {
		if m[3] > m[2] {
			depth--
		} else {
			depth++
		}
		if depth == 0 {
			end = loc[1] + m[0]
			break
		}
	}
	return html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(page[loc[1]:end], ""))
}

// TestDiagnoseWorkedExample: "Try the worked example" hands the engine
// docs/DIAGNOSE.md's exports and settings, and the view of the engine's
// real diagnosis says first what the doc's reading says: partition 3 is
// hot, one key, contoso-outdoors, and redistribution comes first, with
// its command; then the tables, from the same diagnosis.
func TestDiagnoseWorkedExample(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true}
	c.LoadExample()
	if len(f.diagnose) != 1 || !reflect.DeepEqual(f.diagnose[0], []string{"ranges", "ruLog", "storageLog", "metrics"}) {
		t.Fatalf("diagnosed %v", f.diagnose)
	}
	want := url.Values{"currentKey": {"/tenantId"}, "keys": {"/tenantId,/categoryId"}, "ru": {"18000"}}
	if !reflect.DeepEqual(f.dparams[0], want) {
		t.Errorf("settings %v, want %v", f.dparams[0], want)
	}
	if f.settings != "currentKey=%2FtenantId&example=1&keys=%2FtenantId%2C%2FcategoryId&mode=diagnose&ru=18000" {
		t.Errorf("address %q", f.settings)
	}
	if !strings.Contains(c.Status(), "Diagnosing the worked example") || !c.Running {
		t.Errorf("status while running: %q", c.Status())
	}
	text := engineDiagnose(t, f.diagnose[0], f.exports, exampleNames(), f.dparams[0])
	c.Diagnosed(f.job, text, "")
	var d report.Diagnosis
	json.Unmarshal([]byte(text), &d)

	if scroll, focus := c.TakeReveal(); scroll != "diagnosis" || focus != "diagnosis-title" {
		t.Errorf("reveal %q, %q: the answer takes the focus, as an analysis's does", scroll, focus)
	}
	page := render(t, c)
	for _, tt := range []struct{ id, want string }{
		{"diagnosis-title", "Partition 3 is hot: one hot key"},
		{"diagnosis-why", `One key: ["contoso-outdoors"] draws 96% of partition 3's RU in its busiest seconds`},
		{"diagnosis-why", "Its busiest second drew 8,587 RU/s against a share of 6,000 (143%); 60 seconds were at or over it."},
		{"diagnosis-hot-key", `Hot key: ["contoso-outdoors"] (96% of the partition's RU in its busiest seconds)`},
		{"first-action-title", "First, Redistribute the throughput (helps)"},
		{"first-action", "Give partition 3 10,000 RU/s instead of 6,000"},
		{"first-action-commands", "--target-partition-info '0=4200 2=3900 3=10000'"},
		{"placement-text", "pkcalc places every one of the 3 logged keys where Cosmos DB logged it"},
		{"status", "Diagnosed the worked example in"},
		{"status", "read 3 ranges (ranges), 1,800 rows (RU log), 90 rows (storage log), 15 points (metrics)."},
	} {
		if got := byID(t, page, tt.id); !strings.Contains(got, tt.want) {
			t.Errorf("#%s is %q, want %q in it", tt.id, got, tt.want)
		}
	}
	if got, want := byID(t, page, "first-action-commands"), strings.TrimSuffix(strings.Join(d.Actions[0].Commands, ""), "\n"); got != want {
		t.Errorf("the first action's commands are\n%s\nnot the diagnosis's\n%s", got, want)
	}

	rows := PartitionRows(&d)
	if len(rows) != 3 || rows[2].IDText() != "3 (hot)" || rows[2].Range != "2FFFFFFF…–FF" || rows[2].PeakShare != "143%" ||
		rows[2].Throttled != "60 s" || rows[2].Normalized != "100%" || rows[2].Share != "6,000" || rows[2].TopKeys[0] != `["contoso-outdoors"] 93%` ||
		rows[0].KeySpace != "50%" || rows[0].Range != `""–1FFFFFFF…` {
		t.Errorf("partition rows %+v", rows)
	}
	keys := KeyRows(&d)
	if len(keys) != 3 || keys[0].Key != `["contoso-outdoors"]` || keys[0].Size != "14.9 GB" || keys[0].Of20 != "75%" || keys[0].To14 != "0" ||
		keys[0].To20 != "33.7" || !keys[0].Over || keys[1].Over {
		t.Errorf("storage rows %+v", keys)
	}
	// Without the DP-420 documents, which the site does not carry, the
	// candidate is not replayed, and a warning says why.
	wi := WhatIfRows(&d)
	if len(wi) != 1 || wi[0].Key != "/tenantId" || wi[0].Hottest != "88%" || wi[0].Throttled != "7.8%" || wi[0].Needs != "9,400 (1 partition)" {
		t.Errorf("what-if rows %+v", wi)
	}
	if got := byID(t, page, "diagnosis-warnings"); !strings.Contains(got, "key /tenantId,/categoryId is not replayed") {
		t.Errorf("warnings %q", got)
	}
	for i, a := range d.Actions {
		if got := byID(t, page, ActionID(i)); !strings.Contains(got, ActionTitle(a)) || !strings.Contains(got, CommandsText(a)) || !strings.Contains(got, a.Source) {
			t.Errorf("action %d shows %q", i, got)
		}
	}

	c.CopyAction(0)
	if f.copied != byID(t, page, "first-action-commands") {
		t.Errorf("copied %q", f.copied)
	}
	for _, tt := range []struct{ format, name, start string }{
		{"json", "pkcalc-diagnosis.json", text},
		{"markdown", "pkcalc-diagnosis.md", "# Partition diagnosis\n\nDiagnosis of a container with key /tenantId"},
		{"text", "pkcalc-diagnosis.txt", "Diagnosis of a container with key /tenantId (hash version 2), 18,000 RU/s manual, 3 physical partitions, 6,000 RU/s each\n"},
	} {
		f.download = nil
		c.ExportDiagnosis(tt.format)
		if len(f.download) != 3 || f.download[0] != tt.name || !strings.HasPrefix(f.download[2], tt.start) {
			t.Errorf("%s: downloaded %.200q", tt.format, f.download)
		}
	}
}

// TestDiagnoseBadRows: a row that cannot be used is listed with its line
// and what is wrong, and the rest of the export is diagnosed.
func TestDiagnoseBadRows(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true, Mode: ModeDiagnose}
	ru := "TimeGenerated,PartitionKeyRangeId,PartitionKey,RequestCharge\n" +
		"2025-03-03T14:00:00Z,0,\"[\"\"a\"\"]\",120\n" +
		"2025-03-03T14:00:01Z,0,\"[\"\"a\"\"]\",ten\n" +
		"2025-03-03T14:00:02Z,0,\"[\"\"<b>b</b>\"\"]\",80\n"
	f.SetExport("ruLog", ru)
	c.ExportChosen("ruLog", "ru.csv", int64(len(ru)))
	c.SetDiagnoseField("currentKey", "/tenantId")
	c.DiagnoseButton()
	if len(f.diagnose) != 1 {
		t.Fatalf("not diagnosed: %q", c.Error)
	}
	c.Diagnosed(f.job, engineDiagnose(t, f.diagnose[0], f.exports, map[string]string{"ruLog": "ru.csv"}, f.dparams[0]), "")
	page := render(t, c)
	if !strings.Contains(page, "1 problem in ru.csv, the RU log (the rest of it was read)") ||
		!strings.Contains(html.UnescapeString(page), `line 3 (row 2): column RequestCharge: "ten" is not a number`) {
		t.Errorf("the bad row is not listed:\n%s", byID(t, page, "status-panel"))
	}
	if got := byID(t, page, "status"); !strings.Contains(got, "read 2 rows (RU log). 1 problem not used: see below.") {
		t.Errorf("status %q", got)
	}
	rows := PartitionRows(c.Diagnosis)
	if len(rows) != 1 || rows[0].Peak != "120" || len(rows[0].TopKeys) != 2 {
		t.Errorf("the good rows are not used: %+v", rows)
	}
	// A logged key is text, never markup: its JSON, as the text report
	// writes it.
	if strings.Contains(page, "<b>b</b>") || !strings.Contains(page, `[&#34;\u003cb\u003eb\u003c/b\u003e&#34;] 40%`) {
		i := strings.Index(page, "u003cb")
		t.Errorf("a logged key reaches the page as markup: %q", page[max(0, i-200):i+100])
	}
}

// TestDiagnoseForm: the form is checked before the engine is asked, and
// names its fields as it labels them; its settings and the mode are in
// the address, and a link reopens them.
func TestDiagnoseForm(t *testing.T) {
	f := &fakePage{}
	c := &Root{Page: f, Loaded: true}
	c.SetMode(ModeDiagnose)
	if f.settings != "mode=diagnose" {
		t.Errorf("address %q", f.settings)
	}
	c.DiagnoseButton()
	if len(f.diagnose) != 0 || !strings.Contains(c.Error, "nothing to diagnose: give the container's exports") {
		t.Errorf("no exports: %q", c.Error)
	}
	c.ExportPasted("ruLog", 10)
	c.DiagnoseButton()
	if len(f.diagnose) != 0 || !strings.Contains(c.Error, `"RU per logical key (log)" needs "The container's key"`) {
		t.Errorf("no key: %q", c.Error)
	}
	c.SetDiagnoseField("currentKey", "/tenantId")
	c.SetDiagnoseField("keys", "/tenantId,/id; /tenantId+hash(/id)%8")
	c.SetDiagnoseField("ru", "20000")
	c.SetDiagnoseAutoscale(true)
	c.DiagnoseButton()
	if len(f.diagnose) != 1 || c.Error != "" {
		t.Fatalf("not diagnosed: %q", c.Error)
	}
	if got := f.dparams[0]; got.Get("keys") != "/tenantId,/id; /tenantId+hash(/id)%8" || got.Get("autoscale") != "true" {
		t.Errorf("params %v", got)
	}
	back := DiagnoseFormFrom(AddressSettings("", "#"+f.settings))
	if back.CurrentKey != "/tenantId" || back.Keys != c.Diagnose.Keys || back.RU != "20000" || !back.Autoscale || ModeFrom(f.settings) != ModeDiagnose {
		t.Errorf("the address %q reads back as %+v", f.settings, back)
	}
	// The other way in keeps its own settings in the address.
	c.Settings.Set("ru", "400")
	c.SetMode(ModeDocuments)
	if f.settings != "ru=400" || ModeFrom(f.settings) != ModeDocuments {
		t.Errorf("address %q", f.settings)
	}
	page := render(t, c)
	if !strings.Contains(page, `id="docs"`) || strings.Contains(page, `id="paste-ruLog"`) {
		t.Error("the documents mode shows the diagnose form, or not the paste area")
	}
	c.SetMode(ModeDiagnose)
	page = render(t, c)
	if strings.Contains(page, `id="docs"`) {
		t.Error("the diagnose mode shows the paste area of documents")
	}
	for _, s := range Slots {
		if !strings.Contains(page, `id="`+s.PasteID()+`"`) || !strings.Contains(page, `id="`+s.FileID()+`"`) {
			t.Errorf("slot %s has no paste area or file input", s.Name)
		}
		if s.Query != "" && !strings.Contains(page, "pkcalc diagnose-query "+s.Query) {
			t.Errorf("slot %s does not say how to get it", s.Name)
		}
	}
	if !strings.Contains(page, `id="mode-diagnose" aria-pressed="true"`) && !regexp.MustCompile(`id="mode-diagnose"[^>]*aria-pressed="true"`).MatchString(page) {
		t.Error("the diagnose button is not pressed")
	}
}
