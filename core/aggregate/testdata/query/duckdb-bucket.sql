-- pkcalc: documents and bytes per value of the partition key /deviceId+/ts:day, for DuckDB.
-- Save the result as CSV and give it to pkcalc:
--   duckdb -csv < aggregates.sql > aggregates.csv
--   pkcalc analyze --key /deviceId+/ts:day --aggregates aggregates.csv
-- (or COPY (the query) TO 'aggregates.csv' (HEADER)). Keep to CSV: an empty k
-- cell is a document without the key path, which JSON output prints as null.
-- Key values are JSON text, so 1 and "1" stay apart; bytes is each
-- document's minified JSON size in bytes.
-- Times are bucketed in UTC; strings without a zone are taken as UTC.
SET TimeZone = 'UTC';
WITH pk_docs AS (
    SELECT json AS doc FROM read_json_objects('documents.json', format = 'auto')
), pk_vals AS (
    SELECT json_extract(doc, '/deviceId') AS v0,
        json_extract(doc, '/ts') AS v1,
        strlen(json(doc)) AS size
    FROM pk_docs
), pk_terms AS (
    SELECT CASE WHEN json_type(v0) IN ('OBJECT', 'ARRAY') THEN NULL WHEN json_type(v0) = 'VARCHAR' THEN json_extract_string(v0, '$') ELSE v0::VARCHAR END AS x0,
        CASE WHEN json_type(v1) = 'VARCHAR' THEN try_cast(json_extract_string(v1, '$') AS TIMESTAMPTZ) WHEN json_type(v1) IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN to_timestamp(CASE WHEN abs(v1::DOUBLE) < 1e11 THEN v1::DOUBLE WHEN abs(v1::DOUBLE) < 1e14 THEN v1::DOUBLE / 1e3 WHEN abs(v1::DOUBLE) < 1e17 THEN v1::DOUBLE / 1e6 END) END AS ts1,
        size
    FROM pk_vals
), pk_keyed AS (
    SELECT to_json(x0 || '-' || strftime(ts1, '%Y-%m-%d')) AS k0,
        size
    FROM pk_terms
)
SELECT k0,
    count(*) AS documents,
    sum(size) AS bytes
FROM pk_keyed
GROUP BY k0;
