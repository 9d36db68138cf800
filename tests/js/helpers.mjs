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

// Degrees of freedom rounded up to an even number, for chiSquareUpperTailEvenDf: a slightly conservative p-value
// when they are odd.
const evenDegreesOfFreedom = (df) => (df % 2 === 0 ? df : df + 1);

function countsOf(draws, k) {
  const counts = new Float64Array(k);
  for (const x of draws) counts[x] += 1;
  return counts;
}

// Pearson's statistic of observed category counts against expected probabilities; returns { statistic, pValue }.
// Uses k − 1 degrees of freedom, rounded up to an even number.
export function chiSquareTest(draws, probabilities) {
  const k = probabilities.length;
  const counts = countsOf(draws, k);
  let statistic = 0;
  for (let i = 0; i < k; i += 1) {
    const expected = draws.length * probabilities[i];
    statistic += (counts[i] - expected) ** 2 / expected;
  }
  return { statistic, pValue: chiSquareUpperTailEvenDf(statistic, evenDegreesOfFreedom(k - 1)), counts };
}

// Pearson's p-value with the categories expected fewer than 5 times pooled into one; a draw where q = 0 gives 0.
export function pooledChiSquarePValue(draws, q) {
  const counts = countsOf(draws, q.length);
  let statistic = 0;
  let bins = 0;
  let pooledExpected = 0;
  let pooledObserved = 0;
  for (let x = 0; x < q.length; x += 1) {
    const expected = draws.length * q[x];
    if (q[x] === 0) {
      if (counts[x] > 0) return 0;
    } else if (expected < 5) {
      pooledExpected += expected;
      pooledObserved += counts[x];
    } else {
      statistic += (counts[x] - expected) ** 2 / expected;
      bins += 1;
    }
  }
  if (pooledExpected > 0) {
    statistic += (pooledObserved - pooledExpected) ** 2 / Math.max(pooledExpected, 1);
    bins += 1;
  }
  if (bins < 2) return 1;
  return chiSquareUpperTailEvenDf(statistic, evenDegreesOfFreedom(bins - 1));
}

// The bad-input checker of a test file: each call asserts that run() throws ErrorType with a message matching pattern,
// then calls stillWorks(), since docs/design.md#errors asks that the module stays usable after any error.
export function errorChecker(stillWorks) {
  return (run, ErrorType, pattern) => {
    assert.throws(run, (error) => {
      assert.ok(error instanceof ErrorType, `expected ${ErrorType.name}, got ${error?.constructor?.name}: ${error?.message ?? error}`);
      assert.match(error.message, pattern);
      return true;
    });
    stillWorks();
  };
}

// An entry of the experiments' registry (experiments/index.mjs) in the shared format: its paper, a figure label, a
// title, a run function, whether it is a closed form, set-ups that are plain JSON, and an erratum that, when present,
// is a non-empty string.
export function assertEntryFormat(entry, paper) {
  assert.equal(entry.paper, paper, entry.name);
  assert.equal(typeof entry.figure, 'string', entry.name);
  assert.equal(typeof entry.title, 'string', entry.name);
  assert.equal(typeof entry.run, 'function', entry.name);
  assert.equal(typeof entry.closedForm, 'boolean', entry.name);
  assert.deepEqual(JSON.parse(JSON.stringify(entry.setup)), entry.setup, `${entry.name}: setup is plain JSON`);
  assert.deepEqual(JSON.parse(JSON.stringify(entry.quick)), entry.quick, `${entry.name}: quick is plain JSON`);
  assert.ok(entry.erratum === undefined || (typeof entry.erratum === 'string' && entry.erratum.length > 0), `${entry.name}: erratum`);
}

// A paper's entries of the registry, in the shared format: exactly the names of `expected`, in its order, each with the
// figure label, the erratum (present or not) and, where given, the closed-form flag that `expected` names.
export function assertPaperEntries(entries, paper, expected) {
  assert.deepEqual(entries.map((e) => e.name), Object.keys(expected));
  for (const e of entries) {
    const want = expected[e.name];
    assertEntryFormat(e, paper);
    assert.equal(e.figure, want.figure, e.name);
    assert.equal(typeof e.erratum === 'string', want.erratum, `${e.name}: erratum`);
    if (want.closedForm !== undefined) assert.equal(e.closedForm, want.closedForm, `${e.name}: closed form`);
  }
}

// An experiment's result passed: every privacy / bound check is ok, every value the paper prints matches ours, and the
// table's rows have one cell per column. With { limits: true } (experiments whose checks are all "value <= limit" and
// whose printed values carry a tolerance) also: value and limit finite, ok agrees with value <= limit, and the printed
// value is within its tolerance.
export function assertResultPassed(result, { limits = false } = {}) {
  for (const c of result.checks) {
    assert.equal(typeof c.label, 'string');
    if (limits) {
      assert.ok(Number.isFinite(c.value) && Number.isFinite(c.limit), `${c.label}: finite value and limit`);
      assert.equal(c.ok, c.value <= c.limit, `${c.label}: ok agrees with value <= limit`);
    }
    assert.equal(c.ok, true, `check failed: ${c.label}: ${c.value} vs ${c.limit}`);
  }
  for (const p of result.printed) {
    assert.equal(p.ok, true, `printed mismatch: ${p.label}: paper ${p.paper}, ours ${p.computed}`);
    if (limits) {
      assert.ok(Number.isFinite(p.paper) && Number.isFinite(p.computed), p.label);
      assert.ok(Math.abs(p.paper - p.computed) <= p.tolerance, `${p.label}: within ${p.tolerance}`);
    }
  }
  for (const row of result.table?.rows ?? []) assert.equal(row.length, result.table.columns.length);
}

// Progress fractions reported by a run: in [0, 1], never decreasing, ending at 1.
export function assertProgress(fractions, label = '') {
  assert.ok(fractions.length > 0 && fractions.at(-1) === 1, `${label}: progress reaches 1`);
  assert.ok(fractions.every((x, i) => x >= 0 && x <= 1 && (i === 0 || x >= fractions[i - 1])), `${label}: progress is monotone in [0, 1]`);
}

/** Entries a histogram's check and normalisation must handle: zeros of both signs, subnormals, the extremes, NaN. */
export const ODD_ENTRIES = [0, -0, 5e-324, 1e-310, 1e-200, 1e300, 1.7976931348623157e308, 1, NaN, -1, Infinity];

/**
 * Reproducible random and adversarial inputs (a 64-bit LCG: no Math.random in tests): uniform() in [0, 1), pick(values)
 * and histogram(k) — dense, sparse, a point mass, a few odd entries, 0/1/−0 counts, or skewed masses; with
 * wideExponents, also masses whose exponents span ±700.
 */
export function adversarialInputs(seed, { wideExponents = false } = {}) {
  let state = BigInt(seed);
  const uniform = () => {
    state = (state * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n);
    return Number(state >> 11n) / 2 ** 53;
  };
  const pick = (values) => values[Math.floor(uniform() * values.length)];
  const shapes = wideExponents ? 7 : 6;
  const histogram = (k) => {
    const shape = Math.floor(uniform() * shapes);
    return Array.from({ length: k }, (_, i) => {
      switch (shape) {
        case 0: return uniform();
        case 1: return uniform() < 0.2 ? Math.floor(uniform() * 10) : 0;
        case 2: return i === 0 ? 1 : 0;
        case 3: return uniform() < 0.1 ? pick(ODD_ENTRIES) : uniform();
        case 4: return Math.round(uniform() - 0.7); // 0, 1 and −0
        case 5: if (wideExponents) return 2 ** Math.floor(uniform() * 1400 - 700) * (0.5 + uniform()); // falls through
        default: return uniform() ** 8;
      }
    });
  };
  return { uniform, pick, histogram };
}
