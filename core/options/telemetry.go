package options

// Limits of what package telemetry reads from a live container's exports
// (docs/DIAGNOSE.md, What it reads). Past a limit a row is reported and
// left out, or the reading stops with a message saying where; nothing is
// dropped unsaid.
const (
	// MaxExportRows is the most rows pkcalc reads from one export (a log,
	// or the points of the metric): the most one Log Analytics query
	// returns, Kusto's record count limit of 500,000 (Azure Data
	// Explorer's query result truncation). A row takes some 200 bytes
	// once read, so an export's rows take at most about 100 MB.
	MaxExportRows = 500_000

	// MaxKeyTextBytes is the longest partition key value a log row may
	// give, as text: three components (key.MaxLevels) of at most 2 KB
	// each (partition.MaxKeyBytes), written as JSON with room for its
	// escapes. A longer one is no key Cosmos DB stores.
	MaxKeyTextBytes = 16 << 10

	// MaxExportKeyBytes is the most text the distinct keys of one export
	// take in all. Rows of one key share its text, so a real log stays far
	// below it; it bounds an export of 500,000 keys each near
	// MaxKeyTextBytes.
	MaxExportKeyBytes = 64 << 20

	// MaxNameBytes is the longest database, container, region or
	// operation name, or partition key range id, a row may give. Cosmos DB
	// names are at most 255 characters (concepts-limits), 1,020 bytes of
	// UTF-8 at most.
	MaxNameBytes = 1024

	// MaxSizeKB is the largest logical partition size a storage row may
	// give: the largest target pkcalc models (MaxTargetGB), in KB.
	MaxSizeKB = MaxTargetGB * 1024 * 1024

	// MaxRanges is the most partition key ranges a feed may list: the
	// most physical partitions pkcalc models.
	MaxRanges = MaxPartitions
)
