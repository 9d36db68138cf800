// The demo's privacy budgets, defined once: the log-scale ε slider of every page and the ε grids the curves are
// drawn over. They are x values only (which ε to ask the library about), no mechanism maths.

/** Slider positions are log10(ε)·100: from −200 (ε = 0.01) to 100 (ε = 10) on the histogram and continuous pages. */
export const SLIDER_RANGE = Object.freeze({ min: -200, max: 100, lowest: 0.01, highest: 10 });

/** ε at a slider position (log10(ε)·100), rounded to `digits` significant digits as shown next to the slider. */
export function epsilonFromSlider(position, digits = 3) {
  return Number((10 ** (Number(position) / 100)).toPrecision(digits));
}

/** The x values of the divergence-versus-ε curves: 31 log-spaced budgets from 0.01 to 10 (10 per decade). */
export const CURVE_EPSILONS = Object.freeze(
  Array.from({ length: 31 }, (_, i) => Number((10 ** (-2 + (3 * i) / 30)).toPrecision(6))),
);

/** The budgets of the many-users simulations (each point is several simulated populations, so fewer of them). */
export const SIMULATION_EPSILONS = Object.freeze([0.1, 0.2, 0.5, 1, 2, 4, 7, 10]);
