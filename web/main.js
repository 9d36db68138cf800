// The privsample demo page: the histogram editor, the ε slider, the sample button and the two charts.
// Page code only collects input and formats results; every number comes from the privsample API,
// called in a Web Worker (worker.js) so the page never freezes.
import { createBarChart, createDivergenceChart, updateBarChart, updateDivergenceChart } from './charts.js';
import { MAX_CATEGORIES, parseCount, parseHistogramCsv } from './csv.js';
import { formatEpsilon, formatNumber, formatProbability } from './format.js';

/** The histogram shown on first load: how someone got to work on the days of one month. */
const DEFAULT_HISTOGRAM = [
  { name: 'Walk', count: '9' },
  { name: 'Bicycle', count: '6' },
  { name: 'Bus', count: '4' },
  { name: 'Train', count: '2' },
  { name: 'Car', count: '1' },
  { name: 'Scooter', count: '0' },
];

const F_LABEL = { kl: 'D_KL', tv: 'TV', hellinger: 'H²' };

const $ = (id) => document.getElementById(id);
const el = {
  app: $('app'),
  status: $('status'),
  version: $('version'),
  slider: $('epsilon'),
  epsilonValue: $('epsilon-value'),
  guarantee: $('guarantee'),
  draw: $('draw'),
  samplePlaceholder: $('sample-placeholder'),
  sampleResult: $('sample-result'),
  sampleEpsilon: $('sample-epsilon'),
  spendCount: $('spend-count'),
  body: $('hist-body'),
  addRow: $('add-row'),
  reset: $('reset'),
  tableError: $('table-error'),
  libraryError: $('library-error'),
  csvInput: $('csv-input'),
  csvApply: $('csv-apply'),
  csvExample: $('csv-example'),
  csvFile: $('csv-file'),
  csvError: $('csv-error'),
  csvOk: $('csv-ok'),
  barsSummary: $('bars-summary'),
  divSummary: $('div-summary'),
  f: $('divergence-f'),
};

const state = {
  rows: DEFAULT_HISTOGRAM.map((r) => ({ ...r })),
  epsilon: 1,
  f: el.f.value || 'kl',
  valid: null, // { names, hist } of the last histogram that passed the page's checks, or null
  computed: false, // the charts show the current input
  draws: [],
  fatal: false,
};

// ---------------------------------------------------------------------------------------------
// The worker: promise-based calls; 'update' requests are coalesced (at most one in flight, the
// latest one waiting), so dragging the slider never queues up work.
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
const calls = new Map();
let nextId = 1;

worker.addEventListener('message', (event) => {
  const { id, ok, result, error, fatal } = event.data;
  const call = calls.get(id);
  if (!call) return;
  calls.delete(id);
  if (fatal) showFatal(error);
  if (ok) call.resolve(result);
  else call.reject(Object.assign(new Error(error.message), { name: error.name }));
});
worker.addEventListener('error', (event) => {
  showFatal({ name: 'Error', message: `the worker failed to start: ${event.message || 'unknown error'}` });
});

function call(type, payload) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    calls.set(id, { resolve, reject });
    worker.postMessage({ id, type, ...payload });
  });
}

let updateGeneration = 0; // bumped for every new input; only the newest answer is shown
let updateInFlight = false;
let updatePending = null;

function requestUpdate() {
  updateGeneration += 1;
  if (!state.valid) {
    updatePending = null;
    setBusy();
    return;
  }
  updatePending = { generation: updateGeneration, names: state.valid.names, hist: state.valid.hist, epsilon: state.epsilon, f: state.f };
  pumpUpdates();
}

function pumpUpdates() {
  setBusy();
  if (updateInFlight || !updatePending) return;
  const request = updatePending;
  updatePending = null;
  updateInFlight = true;
  call('update', { hist: request.hist, epsilon: request.epsilon, f: request.f })
    .then(
      (result) => {
        if (request.generation === updateGeneration) showResult(request, result);
      },
      (error) => {
        if (request.generation === updateGeneration) showLibraryError(error, request);
      },
    )
    .finally(() => {
      updateInFlight = false;
      pumpUpdates();
    });
}

function setBusy() {
  el.app.dataset.busy = String(updateInFlight || updatePending !== null);
}

// ---------------------------------------------------------------------------------------------
// ε slider: positions are log10(ε)·100 from −200 (ε = 0.01) to 100 (ε = 10).
function epsilonFromSlider() {
  return Number((10 ** (Number(el.slider.value) / 100)).toPrecision(3));
}

function onEpsilonInput() {
  state.epsilon = epsilonFromSlider();
  const text = `ε = ${formatEpsilon(state.epsilon)}`;
  el.epsilonValue.textContent = text;
  el.slider.setAttribute('aria-valuetext', text);
  requestUpdate();
}

// ---------------------------------------------------------------------------------------------
// The editable table.
function renderTable() {
  const fragment = document.createDocumentFragment();
  state.rows.forEach((row, index) => {
    const tr = document.createElement('tr');
    tr.dataset.row = String(index);

    const nameCell = document.createElement('td');
    const name = document.createElement('input');
    name.type = 'text';
    name.value = row.name;
    name.className = 'name';
    name.setAttribute('data-testid', 'row-name');
    name.setAttribute('aria-label', `Name of category ${index + 1}`);
    name.addEventListener('input', () => {
      row.name = name.value;
      scheduleTableChange();
    });
    nameCell.append(name);

    const countCell = document.createElement('td');
    const count = document.createElement('input');
    count.type = 'text';
    count.inputMode = 'decimal';
    count.value = row.count;
    count.className = 'count';
    count.setAttribute('data-testid', 'row-count');
    count.setAttribute('aria-label', `Count of category ${index + 1}`);
    count.addEventListener('input', () => {
      row.count = count.value;
      scheduleTableChange();
    });
    countCell.append(count);

    const pCell = document.createElement('td');
    pCell.className = 'num p';
    pCell.setAttribute('data-testid', 'row-p');
    const qCell = document.createElement('td');
    qCell.className = 'num q';
    qCell.setAttribute('data-testid', 'row-q');

    const removeCell = document.createElement('td');
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'remove';
    remove.textContent = '×';
    remove.title = 'Remove this category';
    remove.setAttribute('aria-label', `Remove category ${index + 1}${row.name ? ` (${row.name})` : ''}`);
    remove.setAttribute('data-testid', 'row-remove');
    remove.disabled = state.rows.length <= 1;
    remove.addEventListener('click', () => {
      state.rows.splice(index, 1);
      renderTable();
      tableChanged();
      const rows = el.body.querySelectorAll('input.name');
      rows[Math.min(index, rows.length - 1)]?.focus();
    });
    removeCell.append(remove);

    tr.append(nameCell, countCell, pCell, qCell, removeCell);
    fragment.append(tr);
  });
  el.body.replaceChildren(fragment);
  el.addRow.disabled = state.rows.length >= MAX_CATEGORIES;
}

let tableTimer = 0;
function scheduleTableChange() {
  clearTimeout(tableTimer);
  tableTimer = setTimeout(tableChanged, 150);
  markStale();
}

/** Checks the table (names present and distinct, counts numeric); the library checks the values. */
function validateTable() {
  const problems = [];
  const seen = new Map();
  const invalid = new Set();
  const names = [];
  const hist = [];
  state.rows.forEach((row, i) => {
    const label = `Row ${i + 1}${row.name.trim() ? ` (“${row.name.trim()}”)` : ''}`;
    const name = row.name.trim();
    if (!name) {
      problems.push(`${label}: give the category a name.`);
      invalid.add(`${i}:name`);
    } else if (seen.has(name)) {
      problems.push(`${label}: the name is already used by row ${seen.get(name) + 1}.`);
      invalid.add(`${i}:name`);
    } else {
      seen.set(name, i);
    }
    const count = parseCount(row.count);
    if (count.problem) {
      problems.push(`${label}: ${count.problem}.`);
      invalid.add(`${i}:count`);
    }
    names.push(name);
    hist.push(count.value);
  });
  el.body.querySelectorAll('tr').forEach((tr, i) => {
    tr.querySelector('input.name').setAttribute('aria-invalid', String(invalid.has(`${i}:name`)));
    tr.querySelector('input.count').setAttribute('aria-invalid', String(invalid.has(`${i}:count`)));
  });
  return { problems, names, hist };
}

function tableChanged() {
  clearTimeout(tableTimer);
  const { problems, names, hist } = validateTable();
  showError(el.tableError, problems.length ? 'Please fix the table:' : '', problems);
  showError(el.libraryError, '', []);
  state.valid = problems.length ? null : { names, hist };
  if (problems.length) clearTableResults();
  markStale();
  requestUpdate();
}

/** P and Q* columns of the table: blank while the table cannot be computed. */
function clearTableResults() {
  el.body.querySelectorAll('td.p, td.q').forEach((cell) => {
    cell.textContent = '—';
  });
}

function markStale() {
  state.computed = false;
  updateControls();
}

function updateControls() {
  const usable = !state.fatal && state.valid !== null && state.computed;
  el.draw.disabled = !usable;
  document.querySelectorAll('.chart-card').forEach((card) => card.classList.toggle('stale', !state.computed));
}

// ---------------------------------------------------------------------------------------------
// Results and errors from the worker.
function showResult(request, result) {
  const { names } = request;
  showError(el.libraryError, '', []);
  state.computed = true;
  updateControls();

  updateBarChart(barChart, { names, p: result.p, q: result.q, epsilon: result.epsilon });
  updateDivergenceChart(divergenceChart, result);

  el.body.querySelectorAll('tr').forEach((tr, i) => {
    tr.querySelector('td.p').textContent = formatProbability(result.p[i]);
    tr.querySelector('td.q').textContent = formatProbability(result.q[i]);
  });

  const eps = formatEpsilon(result.guarantee.epsilon);
  el.guarantee.replaceChildren(
    'Pure ε-local differential privacy (ε = ',
    strong(eps),
    '): for any two histograms P and P′ and every category x, the probability of releasing x differs by at most a factor e',
    sup('ε'),
    ` = e`,
    sup(eps),
    '.',
  );
  el.barsSummary.textContent =
    result.normaliser > 0
      ? `Here k = ${result.k} and the normaliser r_P = ${formatNumber(result.normaliser)}.`
      : `Here k = ${result.k}; P is sparse (r_P → 0): Q* keeps the floor on every category outside P's support.`;
  const fl = F_LABEL[result.f];
  el.divSummary.textContent = `At ε = ${eps}: your ${fl} = ${formatNumber(result.current.user)}, worst case ${formatNumber(
    result.current.worst,
  )}.`;

  el.version.textContent = result.version;
  if (el.status.dataset.state !== 'ready') {
    el.status.dataset.state = 'ready';
    el.status.textContent = `Ready: privsample ${result.version} (WebAssembly) runs in a Web Worker in this page.`;
  }
}

function strong(text) {
  const node = document.createElement('strong');
  node.textContent = text;
  return node;
}

function sup(text) {
  const node = document.createElement('sup');
  node.textContent = text;
  return node;
}

/** The library's own error (RangeError / TypeError), shown as it is, with the row it refers to. */
function showLibraryError(error, request) {
  const lines = [`${error.name}: ${error.message}`];
  const index = /hist\[(\d+)\]/.exec(error.message);
  if (index) {
    const i = Number(index[1]);
    if (i < request.names.length) lines.push(`hist[${i}] is row ${i + 1} (“${request.names[i]}”).`);
  }
  showError(el.libraryError, 'The privsample library rejected this input:', lines);
  clearTableResults();
  state.computed = false;
  updateControls();
  if (el.status.dataset.state !== 'ready' && !state.fatal) {
    el.status.dataset.state = 'ready';
    el.status.textContent = 'Ready: privsample (WebAssembly) runs in a Web Worker in this page.';
  }
}

function showFatal(error) {
  if (state.fatal) return;
  state.fatal = true;
  el.status.dataset.state = 'error';
  el.status.textContent = `The demo cannot run: ${error.name}: ${error.message}`;
  el.status.classList.add('error');
  updateControls();
}

function showError(container, title, lines) {
  if (!lines.length) {
    container.hidden = true;
    container.replaceChildren();
    return;
  }
  const parts = [];
  if (title) {
    const p = document.createElement('p');
    p.className = 'error-title';
    p.textContent = title;
    parts.push(p);
  }
  const list = document.createElement('ul');
  const shown = lines.slice(0, 12);
  for (const line of shown) {
    const li = document.createElement('li');
    li.textContent = line;
    list.append(li);
  }
  if (lines.length > shown.length) {
    const li = document.createElement('li');
    li.textContent = `… and ${lines.length - shown.length} more.`;
    list.append(li);
  }
  parts.push(list);
  container.replaceChildren(...parts);
  container.hidden = false;
}

// ---------------------------------------------------------------------------------------------
// One private sample.
async function drawSample() {
  if (!state.valid || !state.computed) return;
  const { names, hist } = state.valid;
  const epsilon = state.epsilon;
  el.draw.disabled = true;
  try {
    const { index } = await call('sample', { hist, epsilon });
    state.draws.push(epsilon);
    el.samplePlaceholder.hidden = true;
    el.sampleResult.parentElement.hidden = false;
    el.sampleResult.textContent = names[index];
    el.sampleResult.dataset.index = String(index);
    el.sampleEpsilon.textContent = `(draw #${state.draws.length}, spent ε = ${formatEpsilon(epsilon)})`;
    const recent = state.draws.slice(-8).map(formatEpsilon).join(', ');
    el.spendCount.textContent =
      state.draws.length === 1
        ? 'You have drawn 1 sample in this page.'
        : `You have drawn ${state.draws.length} samples in this page (ε ${state.draws.length > 8 ? '…, ' : ''}${recent}): their budgets add up.`;
  } catch (error) {
    showLibraryError(error, { names });
  } finally {
    updateControls();
  }
}

// ---------------------------------------------------------------------------------------------
// CSV paste.
function applyCsv() {
  el.csvOk.hidden = true;
  const { rows, errors, header } = parseHistogramCsv(el.csvInput.value);
  if (errors.length) {
    showError(el.csvError, 'This CSV was not used (your table is unchanged):', errors);
    el.csvInput.setAttribute('aria-invalid', 'true');
    return;
  }
  showError(el.csvError, '', []);
  el.csvInput.setAttribute('aria-invalid', 'false');
  state.rows = rows.map((r) => ({ name: r.name, count: String(r.count) }));
  renderTable();
  tableChanged();
  el.csvOk.textContent = `Loaded ${rows.length} categor${rows.length === 1 ? 'y' : 'ies'}${
    header ? ` (header row “${header.join(', ')}” skipped)` : ''
  }.`;
  el.csvOk.hidden = false;
}

async function loadExampleCsv() {
  try {
    const response = await fetch(new URL('./example.csv', document.baseURI));
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    el.csvInput.value = await response.text();
    showError(el.csvError, '', []);
    el.csvOk.textContent = 'Example CSV loaded into the box: press “Use this CSV”.';
    el.csvOk.hidden = false;
    el.csvInput.focus();
  } catch (error) {
    showError(el.csvError, 'Could not load the example CSV:', [String(error.message || error)]);
  }
}

function openCsvFile() {
  const file = el.csvFile.files?.[0];
  if (!file) return;
  file.text().then(
    (text) => {
      el.csvInput.value = text;
      applyCsv();
      el.csvFile.value = '';
    },
    (error) => showError(el.csvError, 'Could not read the file:', [String(error.message || error)]),
  );
}

// ---------------------------------------------------------------------------------------------
// Wiring.
const barChart = createBarChart($('bar-chart'));
const divergenceChart = createDivergenceChart($('divergence-chart'));

el.slider.addEventListener('input', onEpsilonInput);
el.f.addEventListener('change', () => {
  state.f = el.f.value;
  requestUpdate();
});
el.addRow.addEventListener('click', () => {
  const used = new Set(state.rows.map((r) => r.name.trim()));
  let n = state.rows.length + 1;
  while (used.has(`Category ${n}`)) n += 1;
  state.rows.push({ name: `Category ${n}`, count: '1' });
  renderTable();
  tableChanged();
  const names = el.body.querySelectorAll('input.name');
  names[names.length - 1]?.focus();
  names[names.length - 1]?.select();
});
el.reset.addEventListener('click', () => {
  el.csvOk.hidden = true;
  state.rows = DEFAULT_HISTOGRAM.map((r) => ({ ...r }));
  renderTable();
  tableChanged();
});
el.draw.addEventListener('click', drawSample);
el.csvApply.addEventListener('click', applyCsv);
el.csvExample.addEventListener('click', loadExampleCsv);
el.csvFile.addEventListener('change', openCsvFile);
el.csvInput.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) applyCsv();
});

renderTable();
onEpsilonInput();
tableChanged();
