// A pool of worker threads for `npm run reproduce` (scripts/reproduce.mjs): each thread loads its own
// privsample/research and runs the tasks of experiments/pool.mjs that an entry hands it (pool.map), so an entry
// whose work splits into independent seeded runs (minimax-fig4's MBDE clients) uses every core. The results are
// the same as those of experiments/pool.mjs's serialPool, in the same order.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

const THREAD = new URL('./reproduce-thread.mjs', import.meta.url);

/**
 * A pool of `size` threads (default: one per core); close() ends them (an open pool keeps the process alive). One
 * map() at a time; after a task fails the pool refuses further work (replies of tasks still running would be mixed
 * into the next map's).
 */
export function threadPool(size = availableParallelism()) {
  const threads = Array.from({ length: Math.max(1, size) }, () => new Worker(THREAD));
  let broken = null;
  return {
    size: threads.length,
    map(task, argsList, onDone = () => {}) {
      if (broken) return Promise.reject(broken);
      return new Promise((resolve, reject) => {
        const out = new Array(argsList.length);
        let next = 0;
        let done = 0;
        let failed = false;
        const fail = (error) => {
          if (failed) return;
          failed = true;
          broken = error;
          for (const t of threads) t.off('error', fail);
          reject(error);
        };
        for (const t of threads) t.on('error', fail);
        const feed = (thread) => {
          if (failed || next >= argsList.length) return;
          const index = next;
          next += 1;
          thread.once('message', (reply) => {
            if (failed) return;
            if (reply.error) {
              fail(Object.assign(new Error(reply.error.message), { name: reply.error.name }));
              return;
            }
            out[index] = reply.result;
            done += 1;
            onDone(done);
            if (done === argsList.length) {
              for (const t of threads) t.off('error', fail);
              resolve(out);
            } else feed(thread);
          });
          thread.postMessage({ task, args: argsList[index] });
        };
        if (argsList.length === 0) {
          for (const t of threads) t.off('error', fail);
          resolve(out);
        }
        for (const t of threads) feed(t);
      });
    },
    close() {
      return Promise.all(threads.map((t) => t.terminate()));
    },
  };
}
