// The MBDE baseline through the JS API: its privacy bound on every cell, determinism with a seed, clear errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init } from '../../bindings/js/research.mjs';

const ps = await init();

test('mbde: e^{-ε/2} <= q_T/q0 <= e^{ε/2} on every cell, Σ = 1, θ = ε/(ε+4) (1-D and 2-D)', () => {
  const line = ps.grid1d({ lo: -4, hi: 4, cells: 120 });
  const p = ps.densities.gaussianMixture(line, { means: [-2, 2], sigma: 0.7 });
  const plane = ps.grid2d({ xLo: -3, xHi: 3, nx: 30, yLo: -3, yHi: 3, ny: 30 });
  const ring = ps.densities.ring(plane);
  for (const [grid, density] of [[line, p], [plane, ring]]) {
    for (const epsilon of [0.5, 2]) {
      const r = ps.mbde(grid, density, { epsilon, seed: 11 });
      assert.equal(r.density.length, density.length);
      assert.ok(Math.abs(r.theta - epsilon / (epsilon + 4)) < 1e-15);
      assert.ok(Math.abs(r.density.reduce((a, b) => a + b, 0) - 1) < 1e-12);
      let worst = 0;
      for (let i = 0; i < density.length; i += 1) worst = Math.max(worst, Math.abs(Math.log(r.density[i] / r.reference[i])));
      assert.ok(worst <= (epsilon / 2) * (1 + 1e-12), `ε = ${epsilon}: largest |log q_T/q0| = ${worst}`);
      assert.ok(worst > 0, 'the boosting moved q away from q0');
    }
  }
});

test('mbde: a seed makes it reproducible; bad options are clear errors', () => {
  const line = ps.grid1d({ lo: -4, hi: 4, cells: 60 });
  const p = ps.densities.gaussianMixture(line, { means: [1], sigma: 1 });
  const a = ps.mbde(line, p, { epsilon: 1, seed: 5 });
  const b = ps.mbde(line, p, { epsilon: 1, seed: 5 });
  assert.deepEqual(Array.from(a.density), Array.from(b.density));
  assert.throws(() => ps.mbde(line, p, { epsilon: -1 }), { name: 'RangeError', message: /epsilon/ });
  assert.throws(() => ps.mbde(line, p, { epsilon: 1, preset: 'fast' }), { name: 'RangeError', message: /preset/ });
  assert.throws(() => ps.mbde(line, p, { epsilon: 1, rounds: 3 }), { name: 'RangeError', message: /'rounds' is not supported/ });
  assert.throws(() => ps.mbde(line, p.slice(1), { epsilon: 1 }), { name: 'RangeError', message: /density/ });
  assert.throws(() => ps.mbde(line, p, {}), TypeError);
  assert.equal(ps.mbde(line, p, { epsilon: 1 }).density.length, 60, 'still works (CSPRNG run)');
});
