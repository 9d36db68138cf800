// The continuous view of the demo (continuous.html): a 2-D density P on [−3, 3]², its privatized Q(·|P) as two
// heatmaps, private points drawn on the map, and the divergence-versus-ε chart. Page code only collects input
// and draws; every number comes from the privsample API, called in a Web Worker (continuous-worker.js).
import {
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  Tooltip,
} from 'chart.js';
import { applyChartTheme } from './theme.js';
import { formatEpsilon, formatNumber } from './format.js';

Chart.register(Legend, LinearScale, LineController, LineElement, LogarithmicScale, PointElement, Tooltip);
applyChartTheme(Chart); // light or dark, from the page's CSS (theme.js)

const EXTENT = 3; // the square [−3, 3]² (the worker's grid)
const MAX_POINTS = 2000;
/** Log-spaced ε grid of the curve, 0.01 to 10 (x values only; no mechanism maths). */
const CURVE_POINTS = 31;
const CURVE_EPSILONS = Array.from({ length: CURVE_POINTS }, (_, i) => Number((10 ** (-2 + (3 * i) / (CURVE_POINTS - 1))).toPrecision(6)));
const F_STYLE = {
  kl: { label: 'KL', color: '#2274a5' },
  tv: { label: 'TV', color: '#e07a1f' },
  hellinger: { label: 'H²', color: '#2e8b57' },
};

const EXPLAIN = {
  local:
    'Local clip sampler (Ghoukasian, Lee, Asoodeh): clips P/r into a box around the public prior P0; ε-LDP for every P, and locally minimax-optimal for densities within a factor γ of P0 (the dashed curves are the worst case over them).',
  minimax:
    'Minimax clip sampler (Park, Asoodeh, Lee, Thm 3.3) for the class p ≤ 12·h, h = N(0, 1.5²I) on the square: it holds the ring and the Laplace mixture (dashed: the worst case over that class); ε-LDP for every P, even one outside the class.',
};

const el = {
  app: document.getElementById('app'),
  status: document.getElementById('status'),
  version: document.getElementById('version'),
  family: document.getElementById('family'),
  grid: document.getElementById('grid-size'),
  pointsPanel: document.getElementById('points-panel'),
  points: document.getElementById('points'),
  bandwidth: document.getElementById('bandwidth'),
  clearPoints: document.getElementById('clear-points'),
  pointsCount: document.getElementById('points-count'),
  densityError: document.getElementById('density-error'),
  mechanism: document.getElementById('mechanism'),
  localRow: document.getElementById('local-row'),
  prior: document.getElementById('prior'),
  gamma: document.getElementById('gamma'),
  explain: document.getElementById('mechanism-explain'),
  optionsError: document.getElementById('options-error'),
  slider: document.getElementById('epsilon'),
  epsilonValue: document.getElementById('epsilon-value'),
  guarantee: document.getElementById('guarantee'),
  mapP: document.getElementById('map-p'),
  mapQ: document.getElementById('map-q'),
  clickHint: document.getElementById('click-hint'),
  mapSummary: document.getElementById('map-summary'),
  sample1: document.getElementById('sample-1'),
  sample20: document.getElementById('sample-20'),
  clearSamples: document.getElementById('clear-samples'),
  sampleSummary: document.getElementById('sample-summary'),
  curveCard: document.querySelector('[data-testid="curve-card"]'),
  progress: document.getElementById('curve-progress'),
  curveStatus: document.getElementById('curve-status'),
  curveCanvas: document.getElementById('curve-chart'),
};

const state = {
  epsilon: 1,
  spec: null, // the last valid spec (without ε)
  view: null, // the last view answer { p, q, … }
  samples: [], // private points drawn for the current view
  ready: false,
};

// ---------------------------------------------------------------------------------------------
// The worker: promise-based calls; progress messages go to the call's onProgress.
const worker = new Worker(new URL('./continuous-worker.js', import.meta.url), { type: 'module' });
const calls = new Map();
let nextId = 1;

worker.addEventListener('message', (event) => {
  const { id, ok, result, error, progress } = event.data;
  const entry = calls.get(id);
  if (!entry) return;
  if (progress) {
    entry.onProgress?.(progress);
    return;
  }
  calls.delete(id);
  if (ok) entry.resolve(result);
  else entry.reject(Object.assign(new Error(error.message), { name: error.name }));
});
worker.addEventListener('error', (event) => {
  showStatus('error', `The worker failed to start: ${event.message || 'unknown error'}`);
});

function call(type, payload, onProgress) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    calls.set(id, { resolve, reject, onProgress });
    worker.postMessage({ id, type, ...payload });
  });
}

function showStatus(kind, text) {
  el.status.dataset.state = kind;
  el.status.textContent = text;
}

function showError(box, message) {
  box.hidden = !message;
  box.textContent = message ?? '';
}

// ---------------------------------------------------------------------------------------------
// Reading the controls.

/** "x, y" pairs, one per line (also ';'-separated); returns { points } or { error }. */
function parsePoints(text) {
  const points = [];
  const entries = text.split(/[\n;]/);
  for (let i = 0; i < entries.length; i += 1) {
    const line = entries[i].trim();
    if (line === '') continue;
    const parts = line.split(/[\s,]+/).filter((s) => s !== '');
    const values = parts.map(Number);
    if (parts.length !== 2 || !values.every(Number.isFinite)) {
      return { error: `line ${i + 1} ("${line.slice(0, 40)}"): expected two numbers x, y` };
    }
    points.push(values);
  }
  if (points.length > MAX_POINTS) return { error: `${points.length} points: at most ${MAX_POINTS}` };
  return { points };
}

function epsilonFromSlider() {
  return Number((10 ** (Number(el.slider.value) / 100)).toPrecision(3));
}

/** The spec of the controls (without ε), or null with the reason shown. */
function readSpec() {
  const family = el.family.value;
  const spec = { n: Number(el.grid.value), family, mechanism: el.mechanism.value, points: [], bandwidth: 0, prior: el.prior.value, gamma: 4 };
  let densityError = null;
  let optionsError = null;
  if (family === 'points') {
    const parsed = parsePoints(el.points.value);
    if (parsed.error) densityError = parsed.error;
    else if (parsed.points.length === 0) densityError = 'No points yet: click on the left map or paste x, y pairs.';
    else spec.points = parsed.points;
    el.pointsCount.textContent = parsed.points ? `${parsed.points.length} point${parsed.points.length === 1 ? '' : 's'}` : '';
    const bandwidth = Number(el.bandwidth.value.trim() === '' ? '0' : el.bandwidth.value);
    if (!Number.isFinite(bandwidth) || bandwidth < 0) densityError ??= `bandwidth "${el.bandwidth.value}": enter 0 (Scott's rule) or a positive number`;
    else spec.bandwidth = bandwidth;
  }
  if (spec.mechanism === 'local') {
    const gamma = Number(el.gamma.value);
    if (!(gamma > 1) || !Number.isFinite(gamma)) optionsError = `γ = "${el.gamma.value}": enter a number above 1`;
    else spec.gamma = gamma;
  }
  showError(el.densityError, densityError);
  showError(el.optionsError, optionsError);
  return densityError || optionsError ? null : spec;
}

// ---------------------------------------------------------------------------------------------
// Heatmaps: cell (ix, iy) is index iy·n + ix, y grows upwards (row 0 of the image is the top, iy = n − 1).

const COLORMAP = [
  [13, 8, 48],
  [59, 15, 112],
  [140, 41, 129],
  [222, 73, 104],
  [254, 159, 109],
  [252, 253, 191],
];

function colour(t) {
  const x = Math.min(1, Math.max(0, t)) * (COLORMAP.length - 1);
  const i = Math.min(COLORMAP.length - 2, Math.floor(x));
  const f = x - i;
  const a = COLORMAP[i];
  const b = COLORMAP[i + 1];
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
}

const LUT = Array.from({ length: 256 }, (_, i) => colour(i / 255));

function toPixel(canvas, x, y) {
  return [((x + EXTENT) / (2 * EXTENT)) * canvas.width, ((EXTENT - y) / (2 * EXTENT)) * canvas.height];
}

function drawHeatmap(canvas, masses, n, scale, markers) {
  const off = document.createElement('canvas');
  off.width = n;
  off.height = n;
  const octx = off.getContext('2d');
  const image = octx.createImageData(n, n);
  const data = image.data;
  const inv = scale > 0 ? 1 / Math.sqrt(scale) : 0;
  for (let iy = 0; iy < n; iy += 1) {
    const row = (n - 1 - iy) * n;
    for (let ix = 0; ix < n; ix += 1) {
      const v = masses[iy * n + ix];
      const c = LUT[Math.min(255, Math.round(Math.sqrt(v > 0 ? v : 0) * inv * 255))];
      const o = (row + ix) * 4;
      data[o] = c[0];
      data[o + 1] = c[1];
      data[o + 2] = c[2];
      data[o + 3] = 255;
    }
  }
  octx.putImageData(image, 0, 0);
  const ctx = canvas.getContext('2d');
  ctx.imageSmoothingEnabled = n < canvas.width;
  ctx.drawImage(off, 0, 0, canvas.width, canvas.height);
  // Faint axes through the origin.
  ctx.strokeStyle = 'rgba(255, 255, 255, 0.25)';
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(canvas.width / 2, 0);
  ctx.lineTo(canvas.width / 2, canvas.height);
  ctx.moveTo(0, canvas.height / 2);
  ctx.lineTo(canvas.width, canvas.height / 2);
  ctx.stroke();
  for (const m of markers) {
    const [px, py] = toPixel(canvas, m.x, m.y);
    ctx.lineWidth = 3;
    ctx.strokeStyle = 'rgba(0, 0, 0, 0.8)';
    marker(ctx, m.kind, px, py);
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = '#ffffff';
    marker(ctx, m.kind, px, py);
  }
}

function marker(ctx, kind, px, py) {
  ctx.beginPath();
  if (kind === 'cross') {
    const r = 6;
    ctx.moveTo(px - r, py - r);
    ctx.lineTo(px + r, py + r);
    ctx.moveTo(px + r, py - r);
    ctx.lineTo(px - r, py + r);
  } else {
    ctx.arc(px, py, 4, 0, 2 * Math.PI);
  }
  ctx.stroke();
}

function drawMaps() {
  const v = state.view;
  if (!v) return;
  const scale = Math.max(v.pMax, v.qMax);
  const userPoints = state.spec?.family === 'points' ? state.spec.points.map(([x, y]) => ({ x, y, kind: 'dot' })) : [];
  drawHeatmap(el.mapP, v.p, v.n, scale, userPoints);
  drawHeatmap(el.mapQ, v.q, v.n, scale, state.samples.map(([x, y]) => ({ x, y, kind: 'cross' })));
  el.mapP.dataset.state = JSON.stringify({ n: v.n, family: state.spec.family, points: userPoints.length });
  el.mapQ.dataset.state = JSON.stringify({ n: v.n, epsilon: v.epsilon, mechanism: state.spec.mechanism, samples: state.samples });
}

// ---------------------------------------------------------------------------------------------
// The view (P, Q at ε): at most one request in flight, the newest one waiting.
let viewInFlight = false;
let viewPending = null;
let sampleInFlight = false;

function setBusy() {
  const busy = viewInFlight || viewPending !== null || sampleInFlight || !state.ready;
  el.app.dataset.busy = String(busy);
  const canSample = state.ready && state.view !== null && !sampleInFlight && state.spec !== null;
  el.sample1.disabled = !canSample;
  el.sample20.disabled = !canSample;
}

function requestView() {
  if (!state.spec) {
    viewPending = null;
    setBusy();
    return;
  }
  viewPending = { ...state.spec, epsilon: state.epsilon };
  setBusy();
  if (!viewInFlight) pumpView();
}

async function pumpView() {
  while (viewPending) {
    const spec = viewPending;
    viewPending = null;
    viewInFlight = true;
    setBusy();
    try {
      const result = await call('view', { spec });
      if (!viewPending) showView(spec, result);
    } catch (error) {
      if (!viewPending) {
        state.view = null;
        showError(spec.family === 'points' ? el.densityError : el.optionsError, `${error.name}: ${error.message}`);
      }
    }
    viewInFlight = false;
  }
  setBusy();
}

function guaranteeText(g) {
  if (g?.notion === 'pure-ldp') {
    return `Pure ${formatEpsilon(g.epsilon)}-LDP: for any two densities P and P′, the probability of releasing a point in any region differs by at most a factor e^${formatEpsilon(g.epsilon)} = ${formatNumber(Math.exp(g.epsilon))}.`;
  }
  return JSON.stringify(g);
}

function showView(spec, result) {
  const changed = !state.view || JSON.stringify({ ...spec, epsilon: 0 }) !== JSON.stringify({ ...state.viewSpec, epsilon: 0 }) || state.view.epsilon !== result.epsilon;
  if (changed) state.samples = []; // points drawn from another Q
  state.view = result;
  state.viewSpec = spec;
  drawMaps();
  el.guarantee.textContent = guaranteeText(result.guarantee);
  const d = result.divergences;
  const w = result.worst;
  const c = result.classInfo;
  let where;
  if (c.kind === 'minimax') {
    where = c.inside
      ? `P lies in the class (max p/h = ${formatNumber(c.maxRatio)} ≤ ${c.c2}).`
      : `P is outside the class (max p/h = ${formatNumber(c.maxRatio)} > ${c.c2}): still ε-LDP, but the worst-case bound does not cover it.`;
  } else {
    where = c.inside
      ? `P lies in N_γ(P0) (P/P0 within [${formatNumber(c.minRatio)}, ${formatNumber(c.maxRatio)}]).`
      : `P is outside N_γ(P0) (P/P0 ranges over [${formatNumber(c.minRatio)}, ${formatNumber(c.maxRatio)}]): still ε-LDP, the worst-case curve does not cover it.`;
  }
  const r = result.normaliser;
  el.mapSummary.textContent =
    `At ε = ${formatEpsilon(result.epsilon)}: KL ${formatNumber(d.kl)} (worst ${formatNumber(w.kl)}), ` +
    `TV ${formatNumber(d.tv)}, H² ${formatNumber(d.hellinger)}; r_P = ${r === null ? '—' : formatNumber(r)}. ${where} ` +
    `${result.n} × ${result.n} cells, ${Math.round(result.ms)} ms.`;
  el.sampleSummary.textContent = state.samples.length ? el.sampleSummary.textContent : 'No private point drawn yet.';
  if (!state.ready) {
    state.ready = true;
  }
  updateCurrentMarker();
}

// ---------------------------------------------------------------------------------------------
// Private points.
async function drawSamples(count) {
  if (!state.spec || sampleInFlight) return;
  sampleInFlight = true;
  setBusy();
  const spec = { ...state.spec, epsilon: state.epsilon };
  try {
    const result = await call('sample', { spec, count });
    if (JSON.stringify(spec) === JSON.stringify({ ...state.spec, epsilon: state.epsilon })) {
      state.samples.push(...result.points);
      drawMaps();
      const last = result.points.at(-1);
      el.sampleSummary.textContent =
        `${state.samples.length} private point${state.samples.length === 1 ? '' : 's'} drawn (${state.samples.length}·ε = ` +
        `${formatEpsilon(state.samples.length * result.epsilon)} spent); last: (${last[0].toFixed(3)}, ${last[1].toFixed(3)}).`;
    }
  } catch (error) {
    showError(el.optionsError, `${error.name}: ${error.message}`);
  }
  sampleInFlight = false;
  setBusy();
}

// ---------------------------------------------------------------------------------------------
// Divergence versus ε: one run per spec (it does not depend on the current ε); a newer run replaces it.
let chart = null;
let curve = null; // { epsilons, series, worst, done, total }
let curveKey = '';

function chartDatasets() {
  const datasets = [];
  const eps = curve?.epsilons ?? [];
  for (const [f, style] of Object.entries(F_STYLE)) {
    const user = curve ? curve.series[f] : [];
    const worst = curve ? curve.worst[f] : [];
    datasets.push({
      label: `${style.label} (yours)`,
      data: user.map((y, i) => ({ x: eps[i], y })),
      borderColor: style.color,
      backgroundColor: style.color,
      borderWidth: 2.2,
      pointRadius: 0,
    });
    datasets.push({
      label: `${style.label} worst case`,
      data: worst.map((y, i) => ({ x: eps[i], y })),
      borderColor: style.color,
      backgroundColor: style.color,
      borderDash: [6, 4],
      borderWidth: 1.4,
      pointRadius: 0,
    });
  }
  let top = 0;
  if (curve) for (const f of Object.keys(F_STYLE)) for (const v of [...curve.series[f], ...curve.worst[f]]) if (v > top) top = v;
  datasets.push({
    label: 'current ε',
    data: [{ x: state.epsilon, y: 0 }, { x: state.epsilon, y: top || 1 }],
    borderColor: '#444',
    backgroundColor: '#444',
    borderWidth: 1,
    borderDash: [2, 3],
    pointRadius: 0,
  });
  return datasets;
}

function renderChart() {
  if (!chart) {
    chart = new Chart(el.curveCanvas, {
      type: 'line',
      data: { datasets: chartDatasets() },
      options: {
        animation: false,
        maintainAspectRatio: false,
        parsing: true,
        interaction: { mode: 'nearest', intersect: false },
        scales: {
          x: {
            type: 'logarithmic',
            min: 0.01,
            max: 10,
            title: { display: true, text: 'ε (log scale)' },
            ticks: {
              autoSkip: false,
              maxRotation: 0,
              callback: (value) => {
                const m = value / 10 ** Math.floor(Math.log10(value) + 1e-9);
                return [1, 3].some((d) => Math.abs(m - d) < 1e-6) ? formatEpsilon(value) : '';
              },
            },
          },
          y: { type: 'linear', min: 0, title: { display: true, text: 'divergence D_f(P‖Q)' } },
        },
        plugins: {
          legend: { position: 'bottom', labels: { boxWidth: 18, filter: (item) => item.text !== 'current ε' } },
          tooltip: { callbacks: { label: (ctx) => `${ctx.dataset.label}: ${formatNumber(ctx.parsed.y)} at ε = ${formatEpsilon(ctx.parsed.x)}` } },
        },
      },
    });
  } else {
    chart.data.datasets = chartDatasets();
    chart.update('none');
  }
  el.curveCanvas.dataset.chart = JSON.stringify({
    n: curve?.n ?? null,
    mechanism: curve?.mechanism ?? null,
    done: curve?.done ?? 0,
    total: curve?.total ?? 0,
    epsilons: curve?.epsilons ?? [],
    series: curve?.series ?? {},
    worst: curve?.worst ?? {},
    current: state.epsilon,
  });
}

function updateCurrentMarker() {
  renderChart();
}

async function requestCurve() {
  if (!state.spec) return;
  const key = JSON.stringify(state.spec);
  if (key === curveKey) return;
  curveKey = key;
  const spec = state.spec;
  const started = performance.now();
  curve = {
    n: spec.n,
    mechanism: spec.mechanism,
    epsilons: [],
    series: { kl: [], tv: [], hellinger: [] },
    worst: { kl: [], tv: [], hellinger: [] },
    done: 0,
    total: CURVE_EPSILONS.length,
  };
  const mine = curve;
  el.curveCard.dataset.state = 'running';
  el.progress.max = CURVE_EPSILONS.length;
  el.progress.value = 0;
  el.curveStatus.textContent = `computing ε 1 of ${CURVE_EPSILONS.length} on ${spec.n} × ${spec.n} cells…`;
  renderChart();
  try {
    const result = await call('curve', { spec, epsilons: CURVE_EPSILONS }, (progress) => {
      if (curve !== mine) return;
      mine.epsilons.push(progress.epsilon);
      for (const f of Object.keys(F_STYLE)) {
        mine.series[f].push(progress.values[f]);
        mine.worst[f].push(progress.worst[f]);
      }
      mine.done = progress.done;
      el.progress.value = progress.done;
      el.curveStatus.textContent = `ε ${progress.done} of ${progress.total} (ε = ${formatEpsilon(progress.epsilon)}) on ${spec.n} × ${spec.n} cells…`;
      renderChart();
    });
    if (curve !== mine) return;
    Object.assign(mine, { epsilons: result.epsilons, series: result.series, worst: result.worst, done: result.epsilons.length });
    el.curveCard.dataset.state = 'done';
    el.curveStatus.textContent = `${result.epsilons.length} values of ε on ${spec.n} × ${spec.n} cells in ${((performance.now() - started) / 1000).toFixed(2)} s.`;
    renderChart();
  } catch (error) {
    if (error.name === 'AbortError' || curve !== mine) return;
    el.curveCard.dataset.state = 'error';
    el.curveStatus.textContent = `${error.name}: ${error.message}`;
    curveKey = '';
  }
}

// ---------------------------------------------------------------------------------------------
// Wiring.
function onSpecChange() {
  el.pointsPanel.hidden = el.family.value !== 'points';
  el.clickHint.hidden = el.family.value !== 'points';
  el.mapP.classList.toggle('clickable', el.family.value === 'points');
  el.localRow.hidden = el.mechanism.value !== 'local';
  el.explain.textContent = EXPLAIN[el.mechanism.value];
  state.spec = readSpec();
  requestView();
  if (state.spec) requestCurve();
  else if (curveKey !== '') {
    // Nothing valid to plot: stop the running curve.
    curveKey = '';
    curve = null;
    call('cancel', {}).catch(() => {});
    el.curveCard.dataset.state = 'idle';
    el.progress.value = 0;
    el.curveStatus.textContent = '';
    renderChart();
  }
}

function onEpsilon() {
  state.epsilon = epsilonFromSlider();
  el.epsilonValue.textContent = `ε = ${formatEpsilon(state.epsilon)}`;
  requestView();
  updateCurrentMarker();
}

let typingTimer = null;
function onTyping() {
  clearTimeout(typingTimer);
  typingTimer = setTimeout(onSpecChange, 250);
}

el.family.addEventListener('change', onSpecChange);
el.grid.addEventListener('change', onSpecChange);
el.mechanism.addEventListener('change', onSpecChange);
el.prior.addEventListener('change', onSpecChange);
el.gamma.addEventListener('input', onTyping);
el.bandwidth.addEventListener('input', onTyping);
el.points.addEventListener('input', onTyping);
el.slider.addEventListener('input', onEpsilon);
el.clearPoints.addEventListener('click', () => {
  el.points.value = '';
  onSpecChange();
});
el.sample1.addEventListener('click', () => drawSamples(1));
el.sample20.addEventListener('click', () => drawSamples(20));
el.clearSamples.addEventListener('click', () => {
  state.samples = [];
  drawMaps();
  el.sampleSummary.textContent = 'No private point drawn yet.';
});
el.mapP.addEventListener('click', (event) => {
  if (el.family.value !== 'points') return;
  const rect = el.mapP.getBoundingClientRect();
  const x = -EXTENT + ((event.clientX - rect.left) / rect.width) * 2 * EXTENT;
  const y = EXTENT - ((event.clientY - rect.top) / rect.height) * 2 * EXTENT;
  const text = el.points.value.replace(/\s+$/, '');
  el.points.value = `${text}${text ? '\n' : ''}${x.toFixed(2)}, ${y.toFixed(2)}`;
  clearTimeout(typingTimer);
  onSpecChange();
});

call('version', {})
  .then(({ version }) => {
    el.version.textContent = version;
    showStatus('ready', `Ready: privsample ${version} (WebAssembly, in a Web Worker)`);
  })
  .catch((error) => showStatus('error', `The privsample module failed to load: ${error.message}`));

onEpsilon();
onSpecChange();
