// Explicit resource management, compiled by tests/types/matrix.mjs where the lib declares Symbol.dispose: a sampler is
// Disposable there (elsewhere its dispose() is the way).
import { init } from 'privsample';

export async function once(hist: readonly number[]): Promise<number> {
  const ps = await init();
  using s = ps.sampler('minimax', { epsilon: 1 });
  return s.sample(hist);
}
