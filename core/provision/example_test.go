package provision_test

import (
	"fmt"
	"strings"

	"github.com/pkcalc/pkcalc/core/epk"
	"github.com/pkcalc/pkcalc/core/key"
	"github.com/pkcalc/pkcalc/core/provision"
)

func Example() {
	spec, _ := key.Parse("/tenantId,/userId,/id")
	snippets := provision.Snippets(spec, epk.V2, provision.Container{
		Account:       "contoso",
		ResourceGroup: "rg-app",
		RU:            4000,
		Autoscale:     true,
	})
	var ids []string
	for _, s := range snippets {
		ids = append(ids, s.ID+" ("+s.Lang+")")
	}
	fmt.Println(strings.Join(ids, ", "))
	fmt.Print(snippets[4].Code)
	// Output:
	// azure-cli (bash), powershell (powershell), bicep (bicep), arm (json), terraform (hcl), dotnet (csharp), java (java), python (python), javascript (javascript), go (go)
	// # Creates the container with partition key /tenantId, /userId, /id (MultiHash, hash version 2), autoscale up to 4000 RU/s.
	// # The partition key cannot be changed once the container exists.
	// # Needs the azurerm provider 4.x (partition_key_paths, partition_key_kind).
	// resource "azurerm_cosmosdb_sql_container" "container" {
	//   name                  = "items"
	//   resource_group_name   = "rg-app"
	//   account_name          = "contoso"
	//   database_name         = "appdb"
	//   partition_key_paths   = ["/tenantId", "/userId", "/id"]
	//   partition_key_kind    = "MultiHash"
	//   partition_key_version = 2
	//
	//   autoscale_settings {
	//     max_throughput = 4000
	//   }
	// }
}

func Example_synthetic() {
	// A synthetic key: the container is partitioned on /partitionKey and the
	// SDK snippets carry the function that computes it.
	spec, _ := key.Parse("/customerId+/orderDate:month+hash(/id)%8")
	for _, s := range provision.Snippets(spec, epk.V2, provision.Container{}) {
		if s.ID == "azure-cli" {
			fmt.Print(s.Code)
		}
	}
	// Output:
	// # Creates the container with partition key /partitionKey (Hash, hash version 2), no dedicated throughput (serverless account or shared database throughput).
	// # Synthetic key /customerId+/orderDate:month+hash(/id)%8: the application computes it and stores it in /partitionKey of every item (the SDK snippets include the function).
	// # The partition key cannot be changed once the container exists.
	// # In Git Bash on Windows, run export MSYS_NO_PATHCONV=1 first so that /paths are passed as they are.
	// az cosmosdb sql container create \
	//   --resource-group '<resource-group>' \
	//   --account-name '<account>' \
	//   --database-name appdb \
	//   --name items \
	//   --partition-key-path /partitionKey \
	//   --partition-key-version 2
}
