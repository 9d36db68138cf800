// The Web Worker of the reproductions page (reproduce.html). It runs the very experiments of `npm run reproduce`
// (scripts/reproduce/experiments.mjs: same grids, seeds, random mixtures and samplers, through the public
// privsample API) and reports progress after each client's exact output density.
// The page posts { id, type, ... } and gets back { id, ok: true, result } or { id, ok: false, error }; a run also
// posts { id, progress: { done, total } } messages (delivered to the page while the run goes on).
//   type 'run':     { name, clients, mbdeClients } → { name, clients, cells, mbdeClients, mbdeCells, rows: [{ budget,
//                                          divergence, sampler, measured, bound, worstClient, within, bounded,
//                                          privacyCheck?, privacyLimit?, privacyCheckName?, privacyOk? }], seconds,
//                                          heatmaps?, notes?, classCheck? }
//                    (MBDE rows: bound NaN, bounded false, within true; heatmaps: { grid, panels: [[title, masses]] })
//   type 'version': {}                 → { version }
// A run is synchronous in this worker; the page stops one by terminating the worker.
import { init } from 'privsample/research';
import { EXPERIMENTS } from '../scripts/reproduce/experiments.mjs';

/** Same tolerance as scripts/reproduce.mjs: measured <= bound up to 1e-9 relative. */
const RELATIVE_SLACK = 1e-9;
/**
 * How many progress steps a run takes: one per exact output density (a sampler's distribution() on one client)
 * and one per MBDE run. Must match the experiments' run() in scripts/reproduce/experiments.mjs.
 */
const STEPS = {
  'local-fig4': ({ budgets, clients }) => budgets * 2 * clients, // global + local on every client
  'local-fig10': ({ budgets, clients }) => budgets * 2 * clients,
  'minimax-fig4': ({ budgets, clients, mbdeClients }) => budgets * (clients + mbdeClients), // proposed; MBDE on the first mbdeClients
  'minimax-fig1': () => 2, // one client: ours' distribution + one MBDE run
};
/** The MBDE client counts the page offers (0 = off). */
const MBDE_CLIENTS = [0, 5, 20];

const ready = init();

function errorInfo(error) {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/**
 * The public API with one change: every sampler's distribution() reports a progress step (one client's exact
 * output density). Nothing numeric is altered.
 */
function tracked(ps, onStep) {
  const continuousSampler = (mechanism, options) => {
    const sampler = ps.continuousSampler(mechanism, options);
    return Object.freeze({
      ...sampler,
      distribution: (density) => {
        const q = sampler.distribution(density);
        onStep();
        return q;
      },
    });
  };
  const mbde = (grid, density, options) => {
    const r = ps.mbde(grid, density, options);
    onStep();
    return r;
  };
  return { ...ps, continuousSampler, mbde };
}

async function run(ps, id, name, clients, mbdeClients = 0) {
  const experiment = EXPERIMENTS[name];
  if (!experiment || !STEPS[name]) throw new RangeError(`unknown reproduction '${name}'`);
  if (!Number.isInteger(clients) || clients < 1 || clients > 1000) throw new RangeError(`clients = ${clients}: use 1 to 1000`);
  if (!MBDE_CLIENTS.includes(mbdeClients)) throw new RangeError(`mbdeClients = ${mbdeClients}: use one of ${MBDE_CLIENTS.join(', ')}`);
  if (!experiment.mbdeDefaults) mbdeClients = 0; // only minimax-fig4 takes the option (minimax-fig1 always runs its one MBDE)
  const mbdeCells = experiment.mbdeDefaults?.full.cells ?? 0;
  const total = STEPS[name]({ budgets: experiment.budgets.length, clients, mbdeClients });
  let done = 0;
  let lastPost = 0;
  const post = (force) => {
    const now = performance.now();
    // At most one message every 8 ms (plus the last one): enough for a smooth bar, no flood of messages.
    if (!force && now - lastPost < 8) return;
    lastPost = now;
    self.postMessage({ id, progress: { done: Math.min(done, total), total } });
  };
  const started = performance.now();
  post(true);
  const out = await experiment.run(tracked(ps, () => {
    done += 1;
    post(done >= total);
  }), { quick: false, clients, mbdeClients, mbdeCells });
  if (done !== total) throw new Error(`internal: ${done} progress steps, expected ${total}`);
  post(true);
  // No closed-form bound (MBDE: NaN) counts as within, as in scripts/reproduce.mjs; `bounded` tells them apart.
  const rows = out.rows.map((r) => {
    const bounded = !Number.isNaN(r.bound);
    const row = { ...r, bounded, within: !bounded || r.measured <= r.bound + RELATIVE_SLACK * Math.abs(r.bound) };
    if (r.privacyCheck !== undefined) row.privacyOk = r.privacyCheck <= r.privacyLimit * (1 + RELATIVE_SLACK);
    return row;
  });
  return {
    name, clients: out.clients ?? clients, cells: out.cells, mbdeClients, mbdeCells, rows, seconds: (performance.now() - started) / 1000,
    ...(out.heatmaps ? { heatmaps: out.heatmaps, notes: out.notes ?? [], classCheck: out.classCheck } : {}),
  };
}

self.onmessage = async (event) => {
  const { id, type } = event.data;
  try {
    const ps = await ready;
    let result;
    if (type === 'run') result = await run(ps, id, event.data.name, event.data.clients, event.data.mbdeClients ?? 0);
    else if (type === 'version') result = { version: ps.version };
    else throw new Error(`unknown request type "${type}"`);
    self.postMessage({ id, ok: true, result });
  } catch (error) {
    self.postMessage({ id, ok: false, error: errorInfo(error) });
  }
};
