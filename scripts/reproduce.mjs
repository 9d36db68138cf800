#!/usr/bin/env node
// npm run reproduce -- <name> [--quick] [--clients N] [--out DIR] [--no-chart]
//
// Reproduces a figure of the papers privsample implements, through the public JS API only:
//   local-fig4    Ghoukasian et al. Fig. 4  — 1-D Laplace mixtures, pure ε-LDP: global (Park clip) vs local clip
//   local-fig10   Ghoukasian et al. Fig. 10 — the same clients under ν-Gaussian LDP: global linear vs local linear
//   minimax-fig4  Park et al. Fig. 4        — truncated 1-D Gaussian mixtures on [−4, 4]: the minimax clip sampler
// For every budget it draws the clients (seeded xoshiro256**, scripts/reproduce/rng.mjs), computes each
// sampler's exact output pmf on the grid, and reports the worst (max over clients) KL / TV / squared Hellinger
// (½Σ(√p−√q)²) beside the sampler's closed-form worst case R over its class (worstCaseRisk).
// Writes <out>/<name>.csv and <out>/<name>.png (default out: test-output/reproduce/) and prints a summary.
// Exit status: 0 if every measured value is <= its bound (up to 1e-9 relative), 1 if any exceeds it, 2 on bad usage.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../bindings/js/privsample.mjs';
import { renderChart } from './reproduce/chart.mjs';
import { DIVERGENCES, EXPERIMENTS } from './reproduce/experiments.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const RELATIVE_SLACK = 1e-9;
export const CSV_COLUMNS = ['figure', 'budget_name', 'budget', 'divergence', 'sampler', 'measured_worst', 'theoretical_bound',
  'within_bound', 'worst_client', 'clients', 'cells', 'seed', 'baseline'];

const withinBound = (measured, bound) => measured <= bound + RELATIVE_SLACK * Math.abs(bound);

/** Runs one reproduction; returns { name, experiment, rows, cells, clients, seconds, violations }. */
export async function reproduce(name, { quick = false, clients } = {}) {
  const experiment = EXPERIMENTS[name];
  if (!experiment) throw new RangeError(`unknown reproduction '${name}'; use one of ${Object.keys(EXPERIMENTS).join(', ')}`);
  const count = clients ?? (quick ? 10 : 100);
  const ps = await init();
  const start = performance.now();
  const { rows, cells } = experiment.run(ps, { quick, clients: count });
  const seconds = (performance.now() - start) / 1000;
  for (const row of rows) row.within = withinBound(row.measured, row.bound);
  return { name, experiment, rows, cells, clients: count, quick, seconds, violations: rows.filter((r) => !r.within) };
}

export function toCsv(result) {
  const { name, experiment, rows, cells, clients } = result;
  const lines = [CSV_COLUMNS.join(',')];
  for (const r of rows) {
    const seed = experiment.seeds[experiment.budgets.indexOf(r.budget)];
    lines.push([name, experiment.budgetName, r.budget, r.divergence, r.sampler, r.measured, r.bound, r.within, r.worstClient,
      clients, cells, seed, experiment.baseline ?? ''].map((v) => (/[,"]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : v)).join(','));
  }
  return `${lines.join('\n')}\n`;
}

const SAMPLER_LABELS = { global: 'Global', local: 'Local', proposed: 'Proposed (minimax clip)' };

export function chartSpec(result) {
  const { experiment, rows, clients, cells, quick } = result;
  const samplers = [...new Set(rows.map((r) => r.sampler))];
  const pick = (sampler, f, key) => experiment.budgets.map((b) => rows.find((r) => r.budget === b && r.sampler === sampler && r.divergence === f)[key]);
  return {
    title: experiment.title,
    subtitle: `Solid: worst over ${clients} random clients per budget (${cells} grid cells${quick ? ', --quick' : ''}); pale outlined bars behind them: the closed-form worst case R over the class.` +
      (experiment.baseline ? ` MBDE baseline: ${experiment.baseline}.` : ''),
    labels: experiment.budgets.map(String),
    xLabel: `Privacy budget ${experiment.budgetSymbol}`,
    panels: DIVERGENCES.map(({ f, label }) => ({
      title: label,
      series: samplers.map((s) => ({ sampler: s, label: SAMPLER_LABELS[s] ?? s, measured: pick(s, f, 'measured'), bound: pick(s, f, 'bound') })),
    })),
  };
}

export function summary(result) {
  const { experiment, rows, clients, cells, seconds } = result;
  const samplers = [...new Set(rows.map((r) => r.sampler))];
  const header = [experiment.budgetSymbol];
  for (const s of samplers) for (const { label } of DIVERGENCES) header.push(`${s} ${label} worst / R`);
  if (experiment.baseline) header.push('MBDE baseline');
  const table = [header];
  for (const b of experiment.budgets) {
    const line = [String(b)];
    for (const s of samplers) {
      for (const { f } of DIVERGENCES) {
        const r = rows.find((x) => x.budget === b && x.sampler === s && x.divergence === f);
        line.push(`${r.measured.toFixed(4)} / ${r.bound.toFixed(4)}${r.within ? '' : ' !'}`);
      }
    }
    if (experiment.baseline) line.push(experiment.baseline);
    table.push(line);
  }
  const widths = header.map((_, i) => Math.max(...table.map((l) => l[i].length)));
  const fmt = (l) => `| ${l.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [
    experiment.title,
    experiment.describe(result.quick),
    `clients per budget: ${clients}; seeds ${experiment.seeds.join(', ')} for ${experiment.budgetSymbol} = ${experiment.budgets.join(', ')}; computed in ${seconds.toFixed(2)} s`,
    fmt(table[0]),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...table.slice(1).map(fmt),
    result.violations.length === 0
      ? `every measured worst case is <= its theoretical bound (${rows.length} values)`
      : `BOUND EXCEEDED in ${result.violations.length} of ${rows.length} values (marked !)`,
  ].join('\n');
}

function parseArgs(argv) {
  const args = { quick: false, chart: true, out: join(ROOT, 'test-output', 'reproduce'), names: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    if (a === '--quick') args.quick = true;
    else if (a === '--no-chart') args.chart = false;
    else if (a === '--out') args.out = resolve(argv[(i += 1)] ?? '');
    else if (a === '--clients') args.clients = Number(argv[(i += 1)]);
    else if (a.startsWith('--')) throw new RangeError(`unknown option ${a}`);
    else args.names.push(a);
  }
  if (args.names.length === 0) throw new RangeError(`name a reproduction: ${Object.keys(EXPERIMENTS).join(', ')} (or 'all')`);
  if (args.names.includes('all')) args.names = Object.keys(EXPERIMENTS);
  if (args.clients !== undefined && !(Number.isInteger(args.clients) && args.clients >= 1)) throw new RangeError('--clients must be a positive integer');
  return args;
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
    for (const n of args.names) if (!EXPERIMENTS[n]) throw new RangeError(`unknown reproduction '${n}'; use one of ${Object.keys(EXPERIMENTS).join(', ')}, all`);
  } catch (e) {
    console.error(`usage: npm run reproduce -- <name|all> [--quick] [--clients N] [--out DIR] [--no-chart]\n${e.message}`);
    process.exit(2);
  }
  mkdirSync(args.out, { recursive: true });
  let failed = false;
  for (const name of args.names) {
    const result = await reproduce(name, { quick: args.quick, clients: args.clients });
    const csv = join(args.out, `${name}.csv`);
    writeFileSync(csv, toCsv(result));
    console.log(`\n${summary(result)}`);
    console.log(`wrote ${csv}`);
    if (args.chart) {
      const png = join(args.out, `${name}.png`);
      const t = performance.now();
      await renderChart(chartSpec(result), png);
      console.log(`wrote ${png} (rendered in ${((performance.now() - t) / 1000).toFixed(1)} s)`);
    }
    if (result.violations.length > 0) failed = true;
  }
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
