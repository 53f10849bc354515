// Command pkcalc is the native face of the pkcalc engine: it reads sample
// JSON documents and describes them, and it serves the web app.
//
//	pkcalc analyze [flags] FILE...                   rank candidate partition keys
//	pkcalc paths [--format text|json] FILE...       describe every property path
//	pkcalc epk [--hash-version 1|2] [--multihash] KEY  print a key value's EPK
//	pkcalc ranges [--hash-version 1|2] --partitions N  print the EPK ranges of N partitions
//	pkcalc aggregate-query --key SPEC --engine E     print the query that aggregates per key
//	pkcalc diagnose [flags] [DOCUMENTS...]            diagnose a live container from its exports
//	pkcalc diagnose-query ru-log|storage-log|metrics|ranges  print what exports a live container's telemetry
//	pkcalc plan scale|merge|redistribute|burst|ingest|migrate  plan an operation on a container
//	pkcalc serve [--dir DIR] [--addr HOST:PORT]     serve the built site on loopback
//	pkcalc bundle [--dir DIR] [--out FILE]          write the single-file build
//	pkcalc sample orders|telemetry                  write a built-in sample
//
// FILE may be - for standard input.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/pkcalc/pkcalc/core/analysis"
)

const usage = `pkcalc: choose an Azure Cosmos DB partition key from sample documents.

Usage:
  pkcalc analyze [flags] FILE...                      measure and rank candidate partition keys
  pkcalc paths [--format text|json] FILE...           describe every property path of the documents
  pkcalc sample orders|telemetry                      write a built-in sample as JSON Lines
  pkcalc epk [--hash-version 1|2] [--multihash] KEY   print the EPK of a key value (a JSON array)
  pkcalc ranges [--hash-version 1|2] --partitions N   print the EPK ranges of N physical partitions
  pkcalc aggregate-query --key SPEC --engine ENGINE   print the per-key aggregate query (cosmos, spark, duckdb)
  pkcalc diagnose [flags] [DOCUMENTS...]              diagnose a live container from its ranges, logs and metrics
  pkcalc diagnose-query ru-log|storage-log|metrics|ranges
                                                      print the query or command that exports a live container's
                                                      logs, metric or partition key ranges
  pkcalc plan scale|merge|redistribute|burst|ingest|migrate [flags]
                                                      plan an operation on a container as steps: the rule,
                                                      the command and the partitions after each
  pkcalc serve [--dir DIR] [--addr HOST:PORT]         serve the web app (built by ./build.sh dist)
  pkcalc bundle [--dir DIR] [--out FILE]              write the single-file build of the web app

FILE may be - for standard input; a file named .csv or .tsv is read as CSV,
others as JSON (--input-format json|csv to choose). Run 'pkcalc COMMAND --help'
for a command's flags. To try it: pkcalc sample orders > orders.json
`

func main() {
	// An analysis allocates per document and keeps little, so the collector,
	// paced at Go's default of 100 %, runs often while the heap is small. At
	// 400 % a one-core analysis of the 100 MB set takes about 6 % less
	// time for about a sixth more peak memory (docs/PERFORMANCE.md has the
	// figures; the heap grows with the values kept, not with the input).
	// GOGC, when set, decides.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	// Near the memory budget the collector runs as often as it must
	// (analysis.MemoryBudget); GOMEMLIMIT, when set, decides.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(analysis.MemoryBudget)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main with its world passed in, so tests can call it.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "analyze":
		return runAnalyze(args[1:], stdin, stdout, stderr)
	case "epk":
		return runEPK(args[1:], stdout, stderr)
	case "ranges":
		return runRanges(args[1:], stdout, stderr)
	case "aggregate-query":
		return runAggregateQuery(args[1:], stdout, stderr)
	case "diagnose":
		return runDiagnose(args[1:], stdin, stdout, stderr)
	case "diagnose-query":
		return runDiagnoseQuery(args[1:], stdout, stderr)
	case "plan":
		return runPlan(args[1:], stdin, stdout, stderr)
	case "paths":
		return runPaths(args[1:], stdin, stdout, stderr)
	case "serve":
		return runServe(args[1:], stdout, stderr)
	case "bundle":
		return runBundle(args[1:], stdout, stderr)
	case "sample":
		return runSample(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "pkcalc: unknown command %q\nRun 'pkcalc help' for the commands.\n", args[0])
	return 2
}

// command is a subcommand's flags and usage. A flag error prints the error
// and a one-line hint, not the whole usage, which would push the error off
// the screen; -h and --help print the usage, on standard output.
type command struct {
	name   string
	usage  string // the usage line and what the command does
	fs     *flag.FlagSet
	stdout io.Writer
	stderr io.Writer
}

func newCommand(name, usage string, stdout, stderr io.Writer) *command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are printed by parse, usage by help
	fs.Usage = func() {}
	return &command{name: name, usage: usage, fs: fs, stdout: stdout, stderr: stderr}
}

// help prints the usage and the flags to w.
func (c *command) help(w io.Writer) {
	fmt.Fprintln(w, strings.TrimRight(c.usage, "\n"))
	n := 0
	c.fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprintln(w, "\nFlags:")
		c.fs.SetOutput(w)
		c.fs.PrintDefaults()
		c.fs.SetOutput(io.Discard)
	}
}

// fail prints a usage error and the hint, and returns the exit status 2.
func (c *command) fail(format string, args ...any) int {
	fmt.Fprintf(c.stderr, "pkcalc %s: %s\nRun 'pkcalc %s --help' for the flags.\n", c.name, fmt.Sprintf(format, args...), c.name)
	return 2
}

// parse parses args and returns the arguments that are not flags. When
// interspersed, flags may come before, between or after them, as people
// type file names; "--" ends flags. ok false means return code: 0 after
// help, 2 after an error.
func (c *command) parse(args []string, interspersed bool) (rest []string, code int, ok bool) {
	for {
		if err := c.fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				c.help(c.stdout)
				return nil, 0, false
			}
			return nil, c.fail("%v", err), false
		}
		args = c.fs.Args()
		if !interspersed || len(args) == 0 {
			return append(rest, args...), 0, true
		}
		if args[0] == "-" || !strings.HasPrefix(args[0], "-") {
			rest = append(rest, args[0])
			args = args[1:]
			continue
		}
		// Parse stopped at "--": the rest are names.
		return append(rest, args...), 0, true
	}
}
