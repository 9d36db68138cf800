// The guide's JavaScript examples (docs/guide/*.md, the docs site) run as written, as README's do
// (readme-examples.test.mjs): every ```js block is written to a file in a fresh folder whose node_modules/privsample
// links to this repository — so 'privsample' and 'privsample/research' resolve through package.json's "exports" — and
// run with node; it must exit 0 with nothing on stderr, and where a line says `console.log(x); // value`, print
// `value`. Blocks fenced ```js browser need a page: here they are parsed (node --check); tests/examples/ runs the same
// recipes as whole pages in Chromium and Firefox.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { exampleFolder, readmeBlocks, runBlock } from './readme-blocks.mjs';

const GUIDE = fileURLToPath(new URL('../../docs/guide/', import.meta.url));
const { folder, remove } = exampleFolder('privsample-guide-');
after(remove);

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
  test(`${name} runs as written`, () => runBlock(folder, `${block.page}-${block.line}.mjs`, block, name));
}
