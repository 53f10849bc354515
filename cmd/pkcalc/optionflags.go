package main

import (
	"io"
	"strconv"

	"github.com/pkcalc/pkcalc/core/options"
)

// optionFlags are a command's flags for the options of package options
// that its front end takes, each under its flag.
type optionFlags struct {
	*command
	keys keyFlags // every --key, in order
}

// newOptionFlags defines a flag for each option of front end in, typed by
// its kind so that the usage names the value (int, float) and the flag
// package checks it first.
func newOptionFlags(name, usage string, in options.FrontEnd, stdout, stderr io.Writer) *optionFlags {
	f := &optionFlags{command: newCommand(name, usage, stdout, stderr)}
	for _, o := range options.All {
		if o.In&in == 0 {
			continue
		}
		switch {
		case o.Kind == options.Keys:
			f.fs.Var(&f.keys, o.Flag, o.Help)
		case o.File:
			f.fs.String(o.Flag, "", o.Help)
		case o.Kind == options.Bool:
			f.fs.Bool(o.Flag, false, o.Help)
		case o.Kind == options.Count:
			n, _ := strconv.Atoi(o.Default)
			f.fs.Int(o.Flag, n, o.Help)
		case o.Kind == options.Number:
			f.fs.Float64(o.Flag, 0, o.Help)
		default:
			f.fs.String(o.Flag, o.Default, o.Help)
		}
	}
	return f
}
