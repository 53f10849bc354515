-- pkcalc: documents and bytes per value of the partition key /deviceId+/ts:day, for Azure Cosmos DB for NoSQL.
-- Run it on the container (Data Explorer, or an SDK for many rows) and save
-- the result array as JSON; an item without the key path has no k field.
--   pkcalc analyze --key /deviceId+/ts:day --aggregates aggregates.json
-- It reads every item, so its RU charge grows with the container. bytes is
-- the length in characters of each item's JSON, system properties included
-- (bytes for ASCII text); to save RUs, remove the bytes line and the comma
-- before it, and pkcalc uses the average item size you give, or its default.
-- ToString writes numbers as JavaScript does, which is pkcalc's text except for
-- -0 (0) and sizes below 1e-6 or from 1e21 up, written with an exponent (1e-7,
-- not 0.0000001).
-- Times: numbers are epoch seconds, milliseconds or microseconds, told apart
-- by size; strings are cut, not parsed: their first characters are the bucket,
-- which is pkcalc's for ISO 8601 in UTC (Z, +00:00 or no zone; - or / in the
-- date; one T or space before the hour). Other offsets, RFC 1123, a month's
-- name first and Twitter's created_at, which pkcalc reads, get other buckets
-- here, and text that is no time to pkcalc still gets one (DuckDB and Spark
-- queries read every form: run one on an export).
SELECT IIF(IS_PRIMITIVE(c.deviceId) AND (IS_NUMBER(c.ts) OR IS_STRING(c.ts)), CONCAT(ToString(c.deviceId), "-", IIF(IS_NUMBER(c.ts), LEFT(TimestampToDateTime(FLOOR(IIF(ABS(c.ts) < 100000000000, c.ts * 1000, IIF(ABS(c.ts) < 100000000000000, c.ts, c.ts / 1000)))), 10), REPLACE(LEFT(c.ts, 10), "/", "-"))), undefined) AS k0,
    COUNT(1) AS documents,
    SUM(LENGTH(ToString(c))) AS bytes
FROM c
GROUP BY IIF(IS_PRIMITIVE(c.deviceId) AND (IS_NUMBER(c.ts) OR IS_STRING(c.ts)), CONCAT(ToString(c.deviceId), "-", IIF(IS_NUMBER(c.ts), LEFT(TimestampToDateTime(FLOOR(IIF(ABS(c.ts) < 100000000000, c.ts * 1000, IIF(ABS(c.ts) < 100000000000000, c.ts, c.ts / 1000)))), 10), REPLACE(LEFT(c.ts, 10), "/", "-"))), undefined)
