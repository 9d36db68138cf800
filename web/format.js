// Formatting helpers: numbers → text. No mathematics here beyond rounding for display.

/** ε as shown next to the slider and on the charts: at most 3 significant digits, no trailing zeros. */
export function formatEpsilon(epsilon) {
  return String(Number(epsilon.toPrecision(3)));
}

/** A probability: 4 decimals, or scientific notation when tiny. */
export function formatProbability(value) {
  if (value === 0) return '0';
  if (Math.abs(value) < 0.001) return value.toExponential(2);
  return value.toFixed(4);
}

/** A divergence or other non-negative quantity. */
export function formatNumber(value) {
  if (value === 0) return '0';
  if (Math.abs(value) < 0.001 || Math.abs(value) >= 1e6) return value.toExponential(3);
  return value.toPrecision(4);
}
