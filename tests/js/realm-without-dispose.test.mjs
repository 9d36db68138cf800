// The client's objects in a realm whose Symbol lacks `dispose` (engines without explicit resource management):
// samplers and oracles work and carry no member keyed by the string 'undefined'. Node defines Symbol.dispose in
// its main realm, not in a vm context, so the client's modules are evaluated in such a context (VM modules are
// behind a flag: a child process).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import test from 'node:test';

const program = `
import vm from 'node:vm';
import { readFile } from 'node:fs/promises';
const root = new URL('bindings/js/', ${JSON.stringify(new URL('../../', import.meta.url).href)});
const context = vm.createContext({ crypto: globalThis.crypto, TextEncoder, TextDecoder, FinalizationRegistry });
const modules = new Map();
async function load(name) {
  if (!modules.has(name)) {
    const url = new URL(name, root);
    modules.set(name, new vm.SourceTextModule(await readFile(url, 'utf8'), { context, identifier: url.href }));
  }
  return modules.get(name);
}
const common = await load('common.mjs');
await common.link((specifier) => load(specifier.replace('./', '')));
await common.evaluate();
const { instantiateClient } = (await load('abi.mjs')).namespace;
const compiled = await WebAssembly.compile(await readFile(new URL('../../build/wasm/privsample-client.wasm', root)));
const { api } = common.namespace.makeFiniteApi(await instantiateClient(compiled, common.namespace.captureCsprng()));
const sampler = api.sampler('minimax', { epsilon: 1 });
const oracle = api.oracle('oue', { epsilon: 1, categories: 4 });
const drawn = sampler.sample([1, 2, 3]);
oracle.encode(2);
sampler.dispose();
oracle.dispose();
console.log(JSON.stringify({
  realmHasDispose: vm.runInContext('typeof Symbol.dispose', context),
  samplerKeys: Reflect.ownKeys(sampler).map(String),
  oracleKeys: Reflect.ownKeys(oracle).map(String),
  drawn,
  disposed: [sampler.disposed, oracle.disposed],
}));
`;

test('in a realm without Symbol.dispose, samplers and oracles work and have no member named "undefined"', () => {
  const run = spawnSync(process.execPath, ['--experimental-vm-modules', '--no-warnings', '--input-type=module', '-e', program], {
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  const seen = JSON.parse(run.stdout);
  assert.equal(seen.realmHasDispose, 'undefined', 'the test realm must lack Symbol.dispose');
  assert.ok(Number.isInteger(seen.drawn) && seen.drawn >= 0 && seen.drawn < 3, `drawn ${seen.drawn}`);
  assert.deepEqual(seen.disposed, [true, true]);
  for (const keys of [seen.samplerKeys, seen.oracleKeys]) {
    assert.ok(keys.includes('dispose'), keys.join());
    assert.ok(!keys.includes('undefined'), `a member keyed 'undefined': ${keys.join()}`);
  }
});
