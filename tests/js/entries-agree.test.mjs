// The two entries run the same core in two WebAssembly builds (the client: -O2/-Oz, f64x2 lanes, no RTTI; the
// research module: scalar lanes, Emscripten's exceptions), so every finite call must give the same answer bit for bit,
// or the same error, on any input. Random and adversarial inputs: dense, sparse, point masses, −0 counts (as
// Math.round(-0.2) gives), subnormals, masses near the largest double, NaN and negative entries.
import assert from 'node:assert/strict';
import test from 'node:test';
import { init as initClient } from '../../bindings/js/privsample.mjs';
import { init as initResearch } from '../../bindings/js/research.mjs';
import { adversarialInputs } from './helpers.mjs';

const client = await initClient();
const research = await initResearch();

// Reproducible random and adversarial inputs (no Math.random in tests either).
const { uniform, pick, histogram } = adversarialInputs(20261126);

const outcome = (run) => {
  try {
    const value = run();
    return { value: ArrayBuffer.isView(value) ? Array.from(value) : value };
  } catch (error) {
    return { error: `${error.name}: ${error.message}` };
  }
};
const sameBits = (a, b) => Array.isArray(a) ? a.length === b.length && a.every((v, i) => Object.is(v, b[i])) : Object.is(a, b);

test('the client and research entries agree bit for bit (or on the error) on 600 random and adversarial inputs', () => {
  let compared = 0;
  for (let n = 0; n < 600; n += 1) {
    const k = pick([1, 2, 3, 4, 5, 7, 9, 16, 33, 100, 129]);
    const hist = histogram(k);
    const epsilon = pick([0.1, 1, 3, 20]);
    const weights = Array.from({ length: k }, () => 0.1 + uniform());
    const total = weights.reduce((s, w) => s + w, 0);
    const prior = weights.map((w) => w / total);
    const counted = hist.reduce((s, x) => s + x, 0);
    const records = Number.isInteger(counted) && counted > 0 ? counted : 10;
    const configurations = [
      ['minimax', { epsilon }], ['linear', { epsilon }], ['linear', { epsilon, delta: 1e-6 }], ['linear', { mu: epsilon }],
      ['mollifier', { epsilon }], ['local', { epsilon, prior, gamma: 3 }], ['local-linear', { epsilon, prior, gamma: 3 }],
      ['roo', { epsilon, records }], ['ds-roo', { epsilon, records }],
    ];
    for (const [mechanism, options] of configurations) {
      const made = [client, research].map((api) => outcome(() => api.sampler(mechanism, options)));
      if (made.some((m) => m.error)) {
        assert.equal(made[0].error, made[1].error, `${mechanism} ${JSON.stringify(options)}`);
        continue;
      }
      const [a, b] = made.map((m) => m.value);
      for (const [call, run] of [
        ['distribution', (s) => s.distribution(hist)],
        ['normaliser', (s) => s.normaliser(hist)],
        ['sampleMany', (s) => s.sampleMany(hist, 16, { seed: n })],
      ]) {
        const [x, y] = [outcome(() => run(a)), outcome(() => run(b))];
        const label = `${mechanism} ${JSON.stringify(options).slice(0, 80)} ${call}, k = ${k}, hist = ${hist.map(String).slice(0, 12)}`;
        if (x.error !== undefined || y.error !== undefined) assert.equal(x.error, y.error, label);
        else assert.ok(sameBits(x.value, y.value), `${label}: ${x.value} vs ${y.value}`);
        compared += 1;
      }
      a.dispose();
      b.dispose();
    }
  }
  assert.ok(compared > 10000, `compared ${compared} calls`);
});

test('the clip samplers agree bit for bit at large k, where the adaptive search runs its steering passes', () => {
  let compared = 0;
  for (let n = 0; n < 150; n += 1) {
    const k = pick([1000, 4097, 20000]);
    const hist = histogram(k);
    const epsilon = pick([0.01, 0.2, 1, 4, 12, 30]);
    const weights = Array.from({ length: k }, () => 0.05 + uniform());
    const total = weights.reduce((s, w) => s + w, 0);
    const prior = weights.map((w) => w / total);
    const gamma = pick([1.5, 3, 10]);
    for (const [mechanism, options] of [
      ['minimax', { epsilon }], ['mollifier', { epsilon }], ['local', { epsilon, prior, gamma }],
      ['local-linear', { epsilon, prior, gamma }],
    ]) {
      const [a, b] = [client, research].map((api) => api.sampler(mechanism, options));
      const [x, y] = [outcome(() => a.distribution(hist)), outcome(() => b.distribution(hist))];
      const label = `${mechanism} ε = ${epsilon}, k = ${k}, hist = ${hist.map(String).slice(0, 8)}`;
      if (x.error !== undefined || y.error !== undefined) assert.equal(x.error, y.error, label);
      else assert.ok(sameBits(x.value, y.value), `${label}: first difference at ${x.value.findIndex((v, i) => !Object.is(v, y.value[i]))}`);
      a.dispose();
      b.dispose();
      compared += 1;
    }
  }
  assert.equal(compared, 600);
});
