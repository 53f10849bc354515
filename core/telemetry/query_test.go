package telemetry

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pkcalc/pkcalc/internal/testenv"
)

// hostileNames are names that quoting must carry through whole: Cosmos DB
// refuses only / \ # ? in an id, so a quote, a dollar or a backtick can
// be in a database's or a container's name.
var hostileNames = QueryOptions{Database: `shop "eu" $HOME`, Container: "it's `x`", Account: "acct'1", ResourceGroup: `rg "a" $PATH`}

func TestQuery(t *testing.T) {
	tests := []struct {
		e    Export
		o    QueryOptions
		want []string // lines the output has
		not  []string // and has not
	}{
		{RULog, QueryOptions{}, []string{
			"CDBPartitionKeyRUConsumption",
			"| where TimeGenerated >= ago(24h)",
			`//| where DatabaseName == "DATABASE" and CollectionName == "CONTAINER"`,
			"| summarize RequestCharge = sum(RequestCharge) by TimeGenerated = bin(TimeGenerated, 1s), DatabaseName, CollectionName, RegionName, PartitionKeyRangeId, PartitionKey, OperationName",
			"AzureDiagnostics",
			`| where Category == "PartitionKeyRUConsumption"`,
			"| where isnotempty(partitionKey_s)",
		}, nil},
		{RULog, QueryOptions{Database: "shop", Container: "orders", Since: "2h", Table: ResourceSpecific}, []string{
			"| where TimeGenerated >= ago(2h)",
			`| where DatabaseName == "shop" and CollectionName == "orders"`,
		}, []string{"AzureDiagnostics", "//| where"}},
		{RULog, QueryOptions{Container: "orders", Table: AzureDiagnostics}, []string{
			`| where collectionName_s == "orders"`,
		}, []string{"CDBPartitionKeyRUConsumption\n"}},
		{StorageLog, hostileNames, []string{
			"CDBPartitionKeyStatistics",
			"| where TimeGenerated >= ago(30d)",
			`| where DatabaseName == "shop \"eu\" $HOME" and CollectionName == "it's ` + "`x`" + `"`,
			`| where ResourceProvider == "MICROSOFT.DOCUMENTDB" and Category == "PartitionKeyStatistics"`,
			"| project TimeGenerated = tostring(TimeGenerated), databaseName_s, collectionName_s, regionName_s, partitionKeyRangeId_s = column_ifexists(\"partitionKeyRangeId_s\", \"\"), partitionKey_s, sizeKb_d",
		}, nil},
		{Metrics, QueryOptions{}, []string{
			"ACCOUNT_ID=$(az cosmosdb show --name ACCOUNT --resource-group RESOURCE_GROUP --query id --output tsv)",
			`  --filter "PartitionKeyRangeId eq '*'" \`,
		}, nil},
		{Ranges, QueryOptions{Account: "acct", Database: "a b", Container: "c%d"}, []string{
			"#   GET https://acct.documents.azure.com/dbs/a%20b/colls/c%25d/pkranges",
			`container = client.get_database_client("a b").get_container_client("c%d")`,
		}, nil},
	}
	for _, tt := range tests {
		t.Run(string(tt.e), func(t *testing.T) {
			q, err := Query(tt.e, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(q, "\n")
			for _, w := range tt.want {
				if !contains(lines, w) {
					t.Errorf("no line %q in\n%s", w, q)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(q, n) {
					t.Errorf("%q in\n%s", n, q)
				}
			}
		})
	}
}

func contains(lines []string, line string) bool {
	for _, l := range lines {
		if l == line {
			return true
		}
	}
	return false
}

func TestQueryErrors(t *testing.T) {
	for _, tt := range []struct {
		e    Export
		o    QueryOptions
		want string
	}{
		{"logs", QueryOptions{}, `no export "logs": give ru-log, storage-log, metrics or ranges`},
		{RULog, QueryOptions{Since: "1 day"}, `since "1 day": give a number and d, h or m, such as 24h or 30d`},
		{RULog, QueryOptions{Since: "ago(1d)) | take 1 //"}, `since "ago(1d)) | take 1 //": give a number and d, h or m`},
		{StorageLog, QueryOptions{Table: "both"}, `table "both": give resource-specific or azure-diagnostics`},
	} {
		if _, err := Query(tt.e, tt.o); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Query(%q, %+v): %v, want %q", tt.e, tt.o, err, tt.want)
		}
	}
}

// TestMetricsCommand runs the metric's command in bash with an az that
// writes its arguments: hostile names arrive whole, each a word.
func TestMetricsCommand(t *testing.T) {
	bash := testenv.LookPath(t, "bash", "install bash")
	dir := t.TempDir()
	fake := "#!/bin/sh\nif [ \"$1\" = cosmosdb ]; then printf '%s\\n' \"$@\" > show.txt; echo /subscriptions/x/ACCOUNT; exit; fi\nprintf '%s\\n' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "az"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	q, err := Query(Metrics, hostileNames)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bash, "-c", q)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s\n%s", err, out, q)
	}
	show, _ := os.ReadFile(filepath.Join(dir, "show.txt"))
	if want := "cosmosdb\nshow\n--name\nacct'1\n--resource-group\nrg \"a\" $PATH\n--query\nid\n--output\ntsv\n"; string(show) != want {
		t.Errorf("az cosmosdb show got\n%s\nwant\n%s", show, want)
	}
	list, _ := os.ReadFile(filepath.Join(dir, "metrics.json"))
	want := "monitor\nmetrics\nlist\n--resource\n/subscriptions/x/ACCOUNT\n--metric\nNormalizedRUConsumption\n--aggregation\nMaximum\n--interval\nPT1M\n--offset\n1d\n--filter\n" +
		"DatabaseName eq 'shop \"eu\" $HOME' and CollectionName eq 'it''s `x`' and PartitionKeyRangeId eq '*'\n--top\n10000\n--output\njson\n"
	if string(list) != want {
		t.Errorf("az monitor metrics list got\n%s\nwant\n%s", list, want)
	}
}

// TestRangesSnippet parses the ranges' Python: it is Python, and the
// names it passes to the SDK are the names given.
func TestRangesSnippet(t *testing.T) {
	python := testenv.LookPath(t, "python3", "install Python 3")
	q, err := Query(Ranges, hostileNames)
	if err != nil {
		t.Fatal(err)
	}
	check := `import ast, sys
tree = ast.parse(sys.stdin.read())
for node in ast.walk(tree):
    if isinstance(node, ast.Call) and getattr(node.func, "attr", "") in ("get_database_client", "get_container_client"):
        print(node.args[0].value)
`
	cmd := exec.Command(python, "-c", check)
	cmd.Stdin = strings.NewReader(q)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s\n%s", err, out, q)
	}
	if got, want := string(out), "it's `x`\n"+`shop "eu" $HOME`+"\n"; got != want {
		t.Errorf("the snippet passes\n%s\nwant\n%s", got, want)
	}
}
