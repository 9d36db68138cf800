// MBDE, this checkout against another build of privsample/research, in ONE node process: the two modules' ps.mbde
// (reduced preset, seeded) alternate on the same inputs, so the machine's load falls on both alike; the medians of
// wall and CPU time (process.cpuUsage: this thread's share of a shared machine) and their ratios are printed.
//   node bench/mbde-ab.mjs <other checkout> [runs]
// The other checkout needs its research module built: git archive <rev> | tar -x -C DIR, then in DIR
// `emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release && cmake --build build/wasm --target privsample_research_wasm`
// (NODE_PATH=/usr/share/nodejs, as scripts/build-wasm.sh sets it).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { init } from '../bindings/js/research.mjs';

const [other, runsArg = '9'] = process.argv.slice(2);
if (!other) {
  console.error('usage: node bench/mbde-ab.mjs <other checkout> [runs]');
  process.exit(2);
}
const { init: initOther } = await import(pathToFileURL(resolve(other, 'bindings/js/research.mjs')).href);
const modules = [['other', await initOther()], ['this', await init()]];
const runs = Number(runsArg);
const median = (x) => x.slice().sort((a, b) => a - b)[x.length >> 1];
const settings = [
  ['1-D, 200 cells (a minimax-fig4 client)', (ps) => {
    const g = ps.grid1d({ lo: -4, hi: 4, cells: 200 });
    return [g, ps.seededRandomMixtures({ seed: 1, count: runs }).map((m) => ps.densities.gaussianMixture(g, { means: m.means, weights: m.weights, sigma: 1 }))];
  }],
  ['2-D ring, 100 x 100 cells (minimax-fig1)', (ps) => {
    const g = ps.grid2d({ xLo: -3, xHi: 3, nx: 100, yLo: -3, yHi: 3, ny: 100 });
    return [g, [ps.densities.ring(g)]];
  }],
];
for (const [label, make] of settings) {
  const inputs = modules.map(([, ps]) => make(ps));
  const wall = [[], []];
  const cpu = [[], []];
  for (let r = 0; r < runs; r += 1) {
    modules.forEach(([, ps], m) => {
      const [grid, densities] = inputs[m];
      const start = performance.now();
      const before = process.cpuUsage();
      ps.mbde(grid, densities[r % densities.length], { epsilon: 0.5, preset: 'reduced', seed: 7 + r });
      const used = process.cpuUsage(before);
      wall[m].push(performance.now() - start);
      cpu[m].push((used.user + used.system) / 1000);
    });
  }
  const [w0, w1, c0, c1] = [median(wall[0]), median(wall[1]), median(cpu[0]), median(cpu[1])];
  console.log(`${label}: wall ${w0.toFixed(0)} -> ${w1.toFixed(0)} ms (${(w0 / w1).toFixed(2)}x), ` +
    `CPU ${c0.toFixed(0)} -> ${c1.toFixed(0)} ms (${(c0 / c1).toFixed(2)}x), median of ${runs}`);
}
