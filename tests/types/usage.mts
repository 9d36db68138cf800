// An ES-module consumer of both entries, compiled by tests/types/matrix.mjs under every setting of its matrix: what a
// TypeScript user writes, checked against the package's declarations without skipLibCheck.
import { init, type Guarantee, type InitOptions, type Ledger, type Privsample, type Sampler } from 'privsample';
import { init as initResearch, type PrivsampleResearch } from 'privsample/research';

export async function privatize(hist: readonly number[]): Promise<number> {
  const ps: Privsample = await init();
  const s: Sampler = ps.sampler('minimax', { epsilon: 1 });
  const q: Float64Array = s.distribution(hist);
  const g: Guarantee = s.guarantee;
  const options: InitOptions = { wasm: ps.wasmModule };
  const again: Privsample = await init(options);
  const ledger: Ledger = await ps.ledger({ budgets: { survey: { epsilon: 2 } } });
  const released: number = await ledger.release(s, hist, { purpose: 'survey' });
  const research: PrivsampleResearch = await initResearch();
  const bits: number = research.accountant(s, { k: q.length }).capacity.upper;
  // @ts-expect-error: an unknown mechanism is a type error in every setting
  ps.sampler('no-such-mechanism', { epsilon: 1 });
  // @ts-expect-error: 'local' needs its prior and gamma
  ps.sampler('local', { epsilon: 1 });
  s.dispose();
  void [g, again, released, bits];
  return s.disposed ? 0 : 1;
}
