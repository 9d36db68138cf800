// The reproductions page (reproduce.html): runs a figure of `npm run reproduce` in a Web Worker
// (reproduce-worker.js) with a progress bar, then draws the measured worst divergences beside their closed-form
// bounds (three grouped bar charts, Chart.js) and a table. Page code only collects input and draws.
// Each chart canvas carries its data as JSON in data-chart; each table cell of a measured value carries
// data-measured, data-bound and data-within (for tests and for the curious).
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LogarithmicScale, Tooltip } from 'chart.js';
import { DIVERGENCES, EXPERIMENTS } from '../scripts/reproduce/experiments.mjs';
import { formatNumber } from './format.js';

Chart.register(BarController, BarElement, CategoryScale, Legend, LinearScale, LogarithmicScale, Tooltip);
Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
Chart.defaults.font.size = 13;
Chart.defaults.color = '#2b2f36';

// seaborn Set1, as in the PNGs of `npm run reproduce`: red, blue.
const COLOURS = { global: '#e41a1c', local: '#377eb8', proposed: '#377eb8' };
const SAMPLER_LABELS = { global: 'Global', local: 'Local', proposed: 'Proposed (minimax clip)' };

const el = {
  app: document.getElementById('app'),
  status: document.getElementById('status'),
  version: document.getElementById('version'),
  experiment: document.getElementById('experiment'),
  clients: document.getElementById('clients'),
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
}

// ---------------------------------------------------------------------------------------------
// The experiment's description (from scripts/reproduce/experiments.mjs, the file `npm run reproduce` uses).

function describe() {
  const experiment = EXPERIMENTS[el.experiment.value];
  const budgets = experiment.budgets.join(', ');
  el.title.textContent = `${experiment.title}; ${experiment.budgetSymbol} ∈ {${budgets}}.`;
  el.setup.textContent = `${el.clients.value} clients per budget (seeds ${experiment.seeds.join(', ')}): ${experiment.describe(false)}.` +
    (experiment.baseline ? ' The MBDE baseline of the command line (~0.7 s per client) is not run in this page.' : '') +
    ` Command line: npm run reproduce -- ${el.experiment.value}${el.clients.value === '100' ? '' : ` --clients ${el.clients.value}`}`;
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
    if (!result) {
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
      series.push({ sampler: s, measured, bound });
      // Same stack id: the pale bound bar sits behind the measured bar (x stacked, y not: overlaid, not summed).
      datasets.push({ label: `${label}: measured worst`, data: measured, backgroundColor: c, borderColor: c, borderWidth: 1, stack: s, order: 0 });
      datasets.push({ label: `${label}: bound R`, data: bound, backgroundColor: `${c}33`, borderColor: c, borderWidth: 2, stack: s, order: 1 });
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
    canvas.dataset.chart = JSON.stringify({ name: result.name, clients: result.clients, divergence: f, scale: log ? 'log' : 'linear', labels, series });
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
  if (hasCheck) titles.push('privacy: log-spread of q/h ≤ ε');
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
        measured.dataset.within = String(row.within);
        measured.dataset.divergence = f;
        measured.dataset.sampler = s;
        measured.dataset.budget = String(budget);
        measured.title = row.within ? `within the bound R = ${row.bound}` : `ABOVE the bound R = ${row.bound}`;
        tr.append(measured, cell(formatNumber(row.bound), 'num bound'));
        if (f === 'kl') klClient = String(row.worstClient);
      }
      tr.append(cell(klClient, 'num'));
      if (hasCheck) {
        const row = result.rows.find((r) => r.budget === budget && r.sampler === s && r.privacyCheck !== undefined);
        const td = cell(row ? `${formatNumber(row.privacyCheck)} ≤ ${row.privacyLimit}` : '', `num${row && !(row.privacyCheck <= row.privacyLimit + 1e-9) ? ' over' : ''}`);
        if (row) td.title = row.privacyCheckName;
        tr.append(td);
      }
      el.body.append(tr);
    }
  }
}

function drawVerdict() {
  const result = state.result;
  if (!result) return;
  const over = result.rows.filter((r) => !r.within);
  el.verdict.dataset.ok = String(over.length === 0);
  el.verdict.dataset.count = String(result.rows.length);
  el.verdict.dataset.over = String(over.length);
  if (over.length === 0) {
    el.verdict.textContent = `✓ All ${result.rows.length} measured values are within their bounds (measured worst ≤ R, up to 1e-9 relative).`;
  } else {
    const list = over.map((r) => `${r.sampler} ${r.divergence} at ${EXPERIMENTS[result.name].budgetSymbol} = ${r.budget}: ${formatNumber(r.measured)} > R = ${formatNumber(r.bound)}`);
    el.verdict.textContent = `✗ ${over.length} of ${result.rows.length} measured values exceed their bound: ${list.join('; ')}.`;
  }
}

function showResult(result) {
  state.result = result;
  el.resultsOf.textContent = `— ${result.name}, ${result.clients} clients per budget, ${result.cells} grid cells, ${result.seconds.toFixed(2)} s`;
  drawVerdict();
  drawCharts();
  drawTable();
}

// ---------------------------------------------------------------------------------------------
// Running.

async function runExperiment() {
  if (state.running || !state.ready) return;
  const name = el.experiment.value;
  const clients = Number(el.clients.value);
  state.running = true;
  updateBusy();
  showError(null);
  el.results.dataset.state = 'running';
  el.progress.max = 1;
  el.progress.value = 0;
  el.runStatus.textContent = `Running ${name} with ${clients} clients…`;
  const started = performance.now();
  try {
    const result = await call('run', { name, clients }, ({ done, total }) => {
      el.progress.max = total;
      el.progress.value = done;
      el.progress.dataset.done = String(done);
      el.progress.dataset.total = String(total);
      el.runStatus.textContent = `${name}: ${done} of ${total} client densities`;
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
