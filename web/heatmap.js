// The one heat-map renderer of the site and of `npm run reproduce`'s PNGs: a grid of values drawn to a canvas with ONE
// colour map (matplotlib's 'plasma', the papers' imshow map), row 0 of the grid at the bottom (y grows upwards),
// integer ticks on both axes, and a colour bar. Display only: the values come from the privsample API.

import { formatColourBarLabel } from './format.js';

// 'plasma' at 0, 1/8, …, 1, interpolated linearly.
const PLASMA = ['#0d0887', '#4c02a1', '#7e03a8', '#a92395', '#cc4778', '#e56b5d', '#f89441', '#fdc328', '#f0f921'];
const STOPS = PLASMA.map((hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));

/** The colour map at t in [0, 1] (clamped) as [r, g, b]. */
export function colourAt(t) {
  const x = Math.min(Math.max(Number.isFinite(t) ? t : 0, 0), 1) * (STOPS.length - 1);
  const i = Math.min(Math.floor(x), STOPS.length - 2);
  const w = x - i;
  return STOPS[i].map((c, k) => Math.round(c + w * (STOPS[i + 1][k] - c)));
}

/** The largest value of the given heat-map panels (the shared top of their colour scale). */
export function sharedMax(panels) {
  let top = 0;
  for (const panel of panels) for (const v of panel.values) if (v > top) top = v;
  return top;
}

const MARGIN = { left: 30, right: 8, top: 6, bottom: 22 };

/**
 * Draws panel = { grid: { width, height, x: [lo, hi], y: [lo, hi] }, values (row-major, height·width) } into
 * `canvas` (its width/height attributes set here from `size`), colour scale [0, vmax]. textColour for the ticks.
 */
export function drawHeatmap(canvas, panel, { vmax = sharedMax([panel]), size = 300, textColour = '#2b2f36' } = {}) {
  const { width, height, x, y } = panel.grid;
  const plot = Math.max(40, size - MARGIN.left - MARGIN.right);
  canvas.width = plot + MARGIN.left + MARGIN.right;
  canvas.height = plot + MARGIN.top + MARGIN.bottom;
  const ctx = canvas.getContext('2d');
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const image = document.createElement('canvas');
  image.width = width;
  image.height = height;
  const ictx = image.getContext('2d');
  const pixels = ictx.createImageData(width, height);
  const scale = vmax > 0 ? 1 / vmax : 0;
  for (let iy = 0; iy < height; iy += 1) {
    for (let ix = 0; ix < width; ix += 1) {
      const [r, g, b] = colourAt(panel.values[iy * width + ix] * scale);
      const o = ((height - 1 - iy) * width + ix) * 4; // grid row 0 (lowest y) at the bottom
      pixels.data[o] = r;
      pixels.data[o + 1] = g;
      pixels.data[o + 2] = b;
      pixels.data[o + 3] = 255;
    }
  }
  ictx.putImageData(pixels, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(image, MARGIN.left, MARGIN.top, plot, plot);
  ctx.fillStyle = textColour;
  ctx.font = '11px system-ui, sans-serif';
  const ticks = (lo, hi) => {
    const out = [];
    for (let t = Math.ceil(lo); t <= Math.floor(hi); t += 1) out.push(t);
    return out;
  };
  ctx.textAlign = 'center';
  for (const t of ticks(x[0], x[1])) {
    const px = MARGIN.left + ((t - x[0]) / (x[1] - x[0])) * plot;
    ctx.fillRect(px, MARGIN.top + plot, 1, 4);
    ctx.fillText(String(t), px, MARGIN.top + plot + 15);
  }
  ctx.textAlign = 'right';
  for (const t of ticks(y[0], y[1])) {
    const py = MARGIN.top + plot - ((t - y[0]) / (y[1] - y[0])) * plot;
    ctx.fillRect(MARGIN.left - 4, py, 4, 1);
    ctx.fillText(String(t), MARGIN.left - 6, py + 4);
  }
}


/** A vertical colour bar for the scale [0, vmax] (five labelled ticks). */
export function drawColourBar(canvas, { vmax, height = 300, textColour = '#2b2f36', format = formatColourBarLabel }) {
  canvas.width = 64;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const top = MARGIN.top;
  const bar = height - MARGIN.top - MARGIN.bottom;
  for (let i = 0; i < bar; i += 1) {
    const [r, g, b] = colourAt(1 - i / Math.max(1, bar - 1));
    ctx.fillStyle = `rgb(${r},${g},${b})`;
    ctx.fillRect(2, top + i, 14, 1);
  }
  ctx.fillStyle = textColour;
  ctx.font = '11px system-ui, sans-serif';
  ctx.textAlign = 'left';
  for (let i = 0; i <= 4; i += 1) ctx.fillText(format(vmax * (1 - i / 4)), 20, top + (i / 4) * (bar - 1) + 4);
}
