// ps.normalise and ps.classMembership (research entry; core membership.hpp, docs/notions.md#classes-of-inputs): the
// pmf the samplers see, ratios by hand, the scale rule, agreement with what the samplers do on and off the class,
// and errors naming the parameter, the module usable afterwards.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init } from '../../bindings/js/research.mjs';

const ps = await init();

test('normalise: counts or probabilities → the pmf, errors name hist[i]', () => {
  assert.deepEqual(Array.from(ps.normalise([2, 1, 1])), [0.5, 0.25, 0.25]);
  assert.deepEqual(Array.from(ps.normalise(new Uint32Array([0, 3, 1]))), [0, 0.75, 0.25]);
  // counts as large as 1e308 normalise without overflow (the core scales by the largest entry first)
  assert.deepEqual(Array.from(ps.normalise([1e308, 1e308])), [0.5, 0.5]);
  assert.throws(() => ps.normalise([1, -2]), (e) => e instanceof RangeError && /hist\[1\] = -2/.test(e.message));
  assert.throws(() => ps.normalise([0, 0]), RangeError);
  assert.throws(() => ps.normalise(['1']), TypeError);
  assert.deepEqual(Array.from(ps.normalise([1, 3])), [0.25, 0.75], 'usable after errors');
});

test('neighbourhood: ratios by hand, whatever the scale of P and P0; the boundary is inside', () => {
  for (const prior of [[1, 1, 1], [7, 7, 7]]) {
    const m = ps.classMembership.neighbourhood([2, 1, 1], { prior, gamma: 2 });
    assert.ok(Math.abs(m.minRatio - 0.75) < 1e-15 && Math.abs(m.maxRatio - 1.5) < 1e-15, JSON.stringify(m));
    assert.equal(m.inside, true);
    assert.equal(ps.classMembership.neighbourhood([2, 1, 1], { prior, gamma: 1.4 }).inside, false);
  }
  assert.equal(ps.classMembership.neighbourhood([2, 1], { prior: [1, 1], gamma: 1.5 }).inside, true);
  assert.equal(ps.classMembership.neighbourhood([1, 0], { prior: [1, 1], gamma: 1e6 }).inside, false);
});

test('neighbourhood agrees with the local sampler: inside N_γ(P0) and ε >= 2 ln γ, Q = P exactly (trivial regime)', () => {
  const prior = [0.4, 0.3, 0.2, 0.1];
  const gamma = 3;
  const s = ps.sampler('local', { epsilon: 2 * Math.log(gamma) + 0.01, prior, gamma });
  for (const hist of [[4, 3, 2, 1], [8, 3, 2, 1], [1, 1, 1, 1], [12, 1, 1, 1], [0, 1, 1, 1]]) {
    const m = ps.classMembership.neighbourhood(hist, { prior, gamma });
    const p = ps.normalise(hist);
    const q = s.distribution(hist);
    const same = p.every((v, i) => Math.abs(v - q[i]) < 1e-12);
    assert.equal(same, m.inside, `${hist}: inside = ${m.inside} but Q = P is ${same}`);
  }
});

test('density class: the continuous minimax class c1·h <= p <= c2·h', () => {
  const m = ps.classMembership.density([3, 0, 1], { reference: [1, 0, 1], c2: 1.5 });
  assert.ok(Math.abs(m.minRatio - 0.5) < 1e-15 && Math.abs(m.maxRatio - 1.5) < 1e-15, JSON.stringify(m));
  assert.equal(m.inside, true);
  const off = ps.classMembership.density([1, 1, 1], { reference: [1, 0, 1], c2: 1.5 });
  assert.equal(off.maxRatio, Infinity);
  assert.equal(off.inside, false);
  assert.equal(ps.classMembership.density([3, 0, 1], { reference: [1, 0, 1], c1: 0.4, c2: 1.5 }).inside, false, 'c1 = 0.4 → floor 0.8·h');
});

test('errors name the parameter; the module stays usable', () => {
  const n = ps.classMembership.neighbourhood;
  assert.throws(() => n([1, 1], { prior: [1, 1], gamma: 1 }), (e) => e instanceof RangeError && /gamma = 1/.test(e.message));
  assert.throws(() => n([1, 1], { prior: [1, 0], gamma: 2 }), (e) => e instanceof RangeError && /prior\[1\] = 0/.test(e.message));
  assert.throws(() => n([1, 1], { prior: [1, 1, 1], gamma: 2 }), (e) => e instanceof TypeError && /hist has 2 entries but the prior has 3/.test(e.message));
  assert.throws(() => n([1, 1], { prior: [1, 1], gamma: 2, mu: 1 }), (e) => e instanceof RangeError && /option 'mu'/.test(e.message));
  assert.throws(() => n([1, 1], { gamma: 2 }), TypeError);
  assert.throws(() => ps.classMembership.density([1, 1], { reference: [1, 1, 1], c2: 2 }), TypeError);
  assert.throws(() => ps.classMembership.density([1, 1], { reference: [1, 1], c2: 0.5 }), (e) => e instanceof RangeError && /c2 = 0.5/.test(e.message));
  assert.equal(n([1, 1], { prior: [1, 1], gamma: 2 }).inside, true);
});
