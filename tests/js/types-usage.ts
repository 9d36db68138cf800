// Compiled with `tsc --noEmit` in npm test: privsample.d.ts must describe the API a user writes against.
// The @ts-expect-error lines fail the compile if the declarations stop rejecting misuse.
import { init, type DivergenceName, type Guarantee, type Histogram, type Privsample, type Sampler } from 'privsample';

async function privatize(hist: Histogram): Promise<number> {
  const ps: Privsample = await init();
  const s: Sampler = ps.sampler('minimax', { epsilon: 1 });
  const q: Float64Array = s.distribution(hist);
  const r: number | null = s.normaliser(hist);
  const many: Uint32Array = s.sampleMany(hist, 10, { seed: 42 });
  const secure: Uint32Array = s.sampleMany(hist, 10);
  const g: Guarantee = s.guarantee;
  const notion: string = g.notion === 'record-dp' ? `${g.epsilon}-DP per record of ${g.records}` : g.notion;
  const f: DivergenceName = 'hellinger';
  const risk: number = s.worstCaseRisk(f, q.length);
  const own: number = ps.divergence('kl', hist, q);
  const linear = ps.sampler('linear', { epsilon: 0.5 });
  const approx = ps.sampler('linear', { epsilon: 0.5, delta: 1e-6 });
  const gaussian = ps.sampler('local-linear', { mu: 1, prior: [0.5, 0.5], gamma: 2 });
  const roo = ps.sampler('ds-roo', { epsilon: 1, records: 8 });
  const local = ps.sampler('local', { epsilon: 1, prior: new Float64Array([0.25, 0.75]), gamma: 3 });
  const gdp = gaussian.guarantee;
  const mu: number = gdp.notion === 'gaussian-ldp' ? gdp.mu : 0;
  void [r, many, secure, notion, risk, own, linear.mechanism, approx, roo, local, mu];
  const report = ps.accountant(local, { prior: [0.5, 0.5] });
  const bits: number = report.prior ? report.prior.mutualInformation : report.capacity.upper;
  const curve: Float64Array = report.ldp.delta;
  const floor: number = ps.lmidp.ldpDeltaFloorFromCapacity(0.1);
  void [ps.version, ps.maxCategories, ps.mechanisms, bits, curve, floor];
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
  const s = ps.sampler('minimax', { epsilon: 1 });
  // @ts-expect-error unknown divergence name
  s.worstCaseRisk('js', 3);
  // @ts-expect-error histograms are numbers
  s.distribution(['a', 'b']);
  // @ts-expect-error the accountant takes a sampler, not a name
  ps.accountant('minimax', { k: 3 });
  // @ts-expect-error the guarantee is read-only
  s.guarantee.epsilon = 5;
}

void privatize([1, 2, 3]);
void misuse;
