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
-- Times are read as pkcalc reads them: strings in its forms (ISO 8601 with
-- a T or spaces, offsets Z, +01:00, +0100 or +01, slashes, RFC 1123, a month's
-- name first, Twitter's created_at), numbers as epoch seconds, milliseconds or
-- microseconds by size.
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
), pk_times AS (
    SELECT *,
        regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(s1, '^(?:([0-9]{4})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(?:(?:T| +)([01]?[0-9]|2[0-3]):([0-5][0-9])(?::[0-5][0-9](?:[.,][0-9]+)?)?(?:Z|([+-])([01][0-9]|2[0-4])(?::?([0-5][0-9]|60))?)?)?)$', '#|\1|\2|\3|\4|\5|\6|\7|\8|#'), '^(?:([0-9]{4})/(0[1-9]|1[0-2])/(0[1-9]|[12][0-9]|3[01])(?:(?:T| +)([01]?[0-9]|2[0-3]):([0-5][0-9])(?::[0-5][0-9](?:[.,][0-9]+)?)?(?:Z|([+-])([01][0-9]|2[0-4])(?::?([0-5][0-9]|60))?)?)?)$', '#|\1|\2|\3|\4|\5|\6|\7|\8|#'), '^(?:(?:(?:Mon(?:day)?|Tue(?:sday)?|Wed(?:nesday)?|Thu(?:rsday)?|Fri(?:day)?|Sat(?:urday)?|Sun(?:day)?), +)?(0?[1-9]|[12][0-9]|3[01]) +(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|Jun(?:e)?|Jul(?:y)?|Aug(?:ust)?|Sep(?:tember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?) +([0-9]{4})(?: +([01]?[0-9]|2[0-3]):([0-5][0-9])(?::[0-5][0-9](?:[.,][0-9]+)?)?(?: +(?:GMT|UTC|UT|Z|([+-])([01][0-9]|2[0-4])(?::?([0-5][0-9]|60))?))?)?)$', '#|\3|\2|\1|\4|\5|\6|\7|\8|#'), '^(?:(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|Jun(?:e)?|Jul(?:y)?|Aug(?:ust)?|Sep(?:tember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?) +(0?[1-9]|[12][0-9]|3[01]),? +([0-9]{4}))$', '#|\3|\1|\2||||||#'), '^(?:(?:Mon(?:day)?|Tue(?:sday)?|Wed(?:nesday)?|Thu(?:rsday)?|Fri(?:day)?|Sat(?:urday)?|Sun(?:day)?) +(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|Jun(?:e)?|Jul(?:y)?|Aug(?:ust)?|Sep(?:tember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?) +(0?[1-9]|[12][0-9]|3[01]) +([01]?[0-9]|2[0-3]):([0-5][0-9])(?::[0-5][0-9](?:[.,][0-9]+)?)?(?: +(?:GMT|UTC|UT|Z|([+-])([01][0-9]|2[0-4])(?::?([0-5][0-9]|60))?))? +([0-9]{4}))$', '#|\8|\1|\2|\3|\4|\5|\6|\7|#') AS z1
    FROM pk_parts
), pk_terms AS (
    SELECT CASE WHEN json_type(v0) IN ('OBJECT', 'ARRAY') THEN NULL WHEN json_type(v0) = 'VARCHAR' THEN json_extract_string(v0, '$') WHEN d0 IS NOT NULL THEN CASE WHEN d0 <> 0 AND abs(d0) <= 9007199254740992 AND d0 = floor(d0) THEN d0::BIGINT::VARCHAR WHEN d0::VARCHAR = 'inf' THEN '+Inf' WHEN d0::VARCHAR = '-inf' THEN '-Inf' WHEN d0::VARCHAR NOT LIKE '%e%' THEN CASE WHEN d0::VARCHAR LIKE '%.%' THEN regexp_replace(regexp_replace(d0::VARCHAR, '0+$', ''), '[.]$', '') ELSE d0::VARCHAR END ELSE CASE WHEN d0 < 0 THEN '-' ELSE '' END || CASE WHEN p0 <= 0 THEN '0.' || repeat('0', -p0) || t0 WHEN p0 >= length(t0) THEN t0 || repeat('0', p0 - length(t0)) ELSE substr(t0, 1, p0) || '.' || substr(t0, p0 + 1) END END ELSE v0::VARCHAR END AS x0,
        CASE WHEN d1 IS NOT NULL THEN make_timestamp(CASE WHEN abs(d1) < 1e11 THEN trunc(d1)::BIGINT * 1000000 + trunc(floor(trunc((d1 - trunc(d1)::BIGINT) * 1e9)::BIGINT / 1000))::BIGINT WHEN abs(d1) < 1e14 THEN trunc(d1)::BIGINT * 1000 WHEN abs(d1) < 1e17 THEN trunc(d1)::BIGINT END) WHEN length(s1) BETWEEN 10 AND 40 AND z1 <> s1 AND z1 LIKE '#%#' THEN try_cast(split_part(z1, '|', 2) || '-' || CASE WHEN length(split_part(z1, '|', 3)) = 2 THEN split_part(z1, '|', 3) ELSE substr('Jan01Feb02Mar03Apr04May05Jun06Jul07Aug08Sep09Oct10Nov11Dec12', instr('Jan01Feb02Mar03Apr04May05Jun06Jul07Aug08Sep09Oct10Nov11Dec12', substr(split_part(z1, '|', 3), 1, 3)) + 3, 2) END || '-' || lpad(split_part(z1, '|', 4), 2, '0') || ' ' || lpad(coalesce(nullif(split_part(z1, '|', 5), ''), '0'), 2, '0') || ':' || coalesce(nullif(split_part(z1, '|', 6), ''), '00') || ':00' AS TIMESTAMP) - to_minutes(CASE WHEN split_part(z1, '|', 7) = '-' THEN -1 ELSE 1 END * (coalesce(try_cast(split_part(z1, '|', 8) AS INTEGER), 0) * 60 + coalesce(try_cast(split_part(z1, '|', 9) AS INTEGER), 0))) END AS ts1,
        size
    FROM pk_times
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
