// One privacy tester that walks the registry the module exports (the JS twin of tests/native/registry_test.cpp):
// every finite mechanism × adversarial inputs × its notion's check, on the released distributions of the module
// itself. Pure ε-LDP: q_a(y) <= e^ε·q_b(y) for every pair of inputs; (ε,δ): the hockey-stick divergence
// Σ max(0, q_a − e^ε q_b) <= δ; record-level ε-DP: the ratio between neighbouring record sets (one record moved).
// The oracle is computed here, independently of the core, on ps.releasedLaw: the law sample() draws from. Its entries
// come rounded once to doubles (the exact law is a rational of the plan's integers), so a comparison allows what that
// rounding and Math.exp's can move it — ROUNDING below, a few units in the last place — and nothing more; the
// exact check on the rationals themselves is the native privacy audit (tests/native/privacy_audit_test.cpp).
import assert from 'node:assert/strict';
import test from 'node:test';
import { init } from '../../bindings/js/research.mjs';

const ps = await init();
const K = 5;
const PRIOR = [0.375, 0.25, 0.125, 0.125, 0.125];
const VALUES = { gamma: 2, records: 4, prior: PRIOR, reference: PRIOR };

// Point masses, uniform, near-point masses with 1e-9 on a neighbour, and fixed irregular shapes.
function adversarialInputs() {
  const inputs = [];
  for (let x = 0; x < K; x += 1) inputs.push(Array.from({ length: K }, (_, i) => (i === x ? 1 : 0)));
  inputs.push(Array(K).fill(1 / K));
  for (let x = 0; x + 1 < K; x += 1) {
    const split = Array(K).fill(0);
    split[x] = 1 - 1e-9;
    split[x + 1] = 1e-9;
    inputs.push(split);
  }
  inputs.push([1e-300, 1, 0, 0, 1e-300], [5, 4, 3, 2, 1], [1, 0, 0, 0, 1e6], [0.2, 0.2, 0.2, 0.2, 0.2 + 1e-15]);
  return inputs;
}

function recordSets(n) {
  const sets = [];
  for (let x = 0; x < K; x += 1) sets.push(Array.from({ length: K }, (_, i) => (i === x ? n : 0)));
  sets.push([2, 1, 1, 0, 0], [1, 1, 1, 1, 0], [0, 0, 3, 1, 0]);
  return sets;
}

// Two probabilities each within 2^-53 relative of the exact ones and Math.exp within 2 ulp: a ratio within 2^-50.
const ROUNDING = 2 ** -50;
const law = (s, input) => ps.releasedLaw(s, input);
const hockeyStick = (qa, qb, epsilon) => qa.reduce((sum, v, y) => sum + Math.max(0, v - Math.exp(epsilon) * qb[y]), 0);

test('every finite mechanism of ps.registry meets its notion on adversarial inputs, through the module', () => {
  const finite = ps.registry.mechanisms.filter((m) => m.space === 'finite');
  assert.equal(finite.length, ps.mechanisms.length);
  let checked = 0;
  for (const m of finite) {
    // distribution() of laplace-projection is a Monte-Carlo estimate; its guarantee is for the noise it draws.
    if (m.name === 'laplace-projection') continue;
    for (const epsilon of [0.1, 1, 5]) {
      const variants = [{ epsilon }];
      if (m.notion === 'ldp-from-options') variants.push({ epsilon, delta: 1e-3 });
      for (const notion of variants) {
        const options = { ...notion };
        for (const key of m.required) if (key !== 'notion' && key !== 'epsilon') options[key] = VALUES[key];
        const s = ps.sampler(m.name, options);
        const g = s.guarantee;
        const label = `${m.name} ${JSON.stringify(g)}`;
        if (g.notion === 'record-dp') {
          for (const counts of recordSets(g.records)) {
            const q = law(s, counts);
            for (let from = 0; from < K; from += 1) {
              if (counts[from] === 0) continue;
              for (let to = 0; to < K; to += 1) {
                if (to === from) continue;
                const neighbour = [...counts];
                neighbour[from] -= 1;
                neighbour[to] += 1;
                const r = law(s, neighbour);
                q.forEach((v, y) => assert.ok(v <= Math.exp(g.epsilon) * r[y] * (1 + ROUNDING), `${label}: ${counts} vs ${neighbour} at ${y}`));
                checked += 1;
              }
            }
          }
          continue;
        }
        const outputs = adversarialInputs().map((p) => law(s, p));
        for (const qa of outputs) {
          for (const qb of outputs) {
            if (g.notion === 'pure-ldp') {
              qa.forEach((v, y) => assert.ok(v <= Math.exp(g.epsilon) * qb[y] * (1 + ROUNDING), `${label}: ratio at ${y}`));
            } else {
              assert.equal(g.notion, 'approx-ldp');
              assert.ok(hockeyStick(qa, qb, g.epsilon) <= g.delta + K * Math.exp(g.epsilon) * ROUNDING, `${label}: hockey-stick ${hockeyStick(qa, qb, g.epsilon)}`);
            }
            checked += 1;
          }
        }
      }
    }
  }
  assert.ok(checked > 2000, `${checked} pairs checked`);
});

test('releasedLaw is a pmf within rounding of distribution() for every finite mechanism; the record-level ones equal it', () => {
  for (const m of ps.registry.mechanisms.filter((e) => e.space === 'finite')) {
    for (const epsilon of [0.1, 1, 5]) {
      const options = { epsilon };
      for (const key of m.required) if (key !== 'notion' && key !== 'epsilon') options[key] = VALUES[key];
      const s = ps.sampler(m.name, options);
      const inputs = s.guarantee.notion === 'record-dp' ? recordSets(s.guarantee.records) : adversarialInputs();
      for (const input of inputs) {
        const released = ps.releasedLaw(s, input);
        if (m.name === 'laplace-projection') {
          assert.equal(released, null);
          continue;
        }
        const q = s.distribution(input);
        const label = `${m.name} ε = ${epsilon} on ${input}`;
        if (s.guarantee.notion === 'record-dp') {
          assert.deepEqual([...released], [...q], label);
          continue;
        }
        assert.ok(Math.abs(released.reduce((a, b) => a + b, 0) - 1) <= K * 2 ** -52, `${label}: sums to 1`);
        // The clip samplers release the fixed schedule's q (within 1e-11 relative of distribution()'s adaptive one)
        // quantized to units of 2^-63.
        released.forEach((v, y) => assert.ok(Math.abs(v - q[y]) <= 1e-11 * q[y] + 2 ** -60, `${label} at ${y}: ${v} vs ${q[y]}`));
      }
    }
  }
  assert.throws(() => ps.releasedLaw(ps.sampler('minimax', { epsilon: 1 }), [1, -1]), RangeError);
});
