package provision

import (
	"fmt"
	"slices"
	"strings"
)

// The SDK snippets create the container through the data plane with the
// account key, read from COSMOS_ENDPOINT and COSMOS_KEY: Microsoft Entra ID
// data-plane roles cover reading and writing data only, not creating
// containers. Each uses Create (not CreateIfNotExists), so an existing
// container with another key fails loudly instead of being kept.

var sdkKeyNote = []string{
	"Creating a container through the SDK needs the account key (COSMOS_ENDPOINT, COSMOS_KEY):",
	"Microsoft Entra ID data-plane roles do not cover management operations.",
}

// usage is the comment that tells how to use the synthetic key function.
func usage(prefix string, lines ...string) string {
	var b strings.Builder
	writeComments(&b, prefix,
		"Before writing an item, store its synthetic key in the property the container",
		"is partitioned on ("+SyntheticPath+"), for example:")
	for _, l := range lines {
		b.WriteString(prefix + "    " + l + "\n")
	}
	return b.String()
}

// dotnet uses Microsoft.Azure.Cosmos: ContainerProperties(id, path) or
// ContainerProperties(id, IReadOnlyList<string> partitionKeyPaths) for a
// hierarchical key, PartitionKeyDefinitionVersion, and ThroughputProperties
// (azure-cosmos-dotnet-v3
// Microsoft.Azure.Cosmos/src/Resource/Settings/ContainerProperties.cs and
// ThroughputProperties.cs).
func dotnet(p plan) string {
	var b strings.Builder
	writeComments(&b, "// ", p.headerLines()...)
	writeComments(&b, "// ", "Needs the Microsoft.Azure.Cosmos package (3.x).")
	writeComments(&b, "// ", sdkKeyNote...)
	usings := []string{"System", "System.Collections.Generic"}
	var fn sdkCode
	if p.synthetic() {
		fn = csharpKey(p.spec)
		usings = append(usings, fn.imports...)
	}
	slices.Sort(usings)
	for _, u := range slices.Compact(usings) {
		fmt.Fprintf(&b, "using %s;\n", u)
	}
	b.WriteString("using Microsoft.Azure.Cosmos;\n\n")
	b.WriteString("var client = new CosmosClient(\n    Environment.GetEnvironmentVariable(\"COSMOS_ENDPOINT\"),\n    Environment.GetEnvironmentVariable(\"COSMOS_KEY\"));\n")
	fmt.Fprintf(&b, "Database database = client.GetDatabase(%s);\n\n", csQuote(p.c.Database))
	if p.kind == "MultiHash" {
		fmt.Fprintf(&b, "var properties = new ContainerProperties(%s, new List<string> { %s })\n", csQuote(p.c.Name), list(p.paths, csQuote, ", "))
	} else {
		fmt.Fprintf(&b, "var properties = new ContainerProperties(%s, %s)\n", csQuote(p.c.Name), csQuote(p.paths[0]))
	}
	fmt.Fprintf(&b, "{\n    PartitionKeyDefinitionVersion = PartitionKeyDefinitionVersion.V%d,\n};\n", p.version)
	switch {
	case p.manual():
		fmt.Fprintf(&b, "await database.CreateContainerAsync(properties, ThroughputProperties.CreateManualThroughput(%d));\n", p.c.RU)
	case p.autoscale():
		fmt.Fprintf(&b, "await database.CreateContainerAsync(properties, ThroughputProperties.CreateAutoscaleThroughput(%d));\n", p.c.RU)
	default:
		b.WriteString("await database.CreateContainerAsync(properties);\n")
	}
	if p.synthetic() {
		b.WriteString("\n")
		b.WriteString(usage("// ",
			"string key = SyntheticKey.Compute(JsonSerializer.SerializeToElement(item));",
			"// then set the item's "+keyProperty+" property to key"))
		b.WriteString("\n")
		b.WriteString(fn.code)
	}
	return b.String()
}

// java uses azure-cosmos (v4): PartitionKeyDefinition with setPaths,
// setKind(PartitionKind.MULTI_HASH) and
// setVersion(PartitionKeyDefinitionVersion.V2), CosmosContainerProperties and
// CosmosDatabase.createContainer(properties, ThroughputProperties)
// (azure-sdk-for-java sdk/cosmos/azure-cosmos/src/main/java/com/azure/cosmos/
// models/PartitionKeyDefinition.java, ThroughputProperties.java and
// CosmosDatabase.java).
func java(p plan) string {
	var b strings.Builder
	writeJavaComments := func(lines ...string) {
		for _, l := range lines {
			b.WriteString("// " + javaComment(l) + "\n")
		}
	}
	writeJavaComments(p.headerLines()...)
	writeJavaComments("Needs com.azure:azure-cosmos (4.x) and Java 8 or later.")
	writeJavaComments(sdkKeyNote...)
	imports := []string{
		"com.azure.cosmos.CosmosClient", "com.azure.cosmos.CosmosClientBuilder", "com.azure.cosmos.CosmosDatabase",
		"com.azure.cosmos.models.CosmosContainerProperties", "com.azure.cosmos.models.PartitionKeyDefinition",
		"com.azure.cosmos.models.PartitionKeyDefinitionVersion", "com.azure.cosmos.models.PartitionKind",
		"java.util.Arrays",
	}
	if p.c.RU > 0 {
		imports = append(imports, "com.azure.cosmos.models.ThroughputProperties")
	}
	var fn sdkCode
	if p.synthetic() {
		fn = javaKey(p.spec)
		imports = append(imports, fn.imports...)
	}
	slices.Sort(imports)
	for _, imp := range slices.Compact(imports) {
		fmt.Fprintf(&b, "import %s;\n", imp)
	}
	kind := map[string]string{"Hash": "HASH", "MultiHash": "MULTI_HASH"}[p.kind]
	fmt.Fprintf(&b, `
public class CreateContainer {
    public static void main(String[] args) {
        CosmosClient client = new CosmosClientBuilder()
            .endpoint(System.getenv("COSMOS_ENDPOINT"))
            .key(System.getenv("COSMOS_KEY"))
            .buildClient();
        CosmosDatabase database = client.getDatabase(%s);

        PartitionKeyDefinition partitionKey = new PartitionKeyDefinition()
            .setPaths(Arrays.asList(%s))
            .setKind(PartitionKind.%s)
            .setVersion(PartitionKeyDefinitionVersion.V%d);
        CosmosContainerProperties properties = new CosmosContainerProperties(%s, partitionKey);
`, javaQuote(p.c.Database), list(p.paths, javaQuote, ", "), kind, p.version, javaQuote(p.c.Name))
	switch {
	case p.manual():
		fmt.Fprintf(&b, "        database.createContainer(properties, ThroughputProperties.createManualThroughput(%d));\n", p.c.RU)
	case p.autoscale():
		fmt.Fprintf(&b, "        database.createContainer(properties, ThroughputProperties.createAutoscaledThroughput(%d));\n", p.c.RU)
	default:
		b.WriteString("        database.createContainer(properties);\n")
	}
	b.WriteString("        client.close();\n    }\n")
	if p.synthetic() {
		b.WriteString("\n")
		b.WriteString(usage("    // ", "item.put(\""+keyProperty+"\", partitionKey(item)); // item: Map<String, Object>"))
		b.WriteString("\n")
		b.WriteString(fn.code)
	}
	b.WriteString("}\n")
	return b.String()
}

// python uses azure-cosmos: PartitionKey(path=..., kind="Hash"|"MultiHash",
// version=...) and offer_throughput as an int or
// ThroughputProperties(auto_scale_max_throughput=...) (azure-sdk-for-python
// sdk/cosmos/azure-cosmos/azure/cosmos/partition_key.py, offer.py,
// database.py).
func python(p plan) string {
	var b strings.Builder
	// The first comment lines show the key's paths; a path named like
	// "coding: latin-1" there would set the file's encoding (PEP 263)
	// unless this line sets it first.
	b.WriteString("# -*- coding: utf-8 -*-\n")
	writeComments(&b, "# ", p.headerLines()...)
	writeComments(&b, "# ", "Needs the azure-cosmos package (4.x).")
	writeComments(&b, "# ", sdkKeyNote...)
	imports := []string{"import os"}
	var fn sdkCode
	if p.synthetic() {
		fn = pythonKey(p.spec)
		imports = append(imports, fn.imports...)
	}
	// Plain imports first, then from-imports, as isort orders them.
	slices.SortFunc(imports, func(a, b string) int {
		return strings.Compare(fmt.Sprint(strings.HasPrefix(a, "from "), a), fmt.Sprint(strings.HasPrefix(b, "from "), b))
	})
	b.WriteString(strings.Join(imports, "\n") + "\n\n")
	sdkNames := "CosmosClient, PartitionKey"
	if p.autoscale() {
		sdkNames += ", ThroughputProperties"
	}
	fmt.Fprintf(&b, "from azure.cosmos import %s\n\n", sdkNames)
	b.WriteString("client = CosmosClient(os.environ[\"COSMOS_ENDPOINT\"], credential=os.environ[\"COSMOS_KEY\"])\n")
	fmt.Fprintf(&b, "database = client.get_database_client(%s)\n", jsonQuote(p.c.Database))
	path := jsonQuote(p.paths[0])
	if p.kind == "MultiHash" {
		path = "[" + list(p.paths, jsonQuote, ", ") + "]"
	}
	fmt.Fprintf(&b, "database.create_container(\n    id=%s,\n    partition_key=PartitionKey(path=%s, kind=%q, version=%d),\n", jsonQuote(p.c.Name), path, p.kind, p.version)
	switch {
	case p.manual():
		fmt.Fprintf(&b, "    offer_throughput=%d,\n", p.c.RU)
	case p.autoscale():
		fmt.Fprintf(&b, "    offer_throughput=ThroughputProperties(auto_scale_max_throughput=%d),\n", p.c.RU)
	}
	b.WriteString(")\n")
	if p.synthetic() {
		b.WriteString("\n\n")
		b.WriteString(usage("# ", "item[\""+keyProperty+"\"] = partition_key(item)  # item: a dict"))
		b.WriteString("\n\n")
		b.WriteString(fn.code)
	}
	return b.String()
}

// javascript uses @azure/cosmos: containers.create with partitionKey {paths,
// kind: PartitionKeyKind, version: PartitionKeyDefinitionVersion} and
// throughput or maxThroughput (azure-sdk-for-js sdk/cosmosdb/cosmos/src/
// documents/PartitionKeyDefinition.ts, PartitionKeyKind.ts,
// PartitionKeyDefinitionVersion.ts, client/Container/ContainerRequest.ts).
func javascript(p plan) string {
	var b strings.Builder
	writeComments(&b, "// ", p.headerLines()...)
	writeComments(&b, "// ", "Needs the @azure/cosmos package (4.x). An ES module (top-level await): save it as .mjs or set \"type\": \"module\".")
	writeComments(&b, "// ", sdkKeyNote...)
	fmt.Fprintf(&b, `import { CosmosClient, PartitionKeyDefinitionVersion, PartitionKeyKind } from "@azure/cosmos";

const client = new CosmosClient({
  endpoint: process.env.COSMOS_ENDPOINT,
  key: process.env.COSMOS_KEY,
});
const database = client.database(%s);
await database.containers.create({
  id: %s,
  partitionKey: {
    paths: [%s],
    kind: PartitionKeyKind.%s,
    version: PartitionKeyDefinitionVersion.V%d,
  },
`, jsonQuote(p.c.Database), jsonQuote(p.c.Name), list(p.paths, jsonQuote, ", "), p.kind, p.version)
	switch {
	case p.manual():
		fmt.Fprintf(&b, "  throughput: %d,\n", p.c.RU)
	case p.autoscale():
		fmt.Fprintf(&b, "  maxThroughput: %d,\n", p.c.RU)
	}
	b.WriteString("});\n")
	if p.synthetic() {
		b.WriteString("\n")
		b.WriteString(usage("// ", "item."+keyProperty+" = partitionKey(item);"))
		b.WriteString("\n")
		b.WriteString(javascriptKey(p.spec).code)
	}
	return b.String()
}

// goSDK uses azcosmos: ContainerProperties with PartitionKeyDefinition{Paths,
// Kind: PartitionKeyKindHash|PartitionKeyKindMultiHash, Version} and
// CreateContainerOptions.ThroughputProperties from
// NewManualThroughputProperties or NewAutoscaleThroughputProperties
// (azure-sdk-for-go sdk/data/azcosmos v1.5.0 partition_key_definition.go,
// throughput_properties.go, cosmos_database.go; the snippet compiles
// against it).
func goSDK(p plan) string {
	var b strings.Builder
	writeComments(&b, "// ", p.headerLines()...)
	writeComments(&b, "// ", "Needs github.com/Azure/azure-sdk-for-go/sdk/data/azcosmos.")
	writeComments(&b, "// ", sdkKeyNote...)
	imports := []string{"context", "log", "os"}
	var fn sdkCode
	if p.synthetic() {
		fn = goKey(p.spec)
		imports = append(imports, fn.imports...)
	}
	slices.Sort(imports)
	b.WriteString("package main\n\nimport (\n")
	for _, imp := range slices.Compact(imports) {
		fmt.Fprintf(&b, "\t%q\n", imp)
	}
	b.WriteString("\n\t\"github.com/Azure/azure-sdk-for-go/sdk/data/azcosmos\"\n)\n\n")
	fmt.Fprintf(&b, `func main() {
	cred, err := azcosmos.NewKeyCredential(os.Getenv("COSMOS_KEY"))
	if err != nil {
		log.Fatal(err)
	}
	client, err := azcosmos.NewClientWithKey(os.Getenv("COSMOS_ENDPOINT"), cred, nil)
	if err != nil {
		log.Fatal(err)
	}
	database, err := client.NewDatabase(%s)
	if err != nil {
		log.Fatal(err)
	}
	properties := azcosmos.ContainerProperties{
		ID: %s,
		PartitionKeyDefinition: azcosmos.PartitionKeyDefinition{
			Paths:   []string{%s},
			Kind:    azcosmos.PartitionKeyKind%s,
			Version: %d,
		},
	}
`, goQuote(p.c.Database), goQuote(p.c.Name), list(p.paths, goQuote, ", "), p.kind, p.version)
	options := "nil"
	switch {
	case p.manual():
		fmt.Fprintf(&b, "\tthroughput := azcosmos.NewManualThroughputProperties(%d)\n", p.c.RU)
		options = "&azcosmos.CreateContainerOptions{ThroughputProperties: &throughput}"
	case p.autoscale():
		fmt.Fprintf(&b, "\tthroughput := azcosmos.NewAutoscaleThroughputProperties(%d)\n", p.c.RU)
		options = "&azcosmos.CreateContainerOptions{ThroughputProperties: &throughput}"
	}
	if options != "nil" {
		fmt.Fprintf(&b, "\toptions := %s\n", options)
		options = "options"
	}
	fmt.Fprintf(&b, "\tif _, err := database.CreateContainer(context.Background(), properties, %s); err != nil {\n\t\tlog.Fatal(err)\n\t}\n}\n", options)
	if p.synthetic() {
		b.WriteString("\n")
		b.WriteString(usage("// ", "key, ok := partitionKey(item) // item: a map[string]any from encoding/json", `item["`+keyProperty+`"] = key // when ok`))
		b.WriteString("\n")
		b.WriteString(fn.code)
	}
	src := b.String()
	return src
}
