// 'local' (Ghoukasian et al. Thm 5.1) and 'mollifier' (Husain et al., Park et al. §3.4) through the JS API:
// golden vectors of core/mechanisms/local/README.md and core/mechanisms/mollifier/README.md, privacy ratios on adversarial inputs, and clear errors for bad options.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init } from '../../bindings/js/privsample.mjs';
import { readFileSync } from 'node:fs';
import { assertClose } from './helpers.mjs';

const ps = await init();
const golden = JSON.parse(readFileSync(new URL('../golden/clip-samplers.json', import.meta.url), 'utf8'));
const prior = [0.4, 0.3, 0.2, 0.1];

test('local: the test vectors of core/mechanisms/local/README.md (tests/golden/clip-samplers.json), incl. the sparse Case B', () => {
  const { prior: p0, gamma, epsilon, tolerance, vectors } = golden.local;
  const s = ps.sampler('local', { epsilon, prior: p0, gamma });
  assert.equal(vectors.length, 6);
  for (const { label, p, r, q } of vectors) {
    const out = s.distribution(p);
    assertClose(out, q, tolerance + 1e-12, `local Q(${label})`);
    assert.ok(Math.abs(out.reduce((a, b) => a + b, 0) - 1) < 1e-12, 'sums to 1');
    assert.ok(Math.abs(s.normaliser(p) - r) <= tolerance + 1e-12, `r(${label}) = ${s.normaliser(p)}`);
  }
  assert.deepEqual(s.guarantee, { notion: 'pure-ldp', epsilon: 1 });
  assert.deepEqual([...s.options.prior], prior);
});

test('local: worst-case risk R_loc (core/mechanisms/local/README.md) and the trivial regime ε >= 2 ln γ', () => {
  const uniform20 = Array(20).fill(0.05);
  const s = ps.sampler('local', { epsilon: 1, prior: uniform20, gamma: 9 });
  const expected = { kl: 1.0163447, tv: 0.6680307, hellinger: 0.2659502, chi2: 2.5048614 };
  for (const [f, value] of Object.entries(expected)) assert.ok(Math.abs(s.worstCaseRisk(f, 20) - value) < 1e-7, f);
  // The worst case is attained: γ·p0 on a block of P0-mass 1/(γ+1) = 2 atoms, p0/γ elsewhere.
  const worst = uniform20.map((v, i) => (i < 2 ? v * 9 : v / 9));
  assert.ok(Math.abs(ps.divergence('kl', worst, s.distribution(worst)) - expected.kl) < 1e-7);
  // Figure 3/5/6 local column (γ = k/2 − 1, uniform P0).
  const table = [
    { k: 10, eps: 0.1, kl: 0.772593, tv: 0.583519, hellinger: 0.187987 },
    { k: 20, eps: 2, kl: 0.451808, tv: 0.449147, hellinger: 0.128662 },
    { k: 100, eps: 0.5, kl: 3.259038, tv: 0.947448, hellinger: 0.682291 },
  ];
  for (const row of table) {
    const local = ps.sampler('local', { epsilon: row.eps, prior: Array(row.k).fill(1 / row.k), gamma: row.k / 2 - 1 });
    for (const f of ['kl', 'tv', 'hellinger']) assert.ok(Math.abs(local.worstCaseRisk(f, row.k) - row[f]) < 1e-6, `${f} k=${row.k}`);
  }
  const trivial = ps.sampler('local', { epsilon: 2 * Math.log(3), prior, gamma: 3 });
  assert.equal(trivial.worstCaseRisk('kl', 4), 0);
  assertClose(trivial.distribution([0.3, 0.3, 0.3, 0.1]), [0.3, 0.3, 0.3, 0.1], 1e-15, 'identity inside N_γ');
});

test("local: outsideNeighbourhood 'projection' releases the paper's projection P̂ in the trivial regime (README.md#trivial-regime)", () => {
  const options = { epsilon: 2, prior: [1, 1, 1, 1], gamma: 2 };
  const point = [1, 0, 0, 0];
  const b = 3 / (2 + Math.exp(2));
  const clipped = ps.sampler('local', options).distribution(point);
  assertClose(clipped, [b * Math.exp(2) / 4, ...Array(3).fill((1 - b * Math.exp(2) / 4) / 3)], 1e-15, 'clip into the box');
  assert.deepEqual(Array.from(ps.sampler('local', { ...options, outsideNeighbourhood: 'clip' }).distribution(point)), Array.from(clipped));
  const projection = ps.sampler('local', { ...options, outsideNeighbourhood: 'projection' });
  assert.equal(projection.options.outsideNeighbourhood, 'projection');
  assertClose(projection.distribution(point), [0.5, 1 / 6, 1 / 6, 1 / 6], 1e-15, 'P̂: γ·p0 on the point, the rest at a common ratio');
  assert.equal(projection.worstCaseRisk('tv', 4), 0);
  // outside the trivial regime the option changes nothing
  const inner = { epsilon: 1, prior, gamma: 3 };
  assert.deepEqual(Array.from(ps.sampler('local', { ...inner, outsideNeighbourhood: 'projection' }).distribution(point)),
    Array.from(ps.sampler('local', inner).distribution(point)));
  // the core validates the value, the wrapper its type
  assert.throws(() => ps.sampler('local', { ...options, outsideNeighbourhood: 'project' }),
    (e) => e instanceof RangeError && e.message.includes("options.outsideNeighbourhood = 'project'") && e.message.includes("'projection'"));
  assert.throws(() => ps.sampler('local', { ...options, outsideNeighbourhood: 1 }),
    (e) => e instanceof TypeError && e.message.includes('options.outsideNeighbourhood must be a string'));
  assert.throws(() => ps.sampler('local-linear', { ...options, outsideNeighbourhood: 'clip' }),
    (e) => e instanceof RangeError && e.message.includes("option 'outsideNeighbourhood' is not supported by 'local-linear'"));
});

test('mollifier: the vectors of core/mechanisms/mollifier/README.md (tests/golden/clip-samplers.json), completed where no normaliser exists', () => {
  const { epsilon, tolerance, vectors, point_mass_kl: worst } = golden.mollifier;
  const s = ps.sampler('mollifier', { epsilon });
  assert.equal(vectors.length, 3);
  for (const { label, p, q, case_b: caseB } of vectors) {
    assertClose(s.distribution(p), q, tolerance + 1e-12, label);
    if (caseB) assert.equal(s.normaliser(p), 0, `${label}: no normaliser`);
  }
  const point = Array.from({ length: worst.k }, (_, i) => (i === 0 ? 1 : 0));
  assert.ok(Math.abs(s.worstCaseRisk('kl', worst.k) - worst.value) <= tolerance + 1e-12);
  assert.ok(Math.abs(ps.divergence('kl', point, s.distribution(point)) - worst.value) <= tolerance + 1e-12);
  // Park et al. §5.1 baseline column (docs/experiments.md#park-figs-3-5-7-finite-worst-case).
  const baseline = [
    { k: 10, eps: 0.5, kl: 2.0526, tv: 0.8716, hellinger: 0.6417 },
    { k: 100, eps: 5, kl: 2.1052, tv: 0.8782, hellinger: 0.651 },
    { k: 5, eps: 5, kl: 0.0679, tv: 0.0657, hellinger: 0.0334 },
  ];
  for (const row of baseline) {
    const m = ps.sampler('mollifier', { epsilon: row.eps });
    for (const f of ['kl', 'tv', 'hellinger']) assert.ok(Math.abs(m.worstCaseRisk(f, row.k) - row[f]) < 5e-5, `${f} k=${row.k} ε=${row.eps}`);
  }
  const withReference = ps.sampler('mollifier', { epsilon: 1, reference: [0.5, 0.5, 0] });
  const q = withReference.distribution([0, 0, 1]);
  assert.equal(q[2], 0, 'a category with zero reference mass is never output');
  assert.equal(withReference.worstCaseRisk('tv', 3), 1, 'and the worst case is then M_f');
});

test('privacy: every clip sampler keeps all output ratios within e^ε on adversarial inputs', () => {
  const k = 6;
  const localPrior = [0.5, 0.2, 0.15, 0.1, 0.04, 0.01];
  const inputs = [];
  for (let x = 0; x < k; x += 1) inputs.push(Array.from({ length: k }, (_, i) => (i === x ? 1 : 0)));
  inputs.push([1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 1, 1], [1e-300, 0, 0, 0, 0, 1], [5, 2, 1.5, 1, 0.4, 0.1], [0, 9, 0, 0, 0, 1e-9]);
  for (const eps of [0, 1e-6, 0.1, 1, 10, 700, 1000]) {
    for (const [mechanism, options] of [
      ['local', { prior: localPrior, gamma: 4 }],
      ['local', { prior: localPrior, gamma: 1.01 }],
      ['mollifier', {}],
      ['mollifier', { reference: localPrior }],
    ]) {
      const s = ps.sampler(mechanism, { epsilon: eps, ...options });
      const qs = inputs.map((h) => s.distribution(h));
      for (const q of qs) assert.ok(Math.abs(q.reduce((a, b) => a + b, 0) - 1) < 1e-12);
      for (let x = 0; x < k; x += 1) {
        const values = qs.map((q) => q[x]);
        const logRatio = Math.log(Math.max(...values)) - Math.log(Math.min(...values));
        assert.ok(logRatio <= Math.min(eps, 700) + 1e-12, `${mechanism} ε=${eps} x=${x}: log ratio ${logRatio}`);
      }
    }
  }
});

test('bad options for the clip samplers give clear errors', () => {
  const bad = [
    [() => ps.sampler('local', { epsilon: 1, gamma: 3 }), RangeError, /options.prior is required for 'local'/],
    [() => ps.sampler('local', { epsilon: 1, prior }), RangeError, /options.gamma is required for 'local'/],
    [() => ps.sampler('local', { epsilon: 1, prior, gamma: 1 }), RangeError, /gamma = 1: must be a finite number in \(1, /],
    [() => ps.sampler('local', { epsilon: 1, prior, gamma: 0.5 }), RangeError, /gamma = 0.5/],
    [() => ps.sampler('local', { epsilon: 1, prior, gamma: NaN }), RangeError, /gamma = NaN/],
    [() => ps.sampler('local', { epsilon: 1, prior: [0.5, 0.5, 0], gamma: 3 }), RangeError, /prior\[2\] = 0: entries must be finite and > 0/],
    [() => ps.sampler('local', { epsilon: 1, prior: [0, 0], gamma: 3 }), RangeError, /prior\[0\] = 0: entries must be finite and > 0/],
    [() => ps.sampler('mollifier', { epsilon: 1, reference: [0, 0] }).distribution([1, 1]), RangeError, /reference is all zeros/],
    [() => ps.sampler('local', { epsilon: 1, prior: [0.5, -0.5, 1], gamma: 3 }), RangeError, /prior\[1\] = -0.5/],
    [() => ps.sampler('local', { epsilon: 1, prior: [], gamma: 3 }), RangeError, /prior is empty/],
    [() => ps.sampler('local', { epsilon: 1, prior: 'uniform', gamma: 3 }), TypeError, /options.prior must be an array of numbers/],
    [() => ps.sampler('local', { epsilon: 1, prior, gamma: '3' }), TypeError, /options.gamma must be a number/],
    [() => ps.sampler('local', { epsilon: 1, prior, gamma: 3 }).distribution([1, 2, 3]), TypeError, /k = 3 but the prior has 4 categories/],
    [() => ps.sampler('local', { epsilon: 1, prior, gamma: 3 }).worstCaseRisk('kl', 5), TypeError, /k = 5 but the prior has 4/],
    [() => ps.sampler('mollifier', { epsilon: 1, reference: [0.2, -0.2] }), RangeError, /reference\[1\] = -0.2: entries must be finite and >= 0/],
    [() => ps.sampler('mollifier', { epsilon: 1, reference: [1, 0] }).distribution([1, 1, 1]), TypeError, /k = 3 but the reference has 2/],
    [() => ps.sampler('mollifier', { epsilon: 1, gamma: 2 }), RangeError, /option 'gamma' is not supported by 'mollifier' \(supported: epsilon, reference\)/],
  ];
  for (const [run, ErrorType, pattern] of bad) {
    assert.throws(run, (error) => error instanceof ErrorType && pattern.test(error.message), String(pattern));
    assert.ok(ps.sampler('minimax', { epsilon: 1 }).distribution([1, 2]).length === 2, 'still works');
  }
});

test('prior and reference: counts or probabilities, normalised like histograms (one scale rule)', () => {
  const hist = [5, 1, 0, 2, 2];
  for (const [name, key, extra] of [['local', 'prior', { gamma: 3 }], ['local-linear', 'prior', { gamma: 3 }], ['mollifier', 'reference', {}]]) {
    const counts = ps.sampler(name, { epsilon: 1, [key]: [4, 3, 1, 1, 1], ...extra }).distribution(hist);
    const probabilities = ps.sampler(name, { epsilon: 1, [key]: [0.4, 0.3, 0.1, 0.1, 0.1], ...extra }).distribution(hist);
    counts.forEach((v, i) => assert.ok(Math.abs(v - probabilities[i]) <= 1e-15, `${name}: counts give ${v}, probabilities ${probabilities[i]}`));
  }
  const thirds = ps.sampler('local', { epsilon: 1, prior: [0.333333, 0.333333, 0.333333], gamma: 2 });
  assert.ok(Math.abs(thirds.distribution([1, 1, 1])[0] - 1 / 3) < 1e-15, 'a prior of rounded thirds is the uniform prior');
});
