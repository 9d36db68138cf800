// The core's layers are its folders (docs/design.md): core/<layer>/…, lowest first. A file includes only its own layer
// and the layers below it; a mechanism's folder (core/mechanisms/<name>/) includes no other mechanism's folder (what two
// mechanisms share lives in core/mechanisms/ itself); and every file of core/ is in a layer's folder.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const core = fileURLToPath(new URL('../../core/', import.meta.url));

export const LAYERS = ['base', 'model', 'privacy', 'solver', 'mechanisms', 'analysis', 'baselines'];
const levelOf = (path) => LAYERS.indexOf(path.split('/')[0]);
// core/mechanisms/<name>/… → <name>; core/mechanisms/x.hpp (shared) → null
const mechanismOf = (path) => {
  const parts = path.split('/');
  return parts[0] === 'mechanisms' && parts.length > 2 ? parts[1] : null;
};

/** Includes that reach up a layer, into another mechanism's folder, or files outside every layer. */
export function violations(files) {
  const problems = [];
  for (const [file, text] of files) {
    const level = levelOf(file);
    if (level < 0) {
      if (file !== 'privsample.hpp') problems.push(`core/${file}: not in a layer's folder (${LAYERS.join(', ')})`);
      continue;
    }
    for (const [, included] of text.matchAll(/#include "([a-z_]+\/[A-Za-z0-9_\-/]+\.hpp)"/g)) {
      const target = levelOf(included);
      if (target < 0) problems.push(`core/${file} -> ${included}: not in a layer's folder`);
      else if (target > level) problems.push(`core/${file} (${LAYERS[level]}) -> ${included} (${LAYERS[target]})`);
      else if (mechanismOf(file) && mechanismOf(included) && mechanismOf(included) !== mechanismOf(file)) {
        problems.push(`core/${file} -> ${included}: one mechanism's folder includes another's`);
      }
    }
  }
  return problems;
}

function coreFiles(folder = core) {
  const out = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) out.push(...coreFiles(path));
    else if (/\.(hpp|cpp)$/.test(name)) out.push([relative(core, path), readFileSync(path, 'utf8')]);
  }
  return out;
}

test('every core file is in a layer folder and includes only its own layer and those below', () => {
  const files = coreFiles();
  assert.ok(files.length >= 50, `only ${files.length} core files found`);
  assert.deepEqual(violations(files), []);
});

test('the check can fail: an include upward, across mechanisms, and a file outside the layers are reported', () => {
  assert.deepEqual(violations([['mechanisms/registry.cpp', '#include "analysis/accountant.hpp"\n']]), [
    'core/mechanisms/registry.cpp (mechanisms) -> analysis/accountant.hpp (analysis)',
  ]);
  assert.equal(violations([['src/newcomer.cpp', '']]).length, 1);
  assert.deepEqual(violations([['baselines/mbde.cpp', '#include "mechanisms/mechanism.hpp"\n']]), []);
  assert.equal(violations([['mechanisms/roo/roo.cpp', '#include "mechanisms/ds-roo/ds_roo.hpp"\n']]).length, 1);
  assert.deepEqual(violations([['mechanisms/roo/roo.cpp', '#include "mechanisms/records.hpp"\n']]), []);
});
