// The reproductions of `npm run reproduce`. Everything numeric goes through the public JS API of privsample
// (densities as exact cell masses, the samplers' exact output pmfs, ps.divergence, worstCaseRisk); this file only
// sets the experiments up (grids, random mixtures) and aggregates (max over clients).
import { randomMixtures } from './rng.mjs';

export const DIVERGENCES = [
  { f: 'kl', label: 'KL' },
  { f: 'tv', label: 'TV' },
  { f: 'hellinger', label: 'Sq. Hel' }, // ½Σ(√p − √q)², the papers' plotted convention
];

// Ghoukasian et al. Figs 4 and 10 (docs/experiments.md#ghoukasian-fig-4-continuous-pure-ldp): Laplace(0, 1) reference on ℝ, truncated to this interval (the mass it drops,
// e^{-20}, changes every ratio p/h by < 1e-8: the clients stay well inside both universes).
const LAPLACE_LINE = { lo: -20, hi: 20 };
// The authors' code's global universe for the Laplace clients: c1 = e^{−1}/3, c2 = 3e (unrounded, as plotted).
const GLOBAL_C1 = Math.exp(-1) / 3;
const GLOBAL_C2 = 3 * Math.E;
const LOCAL_GAMMA = 3; // γ = max(⌈e^{1/b}⌉, ⌈1/e^{−1/b}⌉) with b = 1

/**
 * The clip sampler's box on its reference h: q/h takes values in [b, e^ε·b] on the cells with h > 0 and q = 0 where
 * h = 0. Returns log(max q/h) − log(min q/h) (Infinity if q > 0 on a cell with h = 0): it must be <= ε.
 */
export function boxSpread(q, h) {
  let lo = Infinity;
  let hi = 0;
  for (let i = 0; i < q.length; i += 1) {
    if (h[i] > 0) {
      const r = q[i] / h[i];
      if (r < lo) lo = r;
      if (r > hi) hi = r;
    } else if (q[i] > 0) return Infinity;
  }
  return Math.log(hi) - Math.log(lo);
}

/** MBDE's guarantee: max over cells of |log q_T/q0| (it must be <= ε/2). */
export function mbdeLogRatio({ density, reference }) {
  let worst = 0;
  for (let i = 0; i < density.length; i += 1) worst = Math.max(worst, Math.abs(Math.log(density[i] / reference[i])));
  return worst;
}

/**
 * Worst (max over clients) of each divergence between the client and the output pmf `output(p, j)` returns
 * ({ q, check }: check is the privacy quantity of that output, maxed over the clients too).
 */
function worstOver(ps, output, clients) {
  const worst = {};
  for (const { f } of DIVERGENCES) worst[f] = { value: -Infinity, client: -1 };
  let check = -Infinity;
  clients.forEach((p, j) => {
    const { q, check: c } = output(p, j);
    if (c !== undefined) check = Math.max(check, c);
    for (const { f } of DIVERGENCES) {
      const d = ps.divergence(f, p, q);
      if (d > worst[f].value) worst[f] = { value: d, client: j };
    }
  });
  return { worst, check };
}

/**
 * Runs one figure: for every budget, draws the clients with that budget's seed, builds each sampler, and
 * returns rows { budget, divergence, sampler, measured, bound, worstClient }.
 */
function runFigure(ps, { budgets, seeds, clients, grid, clientDensity, samplers }) {
  const rows = [];
  budgets.forEach((budget, i) => {
    const params = randomMixtures(seeds[i], clients);
    const densities = params.map((m) => clientDensity(grid, m));
    for (const { name, make, box } of samplers) {
      const s = make(budget);
      const { worst, check } = worstOver(ps, (p) => {
        const q = s.distribution(p);
        return { q, check: box ? boxSpread(q, box) : undefined };
      }, densities);
      for (const { f } of DIVERGENCES) {
        rows.push({
          budget, divergence: f, sampler: name, measured: worst[f].value, bound: s.worstCaseRisk(f), worstClient: worst[f].client,
          ...(box ? { privacyCheck: check, privacyLimit: budget, privacyCheckName: 'log(max q/h) - log(min q/h) <= epsilon' } : {}),
        });
      }
    }
  });
  return rows;
}

/**
 * MBDE rows of a figure: for every budget the first `count` clients of that budget's seed (the same mixtures as the
 * proposed sampler's, in the same order) on `grid`, one seeded MBDE run per client (seed 1000·budgetSeed + j).
 * MBDE has no closed-form worst case: bound NaN; its check is max |log q_T/q0| <= ε/2 over the clients.
 */
function mbdeRows(ps, { budgets, seeds, count, grid, clientDensity, preset = 'reduced' }) {
  const rows = [];
  budgets.forEach((budget, i) => {
    const densities = randomMixtures(seeds[i], count).map((m) => clientDensity(grid, m));
    const { worst, check } = worstOver(ps, (p, j) => {
      const r = ps.mbde(grid, p, { epsilon: budget, preset, seed: 1000 * seeds[i] + j });
      return { q: r.density, check: mbdeLogRatio(r) };
    }, densities);
    for (const { f } of DIVERGENCES) {
      rows.push({
        budget, divergence: f, sampler: 'mbde', measured: worst[f].value, bound: NaN, worstClient: worst[f].client,
        clients: count, cells: grid.cells, privacyCheck: check, privacyLimit: budget / 2, privacyCheckName: 'max |log q/q0| <= epsilon/2',
      });
    }
  });
  return rows;
}

// Φ(x) via erfc (Numerical Recipes' erfcc, fractional error < 1.2e-7 everywhere): setup only (the envelope's
// truncation constant below, taken with a safety margin).
function erfc(x) {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 +
    t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
  return x >= 0 ? r : 2 - r;
}
const normalCdf = (x) => 0.5 * erfc(-x / Math.SQRT2);

/**
 * Park et al.'s 2-D envelope (§5.1, App. F.3) h̃(x) = exp(−[max(0, ‖x‖ − radius)]²/(2σ²))/(2πσ²) >= every
 * mixture of N(μ_i, σ²I) with ‖μ_i‖ <= radius, as RAW cell masses on the grid that bound the grid-truncated,
 * renormalised class members cell by cell: cell area × sup of h̃ over the cell (h̃ is radial and non-increasing in
 * ‖x‖, so the sup is at the cell's point nearest the origin), divided by a lower bound of the mass every member
 * keeps on the box, Z_lo = Π_axes min_{|μ|<=radius} [Φ((hi − μ)/σ) − Φ((lo − μ)/σ)] (less 1e−6 for the Φ
 * approximation). Used with c1 = 0, c2 = 1: Σ of these masses is the class's c2 (the paper's ∫h̃ = 3.7725 on ℝ²).
 */
export function ringEnvelope(grid, { variance = 0.5, radius = 1 } = {}) {
  const sigma = Math.sqrt(variance);
  const axisMass = (lo, hi) => Math.min(normalCdf((hi - radius) / sigma) - normalCdf((lo - radius) / sigma),
    normalCdf((hi + radius) / sigma) - normalCdf((lo + radius) / sigma));
  const zLo = axisMass(grid.xLo, grid.xHi) * axisMass(grid.yLo, grid.yHi) - 1e-6;
  const dx = (grid.xHi - grid.xLo) / grid.nx;
  const dy = (grid.yHi - grid.yLo) / grid.ny;
  const out = new Float64Array(grid.nx * grid.ny);
  const nearest = (a, b) => (a > 0 ? a : b < 0 ? b : 0);
  for (let iy = 0; iy < grid.ny; iy += 1) {
    const y = nearest(grid.yLo + iy * dy, grid.yLo + (iy + 1) * dy);
    for (let ix = 0; ix < grid.nx; ix += 1) {
      const x = nearest(grid.xLo + ix * dx, grid.xLo + (ix + 1) * dx);
      const excess = Math.max(0, Math.hypot(x, y) - radius);
      out[iy * grid.nx + ix] = (dx * dy * Math.exp(-(excess * excess) / (2 * variance))) / (2 * Math.PI * variance) / zLo;
    }
  }
  return { reference: out, zLo, c2: out.reduce((a, b) => a + b, 0) };
}

function laplaceSetup(ps, quick) {
  const grid = ps.grid1d({ ...LAPLACE_LINE, cells: quick ? 1000 : 8000 });
  const h = ps.densities.laplaceMixture(grid, { means: [0], scale: 1 }); // P0 = h_L = L(0, 1)
  const clientDensity = (g, m) => ps.densities.laplaceMixture(g, { means: m.means, weights: m.weights, scale: 1 });
  return { grid, h, clientDensity };
}

export const EXPERIMENTS = {
  'local-fig4': {
    title: 'Ghoukasian et al. Fig. 4: 1-D Laplace mixtures, pure ε-LDP, global (Park clip) vs local clip',
    budgetName: 'epsilon',
    budgetSymbol: 'ε',
    seeds: [1, 2, 3, 4],
    budgets: [0.1, 0.5, 1, 2],
    describe: (quick) => `clients: Σλ_i L(m_i, 1), k = min(Poisson(2)+1, 10), m_i ~ U[−1, 1], λ ~ Dir(1); grid [−20, 20] × ${quick ? 1000 : 8000} cells; ` +
      `global = 'minimax' on h = L(0, 1), c1 = e^−1/3, c2 = 3e; local = 'local' with P0 = L(0, 1), γ = 3`,
    run(ps, { quick, clients }) {
      const { grid, h, clientDensity } = laplaceSetup(ps, quick);
      return {
        cells: grid.cells,
        rows: runFigure(ps, {
          budgets: this.budgets, seeds: this.seeds, clients, grid, clientDensity,
          samplers: [
            { name: 'global', make: (epsilon) => ps.continuousSampler('minimax', { epsilon, reference: h, c1: GLOBAL_C1, c2: GLOBAL_C2 }) },
            { name: 'local', make: (epsilon) => ps.continuousSampler('local', { epsilon, prior: h, gamma: LOCAL_GAMMA }) },
          ],
        }),
      };
    },
  },
  'local-fig10': {
    title: 'Ghoukasian et al. Fig. 10: 1-D Laplace mixtures, ν-Gaussian LDP, global linear vs local linear',
    budgetName: 'nu',
    budgetSymbol: 'ν',
    seeds: [1, 2, 3, 4],
    budgets: [0.1, 0.5, 1, 2],
    describe: (quick) => `the clients of local-fig4 (same seeds); grid [−20, 20] × ${quick ? 1000 : 8000} cells; ` +
      `global = 'linear' {mu: ν} on h = L(0, 1), c1 = e^−1/3, c2 = 3e; local = 'local-linear' {mu: ν} with P0 = L(0, 1), γ = 3`,
    run(ps, { quick, clients }) {
      const { grid, h, clientDensity } = laplaceSetup(ps, quick);
      return {
        cells: grid.cells,
        rows: runFigure(ps, {
          budgets: this.budgets, seeds: this.seeds, clients, grid, clientDensity,
          samplers: [
            { name: 'global', make: (mu) => ps.continuousSampler('linear', { mu, reference: h, c1: GLOBAL_C1, c2: GLOBAL_C2 }) },
            { name: 'local', make: (mu) => ps.continuousSampler('local-linear', { mu, prior: h, gamma: LOCAL_GAMMA }) },
          ],
        }),
      };
    },
  },
  'minimax-fig4': {
    title: 'Park et al. Fig. 4: truncated 1-D Gaussian mixtures on [−4, 4], pure ε-LDP, proposed minimax clip sampler vs MBDE',
    budgetName: 'epsilon',
    budgetSymbol: 'ε',
    seeds: [1, 2, 3, 4, 5],
    budgets: [0.1, 0.5, 1, 2, 5],
    // Full run: 5 × 20 MBDE runs at ~0.75 s each in WebAssembly (~75 s); --quick: 2 clients on 40 cells (~7.5 s).
    mbdeDefaults: { full: { clients: 20, cells: 200 }, quick: { clients: 2, cells: 40 } },
    baseline: ({ mbdeClients, mbdeCells }) => (mbdeClients > 0
      ? `MBDE (reduced preset, seed 1000·seed + client) on the first ${mbdeClients} clients per ε, grid [−4, 4] × ${mbdeCells} cells; no closed-form bound`
      : 'MBDE not run (--mbde-clients 0)'),
    describe: (quick) => `clients: Σλ_i N(μ_i, 1) truncated to [−4, 4], k = min(Poisson(2)+1, 10), μ_i ~ U[−1, 1], λ ~ Dir(1); ` +
      `grid [−4, 4] × ${quick ? 800 : 8000} cells; 'minimax' on the envelope h̃ (gaussianMixtureEnvelope, raw), c1 = 0, c2 = 1`,
    run(ps, { quick, clients, mbdeClients, mbdeCells }) {
      const grid = ps.grid1d({ lo: -4, hi: 4, cells: quick ? 800 : 8000 });
      const envelope = ps.densities.gaussianMixtureEnvelope(grid, { sigma: 1, radius: 1 });
      const clientDensity = (g, m) => ps.densities.gaussianMixture(g, { means: m.means, weights: m.weights, sigma: 1 });
      const rows = runFigure(ps, {
        budgets: this.budgets, seeds: this.seeds, clients, grid, clientDensity,
        samplers: [
          { name: 'proposed', box: envelope, make: (epsilon) => ps.continuousSampler('minimax', { epsilon, reference: envelope, c2: 1 }) },
        ],
      });
      if (mbdeClients > 0) {
        const coarse = ps.grid1d({ lo: -4, hi: 4, cells: mbdeCells });
        rows.push(...mbdeRows(ps, { budgets: this.budgets, seeds: this.seeds, count: mbdeClients, grid: coarse, clientDensity }));
      }
      return { cells: grid.cells, rows };
    },
  },
};

// Park et al. Fig. 1 (§5.1): one client, the 3-mode Gaussian ring, at ε = 0.5; three heatmaps.
EXPERIMENTS['minimax-fig1'] = {
  kind: 'heatmaps',
  title: 'Park et al. Fig. 1: 2-D Gaussian ring (3 modes, σ² = 0.5, radius 1) on [−3, 3]², ε = 0.5',
  budgetName: 'epsilon',
  budgetSymbol: 'ε',
  seeds: [0],
  budgets: [0.5],
  baseline: () => 'MBDE (reduced preset, seed 0): Q0 = N(0, I₂) truncated to the grid',
  describe: (quick) => `P = ring (3 equal modes N(μ_j, 0.5·I), μ_j = (cos 2πj/3, sin 2πj/3)) truncated to [−3, 3]² × ${quick ? '40 × 40' : '100 × 100'} cells; ` +
    'ours = \'minimax\' on the paper\'s envelope h̃(x) = exp(−[max(0, ‖x‖−1)]²/(2σ²))/(2πσ²) (§5.1), as cell sup × area / Z_lo ' +
    '(Z_lo: least mass a class member keeps on the box), c1 = 0, c2 = 1; MBDE reduced preset, seed 0',
  run(ps, { quick }) {
    const n = quick ? 40 : 100;
    const epsilon = this.budgets[0];
    const grid = ps.grid2d({ xLo: -3, xHi: 3, nx: n, yLo: -3, yHi: 3, ny: n });
    const p = ps.densities.ring(grid, { modes: 3, variance: 0.5, radius: 1 });
    const { reference, zLo, c2 } = ringEnvelope(grid, { variance: 0.5, radius: 1 });
    let inClass = 0; // max p/h over the cells: <= 1 when the ring is in the class 0 <= p <= 1·h
    for (let i = 0; i < p.length; i += 1) inClass = Math.max(inClass, p[i] / reference[i]);
    const ours = ps.continuousSampler('minimax', { epsilon, reference, c2: 1 });
    const qOurs = ours.distribution(p);
    const mbde = ps.mbde(grid, p, { epsilon, preset: 'reduced', seed: this.seeds[0] });
    const rows = [];
    for (const [sampler, q, bound, check, limit, checkName] of [
      ['mbde', mbde.density, () => NaN, mbdeLogRatio(mbde), epsilon / 2, 'max |log q/q0| <= epsilon/2'],
      ['proposed', qOurs, (f) => ours.worstCaseRisk(f), boxSpread(qOurs, reference), epsilon, 'log(max q/h) - log(min q/h) <= epsilon'],
    ]) {
      for (const { f } of DIVERGENCES) {
        rows.push({ budget: epsilon, divergence: f, sampler, measured: ps.divergence(f, p, q), bound: bound(f), worstClient: 0,
          privacyCheck: check, privacyLimit: limit, privacyCheckName: checkName });
      }
    }
    return {
      cells: grid.cells,
      clients: 1,
      rows,
      heatmaps: { grid, panels: [['Original dist. P', p], ['Sampling dist., MBDE [35] (reduced preset)', mbde.density], ['Sampling dist. (ours, minimax clip)', qOurs]] },
      notes: [
        `ours: reference = paper envelope h̃ on the grid (cell sup × area / Z_lo, Z_lo = ${zLo.toFixed(6)}), c1 = 0, c2 = 1 → class c2 = Σh = ${c2.toFixed(4)} ` +
          `(paper: ∫h̃ = 3.7725 on ℝ²); max p/h over the cells = ${inClass.toFixed(4)} (<= 1: the ring is in the class); r_P = ${ours.normaliser(p).toFixed(6)}`,
        `MBDE: θ = ${mbde.theta.toFixed(6)}`,
      ],
      classCheck: inClass,
    };
  },
};
