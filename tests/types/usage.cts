// A CommonJS consumer (require() of the package, Node >= 20.19), compiled by tests/types/matrix.mjs under module
// node16 and nodenext: the "require" condition's declarations (bindings/js/*.d.cts).
import { init, type Sampler } from 'privsample';
import { init as initResearch } from 'privsample/research';

export async function privatize(hist: readonly number[]): Promise<number> {
  const ps = await init();
  const s: Sampler = ps.sampler('linear', { epsilon: 1, delta: 1e-6 });
  const research = await initResearch();
  const pmf: Float64Array = research.normalise(hist);
  // @ts-expect-error: 'linear' takes epsilon (and delta) or mu, not both
  ps.sampler('linear', { epsilon: 1, mu: 1 });
  return s.sample(pmf);
}
