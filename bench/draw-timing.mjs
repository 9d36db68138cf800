// What an observer who times sample() sees: the median time of one release for very different private inputs —
// a point mass, the uniform histogram, a sparse one and a random one — for every finite mechanism, k in {2, 10, 10^4},
// ε in {0.1, 1, 5, 20}. The draw policy (core/base/draw.hpp) makes the random words a release consumes
// independent of the input, and the clip samplers solve q by clip-normalise's fixed schedule (the same operations for
// every input); the ratio slowest/fastest input should stay within timing noise (target <= 1.1).
// First, DS-ROO's q lookup on its own (docs/draw-policy.md#computing-q-for-a-release): k = 10, n = 10^5, ε = 0.001,
// where q_m must be found for the minimum count m of the data — a point mass (m = 0), the uniform histogram
// (m = n/k, past the table's zeros) and one with m in the middle of the table. The lookup runs the same steps for
// every m.
// Run: npm run bench -- draw-timing   (a few minutes); node bench/draw-timing.mjs ds-roo   (the first part only)
import { init } from '../bindings/js/privsample.mjs';

const ps = await init();
const K = [2, 10, 10_000];
const EPSILONS = [0.1, 1, 5, 20];

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
  let state = 12345;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
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
