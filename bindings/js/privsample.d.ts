// privsample — private sampling of a histogram under local differential privacy.
// Hand-written; checked by `tsc --noEmit` against tests/js/types-usage.ts in `npm test`.

/** A histogram: counts or probabilities, one entry per category (finite, >= 0, not all zero). */
export type Histogram = readonly number[] | Float64Array | Float32Array | Uint32Array | Int32Array;

/** Mechanisms available in this version. */
export type MechanismName = 'minimax' | 'linear';

/** Named f-divergences. 'hellinger' is ½Σ(√p−√q)² (at most 1, as in the papers' figures). */
export type DivergenceName = 'kl' | 'tv' | 'hellinger' | 'chi2';

export interface SamplerOptions {
  /** Privacy budget ε of one released sample, in [0, 1000]. */
  epsilon: number;
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
  readonly guarantee: Guarantee;
  /** The exact output distribution Q(·|P). Never release it: it reveals P. */
  distribution(hist: Histogram): Float64Array;
  /**
   * The normaliser r_P of a clip sampler (Q*(x|P) = max(P(x)/r_P, 1/(e^ε+k−1)) for 'minimax'),
   * or null for a mechanism without one ('linear').
   */
  normaliser(hist: Histogram): number | null;
  /** One private category index in [0, k), drawn with the CSPRNG. Spends ε. */
  sample(hist: Histogram): number;
  /**
   * n independent private draws. Each draw spends ε again: together they are (n·ε)-LDP, not ε-LDP.
   * n: integer in [0, 10^7].
   */
  sampleMany(hist: Histogram, n: number, options?: SampleManyOptions): Uint32Array;
  /** Closed-form worst-case D_f(P‖Q(P)) over all histograms with k categories (Park et al., Thm 3.1). */
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
