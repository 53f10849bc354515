package provision

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/internal/testenv"
)

// TestRedistribute writes the documented command
// (nosql/how-to-redistribute-throughput-across-partitions.md): the
// example's 6,000 RU/s over three partitions set to 2,000, 4,000 and
// 1,000 is --target-partition-info "0=2000 1=4000 2=1000".
func TestRedistribute(t *testing.T) {
	got := Redistribute(Container{Account: "acct", ResourceGroup: "rg", Database: "shop", Name: "orders"},
		[]PartitionRU{{"0", 2000}, {"1", 4000}, {"2", 1000}})
	want := `az cosmosdb sql container redistribute-partition-throughput \
  --resource-group rg \
  --account-name acct \
  --database-name shop \
  --name orders \
  --target-partition-info '0=2000 1=4000 2=1000'
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := EvenlyDistribute(Container{}); !strings.Contains(got, "--evenly-distribute\n") || !strings.Contains(got, "--name items") {
		t.Errorf("evenly: %s", got)
	}
}

// TestCopyJob writes the documented intra-account copy
// (nosql/how-to-container-copy.md): --src-nosql database=db container=c,
// each pair a word of its own.
func TestCopyJob(t *testing.T) {
	got := CopyJob(Container{Account: "acct", ResourceGroup: "rg", Database: "shop", Name: "orders"}, "orders-new", "change-key", true)
	for _, want := range []string{"az cosmosdb copy create \\\n", "--job-name change-key", "--src-account acct", "--dest-account acct",
		"--src-nosql database=shop container=orders", "--dest-nosql database=shop container=orders-new", "--mode Online\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if got := UpdateThroughput(Container{RU: 4000, Autoscale: true}); !strings.Contains(got, "--max-throughput 4000\n") {
		t.Errorf("autoscale: %s", got)
	}
}

// TestOperationsQuoting: names from the logs are user text; bash reads
// each back as it was.
func TestOperationsQuoting(t *testing.T) {
	bash := testenv.LookPath(t, "bash", "install bash")
	for _, name := range texts {
		if name == "" || strings.ContainsAny(name, "\x00") {
			continue
		}
		cmd := CopyJob(Container{Account: "a", ResourceGroup: "r", Database: name, Name: name}, name+"-new", "j", false)
		script := "printf '%s\\n' " + strings.Replace(strings.TrimPrefix(cmd, "az cosmosdb copy create"), "\\\n", " ", -1)
		out, err := exec.Command(bash, "-c", script).Output()
		if err != nil {
			t.Fatalf("%q: %v\n%s", name, err, script)
		}
		if !strings.Contains(string(out), "database="+validUTF8(name)+"\n") {
			t.Errorf("%q: bash read\n%s", name, out)
		}
	}
}

// TestMerge writes merge.md's command: az cosmosdb sql container merge
// with the container's names.
func TestMerge(t *testing.T) {
	got := Merge(Container{Account: "acct", ResourceGroup: "rg", Database: "shop", Name: "orders"})
	want := "az cosmosdb sql container merge \\\n  --resource-group rg \\\n  --account-name acct \\\n  --database-name shop \\\n  --name orders\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
