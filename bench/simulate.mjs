// ps.simulate through the research entry, what a user calls: N = 10^6 point-mass users, uniform population over k
// items, for every finite mechanism at k = 10^4 and 10^5 (or the k given: node bench/simulate.mjs [k ...]), against
// the loop a user would otherwise write in the same run: sampler.sample(point mass) for every user (timed on a few
// users, scaled to N). Prints median wall times; `simulate` with a seed (xoshiro256**) and without (the CSPRNG).
import { init } from '../bindings/js/research.mjs';

const ps = await init();
const ks = process.argv.slice(2).map(Number);
if (ks.length === 0) ks.push(1e4, 1e5);
const USERS = 1e6;
const median = (x) => x.slice().sort((a, b) => a - b)[x.length >> 1];
const time = (f, runs = 3) => {
  const t = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    f();
    t.push(performance.now() - t0);
  }
  return median(t);
};

const cases = (k) => {
  const prior = Array.from({ length: k }, (_, x) => 1 + ((3 * x) % 5));
  return [
    ['minimax', { epsilon: 1 }],
    ['linear', { epsilon: 1 }],
    ['linear (delta)', { epsilon: 1, delta: 1e-3 }],
    ['linear (mu)', { mu: 1 }],
    ['mollifier', { epsilon: 1 }],
    ['mollifier (reference)', { epsilon: 1, reference: prior }],
    ['local', { epsilon: 1, prior, gamma: 3 }],
    ['local-linear', { epsilon: 1, prior, gamma: 3 }],
    ['local-linear (delta)', { epsilon: 1, delta: 1e-3, prior, gamma: 3 }],
    ['roo', { epsilon: 1, records: 40 }],
    ['ds-roo', { epsilon: 1, records: 40 }],
    ['laplace-projection', { epsilon: 1, records: 40 }],
  ];
};

console.log(`N = ${USERS} point-mass users, uniform population; median wall times in ms (Node ${process.version})`);
console.log(['mechanism'.padEnd(24), 'k'.padStart(7), 'seeded'.padStart(9), 'CSPRNG'.padStart(9),
  'per-user sample'.padStart(16), 'ratio'.padStart(9)].join(' '));
for (const k of ks) {
  const population = new Float64Array(k).fill(1);
  for (const [label, options] of cases(k)) {
    const s = ps.sampler(label.split(' ')[0], options);
    const seeded = time(() => ps.simulate(s, { population, users: USERS, seed: 1 }));
    const csprng = time(() => ps.simulate(s, { population, users: USERS }));
    const mass = options.records ?? 1;
    const hist = new Float64Array(k);
    let calls = 0;
    const user = () => {
      const x = (calls++ * 7919) % k;
      hist[x] = mass;
      s.sample(hist);
      hist[x] = 0;
    };
    const t0 = performance.now();
    user();
    const users = Math.max(10, Math.min(USERS, Math.round(200 / Math.max(performance.now() - t0, 1e-3))));
    const perUser = time(() => { for (let i = 0; i < users; i++) user(); }) * USERS / users;
    console.log([label.padEnd(24), String(k).padStart(7), seeded.toFixed(1).padStart(9), csprng.toFixed(1).padStart(9),
      perUser.toFixed(0).padStart(16), (perUser / seeded).toFixed(0).padStart(9)].join(' '));
    s.dispose?.();
  }
}
