// Continuous data on grids through the JS API: the truncated-Gaussian golden values of core/mechanisms/cells.md, the ε-LDP ratio bound
// over several densities in 1-D and 2-D, Σq = 1, released points inside the grid with a cell histogram matching q
// (chi-square), and clear TypeError / RangeError for bad inputs with the module still usable afterwards.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { init } from '../../bindings/js/research.mjs';
import { chiSquareTest, errorChecker } from './helpers.mjs';

const ps = await init();

const sum = (values) => values.reduce((a, b) => a + b, 0);

function maxRatio(a, b) {
  let worst = 0;
  for (let i = 0; i < a.length; i += 1) worst = Math.max(worst, a[i] / b[i]);
  return worst;
}

// core/mechanisms/cells.md#reference-values: single truncated N(μ, 1) on [−4, 4], Park's envelope (c1 = 0, c2 = 1.797612
// after normalising), no ε′ adjustment. The cells are fine enough that the cell pmf's divergences match to 1e-6.
test('golden: the truncated-Gaussian table of core/mechanisms/cells.md (r_P, KL, TV, H²) and the class bound R', () => {
  const grid = ps.grid1d({ lo: -4, hi: 4, cells: 8000 });
  const envelope = ps.densities.gaussianMixtureEnvelope(grid, { sigma: 1, radius: 1 });
  assert.ok(Math.abs(sum(envelope) - 1.79761187) < 1e-8, `Σ envelope = ${sum(envelope)}`);
  const rows = [
    { mu: 1, epsilon: 0.5, r: 0.845307, kl: 0.198992, tv: 0.236875, hellinger: 0.066492 },
    { mu: 1, epsilon: 2, r: 0.927304, kl: 0.027355, tv: 0.060276, hellinger: 0.009158 },
    { mu: 0, epsilon: 1, r: 0.911483, kl: 0.027087, tv: 0.083761, hellinger: 0.007451 },
  ];
  for (const row of rows) {
    const s = ps.continuousSampler('minimax', { epsilon: row.epsilon, reference: envelope, c2: 1 });
    const p = ps.densities.gaussianMixture(grid, { means: [row.mu], sigma: 1 });
    const q = s.distribution(p);
    const label = `μ = ${row.mu}, ε = ${row.epsilon}`;
    assert.ok(Math.abs(s.normaliser(p) - row.r) < 1.5e-6, `${label}: r_P = ${s.normaliser(p)}, spec ${row.r}`);
    for (const f of ['kl', 'tv', 'hellinger']) {
      const d = ps.divergence(f, p, q);
      assert.ok(Math.abs(d - row[f]) < 1.5e-6, `${label}: ${f} = ${d}, spec ${row[f]}`);
      assert.ok(d <= s.worstCaseRisk(f) + 1e-12, `${label}: ${f} within the class bound`);
    }
  }
  // R over the class at ε = 0.5 (docs/experiments.md#park-fig-4-1-d-gaussian-mixtures): KL 0.3946, TV 0.3260, H²(½) 0.1791.
  const half = ps.continuousSampler('minimax', { epsilon: 0.5, reference: envelope, c2: 1 });
  assert.ok(Math.abs(half.worstCaseRisk('kl') - 0.3946) < 5e-5);
  assert.ok(Math.abs(half.worstCaseRisk('tv') - 0.326) < 5e-5);
  assert.ok(Math.abs(half.worstCaseRisk('hellinger') - 0.1791) < 5e-5);
  assert.deepEqual(half.guarantee, { notion: 'pure-ldp', epsilon: 0.5 });
  assert.equal(half.cells, 8000);
});

function checkRatioBound(samplers, inputs, label) {
  for (const [name, s] of Object.entries(samplers)) {
    const outputs = inputs.map((p) => s.distribution(p));
    for (const q of outputs) {
      assert.ok(q instanceof Float64Array);
      assert.ok(Math.abs(sum(q) - 1) <= 1e-12, `${label} ${name}: Σq − 1 = ${sum(q) - 1}`);
    }
    const bound = s.guarantee.notion === 'pure-ldp' ? Math.exp(s.guarantee.epsilon) * (1 + 1e-12) : Infinity;
    let worst = 0;
    for (const a of outputs) for (const b of outputs) worst = Math.max(worst, maxRatio(a, b));
    assert.ok(worst <= bound, `${label} ${name}: max q_P/q_P' = ${worst} > e^ε = ${bound}`);
  }
}

test('ε-LDP ratio bound q_P/q_P′ <= e^ε and Σq = 1 over several 1-D densities', () => {
  const grid = ps.grid1d({ lo: -4, hi: 4, cells: 300 });
  const envelope = ps.densities.gaussianMixtureEnvelope(grid);
  // members of the paper's class (|μ| <= 1, σ = 1): every mechanism applies
  const members = [
    ps.densities.gaussianMixture(grid, { means: [1], sigma: 1 }),
    ps.densities.gaussianMixture(grid, { means: [-1], sigma: 1 }),
    ps.densities.gaussianMixture(grid, { means: [-1, 0.3, 1], sigma: 1, weights: [0.2, 0.5, 0.3] }),
  ];
  // far outside it: the clip samplers stay private for every input
  const others = [
    ps.densities.laplaceMixture(grid, { means: [3.9], scale: 0.01 }),
    ps.densities.kernelDensity(grid, [-3.5, -3.4, 0.2, 2.0]),
    ps.densities.kernelDensity(grid, [0.5, 0.6, 0.9], { bandwidth: 0.05 }),
  ];
  const prior = ps.densities.gaussianMixture(grid, { means: [0], sigma: 1.5 });
  for (const epsilon of [0.1, 1, 5]) {
    checkRatioBound(
      {
        minimax: ps.continuousSampler('minimax', { epsilon, reference: envelope, c2: 1 }),
        local: ps.continuousSampler('local', { epsilon, prior, gamma: 4 }),
        'local-linear': ps.continuousSampler('local-linear', { epsilon, prior, gamma: 4 }),
      },
      [...members, ...others],
      `ε = ${epsilon}`,
    );
    checkRatioBound({ linear: ps.continuousSampler('linear', { epsilon, reference: envelope, c2: 1 }) }, members, `ε = ${epsilon}`);
  }
});

test('ε-LDP ratio bound and Σq = 1 in 2-D (ring, Laplace, KDE; points as pairs or flat)', () => {
  const grid = ps.grid2d({ xLo: -3, xHi: 3, nx: 40, yLo: -3, yHi: 3, ny: 30 });
  assert.equal(grid.cells, 1200);
  const ring = ps.densities.ring(grid);
  assert.equal(ring.length, 1200);
  const pairs = ps.densities.kernelDensity(grid, [[0, 0], [0.5, 0.2], [-2.5, 1]]);
  const flat = ps.densities.kernelDensity(grid, new Float64Array([0, 0, 0.5, 0.2, -2.5, 1]));
  assert.deepEqual(Array.from(pairs), Array.from(flat));
  const inputs = [
    ring,
    ps.densities.ring(grid, { modes: 5, variance: 0.1, radius: 2 }),
    ps.densities.laplaceMixture(grid, { means: [[2.9, -2.9]], scale: 0.02 }),
    pairs,
    ps.densities.gaussianMixture(grid, { means: [[0.7, 0.7], [-1, 0]], sigma: 0.05, weights: [3, 1] }),
  ];
  const reference = ps.densities.gaussianMixture(grid, { means: [[0, 0]], sigma: 2 });
  for (const epsilon of [0.5, 3]) {
    checkRatioBound(
      {
        minimax: ps.continuousSampler('minimax', { epsilon, reference, c1: 0, c2: 1e6 }),
        local: ps.continuousSampler('local', { epsilon, prior: ring, gamma: 5 }),
        'local-linear': ps.continuousSampler('local-linear', { epsilon, prior: ring, gamma: 5 }),
      },
      inputs,
      `2-D ε = ${epsilon}`,
    );
  }
});

test('guarantees and normalisers of the four mechanisms', () => {
  const grid = ps.grid1d({ lo: -4, hi: 4, cells: 50 });
  const envelope = ps.densities.gaussianMixtureEnvelope(grid);
  const p = ps.densities.gaussianMixture(grid, { means: [0.5], sigma: 1 });
  const approx = ps.continuousSampler('linear', { epsilon: 1, delta: 1e-6, reference: envelope, c2: 1 });
  assert.deepEqual(approx.guarantee, { notion: 'approx-ldp', epsilon: 1, delta: 1e-6 });
  assert.equal(approx.normaliser(p), null);
  assert.deepEqual(approx.options.c1, 0);
  const gdp = ps.continuousSampler('local-linear', { mu: 1, prior: envelope, gamma: 3 });
  assert.deepEqual(gdp.guarantee, { notion: 'gaussian-ldp', mu: 1 });
  assert.ok(gdp.worstCaseRisk('tv') > 0 && gdp.worstCaseRisk('tv') < 1);
  const local = ps.continuousSampler('local', { epsilon: 1, prior: envelope, gamma: 3 });
  assert.ok(local.normaliser(p) > 0);
  assert.ok(Object.isFrozen(local) && Object.isFrozen(local.guarantee) && Object.isFrozen(local.options));
  assert.ok(Object.isFrozen(grid));
});

function cellOf(grid, x) {
  return Math.min(grid.cells - 1, Math.floor(((x - grid.lo) / (grid.hi - grid.lo)) * grid.cells));
}

test('samplePoint: 1-D points lie in the grid and their cells follow q (chi-square)', () => {
  const grid = ps.grid1d({ lo: -4, hi: 4, cells: 16 });
  const s = ps.continuousSampler('minimax', { epsilon: 1, reference: ps.densities.gaussianMixtureEnvelope(grid), c2: 1 });
  const p = ps.densities.gaussianMixture(grid, { means: [1, -0.5], sigma: 1, weights: [2, 1] });
  const q = s.distribution(p);
  const n = 20000;
  const cells = new Uint32Array(n);
  for (let i = 0; i < n; i += 1) {
    const x = s.samplePoint(grid, p);
    assert.equal(typeof x, 'number');
    assert.ok(x >= grid.lo && x <= grid.hi, `x = ${x} outside [${grid.lo}, ${grid.hi}]`);
    cells[i] = cellOf(grid, x);
  }
  const { pValue, statistic } = chiSquareTest(cells, q);
  assert.ok(pValue > 1e-4, `chi-square ${statistic}, p-value ${pValue}`);
});

test('samplePoint: 2-D points are [x, y] in the grid, cells in image layout follow q (chi-square)', () => {
  const grid = ps.grid2d({ xLo: -3, xHi: 3, nx: 6, yLo: -2, yHi: 2, ny: 4 });
  const prior = ps.densities.ring(grid);
  const s = ps.continuousSampler('local', { epsilon: 2, prior, gamma: 3 });
  const p = ps.densities.kernelDensity(grid, [[1, 1], [1.2, 0.8], [-2, -1.5]], { bandwidth: 0.5 });
  const q = s.distribution(p);
  const n = 20000;
  const cells = new Uint32Array(n);
  for (let i = 0; i < n; i += 1) {
    const point = s.samplePoint(grid, p);
    assert.ok(Array.isArray(point) && point.length === 2);
    const [x, y] = point;
    assert.ok(x >= grid.xLo && x <= grid.xHi && y >= grid.yLo && y <= grid.yHi, `(${x}, ${y}) outside the grid`);
    const ix = Math.min(grid.nx - 1, Math.floor(((x - grid.xLo) / (grid.xHi - grid.xLo)) * grid.nx));
    const iy = Math.min(grid.ny - 1, Math.floor(((y - grid.yLo) / (grid.yHi - grid.yLo)) * grid.ny));
    cells[i] = iy * grid.nx + ix;
  }
  const { pValue, statistic } = chiSquareTest(cells, q);
  assert.ok(pValue > 1e-4, `chi-square ${statistic}, p-value ${pValue}`);
});

test('the wrapper never uses Math.random', () => {
  const source = readFileSync(new URL('../../bindings/js/research.mjs', import.meta.url), 'utf8');
  assert.ok(!source.includes('Math.random'));
});

// ---- bad inputs ------------------------------------------------------------------------------------------------

const g1 = ps.grid1d({ lo: -4, hi: 4, cells: 20 });
const g2 = ps.grid2d({ xLo: -1, xHi: 1, nx: 4, yLo: -1, yHi: 1, ny: 5 });
const envelope1 = ps.densities.gaussianMixtureEnvelope(g1);
const clip1 = ps.continuousSampler('minimax', { epsilon: 1, reference: envelope1, c2: 1 });
const p1 = ps.densities.gaussianMixture(g1, { means: [0], sigma: 1 });

function stillWorks() {
  const q = clip1.distribution(p1);
  assert.ok(Math.abs(sum(q) - 1) < 1e-12, 'the module still computes after the error');
  const x = clip1.samplePoint(g1, p1);
  assert.ok(x >= -4 && x <= 4);
}

const expectError = errorChecker(stillWorks);

test('bad grids are rejected naming the field', () => {
  expectError(() => ps.grid1d({ lo: 1, hi: 0, cells: 3 }), RangeError, /grid.lo = 1, grid.hi = 0/);
  expectError(() => ps.grid1d({ lo: 0, hi: Infinity, cells: 3 }), RangeError, /grid.lo = 0, grid.hi = Infinity: need finite lo < hi/);
  expectError(() => ps.grid1d({ lo: 0, hi: 1, cells: 0 }), RangeError, /grid.cells = 0/);
  expectError(() => ps.grid1d({ lo: 0, hi: 1, cells: 2.5 }), RangeError, /grid.cells = 2.5: must be an integer/);
  expectError(() => ps.grid1d({ lo: 0, hi: 1, cells: 1e8 }), RangeError, /grid.cells = 100000000/);
  expectError(() => ps.grid1d({ lo: '0', hi: 1, cells: 3 }), TypeError, /grid.lo must be a number, got the string "0"/);
  expectError(() => ps.grid1d({ lo: 0, hi: 1 }), TypeError, /grid.cells must be a number, got undefined/);
  expectError(() => ps.grid1d({ lo: 0, hi: 1, cells: 3, nx: 2 }), RangeError, /option 'nx' is not supported/);
  expectError(() => ps.grid1d(5), TypeError, /options must be an object/);
  expectError(() => ps.grid2d({ xLo: -1, xHi: 1, nx: 10000, yLo: -1, yHi: 1, ny: 10000 }), RangeError, /at most 10000000 cells/);
  expectError(() => ps.grid2d({ xLo: -1, xHi: 1, nx: 3, yLo: 2, yHi: 2, ny: 3 }), RangeError, /grid.yLo = 2, grid.yHi = 2: need finite lo < hi/);
  expectError(() => ps.densities.ring({ dimension: 3 }), TypeError, /grid.dimension must be 1 or 2/);
  expectError(() => ps.densities.ring('grid'), TypeError, /grid must be a grid from ps.grid1d\(\) or ps.grid2d\(\)/);
  expectError(() => ps.densities.ring(g1), TypeError, /2-D grid/);
  expectError(() => ps.densities.gaussianMixtureEnvelope(g2), TypeError, /1-D grid/);
});

test('bad density parameters are rejected naming the parameter', () => {
  expectError(() => ps.densities.gaussianMixture(g1, { means: [0], sigma: -1 }), RangeError, /sigma = -1/);
  expectError(() => ps.densities.gaussianMixture(g1, { means: [0], sigma: 0 }), RangeError, /sigma = 0/);
  expectError(() => ps.densities.gaussianMixture(g1, { means: [NaN], sigma: 1 }), RangeError, /means\[0\] = NaN/);
  expectError(() => ps.densities.gaussianMixture(g1, { means: [0], sigma: '1' }), TypeError, /options.sigma must be a number/);
  expectError(() => ps.densities.gaussianMixture(g1, { means: [0, 1], sigma: 1, weights: [1] }), TypeError, /weights has 1 entries but means has 2/);
  expectError(() => ps.densities.gaussianMixture(g1, { means: [0], sigma: 1, weights: [-1] }), RangeError, /weights\[0\] = -1/);
  expectError(() => ps.densities.gaussianMixture(g1, { means: ['a'], sigma: 1 }), TypeError, /options.means\[0\] is the string "a"/);
  expectError(() => ps.densities.gaussianMixture(g1, { mean: [0], sigma: 1 }), RangeError, /option 'mean' is not supported here \(supported: means, weights, sigma\)/);
  expectError(() => ps.densities.gaussianMixture(g2, { means: [[0, 0, 1]], sigma: 1 }), TypeError, /options.means\[0\] is an array of length 3: 2-D points are \[x, y\] pairs/);
  expectError(() => ps.densities.gaussianMixture(g2, { means: [0, 0, 1], sigma: 1 }), TypeError, /options.means has 3 numbers: 2-D points/);
  expectError(() => ps.densities.gaussianMixture(g2, { means: [[0, 'y']], sigma: 1 }), TypeError, /options.means\[0\]\[1\] must be a number/);
  expectError(() => ps.densities.laplaceMixture(g1, { means: [0], scale: Infinity }), RangeError, /scale = Infinity/);
  expectError(() => ps.densities.ring(g2, { variance: -0.5 }), RangeError, /variance = -0.5/);
  expectError(() => ps.densities.ring(g2, { modes: 0 }), RangeError, /modes = 0/);
  expectError(() => ps.densities.kernelDensity(g1, [1]), RangeError, /Scott's rule needs at least two points/);
  expectError(() => ps.densities.kernelDensity(g1, [1, 1]), RangeError, /all equal/);
  expectError(() => ps.densities.kernelDensity(g1, [1, 2], { bandwidth: -1 }), RangeError, /bandwidth = -1/);
  expectError(() => ps.densities.kernelDensity(g1, []), RangeError, /points: need at least one point/);
  expectError(() => ps.densities.kernelDensity(g1, 'points'), TypeError, /points must be an array of numbers/);
});

test('bad continuous sampler options are rejected naming the option', () => {
  expectError(() => ps.continuousSampler('clip', { epsilon: 1 }), RangeError, /mechanism = 'clip': unknown continuous mechanism; use one of 'minimax', 'linear', 'local', 'local-linear'/);
  expectError(() => ps.continuousSampler(1, { epsilon: 1 }), TypeError, /mechanism must be a string/);
  expectError(() => ps.continuousSampler('minimax', { epsilon: 1, c2: 1 }), RangeError, /options.reference is required for 'minimax'/);
  expectError(() => ps.continuousSampler('minimax', { epsilon: 1, reference: envelope1 }), RangeError, /options.c2 is required for 'minimax'/);
  expectError(() => ps.continuousSampler('minimax', { reference: envelope1, c2: 1 }), RangeError, /options.epsilon is required/);
  expectError(() => ps.continuousSampler('minimax', { epsilon: 1, reference: envelope1, c2: 1, prior: envelope1 }), RangeError, /option 'prior' is not supported by 'minimax' \(supported: epsilon, reference, c2, c1\)/);
  expectError(() => ps.continuousSampler('minimax', { epsilon: 1, reference: envelope1, c2: 1, epsilnn: 1 }), RangeError, /option 'epsilnn' is unknown/);
  expectError(() => ps.continuousSampler('linear', { epsilon: 1, mu: 1, reference: envelope1, c2: 1 }), RangeError, /options.mu \(Gaussian LDP\) cannot be combined with epsilon or delta/);
  expectError(() => ps.continuousSampler('local', { epsilon: 1, prior: p1 }), RangeError, /options.gamma is required for 'local'/);
  expectError(() => ps.continuousSampler('minimax', { epsilon: -1, reference: envelope1, c2: 1 }), RangeError, /epsilon = -1/);
  expectError(() => ps.continuousSampler('minimax', { epsilon: NaN, reference: envelope1, c2: 1 }), RangeError, /epsilon = NaN/);
  expectError(() => ps.continuousSampler('minimax', { epsilon: '1', reference: envelope1, c2: 1 }), TypeError, /options.epsilon must be a number/);
  expectError(() => ps.continuousSampler('minimax', { epsilon: 1, reference: envelope1, c2: 0.5 }), RangeError, /c2/);
  expectError(() => ps.continuousSampler('minimax', { epsilon: 1, reference: envelope1, c1: -1, c2: 1 }), RangeError, /c1/);
  expectError(() => ps.continuousSampler('minimax', { epsilon: 1, reference: [1, -1, 1], c2: 10 }), RangeError, /reference\[1\] = -1/);
  expectError(() => ps.continuousSampler('minimax', { epsilon: 1, reference: 'h', c2: 10 }), TypeError, /options.reference must be an array of numbers/);
  expectError(() => ps.continuousSampler('linear', { epsilon: 1, delta: 1, reference: envelope1, c2: 1 }), RangeError, /delta = 1/);
  expectError(() => ps.continuousSampler('local', { epsilon: 1, prior: p1, gamma: 1 }), RangeError, /gamma = 1/);
  expectError(() => ps.continuousSampler('local-linear', { mu: -1, prior: p1, gamma: 2 }), RangeError, /mu = -1/);
  expectError(() => ps.continuousSampler('local', { epsilon: 1, prior: new Float64Array(5), gamma: 2 }), RangeError, /prior: need a positive finite total mass/);
  expectError(() => ps.continuousSampler('local', { epsilon: 1, prior: p1, gamma: 2, outsideNeighbourhood: 'paper' }), RangeError,
    /options.outsideNeighbourhood = 'paper': use 'clip'/);
  expectError(() => ps.continuousSampler('local', { epsilon: 1, prior: p1, gamma: 2, outsideNeighbourhood: true }), TypeError,
    /options.outsideNeighbourhood must be a string/);
});

test("local on cells, outsideNeighbourhood 'projection': the projection onto N_γ(P0) in the trivial regime", () => {
  const options = { epsilon: 3, prior: [1, 1, 1, 1], gamma: 2 };
  const projection = ps.continuousSampler('local', { ...options, outsideNeighbourhood: 'projection' });
  const q = projection.distribution([0, 0, 1, 0]);
  [1 / 6, 1 / 6, 0.5, 1 / 6].forEach((v, i) => assert.ok(Math.abs(q[i] - v) < 1e-15, `cell ${i}: ${q[i]}`));
  assert.ok(ps.continuousSampler('local', options).distribution([0, 0, 1, 0])[2] > 0.5 + 0.05, 'the clip box reaches further');
});

test('bad densities, divergence names and grids at sampling time are rejected', () => {
  expectError(() => clip1.distribution([1, 2, 3]), TypeError, /density has 3 cells but the reference has 20/);
  expectError(() => clip1.distribution(new Float64Array(20)), RangeError, /density is all zeros/);
  expectError(() => clip1.distribution([...p1.slice(1), NaN]), RangeError, /density\[19\] = NaN/);
  expectError(() => clip1.distribution('p'), TypeError, /density must be an array of numbers/);
  expectError(() => clip1.normaliser([1, 'x']), TypeError, /density\[1\] is the string "x"/);
  const linear = ps.continuousSampler('linear', { epsilon: 1, reference: envelope1, c2: 1 });
  expectError(() => linear.distribution(ps.densities.laplaceMixture(g1, { means: [3.9], scale: 0.01 })), RangeError, /density: outside the class/);
  expectError(() => clip1.worstCaseRisk('js'), RangeError, /f = 'js': unknown divergence/);
  expectError(() => clip1.worstCaseRisk(1), TypeError, /f must be a string/);
  expectError(() => clip1.samplePoint(ps.grid1d({ lo: 0, hi: 1, cells: 7 }), p1), TypeError, /density has 20 cells but the grid has 7/);
  expectError(() => clip1.samplePoint(5, p1), TypeError, /grid must be a grid/);
  expectError(() => clip1.samplePoint({ dimension: 1, lo: 0, hi: 1, cells: 0 }, p1), RangeError, /grid.cells = 0/);
});
