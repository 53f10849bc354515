// Package ui presents pkcalc: Vugu components that show what the core
// computes. It holds no analysis of its own and touches no browser API
// directly; wasm wires it to the page.
package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/pkcalc/pkcalc/core/paths"
	"github.com/pkcalc/pkcalc/core/sample"
)

// TextInput is the paste area, as the page wiring provides it. Its text is
// kept in the DOM, not in component state, so that megabytes of pasted
// documents do not travel through every render.
type TextInput interface {
	SetText(string)
}

// Root is the page.
type Root struct {
	Input TextInput // nil when rendered statically

	Summary   *paths.Summary
	ReadError string // a failure of the input itself, not of its JSON
	Elapsed   time.Duration
	Loaded    bool // the engine is running (false in a static render)
	source    string
}

// Analyse reads text as documents and shows what it holds.
func (c *Root) Analyse(text string, source string) {
	c.source = source
	if strings.TrimSpace(text) == "" {
		c.Summary, c.ReadError = nil, ""
		return
	}
	start := time.Now()
	s, err := paths.Discover(strings.NewReader(text), paths.Options{})
	c.Elapsed = time.Since(start)
	c.Summary = s
	c.ReadError = ""
	if err != nil {
		c.ReadError = err.Error()
	}
}

// LoadSample fills the paste area with the built-in orders and analyses them.
func (c *Root) LoadSample() {
	text := sample.OrdersText(sample.DefaultOrders)
	if c.Input != nil {
		c.Input.SetText(text)
	}
	c.Analyse(text, "the built-in sample: orders of a multi-tenant shop")
}

// Clear empties the paste area and the results.
func (c *Root) Clear() {
	if c.Input != nil {
		c.Input.SetText("")
	}
	c.Analyse("", "")
}

// Status is the one line under the paste area.
func (c *Root) Status() string {
	switch {
	case !c.Loaded:
		return "Loading the engine…"
	case c.ReadError != "":
		return "Could not read the input: " + c.ReadError
	case c.Summary == nil:
		return "Paste documents or try the sample."
	}
	s := c.Summary
	msg := fmt.Sprintf("Read %s %s (%s) as %s", Count(s.Documents), plural(s.Documents, "document", "documents"), Bytes(s.Bytes), s.Format)
	if c.source != "" {
		msg += " from " + c.source
	}
	msg += fmt.Sprintf(" in %s.", Duration(c.Elapsed))
	if len(s.Errors) > 0 {
		msg += fmt.Sprintf(" %d %s: see below.", len(s.Errors), plural(len(s.Errors), "problem", "problems"))
	}
	return msg
}

// ErrorsTitle heads the list of problems that skipped input.
func (c *Root) ErrorsTitle() string {
	n := len(c.Summary.Errors)
	return fmt.Sprintf("%d %s in the input (the documents before each were kept)", n, plural(n, "problem", "problems"))
}

// NotesTitle heads the list of values that were read with a change.
func (c *Root) NotesTitle() string {
	n := len(c.Summary.Notes)
	return fmt.Sprintf("%d %s read with a change", n, plural(n, "value", "values"))
}
