// The Web Worker of the reproductions page (reproduce.html), on the shared worker protocol (web/rpc.js). It runs
// registry entries (experiments/index.mjs, the same entries as `npm run reproduce`) through the shared runner, which
// hands each experiment a progress callback; the page stops a run with client.cancel() (the worker is replaced).
//   'run'     { name, quick, paperScale } → { name, quick, paperScale, setup, result, ms, ok }
//   'version' {}              → { version }
import { init } from 'privsample/research';
import { experimentByName, runExperiment } from '../experiments/index.mjs';
import { serveRequests } from './rpc.js';

// At most one progress message per 40 ms (and the last): a smooth bar without a flood of messages.
function throttled(progress) {
  let last = -Infinity;
  return (fraction) => {
    const now = performance.now();
    if (fraction < 1 && now - last < 40) return;
    last = now;
    progress(fraction);
  };
}

serveRequests(init(), {
  async run(ps, { name, quick, paperScale }, { progress }) {
    const options = { quick: quick === true, paperScale: paperScale === true };
    const run = await runExperiment(ps, experimentByName(name), { ...options, progress: throttled(progress) });
    return { name, ...options, setup: run.setup, result: run.result, ms: run.ms, ok: run.ok };
  },
  version: (ps) => ({ version: ps.version }),
});
