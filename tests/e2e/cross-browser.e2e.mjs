// The demo and the client entry in every browser this machine has (tests/e2e/browsers.mjs): Chromium, Firefox ESR
// and WebKitGTK, from Debian's packages.
//   node --test tests/e2e/cross-browser.e2e.test.mjs      (PRIVSAMPLE_BROWSERS=firefox,webkit to choose)
// The Chromium-only files test the demo in depth; this one is the same lean check in each browser:
//   - the client entry (Firefox and WebKit; Chromium runs it in csp-file.e2e.mjs): loads under the strict policy
//     `default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'` with init({ wasm: URL }) and
//     init(), draws a sample, keeps a ledger in IndexedDB across a reload and refuses past its budget, and a module
//     Web Worker draws with the page's compiled module;
//   - a smoke test of each demo page (dist/, under a sub-path, with its own policy): it gets ready, computes its first
//     result (the histogram page also draws a sample through its ledger), logs no error and no policy violation,
//     and at 390 px wide scrolls no wider than the screen (WebKitGTK's MiniBrowser window is at least about 450 px wide:
//     there, its narrowest). Screenshots of each page at each width: test-output/browsers/<browser>-<page>-<width>.png;
//   - the docs site (dist/docs/: the guide and the API reference): every link between its pages resolves (checked
//     once, on the files), and its home, a guide page and an API page load with no error in each browser
//     (screenshots test-output/browsers/<browser>-docs-<page>-<width>.png).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CONTENT_TYPES as TYPES, launch, missing, probeScript } from './browsers.mjs';
import { DIST, PREFIX, ROOT, cspOf } from './support.mjs';

const NAMES = (process.env.PRIVSAMPLE_BROWSERS ?? 'chromium,firefox,webkit').split(',').filter(Boolean);
const SHOTS = join(ROOT, 'test-output', 'browsers');
const STRICT = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; object-src 'none'; base-uri 'none'";
const PACKAGE_DIRS = ['build/bundle/', 'build/wasm/', 'bindings/js/'];

/** The probe, inserted as the first script of an HTML page (after its policy: it is a script from 'self'). */
function withProbe(html, probeUrl) {
  const tag = `<script src="${probeUrl}"></script>`;
  const meta = /<meta\s+http-equiv="Content-Security-Policy"[^>]*>/i.exec(html);
  if (meta) return html.replace(meta[0], `${meta[0]}\n${tag}`);
  return html.replace(/<head>/i, `<head>\n${tag}`);
}

// PREFIX…: dist/ (the demo, its policy in each page; scripts also carry it as a header, for the workers);
// /client/…: tests/e2e/csp-page/ under the strict policy header; /pkg/…: the package's files.
function startServer(demoPolicy) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const send = (status, headers = {}, body = '') => {
      res.writeHead(status, { 'Cache-Control': 'no-store', ...headers });
      res.end(body);
    };
    try {
      let file;
      let policy;
      let probe;
      if (url.pathname.startsWith(PREFIX)) {
        let relative = decodeURIComponent(url.pathname.slice(PREFIX.length));
        if (relative === '__probe.js') return send(200, { 'Content-Type': TYPES['.js'] }, probeScript);
        if (relative === '' || relative.endsWith('/')) relative += 'index.html';
        file = normalize(join(DIST, relative));
        if (!file.startsWith(DIST + sep)) return send(403);
        policy = extname(file) === '.js' ? demoPolicy : null;
        probe = `${PREFIX}__probe.js`;
      } else if (url.pathname.startsWith('/client/')) {
        const relative = url.pathname.slice('/client/'.length);
        if (relative === '__probe.js') return send(200, { 'Content-Type': TYPES['.js'], 'Content-Security-Policy': STRICT }, probeScript);
        const dir = join(ROOT, 'tests', 'e2e', 'csp-page');
        file = normalize(join(dir, relative));
        if (!file.startsWith(dir + sep)) return send(403);
        policy = STRICT;
        probe = '/client/__probe.js';
      } else if (url.pathname.startsWith('/pkg/')) {
        const relative = url.pathname.slice('/pkg/'.length);
        if (!PACKAGE_DIRS.some((dir) => relative.startsWith(dir))) return send(404);
        file = normalize(join(ROOT, relative));
        policy = STRICT;
      } else {
        return send(url.pathname === '/favicon.ico' ? 204 : 404);
      }
      let body = await readFile(file);
      if (extname(file) === '.html') body = withProbe(body.toString('utf8'), probe);
      send(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', ...(policy ? { 'Content-Security-Policy': policy } : {}) }, body);
    } catch {
      send(404);
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${server.address().port}` })));
}

/** What the probe saw on the tab's current page. */
const probeOf = (tab) => tab.evaluate(() => window.__probe ?? { errors: ['the probe did not run'], violations: [] });

async function assertClean(tab, label) {
  const { errors, violations } = await probeOf(tab);
  assert.deepEqual(errors, [], `${label}: errors`);
  assert.deepEqual(violations, [], `${label}: Content-Security-Policy violations`);
}

async function clientResult(tab, path, origin) {
  await tab.goto(`${origin}${path}`);
  await tab.waitFor(() => document.documentElement.dataset.result !== undefined, { timeout: 60_000 });
  return JSON.parse(await tab.evaluate(() => document.documentElement.dataset.result));
}

// Each demo page: what "ready and computed" means there, and what else the smoke test does on it.
const PAGES = [
  {
    file: 'index.html',
    done: () => document.getElementById('bar-chart').dataset.chart !== undefined && document.querySelector('[data-testid="ledger-panel"]').dataset.ready === 'true',
    async check(tab) {
      const bars = JSON.parse(await tab.evaluate(() => document.getElementById('bar-chart').dataset.chart));
      assert.equal(bars.labels.length, 6);
      assert.ok(Math.abs(bars.q.reduce((s, v) => s + v, 0) - 1) < 1e-9, 'Q sums to 1');
      await tab.evaluate(() => document.getElementById('draw').click());
      await tab.waitFor(() => document.getElementById('sample-result').textContent !== '' && document.querySelectorAll('[data-testid="ledger-entry"]').length === 1);
      assert.ok(bars.labels.includes(await tab.evaluate(() => document.getElementById('sample-result').textContent)));
    },
  },
  {
    file: 'continuous.html',
    done: () => document.querySelector('[data-testid="curve-card"]').dataset.state === 'done',
    async check(tab) {
      const summary = await tab.evaluate(() => document.querySelector('[data-testid="map-summary"]')?.textContent ?? '');
      assert.ok(summary.length > 0, 'the map summary is filled');
    },
  },
  {
    file: 'reproduce.html',
    done: () => document.querySelector('[data-testid="results"]').dataset.state === 'passed',
    async check(tab) {
      assert.ok((await tab.evaluate(() => document.querySelectorAll('[data-testid="panel"]').length)) > 0, 'the figure is drawn');
    },
  },
  {
    file: 'many-users.html',
    done: () => document.getElementById('app').dataset.result !== undefined,
    async check(tab) {
      const estimate = JSON.parse(await tab.evaluate(() => document.getElementById('estimate-chart').dataset.chart));
      assert.equal(estimate.truth.length, 10);
    },
  },
];

// The docs site's pages the browsers open: its home, a guide page, an API page.
const DOCS = [
  ['home', 'docs/index.html'],
  ['guide', 'docs/documents/Loading.html'],
  ['api', 'docs/interfaces/privsample.Sampler.html'],
];

test('docs site: the guide and the API reference are built, and every link between their pages resolves', () => {
  const docs = join(DIST, 'docs');
  assert.ok(existsSync(join(docs, 'index.html')), 'dist/docs/ is missing: run `npm run build` first');
  const pages = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name.endsWith('.html')) pages.push(join(dir, entry.name));
    }
  };
  walk(docs);
  for (const [, path] of DOCS) assert.ok(existsSync(join(DIST, path)), `${path} is built`);
  for (const title of ['Quick start', 'Choosing a mechanism', 'Collecting samples', 'Loading', 'Privacy and timing', 'Browser support', 'Versions', 'Changelog']) {
    assert.ok(existsSync(join(docs, 'documents', `${title.replaceAll(' ', '_')}.html`)), `the guide page “${title}”`);
  }
  const broken = [];
  for (const page of pages) {
    const html = readFileSync(page, 'utf8');
    for (const [, href] of html.matchAll(/href="([^"#?]+)(?:[#?][^"]*)?"/g)) {
      if (/^[a-z]+:/i.test(href) || href.startsWith('//')) continue; // another site
      const target = normalize(join(dirname(page), decodeURIComponent(href)));
      if (!target.startsWith(DIST + sep)) broken.push(`${page.slice(DIST.length)}: ${href} leaves the site`);
      else if (!existsSync(target)) broken.push(`${page.slice(DIST.length)}: ${href}`);
    }
  }
  assert.deepEqual(broken, [], 'links between the docs pages (and to the demo)');
  assert.ok(pages.length > 40, `${pages.length} pages`);
});

for (const name of NAMES) {
  describe(`${name}: the client entry and every demo page`, { timeout: 300_000, skip: missing(name) ?? false }, () => {
    let served;
    let browser;
    let tab;
    before(async () => {
      assert.ok(existsSync(join(DIST, 'index.html')), 'dist/ is missing: run `npm run build` first');
      const policy = cspOf(await readFile(join(DIST, 'index.html'), 'utf8'));
      served = await startServer(policy);
      browser = await launch(name);
      tab = await browser.newTab({ width: 1280, height: 800 });
      mkdirSync(SHOTS, { recursive: true });
    });
    after(async () => {
      await browser?.close().catch(() => {});
      await new Promise((resolve) => (served ? served.server.close(resolve) : resolve()));
      served?.server.closeAllConnections?.();
    });

    test(`${name} runs (version)`, (t) => {
      t.diagnostic(`${name}: ${browser.version}`);
    });

    if (name !== 'chromium') {
      test('client entry under the strict policy: init({ wasm: URL }) and init(), a sample, a Web Worker', async () => {
        for (const path of ['/client/page.html', '/client/page.html?default']) {
          const result = await clientResult(tab, path, served.origin);
          assert.equal(result.ok, true, `${path}: ${result.error}`);
          assert.ok(Number.isInteger(result.sample) && result.sample >= 0 && result.sample < 4, `${path}: sample ${result.sample}`);
          await assertClean(tab, path);
        }
        const worker = await clientResult(tab, '/client/page.html?worker', served.origin);
        assert.equal(worker.ok, true, worker.error);
        assert.equal(worker.worker?.ok, true, worker.worker?.error);
        assert.ok(Number.isInteger(worker.worker.sample) && worker.worker.sample < 4, `worker sample ${worker.worker.sample}`);
        await assertClean(tab, 'worker');
      });

      test('client entry: the ledger keeps its entries in IndexedDB across a reload and refuses past the budget', async () => {
        const first = await clientResult(tab, '/client/page.html?ledger', served.origin);
        assert.equal(first.ok, true, first.error);
        assert.equal(first.before, 0);
        assert.match(first.release, /^released \d$/);
        assert.deepEqual(first.spent, { notion: 'ldp', epsilon: 1, delta: 0, releases: 1 });
        const second = await clientResult(tab, '/client/page.html?ledger', served.origin);
        assert.equal(second.before, 1, 'the entry survived the reload');
        assert.match(second.release, /^RangeError: purpose 'survey': .*together 2 > budget epsilon = 1\.5/);
        await assertClean(tab, 'ledger');
      });
    }

    for (const page of PAGES) {
      test(`${page.file}: ready, computed, no errors; fits 1280 px and a phone's width (screenshots)`, async () => {
        const stem = page.file.replace('.html', '');
        await tab.resize(1280, 800);
        await tab.goto(`${served.origin}${PREFIX}${page.file}`);
        await tab.waitFor(() => document.querySelector('[data-testid="status"]')?.dataset.state !== 'loading', { timeout: 60_000 });
        const status = await tab.evaluate(() => [document.querySelector('[data-testid="status"]').dataset.state, document.querySelector('[data-testid="status"]').textContent]);
        assert.equal(status[0], 'ready', `status: ${status[1]}`);
        await tab.waitFor(page.done, { timeout: 90_000 });
        await tab.waitFor(() => document.getElementById('app').dataset.busy === 'false', { timeout: 60_000 });
        await page.check(tab);
        await assertClean(tab, page.file);
        await tab.screenshot(join(SHOTS, `${name}-${stem}-1280.png`));

        // A phone's width. WebKitGTK's MiniBrowser cannot be made that narrow: it is checked at its narrowest.
        const [width] = await tab.resize(390, 844);
        if (name !== 'webkit') assert.equal(width, 390, 'the viewport is 390 px wide');
        await tab.evaluate(() => new Promise((resolve) => setTimeout(resolve, 400))); // charts follow their boxes
        const widths = await tab.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
        assert.ok(widths[0] <= widths[1], `${page.file} at ${width} px: scrollWidth ${widths[0]} > innerWidth ${widths[1]}`);
        await assertClean(tab, `${page.file} at ${width} px`);
        await tab.screenshot(join(SHOTS, `${name}-${stem}-${width}.png`));
      });
    }

    test('docs site: its home, a guide page and an API page load with no error (screenshots)', async () => {
      for (const [label, path] of DOCS) {
        for (const wanted of label === 'home' ? [1280, 390] : [1280]) {
          const [width] = await tab.resize(wanted, 800);
          await tab.goto(`${served.origin}${PREFIX}${path}`);
          await tab.waitFor(() => document.querySelector('.tsd-page-title h1, .tsd-typography h1, h1') !== null && document.body.style.display !== 'none');
          await tab.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
          await assertClean(tab, path);
          await tab.screenshot(join(SHOTS, `${name}-docs-${label}-${width}.png`));
        }
      }
    });
  });
}
