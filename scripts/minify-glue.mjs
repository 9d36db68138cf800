// Minifies the client module's Emscripten glue (Emscripten 3.1.6 without Closure only strips whitespace):
// build/wasm/privsample-client-glue.mjs → build/wasm/privsample-client.mjs, and copies its .wasm beside it.
// Uses the minifier of rolldown (Vite's bundler, a pinned devDependency); names reached through strings
// (Module["instantiateWasm"], Module["privsampleRandom"]) are untouched by mangling.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { minifySync } from 'rolldown/experimental';

const wasmDir = fileURLToPath(new URL('../build/wasm/', import.meta.url));
const source = readFileSync(`${wasmDir}privsample-client-glue.mjs`, 'utf8');
const { code, errors } = minifySync('privsample-client-glue.mjs', source, { compress: true, mangle: { toplevel: false } });
if (errors?.length) throw new Error(`minifying the client glue failed: ${errors.map((e) => e.message).join('; ')}`);
writeFileSync(`${wasmDir}privsample-client.mjs`, `// privsample client module: Emscripten glue (minified) for privsample-client.wasm\n${code}`);
copyFileSync(`${wasmDir}privsample-client-glue.wasm`, `${wasmDir}privsample-client.wasm`);
