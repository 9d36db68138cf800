// The frequency oracles through both entries: ps.oracle() encodes in the client entry (CSPRNG), the research entry
// counts and estimates (frequencyCounts, estimateFrequencies, frequencyVariance) and advises (ps.advise). The
// statistics are the core's (tests/native/frequency_oracles_test.cpp, advise_test.cpp); here the glue: types, shapes,
// names in messages, and a round trip whose estimate lands near the truth.
import assert from 'node:assert/strict';
import test from 'node:test';
import { init as initClient } from '../../bindings/js/privsample.mjs';
import { init } from '../../bindings/js/research.mjs';

const client = await initClient();
const ps = await init();

test('the registry lists the oracles; ps.oracle builds each with its guarantee and report kind', () => {
  assert.deepEqual([...client.oracles], ['oue', 'olh', 'hadamard', 'subset-selection']);
  assert.deepEqual([...ps.oracles], [...client.oracles]);
  assert.ok(Object.isFrozen(client.registry.oracles) && client.registry.oracles.every(Object.isFrozen));
  for (const entry of client.registry.oracles) {
    const o = client.oracle(entry.name, { epsilon: 1, categories: 12 });
    assert.deepEqual(o.guarantee, { notion: 'pure-ldp', epsilon: 1 });
    assert.equal(o.categories, 12);
    assert.equal(o.report, entry.report);
    const r = o.encode(11);
    if (o.report === 'hex') assert.match(r, /^[0-9a-f]{4}$/);
    else assert.ok(Number.isSafeInteger(r) && r >= 0);
    o.dispose();
    assert.throws(() => o.encode(0), { name: 'TypeError', message: /disposed/ });
  }
});

test('bad names, options and items are refused with the user parameter named', () => {
  assert.throws(() => client.oracle('grr', { epsilon: 1, categories: 4 }), { name: 'RangeError', message: /oracle = 'grr': unknown frequency oracle/ });
  assert.throws(() => client.oracle('oue', { epsilon: 1 }), { name: 'RangeError', message: /options.categories is required for 'oue'/ });
  assert.throws(() => client.oracle('oue', { epsilon: 1, categories: 1 }), { name: 'RangeError', message: /options.categories = 1/ });
  assert.throws(() => client.oracle('oue', { epsilon: 1, categories: 4, gamma: 2 }), { name: 'RangeError', message: /option 'gamma' is not supported by 'oue'/ });
  assert.throws(() => client.oracle('oue', { epsilon: '1', categories: 4 }), { name: 'TypeError' });
  const o = client.oracle('olh', { epsilon: 1, categories: 4 });
  assert.throws(() => o.encode(4), { name: 'RangeError', message: /^item = 4: must be an integer in \[0, 3\]/ });
  assert.throws(() => o.encode(1.5), { name: 'RangeError', message: /^item = 1.5/ });
  assert.throws(() => o.encode('1'), { name: 'TypeError', message: /item must be a number/ });
  o.dispose();
});

test('reports encoded by the client entry, counted and estimated by the research entry, land near the truth', () => {
  const shares = [0.4, 0.25, 0.15, 0.1, 0.05, 0.05, 0, 0];
  const users = 4000;
  for (const name of ps.oracles) {
    const o = client.oracle(name, { epsilon: 2, categories: shares.length });
    const reports = [];
    shares.forEach((f, v) => {
      for (let u = 0; u < f * users; u += 1) reports.push(o.encode(v));
    });
    const c = ps.frequencyCounts(o, reports);
    assert.equal(c.users, users);
    assert.equal(c.counts.length, name === 'hadamard' ? 16 : shares.length);
    const e = ps.estimateFrequencies(o, c.counts, name === 'hadamard' ? {} : { users: c.users });
    // each result states what its intervals assume and cover (it stated neither: an adversarial review)
    assert.equal(e.confidence, 0.95);
    assert.match(e.assumption, /^N independent users, one report each of the item they hold/);
    assert.match(e.target, /share of the N users/);
    assert.match(e.intervalMethod, /Clopper-Pearson/);
    shares.forEach((f, v) => {
      assert.ok(Math.abs(e.estimate[v] - f) < 6 * e.standardError[v], `${name} item ${v}: ${e.estimate[v]} vs ${f}`);
      assert.ok(e.simultaneousLower[v] <= e.lower[v] && e.lower[v] <= e.upper[v] && e.upper[v] <= e.simultaneousUpper[v]);
      assert.equal(e.variance[v], ps.frequencyVariance(o, Math.min(Math.max(e.estimate[v], 0), 1), users));
    });
    o.dispose();
  }
});

test('no reports count as none for every oracle: [], an empty Float64Array and encodeMany([])', () => {
  for (const name of ps.oracles) {
    const o = ps.oracle(name, { epsilon: 1, categories: 10 });
    const width = ps.frequencyCounts(o, o.encodeMany([3])).counts.length; // Hadamard's 2K report values, else k
    for (const reports of [[], new Float64Array(0), o.encodeMany([])]) {
      const c = ps.frequencyCounts(o, reports);
      assert.equal(c.users, 0, name);
      assert.deepEqual([...c.counts], new Array(width).fill(0), name);
    }
    o.dispose();
  }
});

test('counting and estimating refuse reports and counts of the wrong kind, by name', () => {
  const oue = ps.oracle('oue', { epsilon: 1, categories: 10 });
  assert.throws(() => ps.frequencyCounts(oue, ['ffc1']), { name: 'RangeError', message: /^reports\[0\] = 'ffc1': the last 6 bits/ });
  assert.throws(() => ps.frequencyCounts(oue, [3]), { name: 'TypeError', message: /'oue' report is hex text/ });
  assert.throws(() => ps.frequencyCounts(oue, ['ffc0', 3]), { name: 'TypeError', message: /reports\[1\] must be a string/ });
  assert.throws(() => ps.estimateFrequencies(oue, new Float64Array(10)), { name: 'RangeError', message: /users is required/ });
  assert.throws(() => ps.estimateFrequencies(oue, new Float64Array(9), { users: 3 }), { name: 'TypeError', message: /counts has 9 entries/ });
  assert.throws(() => ps.estimateFrequencies(oue, new Float64Array(10), { users: 3, level: 1 }), { name: 'RangeError', message: /option 'level'/ });
  assert.throws(() => ps.frequencyCounts({}, []), { name: 'TypeError', message: /oracle must be an object returned by ps.oracle/ });
  const hadamard = ps.oracle('hadamard', { epsilon: 1, categories: 10 });
  assert.throws(() => ps.frequencyCounts(hadamard, [32]), { name: 'RangeError', message: /^reports\[0\] = 32: a 'hadamard' report is an integer in \[0, 31\]/ });
});

test('ps.advise: the rule\'s choice, with the reason, report sizes and server operations; k-RR at small k', () => {
  for (const [k, epsilon] of [[2, 4], [10, 1], [1000, 1], [1000, 4]]) {
    const a = ps.advise({ k, epsilon, users: 10000 });
    assert.ok(Object.isFrozen(a) && Object.isFrozen(a.candidates) && a.candidates.every(Object.isFrozen));
    assert.equal(a.tolerance, 1.05);
    const chosen = a.candidates.find((c) => c.mechanism === a.mechanism);
    assert.equal(a.error, chosen.error);
    assert.ok(a.candidates.every((c, i) => i === 0 || a.candidates[i - 1].error <= c.error), 'smallest error first');
    assert.ok(a.error <= a.tolerance * a.candidates[0].error);
    assert.ok(a.candidates.every((c) => Number.isFinite(c.serverOperations) && c.serverOperations >= 10000));
    assert.match(a.reason, new RegExp(`^'${a.mechanism}' has `));
    assert.match(a.reason, /bits; server: /);
  }
  // k = 10^6 at ε = 1: OLH (a 42-bit report, its error within 1% of subset selection's, whose report is 10^6 bits)
  const large = ps.advise({ k: 1e6, epsilon: 1, users: 1e4 });
  assert.equal(large.candidates[0].mechanism, 'subset-selection');
  assert.equal(large.mechanism, 'olh');
  assert.ok(large.error <= 1.01 * large.candidates[0].error);
  assert.equal(large.candidates.find((c) => c.mechanism === 'olh').reportBits, 42);
  assert.match(large.reason, /^'olh' has a predicted total squared error .* times the smallest \('subset-selection' /);
  assert.equal(ps.advise({ k: 2, epsilon: 4, users: 100 }).mechanism, 'linear');
  assert.notEqual(ps.advise({ k: 1000, epsilon: 1, users: 100 }).mechanism, 'linear');
  assert.equal(ps.advise({ k: 10, epsilon: 1, goal: 'sample', divergence: 'tv' }).mechanism, 'minimax');
  assert.throws(() => ps.advise({ k: 10, epsilon: 1, goal: 'median' }), { name: 'RangeError', message: /^options.goal = 'median'/ });
  assert.throws(() => ps.advise({ k: 1, epsilon: 1 }), { name: 'RangeError', message: /^options.k = 1/ });
  assert.throws(() => ps.advise({ k: 10, epsilon: 1, n: 3 }), { name: 'RangeError', message: /option 'n' is not supported by advise/ });
  // Every N up to 2^53 (the estimators' range), in the 32-bit module too; the error scales as 1/N.
  const atUsers = (users) => ps.advise({ k: 1000, epsilon: 1, users });
  for (const users of [5303409, 1e7, 1e9, 2 ** 53]) assert.ok(Math.abs(atUsers(users).error * users / (atUsers(1).error) - 1) < 1e-9, `users = ${users}`);
  for (const users of [0, 1.5, 2 ** 53 + 2, Infinity, NaN]) {
    assert.throws(() => atUsers(users), { name: 'RangeError', message: /^options.users = .*: must be an integer in \[1, 2\^53\]/ }, `users = ${users}`);
  }
});

test('the guides\' rule for shares is the advisor\'s: k-RR while k < 2e^ε + 1, then the rule of 5%', async () => {
  const { readFile } = await import('node:fs/promises');
  for (const file of ['../../README.md', '../../docs/guide/choosing-a-mechanism.md', '../../docs/guide/research.md']) {
    const text = (await readFile(new URL(file, import.meta.url), 'utf8')).replace(/\s+/g, ' ');
    assert.match(text, /k above 2e\^ε \+ 1|k < 2e\^ε \+ 1|k exceeds 2e\^ε \+ 1/, `${file} states the rule`);
    assert.doesNotMatch(text, /3e\^ε \+ 2/, `${file}: k-RR against OUE alone is not the advisor's switch`);
    assert.match(text, /within 5% of the smallest error/, `${file} states the tolerance`);
    assert.match(text, /the smallest report, then the cheapest server/, `${file} states the order`);
    // The guides' thresholds where OLH takes over from subset selection ("OLH from k = 58 at ε = 1").
    for (const [, k, epsilon] of text.matchAll(/OLH from k = (\d+) at ε = (\d+)/g)) {
      const at = (kk) => ps.advise({ k: kk, epsilon: Number(epsilon), users: 1e4 }).mechanism;
      assert.equal(at(Number(k)), 'olh', `${file}: k = ${k}`);
      assert.equal(at(Number(k) - 1), 'subset-selection', `${file}: k = ${k} - 1`);
    }
  }
  // Both sides of the boundary at every ε of a log grid, and N plays no part: k-RR below, subset selection just above
  // (the other oracles are beyond 5% there), and never k-RR above.
  for (let i = -20; i <= 20; i += 1) {
    const epsilon = Number((10 ** (i / 20)).toPrecision(3));
    const boundary = 2 * Math.exp(epsilon) + 1;
    const below = Math.floor(boundary);
    for (const k of [below - 1, below, Math.ceil(boundary), Math.ceil(boundary) + 1, 1000]) {
      if (k < 2) continue;
      for (const users of [100, 1e6]) {
        const advised = ps.advise({ k, epsilon, users }).mechanism;
        const at = `k = ${k}, ε = ${epsilon}, N = ${users}`;
        if (k < boundary) assert.equal(advised, 'linear', at);
        else if (k <= Math.ceil(boundary) + 1) assert.equal(advised, 'subset-selection', at);
        else assert.notEqual(advised, 'linear', at);
      }
    }
  }
  // Large k: OLH's reports of tens of bits at ε from 0.5 to 4, Hadamard response's at ε = 0.1 (both within 1%).
  for (const epsilon of [0.5, 1, 2, 4]) assert.equal(ps.advise({ k: 1e5, epsilon, users: 1e4 }).mechanism, 'olh');
  assert.equal(ps.advise({ k: 1e5, epsilon: 0.1, users: 1e4 }).mechanism, 'hadamard');
});

// encodeMany(items): one call for many reports, each drawn as encode(item) draws it.
test('encodeMany: the form encode() gives, one report per item, and errors naming the parameter', () => {
  for (const name of client.oracles) {
    const o = client.oracle(name, { epsilon: 1, categories: 12 });
    const items = [11, 0, 5, 5, 3];
    for (const given of [items, new Float64Array(items), new Uint32Array(items)]) {
      const reports = o.encodeMany(given);
      assert.equal(reports.length, items.length);
      if (o.report === 'hex') {
        assert.ok(Array.isArray(reports) && reports.every((r) => /^[0-9a-f]{4}$/.test(r)), `${name}: ${reports}`);
      } else {
        assert.ok(reports instanceof Float64Array && reports.every((r) => Number.isSafeInteger(r) && r >= 0));
      }
    }
    assert.equal(o.encodeMany([]).length, 0);
    assert.throws(() => o.encodeMany([1, 12]), { name: 'RangeError', message: /^items\[1\] = 12: must be an integer in \[0, 11\]/ });
    assert.throws(() => o.encodeMany([0, 0, -1]), { name: 'RangeError', message: /^items\[2\] = -1/ });
    assert.throws(() => o.encodeMany([0.5]), { name: 'RangeError', message: /^items\[0\] = 0.5/ });
    assert.throws(() => o.encodeMany([0, NaN]), { name: 'RangeError', message: /^items\[1\] = NaN/ });
    assert.throws(() => o.encodeMany([0, '1']), { name: 'TypeError', message: /^items\[1\] is the string "1"/ });
    assert.throws(() => o.encodeMany(3), { name: 'TypeError', message: /^items must be an array/ });
    o.dispose();
    assert.throws(() => o.encodeMany([0]), { name: 'TypeError', message: /disposed/ });
  }
});

// Unary reports at k = 10^7 are 2.5 million hex characters each: 216 of them exceed the longest string V8 makes
// (2^29 − 24 characters), which the reports once passed through on their way out ("Cannot create a string longer
// than 0x1fffffe8 characters", after the module had drawn every report).
test('encodeMany: reports together longer than the longest JS string come back whole (oue, k = 10^7, 216 items)', () => {
  const k = 10_000_000;
  const o = client.oracle('oue', { epsilon: 1, categories: k });
  const reports = o.encodeMany(new Array(216).fill(7));
  o.dispose();
  assert.equal(reports.length, 216);
  const hex = /^[0-9a-f]+$/;
  for (const [i, r] of reports.entries()) {
    assert.ok(r.length === k / 4 && hex.test(r), `report ${i}: ${r.length} characters`);
    if (i > 0) assert.notEqual(r, reports[i - 1], `reports ${i - 1} and ${i} are the same string`);
  }
});

// Two samples of reports (encode() one by one, encodeMany() at once) of one item: the same law. Where the reports
// take few values (oue, subset selection, hadamard at k = 4) every value's frequency is compared (chi-square
// homogeneity); for olh (a fresh hash seed per report) each item's support frequency, what the server counts.
test('encodeMany: each report is distributed as encode()\'s', () => {
  const n = 20000;
  const chiSquare = (a, b) => {
    let stat = 0;
    for (const key of new Set([...a.keys(), ...b.keys()])) {
      const x = a.get(key) ?? 0;
      const y = b.get(key) ?? 0;
      stat += (x - y) ** 2 / (x + y); // equal sample sizes
    }
    return stat;
  };
  const tally = (reports) => {
    const m = new Map();
    for (const r of reports) m.set(r, (m.get(r) ?? 0) + 1);
    return m;
  };
  for (const name of client.oracles) {
    const o = client.oracle(name, { epsilon: 1, categories: 4 });
    const one = Array.from({ length: n }, () => o.encode(2));
    const many = [...o.encodeMany(new Array(n).fill(2))];
    if (name !== 'olh') {
      const a = tally(one);
      const b = tally(many);
      const df = new Set([...a.keys(), ...b.keys()]).size - 1;
      // the chi-square with df <= 15 degrees of freedom exceeds 3·df + 30 with probability below 1e-6
      assert.ok(df >= 1 && chiSquare(a, b) < 3 * df + 30, `${name}: chi-square ${chiSquare(a, b)} on ${df} df`);
      if (name === 'hadamard') assert.equal(df, 7); // every report value of K = 4 is drawn
    }
    const ca = ps.frequencyCounts(o, one).counts;
    const cb = ps.frequencyCounts(o, many).counts;
    ca.forEach((x, v) => {
      const p = (x + cb[v]) / (2 * n);
      const sd = Math.sqrt((2 * p * (1 - p)) / n) * n;
      assert.ok(Math.abs(x - cb[v]) < 5.5 * sd + 1, `${name} count ${v}: ${x} vs ${cb[v]}`);
    });
    o.dispose();
  }
});

test('encodeMany: reports of many users, counted and estimated, land near the truth', () => {
  const shares = [0.4, 0.25, 0.15, 0.1, 0.05, 0.05, 0, 0];
  const users = 4000;
  const items = [];
  shares.forEach((f, v) => {
    for (let u = 0; u < f * users; u += 1) items.push(v);
  });
  for (const name of ps.oracles) {
    const o = client.oracle(name, { epsilon: 2, categories: shares.length });
    const c = ps.frequencyCounts(o, [...o.encodeMany(items)]);
    assert.equal(c.users, users);
    const e = ps.estimateFrequencies(o, c.counts, name === 'hadamard' ? {} : { users: c.users });
    shares.forEach((f, v) => assert.ok(Math.abs(e.estimate[v] - f) < 6 * e.standardError[v], `${name} item ${v}: ${e.estimate[v]} vs ${f}`));
    o.dispose();
  }
});

// The hex text of a batch (2·report bytes per report) was sized in 32-bit arithmetic: at k = 10^7 a batch of 1,718
// reports wrapped to a 32 KB buffer, which the encoder overran across the heap (a RuntimeError, and every later call
// failed); just below the wrap it failed with a bare "Error: vector". Both are now out of memory, and the module stays
// usable (an adversarial review).
test('encodeMany: a batch whose hex text cannot be held is out of memory, and the module stays usable', () => {
  const outOfMemory = /^out of memory: /;
  const batches = [['oue', 1e7, 1718], ['oue', 1e5, 171_799], ['subset-selection', 1e7, 1718], ['oue', 1e7, 1000]];
  for (const [name, k, n] of batches) {
    const o = client.oracle(name, { epsilon: 1, categories: k });
    const other = client.oracle('oue', { epsilon: 1, categories: 8 });
    assert.throws(() => o.encodeMany(new Float64Array(n)), { name: 'RangeError', message: outOfMemory },
      `${name} k = ${k}, n = ${n}`);
    assert.equal(other.encode(3).length, 2);
    assert.equal(other.encodeMany([1, 2]).length, 2);
    other.dispose();
    o.dispose();
  }
  const s = client.sampler('minimax', { epsilon: 1 });
  assert.equal(s.distribution([1, 0]).length, 2);
  s.dispose();
});
