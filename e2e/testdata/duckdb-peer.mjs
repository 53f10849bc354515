#!/usr/bin/env node
// duckdb-peer counts, in DuckDB, the documents per value of each of pkcalc's
// candidate keys over a JSON Lines file, in one query (GROUP BY GROUPING
// SETS), and prints as JSON the best wall time of three runs and, per
// grouping set, the number of groups: the peer that TestBrowserBenchmark
// (e2e/bench_test.go) measures pkcalc against, on the same file.
//
//   duckdb-peer.mjs FILE THREADS KEYS
//
// KEYS is the keys as JSON, as peerKeys in e2e/peers_test.go writes them:
// [{"spec": "/a+/t:day", "kind": "synthetic", "terms": [{"path": ["a"]},
// {"path": ["t"], "bucket": "day"}]}, ...]. A key groups by its terms'
// columns together (a hierarchical key by its levels, a synthetic one by its
// terms rather than by their text joined with "-"); a time bucket is the UTC
// time cut with date_trunc, and a computed suffix DuckDB's own hash() modulo
// N, not pkcalc's FNV-1a, so its groups can differ from pkcalc's. Paths are
// top-level properties, read as VARCHAR.
//
// ./build.sh bench copies this file into build/duckdb beside the
// @duckdb/node-api that need_duckdb_api installs (Node finds the package
// from the importing file's directory, and ESM ignores NODE_PATH).
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const [file, threads, keysJSON] = process.argv.slice(2);
if (!file || !/^[1-9][0-9]*$/.test(threads ?? '') || !keysJSON) {
  process.stderr.write('usage: duckdb-peer.mjs FILE THREADS KEYS (the keys as JSON)\n');
  process.exit(2);
}
const keys = JSON.parse(keysJSON);

const str = (s) => `'${s.replaceAll("'", "''")}'`;
const ident = (s) => `"${s.replaceAll('"', '""')}"`;

// Each distinct term is a column k0, k1, ... of the inner select; each
// distinct set of them a grouping set.
const columns = new Set();
const exprs = [];
const sets = [];
const keySet = keys.map((k) => {
  const set = k.terms.map((t) => {
    if (t.path.length !== 1) throw new Error(`${k.spec}: only top-level paths are read`);
    columns.add(t.path[0]);
    const col = ident(t.path[0]);
    // Cast through TIMESTAMPTZ, which applies an offset, to the UTC time:
    // without the ICU extension, which the package does not bundle, a
    // TIMESTAMPTZ cast to TIMESTAMP is its UTC time.
    const e = t.bucket ? `date_trunc(${str(t.bucket)}, CAST(${col} AS TIMESTAMPTZ)::TIMESTAMP)`
      : t.modulus ? `hash(${col}) % ${t.modulus}` : col;
    let i = exprs.indexOf(e);
    if (i < 0) i = exprs.push(e) - 1;
    return i;
  });
  const id = [...new Set(set)].sort((a, b) => a - b).join(',');
  let s = sets.findIndex((x) => x.id === id);
  if (s < 0) s = sets.push({ id, cols: id.split(',').map((i) => `k${i}`) }) - 1;
  return s;
});
// GROUPING(k0, ..., kn) has a bit set, k0's the highest, for each column a
// row is not grouped by: one number per grouping set.
const names = exprs.map((_, i) => `k${i}`);
const mask = (set) => names.reduce((m, n, i) => (set.cols.includes(n) ? m : m | (1 << (names.length - 1 - i))), 0);
const query = `SELECT grouping_id, count(*) AS groups, sum(documents) AS documents
FROM (
  SELECT GROUPING(${names.join(', ')}) AS grouping_id, count(*) AS documents
  FROM (
    SELECT ${exprs.map((e, i) => `${e} AS k${i}`).join(', ')}
    FROM read_ndjson(${str(file)}, columns = {${[...columns].map((c) => `${str(c)}: 'VARCHAR'`).join(', ')}})
  )
  GROUP BY GROUPING SETS (${sets.map((s) => `(${s.cols.join(', ')})`).join(', ')})
)
GROUP BY grouping_id`;

const connection = await (await DuckDBInstance.create(':memory:')).connect();
await connection.run(`SET threads = ${threads}`);
const runs = [];
let rows;
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  rows = (await connection.runAndReadAll(query)).getRowObjectsJson();
  runs.push((performance.now() - t0) / 1000);
}
const bySet = new Map(rows.map((r) => [Number(r.grouping_id), r]));
const version = (await connection.runAndReadAll('SELECT version() AS v')).getRowObjectsJson()[0].v;
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.resolve('@duckdb/node-api')), 'utf8'));
process.stdout.write(JSON.stringify({
  duckdb: version,
  package: `${pkg.name} ${pkg.version}`,
  threads: Number(threads),
  seconds: Math.min(...runs),
  runs,
  query,
  sets: sets.map((s) => {
    const r = bySet.get(mask(s));
    return { columns: `(${s.cols.map((c) => exprs[Number(c.slice(1))]).join(', ')})`, groups: Number(r?.groups ?? 0), documents: Number(r?.documents ?? 0) };
  }),
  keys: keys.map((k, i) => ({ spec: k.spec, set: keySet[i] })),
}, null, 1) + '\n');
