-- pkcalc: documents and bytes per value of the partition key /customerId+hash(/id)%8, for DuckDB.
-- Save the result as CSV and give it to pkcalc:
--   duckdb -csv < aggregates.sql > aggregates.csv
--   pkcalc analyze --key '/customerId+hash(/id)%8' --aggregates aggregates.csv
-- (or COPY (the query) TO 'aggregates.csv' (HEADER)). Keep to CSV: an empty k
-- cell is a document without the key path, which JSON output prints as null.
-- Key values are JSON text, so 1 and "1" stay apart; bytes is each
-- document's minified JSON size in bytes.
-- The hash suffix uses lambda syntax: DuckDB 1.3 or later.
WITH pk_docs AS (
    SELECT json AS doc FROM read_json_objects('documents.json', format = 'auto')
), pk_vals AS (
    SELECT json_extract(doc, '/customerId') AS v0,
        json_extract(doc, '/id') AS v1,
        strlen(json(doc)) AS size
    FROM pk_docs
), pk_terms AS (
    SELECT CASE WHEN json_type(v0) IN ('OBJECT', 'ARRAY') THEN NULL WHEN json_type(v0) = 'VARCHAR' THEN json_extract_string(v0, '$') ELSE v0::VARCHAR END AS x0,
        CASE WHEN json_type(v1) IN ('OBJECT', 'ARRAY') THEN NULL WHEN json_type(v1) = 'VARCHAR' THEN json_extract_string(v1, '$') ELSE v1::VARCHAR END AS x1,
        size
    FROM pk_vals
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
