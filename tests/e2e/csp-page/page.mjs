// The strict-CSP test page (tests/e2e/csp-file.e2e.mjs): loads privsample the way a site that serves the .wasm as a
// file would — init({ wasm: new URL(…), ledgerWasm: new URL(…) }) — draws a sample, and with ?ledger keeps a privacy-budget ledger in
// IndexedDB. ?entry=research loads the research entry instead (WASM inlined, decoded from a data: URL). The outcome
// goes to <html data-result> for the test and into the page for the screenshot.
const params = new URLSearchParams(location.search);
const out = { ok: false };
try {
  if (params.get('entry') === 'research') {
    const { init } = await import('/pkg/bindings/js/research.mjs');
    const ps = await init();
    out.sample = ps.sampler('minimax', { epsilon: 1 }).sample([5, 3, 1, 1]);
  } else {
    const { init } = await import('/pkg/build/bundle/privsample.mjs');
    const wasm = new URL('/pkg/build/wasm/privsample-client.wasm', location.href);
    const ledgerWasm = new URL('/pkg/build/wasm/privsample-ledger.wasm', location.href);
    const ps = await init(params.has('default') ? undefined : { wasm, ledgerWasm });
    const s = ps.sampler('minimax', { epsilon: 1 });
    out.sample = s.sample([5, 3, 1, 1]);
    out.version = ps.version;
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
