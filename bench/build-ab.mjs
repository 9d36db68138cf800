// Two builds of the client side by side in one process: sample() and distribution() of 'linear', 'minimax' and
// 'mollifier' at k = 10^4 and 10^6, the two builds' calls interleaved (A B, B A, ...), the median time of each and
// the ratio new/old. For the cost of a change to the release path; the old build is another checkout of this
// repository with its WebAssembly built (bash scripts/build-wasm.sh there).
// Run: node bench/build-ab.mjs <old checkout> [<new checkout, default this one>]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [oldRoot, newRoot = new URL('..', import.meta.url).pathname] = process.argv.slice(2);
if (!oldRoot) {
  console.error('usage: node bench/build-ab.mjs <old checkout> [<new checkout>]');
  process.exit(2);
}
const entry = (root) => import(pathToFileURL(resolve(root, 'bindings/js/privsample.mjs')).href);
const builds = [await (await entry(oldRoot)).init(), await (await entry(newRoot)).init()];
const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
const MECHANISMS = [['linear', { epsilon: 1 }], ['minimax', { epsilon: 1 }], ['mollifier', { epsilon: 1 }]];
for (const [mechanism, options] of MECHANISMS) {
  for (const k of [10_000, 1_000_000]) {
    const hist = Float64Array.from({ length: k }, (_, i) => (i * 7919) % 13);
    for (const [call, run] of [['sample', (s) => s.sample(hist)], ['distribution', (s) => s.distribution(hist)]]) {
      const samplers = builds.map((ps) => ps.sampler(mechanism, options));
      const times = [[], []];
      const rounds = k >= 1e6 ? 21 : 201;
      for (let i = 0; i < 3; i += 1) samplers.forEach(run);
      for (let r = 0; r < rounds; r += 1) {
        for (const which of r % 2 ? [0, 1] : [1, 0]) {
          const t0 = process.hrtime.bigint();
          run(samplers[which]);
          times[which].push(Number(process.hrtime.bigint() - t0));
        }
      }
      const [before, after] = times.map(median);
      const micros = (ns) => `${(ns / 1e3).toFixed(1)} µs`;
      console.log(`${mechanism.padEnd(9)} ${call.padEnd(12)} k = ${String(k).padEnd(8)} old ${micros(before)}, ` +
        `new ${micros(after)}, new/old ${(after / before).toFixed(3)}`);
      samplers.forEach((s) => s.dispose());
    }
  }
}
