// Every entry of experiments/local-finite.mjs in its quick form (setup and quick merged): every check ok, every
// printed value matched, and the paper's panels present and non-empty; the Hellinger erratum with its corrected
// panel on every bar chart; the trivial regime of 'local' drawn both ways (library and paper); Fig. 11's note that
// the paper's Local bars exceed the closed-form bound.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init } from '../../bindings/js/research.mjs';
import { experiments } from '../../experiments/local-finite.mjs';
import { HELLINGER_ERRATUM, STATED_HELLINGER } from '../../experiments/support.mjs';
import { assertEntryFormat, assertProgress, assertResultPassed } from './helpers.mjs';

const ps = await init();

const BARS = { kind: 'bars', titles: ['KL', 'TV', 'Sq. Hel', STATED_HELLINGER] };
const TRIVIAL_PANEL = 'trivial regime ε = 2 (e^ε >= γ²): P′ ∉ N_γ(P0), library (clip) vs paper (P̂)';
// The paper's panels per figure: kind and titles.
const EXPECTED = {
  'local-fig1': { kind: 'heatmap', titles: ['Original', 'Global Pure', 'Local Pure', 'Original', 'Global GDP', 'Local GDP'] },
  'local-fig2': { kind: 'lines', titles: ['Q*_{g,N_γ(P0)}: functional LDP (linear)', 'Q*_{ε,N_γ(P0)}: pure LDP (clip)', TRIVIAL_PANEL] },
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

const results = {};
for (const entry of experiments) {
  test(`${entry.name} (quick): checks ok, printed values match, panels like the paper's`, async () => {
    const fractions = [];
    const result = await entry.run(ps, { ...entry.setup, ...entry.quick }, { progress: (x) => fractions.push(x) });
    results[entry.name] = result;
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
    // Where the references come from: closed forms (derived), except Fig. 1's λ, the authors' code's.
    for (const p of result.printed) assert.equal(p.source, entry.name === 'local-fig1' ? 'code' : 'derived', p.label);
  });
}

test('the Hellinger erratum on every bar chart: the stated-f panel doubles every value of the plotted Sq. Hel panel', () => {
  for (const entry of experiments.filter((e) => EXPECTED[e.name].kind === 'bars')) {
    assert.ok(entry.erratum.includes(HELLINGER_ERRATUM), `${entry.name}: the erratum states the Hellinger convention`);
    const plotted = results[entry.name].panels.find((p) => p.title === 'Sq. Hel');
    const stated = results[entry.name].panels.find((p) => p.title === STATED_HELLINGER);
    assert.deepEqual(stated.series.map((s) => s.label), plotted.series.map((s) => s.label));
    stated.series.forEach((s, i) => s.points.forEach(([x, y], j) => {
      assert.deepEqual([x, y], [plotted.series[i].points[j][0], 2 * plotted.series[i].points[j][1]], `${entry.name} ${s.label}`);
    }));
  }
  // The figures without a Sq. Hel panel say nothing about it.
  for (const name of ['local-fig1', 'local-fig2']) assert.ok(!(experiments.find((e) => e.name === name).erratum ?? '').includes(HELLINGER_ERRATUM));
});

test('\'local\' in the trivial regime outside N_γ: the library clips into its box, the paper releases the projection (core/mechanisms/local/README.md)', () => {
  // k = 4, uniform prior, γ = 2, ε = 2 (e² >= γ²), a point mass: the library (0.590, 0.137 × 3), the paper (0.5, 1/6 × 3).
  const options = { epsilon: 2, prior: [0.25, 0.25, 0.25, 0.25], gamma: 2 };
  const library = ps.sampler('local', options);
  const paper = ps.sampler('local', { ...options, outsideNeighbourhood: 'projection' });
  const q = library.distribution([1, 0, 0, 0]);
  const p = paper.distribution([1, 0, 0, 0]);
  const b = 3 / (2 + Math.exp(2));
  assert.ok(Math.abs(q[0] - b * Math.exp(2) / 4) < 1e-12 && Math.abs(q[1] - (1 - b * Math.exp(2) / 4) / 3) < 1e-12, `library ${Array.from(q)}`);
  assert.ok(Math.abs(q[0] - 0.590) < 5e-4 && Math.abs(q[1] - 0.137) < 5e-4);
  for (const [i, v] of [0.5, 1 / 6, 1 / 6, 1 / 6].entries()) assert.ok(Math.abs(p[i] - v) < 1e-12, `paper ${Array.from(p)}`);
  for (const out of [q, p]) assert.ok(ps.boxLogWidth(out, options.prior) <= 2 + 1e-12, 'both are 2-LDP');
  // The paper's output is P̂ as 'local-linear' computes it where its weight clamps to 1 (an independent route), on
  // inputs in and outside N_γ(P0).
  const projector = ps.sampler('local-linear', { epsilon: 700, prior: options.prior, gamma: options.gamma });
  for (const input of [[1, 0, 0, 0], [0.7, 0.3, 0, 0], [0.05, 0.15, 0.3, 0.5], [0.4, 0.2, 0.2, 0.2]]) {
    assert.ok(ps.divergence('tv', paper.distribution(input), projector.distribution(input)) < 1e-12, `P̂ of ${input}`);
  }
  // Inside N_γ both release P; outside the trivial regime both are the library's sampler.
  const inside = [0.4, 0.2, 0.2, 0.2];
  assert.deepEqual(Array.from(paper.distribution(inside)).map((v) => v.toFixed(12)), inside.map((v) => v.toFixed(12)));
  const nonTrivial = { ...options, epsilon: 1 };
  assert.deepEqual(Array.from(ps.sampler('local', { ...nonTrivial, outsideNeighbourhood: 'projection' }).distribution([1, 0, 0, 0])),
    Array.from(ps.sampler('local', nonTrivial).distribution([1, 0, 0, 0])));
  for (const s of [library, paper, projector]) s.dispose();
});

test('local-fig2 draws the trivial regime both ways; the pure figures are the same drawn either way (no bar is in the trivial regime)', async () => {
  const panel = results['local-fig2'].panels.find((p) => p.title === TRIVIAL_PANEL);
  const [library, paper] = panel.series.slice(-2).map((s) => s.points[1]);
  assert.ok(Math.hypot(library[0] - paper[0], library[1] - paper[1]) > 0.05, `the two outputs of P′ differ: ${library} vs ${paper}`);
  assert.equal(results['local-fig2'].checks.filter((c) => c.label.startsWith('trivial regime')).length, 4);
  const entry = experiments.find((e) => e.name === 'local-fig3');
  const paperWay = await entry.run(ps, { ...entry.setup, ...entry.quick, outsideNeighbourhood: 'projection' });
  assert.deepEqual(paperWay.panels, results['local-fig3'].panels);
});

test('local-fig11: the paper\'s Local KL bars (decoded) exceed the closed-form worst case over the class, said and drawn', () => {
  const { checks, panels } = results['local-fig11'];
  const impossible = checks.filter((c) => c.label.includes('the printed figure is impossible'));
  assert.deepEqual(impossible.map((c) => c.limit), [0.21, 0.1805]);
  for (const c of impossible) assert.ok(c.ok && c.value < c.limit, c.label);
  assert.ok(Math.abs(impossible[0].value - 0.1567) < 5e-5 && Math.abs(impossible[1].value - 0.0038) < 5e-5);
  const kl = panels.find((p) => p.title === 'KL');
  assert.deepEqual(kl.series.map((s) => s.label), ['Global', 'Local', 'Global bound', 'Local bound',
    'Local (paper\'s bar, decoded from its figure: above the bound)']);
  assert.match(experiments.find((e) => e.name === 'local-fig11').erratum, /^The printed figure is impossible/);
});
