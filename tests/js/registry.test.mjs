// The registry exported by the core is the one source of names and option rules: the wrapper converts option
// types by it, both entries list their mechanisms from it, and the .d.ts option types must say the same.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { init as initClient } from '../../bindings/js/privsample.mjs';
import { init } from '../../bindings/js/research.mjs';

const ps = await init();
const client = await initClient();

test('both entries export the same frozen registry, and list their mechanisms from it', () => {
  assert.deepEqual(client.registry, ps.registry);
  for (const r of [ps.registry, client.registry]) {
    assert.ok(Object.isFrozen(r) && Object.isFrozen(r.mechanisms) && Object.isFrozen(r.options));
    assert.ok(r.mechanisms.every((m) => Object.isFrozen(m) && Object.isFrozen(m.required)));
    // Frozen all the way down, a text option's list of values included: nothing in ps.registry can be changed.
    const unfrozen = (value, path) => (typeof value !== 'object' || value === null ? [] : [
      ...(Object.isFrozen(value) ? [] : [path]),
      ...Object.entries(value).flatMap(([key, inner]) => unfrozen(inner, `${path}.${key}`)),
    ]);
    assert.deepEqual(unfrozen(r, 'registry'), []);
  }
  const names = (space) => ps.registry.mechanisms.filter((m) => m.space === space).map((m) => m.name);
  assert.deepEqual([...ps.mechanisms], names('finite'));
  assert.deepEqual([...client.mechanisms], names('finite'));
  assert.deepEqual([...ps.continuousMechanisms], names('continuous'));
  assert.deepEqual(names('finite'), ['minimax', 'linear', 'mollifier', 'local', 'local-linear', 'roo', 'ds-roo', 'laplace-projection']);
  assert.deepEqual(ps.registry.options.map((o) => o.name),
    ['epsilon', 'delta', 'mu', 'gamma', 'records', 'c1', 'c2', 'categories', 'prior', 'reference', 'outsideNeighbourhood']);
  assert.deepEqual(ps.registry.options.map((o) => o.kind), [...Array(8).fill('number'), 'numbers', 'numbers', 'text']);
});

// A valid value of every option (probabilities for the arrays: the continuous class needs c1·Σh < 1).
const VALUES = {
  epsilon: 1, delta: 1e-3, mu: 1, gamma: 2, records: 4, c1: 0.25, c2: 3, categories: 5, prior: [0.5, 0.25, 0.25], reference: [0.5, 0.25, 0.25],
  outsideNeighbourhood: 'clip',
};

function optionsOf(m) {
  const o = {};
  for (const key of [...m.required, ...m.optional]) {
    if (key === 'notion') o.epsilon = VALUES.epsilon;
    else o[key] = VALUES[key];
  }
  return o;
}

const make = (m, o) => (m.space === 'finite' ? ps.sampler(m.name, o) : ps.continuousSampler(m.name, o));

test('every registry mechanism builds from its rules, and the core names each missing or unsupported option', () => {
  for (const m of ps.registry.mechanisms) {
    const o = optionsOf(m);
    assert.equal(make(m, o).mechanism, m.name);
    for (const key of m.required) {
      const missing = { ...o };
      if (key === 'notion') delete missing.epsilon;
      else delete missing[key];
      const option = key === 'notion' ? 'epsilon' : key;
      assert.throws(() => make(m, missing), (e) => e instanceof RangeError && e.message.includes(`options.${option} is required for '${m.name}'`), `${m.space} ${m.name} ${key}`);
    }
    for (const { name } of ps.registry.options) {
      const used = m.required.includes(name) || m.optional.includes(name) || name === 'epsilon' ||
        (m.notion === 'ldp-from-options' && ['delta', 'mu'].includes(name));
      if (used) continue;
      assert.throws(() => make(m, { ...o, [name]: VALUES[name] }),
        (e) => e instanceof RangeError && e.message.includes(`option '${name}' is not supported by '${m.name}'`), `${m.space} ${m.name} ${name}`);
    }
  }
  assert.throws(() => ps.sampler('minimax', { epsilon: 1, sigma: 2 }),
    /option 'sigma' is unknown \(known options: epsilon, delta, mu, gamma, records, c1, c2, categories, prior, reference, outsideNeighbourhood\)/);
  assert.throws(() => ps.continuousSampler('minimax', { epsilon: 1, c2: '3', reference: [1] }), (e) => e instanceof TypeError && /options.c2 must be a number/.test(e.message));
});

// The option names a .d.ts `OptionsByMechanism`-style interface gives each mechanism: {required, optional}.
function declaredOptions(file, interfaceName) {
  const source = readFileSync(new URL(`../../bindings/js/${file}`, import.meta.url), 'utf8');
  const expand = (fragment) => {
    const out = { required: [], optional: [] };
    if (/LinearNotionOptions/.test(fragment)) out.required.push('notion');
    for (const name of ['ContinuousClassOptions', 'ContinuousLocalOptions']) {
      if (!fragment.includes(name)) continue;
      const body = source.match(new RegExp(`interface ${name} \\{([\\s\\S]*?)\\n\\}`))[1];
      for (const [, key, optional] of body.matchAll(/^\s*(\w+)(\?)?:/gm)) out[optional ? 'optional' : 'required'].push(key);
    }
    const inline = fragment.match(/\{([^{}]*)\}/);
    if (inline) for (const [, key, optional] of inline[1].matchAll(/(\w+)(\?)?:/g)) out[optional ? 'optional' : 'required'].push(key);
    return out;
  };
  const body = source.match(new RegExp(`interface ${interfaceName} \\{([\\s\\S]*?)\\n\\}`))[1];
  const declared = {};
  for (const [, name, fragment] of body.matchAll(/^\s*'?([\w-]+)'?: (.*);$/gm)) declared[name] = expand(fragment);
  return declared;
}

test('the .d.ts option types of every mechanism say what the registry says', () => {
  for (const [file, interfaceName, space] of [['privsample.d.ts', 'OptionsByMechanism', 'finite'], ['research.d.ts', 'ContinuousOptionsByMechanism', 'continuous']]) {
    const declared = declaredOptions(file, interfaceName);
    const mechanisms = ps.registry.mechanisms.filter((m) => m.space === space);
    assert.deepEqual(Object.keys(declared).sort(), mechanisms.map((m) => m.name).sort(), `${file} ${interfaceName}`);
    for (const m of mechanisms) {
      assert.deepEqual(declared[m.name].required.sort(), [...m.required].sort(), `${file}: required options of '${m.name}'`);
      assert.deepEqual(declared[m.name].optional.sort(), [...m.optional].sort(), `${file}: optional options of '${m.name}'`);
    }
  }
});

test('every mechanism has a label and a plain line; a spec without them falls back to its name and summary', () => {
  for (const m of ps.registry.mechanisms) {
    assert.equal(typeof m.label, 'string');
    assert.ok(m.label.length > 0 && m.plain.length > 0, `${m.space} '${m.name}'`);
  }
  // Every finite mechanism states its own (the demo's picker shows them).
  for (const m of ps.registry.mechanisms.filter((x) => x.space === 'finite')) {
    assert.notEqual(m.plain, m.summary, `'${m.name}' has no plain line of its own`);
  }
  const minimax = ps.registry.mechanisms.find((m) => m.space === 'finite' && m.name === 'minimax');
  assert.equal(minimax.label, 'the minimax sampler');
  assert.match(minimax.plain, /^Minimax-optimal clip sampler \(Park, Asoodeh, Lee\): scales P and clips it/);
  const onCells = ps.registry.mechanisms.find((m) => m.space === 'continuous' && m.name === 'minimax');
  assert.equal(onCells.label, 'minimax');
  assert.equal(onCells.plain, onCells.summary);
});

test('exactDistribution: false exactly where the law sample() draws from is not known (releasedLaw answers null)', () => {
  const finite = ps.registry.mechanisms.filter((m) => m.space === 'finite');
  for (const m of finite) {
    assert.equal(typeof m.exactDistribution, 'boolean', m.name);
    const law = ps.releasedLaw(ps.sampler(m.name, optionsOf(m)), [2, 1, 1]);
    assert.equal(m.exactDistribution, law !== null, `'${m.name}': exactDistribution ${m.exactDistribution}, releasedLaw ${law}`);
  }
  assert.deepEqual(finite.filter((m) => !m.exactDistribution).map((m) => m.name), ['laplace-projection']);
  assert.ok(ps.registry.mechanisms.filter((m) => m.space === 'continuous').every((m) => m.exactDistribution));
});

// What docs/draw-policy.md says of distribution() against the released law: the last bits, except categories with
// small prior shares, which the plan's public base counts in units of 2^-52 of the total (an adversarial review found
// the docs claimed "the last bits, and only there").
test('releasedLaw: within the stated bounds of distribution(), small prior shares counted in units of 2^-52', () => {
  const tiny = ps.sampler('local-linear', { epsilon: 1, gamma: 2, prior: [0.5, 0.5, 2.1e-289] });
  const q = tiny.distribution([1, 0, 0]);
  const law = ps.releasedLaw(tiny, [1, 0, 0]);
  assert.ok(q[2] < 1e-288 && law[2] > 2 ** -52 * 0.5 && law[2] < 2 ** -52, `${q[2]} released as ${law[2]}`);
  tiny.dispose();
  const shares = Array.from({ length: 30 }, (_, i) => 2 ** -i);
  const point = Float64Array.from({ length: 30 }, (_, i) => Number(i === 22));
  for (const [mechanism, options] of [['local', { epsilon: 50 }], ['local-linear', { epsilon: 1, delta: 0.1 }]]) {
    const s = ps.sampler(mechanism, { ...options, gamma: 1e6, prior: shares });
    const d = s.distribution(point);
    const r = ps.releasedLaw(s, point);
    // Each class box's end moves by at most half a unit of the base times γ; the units freed go to other categories.
    let moved = 0;
    for (let x = 0; x < 30; x += 1) moved += Math.abs(r[x] - d[x]);
    assert.ok(moved / 2 <= 30 * 2 ** -53 * 1e6 + 1e-11, `${mechanism}: total variation ${moved / 2}`);
    assert.ok(Math.abs(r[22] - d[22]) > 1e-10 * d[22], 'the case where the base moves the class box');
    s.dispose();
  }
});
