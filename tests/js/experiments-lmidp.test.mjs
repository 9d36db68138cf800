// The LMIDP experiments (experiments/lmidp.mjs) in their quick form, and the ps.lmidp bindings they added. Each entry
// must have the paper's panel, pass every bound check and match every reference value of docs/experiments.md; a wrong set-up must
// make a comparison fail.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { init } from '../../bindings/js/research.mjs';
import { experiments } from '../../experiments/lmidp.mjs';
import { assertPaperEntries, assertProgress, assertResultPassed } from './helpers.mjs';

let ps;
before(async () => {
  ps = await init();
});

const EXPECTED = {
  'lmidp-fig1': { figure: 'Fig. 1', series: 6, erratum: true },
  'lmidp-fig2': { figure: 'Fig. 2', series: 4, erratum: false },
  'lmidp-fig3': { figure: 'Fig. 3', series: 8, erratum: true },
  'lmidp-fig4': { figure: 'Fig. 4', series: 2, erratum: true },
};

const runQuick = (entry, overrides = {}) => entry.run(ps, { ...entry.setup, ...entry.quick, ...overrides }, { progress: () => {} });
const byName = (name) => experiments.find((e) => e.name === name);

describe('LMIDP experiments (quick)', () => {
  test('the registry has the four figures with the shared format', () => {
    assertPaperEntries(experiments, 'lmidp', EXPECTED);
    assert.match(byName('lmidp-fig3').erratum, /Theorem 2\(a\).*false/);
    assert.match(byName('lmidp-fig4').erratum, /LIP/);
  });

  for (const entry of experiments) {
    test(`${entry.name}: one log-scale panel, every check ok, every printed value matched`, async () => {
      const fractions = [];
      const result = await entry.run(ps, { ...entry.setup, ...entry.quick }, { progress: (f) => fractions.push(f) });
      assertProgress(fractions, entry.name);
      assert.equal(result.panels.length, 1);
      const [panel] = result.panels;
      assert.equal(panel.kind, 'lines');
      assert.equal(panel.y.log, true);
      assert.equal(panel.series.length, EXPECTED[entry.name].series);
      for (const s of panel.series) {
        assert.ok(s.points.length > 0, `${s.label}: no points`);
        for (const [x, y] of s.points) assert.ok(Number.isFinite(x) && y > 0 && Number.isFinite(y), `${s.label}: (${x}, ${y})`);
      }
      assert.ok(result.checks.length > 0 && result.printed.length > 0);
      assertResultPassed(result);
    });
  }

  test('lmidp-fig3 shows the erratum: the Gaussian crosses the printed bound, never the corrected one', async () => {
    const result = await runQuick(byName('lmidp-fig3'), { mus: [0.1] });
    const series = (prefix) => result.panels[0].series.find((s) => s.label.startsWith(prefix)).points;
    const printed = series('Theorem 2(a) as printed');
    const corrected = series('corrected');
    const gauss = series('Gaussian');
    assert.equal(result.panels[0].series.find((s) => s.label.startsWith('Theorem 2(a) as printed')).printed, true);
    assert.ok(gauss[0][1] > printed[0][1]); // ε = 0: 0.3219 > 0.1854
    assert.ok(gauss.at(-1)[1] < printed.at(-1)[1]); // ε = 2.5
    gauss.forEach(([, y], i) => assert.ok(y <= corrected[i][1]));
  });

  test('a wrong set-up is reported: σ² not calibrated to μ fails the comparisons and the erratum check', async () => {
    const result = await runQuick(byName('lmidp-fig3'), { sigma2: { 0.1: 100, 0.01: 1000 } });
    assert.ok(result.printed.some((p) => !p.ok && p.label.startsWith('I(X; G(X))')));
    assert.ok(result.checks.some((c) => !c.ok && c.label.includes('erratum reproduced')));
    const fig2 = await runQuick(byName('lmidp-fig2'), { bound: 2 });
    assert.ok(fig2.printed.some((p) => !p.ok));
  });
});

describe('ps.lmidp bindings used by the figures', () => {
  const close = (a, b, rel = 1e-9) => assert.ok(Math.abs(a - b) <= rel * Math.abs(b), `${a} vs ${b}`);

  test('Gaussian mechanism: LDP curve (Balle–Wang) and capacities (docs/experiments.md#ngo-figs-1-and-2)', () => {
    close(ps.lmidp.gaussianLdpDelta(1, 1, 1, 1), 0.50986166005467);
    close(ps.lmidp.gaussianLdpDelta(0, 10, 1, 71.635899), 0.291315845387653, 1e-8);
    assert.equal(ps.lmidp.gaussianLdpDelta(800, 1, 1, 1), 0);
    close(ps.lmidp.gaussianCapacityPeak(1, 1, 1), 0.485944, 1e-5);
    close(ps.lmidp.gaussianCapacityAveragePower(1, 1, 1), 0.5, 1e-12);
    // Theorem 3: the average-power value bounds the peak one (d = 10, σ² = 71.6359: both 0.1).
    close(ps.lmidp.gaussianCapacityAveragePower(10, 1, 71.6359073), 0.1, 1e-6);
    close(ps.lmidp.gaussianCapacityPeak(10, 1, 71.635899), 0.1, 1e-6);
  });

  test('the 21-point Gaussian mixture: I and the LIP curve (docs/experiments.md#lmidp-fig3)', () => {
    const { points, prior } = byName('lmidp-fig3').setup;
    close(ps.lmidp.gaussianMixtureMutualInformation(points, prior, 1.359991), 0.1, 1e-5);
    close(ps.lmidp.gaussianMixtureLipDelta(points, prior, 1.359991, 0), 0.321948, 1e-5);
    assert.throws(() => ps.lmidp.gaussianMixtureLipDelta(points, prior.slice(1), 1, 0), RangeError);
    assert.throws(() => ps.lmidp.gaussianMixtureMutualInformation(points, prior, -1), RangeError);
    assert.throws(() => ps.lmidp.gaussianMixtureMutualInformation('x', prior, 1), TypeError);
  });

  test('Theorems 1(b) and 2(b) integrate a curve given as a function', () => {
    // The Gaussian curve's (8) is 2dΔ²·log2(e)/σ² (docs/analysis/lmidp.md).
    close(ps.lmidp.capacityBoundFromLdpCurve((e) => ps.lmidp.gaussianLdpDelta(e, 1, 1, 200)), 2 * Math.LOG2E / 200, 1e-7);
    // Pure ε0-LDP's randomized-response curve gives log2(e)·ε0·tanh(ε0/2) (ε0 = 1: 0.66669...).
    const rr = ps.sampler('linear', { epsilon: 1 });
    const report = ps.accountant(rr, { k: 2 });
    rr.dispose();
    close(report.capacity.boundFromLdpCurve, 0.666694, 1e-5);
    // A curve that does not decay gives no bound; (10) weighs by e^ε + e^−ε.
    assert.equal(ps.lmidp.capacityBoundFromLdpCurve(() => 0.5), Infinity);
    assert.ok(ps.lmidp.mutualInformationBoundFromLipCurve((e) => (e < 1 ? 0.1 * (1 - e) : 0), 1) > 0);
  });

  test('a throwing or non-numeric curve is reported as its own error, and the module stays usable', () => {
    assert.throws(() => ps.lmidp.capacityBoundFromLdpCurve(() => { throw new SyntaxError('my curve'); }), SyntaxError);
    assert.throws(() => ps.lmidp.mutualInformationBoundFromLipCurve(() => 'x'), TypeError);
    assert.throws(() => ps.lmidp.capacityBoundFromLdpCurve(() => 2), /privacy curve takes values in \[0, 1\]/);
    assert.throws(() => ps.lmidp.capacityBoundFromLdpCurve(0.5), TypeError);
    assert.throws(() => ps.lmidp.gaussianLdpDelta(1, 0, 1, 1), RangeError);
    close(ps.lmidp.gaussianLdpDelta(1, 1, 1, 1), 0.50986166005467);
  });
});
