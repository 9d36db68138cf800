// Every entry of experiments/minimax-finite.mjs (Park et al. Figs 2, 3, 5, 6, 7) in its quick form through the shared
// runner of experiments/index.mjs: every check ok, every printed value matched to half a unit of its last digit, the
// paper's panels present, the paper's claim (proposed below the baseline) visible in the drawn series, and a wrong
// set-up makes the comparisons fail (they are not vacuous). Set-ups: docs/experiments.md#minimax-fig2 and
// docs/experiments.md#park-figs-3-5-7-finite-worst-case.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init } from '../../bindings/js/research.mjs';
import { EXPERIMENTS, experimentByName, runExperiment } from '../../experiments/index.mjs';
import { STATED_HELLINGER, experiments } from '../../experiments/minimax-finite.mjs';
import { assertEntryFormat, assertProgress, assertResultPassed } from './helpers.mjs';

const ps = await init();

const RISK = { kind: 'lines', titles: ['KL', 'TV', 'Sq. Hel', STATED_HELLINGER], k: null };
// The paper's panels per figure: kind, titles, and k for the worst-case figures.
const EXPECTED = {
  'minimax-fig2': { kind: 'bars', titles: ['ε = 1', 'ε = 0.5', 'ε = 0.1'], printed: 18 },
  'minimax-fig3': { ...RISK, k: 10, printed: 30 },
  'minimax-fig5': { ...RISK, k: 5, printed: 30 },
  'minimax-fig6': { ...RISK, k: 20, printed: 30 },
  'minimax-fig7': { ...RISK, k: 100, printed: 30 },
};

test('the registry holds Figs 2, 3, 5, 6, 7 once each, among the minimax entries in figure order, in the shared format', () => {
  assert.deepEqual(experiments.map((e) => e.name), Object.keys(EXPECTED));
  const minimax = EXPERIMENTS.filter((e) => e.paper === 'minimax');
  assert.deepEqual(EXPERIMENTS.slice(0, minimax.length), minimax, 'minimax first in the registry');
  assert.deepEqual(minimax.map((e) => e.figure), ['Fig. 1', 'Fig. 2', 'Fig. 3', 'Fig. 4', 'Fig. 5', 'Fig. 6', 'Fig. 7'], 'in figure order');
  for (const e of experiments) {
    assert.equal(experimentByName(e.name), e);
    assert.equal(EXPERIMENTS.filter((x) => x.name === e.name).length, 1, `${e.name} once`);
    assertEntryFormat(e, 'minimax');
    assert.match(e.figure, /^Fig\. \d+$/, e.name);
    assert.equal(e.closedForm, true, `${e.name}: a closed form`);
    if (EXPECTED[e.name].k) {
      assert.equal(e.setup.k, EXPECTED[e.name].k, e.name);
      assert.deepEqual(e.setup.printedEpsilons, [0.1, 0.5, 1, 2, 5], `${e.name}: the paper's ε`);
      assert.match(e.erratum, /\(1 − √t\)².*1 − √t/s, `${e.name}: the Hellinger erratum`);
    } else {
      assert.equal(e.erratum, undefined, e.name);
    }
  }
});

for (const entry of experiments) {
  test(`${entry.name} (quick): checks ok, printed values match, panels like the paper's`, async () => {
    const fractions = [];
    const run = await runExperiment(ps, entry, { quick: true, progress: (x) => fractions.push(x) });
    const { result } = run;
    assert.equal(run.ok, true, `${entry.name}: passed`);
    assert.ok(fractions.length > 1);
    assertProgress(fractions, entry.name);

    const expected = EXPECTED[entry.name];
    assert.ok(result.checks.length >= 6, 'has checks');
    assertResultPassed(result, { limits: true });
    assert.equal(result.printed.length, expected.printed, 'every printed value is compared');
    for (const p of result.printed) assert.ok(p.tolerance > 0 && p.tolerance <= 5.0001e-5, `${p.label}: half a unit of a 4th-to-6th decimal`);
    // Where the reference digits come from: Fig. 2's from the authors' code (the paper draws bars, prints no digits),
    // the others from the closed forms.
    for (const p of result.printed) assert.equal(p.source, expected.k ? 'derived' : 'code', p.label);
    const referenceSeries = result.panels.flatMap((panel) => panel.series.filter((x) => x.printed)).map((x) => x.label);
    for (const label of referenceSeries) assert.match(label, expected.k ? /\(reference table: closed form, derived, 4 digits\)$/ : /\(paper: the authors' code; the paper prints no digits\)$/);

    assert.deepEqual(result.panels.map((p) => p.title), expected.titles);
    for (const panel of result.panels) {
      assert.equal(panel.kind, expected.kind, panel.title);
      assert.ok(panel.x.label && panel.y.label, `${panel.title}: axis labels`);
      assert.ok(panel.series.length >= 3, `${panel.title}: computed and printed series`);
      for (const s of panel.series) {
        assert.ok(s.points.length > 0, `${panel.title} / ${s.label}: non-empty`);
        assert.ok(s.points.every(([a, b]) => Number.isFinite(a) && Number.isFinite(b) && b >= 0), `${panel.title} / ${s.label}: finite points`);
      }
      assert.ok(panel.series.some((s) => s.printed === true), `${panel.title}: the printed values are drawn`);
    }

    if (expected.k) {
      // Lines against ε on a grid finer than the paper's five ε, which are on it; proposed below the baseline.
      for (const panel of result.panels) {
        const [ours, baseline] = panel.series;
        assert.deepEqual([ours.label, baseline.label], ['Proposed Q*', 'Baseline (Husain et al., uniform Q0)']);
        const xs = ours.points.map(([x]) => x);
        assert.ok(xs.length > 10, `${panel.title}: a fine ε grid`);
        for (const e of [0.1, 0.5, 1, 2, 5]) assert.ok(xs.includes(e), `${panel.title}: ε = ${e} on the grid`);
        ours.points.forEach(([e, y], i) => {
          assert.equal(baseline.points[i][0], e);
          assert.ok(y < baseline.points[i][1], `${panel.title}, ε = ${e}: proposed ${y} < baseline ${baseline.points[i][1]}`);
          if (i > 0) assert.ok(y < ours.points[i - 1][1], `${panel.title}: the worst case falls as ε grows`);
        });
      }
      // The Sq. Hel panel is the ½ convention: at most 1; the erratum's corrected panel (the stated f) doubles it.
      assert.ok(result.panels[2].series.every((s) => s.points.every(([, y]) => y <= 1)));
      assert.deepEqual(result.panels[3].series.map((s) => s.label), result.panels[2].series.map((s) => s.label));
      result.panels[3].series.forEach((s, i) => s.points.forEach(([x, y], j) => {
        assert.deepEqual([x, y], [result.panels[2].series[i].points[j][0], 2 * result.panels[2].series[i].points[j][1]]);
      }));
      assert.ok(result.panels[3].series[0].points.some(([, y]) => y > 1), 'the stated convention goes above 1');
    } else {
      for (const panel of result.panels) {
        const [p, q] = panel.series;
        assert.deepEqual(p.points.map(([x]) => x), [1, 2, 3, 4, 5]);
        assert.ok(Math.abs(q.points.reduce((s, [, y]) => s + y, 0) - 1) < 1e-12, `${panel.title}: Q* sums to 1`);
      }
    }
  });
}

test('a wrong set-up fails the comparisons: P with two entries swapped; k without a printed table', async () => {
  const fig2 = experimentByName('minimax-fig2');
  const swapped = await runExperiment(ps, fig2, { overrides: { P: [0.25, 0.3, 0.2, 0.15, 0.1] } });
  assert.equal(swapped.ok, false);
  const wrong = swapped.result.printed.filter((p) => !p.ok).map((p) => p.label);
  assert.ok(wrong.includes('Q*(1|P) (ε = 1)') && wrong.includes('Q*(2|P) (ε = 1)') && !wrong.includes('r_P (ε = 1)'), wrong.join(', '));
  assert.ok(swapped.result.checks.every((c) => c.ok), 'the privacy checks still hold for any P');
  await assert.rejects(fig2.run(ps, { ...fig2.setup, P: [0.5, 0.5] }), RangeError);

  // The printed digits belong to k = 5, 10, 20, 100: another k is drawn and checked but has nothing to compare.
  const k11 = await runExperiment(ps, experimentByName('minimax-fig3'), { quick: true, overrides: { k: 11 } });
  assert.equal(k11.result.printed.length, 0);
  assert.ok(k11.result.checks.every((c) => c.ok));
  assert.ok(k11.result.panels.every((panel) => panel.series.length === 2 && panel.series.every((s) => !s.printed)));
});
