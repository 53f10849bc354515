package main

import (
	"fmt"
	"io"

	"github.com/pkcalc/pkcalc/core/telemetry"
)

const diagnoseQueryUsage = `Usage: pkcalc diagnose-query ru-log|storage-log|metrics|ranges [--database NAME] [--container NAME]
       [--account NAME] [--resource-group NAME] [--since 24h] [--table resource-specific|azure-diagnostics]

Prints what produces each export of a live container that pkcalc diagnose
reads (docs/DIAGNOSE.md):
  ru-log       the Log Analytics (KQL) query of the request units per logical
               partition key, per second (diagnostic log PartitionKeyRUConsumption)
  storage-log  the query of the storage of the largest logical partition keys
               (diagnostic log PartitionKeyStatistics)
  metrics      the az command that lists NormalizedRUConsumption per partition
               key range
  ranges       how to fetch the container's partition key ranges
The logs' queries come in both forms, the resource-specific tables and the
older AzureDiagnostics table, unless --table picks one. Save each result and
give it to pkcalc diagnose --ru-log, --storage-log, --metrics or --ranges.`

func runDiagnoseQuery(args []string, stdout, stderr io.Writer) int {
	c := newCommand("diagnose-query", diagnoseQueryUsage, stdout, stderr)
	var o telemetry.QueryOptions
	c.fs.StringVar(&o.Database, "database", "", "the database to read (default: a placeholder, or every one in the logs)")
	c.fs.StringVar(&o.Container, "container", "", "the container to read (default: a placeholder, or every one in the logs)")
	c.fs.StringVar(&o.Account, "account", "", "the account, for the metric's command and the ranges (default: a placeholder)")
	c.fs.StringVar(&o.ResourceGroup, "resource-group", "", "the account's resource group, for the metric's command")
	c.fs.StringVar(&o.Since, "since", "", "how far back to read: a number and d, h or m (default 24h for the RU log, 30d for the storage log, 1d for the metric)")
	c.fs.StringVar(&o.Table, "table", "", "the logs' form: resource-specific or azure-diagnostics (default: both)")
	if len(args) == 0 {
		c.help(stderr)
		return 2
	}
	rest, code, ok := c.parse(args, true)
	switch {
	case !ok:
		return code
	case len(rest) == 0:
		return c.fail("name the export: ru-log, storage-log, metrics or ranges")
	case len(rest) > 1:
		return c.fail("unexpected argument %q: name one export", rest[1])
	}
	q, err := telemetry.Query(telemetry.Export(rest[0]), o)
	if err != nil {
		return c.fail("%v", err)
	}
	fmt.Fprintln(stdout, q)
	return 0
}
