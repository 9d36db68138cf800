// What an observer who times sample() sees: the median time of one release for very different private inputs —
// a point mass, the uniform histogram, a sparse one and a random one — for every finite mechanism, k in {2, 10, 10^4},
// ε in {0.1, 1, 5, 20}. The draw policy (core/include/privsample/draw.hpp) makes the number of random proposals
// independent of the input; the ratio slowest/fastest input should stay within timing noise (target <= 1.1).
// Run: npm run bench -- draw-timing   (about two minutes)
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

function medianMicros(s, hist, perBatch) {
  const batches = [];
  for (let b = 0; b < 15; b += 1) {
    const t0 = performance.now();
    for (let i = 0; i < perBatch; i += 1) s.sample(hist);
    batches.push(((performance.now() - t0) / perBatch) * 1000);
  }
  return batches.sort((a, b) => a - b)[7];
}

let worst = { ratio: 0 };
const ratios = [];
console.log('median µs per sample() by input (point / uniform / sparse / random) and slowest/fastest');
for (const k of K) {
  for (const epsilon of EPSILONS) {
    for (const [mechanism, options] of mechanisms(epsilon, k)) {
      if (options.delta && epsilon > 5) continue;
      const s = ps.sampler(mechanism, options);
      const hists = inputs(k, options.records);
      const perBatch = k >= 10_000 ? (epsilon >= 5 && (mechanism === 'minimax' || mechanism === 'mollifier' || mechanism === 'local') ? 5 : 20) : 400;
      for (const h of Object.values(hists)) for (let i = 0; i < 20; i += 1) s.sample(h); // warm up
      const times = Object.fromEntries(Object.entries(hists).map(([name, h]) => [name, medianMicros(s, h, perBatch)]));
      const values = Object.values(times);
      const ratio = Math.max(...values) / Math.min(...values);
      ratios.push(ratio);
      if (ratio > worst.ratio) worst = { ratio, mechanism: `${mechanism}${options.delta ? ' (ε,δ)' : ''}`, k, epsilon };
      const label = `${mechanism}${options.delta ? ' (ε,δ)' : ''}`.padEnd(20);
      console.log(`k=${String(k).padEnd(6)} ε=${String(epsilon).padEnd(4)} ${label}${values.map((v) => v.toFixed(2).padStart(9)).join('')}   ${ratio.toFixed(2)}x`);
      s.dispose();
    }
  }
}
ratios.sort((a, b) => a - b);
console.log(`\nslowest/fastest input: median over ${ratios.length} settings ${ratios[Math.floor(ratios.length / 2)].toFixed(2)}x, ` +
  `90th percentile ${ratios[Math.floor(0.9 * ratios.length)].toFixed(2)}x, worst ${worst.ratio.toFixed(2)}x (${worst.mechanism}, k = ${worst.k}, ε = ${worst.epsilon})`);
