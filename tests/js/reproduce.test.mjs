// `npm run reproduce` (scripts/reproduce.mjs) as a user runs it, in child processes: `list` shows every registry
// entry, bad usage exits 2, and two quick entries write <name>.csv (the result's table), <name>.json (the result) and
// <name>.png (drawn by web/panels.js in Chromium), print their checks and reference values with their sources, and
// exit 0; its pool of worker threads gives the results of the serial pool. The entries' numbers are tested in
// tests/js/experiments-*.test.mjs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { init } from '../../bindings/js/research.mjs';
import { EXPERIMENTS } from '../../experiments/index.mjs';
import { serialPool } from '../../experiments/pool.mjs';
import { tableOf, toCsv } from '../../scripts/reproduce.mjs';
import { threadPool } from '../../scripts/reproduce-pool.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = join(ROOT, 'scripts', 'reproduce.mjs');
const OUT = join(ROOT, 'test-output', 'reproduce-cli');
const cli = (...args) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8', timeout: 120_000 });

test('list names every registry entry under its paper', () => {
  const run = cli('list');
  assert.equal(run.status, 0, run.stderr);
  for (const e of EXPERIMENTS) assert.match(run.stdout, new RegExp(`^  ${e.name} +${e.figure.replace('.', '\\.')}`, 'm'));
  for (const paper of ['minimax', 'local', 'roo', 'lmidp']) assert.match(run.stdout, new RegExp(`^${paper}: `, 'm'));
});

test('bad usage exits 2 with the usage line', () => {
  for (const args of [[], ['fig99'], ['local-fig4', '--fast'], ['local-fig4', '--out'], ['local-fig4', '--quick', '--paper']]) {
    const run = cli(...args);
    assert.equal(run.status, 2, `${args.join(' ')}: ${run.stdout}`);
    assert.match(run.stderr, /^usage: npm run reproduce -- <name>\|all\|list \[--quick \| --paper\]/);
  }
});

test('two quick entries: CSV, JSON and PNG per entry, checks and printed values printed, exit 0', () => {
  rmSync(OUT, { recursive: true, force: true });
  const run = cli('local-fig4', 'roo-complexity', '--quick', '--out', OUT);
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /local-fig4 — Ghoukasian, Lee, Asoodeh Fig\. 4/);
  assert.match(run.stdout, /ok {3}R local KL, ε = 0\.1: reference 0\.500300 \(derived\), computed 0\.50025\d/);
  assert.match(run.stdout, /ok {3}Global ε = 1: pure ε\* of the outputs' channel/);
  assert.match(run.stdout, /2 of 2 passed; computed in [\d.]+ s, total [\d.]+ s \(quick\); \d+ worker threads?; wrote /);
  for (const name of ['local-fig4', 'roo-complexity']) {
    const json = JSON.parse(readFileSync(join(OUT, `${name}.json`), 'utf8'));
    assert.equal(json.name, name);
    assert.equal(json.ok, true);
    assert.equal(json.quick, true);
    assert.ok(json.panels.length > 0 && json.checks.length > 0);
    const csv = readFileSync(join(OUT, `${name}.csv`), 'utf8').trim().split('\n');
    assert.equal(csv[0], json.table.columns.join(','));
    assert.equal(csv.length, json.table.rows.length + 1);
    const png = readFileSync(join(OUT, `${name}.png`));
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
    assert.equal(png.readUInt32BE(16), 1200, 'figure width');
    assert.ok(png.readUInt32BE(20) > 300, 'figure height');
    assert.ok(png.length > 20_000, `a drawn chart, not a blank page (${png.length} bytes)`);
  }
});

test('a result without a table is written as its panels\' series (lines, bars) or cells (heat maps)', () => {
  const result = {
    panels: [
      { title: 'A', kind: 'lines', x: { label: 'x' }, y: { label: 'y' }, series: [{ label: 's, "quoted"', points: [[1, 2], [3, 4]] }] },
      { title: 'H', kind: 'heatmap', grid: { width: 2, height: 1, x: [0, 1], y: [0, 1] }, values: [0.25, 0.75] },
    ],
    checks: [],
    printed: [],
  };
  assert.equal(tableOf(result).rows.length, 4);
  const lines = toCsv(result).trim().split('\n');
  assert.equal(lines[1], 'A,"s, ""quoted""",1,2,');
  assert.equal(lines[4], 'H,cell,1,0,0.75');
});

test('the worker threads run the tasks of experiments/pool.mjs with the serial pool\'s results, in order; a failing task rejects', async () => {
  const ps = await init();
  const grid = { dimension: 1, lo: -4, hi: 4, cells: 30 };
  const density = ps.densities.gaussianMixture(ps.grid1d({ lo: -4, hi: 4, cells: 30 }), { means: [0.5], sigma: 1 });
  const tasks = [0.5, 1, 2].map((epsilon, j) => ({ grid, density, epsilon, preset: 'reduced', seed: 7 + j }));
  const pool = threadPool(2);
  try {
    assert.equal(pool.size, 2);
    const done = [];
    const threaded = await pool.map('mbde', tasks, (n) => done.push(n));
    const serial = await serialPool(ps).map('mbde', tasks);
    assert.deepEqual(done, [1, 2, 3]);
    assert.deepEqual(threaded.map((r) => Array.from(r.density)), serial.map((r) => Array.from(r.density)));
    assert.deepEqual(await pool.map('mbde', []), []);
    await assert.rejects(pool.map('mbde', [{ ...tasks[0], epsilon: -1 }]), { name: 'RangeError', message: /epsilon/ });
    await assert.rejects(pool.map('mbde', tasks), /epsilon/, 'a pool that failed refuses further work');
  } finally {
    await pool.close();
  }
});
