package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/pkcalc/pkcalc/core/epk"
)

const epkUsage = `Usage: pkcalc epk [--hash-version 1|2] [--multihash] 'JSON array of key components'

Prints the effective partition key (EPK) Cosmos DB computes for a key value,
in upper-case hex. {"$undefined":true} stands for a missing value.
Example: pkcalc epk --multihash '["contoso", "user-7"]'`

func runEPK(args []string, stdout, stderr io.Writer) int {
	c := newCommand("epk", epkUsage, stdout, stderr)
	version := whole(c.fs, "hash-version", 2, "hash `version`: 1 or 2")
	multi := c.fs.Bool("multihash", false, "hash each component alone, as hierarchical keys do")
	if len(args) == 0 {
		c.help(stderr)
		return 2
	}
	rest, code, ok := c.parse(args, true)
	if !ok {
		return code
	}
	if len(rest) != 1 {
		return c.fail("give one key value, a JSON array such as '[\"contoso\", 42]', not %d arguments", len(rest))
	}
	if *version != 1 && *version != 2 {
		return c.fail("--hash-version must be 1 or 2, not %d", *version)
	}
	vals, err := parseComponents(rest[0])
	if err != nil {
		return c.fail("%v", err)
	}
	switch {
	case *multi && *version == 1:
		return c.fail("--multihash needs --hash-version 2")
	case *multi:
		if len(vals) > 3 {
			return c.fail("a hierarchical key has at most 3 levels, not %d", len(vals))
		}
		fmt.Fprintln(stdout, epk.MultiHash(vals...))
	case *version == 1:
		fmt.Fprintln(stdout, epk.HashV1(vals...))
	default:
		fmt.Fprintln(stdout, epk.HashV2(vals...))
	}
	return 0
}

// parseComponents reads a JSON array of scalar key components.
func parseComponents(s string) ([]epk.Value, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var raw []any
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("the key must be a JSON array such as '[\"contoso\", 42]': %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("unexpected text after the JSON array")
	}
	if len(raw) == 0 {
		return nil, fmt.Errorf("the key has no components")
	}
	out := make([]epk.Value, len(raw))
	for i, r := range raw {
		switch v := r.(type) {
		case nil:
			out[i] = epk.NullValue
		case bool:
			out[i] = epk.Bool(v)
		case string:
			out[i] = epk.Str(v)
		case json.Number:
			f, err := v.Float64()
			if err != nil {
				return nil, fmt.Errorf("component %d: the number %s is beyond the range of a double, which Cosmos DB uses for every number", i+1, v)
			}
			out[i] = epk.Num(f)
		case map[string]any:
			if u, ok := v["$undefined"]; ok && u == true && len(v) == 1 {
				out[i] = epk.UndefinedValue
				continue
			}
			return nil, fmt.Errorf("component %d is an object; a key component is a string, number, boolean, null or {\"$undefined\":true}", i+1)
		default:
			return nil, fmt.Errorf("component %d is an array; a key component is a string, number, boolean, null or {\"$undefined\":true}", i+1)
		}
	}
	return out, nil
}

func runRanges(args []string, stdout, stderr io.Writer) int {
	c := newCommand("ranges", "Usage: pkcalc ranges [--hash-version 1|2] --partitions N\n\nPrints the EPK ranges a new container with N physical partitions starts with.", stdout, stderr)
	version := whole(c.fs, "hash-version", 2, "hash `version`: 1 or 2 (2 also serves hierarchical keys)")
	n := whole(c.fs, "partitions", 0, "number of physical `partitions`")
	if len(args) == 0 {
		c.help(stderr)
		return 2
	}
	rest, code, ok := c.parse(args, false)
	switch {
	case !ok:
		return code
	case len(rest) > 0:
		return c.fail("unexpected argument %q", rest[0])
	case *n < 1 || *n > 1<<20:
		return c.fail("--partitions must be from 1 to 1,048,576")
	case *version != 1 && *version != 2:
		return c.fail("--hash-version must be 1 or 2, not %d", *version)
	}
	var b bytes.Buffer
	for i, r := range epk.Ranges(epk.Version(*version), *n) {
		fmt.Fprintf(&b, "%d\t%q\t%q\n", i, r.MinInclusive, r.MaxExclusive)
	}
	stdout.Write(b.Bytes())
	return 0
}
