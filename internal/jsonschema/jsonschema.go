// Package jsonschema checks JSON documents against the subset of JSON
// Schema (draft 2020-12) pkcalc's contracts use (docs/report.schema.json,
// docs/diagnosis.schema.json), with the standard library, and checks a
// schema against the Go type it describes. A keyword outside that subset
// fails the schema rather than going unchecked. It is for tests.
package jsonschema

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// keywords are the keywords the checker understands; the first line
// are annotations it reads past.
var keywords = map[string]bool{
	"$schema": true, "$id": true, "$defs": true, "title": true, "description": true,
	"$ref": true, "type": true, "enum": true, "properties": true, "required": true,
	"additionalProperties": true, "items": true, "minimum": true, "maximum": true, "pattern": true,
	"anyOf": true,
}

type Checker struct {
	root  map[string]any
	props map[string]bool // schema locations of every property, as "#/$defs/X/properties/y"
	seen  map[string]bool // the locations an instance has used
}

func Load(file string) (*Checker, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var root map[string]any
	if err := json.Unmarshal(b, &root); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	c := &Checker{root: root, props: map[string]bool{}, seen: map[string]bool{}}
	if err := c.lint(root, "#"); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	return c, nil
}

// lint checks the schema itself: known keywords only, resolvable $refs,
// closed objects, and a type (or $ref) and description on every property.
func (c *Checker) lint(s map[string]any, at string) error {
	for k := range s {
		if !keywords[k] {
			return fmt.Errorf("%s: keyword %q is outside what internal/jsonschema checks", at, k)
		}
	}
	if ref, ok := s["$ref"].(string); ok {
		if _, err := c.resolve(ref); err != nil {
			return fmt.Errorf("%s: %v", at, err)
		}
	}
	if p, ok := s["pattern"].(string); ok {
		if _, err := regexp.Compile(p); err != nil {
			return fmt.Errorf("%s: %v", at, err)
		}
	}
	if ap, ok := s["additionalProperties"]; ok && ap != false {
		return fmt.Errorf("%s: additionalProperties must be false", at)
	}
	if props, ok := s["properties"].(map[string]any); ok {
		if s["additionalProperties"] != false {
			return fmt.Errorf("%s: an object with properties must have additionalProperties: false", at)
		}
		for _, r := range list(s["required"]) {
			if _, ok := props[r.(string)]; !ok {
				return fmt.Errorf("%s: required %q is not a property", at, r)
			}
		}
		for _, name := range sortedKeys(props) {
			ps, loc := props[name].(map[string]any), at+"/properties/"+name
			d, _ := ps["description"].(string)
			if d == "" || strings.Contains(d, "\n") {
				return fmt.Errorf("%s: needs a one-line description", loc)
			}
			if ps["type"] == nil && ps["$ref"] == nil {
				return fmt.Errorf("%s: needs a type or a $ref", loc)
			}
			c.props[loc] = true
			if err := c.lint(ps, loc); err != nil {
				return err
			}
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		if err := c.lint(items, at+"/items"); err != nil {
			return err
		}
	}
	for i, b := range list(s["anyOf"]) {
		if err := c.lint(b.(map[string]any), at+"/anyOf/"+strconv.Itoa(i)); err != nil {
			return err
		}
	}
	defs, _ := s["$defs"].(map[string]any)
	for _, name := range sortedKeys(defs) {
		if err := c.lint(defs[name].(map[string]any), at+"/$defs/"+name); err != nil {
			return err
		}
	}
	return nil
}

func (c *Checker) resolve(ref string) (map[string]any, error) {
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	defs, _ := c.root["$defs"].(map[string]any)
	s, found := defs[name].(map[string]any)
	if !ok || !found {
		return nil, fmt.Errorf("$ref %q does not name one of #/$defs", ref)
	}
	return s, nil
}

// at returns the schema node at a location such as "#/$defs/Key/properties/kind".
func (c *Checker) at(loc string) map[string]any {
	s := c.root
	for _, tok := range strings.Split(strings.TrimPrefix(loc, "#/"), "/") {
		s, _ = s[tok].(map[string]any)
	}
	return s
}

// validate checks the decoded JSON value v (at JSON pointer ptr) against
// schema s (at location loc), and returns the first mismatch.
func (c *Checker) validate(s map[string]any, loc string, v any, ptr string) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("at %q (schema %s): %s", ptr, loc, fmt.Sprintf(format, args...))
	}
	if ref, ok := s["$ref"].(string); ok {
		target, _ := c.resolve(ref)
		if err := c.validate(target, ref, v, ptr); err != nil {
			return err
		}
	}
	if branches := list(s["anyOf"]); len(branches) > 0 {
		matched, errs := false, []string{}
		for i, b := range branches {
			// Only the branch that matches counts as using its properties.
			outer := c.seen
			c.seen = map[string]bool{}
			err := c.validate(b.(map[string]any), loc+"/anyOf/"+strconv.Itoa(i), v, ptr)
			branch := c.seen
			c.seen = outer
			if err == nil {
				maps.Copy(c.seen, branch)
				matched = true
				break
			}
			errs = append(errs, err.Error())
		}
		if !matched {
			return fail("%s matches none of anyOf: %s", compact(v), strings.Join(errs, "; "))
		}
	}
	if want := types(s); len(want) > 0 && !slices.ContainsFunc(want, func(t string) bool { return hasType(v, t) }) {
		return fail("%s, want %s", jsonType(v), strings.Join(want, " or "))
	}
	if enum, ok := s["enum"]; ok && !slices.ContainsFunc(list(enum), func(e any) bool { return reflect.DeepEqual(e, v) }) {
		return fail("%s is not one of %s", compact(v), compact(enum))
	}
	switch v := v.(type) {
	case float64:
		if m, ok := s["minimum"].(float64); ok && v < m {
			return fail("%v is below the minimum %v", v, m)
		}
		if m, ok := s["maximum"].(float64); ok && v > m {
			return fail("%v is above the maximum %v", v, m)
		}
	case string:
		if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(v) {
			return fail("%q does not match %s", v, p)
		}
	case []any:
		if items, ok := s["items"].(map[string]any); ok {
			for i, e := range v {
				if err := c.validate(items, loc+"/items", e, ptr+"/"+strconv.Itoa(i)); err != nil {
					return err
				}
			}
		}
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		for _, k := range sortedKeys(v) {
			ps, ok := props[k].(map[string]any)
			if !ok {
				if s["additionalProperties"] == false {
					return fail("property %q is not in the schema", k)
				}
				continue
			}
			c.seen[loc+"/properties/"+k] = true
			if err := c.validate(ps, loc+"/properties/"+k, v[k], ptr+"/"+pointerToken(k)); err != nil {
				return err
			}
		}
		for _, r := range list(s["required"]) {
			if _, ok := v[r.(string)]; !ok {
				return fail("required property %q is missing", r)
			}
		}
	}
	return nil
}

// types reads "type": one name or a list of them.
func types(s map[string]any) []string {
	var out []string
	for _, t := range append(list(s["type"]), s["type"]) {
		if t, ok := t.(string); ok {
			out = append(out, t)
		}
	}
	return out
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func hasType(v any, t string) bool {
	if f, ok := v.(float64); ok && t == "integer" {
		return f == math.Trunc(f)
	}
	return jsonType(v) == t
}

func list(v any) []any { s, _ := v.([]any); return s }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func pointerToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func compact(v any) string { b, _ := json.Marshal(v); return string(b) }

// Validate checks the decoded JSON value v against the schema, and
// returns the first mismatch. The properties it uses are remembered for
// Unused.
func (c *Checker) Validate(v any) error { return c.validate(c.root, "#", v, "") }

// Unused are the schema's properties no document validated so far used,
// as locations such as "#/$defs/Key/properties/kind".
func (c *Checker) Unused() []string {
	var out []string
	for _, loc := range sortedKeys(c.props) {
		if !c.seen[loc] {
			out = append(out, loc)
		}
	}
	return out
}

// Enum is the enumeration at a location, such as
// "#/$defs/Finding/properties/code", sorted.
func (c *Checker) Enum(loc string) []string {
	var out []string
	for _, v := range list(c.at(loc)["enum"]) {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// CheckType compares the schema with the Go type it describes: every json
// field has a property of the matching type, required exactly when it is
// always written (no omitempty), and every property a field. It returns
// each difference.
func (c *Checker) CheckType(typ reflect.Type) []string {
	var errs []string
	c.walkType(&errs, typ, c.root, "#")
	return errs
}

func errorf(errs *[]string, format string, args ...any) {
	*errs = append(*errs, fmt.Sprintf(format, args...))
}

func (c *Checker) walkType(errs *[]string, typ reflect.Type, s map[string]any, loc string) {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if ref, ok := s["$ref"].(string); ok {
		s, loc = c.at(ref), ref
	}
	want := ""
	switch typ.Kind() {
	case reflect.Bool:
		want = "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		want = "integer"
	case reflect.Float32, reflect.Float64:
		want = "number"
	case reflect.String:
		want = "string"
	case reflect.Slice:
		if typ.Elem().Kind() == reflect.Uint8 {
			return // json.RawMessage: any JSON, described by the schema alone
		}
		want = "array"
	case reflect.Array:
		want = "array"
	case reflect.Struct, reflect.Map:
		want = "object"
	case reflect.Interface:
		return // any: described by the schema alone
	}
	types := types(s)
	if !slices.Contains(types, want) && !(want == "integer" && slices.Contains(types, "number")) {
		errorf(errs, "%s: Go type %s is JSON %s, the schema says %v", loc, typ, want, types)
		return
	}
	switch typ.Kind() {
	case reflect.Slice, reflect.Array:
		items, _ := s["items"].(map[string]any)
		if items == nil {
			errorf(errs, "%s: array without items", loc)
			return
		}
		c.walkType(errs, typ.Elem(), items, loc+"/items")
	case reflect.Struct:
		props, _ := s["properties"].(map[string]any)
		required := list(s["required"])
		fields := map[string]bool{}
		for i := range typ.NumField() {
			f := typ.Field(i)
			tag := f.Tag.Get("json")
			if !f.IsExported() || tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if name == "" {
				name = f.Name
			}
			fields[name] = true
			ps, ok := props[name].(map[string]any)
			if !ok {
				errorf(errs, "%s.%s (json %q) has no property at %s/properties", typ.Name(), f.Name, name, loc)
				continue
			}
			always := !slices.Contains(strings.Split(opts, ","), "omitempty")
			if always != slices.Contains(required, any(name)) {
				errorf(errs, "%s/properties/%s: required must be %t, as %s.%s is written %s", loc, name, always, typ.Name(), f.Name,
					map[bool]string{true: "always", false: "only when set (omitempty)"}[always])
			}
			c.walkType(errs, f.Type, ps, loc+"/properties/"+name)
		}
		for _, name := range sortedKeys(props) {
			if !fields[name] {
				errorf(errs, "%s/properties/%s: %s has no field with that json name", loc, name, typ.Name())
			}
		}
	}
}
