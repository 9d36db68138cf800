// A result as CSV: its table, or its panels flattened. Shared by `npm run reproduce` (scripts/reproduce.mjs writes
// <name>.csv) and the reproductions page's download (web/reproduce.js), so both give the same file.

const csvCell = (v) => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The result's table, or its panels flattened (lines/bars: panel, series, x, y; heat maps: one row per cell). */
export function tableOf(result) {
  if (result.table) return result.table;
  const rows = [];
  for (const panel of result.panels) {
    if (panel.kind === 'heatmap') {
      const { width, height } = panel.grid;
      for (let iy = 0; iy < height; iy += 1) for (let ix = 0; ix < width; ix += 1) rows.push([panel.title, 'cell', ix, iy, panel.values[iy * width + ix]]);
    } else {
      for (const s of panel.series) for (const [x, y] of s.points) rows.push([panel.title, s.label, x, y, '']);
    }
  }
  return { columns: ['panel', 'series', 'x (heat map: column index)', 'y (heat map: row index)', 'heat map value'], rows };
}

/** The CSV text of tableOf(result): a header row, then one line per row, RFC 4180 quoting. */
export function toCsv(result) {
  const { columns, rows } = tableOf(result);
  return `${[columns, ...rows].map((r) => r.map(csvCell).join(',')).join('\n')}\n`;
}
