// Package provision writes the commands and code that create an Azure Cosmos
// DB for NoSQL container with a chosen partition key: Azure CLI, PowerShell,
// Bicep, an ARM template, Terraform (azurerm), and the .NET, Java, Python,
// JavaScript and Go SDKs, with manual, autoscale or no dedicated throughput.
//
// A hash key is the container's key as it is. A hierarchical key is a
// MultiHash key, which needs hash version 2. A synthetic key is a value the
// application computes and stores: the container is partitioned on the
// property /partitionKey ([SyntheticPath]), and every SDK snippet carries a
// function that computes that value from a document exactly as
// key.Spec.Extract does, so the key pkcalc scored is the key stored.
//
// Every name, path and value taken from the caller is written as an escaped
// string literal of the target language (shell, PowerShell, Bicep, JSON, HCL,
// C#, Java, Python, JavaScript, Go), never as code; comments show them with
// line breaks removed. The package does not run anything, talk to Azure, or
// check that names satisfy Azure's naming rules, and it does not create the
// account or the database: they must exist.
package provision

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
)

// SyntheticPath is the property a container with a synthetic key is
// partitioned on; the application stores the computed key there.
const SyntheticPath = "/partitionKey"

// APIVersion is the Microsoft.DocumentDB Resource Manager API version of the
// Bicep, ARM and az rest snippets: a current stable version, present both in
// azure-rest-api-specs (specification/cosmos-db/.../stable/2025-04-15) and in
// the Bicep/ARM template reference.
const APIVersion = "2025-04-15"

// Container says where the container goes and how it is provisioned.
type Container struct {
	Account, ResourceGroup, Database, Name string // defaults: "<account>", "<resource-group>", "appdb", "items"
	RU                                     int    // 0: omit throughput (serverless or shared)
	Autoscale                              bool   // RU is the autoscale maximum
	// RaiseTo is the throughput to raise RU to once the data is loaded,
	// when the container must be created with less than it needs (so that
	// it starts with fewer physical partitions); 0 when it is not.
	RaiseTo int
}

// Snippet is one way to create the container.
type Snippet struct {
	ID    string // stable: "azure-cli", "powershell", "bicep", "arm", "terraform", "dotnet", "java", "python", "javascript", "go"
	Title string // "Azure CLI", ...
	Lang  string // for syntax hints: "bash", "powershell", "bicep", "json", "hcl", "csharp", "java", "python", "javascript", "go"
	Code  string
}

// Snippets returns the snippets that create c with the key spec under hash
// version v, in the order of IDs. A hierarchical key always gets version
// 2, which MultiHash requires; any v other than V1 is taken as V2. For a
// synthetic key the container's key is [SyntheticPath] and each SDK
// snippet also includes a function that computes the synthetic value from
// a document as key.Spec.Extract does. Snippets returns nil for a spec with
// no paths.
func Snippets(spec key.Spec, v epk.Version, c Container) []Snippet {
	p, ok := newPlan(spec, v, c)
	if !ok {
		return nil
	}
	out := make([]Snippet, len(writers))
	for i, w := range writers {
		out[i] = Snippet{w.id, w.title, w.lang, w.write(p)}
	}
	return out
}

// IDs are the snippets' Snippet.ID, in the order Snippets returns them.
func IDs() []string {
	ids := make([]string, len(writers))
	for i, w := range writers {
		ids[i] = w.id
	}
	return ids
}

// writers are the snippets, each written from a plan.
var writers = []struct {
	id, title, lang string
	write           func(plan) string
}{
	{"azure-cli", "Azure CLI", "bash", azureCLI},
	{"powershell", "PowerShell", "powershell", powerShell},
	{"bicep", "Bicep", "bicep", bicep},
	{"arm", "ARM template", "json", arm},
	{"terraform", "Terraform", "hcl", terraform},
	{"dotnet", ".NET", "csharp", dotnet},
	{"java", "Java", "java", java},
	{"python", "Python", "python", python},
	{"javascript", "JavaScript", "javascript", javascript},
	{"go", "Go", "go", goSDK},
}

// plan is what every snippet needs, with the defaults applied.
type plan struct {
	c       Container
	spec    key.Spec
	kind    string   // "Hash" or "MultiHash"
	paths   []string // the container's key paths in Cosmos DB syntax
	version int      // 1 or 2
}

func newPlan(spec key.Spec, v epk.Version, c Container) (plan, bool) {
	if len(spec.Paths) == 0 || spec.Kind == key.Synthetic && len(spec.Terms) == 0 {
		return plan{}, false
	}
	c.Account = orDefault(c.Account, "<account>")
	c.ResourceGroup = orDefault(c.ResourceGroup, "<resource-group>")
	c.Database = orDefault(c.Database, "appdb")
	c.Name = orDefault(c.Name, "items")
	if c.RU < 0 {
		c.RU = 0
	}
	if c.RU == 0 || c.RaiseTo <= c.RU {
		c.RaiseTo = 0
	}
	p := plan{c: c, spec: spec, kind: "Hash", paths: spec.PathStrings(), version: 2}
	if v == epk.V1 {
		p.version = 1
	}
	switch spec.Kind {
	case key.MultiHash:
		p.kind, p.version = "MultiHash", 2
	case key.Synthetic:
		p.paths = []string{SyntheticPath}
	}
	return p, true
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (p plan) synthetic() bool { return p.spec.Kind == key.Synthetic }
func (p plan) manual() bool    { return p.c.RU > 0 && !p.c.Autoscale }
func (p plan) autoscale() bool { return p.c.RU > 0 && p.c.Autoscale }

// summary describes the container in one line for a comment; callers pass it
// through comment before writing it.
func (p plan) summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "partition key %s (%s, hash version %d)", strings.Join(p.paths, ", "), p.kind, p.version)
	switch {
	case p.manual():
		fmt.Fprintf(&b, ", %d RU/s manual throughput", p.c.RU)
	case p.autoscale():
		fmt.Fprintf(&b, ", autoscale up to %d RU/s", p.c.RU)
	default:
		b.WriteString(", no dedicated throughput (serverless account or shared database throughput)")
	}
	return b.String()
}

// raiseNote says to raise the throughput after loading, and why.
func (p plan) raiseNote() string {
	what := "the throughput"
	if p.autoscale() {
		what = "the autoscale maximum"
	}
	return fmt.Sprintf("Load the data first, then raise %s to %d RU/s: created with %d RU/s, the container would start with more physical partitions, split evenly rather than where the data is.",
		what, p.c.RaiseTo, p.c.RaiseTo)
}

// syntheticNote explains where a synthetic key lives, for a comment.
func (p plan) syntheticNote() string {
	return "Synthetic key " + p.spec.String() + ": the application computes it and stores it in " + SyntheticPath +
		" of every item (the SDK snippets include the function)."
}

// comment makes s safe inside a line comment of any target language: line
// breaks of any of them (and other control characters) become spaces, and
// invalid UTF-8 becomes U+FFFD.
func comment(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// validUTF8 replaces invalid bytes: no target language can write them in a
// string literal, and Azure stores names and paths as Unicode text.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
