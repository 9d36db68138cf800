// The reproductions page (reproduce.html): runs a figure of `npm run reproduce` in a Web Worker
// (reproduce-worker.js) with a progress bar, then draws the measured worst divergences beside their closed-form
// bounds (three grouped bar charts, Chart.js) and a table. Page code only collects input and draws.
// Each chart canvas carries its data as JSON in data-chart; each table cell of a measured value carries
// data-measured, data-bound and data-within ('n/a' where there is no closed-form bound: MBDE) (for tests and for
// the curious). minimax-fig1 (kind 'heatmaps') draws three heatmaps (P, MBDE, ours) on one colour scale instead of
// the bar charts; each heatmap canvas carries data-heatmap (JSON: title, nx, ny, vmax, max).
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LogarithmicScale, Tooltip } from 'chart.js';
import { DIVERGENCES, EXPERIMENTS } from '../scripts/reproduce/experiments.mjs';
import { formatNumber } from './format.js';

Chart.register(BarController, BarElement, CategoryScale, Legend, LinearScale, LogarithmicScale, Tooltip);
Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
Chart.defaults.font.size = 13;
Chart.defaults.color = '#2b2f36';

// seaborn Set1, as in the PNGs of `npm run reproduce`: red, blue, green.
const COLOURS = { global: '#e41a1c', local: '#377eb8', proposed: '#377eb8', mbde: '#4daf4a' };
const SAMPLER_LABELS = { global: 'Global', local: 'Local', proposed: 'Proposed (minimax clip)', mbde: 'Baseline (MBDE)' };
// What each sampler's privacy check means (the experiments' privacyCheckName says how it is computed).
const CHECK_MEANING = { mbde: 'q within a factor e^(±ε/2) of its q0', proposed: 'q/h inside its box [b, e^ε·b]' };
// matplotlib's 'plasma' at 0, 1/8, …, 1 (as scripts/reproduce/chart.mjs), interpolated linearly.
const PLASMA = ['#0d0887', '#4c02a1', '#7e03a8', '#a92395', '#cc4778', '#e56b5d', '#f89441', '#fdc328', '#f0f921']
  .map((h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)));

const el = {
  app: document.getElementById('app'),
  status: document.getElementById('status'),
  version: document.getElementById('version'),
  experiment: document.getElementById('experiment'),
  clients: document.getElementById('clients'),
  clientsLabel: document.getElementById('clients-label'),
  mbde: document.getElementById('mbde-clients'),
  mbdeLabel: document.getElementById('mbde-label'),
  checks: document.getElementById('privacy-checks'),
  barView: document.getElementById('bar-view'),
  heatView: document.getElementById('heat-view'),
  heatNotes: document.getElementById('heat-notes'),
  colourbar: document.getElementById('heatmap-colourbar'),
  heatmaps: [0, 1, 2].map((i) => ({
    canvas: document.getElementById(`heatmap-${i}`),
    title: document.getElementById(`heatmap-title-${i}`),
    values: document.getElementById(`heatmap-values-${i}`),
  })),
  run: document.getElementById('run'),
  stop: document.getElementById('stop'),
  progress: document.getElementById('progress'),
  runStatus: document.getElementById('run-status'),
  title: document.getElementById('experiment-title'),
  setup: document.getElementById('experiment-setup'),
  runError: document.getElementById('run-error'),
  results: document.querySelector('[data-testid="results"]'),
  resultsOf: document.getElementById('results-of'),
  logScale: document.getElementById('log-scale'),
  verdict: document.getElementById('verdict'),
  head: document.getElementById('results-head'),
  body: document.getElementById('results-body'),
  canvases: Object.fromEntries(DIVERGENCES.map(({ f }) => [f, document.getElementById(`chart-${f}`)])),
};

const state = { ready: false, running: false, result: null };
const charts = {};

// ---------------------------------------------------------------------------------------------
// The worker: promise-based calls; progress messages go to the call's onProgress. Stop = terminate it and
// start a new one (a run is one synchronous computation inside the worker).
let worker = null;
const calls = new Map();
let nextId = 1;

function startWorker() {
  worker = new Worker(new URL('./reproduce-worker.js', import.meta.url), { type: 'module' });
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
    showStatus('error', `The worker failed: ${event.message || 'unknown error'}`);
  });
}

function call(type, payload, onProgress) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    calls.set(id, { resolve, reject, onProgress });
    worker.postMessage({ id, type, ...payload });
  });
}

function stopWorker() {
  worker.terminate();
  for (const entry of calls.values()) entry.reject(Object.assign(new Error('stopped'), { name: 'AbortError' }));
  calls.clear();
  startWorker();
}

function showStatus(kind, text) {
  el.status.dataset.state = kind;
  el.status.textContent = text;
}

function showError(message) {
  el.runError.hidden = !message;
  el.runError.textContent = message ?? '';
}

function updateBusy() {
  el.app.dataset.busy = String(state.running || !state.ready);
  el.run.disabled = state.running || !state.ready;
  el.stop.disabled = !state.running;
  el.experiment.disabled = state.running;
  el.clients.disabled = state.running;
  el.mbde.disabled = state.running;
}

// ---------------------------------------------------------------------------------------------
// The experiment's description (from scripts/reproduce/experiments.mjs, the file `npm run reproduce` uses).

function describe() {
  const name = el.experiment.value;
  const experiment = EXPERIMENTS[name];
  const budgets = experiment.budgets.join(', ');
  const heat = experiment.kind === 'heatmaps';
  const takesMbde = Boolean(experiment.mbdeDefaults);
  el.clientsLabel.hidden = heat; // minimax-fig1 has one client
  el.mbdeLabel.hidden = !takesMbde;
  el.title.textContent = heat ? `${experiment.title}.` : `${experiment.title}; ${experiment.budgetSymbol} ∈ {${budgets}}.`;
  if (heat) {
    el.setup.textContent = `One client (seed ${experiment.seeds.join(', ')}): ${experiment.describe(false)}. Baseline: ${experiment.baseline()} ` +
      `(one MBDE run, ~1 s). Command line: npm run reproduce -- ${name}`;
    return;
  }
  const mbdeClients = Number(el.mbde.value);
  let baseline = '';
  let mbdeFlag = '';
  if (takesMbde) {
    const { clients: cliClients, cells } = experiment.mbdeDefaults.full;
    baseline = mbdeClients > 0
      ? ` Baseline: ${experiment.baseline({ mbdeClients, mbdeCells: cells })} (~0.7 s per client per ε).`
      : ' The MBDE baseline is off (choose MBDE baseline clients to run it: ~0.7 s per client per ε).';
    if (mbdeClients !== cliClients) mbdeFlag = ` --mbde-clients ${mbdeClients}`;
  } else if (experiment.baseline) {
    baseline = ' The MBDE baseline of the command line (~0.7 s per client) is not run in this page.';
  }
  el.setup.textContent = `${el.clients.value} clients per budget (seeds ${experiment.seeds.join(', ')}): ${experiment.describe(false)}.${baseline}` +
    ` Command line: npm run reproduce -- ${name}${el.clients.value === '100' ? '' : ` --clients ${el.clients.value}`}${mbdeFlag}`;
}

// ---------------------------------------------------------------------------------------------
// Results: charts, table, verdict.

function pick(result, sampler, f, key) {
  const experiment = EXPERIMENTS[result.name];
  return experiment.budgets.map((b) => result.rows.find((r) => r.budget === b && r.sampler === sampler && r.divergence === f)?.[key] ?? null);
}

function samplersOf(result) {
  return [...new Set(result.rows.map((r) => r.sampler))];
}

function drawCharts() {
  const result = state.result;
  const log = el.logScale.checked;
  for (const { f } of DIVERGENCES) {
    const canvas = el.canvases[f];
    charts[f]?.destroy();
    delete charts[f];
    if (!result || result.heatmaps) {
      delete canvas.dataset.chart;
      continue;
    }
    const experiment = EXPERIMENTS[result.name];
    const labels = experiment.budgets.map(String);
    const datasets = [];
    const series = [];
    for (const s of samplersOf(result)) {
      const c = COLOURS[s] ?? '#4daf4a';
      const label = SAMPLER_LABELS[s] ?? s;
      const measured = pick(result, s, f, 'measured');
      const bound = pick(result, s, f, 'bound');
      const bounded = bound.some((b) => Number.isFinite(b));
      // No closed-form bound (MBDE): null in data-chart, and no pale bar.
      series.push({ sampler: s, measured, bound: bound.map((b) => (Number.isFinite(b) ? b : null)) });
      // Same stack id: the pale bound bar sits behind the measured bar (x stacked, y not: overlaid, not summed).
      datasets.push({ label: `${label}: measured worst`, data: measured, backgroundColor: c, borderColor: c, borderWidth: 1, stack: s, order: 0 });
      if (bounded) datasets.push({ label: `${label}: bound R`, data: bound, backgroundColor: `${c}33`, borderColor: c, borderWidth: 2, stack: s, order: 1 });
    }
    charts[f] = new Chart(canvas, {
      type: 'bar',
      data: { labels, datasets },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: {
          legend: { position: 'bottom', labels: { boxWidth: 14, font: { size: 12 } } },
          tooltip: { callbacks: { label: (ctx) => `${ctx.dataset.label}: ${formatNumber(ctx.parsed.y)}` } },
        },
        scales: {
          x: { stacked: true, title: { display: true, text: `${experiment.budgetSymbol}` } },
          y: log
            ? { type: 'logarithmic', stacked: false, title: { display: true, text: 'worst divergence' } }
            : { type: 'linear', stacked: false, beginAtZero: true, title: { display: true, text: 'worst divergence' } },
        },
      },
    });
    canvas.dataset.chart = JSON.stringify({ name: result.name, clients: result.clients, mbdeClients: result.mbdeClients, divergence: f, scale: log ? 'log' : 'linear', labels, series });
  }
}

function cell(text, className) {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function drawTable() {
  const result = state.result;
  el.head.replaceChildren();
  el.body.replaceChildren();
  if (!result) return;
  const experiment = EXPERIMENTS[result.name];
  const hasCheck = result.rows.some((r) => r.privacyCheck !== undefined);
  const head = document.createElement('tr');
  const titles = [experiment.budgetSymbol, 'sampler', ...DIVERGENCES.flatMap(({ label }) => [`${label} worst`, `${label} R`]), 'worst client (KL)'];
  if (hasCheck) titles.push('privacy check (max over clients)');
  for (const text of titles) {
    const th = document.createElement('th');
    th.textContent = text;
    th.scope = 'col';
    if (!['sampler', experiment.budgetSymbol].includes(text)) th.className = 'num';
    head.append(th);
  }
  el.head.append(head);
  for (const budget of experiment.budgets) {
    for (const s of samplersOf(result)) {
      const tr = document.createElement('tr');
      tr.append(cell(String(budget)), cell(SAMPLER_LABELS[s] ?? s));
      let klClient = '';
      for (const { f } of DIVERGENCES) {
        const row = result.rows.find((r) => r.budget === budget && r.sampler === s && r.divergence === f);
        const measured = cell(formatNumber(row.measured), `num measured${row.within ? '' : ' over'}`);
        measured.dataset.testid = 'measured';
        measured.dataset.measured = String(row.measured);
        measured.dataset.bound = String(row.bound);
        measured.dataset.within = row.bounded ? String(row.within) : 'n/a';
        measured.dataset.divergence = f;
        measured.dataset.sampler = s;
        measured.dataset.budget = String(budget);
        if (!row.bounded) measured.title = `no closed-form bound (${SAMPLER_LABELS[s] ?? s})` + (row.clients ? `; over its first ${row.clients} clients, ${row.cells} cells` : '');
        else measured.title = row.within ? `within the bound R = ${row.bound}` : `ABOVE the bound R = ${row.bound}`;
        tr.append(measured, row.bounded ? cell(formatNumber(row.bound), 'num bound') : cell('n/a', 'num bound'));
        if (f === 'kl') klClient = String(row.worstClient);
      }
      tr.append(cell(klClient, 'num'));
      if (hasCheck) {
        const row = result.rows.find((r) => r.budget === budget && r.sampler === s && r.privacyCheck !== undefined);
        const td = cell(row ? `${formatNumber(row.privacyCheck)} ≤ ${row.privacyLimit}` : '', `num${row && !row.privacyOk ? ' over' : ''}`);
        if (row) td.title = `${row.privacyCheckName.replaceAll('epsilon', experiment.budgetSymbol).replaceAll('<=', '≤')} (${CHECK_MEANING[s] ?? s})`;
        tr.append(td);
      }
      el.body.append(tr);
    }
  }
}

/** One line per (sampler, budget) privacy check: the experiments' check on the outputs, maxed over the clients. */
function privacyChecks(result) {
  const seen = new Set();
  const checks = [];
  for (const r of result.rows) {
    const key = `${r.sampler} ${r.budget}`;
    if (r.privacyCheck === undefined || seen.has(key)) continue;
    seen.add(key);
    checks.push(r);
  }
  return checks;
}

function drawChecks() {
  const result = state.result;
  el.checks.replaceChildren();
  const checks = result ? privacyChecks(result) : [];
  el.checks.hidden = checks.length === 0;
  if (!checks.length) return;
  const symbol = EXPERIMENTS[result.name].budgetSymbol;
  const heat = Boolean(result.heatmaps);
  for (const r of checks) {
    const li = document.createElement('li');
    li.dataset.testid = 'privacy-check';
    li.dataset.sampler = r.sampler;
    li.dataset.budget = String(r.budget);
    li.dataset.value = String(r.privacyCheck);
    li.dataset.limit = String(r.privacyLimit);
    li.dataset.ok = String(r.privacyOk);
    const over = r.clients ? ` (max over its first ${r.clients} clients)` : heat ? '' : ' (max over the clients)';
    li.textContent = `${r.privacyOk ? '✓' : '✗'} ${SAMPLER_LABELS[r.sampler] ?? r.sampler}, ${symbol} = ${r.budget}: ${CHECK_MEANING[r.sampler] ?? 'privacy check'}: ` +
      `${r.privacyCheckName.replaceAll('epsilon', symbol).replaceAll('<=', '≤')}: ${r.privacyCheck.toFixed(6)} ≤ ${r.privacyLimit}${over} — ${r.privacyOk ? 'ok' : 'VIOLATED'}`;
    el.checks.append(li);
  }
}

function drawVerdict() {
  const result = state.result;
  if (!result) return;
  const symbol = EXPERIMENTS[result.name].budgetSymbol;
  const bounded = result.rows.filter((r) => r.bounded);
  const unbounded = result.rows.length - bounded.length;
  const over = bounded.filter((r) => !r.within);
  const violated = privacyChecks(result).filter((r) => !r.privacyOk);
  el.verdict.dataset.ok = String(over.length === 0 && violated.length === 0);
  el.verdict.dataset.count = String(bounded.length);
  el.verdict.dataset.over = String(over.length);
  el.verdict.dataset.unbounded = String(unbounded);
  el.verdict.dataset.privacyViolations = String(violated.length);
  const parts = [];
  if (result.heatmaps) {
    // minimax-fig1: one client, so "worst" is that client's divergence; spell out ours <= R.
    const ours = bounded.map((r) => `${DIVERGENCES.find((d) => d.f === r.divergence).label} ${formatNumber(r.measured)} ${r.within ? '≤' : '>'} R = ${formatNumber(r.bound)}`);
    parts.push(`${over.length === 0 ? '✓ ours ≤ R' : '✗ ours exceeds R'}: ${ours.join(', ')} (up to 1e-9 relative); MBDE has no closed-form bound.`);
  } else if (over.length === 0) {
    parts.push(unbounded === 0
      ? `✓ All ${bounded.length} measured values are within their bounds (measured worst ≤ R, up to 1e-9 relative).`
      : `✓ All ${bounded.length} measured values with a closed-form bound are within their bounds (measured worst ≤ R, up to 1e-9 relative); ` +
        `MBDE's ${unbounded} values have no closed-form bound (n/a).`);
  } else {
    const list = over.map((r) => `${r.sampler} ${r.divergence} at ${symbol} = ${r.budget}: ${formatNumber(r.measured)} > R = ${formatNumber(r.bound)}`);
    parts.push(`✗ ${over.length} of ${bounded.length} measured values exceed their bound: ${list.join('; ')}.`);
  }
  if (violated.length) parts.push(`✗ ${violated.length} privacy check(s) VIOLATED: ${violated.map((r) => `${r.sampler} at ${symbol} = ${r.budget}`).join(', ')}.`);
  el.verdict.textContent = parts.join(' ');
}

// ---------------------------------------------------------------------------------------------
// minimax-fig1: three heatmaps on one colour scale. Cell (ix, iy) is index iy·nx + ix; y grows upwards (row 0 of the
// image is the top, iy = ny − 1). Values are densities: mass / total / cell area.

function plasma(t) {
  const x = Math.min(Math.max(t, 0), 1) * (PLASMA.length - 1);
  const i = Math.min(Math.floor(x), PLASMA.length - 2);
  const w = x - i;
  return PLASMA[i].map((a, k) => Math.round(a + (PLASMA[i + 1][k] - a) * w));
}

const HEAT_MARGIN = { left: 26, right: 6, top: 6, bottom: 22 };

function drawHeatmap(canvas, values, nx, ny, vmax, grid) {
  const off = document.createElement('canvas');
  off.width = nx;
  off.height = ny;
  const octx = off.getContext('2d');
  const image = octx.createImageData(nx, ny);
  const data = image.data;
  for (let iy = 0; iy < ny; iy += 1) {
    const row = (ny - 1 - iy) * nx;
    for (let ix = 0; ix < nx; ix += 1) {
      const [r, g, b] = plasma(values[iy * nx + ix] / vmax);
      const o = (row + ix) * 4;
      data[o] = r;
      data[o + 1] = g;
      data[o + 2] = b;
      data[o + 3] = 255;
    }
  }
  octx.putImageData(image, 0, 0);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const w = canvas.width - HEAT_MARGIN.left - HEAT_MARGIN.right;
  const h = canvas.height - HEAT_MARGIN.top - HEAT_MARGIN.bottom;
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(off, HEAT_MARGIN.left, HEAT_MARGIN.top, w, h);
  // Ticks at the grid's ends and 0.
  ctx.fillStyle = '#2b2f36';
  ctx.font = '11px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const x of [grid.xLo, 0, grid.xHi]) ctx.fillText(String(x), HEAT_MARGIN.left + ((x - grid.xLo) / (grid.xHi - grid.xLo)) * w, HEAT_MARGIN.top + h + 5);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const y of [grid.yLo, 0, grid.yHi]) ctx.fillText(String(y), HEAT_MARGIN.left - 5, HEAT_MARGIN.top + ((grid.yHi - y) / (grid.yHi - grid.yLo)) * h);
}

function drawColourbar(vmax) {
  const canvas = el.colourbar;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const top = HEAT_MARGIN.top;
  const h = canvas.height - HEAT_MARGIN.top - HEAT_MARGIN.bottom;
  for (let y = 0; y < h; y += 1) {
    const [r, g, b] = plasma(1 - y / (h - 1));
    ctx.fillStyle = `rgb(${r}, ${g}, ${b})`;
    ctx.fillRect(4, top + y, 16, 1);
  }
  ctx.fillStyle = '#2b2f36';
  ctx.font = '11px system-ui, sans-serif';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  for (let i = 0; i <= 4; i += 1) ctx.fillText((vmax * (1 - i / 4)).toFixed(3), 24, top + (i / 4) * (h - 1));
  canvas.dataset.vmax = String(vmax);
}

function drawHeatmaps() {
  const result = state.result;
  const heat = Boolean(result?.heatmaps);
  el.heatView.hidden = !heat;
  el.barView.hidden = heat;
  el.logScale.closest('label').hidden = heat; // the log axis is the bar charts' only
  if (!heat) {
    for (const h of el.heatmaps) delete h.canvas.dataset.heatmap;
    return;
  }
  const { grid, panels } = result.heatmaps;
  const area = ((grid.xHi - grid.xLo) / grid.nx) * ((grid.yHi - grid.yLo) / grid.ny);
  const densities = panels.map(([, masses]) => {
    let total = 0;
    for (const m of masses) total += m;
    return Float64Array.from(masses, (m) => m / total / area);
  });
  let vmax = 0;
  for (const d of densities) for (const v of d) vmax = Math.max(vmax, v);
  const samplers = [null, 'mbde', 'proposed']; // the panels' order in experiments.mjs: P, MBDE, ours
  panels.forEach(([title], i) => {
    const { canvas, title: caption, values } = el.heatmaps[i];
    caption.textContent = title;
    drawHeatmap(canvas, densities[i], grid.nx, grid.ny, vmax, grid);
    canvas.dataset.heatmap = JSON.stringify({ title, sampler: samplers[i], nx: grid.nx, ny: grid.ny, vmax, max: Math.max(...densities[i]) });
    const s = samplers[i];
    if (!s) {
      values.textContent = `the client P (${grid.nx} × ${grid.ny} cells); max p/h̃ over the cells = ${formatNumber(result.classCheck)} ≤ 1: in the class`;
      return;
    }
    const parts = DIVERGENCES.map(({ f, label }) => {
      const r = result.rows.find((x) => x.sampler === s && x.divergence === f);
      return r.bounded ? `${label} ${formatNumber(r.measured)} ≤ R ${formatNumber(r.bound)}` : `${label} ${formatNumber(r.measured)}`;
    });
    values.textContent = `D(P‖Q): ${parts.join(' · ')}${s === 'mbde' ? ' (R: n/a)' : ''}`;
  });
  drawColourbar(vmax);
  el.heatNotes.replaceChildren(...(result.notes ?? []).map((n) => {
    const li = document.createElement('li');
    li.textContent = n;
    return li;
  }));
}

function showResult(result) {
  state.result = result;
  const mbde = result.mbdeClients > 0 ? `; MBDE on the first ${result.mbdeClients} clients per budget, ${result.mbdeCells} grid cells` : '';
  el.resultsOf.textContent = result.heatmaps
    ? `— ${result.name}, one client, ${result.cells} grid cells (${result.heatmaps.grid.nx} × ${result.heatmaps.grid.ny}), ${result.seconds.toFixed(2)} s`
    : `— ${result.name}, ${result.clients} clients per budget, ${result.cells} grid cells${mbde}, ${result.seconds.toFixed(2)} s`;
  drawVerdict();
  drawChecks();
  drawHeatmaps();
  drawCharts();
  drawTable();
}

// ---------------------------------------------------------------------------------------------
// Running.

async function runExperiment() {
  if (state.running || !state.ready) return;
  const name = el.experiment.value;
  const heat = EXPERIMENTS[name].kind === 'heatmaps';
  const clients = heat ? 1 : Number(el.clients.value);
  const mbdeClients = EXPERIMENTS[name].mbdeDefaults ? Number(el.mbde.value) : 0;
  state.running = true;
  updateBusy();
  showError(null);
  el.results.dataset.state = 'running';
  el.progress.max = 1;
  el.progress.value = 0;
  el.runStatus.textContent = heat ? `Running ${name}…` : `Running ${name} with ${clients} clients${mbdeClients ? ` (MBDE on ${mbdeClients})` : ''}…`;
  const started = performance.now();
  try {
    const result = await call('run', { name, clients, mbdeClients }, ({ done, total }) => {
      el.progress.max = total;
      el.progress.value = done;
      el.progress.dataset.done = String(done);
      el.progress.dataset.total = String(total);
      el.runStatus.textContent = `${name}: ${done} of ${total} ${heat || mbdeClients ? 'steps (output densities and MBDE runs)' : 'client densities'}`;
    });
    el.progress.value = el.progress.max;
    showResult(result);
    el.runStatus.textContent = `${name}: done in ${((performance.now() - started) / 1000).toFixed(2)} s`;
    el.results.dataset.state = 'done';
  } catch (error) {
    if (error.name === 'AbortError') {
      el.runStatus.textContent = `${name}: stopped`;
      el.results.dataset.state = state.result ? 'done' : 'idle';
      el.progress.value = 0;
    } else {
      showError(`${error.name}: ${error.message}`);
      el.runStatus.textContent = `${name}: failed`;
      el.results.dataset.state = 'error';
    }
  } finally {
    state.running = false;
    updateBusy();
  }
}

el.run.addEventListener('click', runExperiment);
el.stop.addEventListener('click', () => {
  if (state.running) stopWorker();
});
el.experiment.addEventListener('change', describe);
el.clients.addEventListener('change', describe);
el.mbde.addEventListener('change', describe);
el.logScale.addEventListener('change', drawCharts);

startWorker();
describe();
updateBusy();
call('version', {})
  .then(({ version }) => {
    state.ready = true;
    el.version.textContent = version;
    showStatus('ready', `Ready: privsample ${version}, running in a Web Worker`);
    updateBusy();
  })
  .catch((error) => showStatus('error', `The privsample module failed to load: ${error.message}`));
