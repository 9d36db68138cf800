// The privsample demo page: the histogram editor, the ε slider, the sample button and the two charts.
// Page code only collects input and formats results; every number comes from the privsample API,
// called in a Web Worker (worker.js) so the page never freezes.
import {
  createAccountantChart,
  createBarChart,
  createDivergenceChart,
  updateAccountantChart,
  updateBarChart,
  updateDivergenceChart,
} from './charts.js';
import { parseHistogramCsv } from './csv.js';
import { cssColor } from './theme.js';
import { MAX_CATEGORIES, checkRows, parseCount } from './validate.js';
import { csvLine, downloadCanvas, downloadText, fragmentOf, loadSettings, saveSettings, settingsFromFragment } from './keep.js';
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

/** One plain-language line per mechanism (what it does; the guarantee line below says what it promises). */
const MECHANISMS = {
  minimax: {
    name: 'minimax',
    short: 'the minimax sampler',
    explain:
      'Minimax-optimal clip sampler (Park, Asoodeh, Lee): scales P and clips it into the privacy box, so no category falls below 1/(e^ε+k−1). The smallest worst-case loss of any ε-LDP sampler.',
  },
  linear: {
    name: 'linear',
    short: 'the linear sampler',
    explain:
      'Linear sampler: draws one category from P, then keeps it or replaces it by a uniformly random category (randomized response). Can also give (ε, δ)- or Gaussian LDP.',
  },
  mollifier: {
    name: 'mollifier',
    short: 'the relative mollifier',
    explain:
      'Relative mollifier (Husain et al.): the distribution closest to P among those within a factor e^ε of a reference (here uniform).',
  },
  local: {
    name: 'local',
    short: 'the local clip sampler',
    explain:
      'Local clip sampler (Ghoukasian, Lee, Asoodeh): uses a public prior P0 and is optimal for histograms within a factor γ of it; much closer to P when P looks like P0.',
  },
  'local-linear': {
    name: 'local linear',
    short: 'the local linear sampler',
    explain:
      'Local linear sampler (Ghoukasian, Lee, Asoodeh): mixes P with the public prior P0 just enough for privacy; pure, (ε, δ)- or Gaussian LDP.',
  },
  roo: {
    name: 'ROO',
    short: 'Reveal-or-Obscure',
    explain:
      'Reveal-or-Obscure (Tasnim et al.): treats your counts as n records; with some probability reveals one of them at random, otherwise releases a random category. Counts must be whole numbers.',
  },
  'ds-roo': {
    name: 'DS-ROO',
    short: 'data-specific Reveal-or-Obscure',
    explain:
      'Data-specific Reveal-or-Obscure (Tasnim et al., with the q_M fix): like ROO, but the obscuring step depends on your smallest count. Counts must be whole numbers.',
  },
  'laplace-projection': {
    name: 'Laplace',
    short: 'Laplace + projection',
    explain:
      'Laplace baseline: adds Laplace(2/ε) noise to your counts, clips and renormalises them, then draws one category. No closed-form worst case. Counts must be whole numbers.',
  },
};
const RECORD_LEVEL = new Set(['roo', 'ds-roo', 'laplace-projection']);
const PRIOR_BASED = new Set(['local', 'local-linear']);
const NOTION_BASED = new Set(['linear', 'local-linear']);

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
  mechanism: $('mechanism'),
  explain: $('mechanism-explain'),
  notionRow: $('notion-row'),
  notion: $('notion'),
  delta: $('delta'),
  deltaLabel: $('delta-label'),
  priorRow: $('prior-row'),
  priorMode: $('prior-mode'),
  prior: $('prior'),
  priorLabel: $('prior-label'),
  gamma: $('gamma'),
  optionsError: $('options-error'),
  epsilonLabel: $('epsilon-label'),
  barsMechanism: $('bars-mechanism'),
  compareNote: $('compare-note'),
  accountant: $('accountant-list'),
  accountantCard: document.querySelector('.accountant'),
  accountantPrior: $('accountant-prior'),
  accountantError: $('accountant-error'),
  accountantMechanism: $('accountant-mechanism'),
  accountantInputs: $('accountant-inputs'),
  accLdp: $('acc-ldp'),
  accLdpExplain: $('acc-ldp-explain'),
  accMi: $('acc-mi'),
  accMiExplain: $('acc-mi-explain'),
  accCapacity: $('acc-capacity'),
  accLip: $('acc-lip'),
  accBounds: $('acc-bounds'),
  accBoundsExplain: $('acc-bounds-explain'),
  accErratum: $('acc-erratum'),
  accountantNote: $('accountant-note'),
  pager: $('table-pager'),
  pagePrev: $('page-prev'),
  pageNext: $('page-next'),
  pageInfo: $('page-info'),
  copyLink: $('copy-link'),
  shareLink: $('share-link'),
  shareStatus: $('share-status'),
  downloadPq: $('download-pq'),
  downloadCurves: $('download-curves'),
};

/** Rows of the table rendered at once: a 1,000-category histogram is shown page by page, so edits stay fast. */
const PAGE_SIZE = 100;

const state = {
  rows: DEFAULT_HISTOGRAM.map((r) => ({ ...r })),
  epsilon: 1,
  f: el.f.value || 'kl',
  valid: null, // { names, hist } of the last histogram that passed the page's checks, or null
  mechanism: el.mechanism.value || 'minimax',
  accountantPrior: el.accountantPrior.value || 'own',
  settings: null, // { notion, delta, prior, gamma } when the mechanism's inputs pass the page's checks, else null
  computed: false, // the charts show the current input
  draws: [],
  fatal: false,
  page: 0, // the table page shown (PAGE_SIZE rows each)
  problems: new Map(), // row index → the validator's messages for that row
  last: null, // { request, result } of the newest answer shown, for the table pages and the downloads
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
  scheduleSave();
  if (!state.valid || !state.settings) {
    updatePending = null;
    setBusy();
    return;
  }
  updatePending = {
    generation: updateGeneration,
    names: state.valid.names,
    hist: state.valid.hist,
    epsilon: state.epsilon,
    f: state.f,
    mechanism: state.mechanism,
    settings: state.settings,
    accountantPrior: state.accountantPrior,
  };
  pumpUpdates();
}

function pumpUpdates() {
  setBusy();
  if (updateInFlight || !updatePending) return;
  const request = updatePending;
  updatePending = null;
  updateInFlight = true;
  call('update', {
    hist: request.hist,
    epsilon: request.epsilon,
    f: request.f,
    mechanism: request.mechanism,
    settings: request.settings,
    accountantPrior: request.accountantPrior,
  })
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

/** The slider sets ε, or μ for the Gaussian notion of the linear samplers. */
function budgetSymbol() {
  return NOTION_BASED.has(state.mechanism) && el.notion.value === 'gaussian' ? 'μ' : 'ε';
}

function onEpsilonInput() {
  state.epsilon = epsilonFromSlider();
  const symbol = budgetSymbol();
  el.epsilonLabel.textContent = `${symbol} (logarithmic scale, 0.01 to 10)`;
  const text = `${symbol} = ${formatEpsilon(state.epsilon)}`;
  el.epsilonValue.textContent = text;
  el.slider.setAttribute('aria-valuetext', text);
  requestUpdate();
}

// ---------------------------------------------------------------------------------------------
// The mechanism picker and its options (notion and δ; public prior and γ). The page only checks that
// the fields hold numbers; the library checks their values (δ in [0,1), γ > 1, prior length and zeros).
function onMechanismChange() {
  state.mechanism = el.mechanism.value;
  const info = MECHANISMS[state.mechanism];
  el.explain.textContent = info ? info.explain : '';
  el.notionRow.hidden = !NOTION_BASED.has(state.mechanism);
  el.priorRow.hidden = !PRIOR_BASED.has(state.mechanism);
  el.barsMechanism.textContent = info ? info.short : state.mechanism;
  el.accountantMechanism.textContent = info ? info.short : state.mechanism;
  el.accountantPrior.querySelector('option[value="public"]').textContent = PRIOR_BASED.has(state.mechanism)
    ? 'the public prior P0'
    : 'a public prior (uniform)';
  onEpsilonInput(); // the slider's symbol (ε or μ) may change; also requests the update
  settingsChanged();
}

function readNumber(text, what, problems, input) {
  const parsed = parseCount(text);
  input?.setAttribute('aria-invalid', String(Boolean(parsed.problem)));
  if (parsed.problem) {
    problems.push(`${what}: ${parsed.problem.replace('the count', 'the value')}.`);
    return null;
  }
  return parsed.value;
}

function validateSettings() {
  const problems = [];
  const settings = { notion: 'pure', delta: 0, prior: 'uniform', gamma: 2 };
  if (NOTION_BASED.has(state.mechanism)) {
    settings.notion = el.notion.value;
    if (settings.notion === 'approx') settings.delta = readNumber(el.delta.value, 'δ', problems, el.delta);
  }
  el.deltaLabel.hidden = !(NOTION_BASED.has(state.mechanism) && el.notion.value === 'approx');
  el.priorLabel.hidden = el.priorMode.value !== 'custom';
  // The prior and γ are read whatever the mechanism: the comparison chart always draws the local sampler
  // with them. They block the page only when the chosen mechanism needs them.
  const priorProblems = [];
  settings.gamma = readNumber(el.gamma.value, 'γ', priorProblems, el.gamma);
  if (el.priorMode.value === 'custom') {
    const fields = el.prior.value.split(/[,;\s]+/).filter((t) => t !== '');
    if (fields.length === 0) {
      priorProblems.push('Prior: enter one count or probability per category, separated by commas.');
      el.prior.setAttribute('aria-invalid', 'true');
    } else {
      const values = fields.map((t, i) => readNumber(t, `Prior entry ${i + 1}`, priorProblems, null));
      el.prior.setAttribute('aria-invalid', String(values.includes(null)));
      settings.prior = values;
    }
  } else {
    el.prior.setAttribute('aria-invalid', 'false');
  }
  if (priorProblems.length) {
    if (PRIOR_BASED.has(state.mechanism)) problems.push(...priorProblems);
    settings.prior = 'invalid';
    settings.gamma = null;
  }
  return { problems, settings };
}

function settingsChanged() {
  clearTimeout(settingsTimer);
  const { problems, settings } = validateSettings();
  showError(el.optionsError, problems.length ? 'Please fix the mechanism options:' : '', problems);
  state.settings = problems.length ? null : settings;
  if (problems.length) clearTableResults();
  markStale();
  requestUpdate();
}

let settingsTimer = 0;
function scheduleSettingsChange() {
  clearTimeout(settingsTimer);
  settingsTimer = setTimeout(settingsChanged, 200);
  markStale();
}

// ---------------------------------------------------------------------------------------------
// The editable table.
function pageCount() {
  return Math.max(1, Math.ceil(state.rows.length / PAGE_SIZE));
}

function renderTable() {
  state.page = Math.min(state.page, pageCount() - 1);
  const first = state.page * PAGE_SIZE;
  const fragment = document.createDocumentFragment();
  state.rows.slice(first, first + PAGE_SIZE).forEach((row, offset) => {
    const index = first + offset;
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
      rows[Math.min(offset, rows.length - 1)]?.focus();
    });
    removeCell.append(remove);

    tr.append(nameCell, countCell, pCell, qCell, removeCell);
    fragment.append(tr);

    // The validator's message for this row, right under it (filled by showRowProblems).
    const problemRow = document.createElement('tr');
    problemRow.className = 'row-problem';
    problemRow.hidden = true;
    const problemCell = document.createElement('td');
    problemCell.colSpan = 5;
    problemCell.id = `row-problem-${index}`;
    problemCell.setAttribute('data-testid', 'row-problem');
    problemRow.append(problemCell);
    fragment.append(problemRow);
  });
  el.body.replaceChildren(fragment);
  el.addRow.disabled = state.rows.length >= MAX_CATEGORIES;
  el.pager.hidden = state.rows.length <= PAGE_SIZE;
  el.pageInfo.textContent = `Rows ${first + 1}–${Math.min(first + PAGE_SIZE, state.rows.length)} of ${state.rows.length}`;
  el.pagePrev.disabled = state.page === 0;
  el.pageNext.disabled = state.page >= pageCount() - 1;
  showRowProblems();
}

/** Marks the rows of the shown page the validator complained about, with its message next to the row. */
function showRowProblems() {
  el.body.querySelectorAll('tr[data-row]').forEach((tr) => {
    const i = Number(tr.dataset.row);
    const problems = state.problems.get(i) ?? [];
    const fields = new Set(problems.map((p) => p.field));
    for (const field of ['name', 'count']) {
      const input = tr.querySelector(`input.${field}`);
      input.setAttribute('aria-invalid', String(fields.has(field)));
      if (fields.has(field)) input.setAttribute('aria-describedby', `row-problem-${i}`);
      else input.removeAttribute('aria-describedby');
    }
    const problemRow = tr.nextElementSibling;
    problemRow.hidden = problems.length === 0;
    problemRow.firstElementChild.textContent = problems.map((p) => p.message).join(' ');
  });
}

/** The P and Q(·|P) cells of the shown page, from the newest answer (— while the table cannot be computed). */
function fillTableResults() {
  // Only an answer for the rows as they are now (a table just replaced waits for its own answer).
  const current = state.computed && state.last && state.last.request.generation === updateGeneration;
  const result = current ? state.last.result : null;
  el.body.querySelectorAll('tr[data-row]').forEach((tr) => {
    const i = Number(tr.dataset.row);
    tr.querySelector('td.p').textContent = result ? formatProbability(result.p[i]) : '—';
    tr.querySelector('td.q').textContent = result ? formatProbability(result.q[i]) : '—';
  });
}

let tableTimer = 0;
function scheduleTableChange() {
  clearTimeout(tableTimer);
  tableTimer = setTimeout(tableChanged, 150);
  markStale();
}

/** Checks the table with the validator the CSV path uses (validate.js); the library checks the mechanism's own rules. */
function validateTable() {
  const label = (i, name) => `Row ${i + 1}${name ? ` (“${name}”)` : ''}`;
  const { problems, names, hist } = checkRows(state.rows, label);
  state.problems = new Map();
  for (const p of problems) {
    if (p.index < 0) continue;
    if (!state.problems.has(p.index)) state.problems.set(p.index, []);
    state.problems.get(p.index).push(p);
  }
  showRowProblems();
  return { problems: problems.map((p) => p.message), names, hist };
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
  const usable = !state.fatal && state.valid !== null && state.settings !== null && state.computed;
  el.draw.disabled = !usable;
  el.downloadPq.disabled = !usable;
  el.downloadCurves.disabled = !usable;
  document.querySelectorAll('.chart-card').forEach((card) => card.classList.toggle('stale', !state.computed));
}

// ---------------------------------------------------------------------------------------------
// Results and errors from the worker.
function showResult(request, result) {
  // The main-thread cost of showing an answer, as a User Timing measure ('privsample:show'): the e2e reads it.
  const started = performance.now();
  try {
    renderResult(request, result);
  } finally {
    performance.measure('privsample:show', { start: started, detail: { k: result.k } });
  }
}

function renderResult(request, result) {
  const { names } = request;
  showError(el.libraryError, '', []);
  if (state.settings) showError(el.optionsError, '', []);
  state.computed = true;
  updateControls();

  updateBarChart(barChart, {
    names,
    p: result.p,
    q: result.q,
    epsilon: result.epsilon,
    mechanism: result.mechanism,
    guarantee: result.guarantee,
    label: MECHANISMS[result.mechanism]?.short ?? result.mechanism,
  });
  updateDivergenceChart(divergenceChart, result, (m) => MECHANISMS[m]?.name ?? m);

  state.last = { request, result };
  fillTableResults();

  showGuarantee(result.guarantee);
  el.guarantee.dataset.notion = result.guarantee.notion;
  el.guarantee.dataset.mechanism = result.mechanism;
  const short = MECHANISMS[result.mechanism]?.short ?? result.mechanism;
  if (result.normaliser === null) el.barsSummary.textContent = `Here k = ${result.k}; Q(·|P) of ${short}.`;
  else if (result.normaliser > 0)
    el.barsSummary.textContent = `Here k = ${result.k}; ${short} uses the normaliser r_P = ${formatNumber(result.normaliser)}.`;
  else el.barsSummary.textContent = `Here k = ${result.k}; P is sparse (r_P → 0): Q keeps the floor on every category outside P's support.`;
  const fl = F_LABEL[result.f];
  const budget = result.guarantee.notion === 'gaussian-ldp' ? `μ = ${formatEpsilon(result.guarantee.mu)}` : `ε = ${formatEpsilon(result.epsilon)}`;
  const worst = result.current.worst === null ? result.current.worstNote : formatNumber(result.current.worst);
  el.divSummary.textContent = `Chosen: ${short} at ${budget}: your ${fl} = ${formatNumber(result.current.user)}, worst case ${worst}.`;
  showCompareNotes(result);
  showAccountant(result);

  el.version.textContent = result.version;
  if (el.status.dataset.state !== 'ready') {
    el.status.dataset.state = 'ready';
    el.status.textContent = `Ready: privsample ${result.version} (WebAssembly) runs in a Web Worker in this page.`;
  }
}

/** A number of bits for the accountant panel. */
function bits(value) {
  return `${formatNumber(value)} bit${value === 1 ? '' : 's'}`;
}

function epsilonText(value) {
  return Number.isFinite(value) ? formatNumber(value) : '∞';
}

/** The accountant panel: every notion of the chosen mechanism (numbers from ps.accountant in the worker). */
function showAccountant(result) {
  const acc = result.accountant;
  el.accountantInputs.textContent = RECORD_LEVEL.has(result.mechanism)
    ? `all n = ${result.records} records on one of the k = ${result.k} categories`
    : `k = ${result.k} point masses`;
  if (acc && acc.unavailable) {
    showAccountantUnavailable(acc.unavailable);
    return;
  }
  el.accountantNote.hidden = true;
  if (!acc || acc.error) {
    showAccountantError(acc ? acc.error : 'no result');
    return;
  }
  showError(el.accountantError, '', []);
  el.accountant.hidden = false;
  const pick = [25, 50, 75].filter((i) => i < acc.epsilons.length);
  const deltas = pick.map((i) => `δ(${formatEpsilon(acc.epsilons[i])}) = ${formatNumber(acc.ldp.delta[i])}`).join(', ');
  const pure = Number.isFinite(acc.ldp.pureEpsilon);
  el.accLdp.textContent = pure ? `pure ε = ${formatEpsilon(acc.ldp.pureEpsilon)}` : 'no pure ε (only (ε′, δ) pairs)';
  el.accLdp.dataset.value = String(acc.ldp.pureEpsilon);
  const group = RECORD_LEVEL.has(result.mechanism) ? ` Here between two users whose n = ${result.records} records all fall on one category vs. another (group privacy).` : '';
  el.accLdpExplain.replaceChildren(
    'No observer of the sample can tell any two users apart by more than a factor e',
    sup('ε'),
    `${pure ? '' : ' (except with probability δ)'}. ${pure ? 'Below the pure ε, with probability δ' : 'At smaller ε′'}: ${deltas}.${group}`,
  );
  const share = acc.entropy > 0 ? ` (${((100 * acc.mutualInformation) / acc.entropy).toFixed(1)}%)` : '';
  el.accMi.textContent = `leaks ${bits(acc.mutualInformation)} of H(X) = ${bits(acc.entropy)}${share}`;
  const source =
    acc.priorKind === 'own'
      ? 'your histogram P'
      : PRIOR_BASED.has(result.mechanism)
        ? 'the public prior P0'
        : 'the uniform prior';
  el.accMiExplain.textContent = `I(X;Y): if your item X is drawn from ${source}, the released sample Y reveals this much of the H(X) bits it takes to name it.`;
  const lower = formatNumber(acc.capacity.lower);
  const upper = formatNumber(acc.capacity.upper);
  el.accCapacity.textContent = `${lower === upper ? upper : `${lower} – ${upper}`} bits (of log₂ k = ${formatNumber(Math.log2(acc.k))})`;
  el.accLip.textContent = Number.isFinite(acc.lip.pureEpsilon) ? `ε = ${formatEpsilon(acc.lip.pureEpsilon)}` : 'no pure ε';
  const curveBound = acc.capacity.boundFromLdpCurve === null ? '' : `, ≤ ${bits(acc.capacity.boundFromLdpCurve)} from its δ curve`;
  el.accBounds.textContent = `capacity ≤ ${bits(acc.capacity.boundFromPureLdp)} from the pure ε${curveBound}`;
  const lipBound =
    acc.mutualInformationBoundFromLipCurve === null
      ? ''
      : ` Theorem 2(b), from the LIP curve: I(X;Y) ≤ ${bits(acc.mutualInformationBoundFromLipCurve)} (actual ${bits(acc.mutualInformation)}).`;
  el.accBoundsExplain.textContent = `What the paper's bounds promise from LDP alone, against the actual capacity ${upper} bits: they are loose.${lipBound}`;
  el.accErratum.textContent = `Erratum: Theorem 2(a) of the paper, as printed, would bound the LIP δ at ε′ = ${acc.erratum.epsilon} by ${formatNumber(
    acc.erratum.asPrinted,
  )} from I(X;Y) alone; that statement is false (a Gaussian mechanism breaks it). The corrected bound, which needs the prior's smallest mass (${formatProbability(
    acc.pMin,
  )}), gives ${formatNumber(acc.erratum.corrected)}; it is the dashed orange curve.`;
  el.accErratum.hidden = false;
  el.accountant.dataset.report = JSON.stringify(
    {
      mechanism: result.mechanism,
      epsilon: result.epsilon,
      k: acc.k,
      priorKind: acc.priorKind,
      ldpEpsilon: acc.ldp.pureEpsilon,
      lipEpsilon: acc.lip.pureEpsilon,
      mutualInformation: acc.mutualInformation,
      entropy: acc.entropy,
      capacityLower: acc.capacity.lower,
      capacityUpper: acc.capacity.upper,
      boundFromPureLdp: acc.capacity.boundFromPureLdp,
      boundFromLdpCurve: acc.capacity.boundFromLdpCurve,
    },
    (_key, value) => (typeof value === 'number' && !Number.isFinite(value) ? String(value) : value),
  );
  updateAccountantChart(accountantChart, acc);
}

/** The accountant is not computed for this size: a plain note (not an error), the rest of the page works. */
function showAccountantUnavailable(message) {
  showError(el.accountantError, '', []);
  el.accountantNote.textContent = message;
  el.accountantNote.hidden = false;
  el.accountant.hidden = true;
  el.accErratum.hidden = true;
  delete el.accountant.dataset.report;
  updateAccountantChart(accountantChart, { error: message });
}

/** The accountant could not run (a rejected input): say why, keep the rest of the page. */
function showAccountantError(message) {
  el.accountantNote.hidden = true;
  showError(el.accountantError, 'The accountant cannot be shown:', [message]);
  el.accountant.hidden = true;
  el.accErratum.hidden = true;
  delete el.accountant.dataset.report;
  updateAccountantChart(accountantChart, { error: message });
}

/** The guarantee line, from sampler.guarantee (the library says which notion holds, with its parameters). */
function showGuarantee(g) {
  const e = g.epsilon === undefined ? '' : formatEpsilon(g.epsilon);
  if (g.notion === 'pure-ldp') {
    el.guarantee.replaceChildren(
      'Pure ε-local differential privacy (ε = ',
      strong(e),
      '): for any two histograms P and P′ and every category x, the probability of releasing x differs by at most a factor e',
      sup('ε'),
      ' = e',
      sup(e),
      '.',
    );
  } else if (g.notion === 'approx-ldp') {
    el.guarantee.replaceChildren(
      '(ε, δ)-local differential privacy (ε = ',
      strong(e),
      ', δ = ',
      strong(String(g.delta)),
      '): for any two histograms P and P′ and any set A of categories, Pr[A | P] ≤ e',
      sup('ε'),
      '·Pr[A | P′] + δ.',
    );
  } else if (g.notion === 'gaussian-ldp') {
    el.guarantee.replaceChildren(
      'μ-Gaussian local differential privacy (μ = ',
      strong(formatEpsilon(g.mu)),
      '): telling any two histograms apart from the sample is at least as hard as telling N(0, 1) from N(μ, 1) apart.',
    );
  } else if (g.notion === 'record-dp') {
    el.guarantee.replaceChildren(
      'ε-DP for each of your n = ',
      strong(String(g.records)),
      ' records (ε = ',
      strong(e),
      '): changing any one record changes the probability of every released category by at most a factor e',
      sup('ε'),
      '. This protects single records, not the whole histogram (it is not local DP).',
    );
  } else {
    el.guarantee.textContent = `Guarantee: ${JSON.stringify(g)}`;
  }
}

/** Notes under the comparison chart: mechanisms left out and worst cases that do not cover this P. */
function showCompareNotes(result) {
  const notes = [];
  for (const s of result.curve.series) {
    const name = MECHANISMS[s.mechanism]?.short ?? s.mechanism;
    if (s.skipped) notes.push(`${name} is not shown: ${s.skipped}.`);
    else if (s.worst === null) notes.push(`${name}: worst case has no closed form (only your curve is drawn).`);
    else if (s.outsideNeighbourhood)
      notes.push(`${name}: your P is not within a factor γ of the prior, so its worst case (dashed) does not cover your P.`);
  }
  if (result.guarantee.notion === 'gaussian-ldp')
    notes.push('The chart uses ε: the Gaussian (μ) variant is drawn in its pure-ε form, without a current-value marker.');
  else if (result.guarantee.notion === 'approx-ldp') notes.push('The chart draws the linear samplers in their pure-ε form (δ = 0).');
  if (RECORD_LEVEL.has(result.mechanism) || result.curve.series.some((s) => s.mechanism === 'roo' && !s.skipped))
    notes.push('ROO curves are record-level ε-DP (n = sum of your counts), a weaker promise than LDP.');
  el.compareNote.textContent = notes.map((n) => n.charAt(0).toUpperCase() + n.slice(1)).join(' ');
  el.compareNote.hidden = notes.length === 0;
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
  // Errors about the mechanism's options go next to the options, the others next to the table.
  const aboutOptions = /^(prior|gamma|delta|mu|records|the prior|k = \d+ but the prior)\b/.test(error.message);
  if (aboutOptions) {
    const index = /prior\[(\d+)\]/.exec(error.message);
    if (index && Number(index[1]) < request.names.length) {
      const i = Number(index[1]);
      lines.push(`prior[${i}] is the prior's entry ${i + 1}, for “${request.names[i]}”.`);
    }
    showError(el.optionsError, 'The privsample library rejected the mechanism options:', lines);
    showError(el.libraryError, '', []);
  } else {
    const index = /hist\[(\d+)\]/.exec(error.message);
    if (index) {
      const i = Number(index[1]);
      if (i < request.names.length) lines.push(`hist[${i}] is row ${i + 1} (“${request.names[i]}”).`);
    }
    if (RECORD_LEVEL.has(request.mechanism ?? state.mechanism))
      lines.push('This mechanism treats your counts as n records: every count must be a whole number (n is their sum).');
    showError(el.libraryError, 'The privsample library rejected this input:', lines);
    showError(el.optionsError, '', []);
  }
  clearTableResults();
  showAccountantError(`the mechanism rejected the input (${error.name}: ${error.message})`);
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
  if (!state.settings) return;
  const { names, hist } = state.valid;
  const epsilon = state.epsilon;
  const mechanism = state.mechanism;
  const symbol = budgetSymbol();
  el.draw.disabled = true;
  try {
    const { index } = await call('sample', { hist, epsilon, mechanism, settings: state.settings });
    state.draws.push(epsilon);
    el.samplePlaceholder.hidden = true;
    el.sampleResult.parentElement.hidden = false;
    el.sampleResult.textContent = names[index];
    el.sampleResult.dataset.index = String(index);
    el.sampleResult.dataset.mechanism = mechanism;
    el.sampleEpsilon.textContent = `(draw #${state.draws.length}, ${MECHANISMS[mechanism]?.short ?? mechanism}, spent ${symbol} = ${formatEpsilon(
      epsilon,
    )})`;
    const recent = state.draws.slice(-8).map(formatEpsilon).join(', ');
    el.spendCount.textContent =
      state.draws.length === 1
        ? 'You have drawn 1 sample in this page.'
        : `You have drawn ${state.draws.length} samples in this page (ε ${state.draws.length > 8 ? '…, ' : ''}${recent}): their budgets add up.`;
  } catch (error) {
    showLibraryError(error, { names, mechanism });
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
  state.page = 0;
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
const accountantChart = createAccountantChart($('accountant-chart'));

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
  state.page = pageCount() - 1;
  renderTable();
  tableChanged();
  const names = el.body.querySelectorAll('input.name');
  names[names.length - 1]?.focus();
  names[names.length - 1]?.select();
});
el.reset.addEventListener('click', () => {
  el.csvOk.hidden = true;
  state.rows = DEFAULT_HISTOGRAM.map((r) => ({ ...r }));
  state.page = 0;
  renderTable();
  tableChanged();
});
el.draw.addEventListener('click', drawSample);
el.mechanism.addEventListener('change', onMechanismChange);
el.accountantPrior.addEventListener('change', () => {
  state.accountantPrior = el.accountantPrior.value;
  markStale();
  requestUpdate();
});
el.notion.addEventListener('change', () => {
  onEpsilonInput();
  settingsChanged();
});
el.priorMode.addEventListener('change', settingsChanged);
for (const input of [el.delta, el.gamma, el.prior]) input.addEventListener('input', scheduleSettingsChange);
el.csvApply.addEventListener('click', applyCsv);
el.csvExample.addEventListener('click', loadExampleCsv);
el.csvFile.addEventListener('change', openCsvFile);
el.csvInput.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) applyCsv();
});

// ---------------------------------------------------------------------------------------------
// Keeping and sharing (keep.js): the settings are saved in this browser, and a link carries them in its fragment.
function snapshot() {
  return {
    rows: state.rows.map((r) => [r.name, r.count]),
    mechanism: el.mechanism.value,
    slider: Number(el.slider.value),
    f: el.f.value,
    notion: el.notion.value,
    delta: el.delta.value,
    priorMode: el.priorMode.value,
    prior: el.prior.value,
    gamma: el.gamma.value,
    accountantPrior: el.accountantPrior.value,
  };
}

function setSelect(select, value) {
  if ([...select.options].some((o) => o.value === value)) select.value = value;
}

/** Puts saved or linked settings into the page; anything unreadable is ignored (the example stays). */
function applySnapshot(saved) {
  if (!saved || typeof saved !== 'object') return false;
  const rows = Array.isArray(saved.rows) ? saved.rows : [];
  if (rows.length >= 1 && rows.length <= MAX_CATEGORIES && rows.every((r) => Array.isArray(r) && r.length === 2)) {
    state.rows = rows.map(([name, count]) => ({ name: String(name), count: String(count) }));
  }
  if (typeof saved.mechanism === 'string') setSelect(el.mechanism, saved.mechanism);
  if (Number.isFinite(saved.slider)) el.slider.value = String(saved.slider);
  for (const [select, key] of [[el.f, 'f'], [el.notion, 'notion'], [el.priorMode, 'priorMode'], [el.accountantPrior, 'accountantPrior']]) {
    if (typeof saved[key] === 'string') setSelect(select, saved[key]);
  }
  for (const [input, key] of [[el.delta, 'delta'], [el.prior, 'prior'], [el.gamma, 'gamma']]) {
    if (typeof saved[key] === 'string') input.value = saved[key];
  }
  state.f = el.f.value;
  state.accountantPrior = el.accountantPrior.value;
  return true;
}

let saveTimer = 0;
let restored = false; // nothing is saved before the saved settings were read
function scheduleSave() {
  if (!restored) return;
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => saveSettings(snapshot()), 200);
}

async function copyLink() {
  const url = `${location.href.split('#')[0]}${fragmentOf(snapshot())}`;
  el.shareLink.value = url;
  el.shareLink.hidden = false;
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch {
    // no clipboard permission: the link is in the box to copy by hand
  }
  el.shareStatus.textContent = copied
    ? 'Link copied. Whoever opens it sees your histogram and settings: share it only with people who may see them.'
    : 'Copy the link in the box above. Whoever opens it sees your histogram and settings.';
  el.shareStatus.hidden = false;
  el.shareLink.select();
}

function downloadPq() {
  if (!state.last || !state.computed) return;
  const { request, result } = state.last;
  const lines = [csvLine(['category', 'count', 'P', 'Q'])];
  request.names.forEach((name, i) => lines.push(csvLine([name, request.hist[i], result.p[i], result.q[i]])));
  downloadText(`${lines.join('\r\n')}\r\n`, `privsample-${result.mechanism}-epsilon-${formatEpsilon(result.epsilon)}-p-q.csv`);
}

function downloadCurves() {
  if (!state.last || !state.computed) return;
  const { result } = state.last;
  const lines = [csvLine(['f', 'mechanism', 'curve', 'epsilon', 'value'])];
  for (const series of result.curve.series) {
    if (series.skipped) continue;
    for (const [curve, values] of [['worst case', series.worst], ['yours', series.user]]) {
      (values ?? []).forEach((value, i) => lines.push(csvLine([result.f, series.mechanism, curve, result.curve.epsilon[i], value])));
    }
  }
  downloadText(`${lines.join('\r\n')}\r\n`, `privsample-curves-${result.f}.csv`);
}

el.copyLink.addEventListener('click', copyLink);
el.downloadPq.addEventListener('click', downloadPq);
el.downloadCurves.addEventListener('click', downloadCurves);
for (const button of document.querySelectorAll('button[data-png]')) {
  button.addEventListener('click', () => downloadCanvas($(button.dataset.png), `privsample-${button.dataset.png}.png`, cssColor('--card', '#ffffff')));
}
el.pagePrev.addEventListener('click', () => {
  state.page = Math.max(0, state.page - 1);
  renderTable();
  fillTableResults();
});
el.pageNext.addEventListener('click', () => {
  state.page = Math.min(pageCount() - 1, state.page + 1);
  renderTable();
  fillTableResults();
});
window.addEventListener('pagehide', () => {
  if (restored) saveSettings(snapshot());
});

{
  const linked = settingsFromFragment(location.hash);
  if (linked) {
    applySnapshot(linked);
    // The settings now live in the page (and in local storage): drop the fragment so a reload keeps later edits.
    history.replaceState(null, '', location.href.split('#')[0]);
    el.shareStatus.textContent = 'Settings loaded from the link you opened.';
    el.shareStatus.hidden = false;
  } else {
    applySnapshot(loadSettings());
  }
  restored = true;
}
renderTable();
state.settings = validateSettings().settings;
onMechanismChange();
tableChanged();
