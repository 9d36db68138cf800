// The privacy accountant through the JS API: a sampler's guarantee in every notion, checked against the
// closed forms of k-ary randomized response (docs/analysis/accountant.md#k-rr-closed-forms), plus the LMIDP
// conversions and clear errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init } from '../../bindings/js/research.mjs';

const ps = await init();
const LOG2E = Math.LOG2E;

function krrCapacity(k, epsilon) {
  const p = Math.exp(epsilon) / (Math.exp(epsilon) + k - 1);
  const q = 1 / (Math.exp(epsilon) + k - 1);
  return Math.log2(k) + p * Math.log2(p) + (k - 1) * q * Math.log2(q);
}

test('on point masses the linear and minimax samplers are k-RR: capacity, LDP curve, Theorem 1(b) (docs/analysis/accountant.md)', () => {
  const table = [
    { k: 2, epsilon: 1, capacity: 0.160058462, fromCurve: 0.666694 },
    { k: 4, epsilon: 1, capacity: 0.170227724, fromCurve: 0.433514 },
    { k: 10, epsilon: 2, capacity: 0.5881541816, fromCurve: 1.124831 },
    { k: 10, epsilon: 0.5, capacity: 0.0210046674, fromCurve: 0.043945 },
  ];
  for (const { k, epsilon, capacity, fromCurve } of table) {
    for (const mechanism of ['linear', 'minimax']) {
      const label = `${mechanism}, k = ${k}, ε = ${epsilon}`;
      const report = ps.accountant(ps.sampler(mechanism, { epsilon }), { k, epsilons: [0, epsilon / 2, epsilon, 2 * epsilon] });
      assert.ok(Math.abs(report.ldp.pureEpsilon - epsilon) < 1e-12, `${label}: pure ε ${report.ldp.pureEpsilon}`);
      const e = Math.exp(epsilon);
      [0, epsilon / 2, epsilon, 2 * epsilon].forEach((ep, i) => {
        const expected = Math.max(0, (e - Math.exp(ep)) / (e + k - 1));
        assert.ok(Math.abs(report.ldp.delta[i] - expected) < 1e-12, `${label}: δ(${ep}) = ${report.ldp.delta[i]}, k-RR ${expected}`);
      });
      assert.ok(report.capacity.lower <= capacity + 1e-9 && capacity <= report.capacity.upper + 1e-9, `${label}: bounds bracket C`);
      assert.ok(Math.abs(report.capacity.lower - capacity) < 1e-8, `${label}: capacity ${report.capacity.lower}`);
      assert.ok(Math.abs(krrCapacity(k, epsilon) - capacity) < 1e-9, 'the spec value is the closed form');
      assert.ok(Math.abs(report.capacity.boundFromPureLdp - LOG2E * epsilon * Math.tanh(epsilon / 2)) < 1e-12);
      assert.ok(Math.abs(report.capacity.boundFromLdpCurve - fromCurve) < 5e-6, `${label}: Thm 1(b) ${report.capacity.boundFromLdpCurve}`);
      assert.ok(report.capacity.upper <= report.capacity.boundFromLdpCurve, 'the LDP → MI bound holds');
      assert.equal(report.prior, null);
    }
  }
});

test('with a prior: I(X;Y), H(X) and LIP for k-RR (docs/analysis/accountant.md: prior (0.5, rest uniform), k = 10, ε = 2)', () => {
  const prior = [0.5, ...Array(9).fill(0.5 / 9)];
  const report = ps.accountant(ps.sampler('linear', { epsilon: 2 }), { k: 10, prior, epsilons: [0, 1, 2, 3] });
  assert.ok(Math.abs(report.prior.mutualInformation - 0.445407) < 5e-7, `I = ${report.prior.mutualInformation}`);
  assert.ok(Math.abs(report.prior.lip.pureEpsilon - 1.696237) < 5e-7, `ε_LIP = ${report.prior.lip.pureEpsilon}`);
  assert.ok(Math.abs(report.prior.lip.delta[0] - 0.368179) < 5e-7, `δ_LIP(0) = ${report.prior.lip.delta[0]}`);
  const entropy = -prior.reduce((h, p) => h + p * Math.log2(p), 0);
  assert.ok(Math.abs(report.prior.entropy - entropy) < 1e-12);
  assert.ok(Math.abs(report.prior.minMass - 0.5 / 9) < 1e-16, `p_min = ${report.prior.minMass}`);
  assert.ok(report.prior.mutualInformation <= report.capacity.upper, 'I(X;Y) <= capacity');
  assert.ok(report.prior.lip.pureEpsilon <= report.ldp.pureEpsilon + 1e-12, 'ε-LDP ⇒ ε-LIP');
  assert.ok(report.prior.mutualInformationBoundFromLipCurve >= report.prior.mutualInformation, 'Thm 2(b) bounds I');
  for (let i = 1; i < 4; i += 1) assert.ok(report.prior.lip.delta[i] <= report.prior.lip.delta[i - 1] + 1e-15, 'LIP curve non-increasing');
});

test('every mechanism has a report; record-level ones use n records on one letter; default ε grid', () => {
  const prior = [0.4, 0.3, 0.2, 0.1];
  const samplers = [
    ps.sampler('mollifier', { epsilon: 1 }),
    ps.sampler('local', { epsilon: 1, prior, gamma: 2 }),
    ps.sampler('local-linear', { mu: 1, prior, gamma: 2 }),
    ps.sampler('linear', { epsilon: 1, delta: 0.01 }),
    ps.sampler('roo', { epsilon: 1, records: 10 }),
    ps.sampler('ds-roo', { epsilon: 1, records: 10 }),
  ];
  for (const s of samplers) {
    const report = ps.accountant(s, { k: 4, prior });
    assert.ok(report.epsilons.length >= 20, `${s.mechanism}: a default grid`);
    assert.equal(report.epsilons[0], 0);
    assert.equal(report.ldp.delta.length, report.epsilons.length);
    assert.ok(report.capacity.lower <= report.capacity.upper + 1e-12);
    assert.ok(report.capacity.upper <= 2 + 1e-12, 'at most log2 k bits');
    assert.ok(report.prior.mutualInformation <= report.capacity.upper + 1e-12);
    if (s.guarantee.notion === 'pure-ldp') assert.ok(report.ldp.pureEpsilon <= s.guarantee.epsilon * (1 + 1e-12), `${s.mechanism}: ε`);
    if (s.guarantee.notion === 'approx-ldp') {
      const at = report.epsilons.findIndex((e) => e >= s.guarantee.epsilon);
      if (report.epsilons[at] === s.guarantee.epsilon) assert.ok(report.ldp.delta[at] <= s.guarantee.delta * (1 + 1e-9));
    }
  }
  // the local sampler with P0 as the population prior and the k point masses as inputs
  const explicit = ps.accountant(ps.sampler('minimax', { epsilon: 1 }), { inputs: [[1, 0, 0], [0, 1, 0], [1, 1, 1]] });
  assert.equal(explicit.capacity.prior.length, 3, 'one prior entry per input');
});

test('LMIDP conversions: Theorem 1(a) and its floor, the corrected Theorem 2(a) is never below the printed one', () => {
  const mu = krrCapacity(4, 1);
  assert.ok(Math.abs(ps.lmidp.ldpDeltaFromCapacity(mu, 1) - 0.31729) < 5e-6, 'docs/analysis/accountant.md: (4, 1) → 0.317290');
  const floor = ps.lmidp.ldpDeltaFloorFromCapacity(0.1);
  for (const epsilon of [0, 0.5, 1, 2, 5]) {
    assert.ok(ps.lmidp.ldpDeltaFromCapacity(0.1, epsilon) >= floor - 1e-15);
    const pMin = 0.011195;
    assert.ok(ps.lmidp.lipDeltaFromMutualInformation(0.1, pMin, epsilon) >= ps.lmidp.lipDeltaFromMutualInformationAsPrinted(0.1, epsilon) - 1e-15);
  }
  assert.ok(Math.abs(ps.lmidp.gaussianSigma2ForCapacity(0.1, 10, 1) - 71.635899) < 1e-5, 'Fig. 1 calibration');
});

test('accountant: clear errors for bad arguments; the module keeps working', () => {
  const s = ps.sampler('minimax', { epsilon: 1 });
  assert.throws(() => ps.accountant({ mechanism: 'minimax' }, { k: 3 }), TypeError);
  assert.throws(() => ps.accountant(s, {}), { name: 'TypeError', message: /options\.k/ });
  assert.throws(() => ps.accountant(s, { k: 3, priors: [1] }), { name: 'RangeError', message: /'priors' is not supported/ });
  assert.throws(() => ps.accountant(s, { k: 3, prior: [0.5, 0.5] }), TypeError, 'prior of the wrong length (a shape error)');
  assert.throws(() => ps.accountant(s, { k: 3, prior: [0.5, 0.6, -0.1] }), RangeError);
  assert.throws(() => ps.accountant(s, { k: 3, epsilons: [-1] }), RangeError);
  assert.throws(() => ps.accountant(s, { inputs: [[1, 0], [1, 0, 0]] }), TypeError);
  assert.throws(() => ps.lmidp.ldpDeltaFromCapacity(-1, 1), RangeError);
  assert.throws(() => ps.lmidp.lipDeltaFromMutualInformation(0.1, 0, 1), RangeError);
  // messages name the JS parameters (bound, points, epsHint), not the C++ ones (delta_bound, xs, eps_hint)
  assert.throws(() => ps.lmidp.gaussianCapacityPeak(1, 0, 1), { name: 'RangeError', message: /^bound = 0: / });
  assert.throws(() => ps.lmidp.gaussianLdpDelta(1, 1, -1, 1), { name: 'RangeError', message: /^bound = -1: / });
  assert.throws(() => ps.lmidp.gaussianMixtureMutualInformation([0, 1], [0.2, 0.3, 0.5], 1),
    { name: 'RangeError', message: /^prior has 3 entries but points has 2/ });
  assert.throws(() => ps.lmidp.gaussianMixtureMutualInformation([0, Infinity], [0.5, 0.5], 1),
    { name: 'RangeError', message: /^points\[1\] = Infinity: / });
  assert.throws(() => ps.lmidp.capacityBoundFromLdpCurve(() => 0, -1),
    { name: 'RangeError', message: /^epsHint = -1: / });
  assert.ok(Math.abs(ps.accountant(s, { k: 2 }).ldp.pureEpsilon - 1) < 1e-12, 'still works');
});
