-- pkcalc: documents and bytes per value of the partition key /"order id"/"it's \"q\" a/b~c`d", for DuckDB.
-- Save the result as CSV and give it to pkcalc:
--   duckdb -csv < aggregates.sql > aggregates.csv
--   pkcalc analyze --key '/"order id"/"it'\''s \"q\" a/b~c`d"' --aggregates aggregates.csv
-- (or COPY (the query) TO 'aggregates.csv' (HEADER)). Keep to CSV: an empty k
-- cell is a document without the key path, which JSON output prints as null.
-- Key values are JSON text, so 1 and "1" stay apart; bytes is each
-- document's minified JSON size in bytes.
WITH pk_docs AS (
    SELECT json AS doc FROM read_json_objects('documents.json', format = 'auto')
), pk_keyed AS (
    SELECT json_extract(doc, '/order id/it''s "q" a~1b~0c`d') AS k0,
        strlen(json(doc)) AS size
    FROM pk_docs
)
SELECT k0,
    count(*) AS documents,
    sum(size) AS bytes
FROM pk_keyed
GROUP BY k0;
