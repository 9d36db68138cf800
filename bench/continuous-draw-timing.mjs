// What an observer who times samplePoint() sees for two very different private densities:
// 1-D, 8000 cells: N(0, 1) against a spike; 2-D, 300 × 300 cells: the Gaussian ring against a spike. The draw
// (from the sampler's release plan: one word and one scan of the cells) takes the same work for every density;
// building q (the exact clip-normalise solve over every cell) is what depends on the density. Prints median times,
// their ratio, and how often a threshold halfway between the medians tells the two densities apart from one timing.
// Run: npm run bench -- continuous-draw-timing
import { init } from '../bindings/js/research.mjs';

const ps = await init();

function timings(run, count) {
  const out = [];
  for (let i = 0; i < count; i += 1) {
    const t0 = performance.now();
    run();
    out.push((performance.now() - t0) * 1000);
  }
  return out;
}
const median = (v) => v.slice().sort((a, b) => a - b)[Math.floor(v.length / 2)];

// The two densities are timed in turns (A, B, A, B, …), so that a drift of the host's speed falls on both alike.
function compare(label, grid, sampler, densities, count) {
  for (const d of Object.values(densities)) for (let i = 0; i < 20; i += 1) sampler.samplePoint(grid, d); // warm up
  const [a, b] = Object.entries(densities).map(([name, d]) => ({ name, d, times: [] }));
  for (let i = 0; i < count; i += 1) {
    for (const side of [a, b]) side.times.push(...timings(() => sampler.samplePoint(grid, side.d), 1));
  }
  const ma = median(a.times);
  const mb = median(b.times);
  const threshold = (ma + mb) / 2;
  const lowIsA = ma < mb;
  const correct = a.times.filter((t) => (t < threshold) === lowIsA).length + b.times.filter((t) => (t >= threshold) === lowIsA).length;
  console.log(`${label}: ${a.name} ${ma.toFixed(0)} µs, ${b.name} ${mb.toFixed(0)} µs, ratio ${(Math.max(ma, mb) / Math.min(ma, mb)).toFixed(2)}x; ` +
    `a threshold tells them apart ${((100 * correct) / (a.times.length + b.times.length)).toFixed(1)}% of the time (50% = no information)`);
}

{
  const grid = ps.grid1d({ lo: -10, hi: 10, cells: 8000 });
  const prior = ps.densities.laplaceMixture(grid, { means: [0], scale: 2 });
  const sampler = ps.continuousSampler('local', { epsilon: 1, prior, gamma: 4 });
  compare('1-D, 8000 cells, local ε = 1', grid, sampler, {
    'N(0,1)': ps.densities.gaussianMixture(grid, { means: [0], sigma: 1 }),
    spike: ps.densities.gaussianMixture(grid, { means: [0.5], sigma: 0.01 }),
  }, 2000);
}
{
  const grid = ps.grid2d({ xLo: -3, xHi: 3, nx: 300, yLo: -3, yHi: 3, ny: 300 });
  const prior = ps.densities.ring(grid, { radius: 1.5, variance: 1 });
  const sampler = ps.continuousSampler('local', { epsilon: 1, prior, gamma: 4 });
  compare('2-D, 300 × 300 cells, local ε = 1', grid, sampler, {
    ring: ps.densities.ring(grid),
    spike: ps.densities.gaussianMixture(grid, { means: [[0.5, 0.5]], sigma: 0.05 }),
  }, 300);
}
