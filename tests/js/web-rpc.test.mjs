// The demo's one worker protocol (web/rpc.js), page side and worker side connected in-process: answers, errors with
// their names, progress in order, coalescing of `latest`, cancel, unknown types and a library that fails to load.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createWorkerClient, isAbort, nextTurn, serveRequests } from '../../web/rpc.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

// A page-side Worker and its worker-side global, joined by asynchronous structured-clone message passing.
function connectedWorker(ready, handlers, started) {
  return () => {
    const scope = new EventTarget();
    const worker = new EventTarget();
    let alive = true;
    const deliver = (target, data) => setTimeout(() => {
      if (alive) target.dispatchEvent(Object.assign(new Event('message'), { data: structuredClone(data) }));
    }, 0);
    scope.postMessage = (data) => deliver(worker, data);
    worker.postMessage = (data) => deliver(scope, data);
    worker.terminate = () => { alive = false; };
    serveRequests(ready, handlers, { scope });
    started.push(worker);
    return worker;
  };
}

test('call: results, errors with their name and message, progress before the answer, unknown types', async () => {
  const started = [];
  const client = createWorkerClient(connectedWorker(Promise.resolve({ factor: 3 }), {
    triple: (ps, { x }) => ps.factor * x,
    fail: () => { throw new RangeError('options.epsilon = -1 must be >= 0'); },
    async count(ps, { n }, { progress }) {
      for (let i = 1; i <= n; i += 1) { progress(i / n); await tick(); }
      return 'done';
    },
  }, started));
  assert.equal(await client.call('triple', { x: 14 }), 42);
  await assert.rejects(client.call('fail'), (e) => e.name === 'RangeError' && e.message === 'options.epsilon = -1 must be >= 0');
  const seen = [];
  assert.equal(await client.call('count', { n: 4 }, { onProgress: (p) => seen.push(p) }), 'done');
  assert.deepEqual(seen, [0.25, 0.5, 0.75, 1]);
  await assert.rejects(client.call('nope'), /unknown request type 'nope' \(known: triple, fail, count\)/);
  assert.equal(started.length, 1);
});

test('latest: one call per key runs, only the newest waiting request survives, other keys are independent', async () => {
  const ran = [];
  const client = createWorkerClient(connectedWorker(Promise.resolve({}), {
    async echo(ps, { v }) { ran.push(v); await tick(); await tick(); return v; },
  }, []));
  const first = client.latest('slider', 'echo', { v: 1 });
  const second = client.latest('slider', 'echo', { v: 2 }).catch((e) => e); // rejected at once, by the third
  const third = client.latest('slider', 'echo', { v: 3 });
  const other = client.latest('table', 'echo', { v: 'x' });
  assert.equal(await first, 1);
  assert.ok(isAbort(await second), 'the superseded request rejects with AbortError');
  assert.equal(await third, 3);
  assert.equal(await other, 'x');
  assert.deepEqual(ran.filter((v) => v !== 'x'), [1, 3]);
});

test('cancel: the running and waiting calls reject with AbortError, a fresh worker answers afterwards', async () => {
  const started = [];
  const client = createWorkerClient(connectedWorker(Promise.resolve({}), {
    never: () => new Promise(() => {}),
    ping: () => 'pong',
  }, started));
  const running = client.call('never');
  const lane = client.latest('k', 'never', {});
  const waiting = client.latest('k', 'ping', {});
  await tick();
  client.cancel();
  await assert.rejects(running, (e) => isAbort(e));
  await assert.rejects(lane, (e) => isAbort(e));
  await assert.rejects(waiting, (e) => isAbort(e));
  assert.equal(started.length, 2);
  assert.equal(await client.call('ping'), 'pong');
});

test('a library that cannot load: every call fails with the reason, and onFatal hears it', async () => {
  const fatal = [];
  const client = createWorkerClient(connectedWorker(Promise.reject(new Error('no WebAssembly')), { ping: () => 'pong' }, []));
  client.onFatal((info) => fatal.push(info.message));
  await assert.rejects(client.call('ping'), /could not load the privsample module: no WebAssembly/);
  assert.deepEqual(fatal, ['could not load the privsample module: no WebAssembly']);
});

test('signal: an aborted call rejects at once, its handler sees the abort and stops; other calls are unaffected', async () => {
  const steps = [];
  const client = createWorkerClient(connectedWorker(Promise.resolve({}), {
    async long(ps, { n }, { progress, signal }) {
      for (let i = 0; i < n; i += 1) {
        await nextTurn();
        signal.throwIfAborted();
        steps.push(i);
        progress(i);
      }
      return 'finished';
    },
    ping: () => 'pong',
  }, []));
  const controller = new AbortController();
  const seen = [];
  const running = client.call('long', { n: 1000 }, { signal: controller.signal, onProgress: (p) => seen.push(p) });
  while (seen.length < 3) await tick();
  controller.abort();
  await assert.rejects(running, (e) => isAbort(e));
  assert.equal(await client.call('ping'), 'pong', 'the worker still answers (it was not terminated)');
  const stoppedAt = steps.length;
  for (let i = 0; i < 20; i += 1) await tick();
  assert.ok(stoppedAt < 1000 && steps.length <= stoppedAt + 2, `the handler stopped (ran ${steps.length} of 1000 steps)`);
  // a signal already aborted: rejected without reaching the worker
  await assert.rejects(client.call('long', { n: 1 }, { signal: AbortSignal.abort() }), (e) => isAbort(e));
  // an answered call ignores a later abort
  const late = new AbortController();
  assert.equal(await client.call('long', { n: 2 }, { signal: late.signal }), 'finished');
  late.abort();
});
