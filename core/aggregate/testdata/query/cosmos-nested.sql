-- pkcalc: documents and bytes per value of the partition key /customer/address/city, for Azure Cosmos DB for NoSQL.
-- Run it on the container (Data Explorer, or an SDK for many rows) and save
-- the result array as JSON; an item without the key path has no k field.
--   pkcalc analyze --key /customer/address/city --aggregates aggregates.json
-- It reads every item, so its RU charge grows with the container. bytes is
-- the length in characters of each item's JSON, system properties included
-- (bytes for ASCII text); to save RUs, remove the bytes line and the comma
-- before it, and pkcalc uses the average item size you give, or its default.
SELECT c.customer.address.city AS k0,
    COUNT(1) AS documents,
    SUM(LENGTH(ToString(c))) AS bytes
FROM c
GROUP BY c.customer.address.city
