// ps.mixtureWeight (λ of the finite linear samplers), ContinuousSampler.mixtureWeight() and ps.privacyProfile (δ_g(β))
// against the reference values of core/mechanisms/linear/README.md and core/mechanisms/local-linear/README.md, plus their bad inputs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init } from '../../bindings/js/research.mjs';

const ps = await init();
const uniform = (k) => new Array(k).fill(1 / k);
const near = (actual, expected, tolerance, label) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${label}: ${actual}, expected ${expected} ± ${tolerance}`);

test('mixtureWeight: global and local GDP weights of the reference table in docs/experiments.md (k = 10, 20; γ = k/2 − 1)', () => {
  const table = [
    [10, 0.5, 0.109548, 0.205968],
    [10, 2, 0.568829, 0.846187],
    [20, 0.1, 0.011095, 0.020755],
    [20, 1, 0.187919, 0.286249],
  ];
  for (const [k, mu, global, local] of table) {
    near(ps.mixtureWeight(ps.sampler('linear', { mu }), k), global, 5e-7, `λ_G(k=${k}, ν=${mu})`);
    near(ps.mixtureWeight(ps.sampler('local-linear', { mu, prior: uniform(k), gamma: k / 2 - 1 })), local, 5e-7, `λ_L(k=${k}, ν=${mu})`);
  }
});

test('mixtureWeight: (ε,δ) weight is the closed form (e^ε − 1 + kδ)/(e^ε + k − 1); clip samplers and pure linear give null', () => {
  const [epsilon, delta, k] = [1, 0.01, 5];
  near(ps.mixtureWeight(ps.sampler('linear', { epsilon, delta }), k), (Math.E - 1 + k * delta) / (Math.E + k - 1), 1e-14, 'λ(ε,δ)');
  assert.equal(ps.mixtureWeight(ps.sampler('minimax', { epsilon: 1 }), 4), null);
  assert.equal(ps.mixtureWeight(ps.sampler('linear', { epsilon: 1 }), 4), null);
  assert.equal(ps.mixtureWeight(ps.sampler('local', { epsilon: 1, prior: uniform(4), gamma: 2 })), null);
});

test('mixtureWeight: the local weight is clamped to 1 in the trivial regime (pure e^ε >= γ²)', () => {
  assert.equal(ps.mixtureWeight(ps.sampler('local-linear', { epsilon: 3, prior: uniform(6), gamma: 2 })), 1);
});

test('mixtureWeight: bad inputs', () => {
  assert.throws(() => ps.mixtureWeight(ps.sampler('linear', { mu: 1 })), RangeError); // k missing → k = 0
  assert.throws(() => ps.mixtureWeight(ps.sampler('linear', { mu: 1 }), 2.5), RangeError);
  assert.throws(() => ps.mixtureWeight({}, 3), TypeError);
  assert.throws(() => ps.mixtureWeight(ps.sampler('linear', { mu: 1 }), 'x'), TypeError);
  near(ps.mixtureWeight(ps.sampler('linear', { mu: 0.5 }), 10), 0.109548, 5e-7, 'still usable');
});

test('ContinuousSampler.mixtureWeight: Fig. 1 GDP row (ν = 1.5): global 0.5911, local clamped from 1.0633 to 1', () => {
  const grid = ps.grid2d({ xLo: -2, xHi: 2, nx: 8, yLo: -2, yHi: 2, ny: 8 });
  const h = ps.densities.laplaceMixture(grid, { means: [[0, 0]], scale: 2 });
  const global = ps.continuousSampler('linear', { mu: 1.5, reference: h, c1: Math.exp(-0.5) / 3, c2: 3 * Math.exp(0.5) });
  near(global.mixtureWeight(), 0.5911, 5e-5, 'global λ');
  assert.equal(ps.continuousSampler('local-linear', { mu: 1.5, prior: h, gamma: 2 }).mixtureWeight(), 1);
  assert.equal(ps.continuousSampler('local', { epsilon: 1, prior: h, gamma: 2 }).mixtureWeight(), null);
});

test('privacyProfile: δ_ν(β) samples (docs/notions.md) and the (ε,δ) closed form', () => {
  near(ps.privacyProfile({ mu: 1 }, 0), 0.38292492, 5e-9, 'δ_1(0)');
  near(ps.privacyProfile({ mu: 1 }, 1), 0.12693674, 5e-9, 'δ_1(1)');
  near(ps.privacyProfile({ mu: 2 }, 1), 0.50986166, 5e-9, 'δ_2(1)');
  near(ps.privacyProfile({ mu: 0.5 }, 0.3), 0.09635282, 5e-9, 'δ_0.5(0.3)');
  near(ps.privacyProfile({ epsilon: 1 }, 0), (Math.E - 1) / (Math.E + 1), 1e-15, 'pure δ(0)');
  assert.equal(ps.privacyProfile({ epsilon: 1, delta: 0.1 }, 2), 0.1);
});

test('privacyProfile: bad inputs', () => {
  assert.throws(() => ps.privacyProfile({ mu: 1, epsilon: 1 }, 0), /options\.mu \(Gaussian LDP\) cannot be combined with epsilon or delta for 'privacyProfile'/);
  assert.throws(() => ps.privacyProfile({ mu: 1 }, -1), RangeError);
  assert.throws(() => ps.privacyProfile({ mu: -1 }, 0), RangeError);
  assert.throws(() => ps.privacyProfile({ epsilon: 1, gamma: 2 }, 0), /option 'gamma' is not supported by 'privacyProfile'/);
  assert.throws(() => ps.privacyProfile({ epsilon: 1, sigma: 2 }, 0), /option 'sigma' is unknown/);
  assert.throws(() => ps.privacyProfile({}, 0), /options\.epsilon is required for 'privacyProfile'/);
  assert.throws(() => ps.privacyProfile({ mu: 'a' }, 0), TypeError);
  assert.throws(() => ps.privacyProfile(null, 0), TypeError);
});
