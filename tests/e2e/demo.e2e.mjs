// Browser end-to-end test of the demo site in dist/ (run `npm run build` first), in Debian's Chromium.
//   node --test tests/e2e/
// It serves dist/ under a sub-path (/demo/privsample/) from an in-process static server on 127.0.0.1,
// drives the page like a person (table, CSV paste, ε slider by keyboard, f select, sample button), reads
// the numbers each chart shows from the data-chart attribute of its canvas, and checks that no request
// leaves 127.0.0.1, that nothing is logged as an error and that the Content-Security-Policy holds.
// It also switches mechanisms (minimax → local with a public prior → ROO → …) and checks the guarantee line,
// the bars and the multi-mechanism comparison chart. Full-page screenshots are saved to test-output/e2e/demo.png
// and test-output/e2e/compare.png; the privacy accountant panel is checked for every mechanism
// (test-output/e2e/accountant.png and accountant-panel.png).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { CHROMIUM, DIST, PREFIX, assertServedFromPrefix, assertStayedLocal, closeDemoPage, cspOf, epsilonShown, pressSlider, saveScreenshot, startServer, stepsFor } from './support.mjs';

const STEP_TIMEOUT = 10_000;

const DEFAULT_NAMES = ['Walk', 'Bicycle', 'Bus', 'Train', 'Car', 'Scooter'];
const DEFAULT_COUNTS = [9, 6, 4, 2, 1, 0];

// ---------------------------------------------------------------------------------------------
let server;
let browser;
let context;
let page;
let baseUrl;
let csp;
const requests = []; // every request the browser made: { url, from }
const consoleErrors = [];
const pageErrors = [];
let aborted = false; // an earlier step failed: later steps skip instead of piling up timeouts

async function chart(testid) {
  const raw = await page.getByTestId(testid).getAttribute('data-chart');
  return raw ? JSON.parse(raw) : null;
}

async function canvasImage(testid) {
  return page.getByTestId(testid).evaluate((canvas) => canvas.toDataURL('image/png'));
}

/** Polls fn() until it returns a truthy value and the page has no computation pending. */
async function waitFor(what, fn, lastSeen = () => undefined, timeout = STEP_TIMEOUT) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last && (await page.getByTestId('app').getAttribute('data-busy')) === 'false') return last;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const seen = last instanceof Error ? last.message : JSON.stringify(lastSeen() ?? last);
      throw new Error(`timed out waiting for ${what} (last seen: ${seen?.slice(0, 400)})`);
    }
    await new Promise((r) => setTimeout(r, 40));
  }
}

/** Waits until the chart's data (its canvas's data-chart JSON) satisfies predicate; returns that data. */
async function waitForChart(testid, what, predicate) {
  let seen;
  return waitFor(
    what,
    async () => {
      seen = await chart(testid);
      return seen && predicate(seen) ? seen : null;
    },
    () => seen,
  );
}

const sameArray = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const sum = (xs) => xs.reduce((s, x) => s + x, 0);

/**
 * The properties every displayed Q(·|P) must have: a pmf, P a pmf matching the counts; for a pure-LDP
 * mechanism (the default minimax) inside the ε-LDP box.
 */
function checkBars(state, names, counts, epsilon, mechanism = 'minimax', prior = null) {
  assert.deepEqual(state.labels, names, 'bar chart categories');
  assert.equal(state.epsilon, epsilon, 'bar chart ε');
  assert.equal(state.mechanism, mechanism, 'bar chart mechanism');
  assert.equal(state.p.length, names.length);
  assert.equal(state.q.length, names.length);
  const total = sum(counts);
  state.p.forEach((p, i) => assert.ok(Math.abs(p - counts[i] / total) < 1e-12, `P[${i}] = ${p}, expected ${counts[i]}/${total}`));
  assert.ok(Math.abs(sum(state.q) - 1) < 1e-9, `Q sums to ${sum(state.q)}`);
  if (state.guarantee.notion !== 'pure-ldp') return;
  assert.equal(state.guarantee.epsilon, epsilon, 'guarantee ε');
  // Every output probability lies in a box [c·P0(x), e^ε·c·P0(x)] around the reference (uniform, or the
  // local samplers' public prior): so Q(x)/P0(x) varies by at most e^ε.
  const reference = prior ? prior.map((v) => v / sum(prior)) : state.q.map(() => 1);
  const ratios = state.q.map((q, i) => q / reference[i]);
  const max = Math.max(...ratios);
  const min = Math.min(...ratios);
  assert.ok(min > 0, 'Q* is positive everywhere');
  assert.ok(max / min <= Math.exp(epsilon) * (1 + 1e-9), `Q ratio ${max / min} exceeds e^ε = ${Math.exp(epsilon)} (${state.mechanism}: ${state.q})`);
}

const COMPARED = ['minimax', 'linear', 'mollifier', 'local', 'roo'];

/** One mechanism's curves in the comparison chart. */
function seriesOf(state, mechanism) {
  const s = state.series.find((x) => x.mechanism === mechanism);
  assert.ok(s, `the comparison chart has ${mechanism}`);
  return s;
}

/**
 * The comparison chart: 25–40 log-spaced ε in [0.01, 10]; minimax, linear, mollifier, local, ROO (and the
 * chosen mechanism) each with a worst-case and a user curve; skipped ones say why. For the whole-histogram
 * worst cases (minimax, linear, mollifier) the user's D_f is never above the worst case, and minimax's worst
 * case is the smallest of the three (it is minimax-optimal).
 */
function checkCurve(state, f, k, epsilon, { mechanism = 'minimax', skipped = [] } = {}) {
  assert.equal(state.f, f, 'divergence f');
  assert.equal(state.k, k, 'divergence k');
  assert.equal(state.mechanism, mechanism, 'chosen mechanism');
  const eps = state.epsilon;
  assert.ok(eps.length >= 25 && eps.length <= 40, `${eps.length} ε values`);
  assert.ok(Math.abs(eps[0] - 0.01) < 1e-9 && Math.abs(eps[eps.length - 1] - 10) < 1e-9, `ε from ${eps[0]} to ${eps.at(-1)}`);
  for (let i = 1; i < eps.length; i += 1) {
    const ratio = eps[i] / eps[i - 1];
    assert.ok(Math.abs(ratio - eps[1] / eps[0]) < 1e-4, `ε grid is log-spaced at ${i}`);
  }
  const expected = COMPARED.includes(mechanism) ? COMPARED : [...COMPARED, mechanism];
  assert.deepEqual(state.series.map((s) => s.mechanism), expected, 'mechanisms in the comparison chart');
  for (const s of state.series) {
    if (skipped.includes(s.mechanism)) {
      assert.ok(typeof s.skipped === 'string' && s.skipped.length > 0, `${s.mechanism} is skipped with a reason`);
      assert.ok(state.legend.some((l) => l.includes('not applicable')), 'the legend says a mechanism is not applicable');
      continue;
    }
    assert.equal(s.skipped, null, `${s.mechanism} is drawn (${s.skipped})`);
    assert.equal(s.user.length, eps.length, `${s.mechanism}: user curve length`);
    if (s.worst) assert.equal(s.worst.length, eps.length, `${s.mechanism}: worst curve length`);
    for (let i = 0; i < eps.length; i += 1) {
      assert.ok(Number.isFinite(s.user[i]) && s.user[i] >= 0, `${s.mechanism} user[${i}] = ${s.user[i]}`);
      if (!s.worst) continue;
      assert.ok(Number.isFinite(s.worst[i]) && s.worst[i] >= 0, `${s.mechanism} worst[${i}] = ${s.worst[i]}`);
      if (i > 0) assert.ok(s.worst[i] <= s.worst[i - 1] * (1 + 1e-9) + 1e-12, `${s.mechanism}: worst case not decreasing at ε = ${eps[i]}`);
      if (f !== 'kl') assert.ok(s.worst[i] <= 1 + 1e-12, `${f} is at most 1`);
      if (['minimax', 'linear', 'mollifier'].includes(s.mechanism) || (s.mechanism === 'local' && !s.outsideNeighbourhood)) {
        assert.ok(s.user[i] <= s.worst[i] * (1 + 1e-9) + 1e-12, `${s.mechanism} at ε = ${eps[i]}: yours ${s.user[i]} > worst ${s.worst[i]}`);
      }
    }
    if (s.worst) assert.ok(s.worst[0] > s.worst.at(-1), `${s.mechanism}: more budget, less divergence`);
  }
  const minimax = seriesOf(state, 'minimax');
  for (const other of ['linear', 'mollifier']) {
    seriesOf(state, other).worst.forEach((w, i) => assert.ok(minimax.worst[i] <= w * (1 + 1e-9) + 1e-12, `minimax worst ≤ ${other} worst at ${i}`));
  }
  assert.equal(state.current.epsilon, epsilon, 'current ε marker');
  assert.equal(state.current.mechanism, mechanism, 'current marker mechanism');
  if (['minimax', 'linear', 'mollifier'].includes(mechanism)) {
    assert.ok(state.current.user <= state.current.worst * (1 + 1e-9) + 1e-12, 'current: yours ≤ worst case');
  }
}

async function tableNames() {
  return page.getByTestId('row-name').evaluateAll((inputs) => inputs.map((i) => i.value));
}

async function pasteCsv(text) {
  await page.getByTestId('csv-input').fill(text);
  await page.getByTestId('csv-apply').click();
}

const step = stepsFor('demo', () => page);

// ---------------------------------------------------------------------------------------------
describe('privsample demo in Chromium, served from a sub-path', { timeout: 90_000 }, () => {
  before(async () => {
    assert.ok(existsSync(join(DIST, 'index.html')), 'dist/index.html is missing: run `npm run build` first');
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing (Debian package chromium)`);
    csp = cspOf(readFileSync(join(DIST, 'index.html'), 'utf8'));
    assert.ok(csp, 'dist/index.html declares a Content-Security-Policy in a <meta http-equiv>');
    const started = await startServer(csp);
    server = started;
    baseUrl = `http://127.0.0.1:${started.port}${PREFIX}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
    context.on('request', (request) => requests.push({ url: request.url(), from: 'context' }));
    page = await context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT);
    page.on('request', (request) => requests.push({ url: request.url(), from: 'page' }));
    page.on('worker', (worker) => {
      requests.push({ url: worker.url(), from: 'worker' });
      worker.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(`worker: ${message.text()}`);
      });
    });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${message.text()} @ ${message.location()?.url ?? ''}`);
    });
    page.on('pageerror', (error) => pageErrors.push(String(error?.stack ?? error)));
    // Count CSP violations of the page (they are also logged as console errors).
    await page.addInitScript(() => {
      window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
  });

  after(() => closeDemoPage(server, browser));

  step('loads under the sub-path, the WASM runs in the worker, the default histogram is shown', async () => {
    const response = await page.goto(baseUrl, { waitUntil: 'load' });
    assert.equal(response.status(), 200);
    await page.waitForSelector('[data-testid="status"][data-state="ready"]', { timeout: 20_000 });
    assert.match(await page.getByTestId('status').textContent(), /Ready: privsample \d+\.\d+\.\d+/);

    // The WASM module was instantiated inside the worker, and the worker runs under the same policy
    // (the server sends it with the worker script): a request to another origin is refused there.
    const workers = page.workers();
    assert.equal(workers.length, 1, 'one Web Worker');
    assert.match(workers[0].url(), /\/demo\/privsample\/assets\/worker-[\w-]+\.js$/);
    const probe = await workers[0].evaluate(async () => {
      const violations = [];
      self.addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective));
      const outcome = await fetch('http://127.0.0.1:9/csp-probe').then(() => 'fetched', () => 'refused');
      await new Promise((r) => setTimeout(r, 50));
      return { outcome, violations };
    });
    assert.deepEqual(probe, { outcome: 'refused', violations: ['connect-src'] }, 'the worker runs under the Content-Security-Policy');
    // The request recorder sees what a worker fetches (so the final check covers the worker too).
    const seenBefore = requests.filter((r) => r.url.endsWith('/favicon.svg?from-worker')).length;
    assert.equal(await workers[0].evaluate(() => fetch('../favicon.svg?from-worker').then((r) => r.status)), 200);
    assert.ok(requests.filter((r) => r.url.endsWith('/favicon.svg?from-worker')).length > seenBefore, 'worker requests are recorded');

    const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    for (const directive of ["default-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", "object-src 'none'", "form-action 'none'"]) {
      assert.ok(meta.includes(directive), `CSP has ${directive}`);
    }
    assert.doesNotMatch(meta, /https?:|\*/, 'the CSP allows no outside origin');

    assert.deepEqual(await tableNames(), DEFAULT_NAMES);
    const bars = await waitFor('the default bar chart', () => chart('bar-chart'));
    checkBars(bars, DEFAULT_NAMES, DEFAULT_COUNTS, 1);
    // A zero count still gets the floor of the privacy box, and the sorted order of P is kept in Q*.
    assert.ok(bars.q[5] > 0 && bars.q[0] > bars.q[1] && bars.q[1] > bars.q[2]);
    checkCurve(await chart('divergence-chart'), 'kl', 6, 1);
    const qCells = await page.getByTestId('row-q').allTextContents();
    assert.equal(qCells.length, 6);
    assert.equal(Number(qCells[0]).toFixed(4), bars.q[0].toFixed(4), 'the table shows Q* too');
    assert.match(await page.getByTestId('guarantee').textContent(), /Pure ε-local differential privacy \(ε = 1\).*factor eε = e1/s);
    assert.equal(await page.getByTestId('draw-sample').isEnabled(), true);
  });

  step('editable table: add, edit and remove rows; the charts follow', async () => {
    const before = await chart('bar-chart');
    await page.getByTestId('add-row').click();
    const names = page.getByTestId('row-name');
    const counts = page.getByTestId('row-count');
    assert.equal(await names.count(), 7);
    await names.nth(6).fill('Tea');
    await counts.nth(6).fill('7');
    let expected = [...DEFAULT_NAMES, 'Tea'];
    let expectedCounts = [...DEFAULT_COUNTS, 7];
    let bars = await waitForChart('bar-chart', 'the new row in the bar chart', (s) => sameArray(s.labels, expected) && s.p[6] > 0.2);
    checkBars(bars, expected, expectedCounts, 1);
    assert.notDeepEqual(bars.q, before.q);

    await counts.nth(0).fill('20');
    expectedCounts = [20, ...expectedCounts.slice(1)];
    bars = await waitForChart('bar-chart', 'the edited count', (s) => Math.abs(s.p[0] - 20 / sum(expectedCounts)) < 1e-12);
    checkBars(bars, expected, expectedCounts, 1);

    await page.getByTestId('row-remove').nth(5).click(); // Scooter
    expected = expected.filter((n) => n !== 'Scooter');
    expectedCounts = expectedCounts.filter((_, i) => i !== 5);
    bars = await waitForChart('bar-chart', 'the removed row', (s) => sameArray(s.labels, expected));
    checkBars(bars, expected, expectedCounts, 1);
    checkCurve(await chart('divergence-chart'), 'kl', 6, 1);
    assert.deepEqual(await tableNames(), expected);
  });

  step('errors in the table: the page’s validator (shared with the CSV path) explains them next to the row', async () => {
    const counts = page.getByTestId('row-count');
    await counts.nth(2).fill('abc');
    await page.getByTestId('table-error').waitFor({ state: 'visible' });
    assert.match(await page.getByTestId('table-error').textContent(), /Row 3 \(“Bus”\): the count “abc” is not a number/);
    assert.equal(await counts.nth(2).getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByTestId('draw-sample').isDisabled(), true);
    assert.deepEqual(new Set(await page.getByTestId('row-q').allTextContents()), new Set(['—']), 'no stale Q* in the table');

    // A negative count: the page's own validator (the one the CSV path uses) says so next to the row, in words;
    // the library's raw RangeError is never shown for it.
    await counts.nth(2).fill('-2');
    await waitFor('the negative-count message', async () => /Row 3 \(“Bus”\): the count -2 is negative: counts must be non-negative numbers/.test(await page.getByTestId('table-error').textContent()));
    const rowProblem = page.locator('#row-problem-2');
    assert.match(await rowProblem.textContent(), /counts must be non-negative numbers/);
    assert.equal(await rowProblem.isVisible(), true, 'the message is shown next to the row');
    assert.equal(await counts.nth(2).getAttribute('aria-describedby'), 'row-problem-2');
    assert.equal(await page.getByTestId('library-error').isHidden(), true, 'no raw library error');
    assert.equal(await page.getByTestId('draw-sample').isDisabled(), true);

    await counts.nth(2).fill('4');
    await page.getByTestId('table-error').waitFor({ state: 'hidden' });
    assert.equal(await rowProblem.isHidden(), true);
    await waitFor('the fixed histogram', async () => (await page.getByTestId('draw-sample').isEnabled()) && (await chart('bar-chart')).p[2] > 0);
  });

  step('ε slider (keyboard): the bar chart, the ε marker and the guarantee follow', async () => {
    const bars1 = await chart('bar-chart');
    const curve1 = await chart('divergence-chart');
    const image1 = await canvasImage('divergence-chart');
    const barImage1 = await canvasImage('bar-chart');
    const names = bars1.labels;
    const counts = bars1.p; // probabilities are a histogram too

    await pressSlider(page, 'Home');
    assert.equal(await epsilonShown(page), 0.01);
    const bars2 = await waitForChart('bar-chart', 'ε = 0.01 in the bar chart', (s) => s.epsilon === 0.01);
    checkBars(bars2, names, counts, 0.01);
    assert.ok(Math.max(...bars2.q) - Math.min(...bars2.q) < 0.01, 'at ε = 0.01, Q* is nearly uniform');
    const curve2 = await chart('divergence-chart');
    checkCurve(curve2, 'kl', names.length, 0.01);
    assert.deepEqual(curve2.series, curve1.series, 'the curves themselves do not depend on the current ε');
    assert.ok(curve2.current.worst > curve1.current.worst, 'less budget, larger worst case');
    assert.notEqual(await canvasImage('divergence-chart'), image1, 'the ε marker moved');
    assert.notEqual(await canvasImage('bar-chart'), barImage1, 'the bars changed');
    assert.match(await page.getByTestId('guarantee').textContent(), /\(ε = 0\.01\)/);

    await pressSlider(page, 'End');
    assert.equal(await epsilonShown(page), 10);
    const bars3 = await waitForChart('bar-chart', 'ε = 10 in the bar chart', (s) => s.epsilon === 10);
    checkBars(bars3, names, counts, 10);
    bars3.q.forEach((q, i) => assert.ok(Math.abs(q - bars3.p[i]) < 1e-3, `at ε = 10, Q*[${i}] ≈ P[${i}]`));

    await pressSlider(page, 'ArrowLeft', 50); // 0.5 decade down: ε = 10^0.5
    assert.equal(await epsilonShown(page), 3.16);
    const bars4 = await waitForChart('bar-chart', 'ε = 3.16', (s) => s.epsilon === 3.16);
    checkBars(bars4, names, counts, 3.16);
    checkCurve(await chart('divergence-chart'), 'kl', names.length, 3.16);
    assert.equal(await page.getByTestId('epsilon-slider').getAttribute('aria-valuetext'), 'ε = 3.16');
  });

  step('f select: KL, TV and squared Hellinger curves', async () => {
    const k = (await chart('bar-chart')).labels.length;
    const epsilon = await epsilonShown(page);
    const kl = await chart('divergence-chart');
    const imageKl = await canvasImage('divergence-chart');
    const curves = { kl };
    for (const f of ['tv', 'hellinger']) {
      await page.getByTestId('divergence-select').selectOption(f);
      curves[f] = await waitForChart('divergence-chart', `the ${f} curve`, (s) => s.f === f);
      checkCurve(curves[f], f, k, epsilon);
    }
    assert.notDeepEqual(curves.tv.series, kl.series);
    assert.notDeepEqual(curves.hellinger.series, curves.tv.series);
    // Le Cam: H² ≤ TV for the papers' H² = ½Σ(√p−√q)², for every mechanism drawn.
    for (const s of curves.tv.series) {
      if (s.skipped) continue;
      const h = seriesOf(curves.hellinger, s.mechanism);
      s.user.forEach((tv, i) => assert.ok(h.user[i] <= tv + 1e-12, `${s.mechanism}: H² ≤ TV at ${i}`));
    }
    assert.notEqual(await canvasImage('divergence-chart'), imageKl, 'the divergence chart was redrawn');
    assert.match(await page.getByTestId('div-summary').textContent(), /Chosen: the minimax sampler at ε = [0-9.]+: your H² = [0-9.e-]+, worst case [0-9.e-]+/);
    await page.getByTestId('divergence-select').selectOption('kl');
    await waitFor('the KL curve again', async () => (await chart('divergence-chart')).f === 'kl');
  });

  step('CSV paste with and without a header row', async () => {
    await pasteCsv('name,count\nApples,5\nPears,3\n\nPlums,0\nFigs,12\n');
    let names = ['Apples', 'Pears', 'Plums', 'Figs'];
    let bars = await waitForChart('bar-chart', 'the pasted CSV', (s) => sameArray(s.labels, names));
    const epsilon = await epsilonShown(page);
    checkBars(bars, names, [5, 3, 0, 12], epsilon);
    assert.deepEqual(await tableNames(), names);
    assert.match(await page.getByTestId('csv-ok').textContent(), /Loaded 4 categories \(header row “name, count” skipped\)/);
    checkCurve(await chart('divergence-chart'), 'kl', 4, epsilon);

    await pasteCsv('Oak,2.5\nBirch,1.5\n"Maple, red",4\n');
    names = ['Oak', 'Birch', 'Maple, red'];
    bars = await waitForChart('bar-chart', 'the CSV without header', (s) => sameArray(s.labels, names));
    checkBars(bars, names, [2.5, 1.5, 4], epsilon);

    await page.getByTestId('csv-example').click();
    await waitFor('the example CSV in the box', async () => (await page.getByTestId('csv-input').inputValue()).includes('Jazz'));
    await page.getByTestId('csv-apply').click();
    bars = await waitForChart('bar-chart', 'the example CSV in the charts', (s) => s.labels.includes('Jazz'));
    assert.equal(bars.labels.length, 8);
    assert.equal(bars.labels[0], 'Jazz');
  });

  step('draw private samples: each shows a valid category and the ε-spend note', async () => {
    // Every draw goes through the page's privacy-budget ledger: a budget large enough for this test's draws.
    await page.waitForSelector('[data-testid="ledger-panel"][data-ready="true"]');
    await page.getByTestId('ledger-budget').fill('1000');
    const names = (await chart('bar-chart')).labels;
    const result = page.getByTestId('sample-result');
    for (let i = 1; i <= 5; i += 1) {
      await page.getByTestId('draw-sample').click();
      await page.waitForFunction((n) => document.getElementById('sample-epsilon').textContent.includes(`draw #${n},`), i);
      const name = await result.textContent();
      assert.ok(names.includes(name), `released “${name}” is one of ${names.join(', ')}`);
      assert.equal(names[Number(await result.getAttribute('data-index'))], name);
    }
    assert.match(await page.getByTestId('spend-note').textContent(), /Each draw spends the budget again/);
    assert.match(await page.getByTestId('spend-count').textContent(), /You have drawn 5 samples/);
  });

  step('a bad CSV shows clear errors, keeps the table, and the page keeps working', async () => {
    const before = await chart('bar-chart');
    await pasteCsv('Apples,5\nPears,-3\nPlums,abc\nFigs\n,4\n');
    const error = page.getByTestId('csv-error');
    await error.waitFor({ state: 'visible' });
    const text = await error.textContent();
    assert.match(text, /not used \(your table is unchanged\)/);
    assert.match(text, /Line 2: the count -3 is negative/);
    assert.match(text, /Line 3: the count “abc” is not a number/);
    assert.match(text, /Line 4: expected 2 fields “name,count”, found 1/);
    assert.match(text, /Line 5: the category name is empty/);
    assert.equal(await page.getByTestId('csv-input').getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await tableNames(), before.labels, 'the table is unchanged');
    assert.deepEqual((await chart('bar-chart')).labels, before.labels);

    await pasteCsv('');
    assert.match(await error.textContent(), /The CSV is empty/);

    // Still working: the slider, the charts and the sample button respond.
    await pressSlider(page, 'ArrowLeft', 66); // 3.16 → 10^−0.16 ≈ 0.692
    const epsilon = await epsilonShown(page);
    assert.equal(epsilon, 0.692);
    const bars = await waitForChart('bar-chart', 'ε after the bad CSV', (s) => s.epsilon === epsilon);
    checkBars(bars, before.labels, before.p, epsilon);
    await page.getByTestId('draw-sample').click();
    await page.waitForFunction(() => document.getElementById('sample-epsilon').textContent.includes('draw #6,'));
    assert.ok(before.labels.includes(await page.getByTestId('sample-result').textContent()));

    // A good CSV clears the error.
    await pasteCsv('Apples,5\nPears,3');
    await error.waitFor({ state: 'hidden' });
    await waitFor('the good CSV', async () => sameArray((await chart('bar-chart')).labels, ['Apples', 'Pears']));
  });

  step('screenshot of the default histogram at ε = 1', async () => {
    await page.getByTestId('reset').click();
    await pressSlider(page, 'Home');
    await pressSlider(page, 'ArrowRight', 200); // 10^0 = 1
    assert.equal(await epsilonShown(page), 1);
    const bars = await waitForChart('bar-chart', 'the default histogram at ε = 1', (s) => s.epsilon === 1 && sameArray(s.labels, DEFAULT_NAMES));
    checkBars(bars, DEFAULT_NAMES, DEFAULT_COUNTS, 1);
    await page.getByTestId('draw-sample').click();
    await page.waitForFunction(() => document.getElementById('sample-epsilon').textContent.includes('draw #7,'));
    await page.getByTestId('csv-input').fill('');
    await page.getByTestId('csv-input').blur();
    await page.mouse.move(0, 0);
    await saveScreenshot(page, 'demo.png', { fullPage: true });
  });

  step('mechanism picker: minimax → local with a public prior → ROO → linear notions; errors are shown, the page keeps working', async () => {
    // Starts from the screenshot step: the default histogram at ε = 1, minimax.
    const guarantee = page.getByTestId('guarantee');
    const optionsError = page.getByTestId('options-error');
    const minimaxBars = await chart('bar-chart');
    const minimaxCurve = await chart('divergence-chart');
    checkCurve(minimaxCurve, 'kl', 6, 1);
    const minimaxGuarantee = await guarantee.textContent();
    const minimaxImage = await canvasImage('divergence-chart');
    assert.match(await page.getByTestId('mechanism-explain').textContent(), /Minimax-optimal clip sampler/);
    assert.equal(await page.getByTestId('prior-row').isHidden(), true, 'no prior for minimax');
    assert.equal(await page.getByTestId('notion-row').isHidden(), true, 'no notion choice for minimax');

    // Local clip sampler, uniform prior (the default), γ = 2.
    await page.getByTestId('mechanism-select').selectOption('local');
    assert.equal(await page.getByTestId('prior-row').isVisible(), true);
    assert.match(await page.getByTestId('mechanism-explain').textContent(), /public prior P0/);
    const localUniform = await waitForChart('bar-chart', 'the local sampler', (st) => st.mechanism === 'local');
    checkBars(localUniform, DEFAULT_NAMES, DEFAULT_COUNTS, 1, 'local');
    assert.notDeepEqual(localUniform.q, minimaxBars.q, 'local Q differs from minimax Q');
    assert.match(await guarantee.textContent(), /Pure ε-local differential privacy \(ε = 1\)/);
    assert.equal(await guarantee.getAttribute('data-mechanism'), 'local');
    const localCurve = await waitForChart('divergence-chart', 'the local sampler chosen', (st) => st.mechanism === 'local');
    checkCurve(localCurve, 'kl', 6, 1, { mechanism: 'local' });
    assert.deepEqual(seriesOf(localCurve, 'minimax'), seriesOf(minimaxCurve, 'minimax'), 'the other curves are unchanged');

    // A non-uniform public prior.
    await page.getByTestId('prior-mode').selectOption('custom');
    await page.getByTestId('prior-input').fill('8, 6, 4, 3, 2, 1');
    const localPrior = await waitForChart('bar-chart', 'the local sampler with the prior', (st) => st.mechanism === 'local' && !sameArray(st.q, localUniform.q));
    checkBars(localPrior, DEFAULT_NAMES, DEFAULT_COUNTS, 1, 'local', [8, 6, 4, 3, 2, 1]);
    const priorCurve = await waitForChart('divergence-chart', 'the prior in the comparison', (st) =>
      !sameArray(seriesOf(st, 'local').user, seriesOf(localCurve, 'local').user),
    );
    checkCurve(priorCurve, 'kl', 6, 1, { mechanism: 'local' });
    assert.ok(
      seriesOf(priorCurve, 'local').user[15] < seriesOf(localCurve, 'local').user[15],
      'a prior that looks like P brings Q closer to P',
    );
    // P has a zero (Scooter): it is outside N_γ(P0), and the page says the dashed worst case does not cover it.
    assert.equal(seriesOf(priorCurve, 'local').outsideNeighbourhood, true);
    assert.match(await page.getByTestId('compare-note').textContent(), /not within a factor γ of the prior/);

    // Invalid priors: a zero, the wrong length, a word, γ ≤ 1. The error is shown, the page keeps working.
    await page.getByTestId('prior-input').fill('8, 6, 4, 3, 2, 0');
    await optionsError.waitFor({ state: 'visible' });
    assert.match(await optionsError.textContent(), /RangeError: prior\[5\] = 0: entries must be finite and > 0/);
    assert.match(await optionsError.textContent(), /for “Scooter”/);
    await waitFor('the draw button disabled', async () => page.getByTestId('draw-sample').isDisabled());
    await page.getByTestId('prior-input').fill('1, 2, 3');
    await waitFor('the wrong-length error', async () => /k = 6 but the prior has 3 categories/.test(await optionsError.textContent()));
    await page.getByTestId('prior-input').fill('1, 2, x, 4, 5, 6');
    await waitFor('the word error', async () => /Prior entry 3: the value “x” is not a number/.test(await optionsError.textContent()));
    assert.equal(await page.getByTestId('prior-input').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByTestId('draw-sample').isDisabled(), true);
    // Another mechanism still works while the prior is invalid; the comparison chart skips the local sampler.
    await page.getByTestId('mechanism-select').selectOption('minimax');
    await optionsError.waitFor({ state: 'hidden' });
    const skippedLocal = await waitForChart('divergence-chart', 'minimax with a bad prior', (st) => st.mechanism === 'minimax' && Boolean(seriesOf(st, 'local').skipped));
    checkCurve(skippedLocal, 'kl', 6, 1, { skipped: ['local'] });
    assert.match(await page.getByTestId('compare-note').textContent(), /The local clip sampler is not shown: its public prior or γ is not valid/);
    assert.equal(await page.getByTestId('draw-sample').isEnabled(), true);
    await page.getByTestId('mechanism-select').selectOption('local');
    await optionsError.waitFor({ state: 'visible' });
    await page.getByTestId('prior-input').fill('8, 6, 4, 3, 2, 1');
    await page.getByTestId('gamma-input').fill('1');
    await waitFor('the γ error', async () => /RangeError: options\.gamma = 1: must be a finite number in \(1,/.test(await optionsError.textContent()));
    await page.getByTestId('gamma-input').fill('2');
    await optionsError.waitFor({ state: 'hidden' });
    const fixed = await waitForChart('bar-chart', 'the fixed prior', (st) => st.mechanism === 'local' && sameArray(st.q, localPrior.q));
    checkBars(fixed, DEFAULT_NAMES, DEFAULT_COUNTS, 1, 'local', [8, 6, 4, 3, 2, 1]);
    await waitFor('the draw button enabled', async () => page.getByTestId('draw-sample').isEnabled());
    await page.getByTestId('draw-sample').click();
    await waitFor('a local sample', async () => (await page.getByTestId('sample-result').getAttribute('data-mechanism')) === 'local');
    assert.ok(DEFAULT_NAMES.includes(await page.getByTestId('sample-result').textContent()));

    // Reveal-or-Obscure: record-level DP of the n = 22 records.
    await page.getByTestId('mechanism-select').selectOption('roo');
    assert.equal(await page.getByTestId('prior-row').isHidden(), true);
    const roo = await waitForChart('bar-chart', 'ROO', (st) => st.mechanism === 'roo');
    checkBars(roo, DEFAULT_NAMES, DEFAULT_COUNTS, 1, 'roo');
    assert.deepEqual(roo.guarantee, { notion: 'record-dp', epsilon: 1, records: 22 });
    assert.notDeepEqual(roo.q, localPrior.q);
    const rooText = await guarantee.textContent();
    assert.match(rooText, /ε-DP for each of your n = 22 records \(ε = 1\).*not local DP/s);
    assert.notEqual(rooText, minimaxGuarantee, 'the guarantee text changed');
    const rooCurve = await waitForChart('divergence-chart', 'ROO chosen', (st) => st.mechanism === 'roo');
    checkCurve(rooCurve, 'kl', 6, 1, { mechanism: 'roo' });
    assert.notEqual(await canvasImage('divergence-chart'), minimaxImage, 'the comparison chart was redrawn');
    // ROO spends ε per record: the ledger's purpose must count record-level DP (it counts the pure-LDP draws so far
    // at their ε too).
    await page.getByTestId('ledger-notion').selectOption('record-dp');
    await page.getByTestId('draw-sample').click();
    await waitFor('a ROO sample', async () => (await page.getByTestId('sample-result').getAttribute('data-mechanism')) === 'roo');
    // Counts that are not whole numbers: ROO cannot run, the page says why.
    await page.getByTestId('row-count').nth(0).fill('9.5');
    await page.getByTestId('library-error').waitFor({ state: 'visible' });
    const rooError = await page.getByTestId('library-error').textContent();
    assert.match(rooError, /RangeError: hist\[0\] = 9\.5: ROO needs counts of records, which must be integers/);
    assert.match(rooError, /every count must be a whole number/);
    assert.equal(await page.getByTestId('draw-sample').isDisabled(), true);
    await page.getByTestId('mechanism-select').selectOption('minimax'); // ROO is skipped in the comparison
    await page.getByTestId('library-error').waitFor({ state: 'hidden' });
    const noRoo = await waitForChart('divergence-chart', 'ROO skipped', (st) => st.mechanism === 'minimax' && Boolean(seriesOf(st, 'roo').skipped));
    checkCurve(noRoo, 'kl', 6, 1, { skipped: ['roo'] });
    assert.match(seriesOf(noRoo, 'roo').skipped, /whole-number counts/);
    assert.match(await page.getByTestId('compare-note').textContent(), /Reveal-or-Obscure is not shown: needs whole-number counts/);
    await page.getByTestId('row-count').nth(0).fill('9');
    await waitForChart('divergence-chart', 'ROO back', (st) => !seriesOf(st, 'roo').skipped);

    // The linear sampler's notions: (ε, δ) with a δ input, and μ-Gaussian (the slider sets μ).
    await page.getByTestId('mechanism-select').selectOption('linear');
    assert.equal(await page.getByTestId('notion-row').isVisible(), true);
    const linearPure = await waitForChart('bar-chart', 'linear', (st) => st.mechanism === 'linear' && st.guarantee.notion === 'pure-ldp');
    checkBars(linearPure, DEFAULT_NAMES, DEFAULT_COUNTS, 1, 'linear');
    await page.getByTestId('notion-select').selectOption('approx');
    await page.getByTestId('delta-input').fill('0.001');
    const approx = await waitForChart('bar-chart', '(ε, δ)-linear', (st) => st.guarantee.notion === 'approx-ldp' && st.guarantee.delta === 0.001);
    checkBars(approx, DEFAULT_NAMES, DEFAULT_COUNTS, 1, 'linear');
    assert.match(await guarantee.textContent(), /\(ε, δ\)-local differential privacy \(ε = 1, δ = 0\.001\)/);
    await page.getByTestId('delta-input').fill('1');
    await waitFor('the δ error', async () => /RangeError: options\.delta = 1: must be a finite number in \[0, 1\)/.test(await optionsError.textContent()));
    await page.getByTestId('delta-input').fill('0.001');
    await optionsError.waitFor({ state: 'hidden' });
    await page.getByTestId('notion-select').selectOption('gaussian');
    const gaussian = await waitForChart('bar-chart', 'Gaussian linear', (st) => st.guarantee.notion === 'gaussian-ldp');
    assert.deepEqual(gaussian.guarantee, { notion: 'gaussian-ldp', mu: 1 });
    assert.match(await guarantee.textContent(), /μ-Gaussian local differential privacy \(μ = 1\)/);
    assert.equal((await page.getByTestId('epsilon-value').textContent()).trim(), 'μ = 1');
    await page.getByTestId('notion-select').selectOption('pure');
    await waitForChart('bar-chart', 'linear pure again', (st) => st.guarantee.notion === 'pure-ldp');
    assert.equal(await epsilonShown(page), 1);

    // Laplace + projection: no closed-form worst case; the page says so instead of failing.
    await page.getByTestId('mechanism-select').selectOption('laplace-projection');
    const laplace = await waitForChart('divergence-chart', 'Laplace chosen', (st) => st.mechanism === 'laplace-projection');
    checkCurve(laplace, 'kl', 6, 1, { mechanism: 'laplace-projection' });
    assert.equal(seriesOf(laplace, 'laplace-projection').worst, null);
    assert.match(await page.getByTestId('div-summary').textContent(), /worst case no closed form/);
    assert.match(await guarantee.textContent(), /n = 22 records/);

    // The screenshot: the local sampler with the public prior, all curves.
    await page.getByTestId('mechanism-select').selectOption('local');
    const final = await waitForChart('divergence-chart', 'local for the screenshot', (st) => st.mechanism === 'local');
    checkCurve(final, 'kl', 6, 1, { mechanism: 'local' });
    await page.mouse.move(0, 0);
    await saveScreenshot(page, 'compare.png', { fullPage: true });
  });

  step('privacy accountant: numbers for every mechanism, they move with ε, they are sane; errors keep the page working', async () => {
    // Starts from the picker step: the default histogram at ε = 1, the local sampler with the prior 8, 6, 4, 3, 2, 1.
    const list = page.getByTestId('accountant-list');
    const accError = page.getByTestId('accountant-error');
    let seen;
    const report = (what, predicate) =>
      waitFor(
        what,
        async () => {
          const raw = await list.getAttribute('data-report');
          seen = raw ? JSON.parse(raw) : null;
          return seen && (await list.isVisible()) && predicate(seen) ? seen : null;
        },
        () => seen,
      );
    const finite = (x) => typeof x === 'number' && Number.isFinite(x);
    const TOL = 1e-9;
    const checkSane = (r, k) => {
      for (const key of ['mutualInformation', 'entropy', 'capacityLower', 'capacityUpper', 'boundFromPureLdp'])
        assert.ok(finite(r[key]), `${r.mechanism}: ${key} = ${r[key]} is a finite number`);
      assert.ok(r.mutualInformation >= -TOL, `${r.mechanism}: I(X;Y) = ${r.mutualInformation} >= 0`);
      assert.ok(r.mutualInformation <= r.capacityUpper + TOL, `${r.mechanism}: I(X;Y) <= capacity upper`);
      assert.ok(r.mutualInformation <= r.entropy + TOL, `${r.mechanism}: I(X;Y) <= H(X)`);
      assert.ok(r.capacityLower <= r.capacityUpper + TOL, `${r.mechanism}: capacity lower <= upper`);
      assert.ok(r.capacityUpper <= Math.log2(k) + TOL, `${r.mechanism}: capacity ${r.capacityUpper} <= log2 k`);
      // Theorem 1(b): the bound from the pure ε is an upper bound on the capacity.
      if (finite(r.ldpEpsilon)) {
        assert.ok(r.capacityUpper <= r.boundFromPureLdp + TOL, `${r.mechanism}: capacity <= Thm 1(b) bound`);
        assert.ok(finite(r.lipEpsilon), `${r.mechanism}: finite LDP ε ⇒ finite LIP ε`);
        assert.ok(r.lipEpsilon <= r.ldpEpsilon + TOL, `${r.mechanism}: LIP ε ${r.lipEpsilon} <= LDP ε ${r.ldpEpsilon}`);
      }
      if (finite(r.boundFromLdpCurve)) assert.ok(r.capacityUpper <= r.boundFromLdpCurve + TOL, `${r.mechanism}: capacity <= curve bound`);
    };

    // The expert panels are collapsed behind one click.
    assert.equal(await list.isVisible(), false, 'the accountant starts collapsed');
    await page.locator('#expert-panels > summary').click();
    await list.waitFor({ state: 'visible' });

    // Every mechanism of the picker, at ε = 1, for the prior "your histogram P" (the default choice).
    assert.equal(await page.getByTestId('accountant-prior').inputValue(), 'own');
    const mechanisms = await page.getByTestId('mechanism-select').evaluate((s) => [...s.options].map((o) => o.value));
    // The picker is the library's registry: every finite mechanism, in its order, each under its label.
    const { init } = await import('../../bindings/js/privsample.mjs');
    const registered = (await init()).registry.mechanisms.filter((m) => m.space === 'finite');
    assert.deepEqual(mechanisms, registered.map((m) => m.name));
    const texts = await page.getByTestId('mechanism-select').evaluate((s) => [...s.options].map((o) => o.textContent));
    for (const [i, m] of registered.entries()) {
      assert.ok(texts[i].includes(m.label.replace(/^the /, '')), `${m.name}: '${texts[i]}'`);
    }
    const H = (() => {
      const t = sum(DEFAULT_COUNTS);
      return -DEFAULT_COUNTS.filter((c) => c > 0).reduce((s, c) => s + (c / t) * Math.log2(c / t), 0);
    })();
    const reports = {};
    // 'laplace-projection' has no exact channel (its distribution() is a Monte-Carlo estimate): the accountant
    // refuses it and the panel says why.
    await page.getByTestId('mechanism-select').selectOption('laplace-projection');
    await accError.waitFor({ state: 'visible' });
    assert.match(await accError.textContent(), /exact output law.*Monte-Carlo estimate/);
    for (const m of mechanisms.filter((name) => name !== 'laplace-projection')) {
      await page.getByTestId('mechanism-select').selectOption(m);
      const r = await report(`the accountant of ${m}`, (st) => st.mechanism === m && st.epsilon === 1);
      assert.equal(r.k, 6);
      assert.equal(r.priorKind, 'own');
      assert.ok(Math.abs(r.entropy - H) < 1e-9, `${m}: H(X) is the entropy of the normalised histogram`);
      checkSane(r, 6);
      assert.equal(await accError.isHidden(), true, `${m}: no accountant error`);
      for (const id of ['acc-ldp', 'acc-mi', 'acc-capacity', 'acc-lip', 'acc-bounds'])
        assert.match(await page.getByTestId(id).textContent(), /\d/, `${m}: ${id} shows a number`);
      assert.match(await page.getByTestId('acc-mi').textContent(), /bits? of H\(X\) = [\d.]+ bits/);
      const plot = await waitForChart('accountant-chart', `the δ(ε′) chart of ${m}`, (st) => Array.isArray(st.ldp));
      assert.equal(plot.ldp.length, plot.epsilons.length);
      assert.ok(plot.ldp.every((d) => d >= 0 && d <= 1 + TOL), `${m}: 0 <= δ <= 1`);
      assert.ok(plot.legend.includes('LDP δ(ε′)') && plot.legend.includes('LIP δ(ε′), this prior'));
      reports[m] = r;
    }
    // Pure-LDP samplers over point masses: the channel's ε is at most the nominal ε (minimax is tight).
    assert.ok(Math.abs(reports.minimax.ldpEpsilon - 1) < 1e-9, `minimax: LDP ε ${reports.minimax.ldpEpsilon} = 1`);
    for (const m of ['linear', 'mollifier', 'local', 'local-linear']) assert.ok(reports[m].ldpEpsilon <= 1 + 1e-9, `${m}: LDP ε <= 1`);
    // Record-level mechanisms: the inputs are all 22 records on one letter (group privacy): more than ε.
    for (const m of ['roo', 'ds-roo']) assert.ok(reports[m].ldpEpsilon > 1, `${m}: group ε > 1`);
    assert.match(await page.getByTestId('accountant').textContent(), /all n = 22 records on one of the k = 6 categories/);
    assert.match(await page.getByTestId('acc-erratum').textContent(), /as printed.*false.*corrected/s);

    // The numbers move with ε: for minimax I(X;Y) grows with ε.
    await page.getByTestId('mechanism-select').selectOption('minimax');
    const at1 = await report('minimax at ε = 1', (st) => st.mechanism === 'minimax' && st.epsilon === 1);
    const miText = await page.getByTestId('acc-mi').textContent();
    await pressSlider(page, 'ArrowRight', 30); // 10^0.3 ≈ 2
    assert.equal(await epsilonShown(page), 2);
    const at2 = await report('minimax at ε = 2', (st) => st.mechanism === 'minimax' && st.epsilon === 2);
    checkSane(at2, 6);
    assert.ok(at2.mutualInformation > at1.mutualInformation, `I(X;Y) grows with ε: ${at1.mutualInformation} → ${at2.mutualInformation}`);
    assert.ok(at2.capacityUpper > at1.capacityUpper, 'the capacity grows with ε');
    assert.ok(Math.abs(at2.ldpEpsilon - 2) < 1e-9);
    assert.notEqual(await page.getByTestId('acc-mi').textContent(), miText, 'the text changed');
    await pressSlider(page, 'ArrowLeft', 60); // 10^-0.3 ≈ 0.501
    const atHalf = await report('minimax at ε = 0.501', (st) => st.mechanism === 'minimax' && st.epsilon === 0.501);
    checkSane(atHalf, 6);
    assert.ok(atHalf.mutualInformation < at1.mutualInformation, 'I(X;Y) falls with ε');
    await pressSlider(page, 'ArrowRight', 30);
    assert.equal(await epsilonShown(page), 1);
    await report('minimax back at ε = 1', (st) => st.mechanism === 'minimax' && st.epsilon === 1);

    // A public (uniform) prior: H(X) = log2 k, and I(X;Y) is then at most the capacity too.
    await page.getByTestId('accountant-prior').selectOption('public');
    const uniform = await report('the uniform prior', (st) => st.priorKind === 'public' && st.mechanism === 'minimax');
    assert.ok(Math.abs(uniform.entropy - Math.log2(6)) < 1e-9);
    checkSane(uniform, 6);
    assert.match(await page.getByTestId('acc-mi').textContent(), /of H\(X\) = 2\.585 bits/);
    await page.getByTestId('accountant-prior').selectOption('own');
    await report('your histogram again', (st) => st.priorKind === 'own' && st.mechanism === 'minimax');

    // Too many categories: the accountant says so, the rest of the page keeps working.
    const many = Array.from({ length: 61 }, (_, i) => `c${i + 1},${(i % 5) + 1}`).join('\n');
    await pasteCsv(many);
    const accNote = page.getByTestId('accountant-note');
    await accNote.waitFor({ state: 'visible' });
    assert.match(await accNote.textContent(), /computed for up to 60 categories; your histogram has k = 61/);
    assert.equal(await accError.isHidden(), true, 'a note, not a red error');
    // A mechanism whose channel is a Monte-Carlo estimate (registry: exactDistribution false) has a lower limit.
    await page.getByTestId('mechanism-select').selectOption('laplace-projection');
    const monteCarlo = /up to 20 categories with Laplace \+ projection \(its channel is a Monte-Carlo estimate\); your histogram has k = 61/;
    await waitFor('the Monte-Carlo limit', async () => monteCarlo.test(await accNote.textContent()));
    await page.getByTestId('mechanism-select').selectOption('minimax');
    await waitFor('the exact limit again', async () => /computed for up to 60 categories; your/.test(await accNote.textContent()));
    assert.equal(await list.isHidden(), true);
    const bigBars = await waitForChart('bar-chart', 'the 61-category bars', (st) => st.labels.length === 61);
    assert.equal(bigBars.q.length, 61);
    await waitFor('the draw button enabled with k = 61', async () => page.getByTestId('draw-sample').isEnabled());
    await page.getByTestId('reset').click();
    await accNote.waitFor({ state: 'hidden' });
    await report('back to the example', (st) => st.k === 6 && st.mechanism === 'minimax');

    // A record-level mechanism with a non-integer count: a clear message in the panel, nothing breaks.
    await page.getByTestId('mechanism-select').selectOption('roo');
    await report('ROO', (st) => st.mechanism === 'roo');
    await page.getByTestId('row-count').nth(0).fill('9.5');
    await accError.waitFor({ state: 'visible' });
    assert.match(await accError.textContent(), /cannot be shown.*rejected the input.*must be integers/s);
    await page.getByTestId('row-count').nth(0).fill('9');
    await accError.waitFor({ state: 'hidden' });
    const rooBack = await report('ROO again', (st) => st.mechanism === 'roo');
    checkSane(rooBack, 6);

    // The screenshot: minimax, the default histogram, ε = 1.
    await page.getByTestId('mechanism-select').selectOption('minimax');
    await report('minimax for the screenshot', (st) => st.mechanism === 'minimax' && st.epsilon === 1 && st.k === 6);
    await page.getByTestId('csv-input').fill('');
    await page.getByTestId('csv-input').blur();
    await page.mouse.move(0, 0);
    await saveScreenshot(page, 'accountant.png', { fullPage: true });
    await saveScreenshot(page.getByTestId('accountant'), 'accountant-panel.png');
  });

  test('no request left 127.0.0.1, every file came from the sub-path, no errors, no CSP violation', async () => {
    assertStayedLocal({ requests, pageErrors, consoleErrors }, server);
    assertServedFromPrefix(server);
    const served = server.log;
    assert.ok(served.some((e) => /\/assets\/worker-[\w-]+\.js$/.test(e.path)), 'the worker script was served from the sub-path');
    assert.ok(served.some((e) => e.path === `${PREFIX}example.csv`), 'the example CSV was served from public/');
    if (page) assert.deepEqual(await page.evaluate(() => window.__cspViolations), [], 'CSP violations');
  });
});
