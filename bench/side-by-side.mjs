// npm run bench -- side-by-side [largest k] [seconds per row]: privsample against the algorithm the papers published and
// what a developer would write, in one program, one run. Tables (medians of calls timed in turns, A, B, C, A, …, so
// a drift of this shared machine's speed falls on every column alike; ratios are privsample / the other):
//   1. distribution(): native (bench/side_by_side_bench.cpp: the API, into a kept buffer, the solver alone, one pass,
//      a C++ port of Park et al.'s numpy loop) and, in Node, the client and research entries (a new array per call,
//      and distributionInto a kept one), a JS port of the numpy loop, one pass in JS and hand-written water-filling.
//      Peak memory of one native call at the largest k (dist, into, the solver alone).
//   2. Draws: sampleMany(hist, n) per draw against a JS alias sampler (Vose, built from the same q, CSPRNG words).
//   3. sample() at the largest k against distribution(), both entries.
//   4. Small calls: one sample() through the client entry against allocation-free hand-written JS at k = 2 … 100.
// Python with numpy is used for the authors' own loop where it is installed; otherwise the ports stand for it.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { init as initClient } from '../bindings/js/privsample.mjs';
import { init as initResearch } from '../bindings/js/research.mjs';
import { cryptoWords } from './crypto-words.mjs';

const largest = Number(process.argv[2] ?? 1e7);
const rowSeconds = Number(process.argv[3] ?? 0.6);
const client = await initClient();
const research = await initResearch();

const load = () => loadavg().map((v) => v.toFixed(2)).join(' ');
const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD']).toString().trim();
  } catch {
    return '?';
  }
})();
console.log(`privsample side-by-side bench, ${new Date().toISOString().slice(0, 10)}, commit ${commit}, node ${process.version}, ` +
  `${cpus().length} × ${cpus()[0]?.model ?? '?'}; load average at start: ${load()}`);
const numpy = spawnSync('python3', ['-c', 'import numpy'], { stdio: 'ignore' }).status === 0;
console.log(numpy ? 'python3 with numpy found: not used by this version of the bench (ports below)' : 'python3 has no numpy here: the authors\' loop is timed as faithful ports (C++ natively, JS in Node)');

// ---- inputs and helpers ------------------------------------------------------------------------------------------
let state = 0x2545f4914f6cdd1dn;
const uniform = () => {
  state = (state * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n);
  return Number(state >> 11n) / 2 ** 53;
};
// Dirichlet(0.5)-like: squared normals (a Gamma(1/2) variate is half a squared standard normal)
function histogramOf(k) {
  const h = new Float64Array(k);
  for (let i = 0; i < k; i += 1) {
    const u = Math.max(uniform(), 1e-300);
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform());
    h[i] = z * z;
  }
  return h;
}

const word = cryptoWords(16384); // 64 KiB blocks, as the module's CSPRNG buffer
const unit = () => (word() * 2 ** 21 + (word() >>> 11)) / 2 ** 53;

// Median seconds per call of each run, timed in turns; each turn a batch of calls lasting >= 20 ms.
function inTurns(runs, seconds = rowSeconds) {
  const batch = runs.map((run) => {
    const t0 = performance.now();
    run();
    const once = Math.max((performance.now() - t0) / 1000, 1e-7);
    return Math.max(1, Math.ceil(0.02 / once));
  });
  const times = runs.map(() => []);
  const start = performance.now();
  for (let round = 0; round < 5 || ((performance.now() - start) / 1000 < seconds && round < 200); round += 1) {
    runs.forEach((run, r) => {
      const t0 = performance.now();
      for (let i = 0; i < batch[r]; i += 1) run();
      times[r].push((performance.now() - t0) / 1000 / batch[r]);
    });
  }
  return times.map((t) => t.sort((a, b) => a - b)[t.length >> 1]);
}
const time = (s) => (s >= 1 ? `${s.toFixed(2)} s` : s >= 1e-3 ? `${(s * 1e3).toFixed(2)} ms` : `${(s * 1e6).toFixed(2)} µs`);
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
const row = (cells, widths) => cells.map((c, i) => String(c).padStart(widths[i] ?? 11)).join(' ');
let sink = 0;

// ---- the papers' loop (Park et al.'s numpy code), one pass, hand-written water-filling, in JS ------------------
function authorsLoop(p, epsilon, q) {
  const k = p.length;
  const e = Math.exp(epsilon);
  const lo = 1 / (e + k - 1);
  const hi = e * lo;
  let low = 1;
  let high = (e + k - 1) / e;
  for (let step = 1; step <= 200; step += 1) {
    const r = (low + high) / 2;
    let total = 0;
    for (let i = 0; i < k; i += 1) {
      const v = Math.min(Math.max(p[i] / r, lo), hi);
      q[i] = v;
      total += v;
    }
    if (Math.abs(total - 1) <= 1e-8 + 1e-5) return step;
    if (total > 1) low = r;
    else high = r;
  }
  return 200;
}
function onePass(p) {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let i = 0;
  for (; i + 4 <= p.length; i += 4) {
    a += p[i];
    b += p[i + 1];
    c += p[i + 2];
    d += p[i + 3];
  }
  for (; i < p.length; i += 1) a += p[i];
  return a + b + c + d;
}
// Q*(x) = max(p_x/r, ℓ): sort descending, grow the set above the floor (kept buffers: no allocation per call).
function waterFilling(hist, epsilon, out, sorted) {
  const k = hist.length;
  let total = 0;
  for (let i = 0; i < k; i += 1) total += hist[i];
  const floor = 1 / (Math.exp(epsilon) + k - 1);
  for (let i = 0; i < k; i += 1) sorted[i] = hist[i] / total;
  sorted.sort();
  let top = 0;
  let r = 1;
  for (let m = 1; m <= k; m += 1) {
    top += sorted[k - m];
    r = top / (1 - (k - m) * floor);
    if (m === k || sorted[k - m - 1] / r <= floor) break;
  }
  for (let i = 0; i < k; i += 1) out[i] = Math.max(hist[i] / total / r, floor);
  return out;
}

// ---- 1. distribution() ------------------------------------------------------------------------------------------
console.log('\n1. distribution(): median time per call; ratios privsample / other (below 1: privsample faster)');
const native = spawnSync('build/native/side_by_side_bench', [String(largest), String(rowSeconds)], { encoding: 'utf8', maxBuffer: 1 << 26 });
if (native.error) {
  console.error(`cannot run build/native/side_by_side_bench (${native.error.code}): run \`npm run bench -- side-by-side\`, which builds it`);
  process.exit(1);
}
const fields = (line) => Object.fromEntries(line.trim().split(/\s+/).slice(1).map((f) => f.split('=')).map(([k, v]) => [k, Number(v)]));
const nativeRows = native.stdout.split('\n').filter((l) => l.startsWith('row ')).map(fields);
const nativeSamples = native.stdout.split('\n').filter((l) => l.startsWith('sample ')).map(fields);
if (native.status !== 0) console.log(`native bench failed: ${native.stderr}`);
console.log('native (g++ -O3): dist = MinimaxSampler.distribution (new vector), into = distribution_into (kept buffer), solver = clip_normalise_into, authors = C++ port of the numpy loop');
const w1 = [9, 5, 11, 11, 11, 11, 11, 9, 9, 9, 9, 6, 9];
console.log(row(['k', 'eps', 'dist', 'into', 'solver', 'one pass', 'authors', 'into/slv', 'into/pass', 'dist/auth', 'into/auth', 'steps', 'auth err'], w1));
for (const r of nativeRows) {
  console.log(row([r.k, r.eps, time(r.dist), time(r.into), time(r.solver), time(r.pass), time(r.authors), ratio(r.into, r.solver),
    ratio(r.into, r.pass), ratio(r.dist, r.authors), ratio(r.into, r.authors), r.steps, r.error.toExponential(1)], w1));
}
for (const mode of ['dist', 'into', 'solver']) {
  const m = spawnSync('build/native/side_by_side_bench', ['--memory', mode, String(Math.min(largest, 1e7))], { encoding: 'utf8' });
  const f = fields(m.stdout);
  if (f.after) {
    console.log(`peak memory, one native ${mode} call at k = ${f.k}: +${((f.after - f.before) / 1e6).toFixed(1)} MB over the input (${(f.input / 1e6).toFixed(0)} MB)` +
      (mode === 'into' ? ' and the kept output (the same size), allocated before' : ''));
  }
}

console.log('\nNode: client and research entries (distribution: a new Float64Array per call; into: distributionInto a kept one), JS port of the numpy loop, one pass, hand-written water-filling (sort; k <= 10^6)');
const w2 = [9, 5, 11, 11, 11, 11, 11, 11, 11, 10, 10, 10, 10];
console.log(row(['k', 'eps', 'client', 'cl. into', 'research', 're. into', 'authors', 'one pass', 'hand', 'into/pass', 'into/auth', 'into/hand', 'native'], w2));
for (let k = 100; k <= largest; k *= 10) {
  const hist = histogramOf(k);
  let total = 0;
  for (const v of hist) total += v;
  const p = hist.map((v) => v / total);
  const out = new Float64Array(k);
  const q = new Float64Array(k);
  const sorted = new Float64Array(k);
  for (const epsilon of [0.1, 1, 5]) {
    const c = client.sampler('minimax', { epsilon });
    const r = research.sampler('minimax', { epsilon });
    const runs = [
      () => { sink += c.distribution(hist)[0]; },
      () => { sink += c.distributionInto(hist, out)[0]; },
      () => { sink += r.distribution(hist)[0]; },
      () => { sink += r.distributionInto(hist, out)[0]; },
      () => { sink += authorsLoop(p, epsilon, q); },
      () => { sink += onePass(p); },
    ];
    if (k <= 1e6) runs.push(() => { sink += waterFilling(hist, epsilon, q, sorted)[0]; });
    const t = inTurns(runs, k >= 1e7 ? 2 * rowSeconds : rowSeconds);
    const n = nativeRows.find((x) => x.k === k && x.eps === epsilon);
    console.log(row([k, epsilon, time(t[0]), time(t[1]), time(t[2]), time(t[3]), time(t[4]), time(t[5]), t[6] ? time(t[6]) : '—',
      ratio(t[1], t[5]), ratio(t[1], t[4]), t[6] ? ratio(t[1], t[6]) : '—', n ? time(n.into) : '—'], w2));
    c.dispose();
    r.dispose();
  }
}

// ---- 2. draws ---------------------------------------------------------------------------------------------------
console.log('\n2. sampleMany(hist, n): time per draw (the table built once per call, then n draws) against a JS alias sampler');
console.log('   (Vose, built from the same q = distribution(hist), CSPRNG words); ratio = alias / privsample (>= 1: privsample as fast or faster)');
function aliasSampler(q, n, out) {
  const k = q.length;
  const prob = new Float64Array(k);
  const alias = new Uint32Array(k);
  const small = new Uint32Array(k);
  const large = new Uint32Array(k);
  let ns = 0;
  let nl = 0;
  for (let i = 0; i < k; i += 1) {
    prob[i] = q[i] * k;
    if (prob[i] < 1) small[ns++] = i;
    else large[nl++] = i;
  }
  while (ns > 0 && nl > 0) {
    const s = small[--ns];
    const l = large[--nl];
    alias[s] = l;
    prob[l] = prob[l] + prob[s] - 1;
    if (prob[l] < 1) small[ns++] = l;
    else large[nl++] = l;
  }
  while (nl > 0) prob[large[--nl]] = 1;
  while (ns > 0) prob[small[--ns]] = 1;
  for (let d = 0; d < n; d += 1) {
    const u = unit() * k;
    const i = Math.floor(u);
    out[d] = u - i < prob[i] ? i : alias[i];
  }
  return out;
}
const w3 = [9, 5, 9, 12, 12, 9, 12, 12, 9];
console.log(row(['k', 'eps', 'n', 'client', 'alias (JS)', 'ratio', 'roo client', 'ds-roo cl.', ''], w3));
const drawRatios = [];
for (const k of [10, 1000, 1e6].filter((v) => v <= largest)) {
  const hist = histogramOf(k);
  const counts = hist.map((v) => Math.round(v * 10));
  counts[0] += 1;
  const records = counts.reduce((a, b) => a + b, 0);
  const n = k >= 1e6 ? 1e6 : 1e5;
  const out = new Uint32Array(n);
  for (const epsilon of [0.1, 1, 5, 10]) {
    const s = client.sampler('minimax', { epsilon });
    const q = s.distribution(hist);
    const roo = client.sampler('roo', { epsilon, records });
    const dsroo = client.sampler('ds-roo', { epsilon, records });
    const t = inTurns([
      () => { sink += s.sampleMany(hist, n)[0]; },
      () => { sink += aliasSampler(q, n, out)[0]; },
      () => { sink += roo.sampleMany(counts, n)[0]; },
      () => { sink += dsroo.sampleMany(counts, n)[0]; },
    ], rowSeconds);
    drawRatios.push(t[1] / t[0]);
    console.log(row([k, epsilon, n, time(t[0] / n), time(t[1] / n), ratio(t[1], t[0]), time(t[2] / n), time(t[3] / n), ''], w3));
    for (const x of [s, roo, dsroo]) x.dispose();
  }
}
console.log(`   worst alias/privsample: ${Math.min(...drawRatios).toFixed(2)}× (target >= 0.5×)`);

// ---- 3. one sample() at the largest k ----------------------------------------------------------------------------
{
  const k = Math.min(largest, 1e7);
  console.log(`\n3. one sample() at k = ${k} against distribution() (ε = 1; a few calls each, in turns)`);
  const hist = histogramOf(k);
  for (const [name, ps] of [['client', client], ['research', research]]) {
    const s = ps.sampler('minimax', { epsilon: 1 });
    const [sample, dist] = inTurns([() => { sink += s.sample(hist); }, () => { sink += s.distribution(hist)[0]; }], 4 * rowSeconds);
    console.log(`   ${name.padEnd(9)} sample ${time(sample)}, distribution ${time(dist)}: ${ratio(sample, dist)} (target <= 2×)`);
    s.dispose();
  }
  for (const r of nativeSamples) console.log(`   native    k = ${r.k}: sample ${time(r.sample)}, distribution ${time(r.dist)}: ${ratio(r.sample, r.dist)}`);
}

// ---- 4. small calls ----------------------------------------------------------------------------------------------
console.log('\n4. one sample() through the client entry (sampler built once) against allocation-free hand-written JS (CSPRNG)');
const handSample = {
  linear(hist, epsilon) {
    const k = hist.length;
    let total = 0;
    for (let i = 0; i < k; i += 1) total += hist[i];
    const e = Math.exp(epsilon);
    const weight = (e - 1) / (e + k - 1);
    let u = unit();
    for (let i = 0; i < k; i += 1) {
      u -= weight * (hist[i] / total) + (1 - weight) / k;
      if (u < 0) return i;
    }
    return k - 1;
  },
  minimax(hist, epsilon, sorted) {
    const q = waterFilling(hist, epsilon, sorted.out, sorted.scratch);
    let u = unit();
    for (let i = 0; i < q.length; i += 1) {
      u -= q[i];
      if (u < 0) return i;
    }
    return q.length - 1;
  },
};
const w4 = [9, 5, 11, 11, 11, 9];
console.log(row(['mechanism', 'k', 'client', 'hand JS', 'ratio', ''], [10, 5, 11, 11, 9, 1]));
for (const mechanism of ['linear', 'minimax']) {
  for (const k of [2, 6, 100]) {
    const hist = histogramOf(k);
    const s = client.sampler(mechanism, { epsilon: 1 });
    const buffers = { out: new Float64Array(k), scratch: new Float64Array(k) };
    const [ours, hand] = inTurns([() => { sink += s.sample(hist); }, () => { sink += handSample[mechanism](hist, 1, buffers); }]);
    console.log(row([mechanism, k, time(ours), time(hand), ratio(ours, hand), ''], [10, 5, 11, 11, 9, 1]));
    s.dispose();
  }
}
void w4;
console.log(`\nload average at end: ${load()}${sink === 0.5 ? ' ' : ''}`);
