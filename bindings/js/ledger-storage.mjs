// privsample — where a privacy-budget ledger keeps its entries (docs/analysis/ledger.md): the storage back-ends
// (ps.ledgerStorage) and ps.ledger itself, which loads the ledger (ledger.mjs, and in the client entry its own small
// WebAssembly module) the first time a page asks for one, so a page without a ledger downloads none of it.
import { plainObject, text } from './common.mjs';

// ---- storage back-ends: get() → the serialised ledger or null; set(text). Both async. -----------------------------

function memory() {
  let stored = null;
  return Object.freeze({
    kind: 'memory',
    lockName: null,
    async get() {
      return stored;
    },
    async set(value) {
      stored = text(value, 'value');
    },
  });
}

function localStorageBackend(options) {
  const { key = 'privsample-ledger', storage = globalThis.localStorage } = plainObject(options, 'options');
  text(key, 'options.key');
  if (!storage || typeof storage.getItem !== 'function' || typeof storage.setItem !== 'function') {
    throw new TypeError('options.storage must be a Storage (getItem/setItem); this environment has no localStorage');
  }
  return Object.freeze({
    kind: 'localStorage',
    lockName: `privsample-ledger:localStorage:${key}`,
    async get() {
      return storage.getItem(key);
    },
    async set(value) {
      storage.setItem(key, text(value, 'value'));
    },
  });
}

// One object store 'ledger' in database `database`, the serialised ledger under `key`.
function indexedDbBackend(options) {
  const { database = 'privsample-ledger', key = 'ledger', indexedDB = globalThis.indexedDB } = plainObject(options, 'options');
  text(database, 'options.database');
  text(key, 'options.key');
  if (!indexedDB || typeof indexedDB.open !== 'function') {
    throw new TypeError('options.indexedDB must be an IDBFactory; this environment has no indexedDB');
  }
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
  const run = async (mode, act) => {
    const db = await open();
    return new Promise((resolve, reject) => {
      const transaction = db.transaction('ledger', mode);
      const request = act(transaction.objectStore('ledger'));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  };
  return Object.freeze({
    kind: 'indexedDB',
    lockName: `privsample-ledger:indexedDB:${database}:${key}`,
    async get() {
      return (await run('readonly', (store) => store.get(key))) ?? null;
    },
    async set(value) {
      text(value, 'value');
      await run('readwrite', (store) => store.put(value, key));
    },
  });
}

export const ledgerStorage = Object.freeze({ memory, localStorage: localStorageBackend, indexedDB: indexedDbBackend });


/**
 * ps.ledger and ps.ledgerStorage of one loaded module. loadAbi(): a promise of the client ABI whose ps_ledger_*
 * functions compose (bindings/wasm/ledger.cpp); handleOf(sampler): that sampler's handle if it is this module's.
 */
export function makeLedgerApi(loadAbi, handleOf) {
  async function ledger(options) {
    const [{ openLedger }, abi] = await Promise.all([import('./ledger.mjs'), loadAbi()]);
    return openLedger(abi, handleOf, memory, options);
  }
  return { ledger, ledgerStorage };
}
