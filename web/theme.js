// Chart colours from the page's CSS variables (--chart-text, --chart-grid, --chart-marker, --card), so the charts
// are readable in light and dark mode (prefers-color-scheme). Read once when a page creates its charts.

/** The value of a CSS custom property of the document, or fallback. */
export function cssColor(name, fallback) {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

/** The theme's chart colours. */
export function chartTheme() {
  return {
    text: cssColor('--chart-text', '#2b2f36'),
    grid: cssColor('--chart-grid', 'rgba(0, 0, 0, 0.07)'),
    marker: cssColor('--chart-marker', '#444'),
    background: cssColor('--card', '#ffffff'),
  };
}

/** Sets Chart.js's default text and line colours from the theme; returns the theme. */
export function applyChartTheme(Chart) {
  const theme = chartTheme();
  Chart.defaults.color = theme.text;
  Chart.defaults.borderColor = theme.grid;
  return theme;
}
