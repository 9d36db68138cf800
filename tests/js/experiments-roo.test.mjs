// The Reveal-or-Obscure experiments (experiments/roo.mjs) in their quick form, and the ps.roo / ps.channelLdp bindings
// they use. Each entry must have the paper's panels, pass every privacy / bound check and match every reference value of
// docs/experiments.md#tasnim-et-al; a wrong set-up must make a comparison fail (the comparisons are not vacuous).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { init } from '../../bindings/js/research.mjs';
import { experiments } from '../../experiments/roo.mjs';
import { assertPaperEntries, assertProgress, assertResultPassed } from './helpers.mjs';

let ps;
before(async () => {
  ps = await init();
});

// name → the panels the paper's figure has (kind, count); roo-fig1 adds the two errata's panels.
const EXPECTED = {
  'roo-fig1': { figure: 'Fig. 1', panels: ['lines', 'bars', 'lines'], erratum: true, closedForm: true },
  'roo-fig2': { figure: 'Fig. 2', panels: ['bars'], erratum: false, closedForm: false },
  'roo-fig3': { figure: 'Fig. 3', panels: ['lines', 'lines'], erratum: false, closedForm: false },
  'roo-complexity': { figure: '§3', panels: ['lines'], erratum: false, closedForm: true },
};

const runQuick = (entry, overrides = {}) => entry.run(ps, { ...entry.setup, ...entry.quick, ...overrides }, { progress: () => {} });

function assertResultShape(result, expected) {
  assert.deepEqual(result.panels.map((p) => p.kind), expected.panels);
  for (const panel of result.panels) {
    assert.ok(panel.title.length > 0);
    assert.ok(panel.x.label.length > 0 && panel.y.label.length > 0);
    assert.ok(panel.series.length > 0, `${panel.title}: no series`);
    for (const s of panel.series) {
      assert.ok(s.label.length > 0);
      assert.ok(s.points.length > 0, `${panel.title} / ${s.label}: no points`);
      for (const [x, y] of s.points) assert.ok(Number.isFinite(x) && Number.isFinite(y), `${s.label}: point (${x}, ${y})`);
      if (panel.y.log) for (const [, y] of s.points) assert.ok(y > 0, `${s.label}: ${y} on a log axis`);
    }
  }
  assert.ok(result.checks.length > 0 && result.printed.length > 0);
  assert.ok(result.table.columns.length > 0 && result.table.rows.length > 0);
  assertResultPassed(result);
}

describe('Reveal-or-Obscure experiments (quick)', () => {
  test('the registry has the four entries with the shared format', () => {
    assertPaperEntries(experiments, 'roo', EXPECTED);
    for (const e of experiments) assert.equal(typeof e.quick, 'object');
  });

  for (const entry of experiments) {
    test(`${entry.name}: panels, checks and printed values`, async () => {
      const fractions = [];
      const result = await entry.run(ps, { ...entry.setup, ...entry.quick }, { progress: (f) => fractions.push(f) });
      assertResultShape(result, EXPECTED[entry.name]);
      assertProgress(fractions, entry.name);
    });
  }

  test('roo-fig1 draws the fixed and the printed table of the erratum case, and the curves reach 0', async () => {
    const result = await runQuick(experiments[0]);
    const [curves, erratum] = result.panels;
    // q_m is non-increasing and, for ε >= 0.05, reaches 0 before m = 111.
    const eps01 = curves.series.find((s) => s.label === 'ε = 0.1');
    assert.equal(eps01.points.length, 112);
    assert.equal(eps01.points[17][1], 0);
    assert.ok(eps01.points[16][1] > 0);
    const [printed, fixed] = erratum.series;
    assert.ok(Math.abs(printed.points[1][1] - 7 / 22) < 1e-12);
    assert.ok(Math.abs(fixed.points[1][1] - 3 / 8) < 1e-12);
    // The second erratum's witness: the old table ends far below the corrected one (q_99 0.00498 vs 0.1291).
    const [topFixOnly, corrected] = result.panels[2].series;
    assert.equal(topFixOnly.points.length, 100);
    assert.ok(Math.abs(topFixOnly.points[99][1] - 0.0049834) < 1e-7);
    assert.ok(Math.abs(corrected.points[99][1] - 0.1291032) < 1e-7);
    for (let m = 0; m < 100; m += 1) assert.ok(corrected.points[m][1] >= topFixOnly.points[m][1] - 1e-15);
    assert.ok(result.checks.some((c) => c.label.startsWith('second erratum reproduced') && c.ok && c.value > 0.033));
  });

  test('ps.roo.worstPair: the witness of the second erratum, and every input checked', () => {
    const old = ps.roo.obscureTableTopFixOnly(0.01, 99999, 1000);
    const w = ps.roo.worstPair(old, 99999, 1000);
    assert.ok(Math.abs(w.logRatio - 0.0335944) < 1e-6, `${w.logRatio}`);
    assert.deepEqual([w.m, w.mTilde, w.count, w.countTilde], [99, 98, 1098, 1098]);
    assert.ok(ps.roo.worstPair(ps.roo.obscureTable(0.01, 99999, 1000), 99999, 1000).logRatio <= 0.01 * (1 + 1e-9));
    assert.equal(ps.roo.worstPair([0, 0.5], 3, 3).logRatio, Infinity); // q_0 = 0: a letter absent from x̃
    assert.throws(() => ps.roo.worstPair([0.5], 99999, 1000), { name: 'RangeError', message: /table has 1 entries/ });
    assert.throws(() => ps.roo.worstPair([0.5, 1.5], 5, 3), { name: 'RangeError', message: /table\[1\] = 1\.5/ });
    assert.throws(() => ps.roo.worstPair('x', 5, 3), TypeError);
  });

  test('roo-fig3: DS-ROO′ beats ROO and both beat the Laplace bound at small ε (the paper\'s claim)', async () => {
    const result = await runQuick(experiments[2], { epsilons: [0.05, 0.5], datasets: 400, laplaceDatasets: 2 });
    for (const panel of result.panels) {
      const get = (prefix) => panel.series.find((s) => s.label.startsWith(prefix)).points;
      const [rsss, rooBound, ds] = [get('Laplace baseline'), get('ROO, paper'), get('DS-ROO′')];
      assert.ok(rooBound[0][1] < rsss[0][1]);
      assert.ok(ds[0][1] <= rooBound[0][1]);
    }
  });

  test('roo-fig3: DS-ROO′ exactly over the datasets\' law where the Monte Carlo cannot see it; the Monte Carlo only where resolved', async () => {
    const result = await runQuick(experiments[2], { epsilons: [0.05, 0.2, 0.5, 2], datasets: 300, laplaceDatasets: 2 });
    const [a] = result.panels;
    const series = (prefix) => a.series.find((s) => s.label.startsWith(prefix)).points;
    // A: the exact values of docs/experiments.md (the former Monte Carlo drew its rounding floor, ~1e-15, at ε >= 0.2).
    const exact = new Map(series('DS-ROO′, TV on P (exact'));
    assert.deepEqual([...exact.keys()], [0.2, 0.5, 2]);
    for (const [e, want, digits] of [[0.2, 1.242e-8, 4e-4], [0.5, 7.9e-13, 7e-3], [2, 5.34e-16, 2e-3]]) {
      assert.ok(Math.abs(exact.get(e) / want - 1) < digits, `ε = ${e}: ${exact.get(e)} vs ${want}`);
    }
    assert.deepEqual(series('DS-ROO′, TV on P (Monte Carlo').map(([e]) => e), [0.05], 'no dataset of 300 reaches the obscure branch at ε >= 0.2');
    const rows = result.table.rows.filter((r) => r[0] === 'A');
    assert.deepEqual(rows.map((r) => r[8]), [true, false, false, false], 'monte_carlo_resolved');
    assert.deepEqual(rows.map((r) => r[7]).slice(1), [0, 0, 0], 'datasets reaching the obscure branch');
    assert.equal(rows[0][9], '', 'no exact value where the table\'s first zero is past exactMaxZero (the Monte Carlo resolves it)');
    for (const p of result.printed) assert.equal(p.source, 'derived', p.label);
    assert.ok(a.y.log && a.x.log);
  });

  test('a wrong printed reference or set-up is reported, not hidden', async () => {
    // Sample complexity at a case without a reference value: nothing to compare, so no printed row for it.
    const entry = experiments[3];
    const result = await runQuick(entry, { cases: [{ k: 9, alpha: 0.1, epsilon: 0.2 }] });
    assert.equal(result.printed.length, 0);
    // DS-ROO TV on a different P than the reference one: the comparison with the reference numbers fails.
    const fig2 = await runQuick(experiments[1], { P: [0.1, 0.1, 0.1, 0.1, 0.2, 0.1, 0.1, 0.1, 0.1], datasets: 200 });
    assert.ok(fig2.printed.some((p) => !p.ok));
  });
});

describe('ps.roo and ps.channelLdp (bindings used by the entries)', () => {
  const ln = { 1.5: 0.4054651081081644, 1.1: 0.09531017980432493 };
  const close = (a, b, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} vs ${b}`);

  test('obscure tables: the exact rational vectors of core/mechanisms/ds-roo/README.md, fixed and as printed', () => {
    const table = (e, n, k) => Array.from(ps.roo.obscureTable(e, n, k));
    const printed = (e, n, k) => Array.from(ps.roo.obscureTableAsPrinted(e, n, k));
    [3 / 8, 2 / 7, 1 / 21, 0].forEach((q, m) => close(table(ln[1.5], 10, 3)[m], q));
    [6 / 11, 3 / 8].forEach((q, m) => close(table(ln[1.5], 5, 3)[m], q));
    [6 / 11, 7 / 22].forEach((q, m) => close(printed(ln[1.5], 5, 3)[m], q));
    [4 / 5, 26 / 33, 16 / 21].forEach((q, m) => close(table(ln[1.1], 5, 2)[m], q));
    [4 / 5, 26 / 33, 268 / 363].forEach((q, m) => close(printed(ln[1.1], 5, 2)[m], q));
    [5 / 6, 9 / 11, 0].forEach((q, m) => close(table(ln[1.1], 4, 2)[m], q));
    close(ps.roo.obscureProbability(0.1, 1000, 9), 0.0788291812984876);
    assert.equal(ps.roo.obscureProbability(0, 1000, 9), 1);
    assert.ok(ps.roo.obscureTable(0.1, 1000, 9) instanceof Float64Array);
  });

  test('accuracy and sample-complexity formulas (eqs. 5, 8, 18, 19, 45)', () => {
    const a = ps.roo.accuracyBounds(0.1, 1000, 9);
    close(a.rsss, 0.18);
    close(a.roo, 0.0788291812984876 * (8 / 9));
    assert.equal(ps.roo.accuracyBounds(0, 1000, 9).rsss, Infinity);
    const c = ps.roo.sampleComplexity(9, 0.1, 0.1);
    close(c.rsss, 1800);
    close(c.subrr, 720);
    assert.ok(Math.abs(c.roo - 675.09) < 0.01);
    const big = ps.roo.sampleComplexity(100, 0.01, 1);
    assert.ok(Math.abs(big.roo - 5703) < 0.5 && Math.abs(big.subrr - 9801) < 1e-6);
  });

  test('bad values are RangeErrors, wrong types TypeErrors, and the module stays usable', () => {
    assert.throws(() => ps.roo.obscureTable(0.1, 0, 9), RangeError);
    assert.throws(() => ps.roo.obscureTable(-1, 10, 9), RangeError);
    assert.throws(() => ps.roo.obscureProbability(0.1, 10.5, 9), RangeError);
    assert.throws(() => ps.roo.sampleComplexity(9, 0.9, 1), /alpha/);
    assert.throws(() => ps.roo.sampleComplexity(1, 0.1, 1), RangeError);
    assert.throws(() => ps.roo.sampleComplexity(9, 0.1, 0), /epsilon/);
    assert.throws(() => ps.roo.accuracyBounds(1, 10, 1), RangeError);
    assert.throws(() => ps.roo.obscureTable('0.1', 10, 9), TypeError);
    close(ps.roo.obscureProbability(0.1, 1000, 9), 0.0788291812984876);
  });

  test('channelLdp: pure ε is the largest log ratio, δ the hockey-stick divergence', () => {
    const r = ps.channelLdp([[0.5, 0.5], [0.25, 0.75]], [0, Math.LN2]);
    close(r.pureEpsilon, Math.LN2);
    close(r.delta[0], 0.25); // TV
    close(r.delta[1], 0); // at ε' = ε the hockey-stick is 0
    assert.equal(ps.channelLdp([[1, 0], [0.5, 0.5]]).pureEpsilon, Infinity);
    assert.equal(ps.channelLdp([[0.2, 0.8]]).pureEpsilon, 0);
    assert.throws(() => ps.channelLdp([[0.5, 0.5], [1]]), TypeError);
    assert.throws(() => ps.channelLdp([[0.5, 0.6], [0.5, 0.5]]), RangeError);
    assert.throws(() => ps.channelLdp([]), TypeError);
    // A DS-ROO′ neighbour pair at the paper's setting has loss <= ε (and ROO's is exactly ε at its worst pair).
    const roo = ps.sampler('roo', { epsilon: 0.5, records: 20 });
    close(ps.channelLdp([roo.distribution([0, 10, 10]), roo.distribution([1, 9, 10])]).pureEpsilon, 0.5, 1e-9);
    roo.dispose();
  });

  test('boxLogWidth: the log-width of the box around h holding q, from the core; outputs of a clip sampler stay within ε', () => {
    close(ps.boxLogWidth([0.8, 0.3, 0.2, 0.1], [0.4, 0.3, 0.2, 0.1]), Math.LN2);
    assert.equal(ps.boxLogWidth([0.4, 0.3, 0.2, 0.1], [0.4, 0.3, 0.2, 0.1]), 0);
    assert.equal(ps.boxLogWidth([0.5, 0.5, 0], [0.5, 0.4, 0.1]), Infinity, 'no mass where h has some');
    assert.equal(ps.boxLogWidth([0.5, 0.4, 0.1], [0.5, 0.5, 0]), Infinity, 'mass where h has none');
    assert.throws(() => ps.boxLogWidth([0.5, 0.5], [1]), TypeError);
    assert.throws(() => ps.boxLogWidth([0.5, -0.5], [0.5, 0.5]), { name: 'RangeError', message: /q\[1\] = -0\.5/ });
    const prior = [0.4, 0.3, 0.2, 0.1];
    const local = ps.sampler('local', { epsilon: 1, prior, gamma: 3 });
    for (const p of [[1, 0, 0, 0], [0, 0, 0, 1], [0.25, 0.25, 0.25, 0.25]]) assert.ok(ps.boxLogWidth(local.distribution(p), prior) <= 1 + 1e-12);
    local.dispose();
  });

  test('channelLdpOfExtremes: the pure ε of a channel from its column extremes equals channelLdp on the rows', () => {
    const rows = [[0.1, 0.2, 0.3, 0.4], [0.4, 0.3, 0.2, 0.1], [0.25, 0.25, 0.25, 0.25]];
    const largest = rows[0].map((_, y) => Math.max(...rows.map((r) => r[y])));
    const smallest = rows[0].map((_, y) => Math.min(...rows.map((r) => r[y])));
    assert.equal(ps.channelLdpOfExtremes(largest, smallest), ps.channelLdp(rows).pureEpsilon);
    close(ps.channelLdpOfExtremes(largest, smallest), Math.log(4));
    assert.equal(ps.channelLdpOfExtremes([0.5, 0.1], [0.25, 0]), Infinity);
    assert.throws(() => ps.channelLdpOfExtremes([0.1], [0.2]), { name: 'RangeError', message: /largest\[0\]/ });
    assert.throws(() => ps.channelLdpOfExtremes([0.1, 0.2], [0.1]), TypeError);
  });
});
