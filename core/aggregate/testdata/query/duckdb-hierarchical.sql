-- pkcalc: documents and bytes per value of the partition key /tenantId,/userId,/sessionId, for DuckDB.
-- Save the result as CSV and give it to pkcalc:
--   duckdb -csv < aggregates.sql > aggregates.csv
--   pkcalc analyze --key /tenantId,/userId,/sessionId --aggregates aggregates.csv
-- (or COPY (the query) TO 'aggregates.csv' (HEADER)). Keep to CSV: an empty k
-- cell is a document without the key path, which JSON output prints as null.
-- Key values are JSON text, so 1 and "1" stay apart; bytes is each
-- document's minified JSON size in bytes.
WITH pk_docs AS (
    SELECT json AS doc FROM read_json_objects('documents.json', format = 'auto')
), pk_keyed AS (
    SELECT json_extract(doc, '/tenantId') AS k0,
        json_extract(doc, '/userId') AS k1,
        json_extract(doc, '/sessionId') AS k2,
        strlen(json(doc)) AS size
    FROM pk_docs
)
SELECT k0, k1, k2,
    count(*) AS documents,
    sum(size) AS bytes
FROM pk_keyed
GROUP BY k0, k1, k2;
