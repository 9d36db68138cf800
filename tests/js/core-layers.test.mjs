// The core's layers (README, Layout): a header or source includes only its own layer and the layers below it, and
// every file of core/ belongs to one layer — so the mechanism registry never pulls in the analysis, and a new file
// has to say where it stands.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const core = fileURLToPath(new URL('../../core/', import.meta.url));

// Lowest first; the order of README's layout.
const LAYERS = [
  ['base', ['numeric', 'optimise', 'quadrature', 'special_functions', 'randomness', 'draw', 'errors', 'simd_lanes',
    'release_table']],
  ['model', ['histogram', 'divergence']],
  ['privacy', ['privacy', 'functional_ldp', 'privacy_box', 'release_plan']],
  ['solver', ['clip_normalise', 'clip_normalise_internal']],
  ['mechanisms', ['sampler', 'minimax', 'clip_samplers', 'linear_samplers', 'reveal_or_obscure', 'continuous', 'membership',
    'registry', 'mechanism', 'continuous_mechanism']],
  ['analysis', ['channel', 'accountant', 'lmidp', 'estimate', 'simulate', 'collection_accounting', 'ledger',
    'privacy_audit']],
  ['baselines', ['mbde']],
];
const layerOf = new Map(LAYERS.flatMap(([, topics], level) => topics.map((topic) => [topic, level])));

/** Every include of a lower-or-equal layer is fine; the rest are returned as "file -> topic (layer)". */
function violations(files) {
  const problems = [];
  for (const [file, text] of files) {
    const topic = basename(file).replace(/\.(hpp|cpp)$/, '');
    if (!layerOf.has(topic)) {
      problems.push(`${file}: not in any layer (add it to README's layout and to LAYERS here)`);
      continue;
    }
    for (const [, included] of text.matchAll(/#include "privsample\/([a-z_]+)\.hpp"/g)) {
      if (!layerOf.has(included)) problems.push(`${file} -> ${included}: not in any layer`);
      else if (layerOf.get(included) > layerOf.get(topic)) {
        problems.push(`${file} (${LAYERS[layerOf.get(topic)][0]}) -> ${included} (${LAYERS[layerOf.get(included)][0]})`);
      }
    }
  }
  return problems;
}

function coreFiles() {
  const out = [];
  for (const folder of ['include/privsample', 'src']) {
    for (const name of readdirSync(join(core, folder))) {
      if (/\.(hpp|cpp)$/.test(name)) out.push([`core/${folder}/${name}`, readFileSync(join(core, folder, name), 'utf8')]);
    }
  }
  return out;
}

test('every core file has a layer and includes only its own layer and those below', () => {
  const files = coreFiles();
  assert.ok(files.length >= 50, `only ${files.length} core files found`);
  assert.deepEqual(violations(files), []);
});

test('the check can fail: an include upward and a file without a layer are reported', () => {
  assert.deepEqual(violations([['core/src/registry.cpp', '#include "privsample/accountant.hpp"\n']]), [
    'core/src/registry.cpp (mechanisms) -> accountant (analysis)',
  ]);
  assert.equal(violations([['core/src/newcomer.cpp', '']]).length, 1);
  assert.deepEqual(violations([['core/src/mbde.cpp', '#include "privsample/continuous.hpp"\n']]), []);
});

test("README's layout lists the same layers, in the same order", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const layout = readme.slice(readme.indexOf('## Layout'));
  const listed = [...layout.matchAll(/^ {2}([a-z]+) {3,}/gm)].map((m) => m[1]);
  assert.deepEqual(listed, LAYERS.map(([name]) => name));
  for (const [, topics] of LAYERS) for (const topic of topics) assert.match(layout, new RegExp(`\\b${topic}\\b`), topic);
});
