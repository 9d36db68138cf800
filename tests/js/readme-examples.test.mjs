// README's JavaScript examples run as written: every ```js block is written to a file in a fresh folder whose
// node_modules/privsample is a link to this repository — so `import … from 'privsample'` and 'privsample/research'
// resolve through package.json's "exports" to the built package, exactly as for an npm user — and run with node.
// A block must exit 0 with nothing on stderr; where a line says `console.log(x); // value`, the printed line must be
// `value`. Blocks fenced ```js browser need a page: here they are only parsed (node --check); the strict-CSP e2e
// (tests/e2e/csp-file.e2e.mjs) runs them in Chromium.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readmeBlocks } from './readme-blocks.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

/** What a block says it prints: `console.log(…); // expected` lines, in order. */
function statedOutput(code) {
  return code
    .split('\n')
    .map((line) => /console\.log\(.*\)\S*\s*\/\/\s*(.+)$/.exec(line))
    .filter(Boolean)
    .map((m) => m[1].trim());
}

const folder = mkdtempSync(join(tmpdir(), 'privsample-readme-'));
mkdirSync(join(folder, 'node_modules'));
symlinkSync(ROOT, join(folder, 'node_modules', 'privsample'), 'dir');
writeFileSync(join(folder, 'package.json'), JSON.stringify({ type: 'module', private: true }));
after(() => rmSync(folder, { recursive: true, force: true }));

const blocks = readmeBlocks();

test('README has JavaScript examples, each marked for Node or for the browser', () => {
  // The example, the browser end of a collection and the analyst's end; the longer examples live in the guide
  // (docs/guide/*.md), whose blocks tests/js/guide-examples.test.mjs runs the same way.
  assert.ok(blocks.length >= 3, `found ${blocks.length} blocks`);
  for (const block of blocks) assert.ok(['', 'browser'].includes(block.info), `README.md:${block.line}: unknown fence info '${block.info}'`);
  assert.ok(blocks.some((b) => b.info === 'browser'));
  assert.ok(blocks.some((b) => statedOutput(b.code).length >= 3), 'some block states what it prints (the first example)');
  // Every block that imports privsample imports it by its package name, as a user would.
  for (const block of blocks) {
    for (const [, specifier] of block.code.matchAll(/from '([^']+)'/g)) {
      assert.match(specifier, /^privsample(\/research)?$/, `README.md:${block.line} imports '${specifier}'`);
    }
  }
});

for (const block of blocks) {
  const name = `README.md:${block.line}${block.info ? ` (${block.info})` : ''}`;
  test(`${name} runs as written`, async () => {
    const file = join(folder, `block-${block.line}.mjs`);
    writeFileSync(file, `${block.code}\n`);
    if (block.info === 'browser') {
      await run(process.execPath, ['--check', file], { cwd: folder });
      return;
    }
    const { stdout, stderr } = await run(process.execPath, [file], { cwd: folder, timeout: 120_000, maxBuffer: 1 << 24 });
    assert.equal(stderr, '', `${name} wrote to stderr`);
    const stated = statedOutput(block.code);
    if (stated.length) assert.deepEqual(stdout.trim().split('\n'), stated, `${name}: printed lines`);
  });
}
