package provision

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// The control-plane snippets: they go through Azure Resource Manager, so
// they work with Microsoft Entra ID sign-in and need the names of the
// resource group and the account.

// armPartitionKey and the types below are the request body of
// Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers, in the
// order the REST examples use (specification/cosmos-db/resource-manager/
// Microsoft.DocumentDB/DocumentDB/stable/2025-04-15).
type armPartitionKey struct {
	Paths   []string `json:"paths"`
	Kind    string   `json:"kind"`
	Version int      `json:"version"`
}

type armResource struct {
	ID           string          `json:"id"`
	PartitionKey armPartitionKey `json:"partitionKey"`
}

type armAutoscale struct {
	MaxThroughput int `json:"maxThroughput"`
}

type armOptions struct {
	Throughput        int           `json:"throughput,omitempty"`
	AutoscaleSettings *armAutoscale `json:"autoscaleSettings,omitempty"`
}

type armProperties struct {
	Resource armResource `json:"resource"`
	Options  *armOptions `json:"options,omitempty"`
}

// armBody is the container's properties; lit is applied to every string the
// caller gave (ARM templates need their brackets escaped, REST bodies not).
func (p plan) armBody(lit func(string) string) armProperties {
	paths := make([]string, len(p.paths))
	for i, s := range p.paths {
		paths[i] = lit(validUTF8(s))
	}
	props := armProperties{Resource: armResource{
		ID:           lit(validUTF8(p.c.Name)),
		PartitionKey: armPartitionKey{Paths: paths, Kind: p.kind, Version: p.version},
	}}
	switch {
	case p.manual():
		props.Options = &armOptions{Throughput: p.c.RU}
	case p.autoscale():
		props.Options = &armOptions{AutoscaleSettings: &armAutoscale{MaxThroughput: p.c.RU}}
	}
	return props
}

// headerLines are the opening comment lines every snippet shares.
func (p plan) headerLines() []string {
	lines := []string{"Creates the container with " + p.summary() + "."}
	if p.version == 1 {
		lines = append(lines, "Hash version 1 hashes only the first 100 characters of a string value; version 2 hashes values up to 2 KB.")
	}
	if p.synthetic() {
		lines = append(lines, p.syntheticNote())
	}
	if p.c.RaiseTo > 0 {
		lines = append(lines, p.raiseNote())
	}
	return append(lines, "The partition key cannot be changed once the container exists.")
}

func writeComments(b *strings.Builder, prefix string, lines ...string) {
	for _, l := range lines {
		b.WriteString(prefix)
		b.WriteString(comment(l))
		b.WriteByte('\n')
	}
}

// azureCLI uses az cosmosdb sql container create, whose --partition-key-path
// takes one path and which always sets kind Hash (azure-cli
// src/azure-cli/azure/cli/command_modules/cosmosdb/_params.py and custom.py,
// _populate_sql_container_definition). A hierarchical key therefore goes
// through az rest to the Resource Manager API; az rest prefixes a URL that
// has no scheme with the Resource Manager endpoint.
func azureCLI(p plan) string {
	var b strings.Builder
	writeComments(&b, "# ", p.headerLines()...)
	writeComments(&b, "# ", "In Git Bash on Windows, run export MSYS_NO_PATHCONV=1 first so that /paths are passed as they are.")
	if p.kind == "MultiHash" {
		writeComments(&b, "# ",
			"az cosmosdb sql container create takes a single partition key path (kind Hash),",
			"so the container is created through the Azure Resource Manager REST API;",
			"az rest returns once Azure accepts the request, and the container follows shortly.")
		fmt.Fprintf(&b, "account_id=$(az cosmosdb show --resource-group %s --name %s --query id --output tsv)\n",
			shellQuote(p.c.ResourceGroup), shellQuote(p.c.Account))
		b.WriteString("az rest --method put \\\n")
		rest := "/sqlDatabases/" + pathEscape(p.c.Database) + "/containers/" + pathEscape(p.c.Name) + "?api-version=" + APIVersion
		fmt.Fprintf(&b, "  --url \"$account_id\"%s \\\n", shellQuote(rest))
		fmt.Fprintf(&b, "  --body %s\n", shellQuote(string(jsonBytes(map[string]any{"properties": p.armBody(identity)}))))
		p.azureRaise(&b)
		return b.String()
	}
	b.WriteString("az cosmosdb sql container create \\\n")
	args := [][2]string{
		{"--resource-group", p.c.ResourceGroup},
		{"--account-name", p.c.Account},
		{"--database-name", p.c.Database},
		{"--name", p.c.Name},
		{"--partition-key-path", p.paths[0]},
		{"--partition-key-version", fmt.Sprint(p.version)},
	}
	switch {
	case p.manual():
		args = append(args, [2]string{"--throughput", fmt.Sprint(p.c.RU)})
	case p.autoscale():
		args = append(args, [2]string{"--max-throughput", fmt.Sprint(p.c.RU)})
	}
	for i, a := range args {
		fmt.Fprintf(&b, "  %s %s", a[0], shellQuote(a[1]))
		if i < len(args)-1 {
			b.WriteString(" \\")
		}
		b.WriteByte('\n')
	}
	p.azureRaise(&b)
	return b.String()
}

// azureRaise defines raise_throughput, the command that raises the
// throughput to RaiseTo, for the user to run once the data is loaded: a
// function runs nothing now, and its names are quoted as the create
// command's are (a comment could not hold a line break of a name).
func (p plan) azureRaise(b *strings.Builder) {
	if p.c.RaiseTo == 0 {
		return
	}
	flag := "--throughput"
	if p.autoscale() {
		flag = "--max-throughput"
	}
	writeComments(b, "# ", "Once the data is loaded, run raise_throughput:")
	fmt.Fprintf(b, "raise_throughput() {\n  az cosmosdb sql container throughput update --resource-group %s --account-name %s \\\n    --database-name %s --name %s %s %d\n}\n",
		shellQuote(p.c.ResourceGroup), shellQuote(p.c.Account), shellQuote(p.c.Database), shellQuote(p.c.Name), flag, p.c.RaiseTo)
}

func identity(s string) string { return s }

// powerShell uses New-AzCosmosDBSqlContainer, which passes -PartitionKeyKind,
// -PartitionKeyPath (an array) and -PartitionKeyVersion through to the
// Resource Manager request (azure-powershell
// src/CosmosDB/CosmosDB/SQL/NewAzCosmosDBSqlContainer.cs).
func powerShell(p plan) string {
	var b strings.Builder
	writeComments(&b, "# ", p.headerLines()...)
	params := [][2]string{
		{"ResourceGroupName", psQuote(p.c.ResourceGroup)},
		{"AccountName", psQuote(p.c.Account)},
		{"DatabaseName", psQuote(p.c.Database)},
		{"Name", psQuote(p.c.Name)},
		{"PartitionKeyKind", psQuote(p.kind)},
		{"PartitionKeyPath", "@(" + list(p.paths, psQuote, ", ") + ")"},
		{"PartitionKeyVersion", fmt.Sprint(p.version)},
	}
	switch {
	case p.manual():
		params = append(params, [2]string{"Throughput", fmt.Sprint(p.c.RU)})
	case p.autoscale():
		params = append(params, [2]string{"AutoscaleMaxThroughput", fmt.Sprint(p.c.RU)})
	}
	b.WriteString("$container = @{\n")
	writeAligned(&b, "    ", params, " = ")
	b.WriteString("}\nNew-AzCosmosDBSqlContainer @container\n")
	return b.String()
}

// writeAligned writes name = value lines with the = signs in one column, as
// terraform fmt does.
func writeAligned(b *strings.Builder, indent string, pairs [][2]string, sep string) {
	width := 0
	for _, kv := range pairs {
		width = max(width, len(kv[0]))
	}
	for _, kv := range pairs {
		fmt.Fprintf(b, "%s%-*s%s%s\n", indent, width, kv[0], sep, kv[1])
	}
}

// bicep references the existing account and database and declares the
// container; the resource shape is the Bicep reference for
// Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers.
func bicep(p plan) string {
	var b strings.Builder
	writeComments(&b, "// ", p.headerLines()...)
	writeComments(&b, "// ", p.deployHint("container.bicep"))
	fmt.Fprintf(&b, `resource account 'Microsoft.DocumentDB/databaseAccounts@%[1]s' existing = {
  name: %[2]s
}

resource database 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases@%[1]s' existing = {
  parent: account
  name: %[3]s
}

resource container 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers@%[1]s' = {
  parent: database
  name: %[4]s
  properties: {
    resource: {
      id: %[4]s
      partitionKey: {
        paths: [
`, APIVersion, bicepQuote(p.c.Account), bicepQuote(p.c.Database), bicepQuote(p.c.Name))
	for _, path := range p.paths {
		fmt.Fprintf(&b, "          %s\n", bicepQuote(path))
	}
	fmt.Fprintf(&b, "        ]\n        kind: '%s'\n        version: %d\n      }\n    }\n", p.kind, p.version)
	switch {
	case p.manual():
		fmt.Fprintf(&b, "    options: {\n      throughput: %d\n    }\n", p.c.RU)
	case p.autoscale():
		fmt.Fprintf(&b, "    options: {\n      autoscaleSettings: {\n        maxThroughput: %d\n      }\n    }\n", p.c.RU)
	}
	b.WriteString("  }\n}\n")
	return b.String()
}

// deployHint is the command that deploys a template file, for a comment.
func (p plan) deployHint(file string) string {
	return "Deploy: az deployment group create --resource-group " + shellQuote(p.c.ResourceGroup) + " --template-file " + file
}

// armLiteral keeps a string from being read as a template expression: ARM
// evaluates a string that starts with [ and ends with ], unless it starts
// with [[.
func armLiteral(s string) string {
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		return "[" + s
	}
	return s
}

// arm is an ARM template with the container as its only resource.
func arm(p plan) string {
	lines := p.headerLines()
	lines = append(lines, p.deployHint("container.json"))
	template := struct {
		Schema         string            `json:"$schema"`
		ContentVersion string            `json:"contentVersion"`
		Metadata       map[string]string `json:"metadata"`
		Resources      []any             `json:"resources"`
	}{
		Schema:         "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
		ContentVersion: "1.0.0.0",
		Metadata:       map[string]string{"description": armLiteral(comment(strings.Join(lines, " ")))},
		Resources: []any{struct {
			Type       string        `json:"type"`
			APIVersion string        `json:"apiVersion"`
			Name       string        `json:"name"`
			Properties armProperties `json:"properties"`
		}{
			Type:       "Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers",
			APIVersion: APIVersion,
			Name:       armLiteral(validUTF8(p.c.Account + "/" + p.c.Database + "/" + p.c.Name)),
			Properties: p.armBody(armLiteral),
		}},
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(template); err != nil {
		panic(err)
	}
	return buf.String()
}

// terraform uses azurerm_cosmosdb_sql_container with partition_key_paths,
// partition_key_kind (Hash or MultiHash) and partition_key_version (1 or 2)
// (terraform-provider-azurerm
// internal/services/cosmos/cosmosdb_sql_container_resource.go, provider 4.x).
func terraform(p plan) string {
	var b strings.Builder
	writeComments(&b, "# ", p.headerLines()...)
	writeComments(&b, "# ", "Needs the azurerm provider 4.x (partition_key_paths, partition_key_kind).")
	b.WriteString("resource \"azurerm_cosmosdb_sql_container\" \"container\" {\n")
	attrs := [][2]string{
		{"name", hclQuote(p.c.Name)},
		{"resource_group_name", hclQuote(p.c.ResourceGroup)},
		{"account_name", hclQuote(p.c.Account)},
		{"database_name", hclQuote(p.c.Database)},
		{"partition_key_paths", "[" + list(p.paths, hclQuote, ", ") + "]"},
		{"partition_key_kind", hclQuote(p.kind)},
		{"partition_key_version", fmt.Sprint(p.version)},
	}
	if p.manual() {
		attrs = append(attrs, [2]string{"throughput", fmt.Sprint(p.c.RU)})
	}
	writeAligned(&b, "  ", attrs, " = ")
	if p.autoscale() {
		fmt.Fprintf(&b, "\n  autoscale_settings {\n    max_throughput = %d\n  }\n", p.c.RU)
	}
	b.WriteString("}\n")
	return b.String()
}
