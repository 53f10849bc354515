package ui

import (
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/options"
	"github.com/pkcalc/pkcalc/core/paths"
)

// Settings is the form, as text: what people type, checked by
// options.Parse when the analysis starts. Every option the page takes
// (options.Page) has its field here, by its name.
type Settings struct {
	Keys   []string          // the keys named, in order
	Fields map[string]string // every other option as typed; a ticked checkbox is "true"
}

// Get is the text of the named field.
func (s Settings) Get(name string) string { return s.Fields[name] }

// On reports whether the named checkbox is ticked.
func (s Settings) On(name string) bool { return s.Fields[name] == "true" }

// Set sets the named field; names that are not the page's options are
// ignored. An empty field or an unticked box is no entry, so that equal
// settings compare equal.
func (s *Settings) Set(name, value string) {
	o, ok := options.Lookup(name)
	switch {
	case !ok || o.In&options.Page == 0 || o.Kind == options.Keys:
		return
	case value == "" || o.Kind == options.Bool && value != "true":
		if delete(s.Fields, name); len(s.Fields) == 0 {
			s.Fields = nil
		}
		return
	}
	if s.Fields == nil {
		s.Fields = map[string]string{}
	}
	s.Fields[name] = value
}

// Params returns the settings as the engine's options: the fields not
// left empty, trimmed, and the checkboxes ticked.
func (s Settings) Params() url.Values {
	v := url.Values{}
	if len(s.Keys) > 0 {
		v["keys"] = slices.Clone(s.Keys)
	}
	for _, o := range options.All {
		if value := strings.TrimSpace(s.Fields[o.Name]); value != "" && o.In&options.Page != 0 && (o.Kind != options.Bool || value == "true") {
			v.Set(o.Name, value)
		}
	}
	return v
}

// SettingsFrom reads settings back from the address, ignoring what it does
// not know and keys that do not read: a link reproduces the setup of an
// analysis.
func SettingsFrom(query string) Settings {
	v, _ := url.ParseQuery(strings.TrimPrefix(query, "#"))
	var s Settings
	for _, k := range v["keys"] {
		if _, err := key.Parse(k); err == nil {
			s.Keys = append(s.Keys, k)
		}
	}
	for name := range v {
		s.Set(name, v.Get(name))
	}
	return s
}

// FieldName names a setting in a message as the form labels it, so that
// the message says which field to fix ("Throughput (RU/s)", not "ru").
func FieldName(option string) string { return options.Page.Name(option) }

// Label is the form's label of a setting.
func Label(option string) string {
	o, _ := options.Lookup(option)
	return o.Label
}

// SetField updates a text setting as it is typed.
func (c *Root) SetField(name, value string) { c.Settings.Set(name, value) }

// SetCheck updates a checkbox setting.
func (c *Root) SetCheck(name string, on bool) {
	c.Settings.Set(name, strconv.FormatBool(on))
}

// KeyDown adds the typed key on Enter.
func (c *Root) KeyDown(k string) {
	if k == "Enter" {
		c.AddKey()
	}
}

// Builder composes a synthetic key from up to three terms.
type Builder struct {
	Paths [3]string // Cosmos DB paths; "" for an unused term
	Kinds [3]string // "", "hour", "day", "month" or "hash"
	N     string    // buckets of a hash suffix
}

// Spec is the key the builder describes, or "" while incomplete.
func (b Builder) Spec() string {
	n, err := strconv.Atoi(strings.TrimSpace(b.N))
	if err != nil || n < 2 {
		n = 8
	}
	var terms []string
	for i, p := range b.Paths {
		if p == "" {
			continue
		}
		switch k := b.Kinds[i]; k {
		case "hour", "day", "month":
			terms = append(terms, p+":"+k)
		case "hash":
			terms = append(terms, "hash("+p+")%"+strconv.Itoa(n))
		default:
			terms = append(terms, p)
		}
	}
	return strings.Join(terms, "+") // one plain term is a plain hash key
}

// TermID is the element id of a builder control.
func TermID(part string, i int) string { return "term-" + part + "-" + strconv.Itoa(i) }

// TermLabel names a builder term.
func (c *Root) TermLabel(i int) string { return "Part " + strconv.Itoa(i+1) }

// TermNone is the label of an unused term.
func (c *Root) TermNone(i int) string {
	if i == 0 {
		return "choose a path"
	}
	return "(none)"
}

// SetTerm changes a builder term.
func (c *Root) SetTerm(i int, what, value string) {
	if what == "path" {
		c.Builder.Paths[i] = value
	} else {
		c.Builder.Kinds[i] = value
	}
}

// AddBuilt adds the built synthetic key.
func (c *Root) AddBuilt() {
	c.KeyBox = c.Builder.Spec()
	c.AddKey()
}

// PathChoices are the paths a key can use, from the last report: the
// usable ones, and /_ts for a time bucket of the write (key.Parse refuses
// it anywhere else).
func (c *Root) PathChoices() []string {
	if c.Report == nil {
		return nil
	}
	var out []string
	for _, p := range c.Report.Paths {
		if _, err := paths.Parse(p.Path); err == nil && !strings.Contains(p.Path, "[]") && (p.Usable || p.Path == "/_ts") {
			out = append(out, p.Path)
		}
	}
	return out
}

// The settings fold away once there are results, so that the answer comes
// first: a line says what they are, and a button opens them. Before any
// analysis they are open, as the question is asked there.

// SettingsOpen reports whether the form shows: before results, or when
// opened.
func (c *Root) SettingsOpen() bool { return c.Report == nil || c.ShowSettings }

// SettingsExpanded is the toggle's aria-expanded.
func (c *Root) SettingsExpanded() string { return strconv.FormatBool(c.SettingsOpen()) }

// SettingsToggleText is the toggle's label.
func (c *Root) SettingsToggleText() string {
	if c.SettingsOpen() {
		return "Hide the settings"
	}
	return "Change the settings"
}

// ToggleSettings opens or folds the form.
func (c *Root) ToggleSettings() { c.ShowSettings = !c.SettingsOpen() }

// ChangeSetting opens the form on the field of an option, for a link that
// asks for it ("give the expected size").
func (c *Root) ChangeSetting(id string) {
	c.ShowSettings = true
	c.focus = id
}

// TrafficChoices are the choices of how requests spread over key values,
// as the form words them ("" is the default, by documents).
var TrafficChoices = []struct{ Value, Text string }{
	{"", "in proportion to its documents"},
	{options.Uniform, "the same for every value"},
	{options.ByWeight, "by the weight field"},
}

// SettingsSummary says in a line what the form holds, for when it is
// folded: the throughput, the size, the requests and the keys, then any
// other field set, by its label.
func (c *Root) SettingsSummary() string {
	s := c.Settings
	num := func(name string) string {
		v := strings.TrimSpace(s.Get(name))
		if f, err := strconv.ParseFloat(v, 64); err == nil && f == math.Trunc(f) && math.Abs(f) < 1e15 {
			return human.Count(int64(f))
		}
		return v
	}
	set := func(name string) bool { return strings.TrimSpace(s.Get(name)) != "" }
	used := map[string]bool{}
	use := func(names ...string) {
		for _, n := range names {
			used[n] = true
		}
	}

	throughput := "the least the service allows"
	if set("ru") {
		throughput = num("ru") + " RU/s"
	}
	if s.On("autoscale") {
		throughput += ", autoscale"
	}
	use("ru", "autoscale")

	size := "the sample's"
	switch {
	case set("targetGb"):
		size = num("targetGb") + " GB"
	case set("targetDocs"):
		size = num("targetDocs") + " documents"
	case set("growthGbPerDay") && set("retentionDays"):
		size = num("growthGbPerDay") + " GB a day, kept " + num("retentionDays") + " days"
	}
	use("targetGb", "targetDocs", "growthGbPerDay", "retentionDays")

	var requests []string
	for _, r := range []struct{ name, unit string }{{"readsPerSecond", "point reads"}, {"writesPerSecond", "writes"}, {"queriesPerSecond", "queries"}} {
		if set(r.name) {
			requests = append(requests, num(r.name)+" "+r.unit+" a second")
		}
	}
	if q := strings.TrimSpace(s.Get("queries")); q != "" {
		n := len(strings.Split(q, "\n"))
		requests = append(requests, human.Count(int64(n))+" "+human.Plural(int64(n), "line", "lines")+" of queries and operations")
	}
	use("readsPerSecond", "writesPerSecond", "queriesPerSecond", "queries")
	if len(requests) == 0 {
		requests = []string{"none given"}
	}

	keys := "suggested"
	if len(s.Keys) > 0 {
		keys = "suggested and " + strings.Join(s.Keys, "; ")
		if s.On("noSuggest") {
			keys = strings.Join(s.Keys, "; ")
		}
	}
	use("noSuggest")

	out := "Throughput: " + throughput + " · Size: " + size + " · Requests: " + strings.Join(requests, ", ") + " · Keys: " + keys
	var also []string
	for _, o := range options.All {
		if used[o.Name] || o.In&options.Page == 0 || o.Kind == options.Keys || !set(o.Name) {
			continue
		}
		v := s.Get(o.Name)
		if o.Kind == options.Count || o.Kind == options.Number {
			v = num(o.Name)
		}
		for _, t := range TrafficChoices {
			if o.Name == "traffic" && (t.Value == v || v == options.ByDocuments && t.Value == "") {
				v = t.Text
			}
		}
		if o.Kind == options.Bool {
			v = ""
		}
		also = append(also, strings.TrimSpace(o.Label+" "+v))
	}
	if len(also) > 0 {
		out += " · Also: " + strings.Join(also, ", ")
	}
	return out + "."
}
