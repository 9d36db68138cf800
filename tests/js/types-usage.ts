// Compiled with `tsc --noEmit` in npm test: privsample.d.ts must describe the API a user writes against.
// The @ts-expect-error lines fail the compile if the declarations stop rejecting misuse.
import { init, type DivergenceName, type FrequencyOracle, type OracleName, type Guarantee, type Histogram, type InitOptions, type Ledger, type LedgerBudget, type LedgerEntry, type LedgerSpent, type LedgerStorage, type LedgerTotal, type Privsample, type Sampler } from 'privsample';
import {
  init as initResearch,
  type ContinuousSampler,
  type MixtureParameters,
  type EstimateReport,
  type PrivacyLoss,
  type ShuffleBound,
  type SimulationResult,
  type Grid,
  type Grid1D,
  type Grid2D,
  type PrivsampleResearch,
  type Advice,
  type FrequencyEstimate,
} from 'privsample/research';

async function privatize(hist: Histogram): Promise<number> {
  const ps: Privsample = await init();
  const s: Sampler = ps.sampler('minimax', { epsilon: 1 });
  const q: Float64Array = s.distribution(hist);
  const reused: Float64Array = s.distributionInto(hist, new Float64Array(q.length));
  const r: number | null = s.normaliser(hist);
  const many: Uint32Array = s.sampleMany(hist, 10, { seed: 42 });
  const secure: Uint32Array = s.sampleMany(hist, 10);
  const g: Guarantee = s.guarantee;
  const notion: string = g.notion === 'record-dp' ? `${g.epsilon}-DP per record of ${g.records}` : g.notion;
  const f: DivergenceName = 'hellinger';
  const risk: number = s.worstCaseRisk(f, q.length);
  const own: number = ps.divergence('kl', hist, q);
  const oracle: FrequencyOracle = ps.oracle('olh', { epsilon: 1, categories: q.length });
  const encoded: string | number = oracle.encode(0);
  const hashRange: number | undefined = oracle.parameters.g;
  const prime: number | undefined = oracle.parameters.P;
  // @ts-expect-error the parameters are read-only
  oracle.parameters.g = 3;
  const batch: string[] | Float64Array = oracle.encodeMany([0, 1, 1]);
  const fromTyped: string[] | Float64Array = oracle.encodeMany(new Uint32Array([0, 1]));
  // @ts-expect-error items are numbers
  oracle.encodeMany(['0']);
  const names: readonly OracleName[] = ps.oracles;
  oracle.dispose();
  // @ts-expect-error an oracle needs categories
  ps.oracle('oue', { epsilon: 1 });
  // @ts-expect-error not an oracle
  ps.oracle('grr', { epsilon: 1, categories: 4 });
  const linear = ps.sampler('linear', { epsilon: 0.5 });
  const approx = ps.sampler('linear', { epsilon: 0.5, delta: 1e-6 });
  const gaussian = ps.sampler('local-linear', { mu: 1, prior: [0.5, 0.5], gamma: 2 });
  const roo = ps.sampler('ds-roo', { epsilon: 1, records: 8 });
  const local = ps.sampler('local', { epsilon: 1, prior: new Float64Array([0.25, 0.75]), gamma: 3 });
  const paperLocal = ps.sampler('local', { epsilon: 3, prior: [0.5, 0.5], gamma: 2, outsideNeighbourhood: 'projection' });
  const gdp = gaussian.guarantee;
  const mu: number = gdp.notion === 'gaussian-ldp' ? gdp.mu : 0;
  void [r, reused, many, secure, notion, risk, own, linear.mechanism, approx, roo, local, paperLocal, mu];
  const disposed: boolean = linear.disposed;
  linear.dispose();
  {
    using scoped = ps.sampler('minimax', { epsilon: 2 });
    void scoped.sample([1, 2]);
  }
  const options: InitOptions = { wasm: ps.wasmModule, ledgerWasm: new URL('https://example.org/privsample-ledger.wasm') };
  const again: Privsample = await init(options);
  const research: PrivsampleResearch = await initResearch();
  const hadamard = research.oracle('hadamard', { epsilon: 2, categories: 8 });
  const counted = research.frequencyCounts(hadamard, [hadamard.encode(3) as number, 5]);
  const shares: FrequencyEstimate = research.estimateFrequencies(hadamard, counted.counts, { alpha: 0.1 });
  const low: Float64Array = shares.simultaneousLower;
  const advice: Advice = research.advise({ k: 1000, epsilon: 1, users: 1e5 });
  const cost: string = advice.candidates[0].serverCost;
  // @ts-expect-error goal is 'frequencies' or 'sample'
  research.advise({ k: 10, epsilon: 1, goal: 'median' });
  const report = research.accountant(local, { prior: [0.5, 0.5] });
  const bits: number = report.prior ? report.prior.mutualInformation : report.capacity.upper;
  const curve: Float64Array = report.ldp.delta;
  const floor: number = research.lmidp.ldpDeltaFloorFromCapacity(0.1);
  const weight: number | null = research.mixtureWeight(research.sampler('linear', { mu: 1 }), 10);
  const profile: number = research.privacyProfile({ mu: 1 }, 0.5);
  const mu8: number = research.lmidp.capacityBoundFromLdpCurve((e) => research.lmidp.gaussianLdpDelta(e, 1, 1, 200));
  const table: Float64Array = research.roo.obscureTable(0.1, 1000, 9);
  const worstPair: { readonly logRatio: number; readonly count: number } =
    research.roo.worstPair(research.roo.obscureTableTopFixOnly(0.01, 99999, 1000), 99999, 1000);
  const needed: number = research.roo.sampleComplexity(9, 0.1, 1).subrr;
  const loss: number = research.channelLdp([[0.5, 0.5], [0.25, 0.75]], [0]).pureEpsilon;
  const pmf: Float64Array = research.normalise([3, 1]);
  const near: boolean = research.classMembership.neighbourhood([3, 1], { prior: [1, 1], gamma: 2 }).inside;
  const ratio: number = research.classMembership.density(pmf, { reference: [1, 1], c2: 4 }).maxRatio;
  const pMin: number | undefined = report.prior?.minMass;
  void [mu8, table, worstPair, needed, loss, near, ratio, pMin];
  const baseline = research.mbde(research.grid1d({ lo: -4, hi: 4, cells: 50 }), new Float64Array(50).fill(1), { epsilon: 1, seed: 3 });
  const reference: Float64Array = baseline.reference;
  void [ps.version, ps.maxCategories, ps.mechanisms, bits, curve, floor, weight, profile, reference, disposed, again];
  return s.sample(new Uint32Array([3, 1, 4]));
}

async function misuse(): Promise<void> {
  const ps = await init();
  // @ts-expect-error unknown mechanism name
  ps.sampler('laplace', { epsilon: 1 });
  // @ts-expect-error epsilon is required
  ps.sampler('minimax', {});
  // @ts-expect-error records are required by ROO
  ps.sampler('roo', { epsilon: 1 });
  // @ts-expect-error mu excludes epsilon
  ps.sampler('linear', { epsilon: 1, mu: 1 });
  // @ts-expect-error the local samplers need a prior
  ps.sampler('local', { epsilon: 1, gamma: 2 });
  // @ts-expect-error outsideNeighbourhood is 'clip' or 'projection'
  ps.sampler('local', { epsilon: 1, prior: [0.5, 0.5], gamma: 2, outsideNeighbourhood: 'project' });
  // @ts-expect-error only 'local' takes outsideNeighbourhood
  ps.sampler('local-linear', { epsilon: 1, prior: [0.5, 0.5], gamma: 2, outsideNeighbourhood: 'clip' });
  const s = ps.sampler('minimax', { epsilon: 1 });
  // @ts-expect-error unknown divergence name
  s.worstCaseRisk('js', 3);
  // @ts-expect-error histograms are numbers
  s.distribution(['a', 'b']);
  const research = await initResearch();
  // @ts-expect-error MBDE presets are 'reduced' or 'paper'
  research.mbde(research.grid1d({ lo: 0, hi: 1, cells: 4 }), [1, 1, 1, 1], { epsilon: 1, preset: 'fast' });
  // @ts-expect-error the accountant takes a sampler, not a name
  research.accountant('minimax', { k: 3 });
  // @ts-expect-error the histogram entry has no accountant (it is in 'privsample/research')
  ps.accountant(s, { k: 3 });
  // @ts-expect-error init takes wasm sources, not a path option
  init({ path: './x.wasm' });
  // @ts-expect-error the guarantee is read-only
  s.guarantee.epsilon = 5;
}

async function continuous(): Promise<[number, number]> {
  const ps = await initResearch();
  const line: Grid1D = ps.grid1d({ lo: -4, hi: 4, cells: 800 });
  const plane: Grid2D = ps.grid2d({ xLo: -3, xHi: 3, nx: 500, yLo: -3, yHi: 3, ny: 500 });
  const cells: number = plane.cells;
  const envelope: Float64Array = ps.densities.gaussianMixtureEnvelope(line, { sigma: 1 });
  const ringPlane = ps.grid2d({ xLo: -3, xHi: 3, nx: 30, yLo: -3, yHi: 3, ny: 30 });
  const ringEnvelope: Float64Array = ps.densities.ringEnvelope(ringPlane, { variance: 0.5, radius: 1 });
  const mixtures: readonly MixtureParameters[] = ps.seededRandomMixtures({ seed: 1, count: 3, poissonMean: 2, maxComponents: 10 });
  const firstMeans: Float64Array = mixtures[0].means;
  void ringEnvelope;
  void firstMeans;
  // @ts-expect-error the 2-D ring envelope takes a 2-D grid
  ps.densities.ringEnvelope(line);
  // @ts-expect-error seededRandomMixtures needs a seed
  ps.seededRandomMixtures({ count: 3 });
  const p: Float64Array = ps.densities.gaussianMixture(line, { means: [0.5, -1], sigma: 1, weights: [1, 2] });
  const clip: ContinuousSampler = ps.continuousSampler('minimax', { epsilon: 0.5, reference: envelope, c2: 1 });
  const x: number = clip.samplePoint(line, p);
  const r: number | null = clip.normaliser(p);
  const risk: number = clip.worstCaseRisk('kl');
  const q: Float64Array = clip.distribution(p);
  const linear = ps.continuousSampler('linear', { epsilon: 1, delta: 1e-6, reference: envelope, c1: 0, c2: 1 });
  const ring = ps.densities.ring(plane, { variance: 0.5 });
  const kde = ps.densities.kernelDensity(plane, [[0, 1], [1, 0]], { bandwidth: 0.2 });
  const flat = ps.densities.laplaceMixture(plane, { means: new Float64Array([0, 0, 1, 1]), scale: 0.5 });
  const local = ps.continuousSampler('local', { epsilon: 1, prior: ring, gamma: 4 });
  const gdp = ps.continuousSampler('local-linear', { mu: 1, prior: ring, gamma: 4 });
  const any: Grid = Math.sqrt(2) > 1 ? line : plane;
  const either: number | [number, number] = local.samplePoint(any, kde);
  void [cells, x, r, risk, q, linear.guarantee, flat, gdp.cells, either, ps.continuousMechanisms];
  return local.samplePoint(plane, kde);
}

async function continuousMisuse(): Promise<void> {
  const ps = await initResearch();
  const line = ps.grid1d({ lo: 0, hi: 1, cells: 10 });
  const plane = ps.grid2d({ xLo: 0, xHi: 1, nx: 2, yLo: 0, yHi: 1, ny: 5 });
  const h = ps.densities.gaussianMixtureEnvelope(line);
  // @ts-expect-error the ring is 2-D only
  ps.densities.ring(line);
  // @ts-expect-error the clip sampler needs c2
  ps.continuousSampler('minimax', { epsilon: 1, reference: h });
  // @ts-expect-error 'local' needs a prior, not a reference
  ps.continuousSampler('local', { epsilon: 1, reference: h, gamma: 2 });
  // @ts-expect-error mu excludes epsilon
  ps.continuousSampler('local-linear', { epsilon: 1, mu: 1, prior: h, gamma: 2 });
  // @ts-expect-error unknown continuous mechanism
  ps.continuousSampler('mollifier', { epsilon: 1 });
  const s = ps.continuousSampler('minimax', { epsilon: 1, reference: h, c2: 1 });
  // @ts-expect-error a 1-D grid yields a number, not a pair
  const pair: [number, number] = s.samplePoint(line, h);
  // @ts-expect-error a 2-D grid yields a pair
  const one: number = s.samplePoint(plane, h);
  // @ts-expect-error 2-D means are pairs
  ps.densities.gaussianMixture(plane, { means: [[0, 0, 0]], sigma: 1 });
  // @ts-expect-error grids are read-only
  line.cells = 3;
  // @ts-expect-error worstCaseRisk on a continuous sampler takes no k
  s.worstCaseRisk('kl', 3);
  void [pair, one];
}

void privatize([1, 2, 3]);
void continuous;
void continuousMisuse;
void misuse;

// The analyst's side: estimates from counts, simulation of N users, accounting for the collection.
async function analyse(counts: number[]): Promise<number> {
  const ps = await initResearch();
  const s = ps.sampler('linear', { epsilon: 1 });
  const report: EstimateReport = ps.estimate(s, counts, { alpha: 0.05, divergence: 'tv', pointMasses: false });
  const q: Float64Array = report.released.q;
  const radius: number | null = report.released.radius;
  const p: Float64Array | undefined = report.population?.projected;
  const sim: SimulationResult = ps.simulate(s, { population: [0.5, 0.3, 0.2], users: 1000, seed: 1 });
  const tv: number | undefined = sim.errors.population?.tv;
  ps.simulate(s, { model: 'dirichlet', population: [0.5, 0.5], users: 10, concentration: 2 });
  ps.simulate(s, { model: 'given', users: [[1, 0], [0.5, 0.5]] });
  // @ts-expect-error 'given' takes the users' histograms, not a count
  ps.simulate(s, { model: 'given', users: 10 });
  const model: Float64Array | null = sim.model;
  const warnings: readonly string[] = report.pointMasses?.warnings ?? [];
  const caveat: string | null | undefined = report.population?.caveat;
  const covered: string = report.released.target + report.released.intervalMethod + (report.population?.target ?? '');
  const loss: PrivacyLoss = ps.collection.compose({ epsilon: 0.1, reports: 100, deltaPrime: 1e-6, method: 'advanced' });
  const optimal: PrivacyLoss =
    ps.collection.compose({ epsilon: 0.1, reports: 100, deltaPrime: 1e-6, method: 'optimal' });
  const chosen: 'basic' | 'advanced' | 'optimal' = ps.collection.compose({ epsilon: 1, reports: 10 }).method;
  const shuffled: ShuffleBound = ps.collection.shuffle({ epsilon0: 1, users: 1e5, delta: 1e-6, method: 'closed-form' });
  const printed: ShuffleBound =
    ps.collection.shuffle({ epsilon0: 1, users: 1e5, delta: 1e-6, method: 'closed-form-printed' });
  const precise: number = ps.collection.shuffle({ epsilon0: 1, users: 1e5, delta: 1e-6, precision: 1e-6 }).epsilonLower;
  // @ts-expect-error unknown shuffle method
  ps.collection.shuffle({ epsilon0: 1, users: 1e5, delta: 1e-6, method: 'magic' });
  void [model, warnings, caveat, covered, chosen];
  return q[0] + (radius ?? 0) + (p?.[0] ?? 0) + (tv ?? 0) + loss.epsilon + optimal.epsilon + shuffled.epsilon +
    printed.epsilon + precise;
}
void analyse;

// The registry: names and rules from the core.
export async function registryUsage(): Promise<void> {
  const ps: Privsample = await init();
  const finite: string[] = ps.registry.mechanisms.filter((m) => m.space === 'finite').map((m) => m.name);
  const kinds: ('number' | 'numbers' | 'text')[] = ps.registry.options.map((o) => o.kind);
  const c1: number | undefined = ps.registry.mechanisms[0].defaults.c1;
  void [finite, kinds, c1];
}

// The privacy-budget ledger: budgets per notion, storage back-ends, async methods; also on the research entry.
export async function ledgerUsage(hist: number[]): Promise<number> {
  const ps: Privsample = await init();
  const budgets: Record<string, LedgerBudget> = {
    survey: { epsilon: 2 },
    approx: { epsilon: 2, delta: 1e-6 },
    gauss: { mu: 1 },
    records: { notion: 'record-dp', epsilon: 3 },
  };
  const storage: LedgerStorage = ps.ledgerStorage.indexedDB({ database: 'my-page' });
  const ledger: Ledger = await ps.ledger({ storage, budgets });
  ps.ledger({ storage: ps.ledgerStorage.localStorage({ key: 'my-page' }) }); // reads only
  // @ts-expect-error ps.ledger() is a promise (it loads the ledger on first use)
  ps.ledger().spent('survey');
  ps.ledger({ storage: ps.ledgerStorage.indexedDB({ database: 'db' }) });
  ps.ledger();
  // A storage of one's own: sync or async get/set, with an atomic update(fn) or a lockName, or private to the realm.
  let kept: string | null = null;
  ps.ledger({ storage: { get: () => kept, set: (text: string) => { kept = text; } } });
  ps.ledger({ storage: { get: () => kept, set: (text: string) => { kept = text; }, lockName: 'my-ledger' } });
  const atomic: LedgerStorage = {
    get: async () => kept,
    set: async (text: string) => { kept = text; },
    update: async (fn) => { kept = fn(kept); },
  };
  ps.ledger({ storage: atomic });
  // @ts-expect-error update's function returns the new text
  ps.ledger({ storage: { get: () => kept, set: () => {}, update: (fn: (text: string | null) => number) => { fn(null); } } });
  // @ts-expect-error a storage needs set(text) too
  ps.ledger({ storage: { get: () => kept, update: (fn: (text: string | null) => string) => { kept = fn(kept); } } });
  const category: number = await ledger.release(ps.sampler('minimax', { epsilon: 1 }), hist, { purpose: 'survey' });
  const spent: LedgerSpent = await ledger.spent('survey');
  const left: LedgerTotal | null = await ledger.remaining('survey');
  const entries: readonly LedgerEntry[] = await ledger.entries('survey');
  const when: number = entries[0].time;
  await ledger.clear('survey');
  const eps: number = spent.notion === 'gaussian-ldp' ? spent.mu : spent.epsilon;
  // @ts-expect-error a release needs a purpose
  await ledger.release(ps.sampler('minimax', { epsilon: 1 }), hist);
  // @ts-expect-error a budget is epsilon[, delta] or mu, not both
  ps.ledger({ budgets: { bad: { epsilon: 1, mu: 1 } } });
  // @ts-expect-error a record-dp budget has no delta
  ps.ledger({ budgets: { bad: { notion: 'record-dp', epsilon: 1, delta: 0.1 } } });
  const research = await initResearch();
  const theirs: Ledger = await research.ledger({ storage: research.ledgerStorage.memory() });
  void [left, theirs];
  return category + eps + when + spent.releases;
}
