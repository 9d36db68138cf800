// What the demo calls things, defined once for every page: divergence labels (the library names divergences
// 'kl' | 'tv' | 'hellinger' | 'chi2' but has no display labels) and the plain-language names and explanations of
// the mechanisms (which mechanism takes which option comes from ps.registry, not from here).

/** Display labels of the library's divergence names: short (legends), symbol (sentences), axis (chart titles). */
export const DIVERGENCE_LABELS = Object.freeze({
  kl: Object.freeze({ short: 'KL', symbol: 'D_KL', axis: 'D_KL(P‖Q)' }),
  tv: Object.freeze({ short: 'TV', symbol: 'TV', axis: 'TV(P, Q)' }),
  hellinger: Object.freeze({ short: 'H²', symbol: 'H²', axis: 'H²(P, Q) = ½Σ(√P − √Q)²' }),
  chi2: Object.freeze({ short: 'χ²', symbol: 'χ²', axis: 'χ²(P‖Q)' }),
});

/** One plain-language line per mechanism (what it does; the guarantee line below says what it promises). */
export const MECHANISMS = {
  minimax: {
    name: 'minimax',
    short: 'the minimax sampler',
    explain:
      'Minimax-optimal clip sampler (Park, Asoodeh, Lee): scales P and clips it into the privacy box, so no category falls below 1/(e^ε+k−1). The smallest worst-case loss of any ε-LDP sampler.',
  },
  linear: {
    name: 'linear',
    short: 'the linear sampler',
    explain:
      'Linear sampler: draws one category from P, then keeps it or replaces it by a uniformly random category (randomized response). Can also give (ε, δ)- or Gaussian LDP.',
  },
  mollifier: {
    name: 'mollifier',
    short: 'the relative mollifier',
    explain:
      'Relative mollifier (Husain et al.): the distribution closest to P among those within a factor e^ε of a reference (here uniform).',
  },
  local: {
    name: 'local',
    short: 'the local clip sampler',
    explain:
      'Local clip sampler (Ghoukasian, Lee, Asoodeh): uses a public prior P0 and is optimal for histograms within a factor γ of it; much closer to P when P looks like P0.',
  },
  'local-linear': {
    name: 'local linear',
    short: 'the local linear sampler',
    explain:
      'Local linear sampler (Ghoukasian, Lee, Asoodeh): mixes P with the public prior P0 just enough for privacy; pure, (ε, δ)- or Gaussian LDP.',
  },
  roo: {
    name: 'ROO',
    short: 'Reveal-or-Obscure',
    explain:
      'Reveal-or-Obscure (Tasnim et al.): treats your counts as n records; with some probability reveals one of them at random, otherwise releases a random category. Counts must be whole numbers.',
  },
  'ds-roo': {
    name: 'DS-ROO',
    short: 'data-specific Reveal-or-Obscure',
    explain:
      'Data-specific Reveal-or-Obscure (Tasnim et al., corrected): like ROO, but the obscuring step depends on your smallest count. Counts must be whole numbers.',
  },
  'laplace-projection': {
    name: 'Laplace',
    short: 'Laplace + projection',
    explain:
      'Laplace baseline: adds Laplace(2/ε) noise to your counts, clips and renormalises them, then draws one category. No closed-form worst case. Counts must be whole numbers.',
  },
};

/** A mechanism's short name in sentences ("the minimax sampler"), or its library name. */
export const shortName = (mechanism) => MECHANISMS[mechanism]?.short ?? mechanism;

/** The continuous samplers of the continuous page, in plain language. */
export const CONTINUOUS_EXPLAIN = {
  local:
    'Local clip sampler (Ghoukasian, Lee, Asoodeh): clips P/r into a box around the public prior P0; ε-LDP for every P, and locally minimax-optimal for densities within a factor γ of P0 (the dashed curves are the worst case over them).',
  minimax:
    'Minimax clip sampler (Park, Asoodeh, Lee, Thm 3.3) for the class p ≤ 12·h, h = N(0, 1.5²I) on the square: it holds the ring and the Laplace mixture (dashed: the worst case over that class); ε-LDP for every P, even one outside the class.',
};
