// Every bad input of docs/design.md#errors gives a clear JS error (TypeError for a wrong type or shape,
// RangeError for a bad value) whose message names the parameter, and the module keeps working afterwards.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init } from '../../bindings/js/privsample.mjs';
import { init as initResearch } from '../../bindings/js/research.mjs';
import { errorChecker } from './helpers.mjs';

const ps = await init();
const minimax = ps.sampler('minimax', { epsilon: 1 });

function stillWorks() {
  const q = ps.sampler('minimax', { epsilon: 1 }).distribution([1, 0, 0, 0, 0]);
  assert.ok(Math.abs(q[0] - 0.40461) < 1e-5, 'the module still computes after the error');
  assert.ok(Number.isInteger(minimax.sample([1, 2])));
}

const expectError = errorChecker(stillWorks);

const histogramEntryPoints = {
  distribution: (h) => minimax.distribution(h),
  normaliser: (h) => minimax.normaliser(h),
  sample: (h) => minimax.sample(h),
  sampleMany: (h) => minimax.sampleMany(h, 3),
  'linear.distribution': (h) => ps.sampler('linear', { epsilon: 1 }).distribution(h),
  // no normaliser (null for a good histogram), but a bad one is still refused
  'linear.normaliser': (h) => ps.sampler('linear', { epsilon: 1 }).normaliser(h),
  'divergence p': (h) => ps.divergence('kl', h, h),
};

test('bad histograms are rejected by every entry point, naming index and value', () => {
  const tooLarge = new Float64Array(10_000_001);
  tooLarge[0] = 1;
  const bad = [
    { hist: [], type: RangeError, message: /hist is empty|p is empty/ },
    { hist: tooLarge, type: RangeError, message: /10000001 categories: at most 10000000/ },
    { hist: [1, -2, 3], type: RangeError, message: /\[1\] = -2: counts must be finite and >= 0/ },
    { hist: [1, NaN], type: RangeError, message: /\[1\] = NaN/ },
    { hist: [Infinity, 1], type: RangeError, message: /\[0\] = Infinity/ },
    { hist: [1, 2, -Infinity], type: RangeError, message: /\[2\] = -Infinity/ },
    { hist: [0, 0, 0], type: RangeError, message: /all zeros/ },
    { hist: new Float64Array(4), type: RangeError, message: /all zeros/ },
    { hist: [1, 'two', 3], type: TypeError, message: /\[1\] is the string "two": entries must be numbers/ },
    { hist: [1, null], type: TypeError, message: /\[1\] is null/ },
    { hist: [1, undefined], type: TypeError, message: /\[1\] is undefined/ },
    { hist: [1, {}], type: TypeError, message: /\[1\] is an object/ },
    { hist: [1, 2n], type: TypeError, message: /\[1\] is bigint/ },
    { hist: 'abc', type: TypeError, message: /must be an array of numbers or a numeric typed array/ },
    { hist: undefined, type: TypeError, message: /must be an array of numbers/ },
    { hist: { length: 2, 0: 1, 1: 2 }, type: TypeError, message: /must be an array of numbers/ },
    { hist: new BigInt64Array(2), type: TypeError, message: /BigInt64Array/ },
  ];
  for (const [entry, run] of Object.entries(histogramEntryPoints)) {
    for (const { hist, type, message } of bad) {
      if (entry === 'divergence p' && hist === tooLarge) continue; // same check, avoid a second 80 MB copy
      expectError(() => run(hist), type, message);
    }
  }
});

// A typed array whose buffer was transferred reads as empty; copying from it threw the engine's "Cannot perform
// %TypedArray%.prototype.set on a detached ArrayBuffer", which names no argument.
test('a typed array whose buffer was transferred is refused by name, in every entry point that takes one', () => {
  const detached = (View, length) => {
    const view = new View(length).fill(1);
    structuredClone(view.buffer, { transfer: [view.buffer] });
    return view;
  };
  const named = (name) => new RegExp(`^${name} is a typed array whose buffer has been detached`);
  for (const [entry, run] of Object.entries(histogramEntryPoints)) {
    const name = entry === 'divergence p' ? 'p' : 'hist';
    for (const View of [Float64Array, Int32Array]) expectError(() => run(detached(View, 4)), TypeError, named(name));
  }
  expectError(() => minimax.distributionInto(detached(Float64Array, 3), new Float64Array(3)), TypeError, named('hist'));
  expectError(() => minimax.distributionInto([1, 2, 3], detached(Float64Array, 3)), TypeError, named('out'));
  const oracle = ps.oracle('oue', { epsilon: 1, categories: 4 });
  expectError(() => oracle.encodeMany(detached(Float64Array, 2)), TypeError, named('items'));
  oracle.dispose();
  // an empty array that is still attached is the core's empty histogram, as before
  expectError(() => minimax.sample(new Float64Array(0)), RangeError, /hist is empty/);
});

test('bad epsilon is rejected', () => {
  expectError(() => ps.sampler('minimax', { epsilon: -0.5 }), RangeError, /epsilon = -0.5: must be a finite number in \[0, 1000\]/);
  expectError(() => ps.sampler('minimax', { epsilon: NaN }), RangeError, /epsilon = NaN/);
  expectError(() => ps.sampler('linear', { epsilon: Infinity }), RangeError, /epsilon = Infinity/);
  expectError(() => ps.sampler('minimax', { epsilon: 1001 }), RangeError, /epsilon = 1001/);
  expectError(() => ps.sampler('minimax', { epsilon: '1' }), TypeError, /options.epsilon must be a number, got the string "1"/);
  expectError(() => ps.sampler('minimax', {}), RangeError, /options.epsilon is required for 'minimax'/);
  expectError(() => ps.sampler('minimax'), RangeError, /options.epsilon is required for 'minimax'/);
  expectError(() => ps.sampler('minimax', 1), TypeError, /options must be an object/);
});

// An option's bad value is named as the user wrote it, options.<name>, as its bad type and its absence are (the core's
// checks named the bare parameter: "epsilon = -1", beside "options.epsilon must be a number").
test('a bad option value names options.<name>, as a bad type does', () => {
  const prior = [0.5, 0.5];
  for (const [mechanism, options, name] of [
    ['minimax', { epsilon: -1 }, 'epsilon'], ['linear', { epsilon: 1, delta: 1 }, 'delta'],
    ['linear', { mu: -1 }, 'mu'], ['local', { epsilon: 1, prior, gamma: 0.5 }, 'gamma'],
    ['roo', { epsilon: 1, records: 0.5 }, 'records'],
  ]) {
    const named = `^options\\.${name}`;
    expectError(() => ps.sampler(mechanism, options), RangeError, new RegExp(`${named} = ${options[name]}: `));
    expectError(() => ps.sampler(mechanism, { ...options, [name]: 'x' }), TypeError, new RegExp(`${named} must be`));
  }
  expectError(() => ps.oracle('oue', { epsilon: -1, categories: 4 }), RangeError, /^options\.epsilon = -1: /);
  expectError(() => ps.oracle('oue', { epsilon: 1, categories: 1 }), RangeError, /^options\.categories = 1: /);
  // a subnormal μ overflowed the profile's β/μ and was refused as "beta = NaN", a parameter the caller never gave
  for (const mechanism of ['linear', 'local-linear']) {
    const options = mechanism === 'linear' ? { mu: 1e-320 } : { mu: 1e-320, prior, gamma: 2 };
    expectError(() => ps.sampler(mechanism, options), RangeError, /^options\.mu = 1e-320: must be at least 2\.2e-308/);
    ps.sampler(mechanism, { ...options, mu: 2.2250738585072014e-308 }).dispose();
  }
});

// The research entry's options too: a seed and the random mixtures' options were named bare ("seed = 0.5").
test('a bad research option value names options.<name>', async () => {
  const research = await initResearch();
  const s = research.sampler('minimax', { epsilon: 1 });
  expectError(() => research.simulate(s, { population: [1, 1], users: 10, seed: 0.5 }), RangeError,
    /^options\.seed = 0.5: must be an integer/);
  s.dispose();
  for (const [options, name] of [
    [{ seed: 0.5, count: 1 }, 'seed'], [{ seed: 1, count: 0.5 }, 'count'],
    [{ seed: 1, count: 1, poissonMean: -1 }, 'poissonMean'], [{ seed: 1, count: 1, maxComponents: 0 }, 'maxComponents'],
    [{ seed: 1, count: 1, meanRange: -1 }, 'meanRange'],
  ]) {
    const named = new RegExp(`^options\\.${name} = ${options[name]}: `);
    expectError(() => research.seededRandomMixtures(options), RangeError, named);
  }
});

test('unknown mechanism, option or divergence name is rejected', () => {
  expectError(() => ps.sampler('laplace', { epsilon: 1 }), RangeError, /mechanism = 'laplace': unknown mechanism; use one of 'minimax', 'linear'/);
  expectError(() => ps.sampler(3, { epsilon: 1 }), TypeError, /mechanism must be a string/);
  expectError(() => ps.sampler('minimax', { epsilon: 1, prior: [1, 1] }), RangeError, /option 'prior' is not supported by 'minimax'/);
  expectError(() => ps.sampler('linear', { epsilon: 1, gamma: 2 }), RangeError, /option 'gamma' is not supported by 'linear'/);
  expectError(() => ps.sampler('minimax', { epsilon: 1, epsilnn: 2 }), RangeError, /option 'epsilnn' is unknown \(known options: epsilon, delta, mu, gamma, records, c1, c2, categories, prior, reference, outsideNeighbourhood\)/);
  expectError(() => ps.sampler('minimax', { epsilon: 1, reference: 'uniform' }), TypeError, /options.reference must be an array of numbers/);
  expectError(() => minimax.worstCaseRisk('kullback', 3), RangeError, /f = 'kullback': unknown divergence/);
  expectError(() => minimax.worstCaseRisk(1, 3), TypeError, /f must be a string/);
  expectError(() => ps.divergence('js', [1], [1]), RangeError, /f = 'js': unknown divergence/);
});

test('bad category counts for worstCaseRisk are rejected', () => {
  expectError(() => minimax.worstCaseRisk('kl', 0), RangeError, /k = 0: must be an integer in \[1, 10000000\]/);
  expectError(() => minimax.worstCaseRisk('kl', 2.5), RangeError, /k = 2.5/);
  expectError(() => minimax.worstCaseRisk('kl', 1e8), RangeError, /k = 100000000/);
  expectError(() => minimax.worstCaseRisk('kl', '3'), TypeError, /k must be a number/);
});

test('bad sample counts and seeds are rejected', () => {
  expectError(() => minimax.sampleMany([1, 2], -1), RangeError, /n = -1: must be an integer in \[0, 10000000\]/);
  expectError(() => minimax.sampleMany([1, 2], 2.5), RangeError, /n = 2.5/);
  expectError(() => minimax.sampleMany([1, 2], NaN), RangeError, /n = NaN/);
  expectError(() => minimax.sampleMany([1, 2], 1e8), RangeError, /n = 100000000/);
  expectError(() => minimax.sampleMany([1, 2], '10'), TypeError, /n must be a number/);
  expectError(() => minimax.sampleMany([1, 2], 3, { seed: -1 }), RangeError, /^options\.seed = -1: must be an integer/);
  expectError(() => minimax.sampleMany([1, 2], 3, { seed: 1.5 }), RangeError, /^options\.seed = 1.5: /);
  expectError(() => minimax.sampleMany([1, 2], 3, { seed: 2 ** 53 }), RangeError, /^options\.seed = 9007199254740992: /);
  expectError(() => minimax.sampleMany([1, 2], 3, { seed: '7' }), TypeError, /options.seed must be a number/);
  expectError(() => minimax.sampleMany([1, 2], 3, { sead: 7 }), RangeError, /option 'sead' is not supported by sampleMany/);
});

test('divergence of different lengths is a shape error', () => {
  expectError(() => ps.divergence('kl', [1, 2], [1, 2, 3]), TypeError, /p has 2 entries but q has 3/);
});

test('the sampler objects are immutable', () => {
  assert.throws(() => {
    'use strict';
    minimax.guarantee.epsilon = 100;
  }, TypeError);
  assert.equal(minimax.guarantee.epsilon, 1);
});

test('shape mismatches throw TypeError, as the README says; bad values RangeError', async () => {
  const { init: initResearch } = await import('../../bindings/js/research.mjs');
  const ps = await initResearch();
  const local = ps.sampler('local', { epsilon: 1, prior: [0.5, 0.5], gamma: 2 });
  const localLinear = ps.sampler('local-linear', { epsilon: 1, prior: [0.2, 0.3, 0.5], gamma: 2 });
  const mollifier = ps.sampler('mollifier', { epsilon: 1, reference: [0.25, 0.25, 0.5] });
  const line = ps.grid1d({ lo: 0, hi: 1, cells: 4 });
  const continuous = ps.continuousSampler('local', { epsilon: 1, prior: [1, 1, 1, 1], gamma: 2 });
  const shapes = {
    'prior vs histogram (local)': () => local.distribution([1, 2, 3]),
    'prior vs histogram (local-linear)': () => localLinear.sample([1, 2]),
    'reference vs histogram (mollifier)': () => mollifier.distribution([1, 2]),
    'worstCaseRisk k vs prior': () => local.worstCaseRisk('kl', 3),
    'divergence p vs q': () => ps.divergence('kl', [1, 2], [1, 2, 3]),
    'density vs prior cells': () => continuous.distribution([1, 1, 1]),
    'grid vs prior cells': () => continuous.samplePoint(ps.grid1d({ lo: 0, hi: 1, cells: 5 }), [1, 1, 1, 1, 1]),
    'mixture weights vs means': () => ps.densities.gaussianMixture(line, { means: [0, 1], weights: [1], sigma: 1 }),
    'accountant inputs of different lengths': () => ps.accountant(ps.sampler('minimax', { epsilon: 1 }), { inputs: [[1, 0], [0, 1, 0]] }),
    'accountant prior vs inputs': () => ps.accountant(ps.sampler('minimax', { epsilon: 1 }), { inputs: [[1, 0], [0, 1]], prior: [1] }),
  };
  for (const [what, call] of Object.entries(shapes)) {
    assert.throws(call, (error) => error instanceof TypeError && /has|but/.test(error.message), what);
  }
  assert.throws(() => local.distribution([1, -1]), RangeError);
  assert.throws(() => ps.sampler('local', { epsilon: 1, prior: [0.5, 0.5], gamma: 1 }), RangeError);
});

test('priors and references whose box floor would fall below 2^-960 are refused with what works', async () => {
  const ps = await init();
  assert.throws(() => ps.sampler('local', { epsilon: 100, prior: [1e-300, 1 - 1e-300], gamma: 2 }), {
    name: 'RangeError',
    message: /^prior\[0\] = 1e-300 \(as a share of the total\): at epsilon = 100 .* is below 2\^-960 .* entries of prior must be at least 9\.19\d*e-247 of the total at this epsilon/,
  });
  assert.throws(() => ps.sampler('local', { epsilon: 50, prior: [1e-300, 1 - 1e-300], gamma: 2 }), /prior\[0\] = 1e-300/);
  // refused when the sampler is built (it used to be accepted, then refused on every call), with the same message
  assert.throws(() => ps.sampler('mollifier', { epsilon: 300, reference: [1e-300, 1] }), {
    name: 'RangeError',
    message: /^reference\[0\] = 1e-300 \(as a share of the total\): at epsilon = 300 .* entries of reference must be at least .* of the total at this epsilon/,
  });
  // counts: the message names the entry's share, which is what must be raised
  assert.throws(() => ps.sampler('mollifier', { epsilon: 1, reference: [2e-305, 2] }), {
    message: /^reference\[0\] = 1e-305 \(as a share of the total\): /,
  });
  assert.throws(() => ps.sampler('mollifier', { epsilon: 1000, reference: [1e-300, 1] }), /at epsilon = 1000 /);
  // floors near the least normal double have subnormal rounding errors, whose time follows the data on some processors
  assert.throws(() => ps.sampler('mollifier', { epsilon: 1, reference: [1e-305, 1] }), /is below 2\^-960/);
  assert.throws(() => ps.sampler('local', { epsilon: 18, prior: [1e-300, 1 - 1e-300], gamma: 2 }), /is below 2\^-960/);
  const fine = ps.sampler('local', { epsilon: 18, prior: [1e-280, 1 - 1e-280], gamma: 2 });
  const a = fine.distribution([1, 0]);
  const b = fine.distribution([0, 1]);
  for (let x = 0; x < 2; x += 1) assert.ok(a[x] > 0 && b[x] > 0 && a[x] / b[x] <= Math.exp(18) * (1 + 1e-12) && b[x] / a[x] <= Math.exp(18) * (1 + 1e-12));
});
