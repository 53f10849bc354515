package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/options"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/core/sample"
)

// The page's two ways in: documents pasted for a new container's key
// (ModeDocuments), or a live container's exports (ModeDiagnose,
// docs/DIAGNOSE.md). The mode is in the address, so a link reopens it.
const (
	ModeDocuments = ""
	ModeDiagnose  = "diagnose"
)

// Slot is one export the diagnose form takes: what it is and where it
// comes from, for people who have not exported it yet.
type Slot struct {
	Name  string // the export's option (the part of POST /v1/diagnose): ranges, ruLog, storageLog, metrics, documents
	Label string
	What  string
	From  string
	Query string // the argument of pkcalc diagnose-query that prints how to get it; "" for the documents
}

// Slots are the diagnose form's exports, in the order the engine reads
// them (the documents last).
var Slots = []Slot{
	{Name: "ranges", Label: Label("ranges"), Query: "ranges",
		What: "The container's physical partitions, each with its range of effective partition keys.",
		From: "The REST API's pkranges feed (GET …/dbs/DATABASE/colls/CONTAINER/pkranges) saved as JSON, or the SDK's list of ranges."},
	{Name: "ruLog", Label: Label("ruLog"), Query: "ru-log",
		What: "The request units charged to each logical partition key on each physical partition, second by second (diagnostic log PartitionKeyRUConsumption).",
		From: "Log Analytics: a query of CDBPartitionKeyRUConsumption (or AzureDiagnostics), exported as CSV, or the JSON of az monitor log-analytics query."},
	{Name: "storageLog", Label: Label("storageLog"), Query: "storage-log",
		What: "The storage of the largest logical partition keys over the days (diagnostic log PartitionKeyStatistics).",
		From: "Log Analytics: a query of CDBPartitionKeyStatistics (or AzureDiagnostics), exported as CSV or JSON."},
	{Name: "metrics", Label: Label("metrics"), Query: "metrics",
		What: "The highest share of its RU/s each partition key range used in each minute (metric NormalizedRUConsumption).",
		From: "The JSON of az monitor metrics list, split by PartitionKeyRangeId."},
	{Name: "documents", Label: "A sample of its documents (optional)",
		What: "Items of the container (JSON, JSON Lines or CSV), for the what-if: how each logged key's items spread over a candidate key's values.",
		From: "A query's result or an export of the container."},
}

// QueryText says how to get a slot's export.
func (s Slot) QueryText() string {
	if s.Query == "" {
		return ""
	}
	return "pkcalc diagnose-query " + s.Query
}

// SlotIDs are the element ids of a slot's controls: its paste area, its
// file input and its clear button.
func (s Slot) PasteID() string { return "paste-" + s.Name }
func (s Slot) FileID() string  { return "file-" + s.Name }
func (s Slot) ClearID() string { return "clear-" + s.Name }
func (s Slot) TitleID() string { return "slot-title-" + s.Name }

// Export is what a slot holds.
type Export struct {
	Kind  string // "paste", "file" or "example" (the worked example's text, put in the paste area)
	Name  string // a file's name, or the example's
	Bytes int64
}

// DiagnoseForm is the diagnose form, as typed: its settings are checked by
// options.Parse (front end DiagnosePage) when the diagnosis starts.
type DiagnoseForm struct {
	CurrentKey  string
	Keys        string // the candidates, separated by ;
	RU          string
	Autoscale   bool
	HashVersion string            // "" for 2
	Exports     map[string]Export // by slot; the page holds their text and files
	Example     bool              // the worked example is loaded, unchanged
}

// Params are the form's settings as the engine's options.
func (f DiagnoseForm) Params() url.Values {
	v := url.Values{}
	set := func(name, value string) {
		if value = strings.TrimSpace(value); value != "" {
			v.Set(name, value)
		}
	}
	set("currentKey", f.CurrentKey)
	set("keys", f.Keys)
	set("ru", f.RU)
	if f.Autoscale {
		v.Set("autoscale", "true")
	}
	set("hashVersion", f.HashVersion)
	return v
}

// Address is what the address keeps of the form: the mode, the settings
// and whether the worked example is loaded (never the exports).
func (f DiagnoseForm) Address() string {
	v := f.Params()
	v.Set("mode", ModeDiagnose)
	if f.Example {
		v.Set("example", "1")
	}
	return v.Encode()
}

// DiagnoseFormFrom reads the form back from the address, ignoring what it
// does not know.
func DiagnoseFormFrom(query string) DiagnoseForm {
	v, _ := url.ParseQuery(strings.TrimPrefix(query, "#"))
	return DiagnoseForm{
		CurrentKey:  v.Get("currentKey"),
		Keys:        strings.Join(v["keys"], "; "),
		RU:          v.Get("ru"),
		Autoscale:   v.Get("autoscale") == "true",
		HashVersion: v.Get("hashVersion"),
	}
}

// ModeFrom is the mode an address asks for.
func ModeFrom(query string) string {
	v, _ := url.ParseQuery(strings.TrimPrefix(query, "#"))
	if v.Get("mode") == ModeDiagnose {
		return ModeDiagnose
	}
	return ModeDocuments
}

// SetMode switches between the two ways in. The address follows, so that
// a link reopens the mode with its settings.
func (c *Root) SetMode(mode string) {
	if mode != ModeDiagnose {
		mode = ModeDocuments
	}
	if c.Mode == mode {
		return
	}
	c.Mode = mode
	c.Error, c.Notice = "", ""
	if c.Page == nil {
		return
	}
	if mode == ModeDiagnose {
		c.Page.SetSettings(c.Diagnose.Address())
		return
	}
	c.Page.SetSettings(c.Settings.Params().Encode())
}

// ModePressed is a mode button's aria-pressed.
func (c *Root) ModePressed(mode string) string {
	if c.Mode == mode {
		return "true"
	}
	return "false"
}

// ModeClass is a mode button's class: the mode shown is the solid one.
func (c *Root) ModeClass(mode string) string {
	if c.Mode == mode {
		return "mode-button"
	}
	return "mode-button secondary"
}

// SetDiagnoseField updates a field of the diagnose form as it is typed.
func (c *Root) SetDiagnoseField(name, value string) {
	f := &c.Diagnose
	switch name {
	case "currentKey":
		f.CurrentKey = value
	case "keys":
		f.Keys = value
	case "ru":
		f.RU = value
	case "hashVersion":
		f.HashVersion = value
	}
	f.Example = false // the example's settings changed: a link would not reopen what is shown
}

// SetDiagnoseAutoscale ticks or unticks the diagnose form's autoscale.
func (c *Root) SetDiagnoseAutoscale(on bool) {
	c.Diagnose.Autoscale, c.Diagnose.Example = on, false
}

// ModeHint says what the mode shown does.
func (c *Root) ModeHint() string {
	if c.Mode == ModeDiagnose {
		return "Diagnose an existing container from what Cosmos DB exports about it: which physical partition is hot and why, when a key reaches 20 GB, what another key would do to the same traffic, and what to do first."
	}
	return "Choose the partition key of a new container from sample documents and, optionally, the application's queries and request rates."
}

// ExportPasted notes that a slot's paste area changed.
func (c *Root) ExportPasted(slot string, bytes int64) {
	c.setExport(slot, Export{Kind: "paste", Bytes: bytes})
}

// ExportChosen notes a file picked or dropped on a slot.
func (c *Root) ExportChosen(slot, name string, bytes int64) {
	c.setExport(slot, Export{Kind: "file", Name: name, Bytes: bytes})
}

func (c *Root) setExport(slot string, e Export) {
	if c.Diagnose.Exports == nil {
		c.Diagnose.Exports = map[string]Export{}
	}
	if e.Bytes == 0 && e.Kind == "paste" {
		delete(c.Diagnose.Exports, slot)
	} else {
		c.Diagnose.Exports[slot] = e
	}
	c.Diagnose.Example = false
}

// ClearExport empties a slot.
func (c *Root) ClearExport(slot string) {
	if c.Page != nil {
		c.Page.SetExport(slot, "")
	}
	delete(c.Diagnose.Exports, slot)
	c.Diagnose.Example = false
}

// SlotState says what a slot holds.
func (c *Root) SlotState(slot string) string {
	e, ok := c.Diagnose.Exports[slot]
	switch {
	case !ok:
		return "Empty: paste it above, drop a file here, or choose one."
	case e.Kind == "file":
		return fmt.Sprintf("File %s (%s).", e.Name, human.Bytes(e.Bytes))
	case e.Kind == "example":
		return fmt.Sprintf("The worked example's %s (%s).", e.Name, human.Bytes(e.Bytes))
	}
	return fmt.Sprintf("Pasted text (%s).", human.Bytes(e.Bytes))
}

// HasExport reports whether a slot holds something.
func (c *Root) HasExport(slot string) bool {
	_, ok := c.Diagnose.Exports[slot]
	return ok
}

// LoadExample fills the form with docs/DIAGNOSE.md's worked example and
// diagnoses it: its four exports (package sample), its key, throughput
// and candidate. Its documents are the DP-420 lab's, which the site does
// not carry, so the candidate is not replayed unless documents are given.
func (c *Root) LoadExample() {
	f := DiagnoseForm{CurrentKey: sample.ExampleCurrentKey, Keys: sample.ExampleKey, RU: fmt.Sprint(sample.ExampleRU), Exports: map[string]Export{}}
	for _, e := range sample.DiagnoseExample() {
		f.Exports[e.Kind] = Export{Kind: "example", Name: e.Name, Bytes: int64(len(e.Text))}
		if c.Page != nil {
			c.Page.SetExport(e.Kind, e.Text)
		}
	}
	if c.Page != nil {
		c.Page.SetExport("documents", "")
	}
	f.Example = true
	c.Mode, c.Diagnose = ModeDiagnose, f
	c.diagnose(revealFocus)
}

// ClearDiagnosis empties the diagnose form's exports and its diagnosis.
func (c *Root) ClearDiagnosis() {
	if c.Running {
		c.Cancel()
	}
	for _, s := range Slots {
		if c.Page != nil {
			c.Page.SetExport(s.Name, "")
		}
	}
	c.Diagnose.Exports, c.Diagnose.Example = nil, false
	c.Diagnosis, c.Error, c.Notice = nil, "", ""
	c.failed, c.cancelled = false, false
	if c.Page != nil {
		c.Page.SetSettings(c.Diagnose.Address())
	}
}

// DiagnoseButton is the Diagnose button: it starts a diagnosis unless one
// is running.
func (c *Root) DiagnoseButton() {
	if !c.Running {
		c.diagnose(revealFocus)
	}
}

// diagnose checks the form and hands the exports to the engine.
func (c *Root) diagnose(rv reveal) {
	params := c.Diagnose.Params()
	check := url.Values{}
	for k, v := range params {
		check[k] = v
	}
	var exports []string
	for _, s := range Slots {
		if _, ok := c.Diagnose.Exports[s.Name]; ok {
			exports = append(exports, s.Name)
			if s.Name != "documents" {
				check.Set(s.Name, "true")
			}
		}
	}
	if _, err := options.Parse(check, options.DiagnosePage); err != nil {
		c.Error = "Check the exports and settings: " + err.Error()
		if c.Diagnosis != nil {
			c.Error += " The diagnosis below is from the last run, with the settings it had."
		}
		c.failed = true
		return
	}
	if c.Running && c.Page != nil {
		c.Page.Cancel()
	}
	c.Error, c.Notice = "", ""
	c.Running, c.cancelled, c.failed = true, false, false
	c.Progress = Progress{}
	c.started = time.Now()
	c.job++
	c.jobParams, c.jobReveal = params.Encode(), rv
	c.jobSource = Source{Kind: "diagnose", Label: c.exportsLabel(exports)}
	if c.Page != nil {
		c.Page.SetSettings(c.Diagnose.Address())
		c.Page.Diagnose(c.job, exports, params)
	}
}

// exportsLabel names the exports for the status line.
func (c *Root) exportsLabel(slots []string) string {
	if c.Diagnose.Example {
		return "the worked example"
	}
	var names []string
	for _, s := range slots {
		if e := c.Diagnose.Exports[s]; e.Name != "" {
			names = append(names, e.Name)
		} else {
			o, _ := options.Lookup(s)
			names = append(names, cmpOr(o.Label, "the documents")+" pasted")
		}
	}
	return strings.Join(names, ", ")
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Diagnosed takes the engine's answer to a diagnosis: its JSON text, or
// an error. An answer to a job since replaced is dropped.
func (c *Root) Diagnosed(job int, diagnosisJSON, err string) {
	if job != c.job {
		return
	}
	c.Running = false
	c.failed = err != ""
	if err != "" {
		c.Error = err + c.olderDiagnosis()
		return
	}
	var d report.Diagnosis
	if e := json.Unmarshal([]byte(diagnosisJSON), &d); e != nil {
		c.failed = true
		c.Error = "The engine's diagnosis could not be read: " + e.Error() + c.olderDiagnosis()
		return
	}
	if c.Diagnose.Params().Encode() == c.jobParams {
		c.revealed = c.jobReveal
	}
	c.Diagnosis, c.DiagnosisSource, c.Elapsed = &d, c.jobSource, time.Since(c.started)
}

func (c *Root) olderDiagnosis() string {
	if c.Diagnosis == nil {
		return ""
	}
	return " The diagnosis below is from " + c.DiagnosisSource.Label + "."
}

// DiagnosisCurrent tells whether the diagnosis shown is of the last run:
// its input's problems show only then.
func (c *Root) DiagnosisCurrent() bool {
	return c.Diagnosis != nil && !c.failed && !c.cancelled
}

// diagnoseStatus is the status line in the diagnose mode.
func (c *Root) diagnoseStatus() string {
	switch {
	case !c.Loaded:
		return "Loading the engine…"
	case c.Running:
		return fmt.Sprintf("Diagnosing %s…", c.jobSource.Label)
	case c.Error != "" && c.failed:
		return "Could not diagnose: see the message below."
	case c.cancelled:
		return "Cancelled: the exports were not diagnosed." + c.olderDiagnosis()
	case c.Diagnosis == nil:
		return "Give the container's exports (or try the worked example), its key and its throughput, then Diagnose."
	}
	d := c.Diagnosis
	var read []string
	problems := 0
	for _, e := range d.Inputs {
		read = append(read, fmt.Sprintf("%s %s (%s)", human.Count(int64(e.Records)), recordNoun(e.Kind, e.Records), report.ExportTitle(e.Kind)))
		problems += e.ErrorCount
	}
	msg := fmt.Sprintf("Diagnosed %s in %s: read %s.", c.DiagnosisSource.Label, human.Duration(c.Elapsed), strings.Join(read, ", "))
	if problems > 0 {
		msg += fmt.Sprintf(" %s %s not used: see below.", human.Count(int64(problems)), human.Plural(int64(problems), "problem", "problems"))
	}
	return msg
}

func recordNoun(kind string, n int) string {
	switch kind {
	case report.ExportRanges:
		return human.Plural(int64(n), "range", "ranges")
	case report.ExportMetrics:
		return human.Plural(int64(n), "point", "points")
	case report.ExportDocuments:
		return human.Plural(int64(n), "document", "documents")
	}
	return human.Plural(int64(n), "row", "rows")
}

// InputProblems are, for each export with rows that could not be used,
// a heading and the problems, each with its line: the rest of the export
// was read.
func (c *Root) InputProblems() []Problems {
	var out []Problems
	for _, e := range c.Diagnosis.Inputs {
		if e.ErrorCount == 0 {
			continue
		}
		p := Problems{Title: fmt.Sprintf("%s %s in %s, the %s (the rest of it was read)", human.Count(int64(e.ErrorCount)),
			human.Plural(int64(e.ErrorCount), "problem", "problems"), e.Name, report.ExportTitle(e.Kind))}
		for _, x := range e.Errors {
			p.Lines = append(p.Lines, ExportProblemText(x))
		}
		if n := e.ErrorCount - len(e.Errors); n > 0 {
			p.Lines = append(p.Lines, fmt.Sprintf("and %s more", human.Count(int64(n))))
		}
		out = append(out, p)
	}
	return out
}

// ExportProblemText is a problem of an export with its place, as pkcalc
// diagnose writes it: line 3 (row 2): column RequestCharge: "ten" is not
// a number. A row's problem has a line and no column.
func ExportProblemText(p report.Problem) string {
	if p.Line == 0 || p.Column > 0 {
		return p.String()
	}
	if row, rest, ok := strings.Cut(p.Message, ": "); ok && strings.HasPrefix(row, "row ") {
		return fmt.Sprintf("line %d (%s): %s", p.Line, row, rest)
	}
	return fmt.Sprintf("line %d: %s", p.Line, p.Message)
}

// Problems are the problems of one export.
type Problems struct {
	Title string
	Lines []string
}

// ExportDiagnosis downloads the diagnosis as JSON, Markdown or text.
func (c *Root) ExportDiagnosis(format string) {
	if c.Diagnosis == nil {
		return
	}
	var b bytes.Buffer
	name, mime := "pkcalc-diagnosis.json", "application/json"
	switch format {
	case "markdown":
		report.WriteDiagnosisMarkdown(&b, c.Diagnosis)
		name, mime = "pkcalc-diagnosis.md", "text/markdown"
	case "text":
		report.WriteDiagnosisText(&b, c.Diagnosis)
		name, mime = "pkcalc-diagnosis.txt", "text/plain"
	default:
		report.WriteDiagnosisJSON(&b, c.Diagnosis)
	}
	c.download(name, mime, b.String())
}

// CopyAction puts an action's commands on the clipboard.
func (c *Root) CopyAction(i int) {
	if c.Diagnosis == nil || i < 0 || i >= len(c.Diagnosis.Actions) {
		return
	}
	if c.Page != nil {
		c.Page.Copy(CommandsText(c.Diagnosis.Actions[i]))
	}
	c.Notice = "The commands of " + ActionTitle(c.Diagnosis.Actions[i]) + " are on the clipboard."
}

// DiagnoseSlots are the slots, for the form.
func (c *Root) DiagnoseSlots() []Slot { return Slots }

// slotNames are the slots' names.
func slotNames() []string {
	var out []string
	for _, s := range Slots {
		out = append(out, s.Name)
	}
	return out
}

// IsSlot reports whether name is a slot's.
func IsSlot(name string) bool { return slices.Contains(slotNames(), name) }
