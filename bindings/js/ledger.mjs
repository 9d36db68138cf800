// privsample — the privacy-budget ledger (docs/analysis/ledger.md), imported by ps.ledger on first use
// (ledger-storage.mjs): records each release made through it (purpose, mechanism, guarantee, time) in a pluggable
// storage on the person's device and refuses a release that would exceed a purpose's budget. Glue only: it stores
// entries and checks JS types; composing guarantees and comparing them with a budget is the core's
// (core/include/privsample/ledger.hpp, through ps_ledger_total / ps_ledger_check / ps_ledger_budget).
import { writeText } from './abi.mjs';
import { checkedNumber, describe, plainObject } from './common.mjs';

const FORMAT = 'privsample-ledger';
const VERSION = 1;
const BUDGET_KEYS = { notion: 'string', epsilon: 'number', delta: 'number', mu: 'number' };

// ---- the ledger ----------------------------------------------------------------------------------------------------

function checkStorage(storage) {
  if (storage === null || typeof storage !== 'object' || typeof storage.get !== 'function' || typeof storage.set !== 'function') {
    throw new TypeError(`options.storage must be an object with get() and set(text) (e.g. ps.ledgerStorage.localStorage()), got ${describe(storage)}`);
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


// The core's ledger (ps_ledger_* in bindings/wasm/client.cpp, core/include/privsample/ledger.hpp) over the client
// ABI: the purpose, the budget and the releases are staged as text lines and two arrays (the layout client.cpp
// states), and the answer is read back from the module's result slots. Glue only: which fields a total has comes
// from C++.
const BUDGET_NUMBERS = ['epsilon', 'delta', 'mu'];
const RELEASE_NUMBERS = ['epsilon', 'delta', 'mu', 'records'];
const SLOT = { epsilon: 1, delta: 2, mu: 3 };

function ledgerCore(abi) {
  const { fn } = abi;
  const toArray = (slot, values) => {
    const at = checkedNumber(abi, fn.ps_array(slot, values.length)) / 8;
    abi.doubles().set(values, at); // a fresh view after ps_array: the heap may have grown
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

  // One operation at a time in this ledger, and across tabs under a Web Lock where there is one.
  let queue = Promise.resolve();
  const locks = storage.lockName ? globalThis.navigator?.locks : undefined;
  const exclusive = (work) => {
    const run = locks ? () => locks.request(storage.lockName, work) : work;
    const result = queue.then(run, run);
    queue = result.catch(() => {});
    return result;
  };

  async function load() {
    const raw = await storage.get();
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
  const save = (entries) => storage.set(JSON.stringify({ format: FORMAT, version: VERSION, entries }));
  const guaranteesOf = (entries, purpose) => entries.filter((e) => e.purpose === purpose).map((e) => e.guarantee);
  const totalOf = async (purpose) => {
    purposeOf(purpose);
    return exclusive(async () => core.total(purpose, guaranteesOf(await load(), purpose), budgets[purpose] ?? null));
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
        const entries = await load();
        const guarantee = { ...sampler.guarantee };
        core.check(purpose, guaranteesOf(entries, purpose), guarantee, budgets[purpose] ?? null);
        const category = sampler.sample(hist);
        entries.push({ purpose, mechanism: sampler.mechanism, guarantee, time: Date.now() });
        await save(entries); // the sample is returned only once its entry is stored
        return category;
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
      const all = await exclusive(load);
      return Object.freeze(all.filter((e) => purpose === undefined || e.purpose === purpose).map(frozenEntry));
    },
    async purposes() {
      const all = await exclusive(load);
      return Object.freeze([...new Set([...Object.keys(budgets), ...all.map((e) => e.purpose)])]);
    },
    async clear(purpose) {
      if (purpose !== undefined) purposeOf(purpose);
      return exclusive(async () => {
        const kept = purpose === undefined ? [] : (await load()).filter((e) => e.purpose !== purpose);
        await save(kept);
      });
    },
  });
}
