package telemetry

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// Export names one of the exports pkcalc diagnose reads.
type Export string

const (
	RULog      Export = "ru-log"      // request units per logical key: ReadRU
	StorageLog Export = "storage-log" // storage per logical key: ReadStorage
	Metrics    Export = "metrics"     // NormalizedRUConsumption per range: ReadMetrics
	Ranges     Export = "ranges"      // the partition key ranges: ReadRanges
)

// Exports are the exports, in the order the docs give them.
var Exports = []Export{RULog, StorageLog, Metrics, Ranges}

// Tables name the two forms of the diagnostic logs, as a diagnostic
// setting's destination table calls them.
const (
	ResourceSpecific  = "resource-specific"
	AzureDiagnostics  = "azure-diagnostics"
	defaultRUSince    = "24h"
	defaultStoreSince = "30d"
	defaultMetricSpan = "1d"
)

// QueryOptions narrow what Query's queries and commands read. Names left
// empty are placeholders in capitals (ACCOUNT), or, for the logs'
// database and container, a filter left commented out.
type QueryOptions struct {
	Database, Container    string
	Account, ResourceGroup string // the metric's and the ranges' account
	// Since is how far back the logs are read, and the metric's span: a
	// number and d, h or m (24h, 30d). "" is 24h for the RU log, 30d for
	// the storage log and 1d for the metric.
	Since string
	// Table is the form of the logs: ResourceSpecific, AzureDiagnostics,
	// or "" for both, each with the comment that says when it is the one.
	Table string
}

var sinceForm = regexp.MustCompile(`^[0-9]{1,5}[dhm]$`)

// Query returns what produces an export for pkcalc diagnose: the Log
// Analytics (KQL) queries of a log, the az command that lists the
// metric, or the ways to fetch the partition key ranges, each with
// comments that say how to run it and save its result.
//
// The log queries are Microsoft's documented ones (cited in their
// comments) with pkcalc's columns: the RU log summed per second, key,
// range and operation, as Microsoft's hot-partition query sums it, so
// that a day of a busy container stays within the 500,000 rows a query
// returns; the storage log's rows as they are, whose succession over
// days is the growth. Times are written as ISO 8601 text (tostring), so
// that the portal's CSV export does not write them in its locale.
func Query(e Export, o QueryOptions) (string, error) {
	if o.Since != "" && !sinceForm.MatchString(o.Since) {
		return "", fmt.Errorf("since %q: give a number and d, h or m, such as 24h or 30d", o.Since)
	}
	switch o.Table {
	case "", ResourceSpecific, AzureDiagnostics:
	default:
		return "", fmt.Errorf("table %q: give %s or %s", o.Table, ResourceSpecific, AzureDiagnostics)
	}
	switch e {
	case RULog:
		return logQueries(o, ruQueries), nil
	case StorageLog:
		return logQueries(o, storageQueries), nil
	case Metrics:
		return metricsCommand(o), nil
	case Ranges:
		return rangesFetch(o), nil
	}
	return "", fmt.Errorf("no export %q: give %s", e, exportNames())
}

func exportNames() string {
	names := make([]string, len(Exports))
	for i, e := range Exports {
		names[i] = string(e)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// logQuery is one log's queries and what they say of it.
type logQuery struct {
	what, flag, file, since, source    string
	resourceSpecific, azureDiagnostics func(o QueryOptions, since string) string
}

var ruQueries = logQuery{
	what:   "the request units of each second per logical partition key, partition key range and operation (diagnostic log PartitionKeyRUConsumption)",
	flag:   "--ru-log",
	file:   "ru-log",
	since:  defaultRUSince,
	source: "Microsoft's query for the keys that use the most RU/s: https://learn.microsoft.com/azure/cosmos-db/nosql/troubleshoot-request-rate-too-large",
	resourceSpecific: func(o QueryOptions, since string) string {
		return "CDBPartitionKeyRUConsumption\n" +
			"| where TimeGenerated >= ago(" + since + ")\n" +
			containerFilter(o, "DatabaseName", "CollectionName") +
			"| where isnotempty(PartitionKey)\n" +
			"| summarize RequestCharge = sum(RequestCharge) by TimeGenerated = bin(TimeGenerated, 1s), DatabaseName, CollectionName, RegionName, PartitionKeyRangeId, PartitionKey, OperationName\n" +
			"| order by TimeGenerated asc\n" +
			"| project TimeGenerated = tostring(TimeGenerated), DatabaseName, CollectionName, RegionName, PartitionKeyRangeId, PartitionKey, OperationName, RequestCharge\n"
	},
	azureDiagnostics: func(o QueryOptions, since string) string {
		return "AzureDiagnostics\n" +
			"| where TimeGenerated >= ago(" + since + ")\n" +
			"| where Category == \"PartitionKeyRUConsumption\"\n" +
			containerFilter(o, "databaseName_s", "collectionName_s") +
			"| where isnotempty(partitionKey_s)\n" +
			"| summarize requestCharge_s = sum(todouble(requestCharge_s)) by TimeGenerated = bin(TimeGenerated, 1s), databaseName_s, collectionName_s, regionName_s = column_ifexists(\"regionName_s\", \"\"), partitionKeyRangeId_s, partitionKey_s, operationType_s\n" +
			"| order by TimeGenerated asc\n" +
			"| project TimeGenerated = tostring(TimeGenerated), databaseName_s, collectionName_s, regionName_s, partitionKeyRangeId_s, partitionKey_s, operationType_s, requestCharge_s\n"
	},
}

var storageQueries = logQuery{
	what:   "the storage of the largest logical partition keys, sampled, over time (diagnostic log PartitionKeyStatistics): keys under about 1 GB may be missing",
	flag:   "--storage-log",
	file:   "storage-log",
	since:  defaultStoreSince,
	source: "Microsoft's queries for partition key statistics: https://learn.microsoft.com/azure/cosmos-db/monitor-logs-basic-queries and https://learn.microsoft.com/azure/cosmos-db/how-to-alert-on-logical-partition-key-storage-size",
	resourceSpecific: func(o QueryOptions, since string) string {
		return "CDBPartitionKeyStatistics\n" +
			"| where TimeGenerated >= ago(" + since + ")\n" +
			containerFilter(o, "DatabaseName", "CollectionName") +
			"| order by TimeGenerated asc\n" +
			"| project TimeGenerated = tostring(TimeGenerated), DatabaseName, CollectionName, RegionName, PartitionKeyRangeId = column_ifexists(\"PartitionKeyRangeId\", \"\"), PartitionKey, SizeKb\n"
	},
	azureDiagnostics: func(o QueryOptions, since string) string {
		return "AzureDiagnostics\n" +
			"| where TimeGenerated >= ago(" + since + ")\n" +
			"| where ResourceProvider == \"MICROSOFT.DOCUMENTDB\" and Category == \"PartitionKeyStatistics\"\n" +
			containerFilter(o, "databaseName_s", "collectionName_s") +
			"| order by TimeGenerated asc\n" +
			"| project TimeGenerated = tostring(TimeGenerated), databaseName_s, collectionName_s, regionName_s, partitionKeyRangeId_s = column_ifexists(\"partitionKeyRangeId_s\", \"\"), partitionKey_s, sizeKb_d\n"
	},
}

// logQueries writes a log's queries, in the form or forms asked for.
func logQueries(o QueryOptions, q logQuery) string {
	since := o.Since
	if since == "" {
		since = q.since
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// The %s for pkcalc diagnose %s: %s.\n", logName(q.flag), q.flag, q.what)
	fmt.Fprintf(&b, "// From %s.\n", q.source)
	b.WriteString("// Run one of the queries below in the Log Analytics workspace the account's diagnostic setting sends\n")
	b.WriteString("// the log to (Logs), then Export > CSV (all columns); or save it as query.kql and run\n")
	fmt.Fprintf(&b, "//   az monitor log-analytics query --workspace WORKSPACE_ID --analytics-query @query.kql > %s.json\n", q.file)
	fmt.Fprintf(&b, "// and give the file to pkcalc diagnose %s. Times are written as ISO 8601 text, as pkcalc reads them in any locale.\n", q.flag)
	if o.Table != AzureDiagnostics {
		if o.Table == "" {
			b.WriteString("\n// The diagnostic setting's destination table is \"Resource specific\":\n")
		}
		b.WriteString(q.resourceSpecific(o, since))
	}
	if o.Table != ResourceSpecific {
		if o.Table == "" {
			b.WriteString("\n// The destination table is \"Azure diagnostics\" (the older AzureDiagnostics table):\n")
		}
		b.WriteString(q.azureDiagnostics(o, since))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func logName(flag string) string {
	if flag == "--ru-log" {
		return "RU log"
	}
	return "storage log"
}

// containerFilter is the line that keeps one container's rows, commented
// out when none is named, as Microsoft's queries leave it.
func containerFilter(o QueryOptions, dbCol, collCol string) string {
	switch {
	case o.Database == "" && o.Container == "":
		return "//| where " + dbCol + " == \"DATABASE\" and " + collCol + " == \"CONTAINER\"\n"
	case o.Database == "":
		return "| where " + collCol + " == " + kqlString(o.Container) + "\n"
	case o.Container == "":
		return "| where " + dbCol + " == " + kqlString(o.Database) + "\n"
	}
	return "| where " + dbCol + " == " + kqlString(o.Database) + " and " + collCol + " == " + kqlString(o.Container) + "\n"
}

// kqlString is a KQL string literal: in double quotes, a backslash
// escaping a quote or a backslash.
func kqlString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(s) + `"`
}

// metricsCommand is the az command that lists NormalizedRUConsumption
// per partition key range.
func metricsCommand(o QueryOptions) string {
	span := o.Since
	if span == "" {
		span = defaultMetricSpan
	}
	filter := "PartitionKeyRangeId eq '*'"
	if o.Container != "" {
		filter = "CollectionName eq " + odataString(o.Container) + " and " + filter
	}
	if o.Database != "" {
		filter = "DatabaseName eq " + odataString(o.Database) + " and " + filter
	}
	var b strings.Builder
	b.WriteString("# The metric for pkcalc diagnose --metrics: NormalizedRUConsumption, the highest share of its RU/s each\n")
	b.WriteString("# partition key range used in each minute, split by PartitionKeyRangeId (Microsoft's command:\n")
	b.WriteString("# https://learn.microsoft.com/azure/cosmos-db/monitor-normalized-request-units). --top is above the\n")
	b.WriteString("# container's ranges, as the API returns 10 series unless told more. A series is at most 2 MB of JSON to\n")
	b.WriteString("# pkcalc, about 12 days of one range at PT1M: for a longer --offset, give a coarser --interval.\n")
	fmt.Fprintf(&b, "ACCOUNT_ID=$(az cosmosdb show --name %s --resource-group %s --query id --output tsv)\n",
		shellWord(o.Account, "ACCOUNT"), shellWord(o.ResourceGroup, "RESOURCE_GROUP"))
	b.WriteString("az monitor metrics list --resource \"$ACCOUNT_ID\" \\\n")
	b.WriteString("  --metric NormalizedRUConsumption --aggregation Maximum --interval PT1M --offset " + span + " \\\n")
	b.WriteString("  --filter " + shellDouble(filter) + " \\\n")
	b.WriteString("  --top 10000 --output json > metrics.json")
	return b.String()
}

// odataString is an OData string literal, in single quotes, a quote
// doubled.
func odataString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// shellDouble is a bash word in double quotes: $, `, " and \ escaped.
func shellDouble(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`, "`", "\\`").Replace(s) + `"`
}

// shellWord is a name as a bash word in single quotes, or a placeholder.
func shellWord(s, placeholder string) string {
	if s == "" {
		return placeholder
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// pyString is a Python string literal.
func pyString(s, placeholder string) string {
	if s == "" {
		s = placeholder
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`).Replace(s) + `"`
}

// rangesFetch says how to fetch the partition key ranges feed.
func rangesFetch(o QueryOptions) string {
	var b strings.Builder
	b.WriteString("# The partition key ranges for pkcalc diagnose --ranges: the container's physical partitions, each\n")
	b.WriteString("# with its range of effective partition keys, as the REST API lists them:\n")
	fmt.Fprintf(&b, "#   GET https://%s.documents.azure.com/dbs/%s/colls/%s/pkranges\n",
		placeholder(o.Account, "ACCOUNT"), placeholder(o.Database, "DATABASE"), placeholder(o.Container, "CONTAINER"))
	b.WriteString("# (https://learn.microsoft.com/rest/api/cosmos-db/get-partition-key-ranges; save the body, or its pages one\n")
	b.WriteString("# after another, as ranges.json). The request must be signed, so the SDK is the easy way: this Python\n")
	b.WriteString("# (pip install azure-cosmos) prints the ranges with the SDK's own call for that feed, a method of its\n")
	b.WriteString("# connection that is not public API. Save it as ranges.py and run python ranges.py > ranges.json.\n")
	b.WriteString("import json, os\n")
	b.WriteString("from azure.cosmos import CosmosClient\n\n")
	b.WriteString("client = CosmosClient(os.environ[\"COSMOS_ENDPOINT\"], credential=os.environ[\"COSMOS_KEY\"])\n")
	fmt.Fprintf(&b, "container = client.get_database_client(%s).get_container_client(%s)\n", pyString(o.Database, "DATABASE"), pyString(o.Container, "CONTAINER"))
	b.WriteString("ranges = list(container.client_connection._ReadPartitionKeyRanges(container.container_link))\n")
	b.WriteString("print(json.dumps(ranges, indent=1))")
	return b.String()
}

// placeholder is a name in a URL's path, or a placeholder.
func placeholder(s, p string) string {
	if s == "" {
		return p
	}
	return url.PathEscape(s)
}
