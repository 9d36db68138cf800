// The DuckDB path (examples/duckdb): 10^6 private reports stored as rows, counted by SQL GROUP BY, estimated by
// privsample. The estimate must agree with the realised truth within its confidence intervals.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COUNT_SQL, runExample } from '../../examples/duckdb/aggregate.mjs';

test('DuckDB: 10^6 reports as rows, one portable GROUP BY, the estimate covers the truth', async () => {
  const r = await runExample({ reports: 1e6, epsilon: 1, seed: 11 });
  assert.match(COUNT_SQL, /^SELECT category, count\(\*\) AS n FROM reports GROUP BY category ORDER BY category$/);
  assert.equal(r.stored, 1e6, 'every report is a row');
  assert.equal(r.counts.reduce((a, b) => a + b, 0), 1e6, 'the GROUP BY counts every row');
  const p = r.estimate.population;
  assert.ok(p, 'linear: affine inversion');
  for (let x = 0; x < r.truth.length; x += 1) {
    assert.ok(p.simultaneousLower[x] <= r.truth[x] && r.truth[x] <= p.simultaneousUpper[x],
      `category ${x}: truth ${r.truth[x]} outside [${p.simultaneousLower[x]}, ${p.simultaneousUpper[x]}]`);
    assert.ok(Math.abs(p.estimate[x] - r.truth[x]) < 0.01, `category ${x}: ${p.estimate[x]} vs ${r.truth[x]}`);
  }
  const q = r.estimate.released;
  for (let x = 0; x < r.truth.length; x += 1) assert.equal(q.q[x], r.counts[x] / 1e6);
});

test('DuckDB: a seed reproduces the same counts', async () => {
  const a = await runExample({ reports: 2e4, seed: 3 });
  const b = await runExample({ reports: 2e4, seed: 3 });
  assert.deepEqual(a.counts, b.counts);
});
