// The privacy-budget ledger (docs/analysis/ledger.md) through the built module: golden totals of basic composition in
// each account, refusal before anything is drawn, notions an account does not count, property tests over random
// sequences of releases, the memory and a fake-localStorage back-end (persistence, damage, failures), concurrency,
// bad inputs, and the research entry's re-export. The IndexedDB back-end runs in Chromium (tests/e2e/csp-file.e2e.mjs).
import assert from 'node:assert/strict';
import test from 'node:test';
import { init } from '../../bindings/js/privsample.mjs';
import { init as initResearch } from '../../bindings/js/research.mjs';

const HIST = [5, 3, 1, 1];

/** A Storage look-alike over a Map (what a browser's localStorage offers the adapter). */
function fakeLocalStorage() {
  const map = new Map();
  return { map, getItem: (k) => (map.has(k) ? map.get(k) : null), setItem: (k, v) => map.set(k, String(v)) };
}

// A small seeded generator for the property tests' parameters (the samples themselves come from the CSPRNG).
function xorshift(seed) {
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

test('localStorage back-end (a fake Storage): entries persist across ledgers, keys are separate, damage is not read as empty', async () => {
  const ps = await init();
  const fake = fakeLocalStorage();
  const first = await ps.ledger({ storage: ps.ledgerStorage.localStorage({ storage: fake }), budgets: { survey: { epsilon: 2 } } });
  const s = ps.sampler('minimax', { epsilon: 1 });
  await first.release(s, HIST, { purpose: 'survey' });
  await first.release(s, HIST, { purpose: 'survey' });
  const stored = JSON.parse(fake.map.get('privsample-ledger'));
  assert.equal(stored.format, 'privsample-ledger');
  assert.equal(stored.entries.length, 2);
  assert.deepEqual(stored.entries[0].guarantee, { notion: 'pure-ldp', epsilon: 1 });
  // "Reload": a new module instance is not needed, a new ledger over the same Storage sees the same entries.
  const again = await ps.ledger({ storage: ps.ledgerStorage.localStorage({ storage: fake }), budgets: { survey: { epsilon: 2 } } });
  assert.equal((await again.entries('survey')).length, 2);
  await assert.rejects(again.release(s, HIST, { purpose: 'survey' }), /spent epsilon = 2 \(2 releases\)/);
  // Another key is another ledger.
  const other = await ps.ledger({ storage: ps.ledgerStorage.localStorage({ storage: fake, key: 'other' }) });
  assert.deepEqual(await other.entries(), []);
  // Damaged or foreign content: every call throws; clear() resets it deliberately.
  fake.map.set('privsample-ledger', '{"entries": "oops"');
  await assert.rejects(again.spent('survey'), /not a privsample ledger/);
  await assert.rejects(again.release(s, HIST, { purpose: 'survey' }), /not a privsample ledger/);
  fake.map.set('privsample-ledger', JSON.stringify({ format: 'privsample-ledger', version: 1, entries: [{ purpose: 'survey', guarantee: { notion: 'pure-ldp', epsilon: -3 } }] }));
  await assert.rejects(again.spent('survey'), /entries\[0\]\.guarantee\.epsilon = -3/);
  await again.clear();
  assert.equal((await again.spent('survey')).releases, 0);
  // A Storage that refuses to store (quota, private mode): the release throws and its sample is not returned.
  const full = { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); } };
  const failing = await ps.ledger({ storage: ps.ledgerStorage.localStorage({ storage: full }) });
  await assert.rejects(failing.release(s, HIST, { purpose: 'p' }), /QuotaExceededError/);
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
