// Browser end-to-end test of the reproductions page (dist/reproduce.html; run `npm run build` first), in Debian's
// Chromium:  node --test tests/e2e/
// Serves dist/ under a sub-path (/demo/privsample/) from an in-process static server on 127.0.0.1, opens the
// histogram page and follows its header link to the reproductions page, then runs local-fig4 with 10 clients per
// budget: the progress bar advances in steps (recorded by a MutationObserver) up to budgets × samplers × clients,
// the main thread keeps firing timers during the run, the three grouped bar charts and the table appear, and every
// measured worst divergence is <= its closed-form bound (read from the table's data-measured / data-bound and the
// charts' data-chart); the verdict says so. local-fig10 and minimax-fig4 (10 clients) likewise. A 100-client run:
// the y-axis toggle redraws the charts while the worker is still running, and Stop ends a run. Checks that no
// request leaves 127.0.0.1, nothing is logged as an error and the Content-Security-Policy holds.
// Screenshot: test-output/e2e/reproduce.png.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = join(ROOT, 'dist');
const OUTPUT = join(ROOT, 'test-output', 'e2e');
const PREFIX = '/demo/privsample/';
const CHROMIUM = '/usr/bin/chromium';
const STEP_TIMEOUT = 15_000;
const SLACK = 1e-9; // relative, as in scripts/reproduce.mjs

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.csv': 'text/csv; charset=utf-8',
  '.png': 'image/png',
  '.json': 'application/json',
};

// Static server for dist/ under PREFIX; anything outside PREFIX is a 404 and is recorded.
function startServer(csp) {
  const log = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const entry = { path: url.pathname, status: 0 };
    log.push(entry);
    const send = (status, headers = {}, body = '') => {
      entry.status = status;
      res.writeHead(status, { 'Cache-Control': 'no-store', ...headers });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405);
    if (!url.pathname.startsWith(PREFIX)) return send(404, {}, 'outside the sub-path');
    let relative = decodeURIComponent(url.pathname.slice(PREFIX.length));
    if (relative === '' || relative.endsWith('/')) relative += 'index.html';
    const file = normalize(join(DIST, relative));
    if (!file.startsWith(DIST + sep)) return send(403);
    try {
      const body = await readFile(file);
      const headers = { 'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' };
      // A dedicated worker does not inherit the page's <meta> policy: send it with every script.
      if (extname(file) === '.js') headers['Content-Security-Policy'] = csp;
      send(200, headers, req.method === 'HEAD' ? '' : body);
    } catch {
      send(404, {}, 'not found');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve({ server, log, port: server.address().port }));
  });
}

function cspOf(html) {
  const match = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i.exec(html);
  return match ? match[1] : null;
}

let server;
let browser;
let page;
let baseUrl;
const requests = [];
const consoleErrors = [];
const pageErrors = [];
let aborted = false;

function step(name, fn) {
  test(name, async (t) => {
    if (aborted) {
      t.skip('an earlier step failed');
      return;
    }
    try {
      await fn(t);
    } catch (error) {
      aborted = true;
      try {
        mkdirSync(OUTPUT, { recursive: true });
        await page?.screenshot({ path: join(OUTPUT, 'reproduce-failure.png'), fullPage: true });
      } catch {
        // only a debugging aid
      }
      throw error;
    }
  });
}

/** Polls fn() until it returns a truthy value (and, unless anyBusy, the page has nothing pending). */
async function waitFor(what, fn, { timeout = STEP_TIMEOUT, anyBusy = false } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last && (anyBusy || (await page.getByTestId('app').getAttribute('data-busy')) === 'false')) return last;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const seen = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`timed out waiting for ${what} (last seen: ${String(seen).slice(0, 300)})`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Every measured cell of the table: { measured, bound, within, divergence, sampler, budget }. */
async function tableValues() {
  return page.locator('[data-testid="results-table"] td[data-testid="measured"]').evaluateAll((cells) => cells.map((c) => ({
    measured: Number(c.dataset.measured),
    bound: Number(c.dataset.bound),
    within: c.dataset.within,
    divergence: c.dataset.divergence,
    sampler: c.dataset.sampler,
    budget: Number(c.dataset.budget),
  })));
}

async function chartData(f) {
  const raw = await page.getByTestId(`chart-${f}`).getAttribute('data-chart');
  return raw ? JSON.parse(raw) : null;
}

/** Starts recording the progress bar's values and the main thread's timer gaps, then clicks Run. */
async function startRun(name, clients) {
  await page.getByTestId('experiment-select').selectOption(name);
  await page.getByTestId('clients-select').selectOption(String(clients));
  await page.evaluate(() => {
    const bar = document.querySelector('[data-testid="progress"]');
    const rec = { values: [], gaps: [], last: performance.now() };
    window.__run = rec;
    rec.observer?.disconnect();
    rec.observer = new MutationObserver(() => rec.values.push({ value: bar.value, max: bar.max }));
    rec.observer.observe(bar, { attributes: true, attributeFilter: ['value', 'max'] });
    rec.timer = setInterval(() => {
      const now = performance.now();
      rec.gaps.push(now - rec.last);
      rec.last = now;
    }, 10);
  });
  await page.getByTestId('run').click();
}

async function runDone(name, clients) {
  const done = await waitFor(`${name} with ${clients} clients`, async () => {
    const state = await page.getByTestId('results').getAttribute('data-state');
    if (state === 'error') throw new Error(await page.getByTestId('run-error').textContent());
    const c = await chartData('kl');
    return state === 'done' && c && c.name === name && c.clients === clients ? c : null;
  }, { timeout: 60_000 });
  const rec = await page.evaluate(() => {
    const r = window.__run;
    clearInterval(r.timer);
    r.observer.disconnect();
    return { values: r.values, gaps: r.gaps };
  });
  return { chart: done, rec };
}

/** Table, charts and verdict of a finished run: everything measured is within its bound. */
async function checkResults(name, clients, { budgets, samplers }) {
  const values = await tableValues();
  assert.equal(values.length, budgets.length * samplers.length * 3, `${name}: one measured cell per budget × sampler × divergence`);
  for (const v of values) {
    assert.ok(Number.isFinite(v.measured) && v.measured >= -1e-12, `${name} ${v.sampler} ${v.divergence} at ${v.budget}: measured ${v.measured}`);
    assert.ok(Number.isFinite(v.bound) && v.bound > 0, `${name} ${v.sampler} ${v.divergence} at ${v.budget}: bound ${v.bound}`);
    assert.ok(v.measured <= v.bound * (1 + SLACK), `${name} ${v.sampler} ${v.divergence} at ${v.budget}: measured ${v.measured} > bound ${v.bound}`);
    assert.equal(v.within, 'true');
    if (v.divergence !== 'kl') assert.ok(v.bound <= 1 + 1e-12, `${v.divergence} bound at most 1`);
  }
  assert.deepEqual([...new Set(values.map((v) => v.budget))], budgets);
  assert.deepEqual([...new Set(values.map((v) => v.sampler))], samplers);
  for (const f of ['kl', 'tv', 'hellinger']) {
    const c = await chartData(f);
    assert.equal(c.name, name);
    assert.equal(c.clients, clients);
    assert.deepEqual(c.labels, budgets.map(String));
    assert.deepEqual(c.series.map((s) => s.sampler), samplers);
    for (const s of c.series) {
      s.measured.forEach((m, i) => assert.ok(m <= s.bound[i] * (1 + SLACK), `chart ${f} ${s.sampler} at ${budgets[i]}: ${m} > ${s.bound[i]}`));
      // The chart shows the table's numbers.
      s.measured.forEach((m, i) => assert.equal(m, values.find((v) => v.divergence === f && v.sampler === s.sampler && v.budget === budgets[i]).measured));
    }
    // The canvas is drawn (some non-white pixels).
    const inked = await page.getByTestId(`chart-${f}`).evaluate((canvas) => {
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0 && data[i] + data[i + 1] + data[i + 2] < 600) n += 1;
      return n;
    });
    assert.ok(inked > 2000, `chart ${f} has ${inked} inked pixels`);
  }
  const verdict = page.getByTestId('verdict');
  assert.equal(await verdict.getAttribute('data-ok'), 'true');
  assert.equal(await verdict.getAttribute('data-over'), '0');
  assert.match(await verdict.textContent(), new RegExp(`All ${values.length} measured values are within their bounds`));
  assert.match(await page.getByTestId('results-of').textContent(), new RegExp(`${name}, ${clients} clients per budget, 8000 grid cells`));
  return values;
}

/** The progress bar went up in several steps to budgets × samplers × clients. */
function checkProgress(rec, total) {
  const values = rec.values.filter((v) => v.max === total).map((v) => v.value);
  assert.ok(values.length >= 3, `progress bar updated ${values.length} times: ${JSON.stringify(rec.values.slice(0, 20))}`);
  for (let i = 1; i < values.length; i += 1) assert.ok(values[i] >= values[i - 1], `progress never goes back (${values[i - 1]} → ${values[i]})`);
  assert.equal(values.at(-1), total, 'the bar ends full');
  const between = new Set(values.filter((v) => v > 0 && v < total));
  assert.ok(between.size >= 2, `intermediate progress values: ${[...between].join(', ')}`);
}

describe('privsample reproductions page in Chromium, served from a sub-path', { timeout: 180_000 }, () => {
  before(async () => {
    assert.ok(existsSync(join(DIST, 'reproduce.html')), 'dist/reproduce.html is missing: run `npm run build` first');
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing (Debian package chromium)`);
    const csp = cspOf(readFileSync(join(DIST, 'reproduce.html'), 'utf8'));
    assert.ok(csp, 'dist/reproduce.html declares a Content-Security-Policy in a <meta http-equiv>');
    assert.equal(csp, cspOf(readFileSync(join(DIST, 'index.html'), 'utf8')), 'the pages have the same policy');
    server = await startServer(csp);
    baseUrl = `http://127.0.0.1:${server.port}${PREFIX}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
    context.on('request', (request) => requests.push(request.url()));
    page = await context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT);
    page.on('worker', (worker) => {
      requests.push(worker.url());
      worker.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(`worker: ${message.text()}`);
      });
    });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${message.text()} @ ${message.location()?.url ?? ''}`);
    });
    page.on('pageerror', (error) => pageErrors.push(String(error?.stack ?? error)));
    await page.addInitScript(() => {
      window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await new Promise((resolve) => (server ? server.server.close(resolve) : resolve()));
    server?.server.closeAllConnections?.();
  });

  step('the histogram page links to the reproductions page; the worker loads', async () => {
    const response = await page.goto(baseUrl, { waitUntil: 'load' });
    assert.equal(response.status(), 200);
    await page.getByTestId('link-reproduce').click();
    await page.waitForURL(`${baseUrl}reproduce.html`);
    await page.waitForSelector('[data-testid="status"][data-state="ready"]', { timeout: 20_000 });
    assert.match(await page.getByTestId('status').textContent(), /Ready: privsample \d+\.\d+\.\d+/);
    const workers = page.workers();
    assert.equal(workers.length, 1, 'one Web Worker');
    assert.match(workers[0].url(), /\/demo\/privsample\/assets\/reproduce-worker-[\w-]+\.js$/);
    assert.equal(await page.getByTestId('results').getAttribute('data-state'), 'idle');
    assert.equal(await page.getByTestId('run').isEnabled(), true);
    assert.equal(await page.getByTestId('clients-select').inputValue(), '10', '10 clients by default');
    assert.match(await page.getByTestId('experiment-title').textContent(), /Ghoukasian et al\. Fig\. 4/);
    assert.match(await page.getByTestId('experiment-setup').textContent(), /npm run reproduce -- local-fig4 --clients 10/);
  });

  step('local-fig4, 10 clients: the progress bar advances, the page stays responsive, every measured value <= its bound', async () => {
    const started = Date.now();
    await startRun('local-fig4', 10);
    assert.equal(await page.getByTestId('app').getAttribute('data-busy'), 'true');
    const { rec } = await runDone('local-fig4', 10);
    const ms = Date.now() - started;
    checkProgress(rec, 4 * 2 * 10);
    const maxGap = Math.max(...rec.gaps);
    assert.ok(maxGap < 250, `the main thread fired a 10 ms timer at most ${maxGap.toFixed(0)} ms apart during the run`);
    await checkResults('local-fig4', 10, { budgets: [0.1, 0.5, 1, 2], samplers: ['global', 'local'] });
    assert.match(await page.getByTestId('run-status').textContent(), /local-fig4: done in [0-9.]+ s/);
    assert.equal(await page.getByTestId('run').isEnabled(), true);
    console.log(`# local-fig4, 10 clients: ${ms} ms in the page, ${rec.values.length} progress updates, max timer gap ${maxGap.toFixed(0)} ms`);
  });

  step('local-fig10 and minimax-fig4, 10 clients: within their bounds too', async () => {
    for (const [name, budgets, samplers] of [
      ['local-fig10', [0.1, 0.5, 1, 2], ['global', 'local']],
      ['minimax-fig4', [0.1, 0.5, 1, 2, 5], ['proposed']],
    ]) {
      await startRun(name, 10);
      const { rec } = await runDone(name, 10);
      checkProgress(rec, budgets.length * samplers.length * 10);
      await checkResults(name, 10, { budgets, samplers });
    }
  });

  step('100 clients: the charts react to the y-axis toggle while the worker runs; Stop ends a run', async () => {
    // Stop: a run of local-fig10 with 100 clients, stopped after its first steps; the old results stay.
    await startRun('local-fig10', 100);
    await waitFor('the first progress steps', async () => Number(await page.getByTestId('progress').getAttribute('data-done')) > 0 &&
      Number(await page.getByTestId('progress').getAttribute('data-total')) === 800, { anyBusy: true });
    await page.getByTestId('stop').click();
    await waitFor('the stopped run', async () => /stopped/.test(await page.getByTestId('run-status').textContent()));
    assert.equal((await chartData('kl')).name, 'minimax-fig4', 'the previous results are still shown');
    await page.evaluate(() => {
      clearInterval(window.__run.timer);
      window.__run.observer.disconnect();
    });

    await startRun('local-fig4', 100);
    await waitFor('the 100-client run under way', async () => {
      const done = Number(await page.getByTestId('progress').getAttribute('data-done'));
      return Number(await page.getByTestId('progress').getAttribute('data-total')) === 800 && done > 0 && done < 800;
    }, { anyBusy: true, timeout: 20_000 });
    const lag = await page.evaluate(() => new Promise((resolve) => {
      const t = performance.now();
      setTimeout(() => resolve(performance.now() - t), 0);
    }));
    assert.ok(lag < 200, `a timer fired after ${lag} ms`);
    assert.equal((await chartData('kl')).scale, 'linear');
    await page.getByTestId('log-scale').check();
    const redrawn = await chartData('kl');
    assert.equal(redrawn.scale, 'log', 'the chart was redrawn on a log axis');
    const done = Number(await page.getByTestId('progress').getAttribute('data-done'));
    assert.ok(done < 800 && (await page.getByTestId('results').getAttribute('data-state')) === 'running',
      `the redraw happened while the run was going (${done} of 800)`);
    const { rec } = await runDone('local-fig4', 100);
    checkProgress(rec, 800);
    await checkResults('local-fig4', 100, { budgets: [0.1, 0.5, 1, 2], samplers: ['global', 'local'] });
    assert.equal((await chartData('tv')).scale, 'log', 'the new results keep the log axis');
    await page.getByTestId('log-scale').uncheck();
    assert.equal((await chartData('tv')).scale, 'linear');
  });

  step('screenshot: local-fig4 with 100 clients', async () => {
    await page.mouse.move(0, 0);
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'reproduce.png'), fullPage: true });
  });

  test('no request left 127.0.0.1, every file came from the sub-path, no errors, no CSP violation', async () => {
    assert.ok(server, 'the server started');
    const outside = requests.filter((url) => {
      if (url.startsWith('data:') || url.startsWith('blob:')) return false;
      const u = new URL(url);
      return u.hostname !== '127.0.0.1' || u.port !== String(server.port);
    });
    assert.deepEqual(outside, [], 'requests to other hosts');
    assert.ok(requests.length > 0, 'requests were recorded');
    assert.deepEqual(server.log.filter((e) => !e.path.startsWith(PREFIX)), [], 'requests outside the sub-path');
    assert.deepEqual(server.log.filter((e) => e.status >= 400), [], 'failed requests');
    assert.ok(server.log.some((e) => /\/assets\/reproduce-worker-[\w-]+\.js$/.test(e.path)), 'the worker script was served from the sub-path');
    assert.deepEqual(pageErrors, [], 'uncaught page errors');
    assert.deepEqual(consoleErrors, [], 'console errors');
    if (page) assert.deepEqual(await page.evaluate(() => window.__cspViolations), [], 'CSP violations');
  });
});
