// privsample — the privacy-budget ledger (docs/analysis/ledger.md), imported by ps.ledger and by the storage
// back-ends on first use (ledger-storage.mjs): records each release made through it (purpose, mechanism, guarantee,
// time) in a pluggable storage on the person's device and refuses a release that would exceed a purpose's budget.
// Glue only: it stores entries and checks JS types; composing guarantees and comparing them with a budget is the
// core's (core/analysis/ledger.hpp, through ps_ledger_total / ps_ledger_check / ps_ledger_budget).
//
// Invariant (docs/analysis/ledger.md#many-writers): every write of a storage is one read-modify-write step that no
// other write of that storage interleaves, whatever the number of ledgers, copies of this module, tabs or workers
// writing it; a release checks, draws and records inside its step and returns the sample only once the step stored
// it. Where no such step exists (a storage shared beyond this realm, with no Web Locks here) a write is refused.
import { writeText } from './abi.mjs';
import { checkedNumber, describe, plainObject, text } from './common.mjs';

const FORMAT = 'privsample-ledger';
const VERSION = 1;
const BUDGET_KEYS = { notion: 'string', epsilon: 'number', delta: 'number', mu: 'number' };

// ---- the ledger ----------------------------------------------------------------------------------------------------

function checkStorage(storage) {
  if (storage === null || typeof storage !== 'object' || typeof storage.get !== 'function' || typeof storage.set !== 'function') {
    const what = 'an object with get() and set(text) (e.g. ps.ledgerStorage.indexedDB())';
    throw new TypeError(`options.storage must be ${what}, got ${describe(storage)}`);
  }
  if (storage.update !== undefined && typeof storage.update !== 'function') {
    throw new TypeError(`options.storage.update must be a function when given, got ${describe(storage.update)}`);
  }
  const { lockName } = storage;
  if (lockName !== undefined && lockName !== null && (typeof lockName !== 'string' || lockName === '')) {
    throw new TypeError(`options.storage.lockName must be a non-empty string or null, got ${describe(lockName)}`);
  }
  return storage;
}

function budgetFields(value, name) {
  const budget = plainObject(value, name);
  for (const [key, field] of Object.entries(budget)) {
    if (!(key in BUDGET_KEYS)) throw new RangeError(`${name}.${key} is unknown (a budget has: notion, epsilon, delta, mu)`);
    if (field !== undefined && typeof field !== BUDGET_KEYS[key]) {
      throw new TypeError(`${name}.${key} must be a ${BUDGET_KEYS[key]}, got ${describe(field)}`);
    }
  }
  return budget;
}

function purposeOf(value, name = 'purpose') {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${name} must be a non-empty string, got ${describe(value)}`);
  return value;
}

function frozenEntry(entry) {
  return Object.freeze({ ...entry, guarantee: Object.freeze({ ...entry.guarantee }) });
}

const NOT_A_LEDGER = 'the ledger storage holds something that is not a privsample ledger';

// The entries of a stored text (null: none yet). Damaged or foreign content is never read as "nothing spent".
function entriesIn(raw) {
  if (raw === null || raw === undefined) return [];
  let parsed;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = null;
  }
  if (!parsed || parsed.format !== FORMAT || parsed.version !== VERSION || !Array.isArray(parsed.entries)) {
    throw new Error(`${NOT_A_LEDGER}: refusing to read it as empty (ledger.clear() resets it)`);
  }
  // Each entry is an object with a string purpose and an object guarantee (what the ledger reads of it; the core
  // checks the guarantee's fields).
  const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
  parsed.entries.forEach((entry, i) => {
    const [field, value] = !isObject(entry)
      ? ['', entry]
      : typeof entry.purpose !== 'string'
        ? ['.purpose', entry.purpose]
        : !isObject(entry.guarantee)
          ? ['.guarantee', entry.guarantee]
          : [null];
    if (field !== null) {
      throw new Error(
        `${NOT_A_LEDGER}: entries[${i}]${field} is ${describe(value)}, and an entry is ` +
          '{ purpose, mechanism, guarantee, time } (ledger.clear() resets it)',
      );
    }
  });
  return parsed.entries;
}

const serialised = (entries) => JSON.stringify({ format: FORMAT, version: VERSION, entries });
const NOTHING = Symbol('nothing drawn');

// ---- writes: one atomic read-modify-write step per storage (docs/analysis/ledger.md#many-writers) ----------------

/**
 * How the ledger writes `storage`: write(fn) reads the stored text, fn (synchronous) returns the new text, and the
 * step stores it, with no other write of that store in between; it rejects, storing nothing, if fn throws.
 *   - update(fn): the storage's own atomic step (memory: one synchronous step; IndexedDB: one transaction; the
 *     localStorage back-end has none and refuses).
 *   - get/set and a lockName: the store may be shared beyond this realm: the step runs under the Web Lock of that
 *     name, and is refused where navigator.locks is missing.
 *   - get/set alone: the store is private to this realm (the storage contract): the steps of every ledger over this
 *     storage object run one at a time.
 */
function writerOf(storage) {
  if (typeof storage.update === 'function') return (fn) => storage.update(fn);
  const step = async (fn) => {
    const next = fn(await storage.get());
    await storage.set(next);
  };
  const { lockName } = storage;
  if (typeof lockName === 'string') return (fn) => underWebLock(lockName, () => step(fn));
  return (fn) => inRealm(storage, () => step(fn));
}

// `work` under the exclusive Web Lock `name`, which every tab, worker and frame of the origin shares.
function underWebLock(name, work) {
  const locks = globalThis.navigator?.locks;
  if (typeof locks?.request !== 'function') {
    return Promise.reject(
      new Error(
        `ledger storage '${name}' may be shared with other tabs or workers, and this environment has no Web Locks ` +
          '(navigator.locks) to write it atomically: refusing to write it, nothing was drawn or changed ' +
          '(ps.ledgerStorage.indexedDB() needs no Web Locks: its transactions are atomic)',
      ),
    );
  }
  return locks.request(name, work);
}

// `work` after every earlier step over `storage` in this realm has finished. The queues are kept on the realm's global
// under a registered symbol, so every copy of this module in the realm (the client bundle's, bindings/js's) shares
// them; each holds the settled tail of a storage object's steps.
const QUEUES = Symbol.for('privsample.ledger.write-queues');
function inRealm(storage, work) {
  const queues = (globalThis[QUEUES] ??= new WeakMap());
  const result = (queues.get(storage) ?? Promise.resolve()).then(work);
  queues.set(storage, result.then(() => undefined, () => undefined));
  return result;
}

// ---- the storage back-ends of ps.ledgerStorage (ledger-storage.mjs makes them, checking their options) -----------

/** The back-end `kind` ('memory', 'localStorage', 'indexedDB') over `config`: { get, set, update }. */
export function storageBackend(kind, config) {
  return BACKENDS[kind](config);
}

const BACKENDS = {
  // update() is one synchronous step: nothing else in the realm runs between its read and its write, and nothing
  // outside the realm can reach this closure.
  memory() {
    let stored = null;
    return {
      get: () => stored,
      set(value) {
        stored = text(value, 'value');
      },
      update(fn) {
        stored = text(fn(stored), 'value');
      },
    };
  },

  // No atomic step exists: each tab reads localStorage from a copy of its own, which the HTML standard leaves
  // unsynchronised with the other tabs' writes, so even under an exclusive Web Lock a tab can read a text that lacks
  // the previous holder's write (Chromium does so) and overwrite it. Writes are refused; reads still work.
  localStorage({ key, storage }) {
    return {
      get: () => storage.getItem(key),
      set(value) {
        storage.setItem(key, text(value, 'value'));
      },
      update: () =>
        Promise.reject(
          new Error(
            'localStorage cannot be updated atomically across tabs, even under a Web Lock: the ledger refuses to ' +
              'write it, nothing was drawn or changed (keep the ledger in ps.ledgerStorage.indexedDB(); entries ' +
              'already in localStorage can still be read)',
          ),
        ),
    };
  },

  // update() is one readwrite transaction: IndexedDB never runs two readwrite transactions over one store at once,
  // in any tab or worker. fn runs in the read's success callback and the write is made there, so the transaction is
  // active throughout (awaiting anything else inside it would commit it early). Writes ask for strict durability:
  // the complete event, after which a release returns its sample, comes once the record is on disk.
  indexedDB({ database, key, indexedDB }) {
    let opening = null;
    const open = () => {
      opening ??= new Promise((resolve, reject) => {
        const request = indexedDB.open(database, 1);
        request.onupgradeneeded = () => request.result.createObjectStore('ledger');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      }).catch((error) => {
        opening = null;
        throw error;
      });
      return opening;
    };
    // act(store, answer, fail): makes the transaction's requests; answer(value) sets what the promise resolves to once
    // the transaction completes, fail(error) aborts it and rejects with error.
    const transact = async (mode, act) => {
      const db = await open();
      return new Promise((resolve, reject) => {
        const durable = mode === 'readwrite' ? { durability: 'strict' } : undefined;
        const transaction = db.transaction('ledger', mode, durable);
        let answer;
        let failure = null;
        transaction.oncomplete = () => resolve(answer);
        transaction.onabort = () => reject(failure ?? transaction.error ?? new Error('the ledger transaction aborted'));
        act(
          transaction.objectStore('ledger'),
          (value) => {
            answer = value;
          },
          (error) => {
            failure = error;
            transaction.abort();
          },
        );
      });
    };
    return {
      get: () =>
        transact('readonly', (store, answer) => {
          const request = store.get(key);
          request.onsuccess = () => answer(request.result ?? null);
        }),
      set: (value) => {
        text(value, 'value');
        return transact('readwrite', (store) => store.put(value, key));
      },
      update: (fn) =>
        transact('readwrite', (store, answer, fail) => {
          const request = store.get(key);
          request.onsuccess = () => {
            let next;
            try {
              next = text(fn(request.result ?? null), 'value');
            } catch (error) {
              fail(error);
              return;
            }
            store.put(next, key);
          };
        }),
    };
  },
};


// The core's ledger (ps_ledger_* in bindings/wasm/client.cpp, core/analysis/ledger.hpp) over the client
// ABI: the purpose, the budget and the releases are staged as text lines and two arrays (the layout client.cpp
// states), and the answer is read back from the module's result slots. Glue only: which fields a total has comes
// from C++.
const BUDGET_NUMBERS = ['epsilon', 'delta', 'mu'];
const RELEASE_NUMBERS = ['epsilon', 'delta', 'mu', 'records'];
const SLOT = { epsilon: 1, delta: 2, mu: 3 };

function ledgerCore(abi) {
  const { fn } = abi;
  const toArray = (slot, values) => {
    const at = checkedNumber(abi, fn.ps_stage(slot, values.length)) / 8;
    abi.doubles().set(values, at); // a fresh view after ps_stage: the heap may have grown
  };
  function stage(name, budget, releases) {
    const budgetLine = budget === null || budget === undefined ? '0' : budget.notion === undefined ? '1' : `2${budget.notion}`;
    const notions = releases.map((g) => (typeof g?.notion === 'string' ? g.notion : '(not a string)'));
    toArray(0, BUDGET_NUMBERS.flatMap((key) => (budget?.[key] === undefined ? [0, 0] : [1, budget[key]])));
    toArray(1, releases.flatMap((g) => RELEASE_NUMBERS.map((key) => (typeof g?.[key] === 'number' ? g[key] : NaN))));
    return checkedNumber(abi, writeText(abi, [name, budgetLine, ...notions].join('\n')));
  }
  // A total (or budget) at result slot `at`: { notion: its account, and that account's fields }.
  function totalAt(values, at) {
    const [notion, ...fields] = abi.readText(fn.ps_ledger_account(values[at])).split(' ');
    const out = { notion };
    for (const field of fields) out[field] = values[at + SLOT[field]];
    return out;
  }
  const result = (address) => abi.doubles().slice(address / 8, address / 8 + 10);
  return {
    budget(name, budget) {
      return totalAt(result(checkedNumber(abi, fn.ps_ledger_budget(stage(name, budget, [])))), 0);
    },
    total(purpose, releases, budget) {
      const values = result(checkedNumber(abi, fn.ps_ledger_total(stage(purpose, budget, releases))));
      return { spent: { ...totalAt(values, 0), releases: values[4] }, remaining: values[5] ? totalAt(values, 6) : null };
    },
    check(purpose, releases, request, budget) {
      return checkedNumber(abi, fn.ps_ledger_check(stage(purpose, budget, [...releases, request]))) === 1;
    },
  };
}

/**
 * A ledger over `abi` (a client ABI with the ps_ledger_* functions): what ps.ledger(options) resolves to.
 * `memory()` makes the default storage (ledger-storage.mjs passes its own, so this chunk does not import it back).
 */
export function openLedger(abi, handleOf, memory, options) {
  const core = ledgerCore(abi);
  const given = plainObject(options, 'options');
  const unknown = Object.keys(given).filter((key) => key !== 'storage' && key !== 'budgets');
  if (unknown.length) throw new RangeError(`option '${unknown[0]}' is not supported by ledger (supported: storage, budgets)`);
  const storage = given.storage === undefined ? memory() : checkStorage(given.storage);
  const budgets = Object.create(null);
  for (const [purpose, budget] of Object.entries(plainObject(given.budgets, 'options.budgets'))) {
    const name = `budgets.${purpose}`;
    budgets[purpose] = Object.freeze(core.budget(name, budgetFields(budget, name)));
  }
  Object.freeze(budgets);

  // One operation of this ledger at a time, in the order they were called; writes also go through the storage's
  // atomic step (writerOf), which orders them with every other writer of the store.
  let queue = Promise.resolve();
  const exclusive = (work) => {
    const result = queue.then(work, work);
    queue = result.catch(() => {});
    return result;
  };
  const write = writerOf(storage);
  const read = async () => entriesIn(await storage.get());
  const guaranteesOf = (entries, purpose) => entries.filter((e) => e.purpose === purpose).map((e) => e.guarantee);
  const totalOf = async (purpose) => {
    purposeOf(purpose);
    return exclusive(async () => core.total(purpose, guaranteesOf(await read(), purpose), budgets[purpose] ?? null));
  };

  return Object.freeze({
    budgets,
    storage,
    async release(sampler, hist, releaseOptions) {
      const o = plainObject(releaseOptions, 'options');
      const extra = Object.keys(o).filter((key) => key !== 'purpose');
      if (extra.length) throw new RangeError(`option '${extra[0]}' is not supported by ledger.release (supported: purpose)`);
      const purpose = purposeOf(o.purpose, 'options.purpose');
      if (!handleOf(sampler)) throw new TypeError('sampler must be a sampler made by ps.sampler() of this module');
      return exclusive(async () => {
        let drawn = NOTHING;
        // Check, draw and record in one step over what is stored now; a step that is run again (a retrying
        // storage) draws again, and only the draw of the step whose text was stored is returned.
        await write((stored) => {
          drawn = NOTHING;
          const entries = entriesIn(stored);
          const guarantee = { ...sampler.guarantee };
          core.check(purpose, guaranteesOf(entries, purpose), guarantee, budgets[purpose] ?? null);
          const category = sampler.sample(hist);
          entries.push({ purpose, mechanism: sampler.mechanism, guarantee, time: Date.now() });
          drawn = category;
          return serialised(entries);
        });
        // The sample leaves only now that the step which recorded it has completed.
        if (drawn === NOTHING) {
          throw new Error(
            'options.storage.update() resolved without calling its function: nothing was recorded, so nothing is ' +
              'released',
          );
        }
        return drawn;
      });
    },
    async spent(purpose) {
      return Object.freeze((await totalOf(purpose)).spent);
    },
    async remaining(purpose) {
      const { remaining } = await totalOf(purpose);
      return remaining && Object.freeze(remaining);
    },
    async entries(purpose) {
      if (purpose !== undefined) purposeOf(purpose);
      const all = await exclusive(read);
      return Object.freeze(all.filter((e) => purpose === undefined || e.purpose === purpose).map(frozenEntry));
    },
    async purposes() {
      const all = await exclusive(read);
      return Object.freeze([...new Set([...Object.keys(budgets), ...all.map((e) => e.purpose)])]);
    },
    async clear(purpose) {
      if (purpose !== undefined) purposeOf(purpose);
      const kept = (stored) => (purpose === undefined ? [] : entriesIn(stored).filter((e) => e.purpose !== purpose));
      await exclusive(() => write((stored) => serialised(kept(stored))));
    },
  });
}
