// The guide's JavaScript examples (docs/guide/*.md, the docs site) run as written, as README's do
// (readme-examples.test.mjs): every ```js block is written to a file in a fresh folder whose node_modules/privsample
// links to this repository — so 'privsample' and 'privsample/research' resolve through package.json's "exports" — and
// run with node; it must exit 0 with nothing on stderr, and where a line says `console.log(x); // value`, print
// `value`. Blocks fenced ```js browser need a page: here they are parsed (node --check); tests/examples/ runs the same
// recipes as whole pages in Chromium and Firefox.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readmeBlocks } from './readme-blocks.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GUIDE = join(ROOT, 'docs', 'guide');
const run = promisify(execFile);

const statedOutput = (code) =>
  code
    .split('\n')
    .map((line) => /console\.log\(.*\)\S*\s*\/\/\s*(.+)$/.exec(line))
    .filter(Boolean)
    .map((m) => m[1].trim());

const folder = mkdtempSync(join(tmpdir(), 'privsample-guide-'));
mkdirSync(join(folder, 'node_modules'));
symlinkSync(ROOT, join(folder, 'node_modules', 'privsample'), 'dir');
writeFileSync(join(folder, 'package.json'), JSON.stringify({ type: 'module', private: true }));
after(() => rmSync(folder, { recursive: true, force: true }));

const pages = readdirSync(GUIDE).filter((f) => f.endsWith('.md'));
const blocks = pages.flatMap((page) => readmeBlocks(readFileSync(join(GUIDE, page), 'utf8')).map((b) => ({ ...b, page })));

test('the guide has JavaScript examples, each for Node or for the browser, importing the package by its name', () => {
  assert.ok(blocks.length >= 12, `found ${blocks.length} blocks`);
  for (const b of blocks) assert.ok(['', 'browser'].includes(b.info), `${b.page}:${b.line}: unknown fence info '${b.info}'`);
  for (const b of blocks) {
    for (const [, specifier] of b.code.matchAll(/from '([^']+)'/g)) {
      assert.match(specifier, /^(privsample(\/research)?|\.\/node_modules\/privsample\/build\/bundle\/privsample\.mjs|https:\/\/cdn\.jsdelivr\.net\/npm\/privsample@\d+\.\d+\.\d+\/build\/bundle\/privsample\.mjs)$/, `${b.page}:${b.line} imports '${specifier}'`);
    }
  }
});

for (const block of blocks) {
  const name = `docs/guide/${block.page}:${block.line}${block.info ? ` (${block.info})` : ''}`;
  test(`${name} runs as written`, async () => {
    const file = join(folder, `${block.page}-${block.line}.mjs`);
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
