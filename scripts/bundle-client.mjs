// After the client module's link: build/wasm/privsample-client-glue.wasm → the shipped files.
//   build/wasm/privsample-client.wasm  the module (its Emscripten glue, privsample-client-glue.mjs, is not shipped:
//                                      bindings/js/abi.mjs instantiates the module with the four imports it needs)
//   build/bundle/privsample.mjs        the 'privsample' entry: wrapper + loader in one minified ES module
// rolldown (Vite's bundler, a pinned devDependency) bundles and minifies; `new URL('…/privsample-client.wasm',
// import.meta.url)` stays literal so that a consumer's bundler copies the .wasm (checked below).
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = fileURLToPath(new URL('../', import.meta.url));
const wasm = readFileSync(`${root}build/wasm/privsample-client-glue.wasm`);
// The loader provides exactly these imports and calls the ps_* exports by name: fail the build, not a user's page.
const PROVIDED = ['emscripten_memcpy_big', 'emscripten_resize_heap', 'fill_with_captured_crypto', 'abort', 'setTempRet0'];
const compiled = new WebAssembly.Module(wasm);
const missing = WebAssembly.Module.imports(compiled).filter((i) => i.module !== 'env' || !PROVIDED.includes(i.name));
if (missing.length) {
  throw new Error(`the client module imports ${missing.map((i) => `${i.module}.${i.name}`).join(', ')}, which bindings/js/abi.mjs does not provide`);
}
const exported = WebAssembly.Module.exports(compiled).map((e) => e.name);
for (const name of ['memory', 'ps_sampler_new', 'ps_configure', 'ps_distribution', 'ps_registry_json']) {
  if (!exported.includes(name)) throw new Error(`the client module does not export ${name} (are export names minified?)`);
}
copyFileSync(`${root}build/wasm/privsample-client-glue.wasm`, `${root}build/wasm/privsample-client.wasm`);

const bundle = await rolldown({ input: `${root}bindings/js/privsample.mjs`, platform: 'neutral', logLevel: 'warn' });
const { output } = await bundle.generate({ format: 'esm', minify: true });
await bundle.close();
const [entry, ...rest] = output;
if (rest.length) throw new Error(`the client bundle split into ${output.length} files`);
if (!/new URL\(`\.\.\/\.\.\/build\/wasm\/privsample-client\.wasm`,import\.meta\.url\)/.test(entry.code)) {
  throw new Error("the bundle lost the literal new URL(…privsample-client.wasm, import.meta.url) that bundlers need");
}
mkdirSync(`${root}build/bundle`, { recursive: true });
writeFileSync(`${root}build/bundle/privsample.mjs`, `// privsample ${JSON.parse(readFileSync(`${root}package.json`, 'utf8')).version} — bundled and minified from bindings/js/privsample.mjs; see the .d.ts there\n${entry.code}`);
