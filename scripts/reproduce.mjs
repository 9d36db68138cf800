#!/usr/bin/env node
// npm run reproduce -- <name> [--quick] [--clients N] [--mbde-clients N] [--out DIR] [--no-chart]
//
// Reproduces a figure of the papers privsample implements, through the public JS API only:
//   local-fig4    Ghoukasian et al. Fig. 4  — 1-D Laplace mixtures, pure ε-LDP: global (Park clip) vs local clip
//   local-fig10   Ghoukasian et al. Fig. 10 — the same clients under ν-Gaussian LDP: global linear vs local linear
//   minimax-fig4  Park et al. Fig. 4        — truncated 1-D Gaussian mixtures on [−4, 4]: the minimax clip sampler
//                 vs the MBDE baseline (ps.mbde, reduced preset, seeded; on the first --mbde-clients clients per ε,
//                 default 20 on a 200-cell grid, --quick 2 on 40 cells; no closed-form bound, its measured worst only)
//   minimax-fig1  Park et al. Fig. 1        — the 2-D Gaussian ring at ε = 0.5: heatmaps of P, MBDE and ours
// For every budget it draws the clients (seeded xoshiro256**, scripts/reproduce/rng.mjs), computes each
// sampler's exact output pmf on the grid, and reports the worst (max over clients) KL / TV / squared Hellinger
// (½Σ(√p−√q)²) beside the sampler's closed-form worst case R over its class (worstCaseRisk).
// Writes <out>/<name>.csv and <out>/<name>.png (default out: test-output/reproduce/) and prints a summary.
// Privacy checks on the outputs: the minimax sampler's box (log(max q/h) − log(min q/h) <= ε) and MBDE's
// e^{−ε/2} <= q_T/q0 <= e^{ε/2} (max |log q_T/q0| <= ε/2), both up to 1e-9 relative.
// Exit status: 0 if every measured value is <= its bound and every privacy check holds (up to 1e-9 relative),
// 1 otherwise, 2 on bad usage.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../bindings/js/research.mjs';
import { renderChart, renderHeatmaps } from './reproduce/chart.mjs';
import { DIVERGENCES, EXPERIMENTS } from './reproduce/experiments.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const RELATIVE_SLACK = 1e-9;
export const CSV_COLUMNS = ['figure', 'budget_name', 'budget', 'divergence', 'sampler', 'measured_worst', 'theoretical_bound',
  'within_bound', 'worst_client', 'clients', 'cells', 'seed', 'baseline', 'privacy_check', 'privacy_value', 'privacy_limit', 'privacy_ok'];

// No closed-form bound (MBDE: NaN) counts as within; the CSV says n/a.
const withinBound = (measured, bound) => Number.isNaN(bound) || measured <= bound + RELATIVE_SLACK * Math.abs(bound);

/** Runs one reproduction; returns { name, experiment, rows, cells, clients, seconds, violations }. */
export async function reproduce(name, { quick = false, clients, mbdeClients } = {}) {
  const experiment = EXPERIMENTS[name];
  if (!experiment) throw new RangeError(`unknown reproduction '${name}'; use one of ${Object.keys(EXPERIMENTS).join(', ')}`);
  const count = clients ?? (quick ? 10 : 100);
  const mbde = experiment.mbdeDefaults?.[quick ? 'quick' : 'full'] ?? { clients: 0, cells: 0 };
  const options = { quick, clients: count, mbdeClients: mbdeClients ?? mbde.clients, mbdeCells: mbde.cells };
  const ps = await init();
  const start = performance.now();
  const out = experiment.run(ps, options);
  const seconds = (performance.now() - start) / 1000;
  const { rows, cells } = out;
  for (const row of rows) {
    row.within = withinBound(row.measured, row.bound);
    if (row.privacyCheck !== undefined) row.privacyOk = row.privacyCheck <= row.privacyLimit * (1 + RELATIVE_SLACK);
  }
  const failed = rows.filter((r) => !r.within || r.privacyOk === false);
  if (out.classCheck !== undefined && !(out.classCheck <= 1 + RELATIVE_SLACK)) failed.push({ classCheck: out.classCheck });
  return {
    name, experiment, rows, cells, clients: out.clients ?? count, quick, seconds, violations: failed,
    baseline: experiment.baseline?.(options) ?? '', heatmaps: out.heatmaps, notes: out.notes ?? [], mbdeClients: options.mbdeClients,
  };
}

export function toCsv(result) {
  const { name, experiment, rows, cells, clients, baseline } = result;
  const lines = [CSV_COLUMNS.join(',')];
  for (const r of rows) {
    const seed = experiment.seeds[experiment.budgets.indexOf(r.budget)];
    const noBound = Number.isNaN(r.bound);
    const checked = r.privacyCheck !== undefined;
    lines.push([name, experiment.budgetName, r.budget, r.divergence, r.sampler, r.measured, noBound ? 'n/a' : r.bound, noBound ? 'n/a' : r.within,
      r.worstClient, r.clients ?? clients, r.cells ?? cells, seed, baseline, checked ? r.privacyCheckName : '', checked ? r.privacyCheck : '',
      checked ? r.privacyLimit : '', checked ? r.privacyOk : '']
      .map((v) => (/[,"]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : v)).join(','));
  }
  return `${lines.join('\n')}\n`;
}

const SAMPLER_LABELS = { global: 'Global', local: 'Local', proposed: 'Proposed (minimax clip)', mbde: 'Baseline (MBDE)' };

export function chartSpec(result) {
  const { experiment, rows, clients, cells, quick, baseline } = result;
  const samplers = [...new Set(rows.map((r) => r.sampler))];
  const pick = (sampler, f, key) => experiment.budgets.map((b) => {
    const v = rows.find((r) => r.budget === b && r.sampler === sampler && r.divergence === f)[key];
    return Number.isNaN(v) ? null : v;
  });
  return {
    title: experiment.title,
    subtitle: `Solid: worst over ${clients} random clients per budget (${cells} grid cells${quick ? ', --quick' : ''}); pale outlined bars behind them: the closed-form worst case R over the class.` +
      (baseline ? ` Baseline: ${baseline}.` : ''),
    labels: experiment.budgets.map(String),
    xLabel: `Privacy budget ${experiment.budgetSymbol}`,
    panels: DIVERGENCES.map(({ f, label }) => ({
      title: label,
      series: samplers.map((s) => ({ sampler: s, label: SAMPLER_LABELS[s] ?? s, measured: pick(s, f, 'measured'), bound: pick(s, f, 'bound') })),
    })),
  };
}

export function summary(result) {
  const { experiment, rows, clients, cells, seconds, baseline } = result;
  const samplers = [...new Set(rows.map((r) => r.sampler))];
  const heat = experiment.kind === 'heatmaps';
  const header = [experiment.budgetSymbol];
  for (const s of samplers) for (const { label } of DIVERGENCES) header.push(`${s} ${label} ${heat ? '' : 'worst '}/ R`);
  const table = [header];
  for (const b of experiment.budgets) {
    const line = [String(b)];
    for (const s of samplers) {
      for (const { f } of DIVERGENCES) {
        const r = rows.find((x) => x.budget === b && x.sampler === s && x.divergence === f);
        line.push(`${r.measured.toFixed(4)} / ${Number.isNaN(r.bound) ? 'n/a' : r.bound.toFixed(4)}${r.within ? '' : ' !'}`);
      }
    }
    table.push(line);
  }
  const widths = header.map((_, i) => Math.max(...table.map((l) => l[i].length)));
  const fmt = (l) => `| ${l.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  const checks = [];
  const seen = new Set();
  for (const r of rows) {
    const key = `${r.sampler} ${r.budget}`;
    if (r.privacyCheck === undefined || seen.has(key)) continue;
    seen.add(key);
    checks.push(`  ${r.sampler} ${experiment.budgetSymbol} = ${r.budget}: ${r.privacyCheckName.replace('epsilon', experiment.budgetSymbol)}: ` +
      `${r.privacyCheck.toFixed(6)} <= ${r.privacyLimit} ${r.privacyOk ? 'ok' : 'VIOLATED'}`);
  }
  const lines = [
    experiment.title,
    experiment.describe(result.quick),
    heat
      ? `one client; seed ${experiment.seeds.join(', ')}; computed in ${seconds.toFixed(2)} s`
      : `clients per budget: ${clients}; seeds ${experiment.seeds.join(', ')} for ${experiment.budgetSymbol} = ${experiment.budgets.join(', ')}; computed in ${seconds.toFixed(2)} s`,
    ...(baseline ? [`baseline: ${baseline}`] : []),
    ...result.notes,
    fmt(table[0]),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...table.slice(1).map(fmt),
  ];
  if (samplers.includes('mbde') && samplers.includes('proposed')) {
    let better = 0;
    let total = 0;
    for (const b of experiment.budgets) {
      for (const { f } of DIVERGENCES) {
        const get = (s) => rows.find((x) => x.budget === b && x.sampler === s && x.divergence === f).measured;
        total += 1;
        if (get('proposed') < get('mbde')) better += 1;
      }
    }
    lines.push(`ours below MBDE (measured${heat ? '' : ' worst'}) in ${better} of ${total} (${experiment.budgetSymbol}, f) pairs` +
      (heat ? '' : ` (MBDE over ${result.mbdeClients} clients, ours over ${clients})`));
  }
  if (checks.length) lines.push('privacy checks on the outputs (max over clients):', ...checks);
  lines.push(result.violations.length === 0
    ? `every measured value is <= its theoretical bound and every privacy check holds (${rows.length} values)`
    : `BOUND EXCEEDED or CHECK VIOLATED in ${result.violations.length} of ${rows.length} values (marked ! / VIOLATED)`);
  return lines.join('\n');
}

export function heatmapSpec(result) {
  const { experiment, heatmaps, cells, quick, rows } = result;
  const { grid, panels } = heatmaps;
  const density = (masses) => {
    const total = masses.reduce((a, b) => a + b, 0);
    const area = ((grid.xHi - grid.xLo) / grid.nx) * ((grid.yHi - grid.yLo) / grid.ny);
    return Array.from(masses, (m) => m / total / area);
  };
  const kl = (s) => rows.find((r) => r.sampler === s && r.divergence === 'kl').measured;
  return {
    title: experiment.title,
    subtitle: `${grid.nx} × ${grid.ny} cells${quick ? ' (--quick)' : ''}; densities (mass / cell area), one colour scale for all three (plasma). ` +
      `KL(P‖Q): MBDE ${kl('mbde').toFixed(4)}, ours ${kl('proposed').toFixed(4)}.`,
    nx: grid.nx, ny: grid.ny, extent: [grid.xLo, grid.xHi, grid.yLo, grid.yHi], cells,
    panels: panels.map(([title, masses]) => ({ title, values: density(masses) })),
  };
}

function parseArgs(argv) {
  const args = { quick: false, chart: true, out: join(ROOT, 'test-output', 'reproduce'), names: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    if (a === '--quick') args.quick = true;
    else if (a === '--no-chart') args.chart = false;
    else if (a === '--out') args.out = resolve(argv[(i += 1)] ?? '');
    else if (a === '--clients') args.clients = Number(argv[(i += 1)]);
    else if (a === '--mbde-clients') args.mbdeClients = Number(argv[(i += 1)]);
    else if (a.startsWith('--')) throw new RangeError(`unknown option ${a}`);
    else args.names.push(a);
  }
  if (args.names.length === 0) throw new RangeError(`name a reproduction: ${Object.keys(EXPERIMENTS).join(', ')} (or 'all')`);
  if (args.names.includes('all')) args.names = Object.keys(EXPERIMENTS);
  if (args.clients !== undefined && !(Number.isInteger(args.clients) && args.clients >= 1)) throw new RangeError('--clients must be a positive integer');
  if (args.mbdeClients !== undefined && !(Number.isInteger(args.mbdeClients) && args.mbdeClients >= 0)) throw new RangeError('--mbde-clients must be an integer >= 0');
  return args;
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
    for (const n of args.names) if (!EXPERIMENTS[n]) throw new RangeError(`unknown reproduction '${n}'; use one of ${Object.keys(EXPERIMENTS).join(', ')}, all`);
  } catch (e) {
    console.error(`usage: npm run reproduce -- <name|all> [--quick] [--clients N] [--mbde-clients N] [--out DIR] [--no-chart]\n${e.message}`);
    process.exit(2);
  }
  mkdirSync(args.out, { recursive: true });
  let failed = false;
  for (const name of args.names) {
    const result = await reproduce(name, { quick: args.quick, clients: args.clients, mbdeClients: args.mbdeClients });
    const csv = join(args.out, `${name}.csv`);
    writeFileSync(csv, toCsv(result));
    console.log(`\n${summary(result)}`);
    console.log(`wrote ${csv}`);
    if (args.chart) {
      const png = join(args.out, `${name}.png`);
      const t = performance.now();
      if (result.heatmaps) await renderHeatmaps(heatmapSpec(result), png);
      else await renderChart(chartSpec(result), png);
      console.log(`wrote ${png} (rendered in ${((performance.now() - t) / 1000).toFixed(1)} s)`);
    }
    if (result.violations.length > 0) failed = true;
  }
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
