-- pkcalc: documents and bytes per value of the partition key /deviceId+/ts:day, for DuckDB.
-- Save the result as CSV and give it to pkcalc:
--   duckdb -csv < aggregates.sql > aggregates.csv
--   pkcalc analyze --key /deviceId+/ts:day --aggregates aggregates.csv
-- (or COPY (the query) TO 'aggregates.csv' (HEADER)). Keep to CSV: an empty k
-- cell is a document without the key path, which JSON output prints as null.
-- Key values are JSON text, so 1 and "1" stay apart; bytes is each
-- document's minified JSON size in bytes.
-- Numbers in the key are written as pkcalc writes them (27, not 27.0;
-- 0.0000001, not 1e-07), except -0 without a fraction, which DuckDB reads as 0.
-- Times are read as pkcalc reads them: strings in its layouts (2024-03-10,
-- 2024-03-10T23:30, seconds, a fraction, Z or +hh:mm; not +0200 nor a lowercase
-- t), numbers as epoch seconds, milliseconds or microseconds by size.
-- Times are bucketed in UTC; strings without a zone are taken as UTC.
SET TimeZone = 'UTC';
WITH pk_docs AS (
    SELECT json AS doc FROM read_json_objects('documents.json', format = 'auto')
), pk_vals AS (
    SELECT json_extract(doc, '/deviceId') AS v0,
        json_extract(doc, '/ts') AS v1,
        strlen(json(doc)) AS size
    FROM pk_docs
), pk_parts AS (
    SELECT *,
        CASE WHEN json_type(v0) IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN v0::DOUBLE END AS d0,
        regexp_replace(replace(regexp_extract(try_cast(v0 AS DOUBLE)::VARCHAR, '^-?([0-9.]+)', 1), '.', ''), '0+$', '') AS t0,
        1 + try_cast(regexp_extract(try_cast(v0 AS DOUBLE)::VARCHAR, 'e([-+]?[0-9]+)', 1) AS INTEGER) AS p0,
        CASE WHEN json_type(v1) IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN v1::DOUBLE END AS d1,
        CASE WHEN json_type(v1) = 'VARCHAR' THEN json_extract_string(v1, '$') END AS s1
    FROM pk_vals
), pk_terms AS (
    SELECT CASE WHEN json_type(v0) IN ('OBJECT', 'ARRAY') THEN NULL WHEN json_type(v0) = 'VARCHAR' THEN json_extract_string(v0, '$') WHEN d0 IS NOT NULL THEN CASE WHEN d0 <> 0 AND abs(d0) <= 9007199254740992 AND d0 = floor(d0) THEN d0::BIGINT::VARCHAR WHEN d0::VARCHAR = 'inf' THEN '+Inf' WHEN d0::VARCHAR = '-inf' THEN '-Inf' WHEN d0::VARCHAR NOT LIKE '%e%' THEN CASE WHEN d0::VARCHAR LIKE '%.%' THEN regexp_replace(regexp_replace(d0::VARCHAR, '0+$', ''), '[.]$', '') ELSE d0::VARCHAR END ELSE CASE WHEN d0 < 0 THEN '-' ELSE '' END || CASE WHEN p0 <= 0 THEN '0.' || repeat('0', -p0) || t0 WHEN p0 >= length(t0) THEN t0 || repeat('0', p0 - length(t0)) ELSE substr(t0, 1, p0) || '.' || substr(t0, p0 + 1) END END ELSE v0::VARCHAR END AS x0,
        CASE WHEN d1 IS NOT NULL THEN make_timestamp(CASE WHEN abs(d1) < 1e11 THEN trunc(d1)::BIGINT * 1000000 + trunc(floor(trunc((d1 - trunc(d1)::BIGINT) * 1e9)::BIGINT / 1000))::BIGINT WHEN abs(d1) < 1e14 THEN trunc(d1)::BIGINT * 1000 WHEN abs(d1) < 1e17 THEN trunc(d1)::BIGINT END) WHEN length(s1) <= 40 AND regexp_matches(s1, '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T([01]?[0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9]([.,][0-9]+)?)?(Z|[+-]([01][0-9]|2[0-4]):([0-5][0-9]|60))?| ([01]?[0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]([.,][0-9]+)?(Z|[+-]([01][0-9]|2[0-4]):([0-5][0-9]|60))?)?$') THEN try_cast(CASE WHEN length(s1) = 10 THEN s1 || ' 00:00:00' ELSE substr(s1, 1, 10) || ' ' || lpad(regexp_extract(s1, '^.{10}[T ]([0-9]+):', 1), 2, '0') || ':' || regexp_extract(s1, '^.{10}[T ][0-9]+:([0-9]{2})', 1) || ':00' END AS TIMESTAMP) - to_minutes(CASE WHEN regexp_matches(s1, '[+-][0-9]{2}:[0-9]{2}$') THEN CASE WHEN substr(right(s1, 6), 1, 1) = '-' THEN -1 ELSE 1 END * (try_cast(substr(right(s1, 6), 2, 2) AS INTEGER) * 60 + try_cast(substr(right(s1, 6), 5, 2) AS INTEGER)) ELSE 0 END) END AS ts1,
        size
    FROM pk_parts
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
