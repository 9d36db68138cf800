// Browser end-to-end test of the continuous view (dist/continuous.html; run `npm run build` first), in Debian's
// Chromium:  node --test tests/e2e/
// Serves dist/ under a sub-path (/demo/privsample/) from an in-process static server on 127.0.0.1, opens the
// histogram page and follows its header link to the continuous view (and back), then: both heatmaps are drawn
// (non-blank canvas pixels); moving ε changes the privatized map but not the original; the divergence-versus-ε
// chart fills in (one progress step per ε); 'my points' by clicking on the map; private points drawn and plotted on
// the privatized map; minimax on its class; and the page stays responsive while a 500 × 500 curve runs in the
// worker (ε moved and the privatized map redrawn before the run ends). Checks that no request leaves 127.0.0.1,
// nothing is logged as an error and the Content-Security-Policy holds. Screenshot: test-output/e2e/continuous.png.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertServedFromPrefix, assertStayedLocal, closeDemoPage, epsilonShown, openDemoPage, pressSlider, saveScreenshot, stepsFor } from './support.mjs';

const STEP_TIMEOUT = 15_000;

let server;
let browser;
let page;
let baseUrl;
const requests = [];
const consoleErrors = [];
const pageErrors = [];

const step = stepsFor('continuous', () => page);

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

/** What a heatmap canvas shows: its state attribute, a pixel fingerprint and how many pixels are not background. */
async function map(testid) {
  return page.getByTestId(testid).evaluate((canvas) => {
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let hash = 0;
    let lit = 0;
    let s1 = 0;
    let s2 = 0;
    const colours = new Set();
    for (let i = 0; i < data.length; i += 4) {
      hash = (Math.imul(hash, 31) + data[i] * 65536 + data[i + 1] * 256 + data[i + 2]) | 0;
      const brightness = data[i] + data[i + 1] + data[i + 2];
      if (data[i + 3] > 0 && brightness > 120) lit += 1;
      s1 += brightness;
      s2 += brightness * brightness;
      if (i % 64 === 0) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    }
    const pixels = data.length / 4;
    const contrast = Math.sqrt(Math.max(0, s2 / pixels - (s1 / pixels) ** 2)); // standard deviation of the brightness
    return { state: canvas.dataset.state ? JSON.parse(canvas.dataset.state) : null, hash, lit, contrast, colours: colours.size, pixels };
  });
}

async function curveChart() {
  const raw = await page.getByTestId('curve-chart').getAttribute('data-chart');
  return raw ? JSON.parse(raw) : null;
}

async function curveDone(n, mechanism) {
  return waitFor(`the ${n} × ${n} ${mechanism} curve`, async () => {
    const c = await curveChart();
    const state = await page.getByTestId('curve-card').getAttribute('data-state');
    return c && state === 'done' && c.n === n && c.mechanism === mechanism && c.done === c.total && c.total > 0 ? c : null;
  }, { timeout: 60_000 });
}

function checkCurve(c) {
  const eps = c.epsilons;
  assert.ok(eps.length >= 20 && eps.length <= 60, `${eps.length} ε values`);
  assert.ok(Math.abs(eps[0] - 0.01) < 1e-9 && Math.abs(eps.at(-1) - 10) < 1e-9, `ε from ${eps[0]} to ${eps.at(-1)}`);
  for (const f of ['kl', 'tv', 'hellinger']) {
    assert.equal(c.series[f].length, eps.length, `${f} curve length`);
    assert.equal(c.worst[f].length, eps.length, `${f} worst-case length`);
    // (the library's D_KL can come out a rounding error below 0, e.g. −6e−18 when Q ≈ P at ε = 10 on 500 × 500)
    c.series[f].forEach((v, i) => assert.ok(Number.isFinite(v) && v >= -1e-12, `${f}[${i}] = ${v}`));
    c.worst[f].forEach((v, i) => assert.ok(Number.isFinite(v) && v >= 0, `${f} worst[${i}] = ${v}`));
    assert.ok(c.series[f][0] > c.series[f].at(-1), `${f}: more budget, less divergence`);
    assert.ok(c.worst[f][0] > c.worst[f].at(-1), `${f} worst case: more budget, less divergence`);
    if (f !== 'kl') c.series[f].forEach((v) => assert.ok(v <= 1 + 1e-12, `${f} at most 1`));
  }
}

describe('privsample continuous view in Chromium, served from a sub-path', { timeout: 180_000 }, () => {
  before(async () => {
    ({ server, browser, page, baseUrl } = await openDemoPage('continuous.html', STEP_TIMEOUT, { requests, consoleErrors, pageErrors }));
  });

  after(() => closeDemoPage(server, browser));

  step('the histogram page links to the continuous view and back; both heatmaps are drawn', async () => {
    const response = await page.goto(baseUrl, { waitUntil: 'load' });
    assert.equal(response.status(), 200);
    await page.getByTestId('link-continuous').click();
    await page.waitForURL(`${baseUrl}continuous.html`);
    await page.waitForSelector('[data-testid="status"][data-state="ready"]', { timeout: 20_000 });
    assert.match(await page.getByTestId('status').textContent(), /Ready: privsample \d+\.\d+\.\d+/);
    const workers = page.workers();
    assert.equal(workers.length, 1, 'one Web Worker');
    assert.match(workers[0].url(), /\/demo\/privsample\/assets\/continuous-worker-[\w-]+\.js$/);

    const p = await waitFor('the original heatmap', async () => {
      const m = await map('map-p');
      return m.state ? m : null;
    });
    const q = await map('map-q');
    assert.deepEqual(p.state, { n: 120, family: 'ring', points: 0 });
    assert.equal(q.state.n, 120);
    assert.equal(q.state.epsilon, 1);
    assert.equal(q.state.mechanism, 'local');
    for (const [name, m] of [['P', p], ['Q', q]]) {
      assert.ok(m.lit > m.pixels * 0.05, `${name} heatmap has bright pixels (${m.lit} of ${m.pixels})`);
      assert.ok(m.colours > 20, `${name} heatmap has ${m.colours} colours`);
    }
    assert.notEqual(p.hash, q.hash, 'P and Q differ at ε = 1');
    assert.match(await page.getByTestId('guarantee').textContent(), /Pure 1-LDP/);
    assert.match(await page.getByTestId('map-summary').textContent(), /At ε = 1: KL [0-9.e-]+ \(worst [0-9.e-]+\)/);
    checkCurve(await curveDone(120, 'local'));

    // And back.
    await page.getByTestId('link-histogram').click();
    await page.waitForURL(baseUrl + 'index.html');
    await page.waitForSelector('[data-testid="status"][data-state="ready"]', { timeout: 20_000 });
    await page.getByTestId('link-continuous').click();
    await page.waitForURL(`${baseUrl}continuous.html`);
    await waitFor('the heatmaps again', async () => (await map('map-q')).state);
  });

  step('moving ε redraws the privatized map only, and moves the chart marker', async () => {
    const p0 = await map('map-p');
    const q0 = await map('map-q');
    await pressSlider(page, 'PageDown', 1); // one page down the log slider: ε < 1
    const epsilon = await epsilonShown(page);
    assert.ok(epsilon < 1, `ε went down to ${epsilon}`);
    const q1 = await waitFor('Q at the new ε', async () => {
      const m = await map('map-q');
      return m.state.epsilon === epsilon ? m : null;
    });
    assert.notEqual(q1.hash, q0.hash, 'the privatized heatmap changed');
    assert.equal((await map('map-p')).hash, p0.hash, 'the original heatmap did not change');
    assert.equal((await curveChart()).current, epsilon, 'the chart marker follows ε');
    // Stronger privacy: Q is flatter (closer to the smooth public prior), so the map has less contrast.
    await pressSlider(page, 'Home');
    const q2 = await waitFor('Q at ε = 0.01', async () => {
      const m = await map('map-q');
      return m.state.epsilon === 0.01 ? m : null;
    });
    assert.ok(q2.contrast < q1.contrast, `Q at ε = 0.01 is flatter (brightness spread ${q2.contrast} vs ${q1.contrast})`);
    assert.match(await page.getByTestId('guarantee').textContent(), /Pure 0\.01-LDP/);
  });

  step('my points: clicking on the map adds points and changes P', async () => {
    await page.getByTestId('family-select').selectOption('points');
    const before = await waitFor('the kernel density of the example points', async () => {
      const m = await map('map-p');
      return m.state.family === 'points' ? m : null;
    });
    assert.equal(before.state.points, 6, 'six example points');
    assert.match(await page.getByTestId('points-count').textContent(), /^6 points$/);
    const canvas = page.getByTestId('map-p');
    const box = await canvas.boundingBox();
    // Two clicks in the top-left quadrant: at (−2, 2) and (−1.5, 2.2) (locator clicks scroll the canvas into view).
    await canvas.click({ position: { x: box.width * (1 / 6), y: box.height * (1 / 6) } });
    await canvas.click({ position: { x: box.width * (1.5 / 6), y: box.height * (0.8 / 6) } });
    const afterClicks = await waitFor('the density with 8 points', async () => {
      const m = await map('map-p');
      return m.state.points === 8 ? m : null;
    });
    assert.notEqual(afterClicks.hash, before.hash, 'the original heatmap changed');
    const lines = (await page.getByTestId('points-input').inputValue()).trim().split('\n');
    assert.equal(lines.length, 8);
    const [x, y] = lines[6].split(',').map(Number);
    assert.ok(Math.abs(x + 2) < 0.05 && Math.abs(y - 2) < 0.05, `first click at (${x}, ${y}), expected about (−2, 2)`);
    // Pasting: a bad line is reported, a good list is used.
    await page.getByTestId('points-input').fill('0, 0\n1, oops');
    await waitFor('the error on line 2', async () => /line 2/.test((await page.getByTestId('density-error').textContent()) ?? '') && (await page.getByTestId('density-error').isVisible()), { anyBusy: true });
    await page.getByTestId('points-input').fill('0, 0\n1, 1\n-1, 0.5\n0.5, -1');
    await waitFor('four pasted points', async () => (await map('map-p')).state.points === 4);
    assert.equal(await page.getByTestId('density-error').isVisible(), false);
    checkCurve(await curveDone(120, 'local'));
  });

  step('drawing private points plots them on the privatized map', async () => {
    await page.getByTestId('family-select').selectOption('ring');
    await pressSlider(page, 'End'); // ε = 10: the points follow the ring
    await waitFor('Q of the ring at ε = 10', async () => {
      const m = await map('map-q');
      return m.state.epsilon === 10 && (await map('map-p')).state.family === 'ring';
    });
    const q0 = await map('map-q');
    assert.equal(q0.state.samples.length, 0);
    await page.getByTestId('sample-1').click();
    const q1 = await waitFor('one private point', async () => {
      const m = await map('map-q');
      return m.state.samples.length === 1 ? m : null;
    });
    assert.notEqual(q1.hash, q0.hash, 'the point is drawn on the map');
    await page.getByTestId('sample-20').click();
    const q21 = await waitFor('21 private points', async () => {
      const m = await map('map-q');
      return m.state.samples.length === 21 ? m : null;
    });
    for (const [x, y] of q21.state.samples) {
      assert.ok(Math.abs(x) <= 3 && Math.abs(y) <= 3, `(${x}, ${y}) is on the square`);
    }
    // At ε = 10 around the ring (radius 1), most points are within 2.5 of the origin.
    const near = q21.state.samples.filter(([x, y]) => Math.hypot(x, y) < 2.5).length;
    assert.ok(near >= 12, `${near} of 21 points near the ring`);
    assert.match(await page.getByTestId('sample-summary').textContent(), /^21 private points drawn \(21·ε = 210 spent\)/);
    await page.getByTestId('clear-samples').click();
    assert.equal((await map('map-q')).state.samples.length, 0);
    assert.equal((await map('map-q')).hash, q0.hash, 'cleared: the map is as before');
  });

  step('minimax on its class: the ring and the Laplace mixture lie in it', async () => {
    await page.getByTestId('mechanism-select').selectOption('minimax');
    assert.equal(await page.getByTestId('local-row').isVisible(), false, 'no prior / γ for minimax');
    assert.match(await page.getByTestId('mechanism-explain').textContent(), /p ≤ 12·h/);
    await waitFor('minimax map', async () => (await map('map-q')).state.mechanism === 'minimax');
    assert.match(await page.getByTestId('map-summary').textContent(), /P lies in the class/);
    checkCurve(await curveDone(120, 'minimax'));
    await page.getByTestId('family-select').selectOption('laplace');
    await waitFor('Laplace map', async () => (await map('map-p')).state.family === 'laplace');
    assert.match(await page.getByTestId('map-summary').textContent(), /P lies in the class/);
    const c = await curveDone(120, 'minimax');
    checkCurve(c);
    // Minimax: the user's divergence never exceeds the worst case over the class it lies in.
    for (const f of ['kl', 'tv', 'hellinger']) {
      c.series[f].forEach((v, i) => assert.ok(v <= c.worst[f][i] * (1 + 1e-9) + 1e-12, `${f} at ε = ${c.epsilons[i]}: ${v} > worst ${c.worst[f][i]}`));
    }
    await page.getByTestId('mechanism-select').selectOption('local');
    await page.getByTestId('family-select').selectOption('ring');
    await curveDone(120, 'local');
  });

  step('the page stays responsive while the 500 × 500 curve runs in the worker', async () => {
    await page.getByTestId('epsilon-slider').evaluate((slider) => {
      slider.value = '0'; // ε = 1
      slider.dispatchEvent(new Event('input', { bubbles: true }));
    });
    assert.equal(await epsilonShown(page), 1);
    await page.getByTestId('grid-select').selectOption('500');
    // The run has started and reports progress per ε.
    await waitFor('the first progress step', async () => {
      const c = await curveChart();
      return c.n === 500 && c.done >= 1 && c.done < c.total;
    }, { anyBusy: true, timeout: 20_000 });
    // The main thread answers at once…
    const lag = await page.evaluate(() => new Promise((resolve) => {
      const t = performance.now();
      setTimeout(() => resolve(performance.now() - t), 0);
    }));
    assert.ok(lag < 200, `a timer fired after ${lag} ms`);
    // …a control reacts at once (the ε slider and its label)…
    await pressSlider(page, 'PageDown');
    const epsilon = await epsilonShown(page);
    assert.ok(epsilon < 1, `ε label now ${epsilon}`);
    const during = await curveChart();
    assert.ok(during.done < during.total, `the run is still going (${during.done} of ${during.total})`);
    // …and the worker answers the new ε between two curve points: the privatized 500 × 500 map is redrawn
    // before the run ends.
    let progressWhenRedrawn = null;
    await waitFor('the 500 × 500 map at the new ε', async () => {
      const m = await map('map-q');
      if (m.state.n === 500 && m.state.epsilon === epsilon) {
        progressWhenRedrawn ??= await curveChart();
        return true;
      }
      return false;
    }, { anyBusy: true, timeout: 20_000 });
    assert.ok(progressWhenRedrawn.done < progressWhenRedrawn.total, `the map was redrawn while the run was at ${progressWhenRedrawn.done} of ${progressWhenRedrawn.total}`);
    const progressValue = Number(await page.getByTestId('curve-progress').evaluate((p) => p.value));
    assert.ok(progressValue >= 1, 'the progress bar moved');
    const c = await curveDone(500, 'local');
    checkCurve(c);
    assert.equal(await page.getByTestId('curve-card').getAttribute('data-state'), 'done');
    assert.match(await page.getByTestId('curve-status').textContent(), /31 values of ε on 500 × 500 cells in [0-9.]+ s/);
  });

  step('screenshot: the ring at 500 × 500 with 20 private points', async () => {
    await page.getByTestId('sample-20').click();
    await waitFor('20 points', async () => (await map('map-q')).state.samples.length === 20);
    await page.mouse.move(0, 0);
    await saveScreenshot(page, 'continuous.png', { fullPage: true });
  });

  test('no request left 127.0.0.1, every file came from the sub-path, no errors, no CSP violation', async () => {
    assertStayedLocal({ requests, pageErrors, consoleErrors }, server);
    assertServedFromPrefix(server);
    assert.ok(server.log.some((e) => /\/assets\/continuous-worker-[\w-]+\.js$/.test(e.path)), 'the worker script was served from the sub-path');
    if (page) assert.deepEqual(await page.evaluate(() => window.__cspViolations), [], 'CSP violations');
  });
});
