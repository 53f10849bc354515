package main

import (
	"errors"
	"flag"
	"strconv"

	"github.com/pkcalc/pkcalc/core/human"
)

// A command's own number flags (those not of package options, which
// numberFlag carries) are wholeFlag and realFlag, so that a bad value is
// told what the flag takes ("invalid value "two" for flag -ru: not a
// whole number") where the flag package says "parse error". Each flag's
// help names its value in backquotes, as the flag package's own int and
// float flags would name it "int" and "float".

// wholeVar defines a flag of a whole number, as flag.IntVar or
// flag.Int64Var would.
func wholeVar[T int | int64](fs *flag.FlagSet, p *T, name string, value T, usage string) {
	*p = value
	fs.Var(&wholeFlag[T]{p}, name, usage)
}

// whole defines a flag of a whole number and returns where it is kept,
// as flag.Int or flag.Int64 would.
func whole[T int | int64](fs *flag.FlagSet, name string, value T, usage string) *T {
	p := new(T)
	wholeVar(fs, p, name, value, usage)
	return p
}

// realVar defines a flag of a number, as flag.Float64Var would.
func realVar(fs *flag.FlagSet, p *float64, name string, value float64, usage string) {
	*p = value
	fs.Var(&realFlag{p}, name, usage)
}

type wholeFlag[T int | int64] struct{ p *T }

func (f *wholeFlag[T]) String() string {
	if f == nil || f.p == nil {
		return "0"
	}
	return strconv.FormatInt(int64(*f.p), 10)
}

func (f *wholeFlag[T]) Get() any { return *f.p }

func (f *wholeFlag[T]) Set(s string) error {
	bits := 64
	if _, ok := any(*f.p).(int); ok {
		bits = strconv.IntSize
	}
	n, err := strconv.ParseInt(s, 10, bits)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return errors.New("out of range: at most " + human.Count(int64(1)<<(bits-1)-1))
		}
		if _, ferr := strconv.ParseFloat(s, 64); ferr == nil {
			return errors.New("not a whole number in digits (such as 400)")
		}
		return errors.New("not a whole number")
	}
	*f.p = T(n)
	return nil
}

type realFlag struct{ p *float64 }

func (f *realFlag) String() string {
	if f == nil || f.p == nil {
		return "0"
	}
	return strconv.FormatFloat(*f.p, 'g', -1, 64)
}

func (f *realFlag) Get() any { return *f.p }

func (f *realFlag) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return errors.New("out of range")
		}
		return errors.New("not a number")
	}
	*f.p = v
	return nil
}
