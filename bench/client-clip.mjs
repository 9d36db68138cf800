// The clip-normalise solver through the small entry: `sampler('minimax').distribution(hist)` at k = 100 (the small-k
// route, whose steering pass has f64x2 lanes in the client), 10^3, 10^5, 10^6
// through the client entry (the shipped bundle + privsample-client.wasm, built for size around -O2 hot files) and
// through the research entry (privsample/research: the whole core at -O3 with WebAssembly SIMD), in the same run.
// Batches alternate between the two entries; each time is the median of 9 batches. Ratio = client / research
// (above 1: the client is slower). Both must give the same Q (checked first).
// Run: npm run bench -- client-clip   (about a minute)
import { init as initClient } from '../build/bundle/privsample.mjs';
import { init as initResearch } from '../bindings/js/research.mjs';

const client = await initClient();
const research = await initResearch();
const EPSILONS = [0.1, 1, 5];

// Deterministic inputs: dense (every category positive, skewed) and sparse (1% of the categories positive).
function histogramOf(k, sparse) {
  const h = new Float64Array(k);
  let state = 0x9e3779b9;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  for (let i = 0; i < k; i += 1) {
    const u = next();
    if (!sparse || next() < 0.01) h[i] = u ** 3 + 1e-12;
  }
  return h;
}

function perCall(run, calls) {
  const t0 = performance.now();
  for (let i = 0; i < calls; i += 1) run();
  return ((performance.now() - t0) / calls) * 1000;
}

const us = (v) => (v >= 1000 ? `${(v / 1000).toFixed(2)} ms` : `${v.toFixed(1)} µs`).padStart(11);
console.log("sampler('minimax').distribution(hist): per call, median of 9 alternating batches; ratio = client / research");
console.log('        k  input   eps     client   research   ratio');
const ratios = [];
for (const k of [100, 1_000, 100_000, 1_000_000]) {
  const calls = k >= 1_000_000 ? 3 : k >= 100_000 ? 20 : k >= 1_000 ? 1000 : 10_000;
  for (const sparse of [false, true]) {
    const hist = histogramOf(k, sparse);
    for (const epsilon of EPSILONS) {
      const a = client.sampler('minimax', { epsilon });
      const b = research.sampler('minimax', { epsilon });
      const qa = a.distribution(hist);
      const qb = b.distribution(hist);
      for (let i = 0; i < k; i += 1) {
        if (qa[i] !== qb[i]) throw new Error(`k = ${k}, eps = ${epsilon}: the entries disagree at ${i}: ${qa[i]} vs ${qb[i]}`);
      }
      const times = { client: [], research: [] };
      for (let batch = 0; batch < 9; batch += 1) {
        const order = batch % 2 === 0 ? [['client', a], ['research', b]] : [['research', b], ['client', a]];
        for (const [name, s] of order) times[name].push(perCall(() => s.distribution(hist), calls));
      }
      const med = (v) => v.sort((x, y) => x - y)[4];
      const tc = med(times.client);
      const tr = med(times.research);
      ratios.push(tc / tr);
      console.log(`${String(k).padStart(9)}  ${(sparse ? 'sparse' : 'dense').padEnd(7)}${String(epsilon).padStart(4)}${us(tc)}${us(tr)}  ${(tc / tr).toFixed(2).padStart(5)}x`);
      a.dispose();
      b.dispose();
    }
  }
}
const geomean = Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length);
console.log(`\nclient / research: geometric mean ${geomean.toFixed(2)}x, worst ${Math.max(...ratios).toFixed(2)}x, best ${Math.min(...ratios).toFixed(2)}x`);
