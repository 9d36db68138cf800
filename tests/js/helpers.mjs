// Shared helpers of the JS tests: closeness checks and a chi-square goodness-of-fit test.
import assert from 'node:assert/strict';

export function assertClose(actual, expected, tolerance, label = '') {
  assert.equal(actual.length, expected.length, `${label}: length`);
  for (let i = 0; i < expected.length; i += 1) {
    assert.ok(Math.abs(actual[i] - expected[i]) <= tolerance, `${label}[${i}] = ${actual[i]}, expected ${expected[i]} ± ${tolerance}`);
  }
}

// Upper tail of the chi-square distribution for an even number of degrees of freedom 2m:
// P(X > x) = e^{-x/2} Σ_{i<m} (x/2)^i / i!.
export function chiSquareUpperTailEvenDf(x, degreesOfFreedom) {
  assert.equal(degreesOfFreedom % 2, 0, 'even degrees of freedom only');
  let term = 1;
  let sum = 1;
  for (let i = 1; i < degreesOfFreedom / 2; i += 1) {
    term *= x / 2 / i;
    sum += term;
  }
  return Math.exp(-x / 2) * sum;
}

// Pearson's statistic of observed category counts against expected probabilities; returns { statistic, pValue }.
// Uses k − 1 degrees of freedom, rounded up to an even number (a slightly conservative p-value when k − 1 is odd).
export function chiSquareTest(draws, probabilities) {
  const k = probabilities.length;
  const counts = new Float64Array(k);
  for (const x of draws) counts[x] += 1;
  let statistic = 0;
  for (let i = 0; i < k; i += 1) {
    const expected = draws.length * probabilities[i];
    statistic += (counts[i] - expected) ** 2 / expected;
  }
  const df = (k - 1) % 2 === 0 ? k - 1 : k;
  return { statistic, pValue: chiSquareUpperTailEvenDf(statistic, df), counts };
}
