// Helpers of experiments/local-finite.mjs (Ghoukasian, Lee, Asoodeh, "Locally Optimal Private Sampling: Beyond the
// Global Minimax"). Set-up (inputs, grids) and aggregation (max / min over clients) only: every number that is a
// mechanism's output, a divergence or a bound comes from the privsample/research API.

/** The figures' three divergences; 'hellinger' is ½Σ(√p − √q)², the papers' plotted "Sq. Hel". */
export const DIVERGENCES = [
  { f: 'kl', label: 'KL' },
  { f: 'tv', label: 'TV' },
  { f: 'hellinger', label: 'Sq. Hel' },
];

/** Floating-point slack of the privacy checks (the accountant's log ratios round at ~1e-16). */
export const PRIVACY_SLACK = 1e-12;

/** The uniform prior μ_k (set-up). */
export const uniformPrior = (k) => new Array(k).fill(1 / k);

/** The point mass on category i of k. */
export function pointMass(k, i) {
  const e = new Array(k).fill(0);
  e[i] = 1;
  return e;
}

/**
 * The block input of N_γ(μ_k) with k = 2(γ + 1) (core/mechanisms/local/README.md#worst-case-risk): γ·p0 on the block {i, i + 1} of
 * prior mass 1/(γ + 1) = 2/k, p0/γ elsewhere. It attains the local minimax risk; the disjoint blocks are the
 * extreme points of N_γ(μ_k) used by the privacy checks.
 */
export function blockInput(k, gamma, i) {
  const p = new Array(k).fill(1 / (gamma * k));
  p[i] = gamma / k;
  p[i + 1] = gamma / k;
  return p;
}

/**
 * `count` client histograms P ~ Dirichlet(concentration · population) drawn by the library's SEEDED generator
 * (xoshiro256**, reproducible and not secure): ps.simulate with model 'dirichlet' and one user returns that user's
 * P as `truth`. Client j uses seed `seed + j`. The sampler passed to simulate only releases a sample we ignore.
 */
export function dirichletClients(ps, population, count, seed, concentration = population.length) {
  const s = ps.sampler('minimax', { epsilon: 1 });
  const out = [];
  for (let j = 0; j < count; j += 1) {
    out.push(ps.simulate(s, { model: 'dirichlet', population, users: 1, concentration, seed: seed + j, pointMasses: false }).truth);
  }
  s.dispose();
  return out;
}

/** Running per-cell max and min of output pmfs over clients (bookkeeping for the worst-ratio check, which the core computes). */
export function ratioTracker(ps, cells) {
  const hi = new Float64Array(cells).fill(-Infinity);
  const lo = new Float64Array(cells).fill(Infinity);
  return {
    add(q) {
      for (let i = 0; i < cells; i += 1) {
        if (q[i] > hi[i]) hi[i] = q[i];
        if (q[i] < lo[i]) lo[i] = q[i];
      }
    },
    /** max over cells of log(max_P q_P(x) / min_P q_P(x)), by the core (ps.channelLdpOfExtremes). */
    worstLogRatio() {
      return ps.channelLdpOfExtremes(hi, lo);
    },
  };
}

/** A check row: ok when value <= limit. */
export const check = (label, value, limit) => ({ label, value, limit, ok: value <= limit });

/**
 * A reference-value row: ok when |computed − paper| <= tolerance (half a unit of the last digit given); `source` is
 * where the reference comes from (experiments/index.mjs REFERENCE_SOURCES).
 */
export const printedValue = (label, paper, computed, tolerance, source) => ({
  label, paper, computed, tolerance, source, ok: Math.abs(computed - paper) <= tolerance,
});

/** One grouped-bar panel per divergence, with the x values as categories (the paper's 1×3 layout). */
export function barPanels(xLabel, seriesByDivergence) {
  return DIVERGENCES.map(({ f, label }) => ({
    title: label,
    kind: 'bars',
    x: { label: xLabel },
    y: { label: 'Worst f-divergence', log: false },
    series: seriesByDivergence[f],
  }));
}

