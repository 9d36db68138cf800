// No install: the package's files straight from a CDN that serves npm packages as they are (jsDelivr here; unpkg
// works the same). Pin the exact version: the URL then always means the same bytes. The module finds its .wasm
// file next to itself on the CDN (fetched with CORS, compiled as it streams when served as application/wasm).
import { init } from 'https://cdn.jsdelivr.net/npm/privsample@0.1.0/build/bundle/privsample.mjs';

const result = document.getElementById('result');
try {
  const ps = await init();
  const sampler = ps.sampler('minimax', { epsilon: 1 });
  result.textContent = `category ${sampler.sample([9, 6, 4, 2, 1])} (privsample ${ps.version} from the CDN)`;
  result.dataset.state = 'done';
} catch (error) {
  result.textContent = `${error.name}: ${error.message}`;
  result.dataset.state = 'error';
}
