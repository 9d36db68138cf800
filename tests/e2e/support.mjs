// Shared by the browser end-to-end tests: where things are, a static server for dist/ under a sub-path, and a
// Chromium page that records every request and error.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CONTENT_TYPES } from './browsers.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DIST = join(ROOT, 'dist');
export const OUTPUT = join(ROOT, 'test-output', 'e2e');
export const PREFIX = '/demo/privsample/';
export const CHROMIUM = '/usr/bin/chromium';


// ---------------------------------------------------------------------------------------------
// Static server for dist/ under PREFIX. Anything outside PREFIX is a 404 and is recorded: a page built
// with absolute URLs would ask for /assets/… and fail here.
export function startServer(csp) {
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
    if (url.pathname === PREFIX.slice(0, -1)) return send(301, { Location: PREFIX });
    if (!url.pathname.startsWith(PREFIX)) return send(404, {}, 'outside the sub-path');
    let relative = decodeURIComponent(url.pathname.slice(PREFIX.length));
    if (relative === '' || relative.endsWith('/')) relative += 'index.html';
    const file = normalize(join(DIST, relative));
    if (!file.startsWith(DIST + sep)) return send(403);
    try {
      const body = await readFile(file);
      const headers = { 'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' };
      // A dedicated worker does not inherit the page's <meta> policy; it gets the one delivered with its
      // script. Send the page's policy with every script so the worker (which loads the WASM) runs under it too.
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

export function cspOf(html) {
  const match = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i.exec(html);
  return match ? match[1] : null;
}

// Serves dist/ (with the policy of dist/<pageFile>, which must equal index.html's), launches Debian's Chromium and
// opens one page whose requests (page and workers), console errors and page errors are pushed onto `records`;
// CSP violations collect in window.__cspViolations. Returns { server, browser, page, baseUrl }.
export async function openDemoPage(pageFile, stepTimeout, records) {
  assert.ok(existsSync(join(DIST, pageFile)), `dist/${pageFile} is missing: run \`npm run build\` first`);
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing (Debian package chromium)`);
  const csp = cspOf(readFileSync(join(DIST, pageFile), 'utf8'));
  assert.ok(csp, `dist/${pageFile} declares a Content-Security-Policy in a <meta http-equiv>`);
  assert.equal(csp, cspOf(readFileSync(join(DIST, 'index.html'), 'utf8')), 'the pages have the same policy');
  const server = await startServer(csp);
  const baseUrl = `http://127.0.0.1:${server.port}${PREFIX}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  context.on('request', (request) => records.requests.push(request.url()));
  const page = await context.newPage();
  page.setDefaultTimeout(stepTimeout);
  page.on('worker', (worker) => {
    records.requests.push(worker.url());
    worker.on('console', (message) => {
      if (message.type() === 'error') records.consoleErrors.push(`worker: ${message.text()}`);
    });
  });
  page.on('console', (message) => {
    if (message.type() === 'error') records.consoleErrors.push(`${message.text()} @ ${message.location()?.url ?? ''}`);
  });
  page.on('pageerror', (error) => records.pageErrors.push(String(error?.stack ?? error)));
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return { server, browser, page, baseUrl };
}

// Closes what openDemoPage opened (either may be undefined when before() failed early).
export async function closeDemoPage(server, browser) {
  await browser?.close().catch(() => {});
  await new Promise((resolve) => (server ? server.server.close(resolve) : resolve()));
  server?.server.closeAllConnections?.();
}

/**
 * The e2e files' `step(name, fn)`: a node:test test that is skipped once an earlier step failed (the steps share one
 * page), and that saves `<OUTPUT>/<label>-failure.png` of currentPage() when it fails.
 */
export function stepsFor(label, currentPage) {
  let aborted = false;
  return function step(name, fn) {
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
          await currentPage()?.screenshot({ path: join(OUTPUT, `${label}-failure.png`), fullPage: true });
        } catch {
          // the screenshot is only a debugging aid
        }
        throw error;
      }
    });
  };
}

/** Saves a screenshot of `target` (a page or a locator) as `<OUTPUT>/<name>`. */
export async function saveScreenshot(target, name, options = {}) {
  mkdirSync(OUTPUT, { recursive: true });
  await target.screenshot({ path: join(OUTPUT, name), ...options });
}

/** The ε slider of a page: presses `key` `times` times on it. */
export async function pressSlider(page, key, times = 1) {
  const slider = page.getByTestId('epsilon-slider');
  await slider.focus();
  for (let i = 0; i < times; i += 1) await slider.press(key);
}

/** The ε the page shows beside its slider ("ε = 0.5"), as a number. */
export async function epsilonShown(page) {
  const text = (await page.getByTestId('epsilon-value').textContent()).trim();
  const match = /^ε = ([0-9.]+)$/.exec(text);
  assert.ok(match, `ε label "${text}"`);
  return Number(match[1]);
}

/** A phone (390 × 844, touch) in a new context of `browser`, whose requests, console errors and page errors go to `records`. */
export async function openPhone(browser, records) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  context.on('request', (request) => records.requests.push(request.url()));
  const phone = await context.newPage();
  phone.on('console', (message) => {
    if (message.type() === 'error') records.consoleErrors.push(`phone: ${message.text()}`);
  });
  phone.on('pageerror', (error) => records.pageErrors.push(String(error?.stack ?? error)));
  return { context, phone };
}

/**
 * Asserts that `page` scrolls no wider than its window and that no element (outside `ignore`, a selector of parts that
 * may be wider, e.g. visually hidden text or a scrolling table) sticks out of the screen: an overflowing element clipped
 * by its card would still be cut off.
 */
export async function assertFitsScreen(page, label, ignore = '.visually-hidden') {
  const widths = await page.evaluate((skip) => {
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 && !e.closest(skip))
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className} right=${Math.round(e.getBoundingClientRect().right)}`);
    return { scroll: document.documentElement.scrollWidth, inner: window.innerWidth, wide };
  }, ignore);
  assert.ok(widths.scroll <= widths.inner, `${label}: scrollWidth ${widths.scroll} > innerWidth ${widths.inner} (${widths.wide.join('; ')})`);
  assert.deepEqual(widths.wide, [], `${label}: elements wider than the screen`);
}

/**
 * What every e2e file checks at its end: every request (URLs, or { url } records) went to the page's own server or
 * was a data:/blob: URL, requests were recorded at all, and no page error or console error was logged.
 */
export function assertStayedLocal({ requests, pageErrors, consoleErrors }, server) {
  assert.ok(server, 'the server started');
  const outside = requests
    .map((request) => (typeof request === 'string' ? request : request.url))
    .filter((url) => {
      if (url.startsWith('data:') || url.startsWith('blob:')) return false;
      const u = new URL(url);
      return u.hostname !== '127.0.0.1' || u.port !== String(server.port);
    });
  assert.deepEqual(outside, [], 'requests to other hosts');
  assert.ok(requests.length > 0, 'requests were recorded');
  assert.deepEqual(pageErrors, [], 'uncaught page errors');
  assert.deepEqual(consoleErrors, [], 'console errors');
}

/** Every file the server was asked for lay under the sub-path PREFIX and was found. */
export function assertServedFromPrefix(server) {
  assert.deepEqual(server.log.filter((e) => !e.path.startsWith(PREFIX)), [], 'requests outside the sub-path');
  assert.deepEqual(server.log.filter((e) => e.status >= 400), [], 'failed requests');
}

/**
 * One e2e file's demo page: `records` collects its requests and errors from the start; open() (in before()) serves
 * dist/, launches Chromium and opens `pageFile` (openDemoPage), keeping `server` and `browser`, and returns what it
 * opened ({ server, browser, page, baseUrl }); close() (in after()) closes both.
 */
export function demoSession(pageFile, stepTimeout) {
  const session = {
    records: { requests: [], consoleErrors: [], pageErrors: [] },
    server: undefined,
    browser: undefined,
    async open() {
      const opened = await openDemoPage(pageFile, stepTimeout, session.records);
      session.server = opened.server;
      session.browser = opened.browser;
      return opened;
    },
    close: () => closeDemoPage(session.server, session.browser),
  };
  return session;
}

/**
 * Waits until page `p` of the histogram demo has no computation pending and its bar chart's data (data-chart)
 * satisfies predicate (run here, in Node); returns that data.
 */
export async function waitForBarsOf(p, predicate, timeout) {
  const deadline = Date.now() + timeout;
  let seen = null;
  for (;;) {
    const busy = await p.getByTestId('app').getAttribute('data-busy');
    seen = JSON.parse((await p.getByTestId('bar-chart').getAttribute('data-chart')) ?? 'null');
    if (busy === 'false' && seen && predicate(seen)) return seen;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for the bar chart (last seen: ${JSON.stringify(seen)?.slice(0, 300)})`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}
