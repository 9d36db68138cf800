// Every entry of experiments/minimax.mjs (Park et al.'s continuous figures) in its quick form through the shared
// runner (experiments/index.mjs runExperiment): every check ok, every printed value matched, the paper's panels
// present; the numbers the former `npm run reproduce` tests held (docs/experiments.md's bounds, the privacy checks, the paper's
// claims); the set-up bindings they use (ps.densities.ringEnvelope, ps.seededRandomMixtures); and wrong set-ups make
// a check or a comparison fail (the checks are not vacuous).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { init } from '../../bindings/js/research.mjs';
import { EXPERIMENTS, experimentByName, runExperiment, setupOf } from '../../experiments/index.mjs';
import { experiments } from '../../experiments/minimax.mjs';
import { serialPool } from '../../experiments/pool.mjs';
import { HELLINGER_ERRATUM, STATED_HELLINGER } from '../../experiments/support.mjs';
import { assertEntryFormat, assertProgress, assertResultPassed } from './helpers.mjs';

let ps;
before(async () => {
  ps = await init();
});

const F = ['kl', 'tv', 'hellinger'];
// name → the paper's panels (kind, titles).
const EXPECTED = {
  'minimax-fig1': { kind: 'heatmap', titles: ['Original dist. P', 'Sampling dist., MBDE (reduced preset)', 'Sampling dist. (ours, minimax clip)'] },
  'minimax-fig4': { kind: 'bars', titles: ['KL', 'TV', 'Sq. Hel', STATED_HELLINGER] },
};
const results = {};

describe('Park et al. continuous experiments (quick, through runExperiment)', () => {
  test('the registry holds them once each, in the shared format', () => {
    for (const e of experiments) assert.equal(EXPERIMENTS.filter((x) => x === e).length, 1, `${e.name} once`);
    for (const e of experiments) {
      assert.ok(Object.hasOwn(EXPECTED, e.name), e.name);
      assert.equal(experimentByName(e.name), e);
      assertEntryFormat(e, 'minimax');
      assert.match(e.figure, /^Fig\. \d+$/);
      assert.equal(e.closedForm, false);
      assert.ok(typeof e.erratum === 'string' && e.erratum.length > 20, `${e.name}: erratum`);
    }
  });

  for (const entry of experiments) {
    test(`${entry.name}: every check ok, every printed value matched, the paper's panels, progress to 1`, async () => {
      const fractions = [];
      const run = await runExperiment(ps, entry, { quick: true, progress: (f) => fractions.push(f) });
      results[entry.name] = run.result;
      const { result } = run;
      assertResultPassed(result);
      assert.equal(run.ok, true);
      const want = EXPECTED[entry.name];
      assert.deepEqual(result.panels.map((p) => p.title), want.titles);
      for (const panel of result.panels) {
        assert.equal(panel.kind, want.kind);
        if (panel.kind === 'heatmap') {
          assert.equal(panel.values.length, panel.grid.width * panel.grid.height);
          assert.ok(panel.values.every((v) => Number.isFinite(v) && v >= 0));
          assert.ok(Math.abs(panel.values.reduce((a, b) => a + b, 0) - 1) < 1e-9, `${panel.title}: a pmf over the cells`);
        } else {
          assert.ok(panel.x.label.length > 0 && panel.y.label.length > 0);
          for (const s of panel.series) assert.ok(s.points.length > 0 && s.points.every(([x, y]) => Number.isFinite(x) && y >= 0), s.label);
        }
      }
      assert.ok(fractions.length >= 2);
      assertProgress(fractions, entry.name);
      assert.deepEqual(JSON.parse(JSON.stringify(result)).panels.length, result.panels.length, 'the result is JSON');
    });
  }

  test('minimax-fig4: the bounds of docs/experiments.md, one row per ε × sampler × f, MBDE on the same 10 clients per ε with both privacy checks', () => {
    const result = results['minimax-fig4'];
    assert.equal(result.printed.length, 15);
    const rows = result.table.rows;
    assert.equal(rows.length, 5 * 2 * 3);
    for (const eps of [0.1, 0.5, 1, 2, 5]) {
      for (const s of ['proposed', 'mbde']) for (const f of F) assert.ok(rows.some((r) => r[0] === eps && r[1] === f && r[2] === s), `${eps} ${s} ${f}`);
      assert.ok(result.checks.some((c) => c.label === `MBDE ε = ${eps}: max over clients of ε* of {q_T, q0} <= ε/2` && c.limit === eps / 2));
    }
    // MBDE rows: no closed-form bound; the worst client is one of the 10.
    for (const r of rows.filter((x) => x[2] === 'mbde')) {
      assert.equal(r[4], '');
      assert.ok(Number.isInteger(r[5]) && r[5] >= 0 && r[5] < 10);
    }
    assert.equal(result.checks.find((c) => c.label.startsWith('MBDE runs on the same clients as ours')).value, 0);
    assert.equal(result.checks.filter((c) => c.label.startsWith('the paper\'s claim')).length, 0, 'checked from claimClients = 100 on');
    // The clip sampler uses its whole box: the point masses' outputs span exactly e^ε on some cell.
    for (const c of result.checks.filter((x) => x.label.startsWith('Proposed (minimax clip) ε = '))) {
      assert.ok(Math.abs(c.value - c.limit) <= 1e-9 * c.limit, `${c.label}: ${c.value}`);
    }
    // The bars: measured and R for ours, measured only for MBDE.
    assert.deepEqual(result.panels[0].series.map((s) => s.label),
      ['Proposed (minimax clip) (measured worst)', 'Proposed (minimax clip) (closed-form R)',
        'Baseline (MBDE, reduced preset) (measured worst)']);
    // The erratum's corrected panel: the stated f doubles every bar.
    const [plotted, stated] = [result.panels[2], result.panels[3]];
    stated.series.forEach((s, i) => s.points.forEach(([x, y], j) => assert.deepEqual([x, y], [x, 2 * plotted.series[i].points[j][1]])));
    assert.ok(experimentByName('minimax-fig4').erratum.includes(HELLINGER_ERRATUM));
  });

  test('minimax-fig4 set-up: ours and MBDE over the same 100 clients by default, the preset named; --paper runs the paper\'s preset', () => {
    const entry = experimentByName('minimax-fig4');
    const setup = setupOf(entry);
    assert.equal(setup.clients, 100);
    assert.equal(setup.mbdeClients, setup.clients);
    assert.equal(setup.mbdePreset, 'reduced');
    assert.match(entry.title, /the same 100 clients/);
    const quick = setupOf(entry, { quick: true });
    assert.equal(quick.mbdeClients, quick.clients);
    const paper = setupOf(entry, { paperScale: true });
    assert.deepEqual({ ...paper, mbdePreset: 'reduced' }, setup, 'the paper scale changes the preset only');
    assert.equal(paper.mbdePreset, 'paper');
    assert.deepEqual(setupOf(experimentByName('minimax-fig1'), { paperScale: true }).cellsPerAxis, 500);
    assert.throws(() => setupOf(entry, { quick: true, paperScale: true }), RangeError);
  });

  test('minimax-fig1: the ring in the class, ours within R and ε, MBDE within e^{±ε/2}, ours closer to P than MBDE, c2 above ∫h̃', () => {
    const { checks, table } = results['minimax-fig1'];
    const find = (start) => checks.filter((c) => c.label.startsWith(start));
    assert.equal(find('the ring is in the envelope').length, 1);
    assert.equal(find('ours closer to P than MBDE').length, 3);
    assert.equal(find('ours ').filter((c) => c.label.includes('<= closed-form R')).length, 3);
    const c2 = find('the class\'s c2')[0].value;
    assert.ok(c2 > 3.7725 && c2 < 4.5, `the grid envelope's c2 ${c2} is a little above the paper's ∫h̃ = 3.7725`);
    assert.ok(find('ours: pure ε*')[0].value <= 0.5 * (1 + 1e-9));
    assert.ok(find('MBDE: ε*')[0].value <= 0.25 * (1 + 1e-9));
    assert.equal(table.rows.length, 6);
  });

  test('minimax-fig1 on the paper\'s 500 × 500 cells (its --paper grid): the privacy check covers more than ps.channelLdp\'s 10^6 entries', async () => {
    const run = await runExperiment(ps, experimentByName('minimax-fig1'), { overrides: { cellsPerAxis: 500 } });
    assert.equal(run.ok, true);
    const ours = run.result.checks.find((c) => c.label.startsWith('ours: pure ε*'));
    assert.ok(Math.abs(ours.value - 0.5) < 1e-9, `the clip sampler uses its whole box: ${ours.value}`);
    assert.equal(run.result.panels[0].values.length, 250_000);
  });

  test('runs are deterministic (seeded mixtures and MBDE)', async () => {
    const entry = experimentByName('minimax-fig4');
    const overrides = { clients: 3, mbdeClients: 3, mbdeCells: 20, budgets: [0.5, 2], seeds: [1, 2] };
    const a = await runExperiment(ps, entry, { quick: true, overrides });
    const b = await runExperiment(ps, entry, { quick: true, overrides });
    assert.deepEqual(a.result.table, b.result.table);
    const none = await runExperiment(ps, entry, { quick: true, overrides: { ...overrides, mbdeClients: 0 } });
    assert.ok(none.result.table.rows.every((r) => r[2] === 'proposed'), 'mbdeClients 0 leaves MBDE out');
    assert.ok(none.ok);
    // The tasks run through the pool it is given, in order, whatever the pool.
    const calls = [];
    const pool = serialPool(ps);
    const spy = { size: 1, map: (task, list, onDone) => { calls.push([task, list.length]); return pool.map(task, list, onDone); } };
    const c = await runExperiment(ps, entry, { quick: true, overrides, pool: spy });
    assert.deepEqual(calls, [['mbde', 3 * 2]]);
    assert.deepEqual(c.result.table, a.result.table);
  });

  test('a wrong set-up is reported, not hidden', async () => {
    // An envelope for a smaller class (radius 0.5): the ring is not in it, so the class check fails.
    const fig1 = await runExperiment(ps, experimentByName('minimax-fig1'), { quick: true, overrides: { cellsPerAxis: 24, classRadius: 0.5 } });
    assert.equal(fig1.ok, false);
    assert.equal(fig1.result.checks.find((c) => c.label.startsWith('the ring is in')).ok, false);
    // A different σ: the bounds no longer match the printed digits of docs/experiments.md.
    const fig4 = await runExperiment(ps, experimentByName('minimax-fig4'), { quick: true, overrides: { sigma: 0.8, clients: 2, mbdeClients: 0 } });
    assert.ok(fig4.result.printed.some((p) => !p.ok));
    // The paper's claim, ours below MBDE at every ε and f, is reported where it fails (10 clients, ε = 0.5) and holds.
    const claim = async (budget, seed) => (await runExperiment(ps, experimentByName('minimax-fig4'),
      { quick: true, overrides: { budgets: [budget], seeds: [seed], claimClients: 10 } })).result.checks.find((c) => c.label.startsWith('the paper\'s claim'));
    const [fails, holds] = [await claim(0.5, 2), await claim(2, 4)];
    assert.deepEqual([fails.ok, fails.value, holds.ok, holds.value], [false, 1, true, 0]);
    assert.match(fails.label, /exceptions: Sq\. Hel at ε = 0\.5\)$/);
    // MBDE on fewer clients than ours is not the paper's comparison.
    const fewer = await runExperiment(ps, experimentByName('minimax-fig4'),
      { quick: true, overrides: { clients: 3, mbdeClients: 1, mbdeCells: 20, budgets: [1], seeds: [3] } });
    assert.equal(fewer.ok, false);
    assert.equal(fewer.result.checks.find((c) => c.label.startsWith('MBDE runs on the same clients')).ok, false);
  });
});

describe('set-up bindings: ps.densities.ringEnvelope and ps.seededRandomMixtures', () => {
  test('the ring envelope bounds every member of the class cell by cell (means on and inside the unit circle)', () => {
    const plane = ps.grid2d({ xLo: -3, xHi: 3, nx: 30, yLo: -3, yHi: 3, ny: 30 });
    const reference = ps.densities.ringEnvelope(plane);
    const c2 = reference.reduce((a, b) => a + b, 0);
    assert.ok(c2 > 3.7725 && c2 < 6);
    for (const mean of [[1, 0], [0, -1], [Math.SQRT1_2, Math.SQRT1_2], [0, 0], [-0.3, 0.5]]) {
      const p = ps.densities.gaussianMixture(plane, { means: [mean], sigma: Math.sqrt(0.5) });
      for (let i = 0; i < p.length; i += 1) assert.ok(p[i] <= reference[i], `mean ${mean}, cell ${i}: ${p[i]} > ${reference[i]}`);
    }
    assert.throws(() => ps.densities.ringEnvelope(ps.grid1d({ lo: 0, hi: 1, cells: 4 })), TypeError);
    assert.throws(() => ps.densities.ringEnvelope(plane, { variance: -1 }), RangeError);
    assert.throws(() => ps.densities.ringEnvelope(plane, { radius: Number.NaN }), RangeError);
    assert.equal(ps.densities.ringEnvelope(plane).length, 900, 'usable after errors');
  });

  test('seeded mixtures: the former set-up generator\'s draws for seed 1, deterministic, the papers\' shape', () => {
    const mixtures = ps.seededRandomMixtures({ seed: 1, count: 500 });
    assert.deepEqual(Array.from(mixtures[0].means), [0.394356833119923, -0.7128559265111276, -0.8579095678615754, -0.23763110661876463]);
    assert.deepEqual(ps.seededRandomMixtures({ seed: 1, count: 500 }).map((m) => Array.from(m.weights)), mixtures.map((m) => Array.from(m.weights)));
    assert.notDeepEqual(Array.from(ps.seededRandomMixtures({ seed: 2, count: 1 })[0].means), Array.from(mixtures[0].means));
    let components = 0;
    for (const { means, weights } of mixtures) {
      assert.ok(means.length >= 1 && means.length <= 10 && weights.length === means.length);
      assert.ok(means.every((m) => m >= -1 && m <= 1));
      assert.ok(weights.every((w) => w > 0) && Math.abs(weights.reduce((s, w) => s + w, 0) - 1) < 1e-12);
      components += means.length;
    }
    assert.ok(Math.abs(components / mixtures.length - 3) < 0.25, `mean number of components ${components / mixtures.length} (Poisson(2) + 1)`);
    assert.equal(ps.seededRandomMixtures({ seed: 3, count: 0 }).length, 0);
    assert.throws(() => ps.seededRandomMixtures({ seed: 1.5, count: 1 }), RangeError);
    assert.throws(() => ps.seededRandomMixtures({ seed: 1, count: -1 }), RangeError);
    assert.throws(() => ps.seededRandomMixtures({ seed: 1, count: 1, poissonMean: 0 }), RangeError);
    assert.throws(() => ps.seededRandomMixtures({ seed: 1, count: 1, colour: 'red' }), RangeError);
    assert.throws(() => ps.seededRandomMixtures({ seed: '1', count: 1 }), TypeError);
  });
});
