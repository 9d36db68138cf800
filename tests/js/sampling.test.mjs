// Statistical tests of the samplers through the JS API: chi-square goodness of fit of sampleMany against
// distribution(), seeded reproducibility, and that the default draws come from the CSPRNG (not a fixed seed).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init } from '../../bindings/js/privsample.mjs';
import { init as initResearch } from '../../bindings/js/research.mjs';
import { chiSquareTest, pooledChiSquarePValue } from './helpers.mjs';

const ps = await init();
const CRITICAL_P = 1e-6; // a correct sampler fails a single check with probability 1e-6

test('sampleMany matches distribution() by chi-square (seeded and CSPRNG)', () => {
  const cases = [
    { mechanism: 'minimax', eps: 1, hist: [30, 25, 20, 15, 10] },
    { mechanism: 'minimax', eps: 0.1, hist: [1, 0, 0, 0, 0, 0, 0] },
    { mechanism: 'minimax', eps: 4, hist: [0, 0, 7, 1, 0] },
    { mechanism: 'linear', eps: 1, hist: [30, 25, 20, 15, 10] },
    { mechanism: 'linear', eps: 3, hist: [0, 1, 0, 0, 0, 5, 0] },
  ];
  for (const { mechanism, eps, hist } of cases) {
    const s = ps.sampler(mechanism, { epsilon: eps });
    const q = s.distribution(hist);
    for (const seed of [12345, undefined]) {
      const draws = s.sampleMany(hist, 200_000, seed === undefined ? undefined : { seed });
      assert.ok(draws instanceof Uint32Array);
      assert.equal(draws.length, 200_000);
      const { statistic, pValue } = chiSquareTest(draws, q);
      assert.ok(pValue > CRITICAL_P, `${mechanism} ε=${eps} ${hist} seed=${seed}: χ² = ${statistic.toFixed(2)}, p = ${pValue}`);
    }
  }
});

test('a biased sampler would fail the same test (the test has power)', () => {
  const s = ps.sampler('minimax', { epsilon: 1 });
  const q = s.distribution([30, 25, 20, 15, 10]);
  const draws = s.sampleMany([30, 25, 20, 15, 10], 200_000, { seed: 7 });
  const shifted = Float64Array.from(q, (v, i) => (i === 0 ? v + 0.01 : v - 0.0025));
  assert.ok(chiSquareTest(draws, shifted).pValue < CRITICAL_P, 'a 1% shift in one category is detected');
});

test('seeded draws are reproducible; different seeds and the CSPRNG differ', () => {
  const s = ps.sampler('minimax', { epsilon: 0.5 });
  const hist = [1, 1, 1, 1, 1, 1, 1, 1];
  const a = s.sampleMany(hist, 1000, { seed: 42 });
  assert.deepEqual(s.sampleMany(hist, 1000, { seed: 42 }), a);
  assert.notDeepEqual(s.sampleMany(hist, 1000, { seed: 43 }), a);
  assert.notDeepEqual(s.sampleMany(hist, 1000), s.sampleMany(hist, 1000));
  assert.deepEqual(s.sampleMany(hist, 0, { seed: 1 }), new Uint32Array(0));
  assert.equal(s.sampleMany(hist, 5, { seed: 2 ** 53 - 1 }).length, 5);
});

test('seeded sampleMany keeps its sequences: the draws of one call per draw, on the same words', () => {
  // Digests of 5000 seeded draws as the core makes them one call per draw: however sampleMany runs them, it must give
  // the same indices from the same words, the alias table's and the base's alike, and the record mechanisms'.
  const fnv = (draws) => {
    let h = 0x811c9dc5;
    for (const v of draws) h = Math.imul(h ^ v, 0x01000193) >>> 0;
    return h;
  };
  const cases = [
    ['minimax', { epsilon: 1 }, [5, 1, 0, 3, 2, 0, 0, 7, 1, 1], 4177097048, [3, 9, 0, 8, 5, 2, 3, 8, 8, 7, 1, 6]],
    ['minimax', { epsilon: 0.1 }, Array.from({ length: 1000 }, (_, i) => (i * 37) % 11), 1517500601,
      [378, 924, 769, 850, 583, 290, 321, 877, 851, 707, 179, 602]],
    ['linear', { epsilon: 2 }, [3, 1, 4, 1, 5], 3659936556, [4, 4, 3, 4, 2, 1, 1, 4, 4, 3, 4, 4]],
    ['roo', { epsilon: 1, records: 14 }, [3, 1, 4, 1, 5], 266054539, [1, 2, 0, 2, 0, 0, 4, 4, 4, 4, 4, 2]],
  ];
  for (const [name, options, hist, digest, first] of cases) {
    const draws = ps.sampler(name, options).sampleMany(hist, 5000, { seed: 42 });
    assert.deepEqual([...draws.slice(0, 12)], first, `${name} ${JSON.stringify(options)}`);
    assert.equal(fnv(draws), digest, `${name} ${JSON.stringify(options)}`);
  }
});

test('seeded sampleMany: the first m draws of n are the draws of m, one draw included, for every finite mechanism', () => {
  for (const [name, options, hist] of [
    ['minimax', { epsilon: 1 }, [5, 1, 0, 3, 2, 0, 0, 7, 1, 1]],
    ['linear', { epsilon: 2, delta: 1e-6 }, [3, 1, 4, 1, 5]],
    ['mollifier', { epsilon: 1 }, Array.from({ length: 100 }, (_, i) => (i * 7) % 5)],
    ['roo', { epsilon: 1, records: 14 }, [3, 1, 4, 1, 5]],
    ['ds-roo', { epsilon: 1, records: 14 }, [3, 1, 4, 1, 5]],
  ]) {
    const s = ps.sampler(name, options);
    for (const seed of [7, 2 ** 40 + 3]) {
      const all = s.sampleMany(hist, 1000, { seed });
      for (const m of [1, 2, 10, 999]) {
        assert.deepEqual(s.sampleMany(hist, m, { seed }), all.slice(0, m), `${name}, seed ${seed}: the first ${m} of 1000`);
      }
    }
    s.dispose();
  }
});

test('sample() draws a category with the CSPRNG', () => {
  const s = ps.sampler('minimax', { epsilon: 1 });
  const counts = new Uint32Array(3);
  for (let i = 0; i < 3000; i += 1) counts[s.sample([5, 3, 2])] += 1;
  assert.ok(counts.every((c) => c > 0), `every category appears: ${counts}`);
  const { pValue } = chiSquareTest(Array.from(counts).flatMap((c, i) => Array(c).fill(i)), s.distribution([5, 3, 2]));
  assert.ok(pValue > CRITICAL_P);
});

test('a count of −0 is a zero count: sample() follows distribution() in both entries, for every finite mechanism', async () => {
  // Math.round(-0.2) is -0. The fixed schedule behind the clip samplers' sample() compared doubles by their bits in
  // the WebAssembly builds, where -0 sorts above everything: such a histogram was released as a uniform draw.
  const research = await initResearch();
  const prior = (k) => Array(k).fill(1 / k);
  const configurations = (k) => [
    ['minimax', { epsilon: 3 }], ['linear', { epsilon: 3 }], ['mollifier', { epsilon: 3 }],
    ['local', { epsilon: 3, prior: prior(k), gamma: 4 }], ['local-linear', { epsilon: 3, prior: prior(k), gamma: 4 }],
    ['roo', { epsilon: 3, records: 6 }], ['ds-roo', { epsilon: 3, records: 6 }],
  ];
  for (const [entry, api] of [['privsample', ps], ['privsample/research', research]]) {
    for (const k of [3, 9]) { // k = 3: the scalar remainder of the client's four-lane passes; 9: lanes and remainder
      const withPositiveZeros = Array.from({ length: k }, (_, i) => (i === 0 ? 5 : i === k - 1 ? 1 : 0));
      const withNegativeZeros = withPositiveZeros.map((c) => (c === 0 ? -0 : c));
      for (const [mechanism, options] of configurations(k)) {
        const s = api.sampler(mechanism, options);
        const q = s.distribution(withPositiveZeros);
        assert.deepEqual(s.distribution(withNegativeZeros), q, `${entry} ${mechanism} k=${k}: distribution()`);
        const draws = Array.from({ length: 2000 }, () => s.sample(withNegativeZeros));
        const { statistic, pValue } = chiSquareTest(draws, q);
        assert.ok(pValue > CRITICAL_P, `${entry} ${mechanism} k=${k}: sample() with -0 counts, χ² = ${statistic.toFixed(1)}, p = ${pValue}`);
        s.dispose();
      }
    }
  }
});

test('a histogram at any magnitude gives the same distribution, bit for bit, subnormal ones included', async () => {
  // Scaling is exact (a power of two) and computes with no subnormal number: a subnormal count goes through its bit
  // pattern (h·2^-1071 and h·2^-1060 are subnormal throughout). Both entries: the client's pass and the research
  // module's.
  const research = await initResearch();
  const h = [1, 2, 3, 4, 0, 7];
  const scaled = (e) => h.map((v) => v * 2 ** e);
  for (const [entry, api] of [['privsample', ps], ['privsample/research', research]]) {
    const mechanisms = [['minimax', { epsilon: 1 }], ['linear', { epsilon: 1 }], ['mollifier', { epsilon: 2 }]];
    for (const [mechanism, options] of mechanisms) {
      const s = api.sampler(mechanism, options);
      const q = s.distribution(h);
      for (const e of [-1071, -1060, -1023, -700, -510, 500, 1020]) {
        assert.deepEqual(s.distribution(scaled(e)), q, `${entry} ${mechanism}: h·2^${e}`);
      }
      s.dispose();
    }
  }
});

test('sample() follows distribution() in the client for every finite mechanism on adversarial histograms', () => {
  // sample() is the release path (for the clip samplers the fixed schedule, in f64x2 lanes in the client's
  // WebAssembly); distribution() is the adaptive search. sampleMany draws from distribution(), so only this checks
  // what a page releases against what it is told.
  let state = 20261126;
  const uniform = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const shapes = {
    random: (k) => Array.from({ length: k }, () => uniform() ** 3),
    point: (k) => Array.from({ length: k }, (_, x) => (x === k - 1 ? 1 : 0)),
    sparse: (k) => Array.from({ length: k }, (_, x) => (x % 4 === 1 ? uniform() : 0)),
    'negative zeros and a subnormal': (k) => Array.from({ length: k }, (_, x) => (x === 0 ? 1e-310 : x % 2 ? -0 : uniform())),
    huge: (k) => Array.from({ length: k }, () => 1e300 * uniform()),
    tiny: (k) => Array.from({ length: k }, () => 1e-300 * uniform()),
  };
  const prior = (k) => Array.from({ length: k }, (_, x) => (1 + (x % 3)) / (2 * k));
  for (const k of [3, 9, 100]) {
    const mechanisms = [
      ['minimax', { epsilon: 3 }], ['linear', { epsilon: 3 }], ['mollifier', { epsilon: 3 }],
      ['local', { epsilon: 3, prior: prior(k), gamma: 4 }], ['local-linear', { epsilon: 3, prior: prior(k), gamma: 4 }],
    ];
    for (const [mechanism, options] of mechanisms) {
      const s = ps.sampler(mechanism, options);
      for (const [shape, make] of Object.entries(shapes)) {
        const hist = make(k);
        const q = s.distribution(hist);
        const draws = Array.from({ length: 3000 }, () => s.sample(hist));
        const p = pooledChiSquarePValue(draws, q);
        assert.ok(p > CRITICAL_P, `${mechanism} k = ${k}, ${shape}: p = ${p}`);
      }
      s.dispose();
    }
  }
});

test('no Math.random in the package sources', async () => {
  const { readFileSync } = await import('node:fs');
  const files = ['abi.mjs', 'common.mjs', 'ledger.mjs', 'ledger-storage.mjs', 'load-wasm.mjs', 'privsample.mjs', 'research.mjs']
    .map((f) => `../../bindings/js/${f}`)
    .concat(['privsample.mjs', 'common.mjs', 'ledger.mjs'].map((f) => `../../build/bundle/${f}`), ['../../build/wasm/privsample-research.mjs']);
  for (const file of files) {
    const source = readFileSync(new URL(file, import.meta.url), 'utf8');
    assert.ok(!/Math\.random/.test(source), `${file} uses Math.random`);
  }
});
