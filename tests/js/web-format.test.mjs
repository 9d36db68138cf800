// The reproductions' axis and colour-bar labels (web/format.js, drawn by web/panels.js and web/heatmap.js): log axes
// label their decades readably down to roo-fig3's 1e-15, and local-fig1's colour scales (cell masses ~1e-6 on
// 500 × 500 cells) read as numbers, not "0.00000".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init } from '../../bindings/js/research.mjs';
import { experimentByName, runExperiment } from '../../experiments/index.mjs';
import { formatColourBarLabel, formatLogTick } from '../../web/format.js';

test('log axes: one short label per decade from 1e-16 to 1e6, none between decades', () => {
  assert.equal(formatLogTick(1e-15), '1e-15');
  assert.equal(formatLogTick(1.0000000000000002e-15), '1e-15');
  assert.equal(formatLogTick(0.001), '0.001');
  assert.equal(formatLogTick(0.1), '0.1');
  assert.equal(formatLogTick(1), '1');
  assert.equal(formatLogTick(1000), '1000');
  assert.equal(formatLogTick(1e4), '1e4');
  for (let e = -16; e <= 6; e += 1) {
    const label = formatLogTick(10 ** e);
    assert.ok(label.length > 0 && label.length <= 5, `10^${e}: "${label}"`);
    assert.equal(Number(label), Number(`1e${e}`), `10^${e} reads back as itself`);
  }
  for (const between of [2e-15, 5e-9, 0.3, 20, 0, -1, NaN]) assert.equal(formatLogTick(between), '', String(between));
});

test('colour bars: the five labels of every local-fig1 heat map are distinct numbers that read back within 5 %', async () => {
  const ps = await init();
  const { result } = await runExperiment(ps, experimentByName('local-fig1'), { quick: true });
  const heatmaps = result.panels.filter((p) => p.kind === 'heatmap');
  assert.ok(heatmaps.length >= 2);
  let vmax = 0;
  for (const panel of heatmaps) for (const v of panel.values) vmax = Math.max(vmax, v);
  // cell masses on a fine grid: the quick form's 60 × 60 cells already put the top of the scale below 0.01
  assert.ok(vmax < 0.01, `vmax ${vmax}`);
  for (const top of [vmax, vmax / 69.4, 4e-6]) {
    const labels = [0, 1, 2, 3, 4].map((i) => formatColourBarLabel(top * (1 - i / 4)));
    assert.equal(new Set(labels).size, 5, labels.join(' '));
    labels.forEach((label, i) => {
      const want = top * (1 - i / 4);
      assert.ok(label.length <= 7, label);
      assert.ok(want === 0 ? label === '0' : Math.abs(Number(label) - want) <= 0.05 * want, `${label} for ${want}`);
    });
  }
  assert.equal(formatColourBarLabel(0.25), '0.25');
});
