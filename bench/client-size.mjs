// What each entry point costs a web page: bytes (raw, gzip -9, brotli q11) of everything its import loads, and
// the time of init() in Chromium (median of fresh page loads) against loading an empty WebAssembly module.
// Baseline: the single module every user downloaded before the entry split (commit 5fd3315; its sizes below).
// Run: npm run bench -- client-size   (or node bench/client-size.mjs after scripts/build-wasm.sh)
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BASELINE = { raw: 608_519, gzip: 201_000 };
// The ledger is not part of the client entry's page load: ps.ledger() fetches it on first use (its own row).
const ENTRIES = {
  'privsample (client)': ['build/bundle/privsample.mjs', 'build/bundle/common.mjs', 'build/wasm/privsample-client.wasm'],
  '+ ps.ledger() on use': ['build/bundle/ledger.mjs', 'build/wasm/privsample-ledger.wasm'],
  'privsample/research': ['bindings/js/research.mjs', 'bindings/js/common.mjs', 'build/wasm/privsample-research.mjs'],
};

const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
const sizes = {};
console.log('entry                   files   raw        gzip       brotli     gzip vs before (201 KB)');
for (const [name, files] of Object.entries(ENTRIES)) {
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  for (const file of files) {
    const bytes = readFileSync(join(ROOT, file));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
    brotli += brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  sizes[name] = { raw, gzip, brotli };
  console.log(`${name.padEnd(24)}${String(files.length).padEnd(8)}${kb(raw).padEnd(11)}${kb(gzip).padEnd(11)}${kb(brotli).padEnd(11)}${(gzip / BASELINE.gzip).toFixed(2)}x`);
}
for (const file of ENTRIES['privsample (client)']) {
  const bytes = readFileSync(join(ROOT, file));
  console.log(`  ${file.padEnd(40)} raw ${kb(bytes.length).padEnd(10)} gzip ${kb(gzipSync(bytes, { level: 9 }).length)}`);
}

// ---- init() in Chromium ----------------------------------------------------------------------------------------
const TYPES = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm' };
const EMPTY_WASM = Uint8Array.from([0, 97, 115, 109, 1, 0, 0, 0]);
const PAGES = {
  'empty.html': `<script type="module">
    const t0 = performance.now();
    await WebAssembly.instantiate(await (await fetch('empty.wasm')).arrayBuffer());
    window.result = performance.now() - t0;</script>`,
  'client.html': `<script type="module">
    const t0 = performance.now();
    const { init } = await import('./build/bundle/privsample.mjs');
    const t1 = performance.now();
    const ps = await init();
    window.result = performance.now() - t0;
    window.initOnly = performance.now() - t1;
    window.check = ps.sampler('minimax', { epsilon: 1 }).distribution([1, 0, 0])[0];</script>`,
  'research.html': `<script type="module">
    const t0 = performance.now();
    const { init } = await import('./bindings/js/research.mjs');
    const t1 = performance.now();
    await init();
    window.result = performance.now() - t0;
    window.initOnly = performance.now() - t1;</script>`,
};
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname.slice(1));
  if (PAGES[path]) return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGES[path]);
  if (path === 'empty.wasm') return res.writeHead(200, { 'content-type': 'application/wasm' }).end(EMPTY_WASM);
  const file = normalize(join(ROOT, path));
  if (!file.startsWith(ROOT) || file.includes(`${sep}node_modules${sep}`)) return res.writeHead(404).end();
  let body;
  try {
    body = readFileSync(file);
  } catch {
    return res.writeHead(404).end();
  }
  return res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
});
const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];
const timings = {};
const initTimings = {};
for (const page of Object.keys(PAGES)) {
  const runs = [];
  const initRuns = [];
  for (let i = 0; i < 15; i += 1) {
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(origin + page);
    await tab.waitForFunction(() => window.result !== undefined, null, { timeout: 20000 });
    runs.push(await tab.evaluate(() => window.result));
    initRuns.push(await tab.evaluate(() => window.initOnly ?? window.result));
    if (page === 'client.html') {
      const check = await tab.evaluate(() => window.check);
      if (Math.abs(check - 0.5761168847658291) > 1e-9) throw new Error(`the client module computed ${check}`);
    }
    await context.close();
  }
  timings[page] = median(runs);
  initTimings[page] = median(initRuns);
}
await browser.close();
server.close();
console.log(`\nChromium, median of 15 fresh contexts (ms): import of the entry, then init() (fetch + compile + instantiate)`);
console.log(`  empty WebAssembly module   fetch + instantiate ${timings['empty.html'].toFixed(1)}`);
for (const [label, page] of [['privsample (client)', 'client.html'], ['privsample/research', 'research.html']]) {
  const importOnly = timings[page] - initTimings[page];
  console.log(`  ${label.padEnd(26)} import ${importOnly.toFixed(1)} + init ${initTimings[page].toFixed(1)} = ${timings[page].toFixed(1)}  (init ${(initTimings[page] / timings['empty.html']).toFixed(1)}x the empty module)`);
}
const client = sizes['privsample (client)'];
console.log(`\nclient entry: ${client.gzip} bytes gzip (target <= 64,000: ${client.gzip <= 64_000 ? 'met' : 'NOT met'}), init() ${initTimings['client.html'].toFixed(1)} ms (target <= 50 ms: ${initTimings['client.html'] <= 50 ? 'met' : 'NOT met'})`);
