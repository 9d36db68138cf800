// `npm run reproduce` (scripts/reproduce.mjs): each reproduction of the papers' figures run with --quick in a child
// process; the CSV's columns, every measured worst case <= its closed-form bound, the bounds against the numbers
// docs/experiments.md reports, the papers' qualitative claims, the chart PNG, and the seeded setup generator.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { init } from '../../bindings/js/research.mjs';
import { CSV_COLUMNS, RELATIVE_SLACK, reproduce } from '../../scripts/reproduce.mjs';
import { ringEnvelope } from '../../scripts/reproduce/experiments.mjs';
import { randomMixtures, splitmix64, xoshiro256ss } from '../../scripts/reproduce/rng.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = join(ROOT, 'scripts', 'reproduce.mjs');
const OUT = join(ROOT, 'test-output', 'reproduce', 'quick');
const F = ['kl', 'tv', 'hellinger'];

function readCsv(path) {
  const [header, ...lines] = readFileSync(path, 'utf8').trim().split('\n');
  const columns = header.split(',');
  const rows = lines.map((line) => {
    const cells = line.match(/("([^"]|"")*"|[^,]*)(,|$)/g).map((c) => c.replace(/,$/, '').replace(/^"|"$/g, '').replace(/""/g, '"'));
    return Object.fromEntries(columns.map((c, i) => [c, cells[i]]));
  });
  return { columns, rows };
}

const cell = (rows, budget, sampler, f) => rows.find((r) => Number(r.budget) === budget && r.sampler === sampler && r.divergence === f);

// Bounds (4 decimals): docs/experiments.md#ghoukasian-fig-4-continuous-pure-ldp, docs/experiments.md#park-fig-4-1-d-gaussian-mixtures.
const LOCAL_FIG4_BOUNDS = {
  0.1: { local: [0.5003, 0.4808, 0.1232], global: [1.5625, 0.7714, 0.3638] },
  0.5: { local: [0.3246, 0.3953, 0.0826], global: [1.2632, 0.7226, 0.3115] },
  1: { local: [0.1567, 0.2746, 0.0407], global: [0.9214, 0.6408, 0.2419] },
  2: { local: [0.0038, 0.0388, 0.0010], global: [0.3880, 0.4154, 0.1099] },
};
const MINIMAX_FIG4_BOUNDS = {
  0.1: [0.5433, 0.4192, 0.2379], 0.5: [0.3946, 0.3260, 0.1791], 1: [0.2573, 0.2269, 0.1207], 2: [0.1025, 0.0974, 0.0500], 5: [0.0054, 0.0053, 0.0027],
};
// docs/experiments.md#ghoukasian-fig-10-continuous-gaussian-ldp: the linear weights λ (global with the code's c1 = e^−1/3, c2 = 3e; local γ = 3).
const FIG10_LAMBDAS = { 0.1: [0.0223, 0.0484], 0.5: [0.1310, 0.2534], 1: [0.3002, 0.5169], 2: [0.6587, 0.9781] };

const csvs = {};
const runs = {};

// Runs a child to completion: { status, stdout, stderr, seconds }.
function run(args) {
  return new Promise((done) => {
    const t = performance.now();
    const child = spawn(process.execPath, args, { timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (status) => done({ status, stdout, stderr, seconds: (performance.now() - t) / 1000 }));
  });
}

// The quick runs in parallel (minimax-fig4's ten MBDE runs dominate: ~8 s).
before(async () => {
  rmSync(OUT, { recursive: true, force: true });
  const names = ['minimax-fig4', 'minimax-fig1', 'local-fig4', 'local-fig10'];
  const results = await Promise.all(names.map((name) => run([SCRIPT, name, '--quick', '--out', OUT])));
  names.forEach((name, i) => {
    runs[name] = results[i];
    if (results[i].status === 0) csvs[name] = readCsv(join(OUT, `${name}.csv`));
  });
});

describe('npm run reproduce -- <name> --quick', () => {
  for (const [name, budgets, samplers] of [
    ['local-fig4', [0.1, 0.5, 1, 2], ['global', 'local']],
    ['local-fig10', [0.1, 0.5, 1, 2], ['global', 'local']],
    ['minimax-fig4', [0.1, 0.5, 1, 2, 5], ['proposed', 'mbde']],
    ['minimax-fig1', [0.5], ['mbde', 'proposed']],
  ]) {
    const clientsOf = { proposed: name === 'minimax-fig1' ? 1 : 10, mbde: name === 'minimax-fig1' ? 1 : 2, global: 10, local: 10 };
    test(`${name}: exits 0, prints the summary, writes the CSV (columns, one row per budget × sampler × f) and the PNG`, () => {
      const run = runs[name];
      assert.equal(run.status, 0, `exit ${run.status}\n${run.stdout}\n${run.stderr}`);
      assert.match(run.stdout, /every measured value is <= its theoretical bound and every privacy check holds/);
      const { columns, rows } = csvs[name];
      assert.deepEqual(columns, CSV_COLUMNS);
      assert.equal(rows.length, budgets.length * samplers.length * F.length);
      for (const b of budgets) for (const s of samplers) for (const f of F) assert.ok(cell(rows, b, s, f), `${b} ${s} ${f}`);
      for (const r of rows) {
        assert.equal(r.figure, name);
        assert.equal(r.clients, String(clientsOf[r.sampler]), `${r.sampler} clients`);
        assert.ok(Number(r.worst_client) >= 0 && Number(r.worst_client) < clientsOf[r.sampler]);
      }
      const png = readFileSync(join(OUT, `${name}.png`));
      assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
      assert.equal(png.readUInt32BE(16), 1500, 'chart width');
      assert.ok(png.readUInt32BE(20) > 300, 'chart height');
      assert.ok(png.length > 20_000, `a drawn chart, not a blank page (${png.length} bytes)`);
      assert.ok(run.seconds < 20, `${name} --quick took ${run.seconds.toFixed(1)} s`);
    });

    test(`${name}: every measured worst case is <= its theoretical bound (MBDE: none, n/a) and >= 0; every privacy check holds`, () => {
      for (const r of csvs[name].rows) {
        const measured = Number(r.measured_worst);
        assert.ok(Number.isFinite(measured) && measured >= 0, `${r.budget} ${r.sampler} ${r.divergence}: ${measured}`);
        if (r.sampler === 'mbde') {
          assert.equal(r.theoretical_bound, 'n/a');
          assert.equal(r.within_bound, 'n/a');
        } else {
          const bound = Number(r.theoretical_bound);
          assert.ok(measured <= bound + RELATIVE_SLACK * bound, `${r.budget} ${r.sampler} ${r.divergence}: ${measured} > ${bound}`);
          assert.equal(r.within_bound, 'true');
        }
        if (r.privacy_check !== '') {
          assert.ok(Number(r.privacy_value) <= Number(r.privacy_limit) * (1 + RELATIVE_SLACK), `${r.sampler} ${r.budget}: ${r.privacy_check}`);
          assert.equal(r.privacy_ok, 'true');
        }
      }
    });
  }

  test('local-fig4: the bounds are the spec\'s (§4.3 table), and local beats global at every ε and f (the paper\'s claim)', () => {
    const { rows } = csvs['local-fig4'];
    for (const [eps, bounds] of Object.entries(LOCAL_FIG4_BOUNDS)) {
      for (const s of ['local', 'global']) {
        F.forEach((f, i) => assert.ok(Math.abs(Number(cell(rows, Number(eps), s, f).theoretical_bound) - bounds[s][i]) <= 5e-5, `${eps} ${s} ${f}`));
      }
      for (const f of F) assert.ok(Number(cell(rows, Number(eps), 'local', f).measured_worst) < Number(cell(rows, Number(eps), 'global', f).measured_worst), `${eps} ${f}`);
    }
  });

  test('local-fig10: local linear beats global linear at every ν and f, and its bounds are below local-fig4\'s global ones', () => {
    const { rows } = csvs['local-fig10'];
    for (const nu of [0.1, 0.5, 1, 2]) {
      for (const f of F) {
        const local = cell(rows, nu, 'local', f);
        const global = cell(rows, nu, 'global', f);
        assert.ok(Number(local.measured_worst) < Number(global.measured_worst), `${nu} ${f}`);
        assert.ok(Number(local.theoretical_bound) < Number(global.theoretical_bound), `${nu} ${f}`);
      }
    }
  });

  test('minimax-fig4: the bounds are the spec\'s (§5.4); MBDE rows (2 clients on 40 cells in --quick) with both privacy checks', () => {
    const { rows } = csvs['minimax-fig4'];
    for (const [eps, bounds] of Object.entries(MINIMAX_FIG4_BOUNDS)) {
      F.forEach((f, i) => assert.ok(Math.abs(Number(cell(rows, Number(eps), 'proposed', f).theoretical_bound) - bounds[i]) <= 5e-5, `${eps} ${f}`));
    }
    for (const r of rows) {
      assert.match(r.baseline, /MBDE \(reduced preset, seed 1000·seed \+ client\) on the first 2 clients per ε, grid \[−4, 4\] × 40 cells/);
      assert.equal(r.cells, r.sampler === 'mbde' ? '40' : '800');
      assert.equal(Number(r.privacy_limit), r.sampler === 'mbde' ? Number(r.budget) / 2 : Number(r.budget));
    }
    // The clip sampler uses its whole box when it clips; MBDE stays inside e^{±ε/2} around q0.
    assert.ok(Math.abs(Number(cell(rows, 1, 'proposed', 'kl').privacy_value) - 1) < 1e-9);
    assert.match(runs['minimax-fig4'].stdout, /mbde ε = 5: max \|log q\/q0\| <= ε\/2: [0-9.]+ <= 2\.5 ok/);
    assert.match(runs['minimax-fig4'].stdout, /ours below MBDE \(measured worst\) in \d+ of 15/);
  });

  test('minimax-fig1: the ring is in the envelope class, ours is within R and its box, MBDE within e^{±ε/2}, ours closer to P than MBDE', () => {
    const { rows } = csvs['minimax-fig1'];
    const out = runs['minimax-fig1'].stdout;
    for (const r of rows) {
      assert.equal(r.budget, '0.5');
      assert.equal(r.cells, '1600');
      assert.equal(r.seed, '0');
    }
    for (const f of F) {
      const ours = cell(rows, 0.5, 'proposed', f);
      const mbde = cell(rows, 0.5, 'mbde', f);
      assert.ok(Number(ours.measured_worst) > 0 && Number(ours.measured_worst) < Number(ours.theoretical_bound), f);
      assert.ok(Number(ours.measured_worst) < Number(mbde.measured_worst), `${f}: ours ${ours.measured_worst} vs MBDE ${mbde.measured_worst}`);
      assert.ok(Number(ours.privacy_value) <= 0.5 && Number(mbde.privacy_value) <= 0.25, f);
    }
    const c2 = Number(out.match(/class c2 = Σh = ([0-9.]+)/)[1]);
    assert.ok(c2 > 3.7725 && c2 < 4.5, `the grid envelope's c2 ${c2} is a little above the paper's ∫h̃ = 3.7725`);
    assert.ok(Number(out.match(/max p\/h over the cells = ([0-9.]+)/)[1]) <= 1);
    assert.match(out, /paper envelope h̃/);
  });

  test('an unknown reproduction or a bad --mbde-clients exits 2 with a usage line', () => {
    for (const args of [['fig99'], ['minimax-fig4', '--mbde-clients', '-1']]) {
      const child = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });
      assert.equal(child.status, 2);
      assert.match(child.stderr, /usage: npm run reproduce/);
    }
  });
});

describe('the reproductions\' setup', () => {
  test('local-fig10 samplers mix with the spec\'s λ (§4.4): q = λp + (1 − λ)h on a client of the class', async () => {
    const ps = await init();
    const line = ps.grid1d({ lo: -20, hi: 20, cells: 2000 });
    const h = ps.densities.laplaceMixture(line, { means: [0], scale: 1 });
    const p = ps.densities.laplaceMixture(line, { means: [1], scale: 1 });
    let at = 0;
    for (let i = 0; i < p.length; i += 1) if (Math.abs(p[i] - h[i]) > Math.abs(p[at] - h[at])) at = i;
    for (const [nu, [globalLambda, localLambda]] of Object.entries(FIG10_LAMBDAS)) {
      const mu = Number(nu);
      const global = ps.continuousSampler('linear', { mu, reference: h, c1: Math.exp(-1) / 3, c2: 3 * Math.E }).distribution(p);
      const local = ps.continuousSampler('local-linear', { mu, prior: h, gamma: 3 }).distribution(p);
      assert.ok(Math.abs((global[at] - h[at]) / (p[at] - h[at]) - globalLambda) <= 5e-5, `global ν = ${nu}`);
      assert.ok(Math.abs((local[at] - h[at]) / (p[at] - h[at]) - localLambda) <= 5e-5, `local ν = ${nu}`);
    }
  });

  test('the seeded generator: splitmix64 reference value, deterministic mixtures of the papers\' shape', () => {
    assert.equal(splitmix64(0)().toString(16), 'e220a8397b1dcdaf');
    const a = xoshiro256ss(7);
    const b = xoshiro256ss(7);
    for (let i = 0; i < 5; i += 1) assert.equal(a.next64(), b.next64());
    const mixtures = randomMixtures(1, 500);
    assert.deepEqual(randomMixtures(1, 500), mixtures);
    assert.notDeepEqual(randomMixtures(2, 500), mixtures);
    let components = 0;
    for (const { means, weights } of mixtures) {
      assert.ok(means.length >= 1 && means.length <= 10 && weights.length === means.length);
      assert.ok(means.every((m) => m >= -1 && m <= 1));
      assert.ok(weights.every((w) => w > 0) && Math.abs(weights.reduce((s, w) => s + w, 0) - 1) < 1e-12);
      components += means.length;
    }
    assert.ok(Math.abs(components / mixtures.length - 3) < 0.25, `mean number of components ${components / mixtures.length} (Poisson(2) + 1)`);
  });

  test('the ring envelope bounds every member of the class cell by cell (means on and inside the unit circle)', async () => {
    const ps = await init();
    const plane = ps.grid2d({ xLo: -3, xHi: 3, nx: 30, yLo: -3, yHi: 3, ny: 30 });
    const { reference, c2 } = ringEnvelope(plane);
    assert.ok(c2 > 3.7725 && c2 < 6);
    for (const mean of [[1, 0], [0, -1], [Math.SQRT1_2, Math.SQRT1_2], [0, 0], [-0.3, 0.5]]) {
      const p = ps.densities.gaussianMixture(plane, { means: [mean], sigma: Math.sqrt(0.5) });
      for (let i = 0; i < p.length; i += 1) assert.ok(p[i] <= reference[i], `mean ${mean}, cell ${i}: ${p[i]} > ${reference[i]}`);
    }
  });

  test('reproduce() is deterministic: two quick runs give the same rows (MBDE seeded)', async () => {
    const first = await reproduce('minimax-fig4', { quick: true, clients: 3, mbdeClients: 0 });
    const second = await reproduce('minimax-fig4', { quick: true, clients: 3, mbdeClients: 0 });
    assert.deepEqual(first.rows, second.rows);
    assert.equal(first.violations.length, 0);
    assert.ok(first.rows.every((r) => r.sampler === 'proposed'), '--mbde-clients 0 leaves MBDE out');
    const a = await reproduce('minimax-fig1', { quick: true });
    const b = await reproduce('minimax-fig1', { quick: true });
    assert.deepEqual(a.rows, b.rows);
  });
});

test('the full local-fig4 run stays under its bounds too (100 clients, 8000 cells, no chart)', () => {
  const out = join(OUT, 'full');
  execFileSync(process.execPath, [SCRIPT, 'local-fig4', '--no-chart', '--out', out], { encoding: 'utf8', timeout: 60_000 });
  assert.ok(existsSync(join(out, 'local-fig4.csv')));
  const { rows } = readCsv(join(out, 'local-fig4.csv'));
  assert.equal(rows.length, 24);
  for (const r of rows) assert.ok(Number(r.measured_worst) <= Number(r.theoretical_bound) * (1 + RELATIVE_SLACK));
  assert.ok(!existsSync(join(out, 'local-fig4.png')));
});
