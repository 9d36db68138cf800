// Renders a reproduction's bar charts (one panel per divergence) with Chart.js in Debian's Chromium (headless,
// driven by playwright-core) and screenshots them to a PNG. The page is built in memory with the data inlined and
// Chart.js injected from node_modules; every network request is refused.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const CHART_JS = fileURLToPath(new URL('../../node_modules/chart.js/dist/chart.umd.js', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
// seaborn Set1: red, blue, green.
const COLOURS = { global: '#e41a1c', local: '#377eb8', proposed: '#377eb8', mbde: '#e41a1c' };

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
      if (s.bound.every((v) => v === null)) continue; // no closed-form bound (MBDE)
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

/** Opens an offline page in headless Chromium, lets `fill(page)` draw into #figure, screenshots #figure. */
async function screenshot(content, fill, pngPath) {
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
    await page.setContent(content);
    await fill(page);
    await page.locator('#figure').screenshot({ path: pngPath });
  } finally {
    await browser.close();
  }
}

/** spec: { title, subtitle, labels, xLabel, panels: [{ title, series: [{ sampler, label, measured[], bound[] }] }] } */
export async function renderChart(spec, pngPath) {
  await screenshot(html(spec), async (page) => {
    await page.addScriptTag({ path: CHART_JS });
    await page.evaluate(draw, { ...spec, colours: COLOURS });
  }, pngPath);
}

// matplotlib's 'plasma' (the paper's imshow colour map) at 0, 1/8, …, 1, interpolated linearly.
const PLASMA = ['#0d0887', '#4c02a1', '#7e03a8', '#a92395', '#cc4778', '#e56b5d', '#f89441', '#fdc328', '#f0f921'];

function heatmapHtml(spec) {
  const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    body { margin: 0; font-family: sans-serif; background: #fff; }
    #figure { width: 1500px; padding: 12px 16px 8px; box-sizing: border-box; }
    h1 { font-size: 18px; margin: 0 0 4px; } p { font-size: 13px; margin: 0 0 8px; color: #333; }
  </style></head><body><div id="figure"><h1>${esc(spec.title)}</h1><p>${esc(spec.subtitle)}</p>
  <canvas id="c" width="1468" height="500"></canvas></div></body></html>`;
}

// Runs in the page: every panel as canvas ImageData (row 0 at the top = largest y), scaled up without smoothing;
// one colour scale [0, max over all panels] shared by the three, with a colour bar.
function drawHeatmaps(spec) {
  const { nx, ny, panels, colours, extent } = spec;
  const rgb = colours.map((h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)));
  const colour = (t) => {
    const x = Math.min(Math.max(t, 0), 1) * (rgb.length - 1);
    const i = Math.min(Math.floor(x), rgb.length - 2);
    const w = x - i;
    return rgb[i].map((c, k) => Math.round(c + w * (rgb[i + 1][k] - c)));
  };
  let vmax = 0;
  for (const p of panels) for (const v of p.values) vmax = Math.max(vmax, v);
  const canvas = document.getElementById('c');
  const ctx = canvas.getContext('2d');
  const size = 380;
  const top = 40;
  panels.forEach((panel, k) => {
    const left = 50 + k * (size + 70);
    const off = document.createElement('canvas');
    off.width = nx;
    off.height = ny;
    const octx = off.getContext('2d');
    const img = octx.createImageData(nx, ny);
    for (let iy = 0; iy < ny; iy += 1) {
      for (let ix = 0; ix < nx; ix += 1) {
        const [r, g, b] = colour(panel.values[iy * nx + ix] / vmax);
        const o = ((ny - 1 - iy) * nx + ix) * 4;
        img.data[o] = r; img.data[o + 1] = g; img.data[o + 2] = b; img.data[o + 3] = 255;
      }
    }
    octx.putImageData(img, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(off, left, top, size, size);
    ctx.fillStyle = '#000';
    ctx.font = '16px sans-serif';
    ctx.textAlign = 'center';
    ctx.fillText(panel.title, left + size / 2, top - 12);
    ctx.font = '12px sans-serif';
    for (let t = Math.ceil(extent[0]); t <= extent[1]; t += 1) {
      const x = left + ((t - extent[0]) / (extent[1] - extent[0])) * size;
      ctx.fillText(String(t), x, top + size + 16);
      ctx.fillRect(x, top + size, 1, 4);
    }
    ctx.textAlign = 'right';
    for (let t = Math.ceil(extent[2]); t <= extent[3]; t += 1) {
      const y = top + size - ((t - extent[2]) / (extent[3] - extent[2])) * size;
      ctx.fillText(String(t), left - 6, y + 4);
      ctx.fillRect(left - 4, y, 4, 1);
    }
    ctx.textAlign = 'center';
  });
  const barLeft = 50 + panels.length * (size + 70);
  for (let y = 0; y < size; y += 1) {
    const [r, g, b] = colour(1 - y / (size - 1));
    ctx.fillStyle = `rgb(${r},${g},${b})`;
    ctx.fillRect(barLeft, top + y, 20, 1);
  }
  ctx.fillStyle = '#000';
  ctx.textAlign = 'left';
  ctx.font = '12px sans-serif';
  for (let i = 0; i <= 4; i += 1) ctx.fillText((vmax * (1 - i / 4)).toFixed(3), barLeft + 26, top + (i / 4) * size + 4);
  ctx.fillText('density', barLeft, top - 12);
}

/** spec: { title, subtitle, nx, ny, extent: [xLo, xHi, yLo, yHi], panels: [{ title, values (nx·ny, x fastest) }] } */
export async function renderHeatmaps(spec, pngPath) {
  await screenshot(heatmapHtml(spec), (page) => page.evaluate(drawHeatmaps, { ...spec, colours: PLASMA }), pngPath);
}
