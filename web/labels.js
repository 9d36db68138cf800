// What the demo calls things, defined once for every page: divergence labels (the library names divergences
// 'kl' | 'tv' | 'hellinger' | 'chi2' but has no display labels) and the continuous page's two samplers in its
// setting. The mechanisms' names, plain-language lines and colours come from the library's registry (mechanisms.js).

/** Display labels of the library's divergence names: short (legends), symbol (sentences), axis (chart titles). */
export const DIVERGENCE_LABELS = Object.freeze({
  kl: Object.freeze({ short: 'KL', symbol: 'D_KL', axis: 'D_KL(P‖Q)' }),
  tv: Object.freeze({ short: 'TV', symbol: 'TV', axis: 'TV(P, Q)' }),
  hellinger: Object.freeze({ short: 'H²', symbol: 'H²', axis: 'H²(P, Q) = ½Σ(√P − √Q)²' }),
  chi2: Object.freeze({ short: 'χ²', symbol: 'χ²', axis: 'χ²(P‖Q)' }),
});

/** The continuous samplers of the continuous page, in plain language. */
export const CONTINUOUS_EXPLAIN = {
  local:
    'Local clip sampler (Ghoukasian, Lee, Asoodeh): clips P/r into a box around the public prior P0; ε-LDP for every P, and locally minimax-optimal for densities within a factor γ of P0 (the dashed curves are the worst case over them).',
  minimax:
    'Minimax clip sampler (Park, Asoodeh, Lee, Thm 3.3) for the class p ≤ 12·h, h = N(0, 1.5²I) on the square: it holds the ring and the Laplace mixture (dashed: the worst case over that class); ε-LDP for every P, even one outside the class.',
};
