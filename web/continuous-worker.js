// The Web Worker of the continuous view (continuous.html): every density, privatized density, divergence and
// private point the page shows is computed here, by the public privsample API (grid2d, densities,
// continuousSampler, divergence). The page posts { id, type, spec, ... } and gets back
// { id, ok: true, result } or { id, ok: false, error }; a long run also posts { id, progress } messages.
//   type 'view':   { spec }                → P and Q(·|P) on the grid at spec.epsilon, their divergences, the
//                                             worst-case risks, the normaliser r_P and where P sits in the class
//   type 'sample': { spec, count }         → `count` private points of the plane (CSPRNG inside the module)
//   type 'curve':  { spec, epsilons }      → D_f(P‖Q(P)) and the worst-case risk for each ε, one progress
//                                             message per ε; a newer 'curve' (or 'cancel') aborts it
//   type 'cancel': {}                      → aborts the running curve
// spec = { n, family: 'ring' | 'laplace' | 'points', points: [[x, y], …], bandwidth, mechanism: 'local' | 'minimax',
//          prior: 'wide-ring' | 'broad-gaussian' | 'uniform', gamma, epsilon }.
// The curve yields to the event loop between ε points, so 'view' and 'sample' requests are answered while it runs.
import { init } from 'privsample/research';

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
let curveRun = 0; // the id of the curve run that may continue; older runs stop at their next ε point

function errorInfo(error) {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

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
  if (spec.prior === 'uniform') return cached(`uniform:${spec.n}`, () => new Float64Array(spec.n * spec.n).fill(1 / (spec.n * spec.n)));
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

/** Where P sits relative to the public density: min and max of p/ref over the cells (display only). */
function ratioRange(p, ref) {
  let min = Infinity;
  let max = 0;
  for (let i = 0; i < p.length; i += 1) {
    if (ref[i] <= 0) continue;
    const r = p[i] / ref[i];
    if (r < min) min = r;
    if (r > max) max = r;
  }
  return { min, max };
}

function maxOf(values) {
  let m = 0;
  for (const v of values) if (v > m) m = v;
  return m;
}

function classInfo(spec, p, ref) {
  const { min, max } = ratioRange(p, ref);
  if (spec.mechanism === 'minimax') {
    return { kind: 'minimax', c2: MINIMAX_C2, sigma: MINIMAX_SIGMA, maxRatio: max, inside: max <= MINIMAX_C2 };
  }
  return { kind: 'local', gamma: spec.gamma, minRatio: min, maxRatio: max, inside: min >= 1 / spec.gamma && max <= spec.gamma };
}

function view(ps, spec) {
  const started = performance.now();
  const p = densityOf(ps, spec);
  const sampler = samplerOf(ps, spec, spec.epsilon);
  const q = sampler.distribution(p);
  const divergences = {};
  const worst = {};
  for (const f of DIVERGENCES) {
    divergences[f] = ps.divergence(f, p, q);
    worst[f] = sampler.worstCaseRisk(f);
  }
  const info = classInfo(spec, p, referenceOf(ps, spec));
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

function sample(ps, spec, count) {
  const started = performance.now();
  const grid = gridOf(ps, spec.n);
  const p = densityOf(ps, spec);
  const sampler = samplerOf(ps, spec, spec.epsilon);
  const points = [];
  for (let i = 0; i < count; i += 1) points.push(sampler.samplePoint(grid, p));
  return { points, epsilon: spec.epsilon, ms: performance.now() - started };
}

const yieldToEvents = () => new Promise((resolve) => setTimeout(resolve, 0));

async function curve(ps, id, spec, epsilons) {
  curveRun = id;
  const started = performance.now();
  const p = densityOf(ps, spec);
  const series = Object.fromEntries(DIVERGENCES.map((f) => [f, []]));
  const worst = Object.fromEntries(DIVERGENCES.map((f) => [f, []]));
  for (let i = 0; i < epsilons.length; i += 1) {
    await yieldToEvents(); // lets 'view' / 'sample' / 'cancel' requests in between two ε points
    if (curveRun !== id) {
      const error = new Error('the run was replaced by a newer one');
      error.name = 'AbortError';
      throw error;
    }
    const sampler = samplerOf(ps, spec, epsilons[i]);
    const q = sampler.distribution(p);
    const values = {};
    const worstValues = {};
    for (const f of DIVERGENCES) {
      values[f] = ps.divergence(f, p, q);
      worstValues[f] = sampler.worstCaseRisk(f);
      series[f].push(values[f]);
      worst[f].push(worstValues[f]);
    }
    self.postMessage({ id, progress: { done: i + 1, total: epsilons.length, epsilon: epsilons[i], values, worst: worstValues } });
  }
  if (curveRun === id) curveRun = 0;
  return { n: spec.n, epsilons, series, worst, ms: performance.now() - started };
}

self.onmessage = async (event) => {
  const { id, type, spec } = event.data;
  try {
    const ps = await ready;
    let result;
    if (type === 'view') result = view(ps, spec);
    else if (type === 'sample') result = sample(ps, spec, event.data.count);
    else if (type === 'curve') result = await curve(ps, id, spec, event.data.epsilons);
    else if (type === 'cancel') {
      curveRun = 0;
      result = null;
    } else if (type === 'version') result = { version: ps.version };
    else throw new Error(`unknown request type "${type}"`);
    const transfer = result && result.p ? [result.p.buffer, result.q.buffer] : [];
    self.postMessage({ id, ok: true, result }, transfer);
  } catch (error) {
    self.postMessage({ id, ok: false, error: errorInfo(error) });
  }
};
