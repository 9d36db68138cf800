// Every entry of experiments/local-finite.mjs in its quick form (setup and quick merged): every check ok, every
// printed value matched, and the paper's panels present and non-empty.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init } from '../../bindings/js/research.mjs';
import { experiments } from '../../experiments/local-finite.mjs';
import { assertEntryFormat, assertProgress, assertResultPassed } from './helpers.mjs';

const ps = await init();

const BARS = { kind: 'bars', titles: ['KL', 'TV', 'Sq. Hel'] };
// The paper's panels per figure: kind and titles.
const EXPECTED = {
  'local-fig1': { kind: 'heatmap', titles: ['Original', 'Global Pure', 'Local Pure', 'Original', 'Global GDP', 'Local GDP'] },
  'local-fig2': { kind: 'lines', titles: ['Q*_{g,N_γ(P0)}: functional LDP (linear)', 'Q*_{ε,N_γ(P0)}: pure LDP (clip)'] },
  'local-fig3': BARS,
  'local-fig5': BARS,
  'local-fig6': BARS,
  'local-fig7': BARS,
  'local-fig8': BARS,
  'local-fig9': BARS,
  'local-fig11': BARS,
};

test('the registry holds the paper\'s figures, once each, in the shared format', () => {
  assert.deepEqual(experiments.map((e) => e.name).sort(), Object.keys(EXPECTED).sort());
  for (const e of experiments) {
    assertEntryFormat(e, 'local');
    assert.match(e.figure, /^Fig\. \d+$/, e.name);
  }
});

for (const entry of experiments) {
  test(`${entry.name} (quick): checks ok, printed values match, panels like the paper's`, async () => {
    const fractions = [];
    const result = await entry.run(ps, { ...entry.setup, ...entry.quick }, { progress: (x) => fractions.push(x) });
    assertProgress(fractions, entry.name);

    assert.ok(result.checks.length > 0, 'has checks');
    assertResultPassed(result, { limits: true });

    const expected = EXPECTED[entry.name];
    assert.deepEqual(result.panels.map((p) => p.title), expected.titles);
    for (const panel of result.panels) {
      assert.equal(panel.kind, expected.kind, panel.title);
      if (panel.kind === 'heatmap') {
        const { width, height, x, y } = panel.grid;
        assert.equal(panel.values.length, width * height, `${panel.title}: values fill the grid`);
        assert.ok(width > 0 && height > 0 && x[0] < x[1] && y[0] < y[1]);
        assert.ok(panel.values.every((v) => Number.isFinite(v) && v >= 0), `${panel.title}: finite masses`);
        assert.ok(panel.values.some((v) => v > 0), `${panel.title}: not all zero`);
      } else {
        assert.ok(panel.x.label && panel.y.label, `${panel.title}: axis labels`);
        assert.ok(panel.series.length >= 2, `${panel.title}: at least two series`);
        for (const s of panel.series) {
          assert.ok(s.points.length > 0, `${panel.title} / ${s.label}: non-empty`);
          assert.ok(s.points.every(([a, b]) => Number.isFinite(a) && Number.isFinite(b)), `${panel.title} / ${s.label}: finite points`);
        }
      }
    }
    if (expected.kind === 'bars') {
      // The paper's message: the local sampler's worst case is below the global one at every budget.
      for (const panel of result.panels) {
        const [global, local] = panel.series;
        assert.deepEqual([global.label, local.label], ['Global', 'Local']);
        global.points.forEach(([b, g], i) => assert.ok(local.points[i][1] < g, `${panel.title} at ${b}: local < global`));
      }
    }
    if (result.table) assert.ok(result.table.rows.length > 0);
  });
}
