// The "Many users" page (many-users.html): N users each release one private sample; the page shows the true
// population, the released-sample histogram, the population estimate with its confidence band, and the estimation
// error versus ε and versus N for several mechanisms. Page code only collects input and draws; every number comes
// from the privsample API, called in a Web Worker (many-users-worker.js).
import { createChart, lineChart, useDemoFont } from './chart-setup.js';
import { SIMULATION_EPSILONS, epsilonFromSlider } from './epsilon.js';
import { keepControls } from './keep.js';
import { createWorkerClient, isAbort } from './rpc.js';

useDemoFont();

// Preset populations, as unnormalised weights (the core normalises them).
const PRESETS = {
  zipf: Array.from({ length: 10 }, (_, i) => 1 / (i + 1)),
  uniform: Array(10).fill(1),
  'two-peaked': [2, 8, 14, 8, 2, 1, 4, 10, 5, 1],
};
// The x values of the curves (not mechanism maths): ε from 0.1 to 10 (epsilon.js), N from 10^2 to 10^6.
const CURVE_EPSILONS = SIMULATION_EPSILONS;
const CURVE_USERS = [1e2, 3e2, 1e3, 3e3, 1e4, 3e4, 1e5, 3e5, 1e6];
// Populations per point of the curves (their uncertainty is drawn; the verdict repeats until resolved, in the worker).
const REPEATS = 8;
const MECHANISM_STYLE = {
  linear: { label: 'linear', color: '#2274a5', dash: [] },
  minimax: { label: 'minimax', color: '#e07a1f', dash: [6, 4] },
  mollifier: { label: 'mollifier', color: '#2e8b57', dash: [] },
};
// The advisor's candidates for the shares: k-RR (the linear sampler on one item) and the frequency oracles.
const CANDIDATE_STYLE = {
  linear: { label: 'linear (k-RR)', color: '#2274a5', dash: [] },
  'subset-selection': { label: 'subset selection', color: '#8e44ad', dash: [6, 4] },
  oue: { label: 'OUE', color: '#c0392b', dash: [] },
  olh: { label: 'OLH', color: '#b8860b', dash: [2, 3] },
  hadamard: { label: 'Hadamard response', color: '#555', dash: [] },
};
const candidateLabel = (m) => CANDIDATE_STYLE[m]?.label ?? m;
const COLORS = { truth: 'rgba(59, 91, 146, 0.75)', released: 'rgba(224, 122, 31, 0.45)', estimate: '#c0392b', band: 'rgba(192, 57, 43, 0.18)' };

const el = {
  app: document.getElementById('app'),
  status: document.getElementById('status'),
  population: document.getElementById('population'),
  customRow: document.getElementById('custom-row'),
  custom: document.getElementById('custom'),
  users: document.getElementById('users'),
  usersValue: document.getElementById('users-value'),
  epsilon: document.getElementById('epsilon'),
  epsilonValue: document.getElementById('epsilon-value'),
  run: document.getElementById('run'),
  progress: document.getElementById('progress'),
  runStatus: document.getElementById('run-status'),
  inputError: document.getElementById('input-error'),
  summary: document.getElementById('estimate-summary'),
  verdict: document.getElementById('verdict'),
  advice: document.getElementById('advice'),
  oracleEpsilonCanvas: document.getElementById('oracle-epsilon-chart'),
  oracleUsersCanvas: document.getElementById('oracle-users-chart'),
  estimateCanvas: document.getElementById('estimate-chart'),
  epsilonCanvas: document.getElementById('epsilon-chart'),
  usersCanvas: document.getElementById('users-chart'),
};

const worker = createWorkerClient(() => new Worker(new URL('./many-users-worker.js', import.meta.url), { type: 'module' }));
worker.onFatal((error) => showStatus('error', `The demo cannot run: ${error.message}`));

const formatUsers = (n) => Math.round(n).toLocaleString('en-US').replace(/,/g, '\u202f');
const usersOf = () => Math.round(10 ** Number(el.users.value));
const epsilonOf = () => epsilonFromSlider(el.epsilon.value, 2);
const mechanismsOf = () => [...document.querySelectorAll('input[name="mechanism"]:checked')].map((box) => box.value);

// The population as typed: numbers only (their validity — non-negative, not all zero — is checked by the core).
function populationOf() {
  if (el.population.value !== 'custom') return PRESETS[el.population.value];
  const parts = el.custom.value.split(/[\s,;]+/).filter(Boolean);
  const values = parts.map(Number);
  const bad = parts.findIndex((part, i) => !Number.isFinite(values[i]));
  if (bad >= 0) throw new TypeError(`"${parts[bad]}" is not a number`);
  if (values.length < 2) throw new RangeError('give at least two categories');
  return values;
}

const estimateChart = createChart(el.estimateCanvas, {
  data: { labels: [], datasets: [] },
  options: {
    animation: false,
    maintainAspectRatio: false,
    scales: {
      x: { title: { display: true, text: 'category' } },
      y: { beginAtZero: true, title: { display: true, text: 'share of users' } },
    },
    plugins: { legend: { labels: { filter: (item) => item.text !== '' } } },
  },
});

// y ticks of the predicted errors, which span many decades: powers of ten only, as 1e-4.
const decadeTick = (v) => {
  const power = Math.round(Math.log10(v));
  return Math.abs(v / 10 ** power - 1) < 1e-9 ? `1e${power}` : '';
};
function curveChart(canvas, xTitle, ticks, format, yTitle = 'TV(estimate, truth)', yTick = undefined) {
  return lineChart(canvas, {
    scales: {
      x: { type: 'logarithmic', title: { display: true, text: xTitle }, ticks: { callback: (v) => (ticks.has(v) ? format(v) : '') } },
      y: { type: 'logarithmic', title: { display: true, text: yTitle }, ...(yTick && { ticks: { callback: yTick } }) },
    },
    plugins: { legend: { labels: { filter: (item) => item.text !== '' } } },
  });
}
const epsilonChart = curveChart(el.epsilonCanvas, 'ε (at the chosen N; dashed line: the chosen ε)', new Set([0.1, 0.2, 0.5, 1, 2, 5, 10]), String);
const usersChart = curveChart(el.usersCanvas, 'number of users N (at the chosen ε; dashed line: the chosen N)', new Set([1e2, 1e3, 1e4, 1e5, 1e6]), formatUsers);
const PREDICTED_TITLE = 'predicted Σ Var(f̂), closed form';
const oracleEpsilonChart = curveChart(el.oracleEpsilonCanvas, 'ε (at the chosen N)',
  new Set([0.1, 0.2, 0.5, 1, 2, 5, 10]), String, PREDICTED_TITLE, decadeTick);
const oracleUsersChart = curveChart(el.oracleUsersCanvas, 'number of users N (at the chosen ε)',
  new Set([1e2, 1e3, 1e4, 1e5, 1e6]), formatUsers, PREDICTED_TITLE, decadeTick);

// Per mechanism: its mean error and a band of ±2 standard errors over the simulated populations (cut above 0 for the
// logarithmic axis).
function curveDatasets(result, key, xs, marker) {
  return result.mechanisms.flatMap((m) => {
    const { mean, se } = result[key][m];
    const style = MECHANISM_STYLE[m];
    const band = style.color + '26'; // the colour at 15% opacity
    return [
      { label: '', data: mean.map((y, i) => ({ x: xs[i], y: Math.max(y - 2 * se[i], y / 20) })), borderColor: 'transparent', pointRadius: 0, fill: false },
      { label: '', data: mean.map((y, i) => ({ x: xs[i], y: y + 2 * se[i] })), borderColor: 'transparent', backgroundColor: band, pointRadius: 0, fill: '-1' },
      {
        label: style.label,
        data: mean.map((y, i) => ({ x: xs[i], y })),
        borderColor: style.color,
        backgroundColor: style.color,
        borderDash: style.dash,
        pointRadius: 3,
        tension: 0,
      },
    ];
  }).concat([markerLine(result, key, marker)]);
}
// A vertical dashed line at the chosen ε or N.
function markerLine(result, key, x) {
  const values = result.mechanisms.flatMap((m) => result[key][m].mean);
  return { label: '', data: [{ x, y: Math.min(...values) }, { x, y: Math.max(...values) }], borderColor: '#444', borderDash: [3, 3], pointRadius: 0, borderWidth: 1 };
}

// The advisor's predicted curves: one line per candidate, and the dashed marker at the chosen ε or N.
function predictedDatasets(curves, xs, marker) {
  // the legend in the same order on both charts: the candidates as styled, then any other
  const known = Object.keys(CANDIDATE_STYLE).filter((m) => m in curves);
  const names = known.concat(Object.keys(curves).filter((m) => !(m in CANDIDATE_STYLE)));
  const lines = names.map((m) => {
    const ys = curves[m];
    const style = CANDIDATE_STYLE[m] ?? { label: m, color: '#999', dash: [] };
    return {
      label: style.label,
      data: ys.map((y, i) => ({ x: xs[i], y })),
      borderColor: style.color,
      backgroundColor: style.color,
      borderDash: style.dash,
      pointRadius: 2,
      tension: 0,
    };
  });
  const values = Object.values(curves).flat().filter((y) => y > 0);
  const line = {
    label: '',
    data: [{ x: marker, y: Math.min(...values) }, { x: marker, y: Math.max(...values) }],
    borderColor: '#444',
    borderDash: [3, 3],
    pointRadius: 0,
    borderWidth: 1,
  };
  return lines.concat([line]);
}

const significant = (x) => x.toPrecision(4).replace(/(\.\d*?)0+(e|$)/, '$1$2').replace(/\.(e|$)/, '$1');

// The advisor's verdict in words, from ps.advise's fields (the page only formats them; the rule is the core's).
function adviceText(a) {
  const chosen = a.candidates.find((c) => c.mechanism === a.mechanism);
  const [smallest] = a.candidates;
  const rest = a.candidates.filter((c) => c !== chosen)
    .map((c) => `${candidateLabel(c.mechanism)} ${significant(c.error)} (${c.reportBits} bits)`).join(', ');
  const standing = chosen === smallest ? 'the smallest'
    : `${(chosen.error / smallest.error).toFixed(3)} times the smallest, ${candidateLabel(smallest.mechanism)}'s`;
  return `Advisor (ps.advise, closed forms) for the population's shares of k = ${a.k} items at ε = ${a.epsilon} and ` +
    `N = ${formatUsers(a.users)}: use ${candidateLabel(a.mechanism)}, predicted total squared error ` +
    `${significant(a.error)} (lower is better; ${standing}); others ${rest}. ` +
    `Rule: of the candidates within ${a.tolerance} times the smallest error, the smallest report, then the cheapest ` +
    `server. One report of ${candidateLabel(chosen.mechanism)} is ${chosen.reportBits} bits; ` +
    `server: ${chosen.serverCost}.`;
}

const percent = (v) => `${(100 * v).toFixed(v !== 0 && Math.abs(v) < 0.1 ? 1 : 0)}%`;

// The verdict in words: the mechanisms from the smallest mean error up, "≈" between tied ones, and how far apart the
// others are, each with its uncertainty (± the worker's z standard errors).
function verdictText(v) {
  const name = (m) => MECHANISM_STYLE[m].label;
  const mean = (m) => `${name(m)} ${v.means[m].mean.toFixed(4)} ± ${v.means[m].halfWidth.toFixed(4)}`;
  let text = mean(v.order[0]);
  for (const p of v.pairs) {
    // the difference relative to the smaller mean error (the worker's scale)
    const apart = `${percent(Math.abs(p.difference) / p.scale)} ± ${percent(p.halfWidth / p.scale)}`;
    if (p.status === 'tied') text += ` ≈ ${mean(p.b)} (equal within ${percent(v.tied)})`;
    else if (p.status === 'better') text += `, ahead of ${mean(p.b)} (${apart} more error)`;
    else text += `; not separated from ${mean(p.b)} after ${v.repeats} populations (difference ${apart})`;
  }
  const single = v.order.length === 1 ? ' (one mechanism checked)' : '';
  return `Verdict at ε = ${v.epsilon} and N = ${formatUsers(v.users)}${single}: ${text}. Mean TV error over ${v.repeats} ` +
    `simulated populations, the same ones for every mechanism, ± ${v.z} standard errors; the same settings give the same verdict.`;
}
function draw(result, spec) {
  const { main } = result;
  const labels = main.truth.map((_, i) => String(i));
  const e = main.estimate;
  estimateChart.data.labels = labels;
  estimateChart.data.datasets = [
    { type: 'bar', label: 'true population', data: main.truth, backgroundColor: COLORS.truth, order: 3 },
    { type: 'bar', label: 'released samples (what the server counts)', data: main.released, backgroundColor: COLORS.released, order: 2 },
    { type: 'line', label: '', data: e.lower, borderColor: 'transparent', pointRadius: 0, fill: false, order: 1 },
    { type: 'line', label: `${Math.round(e.confidence * 100)}% confidence band`, data: e.upper, borderColor: 'transparent', backgroundColor: COLORS.band, pointRadius: 0, fill: '-1', order: 1 },
    { type: 'line', label: `estimate (${main.mechanism})`, data: e.value, borderColor: COLORS.estimate, backgroundColor: COLORS.estimate, pointRadius: 4, showLine: false, order: 0 },
  ];
  estimateChart.update();
  el.estimateCanvas.dataset.chart = JSON.stringify({ truth: main.truth, estimate: e.value, lower: e.lower, upper: e.upper, released: main.released });
  el.summary.textContent = `${formatUsers(spec.users)} users, ${main.mechanism} at ε = ${spec.epsilon}: estimate by ${e.method}, projected onto the simplex; ` +
    `TV to the truth ${main.errors.tv.toFixed(4)} (reading the released samples as the population: ${main.releasedErrors.tv.toFixed(4)}). Assumes: ${e.assumption}. Band: ${e.intervalMethod}.`;

  el.verdict.textContent = verdictText(result.verdict);
  el.verdict.dataset.verdict = JSON.stringify({
    order: result.verdict.order,
    statuses: result.verdict.pairs.map((p) => p.status),
    repeats: result.verdict.repeats,
  });
  epsilonChart.data.datasets = curveDatasets(result, 'byEpsilon', CURVE_EPSILONS, spec.epsilon);
  epsilonChart.update();
  usersChart.data.datasets = curveDatasets(result, 'byUsers', CURVE_USERS, spec.users);
  usersChart.update();
  const means = (curves) => Object.fromEntries(Object.entries(curves).map(([m, c]) => [m, c.mean]));
  const errors = (curves) => Object.fromEntries(Object.entries(curves).map(([m, c]) => [m, c.se]));
  el.epsilonCanvas.dataset.chart = JSON.stringify({ epsilons: CURVE_EPSILONS, tv: means(result.byEpsilon), se: errors(result.byEpsilon) });
  el.usersCanvas.dataset.chart = JSON.stringify({ users: CURVE_USERS, tv: means(result.byUsers), se: errors(result.byUsers) });

  const { advice, predicted } = result;
  el.advice.textContent = adviceText(advice);
  const { k, epsilon, users, mechanism } = advice;
  el.advice.dataset.advice = JSON.stringify({ k, epsilon, users, mechanism });
  oracleEpsilonChart.data.datasets = predictedDatasets(predicted.byEpsilon, CURVE_EPSILONS, spec.epsilon);
  oracleEpsilonChart.update();
  oracleUsersChart.data.datasets = predictedDatasets(predicted.byUsers, CURVE_USERS, spec.users);
  oracleUsersChart.update();
  el.oracleEpsilonCanvas.dataset.chart = JSON.stringify({ epsilons: CURVE_EPSILONS, predicted: predicted.byEpsilon });
  el.oracleUsersCanvas.dataset.chart = JSON.stringify({ users: CURVE_USERS, predicted: predicted.byUsers });
}

function showStatus(state, text) {
  el.status.dataset.state = state;
  el.status.textContent = text;
}

let runCount = 0;
let running = null; // the AbortController of the simulation in the worker
let debounce = 0;
async function simulate() {
  clearTimeout(debounce); // a pending automatic run is this one
  el.inputError.hidden = true;
  let spec;
  try {
    const mechanisms = mechanismsOf();
    if (mechanisms.length === 0) throw new RangeError('check at least one mechanism');
    spec = { population: populationOf(), users: usersOf(), epsilon: epsilonOf(), mechanisms, epsilons: CURVE_EPSILONS, userCounts: CURVE_USERS, repeats: REPEATS };
  } catch (error) {
    el.inputError.textContent = error.message;
    el.inputError.hidden = false;
    return;
  }
  const mine = (runCount += 1);
  el.app.dataset.busy = 'true';
  el.progress.value = 0;
  el.runStatus.textContent = 'Simulating in the worker…';
  running?.abort(); // a newer run replaces the one in the worker
  running = new AbortController();
  try {
    const result = await worker.call('run', { spec }, { signal: running.signal, onProgress: ({ done, total }) => {
      if (mine !== runCount) return;
      el.progress.value = done / total;
      el.runStatus.textContent = `Simulating in the worker… ${done} / ${total}`;
    } });
    if (mine !== runCount) return;
    draw(result, spec);
    el.runStatus.textContent = 'Done.';
    el.app.dataset.result = String(mine);
  } catch (error) {
    if (mine !== runCount || isAbort(error)) return; // superseded by a newer run
    el.inputError.textContent = error.message;
    el.inputError.hidden = false;
    el.runStatus.textContent = '';
  } finally {
    if (mine === runCount) el.app.dataset.busy = 'false';
  }
}

function scheduleRun() {
  clearTimeout(debounce);
  debounce = setTimeout(simulate, 300);
}

function updateLabels() {
  el.usersValue.textContent = formatUsers(usersOf());
  el.epsilonValue.textContent = String(epsilonOf());
  // What a screen reader says for each slider: the value it sets, not its log10 position.
  el.users.setAttribute('aria-valuetext', `N = ${formatUsers(usersOf())} users`);
  el.epsilon.setAttribute('aria-valuetext', `ε = ${epsilonOf()}`);
  el.customRow.hidden = el.population.value !== 'custom';
}

for (const input of [el.users, el.epsilon]) input.addEventListener('input', updateLabels);
for (const input of [el.users, el.epsilon, el.population, el.custom, ...document.querySelectorAll('input[name="mechanism"]')]) {
  input.addEventListener('change', () => {
    updateLabels();
    scheduleRun();
  });
}
el.run.addEventListener('click', simulate);
// The controls come back after a reload (this device's localStorage).
keepControls('privsample-demo:many-users-page', {
  population: el.population,
  custom: el.custom,
  users: el.users,
  epsilon: el.epsilon,
  ...Object.fromEntries([...document.querySelectorAll('input[name="mechanism"]')].map((box) => [`mechanism:${box.value}`, box])),
}).restore();
updateLabels();
el.run.disabled = false;
showStatus('ready', 'Ready: the privsample module runs in a Web Worker; nothing leaves this page.');
simulate();
