// No bundler: the module is imported by its path inside node_modules (served with the page), and init() finds the
// .wasm file next to it. Works under the page's strict policy: no inline script, no eval; 'wasm-unsafe-eval' lets
// the browser compile the WebAssembly, connect-src 'self' lets it fetch the .wasm file.
import { init } from './node_modules/privsample/build/bundle/privsample.mjs';
import { show } from './show.js';

show(init);
