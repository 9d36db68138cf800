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
// minimax-fig1: three non-blank heatmaps (P, MBDE, ours) on one colour scale, both privacy checks hold (MBDE
// within e^{±ε/2} of q0, ours within its box) and ours <= R. minimax-fig4 with 10 clients and the MBDE baseline on
// 5: MBDE rows in the table (bound n/a) and on the charts (no bound bar), the progress total counts the MBDE runs,
// ours within its bounds. Screenshots: test-output/e2e/reproduce.png, test-output/e2e/reproduce-fig1.png.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { OUTPUT, PREFIX, openDemoPage, closeDemoPage } from './support.mjs';

const STEP_TIMEOUT = 15_000;
const SLACK = 1e-9; // relative, as in scripts/reproduce.mjs

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

/**
 * Starts recording the progress bar's values and the main thread's timer gaps, then clicks Run (clients null: the
 * figure has no clients selector, minimax-fig1; mbde: the MBDE baseline clients, minimax-fig4 only).
 */
async function startRun(name, clients, { mbde } = {}) {
  await page.getByTestId('experiment-select').selectOption(name);
  if (clients !== null) await page.getByTestId('clients-select').selectOption(String(clients));
  if (mbde !== undefined) await page.getByTestId('mbde-select').selectOption(String(mbde));
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
    ({ server, browser, page, baseUrl } = await openDemoPage('reproduce.html', STEP_TIMEOUT, { requests, consoleErrors, pageErrors }));
  });

  after(() => closeDemoPage(server, browser));

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

  step('minimax-fig1: three heatmaps on one colour scale, privacy checks hold, ours <= R', async () => {
    await page.getByTestId('experiment-select').selectOption('minimax-fig1');
    assert.equal(await page.getByTestId('clients-select').isVisible(), false, 'no clients selector for one client');
    assert.equal(await page.getByTestId('mbde-select').isVisible(), false, 'no MBDE selector (fig1 always runs its MBDE)');
    assert.match(await page.getByTestId('experiment-title').textContent(), /Park et al\. Fig\. 1/);
    assert.match(await page.getByTestId('experiment-setup').textContent(), /npm run reproduce -- minimax-fig1$/);
    await startRun('minimax-fig1', null);
    await waitFor('minimax-fig1', async () => {
      const state = await page.getByTestId('results').getAttribute('data-state');
      if (state === 'error') throw new Error(await page.getByTestId('run-error').textContent());
      return state === 'done' && /minimax-fig1/.test(await page.getByTestId('results-of').textContent());
    }, { timeout: 30_000 });
    const rec = await page.evaluate(() => {
      clearInterval(window.__run.timer);
      window.__run.observer.disconnect();
      return { values: window.__run.values };
    });
    const steps = rec.values.filter((v) => v.max === 2).map((v) => v.value);
    assert.ok(steps.length >= 1 && steps.at(-1) === 2, `progress total 2 (ours + one MBDE run), ends full: ${JSON.stringify(rec.values)}`);
    assert.match(await page.getByTestId('results-of').textContent(), /minimax-fig1, one client, 10000 grid cells \(100 × 100\)/);
    assert.equal(await page.getByTestId('heatmaps').isVisible(), true);
    assert.equal(await page.getByTestId('chart-kl').isVisible(), false, 'no bar charts for the heatmap figure');
    assert.equal(await chartData('kl'), null);

    // Three drawn heatmaps, one shared colour scale.
    const maps = [];
    for (const i of [0, 1, 2]) {
      const canvas = page.getByTestId(`heatmap-${i}`);
      const meta = JSON.parse(await canvas.getAttribute('data-heatmap'));
      const ink = await canvas.evaluate((c) => {
        const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
        const colours = new Set();
        let dark = 0;
        let warm = 0;
        let yellow = 0;
        for (let k = 0; k < data.length; k += 4) {
          colours.add((data[k] << 16) | (data[k + 1] << 8) | data[k + 2]);
          if (data[k] + data[k + 1] + data[k + 2] < 300) dark += 1;
          if (data[k] > 200 && data[k + 2] < 140) warm += 1; // plasma's upper half (orange to yellow)
          if (data[k] > 230 && data[k + 1] > 200 && data[k + 2] < 100) yellow += 1; // its top
        }
        return { colours: colours.size, dark, warm, yellow };
      });
      assert.equal(meta.nx, 100);
      assert.equal(meta.ny, 100);
      assert.ok(ink.colours > 30, `heatmap ${i} (${meta.title}) has ${ink.colours} colours`);
      assert.ok(ink.dark > 10_000, `heatmap ${i} has ${ink.dark} dark (low-density) pixels`);
      assert.ok(ink.warm > 500, `heatmap ${i} has ${ink.warm} warm (high-density) pixels`);
      // The map with the largest density reaches the top of the shared scale.
      if (meta.max === meta.vmax) assert.ok(ink.yellow > 50, `heatmap ${i} tops the scale with ${ink.yellow} yellow pixels`);
      maps.push(meta);
    }
    assert.deepEqual(maps.map((m) => m.sampler), [null, 'mbde', 'proposed']);
    assert.match(maps[0].title, /Original/);
    assert.match(maps[1].title, /MBDE/);
    assert.match(maps[2].title, /ours/);
    assert.ok(maps.every((m) => m.vmax === maps[0].vmax && m.max <= m.vmax && m.max > 0), 'one colour scale');
    assert.equal(Math.max(...maps.map((m) => m.max)), maps[0].vmax, 'the scale tops at the largest value of the three');
    assert.equal(Number(await page.getByTestId('heatmap-colourbar').getAttribute('data-vmax')), maps[0].vmax);
    assert.match(await page.getByTestId('heatmap-values-0').textContent(), /max p\/h̃ over the cells = 0\.37\d* ≤ 1/);
    assert.match(await page.getByTestId('heatmap-values-1').textContent(), /KL [0-9.e-]+ · TV [0-9.e-]+ · Sq\. Hel [0-9.e-]+ \(R: n\/a\)/);
    assert.match(await page.getByTestId('heatmap-values-2').textContent(), /KL [0-9.e-]+ ≤ R [0-9.]+ · TV [0-9.e-]+ ≤ R [0-9.]+ · Sq\. Hel [0-9.e-]+ ≤ R [0-9.]+/);

    // Privacy checks: MBDE within e^{±ε/2} of q0, ours within its box.
    const checks = await page.getByTestId('privacy-check').evaluateAll((lis) => lis.map((li) => ({ ...li.dataset, text: li.textContent })));
    assert.deepEqual(checks.map((c) => c.sampler), ['mbde', 'proposed']);
    for (const c of checks) {
      assert.equal(c.ok, 'true', c.text);
      assert.ok(Number(c.value) >= 0 && Number(c.value) <= Number(c.limit) * (1 + SLACK), c.text);
      assert.match(c.text, /^✓ .* — ok$/);
    }
    assert.equal(Number(checks[0].limit), 0.25, 'MBDE: ε/2');
    assert.match(checks[0].text, /within a factor e\^\(±ε\/2\) of its q0: max \|log q\/q0\| ≤ ε\/2/);
    assert.equal(Number(checks[1].limit), 0.5, 'ours: ε');
    assert.match(checks[1].text, /inside its box \[b, e\^ε·b\]: log\(max q\/h\) - log\(min q\/h\) ≤ ε/);

    // ours <= R for each divergence; MBDE measured, no bound.
    const values = await tableValues();
    assert.equal(values.length, 6);
    for (const v of values) {
      assert.equal(v.budget, 0.5);
      assert.ok(Number.isFinite(v.measured) && v.measured > 0, `${v.sampler} ${v.divergence}: ${v.measured}`);
      if (v.sampler === 'mbde') {
        assert.ok(Number.isNaN(v.bound));
        assert.equal(v.within, 'n/a');
      } else {
        assert.equal(v.sampler, 'proposed');
        assert.ok(v.measured <= v.bound * (1 + SLACK), `ours ${v.divergence}: ${v.measured} > R = ${v.bound}`);
        assert.equal(v.within, 'true');
      }
    }
    const verdict = page.getByTestId('verdict');
    assert.equal(await verdict.getAttribute('data-ok'), 'true');
    assert.equal(await verdict.getAttribute('data-over'), '0');
    assert.match(await verdict.textContent(), /^✓ ours ≤ R: KL [0-9.e-]+ ≤ R = [0-9.]+, TV .*, Sq\. Hel .*MBDE has no closed-form bound\.$/);
    await page.mouse.move(0, 0);
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'reproduce-fig1.png'), fullPage: true });
  });

  step('minimax-fig4, 10 clients, MBDE baseline on 5: MBDE rows and bars, progress counts MBDE, ours within its bounds', async () => {
    await page.getByTestId('experiment-select').selectOption('minimax-fig4');
    assert.equal(await page.getByTestId('mbde-select').inputValue(), '0', 'MBDE off by default');
    await startRun('minimax-fig4', 10, { mbde: 5 });
    assert.match(await page.getByTestId('experiment-setup').textContent(), /npm run reproduce -- minimax-fig4 --clients 10 --mbde-clients 5$/);
    const { rec } = await runDone('minimax-fig4', 10);
    checkProgress(rec, 5 * (10 + 5)); // budgets × (proposed on every client + one MBDE run per MBDE client)
    assert.match(await page.getByTestId('results-of').textContent(), /minimax-fig4, 10 clients per budget, 8000 grid cells; MBDE on the first 5 clients per budget, 200 grid cells/);
    const budgets = [0.1, 0.5, 1, 2, 5];
    const values = await tableValues();
    assert.equal(values.length, budgets.length * 2 * 3, 'proposed and MBDE rows: one measured cell per budget × divergence');
    assert.deepEqual([...new Set(values.map((v) => v.sampler))], ['proposed', 'mbde']);
    for (const v of values) {
      assert.ok(Number.isFinite(v.measured) && v.measured >= -1e-12, `${v.sampler} ${v.divergence} at ${v.budget}: measured ${v.measured}`);
      if (v.sampler === 'mbde') {
        assert.ok(Number.isNaN(v.bound), 'MBDE: no closed-form bound');
        assert.equal(v.within, 'n/a');
      } else {
        assert.ok(v.measured <= v.bound * (1 + SLACK), `proposed ${v.divergence} at ${v.budget}: ${v.measured} > ${v.bound}`);
        assert.equal(v.within, 'true');
      }
    }
    const naCells = await page.locator('[data-testid="results-table"] td.bound').evaluateAll((tds) => tds.map((td) => td.textContent));
    assert.equal(naCells.filter((t) => t === 'n/a').length, budgets.length * 3, 'the MBDE rows show n/a for R');
    for (const f of ['kl', 'tv', 'hellinger']) {
      const c = await chartData(f);
      assert.equal(c.mbdeClients, 5);
      assert.deepEqual(c.series.map((x) => x.sampler), ['proposed', 'mbde']);
      const [ours, mbde] = c.series;
      assert.deepEqual(mbde.bound, budgets.map(() => null), 'no bound bar for MBDE');
      ours.measured.forEach((m, i) => assert.ok(m <= ours.bound[i] * (1 + SLACK)));
      mbde.measured.forEach((m, i) => assert.equal(m, values.find((v) => v.divergence === f && v.sampler === 'mbde' && v.budget === budgets[i]).measured));
    }
    // Three bar colours on the chart: blue (ours), its pale bound, green (MBDE).
    const green = await page.getByTestId('chart-kl').evaluate((canvas) => {
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i] === 0x4d && data[i + 1] === 0xaf && data[i + 2] === 0x4a) n += 1;
      return n;
    });
    assert.ok(green > 100, `MBDE's green bars: ${green} pixels`);
    const checks = await page.getByTestId('privacy-check').evaluateAll((lis) => lis.map((li) => ({ ...li.dataset })));
    assert.equal(checks.length, budgets.length * 2);
    assert.ok(checks.every((c) => c.ok === 'true' && Number(c.value) <= Number(c.limit) * (1 + SLACK)), JSON.stringify(checks));
    assert.deepEqual(checks.filter((c) => c.sampler === 'mbde').map((c) => Number(c.limit)), budgets.map((b) => b / 2));
    const verdict = page.getByTestId('verdict');
    assert.equal(await verdict.getAttribute('data-ok'), 'true');
    assert.equal(await verdict.getAttribute('data-count'), '15');
    assert.equal(await verdict.getAttribute('data-unbounded'), '15');
    assert.match(await verdict.textContent(), /All 15 measured values with a closed-form bound are within their bounds.*MBDE's 15 values have no closed-form bound/);
    await page.getByTestId('mbde-select').selectOption('0');
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
