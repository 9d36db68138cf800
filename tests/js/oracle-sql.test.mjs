// The SQL each frequency oracle's page documents (core/mechanisms/<name>/README.md), run in DuckDB on reports drawn by
// ps.oracle(): its counts must equal the library's (frequencyCounts). The queries are read from the pages, so a page
// whose SQL stops counting what the estimator expects fails here. OLH's SQL takes g and P from oracle.parameters,
// checked against the closed form of its page.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { init as initClient } from '../../bindings/js/privsample.mjs';
import { init } from '../../bindings/js/research.mjs';

const ps = await init();
const client = await initClient();

/** The first ```sql block of an oracle's page. */
function pageSql(name) {
  const page = readFileSync(new URL(`../../core/mechanisms/${name}/README.md`, import.meta.url), 'utf8');
  const block = /```sql\n([\s\S]*?)```/.exec(page);
  assert.ok(block, `${name}: its page has no SQL block`);
  return block[1].trim().replace(/;$/, '');
}

// OLH's g and P as its page states them: g = round(e^ε + 1) (at least 2), P the smallest prime >= max(k, 16g), g
// lowered to floor(2^53/P²) (and P found again) while P²·g > 2^53.
function olhParameters(epsilon, k) {
  const isPrime = (n) => {
    if (n % 2 === 0) return n === 2;
    for (let d = 3; d * d <= n; d += 2) if (n % d === 0) return false;
    return true;
  };
  const primeAtLeast = (n) => {
    let p = n;
    while (!isPrime(p)) p += 1;
    return p;
  };
  let g = Math.max(2, Math.round(Math.exp(epsilon) + 1));
  let P = primeAtLeast(Math.max(k, 16 * g));
  while (BigInt(P) * BigInt(P) * BigInt(g) > 2n ** 53n) {
    g = Number(2n ** 53n / (BigInt(P) * BigInt(P)));
    P = primeAtLeast(Math.max(k, 16 * g));
  }
  return { g, P };
}

test('ps.oracle(\'olh\', …).parameters are g and P of the closed form, in both entries; the others have none', () => {
  for (const [epsilon, k] of [[1e-6, 10], [1, 10], [1, 1000], [1.5, 21], [4, 1000], [10, 1000], [1, 1e7], [10, 1e7]]) {
    for (const entry of [ps, client]) {
      const oracle = entry.oracle('olh', { epsilon, categories: k });
      assert.deepEqual({ ...oracle.parameters }, olhParameters(epsilon, k), `ε = ${epsilon}, k = ${k}`);
      assert.ok(Object.isFrozen(oracle.parameters));
      oracle.dispose();
    }
  }
  for (const name of ['oue', 'hadamard', 'subset-selection']) {
    assert.deepEqual({ ...client.oracle(name, { epsilon: 1, categories: 10 }).parameters }, {});
  }
  // The page names them as the SQL's placeholders :g and :P, and says where a server finds them.
  const page = readFileSync(new URL('../../core/mechanisms/olh/README.md', import.meta.url), 'utf8')
    .replace(/\s+/g, ' ');
  assert.match(page, /`oracle\.parameters\.g` and `oracle\.parameters\.P`, for `:g` and `:P`/);
  assert.match(pageSql('olh'), /:g\b[\s\S]*:P\b/);
});

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
    // the numbers the oracle gives a server (OLH's g and P; none for the others)
    const { g, P } = oracle.parameters;
    const sql = pageSql(name).replaceAll(':k', String(k)).replaceAll(':g', String(g)).replaceAll(':P', String(P));
    const rows = (await connection.runAndReadAll(sql)).getRows().map((row) => row.map(Number));
    const expected = ps.frequencyCounts(oracle, reports).counts;
    const counted = new Float64Array(expected.length);
    for (const [key, n] of rows) counted[key] = n;
    assert.deepEqual([...counted], [...expected], `${name}: ${sql}`);
    oracle.dispose();
  }
});
