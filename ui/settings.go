package ui

import (
	"strconv"
	"strings"

	"github.com/pkcalc/pkcalc/core/paths"
)

// SetField updates a text setting as it is typed.
func (c *Root) SetField(name, value string) {
	s := &c.Settings
	switch name {
	case "ru":
		s.RU = value
	case "targetGb":
		s.TargetGB = value
	case "targetDocs":
		s.TargetDocs = value
	case "growthGbPerDay":
		s.GrowthGB = value
	case "retentionDays":
		s.Retention = value
	case "reads":
		s.Reads = value
	case "writes":
		s.Writes = value
	case "queries":
		s.Queries = value
	case "readRu":
		s.ReadRU = value
	case "writeRu":
		s.WriteRU = value
	case "queryRu":
		s.QueryRU = value
	case "maxDistinct":
		s.MaxDistinct = value
	case "docBytes":
		s.DocBytes = value
	case "traffic":
		s.Traffic = value
	case "weightField":
		s.WeightField = value
	case "partitions":
		s.Partitions = value
	case "hashVersion":
		s.HashVersion = value
	case "timeField":
		s.TimeField = value
	case "workload":
		s.Workload = value
	}
}

// SetCheck updates a checkbox setting.
func (c *Root) SetCheck(name string, on bool) {
	switch name {
	case "autoscale":
		c.Settings.Autoscale = on
	case "noSuggest":
		c.Settings.NoSuggest = on
	case "aggregates":
		c.Settings.Aggregates = on
	}
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
