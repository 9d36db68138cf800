// The privacy-budget ledger under concurrency (docs/analysis/ledger.md#many-writers): 2 to 8 ledgers over one store
// release at once, with random yields at every await of the storage (seeded schedules), over memory, custom get/set
// storages with and without a lockName (with and without Web Locks), a localStorage look-alike, and an IndexedDB
// look-alike with its transaction semantics (tests/js/ledger-doubles.mjs). Whatever the interleaving: the recorded
// total stays within the budget, every returned sample has its entry, exactly what fits is released, and a refusal is
// the documented error (the budget's RangeError, or the Error of a storage that cannot be written atomically here).
// The same scenarios run against Chromium's real IndexedDB, localStorage and Web Locks in
// tests/e2e/ledger-concurrency.e2e.mjs.
import assert from 'node:assert/strict';
import test from 'node:test';
import { init } from '../../bindings/js/privsample.mjs';
import { fakeIndexedDB, fakeLocalStorage, fakeLocks, jitter, jittery, withNavigator, xorshift } from
  './ledger-doubles.mjs';

const HIST = [5, 3, 1, 1];
const OVER_BUDGET = /purpose 'p': releasing this sample .* would exceed its budget/;
const NO_LOCKS = /no Web Locks \(navigator\.locks\) to write it atomically: refusing to write it/;
const LOCAL_STORAGE = /^localStorage cannot be updated atomically across tabs, even under a Web Lock/;
const LEDGER_COUNTS = [2, 3, 5, 8];
const SEEDS = [1, 2, 3, 4, 5];

/**
 * `ledgers` ledgers, ledger i over storages(i, random), each with the budget { epsilon: budget } for purpose 'p',
 * all asking `perLedger` releases at ε = `epsilon` at once (each after a random delay), and, when `clearing`, also
 * releasing under purpose 'q' and clearing 'q' meanwhile. Afterwards a fresh ledger over `view` reads what is stored.
 * Returns what was released and what was recorded for 'p', and the errors of the refusals.
 */
async function race(ps, options) {
  const { ledgers, storages, view, seed, budget = 1, epsilon = 0.25, perLedger = 3, clearing = false } = options;
  const random = xorshift(seed);
  const made = [];
  for (let i = 0; i < ledgers; i += 1) {
    made.push(await ps.ledger({ storage: storages(i, random), budgets: { p: { epsilon: budget } } }));
  }
  const sampler = ps.sampler('minimax', { epsilon });
  const calls = [];
  const others = [];
  for (let round = 0; round < perLedger; round += 1) {
    for (const ledger of made) {
      calls.push(jitter(random).then(() => ledger.release(sampler, HIST, { purpose: 'p' })));
      if (clearing) {
        others.push(jitter(random).then(() => ledger.release(sampler, HIST, { purpose: 'q' })));
        others.push(jitter(random).then(() => ledger.clear('q')));
      }
    }
  }
  const outcomes = await Promise.allSettled(calls);
  await Promise.allSettled(others);
  sampler.dispose();
  const entries = await (await ps.ledger({ storage: view })).entries('p');
  return {
    released: outcomes.filter((o) => o.status === 'fulfilled').map((o) => o.value),
    errors: outcomes.filter((o) => o.status === 'rejected').map((o) => o.reason),
    recorded: entries.length,
    recordedEpsilon: entries.reduce((sum, e) => sum + e.guarantee.epsilon, 0),
    asked: calls.length,
  };
}

/** What every interleaving must give: nothing over budget, nothing returned unrecorded, refusals as documented. */
function assertSafe(result, expected, label) {
  const { budget = 1, epsilon = 0.25, refusal = OVER_BUDGET, fits = Math.floor(budget / epsilon) } = expected;
  const { released, errors, recorded, recordedEpsilon, asked } = result;
  assert.ok(recordedEpsilon <= budget, `${label}: recorded ε = ${recordedEpsilon} > budget ${budget}`);
  assert.equal(released.length, recorded, `${label}: ${released.length} samples released, ${recorded} recorded`);
  assert.equal(released.length, fits, `${label}: exactly what fits is released (${fits} of ${asked})`);
  for (const x of released) assert.ok(Number.isInteger(x) && x >= 0 && x < HIST.length, `${label}: sample ${x}`);
  for (const error of errors) {
    assert.match(String(error?.message), refusal, `${label}: ${error?.name}: ${error?.message}`);
    assert.equal(error.name, refusal === OVER_BUDGET ? 'RangeError' : 'Error', `${label}: ${error.name}`);
  }
}

async function eachSchedule(t, fn) {
  for (const ledgers of LEDGER_COUNTS) {
    for (const seed of SEEDS) await fn({ ledgers, seed, label: `${t.name}: ${ledgers} ledgers, seed ${seed}` });
  }
}

test('the audit scenario: two ledgers over one memory storage, budget ε = 1, ε = 0.5 each at once', async () => {
  const ps = await init();
  for (const seed of SEEDS) {
    const shared = ps.ledgerStorage.memory();
    const storages = (i, random) => jittery(shared, random);
    const result = await race(ps, { ledgers: 2, storages, view: shared, seed, epsilon: 0.5, perLedger: 2 });
    assertSafe(result, { epsilon: 0.5 }, `seed ${seed}`);
  }
});

test('memory: ledgers sharing one memory storage, directly or each through its own wrapper', async (t) => {
  const ps = await init();
  await eachSchedule(t, async ({ ledgers, seed, label }) => {
    const shared = ps.ledgerStorage.memory();
    assertSafe(await race(ps, { ledgers, storages: () => shared, view: shared, seed }), {}, `${label}, one object`);
    const wrapped = ps.ledgerStorage.memory();
    const storages = (i, random) => jittery(wrapped, random);
    assertSafe(await race(ps, { ledgers, storages, view: wrapped, seed }), {}, `${label}, wrapped`);
  });
});

test('a custom get/set storage without lockName (private to this realm), shared by the ledgers', async (t) => {
  const ps = await init();
  await eachSchedule(t, async ({ ledgers, seed, label }) => {
    let kept = null;
    const random = xorshift(seed + 1000);
    const storage = {
      async get() {
        await jitter(random);
        return kept;
      },
      async set(text) {
        await jitter(random);
        kept = text;
      },
    };
    assertSafe(await race(ps, { ledgers, storages: () => storage, view: storage, seed }), {}, label);
  });
});

test('releases and clear() of another purpose interleaved: every returned sample of p stays recorded', async (t) => {
  const ps = await init();
  await eachSchedule(t, async ({ ledgers, seed, label }) => {
    const shared = ps.ledgerStorage.memory();
    const storages = (i, random) => jittery(shared, random);
    assertSafe(await race(ps, { ledgers, storages, view: shared, seed, clearing: true }), {}, `${label}, memory`);
    let kept = null;
    const named = { lockName: 'my-ledger', get: () => kept, set: (text) => void (kept = text) };
    const locked = await withNavigator({ locks: fakeLocks() }, () =>
      race(ps, { ledgers, storages: (i, random) => jittery(named, random), view: named, seed, clearing: true }),
    );
    assertSafe(locked, {}, `${label}, a lockName under Web Locks`);
  });
});

test('a localStorage-like store, with or without Web Locks: every write refused (the documented Error)', async (t) => {
  const ps = await init();
  await eachSchedule(t, async ({ ledgers, seed, label }) => {
    for (const navigator of [{ locks: fakeLocks() }, {}]) {
      const store = fakeLocalStorage();
      const open = () => ps.ledgerStorage.localStorage({ storage: store });
      const storages = (i, random) => jittery(open(), random);
      const result = await withNavigator(navigator, () => race(ps, { ledgers, storages, view: open(), seed }));
      const locks = navigator.locks ? 'with' : 'without';
      assertSafe(result, { refusal: LOCAL_STORAGE, fits: 0 }, `${label}, ${locks} Web Locks`);
      assert.equal(store.map.size, 0, `${label}: nothing was written`);
    }
  });
});

test('a custom get/set storage with a lockName: under Web Locks where present, refused where not', async (t) => {
  const ps = await init();
  await eachSchedule(t, async ({ ledgers, seed, label }) => {
    let kept = null;
    const shared = { lockName: 'my-ledger', get: () => kept, set: (text) => void (kept = text) };
    const options = { ledgers, storages: (i, random) => jittery(shared, random), view: shared, seed };
    const locked = await withNavigator({ locks: fakeLocks() }, () => race(ps, options));
    assertSafe(locked, {}, `${label}, with locks`);
    kept = null;
    const lockless = await withNavigator({}, () => race(ps, options));
    assertSafe(lockless, { refusal: NO_LOCKS, fits: 0 }, `${label}, without locks`);
    assert.equal(kept, null, `${label}: nothing was written without locks`);
  });
});

test('an IndexedDB-like store without Web Locks: one connection per ledger, one transaction per release', async (t) => {
  const ps = await init();
  await eachSchedule(t, async ({ ledgers, seed, label }) => {
    const indexedDB = fakeIndexedDB(xorshift(seed + 2000));
    const open = () => ps.ledgerStorage.indexedDB({ indexedDB, database: 'concurrency' });
    const storages = (i, random) => jittery(open(), random);
    const clearing = seed % 2 === 0;
    const result = await withNavigator({}, () => race(ps, { ledgers, storages, view: open(), seed, clearing }));
    assertSafe(result, {}, label);
  });
});

test('the IndexedDB double keeps the semantics the ledger relies on', async () => {
  const indexedDB = fakeIndexedDB(xorshift(7));
  const db = await new Promise((resolve) => {
    const request = indexedDB.open('double', 1);
    request.onupgradeneeded = () => request.result.createObjectStore('s');
    request.onsuccess = () => resolve(request.result);
  });
  const done = (tx) => new Promise((resolve) => {
    tx.oncomplete = () => resolve('complete');
    tx.onabort = () => resolve('abort');
  });
  // Awaiting anything but its own requests commits the transaction: a later request throws.
  const tx = db.transaction('s', 'readwrite');
  const committed = done(tx);
  tx.objectStore('s').put('a', 'k');
  await new Promise((resolve) => setImmediate(resolve));
  assert.throws(() => tx.objectStore('s').put('b', 'k'), { name: 'TransactionInactiveError' });
  assert.equal(await committed, 'complete');
  // An aborted transaction's writes are not seen; transactions run in creation order.
  const aborting = db.transaction('s', 'readwrite');
  const aborted = done(aborting);
  const read = aborting.objectStore('s').get('k');
  read.onsuccess = () => {
    aborting.objectStore('s').put(`${read.result}!`, 'k');
    aborting.abort();
  };
  const reader = db.transaction('s', 'readonly');
  const read2 = done(reader);
  const got = reader.objectStore('s').get('k');
  assert.equal(await aborted, 'abort');
  assert.equal(await read2, 'complete');
  assert.equal(got.result, 'a');
  assert.throws(() => db.transaction('s', 'readonly').objectStore('s').put('c', 'k'), { name: 'ReadOnlyError' });
});

test("a custom storage's update(fn): the last call's draw is returned, a failed or skipped step none", async () => {
  const ps = await init();
  const s = ps.sampler('minimax', { epsilon: 0.5 });
  const budgets = { p: { epsilon: 1 } };
  // A compare-and-set storage that loses its first race: fn runs twice, the second call's text is stored. At
  // ε = 1000 the sampler returns the histogram's one category (the others have probability 0 in doubles), and the
  // histogram moves between the calls: the release must return the second call's draw.
  let kept = null;
  const hist = [1, 0, 0, 0];
  const retrying = {
    get: () => kept,
    set: () => assert.fail('a storage with update() is written through it'),
    async update(fn) {
      fn(kept); // lost the race: this text is dropped and its draw must never come back
      hist.reverse();
      kept = fn(kept);
    },
  };
  const sharp = ps.sampler('linear', { epsilon: 1000 });
  const big = await ps.ledger({ storage: retrying, budgets: { p: { epsilon: 5000 } } });
  for (let i = 0; i < 4; i += 1) {
    const expected = hist[0] === 1 ? 3 : 0; // the second call sees the histogram reversed
    assert.equal(await big.release(sharp, hist, { purpose: 'p' }), expected);
  }
  assert.equal((await big.entries('p')).length, 4);
  kept = null;
  const ledger = await ps.ledger({ storage: retrying, budgets });
  await ledger.release(s, HIST, { purpose: 'p' });
  // fn's own refusal goes through update() unchanged: the budget's RangeError, nothing stored.
  await ledger.release(s, HIST, { purpose: 'p' });
  await assert.rejects(ledger.release(s, HIST, { purpose: 'p' }), OVER_BUDGET);
  assert.equal((await ledger.spent('p')).releases, 2);
  // A step that drew and then could not store: the release rejects with the storage's error, no sample comes back.
  const full = {
    get: () => null,
    set() {},
    async update(fn) {
      fn(null);
      throw new Error('QuotaExceededError');
    },
  };
  const failing = await ps.ledger({ storage: full, budgets });
  await assert.rejects(failing.release(s, HIST, { purpose: 'p' }), /QuotaExceededError/);
  // update() that resolves without calling fn: nothing was recorded, so nothing is released.
  const skipping = await ps.ledger({ storage: { get: () => null, set() {}, async update() {} }, budgets });
  await assert.rejects(skipping.release(s, HIST, { purpose: 'p' }), {
    name: 'Error',
    message: /update\(\) resolved without calling its function: nothing was recorded, so nothing is released/,
  });
});

test('copies of the ledger module in one realm share the in-realm queue of a get/set storage', async () => {
  // The client bundle's ledger and bindings/js's are two module instances; a storage object passed to both is still
  // written one step at a time.
  const bundled = await (await import('../../build/bundle/privsample.mjs')).init();
  const ps = await init();
  for (const seed of SEEDS) {
    let kept = null;
    const random = xorshift(seed + 3000);
    const storage = {
      get: () => jitter(random).then(() => kept),
      set: (text) => jitter(random).then(() => void (kept = text)),
    };
    const calls = [];
    for (const lib of [bundled, ps, bundled, ps]) {
      const ledger = await lib.ledger({ storage, budgets: { p: { epsilon: 1 } } });
      const sampler = lib.sampler('minimax', { epsilon: 0.25 });
      const release = () => ledger.release(sampler, HIST, { purpose: 'p' });
      for (let i = 0; i < 2; i += 1) calls.push(jitter(random).then(release));
    }
    const outcomes = await Promise.allSettled(calls);
    const released = outcomes.filter((o) => o.status === 'fulfilled').length;
    assert.equal(released, 4, `seed ${seed}`);
    assert.equal(JSON.parse(kept).entries.length, 4, `seed ${seed}`);
  }
});
