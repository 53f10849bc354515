// Package ui presents pkcalc: Vugu components that show what the engine
// computes and collect what it needs. It holds no analysis of its own and
// touches no browser API directly: wasm/page gives it a Page that does.
package ui

// The components' Build methods (*_gen.go) are generated from the .vugu
// files and committed, so that the go command alone builds and vets the
// package; TestGenerated fails when they are stale.
//
//go:generate go tool vugugen -skip-go-mod .
//go:generate gofmt -w .

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/options"
	"github.com/pkcalc/pkcalc/core/report"
	"github.com/pkcalc/pkcalc/core/sample"
)

// Page is the browser, as the page wiring provides it. Documents stay in
// the DOM and in File objects, not in component state, so that megabytes
// of input do not travel through every render.
type Page interface {
	SetText(string)                                    // fill the paste area
	Analyze(job int, source Source, params url.Values) // start analysis job; its result comes back through Root.Progressed and Root.Finished
	Cancel()
	Download(name, mimeType, content string)
	Copy(text string)         // on failure, the page calls Root.CopyFailed
	SetSettings(query string) // keep the settings (never the documents; a built-in sample by name) in the address, as Address says

	// The diagnose mode: SetExport fills a slot's paste area (Slots), and
	// Diagnose hands the slots named, each its paste area's text or the
	// file last picked or dropped on it, to the engine; the answer comes
	// back through Root.Diagnosed.
	SetExport(slot, text string)
	Diagnose(job int, slots []string, params url.Values)
}

// Source says what will be analysed.
type Source struct {
	Kind   string // "paste", "files" or "sample"
	Label  string // for people: "pasted text", "orders.json and 2 more files"
	Bytes  int64  // when known
	Sample string // the built-in sample's id, for Kind "sample"
}

// Progress is the engine's progress report.
type Progress struct {
	Bytes     int64
	Documents int
	Elapsed   float64 // seconds
}

// Root is the page.
type Root struct {
	Page   Page // nil when rendered statically
	Loaded bool // the engine is running (false in a static render)

	// Mode is the way in: documents for a new container's key
	// (ModeDocuments), or a live container's exports (ModeDiagnose), with
	// its form and the diagnosis shown.
	Mode            string
	Diagnose        DiagnoseForm
	Diagnosis       *report.Diagnosis
	DiagnosisSource Source // what the diagnosis shown was made from

	Settings Settings
	KeyBox   string // the key being typed
	KeyError string
	Builder  Builder

	Source    Source
	Running   bool
	Progress  Progress
	job       int    // the analysis whose results are awaited; answers to older ones are dropped
	jobSource Source // what that analysis reads
	jobParams string // ... and with which settings
	failed    bool   // the last analysis failed: the results shown are older
	cancelled bool   // the last analysis was cancelled: the results shown are older
	Error     string
	started   time.Time

	Report       *report.Report
	ReportSource Source        // what the report shown was made from
	reportParams string        // ... and with which settings
	Elapsed      time.Duration // how long the report shown took
	Selected     string        // spec of the candidate shown in detail
	Compared     []string      // specs ticked for side-by-side comparison
	SortBy       string
	SortAsc      bool
	Snippet      string // id of the provisioning snippet shown
	Notice       string // a passing message: "Copied", "Downloaded"
	ShowSettings bool   // the settings are open beside results (SettingsOpen)
	ShowAll      bool   // every candidate shows, the weak ones too (Folded)

	focus string // id of the element to focus once rendered, when the focused one goes

	jobReveal reveal // how the answer of the running analysis is brought to the reader
	revealed  reveal // the answer just shown, to bring into view after the render
}

// reveal is how an analysis's answer is brought into view when it comes:
// not at all (typing in the paste area, which analyses as it pauses),
// scrolled to (a paste: the caret stays where it is), or scrolled to with
// the keyboard focus on its heading (a sample, files, the Analyse button).
type reveal int

const (
	revealNone reveal = iota
	revealScroll
	revealFocus
)

// TakeReveal returns, once, what the page brings into view after the
// render that shows an analysis's answer: the id of the element to scroll
// into view, and the id of the one to focus ("" for none). Both are ""
// when nothing is to move. The page scrolls as little as shows the
// element, and in an embedding page's frame not at all.
func (c *Root) TakeReveal() (scroll, focus string) {
	r := c.revealed
	c.revealed = revealNone
	if c.Mode == ModeDiagnose {
		if r == revealNone || c.Diagnosis == nil {
			return "", ""
		}
		if r == revealFocus {
			focus = "diagnosis-title"
		}
		return "diagnosis", focus
	}
	if r == revealNone || c.Report == nil {
		return "", ""
	}
	scroll = "answer"
	if c.Report.Recommended == "" {
		scroll = "no-recommendation"
	}
	if r == revealFocus {
		focus = "verdict-title"
	}
	return scroll, focus
}

// TakeFocus returns the id of the element that should have the keyboard
// focus after the render, once: the page focuses it when an action took
// away or replaced the element that had it. "" when the focus stays.
func (c *Root) TakeFocus() string {
	id := c.focus
	c.focus = ""
	return id
}

// AddressSettings picks the settings of the page's address: those after the
// '#' (the page keeps an analysis's settings there) when there are any,
// else the query's (an embedding page's presets). Never a mix of both: a
// key removed or a setting cleared since the presets would come back.
func AddressSettings(query, hash string) string {
	hash = strings.TrimPrefix(hash, "#")
	if v, _ := url.ParseQuery(hash); slices.ContainsFunc(addressNames, v.Has) {
		return hash
	}
	return strings.TrimPrefix(query, "?") // and a hash that is not settings (an anchor) is left alone
}

// addressNames are the names of the address that AddressSettings and
// SettingsFrom read: the engine's options, the page's own settings, and
// the built-in sample; in the diagnose mode, the mode, its options and
// the worked example.
var addressNames = slices.Concat(options.Names(options.Page), options.Names(options.DiagnosePage), []string{"sample", "mode", "example"})

// Address is the page's address (from its path on) after an analysis with
// settings, a query as SetSettings gets it: the settings go after the '#',
// and the query keeps only what is not a setting (embed=1), so that the
// presets it held do not come back on reload.
func Address(path, query, settings string) string {
	v, _ := url.ParseQuery(strings.TrimPrefix(query, "?"))
	for _, n := range addressNames {
		v.Del(n)
	}
	if q := v.Encode(); q != "" {
		path += "?" + q
	}
	return path + "#" + settings
}

// Analyse starts an analysis of the current source with the settings; its
// answer is not brought into view (typing in the paste area analyses).
func (c *Root) Analyse() { c.analyse(revealNone) }

// AnalysePasted starts an analysis of the paste area: whole is true when
// its text came in one go (pasted or dropped), whose answer is then
// scrolled into view; typed text is analysed as the typing pauses, and the
// page does not move under it.
func (c *Root) AnalysePasted(whole bool) {
	if whole {
		c.analyse(revealScroll)
		return
	}
	c.analyse(revealNone)
}

func (c *Root) analyse(rv reveal) {
	params := c.Settings.Params()
	if c.Source.Kind == "" {
		c.Source = Source{Kind: "paste", Label: "pasted text"}
	}
	if _, err := options.Parse(params, options.Page); err != nil {
		c.refuse("Check the settings: " + err.Error())
		return
	}
	if c.Running && c.Page != nil {
		// The analysis running is of older input or settings: it would
		// hold the engine while this one waits.
		c.Page.Cancel()
	}
	c.Error, c.Notice = "", ""
	c.Running, c.cancelled = true, false
	c.Progress = Progress{}
	c.started = time.Now()
	c.job++
	c.jobSource, c.jobParams, c.jobReveal = c.Source, params.Encode(), rv
	if c.Page != nil {
		// A built-in sample is named in the address too, so that the link
		// opens it again.
		addr := params
		if c.Source.Sample != "" {
			addr = maps.Clone(params)
			addr.Set("sample", c.Source.Sample)
		}
		c.Page.SetSettings(addr.Encode())
		c.Page.Analyze(c.job, c.Source, params)
	}
}

// refuse says why the settings cannot be analysed. The results shown, if
// any, are of the last analysis and its settings, not of the form's: the
// status says so, as for a failed analysis, and the lists that belong to
// the last analysis alone (its input's problems, the settings it did not
// bear out) go.
func (c *Root) refuse(msg string) {
	c.Error = msg
	if c.Report != nil {
		c.Error += " The results below are from the last analysis, with the settings it had."
	}
	c.failed, c.jobSource = true, c.Source
}

// AnalyseButton is the Analyse button: it starts an analysis unless one is
// running. The button is never disabled (aria-disabled while running), so
// that it keeps the keyboard focus.
func (c *Root) AnalyseButton() {
	if c.Running {
		return
	}
	// A key typed but not added is meant to be measured too.
	if strings.TrimSpace(c.KeyBox) != "" {
		if c.AddKey(); c.KeyError != "" {
			c.focus = "keybox"
			return
		}
	}
	c.analyse(revealFocus)
}

// AnalyseDisabled is the Analyse button's aria-disabled.
func (c *Root) AnalyseDisabled() string {
	if c.Running {
		return "true"
	}
	return "false"
}

// Pasted notes that the paste area changed: it is now the source.
func (c *Root) Pasted(bytes int64) {
	c.Source = Source{Kind: "paste", Label: "pasted text", Bytes: bytes}
}

// FilesChosen notes files picked or dropped: they are now the source.
func (c *Root) FilesChosen(names []string, bytes int64, err string) {
	if err != "" {
		c.Error = err
		return
	}
	label := names[0]
	if len(names) > 1 {
		label = fmt.Sprintf("%s and %d more %s", names[0], len(names)-1, human.Plural(int64(len(names)-1), "file", "files"))
	}
	c.Source = Source{Kind: "files", Label: label, Bytes: bytes}
	c.analyse(revealFocus)
}

// Samples offered by "Try a sample".
var Samples = []struct{ ID, Label string }{
	{"orders", "Orders of a multi-tenant shop"},
	{"telemetry", "Sensor telemetry"},
}

// LoadSample fills the paste area with a built-in sample and analyses it.
func (c *Root) LoadSample(id string) {
	text, label := sample.OrdersText(sample.DefaultOrders), "the built-in sample: orders of a multi-tenant shop"
	if id == "telemetry" {
		text, label = sample.TelemetryText(sample.DefaultTelemetry), "the built-in sample: sensor telemetry"
	} else {
		id = "orders"
	}
	if c.Page != nil {
		c.Page.SetText(text)
	}
	c.Source = Source{Kind: "sample", Label: label, Bytes: int64(len(text)), Sample: id}
	c.analyse(revealFocus)
}

// Clear empties the paste area and the results, and stops the analysis
// that is running: its results would otherwise come after the clearing.
func (c *Root) Clear() {
	if c.Running {
		if c.Page != nil {
			c.Page.Cancel()
		}
		c.Running = false
		c.job++ // whatever comes back now is stale
		c.focus = "clear"
	}
	if c.Page != nil {
		c.Page.SetText("")
		if c.Source.Sample != "" || c.ReportSource.Sample != "" {
			c.Page.SetSettings(c.Settings.Params().Encode()) // the sample is no longer what a reload should open
		}
	}
	c.Source, c.Report, c.ReportSource, c.Error, c.Notice, c.Selected, c.Compared = Source{}, nil, Source{}, "", "", "", nil
	c.failed, c.cancelled, c.Progress = false, false, Progress{}
}

// Cancel stops the running analysis. The status line then says so, and
// what the results still shown were made from.
func (c *Root) Cancel() {
	if c.Page != nil && c.Running {
		c.Page.Cancel()
	}
	c.Running, c.cancelled = false, true
	c.job++             // whatever comes back now is stale
	c.focus = "analyse" // the Cancel button goes with the running analysis
	if c.Mode == ModeDiagnose {
		c.focus = "diagnose"
	}
}

// Progressed records the engine's progress on a job.
func (c *Root) Progressed(job int, p Progress) {
	if job == c.job {
		c.Progress = p
	}
}

// Finished takes the engine's answer to a job: the report's JSON text, or
// an error. An answer to a job since replaced is dropped.
func (c *Root) Finished(job int, reportJSON string, err string) {
	if job != c.job {
		return
	}
	c.Running = false
	c.failed = err != ""
	if err != "" {
		c.Error = err + c.Older()
		return
	}
	var r report.Report
	if e := json.Unmarshal([]byte(reportJSON), &r); e != nil {
		c.failed = true
		c.Error = "The engine's report could not be read: " + e.Error() + c.Older()
		return
	}
	// The keys ticked for comparison, and the one shown in detail when it
	// was picked rather than recommended, stay if the new report has them:
	// changing a setting and analysing again does not lose them.
	has := func(spec string) bool {
		return slices.ContainsFunc(r.Candidates, func(x report.Candidate) bool { return x.Key.Spec == spec })
	}
	picked := ""
	if c.Report != nil && c.Selected != c.Report.Recommended {
		picked = c.Selected
	}
	// Settings changed while the analysis ran are being edited: the form
	// stays open and the answer does not take the page or the focus from
	// them. Otherwise the answer comes first (SettingsOpen, TakeReveal).
	if c.Settings.Params().Encode() != c.jobParams {
		c.ShowSettings = true
	} else {
		c.revealed = c.jobReveal
	}
	c.Report, c.ReportSource, c.reportParams, c.Elapsed = &r, c.jobSource, c.jobParams, time.Since(c.started)
	c.Compared = slices.DeleteFunc(c.Compared, func(spec string) bool { return !has(spec) })
	switch {
	case picked != "" && has(picked):
		c.Selected = picked
	case has(r.Recommended):
		c.Selected = r.Recommended
	case len(r.Candidates) > 0:
		c.Selected = r.Candidates[0].Key.Spec
	default:
		c.Selected = ""
	}
}

// Older says where the results still shown come from, when the last
// analysis gave none.
func (c *Root) Older() string {
	if c.Report == nil {
		return ""
	}
	return " The results below are from " + c.ReportSource.Label + "."
}

// Current tells whether the report shown is of the last analysis, not
// older: the lists of problems in its input show only then, lest they
// be taken for another input's.
func (c *Root) Current() bool {
	return c.Report != nil && !c.failed && !c.cancelled
}

// Status is the line under the input.
func (c *Root) Status() string {
	if c.Mode == ModeDiagnose {
		return c.diagnoseStatus()
	}
	switch {
	case !c.Loaded:
		return "Loading the engine…"
	case c.Running:
		p := c.Progress
		rate := ""
		if p.Elapsed > 0.2 {
			rate = fmt.Sprintf(", %s/s", human.Bytes(int64(float64(p.Bytes)/p.Elapsed)))
		}
		of := ""
		if c.Source.Bytes > 0 {
			of = " of " + human.Bytes(c.Source.Bytes)
		}
		return fmt.Sprintf("Analysing %s: %s%s read, %s documents%s…", c.Source.Label, human.Bytes(p.Bytes), of, human.Count(int64(p.Documents)), rate)
	case c.Error != "" && c.failed:
		return "Could not analyse " + c.jobSource.Label + ": see the message below."
	case c.cancelled:
		return "Cancelled: " + c.jobSource.Label + " was not analysed." + c.Older()
	case c.Report == nil:
		return "Paste documents, drop files or try a sample."
	}
	r := c.Report
	msg := fmt.Sprintf("Read %s %s (%s) as %s from %s in %s.", human.Count(r.Documents), human.Plural(r.Documents, "document", "documents"),
		human.Bytes(r.Bytes), r.Input.Format, c.ReportSource.Label, human.Duration(c.Elapsed))
	if n := r.Input.ErrorCount; n > 0 {
		msg += fmt.Sprintf(" %d %s: see below.", n, human.Plural(int64(n), "problem", "problems"))
	}
	if o := r.Operations; o != nil {
		msg += fmt.Sprintf(" %s %s of the workload", human.Count(int64(o.Count)), human.Plural(int64(o.Count), "operation", "operations"))
		if len(o.Errors) > 0 {
			msg += fmt.Sprintf(", %d unreadable: see below", len(o.Errors))
		}
		msg += "."
	}
	if c.SettingsChanged() {
		msg += " The settings have changed since: Analyse to update the results."
	}
	return msg
}

// SettingsChanged tells whether the form's settings differ from those of
// the results shown, which then answer another question than the form
// asks.
func (c *Root) SettingsChanged() bool {
	return c.Report != nil && c.Settings.Params().Encode() != c.reportParams
}

// ProgressValue is the share read, for the progress bar (0 when unknown).
func (c *Root) ProgressValue() float64 {
	if c.Source.Bytes <= 0 {
		return 0
	}
	return min(1, float64(c.Progress.Bytes)/float64(c.Source.Bytes))
}

// ErrorsTitle heads the list of problems in the input.
func (c *Root) ErrorsTitle() string {
	n := c.Report.Input.ErrorCount
	return fmt.Sprintf("%d %s in the input (the documents before and after each were kept where possible)", n, human.Plural(int64(n), "problem", "problems"))
}

// WarningsTitle heads the list of notes on the input read: values read
// with a change, and a CSV header's renamed columns.
func (c *Root) WarningsTitle() string {
	n := c.Report.Input.Notes
	return fmt.Sprintf("%d %s on how the input was read (the documents were kept)", n, human.Plural(int64(n), "note", "notes"))
}

// NoticesTitle heads the report's warnings by what they are about, in the
// order they come: settings the documents did not bear out, documents whose
// id Cosmos DB would refuse, the documents the candidates come from, the
// throughput and the target, the queries no key can serve.
func (c *Root) NoticesTitle() string {
	var parts []string
	for _, w := range c.Report.Warnings {
		about := "settings the documents did not bear out"
		switch w.Code {
		case report.IDRules:
			about = "documents Cosmos DB would refuse for their id"
		case report.WindowPartial, report.WindowSorted:
			about = "the documents the candidates come from"
		case report.Underprovisioned, report.FarProjection, report.GrownValues:
			about = "the throughput and the target"
		case report.UnservableOperation:
			about = "queries no key can serve"
		case report.KeyInArray, report.KeyNotFound:
			about = "the keys named"
		}
		if !slices.Contains(parts, about) {
			parts = append(parts, about)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	title := strings.Join(parts, "; ")
	return strings.ToUpper(title[:1]) + title[1:]
}

// QueryErrorsTitle heads the list of the lines of the queries that could not be read.
func (c *Root) QueryErrorsTitle() string {
	return fmt.Sprintf("Queries not read (%d)", len(c.Report.Operations.Errors))
}

// ProblemText is one problem, positioned.
func ProblemText(p report.Problem) string { return p.String() }

// AddKey adds the key in the key box to the keys to measure.
func (c *Root) AddKey() {
	spec := strings.TrimSpace(c.KeyBox)
	k, err := key.Parse(spec)
	if err != nil {
		c.KeyError = err.Error()
		return
	}
	c.KeyError = ""
	if !slices.Contains(c.Settings.Keys, k.String()) {
		c.Settings.Keys = append(c.Settings.Keys, k.String())
	}
	c.KeyBox = ""
}

// RemoveKey drops a named key. Its remove button goes with it: the focus
// moves to the next key's (else the previous key's, else the key box).
func (c *Root) RemoveKey(spec string) {
	i := slices.Index(c.Settings.Keys, spec)
	if i < 0 {
		return
	}
	c.Settings.Keys = slices.Delete(c.Settings.Keys, i, i+1)
	switch n := len(c.Settings.Keys); {
	case n == 0:
		c.focus = "keybox"
	case i < n:
		c.focus = RemoveID(i)
	default:
		c.focus = RemoveID(n - 1)
	}
}

// RemoveID is the id of the remove button of the i-th key.
func RemoveID(i int) string { return "remove-key-" + strconv.Itoa(i) }
