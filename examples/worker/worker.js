// A module worker: init({ wasm }) with the module the page posted, then one private sample per request.
import { init } from './node_modules/privsample/build/bundle/privsample.mjs';

self.addEventListener('message', async ({ data }) => {
  try {
    const ps = await init({ wasm: data.module });
    const sampler = ps.sampler('minimax', { epsilon: data.epsilon });
    self.postMessage({ ok: true, category: sampler.sample(data.counts), guarantee: sampler.guarantee });
    sampler.dispose();
  } catch (error) {
    self.postMessage({ ok: false, name: error.name, message: error.message });
  }
});
