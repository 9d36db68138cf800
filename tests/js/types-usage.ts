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
  const notion: 'pure-ldp' = g.notion;
  const f: DivergenceName = 'hellinger';
  const risk: number = s.worstCaseRisk(f, q.length);
  const own: number = ps.divergence('kl', hist, q);
  const linear = ps.sampler('linear', { epsilon: 0.5 });
  void [r, many, secure, notion, risk, own, linear.mechanism, ps.version, ps.maxCategories, ps.mechanisms];
  return s.sample(new Uint32Array([3, 1, 4]));
}

async function misuse(): Promise<void> {
  const ps = await init();
  // @ts-expect-error unknown mechanism name
  ps.sampler('laplace', { epsilon: 1 });
  // @ts-expect-error epsilon is required
  ps.sampler('minimax', {});
  const s = ps.sampler('minimax', { epsilon: 1 });
  // @ts-expect-error unknown divergence name
  s.worstCaseRisk('js', 3);
  // @ts-expect-error histograms are numbers
  s.distribution(['a', 'b']);
  // @ts-expect-error the guarantee is read-only
  s.guarantee.epsilon = 5;
}

void privatize([1, 2, 3]);
void misuse;
