// Time per 10^7 private reports on the DuckDB path (examples/duckdb): draw (privsample WASM), load (appender into
// an in-memory table), count (one SQL GROUP BY), estimate. Best of `runs` (default 3).
//   node bench/duckdb.mjs [reports = 10000000] [runs = 3]
import { runExample } from '../examples/duckdb/aggregate.mjs';

const [reports = 1e7, runs = 3] = process.argv.slice(2).map(Number);
const best = { draw: Infinity, load: Infinity, count: Infinity, estimate: Infinity };
for (let i = 0; i < runs; i += 1) {
  const r = await runExample({ reports, seed: 100 + i });
  for (const key of Object.keys(best)) best[key] = Math.min(best[key], r.ms[key]);
}
const per = (ms) => ((ms * 1e7) / reports / 1000).toFixed(2);
console.log(`DuckDB path, ${reports} reports, best of ${runs}; seconds per 10^7 reports:`);
console.log(`  draw (sampleMany)  ${per(best.draw)} s`);
console.log(`  load (appender)    ${per(best.load)} s`);
console.log(`  count (GROUP BY)   ${per(best.count)} s`);
console.log(`  estimate           ${(best.estimate / 1000).toFixed(4)} s (independent of N)`);
