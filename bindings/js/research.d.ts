// privsample/research — everything in 'privsample' plus continuous densities and samplers on grids, the MBDE
// baseline, the privacy accountant and the LMIDP conversions. Hand-written; checked by `tsc --noEmit`.

/**
 * The research entry, `import { init } from 'privsample/research'`: everything in `privsample`, plus continuous
 * densities and samplers on grids, the MBDE baseline, the privacy accountant, the LMIDP conversions, and the
 * analyst's side — population estimates, simulation, composition and shuffling.
 * @module privsample/research
 */
import type {
  DivergenceName, FrequencyOracle, Guarantee, Histogram, LinearNotionOptions, MechanismName, OracleName, Privsample, Sampler,
} from './privsample.js';

export type * from './privsample.js';

export interface AccountantOptions {
  /** Number of categories; the inputs default to its k point masses (for 'roo'-type mechanisms, n records on one letter). */
  k?: number;
  /** The input histograms (channel rows) to compare instead of the point masses; all of the same length. */
  inputs?: readonly Histogram[];
  /**
   * A prior over the inputs (one entry per input; sums to 1): who holds which input. Needed for the
   * context-dependent notions (LIP, I(X;Y)). Inputs outside its support are ignored by LIP.
   */
  prior?: Histogram;
  /** The ε' grid of the curves (>= 0); default: 0 … a little past the pure LDP ε (or 10), 101 points. */
  epsilons?: Histogram;
}

/**
 * What a sampler guarantees in every notion, computed from its channel W(y | input) over the inputs
 * (Ngo, Östman, Graell i Amat, "Local Mutual-Information Differential Privacy"; information in bits).
 */
export interface AccountantReport {
  readonly guarantee: Guarantee;
  /** The ε' grid of both curves. */
  readonly epsilons: Float64Array;
  /**
   * LDP between any two of the given inputs (by default the k point masses): pure ε (Infinity if unbounded) and
   * the exact curve δ(ε'). It describes the channel over these inputs, so it can be below the mechanism's
   * nominal ε (e.g. 'local' with a non-uniform prior, whose worst pair is not two point masses) or, for the
   * record-level mechanisms, above it (n records moved at once: group privacy).
   */
  readonly ldp: { readonly pureEpsilon: number; readonly delta: Float64Array };
  /**
   * CI-LMIDP: the capacity sup over priors of I(X;Y), certified lower <= C <= upper (Blahut–Arimoto), with the
   * capacity-achieving prior, and the two bounds of Theorem 1(b): from the pure ε, log2(e)·ε·tanh(ε/2), and
   * from the whole LDP curve. The bounds show how loose LDP → MI conversions are.
   */
  readonly capacity: {
    readonly lower: number;
    readonly upper: number;
    readonly prior: Float64Array;
    readonly boundFromPureLdp: number;
    /** null when the channel is too large to integrate its curve (inputs²·k > 4·10^6). */
    readonly boundFromLdpCurve: number | null;
  };
  /** With a prior: H(X), I(X;Y) (CD-LMIDP: what an observer learns about you, in bits), LIP, Theorem 2(b). */
  readonly prior: null | {
    readonly entropy: number;
    /** The prior's smallest positive mass: the p_min of the corrected Theorem 2(a) (lmidp.lipDeltaFromMutualInformation). */
    readonly minMass: number;
    readonly mutualInformation: number;
    readonly lip: { readonly pureEpsilon: number; readonly delta: Float64Array };
    readonly mutualInformationBoundFromLipCurve: number | null;
  };
}

/** The conversions of the LMIDP paper (bits, ε in nats). */
export interface Lmidp {
  /** Theorem 1(a): the tight δ at ε of every μ-bit CI-LMIDP mechanism. */
  ldpDeltaFromCapacity(mu: number, epsilon: number): number;
  /** The limit of Theorem 1(a) as ε → ∞: a μ-bit mechanism can still out this fraction of a group. */
  ldpDeltaFloorFromCapacity(mu: number): number;
  /**
   * Theorem 2(a) CORRECTED: the LIP δ at ε of a μ-bit CD-LMIDP mechanism whose prior's smallest mass is pMin.
   * The paper's statement (without pMin) is false: a Gaussian mechanism exceeds it (see AsPrinted).
   */
  lipDeltaFromMutualInformation(mu: number, pMin: number, epsilon: number): number;
  /** Theorem 2(a) exactly as printed in the paper. NOT a valid bound; for showing the erratum only. */
  lipDeltaFromMutualInformationAsPrinted(mu: number, epsilon: number): number;
  /** Theorem 3 / Fig. 1: the Gaussian noise variance σ² whose peak-constrained capacity is mu (d dims, |x_i| <= bound). */
  gaussianSigma2ForCapacity(mu: number, d: number, bound: number): number;
  /**
   * The optimal LDP curve δ̄_G(ε) of the paper's Gaussian mechanism (5): x in the ball ||x|| <= √d·bound plus
   * N(0, sigma2·I_d) (Balle–Wang, L2 sensitivity 2√d·bound; Fig. 1).
   */
  gaussianLdpDelta(epsilon: number, d: number, bound: number, sigma2: number): number;
  /** CI-LMIDP (bits) of N(0, sigma2·I_d) noise on inputs with ||x|| <= √d·bound (peak constraint; Fig. 2). */
  gaussianCapacityPeak(d: number, bound: number, sigma2: number): number;
  /** Theorem 3: (d/2)·log2(1 + bound²/sigma2), the CI-LMIDP of the best additive noise under E||x||² <= d·bound². */
  gaussianCapacityAveragePower(d: number, bound: number, sigma2: number): number;
  /** CD-LMIDP: I(X; X + N(0, sigma2)) in bits for a scalar X on `points` with probabilities `prior` (Figs. 3, 4). */
  gaussianMixtureMutualInformation(points: Histogram, prior: Histogram, sigma2: number): number;
  /** The optimal LIP curve δ̄_LIP(ε) of that mechanism (x over the prior's support; eq. 4). */
  gaussianMixtureLipDelta(points: Histogram, prior: Histogram, sigma2: number, epsilon: number): number;
  /**
   * Theorem 1(b), eq. (8): μ = log2(e)·∫_0^∞ (1 + e^{−ε}) δ(ε) dε bits, a CI-LMIDP bound from an LDP curve valid for
   * every ε >= 0 (adaptive quadrature; Infinity when δ does not decay). epsHint: where δ reaches 0 (pure
   * mechanisms), default 0. delta must return numbers in [0, 1]; an error it throws is rethrown.
   */
  capacityBoundFromLdpCurve(delta: (epsilon: number) => number, epsHint?: number): number;
  /** Theorem 2(b), eq. (10): μ_CD = log2(e)·∫_0^∞ (e^ε + e^{−ε}) δ(ε) dε bits from a LIP curve (as above). */
  mutualInformationBoundFromLipCurve(delta: (epsilon: number) => number, epsHint?: number): number;
}

/**
 * Reveal-or-Obscure (Tasnim et al.): the obscure probabilities the samplers 'roo' and 'ds-roo' use, and the
 * paper's accuracy and sample-complexity formulas. These are public functions of (ε, n, k); a user's q_m is not
 * (never release it).
 */
export interface Roo {
  /** ROO's q_0 = k/(k + n·(e^ε − 1)) (eq. 9; the mathematical value, the sampler rounds it up by a few ulps). */
  obscureProbability(epsilon: number, records: number, k: number): number;
  /**
   * DS-ROO's table q_0..q_M (M = ⌊n/k⌋) by minimum count m: the paper's Algorithm 2 corrected (two defects,
   * docs/errata.md), the least table meeting every replace-one constraint, at ε itself (the sampler builds it at a
   * slightly smaller ε′ and verifies it).
   */
  obscureTable(epsilon: number, records: number, k: number): Float64Array;
  /** Algorithm 2 exactly as printed: NOT ε-DP at m = M when k ∤ n and M·(e^ε − 1) < 1. For the errata only. */
  obscureTableAsPrinted(epsilon: number, records: number, k: number): Float64Array;
  /**
   * Algorithm 2 with only the top-index fix q_M ← max(q_M, t_M): still NOT ε-DP (a letter whose count does not change
   * moves when the minimum count does; ε = 0.01, k = 1000, n = 99999 loses 3.36·ε). For the errata only.
   */
  obscureTableTopFixOnly(epsilon: number, records: number, k: number): Float64Array;
  /**
   * The worst replace-one pair of a DS-ROO-style release with this table (q_m by minimum count m, M + 1 entries in
   * [0, 1]): an upper bound (within 2^-50 relative) of max log Pr(y|x)/Pr(y|x̃), +∞ when a letter can vanish, with x's
   * minimum count m, x̃'s mTilde, and the letter's count in each. O(M): the ends of every letter's count range.
   */
  worstPair(table: Histogram, records: number, k: number): {
    readonly logRatio: number;
    readonly m: number;
    readonly mTilde: number;
    readonly count: number;
    readonly countTilde: number;
  };
  /** Worst-case TV accuracy α: ROO (eq. 19) q_0(1 − 1/k), and the Laplace baseline as the paper states it, 2k/(nε) (eq. 18). */
  accuracyBounds(epsilon: number, records: number, k: number): { readonly roo: number; readonly rsss: number };
  /**
   * Records needed for α-accuracy at ε (§3): ROO (eq. 8) (k(1−α) − 1)/(α(e^ε − 1)), RSSS (eq. 5) 2k/(αε),
   * Cheu–Nayak SubRR (eq. 45) (k−1)(1−α)/(αε). α in (0, 1 − 1/k), ε in (0, 1000].
   */
  sampleComplexity(k: number, alpha: number, epsilon: number): { readonly roo: number; readonly rsss: number; readonly subrr: number };
}

// ---- continuous data on grids ----------------------------------------------------------------------------------

/** [lo, hi] cut into `cells` equal cells; cell i is [lo + (hi − lo)·i/cells, lo + (hi − lo)·(i+1)/cells]. */
export interface Grid1D {
  readonly dimension: 1;
  readonly lo: number;
  readonly hi: number;
  readonly cells: number;
}

/**
 * [xLo, xHi] × [yLo, yHi] cut into nx × ny cells; cell (ix, iy) has index iy·nx + ix (rows of constant y, the
 * layout of an image). `cells` = nx·ny.
 */
export interface Grid2D {
  readonly dimension: 2;
  readonly xLo: number;
  readonly xHi: number;
  readonly nx: number;
  readonly yLo: number;
  readonly yHi: number;
  readonly ny: number;
  readonly cells: number;
}

export type Grid = Grid1D | Grid2D;

/** A point of the plane as [x, y]. */
export type Point2D = readonly [number, number];

/**
 * 2-D points: an array of [x, y] pairs, or a flat [x0, y0, x1, y1, …] of even length (array or typed array).
 * In 1-D, points are plain numbers (a Histogram-like array).
 */
export type Points2D = readonly Point2D[] | Histogram;

/** A density's cell masses on a grid: one entry per cell, >= 0, any positive scale (normalised by the samplers). */
export type CellMasses = Histogram;

/**
 * Densities as exact cell masses (closed-form CDF differences), TRUNCATED to the grid and renormalised: each
 * returns the pmf over the grid's cells (Σ = 1). 2-D families are isotropic products over the axes. Throws
 * RangeError for bad values (σ <= 0, NaN means, mismatched weights, no mass on the grid), TypeError for wrong types.
 */
export interface Densities {
  /** Σ w_i N(μ_i, σ²) (2-D: N(μ_i, σ²I)). The papers' 1-D class: grid [−4, 4], σ = 1, |μ_i| <= 1. */
  gaussianMixture(grid: Grid1D, options: { means: Histogram; weights?: Histogram; sigma: number }): Float64Array;
  gaussianMixture(grid: Grid2D, options: { means: Points2D; weights?: Histogram; sigma: number }): Float64Array;
  /** Σ w_i L(m_i, scale), density exp(−|x − m|/scale)/(2·scale); in 2-D the product over the axes. */
  laplaceMixture(grid: Grid1D, options: { means: Histogram; weights?: Histogram; scale: number }): Float64Array;
  laplaceMixture(grid: Grid2D, options: { means: Points2D; weights?: Histogram; scale: number }): Float64Array;
  /**
   * Park et al.'s Gaussian ring: `modes` equal-weight components N(μ_j, variance·I), μ_j = radius·(cos 2πj/modes,
   * sin 2πj/modes). Defaults: 3 modes, variance 0.5, radius 1 (the paper's grid is [−3, 3]², 500 × 500).
   */
  ring(grid: Grid2D, options?: { modes?: number; variance?: number; radius?: number }): Float64Array;
  /**
   * Gaussian kernel density estimate (1/n)Σ N(x_j, bw²). bandwidth 0 or omitted: Scott's rule (σ̂·n^{−1/5} in 1-D,
   * σ̂_d·n^{−1/6} per axis in 2-D; needs two or more distinct values per axis). Points may lie outside the grid.
   */
  kernelDensity(grid: Grid1D, points: Histogram, options?: { bandwidth?: number }): Float64Array;
  kernelDensity(grid: Grid2D, points: Points2D, options?: { bandwidth?: number }): Float64Array;
  /**
   * The envelope h̃ of Park et al.'s 1-D experiment as RAW cell masses (Σ = 1.79761187 on [−4, 4] with the
   * defaults σ = 1, radius = 1): every mixture of N(μ_i, σ²) with |μ_i| <= radius, truncated to the grid, has
   * cell masses <= these. Use it as the reference of 'minimax' / 'linear' with c1 = 0, c2 = 1.
   */
  gaussianMixtureEnvelope(grid: Grid1D, options?: { sigma?: number; radius?: number }): Float64Array;
  /**
   * The envelope h̃(x) = exp(−[max(0, ‖x‖ − radius)]²/(2σ²))/(2πσ²) of Park et al.'s 2-D ring (Fig. 1) as RAW cell
   * masses (cell area × the sup of h̃ over the cell, divided by the least grid mass of a class member): every mixture
   * of N(μ_i, variance·I) with ‖μ_i‖ <= radius, truncated to the grid, has cell masses <= these. Defaults
   * variance 0.5, radius 1. Use it as the reference of 'minimax' with c1 = 0, c2 = 1.
   */
  ringEnvelope(grid: Grid2D, options?: { variance?: number; radius?: number }): Float64Array;
}

/** One mixture's parameters (means and weights, Σ weights = 1), from seededRandomMixtures(). */
export interface MixtureParameters {
  readonly means: Float64Array;
  readonly weights: Float64Array;
}

// ---- generated from the registry by scripts/generate-types.mjs: do not edit by hand ----
/**
 * Continuous mechanisms, solved exactly on grid cells (a released point is a cell drawn from q, then a uniform
 * point inside it, so the ratio bound on cells is exactly the guarantee of the point):
 * - 'minimax': minimax clip sampler Q*_{c1,c2,h,ε} on a grid (Park et al. Thm 3.3). Guarantee: pure ε-LDP; options:
 *   epsilon, reference, c2, c1?.
 * - 'linear': optimal linear sampler on a grid, private on its class c1·h <= p <= c2·h only (Ghoukasian et al. Thms
 *   3.4–3.6). Guarantee: pure ε-, (ε,δ)- or μ-Gaussian LDP, as the options say; options: epsilon [+ delta] or mu,
 *   reference, c2, c1?.
 * - 'local': locally minimax clip sampler on a grid (Ghoukasian et al. Thm 5.1). Guarantee: pure ε-LDP; options:
 *   epsilon, prior, gamma, outsideNeighbourhood?.
 * - 'local-linear': locally minimax linear sampler on a grid (Ghoukasian et al. Thm 4.1). Guarantee: pure ε-, (ε,δ)- or
 *   μ-Gaussian LDP, as the options say; options: epsilon [+ delta] or mu, prior, gamma.
 */
export type ContinuousMechanismName =
  | 'minimax'
  | 'linear'
  | 'local'
  | 'local-linear';

/** The options each mechanism takes (required ones without '?'); unknown or unsupported options throw RangeError. */
export interface ContinuousOptionsByMechanism {
  minimax: { epsilon: number; reference: CellMasses; c2: number; c1?: number };
  linear: LinearNotionOptions & { reference: CellMasses; c2: number; c1?: number };
  local: { epsilon: number; prior: CellMasses; gamma: number; outsideNeighbourhood?: 'clip' | 'projection' };
  'local-linear': LinearNotionOptions & { prior: CellMasses; gamma: number };
}
// ---- end of the generated part ----

/**
 * The class 𝒫̃_{c1,c2,h}: reference cell masses h (any scale, zeros allowed: those cells are never output) and
 * RAW constants with c1·h <= p <= c2·h for the densities it covers (normalised internally: 0 <= c1·Σh < 1 < c2·Σh).
 */
export interface ContinuousClassOptions {
  reference: CellMasses;
  /** Lower constant, >= 0; default 0 (the papers' experiments). */
  c1?: number;
  c2: number;
}

/** Public prior P0 (cell masses, positive total; not derived from the user's data) and γ in (1, 10^12]. */
export interface ContinuousLocalOptions {
  prior: CellMasses;
  gamma: number;
}

export interface ContinuousSampler {
  readonly mechanism: ContinuousMechanismName;
  /** The options the sampler was made with (arrays copied to frozen arrays; c1 filled in with its default 0). */
  readonly options: Readonly<Record<string, number | string | readonly number[]>>;
  readonly guarantee: Guarantee;
  /** Number of cells of the reference / prior: every density and grid used with this sampler must have as many. */
  readonly cells: number;
  /** The exact output pmf q over the cells for the user's cell masses. Never release it: it reveals P. */
  distribution(density: CellMasses): Float64Array;
  /**
   * r_P of the clip samplers ('minimax', 'local'): q = clip(p/r_P; …) with p normalised; 0 when no normaliser
   * exists (Case B), 1 in the trivial case of 'minimax'; null for the linear samplers.
   */
  normaliser(density: CellMasses): number | null;
  /**
   * Closed-form worst-case D_f(P‖Q(P)) over the mechanism's class ('minimax', 'linear': Park et al. Thm 3.3 on
   * c1·h <= p <= c2·h; 'local', 'local-linear': over N_γ(P0)).
   */
  worstCaseRisk(f: DivergenceName): number;
  /** The weight λ of 'linear' / 'local-linear' (q = λ·P + (1 − λ)·reference, after clamping to [0, 1]); null for the clip samplers. */
  mixtureWeight(): number | null;
  /**
   * One private point drawn with the CSPRNG (crypto.getRandomValues): a cell from the mechanism's exact release
   * plan for q (the draw's work does not depend on your density; computing q does: docs/draw-policy.md), then a uniform
   * point in it. The grid must have `cells` cells. Spends the budget once; every further point spends it again.
   */
  samplePoint(grid: Grid1D, density: CellMasses): number;
  samplePoint(grid: Grid2D, density: CellMasses): [number, number];
  samplePoint(grid: Grid, density: CellMasses): number | [number, number];
}

// ---- the analyst's side: estimators, simulation of N users, accounting for the collection ----------------------

/** Options of ps.estimate(). */
export interface EstimateOptions {
  /** 1 − confidence of every interval; default 0.05 (95% intervals). */
  alpha?: number;
  /** The f of the released estimate's radius; default 'kl'. */
  divergence?: DivergenceName;
  /** Also run the point-mass channel inversion (k <= 1000); default true. */
  pointMasses?: boolean;
}

/**
 * Q̄, the mean over users of Q(·|P_i), estimated by Q̂ = counts / N (unbiased). Assumes only that each user released
 * one independent sample. Intervals: exact binomial (Clopper–Pearson) intervals, pointwise at level 1 − α and
 * simultaneous for all k categories at once by Bonferroni (each at α/k). Every interval covers both targets: Q̄ of the
 * realised users (whose counts are sums of Bernoullis with different means: the binomial intervals are then
 * conservative, but for a count of 1 at an expected count below α, where the miss rate is at most α(1 + α)) and, for
 * users drawn from a population, that population's mean release law (counts exactly multinomial: the intervals are
 * exact there).
 */
export interface ReleasedEstimate {
  /** N = Σ counts. */
  readonly users: number;
  /** 1 − α. */
  readonly confidence: number;
  /** Q̂ = counts / N. */
  readonly q: Float64Array;
  /** Simultaneous (Bonferroni–Clopper–Pearson): all k categories covered together with probability >= 1 − α. */
  readonly lower: Float64Array;
  readonly upper: Float64Array;
  /** Pointwise Clopper–Pearson intervals: each category on its own with probability >= 1 − α. */
  readonly pointwiseLower: Float64Array;
  readonly pointwiseUpper: Float64Array;
  /** What the intervals cover, in words (both targets). */
  readonly target: string;
  /** How the intervals are built, in words. */
  readonly intervalMethod: string;
  /** What the intervals assume, in words: N independent users, one sample each (any inputs). */
  readonly assumption: string;
  /**
   * Joint-convexity radius: D_f(P̄ ‖ Q̄) <= mean D_f(P_i ‖ Q(P_i)) <= R, the mechanism's worst-case risk for `divergence`
   * (R around Q̄, the mechanism's own output mix, not around Q̂), when every user is in `radiusAssumption`. null when
   * the mechanism has no closed-form risk.
   */
  readonly radius: number | null;
  /**
   * For which users `radius` holds, in words: every input for the finite samplers but 'local' and 'local-linear',
   * whose worst case is over N_γ(P0) only (a user holding one item is outside it, and can be farther from Q̄); the
   * density class for samplers on grid cells. null with `radius`.
   */
  readonly radiusAssumption: string | null;
  readonly divergence: DivergenceName;
}

/**
 * What every per-category estimate carries: N, the estimate and its variance and standard error, pointwise intervals
 * (each category on its own with probability >= 1 − α) and simultaneous ones (all k categories together).
 */
export interface CategoryEstimate {
  readonly users: number;
  readonly estimate: Float64Array;
  readonly variance: Float64Array;
  readonly standardError: Float64Array;
  readonly lower: Float64Array;
  readonly upper: Float64Array;
  readonly simultaneousLower: Float64Array;
  readonly simultaneousUpper: Float64Array;
}

/**
 * An estimate of the population P̄ = mean of the users' P_i (or of the item frequencies π for point-mass users).
 * - method 'affine inversion' (k-RR / linear samplers in every notion, local-linear for users inside N_γ(P0), ROO,
 *   local for users inside its identity box b·P0 <= P <= b·e^ε·P0): Q = λP + b, so p̂ = (Q̂ − b)/λ is unbiased; the
 *   intervals are the released ones mapped through p = (q − b)/λ (an increasing map: the same coverage, exactly).
 * - method 'point-mass channel inversion' (every finite mechanism with an exact channel): assumes every user holds ONE
 *   item; inverts the k×k channel of point masses. A randomized-response channel (minimax, linear, roo, ds-roo;
 *   local and mollifier with a uniform prior or reference) is affine per category: exact intervals as above. Any other
 *   channel: Chernoff–Hoeffding intervals of the linear inversion, valid and about twice as wide.
 * Intervals cover P̄ of the realised users and the population model's mean alike (see ReleasedEstimate), pointwise and
 * simultaneously; they are cut to [0, 1] (to zero width only for counts `warnings` names), and each pointwise
 * interval lies inside its simultaneous one. `assumption` says what the estimate assumes; `caveat` where users the
 * mechanism is meant for break it without the counts showing it (for 'local' and 'local-linear': users outside the
 * identity box or N_γ(P0), which every user holding one item is); `warnings` where the counts themselves are implausible under the assumption (each
 * has probability <= α when the assumption holds: the simultaneous box misses [0, 1] or holds no pmf; a pointwise
 * interval alone outside [0, 1] is not warned of, as about α·k of them are by chance).
 */
export interface PopulationEstimate extends CategoryEstimate {
  readonly confidence: number;
  /** Unbiased p̂ (sums to 1; entries may lie outside [0, 1]). */
  readonly estimate: Float64Array;
  /** Estimated Var(p̂_x) (plug-in of Q̂ into the multinomial closed form; the intervals are not built from it). */
  readonly variance: Float64Array;
  /** Euclidean projection of `estimate` onto the simplex. */
  readonly projected: Float64Array;
  readonly method: string;
  readonly assumption: string;
  /** What is estimated and covered, in words (the realised users' and the population model's). */
  readonly target: string;
  /** How the intervals are built, in words. */
  readonly intervalMethod: string;
  /** Where users the mechanism is meant for fall outside `assumption` unseen by the counts; null otherwise. */
  readonly caveat: string | null;
  /**
   * Run-time evidence against `assumption`: counts no target of the assumed kind gives but with probability <= α
   * (the simultaneous box: categories whose interval lies outside [0, 1], named, or a box that holds no pmf).
   */
  readonly warnings: readonly string[];
}

/** What ps.estimate() returns. */
export interface EstimateReport {
  readonly released: ReleasedEstimate;
  /** null unless the mechanism is affine in P (linear family, local-linear, ROO). */
  readonly population: PopulationEstimate | null;
  /**
   * null when options.pointMasses is false, k > 1000, or the channel on point masses cannot be inverted (ε = 0, or a
   * category the mechanism never outputs, e.g. a reference entry of 0).
   */
  readonly pointMasses: PopulationEstimate | null;
}

/** TV, KL(truth ‖ estimate), max |difference| and Euclidean distance of an estimate to the truth. */
export interface EstimationErrors {
  readonly tv: number;
  readonly kl: number;
  readonly maxAbs: number;
  readonly l2: number;
}

export interface SimulateCommon {
  alpha?: number;
  divergence?: DivergenceName;
  pointMasses?: boolean;
  /** A seed makes the run reproducible and is NOT secure (tests, figures); without it the CSPRNG is used. */
  seed?: number;
}

/** ps.simulate() options: each user holds one item drawn from `population` ('point-masses', the default), or has a
 * histogram drawn from Dirichlet(concentration · population) ('dirichlet', concentration default 1), or the given
 * histograms ('given'). An option the model does not use is refused with a RangeError naming it, not ignored:
 * `concentration` with 'point-masses' or 'given', `population` with 'given'. `users`: at most 10^9; 'point-masses'
 * costs O(k) whatever the number of users, 'dirichlet' O(k) per user and refuses users · k > 10^8 (a RangeError
 * naming options.users). */
export type SimulateOptions =
  | (SimulateCommon & { model?: 'point-masses'; population: Histogram; users: number })
  | (SimulateCommon & { model: 'dirichlet'; population: Histogram; users: number; concentration?: number })
  | (SimulateCommon & { model: 'given'; users: readonly Histogram[] });

export interface SimulationResult {
  /** P̄: the mean of the realised users' normalised histograms (not the model). */
  readonly truth: Float64Array;
  /** The population model's mean E[P] (the normalised population), the intervals' other target; null for 'given'. */
  readonly model: Float64Array | null;
  /** 'point-masses': how many users hold each item; otherwise null. */
  readonly items: Float64Array | null;
  /** Released counts per category (what a server holds). */
  readonly counts: Float64Array;
  readonly estimate: EstimateReport;
  /** Errors against `truth`: Q̂ read as P̄, the projected population estimate, the projected point-mass inversion. */
  readonly errors: {
    readonly released: EstimationErrors;
    readonly population: EstimationErrors | null;
    readonly pointMasses: EstimationErrors | null;
  };
}

/** A privacy loss (ε, δ), and the bound that gave it. */
export interface PrivacyLoss {
  readonly epsilon: number;
  readonly delta: number;
  readonly method: 'basic' | 'advanced' | 'optimal';
}

export interface ShuffleBound {
  readonly epsilon: number;
  readonly delta: number;
  /** false where the bound claims nothing (a closed form outside its regime): then ε = ε0. */
  readonly applies: boolean;
  /** 'numerical': the evaluated bound's exact value is >= this (its precision); a closed form: its epsilon. */
  readonly epsilonLower: number;
  readonly method: 'numerical' | 'closed-form' | 'closed-form-printed';
}

/** Accounting for a collection of reports. */
export interface Collection {
  /**
   * A user who reports `reports` (m) times, each (ε, δ)-LDP. 'basic': (mε, mδ). 'advanced' (Dwork–Rothblum–Vadhan,
   * needs deltaPrime > 0): ε' = ε·sqrt(2m ln(1/δ')) + mε(e^ε − 1), mδ + δ'. 'optimal' (Kairouz–Oh–Viswanath, exact):
   * the smallest ε_g whose m-fold randomized-response δ is <= δ', with δ = 1 − (1 − δ)^m (1 − δ'). 'best' (default):
   * the smallest ε of them. deltaPrime defaults to 0 (no extra δ): then every method but 'advanced' gives mε, which is
   * exact for pure ε.
   */
  compose(options: { epsilon: number; delta?: number; reports: number; deltaPrime?: number; method?: 'basic' | 'advanced' | 'optimal' | 'best' }): PrivacyLoss;
  /**
   * Amplification by shuffling n users' ε0-LDP reports (Feldman, McMillan, Talwar 2021). 'numerical' (default): their
   * Section 4 reduction evaluated exactly up to `precision` (relative width of [epsilonLower, epsilon], default 1e-3),
   * a proven upper bound. 'closed-form': Theorem 3.1 as the authors' reference code computes it (the larger factor,
   * regime ε0 <= ln(n / (16 ln(4/δ)))); 'closed-form-printed': Theorem 3.1 as printed,
   * ε = ln(1 + (e^ε0 − 1)/(e^ε0 + 1)·(8 sqrt(e^ε0 ln(4/δ)/n) + 8e^ε0/n)), regime ε0 <= ln(n / (16 ln(2/δ))).
   */
  shuffle(options: { epsilon0: number; users: number; delta: number; method?: 'numerical' | 'closed-form' | 'closed-form-printed'; precision?: number }): ShuffleBound;
}

/**
 * Where an input sits relative to a bounded-ratio class {P : c1·h <= P <= c2·h} (both normalised first): the range
 * of P/h over the cells where h > 0 (maxRatio = Infinity when P has mass where h = 0), and whether every cell
 * is within the bounds (relative slack 1e-9, the core's one membership rule).
 */
export interface ClassMembership {
  readonly minRatio: number;
  readonly maxRatio: number;
  readonly inside: boolean;
}

export interface ClassMembershipApi {
  /**
   * hist against N_γ(P0) = {P : 1/γ <= P/P0 <= γ}, the class the 'local' samplers' worst case is about. prior: counts
   * or probabilities, every entry > 0, as long as hist; gamma as the samplers take it. RangeError naming hist, prior
   * or gamma; TypeError for a prior of another length.
   */
  neighbourhood(hist: Histogram, options: { prior: Histogram; gamma: number }): ClassMembership;
  /**
   * Cell masses against the class c1·h <= p <= c2·h of the continuous 'minimax' / 'linear' samplers (reference h
   * and RAW c1 (default 0), c2 as those samplers take them).
   */
  density(density: CellMasses, options: { reference: CellMasses; c1?: number; c2: number }): ClassMembership;
}

/** What a server keeps of N frequency-oracle reports: per-item support counts or per-report-value counts, and N. */
export interface FrequencyCounts {
  readonly counts: Float64Array;
  readonly users: number;
}

/**
 * Every item's share estimated from an oracle's counts. `estimate`: unbiased (may leave [0, 1]); `variance`: the
 * closed form at the clamped estimate; intervals on each item's share at level 1 − alpha (`lower`, `upper`) and on
 * all k at once (`simultaneousLower`, `simultaneousUpper`; Bonferroni), from exact (Clopper–Pearson) bounds on its
 * support share, intersected with [0, 1]; each pointwise interval lies inside its simultaneous one, and none has zero
 * width unless the counts are implausible (an interval wholly outside [0, 1] is cut to its nearer end, and the item
 * named in `warnings`).
 */
export interface FrequencyEstimate extends CategoryEstimate {
  readonly alpha: number;
  /** 1 − α, the level of each interval and of the simultaneous box. */
  readonly confidence: number;
  /** What the intervals assume, in words: N independent users, one report each of the item they hold. */
  readonly assumption: string;
  /** What they cover, in words: each item's share of the N users (or of the population they are drawn from). */
  readonly target: string;
  /** How the intervals are built, in words. */
  readonly intervalMethod: string;
  /**
   * Counts implausible for users holding one item each: items whose simultaneous interval lies entirely outside
   * [0, 1], named (evidence at level α for all items together).
   */
  readonly warnings: readonly string[];
}

/** ps.advise() options. */
export interface AdviseOptions {
  /** Number of categories (items), an integer in [2, 10^7]. */
  k: number;
  /** ε > 0 of one report or sample. */
  epsilon: number;
  /** N, the number of users (goal 'frequencies'); default 1. */
  users?: number;
  /**
   * 'frequencies' (default): a population's shares, by the smallest predicted total squared error Σ_v Var(f̂_v) of
   * k-RR ('linear') and the frequency oracles; 'sample': one user's sample close to their P, by the smallest
   * worst-case risk in `divergence` of the samplers that take ε alone.
   */
  goal?: 'frequencies' | 'sample';
  /** The f of goal 'sample' (default 'kl'). */
  divergence?: DivergenceName;
}

export interface AdviceCandidate {
  readonly mechanism: MechanismName | OracleName;
  /** The goal's predicted error (closed form). */
  readonly error: number;
  /** Size of one report in bits. */
  readonly reportBits: number;
  /** How a server counts N reports, in words. */
  readonly serverCost: string;
  /**
   * The steps of that count for N reports: N + k for k-RR's GROUP BY, N·k bit tests for a k-bit report, N·⌈P/g⌉ for
   * OLH's walk over each report's preimages, N + L·log2 L for Hadamard response's GROUP BY and transform (L report
   * values); 0 for goal 'sample' (nothing to count).
   */
  readonly serverOperations: number;
}

/**
 * The advice. The rule (the core's): among the candidates whose predicted error is within `tolerance` (1.05) times
 * the smallest, the one with the smallest report, then the fewest server operations, then the smallest error. A
 * candidate within 5% reaches the smallest error with at most 5% more users (its intervals at most 2.5% wider), while
 * the reports it replaces can be k bits against tens: at large k OLH (Hadamard response at small ε) instead of
 * subset selection; k-RR exactly while k < 2e^ε + 1.
 */
export interface Advice {
  /** The candidate the rule chooses. */
  readonly mechanism: MechanismName | OracleName;
  /** Its predicted error (candidates[0].error is the smallest). */
  readonly error: number;
  /** The rule's factor: the candidates within tolerance times the smallest error compete by report, then server. */
  readonly tolerance: number;
  /** Why: the errors compared, the report size and the server cost, in one sentence. */
  readonly reason: string;
  /** Every candidate, smallest predicted error first. */
  readonly candidates: readonly AdviceCandidate[];
}

export interface PrivsampleResearch extends Omit<Privsample, 'wasmModule'> {
  /**
   * The counts of frequency-oracle reports as they travel (hex strings for 'oue' and 'subset-selection', numbers for
   * 'olh' and 'hadamard'), each validated (RangeError naming reports[i]). Counts of batches add up.
   */
  frequencyCounts(oracle: FrequencyOracle, reports: readonly string[] | Histogram): FrequencyCounts;
  /**
   * The estimate from counts (length k, or 2K per report value for 'hadamard') and N: `users` is required for counts
   * per item, optional (their total) for counts per report value; at most 10^9 (the most reports whose intervals are
   * solved exactly). RangeError / TypeError naming counts[i] or users; RangeError where a report carries nothing
   * about the item that the doubles resolve (p* − q* at most 2^-48 of p*: ε = 0, or below ~1e-14).
   */
  estimateFrequencies(oracle: FrequencyOracle, counts: Histogram, options?: { users?: number; alpha?: number }): FrequencyEstimate;
  /** Var(f̂_v) in closed form for a share `frequency` of `users` users holding the item. */
  frequencyVariance(oracle: FrequencyOracle, frequency: number, users: number): number;
  /**
   * The mechanism for a goal (closed forms): the smallest report, then the cheapest server, among the candidates
   * within 1.05 times the smallest predicted error (Advice); its error and the reason.
   */
  advise(options: AdviseOptions): Advice;
  /**
   * The normalised pmf of a histogram (counts or probabilities), validated as every sampler validates it:
   * RangeError / TypeError naming hist[i]. What the samplers compare their output with.
   */
  normalise(hist: Histogram): Float64Array;
  /** Where an input sits relative to the class a worst-case risk is about (the risk bound only; privacy holds for every input). */
  readonly classMembership: ClassMembershipApi;
  /**
   * The privacy accountant: the sampler's guarantee in every notion (LDP curve, capacity, and with a prior
   * I(X;Y) and LIP). Cost O(inputs²·k) per ε' point; meant for k up to a few hundred. A sampler made by this
   * entry is reused; one from 'privsample' is rebuilt here from its mechanism and options.
   */
  accountant(sampler: Sampler, options?: AccountantOptions): AccountantReport;
  /**
   * The log-width w of the smallest box [c, c·e^w]·h that holds q: max_x ln(q_x/h_x) − min_x ln(q_x/h_x) over the
   * x with h_x > 0 (Infinity when q puts mass where h has none, or none where h has some). Every output of a clip
   * sampler around h at ε has w <= ε. TypeError for different lengths, RangeError for a negative or non-finite entry.
   */
  boxLogWidth(q: Histogram, h: Histogram): number;
  /**
   * The exact LDP of a channel given by its rows W(y | i) (each row a distribution over the same outputs, summing to
   * 1 within 1e-9), e.g. a sampler's distribution() on two neighbouring inputs: pureEpsilon = max over y and rows
   * i, j of ln(W(i,y)/W(j,y)) (Infinity when a column mixes zero and non-zero entries), and for each ε' of
   * `epsilons` the hockey-stick δ(ε') = max over ordered pairs i ≠ j of Σ_y max(0, W(i,y) − e^{ε'}·W(j,y)).
   * Cost O(rows²·outputs) per ε'; rows·outputs <= 10^6.
   */
  channelLdp(rows: readonly Histogram[], epsilons?: Histogram): { readonly pureEpsilon: number; readonly delta: Float64Array };
  /**
   * The pure ε of a channel known by each output's largest and smallest probability over its rows (e.g. tracked over
   * more inputs than channelLdp's 10^6 entries hold): max over y with largest[y] > 0 of ln(largest[y]/smallest[y]),
   * Infinity when such a smallest[y] is 0. TypeError for different lengths; RangeError when an entry is negative, not
   * finite, or largest[y] < smallest[y].
   */
  channelLdpOfExtremes(largest: Histogram, smallest: Histogram): number;
  /** The LMIDP paper's conversions between notions. */
  readonly lmidp: Lmidp;
  /** Reveal-or-Obscure's obscure probabilities and the paper's accuracy / sample-complexity formulas. */
  readonly roo: Roo;
  /**
   * Population estimates from `counts[x]` = how many users released category x, and the sampler's public parameters
   * (never a user's histogram). RangeError for negative, non-integer, non-finite or all-zero counts, a count above
   * 2^53 (beyond it a number cannot hold every integer), counts adding up to more than 10^9 (the most reports whose
   * intervals are solved exactly) or a wrong length; TypeError for non-numeric entries.
   */
  estimate(sampler: Sampler, counts: Histogram, options?: EstimateOptions): EstimateReport;
  /** N users drawn from a population model, privatized by the sampler, counted and estimated, in one call. */
  simulate(sampler: Sampler, options: SimulateOptions): SimulationResult;
  /**
   * The weight λ a finite linear sampler runs with for k categories (q = λ·P + (1 − λ)·uniform for 'linear' with
   * delta or mu; λ·P̂ + (1 − λ)·P0 for 'local-linear', where k is not needed): clamped to [0, 1], after the GDP slack.
   * null for every other mechanism (Park's pure 'linear' included).
   */
  mixtureWeight(sampler: Sampler, k?: number): number | null;
  /**
   * The law `sample(hist)` draws from, each probability rounded once to a double: the mechanism's q quantized into
   * its release plan (units of 2^-63 inside a public box that meets the guarantee exactly). It agrees with
   * `distribution(hist)` to within rounding (the clip samplers release q from a fixed-work solve, within 1e-11
   * relative of distribution()'s) except where a prior or reference has small shares: the plan counts them in units
   * of 2^-52 of their total, which moves such a category's floor or class box by up to 2^-53 of the total and
   * releases a share below 2^-53 as one unit (docs/draw-policy.md). It is the law privsample's own privacy checks
   * run on. The record-level
   * samplers release their distribution() exactly; null for 'laplace-projection' (its draw is fresh noise each time).
   */
  releasedLaw(sampler: Sampler, hist: Histogram): Float64Array | null;
  /**
   * The privacy profile δ_g(β) = 1 + g*(−e^β) of a notion, β >= 0: every g-FLDP mechanism is (β, δ_g(β))-LDP.
   * {mu}: Φ(μ/2 − β/μ) − e^β·Φ(−μ/2 − β/μ); {epsilon, delta}: δ + (1 − δ)(e^ε − e^β)/(e^ε + 1) for β <= ε, else δ.
   */
  privacyProfile(notion: { epsilon: number; delta?: number } | { mu: number }, beta: number): number;
  /** Composition of repeated reports and amplification by shuffling. */
  readonly collection: Collection;
  /** A 1-D grid (frozen). Throws RangeError unless lo < hi are finite and cells is an integer in [1, 10^7]. */
  grid1d(options: { lo: number; hi: number; cells: number }): Grid1D;
  /** A 2-D grid (frozen), nx·ny <= 10^7 cells. */
  grid2d(options: { xLo: number; xHi: number; nx: number; yLo: number; yHi: number; ny: number }): Grid2D;
  /** Density families as cell masses on a grid. */
  readonly densities: Densities;
  /**
   * The MBDE baseline (Husain et al.'s mollified boosted density estimation, as run in Park et al.'s experiments):
   * boosted MLP classifiers move a truncated-Gaussian base q0 toward the density, with
   * e^{−ε/2} <= density/reference <= e^{ε/2} on every cell. preset 'reduced' (default) is sized for a browser tab;
   * 'paper' is the paper's setting, far slower (bench/README.md times both). With `seed` the training randomness is
   * a seeded generator (reproducible, NOT secure); otherwise the CSPRNG.
   */
  mbde(
    grid: Grid,
    density: Histogram,
    options: { epsilon: number; preset?: 'reduced' | 'paper'; seed?: number },
  ): { readonly density: Float64Array; readonly reference: Float64Array; readonly theta: number };
  /**
   * `count` random 1-D mixtures of the papers' continuous experiments (Park et al. eq. 208; Ghoukasian et al.
   * Figs 4 and 10), drawn by the library's SEEDED generator (xoshiro256**: reproducible, NOT secure; set-up of
   * figures only): k = min(Poisson(poissonMean) + 1, maxComponents) components, means ~ U[−meanRange, meanRange],
   * weights ~ Dirichlet(1, …, 1). Defaults poissonMean 2, maxComponents 10, meanRange 1; count <= 1e6.
   */
  seededRandomMixtures(options: {
    seed: number;
    count: number;
    poissonMean?: number;
    maxComponents?: number;
    meanRange?: number;
  }): readonly MixtureParameters[];
  /** Names accepted by continuousSampler(). */
  readonly continuousMechanisms: readonly ContinuousMechanismName[];
  /** A sampler for densities given as cell masses on a grid; throws RangeError for a bad option, TypeError for a wrong type. */
  continuousSampler<M extends ContinuousMechanismName>(mechanism: M, options: ContinuousOptionsByMechanism[M]): ContinuousSampler;
}

/**
 * Loads the research module once (its WASM is inlined); later calls return the same instance. The module needs
 * WebAssembly SIMD (Chrome/Edge 91+, Firefox 89+, Safari 16.4+, Node 16.4+).
 */
export function init(): Promise<PrivsampleResearch>;
