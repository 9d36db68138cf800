// The reproductions of `npm run reproduce`. Everything numeric goes through the public JS API of privsample
// (densities as exact cell masses, the samplers' exact output pmfs, ps.divergence, worstCaseRisk); this file only
// sets the experiments up (grids, random mixtures) and aggregates (max over clients).
import { randomMixtures } from './rng.mjs';

export const DIVERGENCES = [
  { f: 'kl', label: 'KL' },
  { f: 'tv', label: 'TV' },
  { f: 'hellinger', label: 'Sq. Hel' }, // ½Σ(√p − √q)², the papers' plotted convention
];

// Ghoukasian et al. §4.3–4.4: Laplace(0, 1) reference on ℝ, truncated to this interval (the mass it drops,
// e^{-20}, changes every ratio p/h by < 1e-8: the clients stay well inside both universes).
const LAPLACE_LINE = { lo: -20, hi: 20 };
// The authors' code's global universe for the Laplace clients: c1 = e^{−1}/3, c2 = 3e (unrounded, as plotted).
const GLOBAL_C1 = Math.exp(-1) / 3;
const GLOBAL_C2 = 3 * Math.E;
const LOCAL_GAMMA = 3; // γ = max(⌈e^{1/b}⌉, ⌈1/e^{−1/b}⌉) with b = 1

/** Worst (max over clients) of each divergence between the client and the sampler's output pmf. */
function worstOver(ps, sampler, clients) {
  const worst = {};
  for (const { f } of DIVERGENCES) worst[f] = { value: -Infinity, client: -1 };
  clients.forEach((p, j) => {
    const q = sampler.distribution(p);
    for (const { f } of DIVERGENCES) {
      const d = ps.divergence(f, p, q);
      if (d > worst[f].value) worst[f] = { value: d, client: j };
    }
  });
  return worst;
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
    for (const { name, make } of samplers) {
      const s = make(budget);
      const worst = worstOver(ps, s, densities);
      for (const { f } of DIVERGENCES) {
        rows.push({ budget, divergence: f, sampler: name, measured: worst[f].value, bound: s.worstCaseRisk(f), worstClient: worst[f].client });
      }
    }
  });
  return rows;
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
    title: 'Park et al. Fig. 4: truncated 1-D Gaussian mixtures on [−4, 4], pure ε-LDP, proposed minimax clip sampler',
    budgetName: 'epsilon',
    budgetSymbol: 'ε',
    seeds: [1, 2, 3, 4, 5],
    budgets: [0.1, 0.5, 1, 2, 5],
    baseline: 'n/a (MBDE not yet exposed)',
    describe: (quick) => `clients: Σλ_i N(μ_i, 1) truncated to [−4, 4], k = min(Poisson(2)+1, 10), μ_i ~ U[−1, 1], λ ~ Dir(1); ` +
      `grid [−4, 4] × ${quick ? 800 : 8000} cells; 'minimax' on the envelope h̃ (gaussianMixtureEnvelope, raw), c1 = 0, c2 = 1`,
    run(ps, { quick, clients }) {
      const grid = ps.grid1d({ lo: -4, hi: 4, cells: quick ? 800 : 8000 });
      const envelope = ps.densities.gaussianMixtureEnvelope(grid, { sigma: 1, radius: 1 });
      const clientDensity = (g, m) => ps.densities.gaussianMixture(g, { means: m.means, weights: m.weights, sigma: 1 });
      return {
        cells: grid.cells,
        rows: runFigure(ps, {
          budgets: this.budgets, seeds: this.seeds, clients, grid, clientDensity,
          samplers: [
            { name: 'proposed', make: (epsilon) => ps.continuousSampler('minimax', { epsilon, reference: envelope, c2: 1 }) },
          ],
        }),
      };
    },
  },
};
