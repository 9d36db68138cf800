// What an observer who times an oracle's encoder sees of the item: encodeMany() of a batch of one item, for the first,
// a middle and the last item, each against the first item in the same round (the first item a second time is the
// noise floor), the median of those ratios over the rounds, in a shuffled order. Small k is where a report is a few
// bytes and an item-dependent pattern of loads and stores shows most. With a second checkout (its WebAssembly built:
// bash scripts/build-wasm.sh there), both builds are timed, one after the other in each row (old first).
// Run: node bench/oracle-item-timing.mjs [<old checkout>]   (a few minutes)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const roots = [...process.argv.slice(2), new URL('..', import.meta.url).pathname];
const entry = (root) => import(pathToFileURL(resolve(root, 'bindings/js/privsample.mjs')).href);
const builds = [];
for (const root of roots) builds.push(await (await entry(root)).init());
const labels = builds.length === 2 ? ['old', 'new'] : ['this'];

// A fixed linear congruential stream of numbers in [0, 1): the bench's own orders, the same every run.
let state = 2024;
const next = () => {
  state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
  return state / 2 ** 32;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const BATCH = 1000;
const ROUNDS = 201;

function ratios(oracle, k) {
  const items = { 'item 0 again': 0, 'item k/2': k >> 1, 'item k-1': k - 1 };
  const first = new Uint32Array(BATCH);
  const batches = Object.fromEntries(Object.entries(items).map(([n, v]) => [n, new Uint32Array(BATCH).fill(v)]));
  const names = Object.keys(batches);
  const perRound = Object.fromEntries(names.map((n) => [n, []]));
  const time = (batch) => {
    const start = process.hrtime.bigint();
    oracle.encodeMany(batch);
    return Number(process.hrtime.bigint() - start);
  };
  for (let i = 0; i < 5; i += 1) for (const b of [first, ...Object.values(batches)]) time(b);
  for (let r = 0; r < ROUNDS; r += 1) {
    const order = [null, ...names].map((n) => [next(), n]).sort((a, b) => a[0] - b[0]).map(([, n]) => n);
    const t = {};
    for (const n of order) t[n ?? 'first'] = time(n ? batches[n] : first);
    for (const n of names) perRound[n].push(t[n] / t.first);
  }
  return Object.fromEntries(names.map((n) => [n, median(perRound[n])]));
}

console.log(`encodeMany of ${BATCH} reports of one item: median over ${ROUNDS} rounds of t(item)/t(item 0)`);
for (const mechanism of ['subset-selection', 'oue', 'olh', 'hadamard']) {
  for (const k of [16, 64, 1024]) {
    for (const epsilon of [0.1, 1]) {
      const row = builds.map((ps, i) => {
        const oracle = ps.oracle(mechanism, { epsilon, categories: k });
        const found = ratios(oracle, k);
        oracle.dispose?.();
        return `${labels[i]} ` + Object.entries(found).map(([n, r]) => `${n} ${r.toFixed(4)}`).join(', ');
      });
      const setting = `${mechanism.padEnd(16)} k = ${String(k).padEnd(5)} ε = ${String(epsilon).padEnd(4)}`;
      console.log(`${setting} ${row.join(' | ')}`);
    }
  }
}
