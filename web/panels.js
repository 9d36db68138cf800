// The one renderer of experiment results (experiments/index.mjs's Result format), used by the reproductions page
// (web/reproduce.js) and by `npm run reproduce` (scripts/reproduce.mjs loads this file in Chromium and screenshots it).
// A result's panels become figures drawn like the paper's: 'lines' (linear or log axes; `printed: true` series — the
// paper's printed or plotted values — dashed, or markers when a few values sit beside a dense curve), 'bars' (grouped
// over the x categories) with Chart.js, and 'heatmap'
// with web/heatmap.js (one colour map, one scale shared by the result's heat maps). Labels, captions and axis titles
// are shown with their TeX sub- and superscripts as Unicode (web/math-text.js). Display only: no numbers are computed
// here beyond picking axis ranges.
import { DEMO_FONT as FONT, createChart } from './chart-setup.js';
import { formatLogTick } from './format.js';
import { drawColourBar, drawHeatmap, sharedMax } from './heatmap.js';
import { readableMath } from './math-text.js';
import { chartTheme } from './theme.js';

// Okabe–Ito (colour-blind safe), then greys.
const PALETTE = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000', '#8c564b', '#777777', '#aaaaaa'];

// A series' stem: its label without a qualifier such as "(paper)", "(reference: …)", "(measured worst)",
// "(closed-form R)" or " bound".
const QUALIFIER = /\s*(\((paper|printed|as printed|reference|measured worst|closed-form R)[^)]*\)|\s+bound)$/i;

/**
 * Series styles: the series of one stem share a colour; the first is drawn solid, a later one (a bound, the paper's
 * values) pale with an outline (bars) or thinner (lines); `printed: true` series are dashed.
 */
function stylesOf(series) {
  const stems = [];
  return series.map((s) => {
    const stem = s.label.replace(QUALIFIER, '').trim();
    let i = stems.indexOf(stem);
    const companion = i >= 0;
    if (!companion) {
      i = stems.length;
      stems.push(stem);
    }
    return { colour: PALETTE[i % PALETTE.length], companion };
  });
}

function axis(spec = {}, theme, { category = false } = {}) {
  return {
    type: category ? 'category' : spec.log ? 'logarithmic' : 'linear',
    title: { display: Boolean(spec.label), text: readableMath(spec.label ?? ''), color: theme.text },
    ticks: { color: theme.text, maxRotation: 0, autoSkip: true, ...(spec.log && !category ? { callback: formatLogTick } : {}) },
    grid: { color: theme.grid },
  };
}

function chartConfig(panel, theme) {
  const styles = stylesOf(panel.series);
  const common = {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    plugins: {
      legend: {
        position: 'bottom',
        labels: { color: theme.text, boxWidth: 18, font: { size: 11, family: FONT }, ...(panel.kind === 'lines' ? { usePointStyle: true, pointStyle: 'line' } : {}) },
      },
      tooltip: { enabled: true },
    },
  };
  if (panel.kind === 'bars') {
    const xs = [...new Set(panel.series.flatMap((s) => s.points.map(([x]) => x)))];
    const numeric = xs.every((x) => typeof x === 'number');
    if (numeric) xs.sort((a, b) => a - b);
    return {
      type: 'bar',
      data: {
        labels: xs.map(String),
        datasets: panel.series.map((s, i) => {
          const at = new Map(s.points.map(([x, y]) => [x, y]));
          return {
            label: readableMath(s.label),
            data: xs.map((x) => (at.has(x) ? at.get(x) : null)),
            backgroundColor: styles[i].companion || s.printed ? `${styles[i].colour}40` : styles[i].colour,
            borderColor: styles[i].colour,
            borderWidth: styles[i].companion || s.printed ? 1.5 : 0,
            borderDash: s.printed ? [5, 3] : [],
          };
        }),
      },
      options: { ...common, scales: { x: axis(panel.x, theme, { category: true }), y: { ...axis(panel.y, theme), beginAtZero: !panel.y?.log } } },
    };
  }
  const many = Math.max(...panel.series.map((s) => s.points.length));
  return {
    type: 'line',
    data: {
      datasets: panel.series.map((s, i) => {
        // A few printed values beside a dense curve are markers: a line between them would invent values between.
        const markers = s.printed && s.points.length <= 12 && s.points.length * 2 < many;
        return {
          label: readableMath(s.label),
          data: s.points.map(([x, y]) => ({ x, y })),
          borderColor: styles[i].colour,
          backgroundColor: styles[i].colour,
          borderDash: s.printed ? [6, 4] : [],
          borderWidth: s.printed ? 2 : styles[i].companion ? 1.25 : 1.75,
          pointRadius: markers ? 4.5 : many > 30 ? 0 : 2.5,
          pointStyle: markers ? 'crossRot' : 'circle',
          showLine: !markers,
          fill: false,
          tension: 0,
          spanGaps: false,
        };
      }),
    },
    options: { ...common, parsing: true, scales: { x: axis(panel.x, theme), y: axis(panel.y, theme) } },
  };
}

/**
 * Renders every panel of `result` into `container` (emptied first): one <figure data-testid="panel"> each, with the
 * title as caption, a canvas, and for heat maps a shared colour bar after the last one. Returns { charts, figures }:
 * renderResult destroys the charts it made last time in this container. The heat maps' size follows the container's
 * width (options.heatSize overrides it).
 */
export function renderResult(container, result, { heatSize } = {}) {
  for (const chart of container.__charts ?? []) chart.destroy();
  container.replaceChildren();
  const theme = chartTheme();
  const charts = [];
  const figures = [];
  const heatmaps = result.panels.filter((p) => p.kind === 'heatmap');
  const vmax = sharedMax(heatmaps);
  const width = container.clientWidth || 360;
  const size = heatSize ?? Math.max(160, Math.min(320, heatmaps.length > 1 && width >= 700 ? Math.floor(width / 3) - 16 : width - 16));
  result.panels.forEach((panel, i) => {
    const figure = document.createElement('figure');
    figure.className = `panel panel-${panel.kind}`;
    figure.dataset.testid = 'panel';
    figure.dataset.kind = panel.kind;
    figure.dataset.index = String(i);
    const caption = document.createElement('figcaption');
    caption.textContent = readableMath(panel.title);
    figure.append(caption);
    const canvas = document.createElement('canvas');
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', `${panel.kind === 'heatmap' ? 'Heat map' : 'Chart'}: ${readableMath(panel.title)}`);
    if (panel.kind === 'heatmap') {
      figure.append(canvas);
      drawHeatmap(canvas, panel, { vmax, size, textColour: theme.text });
    } else {
      const box = document.createElement('div');
      box.className = 'panel-box';
      // room for the legend: one more line per series beyond four
      box.style.height = `${300 + 18 * Math.max(0, panel.series.length - 4)}px`;
      box.append(canvas);
      figure.append(box);
    }
    container.append(figure);
    figures.push(figure);
    if (panel.kind !== 'heatmap') {
      const chart = createChart(canvas, chartConfig(panel, theme));
      canvas.dataset.legend = JSON.stringify(chart.data.datasets.map((d) => d.label)); // what the legend says
      charts.push(chart);
    }
  });
  if (heatmaps.length > 0) {
    const figure = document.createElement('figure');
    figure.className = 'panel panel-colourbar';
    const caption = document.createElement('figcaption');
    caption.textContent = 'scale (shared)';
    const bar = document.createElement('canvas');
    bar.setAttribute('role', 'img');
    bar.setAttribute('aria-label', 'Colour scale shared by the heat maps');
    figure.append(caption, bar);
    container.append(figure);
    drawColourBar(bar, { vmax, height: size + 6 + 22 - 8, textColour: theme.text });
  }
  container.__charts = charts;
  return { charts, figures };
}
