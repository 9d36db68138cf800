#!/usr/bin/env node
// npm run reproduce -- <name> [--quick | --paper] [--out DIR] [--no-chart]
// npm run reproduce -- all [--quick | --paper] [--out DIR] [--no-chart]
// npm run reproduce -- list
//
// --quick runs each entry's quick form (what npm test runs); --paper the paper's own scale where an entry reduces it
// for time (entry.paperScale, e.g. MBDE's paper preset in minimax-fig1 and minimax-fig4: hours). Independent runs
// inside an entry (minimax-fig4's MBDE clients) are spread over one worker thread per core (scripts/reproduce-pool.mjs).
//
// Runs entries of the one registry of experiments (experiments/index.mjs: every figure and table of the four papers)
// through the public API of privsample/research and, for each entry, writes to DIR (default reproductions/):
//   <name>.csv   the result's table (or its panels' series flattened when it has none)
//   <name>.json  the whole result (panels, checks, printed values, table) with its set-up and time
//   <name>.png   the figure, drawn by the reproductions page's own renderer (web/panels.js with Chart.js and
//                web/heatmap.js) in Debian's Chromium through playwright-core, offline
// It prints every check and every printed value beside the computed one (for `all`: one line per entry with its time
// and pass/fail, the failures, and the total time). Exit status: 0 when every check passed and every printed value
// matched, 1 otherwise, 2 on bad usage.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../bindings/js/research.mjs';
import { EXPERIMENTS, PAPERS, experimentByName, runExperiment } from '../experiments/index.mjs';
import { tableOf, toCsv } from '../experiments/table.mjs';
import { threadPool } from './reproduce-pool.mjs';

export { tableOf, toCsv };

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const USAGE = 'usage: npm run reproduce -- <name>|all|list [--quick | --paper] [--out DIR] [--no-chart]';

export function parseArgs(argv) {
  const args = { quick: false, paperScale: false, chart: true, out: join(ROOT, 'reproductions'), names: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    if (a === '--quick') args.quick = true;
    else if (a === '--paper') args.paperScale = true;
    else if (a === '--no-chart') args.chart = false;
    else if (a === '--out') {
      const dir = argv[(i += 1)];
      if (!dir) throw new RangeError('--out needs a directory');
      args.out = resolve(dir);
    } else if (a.startsWith('--')) throw new RangeError(`unknown option ${a}`);
    else args.names.push(a);
  }
  if (args.quick && args.paperScale) throw new RangeError('--quick and --paper exclude each other');
  if (args.names.length === 0) throw new RangeError(`name an experiment, 'all' or 'list'; the names are: ${EXPERIMENTS.map((e) => e.name).join(', ')}`);
  if (args.names.includes('list')) return { ...args, list: true };
  args.all = args.names.includes('all');
  args.entries = args.all ? [...EXPERIMENTS] : args.names.map((n) => experimentByName(n));
  return args;
}

// ---- printing ------------------------------------------------------------------------------------------------------

const fmt = (v) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toPrecision(6)) : String(v));

export function report(run) {
  const { entry, result, ms, ok } = run;
  const lines = [`${entry.name} — ${PAPERS[entry.paper].split(' — ')[0]} ${entry.figure}: ${entry.title}`];
  if (entry.erratum) lines.push(`  erratum: ${entry.erratum}`);
  lines.push(`  checks (${result.checks.filter((c) => c.ok).length} of ${result.checks.length} ok):`);
  for (const c of result.checks) lines.push(`    ${c.ok ? 'ok  ' : 'FAIL'} ${c.label}: ${fmt(c.value)} (limit ${fmt(c.limit)})`);
  if (result.printed.length) {
    lines.push(`  reference values (${result.printed.filter((p) => p.ok).length} of ${result.printed.length} match; source: printed in the paper, ` +
      'decoded from its figure, from the authors\' code, or derived from its formulas):');
    for (const p of result.printed) lines.push(`    ${p.ok ? 'ok  ' : 'FAIL'} ${p.label}: reference ${fmt(p.paper)} (${p.source}), computed ${fmt(p.computed)}`);
  }
  lines.push(`  ${ok ? 'PASS' : 'FAIL'} in ${(ms / 1000).toFixed(2)} s`);
  return lines.join('\n');
}

// ---- the chart images: web/panels.js in Chromium -------------------------------------------------------------------

// Files the render page may load (everything else is refused): the renderer and Chart.js with its one dependency.
const SERVED = ['web/', 'node_modules/chart.js/dist/', 'node_modules/@kurkle/color/dist/'];
const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css' };
const ORIGIN = 'http://render.privsample.invalid';

const RENDER_PAGE = `<!doctype html><html><head><meta charset="utf-8">
<script type="importmap">{"imports":{"chart.js":"/node_modules/chart.js/dist/chart.js","@kurkle/color":"/node_modules/@kurkle/color/dist/color.esm.js"}}</script>
<style>
  body { margin: 0; background: #fff; color: #2b2f36; font: 14px system-ui, sans-serif; }
  #figure { width: 1200px; padding: 14px 18px 10px; box-sizing: border-box; }
  h1 { font-size: 17px; margin: 0 0 4px; } p { margin: 0 0 6px; font-size: 12.5px; overflow-wrap: anywhere; }
  .erratum { border-left: 4px solid #d55e00; background: #fff4ec; padding: 4px 8px; }
  .panels { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; }
  .panel { margin: 0; } .panel figcaption { font-weight: 600; text-align: center; margin-bottom: 4px; }
  .panel-bars { width: 376px; } .panel-lines { width: 560px; } .panel-box { position: relative; height: 330px; }
</style>
<script type="module">
  import { renderResult } from '/web/panels.js';
  window.renderFigure = (header, result) => {
    document.getElementById('title').textContent = header.title;
    document.getElementById('setup').textContent = header.setup;
    const erratum = document.getElementById('erratum');
    erratum.textContent = header.erratum ?? '';
    erratum.hidden = !header.erratum;
    renderResult(document.getElementById('panels'), result, { heatSize: 340 });
  };
  window.rendererReady = true;
</script></head><body><div id="figure"><h1 id="title"></h1><p id="setup"></p><p id="erratum" class="erratum" hidden></p>
<div id="panels" class="panels"></div></div></body></html>`;

async function serve(route) {
  const url = new URL(route.request().url());
  if (url.origin !== ORIGIN) return route.abort(); // no network at all
  if (url.pathname === '/render.html') return route.fulfill({ contentType: 'text/html', body: RENDER_PAGE });
  const relative = decodeURIComponent(url.pathname.slice(1));
  const file = normalize(join(ROOT, relative));
  if (!file.startsWith(ROOT) || !SERVED.some((dir) => relative.startsWith(dir)) || !existsSync(file)) return route.abort();
  return route.fulfill({ contentType: TYPES[extname(file)] ?? 'application/octet-stream', body: readFileSync(file) });
}

/** Renders each run's result to <out>/<name>.png in one Chromium session; returns the paths. */
export async function renderPngs(runs, out) {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found (Debian package chromium): cannot draw the charts; use --no-chart`);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  const paths = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1200, height: 700 }, deviceScaleFactor: 1 });
    await context.route('**/*', serve);
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${ORIGIN}/render.html`);
    await page.waitForFunction(() => window.rendererReady === true, null, { timeout: 20_000 });
    for (const { entry, setup, result } of runs) {
      const header = {
        title: `${entry.name} — ${PAPERS[entry.paper].split(' — ')[0]}, ${entry.figure}: ${entry.title}`,
        setup: Object.entries(setup).map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join('; ').slice(0, 600),
        erratum: entry.erratum ? `Erratum: ${entry.erratum}` : undefined,
      };
      await page.evaluate(([h, r]) => window.renderFigure(h, r), [header, { panels: result.panels }]);
      if (errors.length) throw new Error(`the renderer failed on ${entry.name}: ${errors.join('; ')}`);
      const path = join(out, `${entry.name}.png`);
      await page.locator('#figure').screenshot({ path });
      paths.push(path);
    }
  } finally {
    await browser.close();
  }
  return paths;
}

// ---- main ----------------------------------------------------------------------------------------------------------

function listing() {
  const lines = [];
  for (const [paper, title] of Object.entries(PAPERS)) {
    lines.push(`${paper}: ${title}`);
    for (const e of EXPERIMENTS.filter((x) => x.paper === paper)) {
      lines.push(`  ${e.name.padEnd(18)} ${e.figure.padEnd(9)} ${e.closedForm ? 'closed form ' : ''}${e.erratum ? '(erratum) ' : ''}${e.title}`);
    }
  }
  return lines.join('\n');
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${USAGE}\n${error.message}`);
    process.exit(2);
  }
  if (args.list) {
    console.log(listing());
    return;
  }
  mkdirSync(args.out, { recursive: true });
  const ps = await init();
  const pool = threadPool();
  const runs = [];
  const started = performance.now();
  const tty = process.stderr.isTTY;
  for (const entry of args.entries) {
    let shown = -1;
    const progress = (f) => {
      const pct = Math.floor(f * 100);
      if (tty && pct !== shown) {
        shown = pct;
        process.stderr.write(`\r${entry.name}: ${pct}%   `);
      }
    };
    const run = await runExperiment(ps, entry, { quick: args.quick, paperScale: args.paperScale, progress, pool });
    if (tty) process.stderr.write('\r\x1b[K');
    runs.push(run);
    writeFileSync(join(args.out, `${entry.name}.csv`), toCsv(run.result));
    writeFileSync(join(args.out, `${entry.name}.json`), `${JSON.stringify({ name: entry.name, paper: entry.paper, figure: entry.figure,
      title: entry.title, quick: args.quick, paperScale: args.paperScale, setup: run.setup, erratum: entry.erratum ?? null, seconds: run.ms / 1000, ok: run.ok, ...run.result })}\n`);
    if (args.all) {
      console.log(`${run.ok ? 'pass' : 'FAIL'}  ${entry.name.padEnd(18)} ${(run.ms / 1000).toFixed(2).padStart(7)} s`);
      for (const c of run.result.checks.filter((x) => !x.ok)) console.log(`        check failed: ${c.label}: ${fmt(c.value)} (limit ${fmt(c.limit)})`);
      for (const p of run.result.printed.filter((x) => !x.ok)) console.log(`        reference mismatch: ${p.label}: reference ${fmt(p.paper)} (${p.source}), computed ${fmt(p.computed)}`);
    } else {
      console.log(report(run));
    }
  }
  const computeSeconds = (performance.now() - started) / 1000;
  await pool.close();
  if (args.chart) {
    const t = performance.now();
    await renderPngs(runs, args.out);
    console.log(`drew ${runs.length} chart image${runs.length === 1 ? '' : 's'} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  const failed = runs.filter((r) => !r.ok);
  console.log(`${runs.length - failed.length} of ${runs.length} passed${failed.length ? ` (failed: ${failed.map((r) => r.entry.name).join(', ')})` : ''}; ` +
    `computed in ${computeSeconds.toFixed(1)} s, total ${((performance.now() - started) / 1000).toFixed(1)} s${args.quick ? ' (quick)' : args.paperScale ? ' (paper scale)' : ''}; ` +
    `${pool.size} worker thread${pool.size === 1 ? '' : 's'}; wrote ${args.out}`);
  process.exit(failed.length ? 1 : 0);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
