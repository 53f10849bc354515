package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/pkcalc/pkcalc/core/aggregate"
	"github.com/pkcalc/pkcalc/core/analysis"
	"github.com/pkcalc/pkcalc/core/human"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/report"
)

const aggregateQueryUsage = `Usage: pkcalc aggregate-query --key SPEC --engine cosmos|spark|duckdb [--source NAME]

Prints the query that counts documents and bytes per key value where the data
lives. Save its result as CSV or JSON and give it to
  pkcalc analyze --key SPEC --aggregates RESULT`

func runAggregateQuery(args []string, stdout, stderr io.Writer) int {
	c := newCommand("aggregate-query", aggregateQueryUsage, stdout, stderr)
	spec := c.fs.String("key", "", "the key to aggregate by (as in pkcalc analyze --key)")
	engine := c.fs.String("engine", "", "where the data lives: cosmos (a container's own GROUP BY), spark (Spark SQL: Synapse, Databricks, the Cosmos DB Spark connector) or duckdb")
	source := c.fs.String("source", "", "container alias, table or file to read (default per engine)")
	if len(args) == 0 {
		c.help(stderr)
		return 2
	}
	rest, code, ok := c.parse(args, false)
	switch {
	case !ok:
		return code
	case len(rest) > 0:
		return c.fail("unexpected argument %q: give the key with --key", rest[0])
	case *spec == "":
		return c.fail("--key is missing: the key to aggregate by, such as --key /tenantId")
	case *engine == "":
		return c.fail("--engine is missing: cosmos, spark or duckdb, where the data lives")
	}
	k, err := key.Parse(*spec)
	if err != nil {
		return c.fail("--key: %v", err)
	}
	q, err := aggregate.Query(k, aggregate.Engine(*engine), *source)
	if err != nil {
		return c.fail("%v", err)
	}
	fmt.Fprintln(stdout, q)
	return 0
}

// maxListed is how many problems a failed read of aggregates lists before
// counting the rest.
const maxListed = 10

// analyzeAggregates reads per-key aggregates for spec and reports on it.
// Rows without a bytes column (the Cosmos DB query can leave it out to save
// request units) get the average document size docBytes.
func analyzeAggregates(src io.Reader, name string, spec key.Spec, opts analysis.Options, docBytes int64, stderr io.Writer) (*report.Report, error) {
	rows, problems := aggregate.Read(src, spec.Levels())
	if len(rows) == 0 && len(problems) > 0 {
		if errors.Is(problems[0], aggregate.ErrDocuments) {
			return nil, fmt.Errorf("%v (run pkcalc analyze without --aggregates)", problems[0])
		}
		for i, p := range problems {
			if i == maxListed {
				n := int64(len(problems) - maxListed)
				fmt.Fprintf(stderr, "and %s more %s\n", human.Count(n), human.Plural(n, "problem", "problems"))
				break
			}
			fmt.Fprintln(stderr, p)
		}
		return nil, fmt.Errorf("no aggregate rows could be read from %s", name)
	}
	aggregate.SizeRows(rows, docBytes)
	return analysis.AnalyzeAggregates(rows, problems, spec, opts), nil
}
