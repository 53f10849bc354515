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
WITH pk_terms AS (
    SELECT cast(t.customerId AS STRING) AS s0,
        cast(t.id AS STRING) AS s1,
        octet_length(to_json(struct(*))) AS size
    FROM documents AS t
), pk_keyed AS (
    SELECT to_json(array(concat(s0, '-', cast(aggregate(regexp_extract_all(hex(s1), '..', 0), cast(2166136261 AS BIGINT), (h, b) -> ((h ^ cast(conv(b, 16, 10) AS BIGINT)) * 16777619) % 4294967296) % 8 AS STRING)))) AS j0,
        size
    FROM pk_terms
)
SELECT CASE WHEN j0 = '[null]' THEN NULL ELSE substr(j0, 2, length(j0) - 2) END AS k0,
    count(*) AS documents,
    sum(size) AS bytes
FROM pk_keyed
GROUP BY j0;
