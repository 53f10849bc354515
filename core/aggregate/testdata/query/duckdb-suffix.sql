-- pkcalc: documents and bytes per value of the partition key /customerId+hash(/id)%8, for DuckDB.
-- Save the result as CSV and give it to pkcalc:
--   duckdb -csv < aggregates.sql > aggregates.csv
--   pkcalc analyze --key '/customerId+hash(/id)%8' --aggregates aggregates.csv
-- (or COPY (the query) TO 'aggregates.csv' (HEADER)). Keep to CSV: an empty k
-- cell is a document without the key path, which JSON output prints as null.
-- Key values are JSON text, so 1 and "1" stay apart; bytes is each
-- document's minified JSON size in bytes.
-- The hash suffix uses lambda syntax: DuckDB 1.3 or later.
-- Numbers in the key are written as pkcalc writes them (27, not 27.0;
-- 0.0000001, not 1e-07), except -0 without a fraction, which DuckDB reads as 0.
WITH pk_docs AS (
    SELECT json AS doc FROM read_json_objects('documents.json', format = 'auto')
), pk_vals AS (
    SELECT json_extract(doc, '/customerId') AS v0,
        json_extract(doc, '/id') AS v1,
        strlen(json(doc)) AS size
    FROM pk_docs
), pk_parts AS (
    SELECT *,
        CASE WHEN json_type(v0) IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN v0::DOUBLE END AS d0,
        regexp_replace(replace(regexp_extract(try_cast(v0 AS DOUBLE)::VARCHAR, '^-?([0-9.]+)', 1), '.', ''), '0+$', '') AS t0,
        1 + try_cast(regexp_extract(try_cast(v0 AS DOUBLE)::VARCHAR, 'e([-+]?[0-9]+)', 1) AS INTEGER) AS p0,
        CASE WHEN json_type(v1) IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN v1::DOUBLE END AS d1,
        regexp_replace(replace(regexp_extract(try_cast(v1 AS DOUBLE)::VARCHAR, '^-?([0-9.]+)', 1), '.', ''), '0+$', '') AS t1,
        1 + try_cast(regexp_extract(try_cast(v1 AS DOUBLE)::VARCHAR, 'e([-+]?[0-9]+)', 1) AS INTEGER) AS p1
    FROM pk_vals
), pk_terms AS (
    SELECT CASE WHEN json_type(v0) IN ('OBJECT', 'ARRAY') THEN NULL WHEN json_type(v0) = 'VARCHAR' THEN json_extract_string(v0, '$') WHEN d0 IS NOT NULL THEN CASE WHEN d0 <> 0 AND abs(d0) <= 9007199254740992 AND d0 = floor(d0) THEN d0::BIGINT::VARCHAR WHEN d0::VARCHAR = 'inf' THEN '+Inf' WHEN d0::VARCHAR = '-inf' THEN '-Inf' WHEN d0::VARCHAR NOT LIKE '%e%' THEN CASE WHEN d0::VARCHAR LIKE '%.%' THEN regexp_replace(regexp_replace(d0::VARCHAR, '0+$', ''), '[.]$', '') ELSE d0::VARCHAR END ELSE CASE WHEN d0 < 0 THEN '-' ELSE '' END || CASE WHEN p0 <= 0 THEN '0.' || repeat('0', -p0) || t0 WHEN p0 >= length(t0) THEN t0 || repeat('0', p0 - length(t0)) ELSE substr(t0, 1, p0) || '.' || substr(t0, p0 + 1) END END ELSE v0::VARCHAR END AS x0,
        CASE WHEN json_type(v1) IN ('OBJECT', 'ARRAY') THEN NULL WHEN json_type(v1) = 'VARCHAR' THEN json_extract_string(v1, '$') WHEN d1 IS NOT NULL THEN CASE WHEN d1 <> 0 AND abs(d1) <= 9007199254740992 AND d1 = floor(d1) THEN d1::BIGINT::VARCHAR WHEN d1::VARCHAR = 'inf' THEN '+Inf' WHEN d1::VARCHAR = '-inf' THEN '-Inf' WHEN d1::VARCHAR NOT LIKE '%e%' THEN CASE WHEN d1::VARCHAR LIKE '%.%' THEN regexp_replace(regexp_replace(d1::VARCHAR, '0+$', ''), '[.]$', '') ELSE d1::VARCHAR END ELSE CASE WHEN d1 < 0 THEN '-' ELSE '' END || CASE WHEN p1 <= 0 THEN '0.' || repeat('0', -p1) || t1 WHEN p1 >= length(t1) THEN t1 || repeat('0', p1 - length(t1)) ELSE substr(t1, 1, p1) || '.' || substr(t1, p1 + 1) END END ELSE v1::VARCHAR END AS x1,
        size
    FROM pk_parts
), pk_keyed AS (
    SELECT to_json(x0 || '-' || CASE WHEN x1 IS NULL THEN NULL ELSE (list_reduce(list_prepend(2166136261::BIGINT, list_transform(regexp_extract_all(hex(x1), '..'), lambda d: ((strpos('0123456789ABCDEF', d[1]) - 1) * 16 + strpos('0123456789ABCDEF', d[2]) - 1)::BIGINT)), lambda h, c: (xor(h, c) * 16777619) % 4294967296) % 8)::VARCHAR END) AS k0,
        size
    FROM pk_terms
)
SELECT k0,
    count(*) AS documents,
    sum(size) AS bytes
FROM pk_keyed
GROUP BY k0;
