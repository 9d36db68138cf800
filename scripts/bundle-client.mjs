// After the client and ledger modules' links: build/wasm/privsample-{client,ledger}-glue.wasm → the shipped files.
//   build/wasm/privsample-client.wasm  the module (its Emscripten glue, privsample-client-glue.mjs, is not shipped:
//                                      bindings/js/abi.mjs instantiates the module with the imports it needs)
//   build/wasm/privsample-ledger.wasm  the ledger's module, loaded the first time a page calls ps.ledger()
//   build/bundle/privsample.mjs        the 'privsample' entry: wrapper + loader, minified, with common.mjs (the part
//                                      it shares with the ledger)
//   build/bundle/ledger.mjs            the JS ledger, imported by ps.ledger() on first use
// rolldown (Vite's bundler, a pinned devDependency) bundles and minifies; `new URL('…/privsample-*.wasm',
// import.meta.url)` stays literal so that a consumer's bundler copies the .wasm files (checked below).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { shipWasm } from './ship-wasm.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
// The loader provides exactly these imports and calls the ps_* exports by name: fail the build, not a user's page.
const PROVIDED = ['emscripten_memcpy_big', 'emscripten_resize_heap', 'fill_with_captured_crypto', 'abort'];
const MODULES = {
  client: ['memory', 'ps_sampler_new', 'ps_distribution', 'ps_registry_json', 'ps_error_kind'],
  ledger: ['memory', 'ps_ledger_total', 'ps_ledger_check', 'ps_ledger_budget', 'ps_stage', 'ps_error_kind'],
};
for (const [name, needed] of Object.entries(MODULES)) {
  const glue = `${root}build/wasm/privsample-${name}-glue.wasm`;
  const shipped = `${root}build/wasm/privsample-${name}.wasm`;
  shipWasm(glue, shipped);
  const compiled = new WebAssembly.Module(readFileSync(shipped));
  const missing = WebAssembly.Module.imports(compiled).filter((i) => i.module !== 'env' || !PROVIDED.includes(i.name));
  if (missing.length) {
    throw new Error(`the ${name} module imports ${missing.map((i) => `${i.module}.${i.name}`).join(', ')}, which bindings/js/abi.mjs does not provide`);
  }
  const exported = WebAssembly.Module.exports(compiled).map((e) => e.name);
  for (const fn of needed) {
    if (!exported.includes(fn)) throw new Error(`the ${name} module does not export ${fn} (are export names minified?)`);
  }
}

const bundle = await rolldown({ input: `${root}bindings/js/privsample.mjs`, platform: 'neutral', logLevel: 'warn' });
const { output } = await bundle.generate({ format: 'esm', minify: true, entryFileNames: '[name].mjs', chunkFileNames: '[name].mjs' });
await bundle.close();
// privsample.mjs, the ledger (imported on first use) and what the two share (rolldown puts it in a chunk of its own,
// common.mjs, which the entry imports statically).
const names = output.map((file) => file.fileName).sort();
if (names.join() !== 'common.mjs,ledger.mjs,privsample.mjs') {
  throw new Error(`the client bundle is ${names.join(', ')}, expected common.mjs, ledger.mjs and privsample.mjs`);
}
const entry = output.find((file) => file.fileName === 'privsample.mjs');
for (const name of ['client', 'ledger']) {
  if (!new RegExp(`new URL\\(\`\\.\\./\\.\\./build/wasm/privsample-${name}\\.wasm\`,import\\.meta\\.url\\)`).test(entry.code)) {
    throw new Error(`the bundle lost the literal new URL(…privsample-${name}.wasm, import.meta.url) that bundlers need`);
  }
}
rmSync(`${root}build/bundle`, { recursive: true, force: true });
mkdirSync(`${root}build/bundle`, { recursive: true });
// No banner comment: it is bytes on every page that loads the client; package.json and the .d.ts say what these are.
for (const file of output) writeFileSync(`${root}build/bundle/${file.fileName}`, file.code);
