// One thread of scripts/reproduce-pool.mjs: runs the tasks of experiments/pool.mjs with its own privsample/research
// instance, one message at a time: { task, args } → { result } or { error: { name, message } }.
import { parentPort } from 'node:worker_threads';
import { init } from '../bindings/js/research.mjs';
import { TASKS } from '../experiments/pool.mjs';

const ps = await init();
parentPort.on('message', ({ task, args }) => {
  try {
    const run = TASKS[task];
    if (!run) throw new RangeError(`task "${task}" is not in experiments/pool.mjs`);
    parentPort.postMessage({ result: run(ps, args) });
  } catch (error) {
    parentPort.postMessage({ error: { name: error?.name ?? 'Error', message: String(error?.message ?? error) } });
  }
});
