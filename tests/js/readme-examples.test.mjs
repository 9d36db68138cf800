// README's JavaScript examples run as written: every ```js block is written to a file in a fresh folder whose
// node_modules/privsample is a link to this repository — so `import … from 'privsample'` and 'privsample/research'
// resolve through package.json's "exports" to the built package, exactly as for an npm user — and run with node.
// A block must exit 0 with nothing on stderr; where a line says `console.log(x); // value`, the printed line must be
// `value`. Blocks fenced ```js browser need a page: here they are only parsed (node --check); the strict-CSP e2e
// (tests/e2e/csp-file.e2e.mjs) runs them in Chromium.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { exampleFolder, readmeBlocks, runBlock, statedOutput } from './readme-blocks.mjs';

const { folder, remove } = exampleFolder('privsample-readme-');
after(remove);

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
  test(`${name} runs as written`, () => runBlock(folder, `block-${block.line}.mjs`, block, name));
}
