// The one registry of experiments (experiments/index.mjs): every numbered figure and table of the four papers, once,
// in the papers' order; lookups and the result-shape validation the CLI and the page rely on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HELLINGER_ERRATUM } from '../../experiments/support.mjs';
import { EXPERIMENTS, PAPERS, REFERENCE_SOURCES, experimentByName, passed, setupOf, validateResult } from '../../experiments/index.mjs';

// Every numbered figure and table: Park et al. Figs 1–7; Ghoukasian et al. Figs 1–11; Reveal-or-Obscure Figs 1–3 and
// the §3 sample-complexity comparison; LMIDP Figs 1–4.
const EXPECTED = [
  ...[1, 2, 3, 4, 5, 6, 7].map((n) => ['minimax', `Fig. ${n}`]),
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((n) => ['local', `Fig. ${n}`]),
  ...[1, 2, 3].map((n) => ['roo', `Fig. ${n}`]),
  ['roo', '§3'],
  ...[1, 2, 3, 4].map((n) => ['lmidp', `Fig. ${n}`]),
];

test('every figure of the four papers is an entry, once, papers in order and figures by number', () => {
  assert.deepEqual(EXPERIMENTS.map((e) => [e.paper, e.figure]), EXPECTED);
  assert.equal(new Set(EXPERIMENTS.map((e) => e.name)).size, EXPERIMENTS.length, 'names are unique');
  for (const e of EXPERIMENTS) {
    assert.ok(Object.hasOwn(PAPERS, e.paper), `${e.name}: a known paper`);
    assert.match(e.name, new RegExp(`^${e.paper}-`), `${e.name}: named after its paper`);
  }
  assert.ok(Object.isFrozen(EXPERIMENTS));
});

test('experimentByName finds entries and names the known ones otherwise', () => {
  assert.equal(experimentByName('local-fig11').figure, 'Fig. 11');
  assert.throws(() => experimentByName('local-fig12'), (e) => e instanceof RangeError && /"local-fig12" is not in the registry/.test(e.message) && /minimax-fig1, minimax-fig2/.test(e.message));
});

test('setupOf merges the default set-up, the quick form or the paper\'s scale, and overrides in that order', () => {
  const entry = { setup: { k: 10, epsilons: [1, 2], preset: 'reduced' }, quick: { epsilons: [1] }, paperScale: { preset: 'paper' } };
  assert.deepEqual(setupOf(entry), { k: 10, epsilons: [1, 2], preset: 'reduced' });
  assert.deepEqual(setupOf(entry, { quick: true }), { k: 10, epsilons: [1], preset: 'reduced' });
  assert.deepEqual(setupOf(entry, { quick: true, overrides: { k: 5 } }), { k: 5, epsilons: [1], preset: 'reduced' });
  assert.deepEqual(setupOf(entry, { paperScale: true }), { k: 10, epsilons: [1, 2], preset: 'paper' });
  assert.deepEqual(setupOf({ setup: { k: 1 } }, { paperScale: true }), { k: 1 }, 'no paperScale: the default is the paper\'s');
  assert.throws(() => setupOf(entry, { quick: true, paperScale: true }), RangeError);
  for (const e of EXPERIMENTS) {
    if (e.paperScale === undefined) continue;
    assert.deepEqual(JSON.parse(JSON.stringify(e.paperScale)), e.paperScale, `${e.name}: paperScale is plain JSON`);
    for (const key of Object.keys(e.paperScale)) assert.ok(Object.hasOwn(e.setup, key), `${e.name}: paperScale.${key} overrides a set-up field`);
  }
});

test('the Hellinger erratum on exactly the entries that draw the ½ convention (a "Sq. Hel" panel)', () => {
  // Both papers state f(t) = (1 − √t)² and plot 1 − √t; these entries draw a Sq. Hel panel (the other entries'
  // panels: tests/js/experiments-*.test.mjs).
  const drawn = ['minimax-fig3', 'minimax-fig4', 'minimax-fig5', 'minimax-fig6', 'minimax-fig7',
    'local-fig3', 'local-fig4', 'local-fig5', 'local-fig6', 'local-fig7', 'local-fig8', 'local-fig9', 'local-fig10', 'local-fig11'];
  const withErratum = EXPERIMENTS.filter((e) => (e.erratum ?? '').includes(HELLINGER_ERRATUM)).map((e) => e.name);
  assert.deepEqual(withErratum.sort(), drawn.sort());
});

test('validateResult rejects results the renderer could not draw, naming the entry and the field', () => {
  const good = {
    panels: [{ title: 'KL', kind: 'lines', series: [{ label: 'ours', points: [[0, 1]] }] }],
    checks: [{ label: 'ratio', value: 1, limit: 2, ok: true }],
    printed: [{ label: 'R', paper: 1, computed: 1, ok: true, source: 'derived' }],
  };
  assert.equal(validateResult('x', good), good);
  assert.equal(passed(good), true);
  assert.equal(passed({ ...good, printed: [{ label: 'R', ok: false }] }), false);
  const bad = [
    [{ ...good, panels: [] }, /x: result.panels must be a non-empty array/],
    [{ ...good, panels: [{ title: 'KL', kind: 'pie', series: [] }] }, /panels\[0\]\.kind is "pie"/],
    [{ ...good, panels: [{ title: 'H', kind: 'heatmap', grid: { width: 2, height: 2 }, values: [1, 2, 3] }] }, /grid.width·grid.height values/],
    [{ ...good, checks: [{ label: 'ratio', ok: 'yes' }] }, /checks\[0\] needs a label and a boolean ok/],
    [{ ...good, printed: undefined }, /result.printed must be an array/],
    [{ ...good, table: { columns: ['a'] } }, /result.table needs columns and rows/],
    [{ ...good, printed: [{ label: 'R', paper: 1, computed: 1, ok: true }] }, /printed\[0\]\.source is undefined, expected one of printed, figure, code, derived/],
    [{ ...good, printed: [{ label: 'R', paper: 1, computed: 1, ok: true, source: 'paper' }] }, /printed\[0\]\.source is "paper"/],
  ];
  assert.deepEqual(Object.keys(REFERENCE_SOURCES), ['printed', 'figure', 'code', 'derived']);
  for (const [result, message] of bad) assert.throws(() => validateResult('x', result), message);
});
