#!/usr/bin/env node
// duckdb-csv runs SQL in DuckDB, through DuckDB's Node API, and prints what
// `duckdb -csv` prints: each result with a header row. It is the DuckDB of
// core/aggregate's tests where there is no duckdb command: npm has DuckDB's
// Node API, not its CLI.
//
//   duckdb-csv.mjs [-csv] [-c SQL]     (SQL on standard input without -c)
//
// ./build.sh test installs @duckdb/node-api in build/duckdb, copies this
// file there (Node finds the package from the importing file's directory,
// and ESM ignores NODE_PATH) and sets PKCALC_DUCKDB to the copy.
//
// As the CLI does (tools/shell/shell_renderer.cpp in DuckDB's source), it
// runs the statements one after another on an in-memory database and prints
// those that return rows; every value is DuckDB's own cast to VARCHAR (a
// result is copied into a temporary table of the same types and read back
// cast), NULL is an empty cell, and a cell or a name is quoted, its quotes
// doubled, when it has a control character, a quote, an apostrophe, a byte
// of 127 or more (any non-ASCII character), or a comma. Rows end in "\n".
// Unlike the CLI, it stops at the first error (as with -bail), which it
// prints to standard error, and exits 1.
import { readFileSync } from 'node:fs';
import { DuckDBInstance, ResultReturnType } from '@duckdb/node-api';

const sql = input(process.argv.slice(2));
const connection = await (await DuckDBInstance.create(':memory:')).connect();
try {
  const statements = await connection.extractStatements(sql);
  for (let i = 0; i < statements.count; i++) {
    const result = await (await statements.prepare(i)).run();
    if (result.returnType === ResultReturnType.QUERY_RESULT) {
      process.stdout.write(await csv(result));
    }
  }
} catch (err) {
  process.stderr.write(`Error: ${err.message}\n`);
  process.exitCode = 1;
}

// input is the SQL of -c, or else standard input.
function input(args) {
  let sql;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-csv') continue;
    if (args[i] === '-c' && i + 1 < args.length) {
      sql = args[++i];
      continue;
    }
    process.stderr.write(`duckdb-csv: unknown argument ${JSON.stringify(args[i])}\n` +
      'usage: duckdb-csv.mjs [-csv] [-c SQL] (SQL on standard input without -c)\n');
    process.exit(2);
  }
  return sql ?? readFileSync(0, 'utf8');
}

// csv is a result's CSV text. DuckDB casts its values to VARCHAR, as the
// CLI does: the Node API gives numbers as JavaScript writes them (1 for
// 1.0), so the result goes into a temporary table and comes back cast, in
// its order (DuckDB preserves insertion order unless told otherwise).
async function csv(result) {
  const names = result.columnNames();
  const types = result.columnTypes();
  const cols = names.map((_, i) => `c${i}`);
  await connection.run('DROP TABLE IF EXISTS temp.duckdb_csv_result');
  await connection.run(`CREATE TEMP TABLE duckdb_csv_result (${cols.map((c, i) => `${c} ${types[i]}`).join(', ')})`);
  const appender = await connection.createAppender('duckdb_csv_result', 'main', 'temp');
  for (let chunk; (chunk = await result.fetchChunk()) && chunk.rowCount > 0;) {
    appender.appendDataChunk(chunk);
  }
  appender.closeSync();
  const text = await connection.runAndReadAll(
    `SELECT ${cols.map((c) => `${c}::VARCHAR`).join(', ')} FROM temp.duckdb_csv_result`);
  const lines = [names.map(cell).join(',')];
  for (const row of text.getRows()) {
    lines.push(row.map((v) => (v === null ? '' : cell(v))).join(','));
  }
  await connection.run('DROP TABLE temp.duckdb_csv_result');
  return lines.join('\n') + '\n';
}

// cell quotes a value as the CLI's CSV mode does.
function cell(s) {
  return /[\x00-\x1f"'\x7f-\uffff,]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}
