package provision

import (
	"fmt"
	"strings"
)

// The Azure CLI commands that act on an existing container: set its
// throughput, share it out unevenly among its physical partitions, and
// copy its items to another container. Names are quoted as in the other
// snippets; defaults are those of Snippets.

// PartitionRU is a physical partition's RU/s, by its partition key range
// id.
type PartitionRU struct {
	ID string
	RU int
}

// Redistribute is the command that gives each physical partition its own
// RU/s: az cosmosdb sql container redistribute-partition-throughput
// --target-partition-info "0=2000 1=4000" (cosmosdb-preview extension;
// nosql/how-to-redistribute-throughput-across-partitions.md).
func Redistribute(c Container, targets []PartitionRU) string {
	c = defaults(c)
	var info []string
	for _, t := range targets {
		info = append(info, fmt.Sprintf("%s=%d", t.ID, t.RU))
	}
	return cliCommand("az cosmosdb sql container redistribute-partition-throughput", [][2]string{
		{"--resource-group", c.ResourceGroup}, {"--account-name", c.Account}, {"--database-name", c.Database}, {"--name", c.Name},
		{"--target-partition-info", strings.Join(info, " ")},
	})
}

// EvenlyDistribute is the command that shares the throughput evenly again
// after Redistribute, as it is by default; until then the container's
// throughput can be changed only by the redistribute command.
func EvenlyDistribute(c Container) string {
	c = defaults(c)
	return cliCommand("az cosmosdb sql container redistribute-partition-throughput", [][2]string{
		{"--resource-group", c.ResourceGroup}, {"--account-name", c.Account}, {"--database-name", c.Database}, {"--name", c.Name},
		{"--evenly-distribute", ""},
	})
}

// UpdateThroughput is the command that sets the container's RU/s: manual
// throughput, or the autoscale maximum.
func UpdateThroughput(c Container) string {
	c = defaults(c)
	flag := "--throughput"
	if c.Autoscale {
		flag = "--max-throughput"
	}
	return cliCommand("az cosmosdb sql container throughput update", [][2]string{
		{"--resource-group", c.ResourceGroup}, {"--account-name", c.Account}, {"--database-name", c.Database}, {"--name", c.Name},
		{flag, fmt.Sprint(c.RU)},
	})
}

// Merge is the command that merges a container's physical partitions:
// az cosmosdb sql container merge (cosmosdb-preview extension, on an
// account with partition merge enabled; merge.md).
func Merge(c Container) string {
	c = defaults(c)
	return cliCommand("az cosmosdb sql container merge", [][2]string{
		{"--resource-group", c.ResourceGroup}, {"--account-name", c.Account}, {"--database-name", c.Database}, {"--name", c.Name},
	})
}

// CopyJob is the command that starts a container copy job from c to the
// container dest in the same database and account: az cosmosdb copy
// create (cosmosdb-preview extension; nosql/how-to-container-copy.md). An
// offline job wants the source stopped; online copies while it takes
// writes and is completed with az cosmosdb copy complete.
func CopyJob(c Container, dest, job string, online bool) string {
	c = defaults(c)
	args := [][2]string{
		{"--resource-group", c.ResourceGroup}, {"--job-name", job}, {"--src-account", c.Account}, {"--dest-account", c.Account},
	}
	cmd := strings.TrimSuffix(cliCommand("az cosmosdb copy create", args), "\n")
	// Each key=value is a word of its own: the CLI reads the words after
	// --src-nosql as pairs.
	cmd += " \\\n  --src-nosql database=" + shellQuote(c.Database) + " container=" + shellQuote(c.Name)
	cmd += " \\\n  --dest-nosql database=" + shellQuote(c.Database) + " container=" + shellQuote(dest)
	if online {
		cmd += " \\\n  --mode Online"
	}
	return cmd + "\n"
}

// PreviewExtension is the command that installs the Azure CLI extension
// the redistribute and copy commands live in.
const PreviewExtension = "az extension add --name cosmosdb-preview"

func defaults(c Container) Container {
	c.Account = orDefault(c.Account, "<account>")
	c.ResourceGroup = orDefault(c.ResourceGroup, "<resource-group>")
	c.Database = orDefault(c.Database, "appdb")
	c.Name = orDefault(c.Name, "items")
	return c
}

// cliCommand writes a command with one argument a line, each value
// quoted for the shell; a flag with no value stands alone.
func cliCommand(name string, args [][2]string) string {
	var b strings.Builder
	b.WriteString(name)
	for _, a := range args {
		b.WriteString(" \\\n  ")
		b.WriteString(a[0])
		if a[1] != "" {
			b.WriteByte(' ')
			b.WriteString(shellQuote(a[1]))
		}
	}
	b.WriteByte('\n')
	return b.String()
}
