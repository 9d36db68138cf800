// Test doubles for the privacy-budget ledger's concurrency tests (tests/js/ledger-concurrency.test.mjs, and the
// browser page of tests/e2e/ledger-concurrency.e2e.mjs for the first three): a seeded
// scheduler that yields at random, a storage wrapper that yields around each of its calls, a Storage look-alike, a
// Web Locks look-alike and an IndexedDB look-alike with its transaction semantics. Node has neither Web Locks nor
// IndexedDB; tests/e2e/ledger-concurrency.e2e.mjs runs the same scenarios against Chromium's real ones.

/** A small seeded generator (xorshift32): the tests' schedules are reproducible; samples still come from the CSPRNG. */
export function xorshift(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

// A macrotask: setImmediate in Node; in a browser (tests/e2e/ledger-page/ imports this file) a MessageChannel
// message, which setTimeout's clamping does not delay.
const macrotask = (() => {
  if (typeof setImmediate === 'function') return () => new Promise((resolve) => setImmediate(resolve));
  const channel = new MessageChannel();
  const waiting = [];
  channel.port1.onmessage = () => waiting.shift()();
  return () => new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(0);
  });
})();

/** Yields 0–3 times, each a microtask or a macrotask, as `random` decides. */
export async function jitter(random) {
  for (let n = Math.floor(random() * 4); n > 0; n -= 1) {
    if (random() < 0.5) await null;
    else await macrotask();
  }
}

/**
 * `inner` (a ledger storage) with random yields before and after each of its calls, so that the steps of several
 * ledgers interleave at every await of the storage. It forwards update() only when `inner` has one.
 */
export function jittery(inner, random) {
  const around = async (call) => {
    await jitter(random);
    const result = await call();
    await jitter(random);
    return result;
  };
  const out = {
    lockName: inner.lockName,
    get: () => around(() => inner.get()),
    set: (text) => around(() => inner.set(text)),
  };
  if (typeof inner.update === 'function') out.update = (fn) => around(() => inner.update(fn));
  return out;
}

/** A Storage look-alike over a Map: what a browser's localStorage offers the adapter (synchronous, no locking). */
export function fakeLocalStorage() {
  const map = new Map();
  return { map, getItem: (k) => (map.has(k) ? map.get(k) : null), setItem: (k, v) => map.set(k, String(v)) };
}

/** navigator.locks' request(name, callback) in exclusive mode: one holder per name, the others wait in order. */
export function fakeLocks() {
  const tails = new Map();
  return {
    async request(name, callback) {
      const previous = tails.get(name) ?? Promise.resolve();
      let release;
      const held = new Promise((resolve) => {
        release = resolve;
      });
      tails.set(name, previous.then(() => held));
      await previous;
      try {
        return await callback({ name, mode: 'exclusive' });
      } finally {
        release();
      }
    },
  };
}

/** Runs `fn` with globalThis.navigator set to `value` (e.g. {} for no Web Locks), then restores it. */
export async function withNavigator(value, fn) {
  const before = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  Object.defineProperty(globalThis, 'navigator', { value, configurable: true, writable: true });
  try {
    return await fn();
  } finally {
    if (before) Object.defineProperty(globalThis, 'navigator', before);
    else delete globalThis.navigator;
  }
}

function domError(name, message) {
  const error = new Error(message);
  error.name = name;
  return error;
}

/**
 * An IDBFactory look-alike, enough for ps.ledgerStorage.indexedDB(): open(name, version) with onupgradeneeded,
 * createObjectStore, transaction(store, mode) with objectStore(store).get/put, oncomplete/onabort/abort(). What it
 * keeps of IndexedDB's semantics, the ones the ledger's safety rests on:
 *   - the transactions of one database run one at a time, in the order they were created, whichever connection
 *     made them (IndexedDB runs readwrite transactions over one store so; running read-only ones one at a time too
 *     is one of the schedules it allows);
 *   - a transaction's writes are seen by later transactions only once it commits, and not at all if it aborts;
 *   - a transaction is active only in the task that created it and in its requests' success callbacks (with the
 *     microtasks they queue): a request made later throws TransactionInactiveError; it commits once it is inactive
 *     with no request left, so awaiting anything but its own requests inside it commits it early;
 *   - each request is answered after a random number of tasks (`random`), and so are open() and the complete event.
 */
export function fakeIndexedDB(random) {
  const databases = new Map(); // name → { stores: Map<store, Map<key, value>>, tail: the last transaction's end }
  const later = async (fn) => {
    await macrotask();
    await jitter(random);
    fn();
  };

  function transaction(database, storeName, mode) {
    if (!database.stores.has(storeName)) throw domError('NotFoundError', `no object store ${storeName}`);
    const committed = database.stores.get(storeName);
    const staged = new Map();
    const queue = [];
    let active = true;
    let started = false;
    let busy = false;
    let finished = false;
    let endTurn;
    const ended = new Promise((resolve) => {
      endTurn = resolve;
    });
    const previous = database.tail;
    database.tail = previous.then(() => ended);
    const tx = { mode, error: null, oncomplete: null, onerror: null, onabort: null };

    const finish = (event) => {
      finished = true;
      queue.length = 0;
      if (event === 'complete') for (const [key, value] of staged) committed.set(key, value);
      endTurn();
      later(() => tx[`on${event}`]?.({ type: event, target: tx }));
    };
    const maybeCommit = () => {
      if (!finished && started && !active && !busy && queue.length === 0) finish('complete');
    };
    // Active until the current task ends: setImmediate runs after the microtasks the callback queued.
    const activeForThisTask = () => {
      active = true;
      setImmediate(() => {
        active = false;
        if (!busy) pump();
        maybeCommit();
      });
    };
    const pump = () => {
      if (finished || busy || !started || queue.length === 0) return;
      busy = true;
      const [operation, request] = queue.shift();
      later(() => {
        busy = false;
        if (finished) return;
        request.result = operation();
        request.readyState = 'done';
        activeForThisTask();
        request.onsuccess?.({ type: 'success', target: request });
      });
    };
    const place = (operation) => {
      if (finished || !active) throw domError('TransactionInactiveError', 'the transaction is not active');
      const request = { result: undefined, error: null, readyState: 'pending', onsuccess: null, onerror: null };
      queue.push([operation, request]);
      pump();
      return request;
    };
    tx.objectStore = (name) => {
      if (name !== storeName) throw domError('NotFoundError', `${name} is not in this transaction's scope`);
      return {
        get: (key) => place(() => (staged.has(key) ? staged.get(key) : committed.get(key))),
        put: (value, key) => {
          if (mode !== 'readwrite') throw domError('ReadOnlyError', 'the transaction is read-only');
          return place(() => {
            staged.set(key, value);
            return key;
          });
        },
      };
    };
    tx.abort = () => {
      if (finished) throw domError('InvalidStateError', 'the transaction has finished');
      finish('abort');
    };
    activeForThisTask();
    previous.then(() => {
      started = true;
      pump();
      maybeCommit();
    });
    return tx;
  }

  return {
    open(name) {
      const request = { result: undefined, error: null, onsuccess: null, onerror: null, onupgradeneeded: null };
      later(() => {
        let database = databases.get(name);
        const fresh = !database;
        if (fresh) {
          database = { stores: new Map(), tail: Promise.resolve() };
          databases.set(name, database);
        }
        request.result = {
          createObjectStore: (store) => database.stores.set(store, new Map()),
          transaction: (store, mode = 'readonly') => transaction(database, store, mode),
          close() {},
        };
        if (fresh) request.onupgradeneeded?.({ type: 'upgradeneeded', target: request });
        request.onsuccess?.({ type: 'success', target: request });
      });
      return request;
    },
  };
}
