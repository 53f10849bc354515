package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/pkcalc/pkcalc/core/epk"
)

func runEPK(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("epk", flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.Int("hash-version", 2, "hash `version`: 1 or 2")
	multi := fs.Bool("multihash", false, "hash each component alone, as hierarchical keys do")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `Usage: pkcalc epk [--hash-version 1|2] [--multihash] 'JSON array of key components'

Prints the effective partition key (EPK) Cosmos DB computes for a key value,
in upper-case hex. {"$undefined":true} stands for a missing value.
Example: pkcalc epk --multihash '["contoso", "user-7"]'`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	if *version != 1 && *version != 2 {
		fmt.Fprintf(stderr, "pkcalc epk: --hash-version must be 1 or 2, not %d\n", *version)
		return 2
	}
	vals, err := parseComponents(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "pkcalc epk: %v\n", err)
		return 2
	}
	switch {
	case *multi && *version == 1:
		fmt.Fprintln(stderr, "pkcalc epk: --multihash needs hash version 2")
		return 2
	case *multi:
		if len(vals) > 3 {
			fmt.Fprintf(stderr, "pkcalc epk: a hierarchical key has at most 3 levels, not %d\n", len(vals))
			return 2
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
				return nil, fmt.Errorf("component %d: %v", i+1, err)
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
	fs := flag.NewFlagSet("ranges", flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.Int("hash-version", 2, "hash `version`: 1 or 2 (2 also serves hierarchical keys)")
	n := fs.Int("partitions", 0, "number of physical `partitions`")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: pkcalc ranges [--hash-version 1|2] --partitions N\n\nPrints the EPK ranges a new container with N physical partitions starts with.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *n < 1 || *n > 1<<20 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "pkcalc ranges: --partitions must be from 1 to 1,048,576")
		return 2
	}
	if *version != 1 && *version != 2 {
		fmt.Fprintf(stderr, "pkcalc ranges: --hash-version must be 1 or 2, not %d\n", *version)
		return 2
	}
	var b bytes.Buffer
	for i, r := range epk.Ranges(epk.Version(*version), *n) {
		fmt.Fprintf(&b, "%d\t%q\t%q\n", i, r.MinInclusive, r.MaxExclusive)
	}
	stdout.Write(b.Bytes())
	return 0
}
