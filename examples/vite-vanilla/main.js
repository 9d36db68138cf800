// A Vite app: `import { init } from 'privsample'` as in any module. Vite copies the package's .wasm file into the
// build as an asset (the package loads it with new URL(…, import.meta.url)); nothing to configure.
import { init } from 'privsample';

const names = ['Walk', 'Bicycle', 'Bus', 'Train', 'Car'];
const counts = [9, 6, 4, 2, 1]; // the visitor's own data: it never leaves the page
const result = document.getElementById('result');
const draw = document.getElementById('draw');
document.getElementById('counts').textContent = names.map((n, i) => `${n} ${counts[i]}`).join(', ');

try {
  const ps = await init();
  const sampler = ps.sampler('minimax', { epsilon: 1 });
  const release = () => {
    result.textContent = names[sampler.sample(counts)]; // each draw spends ε = 1 again
    result.dataset.state = 'done';
  };
  draw.addEventListener('click', release);
  draw.disabled = false;
  release();
} catch (error) {
  result.textContent = `${error.name}: ${error.message}`;
  result.dataset.state = 'error';
}
