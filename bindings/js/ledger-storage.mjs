// privsample — where a privacy-budget ledger keeps its entries (docs/analysis/ledger.md): the storage back-ends'
// factories (ps.ledgerStorage) and ps.ledger itself, which loads the ledger (ledger.mjs, and in the client entry its own
// small WebAssembly module) the first time a page asks for one, so a page without a ledger downloads none of it.
import { plainObject, text } from './common.mjs';

// ---- storage back-ends: ps.ledgerStorage's factories check their options here; the back-ends themselves (get, set,
// and update: the atomic read-modify-write every ledger write goes through) are in ledger.mjs, loaded on first use,
// so that a page without a ledger downloads none of them.

function backend(kind, lockName, config) {
  let made = null;
  const impl = () =>
    (made ??= import('./ledger.mjs').then(
      (module) => module.storageBackend(kind, config),
      (error) => {
        made = null;
        throw error;
      },
    ));
  return Object.freeze({
    kind,
    lockName,
    async get() {
      return (await impl()).get();
    },
    async set(value) {
      await (await impl()).set(value);
    },
    async update(fn) {
      await (await impl()).update(fn);
    },
  });
}

const memory = () => backend('memory', null, {});

function localStorageBackend(options) {
  const { key = 'privsample-ledger', storage = globalThis.localStorage } = plainObject(options, 'options');
  text(key, 'options.key');
  if (!storage || typeof storage.getItem !== 'function' || typeof storage.setItem !== 'function') {
    throw new TypeError('options.storage must be a Storage (getItem/setItem); this environment has no localStorage');
  }
  return backend('localStorage', `privsample-ledger:localStorage:${key}`, { key, storage });
}

// One object store 'ledger' in database `database`, the serialised ledger under `key`.
function indexedDbBackend(options) {
  const { database = 'privsample-ledger', key = 'ledger', indexedDB = globalThis.indexedDB } = plainObject(options, 'options');
  text(database, 'options.database');
  text(key, 'options.key');
  if (!indexedDB || typeof indexedDB.open !== 'function') {
    throw new TypeError('options.indexedDB must be an IDBFactory; this environment has no indexedDB');
  }
  return backend('indexedDB', `privsample-ledger:indexedDB:${database}:${key}`, { database, key, indexedDB });
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
