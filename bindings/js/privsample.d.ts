// privsample — private sampling of a histogram under local differential privacy.
// Hand-written; checked by `tsc --noEmit` against tests/js/types-usage.ts in `npm test`.

/** A histogram: counts or probabilities, one entry per category (finite, >= 0, not all zero). */
export type Histogram = readonly number[] | Float64Array | Float32Array | Uint32Array | Int32Array;

/**
 * Mechanisms available in this version:
 * - 'minimax': Park et al.'s minimax-optimal clip sampler Q* (pure ε-LDP; options: epsilon).
 * - 'linear': Park et al.'s linear sampler Q† = k-ary randomized response on one draw of P (options: epsilon).
 * - 'mollifier': Husain et al.'s relative-mollifier f-projection around a reference (options: epsilon, reference?).
 * - 'local': Ghoukasian et al.'s local clip sampler around a public prior (options: epsilon, prior, gamma).
 */
export type MechanismName = 'minimax' | 'linear' | 'mollifier' | 'local';

/** Named f-divergences. 'hellinger' is ½Σ(√p−√q)² (at most 1, as in the papers' figures). */
export type DivergenceName = 'kl' | 'tv' | 'hellinger' | 'chi2';

export interface SamplerOptions {
  /** Privacy budget ε of one released sample, in [0, 1000]. */
  epsilon: number;
  /**
   * 'local': the public prior P0, a probability distribution over the same k categories with every entry > 0.
   * It must not be derived from the user's data.
   */
  prior?: Histogram;
  /** 'local': the neighbourhood N_γ(P0) = {P : 1/γ <= P/P0 <= γ} the sampler is optimised for; γ > 1. */
  gamma?: number;
  /** 'mollifier': the reference distribution Q0 (default uniform); zeros allowed (never output). */
  reference?: Histogram;
}

/** What a mechanism promises: for 'pure-ldp', Q(x|P) <= e^ε·Q(x|P') for all inputs P, P' and outputs x. */
export interface Guarantee {
  readonly notion: 'pure-ldp';
  readonly epsilon: number;
}

export interface SampleManyOptions {
  /**
   * Integer in [0, 2^53): draws come from a seeded deterministic generator (xoshiro256**), reproducible
   * and NOT secure. Omit it to draw from the platform CSPRNG (crypto.getRandomValues).
   */
  seed?: number;
}

export interface Sampler {
  readonly mechanism: MechanismName;
  /** The options the sampler was made with (arrays copied to frozen arrays). */
  readonly options: Readonly<SamplerOptions>;
  readonly guarantee: Guarantee;
  /** The exact output distribution Q(·|P). Never release it: it reveals P. */
  distribution(hist: Histogram): Float64Array;
  /**
   * The normaliser r_P of a clip sampler (Q*(x|P) = max(P(x)/r_P, 1/(e^ε+k−1)) for 'minimax'); 0 when none
   * exists (a sparse user, Case B: the limit r → 0); null for a mechanism without one ('linear').
   */
  normaliser(hist: Histogram): number | null;
  /** One private category index in [0, k), drawn with the CSPRNG. Spends ε. */
  sample(hist: Histogram): number;
  /**
   * n independent private draws. Each draw spends ε again: together they are (n·ε)-LDP, not ε-LDP.
   * n: integer in [0, 10^7].
   */
  sampleMany(hist: Histogram, n: number, options?: SampleManyOptions): Uint32Array;
  /**
   * Closed-form worst-case D_f(P‖Q(P)) over the mechanism's class: all histograms with k categories
   * ('minimax', 'linear': Park et al. Thm 3.1; 'mollifier': App. F.1), or the neighbourhood N_γ(P0)
   * ('local': Ghoukasian et al. Thm 5.1; k must equal the prior's length).
   */
  worstCaseRisk(f: DivergenceName, k: number): number;
}

export interface Privsample {
  /** Version of the package. */
  readonly version: string;
  /** Largest number of categories accepted (10^7). */
  readonly maxCategories: number;
  /** Names accepted by sampler(). */
  readonly mechanisms: readonly MechanismName[];
  /** Throws RangeError for an unknown mechanism or a bad option, TypeError for a wrong type. */
  sampler(mechanism: MechanismName, options: SamplerOptions): Sampler;
  /** D_f(p‖q); both are normalised first. */
  divergence(f: DivergenceName, p: Histogram, q: Histogram): number;
}

/** Loads the WebAssembly module once; later calls return the same instance. */
export function init(): Promise<Privsample>;
