// privsample — private sampling of a histogram under local differential privacy (and record-level DP).
// The default entry: finite samplers, divergences, guarantees. Research parts: 'privsample/research' (research.d.ts).
// Hand-written; checked by `tsc --noEmit` against tests/js/types-usage.ts, and under a matrix of compiler settings
// (lib with and without DOM, bundler/node16/nodenext, .mts/.cts; tests/types/) without skipLibCheck, in `npm test`.
// Names a runtime may lack (DOM's URL and IndexedDB, WebAssembly, Symbol.dispose) are looked up in the compiling
// program's globals (the helper types below), so a Node project without the DOM lib checks these declarations too.

/**
 * The client entry, `import { init } from 'privsample'`: the finite samplers, divergences, guarantees, the registry
 * of mechanisms and the privacy-budget ledger — what a page that privatizes a histogram needs.
 * @module privsample
 */

/** The instance type of global `Name` where the program's libs declare it (DOM, @types/node), else `never`. */
type GlobalInstance<Name extends string> =
  typeof globalThis extends { readonly [K in Name]: { prototype: infer T } } ? T : never;
/** WebAssembly.Module where the program's libs declare WebAssembly, else `never`. */
type WasmModule = typeof globalThis extends { readonly WebAssembly: { Module: { prototype: infer M } } } ? M : never;
/** IndexedDB's factory type where declared (DOM), else the one method the ledger calls. */
type IndexedDBFactory =
  [GlobalInstance<'IDBFactory'>] extends [never] ? { open(name: string, version?: number): object } : GlobalInstance<'IDBFactory'>;
/** `Symbol.dispose` where the libs declare it (esnext.disposable, es2025, @types/node), else `never` (no member). */
declare const disposeSymbol: SymbolConstructor extends { readonly dispose: infer S extends symbol } ? S : never;

/**
 * A histogram: counts or probabilities, one entry per category (finite, >= 0, not all zero). Any positive scale gives
 * the same distribution. A sampler treats an entry below 2^-400 of the largest entry (a far tail, subnormal numbers)
 * as 0, so that its time does not depend on such values; the distribution moves by less than k·2^-400.
 */
export type Histogram = readonly number[] | Float64Array | Float32Array | Uint32Array | Int32Array;

// ---- generated from the registry by scripts/generate-types.mjs: do not edit by hand ----
/**
 * Mechanisms available in this version (each has its page, core/mechanisms/<name>/README.md):
 * - 'minimax': minimax-optimal clip sampler Q*_{k,ε} (Park et al. Thm 3.1). Guarantee: pure ε-LDP; options: epsilon.
 * - 'linear': linear sampler: k-RR on one draw (pure), or the optimal functional-LDP mixture ((ε,δ) or μ-GDP).
 *   Guarantee: pure ε-, (ε,δ)- or μ-Gaussian LDP, as the options say; options: epsilon [+ delta] or mu.
 * - 'mollifier': Husain et al.'s relative-mollifier baseline around a reference (uniform by default). Guarantee: pure
 *   ε-LDP; options: epsilon, reference?.
 * - 'local': locally minimax clip sampler around a prior (Ghoukasian et al. Thm 5.1). Guarantee: pure ε-LDP; options:
 *   epsilon, prior, gamma, outsideNeighbourhood?.
 * - 'local-linear': locally minimax linear sampler around a prior (Ghoukasian et al. Thm 4.1). Guarantee: pure ε-,
 *   (ε,δ)- or μ-Gaussian LDP, as the options say; options: epsilon [+ delta] or mu, prior, gamma.
 * - 'roo': Reveal-or-Obscure on a user's n records. Guarantee: ε-DP of each of the user's n records, not LDP of the
 *   whole histogram; options: epsilon, records.
 * - 'ds-roo': data-specific Reveal-or-Obscure (the paper's Algorithm 2, corrected). Guarantee: ε-DP of each of the
 *   user's n records, not LDP of the whole histogram; options: epsilon, records.
 * - 'laplace-projection': baseline: Laplace noise on the counts, projected to the simplex, then one draw. Guarantee:
 *   ε-DP of each of the user's n records, not LDP of the whole histogram; options: epsilon, records.
 */
export type MechanismName =
  | 'minimax'
  | 'linear'
  | 'mollifier'
  | 'local'
  | 'local-linear'
  | 'roo'
  | 'ds-roo'
  | 'laplace-projection';

/** The options each mechanism takes (required ones without '?'); unknown or unsupported options throw RangeError. */
export interface OptionsByMechanism {
  minimax: { epsilon: number };
  linear: LinearNotionOptions;
  mollifier: { epsilon: number; reference?: Histogram };
  local: { epsilon: number; prior: Histogram; gamma: number; outsideNeighbourhood?: 'clip' | 'projection' };
  'local-linear': LinearNotionOptions & { prior: Histogram; gamma: number };
  roo: { epsilon: number; records: number };
  'ds-roo': { epsilon: number; records: number };
  'laplace-projection': { epsilon: number; records: number };
}
// ---- end of the generated part ----

/** Named f-divergences. 'hellinger' is ½Σ(√p−√q)² (at most 1, as in the papers' figures). */
export type DivergenceName = 'kl' | 'tv' | 'hellinger' | 'chi2';

export interface SamplerOptions {
  /**
   * Privacy budget ε of one released sample, in [0, 1000] (values above 640 run at 640). Required by every
   * mechanism except the Gaussian linear samplers ({mu}).
   */
  epsilon?: number;
  /** 'linear', 'local-linear': δ in [0, 1) for (ε,δ)-LDP (with epsilon). */
  delta?: number;
  /** 'linear', 'local-linear': μ in (0, 100], at least 2.2e-308, for μ-Gaussian LDP (instead of epsilon and delta). */
  mu?: number;
  /**
   * 'local', 'local-linear': the public prior P0 over the same k categories, as counts or probabilities (normalised
   * like a histogram), every entry > 0. It must not be derived from the user's data. ps.sampler() refuses, with a
   * RangeError naming the least share that works, an entry whose share times the sampler's floor ('local': its box
   * floor; 'local-linear': its box floor, and 1/γ) would fall below 2^-960 (about 1e-289).
   */
  prior?: Histogram;
  /** 'local', 'local-linear': the neighbourhood N_γ(P0) = {P : 1/γ <= P/P0 <= γ}; γ in (1, 10^12]. */
  gamma?: number;
  /**
   * 'local': what an input outside N_γ(P0) releases in the trivial regime e^ε >= γ² (elsewhere both are the same
   * sampler): 'clip' (default) clips it into the box [b·P0, b·e^ε·P0]; 'projection' releases its projection onto
   * N_γ(P0), as the paper's sampler does. Both are ε-LDP and release P itself on N_γ(P0).
   */
  outsideNeighbourhood?: 'clip' | 'projection';
  /**
   * 'mollifier': the reference Q0 (default uniform), counts or probabilities; zeros allowed (never output). An entry
   * whose floor e^{−ε/2}·Q0(x) would fall below 2^-960 (about 1e-289) is refused by ps.sampler() with a RangeError.
   */
  reference?: Histogram;
  /**
   * 'roo', 'ds-roo', 'laplace-projection': the public number n of the user's records, an integer in
   * [1, 10^9]; the histogram must be their counts (whole numbers summing to n).
   */
  records?: number;
}

/** ε alone: pure ε-LDP; ε with δ: (ε,δ)-LDP; μ alone: μ-Gaussian LDP. */
export type LinearNotionOptions = { epsilon: number; delta?: number; mu?: never } | { mu: number; epsilon?: never; delta?: never };

/**
 * What a mechanism promises, in exactly one notion:
 * - 'pure-ldp': Q(x|P) <= e^ε·Q(x|P') for all inputs P, P' and outputs x.
 * - 'approx-ldp': Q(A|P) <= e^ε·Q(A|P') + δ for all inputs and sets of outputs A.
 * - 'gaussian-ldp': μ-GDP: any two output distributions are at least as hard to tell apart as N(0,1) from N(μ,1).
 * - 'record-dp': central ε-DP of the user's n records: replacing one record changes every output probability
 *   by a factor at most e^ε (it does not protect the whole histogram).
 * Every further sample spends the budget again.
 */
export type Guarantee =
  | { readonly notion: 'pure-ldp'; readonly epsilon: number }
  | { readonly notion: 'approx-ldp'; readonly epsilon: number; readonly delta: number }
  | { readonly notion: 'gaussian-ldp'; readonly mu: number }
  | { readonly notion: 'record-dp'; readonly epsilon: number; readonly records: number };

export interface SampleManyOptions {
  /**
   * Integer in [0, 2^53): draws come from a seeded deterministic generator (xoshiro256**), reproducible
   * and NOT secure. Omit it to draw from the platform CSPRNG (crypto.getRandomValues). The first m draws of
   * sampleMany(hist, n, { seed }) are sampleMany(hist, m, { seed }) for every m <= n.
   */
  seed?: number;
}

export interface Sampler {
  readonly mechanism: MechanismName;
  /** The options the sampler was made with (arrays copied to frozen arrays). */
  readonly options: Readonly<SamplerOptions>;
  readonly guarantee: Guarantee;
  /**
   * The output distribution Q(·|P) ('laplace-projection': a deterministic Monte-Carlo estimate from 20,000 noise
   * draws, O(20,000·k)); `sample()` draws from it up to the release plan's rounding (its last bits, and categories
   * with small prior or reference shares: docs/draw-policy.md). Never release it: it reveals P.
   */
  distribution(hist: Histogram): Float64Array;
  /**
   * distribution(hist) written into `out` (a Float64Array of hist's length; TypeError otherwise), which it returns:
   * the same values bit for bit, without allocating a new array. The sampler keeps its WebAssembly buffers between
   * calls, so repeated calls allocate nothing.
   */
  distributionInto(hist: Histogram, out: Float64Array): Float64Array;
  /**
   * The normaliser r_P of a clip sampler (Q*(x|P) = max(P(x)/r_P, 1/(e^ε+k−1)) for 'minimax'); 0 when none
   * exists (a sparse user, Case B: the limit r → 0); null for a mechanism without one (linear samplers, ROO), which
   * still checks the histogram: a bad one throws as distribution() does.
   */
  normaliser(hist: Histogram): number | null;
  /**
   * One private category index in [0, k), drawn with the CSPRNG. Spends ε. Its work does not depend on hist beyond
   * k (the draw policy; clip samplers solve by a fixed schedule, several times distribution()'s time), nor on which
   * index it releases; its time still moves by about 1% with hist (validating it, and what a processor makes of the
   * same operations on different values), by up to a few percent at large k with whether hist's memory pages were
   * ever written (a fresh Float64Array's zeros are not), and by up to 1.24 times for a histogram whose total
   * overflows (entries near 1.8e308): the guide's "Privacy and timing".
   */
  sample(hist: Histogram): number;
  /**
   * n independent private draws. Each draw spends ε again: together they are (n·ε)-LDP, not ε-LDP.
   * n: integer in [0, 10^7]. The table it builds for the draws runs the same steps for every histogram, but its
   * time moves with the histogram's shape: by about 1% up to k = 2^18, by up to 3% beyond, and by what sample()'s
   * does (the guide's "Privacy and timing"); for one release, use sample().
   */
  sampleMany(hist: Histogram, n: number, options?: SampleManyOptions): Uint32Array;
  /**
   * Closed-form worst-case D_f(P‖Q(P)) over the mechanism's class: all histograms with k categories
   * ('minimax', 'linear': Park et al. Thm 3.1 / Ghoukasian et al. Thm 3.5; 'mollifier': App. F.1; docs/divergences.md), the
   * neighbourhood N_γ(P0) ('local': Thm 5.1; 'local-linear': an upper bound, Lemma C.3; k must equal the
   * prior's length), or all datasets of n records ('roo', 'ds-roo': D_f(P̂‖Q)). Throws RangeError for
   * 'laplace-projection', which has no closed form.
   */
  worstCaseRisk(f: DivergenceName, k: number): number;
  /** True after dispose(): every method then throws TypeError. */
  readonly disposed: boolean;
  /**
   * Releases the sampler's WebAssembly memory now (idempotent). A sampler you drop without calling it is released
   * when the garbage collector reclaims it; dispose() matters when you make many samplers in a loop. When the
   * module's memory (2 GiB at most) is full, any call throws RangeError `out of memory: dispose() the samplers and
   * oracles not in use, or use a smaller k or n`; the module keeps working, and calls succeed again once memory is
   * freed.
   */
  dispose(): void;
  /**
   * `using s = ps.sampler(…)` (explicit resource management) disposes it at the end of the block: the method keyed
   * `Symbol.dispose` (declared where the program's libs know that symbol; present at run time where the engine
   * has `Symbol.dispose`).
   */
  [disposeSymbol](): void;
}

/**
 * One option of the registry: a number, a numeric array ('numbers': counts or probabilities), or a word ('text', with
 * the words it accepts in `values`).
 */
export interface RegistryOption {
  readonly name: string;
  readonly kind: 'number' | 'numbers' | 'text';
  readonly meaning: string;
  readonly values?: readonly string[];
}

/**
 * One mechanism of the registry. `required` lists its required options, where 'notion' stands for epsilon (with
 * optional delta) or mu; `notion` says how its privacy notion is chosen: 'pure-ldp' (epsilon), 'ldp-from-options'
 * (epsilon → pure, epsilon + delta → (ε,δ), mu → μ-GDP) or 'record-dp' (epsilon over the user's records).
 */
export interface RegistryMechanism {
  readonly name: string;
  readonly space: 'finite' | 'continuous';
  readonly notion: 'pure-ldp' | 'ldp-from-options' | 'record-dp';
  readonly required: readonly string[];
  readonly optional: readonly string[];
  /** The value an optional option takes when left out (e.g. c1: 0). */
  readonly defaults: Readonly<Record<string, number>>;
  /** One technical line: what the mechanism is and where it is from. */
  readonly summary: string;
  /** Its name in a sentence, for people choosing a mechanism (e.g. 'the minimax sampler'). */
  readonly label: string;
  /** What it does, in plain words (the demo's line under its picker). */
  readonly plain: string;
  /**
   * Whether distribution() is the exact law sample() draws from; false where it is only an estimate
   * ('laplace-projection': a Monte-Carlo average), which the accountant refuses and releasedLaw() answers null for.
   */
  readonly exactDistribution: boolean;
}

/**
 * One frequency oracle of the registry (pure ε-LDP; required options epsilon and categories). `report`: how its
 * reports travel — 'hex' (a k-bit set as hex text) or 'integer' (a number below 2^53); `counts`: what a server
 * counts — 'per-category' (each item's support count) or 'per-report' (how often each report value came).
 */
export interface RegistryOracle {
  readonly name: OracleName;
  readonly notion: 'pure-ldp';
  readonly required: readonly string[];
  readonly optional: readonly string[];
  readonly defaults: Readonly<Record<string, number>>;
  readonly summary: string;
  readonly report: 'hex' | 'integer';
  readonly counts: 'per-category' | 'per-report';
}

/** The single source of mechanism names and option rules (the core's), e.g. to build a mechanism picker. */
export interface Registry {
  readonly options: readonly RegistryOption[];
  readonly mechanisms: readonly RegistryMechanism[];
  readonly oracles: readonly RegistryOracle[];
}

/**
 * Frequency oracles (docs/README.md, "Frequency oracles"): a user holds one item of k and sends one report; a server
 * estimates every item's share from N reports (privsample/research: frequencyCounts, estimateFrequencies).
 * - 'oue': optimised unary encoding — k bits (hex).
 * - 'olh': optimised local hashing — a fresh CSPRNG hash seed per report; an integer.
 * - 'hadamard': Hadamard response — an integer below 2K (K the power of two >= k).
 * - 'subset-selection': a set of d ≈ k/(e^ε + 1) items — k bits (hex).
 * Their coins are exact rationals rounded toward privacy: OUE's probability q of a 1 for another item is at least
 * 2^-32 (reached above ε ≈ 22.2) and Hadamard response's flip at least 2^-64 (above ε ≈ 44.4), so a larger ε releases
 * no more than those.
 */
export type OracleName = 'oue' | 'olh' | 'hadamard' | 'subset-selection';

export interface OracleOptions {
  /** Privacy budget ε of one report, in [0, 1000] (values above 640 run at 640). */
  epsilon: number;
  /** k: the number of items, an integer in [2, 10^7]. */
  categories: number;
}

/**
 * The numbers a server needs to count an oracle's reports without the library (the SQL on the oracle's page,
 * core/mechanisms/<name>/README.md, under the same names). 'olh' has g and P; the other oracles have none (their
 * reports are counted from k alone).
 */
export interface OracleParameters {
  /**
   * 'olh': the hash range g — a report is the integer s·g + y with y = report mod g the hashed value kept or
   * randomized (g = round(e^ε + 1), at least 2, lowered only if P²·g would exceed 2^53).
   */
  readonly g?: number;
  /**
   * 'olh': the prime P of the hash family — the smallest prime >= max(k, 16g); the seed s = floor(report / g) is
   * a·P + b and the report supports item v when ((a·v + b) mod P) mod g = y.
   */
  readonly P?: number;
}

/** A frequency oracle built once from its options. */
export interface FrequencyOracle {
  readonly name: OracleName;
  readonly options: Readonly<OracleOptions>;
  readonly guarantee: { readonly notion: 'pure-ldp'; readonly epsilon: number };
  readonly categories: number;
  /** What a server needs to count the reports itself, e.g. `{ g: 4, P: 1009 }` for 'olh' at ε = 1, k = 1000. */
  readonly parameters: Readonly<OracleParameters>;
  readonly report: 'hex' | 'integer';
  readonly counts: 'per-category' | 'per-report';
  /**
   * One report of `item` (an integer in [0, k − 1]), drawn with the CSPRNG; the random words it reads do not depend
   * on the item. A hex string for 'oue' and 'subset-selection', a number for 'olh' and 'hadamard'. Throws RangeError
   * for a bad item.
   */
  encode(item: number): string | number;
  /**
   * One report per item, as encode(item) draws it for each (independent reports, the same law; the random words they
   * read do not depend on the items), in one call into the module: hex strings for 'oue' and 'subset-selection', a
   * Float64Array of the integer reports for 'olh' and 'hadamard'. Every item is checked before any report is drawn:
   * TypeError for items that are not numbers, RangeError naming the first bad one (`items[3] = 1.5: …`); at most
   * 10^7 items per call.
   */
  encodeMany(
    items: readonly number[] | Float64Array | Uint32Array | Int32Array | Uint16Array | Uint8Array,
  ): string[] | Float64Array;
  /** True after dispose(): encode() and encodeMany() then throw TypeError. */
  readonly disposed: boolean;
  /** Releases the oracle's WebAssembly memory now (idempotent); else the garbage collector does. */
  dispose(): void;
  [disposeSymbol](): void;
}

// ---- the privacy-budget ledger (docs/analysis/ledger.md) ----------------------------------------------------------

/**
 * Where a ledger keeps its entries: the serialised ledger (a string), or null when nothing is stored. Methods may be
 * async; the ledger awaits them. Any number of ledgers (pages, tabs, workers) may share one store as long as every
 * write is one atomic step, which the storage provides in one of three ways (docs/analysis/ledger.md#many-writers):
 *   - `update(fn)`: the ledger writes only through it. It must, as one step that no other write of the store (from any
 *     tab, worker or process) interleaves, read the text (null if none), call `fn` on it (synchronous; it may throw)
 *     and store what `fn` returned; resolve only once that is stored durably; reject with `fn`'s error, storing
 *     nothing, if it threw. `fn` may be called more than once (e.g. compare-and-set retries): store its last result.
 *   - `lockName`, without `update`: the store may be reached from other tabs or workers; the ledger writes it with
 *     get() and set() under the exclusive Web Lock of that name, and under it get() must return the last set() of any
 *     holder. Where navigator.locks is missing, writes are refused (an Error).
 *   - neither: the store is private to this JavaScript realm and reached through this one object; the ledger writes
 *     it with get() and set(), one write at a time over every ledger given this object.
 */
export interface LedgerStorage {
  get(): Promise<string | null> | string | null;
  set(text: string): Promise<void> | void;
  update?(fn: (text: string | null) => string): Promise<void> | void;
  readonly lockName?: string | null;
}

export interface LedgerStorageFactories {
  /** In memory: gone with the page (the default of ps.ledger()). Ledgers given the same one share it. */
  memory(): LedgerStorage;
  /**
   * window.localStorage (or any Storage given as `storage`) under `key` (default 'privsample-ledger'), for reading a
   * ledger kept there: releases and clear() are refused with an Error, with or without Web Locks, since no tab can
   * read, check and write localStorage atomically (another tab's write may not have reached it yet).
   */
  localStorage(options?: {
    key?: string;
    storage?: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  }): LedgerStorage;
  /**
   * IndexedDB: object store 'ledger' of database `database` (default 'privsample-ledger'), under `key` (default
   * 'ledger'). Each write is one readwrite transaction (durability 'strict'): safe across tabs and workers, with or
   * without Web Locks. The storage to use in a browser.
   */
  indexedDB(options?: { database?: string; key?: string; indexedDB?: IndexedDBFactory }): LedgerStorage;
}

/**
 * A purpose's budget: `{ epsilon }` or `{ epsilon, delta }` — (ε,δ)-LDP, counting pure and approximate LDP releases
 * (Σε, Σδ); `{ mu }` — μ-Gaussian LDP, counting Gaussian releases (sqrt(Σμ²)); `{ notion: 'record-dp', epsilon }` —
 * record-level ε-DP, counting record-level releases and pure LDP ones at their ε (Σε). `notion` may also be given
 * as 'ldp' or 'gaussian-ldp'. A release of a notion the account does not count is refused.
 */
export type LedgerBudget =
  | { notion?: 'ldp'; epsilon: number; delta?: number; mu?: never }
  | { notion?: 'gaussian-ldp'; mu: number; epsilon?: never; delta?: never }
  | { notion: 'record-dp'; epsilon: number; delta?: never; mu?: never };

/** A total in one account: what was spent (with the number of releases), what is left, or a budget. */
export type LedgerTotal =
  | { readonly notion: 'ldp'; readonly epsilon: number; readonly delta: number }
  | { readonly notion: 'gaussian-ldp'; readonly mu: number }
  | { readonly notion: 'record-dp'; readonly epsilon: number };

export type LedgerSpent = LedgerTotal & { readonly releases: number };

/** One recorded release. `time`: milliseconds since 1970 (Date.now()) when it was recorded. */
export interface LedgerEntry {
  readonly purpose: string;
  readonly mechanism: MechanismName;
  readonly guarantee: Guarantee;
  readonly time: number;
}

export interface LedgerOptions {
  /** Default (when undefined): ps.ledgerStorage.memory(). */
  storage?: LedgerStorage;
  /** Budgets per purpose; a purpose without one is recorded and reported but never refused for its size. */
  budgets?: Readonly<Record<string, LedgerBudget>>;
}

/**
 * Records on the device each release made through it and refuses one that would exceed its purpose's budget (basic
 * composition; the arithmetic is the core's). Limits: clearing the site's storage resets it; two browsers keep two
 * ledgers; it constrains this page's releases and is no proof to a server; samples drawn with sampler.sample()
 * directly are not recorded.
 */
export interface Ledger {
  /** The validated budgets, by purpose. */
  readonly budgets: Readonly<Record<string, LedgerTotal>>;
  readonly storage: LedgerStorage;
  /**
   * Draws one sample with sampler.sample(hist) if the purpose's account counts the sampler's guarantee and the
   * total stays within its budget, records it, and returns it only once its entry is stored; the check, the draw and
   * the record are one atomic step of the storage, so ledgers sharing it never release more than the budget together.
   * Otherwise rejects, with nothing drawn: a RangeError naming the purpose, what was spent, what was requested and the
   * budget; or an Error when the storage cannot be written atomically here (localStorage; a lockName without
   * navigator.locks), or when storing fails (then a sample drawn is dropped).
   */
  release(sampler: Sampler, hist: Histogram, options: { purpose: string }): Promise<number>;
  /** What the purpose has spent so far, composed in its account. */
  spent(purpose: string): Promise<LedgerSpent>;
  /** What is left of its budget (μ: the largest μ one more release may have); null without a budget. */
  remaining(purpose: string): Promise<LedgerTotal | null>;
  /** The recorded releases, oldest first (of one purpose, or all). */
  entries(purpose?: string): Promise<readonly LedgerEntry[]>;
  /** Purposes with a budget or a recorded release. */
  purposes(): Promise<readonly string[]>;
  /** Forgets the entries of one purpose, or all (its spent budget is available again). Written like a release. */
  clear(purpose?: string): Promise<void>;
}

export interface Privsample {
  /** Version of the package. */
  readonly version: string;
  /** Largest number of categories accepted (10^7). */
  readonly maxCategories: number;
  /** Names accepted by sampler(). */
  readonly mechanisms: readonly MechanismName[];
  /** Every mechanism (finite and continuous) with its options, as the core checks them. */
  readonly registry: Registry;
  /**
   * Builds the mechanism once (its methods reuse it). Throws RangeError for an unknown mechanism or a bad option
   * value, TypeError for a wrong type.
   */
  sampler<M extends MechanismName>(mechanism: M, options: OptionsByMechanism[M]): Sampler;
  /** Names accepted by oracle(). */
  readonly oracles: readonly OracleName[];
  /**
   * Builds a frequency oracle once. Throws RangeError for an unknown oracle or a bad option value, TypeError for a
   * wrong type.
   */
  oracle(name: OracleName, options: OracleOptions): FrequencyOracle;
  /** D_f(p‖q); both are normalised first. */
  divergence(f: DivergenceName, p: Histogram, q: Histogram): number;
  /**
   * A privacy-budget ledger over a storage (default: memory) with budgets per purpose. The first call loads the
   * ledger (in this entry its own small module, build/wasm/privsample-ledger.wasm, and build/bundle/ledger.mjs), so
   * a page that keeps no ledger downloads none of it. Rejects with RangeError/TypeError for a bad budget or option.
   */
  ledger(options?: LedgerOptions): Promise<Ledger>;
  /** The storage back-ends a ledger can keep its entries in. */
  readonly ledgerStorage: LedgerStorageFactories;
  /**
   * The compiled WebAssembly.Module this instance runs: post it to a worker and pass it to init({ wasm }) there,
   * so the page and its workers download and compile it once.
   */
  readonly wasmModule: WasmModule;
}

export interface InitOptions {
  /**
   * Where the WebAssembly comes from: a URL (string or URL; fetched, compiled while it streams when served as
   * application/wasm), a Response, the bytes, or a compiled WebAssembly.Module. Default: the package's
   * build/wasm/privsample-client.wasm next to the module (bundlers copy it as an asset; Node reads the file).
   */
  wasm?: string | GlobalInstance<'URL'> | GlobalInstance<'Response'> | ArrayBuffer | ArrayBufferView | WasmModule;
  /**
   * The same for the ledger's module, fetched on the first ps.ledger() call. Default: the package's
   * build/wasm/privsample-ledger.wasm next to the module. Giving anything else makes ps.ledger() reject.
   */
  ledgerWasm?: string | GlobalInstance<'URL'> | GlobalInstance<'Response'> | ArrayBuffer | ArrayBufferView | WasmModule;
}

/**
 * Loads the WebAssembly module once; later calls return the same instance (their options are ignored). Captures
 * crypto.getRandomValues at that moment: replacing it later does not affect the samplers. The module needs
 * WebAssembly exception handling and SIMD (Chrome/Edge 95+, Firefox 100+, Safari 16.4+, Node 17+).
 */
export function init(options?: InitOptions): Promise<Privsample>;

// Only the declarations marked `export` above are the module's (the helper types and disposeSymbol are not).
export {};
