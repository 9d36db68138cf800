// Seeded generator for the EXPERIMENT SETUP of the reproductions only (the random mixtures' parameters):
// splitmix64 expands the seed into the state of xoshiro256** (Blackman & Vigna), doubles take the top 53 bits.
// It is deterministic and NOT secure, and it plays no part in any privacy sampling (the library's samplers are
// not called to draw here at all: the figures compare exact output densities). The papers' code used numpy's
// default_rng (PCG64), so the individual mixtures differ from theirs; seeds and the draw order are kept.
const MASK = (1n << 64n) - 1n;
const rotl = (x, k) => ((x << BigInt(k)) | (x >> BigInt(64 - k))) & MASK;

export function splitmix64(seed) {
  let state = BigInt.asUintN(64, BigInt(seed));
  return () => {
    state = (state + 0x9e3779b97f4a7c15n) & MASK;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  };
}

/** xoshiro256** seeded by splitmix64(seed); returns { next64, uniform }: uniform() is in [0, 1). */
export function xoshiro256ss(seed) {
  const sm = splitmix64(seed);
  const s = [sm(), sm(), sm(), sm()];
  function next64() {
    const result = (rotl((s[1] * 5n) & MASK, 7) * 9n) & MASK;
    const t = (s[1] << 17n) & MASK;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }
  const uniform = () => Number(next64() >> 11n) / 2 ** 53;
  return { next64, uniform };
}

/**
 * The papers' random mixture (Park et al. §5.2 eq. 208 / Ghoukasian et al. Fig. 4; docs/experiments.md), in their draw order:
 *   k = min(Poisson(k0) + 1, K);  means m_i ~ U[−1, 1] iid;  weights ~ Dirichlet(1, …, 1) (normalised Exp(1)).
 * Poisson by Knuth's product of uniforms; U[−1, 1] as 2u − 1; Exp(1) as −log(1 − u).
 */
export function randomMixtures(seed, count, { k0 = 2, K = 10 } = {}) {
  const rng = xoshiro256ss(seed);
  const out = [];
  const limit = Math.exp(-k0);
  for (let c = 0; c < count; c += 1) {
    let poisson = 0;
    for (let prod = rng.uniform(); prod > limit; prod *= rng.uniform()) poisson += 1;
    const k = Math.min(poisson + 1, K);
    const means = Array.from({ length: k }, () => 2 * rng.uniform() - 1);
    const exps = Array.from({ length: k }, () => -Math.log(1 - rng.uniform()));
    const total = exps.reduce((a, b) => a + b, 0);
    out.push({ means, weights: exps.map((e) => e / total) });
  }
  return out;
}
