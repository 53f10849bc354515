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
-- Numbers in the key are written as pkcalc writes them (27, not 27.0; 0.0000001,
-- not 1.0E-7), except: -0 is 0; in a column Spark made a string, a number keeps
-- Spark's text (27.0); and on Java before 19, Double.toString gives some numbers
-- of 1e16 or more extra digits (1e23 as 9.999999999999999E22), which then differ.
-- Times are read as pkcalc reads them: strings in its forms (ISO 8601 with
-- a T or spaces, offsets Z, +01:00, +0100 or +01, slashes, RFC 1123, a month's
-- name first, Twitter's created_at), numbers as epoch seconds, milliseconds or
-- microseconds by size; except numbers in a column Spark made a string, which
-- are not times here.
-- Times are bucketed in UTC: in PySpark, run the SET line as
-- spark.conf.set("spark.sql.session.timeZone", "UTC").
SET spark.sql.session.timeZone = UTC;
WITH pk_vals AS (
    SELECT CASE WHEN typeof(t.deviceId) RLIKE '^(tinyint|smallint|int|bigint|float|double|decimal)' THEN cast(cast(t.deviceId AS STRING) AS DOUBLE) END AS n0,
        CASE WHEN typeof(t.deviceId) RLIKE '^(tinyint|smallint|int|bigint|float|double|decimal)|^(struct|array|map)' THEN NULL ELSE cast(t.deviceId AS STRING) END AS s0,
        CASE WHEN typeof(t.ts) RLIKE '^(tinyint|smallint|int|bigint|float|double|decimal)' THEN cast(cast(t.ts AS STRING) AS DOUBLE) END AS n1,
        CASE WHEN typeof(t.ts) RLIKE '^(tinyint|smallint|int|bigint|float|double|decimal)|^(struct|array|map)' THEN NULL ELSE cast(t.ts AS STRING) END AS s1,
        octet_length(to_json(struct(*))) AS size
    FROM documents AS t
), pk_parts AS (
    SELECT *,
        regexp_replace(replace(regexp_extract(cast(n0 AS STRING), '^-?([0-9.]+)', 1), '.', ''), '0+$', '') AS t0,
        1 + try_cast(regexp_extract(cast(n0 AS STRING), 'E([-+]?[0-9]+)', 1) AS INT) AS p0
    FROM pk_vals
), pk_times AS (
    SELECT *,
        regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(s1, '^(?:([0-9]{4})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(?:(?:T| +)([01]?[0-9]|2[0-3]):([0-5][0-9])(?::[0-5][0-9](?:[.,][0-9]+)?)?(?:Z|([+-])([01][0-9]|2[0-4])(?::?([0-5][0-9]|60))?)?)?)$', '#|$1|$2|$3|$4|$5|$6|$7|$8|#'), '^(?:([0-9]{4})/(0[1-9]|1[0-2])/(0[1-9]|[12][0-9]|3[01])(?:(?:T| +)([01]?[0-9]|2[0-3]):([0-5][0-9])(?::[0-5][0-9](?:[.,][0-9]+)?)?(?:Z|([+-])([01][0-9]|2[0-4])(?::?([0-5][0-9]|60))?)?)?)$', '#|$1|$2|$3|$4|$5|$6|$7|$8|#'), '^(?:(?:(?:Mon(?:day)?|Tue(?:sday)?|Wed(?:nesday)?|Thu(?:rsday)?|Fri(?:day)?|Sat(?:urday)?|Sun(?:day)?), +)?(0?[1-9]|[12][0-9]|3[01]) +(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|Jun(?:e)?|Jul(?:y)?|Aug(?:ust)?|Sep(?:tember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?) +([0-9]{4})(?: +([01]?[0-9]|2[0-3]):([0-5][0-9])(?::[0-5][0-9](?:[.,][0-9]+)?)?(?: +(?:GMT|UTC|UT|Z|([+-])([01][0-9]|2[0-4])(?::?([0-5][0-9]|60))?))?)?)$', '#|$3|$2|$1|$4|$5|$6|$7|$8|#'), '^(?:(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|Jun(?:e)?|Jul(?:y)?|Aug(?:ust)?|Sep(?:tember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?) +(0?[1-9]|[12][0-9]|3[01]),? +([0-9]{4}))$', '#|$3|$1|$2||||||#'), '^(?:(?:Mon(?:day)?|Tue(?:sday)?|Wed(?:nesday)?|Thu(?:rsday)?|Fri(?:day)?|Sat(?:urday)?|Sun(?:day)?) +(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|Jun(?:e)?|Jul(?:y)?|Aug(?:ust)?|Sep(?:tember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?) +(0?[1-9]|[12][0-9]|3[01]) +([01]?[0-9]|2[0-3]):([0-5][0-9])(?::[0-5][0-9](?:[.,][0-9]+)?)?(?: +(?:GMT|UTC|UT|Z|([+-])([01][0-9]|2[0-4])(?::?([0-5][0-9]|60))?))? +([0-9]{4}))$', '#|$8|$1|$2|$3|$4|$5|$6|$7|#') AS z1
    FROM pk_parts
), pk_terms AS (
    SELECT CASE WHEN n0 IS NOT NULL THEN CASE WHEN n0 <> 0 AND abs(n0) <= 9007199254740992 AND n0 = floor(n0) THEN cast(cast(n0 AS BIGINT) AS STRING) WHEN cast(n0 AS STRING) = 'Infinity' THEN '+Inf' WHEN cast(n0 AS STRING) = '-Infinity' THEN '-Inf' WHEN cast(n0 AS STRING) NOT LIKE '%E%' THEN CASE WHEN cast(n0 AS STRING) LIKE '%.%' THEN regexp_replace(regexp_replace(cast(n0 AS STRING), '0+$', ''), '[.]$', '') ELSE cast(n0 AS STRING) END ELSE CASE WHEN n0 < 0 THEN '-' ELSE '' END || CASE WHEN p0 <= 0 THEN '0.' || repeat('0', -p0) || t0 WHEN p0 >= length(t0) THEN t0 || repeat('0', p0 - length(t0)) ELSE substr(t0, 1, p0) || '.' || substr(t0, p0 + 1) END END ELSE s0 END AS x0,
        date_format(timestamp_micros(CASE WHEN n1 IS NOT NULL THEN CASE WHEN abs(n1) < 1e11 THEN try_cast(n1 AS BIGINT) * 1000000 + try_cast(floor(try_cast((n1 - try_cast(n1 AS BIGINT)) * 1e9 AS BIGINT) / 1000) AS BIGINT) WHEN abs(n1) < 1e14 THEN try_cast(n1 AS BIGINT) * 1000 WHEN abs(n1) < 1e17 THEN try_cast(n1 AS BIGINT) END WHEN length(s1) BETWEEN 10 AND 40 AND z1 <> s1 AND z1 LIKE '#%#' THEN unix_micros(try_cast(split(z1, '[|]')[1] || '-' || CASE WHEN length(split(z1, '[|]')[2]) = 2 THEN split(z1, '[|]')[2] ELSE substr('Jan01Feb02Mar03Apr04May05Jun06Jul07Aug08Sep09Oct10Nov11Dec12', instr('Jan01Feb02Mar03Apr04May05Jun06Jul07Aug08Sep09Oct10Nov11Dec12', substr(split(z1, '[|]')[2], 1, 3)) + 3, 2) END || '-' || lpad(split(z1, '[|]')[3], 2, '0') || ' ' || lpad(coalesce(nullif(split(z1, '[|]')[4], ''), '0'), 2, '0') || ':' || coalesce(nullif(split(z1, '[|]')[5], ''), '00') || ':00' AS TIMESTAMP)) - cast(CASE WHEN split(z1, '[|]')[6] = '-' THEN -1 ELSE 1 END * (coalesce(try_cast(split(z1, '[|]')[7] AS INT), 0) * 60 + coalesce(try_cast(split(z1, '[|]')[8] AS INT), 0)) AS BIGINT) * 60000000 END), 'yyyy-MM-dd') AS x1,
        size
    FROM pk_times
), pk_keyed AS (
    SELECT to_json(array(concat(x0, '-', x1))) AS j0,
        size
    FROM pk_terms
)
SELECT CASE WHEN j0 = '[null]' THEN NULL ELSE substr(j0, 2, length(j0) - 2) END AS k0,
    count(*) AS documents,
    sum(size) AS bytes
FROM pk_keyed
GROUP BY j0;
