// Command pkcalc is the native face of the pkcalc engine: it reads sample
// JSON documents and describes them, and it serves the web app.
//
//	pkcalc analyze [flags] FILE...                   rank candidate partition keys
//	pkcalc paths [--format text|json] FILE...       describe every property path
//	pkcalc epk [--hash-version 1|2] [--multihash] KEY  print a key value's EPK
//	pkcalc ranges [--hash-version 1|2] --partitions N  print the EPK ranges of N partitions
//	pkcalc aggregate-query --key SPEC --engine E     print the query that aggregates per key
//	pkcalc serve [--dir DIR] [--addr HOST:PORT]     serve the built site on loopback
//	pkcalc bundle [--dir DIR] [--out FILE]          write the single-file build
//
// FILE may be - for standard input.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

const usage = `pkcalc: choose an Azure Cosmos DB partition key from sample documents.

Usage:
  pkcalc analyze [flags] FILE...                      measure and rank candidate partition keys
  pkcalc paths [--format text|json] FILE...           describe every property path of the documents
  pkcalc epk [--hash-version 1|2] [--multihash] KEY   print the EPK of a key value (a JSON array)
  pkcalc ranges [--hash-version 1|2] --partitions N   print the EPK ranges of N physical partitions
  pkcalc aggregate-query --key SPEC --engine ENGINE   print the per-key aggregate query (cosmos, spark, duckdb)
  pkcalc serve [--dir DIR] [--addr HOST:PORT]         serve the web app (built by ./build.sh dist)
  pkcalc bundle [--dir DIR] [--out FILE]              write the single-file build of the web app

FILE may be - for standard input. Run 'pkcalc COMMAND -h' for a command's flags.
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
	case "paths":
		return runPaths(args[1:], stdin, stdout, stderr)
	case "serve":
		return runServe(args[1:], stdout, stderr)
	case "bundle":
		return runBundle(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "pkcalc: unknown command %q\n\n%s", args[0], usage)
	return 2
}

// parse parses flags that may come before, between or after the file
// names, as people type them, and returns the file names. "--" ends flags.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return files, nil
		}
		if args[0] == "-" || !strings.HasPrefix(args[0], "-") {
			files = append(files, args[0])
			args = args[1:]
			continue
		}
		// Parse stopped at "--": the rest are names.
		return append(files, args...), nil
	}
}
