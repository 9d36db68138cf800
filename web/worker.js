// The demo's Web Worker: every number the page shows is computed here, by the public privsample API.
// The page posts requests { id, type, ... } and gets back { id, ok: true, result } or { id, ok: false, error }.
//   type 'update': { hist, epsilon, f } → Q*(·|P) at ε, P normalised, and the divergence-versus-ε curve
//   type 'sample': { hist, epsilon }    → one private category index (CSPRNG inside the module)
import { init } from 'privsample';

const MECHANISM = 'minimax';
const GRID_POINTS = 60;
const GRID_MIN_LOG10 = -2; // ε = 0.01
const GRID_MAX_LOG10 = 1; //  ε = 10

// ~60 log-spaced privacy budgets from 0.01 to 10 (the x values of the curve; no mechanism maths).
const EPSILON_GRID = Array.from({ length: GRID_POINTS }, (_, i) =>
  Number((10 ** (GRID_MIN_LOG10 + ((GRID_MAX_LOG10 - GRID_MIN_LOG10) * i) / (GRID_POINTS - 1))).toPrecision(6)),
);

const ready = init();
let curveCache = { key: '', curve: null };

function errorInfo(error) {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

// P as probabilities for the bar chart (the input, shown side by side with the output; the library
// normalises internally the same way). Only called after the library accepted the histogram.
function normalise(hist) {
  let total = 0;
  for (const c of hist) total += c;
  return hist.map((c) => c / total);
}

// The divergence curve depends on the histogram and f only, not on the current ε: cache it.
function divergenceCurve(ps, hist, f) {
  const key = `${f}|${hist.join(',')}`;
  if (curveCache.key === key) return curveCache.curve;
  const k = hist.length;
  const worst = [];
  const user = [];
  for (const epsilon of EPSILON_GRID) {
    const s = ps.sampler(MECHANISM, { epsilon });
    worst.push(s.worstCaseRisk(f, k));
    user.push(ps.divergence(f, hist, s.distribution(hist)));
  }
  const curve = { epsilon: EPSILON_GRID, worst, user };
  curveCache = { key, curve };
  return curve;
}

function update(ps, { hist, epsilon, f }) {
  const s = ps.sampler(MECHANISM, { epsilon });
  const q = s.distribution(hist); // validates hist: RangeError / TypeError with the library's message
  const curve = divergenceCurve(ps, hist, f);
  return {
    epsilon,
    f,
    k: hist.length,
    p: normalise(hist),
    q: Array.from(q),
    normaliser: s.normaliser(hist),
    guarantee: { ...s.guarantee },
    current: { epsilon, worst: s.worstCaseRisk(f, hist.length), user: ps.divergence(f, hist, q) },
    curve,
    version: ps.version,
  };
}

function sample(ps, { hist, epsilon }) {
  const s = ps.sampler(MECHANISM, { epsilon });
  return { index: s.sample(hist), epsilon, guarantee: { ...s.guarantee } };
}

self.addEventListener('message', async (event) => {
  const { id, type, ...request } = event.data;
  let ps;
  try {
    ps = await ready;
  } catch (error) {
    const info = errorInfo(error);
    self.postMessage({ id, ok: false, fatal: true, error: { ...info, message: `could not load the privsample module: ${info.message}` } });
    return;
  }
  try {
    let result;
    if (type === 'update') result = update(ps, request);
    else if (type === 'sample') result = sample(ps, request);
    else throw new TypeError(`unknown request type '${type}'`);
    self.postMessage({ id, ok: true, result });
  } catch (error) {
    self.postMessage({ id, ok: false, error: errorInfo(error) });
  }
});
