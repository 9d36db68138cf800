// The two Chart.js charts of the demo. They only display numbers computed by the worker (privsample API).
// Each canvas also carries its current data as JSON in data-chart, for tests and for the curious.
import { Chart } from 'chart.js';
import { chartColours, createChart, lineChart, useDemoFont } from './chart-setup.js';
import { formatEpsilon, formatNumber, formatProbability } from './format.js';
import { DIVERGENCE_LABELS } from './labels.js';
import { mechanismColor } from './mechanisms.js';

const COLORS = {
  p: '#3b5b92',
  q: '#e07a1f',
  worst: '#c0392b',
  user: '#2274a5',
};
// Text, grid and marker colours follow the page's theme (light or dark: web/theme.js).
Object.assign(COLORS, chartColours);

useDemoFont();

const DECADES = new Set([0.01, 0.1, 1, 10]);

// Draws a dashed vertical line at the current ε on the divergence chart.
const currentEpsilonLine = {
  id: 'currentEpsilonLine',
  afterDatasetsDraw(chart, _args, options) {
    const epsilon = options.epsilon;
    if (typeof epsilon !== 'number') return;
    const { ctx, chartArea, scales } = chart;
    const x = scales.x.getPixelForValue(epsilon);
    if (!(x >= chartArea.left && x <= chartArea.right)) return;
    ctx.save();
    ctx.strokeStyle = COLORS.marker;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([6, 4]);
    ctx.beginPath();
    ctx.moveTo(x, chartArea.top);
    ctx.lineTo(x, chartArea.bottom);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = COLORS.marker;
    ctx.font = `600 12px ${Chart.defaults.font.family}`;
    const label = `ε = ${formatEpsilon(epsilon)}`;
    const width = ctx.measureText(label).width;
    const left = x + 6 + width > chartArea.right ? x - 6 - width : x + 6;
    ctx.fillText(label, left, chartArea.top + 14);
    ctx.restore();
  },
};

/** A titled axis over the page's grid colour; `more` adds the axis's own settings. */
const axis = (title, more = {}) => ({ title: { display: true, text: title }, grid: { color: COLORS.grid }, ...more });
/** The nearest point along ε, for the line charts' tooltips (a new object per chart: Chart.js keeps its options). */
const nearestAlongX = () => ({ mode: 'nearest', axis: 'x', intersect: false });

export function createBarChart(canvas) {
  return createChart(canvas, {
    type: 'bar',
    data: {
      labels: [],
      datasets: [
        { label: 'P (your histogram, normalised)', data: [], backgroundColor: COLORS.p, borderRadius: 3 },
        { label: 'Q(·|P) (privatized)', data: [], backgroundColor: COLORS.q, borderRadius: 3 },
      ],
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      interaction: { mode: 'index', intersect: false },
      scales: {
        // sampleSize: the label widths are measured on a sample, not on all of up to 1,000 categories.
        x: { grid: { display: false }, ticks: { autoSkip: true, maxRotation: 45, sampleSize: 40 } },
        y: axis('probability', { beginAtZero: true }),
      },
      plugins: {
        legend: { position: 'top' },
        tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${formatProbability(item.parsed.y)}` } },
      },
    },
  });
}

/** Up to this many categories the bar chart draws them all; beyond, the largest TOP_CATEGORIES of P and "others". */
export const ALL_CATEGORIES_UP_TO = 30;
export const TOP_CATEGORIES = 24;

/**
 * What the bar chart draws for k categories: all of them when k <= ALL_CATEGORIES_UP_TO, else the TOP_CATEGORIES
 * largest of P (largest first; ties in table order) and one bar "others" holding the rest of P and Q — thousands of
 * bars side by side would be a moiré, not a chart. Display sums only: P and Q themselves come from the worker.
 */
export function barsToDraw(names, p, q) {
  if (names.length <= ALL_CATEGORIES_UP_TO) return { labels: names, p: Array.from(p), q: Array.from(q), others: 0 };
  const order = Array.from(names.keys()).sort((a, b) => p[b] - p[a] || a - b);
  const top = order.slice(0, TOP_CATEGORIES);
  const sumOf = (values) => values.reduce((total, v) => total + v, 0);
  const rest = order.slice(TOP_CATEGORIES);
  return {
    labels: [...top.map((i) => names[i]), `others (${rest.length} categories)`],
    p: [...top.map((i) => p[i]), sumOf(rest.map((i) => p[i]))],
    q: [...top.map((i) => q[i]), sumOf(rest.map((i) => q[i]))],
    others: rest.length,
  };
}

export function updateBarChart(chart, { names, p, q, epsilon, mechanism, guarantee, label }) {
  const drawn = barsToDraw(names, p, q);
  chart.data.labels = drawn.labels;
  chart.data.datasets[0].data = drawn.p;
  chart.data.datasets[1].data = drawn.q;
  chart.data.datasets[1].label = `Q(·|P) of ${label} (privatized)`;
  chart.update('none');
  const canvas = chart.canvas;
  canvas.dataset.chart = JSON.stringify({ labels: names, epsilon, mechanism, guarantee, p, q, drawn });
  // A screen reader hears what is drawn; the table (paged) holds every category.
  const spoken = drawn.labels.map((name, i) => `${name}: P ${formatProbability(drawn.p[i])}, Q ${formatProbability(drawn.q[i])}`).join('; ');
  const rest = drawn.others > 0 ? ` (the ${TOP_CATEGORIES} largest categories of P and the other ${drawn.others} together; the table lists all)` : '';
  canvas.setAttribute('aria-label', `Bar chart of ${label} at budget ${formatEpsilon(epsilon)}${rest}: ${spoken}`);
  return drawn;
}

export function createDivergenceChart(canvas) {
  return lineChart(
    canvas,
    {
      interaction: nearestAlongX(),
      scales: {
        x: axis('privacy budget ε (log scale)', {
          type: 'logarithmic',
          min: 0.01,
          max: 10,
          ticks: {
            maxRotation: 0,
            autoSkip: false,
            callback: (value) => (DECADES.has(Number(value)) ? formatEpsilon(Number(value)) : ''),
          },
        }),
        y: axis('D_f', { beginAtZero: true }),
      },
      plugins: {
        legend: {
          position: 'top',
          // Each legend entry shows a short line in its dataset's colour and dash (see lineSwatch).
          labels: { usePointStyle: true, pointStyleWidth: 30, boxHeight: 10, padding: 12, font: { size: 12 } },
        },
        currentEpsilonLine: { epsilon: null },
        tooltip: {
          filter: (item) => item.dataset.type !== 'scatter',
          callbacks: {
            title: (items) => (items.length ? `ε = ${formatEpsilon(items[0].parsed.x)}` : ''),
            label: (item) => `${item.dataset.label}: ${formatNumber(item.parsed.y)}`,
          },
        },
      },
    },
    [currentEpsilonLine],
  );
}


/**
 * result: the worker's answer: { f, k, mechanism, guarantee, curve: { epsilon, series }, current }.
 * names(m): a short display name of mechanism m.
 */
const swatches = new Map();
/** A small canvas with a solid or dashed line: the legend symbol of a curve (used as its pointStyle). */
function lineSwatch(color, dash, width) {
  const key = `${color}|${dash.join(',')}|${width}`;
  if (!swatches.has(key)) {
    const canvas = document.createElement('canvas');
    canvas.width = 30;
    canvas.height = 10;
    const ctx = canvas.getContext('2d');
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.setLineDash(dash);
    ctx.beginPath();
    ctx.moveTo(0, 5);
    ctx.lineTo(30, 5);
    ctx.stroke();
    swatches.set(key, canvas);
  }
  return swatches.get(key);
}

export function updateDivergenceChart(chart, { f, k, mechanism, guarantee, curve, current }, names = (m) => m) {
  const toPoints = (ys) => curve.epsilon.map((x, i) => ({ x, y: ys[i] }));
  const datasets = [];
  for (const s of curve.series) {
    const color = mechanismColor(s.mechanism) ?? COLORS.marker;
    const chosen = s.mechanism === mechanism;
    const width = chosen ? 3.5 : 1.8;
    const common = { borderColor: color, backgroundColor: color, pointRadius: 0, pointHoverRadius: 0, tension: 0, borderWidth: width };
    const line = (dash) => ({ borderDash: dash, pointStyle: lineSwatch(color, dash, width) });
    if (s.skipped) {
      datasets.push({ ...common, ...line([2, 3]), label: `${names(s.mechanism)}: not applicable`, data: [] });
      continue;
    }
    if (s.worst) datasets.push({ ...common, ...line([7, 4]), label: `${names(s.mechanism)} · worst`, data: toPoints(s.worst) });
    datasets.push({ ...common, ...line([]), label: `${names(s.mechanism)} · yours${s.worst ? '' : ' (no closed-form worst)'}`, data: toPoints(s.user) });
  }
  const gaussian = guarantee.notion === 'gaussian-ldp';
  if (!gaussian) {
    const color = mechanismColor(mechanism) ?? COLORS.marker;
    const points = [{ x: current.epsilon, y: current.user }];
    if (current.worst !== null) points.unshift({ x: current.epsilon, y: current.worst });
    datasets.push({
      type: 'scatter',
      label: 'current ε',
      data: points,
      backgroundColor: color,
      borderColor: '#ffffff',
      pointRadius: 5.5,
      pointHoverRadius: 6,
      pointBorderWidth: 2,
      pointStyle: 'circle',
    });
  }
  chart.data.datasets = datasets;
  chart.options.plugins.legend.labels.filter = (item) => item.text !== 'current ε';
  chart.options.scales.y.title.text = DIVERGENCE_LABELS[f].axis;
  chart.options.plugins.currentEpsilonLine.epsilon = gaussian ? null : current.epsilon;
  chart.update('none');
  const canvas = chart.canvas;
  canvas.dataset.chart = JSON.stringify({
    f,
    k,
    mechanism,
    epsilon: curve.epsilon,
    series: curve.series.map((s) => ({
      mechanism: s.mechanism,
      worst: s.worst,
      user: s.user,
      skipped: s.skipped,
      outsideNeighbourhood: Boolean(s.outsideNeighbourhood),
    })),
    legend: datasets.filter((d) => d.type !== 'scatter').map((d) => d.label),
    current,
  });
  const mine = curve.series.find((s) => s.mechanism === mechanism);
  canvas.setAttribute(
    'aria-label',
    `Line chart of ${DIVERGENCE_LABELS[f].axis} (${DIVERGENCE_LABELS[f].short}) versus ε from 0.01 to 10 on a log scale for ${curve.series
      .filter((s) => !s.skipped)
      .map((s) => names(s.mechanism))
      .join(', ')}. ${mine && !gaussian ? `Chosen, ${names(mechanism)} at ε = ${formatEpsilon(current.epsilon)}: yours ${formatNumber(current.user)}${
      current.worst === null ? '' : `, worst case ${formatNumber(current.worst)}`
    }.` : ''}`,
  );
}

// ---------------------------------------------------------------------------------------------
// The accountant's chart: δ(ε′) of LDP and of LIP (exact, from the channel) and the curves the LMIDP paper's
// conversions imply from the information figures alone (Theorem 1(a) from the capacity, corrected Theorem 2(a)
// from I(X;Y)). Log y axis; δ = 0 (beyond the pure ε) is not drawn.
const DELTA_FLOOR = 1e-6;
const ACCOUNTANT_COLORS = { ldp: '#2274a5', lip: '#e07a1f' };

export function createAccountantChart(canvas) {
  return lineChart(
    canvas,
    {
      interaction: nearestAlongX(),
      scales: {
        x: axis('ε′ (nats)', { type: 'linear', min: 0, ticks: { maxRotation: 0 } }),
        y: axis('δ(ε′) (log scale)', {
          type: 'logarithmic',
          min: DELTA_FLOOR,
          max: 1,
          ticks: { callback: (value) => (Number.isInteger(Math.log10(Number(value))) ? `1e${Math.log10(Number(value))}` : '') },
        }),
      },
      plugins: {
        legend: {
          position: 'top',
          labels: { usePointStyle: true, pointStyleWidth: 30, boxHeight: 10, padding: 10, font: { size: 11.5 } },
        },
        tooltip: {
          callbacks: {
            title: (items) => (items.length ? `ε′ = ${formatEpsilon(items[0].parsed.x)}` : ''),
            label: (item) => `${item.dataset.label}: δ = ${formatNumber(item.parsed.y)}`,
          },
        },
      },
    },
  );
}

/** acc: the worker's accountant result, or null to clear the chart. */
export function updateAccountantChart(chart, acc) {
  const datasets = [];
  if (acc && !acc.error) {
    // null: not computed at this ε′ (the conversion curves use every other point) → left out;
    // δ ≈ 0 (beyond the pure ε) → a gap, as a log axis cannot show 0.
    const points = (ys) =>
      acc.epsilons.flatMap((x, i) => (ys[i] === null ? [] : [{ x, y: ys[i] > DELTA_FLOOR / 10 ? ys[i] : null }]));
    const add = (label, ys, color, dash, width) =>
      datasets.push({
        label,
        data: points(ys),
        borderColor: color,
        backgroundColor: color,
        borderDash: dash,
        borderWidth: width,
        pointRadius: 0,
        pointHoverRadius: 0,
        tension: 0,
        spanGaps: false,
        pointStyle: lineSwatch(color, dash, width),
      });
    add('LDP δ(ε′)', acc.ldp.delta, ACCOUNTANT_COLORS.ldp, [], 3);
    add('LIP δ(ε′), this prior', acc.lip.delta, ACCOUNTANT_COLORS.lip, [], 3);
    add('from capacity (Thm 1a)', acc.ldpFromCapacity, ACCOUNTANT_COLORS.ldp, [6, 4], 1.8);
    add('from I(X;Y) (Thm 2a, corrected)', acc.lipFromMutualInformation, ACCOUNTANT_COLORS.lip, [6, 4], 1.8);
    chart.options.scales.x.max = acc.epsilons[acc.epsilons.length - 1];
  }
  chart.data.datasets = datasets;
  chart.update('none');
  chart.canvas.dataset.chart = JSON.stringify(
    acc && !acc.error
      ? { epsilons: acc.epsilons, ldp: acc.ldp.delta, lip: acc.lip.delta, legend: datasets.map((d) => d.label) }
      : { error: acc?.error ?? null },
  );
}
