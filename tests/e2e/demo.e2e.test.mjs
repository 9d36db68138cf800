// `node --test tests/e2e/` (Node 20) only discovers files named *.test.mjs (and similar); the browser
// end-to-end test itself lives in demo.e2e.mjs, which also runs on its own: node --test tests/e2e/demo.e2e.mjs
import './demo.e2e.mjs';
