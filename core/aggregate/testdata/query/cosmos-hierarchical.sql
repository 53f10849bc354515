-- pkcalc: documents and bytes per value of the partition key /tenantId,/userId,/sessionId, for Azure Cosmos DB for NoSQL.
-- Run it on the container (Data Explorer, or an SDK for many rows) and save
-- the result array as JSON; an item without the key path has no k field.
--   pkcalc analyze --key /tenantId,/userId,/sessionId --aggregates aggregates.json
-- It reads every item, so its RU charge grows with the container. bytes is
-- the length in characters of each item's JSON, system properties included
-- (bytes for ASCII text); to save RUs, remove the bytes line and the comma
-- before it, and pkcalc uses the average item size you give, or its default.
SELECT c.tenantId AS k0,
    c.userId AS k1,
    c.sessionId AS k2,
    COUNT(1) AS documents,
    SUM(LENGTH(ToString(c))) AS bytes
FROM c
GROUP BY c.tenantId, c.userId, c.sessionId
