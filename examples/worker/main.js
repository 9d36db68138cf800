// The page loads privsample once and posts its compiled WebAssembly.Module to a module worker, which passes it to
// init({ wasm: module }): the worker neither downloads nor compiles the module again. Heavy work (large histograms,
// many draws) then runs off the page's main thread.
import { init } from './node_modules/privsample/build/bundle/privsample.mjs';

const result = document.getElementById('result');
try {
  const ps = await init();
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  const answer = await new Promise((resolve, reject) => {
    worker.addEventListener('message', ({ data }) => resolve(data), { once: true });
    worker.addEventListener('error', (event) => reject(new Error(event.message || 'the worker failed')), { once: true });
    worker.postMessage({ module: ps.wasmModule, counts: [9, 6, 4, 2, 1], epsilon: 1 });
  });
  if (!answer.ok) throw Object.assign(new Error(answer.message), { name: answer.name });
  result.textContent = `category ${answer.category} (drawn in the worker, ${JSON.stringify(answer.guarantee)})`;
  result.dataset.state = 'done';
} catch (error) {
  result.textContent = `${error.name}: ${error.message}`;
  result.dataset.state = 'error';
}
