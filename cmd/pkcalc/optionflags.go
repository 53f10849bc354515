package main

import (
	"errors"
	"io"
	"strings"

	"github.com/pkcalc/pkcalc/core/options"
)

// optionFlags are a command's flags for the options of package options
// that its front end takes, each under its flag.
type optionFlags struct {
	*command
	keys keyFlags // every --key, in order
}

// newOptionFlags defines a flag for each option of front end in. A
// number's flag keeps its text for options.Parse to check (numberFlag),
// as the API's and the page's options are checked.
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
		case o.Kind == options.Count || o.Kind == options.Number:
			f.fs.Var(&numberFlag{text: o.Default}, o.Flag, o.Help)
		default:
			f.fs.String(o.Flag, o.Default, o.Help)
		}
	}
	return f
}

// numberFlag is a whole number's or a number's flag: its text as given,
// which options.Parse reads and checks, so that a bad one is told what
// the option takes ("--workers must be a whole number of 1 or more, not
// "two""), where the flag package would say "parse error". The usage
// names its value from the option's help, which says it in backquotes.
type numberFlag struct{ text string }

func (f *numberFlag) String() string {
	if f == nil {
		return ""
	}
	return f.text
}

func (f *numberFlag) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("give a number")
	}
	f.text = s
	return nil
}
