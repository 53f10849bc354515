// Command pkcalc is the native face of the pkcalc engine: it reads sample
// JSON documents and describes them, and it serves the web app.
//
//	pkcalc paths [--format text|json] FILE...   describe every property path
//	pkcalc serve [--dir DIR] [--addr HOST:PORT]  serve the built site on loopback
//
// FILE may be - for standard input.
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `pkcalc: choose an Azure Cosmos DB partition key from sample documents.

Usage:
  pkcalc paths [--format text|json] FILE...   describe every property path of the documents
  pkcalc serve [--dir DIR] [--addr HOST:PORT]  serve the web app (built by ./build.sh dist)

FILE may be - for standard input. Run 'pkcalc COMMAND -h' for a command's flags.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main with its world passed in, so tests can call it.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "paths":
		return runPaths(args[1:], stdin, stdout, stderr)
	case "serve":
		return runServe(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "pkcalc: unknown command %q\n\n%s", args[0], usage)
	return 2
}
