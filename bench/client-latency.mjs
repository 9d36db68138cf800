// Per-call latency of the client entry, samplers built once, against (a) building the mechanism on every call, as
// every call did before samplers held their C++ mechanism, and (b) what a web developer would write by hand in
// plain JS: k-ary randomized response and water-filling for the minimax sampler (sort, then the closed-form
// normaliser). Medians of repeated timed batches in one run, privsample and the hand-written code timed in turns;
// ratios > 1 mean privsample is slower.
// Run: npm run bench -- client-latency
import { readFileSync } from 'node:fs';
import { instantiateClient, writeText } from '../bindings/js/abi.mjs';
import { cryptoWords } from './crypto-words.mjs';
import { init } from '../bindings/js/privsample.mjs';

const ps = await init();
const EPSILON = 1;

// ---- hand-written plain JS (CSPRNG draws, like the library; no Math.random) ------------------------------------
const randomWord = cryptoWords(1024);
const uniform01 = () => randomWord() / 2 ** 32;
function normalise(hist) {
  let total = 0;
  for (let i = 0; i < hist.length; i += 1) total += hist[i];
  const p = new Float64Array(hist.length);
  for (let i = 0; i < hist.length; i += 1) p[i] = hist[i] / total;
  return p;
}
function drawFrom(q) {
  let u = uniform01();
  for (let i = 0; i < q.length; i += 1) {
    u -= q[i];
    if (u < 0) return i;
  }
  return q.length - 1;
}
const plain = {
  kRR: {
    distribution(hist) {
      const p = normalise(hist);
      const k = p.length;
      const weight = Math.expm1(EPSILON) / (Math.exp(EPSILON) + k - 1);
      for (let i = 0; i < k; i += 1) p[i] = weight * p[i] + (1 - weight) / k;
      return p;
    },
    sample(hist) {
      return drawFrom(this.distribution(hist));
    },
  },
  // Q*(x) = max(p_x / r, ℓ) with ℓ = 1/(e^ε + k − 1): sort descending, grow the set of atoms above the floor.
  minimax: {
    distribution(hist) {
      const p = normalise(hist);
      const k = p.length;
      const floor = 1 / (Math.exp(EPSILON) + k - 1);
      const sorted = Float64Array.from(p).sort().reverse();
      let top = 0;
      let r = 1;
      for (let m = 1; m <= k; m += 1) {
        top += sorted[m - 1];
        r = top / (1 - (k - m) * floor);
        if (m === k || sorted[m] / r <= floor) break;
      }
      for (let i = 0; i < k; i += 1) p[i] = Math.max(p[i] / r, floor);
      return p;
    },
    sample(hist) {
      return drawFrom(this.distribution(hist));
    },
  },
};

function histogramOf(k) {
  const h = new Float64Array(k);
  let state = 0x9e3779b9;
  for (let i = 0; i < k; i += 1) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    h[i] = (state / 2 ** 32) ** 3;
  }
  return h;
}

function median(run, calls) {
  return inTurns([run], calls)[0];
}

// Medians (µs per call) of 15 batches of each run, the runs timed in turns (A, B, A, B, …), so that a drift of the
// host's speed falls on all of them and their ratios hold.
function inTurns(runs, calls) {
  const batches = runs.map(() => []);
  for (let b = 0; b < 15; b += 1) {
    runs.forEach((run, r) => {
      const t0 = performance.now();
      for (let i = 0; i < calls; i += 1) run();
      batches[r].push(((performance.now() - t0) / calls) * 1000);
    });
  }
  return batches.map((times) => times.sort((x, y) => x - y)[7]);
}

const us = (v) => `${v.toFixed(2)} µs`.padStart(12);
console.log('per call, median of 15 batches timed in turns (µs); ratio = privsample / other');
console.log('mechanism  k       call          built once   rebuilt/call  ratio   plain JS   ratio');
const ratiosAt100Plus = [];
for (const k of [6, 100, 10_000]) {
  const hist = histogramOf(k);
  const calls = k >= 10_000 ? 200 : 5000;
  for (const [name, mechanism, hand] of [['linear', 'linear', plain.kRR], ['minimax', 'minimax', plain.minimax]]) {
    const s = ps.sampler(mechanism, { epsilon: EPSILON });
    const check = s.distribution(hist);
    const handQ = hand.distribution(hist);
    if (check.some((v, i) => Math.abs(v - handQ[i]) > 1e-9)) throw new Error(`${name}: the plain-JS baseline disagrees at k = ${k}`);
    for (const call of ['distribution', 'sample']) {
      // The built sampler and the hand-written code in turns; rebuilding on its own (its garbage and the
      // samplers it makes and frees would otherwise land in the others' batches).
      const [once, handTime] = inTurns([() => s[call](hist), () => hand[call](hist)], calls);
      const rebuilt = median(() => {
        const fresh = ps.sampler(mechanism, { epsilon: EPSILON });
        fresh[call](hist);
        fresh.dispose();
      }, calls);
      if (k >= 100) ratiosAt100Plus.push(once / handTime);
      console.log(`${name.padEnd(11)}${String(k).padEnd(8)}${call.padEnd(14)}${us(once)}${us(rebuilt)}  ${(once / rebuilt).toFixed(2).padStart(5)}x${us(handTime)}  ${(once / handTime).toFixed(2).padStart(5)}x`);
    }
    s.dispose();
  }
}
// The mechanism whose construction is expensive: local-linear minimises λ once per sampler.
{
  const k = 100;
  const prior = new Float64Array(k).fill(1 / k);
  const hist = histogramOf(k);
  const s = ps.sampler('local-linear', { epsilon: EPSILON, prior, gamma: 4 });
  const once = median(() => s.sample(hist), 2000);
  const rebuilt = median(() => {
    const fresh = ps.sampler('local-linear', { epsilon: EPSILON, prior, gamma: 4 });
    fresh.sample(hist);
    fresh.dispose();
  }, 200);
  console.log(`local-linear k = 100 sample: built once ${us(once)}, rebuilt per call ${us(rebuilt)} (${(rebuilt / once).toFixed(0)}x faster built once)`);
}
// The μ-GDP linear sampler's weight for k is a numerical solve: kept by the sampler for the k of its last histogram.
{
  const hist = histogramOf(100);
  const s = ps.sampler('linear', { mu: 1 });
  const once = median(() => s.distribution(hist), 2000);
  const rebuilt = median(() => {
    const fresh = ps.sampler('linear', { mu: 1 });
    fresh.distribution(hist);
    fresh.dispose();
  }, 100);
  console.log(`linear (mu = 1) k = 100 distribution: built once ${us(once)}, rebuilt per call ${us(rebuilt)} (${(rebuilt / once).toFixed(0)}x faster built once)`);
}

// Where one k-RR distribution() at k = 100 spends its time: the pieces of the call, timed on their own through the
// module's plain C functions (bindings/wasm/client.cpp), and the allocation every copy-out (and the hand-written
// code's own array) pays for.
{
  const k = 100;
  const hist = histogramOf(k);
  const wasm = await WebAssembly.compile(readFileSync(new URL('../build/wasm/privsample-client.wasm', import.meta.url)));
  const abi = await instantiateClient(wasm, (words) => crypto.getRandomValues(words));
  const { fn } = abi;
  fn.ps_option(writeText(abi, 'epsilon'), 0, EPSILON);
  const handle = fn.ps_sampler_new(writeText(abi, 'linear'));
  const copyIn = median(() => abi.doubles().set(hist, fn.ps_input(handle, k) / 8), 20000);
  const call = median(() => fn.ps_distribution(handle), 20000);
  const at = fn.ps_distribution(handle) / 8;
  const copyOut = median(() => abi.doubles().slice(at, at + k), 20000);
  const allocation = median(() => new Float64Array(k), 20000);
  console.log(`\nk-RR distribution() at k = 100, by part: copy in ${us(copyIn)}, WebAssembly call ${us(call)}, copy out ${us(copyOut)} (of which allocating a Float64Array(100): ${us(allocation)})`);
  // The floor of a copy-in/copy-out API: the two copies alone, with no work between them, against the whole
  // hand-written call (which reads the caller's array in place and allocates one array, as the copy out does).
  const inputAt = fn.ps_input(handle, k) / 8;
  const [copiesOnly, handCall] = inTurns([() => {
    abi.doubles().set(hist, inputAt);
    return abi.doubles().slice(at, at + k);
  }, () => plain.kRR.distribution(hist)], 20000);
  console.log(`copy in + copy out alone ${us(copiesOnly)} = ${(copiesOnly / handCall).toFixed(2)}x the hand-written k-RR distribution() (${us(handCall)}): what is left for the WebAssembly call to stay at 1x`);
  fn.ps_delete(0, handle);
}
console.log(`\nworst ratio to the hand-written JS at k >= 100: ${Math.max(...ratiosAt100Plus).toFixed(2)}x (target <= 1)`);
