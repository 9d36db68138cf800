// Browser end-to-end test of the reproductions page (dist/reproduce.html; run `npm run build` first), in Debian's
// Chromium:  node --test tests/e2e/reproduce.e2e.test.mjs
// Serves dist/ under a sub-path from an in-process static server on 127.0.0.1, follows the histogram page's header
// link to the reproductions page, then selects EVERY entry of the registry (experiments/index.mjs) in quick mode and
// waits for it: each panel's canvas has drawn (non-blank pixels), every check passed and every printed value matched
// as the page shows them with each reference's source, the erratum is shown exactly for the entries that have one,
// and the set-up is listed. The CSV download is the command line's file and the PNG download the drawn panels. Stop
// ends a full run of a long entry. A 390 px phone shows the page without horizontal scroll. No request leaves
// 127.0.0.1 and nothing is logged as an error. Screenshots: test-output/e2e/reproduce-<paper>.png (one per paper),
// phone-reproduce.png. The pick-to-drawn times (User Timing 'privsample:reproduce:<name>') are reported, not asserted.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { EXPERIMENTS, PAPERS, REFERENCE_SOURCES } from '../../experiments/index.mjs';
import { readableMath } from '../../web/math-text.js';
import { assertFitsScreen, assertStayedLocal, demoSession, openPhone, saveScreenshot, stepsFor } from './support.mjs';

const STEP_TIMEOUT = 30_000;
const RUN_TIMEOUT = 120_000; // the slowest quick entry (minimax-fig4: ten MBDE runs) on a busy 2-core machine

const demo = demoSession('reproduce.html', STEP_TIMEOUT);
let page;
let baseUrl;
const step = stepsFor('reproduce', () => page);
const times = {};

/** Waits until the page has finished the entry `name` (passed, failed or error) and returns that state. */
async function waitForEntry(name, timeout = RUN_TIMEOUT) {
  await page.waitForFunction((n) => {
    const results = document.querySelector('[data-testid="results"]');
    const app = document.getElementById('app');
    return app.dataset.busy === 'false' && results.dataset.name === n && ['passed', 'failed', 'error', 'stopped'].includes(results.dataset.state);
  }, name, { timeout });
  return page.getByTestId('results').getAttribute('data-state');
}

/** Per panel: kind, title and the number of canvas pixels with ink (alpha > 0). */
async function panelsInk() {
  return page.locator('[data-testid="panels"] [data-testid="panel"]').evaluateAll((figures) => figures.map((f) => {
    const canvas = f.querySelector('canvas');
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let ink = 0;
    for (let i = 3; i < data.length; i += 4) ink += data[i] > 0 ? 1 : 0;
    return { kind: f.dataset.kind, title: f.querySelector('figcaption').textContent, ink, pixels: canvas.width * canvas.height };
  }));
}

describe('reproductions page', () => {
  before(async () => {
    ({ page, baseUrl } = await demo.open());
  });
  after(() => demo.close());

  step('reached from the histogram page; lists every registry entry grouped by paper; the first closed-form entry appears at once', async (t) => {
    await page.goto(`${baseUrl}index.html`);
    await page.getByTestId('link-reproduce').click();
    await page.waitForURL(/reproduce\.html/);
    const groups = await page.locator('[data-testid="experiment-select"] optgroup').evaluateAll((gs) => gs.map((g) => ({
      label: g.label, names: [...g.querySelectorAll('option')].map((o) => o.value),
    })));
    assert.equal(groups.length, Object.keys(PAPERS).length);
    for (const [i, paper] of Object.keys(PAPERS).entries()) {
      assert.deepEqual(groups[i].names, EXPERIMENTS.filter((e) => e.paper === paper).map((e) => e.name), paper);
    }
    const first = EXPERIMENTS.find((e) => e.closedForm);
    assert.equal(await waitForEntry(first.name), 'passed');
    await page.waitForSelector('[data-testid="status"][data-state="ready"]', { timeout: STEP_TIMEOUT });
    t.diagnostic(`first load, ${first.name}: drawn ${await page.getByTestId('results').getAttribute('data-ms')} ms after the pick (includes loading the worker and the module)`);
  });

  for (const entry of EXPERIMENTS) {
    step(`${entry.name} (${entry.figure}, quick): panels drawn, checks passed, printed values matched, erratum ${entry.erratum ? 'shown' : 'absent'}`, async (t) => {
      await page.getByTestId('experiment-select').selectOption(entry.name);
      const state = await waitForEntry(entry.name);
      const errorText = state === 'error' ? await page.getByTestId('run-error').textContent() : '';
      assert.equal(state, 'passed', `${entry.name}: ${state} ${errorText} ${await page.getByTestId('verdict').textContent()}`);
      const ms = Number(await page.getByTestId('results').getAttribute('data-ms'));
      times[entry.name] = ms;
      t.diagnostic(`${entry.name}: drawn ${ms} ms after the pick${entry.closedForm ? ' (closed form)' : ''}`);
      // every panel drew
      const panels = await panelsInk();
      assert.ok(panels.length > 0);
      for (const p of panels) assert.ok(p.ink > 0.02 * p.pixels, `${entry.name} / ${p.title} (${p.kind}): ${p.ink} of ${p.pixels} pixels drawn`);
      // checks and printed values as the page shows them
      const checks = await page.locator('[data-testid="checks"] [data-testid="check"]').evaluateAll((li) => li.map((x) => [x.dataset.ok, x.textContent]));
      assert.ok(checks.length > 0, 'checks are shown');
      for (const [ok, text] of checks) assert.equal(ok, 'true', `${entry.name}: check failed: ${text}`);
      const printed = await page.locator('[data-testid="printed-row"]').evaluateAll((tr) => tr.map((x) => [x.dataset.ok, x.textContent]));
      for (const [ok, text] of printed) assert.equal(ok, 'true', `${entry.name}: reference value differs: ${text}`);
      for (const source of await page.locator('[data-testid="printed-source"]').allTextContents()) {
        assert.ok(Object.hasOwn(REFERENCE_SOURCES, source), `${entry.name}: source ${source}`);
      }
      assert.match(await page.getByTestId('verdict').textContent(), new RegExp(`^${entry.name}: all \\d+ checks passed and all ${printed.length} reference values match`));
      // the erratum, next to the figure, exactly where the entry has one
      const erratum = page.getByTestId('erratum');
      assert.equal(await erratum.isVisible(), Boolean(entry.erratum), `${entry.name}: erratum visibility`);
      if (entry.erratum) assert.ok((await erratum.textContent()).includes(entry.erratum.slice(0, 40)));
      // the entry's title, figure and set-up (quick form)
      assert.equal(await page.getByTestId('entry-title').textContent(), readableMath(entry.title));
      assert.equal(await page.getByTestId('entry-figure').textContent(), entry.figure);
      const keys = await page.locator('[data-testid="setup-list"] dt').allTextContents();
      assert.deepEqual(keys, Object.keys({ ...entry.setup, ...entry.quick }));
      // one screenshot per paper, after its last entry
      const ofPaper = EXPERIMENTS.filter((e) => e.paper === entry.paper);
      if (ofPaper.at(-1) === entry) {
        await page.locator('[data-testid="setup"] summary').click();
        await saveScreenshot(page, `reproduce-${entry.paper}.png`, { fullPage: true });
        await page.locator('[data-testid="setup"] summary').click();
      }
    });
  }

  step('downloads: the CSV is the result\'s table (the command line\'s file), the PNG the drawn panels', async () => {
    await page.getByTestId('experiment-select').selectOption('local-fig4');
    assert.equal(await waitForEntry('local-fig4'), 'passed');
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-csv').click()]);
    assert.equal(csv.suggestedFilename(), 'local-fig4.csv');
    const lines = (await readFile(await csv.path(), 'utf8')).trim().split('\n');
    assert.equal(lines[0], 'epsilon,divergence,sampler,measured_worst,bound_R,worst_client,privacy_check,privacy_value,privacy_limit');
    assert.equal(lines.length, 1 + 4 * 2 * 3, 'one row per budget × sampler × f');
    const [png] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-png').click()]);
    assert.equal(png.suggestedFilename(), 'local-fig4.png');
    const bytes = await readFile(await png.path());
    assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
    const panelsWidth = await page.getByTestId('panels').evaluate((e) => Math.ceil(e.getBoundingClientRect().width));
    assert.equal(bytes.readUInt32BE(16), panelsWidth, 'the panels\' width');
    assert.ok(bytes.length > 20_000, `the drawn panels, not a blank image (${bytes.length} bytes)`);
  });

  step('Stop ends a full run of a long entry; the worker serves the next pick', async () => {
    await page.getByTestId('experiment-select').selectOption('minimax-fig4');
    await waitForEntry('minimax-fig4');
    await page.getByTestId('mode-full').check();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="progress"]').value) > 0, null, { timeout: RUN_TIMEOUT });
    await page.getByTestId('stop').click();
    assert.equal(await waitForEntry('minimax-fig4', STEP_TIMEOUT), 'stopped');
    await page.getByTestId('mode-quick').check();
    assert.equal(await waitForEntry('minimax-fig4'), 'passed');
    const closed = EXPERIMENTS.find((e) => e.closedForm);
    await page.getByTestId('experiment-select').selectOption(closed.name);
    assert.equal(await waitForEntry(closed.name), 'passed');
  });

  step('a phone (390 × 844): no horizontal scroll, nothing wider than the screen; screenshot', async () => {
    const { context, phone } = await openPhone(demo.browser, demo.records);
    const heat = EXPERIMENTS.find((e) => e.name === 'local-fig1') ?? EXPERIMENTS.find((e) => e.closedForm);
    for (const name of [EXPERIMENTS.find((e) => e.closedForm).name, heat.name]) {
      await phone.goto('about:blank'); // a new document each time (a hash-only change would not reload)
      await phone.goto(`${baseUrl}reproduce.html#${name}`);
      await phone.waitForFunction((n) => {
        const r = document.querySelector('[data-testid="results"]');
        return r.dataset.name === n && r.dataset.state === 'passed' && document.getElementById('app').dataset.busy === 'false';
      }, name, { timeout: RUN_TIMEOUT });
      await assertFitsScreen(phone, name, '.visually-hidden, .table-scroll');
      if (name === heat.name) await saveScreenshot(phone, 'phone-reproduce.png', { fullPage: true });
    }
    await context.close();
  });

  test('no request left 127.0.0.1, no console or page errors, the policy held; pick-to-drawn times', (t) => {
    assertStayedLocal(demo.records, demo.server);
    const closed = EXPERIMENTS.filter((e) => e.closedForm && times[e.name] !== undefined).map((e) => `${e.name} ${times[e.name]} ms`);
    t.diagnostic(`closed-form entries, pick to drawn: ${closed.join(', ')}`);
  });
});
