// The concurrent-ledger test page (tests/e2e/ledger-concurrency.e2e.mjs): loads the client entry as shipped and offers
//   window.race(o)      `o.ledgers` ledgers over one store (o.kind: 'indexedDB' | 'localStorage' | 'memory', named
//                       o.name), each asking o.perLedger releases at ε = o.epsilon for purpose 'p' under the budget
//                       { epsilon: o.budget } at once, from o.startAt (a Date.now() time, so that two tabs start
//                       together), with random yields (seeded by o.seed) around every call of the storage;
//   window.recorded(o)  what a fresh ledger reads of the store: the entries of 'p' and their total ε;
//   window.raw(name)    localStorage's text under `name`.
// A test deletes Navigator.prototype.locks before loading the page to run without Web Locks.
import { init } from '/pkg/build/bundle/privsample.mjs';
import { jitter, jittery, xorshift } from '/pkg/tests/js/ledger-doubles.mjs';

const ps = await init();
const HIST = [5, 3, 1, 1];

const storageOf = (kind, name) =>
  kind === 'indexedDB' ? ps.ledgerStorage.indexedDB({ database: name }) : ps.ledgerStorage.localStorage({ key: name });

async function entriesOf(storage) {
  const entries = await (await ps.ledger({ storage })).entries('p');
  return { recorded: entries.length, epsilon: entries.reduce((sum, e) => sum + e.guarantee.epsilon, 0) };
}

window.race = async ({ kind, name, ledgers, seed, budget = 1, epsilon = 0.25, perLedger = 3, startAt = 0 }) => {
  const random = xorshift(seed);
  const memory = kind === 'memory' ? ps.ledgerStorage.memory() : null;
  const made = [];
  for (let i = 0; i < ledgers; i += 1) {
    const storage = jittery(memory ?? storageOf(kind, name), random);
    made.push(await ps.ledger({ storage, budgets: { p: { epsilon: budget } } }));
  }
  const sampler = ps.sampler('minimax', { epsilon });
  while (Date.now() < startAt) await new Promise((resolve) => setTimeout(resolve, 1));
  const calls = [];
  for (let round = 0; round < perLedger; round += 1) {
    for (const ledger of made) calls.push(jitter(random).then(() => ledger.release(sampler, HIST, { purpose: 'p' })));
  }
  const outcomes = await Promise.allSettled(calls);
  sampler.dispose();
  return {
    locks: typeof navigator.locks?.request === 'function',
    asked: calls.length,
    samples: outcomes.filter((o) => o.status === 'fulfilled').map((o) => o.value),
    errors: outcomes
      .filter((o) => o.status === 'rejected')
      .map((o) => ({ name: o.reason?.name, message: String(o.reason?.message) })),
    ...(memory ? await entriesOf(memory) : {}),
  };
};

window.recorded = ({ kind, name }) => entriesOf(storageOf(kind, name));
window.raw = (name) => localStorage.getItem(name);
document.documentElement.dataset.ready = 'true';
