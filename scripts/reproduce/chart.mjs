// Renders a reproduction's bar charts (one panel per divergence) with Chart.js in Debian's Chromium (headless,
// driven by playwright-core) and screenshots them to a PNG. The page is built in memory with the data inlined and
// Chart.js injected from node_modules; every network request is refused.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const CHART_JS = fileURLToPath(new URL('../../node_modules/chart.js/dist/chart.umd.js', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
// seaborn Set1: red, blue, green.
const COLOURS = { global: '#e41a1c', local: '#377eb8', proposed: '#377eb8' };

function html(spec) {
  const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    body { margin: 0; font-family: sans-serif; background: #fff; }
    #figure { width: 1500px; padding: 12px 16px 8px; box-sizing: border-box; }
    h1 { font-size: 18px; margin: 0 0 4px; } p { font-size: 13px; margin: 0 0 8px; color: #333; }
    .panels { display: flex; gap: 12px; } .panel { width: 480px; height: 380px; position: relative; }
  </style></head><body><div id="figure"><h1>${esc(spec.title)}</h1><p>${esc(spec.subtitle)}</p>
  <div class="panels">${spec.panels.map((_, i) => `<div class="panel"><canvas id="c${i}"></canvas></div>`).join('')}</div></div></body></html>`;
}

function draw(spec) {
  const colours = spec.colours;
  spec.panels.forEach((panel, i) => {
    const datasets = [];
    for (const s of panel.series) {
      const c = colours[s.sampler] ?? '#4daf4a';
      // Same stack id: the pale bound bar sits behind the measured bar (x stacked, y not stacked: overlaid, not summed).
      datasets.push({ label: `${s.label} (measured worst)`, data: s.measured, backgroundColor: c, borderColor: c, borderWidth: 1, stack: s.sampler, order: 0 });
      datasets.push({ label: `${s.label} (theoretical bound R)`, data: s.bound, backgroundColor: `${c}33`, borderColor: c, borderWidth: 2, stack: s.sampler, order: 1 });
    }
    // eslint-disable-next-line no-undef
    new Chart(document.getElementById(`c${i}`), {
      type: 'bar',
      data: { labels: spec.labels, datasets },
      options: {
        animation: false, responsive: true, maintainAspectRatio: false, devicePixelRatio: 1,
        plugins: { title: { display: true, text: panel.title, font: { size: 16 } }, legend: { position: 'bottom' } },
        scales: {
          x: { stacked: true, title: { display: true, text: spec.xLabel } },
          y: { stacked: false, beginAtZero: true, title: { display: true, text: 'Worst f-divergence' } },
        },
      },
    });
  });
}

/** spec: { title, subtitle, labels, xLabel, panels: [{ title, series: [{ sampler, label, measured[], bound[] }] }] } */
export async function renderChart(spec, pngPath) {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: cannot render the chart`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1500, height: 600 }, deviceScaleFactor: 1 });
    await context.route('**/*', (route) => route.abort()); // no network at all
    const page = await context.newPage();
    await page.setContent(html(spec));
    await page.addScriptTag({ path: CHART_JS });
    await page.evaluate(draw, { ...spec, colours: COLOURS });
    await page.locator('#figure').screenshot({ path: pngPath });
  } finally {
    await browser.close();
  }
}
