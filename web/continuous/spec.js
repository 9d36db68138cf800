// The continuous page's controls read into a spec (the worker's input): the density family, the grid, the points
// typed or clicked, the mechanism and its public density. The page checks that fields hold numbers; the library
// checks their values (γ > 1, bandwidth, points) and says what is wrong.
import { isPlainNumber } from '../validate.js';

const MAX_POINTS = 2000;

/** "x, y" pairs, one per line (also ';'-separated); returns { points } or { error }. */
export function parsePoints(text) {
  const points = [];
  const entries = text.split(/[\n;]/);
  for (let i = 0; i < entries.length; i += 1) {
    const line = entries[i].trim();
    if (line === '') continue;
    const parts = line.split(/[\s,]+/).filter((s) => s !== '');
    const values = parts.map(Number);
    if (parts.length !== 2 || !values.every(Number.isFinite)) {
      return { error: `line ${i + 1} ("${line.slice(0, 40)}"): expected two numbers x, y` };
    }
    points.push(values);
  }
  if (points.length > MAX_POINTS) return { error: `${points.length} points: at most ${MAX_POINTS}` };
  return { points };
}

/**
 * The spec of the controls (without ε) and what keeps it from being one: { spec | null, densityError, optionsError,
 * pointsCount } (pointsCount: the text next to the points box, or null when the family has no points).
 */
export function readSpec(el) {
  const family = el.family.value;
  const spec = { n: Number(el.grid.value), family, mechanism: el.mechanism.value, points: [], bandwidth: 0, prior: el.prior.value, gamma: 4 };
  let densityError = null;
  let optionsError = null;
  let pointsCount = null;
  if (family === 'points') {
    const parsed = parsePoints(el.points.value);
    if (parsed.error) densityError = parsed.error;
    else if (parsed.points.length === 0) densityError = 'No points yet: click on the left map or paste x, y pairs.';
    else spec.points = parsed.points;
    pointsCount = parsed.points ? `${parsed.points.length} point${parsed.points.length === 1 ? '' : 's'}` : '';
    const bandwidth = Number(el.bandwidth.value.trim() === '' ? '0' : el.bandwidth.value);
    if (!Number.isFinite(bandwidth) || bandwidth < 0) densityError ??= `bandwidth "${el.bandwidth.value}": enter 0 (Scott's rule) or a positive number`;
    else spec.bandwidth = bandwidth;
  }
  if (spec.mechanism === 'local') {
    // Only "is it a number" here: γ's range is the library's rule, and its RangeError is shown next to the options.
    if (!isPlainNumber(el.gamma.value)) optionsError = `γ = "${el.gamma.value}": enter a number above 1`;
    else spec.gamma = Number(el.gamma.value);
  }
  return { spec: densityError || optionsError ? null : spec, densityError, optionsError, pointsCount };
}
