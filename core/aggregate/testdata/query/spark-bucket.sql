-- pkcalc: documents and bytes per value of the partition key /deviceId+/ts:day, for Apache Spark SQL 3.2 or later.
-- It reads the table or view documents of the items; for JSON Lines files,
-- first run (adding multiLine 'true' for a JSON array):
--   CREATE TEMPORARY VIEW documents USING json OPTIONS (path 'documents.json');
-- Save the result as one CSV file with a header and quotes doubled (Spark's
-- default escape, \, is not CSV), e.g. in PySpark:
--   spark.sql(query).coalesce(1).write.option("header", True).option("escape", '"').csv("aggregates")
--   pkcalc analyze --key /deviceId+/ts:day --aggregates aggregates/part-00000-....csv
-- Key values are JSON text, so 1 and "1" stay apart where the column types do
-- (reading JSON, Spark makes a property holding both a string); a null or
-- missing value leaves the cell empty, read as a missing key path. bytes is
-- each row's JSON size in bytes.
-- Times are bucketed in UTC: in PySpark, run the SET line as
-- spark.conf.set("spark.sql.session.timeZone", "UTC").
SET spark.sql.session.timeZone = UTC;
WITH pk_terms AS (
    SELECT cast(t.deviceId AS STRING) AS s0,
        cast(t.ts AS STRING) AS s1,
        try_cast(cast(t.ts AS STRING) AS DOUBLE) AS n1,
        octet_length(to_json(struct(*))) AS size
    FROM documents AS t
), pk_keyed AS (
    SELECT to_json(array(concat(s0, '-', date_format(coalesce(timestamp_micros(cast(CASE WHEN abs(n1) < 1e11 THEN n1 * 1e6 WHEN abs(n1) < 1e14 THEN n1 * 1e3 WHEN abs(n1) < 1e17 THEN n1 END AS BIGINT)), try_cast(s1 AS TIMESTAMP)), 'yyyy-MM-dd')))) AS j0,
        size
    FROM pk_terms
)
SELECT CASE WHEN j0 = '[null]' THEN NULL ELSE substr(j0, 2, length(j0) - 2) END AS k0,
    count(*) AS documents,
    sum(size) AS bytes
FROM pk_keyed
GROUP BY j0;
