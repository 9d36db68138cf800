// The deployable client: samplers built once and released, errors that never leak, the CSPRNG captured at init,
// the WebAssembly loaded from any source, CommonJS.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import test from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { init } from '../../bindings/js/privsample.mjs';
import { init as initResearch } from '../../bindings/js/research.mjs';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc');
const ROOT = new URL('../../', import.meta.url);
const internalsOf = (ps) => ps[Symbol.for('privsample.internals')];
const K_RR = [0.404610, 0.148848, 0.148848, 0.148848, 0.148848]; // Q* of a point mass at ε = 1, k = 5

function assertHealthy(ps) {
  const q = ps.sampler('minimax', { epsilon: 1 }).distribution([1, 0, 0, 0, 0]);
  q.forEach((v, i) => assert.ok(Math.abs(v - K_RR[i]) < 1e-6, `q[${i}] = ${v}`));
}

test('a sampler is built once: its methods reuse it, dispose() releases it and later calls say so', async () => {
  const ps = await init();
  const s = ps.sampler('local-linear', { epsilon: 1, prior: [0.2, 0.3, 0.5], gamma: 2 });
  assert.equal(s.disposed, false);
  const q = s.distribution([1, 1, 1]);
  assert.deepEqual(s.distribution([1, 1, 1]), q);
  s.dispose();
  s.dispose(); // idempotent
  assert.equal(s.disposed, true);
  assert.throws(() => s.sample([1, 1, 1]), { name: 'TypeError', message: /'local-linear' sampler was disposed/ });
  // What `using scoped = ps.sampler(…)` calls at the end of its block (the syntax itself needs Node 24).
  const scoped = ps.sampler('minimax', { epsilon: 1 });
  assert.ok(scoped.sample([1, 2]) < 2);
  scoped[Symbol.dispose]();
  assert.equal(scoped.disposed, true, 'Symbol.dispose disposes');
});

test('a sampler keeps the weight it solved for its last k: every call answers as a fresh sampler would, whatever the k', async () => {
  const ps = await init();
  for (const options of [{ mu: 1 }, { mu: 0.05 }, { epsilon: 1, delta: 1e-6 }]) {
    const kept = ps.sampler('linear', options);
    for (const k of [100, 100, 3, 100, 1, 7, 7]) {
      const hist = Array.from({ length: k }, (_, x) => ((7 * x) % 5) + 0.5);
      const fresh = ps.sampler('linear', options);
      const label = `${JSON.stringify(options)} k = ${k}`;
      assert.deepEqual(kept.distribution(hist), fresh.distribution(hist), label);
      assert.deepEqual(kept.sampleMany(hist, 64, { seed: k }), fresh.sampleMany(hist, 64, { seed: k }), label);
      assert.equal(kept.worstCaseRisk('kl', k), fresh.worstCaseRisk('kl', k), label);
      assert.equal(kept.worstCaseRisk('tv', k + 1), fresh.worstCaseRisk('tv', k + 1), label);
      fresh.dispose();
    }
    assert.throws(() => kept.distribution([]), { name: 'RangeError', message: /hist is empty/ });
    kept.dispose();
  }
});

test("an array whose entries run code that calls into the module is still read as the caller's values", async () => {
  // Reading an entry may run the caller's code (a getter, a Proxy) while the entries are copied into the module: here
  // it makes the module's memory grow (writes to a view of the memory taken before would be lost) or copies another
  // histogram into the same sampler. The answer is the array's in both cases, for distribution() and sample().
  const ps = await init();
  const s = ps.sampler('minimax', { epsilon: 10 });
  const want = s.distribution([0, 0, 1]);
  assert.ok(s.distribution([1, 0, 0])[0] > 0.99, 'the last input differs from the one asked about');
  const growing = () => {
    const big = ps.sampler('linear', { epsilon: 1 });
    big.distribution(new Float64Array(1e7).fill(1)); // 160 MB of input and output
    big.dispose();
    return 0;
  };
  const grows = [0, 0, 1];
  Object.defineProperty(grows, 1, { get: growing });
  assert.deepEqual(s.distribution(grows), want, 'the memory grew while the entries were read');
  const reenters = [0, 0, 1];
  Object.defineProperty(reenters, 1, { get: () => (s.distribution([1, 0, 0]), 0) });
  assert.deepEqual(s.distribution(reenters), want, 'the same sampler was called while the entries were read');
  const releases = new Proxy([0, 0, 1], { get: (target, key) => (key === '0' && s.sample([1, 0, 0]), target[key]) });
  const draws = Array.from({ length: 200 }, () => s.sample(releases));
  assert.ok(draws.filter((x) => x === 2).length >= 190, `sample() of a point mass at 2: ${draws.join(' ')}`);
  s.dispose();
});

test('a sampler the module cannot configure is freed: 10^4 refused samplers leave the WASM heap as it was', async () => {
  const ps = await init();
  const internals = internalsOf(ps);
  const prior = new Float64Array(50).fill(1 / 50);
  const refused = () => assert.throws(() => ps.sampler('local', { epsilon: 1, prior, gamma: 0.5 }), RangeError);
  refused();
  const before = internals.heapInUse();
  for (let i = 0; i < 10_000; i += 1) refused();
  assert.equal(internals.heapInUse() - before, 0);
});

test('10^5 samplers made and disposed, then 10^5 dropped: the WASM heap stays bounded', async () => {
  const ps = await init();
  const internals = internalsOf(ps);
  const prior = new Float64Array(50).fill(1 / 50);
  ps.sampler('local', { epsilon: 1, prior, gamma: 2 }).dispose();
  const before = internals.heapInUse();
  for (let i = 0; i < 100_000; i += 1) ps.sampler('local', { epsilon: 1, prior, gamma: 2 }).dispose();
  assert.ok(internals.heapInUse() - before <= 4096, `heap grew by ${internals.heapInUse() - before} bytes with dispose()`);
  for (let i = 0; i < 100_000; i += 1) ps.sampler('local', { epsilon: 1, prior, gamma: 2 });
  const peak = internals.heapInUse() - before;
  for (let round = 0; round < 20 && internals.heapInUse() - before > 65536; round += 1) {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 20)); // FinalizationRegistry callbacks run after a GC
  }
  const after = internals.heapInUse() - before;
  assert.ok(peak > 10_000_000, `the dropped samplers held memory (${peak} bytes): the test measures something`);
  assert.ok(after <= 65536, `heap after collecting 10^5 dropped samplers: +${after} bytes (peak +${peak})`);
});

test('10^6 thrown errors of every kind leave the module healthy, its heap and stack where they were', async () => {
  const ps = await init();
  const research = await initResearch();
  const h = [3, 1, 2];
  const s = ps.sampler('minimax', { epsilon: 1 });
  const grid = research.grid1d({ lo: 0, hi: 1, cells: 3 });
  const continuous = research.continuousSampler('local', { epsilon: 1, prior: [1, 1, 1], gamma: 2 });
  const audited = research.sampler('minimax', { epsilon: 1 });
  const kinds = {
    client: [
      ['histogram', () => s.distribution([1, -2])],
      ['epsilon', () => ps.sampler('minimax', { epsilon: -1 })],
      ['options', () => ps.sampler('local', { epsilon: 1, prior: [0.5, 0.5], gamma: 0.5 })],
      ['seed', () => s.sampleMany(h, 1, { seed: 1.5 })],
      ['count', () => s.sampleMany(h, -1)],
      ['divergence', () => ps.divergence('kl', [1, -1], [1, 1])],
    ],
    research: [
      ['grid', () => research.grid1d({ lo: 1, hi: 0, cells: 3 })],
      ['continuous', () => continuous.distribution([1, Number.NaN, 1])],
      ['accountant', () => research.accountant(audited, { k: 0 })],
      ['lmidp', () => research.lmidp.ldpDeltaFromCapacity(-1, 1)],
    ],
  };
  const perKind = 100_000; // 10 kinds: 10^6 errors in all
  for (const [module, api] of [['client', ps], ['research', research]]) {
    const internals = internalsOf(api);
    for (const [, fail] of kinds[module]) assert.throws(fail, RangeError); // warm up one of each
    const heap = internals.heapInUse();
    const stack = internals.stackPosition();
    for (const [kind, fail] of kinds[module]) {
      let thrown = 0;
      for (let i = 0; i < perKind; i += 1) {
        try {
          fail();
        } catch (error) {
          if (error instanceof RangeError) thrown += 1;
        }
      }
      assert.equal(thrown, perKind, `${module} ${kind}: every call threw a RangeError`);
    }
    assert.equal(internals.stackPosition(), stack, `${module}: the shadow stack did not move`);
    assert.ok(internals.heapInUse() - heap <= 4096, `${module}: heap grew by ${internals.heapInUse() - heap} bytes`);
    assertHealthy(api);
  }
});

test('error messages name the parameter as the caller wrote it, with JS number formatting', async () => {
  const ps = await init();
  const s = ps.sampler('minimax', { epsilon: 1 });
  assert.throws(() => s.distribution([1, undefined]), { name: 'TypeError', message: 'hist[1] is undefined: entries must be numbers' });
  assert.throws(() => s.distribution([1, -2.5e-7]), { name: 'RangeError', message: /^hist\[1\] = -2\.5e-7: / });
  assert.throws(() => ps.sampler('minimax', { epsilon: 1e21 * 3 }),
    { name: 'RangeError', message: /^options\.epsilon = 3e\+21: / });
  assert.throws(() => s.sampleMany([1], 2, { seed: 0.1 }), { name: 'RangeError', message: /^options\.seed = 0\.1: / });
  assert.throws(() => ps.sampler('minimax', { epsilon: Number.NaN }), { message: /^options\.epsilon = NaN: / });
});

// Each variant in a fresh process: init() loads one module per process.
function runModule(source) {
  return execFileSync(process.execPath, ['--input-type=module', '-e', source], { cwd: ROOT, encoding: 'utf8' }).trim();
}

test('the CSPRNG is captured at init: replacing crypto.getRandomValues afterwards changes nothing', () => {
  const out = runModule(`
    import { init } from './bindings/js/privsample.mjs';
    const ps = await init();
    crypto.getRandomValues = (view) => view.fill(0);
    const s = ps.sampler('linear', { epsilon: 0.1 });
    const draws = s.sampleMany(new Float64Array(1000).fill(1), 5000);
    console.log(new Set(draws).size);`);
  assert.ok(Number(out) > 900, `distinct categories after replacing getRandomValues: ${out}`);
});

test('a broken randomness source (all zeros) throws instead of looping or releasing predictable samples', () => {
  const out = runModule(`
    crypto.getRandomValues = (view) => view.fill(0);
    const { init } = await import('./bindings/js/privsample.mjs');
    const ps = await init();
    try { ps.sampler('minimax', { epsilon: 1 }).sample([1, 2, 3]); console.log('no error'); }
    catch (e) { console.log(e.constructor.name + ': ' + e.message); }`);
  assert.match(out, /^Error: the platform CSPRNG returned an all-zero block/);
});

test('init({ wasm }) accepts bytes, a compiled Module, a Response and a URL', () => {
  const wasmPath = new URL('build/wasm/privsample-client.wasm', ROOT);
  const sources = {
    bytes: `readFileSync(${JSON.stringify(wasmPath.pathname)})`,
    module: `await WebAssembly.compile(readFileSync(${JSON.stringify(wasmPath.pathname)}))`,
    response: `new Response(readFileSync(${JSON.stringify(wasmPath.pathname)}), { headers: { 'content-type': 'application/wasm' } })`,
    url: JSON.stringify(wasmPath.href),
  };
  for (const [kind, expression] of Object.entries(sources)) {
    const out = runModule(`
      import { readFileSync } from 'node:fs';
      import { init } from './bindings/js/privsample.mjs';
      const ps = await init({ wasm: ${expression} });
      console.log(ps.sampler('minimax', { epsilon: 1 }).distribution([1, 0, 0, 0, 0])[0].toFixed(6), ps.wasmModule instanceof WebAssembly.Module);`);
    assert.equal(out, '0.404610 true', `init({ wasm: ${kind} })`);
  }
  const bad = runModule(`
    import { init } from './bindings/js/privsample.mjs';
    try { await init({ wasm: 42 }); } catch (e) { console.log(e.constructor.name); }
    try { await init({ wasmUrl: 'x' }); } catch (e) { console.log(e.constructor.name); }
    console.log((await init()).version);`);
  assert.equal(bad, `TypeError\nRangeError\n${JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')).version}`, 'a failed init can be retried');
});

test('the ledger module loads on the first ps.ledger(), from init({ ledgerWasm }) when given; a wrong one rejects ps.ledger() only', () => {
  const ledgerPath = new URL('build/wasm/privsample-ledger.wasm', ROOT).pathname;
  const clientPath = new URL('build/wasm/privsample-client.wasm', ROOT).pathname;
  const use = `
    const s = ps.sampler('minimax', { epsilon: 1 });
    try {
      const ledger = await ps.ledger({ budgets: { p: { epsilon: 1.5 } } });
      await ledger.release(s, [1, 2, 3], { purpose: 'p' });
      console.log('spent', (await ledger.spent('p')).epsilon);
    } catch (e) { console.log(e.constructor.name + ': ' + e.message); }
    console.log(s.distribution([1, 0, 0, 0, 0])[0].toFixed(6));`;
  const given = runModule(`
    import { readFileSync } from 'node:fs';
    import { init } from './bindings/js/privsample.mjs';
    const ps = await init({ ledgerWasm: readFileSync(${JSON.stringify(ledgerPath)}) });${use}`);
  assert.equal(given, 'spent 1\n0.404610');
  const wrong = runModule(`
    import { readFileSync } from 'node:fs';
    import { init } from './bindings/js/privsample.mjs';
    const ps = await init({ ledgerWasm: readFileSync(${JSON.stringify(clientPath)}) });${use}`);
  assert.equal(wrong, "TypeError: privsample: options.ledgerWasm is not the ledger module (build/wasm/privsample-ledger.wasm): it has no ps_ledger_total\n0.404610");
});

test('CommonJS: require() of either entry works here (Node >= 20.19) and the shim explains ESM otherwise', async () => {
  const require = createRequire(import.meta.url);
  const client = require('../../bindings/js/require.cjs');
  assert.equal(typeof client.init, 'function');
  assertHealthy(await client.init());
  const research = require('../../bindings/js/research-require.cjs');
  assert.equal(typeof (await research.init()).accountant, 'function');
  // Where Node cannot require() an ES module, the shim says how to import it, naming the entry.
  const requireEsm = require('../../bindings/js/require-esm.cjs');
  const refused = Object.assign(new Error('require() of ES Module'), { code: 'ERR_REQUIRE_ESM' });
  assert.throws(() => requireEsm(() => { throw refused; }, 'privsample/research'), (error) => {
    assert.match(error.message, /ES module \(ESM only\): use `import \{ init \} from 'privsample\/research'`/);
    assert.equal(error.cause, refused);
    return true;
  });
  const other = new Error('another failure');
  assert.throws(() => requireEsm(() => { throw other; }, 'privsample'), (error) => error === other);
  for (const [file, entry] of [['require.cjs', 'privsample'], ['research-require.cjs', 'privsample/research']]) {
    assert.match(readFileSync(new URL(`bindings/js/${file}`, ROOT), 'utf8'), new RegExp(`, '${entry}'\\);`));
  }
});
