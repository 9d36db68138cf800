// The strict-CSP test page (tests/e2e/csp-file.e2e.mjs): loads privsample the way a site that serves the .wasm as a
// file would — init({ wasm: new URL(…), ledgerWasm: new URL(…) }) — draws a sample, and with ?ledger keeps a privacy-budget ledger in
// IndexedDB, and with ?worker posts its compiled module to a Web Worker (worker.mjs) that draws with it. ?entry=research
// loads the research entry instead (WASM inlined, decoded from a data: URL). ?large privatizes
// a histogram of k = 10^7 categories (the most the API takes) with 'minimax': distribution() and, in the client, sample().
// The outcome goes to <html data-result> for the test and into the page for the screenshot.
const params = new URLSearchParams(location.search);
const out = { ok: false };

// k = 10^7 skewed counts (a cube of an LCG's uniforms: many small, a few large), then what the test checks of Q*.
function large(sampler, withSample) {
  const k = 10_000_000;
  const hist = new Float64Array(k);
  let state = 12345;
  for (let i = 0; i < k; i += 1) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    hist[i] = (state / 2 ** 32) ** 3;
  }
  const started = performance.now();
  const q = sampler.distribution(hist);
  const distributionMs = performance.now() - started;
  let total = 0;
  let smallest = Infinity;
  let largest = 0;
  for (let i = 0; i < q.length; i += 1) {
    total += q[i];
    smallest = Math.min(smallest, q[i]);
    largest = Math.max(largest, q[i]);
  }
  const result = { k: q.length, total, ratio: largest / smallest, floorTimesK: smallest * k, distributionMs };
  if (withSample) {
    const at = performance.now();
    result.sample = sampler.sample(hist);
    result.sampleMs = performance.now() - at;
  }
  return result;
}
try {
  if (params.get('entry') === 'research') {
    const { init } = await import('/pkg/bindings/js/research.mjs');
    const ps = await init();
    out.sample = ps.sampler('minimax', { epsilon: 1 }).sample([5, 3, 1, 1]);
    if (params.has('large')) out.large = large(ps.sampler('minimax', { epsilon: 1 }), false);
  } else {
    const { init } = await import('/pkg/build/bundle/privsample.mjs');
    const wasm = new URL('/pkg/build/wasm/privsample-client.wasm', location.href);
    const ledgerWasm = new URL('/pkg/build/wasm/privsample-ledger.wasm', location.href);
    const ps = await init(params.has('default') ? undefined : { wasm, ledgerWasm });
    const s = ps.sampler('minimax', { epsilon: 1 });
    out.sample = s.sample([5, 3, 1, 1]);
    out.version = ps.version;
    if (params.has('large')) out.large = large(s, true);
    if (params.has('worker')) {
      // The page's compiled module, posted to a module worker: the worker neither downloads nor compiles it again.
      const worker = new Worker('./worker.mjs', { type: 'module' });
      out.worker = await new Promise((resolve, reject) => {
        worker.addEventListener('message', ({ data }) => resolve(data));
        worker.addEventListener('error', (event) => reject(new Error(`the worker failed: ${event.message}`)));
        worker.postMessage({ module: ps.wasmModule, hist: [5, 3, 1, 1] });
      });
      worker.terminate();
    }
    if (params.has('ledger')) {
      const storage = ps.ledgerStorage.indexedDB({ database: 'privsample-csp-e2e' });
      const ledger = await ps.ledger({ storage, budgets: { survey: { epsilon: 1.5 } } });
      out.before = (await ledger.entries('survey')).length;
      out.release = await ledger.release(s, [5, 3, 1, 1], { purpose: 'survey' }).then(
        (category) => `released ${category}`,
        (error) => `${error.name}: ${error.message}`,
      );
      out.spent = await ledger.spent('survey');
    }
  }
  out.ok = true;
} catch (error) {
  out.error = `${error?.name}: ${error?.message}`;
}
document.documentElement.dataset.result = JSON.stringify(out);
document.getElementById('result').textContent = JSON.stringify(out, null, 2);
