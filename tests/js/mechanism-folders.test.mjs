// What a mechanism must provide (docs/adding-a-mechanism.md), checked for every mechanism of the one type list
// (core/mechanisms/list.hpp): its folder core/mechanisms/<name>/ with a header that declares its spec and validating
// factory, a source, a page (README.md) stating its guarantee and naming its code and tests, and tests of its own; and
// the registry the modules export lists exactly these mechanisms, in the list's order. (The C++ side — the spec, make,
// guarantee, distribution, prepare, worst_case_risk — is a concept the list static_asserts.)
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { fileURLToPath } from 'node:url';

const core = fileURLToPath(new URL('../../core/', import.meta.url));
const REQUIRED_SECTIONS = ['## Guarantee', '## Code and tests'];

/** The list's types, in order, and for each the folder whose header declares it. */
export function listedMechanisms(listText, headerOf) {
  const list = /using FiniteMechanisms = MechanismList<([^>]*)>;/.exec(listText);
  assert.ok(list, 'core/mechanisms/list.hpp has no FiniteMechanisms list');
  const types = list[1].split(',').map((t) => t.trim());
  const includes = [...listText.matchAll(/#include "mechanisms\/([\w-]+)\/([\w]+)\.hpp"/g)].map(([, folder, file]) => ({ folder, file }));
  return types.map((type) => {
    const home = includes.find(({ folder, file }) => new RegExp(`class ${type}\\b`).test(headerOf(folder, file)));
    return { type, folder: home?.folder, file: home?.file };
  });
}

/** What a folder lacks, in words. */
export function problemsOf({ type, folder, file }, read, list) {
  if (!folder) return [`${type}: no folder's header declares it`];
  const problems = [];
  const header = read(folder, `${file}.hpp`);
  if (!/static constexpr MechanismSpec spec\{/.test(header)) problems.push(`${folder}: ${type} declares no spec`);
  if (!new RegExp(`static ${type} make\\(const MechanismOptions&`).test(header)) problems.push(`${folder}: ${type} has no make(options)`);
  if (!read(folder, `${file}.cpp`)) problems.push(`${folder}: no ${file}.cpp`);
  const page = read(folder, 'README.md');
  if (!page) problems.push(`${folder}: no README.md (its page)`);
  for (const section of REQUIRED_SECTIONS) if (page && !page.includes(`\n${section}\n`)) problems.push(`${folder}: README.md has no "${section}"`);
  if (!list(folder).some((name) => name.endsWith('_test.cpp'))) problems.push(`${folder}: no *_test.cpp`);
  const spec = /spec\{\s*"([\w-]+)"/.exec(header);
  if (spec && spec[1] !== folder) problems.push(`${folder}: the spec's name "${spec[1]}" is not its folder's`);
  return problems;
}

const read = (folder, name) => {
  const path = join(core, 'mechanisms', folder, name);
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
};
const list = (folder) => (existsSync(join(core, 'mechanisms', folder)) ? readdirSync(join(core, 'mechanisms', folder)) : []);
const listText = readFileSync(join(core, 'mechanisms', 'list.hpp'), 'utf8');
const mechanisms = listedMechanisms(listText, (folder, file) => read(folder, `${file}.hpp`));

test('every mechanism of the list has its folder: spec, factory, source, page with its guarantee, tests', () => {
  assert.ok(mechanisms.length >= 8, `only ${mechanisms.length} mechanisms in the list`);
  assert.deepEqual(mechanisms.flatMap((m) => problemsOf(m, read, list)), []);
});

test('every frequency oracle of the second list has its folder, and the registry lists them in its order', async () => {
  const list = /using FrequencyOracles = MechanismList<([^>]*)>;/.exec(listText);
  assert.ok(list, 'core/mechanisms/list.hpp has no FrequencyOracles list');
  const oracles = listedMechanisms(listText.replace(/using FiniteMechanisms = MechanismList<[^>]*>;/, '')
    .replace('using FrequencyOracles', 'using FiniteMechanisms'), (folder, file) => read(folder, `${file}.hpp`));
  assert.equal(oracles.length, 4);
  assert.deepEqual(oracles.flatMap((m) => problemsOf(m, read, (folder) => (existsSync(join(core, 'mechanisms', folder)) ? readdirSync(join(core, 'mechanisms', folder)) : []))), []);
  const { init } = await import('../../bindings/js/privsample.mjs');
  const ps = await init();
  assert.deepEqual(ps.registry.oracles.map((o) => o.name), oracles.map((m) => m.folder));
});

test('the registry the client module exports lists the mechanisms of the list, in its order', async () => {
  const { init } = await import('../../bindings/js/privsample.mjs');
  const ps = await init();
  const finite = ps.registry.mechanisms.filter((m) => m.space === 'finite').map((m) => m.name);
  assert.deepEqual(finite, mechanisms.map((m) => m.folder));
});

test('the check can fail: a folder without a page, tests or factory is reported', () => {
  const header = 'class NewSampler {\n static constexpr MechanismSpec spec{"new", …};\n';
  const problems = problemsOf({ type: 'NewSampler', folder: 'new', file: 'new' },
    (folder, name) => (name === 'new.hpp' ? header : ''), () => []);
  assert.ok(problems.some((p) => /no make\(options\)/.test(p)));
  assert.ok(problems.some((p) => /no README\.md/.test(p)));
  assert.ok(problems.some((p) => /no \*_test\.cpp/.test(p)));
  assert.deepEqual(problemsOf({ type: 'Lost' }, read, list), ['Lost: no folder\'s header declares it']);
});
