// The two entries run the same core in two WebAssembly builds (the client: -O2/-Oz, f64x2 lanes, no RTTI; the
// research module: scalar lanes, Emscripten's exceptions), so every finite call must give the same answer bit for bit,
// or the same error, on any input. Random and adversarial inputs: dense, sparse, point masses, −0 counts (as
// Math.round(-0.2) gives), subnormals, masses near the largest double, NaN and negative entries.
import assert from 'node:assert/strict';
import test from 'node:test';
import { init as initClient } from '../../bindings/js/privsample.mjs';
import { init as initResearch } from '../../bindings/js/research.mjs';

const client = await initClient();
const research = await initResearch();

// A 64-bit LCG (no Math.random in tests either): reproducible inputs.
let state = 20261126n;
const uniform = () => {
  state = (state * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n);
  return Number(state >> 11n) / 2 ** 53;
};
const pick = (values) => values[Math.floor(uniform() * values.length)];
const ODD = [0, -0, 5e-324, 1e-310, 1e-200, 1e300, 1.7976931348623157e308, 1, NaN, -1, Infinity];

function histogram(k) {
  const shape = Math.floor(uniform() * 6);
  return Array.from({ length: k }, (_, i) => {
    switch (shape) {
      case 0: return uniform();
      case 1: return uniform() < 0.2 ? Math.floor(uniform() * 10) : 0;
      case 2: return i === 0 ? 1 : 0;
      case 3: return uniform() < 0.1 ? pick(ODD) : uniform();
      case 4: return Math.round(uniform() - 0.7); // 0, 1 and −0
      default: return uniform() ** 8;
    }
  });
}

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
