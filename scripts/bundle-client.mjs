// After the client module's link: build/wasm/privsample-client-glue.{mjs,wasm} → the shipped files.
//   build/wasm/privsample-client.{mjs,wasm}  the glue (its own .wasm reference renamed to the shipped file) and module
//   build/bundle/privsample.mjs               the 'privsample' entry: wrapper + glue in one minified ES module
// Emscripten 3.1.6 without Closure only strips whitespace; rolldown (Vite's bundler, a pinned devDependency) bundles
// and minifies. Names reached through strings (Module["instantiateWasm"], Module["privsampleRandom"]) survive
// mangling, and `new URL('…/privsample-client.wasm', import.meta.url)` stays literal so that a consumer's bundler
// copies the .wasm (checked below).
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = fileURLToPath(new URL('../', import.meta.url));
const glue = readFileSync(`${root}build/wasm/privsample-client-glue.mjs`, 'utf8');
if (!glue.includes('privsample-client-glue.wasm')) throw new Error('the client glue no longer names its .wasm: check scripts/bundle-client.mjs');
writeFileSync(`${root}build/wasm/privsample-client.mjs`, glue.replaceAll('privsample-client-glue.wasm', 'privsample-client.wasm'));
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
