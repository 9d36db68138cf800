// The Web Worker of the reproductions page (reproduce.html). It runs the very experiments of `npm run reproduce`
// (scripts/reproduce/experiments.mjs: same grids, seeds, random mixtures and samplers, through the public
// privsample API) and reports progress after each client's exact output density.
// The page posts { id, type, ... } and gets back { id, ok: true, result } or { id, ok: false, error }; a run also
// posts { id, progress: { done, total } } messages (delivered to the page while the run goes on).
//   type 'run':     { name, clients }  → { name, clients, cells, rows: [{ budget, divergence, sampler, measured,
//                                          bound, worstClient, within }], seconds }
//   type 'version': {}                 → { version }
// A run is synchronous in this worker; the page stops one by terminating the worker.
import { init } from 'privsample';
import { EXPERIMENTS } from '../scripts/reproduce/experiments.mjs';

/** Same tolerance as scripts/reproduce.mjs: measured <= bound up to 1e-9 relative. */
const RELATIVE_SLACK = 1e-9;
/** How many samplers each figure compares (for the progress total: budgets × samplers × clients). */
const SAMPLERS = { 'local-fig4': 2, 'local-fig10': 2, 'minimax-fig4': 1 };

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
  return { ...ps, continuousSampler };
}

async function run(ps, id, name, clients) {
  const experiment = EXPERIMENTS[name];
  if (!experiment) throw new RangeError(`unknown reproduction '${name}'`);
  if (!Number.isInteger(clients) || clients < 1 || clients > 1000) throw new RangeError(`clients = ${clients}: use 1 to 1000`);
  const total = experiment.budgets.length * (SAMPLERS[name] ?? 2) * clients;
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
  }), { quick: false, clients });
  done = total;
  post(true);
  const rows = out.rows.map((r) => ({ ...r, within: r.measured <= r.bound + RELATIVE_SLACK * Math.abs(r.bound) }));
  return { name, clients, cells: out.cells, rows, seconds: (performance.now() - started) / 1000 };
}

self.onmessage = async (event) => {
  const { id, type } = event.data;
  try {
    const ps = await ready;
    let result;
    if (type === 'run') result = await run(ps, id, event.data.name, event.data.clients);
    else if (type === 'version') result = { version: ps.version };
    else throw new Error(`unknown request type "${type}"`);
    self.postMessage({ id, ok: true, result });
  } catch (error) {
    self.postMessage({ id, ok: false, error: errorInfo(error) });
  }
};
