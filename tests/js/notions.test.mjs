// The samplers beyond pure ε-LDP through the JS API: (ε,δ)- and Gaussian-LDP linear samplers, the local
// linear sampler, and the record-level ROO / DS-ROO / Laplace baseline. Guarantee objects name the notion
// exactly; the output probabilities satisfy it on adversarial inputs; bad options give clear errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init } from '../../bindings/js/privsample.mjs';
import { assertClose, chiSquareTest } from './helpers.mjs';

const ps = await init();
const sum = (values) => values.reduce((a, b) => a + b, 0);
const pointMass = (k, x) => Array.from({ length: k }, (_, i) => (i === x ? 1 : 0));

// Largest hockey-stick divergence E_{e^ε}(Q(P) ‖ Q(P')) = Σ max(q − e^ε q', 0) over the ordered pairs of outputs.
function largestHockeyStick(outputs, epsilon) {
  let worst = 0;
  for (const q of outputs) {
    for (const other of outputs) {
      let total = 0;
      for (let x = 0; x < q.length; x += 1) total += Math.max(q[x] - Math.exp(epsilon) * other[x], 0);
      worst = Math.max(worst, total);
    }
  }
  return worst;
}

function largestRatio(outputs) {
  let worst = 1;
  for (const q of outputs) for (const other of outputs) for (let x = 0; x < q.length; x += 1) worst = Math.max(worst, q[x] / other[x]);
  return worst;
}

// Adversarial inputs for k categories: every point mass, pairs, uniform, and a few lopsided ones.
function adversarialInputs(k) {
  const inputs = [];
  for (let x = 0; x < k; x += 1) inputs.push(pointMass(k, x));
  for (let x = 0; x + 1 < k; x += 1) inputs.push(pointMass(k, x).map((v, i) => (i === x + 1 ? 1 : v)));
  inputs.push(Array(k).fill(1));
  inputs.push(Array.from({ length: k }, (_, i) => 2 ** -i));
  inputs.push(Array.from({ length: k }, (_, i) => (i === 0 ? 1e9 : 1)));
  return inputs;
}

test('guarantee objects name the notion exactly', () => {
  assert.deepEqual(ps.sampler('linear', { epsilon: 1 }).guarantee, { notion: 'pure-ldp', epsilon: 1 });
  assert.deepEqual(ps.sampler('linear', { epsilon: 1, delta: 1e-3 }).guarantee, { notion: 'approx-ldp', epsilon: 1, delta: 1e-3 });
  assert.deepEqual(ps.sampler('linear', { mu: 0.5 }).guarantee, { notion: 'gaussian-ldp', mu: 0.5 });
  const prior = [0.4, 0.3, 0.2, 0.1];
  assert.deepEqual(ps.sampler('local-linear', { mu: 1, prior, gamma: 3 }).guarantee, { notion: 'gaussian-ldp', mu: 1 });
  for (const mechanism of ['roo', 'ds-roo', 'laplace-projection']) {
    assert.deepEqual(ps.sampler(mechanism, { epsilon: 0.5, records: 40 }).guarantee, { notion: 'record-dp', epsilon: 0.5, records: 40 });
  }
});

test('(ε,δ) linear sampler: every pair of point-mass outputs has hockey-stick divergence <= δ', () => {
  for (const k of [2, 3, 10, 100]) {
    for (const [epsilon, delta] of [[0.1, 1e-6], [1, 1e-3], [2, 0.05], [0, 0.2]]) {
      const s = ps.sampler('linear', { epsilon, delta });
      const outputs = adversarialInputs(k).map((p) => Array.from(s.distribution(p)));
      for (const q of outputs) assert.ok(Math.abs(sum(q) - 1) < 1e-12);
      const worst = largestHockeyStick(outputs, epsilon);
      assert.ok(worst <= delta * (1 + 1e-9) + 1e-15, `k = ${k}, ε = ${epsilon}, δ = ${delta}: ${worst}`);
      // The budget is used: the worst pair is close to δ (a linear sampler with λ = λ_k(g) is tight at β = ε
      // or spends it at another β of the profile); at least it uses more than pure ε-LDP alone would.
      const pure = ps.sampler('linear', { epsilon });
      const pureRisk = pure.worstCaseRisk('tv', k);
      assert.ok(s.worstCaseRisk('tv', k) <= pureRisk + 1e-12, 'δ > 0 never makes the worst case worse');
    }
  }
});

test('Gaussian linear sampler: hockey-stick at every β is within the μ-GDP profile δ_μ(β)', () => {
  // δ_μ(β) = Φ(−β/μ + μ/2) − e^β Φ(−β/μ − μ/2) at μ = 1 (core/mechanisms/linear/README.md#reference-values), from erfc
  const profile = [
    [0, 0.38292492254802624],
    [0.5, 0.23842170813487656],
    [1, 0.1269367375066439],
    [2, 0.02092363582111372],
    [3, 0.0015371853694009585],
  ];
  for (const k of [2, 5, 20]) {
    const s = ps.sampler('linear', { mu: 1 });
    const outputs = adversarialInputs(k).map((p) => Array.from(s.distribution(p)));
    let tightest = 0;
    for (const [beta, delta] of profile) {
      const worst = largestHockeyStick(outputs, beta);
      assert.ok(worst <= delta * (1 + 1e-9), `k = ${k}, β = ${beta}: ${worst} > δ_μ(β) = ${delta}`);
      tightest = Math.max(tightest, worst / delta);
    }
    assert.ok(tightest > 0.5, `k = ${k}: the sampler uses its budget (largest share of the profile ${tightest})`);
  }
});

test('local linear sampler: P̂ projection, pure-ε ratio bound and trivial regime', () => {
  const prior = [0.4, 0.3, 0.2, 0.1];
  const s = ps.sampler('local-linear', { epsilon: 1, prior, gamma: 3 });
  const outputs = adversarialInputs(4).map((p) => Array.from(s.distribution(p)));
  assert.ok(largestRatio(outputs) <= Math.exp(1) * (1 + 1e-12), 'pure ε-LDP for every input, also outside N_γ(P0)');
  // P = P0 is a fixed point of the projection and of the mixture
  assertClose(s.distribution(prior), prior, 1e-15, 'Q(P0)');
  // ε >= 2 ln γ: the identity is private on N_γ(P0), so Q(P) = P̂ and the worst case is 0
  const trivial = ps.sampler('local-linear', { epsilon: 2 * Math.log(3) + 1e-9, prior, gamma: 3 });
  assert.equal(trivial.worstCaseRisk('kl', 4), 0);
  assertClose(trivial.distribution([0.35, 0.3, 0.25, 0.1]), [0.35, 0.3, 0.25, 0.1], 1e-15, 'Q(P) = P inside N_γ');
  assert.throws(() => s.worstCaseRisk('kl', 5), TypeError, 'k must equal the prior length (a shape error)');
});

// A finite double as the exact integer x·2^1074 (every finite double is an integer multiple of 2^-1074).
function exactly(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const exponent = (bits >> 52n) & 0x7ffn;
  const mantissa = bits & ((1n << 52n) - 1n);
  return exponent === 0n ? mantissa : (mantissa | (1n << 52n)) << (exponent - 1n);
}
// The double below e^ε (at most e^ε: Math.exp is within an ulp; never below 1), as the native tests' within_ratio.
function growthBelow(epsilon) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.exp(Math.min(epsilon, 700)));
  view.setBigUint64(0, view.getBigUint64(0) - 1n);
  return Math.max(1, view.getFloat64(0));
}

test('local linear sampler: the audit\'s witnesses stay within e^ε and δ for the doubles (exact arithmetic)', () => {
  // p0 restricted to each non-empty set of categories: the inputs whose projections reach the box's ends
  const subsets = (prior) =>
    Array.from({ length: 2 ** prior.length - 1 }, (_, s) => prior.map((p, x) => (((s + 1) >> x) & 1 ? p : 0)));
  // pure: λ from the closed form was a few ulps high and the box built at ln(high/low) > ε, ratio e^ε·(1 + 1.4e-12)
  const pure = { epsilon: 18.015364997914965, prior: [0.5, 3.482448517969051e-5, 0.5], gamma: 14357.714045736931 };
  const outputs = subsets(pure.prior).map((h) => Array.from(ps.sampler('local-linear', pure).distribution(h)));
  const e = exactly(growthBelow(pure.epsilon));
  for (let x = 0; x < 3; x += 1) {
    const values = outputs.map((q) => q[x]);
    const [high, low] = [Math.max(...values), Math.min(...values)];
    assert.ok(exactly(high) * (1n << 1074n) <= e * exactly(low), `category ${x}: ${high} > e^ε · ${low}`);
  }
  // (ε,δ): at ε = 53, γ = 1e12 the worst pair's hockey-stick was 12.6 δ
  const gamma = 1e12;
  const approx = { epsilon: 53, delta: 1e-9, prior: [0.5, 0.5 / gamma, 0.5], gamma };
  const sampler = ps.sampler('local-linear', approx);
  const qs = subsets(approx.prior).map((h) => Array.from(sampler.distribution(h)));
  const growth = exactly(growthBelow(approx.epsilon));
  const allowed = exactly(approx.delta) * (1n << 1074n);
  for (const a of qs) {
    for (const b of qs) {
      let total = 0n;
      for (let x = 0; x < 3; x += 1) {
        const term = exactly(a[x]) * (1n << 1074n) - growth * exactly(b[x]);
        if (term > 0n) total += term;
      }
      assert.ok(total <= allowed, `hockey-stick ${Number(total >> 1100n) * 2 ** -524 * 2 ** -524} > δ`);
    }
  }
});

test('ROO: q_0 = k/(k + n(e^ε − 1)) and Pr(y) = q/k + (1 − q)c_y/n (core/mechanisms/roo/README.md)', () => {
  const s = ps.sampler('roo', { epsilon: 1, records: 10 });
  // The sampler's q is q_0 at ε′ = ε − (1e-12·ε + 1e-14) rounded up (core/mechanisms/roo/README.md): 1e-12 of q_0 above it.
  const q0 = 4 / (4 + 10 * Math.expm1(1));
  assertClose(s.distribution([5, 3, 1, 1]), [5, 3, 1, 1].map((c) => q0 / 4 + (1 - q0) * c / 10), 1e-12, 'ROO pmf');
  // worst case over datasets: TV = q_0(1 − 1/k) (the paper's α)
  assert.ok(Math.abs(s.worstCaseRisk('tv', 4) - q0 * 0.75) < 1e-12);
});

test('ROO and DS-ROO: exhaustive one-record changes for k = 3, n = 5 stay within e^ε', () => {
  const k = 3;
  const n = 5;
  const datasets = [];
  for (let a = 0; a <= n; a += 1) for (let b = 0; a + b <= n; b += 1) datasets.push([a, b, n - a - b]);
  for (const epsilon of [Math.log(1.5), 0.1, 1, 3]) {
    for (const mechanism of ['roo', 'ds-roo']) {
      const s = ps.sampler(mechanism, { epsilon, records: n });
      const pmfs = new Map(datasets.map((c) => [c.join(','), Array.from(s.distribution(c))]));
      let worst = 1;
      for (const c of datasets) {
        for (let from = 0; from < k; from += 1) {
          for (let to = 0; to < k; to += 1) {
            if (from === to || c[from] === 0) continue;
            const neighbour = [...c];
            neighbour[from] -= 1;
            neighbour[to] += 1;
            const p = pmfs.get(c.join(','));
            const q = pmfs.get(neighbour.join(','));
            for (let y = 0; y < k; y += 1) worst = Math.max(worst, p[y] / q[y]);
          }
        }
      }
      assert.ok(worst <= Math.exp(epsilon) * (1 + 1e-12), `${mechanism}, ε = ${epsilon}: ratio ${worst}`);
    }
  }
});

test('DS-ROO: an unchanged letter stays within e^ε when the minimum count moves (the audit\'s witness)', () => {
  // docs/errata.md#ds-roo-unchanged-letters: ε = 0.01, k = 1000, n = 99999; h has 999 letters with 99 records and
  // h[0] = 1098, g moves one record from letter 1 to letter 2 (minimum 99 → 98). The table before the correction gave
  // log(dist(h)[0]/dist(g)[0]) = 0.0336 = 3.36·ε.
  const epsilon = 0.01;
  const s = ps.sampler('ds-roo', { epsilon, records: 99999 });
  const h = new Array(1000).fill(99);
  h[0] = 1098;
  const g = h.slice();
  g[1] -= 1;
  g[2] += 1;
  const p = s.distribution(h);
  const q = s.distribution(g);
  assert.ok(Math.log(p[0] / q[0]) <= epsilon, `log ratio ${Math.log(p[0] / q[0])}`);
  let worst = 0;
  for (let y = 0; y < 1000; y += 1) worst = Math.max(worst, Math.abs(Math.log(p[y] / q[y])));
  assert.ok(worst <= epsilon, `every letter, both directions: ${worst}`);
  assert.ok(Math.log(p[0] / q[0]) > 0.9 * epsilon, 'the pair is still nearly tight');
  s.dispose();
});

test('laplace-projection: fresh noise per draw, no closed-form risk', () => {
  const s = ps.sampler('laplace-projection', { epsilon: 1, records: 20 });
  const counts = [12, 5, 3, 0];
  const estimate = s.distribution(counts);
  assert.ok(Math.abs(sum(estimate) - 1) < 1e-12);
  const draws = s.sampleMany(counts, 20000, { seed: 7 });
  // the estimate has Monte-Carlo error ~1e-3; 20,000 draws resolve ~5e-3, so the fit holds loosely
  assert.ok(chiSquareTest(draws, estimate).pValue > 1e-6, 'draws follow the estimated output distribution');
  assert.throws(() => s.worstCaseRisk('kl', 4), { name: 'RangeError', message: /no closed-form/ });
});

test('bad options of the new mechanisms give clear errors, and the module keeps working', () => {
  const prior = [0.5, 0.5];
  const cases = [
    ['linear', { epsilon: 1, delta: 1 }, /delta = 1/],
    ['linear', { epsilon: 1, delta: -0.1 }, /delta = -0\.1/],
    ['linear', { epsilon: 1, mu: 1 }, /cannot be combined/],
    ['linear', { mu: -1 }, /mu = -1/],
    ['linear', { delta: 0.1 }, /epsilon is required/],
    ['local-linear', { epsilon: 1, prior, gamma: 1 }, /gamma = 1/],
    ['local-linear', { epsilon: 1, gamma: 2 }, /prior is required/],
    ['local-linear', { epsilon: 1, prior: [1, 0], gamma: 2 }, /prior/],
    ['roo', { epsilon: 1 }, /records is required/],
    ['roo', { epsilon: 1, records: 2.5 }, /records = 2\.5/],
    ['ds-roo', { epsilon: 1, records: 0 }, /records = 0/],
    ['laplace-projection', { epsilon: 1, records: 10, prior }, /not supported/],
  ];
  for (const [mechanism, options, message] of cases) {
    assert.throws(() => ps.sampler(mechanism, options), { name: 'RangeError', message }, `${mechanism} ${JSON.stringify(options)}`);
  }
  assert.throws(() => ps.sampler('linear', { epsilon: 1, delta: '0.1' }), TypeError);
  const roo = ps.sampler('roo', { epsilon: 1, records: 10 });
  assert.throws(() => roo.distribution([1, 2, 3]), { name: 'RangeError', message: /records = 10/ });
  assert.throws(() => roo.distribution([1.5, 2, 6.5]), RangeError, 'counts must be whole numbers');
  assert.throws(() => ps.sampler('local-linear', { epsilon: 1, prior: [0.2, 0.3, 0.5], gamma: 2 }).distribution([1, 2]), TypeError); // a histogram of the wrong length: a shape error
  assert.equal(roo.distribution([4, 4, 2]).length, 3, 'still works after the errors');
});
