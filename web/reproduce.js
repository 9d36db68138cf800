// The reproductions page (reproduce.html): a thin view over the registry of experiments (experiments/index.mjs, the
// same entries as `npm run reproduce`). Picking an entry runs it in the Web Worker (reproduce-worker.js, the shared
// protocol of web/rpc.js) in quick form, with its default set-up or at the paper's scale, with a progress bar and
// Stop (client.cancel()); the result is drawn by the shared renderer (web/panels.js), with its checks, the reference
// values beside ours with their sources and the entry's erratum next to the figure, and can be downloaded as CSV (the
// command line's file, experiments/table.mjs) and PNG (the drawn panels). No numbers are computed here.
// User Timing: 'privsample:reproduce:<name>' measures selection → drawn (closed-form entries must appear at once).
import { EXPERIMENTS, PAPERS, REFERENCE_SOURCES, setupOf } from '../experiments/index.mjs';
import { toCsv } from '../experiments/table.mjs';
import { formatNumber } from './format.js';
import { readableMath } from './math-text.js';
import { renderResult } from './panels.js';
import { createWorkerClient, isAbort } from './rpc.js';

const el = Object.fromEntries(['app', 'status', 'version', 'experiment', 'run', 'stop', 'progress', 'run-status', 'entry-figure', 'entry-paper',
  'entry-badges', 'entry-title', 'setup-mode', 'setup-list', 'run-error', 'verdict', 'erratum', 'panels', 'checks', 'printed-body', 'printed-none',
  'download-csv', 'download-png']
  .map((id) => [id, document.getElementById(id)]));
const results = document.querySelector('[data-testid="results"]');
const modeInputs = [...document.querySelectorAll('input[name="mode"]')];

const client = createWorkerClient(() => new Worker(new URL('./reproduce-worker.js', import.meta.url), { type: 'module' }));
client.onFatal(({ message }) => showStatus('error', message));

let running = null; // { name, quick } of the run in progress
let generation = 0;
let shown = null; // { entry, result } drawn last: what the downloads save

function showStatus(state, text) {
  el.status.dataset.state = state;
  el.status.textContent = text;
}

const shortPaper = (paper) => PAPERS[paper].split(' — ')[0].split(':')[0];
const number = (v) => (typeof v === 'number' ? formatNumber(v) : String(v));
const entryOf = (name) => EXPERIMENTS.find((e) => e.name === name);
const mode = () => modeInputs.find((i) => i.checked)?.value ?? 'quick';

// ---- the picker: every entry, grouped by paper ------------------------------------------------------------------
for (const [paper, title] of Object.entries(PAPERS)) {
  const group = document.createElement('optgroup');
  group.label = shortPaper(paper);
  group.title = title;
  for (const e of EXPERIMENTS.filter((x) => x.paper === paper)) {
    const option = new Option(`${e.figure} — ${e.name}${e.closedForm ? ' (closed form)' : ''}`, e.name);
    group.append(option);
  }
  el.experiment.append(group);
}

function showEntry(entry, quick, paperScale) {
  el['entry-figure'].textContent = `${entry.figure}`;
  el['entry-paper'].textContent = ` · ${PAPERS[entry.paper]}`;
  el['entry-badges'].replaceChildren(...[entry.closedForm ? 'closed form' : 'computed', entry.erratum ? 'erratum' : null].filter(Boolean).map((t) => {
    const b = document.createElement('span');
    b.className = 'badge';
    b.textContent = t;
    return b;
  }));
  el['entry-title'].textContent = readableMath(entry.title);
  el['setup-mode'].textContent = quick ? '(quick form: the default set-up with the quick overrides)'
    : paperScale ? `(the paper's scale${entry.paperScale ? ': the overrides marked' : ': the default set-up already is'})` : '(the default set-up)';
  const setup = setupOf(entry, { quick, paperScale });
  el['setup-list'].replaceChildren(...Object.entries(setup).flatMap(([key, value]) => {
    const dt = document.createElement('dt');
    dt.textContent = key;
    const dd = document.createElement('dd');
    // Numbers shown to 6 significant digits (the set-up itself, and the CLI's JSON, keep every digit).
    dd.textContent = typeof value === 'string' ? value
      : JSON.stringify(value, (k, v) => (typeof v === 'number' && Number.isFinite(v) ? Number(v.toPrecision(6)) : v)).replaceAll(',', ', ');
    if (Object.hasOwn(entry.quick ?? {}, key) && quick) dd.textContent += ' (quick)';
    if (Object.hasOwn(entry.paperScale ?? {}, key) && paperScale) dd.textContent += ' (paper\'s scale)';
    return [dt, dd];
  }));
  el.erratum.hidden = !entry.erratum;
  el.erratum.replaceChildren();
  if (entry.erratum) {
    const strong = document.createElement('strong');
    strong.textContent = 'Where the paper is wrong: ';
    el.erratum.append(strong, entry.erratum);
  }
}

function showResult(entry, { result, ms, ok, quick, paperScale }) {
  renderResult(el.panels, result);
  shown = { entry, result };
  el['download-csv'].disabled = false;
  el['download-png'].disabled = false;
  el.checks.replaceChildren(...result.checks.map((c) => {
    const li = document.createElement('li');
    li.dataset.ok = String(c.ok);
    li.dataset.testid = 'check';
    li.textContent = `${c.label}: ${number(c.value)}${c.limit !== undefined ? ` (limit ${number(c.limit)})` : ''}`;
    return li;
  }));
  el['printed-none'].hidden = result.printed.length > 0;
  el['printed-body'].replaceChildren(...result.printed.map((p) => {
    const tr = document.createElement('tr');
    tr.dataset.ok = String(p.ok);
    tr.dataset.testid = 'printed-row';
    const cells = [p.label, number(p.paper), p.source, `${number(p.computed)} ${p.ok ? '✓' : '✗'}`];
    cells.forEach((text, i) => {
      const td = document.createElement('td');
      td.textContent = text;
      if (i === 1 || i === 3) td.className = 'num';
      if (i === 2) {
        td.title = REFERENCE_SOURCES[text] ?? '';
        td.dataset.testid = 'printed-source';
      }
      tr.append(td);
    });
    return tr;
  }));
  const failedChecks = result.checks.filter((c) => !c.ok).length;
  const mismatched = result.printed.filter((p) => !p.ok).length;
  el.verdict.dataset.ok = String(ok);
  el.verdict.textContent = ok
    ? `${entry.name}: all ${result.checks.length} checks passed and all ${result.printed.length} reference values match ` +
      `(${quick ? 'quick' : paperScale ? 'the paper\'s scale' : 'full'}, ${(ms / 1000).toFixed(2)} s in the worker).`
    : `${entry.name}: ${failedChecks} check(s) failed and ${mismatched} reference value(s) differ — see below.`;
  results.dataset.state = ok ? 'passed' : 'failed';
  results.dataset.name = entry.name;
}

// The previous entry's figures, checks and values go as soon as another run starts: under the new heading they
// would read as its results (and stay there when the run is stopped or fails).
function clearResult() {
  renderResult(el.panels, { panels: [] });
  el.checks.replaceChildren();
  el['printed-body'].replaceChildren();
  el['printed-none'].hidden = true;
}

async function run() {
  const name = el.experiment.value;
  const entry = entryOf(name);
  const quick = mode() === 'quick';
  const paperScale = mode() === 'paper';
  const mine = (generation += 1);
  if (running) client.cancel(); // a new pick stops the run in progress
  running = { name, quick };
  performance.mark(`privsample:reproduce:${name}:start`);
  history.replaceState(null, '', `#${name}${quick ? '' : paperScale ? ':paper' : ':full'}`);
  showEntry(entry, quick, paperScale);
  shown = null;
  el['download-csv'].disabled = true;
  el['download-png'].disabled = true;
  el.app.dataset.busy = 'true';
  results.dataset.state = 'running';
  results.dataset.name = name;
  el['run-error'].hidden = true;
  el.stop.disabled = false;
  el.progress.value = 0;
  el['run-status'].textContent = entry.closedForm ? 'closed form…' : 'running in the worker…';
  el.verdict.removeAttribute('data-ok');
  el.verdict.textContent = `Computing ${name}…`;
  clearResult();
  try {
    const out = await client.call('run', { name, quick, paperScale }, {
      onProgress: (f) => {
        if (mine === generation) el.progress.value = f;
      },
    });
    if (mine !== generation) return;
    showResult(entry, out);
    performance.mark(`privsample:reproduce:${name}:drawn`);
    const measure = performance.measure(`privsample:reproduce:${name}`, `privsample:reproduce:${name}:start`, `privsample:reproduce:${name}:drawn`);
    el.progress.value = 1;
    el['run-status'].textContent = `drawn ${Math.round(measure.duration)} ms after the pick`;
    results.dataset.ms = String(Math.round(measure.duration));
  } catch (error) {
    if (mine !== generation) return;
    if (isAbort(error)) {
      el['run-status'].textContent = 'stopped';
      el.verdict.textContent = `${name}: stopped.`;
      results.dataset.state = 'stopped';
    } else {
      el['run-error'].hidden = false;
      el['run-error'].textContent = `${error.name}: ${error.message}`;
      results.dataset.state = 'error';
    }
  } finally {
    if (mine === generation) {
      running = null;
      el.stop.disabled = true;
      el.app.dataset.busy = 'false';
    }
  }
}

el.experiment.addEventListener('change', run);
for (const input of modeInputs) input.addEventListener('change', run);
el.run.addEventListener('click', run);
el.stop.addEventListener('click', () => {
  if (running) client.cancel();
});

// ---- downloads: the result's CSV (the command line's <name>.csv) and the drawn panels as one PNG ------------------
function save(blob, filename) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

el['download-csv'].addEventListener('click', () => {
  if (shown) save(new Blob([toCsv(shown.result)], { type: 'text/csv' }), `${shown.entry.name}.csv`);
});

// The panels as laid out on the page, each figure's caption and canvas at its place, on the page's background.
el['download-png'].addEventListener('click', () => {
  if (!shown) return;
  const box = el.panels.getBoundingClientRect();
  const scale = window.devicePixelRatio || 1;
  const out = document.createElement('canvas');
  out.width = Math.ceil(box.width * scale);
  out.height = Math.ceil(el.panels.scrollHeight * scale);
  const ctx = out.getContext('2d');
  const style = getComputedStyle(document.body);
  ctx.fillStyle = style.backgroundColor || '#fff';
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.scale(scale, scale);
  for (const figure of el.panels.querySelectorAll('figure')) {
    const caption = figure.querySelector('figcaption');
    const canvas = figure.querySelector('canvas');
    if (caption) {
      const r = caption.getBoundingClientRect();
      ctx.fillStyle = style.color || '#000';
      ctx.font = `600 ${getComputedStyle(caption).fontSize} system-ui, sans-serif`;
      ctx.textAlign = 'center';
      ctx.fillText(caption.textContent, r.left - box.left + r.width / 2, r.top - box.top + r.height * 0.8, r.width);
    }
    if (canvas) {
      const r = canvas.getBoundingClientRect();
      ctx.drawImage(canvas, r.left - box.left, r.top - box.top, r.width, r.height);
    }
  }
  out.toBlob((blob) => blob && save(blob, `${shown.entry.name}.png`), 'image/png');
});

// A permalink (#name, #name:full or #name:paper) picks that entry; otherwise the first closed-form entry, which appears
// at once.
const [hashName, hashMode] = decodeURIComponent(location.hash.slice(1)).split(':');
if (hashMode === 'full' || hashMode === 'paper') modeInputs.find((i) => i.value === hashMode).checked = true;
el.experiment.value = entryOf(hashName) ? hashName : EXPERIMENTS.find((e) => e.closedForm)?.name ?? EXPERIMENTS[0].name;

client.call('version', {})
  .then(({ version }) => {
    el.version.textContent = version;
    showStatus('ready', `Ready: privsample ${version}; ${EXPERIMENTS.length} experiments of ${Object.keys(PAPERS).length} papers, run in a Web Worker.`);
  })
  .catch((error) => {
    if (!isAbort(error)) showStatus('error', `${error.name}: ${error.message}`);
  });
run();
