// What both pages do: release one private category of the visitor's counts and show it.
const NAMES = ['Walk', 'Bicycle', 'Bus', 'Train', 'Car'];
const COUNTS = [9, 6, 4, 2, 1];

export async function show(init) {
  const result = document.getElementById('result');
  try {
    const ps = await init();
    const sampler = ps.sampler('minimax', { epsilon: 1 });
    result.textContent = `${NAMES[sampler.sample(COUNTS)]} (privsample ${ps.version}, ${JSON.stringify(sampler.guarantee)})`;
    result.dataset.state = 'done';
  } catch (error) {
    result.textContent = `${error.name}: ${error.message}`;
    result.dataset.state = 'error';
  }
}
