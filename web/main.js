// The histogram page (index.html): one store (histogram/store.js) and the panels mounted around it — the table, the
// CSV box, the mechanism and ε controls, the outputs, the accountant, one private sample (released through the
// privacy-budget ledger, which records it), downloads and persistence.
// This file only connects them to the page's Web Worker (worker.js, through the one protocol of rpc.js): every
// number comes from the privsample API there, so the page never freezes and holds no mathematics.
import { $, elements, showError, showStatus } from './dom.js';
import { learnMechanisms } from './mechanisms.js';
import { createWorkerClient, isAbort } from './rpc.js';
import { mountAccountant } from './histogram/accountant-panel.js';
import { mountCsvPanel } from './histogram/csv-panel.js';
import { mountDownloads } from './histogram/downloads.js';
import { mountLedgerPanel } from './histogram/ledger-panel.js';
import { mountOptions } from './histogram/options.js';
import { mountPersistence } from './histogram/persist.js';
import { mountResults } from './histogram/results.js';
import { mountSamplePanel } from './histogram/sample-panel.js';
import { createStore } from './histogram/store.js';
import { mountTable } from './histogram/table.js';

const el = elements({ app: 'app', status: 'status', version: 'version', libraryError: 'library-error', optionsError: 'options-error' });
Object.assign(el, elements({ draw: 'draw', downloadPq: 'download-pq', downloadCurves: 'download-curves' }));
const store = createStore({
  f: $('divergence-f').value || 'kl',
  mechanism: $('mechanism').dataset.default,
  accountantPrior: $('accountant-prior').value || 'own',
});
const { state } = store;
const worker = createWorkerClient(() => new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }));

// ---- the worker's answers: 'update' requests are coalesced (worker.latest), only the newest input's answer is shown
let outstanding = 0;
const setBusy = () => {
  el.app.dataset.busy = String(outstanding > 0 || (state.kinds === null && !state.fatal));
};

function requestUpdate() {
  state.generation += 1;
  if (!state.valid || !state.settings || !state.kinds) {
    setBusy();
    return;
  }
  const { names, hist } = state.valid;
  const request = { generation: state.generation, names, hist, mechanism: state.mechanism };
  const payload = { hist, epsilon: state.epsilon, f: state.f, mechanism: state.mechanism, settings: state.settings, accountantPrior: state.accountantPrior };
  outstanding += 1;
  setBusy();
  worker
    .latest('update', 'update', payload)
    .then(
      (result) => {
        if (request.generation === state.generation) showResult(request, result);
      },
      (error) => {
        if (!isAbort(error) && request.generation === state.generation) store.emit('rejected', { error, request });
      },
    )
    .finally(() => {
      outstanding -= 1;
      setBusy();
    });
}

function showResult(request, result) {
  // The main-thread cost of showing an answer, as a User Timing measure ('privsample:show'): the e2e reads it.
  const started = performance.now();
  try {
    showError(el.libraryError, '', []);
    if (state.settings) showError(el.optionsError, '', []);
    state.computed = true;
    updateControls();
    state.last = { request, result };
    store.emit('result', { request, result });
    el.version.textContent = result.version;
    if (el.status.dataset.state !== 'ready') {
      showStatus(el.status, 'ready', `Ready: privsample ${result.version} (WebAssembly) runs in a Web Worker in this page.`);
    }
  } finally {
    performance.measure('privsample:show', { start: started, detail: { k: result.k } });
  }
}

/** The library's own error (RangeError / TypeError), shown as it is, with the row it refers to. */
function showLibraryError({ error, request }) {
  const lines = [`${error.name}: ${error.message}`];
  // Errors about the mechanism's options go next to the options, the others next to the table.
  const aboutOptions = /^(options\.)?(prior|gamma|delta|mu|records|the prior|k = \d+ but the prior)\b/.test(error.message);
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
    if (store.is('recordLevel', request.mechanism ?? state.mechanism))
      lines.push('This mechanism treats your counts as n records: every count must be a whole number (n is their sum).');
    showError(el.libraryError, 'The privsample library rejected this input:', lines);
    showError(el.optionsError, '', []);
  }
  store.emit('clear');
  state.computed = false;
  updateControls();
  if (el.status.dataset.state !== 'ready' && !state.fatal) {
    showStatus(el.status, 'ready', 'Ready: privsample (WebAssembly) runs in a Web Worker in this page.');
  }
}

function showFatal(error) {
  if (state.fatal) return;
  state.fatal = true;
  showStatus(el.status, 'error', `The demo cannot run: ${error.name}: ${error.message}`);
  el.status.classList.add('error');
  updateControls();
  setBusy();
}

function updateControls() {
  const usable = !state.fatal && state.valid !== null && state.settings !== null && state.computed;
  el.draw.disabled = !usable;
  el.downloadPq.disabled = !usable;
  el.downloadCurves.disabled = !usable;
  document.querySelectorAll('.chart-card').forEach((card) => card.classList.toggle('stale', !state.computed));
}

// ---- mounting: the store's events connect the panels (histogram/store.js lists them)
store.on('input', requestUpdate);
store.on('stale', () => {
  state.computed = false;
  updateControls();
});
store.on('controls', updateControls);
store.on('rejected', showLibraryError);
worker.onFatal(showFatal);

const table = mountTable(store);
mountCsvPanel(table);
const options = mountOptions(store);
mountResults(store);
mountAccountant(store);
const ledger = mountLedgerPanel(store, { worker });
mountSamplePanel(store, { ledger, budgetSymbol: options.budgetSymbol });
const persistence = mountPersistence(store);
mountDownloads(store, persistence);

persistence.restore();
table.render();
options.start();
table.changed();
// The mechanisms (the picker's entries, their labels and colours) and which takes records, a prior or a notion: the
// library's registry, read in the worker.
worker.call('mechanisms').then(({ mechanisms, kinds }) => {
  learnMechanisms(mechanisms);
  state.kinds = Object.fromEntries(Object.entries(kinds).map(([kind, names]) => [kind, new Set(names)]));
  store.emit('kinds');
}, showFatal);
