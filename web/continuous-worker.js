// The continuous page's Web Worker (web/rpc.js protocol): every density, privatized density, divergence and private
// point the page shows is computed here, by the public privsample API (grid2d, densities, continuousSampler,
// divergence, classMembership); this file only chooses which calls to make and packs their answers.
//   'view':    { spec }             → P and Q(·|P) on the grid at spec.epsilon, their divergences, the worst-case
//                                     risks, the normaliser r_P and where P sits in the class (ps.classMembership)
//   'sample':  { spec, count }      → `count` private points of the plane (CSPRNG inside the module)
//   'curve':   { spec, epsilons }   → D_f(P‖Q(P)) and the worst-case risk for each ε, one progress message per ε;
//                                     stops at the next ε point when the page aborts the call (its signal)
//   'version': {}                   → { version }
// spec = { n, family: 'ring' | 'laplace' | 'points', points: [[x, y], …], bandwidth, mechanism: 'local' | 'minimax',
//          prior: 'wide-ring' | 'broad-gaussian' | 'uniform', gamma, epsilon }.
// The curve yields to the event loop between ε points, so 'view' and 'sample' requests are answered while it runs.
import { init } from 'privsample/research';
import { nextTurn, serveRequests } from './rpc.js';

/** The square every density lives on: [−3, 3]², as in Park et al.'s ring experiment. */
const EXTENT = 3;
/** The Laplace mixture of the demo (three product-Laplace bumps). */
const LAPLACE = { means: [[-1.2, -0.6], [1, 0.9], [0.4, -1.3]], scale: 0.4 };
/** The minimax class: every density p <= C2·h with h = N(0, 1.5²I) truncated to the square. */
const MINIMAX_SIGMA = 1.5;
const MINIMAX_C2 = 12;
const DIVERGENCES = ['kl', 'tv', 'hellinger'];

const ready = init();
const cache = new Map(); // key → grid, density, reference or sampler (small LRU)

function cached(key, make) {
  if (cache.has(key)) {
    const value = cache.get(key);
    cache.delete(key);
    cache.set(key, value);
    return value;
  }
  const value = make();
  cache.set(key, value);
  while (cache.size > 24) cache.delete(cache.keys().next().value);
  return value;
}

function gridOf(ps, n) {
  return cached(`grid:${n}`, () => ps.grid2d({ xLo: -EXTENT, xHi: EXTENT, nx: n, yLo: -EXTENT, yHi: EXTENT, ny: n }));
}

function densityOf(ps, spec) {
  const grid = gridOf(ps, spec.n);
  if (spec.family === 'ring') return cached(`ring:${spec.n}`, () => ps.densities.ring(grid));
  if (spec.family === 'laplace') return cached(`laplace:${spec.n}`, () => ps.densities.laplaceMixture(grid, LAPLACE));
  if (spec.family === 'points') {
    const options = spec.bandwidth > 0 ? { bandwidth: spec.bandwidth } : {};
    return cached(`points:${spec.n}:${spec.bandwidth}:${JSON.stringify(spec.points)}`, () =>
      ps.densities.kernelDensity(grid, spec.points, options),
    );
  }
  throw new RangeError(`unknown family "${spec.family}"`);
}

/** The public density the mechanism is built around: the prior P0 of 'local', the reference h of 'minimax'. */
function referenceOf(ps, spec) {
  const grid = gridOf(ps, spec.n);
  if (spec.mechanism === 'minimax') {
    return cached(`h:${spec.n}`, () => ps.densities.gaussianMixture(grid, { means: [[0, 0]], sigma: MINIMAX_SIGMA }));
  }
  if (spec.prior === 'wide-ring') return cached(`wide-ring:${spec.n}`, () => ps.densities.ring(grid, { radius: 1.5, variance: 1 }));
  if (spec.prior === 'broad-gaussian') {
    return cached(`h:${spec.n}`, () => ps.densities.gaussianMixture(grid, { means: [[0, 0]], sigma: MINIMAX_SIGMA }));
  }
  if (spec.prior === 'uniform') return cached(`uniform:${spec.n}`, () => new Float64Array(spec.n * spec.n).fill(1)); // any scale
  throw new RangeError(`unknown prior "${spec.prior}"`);
}

function samplerOf(ps, spec, epsilon) {
  const reference = referenceOf(ps, spec);
  if (spec.mechanism === 'minimax') {
    return ps.continuousSampler('minimax', { epsilon, reference, c2: MINIMAX_C2 });
  }
  if (spec.mechanism === 'local') {
    return ps.continuousSampler('local', { epsilon, prior: reference, gamma: spec.gamma });
  }
  throw new RangeError(`unknown mechanism "${spec.mechanism}"`);
}

function maxOf(values) {
  let m = 0;
  for (const v of values) if (v > m) m = v;
  return m;
}

/** Where P sits relative to the class the worst-case curve is about (the library's membership rule). */
function classInfo(ps, spec, p, ref) {
  if (spec.mechanism === 'minimax') {
    const m = ps.classMembership.density(p, { reference: ref, c2: MINIMAX_C2 });
    return { kind: 'minimax', c2: MINIMAX_C2, sigma: MINIMAX_SIGMA, maxRatio: m.maxRatio, inside: m.inside };
  }
  const m = ps.classMembership.neighbourhood(p, { prior: ref, gamma: spec.gamma });
  return { kind: 'local', gamma: spec.gamma, minRatio: m.minRatio, maxRatio: m.maxRatio, inside: m.inside };
}

/** Q(·|P) of a sampler and, for each divergence, D_f(P‖Q) and the worst case over the sampler's class. */
function measure(ps, sampler, p) {
  const q = sampler.distribution(p);
  const values = {};
  const worst = {};
  for (const f of DIVERGENCES) {
    values[f] = ps.divergence(f, p, q);
    worst[f] = sampler.worstCaseRisk(f);
  }
  return { q, values, worst };
}

function view(ps, { spec }) {
  const started = performance.now();
  const p = densityOf(ps, spec);
  const sampler = samplerOf(ps, spec, spec.epsilon);
  const { q, values: divergences, worst } = measure(ps, sampler, p);
  const info = classInfo(ps, spec, p, referenceOf(ps, spec));
  return {
    n: spec.n,
    epsilon: spec.epsilon,
    p: Float32Array.from(p),
    q: Float32Array.from(q),
    pMax: maxOf(p),
    qMax: maxOf(q),
    normaliser: sampler.normaliser(p),
    guarantee: sampler.guarantee,
    divergences,
    worst,
    classInfo: info,
    ms: performance.now() - started,
  };
}

function sample(ps, { spec, count }) {
  const started = performance.now();
  const grid = gridOf(ps, spec.n);
  const p = densityOf(ps, spec);
  const sampler = samplerOf(ps, spec, spec.epsilon);
  const points = [];
  for (let i = 0; i < count; i += 1) points.push(sampler.samplePoint(grid, p));
  return { points, epsilon: spec.epsilon, ms: performance.now() - started };
}

async function curve(ps, { spec, epsilons }, { progress, signal }) {
  const started = performance.now();
  const p = densityOf(ps, spec);
  const series = Object.fromEntries(DIVERGENCES.map((f) => [f, []]));
  const worst = Object.fromEntries(DIVERGENCES.map((f) => [f, []]));
  for (let i = 0; i < epsilons.length; i += 1) {
    await nextTurn(); // lets 'view' / 'sample' requests and an abort in between two ε points
    signal.throwIfAborted();
    const { values, worst: worstValues } = measure(ps, samplerOf(ps, spec, epsilons[i]), p);
    for (const f of DIVERGENCES) {
      series[f].push(values[f]);
      worst[f].push(worstValues[f]);
    }
    progress({ done: i + 1, total: epsilons.length, epsilon: epsilons[i], values, worst: worstValues });
  }
  return { n: spec.n, epsilons, series, worst, ms: performance.now() - started };
}

serveRequests(ready, { view, sample, curve, version: (ps) => ({ version: ps.version }) }, {
  transferOf: (result) => (result && result.p ? [result.p.buffer, result.q.buffer] : []),
});
