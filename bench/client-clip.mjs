// The clip-normalise solver through the small entry: `sampler('minimax').distribution(hist)` at k = 100 (the small-k
// route, whose steering pass has f64x2 lanes in the client), 10^3, 10^5, 10^6
// through the client entry (the shipped bundle + privsample-client.wasm, built for size around -O2 hot files), the
// research entry (privsample/research: the whole core at -O3 with WebAssembly SIMD) and the single module users
// downloaded before the client entry existed (commit 5fd3315: the whole core at -O3 in one module, built from this
// repository's history by scripts/build-baseline.sh), in the same run. Batches rotate through the three; each time is
// the median of 9 batches. Ratios = client / research and client / that module (above 1: the client is slower). The
// two current entries must give the same Q bit for bit (checked first); the older solver's Q may differ in its last
// bits (its root came by another search path), and the largest relative difference is printed.
// Run: npm run bench -- client-clip   (about two minutes, plus ~40 s the first time to build the older module)
import { existsSync } from 'node:fs';
import { init as initClient } from '../build/bundle/privsample.mjs';
import { init as initResearch } from '../bindings/js/research.mjs';

const client = await initClient();
const research = await initResearch();
// The older module is built by scripts/build-baseline.sh (npm run bench -- client-clip runs it first).
const baselineEntry = new URL('../build/baseline-5fd3315/bindings/js/privsample.mjs', import.meta.url);
if (!existsSync(baselineEntry)) {
  throw new Error('bench/client-clip: the 5fd3315 module is not built: run `bash scripts/build-baseline.sh` (npm run bench -- client-clip does)');
}
const { init: initBaseline } = await import(baselineEntry);
const baseline = await initBaseline();
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
console.log("sampler('minimax').distribution(hist): per call, median of 9 batches in turns; ratios = client / the other");
console.log('        k  input   eps     client   research   ratio    5fd3315   ratio  max rel. diff. to 5fd3315');
const ratios = [];
const toBaseline = [];
for (const k of [100, 1_000, 100_000, 1_000_000]) {
  const calls = k >= 1_000_000 ? 3 : k >= 100_000 ? 20 : k >= 1_000 ? 1000 : 10_000;
  for (const sparse of [false, true]) {
    const hist = histogramOf(k, sparse);
    for (const epsilon of EPSILONS) {
      const a = client.sampler('minimax', { epsilon });
      const b = research.sampler('minimax', { epsilon });
      const c = baseline.sampler('minimax', { epsilon }); // that API had no dispose(): 24 samplers stay
      const qa = a.distribution(hist);
      const qb = b.distribution(hist);
      const qc = c.distribution(hist);
      let difference = 0;
      for (let i = 0; i < k; i += 1) {
        if (qa[i] !== qb[i]) throw new Error(`k = ${k}, eps = ${epsilon}: the entries disagree at ${i}: ${qa[i]} vs ${qb[i]}`);
        difference = Math.max(difference, Math.abs(qa[i] - qc[i]) / qa[i]);
      }
      if (!(difference < 1e-9)) throw new Error(`k = ${k}, eps = ${epsilon}: the 5fd3315 module's Q differs by ${difference}`);
      const times = { client: [], research: [], baseline: [] };
      const turns = [['client', a], ['research', b], ['baseline', c]];
      for (let batch = 0; batch < 9; batch += 1) {
        for (let t = 0; t < 3; t += 1) {
          const [name, s] = turns[(batch + t) % 3];
          times[name].push(perCall(() => s.distribution(hist), calls));
        }
      }
      const med = (v) => v.sort((x, y) => x - y)[4];
      const tc = med(times.client);
      const tr = med(times.research);
      const tb = med(times.baseline);
      ratios.push(tc / tr);
      toBaseline.push(tc / tb);
      console.log(`${String(k).padStart(9)}  ${(sparse ? 'sparse' : 'dense').padEnd(7)}${String(epsilon).padStart(4)}${us(tc)}${us(tr)}  ${(tc / tr).toFixed(2).padStart(5)}x${us(tb)}  ${(tc / tb).toFixed(2).padStart(5)}x  ${difference.toExponential(1)}`);
      a.dispose();
      b.dispose();
    }
  }
}
const summary = (name, values) => {
  const geomean = Math.exp(values.reduce((s, r) => s + Math.log(r), 0) / values.length);
  console.log(`client / ${name}: geometric mean ${geomean.toFixed(2)}x, worst ${Math.max(...values).toFixed(2)}x, best ${Math.min(...values).toFixed(2)}x`);
};
console.log('');
summary('research', ratios);
summary('the 5fd3315 module', toBaseline);
