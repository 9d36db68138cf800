// The frequency oracles' client encoders (ps.oracle(…).encode and encodeMany, WebAssembly, CSPRNG) against careful
// hand-written JS encoders drawing from the same CSPRNG (crypto.getRandomValues in 64 KiB blocks, as the module's own
// buffer), in the same run: rounds alternate which goes first; the median per report of each, and their ratio. Both
// produce the report as it travels (hex text, or a number). Single: one call per report; batch: encodeMany(items)
// against the hand encoder's loop over the same items into an array (a Float64Array for integer reports). Subset
// selection has no hand-written twin here.
// Run: node bench/oracle-encode.mjs   (after scripts/build-wasm.sh)
import { init } from '../bindings/js/privsample.mjs';

const ps = await init();
const EPSILON = 1;
const ROUNDS = 15;

// The CSPRNG in 64 KiB blocks (the most crypto.getRandomValues fills at once).
const block = new Uint32Array(16384);
let at = block.length;
const word = () => {
  if (at === block.length) {
    crypto.getRandomValues(block);
    at = 0;
  }
  return block[at++];
};
// Uniform below n (n <= 2^32) by rejection on 32-bit words.
const below = (n) => {
  const limit = 2 ** 32 - (2 ** 32 % n);
  for (;;) {
    const w = word();
    if (w < limit) return w % n;
  }
};
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function oueJs(k, epsilon) {
  const q = Math.ceil(2 ** 32 / (Math.exp(epsilon) + 1));
  const bytes = new Uint8Array(Math.ceil(k / 8));
  return (item) => {
    bytes.fill(0);
    for (let i = 0; i < k; i += 1) if (word() < (i === item ? 2 ** 31 : q)) bytes[i >> 3] |= 0x80 >> (i & 7);
    let out = '';
    for (const b of bytes) out += HEX[b];
    return out;
  };
}

function hadamardJs(k, epsilon) {
  let order = 1;
  while (order < k) order *= 2;
  const flip = Math.ceil(2 ** 32 / (Math.exp(epsilon) + 1));
  const parity = (x) => {
    let p = 0;
    for (let y = x; y; y &= y - 1) p ^= 1;
    return p;
  };
  return (item) => {
    const j = word() & (order - 1);
    return 2 * j + (parity(j & item) ^ (word() < flip ? 1 : 0));
  };
}

function olhJs(k, epsilon) {
  const isPrime = (n) => {
    if (n % 2 === 0) return n === 2;
    for (let d = 3; d * d <= n; d += 2) if (n % d === 0) return false;
    return true;
  };
  const g = Math.max(2, Math.round(Math.exp(epsilon) + 1));
  let p = Math.max(k, 16 * g);
  while (!isPrime(p)) p += 1;
  const keep = Math.exp(epsilon) / (Math.exp(epsilon) + g - 1);
  const keepWord = Math.floor(keep * 2 ** 32);
  return (item) => {
    // a seed uniform below P² from 53 random bits (P² < 2^52 here), by rejection
    const seeds = p * p;
    const limit = Math.floor(2 ** 53 / seeds) * seeds;
    let s;
    do s = (word() >>> 11) * 2 ** 32 + word(); while (s >= limit);
    s %= seeds;
    const a = Math.floor(s / p);
    const b = s - a * p;
    const hashed = ((a * item + b) % p) % g;
    const other = below(g - 1);
    const value = word() < keepWord ? hashed : other + (other >= hashed ? 1 : 0);
    return s * g + value;
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

function time(encode, items) {
  const start = performance.now();
  let sink = 0;
  for (const item of items) {
    const r = encode(item);
    sink += typeof r === 'string' ? r.length : r;
  }
  const ns = ((performance.now() - start) * 1e6) / items.length;
  if (sink === -1) console.log(sink);
  return ns;
}

function timeBatch(encodeMany, items) {
  const start = performance.now();
  const reports = encodeMany(items);
  const ns = ((performance.now() - start) * 1e6) / items.length;
  if (reports.length !== items.length) throw new Error('a report per item');
  return ns;
}

const rows = [];
for (const [name, makeJs] of [['oue', oueJs], ['olh', olhJs], ['hadamard', hadamardJs]]) {
  for (const k of [10, 1000, 100_000]) {
    const oracle = ps.oracle(name, { epsilon: EPSILON, categories: k });
    const js = makeJs(k, EPSILON);
    const jsMany = (items) => {
      const out = name === 'oue' ? new Array(items.length) : new Float64Array(items.length);
      for (let i = 0; i < items.length; i += 1) out[i] = js(items[i]);
      return out;
    };
    const reports = name === 'oue' ? Math.max(20, Math.floor(2e6 / k)) : 200_000;
    const items = Array.from({ length: reports }, (_, i) => (i * 7919) % k);
    const runs = [
      () => time((v) => oracle.encode(v), items),
      () => time(js, items),
      () => timeBatch((v) => oracle.encodeMany(v), items),
      () => timeBatch(jsMany, items),
    ];
    const times = runs.map(() => []);
    for (const run of runs) run(); // warm-up
    for (let r = 0; r < ROUNDS; r += 1) {
      const order = r % 2 === 0 ? [0, 1, 2, 3] : [3, 2, 1, 0];
      for (const i of order) times[i].push(runs[i]());
    }
    rows.push([name, k, ...times.map(median)]);
    oracle.dispose();
  }
}
console.log(`encode reports, epsilon = ${EPSILON}; median of ${ROUNDS} interleaved rounds; ns per report`);
console.log('oracle      k        single: wasm   JS   wasm/JS    batch: wasm   JS   wasm/JS');
for (const [name, k, w, h, wm, hm] of rows) {
  const cell = (a, b) => `${a.toFixed(0).padStart(9)} ${b.toFixed(0).padStart(6)} ${(a / b).toFixed(2).padStart(8)}`;
  console.log(`${name.padEnd(12)}${String(k).padEnd(9)}${cell(w, h)}      ${cell(wm, hm)}`);
}
