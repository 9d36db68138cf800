// The two Chart.js charts of the demo. They only display numbers computed by the worker (privsample API).
// Each canvas also carries its current data as JSON in data-chart, for tests and for the curious.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  ScatterController,
  Tooltip,
} from 'chart.js';
import { formatEpsilon, formatNumber, formatProbability } from './format.js';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  ScatterController,
  Tooltip,
);

const COLORS = {
  p: '#3b5b92',
  q: '#e07a1f',
  worst: '#c0392b',
  user: '#2274a5',
  marker: '#444',
  grid: 'rgba(0, 0, 0, 0.07)',
  text: '#2b2f36',
};

Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
Chart.defaults.font.size = 13;
Chart.defaults.color = COLORS.text;

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

export function createBarChart(canvas) {
  return new Chart(canvas, {
    type: 'bar',
    data: {
      labels: [],
      datasets: [
        { label: 'P (your histogram, normalised)', data: [], backgroundColor: COLORS.p, borderRadius: 3 },
        { label: 'Q*(·|P) (privatized)', data: [], backgroundColor: COLORS.q, borderRadius: 3 },
      ],
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      interaction: { mode: 'index', intersect: false },
      scales: {
        x: { grid: { display: false }, ticks: { autoSkip: true, maxRotation: 45 } },
        y: {
          beginAtZero: true,
          title: { display: true, text: 'probability' },
          grid: { color: COLORS.grid },
        },
      },
      plugins: {
        legend: { position: 'top' },
        tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${formatProbability(item.parsed.y)}` } },
      },
    },
  });
}

export function updateBarChart(chart, { names, p, q, epsilon }) {
  chart.data.labels = names;
  chart.data.datasets[0].data = p;
  chart.data.datasets[1].data = q;
  chart.update('none');
  const canvas = chart.canvas;
  canvas.dataset.chart = JSON.stringify({ labels: names, epsilon, p, q });
  canvas.setAttribute(
    'aria-label',
    `Bar chart at ε = ${formatEpsilon(epsilon)}: ${names
      .map((name, i) => `${name}: P ${formatProbability(p[i])}, Q* ${formatProbability(q[i])}`)
      .join('; ')}`,
  );
}

export function createDivergenceChart(canvas) {
  return new Chart(canvas, {
    type: 'line',
    data: {
      datasets: [
        {
          label: 'worst case (minimax risk)',
          data: [],
          borderColor: COLORS.worst,
          backgroundColor: COLORS.worst,
          borderWidth: 2.5,
          pointRadius: 0,
          tension: 0,
        },
        {
          label: 'your D_f(P‖Q*(P))',
          data: [],
          borderColor: COLORS.user,
          backgroundColor: COLORS.user,
          borderWidth: 2.5,
          pointRadius: 0,
          tension: 0,
        },
        {
          type: 'scatter',
          label: 'current ε',
          data: [],
          borderColor: COLORS.marker,
          backgroundColor: '#ffffff',
          pointBackgroundColor: [COLORS.worst, COLORS.user],
          pointBorderColor: '#ffffff',
          pointRadius: 6,
          pointHoverRadius: 7,
          pointBorderWidth: 2,
        },
      ],
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      parsing: false,
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      scales: {
        x: {
          type: 'logarithmic',
          min: 0.01,
          max: 10,
          title: { display: true, text: 'privacy budget ε (log scale)' },
          grid: { color: COLORS.grid },
          ticks: {
            maxRotation: 0,
            autoSkip: false,
            callback: (value) => (DECADES.has(Number(value)) ? formatEpsilon(Number(value)) : ''),
          },
        },
        y: {
          beginAtZero: true,
          title: { display: true, text: 'D_f' },
          grid: { color: COLORS.grid },
        },
      },
      plugins: {
        legend: {
          position: 'top',
          labels: {
            // The "current ε" entry is drawn like the dashed vertical line that marks it.
            generateLabels: (chart) =>
              Chart.defaults.plugins.legend.labels.generateLabels(chart).map((item) =>
                item.datasetIndex === 2
                  ? { ...item, fillStyle: 'rgba(0, 0, 0, 0)', strokeStyle: COLORS.marker, lineWidth: 1.5, lineDash: [4, 3] }
                  : item,
              ),
          },
        },
        currentEpsilonLine: { epsilon: null },
        tooltip: {
          callbacks: {
            title: (items) => (items.length ? `ε = ${formatEpsilon(items[0].parsed.x)}` : ''),
            label: (item) => `${item.dataset.label}: ${formatNumber(item.parsed.y)}`,
          },
        },
      },
    },
    plugins: [currentEpsilonLine],
  });
}

const F_NAMES = { kl: 'KL', tv: 'TV', hellinger: 'H²' };
const F_AXIS = {
  kl: 'D_KL(P‖Q)',
  tv: 'TV(P, Q)',
  hellinger: 'H²(P, Q) = ½Σ(√P − √Q)²',
};

export function updateDivergenceChart(chart, { f, k, curve, current }) {
  const toPoints = (ys) => curve.epsilon.map((x, i) => ({ x, y: ys[i] }));
  const [worst, user, marker] = chart.data.datasets;
  worst.data = toPoints(curve.worst);
  user.data = toPoints(curve.user);
  user.label = `your D_${F_NAMES[f]}(P‖Q*(P))`;
  worst.label = `worst case (minimax risk, k = ${k})`;
  marker.data = [
    { x: current.epsilon, y: current.worst },
    { x: current.epsilon, y: current.user },
  ];
  chart.options.scales.y.title.text = F_AXIS[f];
  chart.options.plugins.currentEpsilonLine.epsilon = current.epsilon;
  chart.update('none');
  const canvas = chart.canvas;
  canvas.dataset.chart = JSON.stringify({ f, k, epsilon: curve.epsilon, worst: curve.worst, user: curve.user, current });
  canvas.setAttribute(
    'aria-label',
    `Line chart of ${F_AXIS[f]} versus ε from 0.01 to 10 on a log scale. At the current ε = ${formatEpsilon(
      current.epsilon,
    )}: worst case ${formatNumber(current.worst)}, yours ${formatNumber(current.user)}.`,
  );
}
