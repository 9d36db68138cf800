// The SQL each frequency oracle's page documents (core/mechanisms/<name>/README.md), run in DuckDB on reports drawn by
// ps.oracle(): its counts must equal the library's (frequencyCounts). The queries are read from the pages, so a page
// whose SQL stops counting what the estimator expects fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { init } from '../../bindings/js/research.mjs';

const ps = await init();

/** The first ```sql block of an oracle's page. */
function pageSql(name) {
  const page = readFileSync(new URL(`../../core/mechanisms/${name}/README.md`, import.meta.url), 'utf8');
  const block = /```sql\n([\s\S]*?)```/.exec(page);
  assert.ok(block, `${name}: its page has no SQL block`);
  return block[1].trim().replace(/;$/, '');
}

// OLH's g and P as its page states them: g = round(e^ε + 1), P the smallest prime >= max(k, 16g).
function olhParameters(epsilon, k) {
  const g = Math.max(2, Math.round(Math.exp(epsilon) + 1));
  const isPrime = (n) => {
    if (n % 2 === 0) return n === 2;
    for (let d = 3; d * d <= n; d += 2) if (n % d === 0) return false;
    return true;
  };
  let p = Math.max(k, 16 * g);
  while (!isPrime(p)) p += 1;
  return { g, p };
}

test('each oracle page\'s SQL counts in DuckDB what frequencyCounts counts', async () => {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const k = 21;
  const epsilon = 1.5;
  for (const name of ps.oracles) {
    const oracle = ps.oracle(name, { epsilon, categories: k });
    const reports = Array.from({ length: 600 }, (_, u) => oracle.encode((u * u) % k));
    const type = oracle.report === 'hex' ? 'VARCHAR' : 'BIGINT';
    await connection.run(`CREATE OR REPLACE TABLE reports (report ${type} NOT NULL)`);
    await connection.run(`INSERT INTO reports VALUES ${reports.map((r) => (typeof r === 'string' ? `('${r}')` : `(${r})`)).join(', ')}`);
    const { g, p } = olhParameters(epsilon, k);
    const sql = pageSql(name).replaceAll(':k', String(k)).replaceAll(':g', String(g)).replaceAll(':P', String(p));
    const rows = (await connection.runAndReadAll(sql)).getRows().map((row) => row.map(Number));
    const expected = ps.frequencyCounts(oracle, reports).counts;
    const counted = new Float64Array(expected.length);
    for (const [key, n] of rows) counted[key] = n;
    assert.deepEqual([...counted], [...expected], `${name}: ${sql}`);
    oracle.dispose();
  }
});
