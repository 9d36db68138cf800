// Browser end-to-end test of the privacy-budget ledger with many writers (docs/analysis/ledger.md#many-writers), in
// Debian's Chromium against its real IndexedDB, localStorage and Web Locks:
//   node --test tests/e2e/ledger-concurrency.e2e.test.mjs      (needs the built package: bash scripts/build-wasm.sh)
// The page (tests/e2e/ledger-page/) loads the client entry as shipped and runs 2 to 8 ledgers over one store at once,
// with random yields around every call of the storage; the test runs it in one tab and in two tabs started together,
// with navigator.locks and without it (Navigator.prototype.locks deleted before the page loads). Every run must give:
// recorded ε within the budget, as many samples released as entries recorded, exactly what fits released, and every
// refusal the documented error: the budget's RangeError, or, for localStorage, with Web Locks or without, the Error
// that refuses to write it (nothing released, nothing stored: a tab reads localStorage from its own copy, which a
// Web Lock does not bring up to date with the other tabs' writes). IndexedDB and memory need no Web Locks.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { CONTENT_TYPES as TYPES } from './browsers.mjs';
import { CHROMIUM, ROOT } from './support.mjs';

const PAGE_DIR = join(ROOT, 'tests', 'e2e', 'ledger-page');
const PACKAGE_DIRS = ['build/bundle/', 'build/wasm/', 'tests/js/ledger-doubles.mjs'];
const OVER_BUDGET = /purpose 'p': releasing this sample .* would exceed its budget/;
const LOCAL_STORAGE = /^localStorage cannot be updated atomically across tabs, even under a Web Lock/;
const BUDGET = 1;
const EPSILON = 0.25;
const FITS = 4;

// /page/…: the test page; /pkg/…: the package's built files and the ledger's test doubles (shared with Node's tests).
function startServer() {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const send = (status, headers = {}, body = '') => {
      res.writeHead(status, { 'Cache-Control': 'no-store', ...headers });
      res.end(body);
    };
    const [, first, ...rest] = url.pathname.split('/');
    const relative = rest.join('/');
    const base = first === 'pkg' ? ROOT : first === 'page' ? PAGE_DIR : null;
    if (!base || (first === 'pkg' && !PACKAGE_DIRS.some((dir) => relative.startsWith(dir)))) return send(404);
    const file = normalize(join(base, relative));
    if (!file.startsWith(base.endsWith(sep) ? base : base + sep)) return send(403);
    try {
      return send(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' }, await readFile(file));
    } catch {
      return send(404);
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, port: server.address().port }));
  });
}

let served;
let browser;
let context;
const pageErrors = [];

// A tab on the test page, with or without navigator.locks.
async function tab(locks) {
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  if (!locks) await page.addInitScript(() => delete Navigator.prototype.locks);
  await page.goto(`http://127.0.0.1:${served.port}/page/page.html`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 30_000 });
  assert.equal(await page.evaluate(() => typeof navigator.locks?.request === 'function'), locks);
  return page;
}

/** Runs the race in each of `pages` at once (one start time) and checks what they released against what is stored. */
async function raceIn(pages, options, label) {
  const startAt = Date.now() + 200;
  const results = await Promise.all(
    pages.map((page, i) => page.evaluate((o) => window.race(o), { ...options, seed: options.seed + 100 * i, startAt })),
  );
  const samples = results.flatMap((r) => r.samples);
  const errors = results.flatMap((r) => r.errors);
  const asked = results.reduce((n, r) => n + r.asked, 0);
  const { recorded, epsilon } =
    options.kind === 'memory' ? results[0] : await pages[0].evaluate((o) => window.recorded(o), options);
  const expected = options.kind === 'localStorage' ? 0 : FITS;
  assert.ok(epsilon <= BUDGET, `${label}: recorded ε = ${epsilon} > budget ${BUDGET}`);
  assert.equal(samples.length, recorded, `${label}: ${samples.length} samples released, ${recorded} recorded`);
  assert.equal(samples.length, expected, `${label}: ${expected} of ${asked} released`);
  for (const x of samples) assert.ok(Number.isInteger(x) && x >= 0 && x < 4, `${label}: sample ${x}`);
  const [name, message] = options.kind === 'localStorage' ? ['Error', LOCAL_STORAGE] : ['RangeError', OVER_BUDGET];
  for (const error of errors) {
    assert.ok(error.name === name && message.test(error.message), `${label}: ${error.name}: ${error.message}`);
  }
  if (expected === 0) {
    assert.equal(await pages[0].evaluate((key) => window.raw(key), options.name), null, `${label}: nothing stored`);
  }
  return { released: samples.length, recorded };
}

const NEEDED = ['privsample.mjs', 'ledger.mjs', 'privsample-client.wasm', 'privsample-ledger.wasm'];
const TITLE = 'the ledger with many writers in Chromium: IndexedDB, localStorage, memory, with and without Web Locks';

describe(TITLE, { timeout: 300_000 }, () => {
  before(async () => {
    for (const file of NEEDED) {
      const path = `build/${file.endsWith('.wasm') ? 'wasm' : 'bundle'}/${file}`;
      assert.ok(existsSync(join(ROOT, path)), `${path} is missing: run bash scripts/build-wasm.sh first`);
    }
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing (Debian package chromium)`);
    served = await startServer();
    const args = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];
    args.push('--disable-sync', '--no-first-run', '--disable-quic');
    browser = await chromium.launch({ executablePath: CHROMIUM, args });
    context = await browser.newContext();
  });
  after(async () => {
    await browser?.close().catch(() => {});
    await new Promise((resolve) => (served ? served.server.close(resolve) : resolve()));
  });

  for (const locks of [true, false]) {
    test(`one tab, ${locks ? 'with' : 'without'} Web Locks: 2, 4 and 8 ledgers over one store`, async () => {
      const page = await tab(locks);
      for (const kind of ['indexedDB', 'localStorage', 'memory']) {
        for (const ledgers of [2, 4, 8]) {
          for (const seed of [1, 2]) {
            const name = `one-tab-${locks}-${kind}-${ledgers}-${seed}`;
            await raceIn([page], { kind, name, ledgers, seed, budget: BUDGET, epsilon: EPSILON }, name);
          }
        }
      }
      await page.close();
    });
  }

  for (const locks of [[true, true], [false, false], [true, false]]) {
    const which = locks.map((l) => (l ? 'yes' : 'no')).join(', ');
    test(`two tabs at once (Web Locks: ${which}): 4 ledgers in each over one store`, async () => {
      const pages = [await tab(locks[0]), await tab(locks[1])];
      for (const kind of ['indexedDB', 'localStorage']) {
        for (const seed of [1, 2, 3]) {
          const name = `two-tabs-${locks.join('-')}-${kind}-${seed}`;
          await raceIn(pages, { kind, name, ledgers: 4, seed, budget: BUDGET, epsilon: EPSILON }, name);
        }
      }
      for (const page of pages) await page.close();
    });
  }

  test('no page errors', () => {
    assert.deepEqual(pageErrors, []);
  });
});
