// The privacy-budget ledger (docs/analysis/ledger.md) through the built module: golden totals of basic composition in
// each account, refusal before anything is drawn, notions an account does not count, property tests over random
// sequences of releases, the memory and a fake-localStorage back-end (persistence, damage, failures), releases of one
// ledger at once, bad inputs, and the research entry's re-export. Many ledgers over one store:
// tests/js/ledger-concurrency.test.mjs. The IndexedDB back-end runs in Chromium (tests/e2e/csp-file.e2e.mjs,
// tests/e2e/ledger-concurrency.e2e.mjs).
import assert from 'node:assert/strict';
import test from 'node:test';
import { init } from '../../bindings/js/privsample.mjs';
import { init as initResearch } from '../../bindings/js/research.mjs';
// xorshift: the property tests' parameters (the samples themselves come from the CSPRNG).
import { fakeLocalStorage, fakeLocks, withNavigator, xorshift } from './ledger-doubles.mjs';

const HIST = [5, 3, 1, 1];
const LOCAL_STORAGE_REFUSED = new RegExp(
  '^localStorage cannot be updated atomically across tabs, even under a Web Lock: the ledger refuses to write it, ' +
    'nothing was drawn or changed \\(keep the ledger in ps\\.ledgerStorage\\.indexedDB\\(\\); entries already in ' +
    'localStorage can still be read\\)$',
);

test('golden totals: ε adds, (ε, δ) adds both, μ composes as sqrt(Σμ²), record-level ε adds', async () => {
  const ps = await init();
  const ledger = await ps.ledger({ budgets: { survey: { epsilon: 2 }, approx: { epsilon: 3, delta: 1e-5 }, gauss: { mu: 5 }, records: { notion: 'record-dp', epsilon: 2 } } });
  assert.deepEqual(ledger.budgets.survey, { notion: 'ldp', epsilon: 2, delta: 0 });
  assert.deepEqual(ledger.budgets.gauss, { notion: 'gaussian-ldp', mu: 5 });
  assert.deepEqual(ledger.budgets.records, { notion: 'record-dp', epsilon: 2 });

  const half = ps.sampler('minimax', { epsilon: 0.5 });
  for (let i = 0; i < 2; i += 1) {
    const x = await ledger.release(half, HIST, { purpose: 'survey' });
    assert.ok(Number.isInteger(x) && x >= 0 && x < HIST.length);
  }
  assert.deepEqual(await ledger.spent('survey'), { notion: 'ldp', epsilon: 1, delta: 0, releases: 2 });
  assert.deepEqual(await ledger.remaining('survey'), { notion: 'ldp', epsilon: 1, delta: 0 });

  await ledger.release(ps.sampler('linear', { epsilon: 1, delta: 1e-6 }), HIST, { purpose: 'approx' });
  await ledger.release(half, HIST, { purpose: 'approx' });
  const approx = await ledger.spent('approx');
  assert.equal(approx.epsilon, 1.5);
  assert.equal(approx.delta, 1e-6);

  await ledger.release(ps.sampler('linear', { mu: 3 }), HIST, { purpose: 'gauss' });
  await ledger.release(ps.sampler('linear', { mu: 4 }), HIST, { purpose: 'gauss' });
  assert.deepEqual(await ledger.spent('gauss'), { notion: 'gaussian-ldp', mu: 5, releases: 2 });
  assert.deepEqual(await ledger.remaining('gauss'), { notion: 'gaussian-ldp', mu: 0 });

  // Record-level DP: a ROO release and a pure-LDP release (LDP over all inputs implies it for one record).
  await ledger.release(ps.sampler('roo', { epsilon: 1, records: 10 }), [5, 3, 1, 1], { purpose: 'records' });
  await ledger.release(half, HIST, { purpose: 'records' });
  assert.deepEqual(await ledger.spent('records'), { notion: 'record-dp', epsilon: 1.5, releases: 2 });

  // Entries say what was released, under which guarantee, when.
  const entries = await ledger.entries('gauss');
  assert.equal(entries.length, 2);
  assert.equal(entries[0].mechanism, 'linear');
  assert.deepEqual(entries[0].guarantee, { notion: 'gaussian-ldp', mu: 3 });
  assert.equal(entries[0].purpose, 'gauss');
  assert.ok(Math.abs(entries[0].time - Date.now()) < 60_000);
  assert.ok(Object.isFrozen(entries[0]) && Object.isFrozen(entries[0].guarantee));
  assert.deepEqual([...(await ledger.purposes())].sort(), ['approx', 'gauss', 'records', 'survey']);
  // A purpose with nothing released and no budget: nothing spent, no remaining.
  assert.deepEqual(await ledger.spent('other'), { notion: 'ldp', epsilon: 0, delta: 0, releases: 0 });
  assert.equal(await ledger.remaining('other'), null);
});

test('refusal: a RangeError naming purpose, spent, requested and budget, before anything is drawn or recorded', async () => {
  const ps = await init();
  const ledger = await ps.ledger({ budgets: { survey: { epsilon: 2 }, gauss: { mu: 1 } } });
  await ledger.release(ps.sampler('minimax', { epsilon: 1 }), HIST, { purpose: 'survey' });
  await ledger.release(ps.sampler('minimax', { epsilon: 0.75 }), HIST, { purpose: 'survey' });
  const big = ps.sampler('minimax', { epsilon: 0.5 });
  // The histogram is invalid: had the ledger drawn first, the core would complain about hist instead.
  await assert.rejects(ledger.release(big, [-1, 2], { purpose: 'survey' }), (error) => {
    assert.ok(error instanceof RangeError, String(error));
    assert.match(error.message, /purpose 'survey'/);
    assert.match(error.message, /spent epsilon = 1\.75 \(2 releases\)/);
    assert.match(error.message, /requested epsilon = 0\.5/);
    assert.match(error.message, /together 2\.25 > budget epsilon = 2/);
    return true;
  });
  assert.equal((await ledger.entries('survey')).length, 2);
  // What still fits is allowed, to the last bit: 1.75 + 0.25 = 2.
  await ledger.release(ps.sampler('minimax', { epsilon: 0.25 }), HIST, { purpose: 'survey' });
  assert.deepEqual(await ledger.remaining('survey'), { notion: 'ldp', epsilon: 0, delta: 0 });
  // A pure budget refuses any δ > 0, a Gaussian budget counts μ.
  await assert.rejects(ledger.release(ps.sampler('linear', { epsilon: 0, delta: 1e-9 }), HIST, { purpose: 'survey' }), /budget delta = 0/);
  await assert.rejects(ledger.release(ps.sampler('linear', { mu: 1.5 }), HIST, { purpose: 'gauss' }), /requested mu = 1\.5.*> budget mu = 1/);
  // Rounding is exact on the doubles: nine releases at ε = 0.1 fit a budget of 1, the tenth does not.
  const tenth = await ps.ledger({ budgets: { p: { epsilon: 1 } } });
  const s = ps.sampler('minimax', { epsilon: 0.1 });
  for (let i = 0; i < 9; i += 1) await tenth.release(s, HIST, { purpose: 'p' });
  await assert.rejects(tenth.release(s, HIST, { purpose: 'p' }), RangeError);
  assert.equal((await tenth.entries()).length, 9);
});

test('notions an account does not count are refused, with the rule in the message', async () => {
  const ps = await init();
  const ledger = await ps.ledger({ budgets: { ldp: { epsilon: 10 }, gauss: { mu: 10 }, records: { notion: 'record-dp', epsilon: 10 } } });
  const gaussian = ps.sampler('linear', { mu: 1 });
  const approx = ps.sampler('linear', { epsilon: 1, delta: 1e-6 });
  const roo = ps.sampler('roo', { epsilon: 1, records: 10 });
  await assert.rejects(ledger.release(gaussian, HIST, { purpose: 'ldp' }), /purpose 'ldp' counts \(epsilon, delta\)-LDP releases.*gaussian-ldp, mu = 1.*cannot be composed/);
  await assert.rejects(ledger.release(roo, [5, 3, 1, 1], { purpose: 'ldp' }), /record-dp, epsilon = 1, records = 10/);
  await assert.rejects(ledger.release(ps.sampler('minimax', { epsilon: 1 }), HIST, { purpose: 'gauss' }), /cannot be composed/);
  await assert.rejects(ledger.release(approx, HIST, { purpose: 'records' }), /cannot be composed/);
  // Without a budget, the first release fixes the account.
  await ledger.release(gaussian, HIST, { purpose: 'free' });
  await assert.rejects(ledger.release(approx, HIST, { purpose: 'free' }), /the notion of its first release/);
  assert.equal((await ledger.entries()).length, 1);
});

test('properties over random sequences: a release is allowed iff the exact total fits; spent is the sum of what was released', async () => {
  const ps = await init();
  const random = xorshift(20261125);
  for (let trial = 0; trial < 40; trial += 1) {
    // Multiples of 1/64: every sum below is exact in doubles, so the expected decision is exact too.
    const budget = Math.floor(random() * 256) / 64;
    const ledger = await ps.ledger({ budgets: { p: { epsilon: budget } } });
    let total = 0;
    let released = 0;
    for (let i = 0; i < 12; i += 1) {
      const epsilon = Math.floor(random() * 96) / 64;
      const s = ps.sampler(random() < 0.5 ? 'minimax' : 'linear', { epsilon });
      const fits = total + epsilon <= budget;
      const outcome = await ledger.release(s, HIST, { purpose: 'p' }).then(() => 'released', (e) => (e instanceof RangeError ? 'refused' : e));
      assert.equal(outcome, fits ? 'released' : 'refused', `trial ${trial}: total ${total} + ${epsilon} vs budget ${budget}`);
      if (fits) {
        total += epsilon;
        released += 1;
      }
      s.dispose();
    }
    const spent = await ledger.spent('p');
    assert.equal(spent.epsilon, total);
    assert.equal(spent.releases, released);
    assert.ok(spent.epsilon <= budget);
    assert.equal((await ledger.remaining('p')).epsilon, budget - total);
  }
  // μ: the total is sqrt(Σμ²) of what was released, whatever the order.
  for (let trial = 0; trial < 10; trial += 1) {
    const mus = Array.from({ length: 1 + Math.floor(random() * 8) }, () => 0.01 + random() * 4);
    const forward = await ps.ledger();
    const backward = await ps.ledger();
    for (const mu of mus) await forward.release(ps.sampler('linear', { mu }), HIST, { purpose: 'g' });
    for (const mu of [...mus].reverse()) await backward.release(ps.sampler('linear', { mu }), HIST, { purpose: 'g' });
    const expected = Math.sqrt(mus.reduce((a, mu) => a + mu * mu, 0));
    const a = (await forward.spent('g')).mu;
    assert.ok(Math.abs(a - expected) <= 1e-14 * expected, `${a} vs ${expected}`);
    assert.ok(Math.abs((await backward.spent('g')).mu - a) <= 1e-15 * a);
  }
});

test('concurrent releases are serialised: exactly what fits is released', async () => {
  const ps = await init();
  const ledger = await ps.ledger({ budgets: { p: { epsilon: 2 } } });
  const s = ps.sampler('minimax', { epsilon: 0.5 });
  const outcomes = await Promise.allSettled(Array.from({ length: 7 }, () => ledger.release(s, HIST, { purpose: 'p' })));
  assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected']);
  assert.equal((await ledger.spent('p')).epsilon, 2);
});

test('memory back-end: ledgers over one storage share entries; clear() resets one purpose or all', async () => {
  const ps = await init();
  const storage = ps.ledgerStorage.memory();
  const a = await ps.ledger({ storage, budgets: { p: { epsilon: 1 } } });
  const b = await ps.ledger({ storage, budgets: { p: { epsilon: 1 } } });
  const s = ps.sampler('minimax', { epsilon: 0.5 });
  await a.release(s, HIST, { purpose: 'p' });
  await b.release(s, HIST, { purpose: 'p' });
  await a.release(s, HIST, { purpose: 'q' });
  await assert.rejects(a.release(s, HIST, { purpose: 'p' }), /spent epsilon = 1 \(2 releases\)/);
  await b.clear('p');
  assert.equal((await a.spent('p')).releases, 0);
  assert.equal((await a.spent('q')).releases, 1);
  await a.clear();
  assert.deepEqual(await b.entries(), []);
  // The default storage is a fresh memory one per ledger.
  await (await ps.ledger()).release(s, HIST, { purpose: 'p' });
  assert.deepEqual(await (await ps.ledger()).entries(), []);
});

test('localStorage back-end (a fake Storage): reads a ledger, keys apart, damage not read as empty', async () => {
  const ps = await init();
  const fake = fakeLocalStorage();
  // Entries written before (here through a storage over the same Storage that is private to this realm).
  const key = 'privsample-ledger';
  const realmPrivate = { get: () => fake.getItem(key), set: (text) => fake.setItem(key, text) };
  const writer = await ps.ledger({ storage: realmPrivate, budgets: { survey: { epsilon: 3 } } });
  const s = ps.sampler('minimax', { epsilon: 1 });
  await writer.release(s, HIST, { purpose: 'survey' });
  await writer.release(s, HIST, { purpose: 'survey' });
  const stored = JSON.parse(fake.map.get(key));
  assert.equal(stored.format, 'privsample-ledger');
  assert.equal(stored.entries.length, 2);
  assert.deepEqual(stored.entries[0].guarantee, { notion: 'pure-ldp', epsilon: 1 });
  const text = fake.map.get(key);
  // The back-end reads them, with or without Web Locks, and refuses every write: no tab can read, check and write
  // localStorage atomically (docs/analysis/ledger.md#many-writers).
  for (const navigator of [{ locks: fakeLocks() }, {}]) {
    await withNavigator(navigator, async () => {
      const storage = ps.ledgerStorage.localStorage({ storage: fake });
      const again = await ps.ledger({ storage, budgets: { survey: { epsilon: 3 } } });
      assert.equal((await again.entries('survey')).length, 2);
      assert.equal((await again.spent('survey')).epsilon, 2);
      const writes = [() => again.release(s, HIST, { purpose: 'p' }), () => again.clear(), () => again.clear('p')];
      for (const write of writes) {
        await assert.rejects(write(), { name: 'Error', message: LOCAL_STORAGE_REFUSED });
      }
      assert.equal(fake.map.get(key), text, 'nothing was written');
    });
  }
  // Another key is another ledger.
  const other = await ps.ledger({ storage: ps.ledgerStorage.localStorage({ storage: fake, key: 'other' }) });
  assert.deepEqual(await other.entries(), []);
  // Damaged or foreign content: every call throws.
  const again = await ps.ledger({ storage: ps.ledgerStorage.localStorage({ storage: fake }) });
  fake.map.set(key, '{"entries": "oops"');
  await assert.rejects(again.spent('survey'), /not a privsample ledger/);
  const negative = { purpose: 'survey', guarantee: { notion: 'pure-ldp', epsilon: -3 } };
  fake.map.set(key, JSON.stringify({ format: 'privsample-ledger', version: 1, entries: [negative] }));
  await assert.rejects(again.spent('survey'), /entries\[0\]\.guarantee\.epsilon = -3/);
});

test('a storage that cannot store (quota, private mode): the release throws, its sample is not returned', async () => {
  const ps = await init();
  const s = ps.sampler('minimax', { epsilon: 1 });
  const full = { get: () => null, set: () => { throw new Error('QuotaExceededError'); } };
  const failing = await ps.ledger({ storage: full });
  await assert.rejects(failing.release(s, HIST, { purpose: 'p' }), /QuotaExceededError/);
  const damaged = await ps.ledger({ storage: { get: () => '{"entries": "oops"', set() {} } });
  await assert.rejects(damaged.release(s, HIST, { purpose: 'p' }), /not a privsample ledger/);
  await damaged.clear(); // clear() resets damage deliberately
});

test('a null or malformed stored entry is refused by its index and field, never read past', async () => {
  const ps = await init();
  let kept = null;
  const storage = { get: () => kept, set: (text) => void (kept = text) };
  const ledger = await ps.ledger({ storage, budgets: { p: { epsilon: 2 } } });
  const s = ps.sampler('minimax', { epsilon: 1 });
  const stored = (entries) => JSON.stringify({ format: 'privsample-ledger', version: 1, entries });
  const good = { purpose: 'p', mechanism: 'minimax', guarantee: { notion: 'pure-ldp', epsilon: 1 }, time: 0 };
  const cases = [
    [[good, null], /entries\[1\] is null, and an entry is \{ purpose, mechanism, guarantee, time \}/],
    [[3], /entries\[0\] is number 3/],
    [[[good]], /entries\[0\] is an array/],
    [[{ ...good, purpose: null }], /entries\[0\]\.purpose is null/],
    [[{ ...good, guarantee: null }], /entries\[0\]\.guarantee is null/],
    [[{ purpose: 'p' }], /entries\[0\]\.guarantee is undefined/],
  ];
  for (const [entries, message] of cases) {
    kept = stored(entries);
    const reads = [() => ledger.spent('p'), () => ledger.entries(), () => ledger.purposes()];
    for (const call of [...reads, () => ledger.release(s, HIST, { purpose: 'p' }), () => ledger.clear('q')]) {
      await assert.rejects(call(), (error) => {
        assert.equal(error.name, 'Error');
        assert.match(error.message, /^the ledger storage holds something that is not a privsample ledger: /);
        assert.match(error.message, message);
        assert.match(error.message, /ledger\.clear\(\) resets it/);
        return true;
      });
    }
    assert.equal(kept, stored(entries), 'nothing was written');
  }
  await ledger.clear();
  assert.deepEqual(await ledger.entries(), []);
});

test('bad inputs: types and values are checked, with their names', async () => {
  const ps = await init();
  await assert.rejects(ps.ledger({ budgets: { survey: { epsilon: -1 } } }), { name: 'RangeError', message: 'budgets.survey.epsilon = -1: must be a finite number >= 0' });
  await assert.rejects(ps.ledger({ budgets: { survey: { epsilon: 1, mu: 1 } } }), /budgets\.survey: a mu-Gaussian LDP budget is \{ mu \} alone/);
  await assert.rejects(ps.ledger({ budgets: { survey: { eps: 1 } } }), { name: 'RangeError', message: /budgets\.survey\.eps is unknown/ });
  await assert.rejects(ps.ledger({ budgets: { survey: { epsilon: '1' } } }), TypeError);
  await assert.rejects(ps.ledger({ budgets: { survey: { notion: 'record-dp', epsilon: 1, delta: 0.1 } } }), /no delta/);
  await assert.rejects(ps.ledger({ storage: {} }), TypeError);
  // An explicit null is not the default storage (memory would silently forget every release at reload).
  const badStorage = (storage, message) => assert.rejects(ps.ledger({ storage }), { name: 'TypeError', message });
  await badStorage(null, /options\.storage must be an object with get\(\) and set\(text\).*got null/);
  await badStorage({ get() {}, set() {}, update: 1 }, /options\.storage\.update must be a function/);
  await badStorage({ get() {}, set() {}, lockName: 7 }, /options\.storage\.lockName must be a non-empty string/);
  await assert.rejects(ps.ledger({ store: 1 }), RangeError);
  assert.throws(() => ps.ledgerStorage.localStorage(), /no localStorage/);
  assert.throws(() => ps.ledgerStorage.indexedDB(), /no indexedDB/);
  const ledger = await ps.ledger();
  const s = ps.sampler('minimax', { epsilon: 1 });
  await assert.rejects(ledger.release(s, HIST), TypeError);
  await assert.rejects(ledger.release(s, HIST, { purpose: '' }), TypeError);
  await assert.rejects(ledger.release(s, HIST, { purpose: 'p', note: 1 }), RangeError);
  const fake = { mechanism: 'minimax', guarantee: { notion: 'pure-ldp', epsilon: 0 }, sample: () => 0 };
  await assert.rejects(ledger.release(fake, HIST, { purpose: 'p' }), /made by ps\.sampler\(\)/);
  s.dispose();
  await assert.rejects(ledger.release(s, HIST, { purpose: 'p' }), /disposed/);
  // A bad histogram under a budget that allows the release: the core's error, and nothing is recorded.
  await assert.rejects(ledger.release(ps.sampler('minimax', { epsilon: 1 }), [1, -2], { purpose: 'p' }), /hist\[1\] = -2/);
  assert.deepEqual(await ledger.entries(), []);
  await assert.rejects(ledger.spent(3), TypeError);
});

test('the research entry has the same ledger', async () => {
  const ps = await initResearch();
  assert.equal(typeof ps.ledgerStorage.localStorage, 'function');
  const ledger = await ps.ledger({ budgets: { p: { mu: 1.25 } } });
  await ledger.release(ps.sampler('local-linear', { mu: 0.75, prior: [1, 1, 1, 1], gamma: 2 }), HIST, { purpose: 'p' });
  await ledger.release(ps.sampler('linear', { mu: 1 }), HIST, { purpose: 'p' });
  assert.equal((await ledger.spent('p')).mu, 1.25); // sqrt(0.75² + 1²), exact in doubles
  await assert.rejects(ledger.release(ps.sampler('linear', { mu: 0.01 }), HIST, { purpose: 'p' }), RangeError);
});

test('a name with a line break is refused by name, and nothing is recorded', async () => {
  const ps = await init();
  const ledger = await ps.ledger({ budgets: { survey: { epsilon: 2 } } });
  const s = ps.sampler('minimax', { epsilon: 0.5 });
  await assert.rejects(ledger.release(s, HIST, { purpose: 'two\nlines' }), (e) => e instanceof RangeError && /contains a line break/.test(e.message));
  await assert.rejects(ledger.spent('a\nb'), /contains a line break/);
  await assert.rejects(ps.ledger({ budgets: { 'x\ny': { epsilon: 1 } } }), /contains a line break/);
  assert.deepEqual(await ledger.entries(), []);
  assert.equal(await ledger.release(s, HIST, { purpose: 'survey' }) >= 0, true, 'the ledger still works');
});
