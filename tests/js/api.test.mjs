// The JS API contract of docs/design.md against the built WebAssembly module, with golden values from
// core/mechanisms/minimax/README.md (Theorem 3.1, reference values) and docs/experiments.md#park-et-al.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { init } from '../../bindings/js/privsample.mjs';
import { assertClose } from './helpers.mjs';

const ps = await init();
const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

test('init() loads the module once and returns the same instance', async () => {
  assert.equal(await init(), ps);
  assert.equal(ps.version, packageJson.version);
  for (const name of ['minimax', 'linear', 'mollifier', 'local']) assert.ok(ps.mechanisms.includes(name), name);
  assert.ok(Object.isFrozen(ps.mechanisms));
  assert.equal(ps.maxCategories, 10_000_000);
});

// Golden values shared with the native tests and the pack smoke test.
const golden = JSON.parse(readFileSync(new URL('../golden/minimax.json', import.meta.url), 'utf8'));

test('minimax: Q* and r_P match the golden test vectors', () => {
  const s = ps.sampler('minimax', { epsilon: 1 });
  const { tolerance, vectors } = golden.qstar;
  assert.equal(vectors.length, 7);
  for (const { p, epsilon, q, r } of vectors) {
    const sampler = ps.sampler('minimax', { epsilon });
    const out = sampler.distribution(p);
    assert.ok(out instanceof Float64Array);
    assertClose(out, q, tolerance + 1e-12, `Q*(${p}) at ε=${epsilon}`);
    assert.ok(Math.abs(sampler.normaliser(p) - r) <= tolerance + 1e-12, `r_P(${p}) = ${sampler.normaliser(p)}, expected ${r}`);
  }
  assert.deepEqual(s.guarantee, { notion: 'pure-ldp', epsilon: 1 });
  assert.equal(s.mechanism, 'minimax');
});

test('minimax: Figure 2 of the paper (k = 5) to the printed digits', () => {
  const { p, rows, r_tolerance: rTolerance } = golden.figure2;
  for (const { epsilon, r, q, q_tolerance: qTolerance } of rows) {
    const s = ps.sampler('minimax', { epsilon });
    assertClose(s.distribution(p), q, qTolerance + 1e-12, `Fig 2 ε=${epsilon}`);
    assert.ok(Math.abs(s.normaliser(p) - r) <= rTolerance + 1e-12);
  }
});

test('linear: Q† is k-RR on one draw of P (golden vector) and has no normaliser', () => {
  const s = ps.sampler('linear', { epsilon: golden.krr.epsilon });
  assertClose(s.distribution(golden.krr.p), golden.krr.q, golden.krr.tolerance + 1e-12, 'Q†');
  assert.equal(s.normaliser([1, 2]), null);
  assert.deepEqual(s.guarantee, { notion: 'pure-ldp', epsilon: 1 });
});

test('counts and probabilities, arrays and typed arrays give the same distribution', () => {
  const s = ps.sampler('minimax', { epsilon: 0.7 });
  const expected = s.distribution([0.3, 0.5, 0.2]);
  for (const hist of [[3, 5, 2], new Float64Array([30, 50, 20]), new Uint32Array([3, 5, 2]), new Float32Array([0.3, 0.5, 0.2]), new Int32Array([6, 10, 4])]) {
    assertClose(s.distribution(hist), expected, 1e-7, String(hist.constructor.name));
  }
});

test('worstCaseRisk: Theorem 3.1 closed forms to the printed digits (golden risks, proposed column)', () => {
  const { epsilons, tolerance, rows } = golden.risks;
  for (const { k, f, values } of rows) {
    epsilons.forEach((epsilon, i) => {
      for (const mechanism of ['minimax', 'linear']) {
        const risk = ps.sampler(mechanism, { epsilon }).worstCaseRisk(f, k);
        assert.ok(Math.abs(risk - values[i]) <= tolerance, `${mechanism} ${f} k=${k} ε=${epsilon}: ${risk} vs ${values[i]}`);
      }
    });
  }
  // The point mass attains the worst case (core/mechanisms/minimax/README.md#reference-values).
  const s = ps.sampler('minimax', { epsilon: 1 });
  const point = [1, 0, 0, 0, 0];
  for (const f of ['kl', 'tv', 'hellinger', 'chi2']) {
    const own = ps.divergence(f, point, s.distribution(point));
    assert.ok(Math.abs(own - s.worstCaseRisk(f, 5)) < 1e-12, `${f}: D_f(δ‖Q*(δ)) = ${own} = R`);
  }
});

test('divergence: conventions for zero masses and the ½ Hellinger', () => {
  assert.ok(Math.abs(ps.divergence('kl', [1, 0], [0.5, 0.5]) - Math.log(2)) < 1e-15);
  assert.equal(ps.divergence('kl', [0.5, 0.5], [1, 0]), Infinity);
  assert.equal(ps.divergence('tv', [1, 0], [0, 1]), 1);
  assert.equal(ps.divergence('hellinger', [1, 0], [0, 1]), 1);
  assert.ok(Math.abs(ps.divergence('hellinger', [0.5, 0.5], [0.9, 0.1]) - (1 - Math.sqrt(0.45) - Math.sqrt(0.05))) < 1e-15);
  assert.ok(Math.abs(ps.divergence('chi2', [0.5, 0.5], [0.25, 0.75]) - ((0.25 ** 2) / 0.25 + (0.25 ** 2) / 0.75)) < 1e-15);
  assert.equal(ps.divergence('tv', [2, 2], [1, 1]), 0, 'both arguments are normalised');
});

test('user divergence never exceeds the worst case, and Q* beats Q† pointwise', () => {
  const hists = [[5, 1, 0, 0, 2, 9], [1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 0, 1], [100, 1, 1, 1, 0, 0]];
  for (const eps of [0.01, 0.5, 2, 10]) {
    const minimax = ps.sampler('minimax', { epsilon: eps });
    const linear = ps.sampler('linear', { epsilon: eps });
    for (const h of hists) {
      for (const f of ['kl', 'tv', 'hellinger', 'chi2']) {
        const own = ps.divergence(f, h, minimax.distribution(h));
        assert.ok(own <= minimax.worstCaseRisk(f, h.length) * (1 + 1e-12), `${f} ε=${eps} ${h}`);
        assert.ok(own <= ps.divergence(f, h, linear.distribution(h)) * (1 + 1e-12) + 1e-15, `Q* ≤ Q† for ${f} ε=${eps} ${h}`);
      }
    }
  }
});

test('privacy: output ratios stay within e^ε over adversarial inputs', () => {
  const k = 6;
  const inputs = [];
  for (let x = 0; x < k; x += 1) inputs.push(Array.from({ length: k }, (_, i) => (i === x ? 1 : 0)));
  inputs.push([1, 1, 1, 1, 1, 1], [1e-300, 0, 0, 0, 0, 1], [1e300, 1e300, 0, 0, 0, 0], [3, 3, 3, 0, 0, 0]);
  for (const mechanism of ['minimax', 'linear']) {
    for (const eps of [0, 1e-6, 0.1, 1, 10, 700, 1000]) {
      const s = ps.sampler(mechanism, { epsilon: eps });
      const qs = inputs.map((h) => s.distribution(h));
      for (let x = 0; x < k; x += 1) {
        const values = qs.map((q) => q[x]);
        const logRatio = Math.log(Math.max(...values)) - Math.log(Math.min(...values));
        assert.ok(Math.min(...values) > 0, `${mechanism} ε=${eps}: every output keeps positive probability`);
        assert.ok(logRatio <= Math.min(eps, 700) + 1e-12, `${mechanism} ε=${eps} x=${x}: log ratio ${logRatio}`);
      }
    }
  }
});

test('large inputs: k = 10^7 works', () => {
  const hist = new Float64Array(10_000_000);
  hist[3] = 5;
  hist[9_999_999] = 1;
  const s = ps.sampler('minimax', { epsilon: 2 });
  const q = s.distribution(hist);
  assert.equal(q.length, 10_000_000);
  let sum = 0;
  let correction = 0;
  for (const v of q) {
    const y = v - correction;
    const t = sum + y;
    correction = t - sum - y;
    sum = t;
  }
  assert.ok(Math.abs(sum - 1) < 1e-12, `Σq = ${sum}`);
  assert.ok(q[3] > q[9_999_999] && q[9_999_999] > q[0]);
  const x = s.sample(hist);
  assert.ok(Number.isInteger(x) && x >= 0 && x < 10_000_000);
});
