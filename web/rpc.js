// The one worker protocol every page uses. Messages:
//   page → worker  { id, type, payload }  |  { id, abort: true }   (the call's AbortSignal fired)
//   worker → page  { id, progress }                      (any number, before the answer)
//                  { id, ok: true, result }  |  { id, ok: false, error: { name, message }, fatal? }
// A call's promise resolves with the result or rejects with an Error of the same name and message. `fatal` marks a
// worker that could not load the library: the page shows it once, every later call fails the same way.

/** The serialisable form of anything thrown, for postMessage. */
export function errorInfo(error) {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

function toError({ name, message }) {
  return Object.assign(new Error(message), { name });
}

/** An AbortError, what a cancelled or superseded call rejects with. */
export function abortError(why) {
  return Object.assign(new Error(why), { name: 'AbortError' });
}

export const isAbort = (error) => error?.name === 'AbortError';

/**
 * The page's side: `createWorkerClient(() => new Worker(new URL('./x-worker.js', import.meta.url), { type: 'module' }))`.
 *   call(type, payload, { onProgress, transfer, signal })
 *                                                  → Promise of the result; when `signal` aborts, the promise rejects
 *                                                    with AbortError at once and the worker's handler sees its own
 *                                                    signal aborted (a long handler checks it between steps and stops)
 *   latest(key, type, payload, options)            → the same, coalesced per key: at most one call of that key runs;
 *                                                    while it runs only the newest request waits (older waiting ones
 *                                                    reject with AbortError), so dragging a slider never queues work
 *   cancel()                                       → terminates the worker (a running computation stops at once),
 *                                                    rejects every pending call with AbortError, starts a fresh one
 *   onFatal(listener)                              → called with { name, message } when the worker cannot start
 */
export function createWorkerClient(makeWorker) {
  const calls = new Map();
  const lanes = new Map(); // key → { running: boolean, waiting: { type, payload, options, resolve, reject } | null }
  const fatalListeners = new Set();
  let nextId = 1;
  let worker = null;

  const fatal = (info) => {
    for (const listener of fatalListeners) listener(info);
  };

  function start() {
    worker = makeWorker();
    worker.addEventListener('message', (event) => {
      const { id, ok, result, error, progress } = event.data;
      const entry = calls.get(id);
      if (!entry) return;
      if (progress !== undefined && ok === undefined) {
        entry.onProgress?.(progress);
        return;
      }
      calls.delete(id);
      if (event.data.fatal) fatal(error);
      if (ok) entry.resolve(result);
      else entry.reject(toError(error));
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault?.();
      fatal({ name: 'Error', message: `the worker failed: ${event.message || 'it could not start'}` });
    });
  }

  function call(type, payload = {}, { onProgress, transfer = [], signal } = {}) {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError('aborted before it was sent'));
        return;
      }
      calls.set(id, { resolve, reject, onProgress });
      worker.postMessage({ id, type, payload }, transfer);
      signal?.addEventListener('abort', () => {
        if (!calls.delete(id)) return; // already answered
        worker.postMessage({ id, abort: true });
        reject(abortError('aborted'));
      }, { once: true });
    });
  }

  function pump(key) {
    const lane = lanes.get(key);
    if (lane.running || !lane.waiting) return;
    const { type, payload, options, resolve, reject } = lane.waiting;
    lane.waiting = null;
    lane.running = true;
    call(type, payload, options)
      .then(resolve, reject)
      .finally(() => {
        lane.running = false;
        pump(key);
      });
  }

  function latest(key, type, payload, options) {
    if (!lanes.has(key)) lanes.set(key, { running: false, waiting: null });
    const lane = lanes.get(key);
    lane.waiting?.reject(abortError('superseded by a newer request'));
    return new Promise((resolve, reject) => {
      lane.waiting = { type, payload, options, resolve, reject };
      pump(key);
    });
  }

  function cancel() {
    worker.terminate();
    for (const entry of calls.values()) entry.reject(abortError('stopped'));
    calls.clear();
    for (const lane of lanes.values()) {
      lane.waiting?.reject(abortError('stopped'));
      lane.waiting = null;
      lane.running = false;
    }
    start();
  }

  start();
  return {
    call,
    latest,
    cancel,
    onFatal(listener) {
      fatalListeners.add(listener);
      return () => fatalListeners.delete(listener);
    },
  };
}

/**
 * The worker's side: `serveRequests(ready, { type: (ps, payload, { progress, signal }) => result })`. `ready` is the
 * promise of the loaded library (a failure is reported as fatal to every call); each handler may be async and may call
 * progress(value) any number of times; `signal` is aborted when the page aborts the call (a long handler yields to
 * the event loop between steps — nextTurn() — so the abort can arrive, then checks signal.throwIfAborted()); a
 * result's ArrayBuffers listed by `transferOf(result)` are transferred. `scope` is the worker's global (a stand-in
 * in tests).
 */
export function serveRequests(ready, handlers, { transferOf = () => [], scope = globalThis } = {}) {
  ready.catch(() => {}); // reported to each call below, not as an unhandled rejection at start-up
  const running = new Map(); // id → AbortController of a handler still running
  scope.addEventListener('message', async (event) => {
    const { id, type, payload, abort } = event.data;
    if (abort) {
      running.get(id)?.abort(abortError('aborted by the page'));
      return;
    }
    const controller = new AbortController();
    running.set(id, controller);
    try {
      await serve(id, type, payload, controller.signal);
    } finally {
      running.delete(id);
    }
  });

  async function serve(id, type, payload, signal) {
    let ps;
    try {
      ps = await ready;
    } catch (error) {
      const info = errorInfo(error);
      scope.postMessage({ id, ok: false, fatal: true, error: { ...info, message: `could not load the privsample module: ${info.message}` } });
      return;
    }
    try {
      const handler = Object.hasOwn(handlers, type) ? handlers[type] : undefined;
      if (!handler) throw new TypeError(`unknown request type '${type}' (known: ${Object.keys(handlers).join(', ')})`);
      const progress = (value) => scope.postMessage({ id, progress: value });
      const result = await handler(ps, payload, { progress, signal });
      scope.postMessage({ id, ok: true, result }, transferOf(result));
    } catch (error) {
      scope.postMessage({ id, ok: false, error: errorInfo(error) });
    }
  }
}

/** A promise that resolves on the next turn of the event loop: lets messages (an abort, other requests) in. */
export const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));
