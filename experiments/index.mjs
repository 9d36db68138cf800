// The one registry of experiments: every numbered figure and table of the four papers, imported by the command line
// (scripts/reproduce.mjs) and by the browser's reproductions page (web/reproduce*.js) alike. The entry and result
// formats are described in docs/experiments.md; each paper's entries live in their own file beside this one.
import { experiments as local } from './local.mjs';
import { experiments as localFinite } from './local-finite.mjs';
import { experiments as lmidp } from './lmidp.mjs';
import { experiments as minimax } from './minimax.mjs';
import { experiments as minimaxFinite } from './minimax-finite.mjs';
import { serialPool } from './pool.mjs';
import { experiments as roo } from './roo.mjs';

const PAPER_ORDER = ['minimax', 'local', 'roo', 'lmidp'];
// 'Fig. 10' → 10; tables and sections ('§3') after the figures, in file order.
const figureNumber = (entry) => (/^Fig\. (\d+)/.exec(entry.figure) ? Number(/^Fig\. (\d+)/.exec(entry.figure)[1]) : Infinity);

/** Every experiment: the papers in order, each paper's figures by number. */
export const EXPERIMENTS = Object.freeze(
  [...minimax, ...minimaxFinite, ...local, ...localFinite, ...roo, ...lmidp]
    .map((entry, at) => ({ entry, at }))
    .sort((a, b) => PAPER_ORDER.indexOf(a.entry.paper) - PAPER_ORDER.indexOf(b.entry.paper) ||
      figureNumber(a.entry) - figureNumber(b.entry) || a.at - b.at)
    .map(({ entry }) => entry),
);

/** The four papers, as the entries' `paper` field names them. */
export const PAPERS = Object.freeze({
  minimax: 'Park, Asoodeh, Lee — Exactly Minimax-Optimal Locally Differentially Private Sampling (NeurIPS 2024)',
  local: 'Ghoukasian, Lee, Asoodeh — Locally Optimal Private Sampling: Beyond the Global Minimax',
  roo: 'Reveal-or-Obscure: A Differentially Private Sampling Algorithm for Discrete Distributions (ITW 2025)',
  lmidp: 'Local Mutual-Information Differential Privacy (arXiv:2405.07596v1)',
});

/** The entry called `name`; a RangeError listing the names when there is none. */
export function experimentByName(name) {
  const entry = EXPERIMENTS.find((e) => e.name === name);
  if (!entry) {
    throw new RangeError(`experiment "${name}" is not in the registry; the names are: ${EXPERIMENTS.map((e) => e.name).join(', ')}`);
  }
  return entry;
}

/**
 * The set-up an entry runs with: its default, then the quick form's overrides (if quick) or the paper's scale (if
 * paperScale: `entry.paperScale`, the overrides that restore what the default reduces for time, e.g. MBDE's preset),
 * then the caller's.
 */
export function setupOf(entry, { quick = false, paperScale = false, overrides = {} } = {}) {
  if (quick && paperScale) throw new RangeError('quick and paperScale exclude each other');
  return { ...entry.setup, ...(quick ? entry.quick : {}), ...(paperScale ? entry.paperScale ?? {} : {}), ...overrides };
}

/**
 * Where a reference value (result.printed[i].source) comes from. Few of the papers' numbers are printed as digits:
 * most references are derived from their formulas, and an entry says which.
 */
export const REFERENCE_SOURCES = Object.freeze({
  printed: 'digits printed in the paper',
  figure: 'decoded from the paper\'s figure',
  code: 'the authors\' code (the paper prints no digits)',
  derived: 'derived: computed from the paper\'s formulas (the paper prints no digits)',
});

const KINDS = new Set(['lines', 'bars', 'heatmap']);

/** Throws a TypeError naming the entry and the field when a result does not have the shared shape. */
export function validateResult(name, result) {
  const fail = (what) => {
    throw new TypeError(`experiment ${name}: ${what}`);
  };
  if (!result || !Array.isArray(result.panels) || result.panels.length === 0) fail('result.panels must be a non-empty array');
  result.panels.forEach((panel, i) => {
    if (!KINDS.has(panel.kind)) fail(`panels[${i}].kind is ${JSON.stringify(panel.kind)}, expected lines, bars or heatmap`);
    if (typeof panel.title !== 'string') fail(`panels[${i}].title must be a string`);
    if (panel.kind === 'heatmap') {
      const { width, height } = panel.grid ?? {};
      if (!(width > 0 && height > 0) || panel.values?.length !== width * height) {
        fail(`panels[${i}] (heatmap) needs grid.width·grid.height values`);
      }
    } else if (!Array.isArray(panel.series) || panel.series.length === 0) {
      fail(`panels[${i}].series must be a non-empty array`);
    }
  });
  for (const key of ['checks', 'printed']) {
    if (!Array.isArray(result[key])) fail(`result.${key} must be an array`);
  }
  result.checks.forEach((c, i) => {
    if (typeof c.label !== 'string' || typeof c.ok !== 'boolean') fail(`checks[${i}] needs a label and a boolean ok`);
  });
  result.printed.forEach((p, i) => {
    if (typeof p.label !== 'string' || typeof p.ok !== 'boolean') fail(`printed[${i}] needs a label and a boolean ok`);
    if (!Object.hasOwn(REFERENCE_SOURCES, p.source)) {
      fail(`printed[${i}].source is ${JSON.stringify(p.source)}, expected one of ${Object.keys(REFERENCE_SOURCES).join(', ')}`);
    }
  });
  if (result.table && (!Array.isArray(result.table.columns) || !Array.isArray(result.table.rows))) {
    fail('result.table needs columns and rows');
  }
  return result;
}

/** Whether every privacy/bound check passed and every printed value matched. */
export const passed = (result) => result.checks.every((c) => c.ok) && result.printed.every((p) => p.ok);

/**
 * Runs one entry through the public API `ps` (an initialised 'privsample/research' module): merges the set-up,
 * calls the entry's run() with the progress callback (fractions in [0, 1], the experiment reports them itself) and
 * a pool for its independent tasks (experiments/pool.mjs; default: this thread), validates the result's shape and
 * returns { entry, setup, result, ms, ok }.
 */
export async function runExperiment(ps, entry, { quick = false, paperScale = false, overrides = {}, progress = () => {}, pool = serialPool(ps) } = {}) {
  const setup = setupOf(entry, { quick, paperScale, overrides });
  const start = performance.now();
  const result = validateResult(entry.name, await entry.run(ps, setup, { progress, pool }));
  const ms = performance.now() - start;
  progress(1);
  return { entry, setup, result, ms, ok: passed(result) };
}
