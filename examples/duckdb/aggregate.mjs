// Aggregation at scale on a real database: N private reports (one released category per user, each drawn by a
// privsample sampler) are rows of a DuckDB table; ONE portable SQL GROUP BY counts them; privsample's estimator turns
// the counts into a population estimate with confidence intervals.
//
//   node examples/duckdb/aggregate.mjs [reports = 10000000] [epsilon = 1] [seed = 2026]
//
// The counting query is plain SQL that runs unchanged on BigQuery, Spark SQL, Postgres: the database does the
// counting (it scales with the engine), privsample does the statistics.
import { DuckDBDataChunk, DuckDBInstance, UINTEGER } from '@duckdb/node-api';
import { pathToFileURL } from 'node:url';
import { init } from 'privsample/research';

export const COUNT_SQL = 'SELECT category, count(*) AS n FROM reports GROUP BY category ORDER BY category';

// A Zipf-like population over 8 categories (what the users hold; one item each).
export const POPULATION = [0.3, 0.2, 0.14, 0.11, 0.09, 0.07, 0.05, 0.04];

const CHUNK_ROWS = 2048; // DuckDB's vector size: the appender takes data chunks of at most this many rows

/**
 * Simulates `reports` users, stores their private reports as rows in DuckDB, counts them in SQL and estimates.
 * Returns the counts, the estimate, the realised truth and the time of each step (ms).
 */
export async function runExample({ reports = 1e7, epsilon = 1, seed = 2026, mechanism = 'linear' } = {}) {
  const ps = await init();
  const sampler = ps.sampler(mechanism, { epsilon });
  const k = POPULATION.length;

  // 1. The users: how many hold each item (a seeded multinomial draw by the core), then each user's report, drawn
  //    by the sampler from that user's point mass. sampleMany draws the reports of all users holding item x at once.
  let start = performance.now();
  const { items } = ps.simulate(sampler, { population: POPULATION, users: reports, seed, pointMasses: false });
  const groups = [];
  for (let x = 0; x < k; x += 1) {
    const pointMass = new Float64Array(k);
    pointMass[x] = 1;
    groups.push(sampler.sampleMany(pointMass, items[x], { seed: seed * 1000 + x }));
  }
  const drawMs = performance.now() - start;

  // 2. Load: every report becomes a row of the table `reports (category)`, through DuckDB's appender in data chunks.
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run('CREATE TABLE reports (category UINTEGER NOT NULL)');
  start = performance.now();
  const appender = await connection.createAppender('reports');
  const chunk = DuckDBDataChunk.create([UINTEGER]);
  for (const group of groups) {
    for (let offset = 0; offset < group.length; offset += CHUNK_ROWS) {
      const rows = group.subarray(offset, Math.min(offset + CHUNK_ROWS, group.length));
      chunk.rowCount = rows.length;
      chunk.setColumnValues(0, rows);
      appender.appendDataChunk(chunk);
    }
  }
  appender.flushSync();
  appender.closeSync();
  const loadMs = performance.now() - start;
  const stored = Number((await connection.runAndReadAll('SELECT count(*) FROM reports')).getRows()[0][0]);

  // 3. Count: one portable GROUP BY.
  start = performance.now();
  const result = await connection.runAndReadAll(COUNT_SQL);
  const countMs = performance.now() - start;
  const counts = new Float64Array(k); // categories nobody released are absent from the GROUP BY: zero
  for (const [category, n] of result.getRows()) counts[Number(category)] = Number(n);
  connection.closeSync();
  instance.closeSync();

  // 4. Estimate: counts + the sampler's public parameters → population estimate with intervals.
  start = performance.now();
  const estimate = ps.estimate(sampler, counts);
  const estimateMs = performance.now() - start;
  const truth = Float64Array.from(items, (n) => n / reports);
  sampler.dispose();
  return { reports, stored, counts, estimate, truth, ms: { draw: drawMs, load: loadMs, count: countMs, estimate: estimateMs } };
}

// Frequency oracles send a report per user instead of a category: OUE and subset selection a bit vector (hex), Hadamard
// response an integer. Their support counts are one SQL query each (the queries of each oracle's page,
// core/mechanisms/<name>/README.md; :k is the number of items). OLH's query needs its hash parameters, see its page.
// Bit-vector reports (hex): item v's support is bit v, counted over every report.
const BIT_SUPPORT_SQL = `SELECT v, sum((('0x' || substr(report, 2 * (v // 8) + 1, 2))::INTEGER >> (7 - v % 8)) & 1)
  AS support FROM reports, range(:k) AS items(v) GROUP BY v ORDER BY v`;
export const ORACLE_SQL = {
  oue: BIT_SUPPORT_SQL,
  'subset-selection': BIT_SUPPORT_SQL,
  hadamard: 'SELECT report, count(*) AS n FROM reports GROUP BY report ORDER BY report',
};

/**
 * The same path with a frequency oracle: each simulated user encodes their item with `ps.oracle(name)` (CSPRNG),
 * the reports are rows of `reports (report)`, the oracle's SQL counts them, `ps.estimateFrequencies` estimates.
 * Returns the SQL counts, what `ps.frequencyCounts` counts on the same reports, the estimate (intervals at level
 * 1 − alpha) and the realised truth.
 */
export async function runOracleExample({
  reports = 1e5, epsilon = 1, oracle: name = 'oue', seed = 2026, alpha = 0.05,
} = {}) {
  const ps = await init();
  const k = POPULATION.length;
  const oracle = ps.oracle(name, { epsilon, categories: k });
  const sampler = ps.sampler('linear', { epsilon });
  // The users' items (a seeded multinomial by the core; the reports themselves use the CSPRNG).
  const { items } = ps.simulate(sampler, { population: POPULATION, users: reports, seed, pointMasses: false });
  sampler.dispose();
  const encoded = [];
  for (let x = 0; x < k; x += 1) for (let i = 0; i < items[x]; i += 1) encoded.push(oracle.encode(x));

  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const text = oracle.report === 'hex';
  await connection.run(`CREATE TABLE reports (report ${text ? 'VARCHAR' : 'BIGINT'} NOT NULL)`);
  const appender = await connection.createAppender('reports');
  for (const report of encoded) {
    if (text) appender.appendVarchar(report);
    else appender.appendBigInt(BigInt(report));
    appender.endRow();
  }
  appender.flushSync();
  appender.closeSync();
  const rows = (await connection.runAndReadAll(ORACLE_SQL[name].replaceAll(':k', String(k)))).getRows();
  connection.closeSync();
  instance.closeSync();

  // Counts per item (OUE, subset selection) or per report value (Hadamard: 2K of them, absent ones zero).
  const library = ps.frequencyCounts(oracle, encoded).counts;
  const counts = new Float64Array(library.length);
  for (const [key, n] of rows) counts[Number(key)] = Number(n);
  const estimate = ps.estimateFrequencies(oracle, counts, { users: reports, alpha });
  oracle.dispose();
  return { reports, counts, library, estimate, truth: Float64Array.from(items, (n) => n / reports) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [reports = 1e7, epsilon = 1, seed = 2026] = process.argv.slice(2).map(Number);
  const r = await runExample({ reports, epsilon, seed });
  const p = r.estimate.population;
  console.log(`${r.stored} reports in DuckDB; ${COUNT_SQL}`);
  console.log('category  count       truth   estimate  95% simultaneous interval');
  for (let x = 0; x < r.counts.length; x += 1) {
    console.log(`${String(x).padStart(8)}  ${String(r.counts[x]).padStart(10)}  ${r.truth[x].toFixed(5)}  ${p.estimate[x].toFixed(5)}  [${p.simultaneousLower[x].toFixed(5)}, ${p.simultaneousUpper[x].toFixed(5)}]`);
  }
  console.log(`method: ${p.method}; assumes: ${p.assumption}`);
  console.log(`time (ms): draw ${r.ms.draw.toFixed(0)}, load ${r.ms.load.toFixed(0)}, count ${r.ms.count.toFixed(0)}, estimate ${r.ms.estimate.toFixed(1)}`);
}
