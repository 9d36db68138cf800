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

/**
 * A label of a log axis: one per decade, written 1e-15 outside [0.001, 10^4) and as a plain number inside it; ''
 * between decades. (Chart.js's own labels print 1e-15 as 0.0000000000000010.)
 */
export function formatLogTick(value) {
  const v = Number(value);
  if (!(v > 0)) return '';
  const exponent = Math.floor(Math.log10(v) + 1e-9);
  if (Math.abs(v / 10 ** exponent - 1) > 1e-6) return '';
  return exponent >= -3 && exponent < 4 ? String(Number(v.toPrecision(1))) : `1e${exponent}`;
}

/**
 * A label of a heat map's colour bar, in the 44 px beside it: cell masses of fine grids are ~1e-6, which
 * toPrecision(2) writes as 0.0000040 (cut to "0.00000"), so values below 0.01 are written 4.0e-6.
 */
export function formatColourBarLabel(v) {
  if (v === 0) return '0';
  return Math.abs(v) < 0.01 ? v.toExponential(1) : v.toPrecision(2);
}
