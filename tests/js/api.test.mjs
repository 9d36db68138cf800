// The JS API contract of DESIGN.md against the built WebAssembly module, with golden values from
// docs/mechanisms/minimax.md (Theorem 3.1, reference values) and docs/experiments.md#park-et-al.
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

test('minimax: Q* and r_P match the spec §8 test vectors', () => {
  const s = ps.sampler('minimax', { epsilon: 1 });
  const cases = [
    { p: [1, 0, 0, 0, 0], eps: 1, q: [0.40461, 0.148848, 0.148848, 0.148848, 0.148848], r: 2.471518 },
    { p: [0.5, 0.5, 0, 0], eps: 0.5, q: [0.284887, 0.284887, 0.215113, 0.215113], r: 1.755081 },
    { p: [0.25, 0.25, 0.25, 0.25], eps: 3, q: [0.25, 0.25, 0.25, 0.25], r: 1 },
    { p: [0.9, 0.1], eps: 2, q: [0.880797, 0.119203], r: 1.021802 },
    { p: [0.6, 0.4, 0, 0, 0, 0, 0, 0, 0, 0], eps: 1, q: [0.190384, 0.126922, ...Array(8).fill(0.085337)], r: 3.151531 },
  ];
  for (const { p, eps, q, r } of cases) {
    const sampler = ps.sampler('minimax', { epsilon: eps });
    const out = sampler.distribution(p);
    assert.ok(out instanceof Float64Array);
    assertClose(out, q, 1e-6, `Q*(${p}) at ε=${eps}`);
    assert.ok(Math.abs(sampler.normaliser(p) - r) < 1e-6, `r_P(${p}) = ${sampler.normaliser(p)}, expected ${r}`);
  }
  assert.deepEqual(s.guarantee, { notion: 'pure-ldp', epsilon: 1 });
  assert.equal(s.mechanism, 'minimax');
});

test('minimax: Figure 2 of the paper (k = 5) to the printed digits', () => {
  const p = [0.3, 0.25, 0.2, 0.15, 0.1];
  const figure = [
    { eps: 1, r: 1.067912, q: [0.280922, 0.234102, 0.187281, 0.148848, 0.148848] },
    { eps: 0.5, r: 1.172942, q: [0.25577, 0.21314, 0.17703, 0.17703, 0.17703] },
    { eps: 0.1, r: 1.385805, q: [0.21648, 0.19588, 0.19588, 0.19588, 0.19588] },
  ];
  for (const { eps, r, q } of figure) {
    const s = ps.sampler('minimax', { epsilon: eps });
    assertClose(s.distribution(p), q, 6e-6, `Fig 2 ε=${eps}`);
    assert.ok(Math.abs(s.normaliser(p) - r) < 1e-6);
  }
});

test('linear: Q† is k-RR on one draw of P (spec §8) and has no normaliser', () => {
  const s = ps.sampler('linear', { epsilon: 1 });
  assertClose(s.distribution([0.3, 0.25, 0.2, 0.15, 0.1]), [0.225576, 0.212788, 0.2, 0.187212, 0.174424], 1e-6, 'Q†');
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

test('worstCaseRisk: Theorem 3.1 closed forms (spec §5.3, proposed column)', () => {
  const table = [
    { k: 10, eps: 1, kl: 1.4612, tv: 0.768, hellinger: 0.5184, chi2: 3.3109 },
    { k: 5, eps: 0.1, kl: 1.5303, tv: 0.7835, hellinger: 0.5347 },
    { k: 20, eps: 2, kl: 1.2729, tv: 0.72, hellinger: 0.4708 },
    { k: 100, eps: 5, kl: 0.5111, tv: 0.4001, hellinger: 0.2255 },
  ];
  for (const row of table) {
    for (const mechanism of ['minimax', 'linear']) {
      const s = ps.sampler(mechanism, { epsilon: row.eps });
      for (const f of ['kl', 'tv', 'hellinger', 'chi2']) {
        if (row[f] === undefined) continue;
        const risk = s.worstCaseRisk(f, row.k);
        assert.ok(Math.abs(risk - row[f]) < 5e-5, `${mechanism} ${f} k=${row.k} ε=${row.eps}: ${risk} vs ${row[f]}`);
      }
    }
  }
  // The point mass attains the worst case (docs/mechanisms/minimax.md#reference-values).
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
