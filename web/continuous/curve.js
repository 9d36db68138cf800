// The continuous page's divergence-versus-ε chart: one run of the worker's 'curve' per spec (it does not depend on
// the current ε), drawn point by point from its progress messages; a newer spec aborts the running one (rpc.js signal).
import { createChart } from '../chart-setup.js';
import { CURVE_EPSILONS } from '../epsilon.js';
import { formatEpsilon, formatNumber } from '../format.js';
import { DIVERGENCE_LABELS } from '../labels.js';
import { isAbort } from '../rpc.js';

const F_STYLE = {
  kl: { label: DIVERGENCE_LABELS.kl.short, color: '#2274a5' },
  tv: { label: DIVERGENCE_LABELS.tv.short, color: '#e07a1f' },
  hellinger: { label: DIVERGENCE_LABELS.hellinger.short, color: '#2e8b57' },
};

/** el: { curveCard, progress, curveStatus, curveCanvas }; state.epsilon is the current ε (its marker). */
export function mountCurve({ el, worker, state }) {
  let chart = null;
  let curve = null; // { epsilons, series, worst, done, total }
  let curveKey = '';
  let curveRun = null; // the AbortController of the running curve

  function chartDatasets() {
    const datasets = [];
    const eps = curve?.epsilons ?? [];
    for (const [f, style] of Object.entries(F_STYLE)) {
      const user = curve ? curve.series[f] : [];
      const worst = curve ? curve.worst[f] : [];
      datasets.push({
        label: `${style.label} (yours)`,
        data: user.map((y, i) => ({ x: eps[i], y })),
        borderColor: style.color,
        backgroundColor: style.color,
        borderWidth: 2.2,
        pointRadius: 0,
      });
      datasets.push({
        label: `${style.label} worst case`,
        data: worst.map((y, i) => ({ x: eps[i], y })),
        borderColor: style.color,
        backgroundColor: style.color,
        borderDash: [6, 4],
        borderWidth: 1.4,
        pointRadius: 0,
      });
    }
    let top = 0;
    if (curve) for (const f of Object.keys(F_STYLE)) for (const v of [...curve.series[f], ...curve.worst[f]]) if (v > top) top = v;
    datasets.push({
      label: 'current ε',
      data: [{ x: state.epsilon, y: 0 }, { x: state.epsilon, y: top || 1 }],
      borderColor: '#444',
      backgroundColor: '#444',
      borderWidth: 1,
      borderDash: [2, 3],
      pointRadius: 0,
    });
    return datasets;
  }

  function renderChart() {
    if (!chart) {
      chart = createChart(el.curveCanvas, {
        type: 'line',
        data: { datasets: chartDatasets() },
        options: {
          animation: false,
          maintainAspectRatio: false,
          parsing: true,
          interaction: { mode: 'nearest', intersect: false },
          scales: {
            x: {
              type: 'logarithmic',
              min: 0.01,
              max: 10,
              title: { display: true, text: 'ε (log scale)' },
              ticks: {
                autoSkip: false,
                maxRotation: 0,
                callback: (value) => {
                  const m = value / 10 ** Math.floor(Math.log10(value) + 1e-9);
                  return [1, 3].some((d) => Math.abs(m - d) < 1e-6) ? formatEpsilon(value) : '';
                },
              },
            },
            y: { type: 'linear', min: 0, title: { display: true, text: 'divergence D_f(P‖Q)' } },
          },
          plugins: {
            legend: { position: 'bottom', labels: { boxWidth: 18, filter: (item) => item.text !== 'current ε' } },
            tooltip: { callbacks: { label: (ctx) => `${ctx.dataset.label}: ${formatNumber(ctx.parsed.y)} at ε = ${formatEpsilon(ctx.parsed.x)}` } },
          },
        },
      });
    } else {
      chart.data.datasets = chartDatasets();
      chart.update('none');
    }
    el.curveCanvas.dataset.chart = JSON.stringify({
      n: curve?.n ?? null,
      mechanism: curve?.mechanism ?? null,
      done: curve?.done ?? 0,
      total: curve?.total ?? 0,
      epsilons: curve?.epsilons ?? [],
      series: curve?.series ?? {},
      worst: curve?.worst ?? {},
      current: state.epsilon,
    });
  }

  /** Runs the curve of `spec` unless it is the one shown or running; a newer run aborts the older one. */
  async function request(spec) {
    const key = JSON.stringify(spec);
    if (key === curveKey) return;
    curveKey = key;
    const started = performance.now();
    curve = {
      n: spec.n,
      mechanism: spec.mechanism,
      epsilons: [],
      series: { kl: [], tv: [], hellinger: [] },
      worst: { kl: [], tv: [], hellinger: [] },
      done: 0,
      total: CURVE_EPSILONS.length,
    };
    const mine = curve;
    el.curveCard.dataset.state = 'running';
    el.progress.max = CURVE_EPSILONS.length;
    el.progress.value = 0;
    el.curveStatus.textContent = `computing ε 1 of ${CURVE_EPSILONS.length} on ${spec.n} × ${spec.n} cells…`;
    renderChart();
    curveRun?.abort();
    curveRun = new AbortController();
    try {
      const result = await worker.call('curve', { spec, epsilons: CURVE_EPSILONS }, { signal: curveRun.signal, onProgress: (progress) => {
        if (curve !== mine) return;
        mine.epsilons.push(progress.epsilon);
        for (const f of Object.keys(F_STYLE)) {
          mine.series[f].push(progress.values[f]);
          mine.worst[f].push(progress.worst[f]);
        }
        mine.done = progress.done;
        el.progress.value = progress.done;
        el.curveStatus.textContent = `ε ${progress.done} of ${progress.total} (ε = ${formatEpsilon(progress.epsilon)}) on ${spec.n} × ${spec.n} cells…`;
        renderChart();
      } });
      if (curve !== mine) return;
      Object.assign(mine, { epsilons: result.epsilons, series: result.series, worst: result.worst, done: result.epsilons.length });
      el.curveCard.dataset.state = 'done';
      el.curveStatus.textContent = `${result.epsilons.length} values of ε on ${spec.n} × ${spec.n} cells in ${((performance.now() - started) / 1000).toFixed(2)} s.`;
      renderChart();
    } catch (error) {
      if (isAbort(error) || curve !== mine) return;
      el.curveCard.dataset.state = 'error';
      el.curveStatus.textContent = `${error.name}: ${error.message}`;
      curveKey = '';
    }
  }

  /** Nothing valid to plot: stop the running curve and clear the chart. */
  function stop() {
    if (curveKey === '') return;
    curveKey = '';
    curve = null;
    curveRun?.abort();
    el.curveCard.dataset.state = 'idle';
    el.progress.value = 0;
    el.curveStatus.textContent = '';
    renderChart();
  }

  return { request, stop, render: renderChart };
}
