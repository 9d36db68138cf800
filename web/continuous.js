// The continuous view of the demo (continuous.html): a 2-D density P on [−3, 3]², its privatized Q(·|P) as two
// heatmaps, private points drawn on the map, and the divergence-versus-ε chart. Page code only collects input
// and draws; every number comes from the privsample API, called in a Web Worker (continuous-worker.js).
import { formatEpsilon, formatNumber } from './format.js';
import { epsilonFromSlider } from './epsilon.js';
import { keepControls } from './keep.js';
import { CONTINUOUS_EXPLAIN } from './labels.js';
import { createWorkerClient, isAbort } from './rpc.js';
import { mountCurve } from './continuous/curve.js';
import { readSpec } from './continuous/spec.js';

const EXTENT = 3; // the square [−3, 3]² (the worker's grid)

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
// The worker (web/rpc.js): views are coalesced (latest), the curve is aborted when a newer one replaces it.
const worker = createWorkerClient(() => new Worker(new URL('./continuous-worker.js', import.meta.url), { type: 'module' }));
worker.onFatal((error) => showStatus('error', `The demo cannot run: ${error.message}`));
const curve = mountCurve({ el, worker, state });

function showStatus(kind, text) {
  el.status.dataset.state = kind;
  el.status.textContent = text;
}

function showError(box, message) {
  box.hidden = !message;
  box.textContent = message ?? '';
}

// ---------------------------------------------------------------------------------------------
// Reading the controls (continuous/spec.js).

/** The spec of the controls (without ε), or null with the reason shown. */
function readControls() {
  const { spec, densityError, optionsError, pointsCount } = readSpec(el);
  if (pointsCount !== null) el.pointsCount.textContent = pointsCount;
  showError(el.densityError, densityError);
  showError(el.optionsError, optionsError);
  return spec;
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
// The view (P, Q at ε): at most one request in flight, the newest one waiting (worker.latest).
let viewsOutstanding = 0; // requested views not yet answered, superseded or failed
let viewGeneration = 0; // only the newest view is shown
let sampleInFlight = false;

function setBusy() {
  const busy = viewsOutstanding > 0 || sampleInFlight || !state.ready;
  el.app.dataset.busy = String(busy);
  const canSample = state.ready && state.view !== null && !sampleInFlight && state.spec !== null;
  el.sample1.disabled = !canSample;
  el.sample20.disabled = !canSample;
}

async function requestView() {
  const generation = (viewGeneration += 1);
  if (!state.spec) {
    setBusy();
    return;
  }
  const spec = { ...state.spec, epsilon: state.epsilon };
  viewsOutstanding += 1;
  setBusy();
  try {
    const result = await worker.latest('view', 'view', { spec });
    if (generation === viewGeneration) showView(spec, result);
  } catch (error) {
    if (!isAbort(error) && generation === viewGeneration) {
      state.view = null;
      // The library names what it refused: an option of the mechanism goes next to the options, the rest next to the density.
      const aboutOptions = /^(options\.)?(gamma|prior|reference|c1|c2)\b/.test(error.message);
      showError(aboutOptions || spec.family !== 'points' ? el.optionsError : el.densityError, `${error.name}: ${error.message}`);
    }
  } finally {
    viewsOutstanding -= 1;
    setBusy();
  }
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
  curve.render(); // the current-ε marker
}

// ---------------------------------------------------------------------------------------------
// Private points.
async function drawSamples(count) {
  if (!state.spec || sampleInFlight) return;
  sampleInFlight = true;
  setBusy();
  const spec = { ...state.spec, epsilon: state.epsilon };
  try {
    const result = await worker.call('sample', { spec, count });
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
// Wiring.
function onSpecChange() {
  el.pointsPanel.hidden = el.family.value !== 'points';
  el.clickHint.hidden = el.family.value !== 'points';
  el.mapP.classList.toggle('clickable', el.family.value === 'points');
  el.localRow.hidden = el.mechanism.value !== 'local';
  el.explain.textContent = CONTINUOUS_EXPLAIN[el.mechanism.value];
  state.spec = readControls();
  requestView();
  if (state.spec) curve.request(state.spec);
  else curve.stop();
}

function onEpsilon() {
  state.epsilon = epsilonFromSlider(el.slider.value);
  const text = `ε = ${formatEpsilon(state.epsilon)}`;
  el.epsilonValue.textContent = text;
  el.slider.setAttribute('aria-valuetext', text); // what a screen reader says, not the slider's log10 position
  requestView();
  curve.render(); // the current-ε marker
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

worker
  .call('version')
  .then(({ version }) => {
    el.version.textContent = version;
    showStatus('ready', `Ready: privsample ${version} (WebAssembly, in a Web Worker)`);
  })
  .catch((error) => showStatus('error', `The privsample module failed to load: ${error.message}`));

// The controls come back after a reload (this device's localStorage); the private points drawn do not.
keepControls('privsample-demo:continuous-page', {
  family: el.family,
  grid: el.grid,
  points: el.points,
  bandwidth: el.bandwidth,
  mechanism: el.mechanism,
  prior: el.prior,
  gamma: el.gamma,
  epsilon: el.slider,
}).restore();
onEpsilon();
onSpecChange();
