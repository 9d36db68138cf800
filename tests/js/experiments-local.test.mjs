// Every entry of experiments/local.mjs (Ghoukasian et al. Figs 4 and 10, continuous 1-D) in its quick form through the
// shared runner: every check ok, every printed value matched (docs/experiments.md's bounds and linear weights), the paper's
// panels; the numbers the former `npm run reproduce` tests held; the full local-fig4 run; and a wrong set-up makes a
// comparison fail.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { init } from '../../bindings/js/research.mjs';
import { experimentByName, runExperiment } from '../../experiments/index.mjs';
import { experiments } from '../../experiments/local.mjs';
import { HELLINGER_ERRATUM, STATED_HELLINGER } from '../../experiments/support.mjs';
import { assertEntryFormat, assertProgress, assertResultPassed } from './helpers.mjs';

let ps;
before(async () => {
  ps = await init();
});

const F = ['kl', 'tv', 'hellinger'];
const BUDGETS = [0.1, 0.5, 1, 2];
const results = {};
const cell = (rows, budget, sampler, f) => rows.find((r) => r[0] === budget && r[1] === f && r[2] === sampler);
// [budget, f, local row, global row] for every budget × f of a result table.
const localAndGlobal = (rows) => BUDGETS.flatMap((b) => F.map((f) => [b, f, cell(rows, b, 'local', f), cell(rows, b, 'global', f)]));

describe('Ghoukasian et al. continuous experiments (quick, through runExperiment)', () => {
  test('the two entries, in the shared format, with the paper\'s errata', () => {
    assert.deepEqual(experiments.map((e) => e.name), ['local-fig4', 'local-fig10']);
    for (const e of experiments) {
      assert.equal(experimentByName(e.name), e);
      assertEntryFormat(e, 'local');
      assert.equal(e.closedForm, false);
      assert.deepEqual(e.quick, { clients: 10, cells: 1000 });
      assert.match(e.erratum, /c1 = e\^−1\/3, c2 = 3e/);
      assert.ok(e.erratum.includes(HELLINGER_ERRATUM), `${e.name}: the Hellinger erratum`);
    }
  });

  for (const entry of experiments) {
    test(`${entry.name}: every check ok, every printed value matched, three bar panels over the budgets and the stated-f one`, async () => {
      const fractions = [];
      const run = await runExperiment(ps, entry, { quick: true, progress: (f) => fractions.push(f) });
      results[entry.name] = run.result;
      const { result } = run;
      assertResultPassed(result);
      assert.deepEqual(result.panels.map((p) => [p.kind, p.title]), [['bars', 'KL'], ['bars', 'TV'], ['bars', 'Sq. Hel'], ['bars', STATED_HELLINGER]]);
      result.panels[3].series.forEach((s, i) => s.points.forEach(([, y], j) => assert.equal(y, 2 * result.panels[2].series[i].points[j][1])));
      for (const panel of result.panels) {
        assert.equal(panel.series.length, 4);
        for (const s of panel.series) assert.deepEqual(s.points.map(([x]) => x), BUDGETS, s.label);
      }
      // one row per budget × sampler × f; worst clients among the 10 quick clients
      assert.equal(result.table.rows.length, BUDGETS.length * 2 * F.length);
      for (const r of result.table.rows) assert.ok(Number.isInteger(r[5]) && r[5] >= 0 && r[5] < 10);
      // a privacy check per budget and sampler, computed by the core (ps.channelLdp)
      assert.equal(result.checks.filter((c) => c.label.includes('outputs\' channel')).length, BUDGETS.length * 2);
      assertProgress(fractions, entry.name);
      assert.equal(fractions.length, BUDGETS.length * 2 * 10 + 1);
    });
  }

  test('local-fig4: the bounds of docs/experiments.md (24 values) and the measured worst below them; local beats global', () => {
    const { printed, table, checks } = results['local-fig4'];
    assert.equal(printed.length, 24);
    for (const [b, f, local, global] of localAndGlobal(table.rows)) {
      assert.ok(local[3] < global[3], `${b} ${f}`);
      assert.ok(local[3] <= local[4] && global[3] <= global[4]);
    }
    // pure ε-LDP for every input; the global clip's point-mass outputs span its whole box (ε* = ε), the local clip's
    // box is narrower at ε = 2 (its floor and top are capped around P0 by γ = 3)
    for (const c of checks.filter((x) => x.label.includes('point masses'))) {
      assert.ok(c.value <= c.limit * (1 + 1e-9), c.label);
      if (c.label.startsWith('Global')) assert.ok(Math.abs(c.value - c.limit) <= 1e-9 * c.limit, `${c.label}: ${c.value}`);
      else assert.ok(c.value > 0.9 * c.limit, `${c.label}: ${c.value}`);
    }
  });

  test('local-fig10: the λ of docs/experiments.md (8 values); local linear beats global linear and has smaller bounds; Gaussian-LDP checks', () => {
    const { printed, table, checks } = results['local-fig10'];
    assert.equal(printed.length, 8);
    for (const [b, f, local, global] of localAndGlobal(table.rows)) assert.ok(local[3] < global[3] && local[4] < global[4], `${b} ${f}`);
    const gaussian = checks.filter((c) => c.label.includes('δ_ν(β)'));
    assert.equal(gaussian.length, 8);
    for (const c of gaussian) assert.ok(c.value <= 0, c.label);
  });

  test('the full local-fig4 run (100 clients, 8000 cells) stays within its bounds and checks', async () => {
    const run = await runExperiment(ps, experimentByName('local-fig4'));
    assert.equal(run.setup.clients, 100);
    assert.equal(run.ok, true, JSON.stringify(run.result.checks.filter((c) => !c.ok)));
    assert.equal(run.result.table.rows.length, 24);
  });

  test('a wrong set-up is reported, not hidden: the paper\'s rounded global class (1/9, 9) misses the printed bounds', async () => {
    const run = await runExperiment(ps, experimentByName('local-fig4'), { quick: true, overrides: { globalC1: 1 / 9, globalC2: 9, clients: 2 } });
    const global = run.result.printed.filter((p) => p.label.startsWith('R global'));
    assert.ok(global.length === 12 && global.every((p) => !p.ok));
    assert.ok(run.result.printed.filter((p) => p.label.startsWith('R local')).every((p) => p.ok));
    assert.equal(run.ok, false);
    const fig10 = await runExperiment(ps, experimentByName('local-fig10'), { quick: true, overrides: { gamma: 2, clients: 2 } });
    assert.ok(fig10.result.printed.some((p) => !p.ok), 'γ = 2 changes the local λ');
  });
});
