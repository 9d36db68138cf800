// The strict-CSP test page's Web Worker (page.mjs?worker): given the page's compiled WebAssembly.Module, it loads the
// client entry with init({ wasm: module }) — no second download or compile — and draws one sample.
import { init } from '/pkg/build/bundle/privsample.mjs';

self.addEventListener('message', async ({ data }) => {
  try {
    const ps = await init({ wasm: data.module });
    const sample = ps.sampler('minimax', { epsilon: 1 }).sample(data.hist);
    self.postMessage({ ok: true, sample, version: ps.version });
  } catch (error) {
    self.postMessage({ ok: false, error: `${error?.name}: ${error?.message}` });
  }
});
