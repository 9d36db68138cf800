// The .d.ts types that list mechanisms are generated from the registry the modules export (scripts/generate-types.mjs):
// a mechanism added to core/mechanisms/list.hpp without regenerating them fails here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BEGIN, END, TARGETS, render, targets, withGenerated } from '../../scripts/generate-types.mjs';

test('the generated parts of privsample.d.ts and research.d.ts match the registry', async () => {
  for (const { file, text, wanted } of await targets()) {
    assert.equal(text, wanted, `${file} is stale: run node scripts/generate-types.mjs`);
  }
});

test('every mechanism of the registry is in its space\'s generated types, with its options', async () => {
  const { init } = await import('../../bindings/js/research.mjs');
  const { registry } = await init();
  for (const target of TARGETS) {
    const generated = render(registry, target);
    for (const m of registry.mechanisms.filter((x) => x.space === target.space)) {
      assert.match(generated, new RegExp(`\\| '${m.name}'`), `${m.name} missing from ${target.names}`);
      for (const option of [...m.required, ...m.optional].filter((o) => o !== 'notion')) {
        assert.match(generated, new RegExp(`'?${m.name}'?: [^\\n]*\\b${option}\\??:`), `${m.name}.${option} missing`);
      }
    }
  }
});

test('the check can fail: a registry with one more mechanism makes the committed file stale', async () => {
  const [{ text, file }] = await targets();
  const { init } = await import('../../bindings/js/research.mjs');
  const { registry } = await init();
  const added = {
    name: 'new-one', space: 'finite', notion: 'pure-ldp', required: ['epsilon', 'prior'], optional: [], defaults: {},
    summary: 'a test',
  };
  const grown = { ...registry, mechanisms: [...registry.mechanisms, added] };
  const wanted = withGenerated(text, render(grown, TARGETS[0]), file);
  assert.notEqual(wanted, text);
  assert.match(wanted, /'new-one': \{ epsilon: number; prior: Histogram \};/);
  assert.throws(() => withGenerated(text.replace(BEGIN, ''), '', file), /markers/);
  assert.throws(() => withGenerated(text.replace(END, ''), '', file), /markers/);
});
