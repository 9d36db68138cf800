// Out of memory in either entry: samplers made and never disposed until the module's heap (2 GiB, its
// MAXIMUM_MEMORY) is full, down to its last bytes, then calls that need large buffers. Every failure must be a
// RangeError saying that memory is exhausted and what to do, the module must stay usable, and once the samplers are
// disposed the same calls must work again. Each entry runs in a child process of its own: a module's memory never
// shrinks, so two full modules in one process would hold 4 GiB. Each child peaks near 2 GiB of memory.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import test from 'node:test';

const OUT_OF_MEMORY = 'out of memory: dispose() the samplers and oracles not in use, or use a smaller k or n';

const program = (entry) => `
const ps = await (await import(${JSON.stringify(entry)})).init();
const internals = ps[Symbol.for('privsample.internals')];
const expected = Array.from(ps.sampler('minimax', { epsilon: 1 }).distribution([1, 0, 0]));
const stack = internals.stackPosition();
const heap = internals.heapInUse();
const held = [];
const errors = [];
const fail = (error) => errors.push({ name: error?.constructor?.name, message: String(error?.message ?? error) });
// Bare samplers made first, for the last bytes below.
const pool = Array.from({ length: 2000 }, () => ps.sampler('linear', { epsilon: 1, delta: 1e-6 }));
held.push(...pool);
// Samplers holding inputs of k doubles each ('linear': normaliser() copies the input in and checks it in one pass),
// made until one fails, k falling so that the heap fills down to less than a sampler.
for (const k of [4_000_000, 100_000, 2_000, 50, 1]) {
  const hist = new Float64Array(k).fill(1);
  for (let made = 0; made < 1_000_000; made += 1) {
    try {
      const s = ps.sampler('linear', { epsilon: 1, delta: 1e-6 });
      held.push(s);
      s.normaliser(hist);
    } catch (error) {
      fail(error);
      break;
    }
  }
}
// The last bytes: each pooled sampler takes an input of one category (a few bytes), every one, failures or not.
const bottom = [];
for (const s of pool) {
  try {
    s.normaliser([1]);
  } catch (error) {
    bottom.push({ name: error?.constructor?.name, message: String(error?.message ?? error) });
  }
}
// Calls that need large buffers while the heap is full: an input of 10^7 categories, 10^7 draws.
const huge = new Float64Array(10_000_000).fill(1);
const calls = {
  distribution: (s) => s.distribution(huge).length,  // 'linear': its input and output, 160 MB
  sampleMany: (s) => s.sampleMany([1, 2, 3], 10_000_000).length,
};
// The research entry: a function whose text argument ('closed-form-printed') needs heap memory of its own.
if (ps.collection) {
  const options = { epsilon0: 1, users: 1000, delta: 1e-6, method: 'closed-form-printed' };
  calls.shuffle = () => ps.collection.shuffle(options).method;
}
const full = {};
for (const [name, call] of Object.entries(calls)) {
  try {
    full[name] = call(held[0]);
  } catch (error) {
    fail(error);
    full[name] = 'error';
  }
}
const stackWhenFull = internals.stackPosition();
for (const s of held) s.dispose();
const after = {};
for (const [name, call] of Object.entries(calls)) {
  const s = ps.sampler('linear', { epsilon: 1, delta: 1e-6 });
  after[name] = call(s);
  s.dispose();
}
console.log(JSON.stringify({
  expected, errors, bottom, full, after, samplers: held.length, stack, stackWhenFull,
  heapBefore: heap, heapAfter: internals.heapInUse(),
  again: Array.from(ps.sampler('minimax', { epsilon: 1 }).distribution([1, 0, 0])),
}));
`;

for (const entry of ['privsample', 'privsample/research']) {
  test(`${entry}: a full heap throws RangeErrors about memory, and the module works once samplers are disposed`, () => {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', program(entry)], {
      cwd: new URL('../../', import.meta.url),
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(child.status, 0, `the child failed:\n${child.stderr}`);
    const r = JSON.parse(child.stdout.trim().split('\n').at(-1));
    // 5 phases of samplers and the calls on a full heap, each ended by one error; at the bottom, most calls fail
    const research = entry === 'privsample/research';
    assert.equal(r.errors.length, research ? 8 : 7, JSON.stringify(r.errors));
    assert.ok(r.bottom.length >= 1000, `${r.bottom.length} calls failed: the heap was full to its last bytes`);
    for (const e of [...r.errors, ...r.bottom]) {
      assert.equal(e.name, 'RangeError', e.message);
      assert.equal(e.message, OUT_OF_MEMORY);
    }
    assert.ok(r.samplers > 60, `${r.samplers} samplers filled the heap`);
    const full = { distribution: 'error', sampleMany: 'error', ...(research && { shuffle: 'error' }) };
    assert.deepEqual(r.full, full);
    assert.equal(r.stackWhenFull, r.stack, 'the shadow stack is where it was');
    const shuffled = research && { shuffle: 'closed-form-printed' };
    assert.deepEqual(r.after, { distribution: 10_000_000, sampleMany: 10_000_000, ...shuffled });
    assert.deepEqual(r.again, r.expected);
    // what stays: the CSPRNG's block of 65,536 bytes, made on sampleMany's first use
    const kept = r.heapAfter - r.heapBefore;
    assert.ok(kept <= 65536 + 1024, `heap after disposing: +${kept} bytes`);
  });
}
