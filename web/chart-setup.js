// Chart.js for every page of the demo and for web/panels.js (the reproductions' renderer), set up once: the components the pages draw with, registered, and the
// theme's text and grid colours (theme.js: light or dark from the page's CSS). useDemoFont() sets the system font
// the histogram and many-users pages use.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  ScatterController,
  Tooltip,
} from 'chart.js';
import { applyChartTheme } from './theme.js';

Chart.register(BarController, BarElement, CategoryScale, Filler, Legend, LinearScale, LineController, LineElement, LogarithmicScale, PointElement, ScatterController, Tooltip);

/** The theme's chart colours ({ text, grid, marker, background }), already applied to Chart.defaults. */
export const chartColours = applyChartTheme(Chart);

/** The system font stack of the demo's charts. */
export const DEMO_FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

export function useDemoFont() {
  Chart.defaults.font.family = DEMO_FONT;
  Chart.defaults.font.size = 13;
}

/** A chart on the set-up Chart.js (a function, so that using it keeps the registration above in every bundle). */
export function createChart(canvas, config) {
  return new Chart(canvas, config);
}

/** A line chart with what every curve of the demo shares: no animation, it fills its box, points given as { x, y }. */
export function lineChart(canvas, options, plugins = []) {
  return createChart(canvas, {
    type: 'line',
    data: { datasets: [] },
    options: { animation: false, responsive: true, maintainAspectRatio: false, parsing: false, ...options },
    plugins,
  });
}
