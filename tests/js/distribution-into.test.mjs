// distributionInto(hist, out) is distribution(hist) written into the caller's Float64Array: the same bits (or the same
// error) on random and adversarial inputs, through both entries, for every finite mechanism; the sampler's kept input
// buffer follows changes of k; repeated calls leave the module's heap as it was.
import assert from 'node:assert/strict';
import test from 'node:test';
import { init as initClient } from '../../bindings/js/privsample.mjs';
import { init as initResearch } from '../../bindings/js/research.mjs';
import { adversarialInputs } from './helpers.mjs';

const entries = [['client', await initClient()], ['research', await initResearch()]];

// Reproducible random and adversarial inputs, as Float64Arrays (masses with exponents over ±700 among them).
const inputs = adversarialInputs(20261127, { wideExponents: true });
const { uniform, pick } = inputs;
const histogram = (k) => Float64Array.from(inputs.histogram(k));

const outcome = (run) => {
  try {
    return { value: Array.from(run()) };
  } catch (error) {
    return { error: `${error.name}: ${error.message}` };
  }
};
const sameBits = (a, b) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

for (const [entry, ps] of entries) {
  test(`${entry}: distributionInto gives distribution()'s bits (or its error) on 400 random and adversarial inputs`, () => {
    let compared = 0;
    for (let n = 0; n < 400; n += 1) {
      const k = pick([1, 2, 3, 5, 16, 100, 128, 129, 1000, 4097]);
      const hist = histogram(k);
      const epsilon = pick([0, 0.1, 1, 5, 20]);
      const prior = Float64Array.from({ length: k }, () => 0.1 + uniform());
      const configurations = [
        ['minimax', { epsilon }], ['linear', { epsilon }], ['linear', { epsilon: epsilon || 0.5, delta: 1e-6 }],
        ['mollifier', { epsilon }], ['local', { epsilon, prior, gamma: 3 }], ['roo', { epsilon, records: 10 }],
      ];
      for (const [mechanism, options] of configurations) {
        const s = ps.sampler(mechanism, options);
        const fresh = ps.sampler(mechanism, options);
        const out = new Float64Array(k).fill(-7);
        const into = outcome(() => s.distributionInto(hist, out));
        const whole = outcome(() => fresh.distribution(hist));
        const label = `${mechanism} ${JSON.stringify(options).slice(0, 60)}, k = ${k}, hist = ${Array.from(hist.slice(0, 8))}`;
        if (into.error !== undefined || whole.error !== undefined) {
          assert.equal(into.error, whole.error, label);
        } else {
          assert.ok(sameBits(into.value, whole.value), label);
          assert.ok(sameBits(Array.from(out), whole.value), `${label}: out itself`);
        }
        compared += 1;
        s.dispose();
        fresh.dispose();
      }
    }
    assert.ok(compared >= 2400);
  });

  test(`${entry}: a sampler's kept input buffer follows k across calls, errors included`, () => {
    const s = ps.sampler('minimax', { epsilon: 1 });
    const sequence = [histogram(100), histogram(7), [1, -1, 2], histogram(100), histogram(100), [], histogram(7)];
    for (const hist of sequence) {
      const fresh = ps.sampler('minimax', { epsilon: 1 });
      const a = outcome(() => s.distribution(hist));
      const b = outcome(() => fresh.distribution(hist));
      assert.deepEqual(a, b);
      if (a.value !== undefined && hist.length === 100) assert.equal(typeof s.sample(hist), 'number');
      fresh.dispose();
    }
    s.dispose();
  });

  test(`${entry}: distributionInto refuses an out that is not a Float64Array of hist's length`, () => {
    const s = ps.sampler('minimax', { epsilon: 1 });
    assert.throws(() => s.distributionInto([1, 2, 3], new Float64Array(2)),
      { name: 'TypeError', message: 'out has 2 entries but hist has 3: they must have the same length' });
    assert.throws(() => s.distributionInto([1, 2, 3], [0, 0, 0]),
      { name: 'TypeError', message: 'out must be a Float64Array, got an array' });
    assert.throws(() => s.distributionInto([1, -2, 3], new Float64Array(3)), { name: 'RangeError', message: /hist\[1\] = -2/ });
    s.dispose();
    assert.throws(() => s.distributionInto([1, 2, 3], new Float64Array(3)), { name: 'TypeError', message: /disposed/ });
  });

  test(`${entry}: 2,000 calls of distributionInto and sample at one k leave the heap as it was`, () => {
    const internals = ps[Symbol.for('privsample.internals')];
    const s = ps.sampler('minimax', { epsilon: 1 });
    const hist = histogram(1000);
    const out = new Float64Array(1000);
    s.distributionInto(hist, out);
    s.sample(hist);
    const heap = internals.heapInUse();
    for (let i = 0; i < 1000; i += 1) {
      s.distributionInto(hist, out);
      s.sample(hist);
    }
    assert.equal(internals.heapInUse(), heap);
    s.dispose();
  });
}
