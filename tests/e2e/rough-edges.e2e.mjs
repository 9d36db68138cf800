// Browser end-to-end test of the demo's rough edges a new user met (dist/; run `npm run build` first), in Debian's
// Chromium:  node --test tests/e2e/rough-edges.e2e.test.mjs
//   - "Draw one private sample" is recorded by the privacy-budget ledger and refused past its budget; another tab of
//     the page shows the new totals without a reload;
//   - the histogram page leads with the histogram beside its chart, which stays in view while counts are edited
//     (1280 × 800); at k = 1000 the chart draws the largest categories and "others", and loading the CSV stays quick;
//   - PNG downloads say what they show (title, mechanism, ε) above the chart;
//   - dark mode: primary buttons readable (contrast >= 4.5:1, also on hover); axe-core finds no violation on any page,
//     light or dark (contrast, the reproductions page's scrolling table reachable by keyboard, …);
//   - the continuous and many-users sliders say their value to a screen reader (aria-valuetext), and both pages keep
//     their controls across a reload;
//   - the reproductions page: Stop leaves no previous figure under the new heading; legends without TeX markup.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { assertStayedLocal, demoSession, saveScreenshot, stepsFor, waitForBarsOf } from './support.mjs';

const STEP_TIMEOUT = 30_000;
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const demo = demoSession('index.html', STEP_TIMEOUT);
const waitForBars = (p, predicate) => waitForBarsOf(p, predicate, STEP_TIMEOUT);
let page;
let baseUrl;

const step = stepsFor('rough-edges', () => page);

async function openPage(p, file) {
  await p.goto(`${baseUrl}${file}`);
  await p.waitForSelector('[data-testid="status"][data-state="ready"]', { timeout: STEP_TIMEOUT });
  await p.waitForFunction(() => document.getElementById('app').dataset.busy === 'false', null, { timeout: STEP_TIMEOUT });
}

/** A new page in the demo's browser (light or dark), its errors recorded with the session's. */
async function newPage({ colorScheme = 'light', viewport = { width: 1280, height: 800 } } = {}) {
  const context = await demo.browser.newContext({ viewport, colorScheme });
  context.on('request', (request) => demo.records.requests.push(request.url()));
  const p = await context.newPage();
  p.setDefaultTimeout(STEP_TIMEOUT);
  p.on('console', (message) => {
    if (message.type() === 'error') demo.records.consoleErrors.push(`${colorScheme}: ${message.text()}`);
  });
  p.on('pageerror', (error) => demo.records.pageErrors.push(String(error?.stack ?? error)));
  return { context, p };
}

/** axe-core's violations on the page as it is (rule: the elements), run as the test's own script (no CSP applies). */
async function axeViolations(p) {
  await p.evaluate(AXE_SOURCE);
  const { violations } = await p.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** WCAG contrast ratio of the text of `selector`'s elements against their own background (opaque colours). */
function contrastOf(p, selector) {
  return p.$$eval(selector, (elements) => {
    const rgb = (text) => text.match(/[\d.]+/g).slice(0, 3).map(Number);
    const luminance = ([r, g, b]) => {
      const lin = (c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    return elements
      .filter((e) => e.offsetParent !== null && !e.disabled)
      .map((e) => {
        const style = getComputedStyle(e);
        const [a, b] = [luminance(rgb(style.color)), luminance(rgb(style.backgroundColor))];
        return { text: e.textContent.trim(), ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
      });
  });
}

describe('the demo without its rough edges', { timeout: 300_000 }, () => {
  before(async () => {
    ({ page, baseUrl } = await demo.open());
    await page.setViewportSize({ width: 1280, height: 800 });
  });
  after(() => demo.close());

  step('the histogram page leads with the histogram beside its chart, which stays in view while counts are edited', async () => {
    await openPage(page, 'index.html');
    const firstCard = await page.locator('main .card').first().getAttribute('class');
    assert.match(firstCard, /\bhistogram\b/, 'the first card of the page is “Your histogram P”');
    const boxes = await page.evaluate(() => {
      const box = (e) => e.getBoundingClientRect().toJSON();
      return { histogram: box(document.querySelector('.card.histogram')), chart: box(document.querySelector('.card.bars')) };
    });
    assert.ok(boxes.chart.left >= boxes.histogram.right, `the chart is beside the histogram (${JSON.stringify(boxes)})`);
    assert.ok(Math.abs(boxes.chart.top - boxes.histogram.top) < 2, 'side by side, top-aligned');
    // Editing the last count: the table is scrolled to, and the chart is still wholly on the screen.
    const count = page.getByTestId('row-count').last();
    await count.scrollIntoViewIfNeeded();
    await count.fill('3');
    await waitForBars(page, (s) => s.p.at(-1) > 0);
    const view = await page.evaluate(() => ({ chart: document.getElementById('bar-chart').getBoundingClientRect().toJSON(), height: innerHeight, scrollY }));
    assert.ok(view.scrollY > 100, `the page was scrolled to the count (scrollY ${view.scrollY})`);
    assert.ok(view.chart.top >= 0 && view.chart.bottom <= view.height, `the bar chart is in view while the count is edited (${JSON.stringify(view)})`);
    await saveScreenshot(page, 'rough-edges-editing.png');
    await page.getByTestId('reset').click();
  });

  step('“Draw one private sample” is recorded by the ledger, and refused past its budget', async () => {
    await page.waitForSelector('[data-testid="ledger-panel"][data-ready="true"]');
    await page.getByTestId('ledger-purpose').fill('drawn');
    await page.getByTestId('ledger-purpose').dispatchEvent('change');
    await page.getByTestId('ledger-budget').fill('2');
    await waitForBars(page, (s) => s.epsilon === 1);
    const entries = () => page.getByTestId('ledger-entry').count();
    const before = await entries();
    for (let i = 1; i <= 2; i += 1) {
      await page.getByTestId('draw-sample').click();
      await page.waitForFunction((n) => document.getElementById('sample-epsilon').textContent.includes(`draw #${n},`), i);
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="ledger-entry"]').length === n, before + i, { timeout: 5000 });
    }
    assert.match(await page.getByTestId('ledger-spent').textContent(), /drawn: spent ε = 2 in 2 releases of a budget of ε = 2 \(ε = 0 left\)/);
    // A third draw would spend ε = 3 > 2: refused, nothing drawn, nothing recorded, and the page says why.
    const shown = await page.getByTestId('sample-result').textContent();
    await page.getByTestId('draw-sample').click();
    const refused = page.getByTestId('sample-refused');
    await refused.waitFor({ state: 'visible', timeout: 5000 });
    assert.match(await refused.textContent(), /Not released: this sample would spend ε = 1, but “drawn” has only ε = 0 left/);
    assert.equal(await entries(), before + 2);
    assert.equal(await page.getByTestId('sample-result').textContent(), shown, 'no new sample is shown');
    assert.match(await page.locator('#sample-epsilon').textContent(), /draw #2,/);
  });

  step('another tab of the page shows the ledger’s new totals without a reload', async () => {
    const other = await demo.browser.contexts()[0].newPage(); // the same browser profile: the same IndexedDB
    other.on('pageerror', (error) => demo.records.pageErrors.push(String(error?.stack ?? error)));
    await openPage(other, 'index.html');
    await other.waitForSelector('[data-testid="ledger-panel"][data-ready="true"]');
    const spentThere = () => other.getByTestId('ledger-spent').textContent();
    await page.getByTestId('ledger-purpose').fill('tabs');
    await page.getByTestId('ledger-purpose').dispatchEvent('change');
    await page.getByTestId('ledger-budget').fill('5');
    await page.getByTestId('ledger-release').click(); // the panel's own button: this tab releases one sample
    await page.waitForSelector('[data-testid="ledger-message"][data-state="released"]');
    await other.waitForFunction(() => /tabs: spent ε = 1 in 1 release\b/.test(document.querySelector('[data-testid="ledger-spent"]').textContent), null, { timeout: 5000 }).catch(async () => {
      assert.fail(`the other tab still shows “${await spentThere()}”`);
    });
    await page.getByTestId('ledger-clear').click();
    await other.waitForFunction(() => !/tabs: spent/.test(document.querySelector('[data-testid="ledger-spent"]').textContent), null, { timeout: 5000 });
    await other.close();
  });

  step('PNG downloads show the chart’s title, mechanism and ε above it', async () => {
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('png-bar-chart').click()]);
    assert.equal(file.suggestedFilename(), 'privsample-bar-chart-minimax-epsilon-1.png');
    const png = readFileSync(await file.path()).toString('base64');
    const image = await page.evaluate(async (data) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const canvas = document.getElementById('bar-chart');
      const copy = new OffscreenCanvas(img.width, img.height);
      const ctx = copy.getContext('2d');
      ctx.drawImage(img, 0, 0);
      const header = img.height - canvas.height;
      const band = header > 0 ? ctx.getImageData(0, 0, img.width, header).data : [];
      let ink = 0;
      for (let i = 0; i < band.length; i += 4) if (band[i] + band[i + 1] + band[i + 2] < 3 * 160) ink += 1;
      return { width: img.width, height: img.height, canvas: [canvas.width, canvas.height], header, ink };
    }, png);
    assert.equal(image.width, image.canvas[0]);
    assert.ok(image.header >= 30, `a header band above the chart (${JSON.stringify(image)})`);
    assert.ok(image.ink > 300, `text is drawn in the header band (${image.ink} dark pixels)`);
  });

  step('k = 1000: the chart draws the 24 largest categories and “others”; loading the CSV keeps the main thread free', async (t) => {
    const csv = Array.from({ length: 1000 }, (_, i) => `c${i + 1},${(i % 17) + 1}`).join('\n');
    await page.getByTestId('csv-input').fill(csv);
    await page.evaluate(() => {
      window.__long = [];
      new PerformanceObserver((list) => window.__long.push(...list.getEntries().map((e) => Math.round(e.duration)))).observe({ type: 'longtask' });
    });
    const started = Date.now();
    await page.getByTestId('csv-apply').click();
    const bars = await waitForBars(page, (s) => s.labels.length === 1000);
    const elapsed = Date.now() - started;
    const long = await page.evaluate(() => window.__long);
    assert.equal(bars.p.length, 1000, 'the chart still carries every category (for the table and downloads)');
    const { drawn } = bars;
    assert.ok(drawn, 'the chart says what it draws');
    assert.equal(drawn.labels.length, 25);
    assert.equal(drawn.labels.at(-1), 'others (976 categories)');
    assert.equal(drawn.others, 976);
    const sum = (xs) => xs.reduce((s, x) => s + x, 0);
    assert.ok(Math.abs(sum(drawn.p) - 1) < 1e-9 && Math.abs(sum(drawn.q) - 1) < 1e-9, 'the bars still add up to 1');
    const largest = [...bars.p].sort((a, b) => b - a).slice(0, 24);
    assert.deepEqual(drawn.p.slice(0, 24), largest, 'the largest categories of P, largest first');
    assert.match(await page.getByTestId('bars-summary').textContent(), /the 24 largest categories of P and the other 976 as one bar/);
    assert.equal(await page.getByTestId('row-name').count(), 50, 'the table shows 50 rows a page');
    t.diagnostic(`CSV of 1,000 categories: shown ${elapsed} ms after the click; long tasks ${JSON.stringify(long)} ms`);
    assert.ok(Math.max(0, ...long) < 200, `no main-thread task of 200 ms or more (${long})`);
    await page.locator('.card.bars').screenshot({ path: 'test-output/e2e/rough-edges-k1000.png' });
    await page.getByTestId('reset').click();
  });

  step('dark mode: primary buttons have readable text (contrast >= 4.5:1, hovered too); axe-core finds no violation', async (t) => {
    const { context, p } = await newPage({ colorScheme: 'dark' });
    for (const file of ['index.html', 'continuous.html', 'reproduce.html', 'many-users.html']) {
      await openPage(p, file);
      const buttons = await contrastOf(p, 'button.primary');
      for (const { text, ratio } of buttons) assert.ok(ratio >= 4.5, `${file}: “${text}” at ${ratio.toFixed(2)}:1`);
      const first = p.locator('button.primary:not(:disabled)').first();
      if ((await first.count()) > 0) {
        await first.hover();
        const hovered = await contrastOf(p, 'button.primary:hover');
        assert.equal(hovered.length, 1);
        assert.ok(hovered[0].ratio >= 4.5, `${file}: “${hovered[0].text}” hovered at ${hovered[0].ratio.toFixed(2)}:1`);
        await p.mouse.move(0, 0);
      }
      assert.deepEqual(await axeViolations(p), [], `dark ${file}`);
      t.diagnostic(`dark ${file}: ${buttons.length} primary buttons readable, no axe-core violation`);
    }
    await context.close();
  });

  step('light mode: axe-core finds no violation on any page', async () => {
    for (const file of ['index.html', 'continuous.html', 'reproduce.html', 'many-users.html']) {
      await openPage(page, file);
      assert.deepEqual(await axeViolations(page), [], `light ${file}`);
    }
  });

  step('the continuous and many-users sliders say their value to a screen reader (aria-valuetext)', async () => {
    await openPage(page, 'continuous.html');
    const slider = page.getByTestId('epsilon-slider');
    assert.equal(await slider.getAttribute('aria-valuetext'), 'ε = 1');
    await slider.focus();
    for (let i = 0; i < 30; i += 1) await slider.press('ArrowRight');
    assert.equal(await slider.getAttribute('aria-valuetext'), 'ε = 2');

    await openPage(page, 'many-users.html');
    const users = page.getByTestId('users-slider');
    const epsilon = page.getByTestId('epsilon-slider');
    assert.equal(await users.getAttribute('aria-valuetext'), 'N = 10\u202f000 users');
    assert.equal(await epsilon.getAttribute('aria-valuetext'), 'ε = 1');
    await users.focus();
    await users.press('ArrowRight'); // 10^4.25
    await epsilon.focus();
    await epsilon.press('ArrowLeft'); // 10^−0.05
    assert.equal(await users.getAttribute('aria-valuetext'), 'N = 17\u202f783 users');
    assert.equal(await epsilon.getAttribute('aria-valuetext'), 'ε = 0.89');
  });

  step('the continuous and many-users pages keep their controls across a reload', async () => {
    await openPage(page, 'continuous.html');
    const slider = page.getByTestId('epsilon-slider');
    await page.getByTestId('family-select').selectOption('laplace');
    await slider.focus();
    for (let i = 0; i < 30; i += 1) await slider.press('ArrowLeft');
    await page.getByTestId('gamma-input').fill('3');
    const shown = (await page.getByTestId('epsilon-value').textContent()).trim();
    await page.waitForTimeout(400); // the page saves 200 ms after the last change
    await page.reload();
    await page.waitForSelector('[data-testid="status"][data-state="ready"]');
    assert.equal(await page.getByTestId('family-select').inputValue(), 'laplace');
    assert.equal(await page.getByTestId('gamma-input').inputValue(), '3');
    assert.equal((await page.getByTestId('epsilon-value').textContent()).trim(), shown);

    await openPage(page, 'many-users.html');
    await page.getByTestId('population-select').selectOption('uniform');
    await page.locator('input[name="mechanism"][value="mollifier"]').uncheck();
    const users = page.getByTestId('users-slider');
    await users.focus();
    await users.press('ArrowLeft'); // 10^3.75 from the value the previous step left
    const usersShown = (await page.getByTestId('users-value').textContent()).trim();
    const epsilonShown = (await page.getByTestId('epsilon-value').textContent()).trim();
    await page.waitForTimeout(400);
    await page.reload();
    await page.waitForSelector('[data-testid="status"][data-state="ready"]');
    assert.equal(await page.getByTestId('population-select').inputValue(), 'uniform');
    assert.equal(await page.locator('input[name="mechanism"][value="mollifier"]').isChecked(), false);
    assert.equal((await page.getByTestId('users-value').textContent()).trim(), usersShown);
    assert.equal((await page.getByTestId('epsilon-value').textContent()).trim(), epsilonShown);
  });

  step('reproductions: legends, captions and the heading without TeX markup', async () => {
    await openPage(page, 'reproduce.html#minimax-fig2');
    await page.waitForSelector('[data-testid="results"][data-state="passed"]', { timeout: STEP_TIMEOUT });
    const legends = await page.$$eval('[data-testid="panel"] canvas', (canvases) => canvases.flatMap((c) => JSON.parse(c.dataset.legend ?? '[]')));
    const captions = await page.$$eval('[data-testid="panel"] figcaption', (captions) => captions.map((c) => c.textContent));
    captions.push(await page.getByTestId('entry-title').textContent());
    assert.ok(legends.some((l) => l.startsWith('Q*ₖ,ε(x|P)')), `the legend writes Q*ₖ,ε (${legends})`);
    for (const text of [...legends, ...captions]) assert.doesNotMatch(text, /[_^]\{/, `no TeX group in “${text}”`);
  });

  step('reproductions: after Stop no figure, check or value of the previous entry stays under the new heading', async () => {
    await openPage(page, 'reproduce.html#minimax-fig2');
    await page.waitForSelector('[data-testid="results"][data-state="passed"]', { timeout: STEP_TIMEOUT });
    assert.ok((await page.getByTestId('panel').count()) > 0 && (await page.getByTestId('check').count()) > 0);
    // A long run, stopped at once: the heading names it, and nothing of minimax-fig2 is left below it.
    await page.getByTestId('mode-full').check();
    await page.getByTestId('experiment-select').selectOption('minimax-fig4');
    await page.getByTestId('stop').click();
    await page.waitForSelector('[data-testid="results"][data-state="stopped"]', { timeout: STEP_TIMEOUT });
    assert.match(await page.getByTestId('entry-figure').textContent(), /Fig\. 4/);
    assert.equal(await page.getByTestId('panel').count(), 0, 'no panel of the previous figure');
    assert.equal(await page.getByTestId('check').count(), 0, 'no check of the previous figure');
    assert.equal(await page.getByTestId('printed-row').count(), 0, 'no printed value of the previous figure');
    assert.match(await page.getByTestId('verdict').textContent(), /minimax-fig4: stopped/);
    await page.getByTestId('mode-quick').check(); // back to quick, for whoever opens the page next
  });

  test('no request left the page’s own server, no errors', () => {
    assertStayedLocal(demo.records, demo.server);
  });
});
