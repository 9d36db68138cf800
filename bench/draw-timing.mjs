// What an observer who times sample() sees: the median time of one release for very different private inputs —
// a point mass, the uniform histogram, a sparse one and a random one — for every finite mechanism, k in {2, 10, 10^4},
// ε in {0.1, 1, 5, 20}. The draw policy (core/base/draw.hpp) makes the random words a release consumes
// independent of the input, and the clip samplers solve q by clip-normalise's fixed schedule (the same operations for
// every input); the ratio slowest/fastest input should stay within timing noise (target <= 1.1).
// First, DS-ROO's q lookup on its own (docs/draw-policy.md#computing-q-for-a-release): k = 10, n = 10^5, ε = 0.001,
// where q_m must be found for the minimum count m of the data — a point mass (m = 0), the uniform histogram
// (m = n/k, past the table's zeros) and one with m in the middle of the table. The lookup runs the same steps for
// every m.
// Last, sampleMany()'s table build (docs/draw-policy.md, "What is not protected"): sampleMany(h, 10) for shapes that
// order the table's light and heavy atoms differently, each against a point mass, at k = 2^14, 2^16, 2^18.
// Then the histogram's values: tiny entries and extreme magnitudes against a point mass (k = 16,384).
// Run: npm run bench -- draw-timing   (a few minutes); node bench/draw-timing.mjs ds-roo   (the first part only);
// node bench/draw-timing.mjs table   (the table part only); node bench/draw-timing.mjs values   (the values part only)
import { init } from '../bindings/js/privsample.mjs';

const ps = await init();
const K = [2, 10, 10_000];
const EPSILONS = [0.1, 1, 5, 20];

// A fixed linear congruential stream of numbers in [0, 1): the bench's own inputs and orders, the same every run.
function uniformStream(seed) {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function inputs(k, records) {
  const total = records ?? 1;
  const point = new Float64Array(k);
  point[Math.floor(k / 2)] = total;
  const flat = new Float64Array(k);
  if (records) for (let i = 0; i < k; i += 1) flat[i] = Math.floor(records / k) + (i < records % k ? 1 : 0);
  else flat.fill(1 / k);
  const sparse = new Float64Array(k);
  sparse[0] = Math.floor(0.7 * total);
  sparse[k - 1] = total - sparse[0];
  const random = new Float64Array(k);
  const next = uniformStream(12345);
  if (records) for (let r = 0; r < records; r += 1) random[Math.min(k - 1, Math.floor(next() * k))] += 1;
  else for (let i = 0; i < k; i += 1) random[i] = next() ** 4;
  return { point, uniform: flat, sparse, random };
}

function mechanisms(epsilon, k) {
  const prior = Float64Array.from({ length: k }, (_, i) => 1 + (i % 7));
  const total = prior.reduce((a, b) => a + b, 0);
  for (let i = 0; i < k; i += 1) prior[i] /= total;
  const records = 10 * k;
  return [
    ['minimax', { epsilon }],
    ['linear', { epsilon }],
    ['linear', { epsilon, delta: 1e-6 }],
    ['mollifier', { epsilon }],
    ['local', { epsilon, prior, gamma: 4 }],
    ['local-linear', { epsilon, prior, gamma: 4 }],
    ['roo', { epsilon, records }],
    ['ds-roo', { epsilon, records }],
    ...(k <= 10 ? [['laplace-projection', { epsilon, records }]] : []),
  ];
}

// Median µs per sample() for each input, the inputs' batches taken in turns (A, B, C, D, A, …) so that a change in
// the machine's speed during a setting (this shared host has a fast and a slow state) falls on all of them alike.
function medianMicros(s, hists, perBatch) {
  const batches = hists.map(() => []);
  for (let round = 0; round < 15; round += 1) {
    hists.forEach((hist, j) => {
      const t0 = performance.now();
      for (let i = 0; i < perBatch; i += 1) s.sample(hist);
      batches[j].push(((performance.now() - t0) / perBatch) * 1000);
    });
  }
  return batches.map((b) => b.sort((x, y) => x - y)[7]);
}

// call(h) for every input once per round, one call at a time, in an order shuffled by `next` (a fixed stream), after
// three rounds to warm up: each input's time over the point mass's in the same round, and the median of those ratios
// over `rounds` rounds, by input name.
function medianRatiosToPoint(call, point, hists, rounds, next) {
  const names = Object.keys(hists);
  for (let w = 0; w < 3; w += 1) for (const h of [point, ...Object.values(hists)]) call(h);
  const ratios = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r += 1) {
    const order = ['point', ...names];
    for (let i = order.length - 1; i > 0; i -= 1) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    const times = {};
    for (const n of order) {
      const h = n === 'point' ? point : hists[n];
      const t0 = process.hrtime.bigint();
      call(h);
      times[n] = Number(process.hrtime.bigint() - t0);
    }
    for (const n of names) ratios[n].push(times[n] / times.point);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return Object.fromEntries(names.map((n) => [n, median(ratios[n])]));
}

// sampleMany(h, 10), one call at a time, every input once per round in a shuffled order (a fixed stream), each
// input's time over the point mass's in the same round; the median of those ratios, over ROUNDS rounds. A second
// point mass (a separate array) is the control. Every array is written in full (Float64Array.from), so that no input
// is read from pages the system has never backed (a fresh array's zeros read faster: the draw policy).
function tableTiming() {
  const ROUNDS = 201;
  const next = uniformStream(777);
  console.log('sampleMany(h, 10): median over rounds of t(input)/t(point mass) in the same round');
  const settings = [['linear', { epsilon: 1 }, 0], ['roo', { epsilon: 1, records: 100_000 }, 100_000]];
  for (const [mechanism, options, records] of settings) {
    for (const k of [2 ** 14, 2 ** 16, 2 ** 18]) {
      // 0/1 patterns (1: a category with mass; for 'roo', the records spread evenly over them)
      const patterns = {
        'point mass (control)': (i) => i === 0,
        'every other category': (i) => i % 2 === 1,
        '1, 1, 0, 0, …': (i) => i % 4 < 2,
        'every 37th': (i) => i % 37 === 0,
        'first half': (i) => i < k / 2,
        random: () => next() < 0.5,
        uniform: () => true,
      };
      const histOf = (pattern) => {
        const on = Array.from({ length: k }, (_, i) => pattern(i));
        if (!records) return Float64Array.from(on, Number);
        const where = on.flatMap((b, i) => (b ? [i] : []));
        const hist = Float64Array.from({ length: k }, () => 0);
        where.forEach((i, j) => (hist[i] = Math.floor(records / where.length) + (j < records % where.length ? 1 : 0)));
        return hist;
      };
      const point = histOf((i) => i === 0);
      const hists = Object.fromEntries(Object.entries(patterns).map(([name, pattern]) => [name, histOf(pattern)]));
      const s = ps.sampler(mechanism, options);
      const rounds = k >= 2 ** 18 ? 41 : ROUNDS;
      const medians = medianRatiosToPoint((h) => s.sampleMany(h, 10), point, hists, rounds, next);
      console.log(`${mechanism.padEnd(7)} k = ${String(k).padEnd(7)}` +
        Object.entries(medians).map(([n, ratio]) => `${n} ${ratio.toFixed(3)}`).join(', '));
      s.dispose();
    }
  }
}
if (process.argv[2] === 'table') {
  tableTiming();
  process.exit(0);
}

// The histogram's values (docs/draw-policy.md#the-histograms-values): sample() and sampleMany(h, 10) at k = 16,384 for
// tiny entries (subnormal, a far tail) and extreme magnitudes, each against a point mass in the same round, the
// median of those ratios over 41 rounds in a shuffled order. The last is the kind still not protected (a total that
// overflows).
function valueTiming() {
  const k = 16_384;
  const next = uniformStream(99);
  const shapes = {
    'uniform (control)': () => 1,
    '1% at 1e-310': (i) => (i % 100 === 0 ? 1e-310 : 1),
    'every other 5e-324': (i) => (i % 2 ? 5e-324 : 1),
    'e^(-i/20)': (i) => Math.exp(-i / 20),
    'uniform x1e200': () => 1e200,
    'uniform x1e-200': () => 1e-200,
    'every other 2^-390': (i) => (i % 2 ? 2 ** -390 : 1),
    '2^-520 beside 2^-1030': (i) => (i === 0 ? 2 ** -520 : 2 ** -1030),
    '1 beside 1e-310': (i) => (i === 0 ? 1 : 1e-310),
    '2^-1000 beside 2^-1022+2^-1074': (i) => (i === 0 ? 2 ** -1000 : 2 ** -1022 + 2 ** -1074),
    '1e-200 e^(-i/50)': (i) => 1e-200 * Math.exp(-i / 50),
    'all 1e-310': () => 1e-310,
    'point mass 2^1023': (i) => (i === 0 ? 2 ** 1023 : 0),
    'all 1e308 (not protected)': () => 1e308,
  };
  const point = Float64Array.from({ length: k }, (_, i) => Number(i === 0));
  const filled = (f) => Float64Array.from({ length: k }, (_, i) => f(i));
  const hists = Object.fromEntries(Object.entries(shapes).map(([n, f]) => [n, filled(f)]));
  const prior = new Float64Array(k).fill(1 / k);
  console.log(`k = ${k}: median over rounds of t(input)/t(point mass) in the same round`);
  for (const [mechanism, options] of [['linear', { epsilon: 1 }], ['minimax', { epsilon: 1 }],
    ['mollifier', { epsilon: 1 }], ['local', { epsilon: 1, prior, gamma: 4 }]]) {
    const s = ps.sampler(mechanism, options);
    for (const [call, f] of [['sample', (h) => s.sample(h)], ['sampleMany', (h) => s.sampleMany(h, 10)]]) {
      const medians = medianRatiosToPoint(f, point, hists, 41, next);
      console.log(`${mechanism.padEnd(9)} ${call.padEnd(10)} ` +
        Object.entries(medians).map(([n, ratio]) => `${n} ${ratio.toFixed(2)}`).join(', '));
    }
    s.dispose();
  }
}
if (process.argv[2] === 'values') {
  valueTiming();
  process.exit(0);
}

{
  const [k, records, epsilon] = [10, 100_000, 0.001];
  const s = ps.sampler('ds-roo', { epsilon, records });
  const point = new Float64Array(k);
  point[0] = records;
  const uniform = new Float64Array(k).fill(records / k);
  const middle = new Float64Array(k).fill(900);
  middle[0] = records - 900 * (k - 1);
  const hists = [point, uniform, middle, Float64Array.from(uniform)];
  for (const h of hists) for (let i = 0; i < 2000; i += 1) s.sample(h); // warm up (the table is built once)
  const [a, b, c, again] = medianMicros(s, hists, 4000);
  console.log(`ds-roo k = ${k}, n = ${records}, ε = ${epsilon}: median µs per sample() point mass ${a.toFixed(3)}, ` +
    `uniform ${b.toFixed(3)}, m = 900 ${c.toFixed(3)}; point/uniform ${(a / b).toFixed(2)}x ` +
    `(noise: uniform again/uniform ${(again / b).toFixed(2)}x)`);
  s.dispose();
}
if (process.argv[2] === 'ds-roo') process.exit(0);

// The noise floor: the uniform histogram timed a second time as a fifth input, in the same turns. Its ratio to the
// first uniform column is what timing noise alone produces on this machine; a mechanism whose spread across the four
// real inputs is no larger than that shows no data dependence that this bench can see.
const CLIP = ['minimax', 'mollifier', 'local', 'local-linear'];
const percentile = (values, q) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))];
const rows = [];
console.log('median µs per sample() by input (point / uniform / sparse / random / uniform again), the spread');
console.log('slowest/fastest of the four inputs, and the noise floor (uniform again / uniform, as max/min)');
for (const k of K) {
  for (const epsilon of EPSILONS) {
    for (const [mechanism, options] of mechanisms(epsilon, k)) {
      if (options.delta && epsilon > 5) continue;
      const s = ps.sampler(mechanism, options);
      const hists = Object.values(inputs(k, options.records));
      hists.push(Float64Array.from(hists[1]));
      const clip = CLIP.includes(mechanism);
      const perBatch = k >= 10_000 ? (clip ? 4 : 20) : 400;
      for (const h of hists) for (let i = 0; i < 20; i += 1) s.sample(h); // warm up
      const values = medianMicros(s, hists, perBatch);
      const four = values.slice(0, 4);
      const spread = Math.max(...four) / Math.min(...four);
      const noise = Math.max(values[1], values[4]) / Math.min(values[1], values[4]);
      const label = `${mechanism}${options.delta ? ' (ε,δ)' : ''}`;
      rows.push({ label, clip, k, epsilon, spread, noise });
      console.log(`k=${String(k).padEnd(6)} ε=${String(epsilon).padEnd(4)} ${label.padEnd(20)}${values.map((v) => v.toFixed(2).padStart(9)).join('')}` +
        `   ${spread.toFixed(2)}x  (noise ${noise.toFixed(2)}x)`);
      s.dispose();
    }
  }
}
const summary = (name, selected) => {
  const spreads = selected.map((r) => r.spread);
  const worst = selected.reduce((a, b) => (b.spread > a.spread ? b : a));
  console.log(`${name.padEnd(34)} spread median ${percentile(spreads, 0.5).toFixed(2)}x, 90th percentile ${percentile(spreads, 0.9).toFixed(2)}x, ` +
    `worst ${worst.spread.toFixed(2)}x (${worst.label}, k = ${worst.k}, ε = ${worst.epsilon})`);
};
console.log('');
summary(`all ${rows.length} settings`, rows);
summary('clip samplers (fixed schedule)', rows.filter((r) => r.clip));
summary('mixtures and record-level', rows.filter((r) => !r.clip));
const noises = rows.map((r) => r.noise);
console.log(`${'noise floor (the same input twice)'.padEnd(34)} median ${percentile(noises, 0.5).toFixed(2)}x, 90th percentile ` +
  `${percentile(noises, 0.9).toFixed(2)}x, worst ${Math.max(...noises).toFixed(2)}x`);
console.log('');
tableTiming();
console.log('');
valueTiming();
