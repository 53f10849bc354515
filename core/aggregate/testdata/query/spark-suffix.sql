-- pkcalc: documents and bytes per value of the partition key /customerId+hash(/id)%8, for Apache Spark SQL 3.2 or later.
-- It reads the table or view documents of the items; for JSON Lines files,
-- first run (adding multiLine 'true' for a JSON array):
--   CREATE TEMPORARY VIEW documents USING json OPTIONS (path 'documents.json');
-- Save the result as one CSV file with a header and quotes doubled (Spark's
-- default escape, \, is not CSV), e.g. in PySpark:
--   spark.sql(query).coalesce(1).write.option("header", True).option("escape", '"').csv("aggregates")
--   pkcalc analyze --key '/customerId+hash(/id)%8' --aggregates aggregates/part-00000-....csv
-- Key values are JSON text, so 1 and "1" stay apart where the column types do
-- (reading JSON, Spark makes a property holding both a string); a null or
-- missing value leaves the cell empty, read as a missing key path. bytes is
-- each row's JSON size in bytes.
-- Numbers in the key are written as pkcalc writes them (27, not 27.0; 0.0000001,
-- not 1.0E-7), except: -0 is 0; in a column Spark made a string, a number keeps
-- Spark's text (27.0); and on Java before 19, Double.toString gives some numbers
-- of 1e16 or more extra digits (1e23 as 9.999999999999999E22), which then differ.
WITH pk_vals AS (
    SELECT CASE WHEN typeof(t.customerId) RLIKE '^(tinyint|smallint|int|bigint|float|double|decimal)' THEN cast(cast(t.customerId AS STRING) AS DOUBLE) END AS n0,
        CASE WHEN typeof(t.customerId) RLIKE '^(tinyint|smallint|int|bigint|float|double|decimal)|^(struct|array|map)' THEN NULL ELSE cast(t.customerId AS STRING) END AS s0,
        CASE WHEN typeof(t.id) RLIKE '^(tinyint|smallint|int|bigint|float|double|decimal)' THEN cast(cast(t.id AS STRING) AS DOUBLE) END AS n1,
        CASE WHEN typeof(t.id) RLIKE '^(tinyint|smallint|int|bigint|float|double|decimal)|^(struct|array|map)' THEN NULL ELSE cast(t.id AS STRING) END AS s1,
        octet_length(to_json(struct(*))) AS size
    FROM documents AS t
), pk_parts AS (
    SELECT *,
        regexp_replace(replace(regexp_extract(cast(n0 AS STRING), '^-?([0-9.]+)', 1), '.', ''), '0+$', '') AS t0,
        1 + try_cast(regexp_extract(cast(n0 AS STRING), 'E([-+]?[0-9]+)', 1) AS INT) AS p0,
        regexp_replace(replace(regexp_extract(cast(n1 AS STRING), '^-?([0-9.]+)', 1), '.', ''), '0+$', '') AS t1,
        1 + try_cast(regexp_extract(cast(n1 AS STRING), 'E([-+]?[0-9]+)', 1) AS INT) AS p1
    FROM pk_vals
), pk_terms AS (
    SELECT CASE WHEN n0 IS NOT NULL THEN CASE WHEN n0 <> 0 AND abs(n0) <= 9007199254740992 AND n0 = floor(n0) THEN cast(cast(n0 AS BIGINT) AS STRING) WHEN cast(n0 AS STRING) = 'Infinity' THEN '+Inf' WHEN cast(n0 AS STRING) = '-Infinity' THEN '-Inf' WHEN cast(n0 AS STRING) NOT LIKE '%E%' THEN CASE WHEN cast(n0 AS STRING) LIKE '%.%' THEN regexp_replace(regexp_replace(cast(n0 AS STRING), '0+$', ''), '[.]$', '') ELSE cast(n0 AS STRING) END ELSE CASE WHEN n0 < 0 THEN '-' ELSE '' END || CASE WHEN p0 <= 0 THEN '0.' || repeat('0', -p0) || t0 WHEN p0 >= length(t0) THEN t0 || repeat('0', p0 - length(t0)) ELSE substr(t0, 1, p0) || '.' || substr(t0, p0 + 1) END END ELSE s0 END AS x0,
        CASE WHEN n1 IS NOT NULL THEN CASE WHEN n1 <> 0 AND abs(n1) <= 9007199254740992 AND n1 = floor(n1) THEN cast(cast(n1 AS BIGINT) AS STRING) WHEN cast(n1 AS STRING) = 'Infinity' THEN '+Inf' WHEN cast(n1 AS STRING) = '-Infinity' THEN '-Inf' WHEN cast(n1 AS STRING) NOT LIKE '%E%' THEN CASE WHEN cast(n1 AS STRING) LIKE '%.%' THEN regexp_replace(regexp_replace(cast(n1 AS STRING), '0+$', ''), '[.]$', '') ELSE cast(n1 AS STRING) END ELSE CASE WHEN n1 < 0 THEN '-' ELSE '' END || CASE WHEN p1 <= 0 THEN '0.' || repeat('0', -p1) || t1 WHEN p1 >= length(t1) THEN t1 || repeat('0', p1 - length(t1)) ELSE substr(t1, 1, p1) || '.' || substr(t1, p1 + 1) END END ELSE s1 END AS x1,
        size
    FROM pk_parts
), pk_keyed AS (
    SELECT to_json(array(concat(x0, '-', cast(aggregate(regexp_extract_all(hex(x1), '..', 0), cast(2166136261 AS BIGINT), (h, b) -> ((h ^ cast(conv(b, 16, 10) AS BIGINT)) * 16777619) % 4294967296) % 8 AS STRING)))) AS j0,
        size
    FROM pk_terms
)
SELECT CASE WHEN j0 = '[null]' THEN NULL ELSE substr(j0, 2, length(j0) - 2) END AS k0,
    count(*) AS documents,
    sum(size) AS bytes
FROM pk_keyed
GROUP BY j0;
