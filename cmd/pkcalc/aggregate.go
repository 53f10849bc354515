package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/pkcalc/pkcalc/core/aggregate"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/report"
)

func runAggregateQuery(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("aggregate-query", flag.ContinueOnError)
	fs.SetOutput(stderr)
	spec := fs.String("key", "", "the key to aggregate by (as in pkcalc analyze --key)")
	engine := fs.String("engine", "", "where the data lives: cosmos (a container's own GROUP BY), spark (Spark SQL: Synapse, Databricks, the Cosmos DB Spark connector) or duckdb")
	source := fs.String("source", "", "container alias, table or file to read (default per engine)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `Usage: pkcalc aggregate-query --key SPEC --engine cosmos|spark|duckdb [--source NAME]

Prints the query that counts documents and bytes per key value where the data
lives. Save its result as CSV or JSON and give it to
  pkcalc analyze --key SPEC --aggregates RESULT`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *spec == "" || *engine == "" || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	k, err := key.Parse(*spec)
	if err != nil {
		fmt.Fprintf(stderr, "pkcalc aggregate-query: --key: %v\n", err)
		return 2
	}
	q, err := aggregate.Query(k, aggregate.Engine(*engine), *source)
	if err != nil {
		fmt.Fprintf(stderr, "pkcalc aggregate-query: %v\n", err)
		return 2
	}
	fmt.Fprintln(stdout, q)
	return 0
}

// analyzeAggregates reads per-key aggregates for spec and reports on it.
// Rows without a bytes column (the Cosmos DB query can leave it out to save
// request units) get
// the average document size docBytes.
func analyzeAggregates(src io.Reader, spec key.Spec, opts report.Options, docBytes int64, stderr io.Writer) (*report.Report, error) {
	rows, problems := aggregate.Read(src, spec.Levels())
	if len(rows) == 0 && len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(stderr, p)
		}
		return nil, fmt.Errorf("no aggregate rows could be read")
	}
	for i := range rows {
		if rows[i].Bytes == 0 {
			rows[i].Bytes = rows[i].Documents * docBytes
		}
	}
	return report.AnalyzeAggregates(rows, problems, spec, opts), nil
}
