// Reveal-or-Obscure (Tasnim, Gilani, Sankar, Kosut, ITW 2025, arXiv 2504.14696v1; docs/experiments.md#tasnim-et-al):
// Fig. 1 (DS-ROO's q_m against m), Fig. 2 (P against DS-ROO's output Q), Fig. 3 (accuracy α against ε) and the
// sample-complexity comparison of §3. Every number comes from privsample/research (ps.roo.*, the 'roo', 'ds-roo'
// and 'laplace-projection' samplers, ps.simulate's seeded datasets, ps.divergence, ps.channelLdp); this file only
// builds set-ups, averages, takes maxima and compares with the printed values.

// ---- small result helpers (no mathematics: comparisons and bookkeeping) -----------------------------------------

/**
 * A reference value beside ours; ok when |computed − paper| <= abs + rel·|paper|. The paper prints no digits beyond
 * its set-up: every reference is derived from its formulas (source 'derived', experiments/index.mjs REFERENCE_SOURCES).
 */
function printedValue(label, paper, computed, { rel = 0, abs = 0, source = 'derived' } = {}) {
  return { label, paper, computed, source, ok: Number.isFinite(computed) && Math.abs(computed - paper) <= abs + rel * Math.abs(paper) };
}

/** A check: ok when value <= limit (or the given ok). */
function checkValue(label, value, limit, ok = value <= limit) {
  return { label, value, limit, ok };
}

/** A table q_0..q_M as plot points [m, q_m]. */
const tablePoints = (table) => Array.from(table, (q, m) => [m, q]);

/** A panel of q_m tables against the minimum count m, linear axes. */
const tablePanel = (title, series) => ({
  title,
  kind: 'lines',
  x: { label: 'm (minimum count)', log: false },
  y: { label: 'q_m', log: false },
  series,
});

/** A panel of lines against ε, both axes logarithmic. */
const epsilonPanel = (title, yLabel, series) => ({
  title,
  kind: 'lines',
  x: { label: 'ε', log: true },
  y: { label: yLabel, log: true },
  series,
});

/** One field of per-ε results as plot points [ε, field]. */
const overEpsilon = (epsilons, results, field) => epsilons.map((e, i) => [e, results[i][field]]);

/** The records' relative slack of every ratio check: floating-point rounding only. */
const RATIO_SLACK = 1 + 1e-9;

// Every histogram of n records over k letters (small n, k only: the exhaustive audit).
function* histograms(n, k) {
  if (k === 1) {
    yield [n];
    return;
  }
  for (let first = 0; first <= n; first += 1) {
    for (const rest of histograms(n - first, k - 1)) yield [first, ...rest];
  }
}

// The replace-one neighbour of `counts`: one record of letter a becomes letter b.
function moved(counts, a, b) {
  const out = counts.slice();
  out[a] -= 1;
  out[b] += 1;
  return out;
}

// Every replace-one neighbour of a histogram (one record a → b, a ≠ b, c_a > 0).
function neighbours(counts) {
  const out = [];
  for (let a = 0; a < counts.length; a += 1) {
    if (counts[a] === 0) continue;
    for (let b = 0; b < counts.length; b += 1) if (b !== a) out.push(moved(counts, a, b));
  }
  return out;
}

// Histograms of n records with minimum count exactly m where DS-ROO's constraints bind (docs/experiments.md#roo-fig1): letters 0 and
// 1 at m (tied minimum) or at m and m+1 (unique minimum), the other records spread over the remaining letters.
function boundaryHistograms(n, k, m) {
  const spread = (head) => {
    const rest = n - head.reduce((s, c) => s + c, 0);
    const others = k - head.length;
    const base = Math.floor(rest / others);
    return [...head, ...Array.from({ length: others }, (_, i) => base + (i < rest - base * others ? 1 : 0))];
  };
  const out = [spread([m, m])];
  if (n - (2 * m + 1) >= (k - 2) * (m + 1)) out.push(spread([m, m + 1]));
  return out.filter((c) => Math.min(...c) === m);
}

// The largest privacy loss (max over y of |ln ratio|, computed by ps.channelLdp) of a sampler between each pair.
function worstPairLoss(ps, sampler, pairs) {
  let worst = 0;
  for (const [x, y] of pairs) {
    const loss = ps.channelLdp([sampler.distribution(x), sampler.distribution(y)]).pureEpsilon;
    if (loss > worst) worst = loss;
  }
  return worst;
}

// Boundary neighbour pairs of a k-letter, n-record alphabet for minimum counts m = 0..5, every ⌈top/12⌉-th m and
// top − 3..top (a sample of the range, so that the closed-form entry stays fast).
function boundaryPairs(n, k, top) {
  const pairs = [];
  const stride = Math.max(1, Math.ceil(top / 12));
  for (let m = 0; m <= top; m += 1) {
    if (m > 5 && m < top - 3 && m % stride !== 0) continue;
    for (const c of boundaryHistograms(n, k, m)) {
      pairs.push([c, moved(c, k - 1, 0)]); // c_0: m → m+1 (m̃ = m or m+1)
      if (m > 0) pairs.push([c, moved(c, 0, k - 1)]); // m̃ = m − 1
      pairs.push([c, moved(c, k - 1, 1)]);
    }
  }
  return pairs;
}

// T datasets C ~ Multinomial(n, P) from ps.simulate's seeded generator ('point-masses': each of n "users" holds one
// record drawn from P; `items` are the counts). The sampler used for the simulation's own reports is irrelevant.
function drawDatasets(ps, P, n, T, seed, progress = () => {}) {
  const carrier = ps.sampler('linear', { epsilon: 1 });
  const out = [];
  try {
    for (let t = 0; t < T; t += 1) {
      out.push(ps.simulate(carrier, { population: P, users: n, seed: seed + t, pointMasses: false }).items);
      if (t % 200 === 0) progress(t / T);
    }
  } finally {
    carrier.dispose();
  }
  return out;
}

// The average of sampler.distribution(C_t) over the datasets: the marginal output Q of eq. 1 (Monte Carlo).
function averageOutput(sampler, datasets) {
  const k = datasets[0].length;
  const sum = new Float64Array(k);
  for (const c of datasets) {
    const q = sampler.distribution(c);
    for (let y = 0; y < k; y += 1) sum[y] += q[y];
  }
  return sum.map((v) => v / datasets.length);
}

// The average count vector (its normalisation, by ps.divergence, is the average empirical distribution).
function averageCounts(datasets) {
  const k = datasets[0].length;
  const sum = new Float64Array(k);
  for (const c of datasets) for (let y = 0; y < k; y += 1) sum[y] += c[y];
  return sum.map((v) => v / datasets.length);
}

// TV(Q, P) estimated as TV(mean_t Q(·|C_t), mean_t P̂_{C_t}) on the same datasets: Q − P = E[Q(·|C) − P̂_C] because
// E[P̂_C] = P, so this is the Rao–Blackwellised estimator of docs/experiments.md#tasnim-et-al (no released samples are drawn).
function tvOnP(ps, sampler, datasets) {
  return ps.divergence('tv', averageOutput(sampler, datasets), averageCounts(datasets));
}

// ---- DS-ROO's TV on P, exactly: over the law of the datasets ---------------------------------------------------
//
// DS-ROO′ releases (1 − q_m)·P̂_C + q_m·U for a dataset C of minimum count m (core/mechanisms/ds-roo/README.md; q_m by
// ps.roo.obscureTable), so over C ~ Multinomial(n, P) its marginal Q satisfies Q − P = E[q_m·(U − P̂_C)] and
//   TV(Q, P) = ½ Σ_y |Σ_{t < Z} (q_t − q_{t+1})·E[(1/k − C_y/n)·1{m <= t}]|     (q_Z = 0, Z the first zero of q)
// by summation by parts. The expectations need only the law of (min count <= t, C_y), which the functions below
// compute as a dynamic programme over the letters (a multinomial is a chain of binomials), keeping the running
// minimum capped at Z: probabilities below 1e-40 are dropped, far below the rare events (~1e-13) that make the
// values. This is the set-up's law of the data, not the mechanism; the mechanism's part is q_m from the library.
// The Monte Carlo of the other series cannot resolve these values where no dataset reaches a minimum below Z.

const LAW_CUT = 1e-40;

/** ln k! for k = 0..n. */
function logFactorials(n) {
  const out = new Float64Array(n + 1);
  for (let i = 1; i <= n; i += 1) out[i] = out[i - 1] + Math.log(i);
  return out;
}

/**
 * H[t][c] = Pr(min_i C_i <= t and C_y = c) for t < tMax, c = 0..n, C ~ Multinomial(n, P): the letters other than y
 * one after another (letter i takes Binomial(r, P_i / the mass not yet placed) of the r records left), y the rest;
 * the state is (records left, running minimum capped at tMax).
 */
function lowMinimumLaw(P, n, y, tMax, logFact) {
  const states = tMax + 1;
  let f = Array.from({ length: states }, () => new Float64Array(n + 1));
  f[tMax][n] = 1;
  let rest = P.reduce((a, b) => a + b, 0);
  const logCut = Math.log(LAW_CUT);
  const live = [];
  for (let i = 0; i < P.length; i += 1) {
    if (i === y) continue;
    const pi = Math.min(1, P[i] / rest);
    rest -= P[i];
    const g = Array.from({ length: states }, () => new Float64Array(n + 1));
    const lp = Math.log(pi);
    const lq = Math.log1p(-pi);
    for (let r = 0; r <= n; r += 1) {
      live.length = 0;
      let mass = 0;
      for (let st = 0; st < states; st += 1) {
        if (f[st][r] > 0) {
          live.push(st);
          mass += f[st][r];
        }
      }
      if (mass < LAW_CUT) continue;
      // Binomial(r, pi) at c, from the mode outward until a term falls below the cut (the pmf is unimodal).
      const logTerm = (c) => (pi <= 0 ? (c === 0 ? 0 : -Infinity) : pi >= 1 ? (c === r ? 0 : -Infinity)
        : logFact[r] - logFact[c] - logFact[r - c] + c * lp + (r - c) * lq);
      const place = (c) => {
        const t = logTerm(c);
        if (t < logCut) return false;
        const w = Math.exp(t);
        for (const st of live) g[st < c ? st : Math.min(c, tMax)][r - c] += f[st][r] * w;
        return true;
      };
      const mode = Math.min(r, Math.floor((r + 1) * pi));
      for (let c = mode; c >= 0 && place(c); c -= 1);
      for (let c = mode + 1; c <= r && place(c); c += 1);
    }
    f = g;
  }
  const H = Array.from({ length: tMax }, () => new Float64Array(n + 1));
  for (let c = 0; c <= n; c += 1) {
    for (let st = 0; st < states; st += 1) {
      const v = f[st][c];
      if (v === 0) continue;
      for (let t = Math.min(st, c); t < tMax; t += 1) H[t][c] += v;
    }
  }
  return H;
}

/**
 * The exact TV(Q_DS-ROO, P) at each ε of `epsilons` whose table's first zero Z is at most maxZero (NaN at the
 * others: their cost grows with Z, and there the Monte Carlo resolves the value). A symmetric P (P_y = P_{k−1−y})
 * gives the mirrored letters the same law, computed once.
 */
function exactDsRooTv(ps, P, n, epsilons, maxZero) {
  const k = P.length;
  const tables = epsilons.map((e) => ps.roo.obscureTable(e, n, k));
  const zeros = tables.map((t) => {
    const z = t.findIndex((q) => q === 0);
    return z < 0 ? t.length : z;
  });
  const exact = zeros.map((z) => z <= maxZero);
  const tMax = Math.max(0, ...zeros.filter((z, i) => exact[i]));
  const sums = epsilons.map(() => new Float64Array(k));
  const symmetric = P.every((p, y) => p === P[k - 1 - y]);
  const logFact = logFactorials(n);
  for (let y = 0; y < k && tMax > 0; y += 1) {
    if (symmetric && y > k - 1 - y) {
      sums.forEach((v) => { v[y] = v[k - 1 - y]; });
      continue;
    }
    const H = lowMinimumLaw(P, n, y, tMax, logFact);
    const E = H.map((h) => {
      let total = 0;
      for (let c = 0; c <= n; c += 1) total += h[c] * (1 / k - c / n);
      return total;
    });
    epsilons.forEach((e, i) => {
      if (!exact[i]) return;
      let acc = 0;
      for (let t = 0; t < zeros[i]; t += 1) acc += (tables[i][t] - (t + 1 < tables[i].length ? tables[i][t + 1] : 0)) * E[t];
      sums[i][y] = acc;
    });
  }
  return { tv: sums.map((v, i) => (exact[i] ? 0.5 * v.reduce((a, b) => a + Math.abs(b), 0) : NaN)), zeros };
}

const FIG_EPSILONS = [0.01, 0.05, 0.1, 0.2, 0.5, 1, 2];

// The two unimodal P's of docs/experiments.md#tasnim-et-al (the paper's own P is not given): A ∝ exp(−(y−5)²/8) (a discretised Gaussian,
// mean 5, sd 2) and B = Binomial(8, ½) + 1, on y = 1..9 (values to 12 digits).
const P_A = [0.0276305506389, 0.0662822452864, 0.123831536806, 0.180173822911, 0.204163688715, 0.180173822911,
  0.123831536806, 0.0662822452864, 0.0276305506389];
const P_B = [1 / 256, 8 / 256, 28 / 256, 56 / 256, 70 / 256, 56 / 256, 28 / 256, 8 / 256, 1 / 256];

// ---- Fig. 1 ---------------------------------------------------------------------------------------------------

// docs/experiments.md#roo-fig1: q_0, the first m with q_m = 0, and q_1..q_5 (printed recursion; the fix changes nothing there).
const FIG1_PRINTED = {
  0.01: { q0: 0.472437, firstZero: 107, q: [0.47239, 0.47229, 0.47215, 0.47196, 0.47172] },
  0.05: { q0: 0.149325, firstZero: 33, q: [0.14895, 0.14821, 0.14712, 0.14570, 0.14395] },
  0.1: { q0: 0.078829, firstZero: 17, q: [0.07803, 0.07651, 0.07432, 0.07151, 0.06814] },
  0.2: { q0: 0.039062, firstZero: 8, q: [0.03748, 0.03459, 0.03060, 0.02569, 0.02001] },
  0.5: { q0: 0.013684, firstZero: 3, q: [0.01016, 0.00445, 0, 0, 0] },
  1: { q0: 0.005210, firstZero: 1, q: [0, 0, 0, 0, 0] },
  2: { q0: 0.001407, firstZero: 1, q: [0, 0, 0, 0, 0] },
};
const FIG1_ROW_01 = [0.07883, 0.07803, 0.07651, 0.07432, 0.07151, 0.06814, 0.06424, 0.05986, 0.05503, 0.04978, 0.04414,
  0.03812, 0.03175, 0.02505, 0.01803, 0.01071, 0.00309, 0];

const fig1 = {
  name: 'roo-fig1',
  paper: 'roo',
  figure: 'Fig. 1',
  title: 'DS-ROO: obscure probability q_m against the minimum count m, k = 9, n = 1000',
  closedForm: true,
  setup: {
    k: 9,
    records: 1000,
    epsilons: FIG_EPSILONS,
    // The first erratum's counterexample (docs/errata.md#ds-roo-top-index): k = 3, n = 5, e^ε = 3/2 (ε = ln 1.5).
    erratumCase: { k: 3, records: 5, epsilon: 0.4054651081081644 },
    // The second erratum's witness (docs/errata.md#ds-roo-unchanged-letters): 999 letters with 99 records, one with
    // 1098, and one record moved between two of the 99s.
    secondErratumCase: { k: 1000, records: 99999, epsilon: 0.01 },
  },
  quick: {},
  erratum:
    'Algorithm 2 (DS-ROO) as printed is not ε-DP, for two reasons. (1) At the top index m = M = ⌊n/k⌋ when k ∤ n and ' +
    'M·(e^ε − 1) < 1: Lemma 3 needs u_M > 0, which fails there. Example: k = 3, n = 5, e^ε = 3/2 gives the printed ' +
    'q_1 = 7/22 < t_1 = 3/8, and the counts (1,2,2) vs (2,1,2) have output ratio 25/16 > 3/2 (second panel). ' +
    '(2) The proof checks only the letters whose counts change; a letter whose count does not change also moves when ' +
    'the minimum count does, and a large one moves most. Example: ε = 0.01, k = 1000, n = 99999, 999 letters with 99 ' +
    'records and one with 1098; moving one record between two of the 99s changes the minimum from 99 to 98 and, even ' +
    'with the fix of (1), the 1098-letter\'s probability by e^0.0336 = e^(3.36ε) (third panel). We draw DS-ROO ' +
    'corrected: the least table meeting every neighbouring pair, verified before use. For the paper\'s k = 9, ' +
    'n = 1000, ε >= 0.01 neither correction changes anything (checked below).',
  async run(ps, setup, { progress = () => {} } = {}) {
    const { k, records: n, epsilons, erratumCase, secondErratumCase } = setup;
    const tables = epsilons.map((e) => ps.roo.obscureTable(e, n, k));
    const printedTables = epsilons.map((e) => ps.roo.obscureTableAsPrinted(e, n, k));
    const panels = [tablePanel(`q_m, k = ${k}, n = ${n}`,
      epsilons.map((e, i) => ({ label: `ε = ${e}`, points: tablePoints(tables[i]) })))];
    const small = erratumCase;
    const fixedSmall = ps.roo.obscureTable(small.epsilon, small.records, small.k);
    const printedSmall = ps.roo.obscureTableAsPrinted(small.epsilon, small.records, small.k);
    panels.push({
      title: `erratum: k = ${small.k}, n = ${small.records}, e^ε = 3/2`,
      kind: 'bars',
      x: { label: 'm' },
      y: { label: 'q_m' },
      series: [
        { label: 'Algorithm 2 as printed', points: tablePoints(printedSmall), printed: true },
        { label: 'DS-ROO′ (corrected)', points: tablePoints(fixedSmall) },
      ],
    });
    const second = secondErratumCase;
    const topFixOnly = ps.roo.obscureTableTopFixOnly(second.epsilon, second.records, second.k);
    const corrected = ps.roo.obscureTable(second.epsilon, second.records, second.k);
    panels.push(tablePanel(`second erratum: k = ${second.k}, n = ${second.records}, ε = ${second.epsilon}`, [
      { label: 'with the top-index fix only', points: tablePoints(topFixOnly), printed: true },
      { label: 'DS-ROO′ (corrected)', points: tablePoints(corrected) },
    ]));
    progress(0.2);

    const checks = [];
    let rise = -Infinity;
    let outside = 0;
    let fixDifference = 0;
    tables.forEach((t, i) => {
      for (let m = 1; m < t.length; m += 1) rise = Math.max(rise, t[m] - t[m - 1]);
      for (const q of t) if (!(q >= 0 && q <= t[0])) outside += 1;
      for (let m = 0; m < t.length; m += 1) fixDifference = Math.max(fixDifference, Math.abs(t[m] - printedTables[i][m]));
    });
    checks.push(checkValue('q_m non-increasing in m (max q_m − q_{m−1}, every ε)', rise, 0));
    checks.push(checkValue('0 <= q_m <= q_0 (entries outside, every ε)', outside, 0));
    checks.push(checkValue(`the corrections change nothing for k = ${k}, n = ${n} (max |corrected − printed|)`,
      fixDifference, 1e-12));

    // Privacy: DS-ROO′'s output ratio between neighbours <= e^ε (ps.channelLdp's pure ε of each pair <= ε).
    // (a) exhaustive for the erratum case; (b) the binding neighbours (docs/experiments.md#roo-fig1) for k = 9, n = 1000.
    const smallSampler = ps.sampler('ds-roo', { epsilon: small.epsilon, records: small.records });
    const allPairs = [];
    for (const c of histograms(small.records, small.k)) for (const c2 of neighbours(c)) allPairs.push([c, c2]);
    const smallLoss = worstPairLoss(ps, smallSampler, allPairs);
    smallSampler.dispose();
    checks.push(checkValue(`DS-ROO′ loss, all ${allPairs.length} neighbour pairs, k = ${small.k}, n = ${small.records} (max ln ratio <= ε)`,
      smallLoss, small.epsilon * RATIO_SLACK));
    epsilons.forEach((e, i) => {
      const firstZero = tables[i].findIndex((q) => q === 0);
      const top = Math.min(tables[i].length - 1, (firstZero < 0 ? tables[i].length : firstZero) + 1);
      const sampler = ps.sampler('ds-roo', { epsilon: e, records: n });
      const loss = worstPairLoss(ps, sampler, boundaryPairs(n, k, top));
      sampler.dispose();
      checks.push(checkValue(`DS-ROO′ loss at ε = ${e}, boundary neighbours, m sampled in 0..${top} (max ln ratio <= ε)`, loss, e * RATIO_SLACK));
      progress(0.2 + (0.8 * (i + 1)) / epsilons.length);
    });

    // The second erratum: the old table's worst pair (ps.roo.worstPair, all O(M) pairs) is the witness and exceeds ε;
    // the corrected sampler's loss on the witness pair, every letter and both directions, is within ε.
    const oldWorst = ps.roo.worstPair(topFixOnly, second.records, second.k);
    checks.push(checkValue('second erratum reproduced: the top-fix table loses more than ε (value its worst ln ratio, '
      + 'limit ε)', oldWorst.logRatio, second.epsilon, oldWorst.logRatio > second.epsilon));
    checks.push(checkValue(`DS-ROO′ table, all neighbour pairs, k = ${second.k}, n = ${second.records} `
      + '(worst ln ratio <= ε)',
      ps.roo.worstPair(corrected, second.records, second.k).logRatio, second.epsilon * RATIO_SLACK));
    const witness = Array(second.k).fill(99);
    witness[0] = 1098;
    const witnessNeighbour = moved(witness, 1, 2);
    const secondSampler = ps.sampler('ds-roo', { epsilon: second.epsilon, records: second.records });
    const witnessLoss = worstPairLoss(ps, secondSampler, [[witness, witnessNeighbour]]);
    secondSampler.dispose();
    checks.push(checkValue('DS-ROO′ sampler on the witness pair (max ln ratio <= ε)', witnessLoss,
      second.epsilon * RATIO_SLACK));

    const printed = [];
    epsilons.forEach((e, i) => {
      const ref = FIG1_PRINTED[e];
      if (!ref) return;
      const t = tables[i];
      printed.push(printedValue(`q_0 (ε = ${e})`, ref.q0, t[0], { abs: 5e-7 }));
      printed.push(printedValue(`first m with q_m = 0 (ε = ${e})`, ref.firstZero, t.findIndex((q) => q === 0)));
      ref.q.forEach((q, j) => printed.push(printedValue(`q_${j + 1} (ε = ${e})`, q, t[j + 1], { abs: 5e-6 })));
    });
    const i01 = epsilons.indexOf(0.1);
    if (i01 >= 0) FIG1_ROW_01.forEach((q, m) => printed.push(printedValue(`q_${m} (ε = 0.1, full row)`, q, tables[i01][m], { abs: 5e-6 })));
    printed.push(printedValue('erratum case: q_0 = 6/11 (both)', 6 / 11, fixedSmall[0], { rel: 1e-12 }));
    printed.push(printedValue('erratum case: printed q_1 = 7/22', 7 / 22, printedSmall[1], { rel: 1e-12 }));
    printed.push(printedValue('erratum case: fixed q_1 = t_1 = 3/8', 3 / 8, fixedSmall[1], { rel: 1e-12 }));
    // docs/errata.md#ds-roo-unchanged-letters: the old table's loss at the witness, and where it is.
    printed.push(printedValue('second erratum: top-fix table\'s loss at the witness, ln ratio', 0.0335944,
      oldWorst.logRatio, { rel: 1e-5 }));
    printed.push(printedValue('second erratum: the witness\'s unchanged letter has 1098 records', 1098,
      oldWorst.count));
    printed.push(printedValue('second erratum: minimum counts 99 → 98 (as 1000·m + m̃)', 99 * 1000 + 98,
      oldWorst.m * 1000 + oldWorst.mTilde));
    printed.push(printedValue('second erratum: corrected q_99', 0.1291032, corrected[99], { abs: 5e-8 }));

    const rows = [];
    epsilons.forEach((e, i) => tables[i].forEach((q, m) => rows.push([e, m, q, printedTables[i][m]])));
    return { panels, checks, printed, table: { columns: ['epsilon', 'm', 'q_m', 'q_m_as_printed'], rows } };
  },
};

// ---- Fig. 2 ---------------------------------------------------------------------------------------------------

const fig2 = {
  name: 'roo-fig2',
  paper: 'roo',
  figure: 'Fig. 2',
  title: 'True P against the output distribution Q of DS-ROO′, k = 9, n = 1000, ε = 0.1',
  closedForm: false,
  setup: {
    k: 9,
    records: 1000,
    epsilon: 0.1,
    // The paper's P is not given ("its most probable element central"): B = Binomial(8, ½) + 1 (docs/experiments.md#tasnim-et-al).
    P: P_B,
    pName: 'B = Binomial(8, 1/2) + 1 (assumption: the paper does not give its P)',
    datasets: 10000,
    seed: 20250402,
  },
  quick: { datasets: 1500 },
  erratum: undefined,
  async run(ps, setup, { progress = () => {} } = {}) {
    const { k, records: n, epsilon, P, datasets: T, seed } = setup;
    const data = drawDatasets(ps, P, n, T, seed, (f) => progress(0.7 * f));
    const ds = ps.sampler('ds-roo', { epsilon, records: n });
    const roo = ps.sampler('roo', { epsilon, records: n });
    try {
      const qDs = averageOutput(ds, data);
      const qRoo = averageOutput(roo, data);
      progress(0.8);
      const letters = (values) => Array.from(values, (v, y) => [y + 1, v]);
      const panels = [{
        title: `P and Q, ε = ${epsilon} (Q averaged over ${T} datasets)`,
        kind: 'bars',
        x: { label: 'y' },
        y: { label: 'probability' },
        series: [
          { label: 'P (true)', points: letters(P) },
          { label: 'Q, DS-ROO′', points: letters(qDs) },
          { label: 'Q, ROO', points: letters(qRoo) },
        ],
      }];
      const tvDs = tvOnP(ps, ds, data);
      const tvRoo = tvOnP(ps, roo, data);
      const bound = roo.worstCaseRisk('tv', k);
      // Privacy on real inputs: every replace-one neighbour of the first 20 datasets.
      const pairs = [];
      for (const c of data.slice(0, 20)) for (const c2 of neighbours(Array.from(c))) pairs.push([c, c2]);
      const loss = worstPairLoss(ps, ds, pairs);
      progress(1);
      const mode = P.indexOf(Math.max(...P));
      const tail = P.indexOf(Math.min(...P));
      const checks = [
        checkValue(`DS-ROO′ loss, all ${pairs.length} neighbours of 20 simulated datasets (max ln ratio <= ε)`, loss, epsilon * RATIO_SLACK),
        checkValue('TV(Q_DS-ROO′, P) <= ROO worst case q_0(1 − 1/k)', tvDs, bound),
        checkValue('TV(Q_ROO, P) <= ROO worst case q_0(1 − 1/k)', tvRoo, bound),
        // The paper's claim: obscuring moves mass from the central mode to the tails.
        checkValue('claim: Q(mode) < P(mode) (value Q, limit P)', qDs[mode], P[mode], qDs[mode] < P[mode]),
        checkValue('claim: Q(tail) > P(tail) (value P, limit Q)', P[tail], qDs[tail], qDs[tail] > P[tail]),
      ];
      // docs/experiments.md#roo-fig2 (exact evaluator, P = B, ε = 0.1): DS-ROO TV 2.800e-2, ROO TV 0.02977; Monte Carlo tolerance.
      const printed = [
        printedValue('TV(Q_DS-ROO, P), P = B, ε = 0.1 (exact reference)', 2.800e-2, tvDs, { rel: 0.03 }),
        printedValue('TV(Q_ROO, P), P = B, ε = 0.1 (reference)', 0.02977, tvRoo, { rel: 0.02 }),
      ];
      const table = { columns: ['y', 'P', 'Q_ds_roo', 'Q_roo'], rows: P.map((p, y) => [y + 1, p, qDs[y], qRoo[y]]) };
      return { panels, checks, printed, table };
    } finally {
      ds.dispose();
      roo.dispose();
    }
  },
};

// ---- Fig. 3 ---------------------------------------------------------------------------------------------------

// docs/experiments.md#roo-fig3 table: RSSS 2k/(nε), ROO bound, ROO actual and DS-ROO (an independent exact
// evaluation; the values at ε >= 0.1 are also this entry's exact ones) for A and B, each as [value, digits given].
const FIG3_PRINTED = {
  0.01: { rsss: 1.8, roo: 0.41994, A: [0.12124, 1.172e-1], B: [0.17839, 1.783e-1] },
  0.02: { rsss: 0.9, roo: 0.27396, A: [0.07909, 6.938e-2], B: [0.11638, 1.161e-1] },
  0.05: { rsss: 0.36, roo: 0.13273, A: [0.03832, 1.411e-2], B: [0.05639, 5.551e-2] },
  0.1: { rsss: 0.18, roo: 0.07007, A: [0.02023, 6.327e-5], B: [0.02977, 2.800e-2] },
  0.2: { rsss: 0.09, roo: 0.03472, A: [0.01002, 1.242e-8], B: [0.01475, 1.151e-2] },
  0.5: { rsss: 0.036, roo: 0.01216, A: [0.00351, 7.9e-13], B: [0.00517, 1.201e-3] },
  1: { rsss: 0.018, roo: 0.00463, A: [0.00134, 1.98e-15], B: [0.00197, 7.835e-5] },
  2: { rsss: 0.009, roo: 0.00125, A: [0.00036, 5.34e-16], B: [0.00053, 2.115e-5] },
};
// Which DS-ROO values a Monte Carlo of a few thousand datasets resolves (relative tolerance); the others are rare
// events (A at ε >= 0.1, B at ε >= 1), computed exactly instead.
const FIG3_DS_TOLERANCE = { A: { 0.01: 0.03, 0.02: 0.03, 0.05: 0.05 }, B: { 0.01: 0.03, 0.02: 0.03, 0.05: 0.03, 0.1: 0.05, 0.2: 0.1 } };
/** Half a unit of the last digit of a reference given in scientific notation, relative to it. */
const halfLastDigit = (v) => {
  const digits = v.toExponential().split('e')[0].replace('.', '').length; // 1.242e-8 → 4 significant digits
  return 0.5 * 10 ** (1 - digits) / Number(v.toExponential().split('e')[0]);
};
/** A Monte Carlo estimate of DS-ROO's TV is drawn only where at least this many datasets reach the obscure branch. */
const MC_MIN_HITS = 100;

const fig3 = {
  name: 'roo-fig3',
  paper: 'roo',
  figure: 'Fig. 3',
  title: 'Accuracy α (TV) against ε: ROO, DS-ROO′ and the Laplace baseline, k = 9, n = 1000',
  closedForm: false,
  setup: {
    k: 9,
    records: 1000,
    epsilons: [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2],
    // The paper's P is not given: A (discretised Gaussian, mean 5, sd 2) and B (Binomial(8, ½) + 1), docs/experiments.md#tasnim-et-al.
    distributions: { A: P_A, B: P_B },
    datasets: 10000,
    laplaceDatasets: 100,
    seed: 20250403,
    // DS-ROO's TV exactly over the datasets' multinomial law wherever its table's first zero Z is at most this
    // (k = 9, n = 1000: ε >= 0.1, where the Monte Carlo cannot resolve A); the Monte Carlo is drawn where at least
    // 100 datasets reach a minimum count below Z.
    exactMaxZero: 20,
  },
  quick: { datasets: 1500, laplaceDatasets: 4, exactMaxZero: 8 },
  erratum: undefined,
  async run(ps, setup, { progress = () => {} } = {}) {
    const { k, records: n, epsilons, distributions, datasets: T, laplaceDatasets, seed, exactMaxZero } = setup;
    const names = Object.keys(distributions);
    const panels = [];
    const checks = [];
    const printed = [];
    const rows = [];
    const bounds = epsilons.map((e) => ps.roo.accuracyBounds(e, n, k));
    let boundMismatch = 0;
    epsilons.forEach((e, i) => {
      const s = ps.sampler('roo', { epsilon: e, records: n });
      boundMismatch = Math.max(boundMismatch, Math.abs(s.worstCaseRisk('tv', k) - bounds[i].roo) / bounds[i].roo);
      s.dispose();
    });
    // The sampler computes q_0 at ε′ = ε − (1e-12·ε + 1e-14) (core/mechanisms/roo/README.md), which moves it by less than
    // 1e-11 relative: the formula and the sampler agree to that.
    checks.push(checkValue('eq. 19 equals the roo sampler\'s worst-case TV (max relative difference; the sampler\'s ε′ margin)', boundMismatch, 1e-11));
    let step = 0;
    const steps = names.length * (1 + epsilons.length);
    for (const [d, name] of names.entries()) {
      const P = distributions[name];
      const data = drawDatasets(ps, P, n, T, seed + 1000003 * d, (f) => progress((step + f) / steps));
      step += 1;
      const exact = exactDsRooTv(ps, P, n, epsilons, exactMaxZero);
      const minima = data.map((c) => Math.min(...c));
      const series = { roo: [], ds: [], lap: [], exact: [] };
      for (const [i, e] of epsilons.entries()) {
        const roo = ps.sampler('roo', { epsilon: e, records: n });
        const ds = ps.sampler('ds-roo', { epsilon: e, records: n });
        const lap = ps.sampler('laplace-projection', { epsilon: e, records: n });
        try {
          const tvRoo = tvOnP(ps, roo, data);
          const tvDs = tvOnP(ps, ds, data);
          const tvLap = tvOnP(ps, lap, data.slice(0, laplaceDatasets));
          const hits = minima.filter((m) => m < exact.zeros[i]).length; // datasets where DS-ROO′ may obscure
          const resolved = hits >= MC_MIN_HITS;
          series.roo.push([e, tvRoo]);
          if (resolved) series.ds.push([e, tvDs]);
          if (Number.isFinite(exact.tv[i])) series.exact.push([e, exact.tv[i]]);
          series.lap.push([e, tvLap]);
          rows.push([name, e, bounds[i].rsss, bounds[i].roo, tvLap, tvRoo, tvDs, hits, resolved, Number.isFinite(exact.tv[i]) ? exact.tv[i] : '']);
          checks.push(checkValue(`P = ${name}, ε = ${e}: TV of ROO on P <= ROO bound (eq. 19)`, tvRoo, bounds[i].roo));
          checks.push(checkValue(`P = ${name}, ε = ${e}: TV of DS-ROO′ on P <= ROO bound (eq. 19)`, tvDs, bounds[i].roo));
          if (Number.isFinite(exact.tv[i])) {
            checks.push(checkValue(`P = ${name}, ε = ${e}: exact TV of DS-ROO′ on P <= ROO bound (eq. 19)`, exact.tv[i], bounds[i].roo));
          }
          const pairs = [];
          for (const c of data.slice(0, 3)) for (const c2 of neighbours(Array.from(c))) pairs.push([c, c2]);
          for (const s of [roo, ds]) {
            const loss = worstPairLoss(ps, s, pairs);
            checks.push(checkValue(`P = ${name}, ε = ${e}: ${s.mechanism} loss on the neighbours of 3 datasets (max ln ratio <= ε)`,
              loss, e * RATIO_SLACK));
          }
          const ref = FIG3_PRINTED[e];
          if (ref && d === 0) {
            printed.push(printedValue(`RSSS 2k/(nε), ε = ${e}`, ref.rsss, bounds[i].rsss, { rel: 1e-12 }));
            printed.push(printedValue(`ROO bound q_0(1 − 1/k), ε = ${e}`, ref.roo, bounds[i].roo, { abs: 5e-6 }));
          }
          if (ref && ref[name]) {
            printed.push(printedValue(`ROO TV on P = ${name}, ε = ${e} (Monte Carlo)`, ref[name][0], tvRoo, { rel: 0.02, abs: 5e-6 }));
            const tol = FIG3_DS_TOLERANCE[name]?.[e];
            if (tol !== undefined && resolved) {
              printed.push(printedValue(`DS-ROO TV on P = ${name}, ε = ${e} (exact reference; Monte Carlo)`, ref[name][1], tvDs, { rel: tol }));
            }
            if (Number.isFinite(exact.tv[i])) {
              printed.push(printedValue(`DS-ROO TV on P = ${name}, ε = ${e} (exact reference; exact over the datasets' law)`, ref[name][1],
                exact.tv[i], { rel: halfLastDigit(ref[name][1]) }));
            }
          }
        } finally {
          roo.dispose();
          ds.dispose();
          lap.dispose();
        }
        step += 1;
        progress(step / steps);
      }
      const positive = (points) => points.filter(([, y]) => y > 0);
      panels.push(epsilonPanel(
        `P = ${name}${name === 'A' ? ' (discretised Gaussian, mean 5, sd 2)' : ' (Binomial(8, 1/2) + 1)'}`,
        'α (TV distance)',
        [
          { label: 'Laplace baseline (RSSS), paper\'s α = 2k/(nε) (eq. 18)', points: overEpsilon(epsilons, bounds, 'rsss') },
          { label: 'ROO, paper\'s α = q_0(1 − 1/k) (eq. 19)', points: overEpsilon(epsilons, bounds, 'roo') },
          { label: `laplace-projection, TV on P (${laplaceDatasets} datasets)`, points: positive(series.lap) },
          { label: 'ROO, TV on P', points: positive(series.roo) },
          { label: `DS-ROO′, TV on P (Monte Carlo, ${T} datasets; where >= ${MC_MIN_HITS} reach the obscure branch)`, points: positive(series.ds) },
          { label: 'DS-ROO′, TV on P (exact, over the datasets\' multinomial law)', points: positive(series.exact) },
        ],
      ));
    }
    return {
      panels,
      checks,
      printed,
      table: {
        columns: ['P', 'epsilon', 'alpha_rsss_eq18', 'alpha_roo_eq19', 'tv_laplace_projection', 'tv_roo', 'tv_ds_roo_monte_carlo',
          'datasets_reaching_obscure_branch', 'monte_carlo_resolved', 'tv_ds_roo_exact'],
        rows,
      },
    };
  },
};

// ---- §3: sample complexity -------------------------------------------------------------------------------------

// docs/experiments.md#roo-complexity (n_ROO / n_RSSS / n_SubRR), each to its printed digits.
const COMPLEXITY_PRINTED = [
  { k: 9, alpha: 0.1, epsilon: 0.1, values: [[675, 0.5], [1800, 0.5], [720, 0.5]] },
  { k: 9, alpha: 0.1, epsilon: 1, values: [[41.3, 0.05], [180, 0.5], [72, 0.5]] },
  { k: 9, alpha: 0.1, epsilon: 5, values: [[0.5, 0.05], [36, 0.5], [14.4, 0.05]] },
  { k: 100, alpha: 0.01, epsilon: 1, values: [[5703, 0.5], [20000, 0.5], [9801, 0.5]] },
];

const complexity = {
  name: 'roo-complexity',
  paper: 'roo',
  figure: '§3',
  title: 'Sample complexity: records needed for α-accuracy, ROO against RSSS (Laplace) and Cheu–Nayak SubRR',
  closedForm: true,
  setup: {
    k: 9,
    alpha: 0.1,
    epsilons: [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 4, 5],
    cases: COMPLEXITY_PRINTED.map(({ k, alpha, epsilon }) => ({ k, alpha, epsilon })),
    // Lemma 1 is checked on this grid as well.
    lemmaGrid: { ks: [2, 3, 9, 100, 1000], alphas: [0.001, 0.01, 0.1, 0.3, 0.49], epsilons: [0.01, 0.1, 0.5, 1, 2, 5, 10, 50] },
  },
  quick: {},
  erratum: undefined,
  async run(ps, setup, { progress = () => {} } = {}) {
    const { k, alpha, epsilons, cases, lemmaGrid } = setup;
    const curve = epsilons.map((e) => ps.roo.sampleComplexity(k, alpha, e));
    const panels = [epsilonPanel(`k = ${k}, α = ${alpha}`, 'records n', [
      { label: 'ROO (eq. 8)', points: overEpsilon(epsilons, curve, 'roo') },
      { label: 'RSSS, Laplace (eq. 5)', points: overEpsilon(epsilons, curve, 'rsss') },
      { label: 'SubRR, Cheu–Nayak (eq. 45)', points: overEpsilon(epsilons, curve, 'subrr') },
    ])];
    progress(0.3);
    const printed = [];
    const rows = [];
    cases.forEach(({ k: kk, alpha: a, epsilon: e }) => {
      const c = ps.roo.sampleComplexity(kk, a, e);
      rows.push([kk, a, e, c.roo, c.rsss, c.subrr]);
      const ref = COMPLEXITY_PRINTED.find((r) => r.k === kk && r.alpha === a && r.epsilon === e);
      if (!ref) return;
      ['roo', 'rsss', 'subrr'].forEach((key, j) => {
        printed.push(printedValue(`n_${key.toUpperCase()} (k = ${kk}, α = ${a}, ε = ${e})`, ref.values[j][0], c[key], { abs: ref.values[j][1] }));
      });
    });
    let violations = 0;
    let tried = 0;
    for (const kk of lemmaGrid.ks) {
      for (const a of lemmaGrid.alphas) {
        for (const e of lemmaGrid.epsilons) {
          const c = ps.roo.sampleComplexity(kk, a, e);
          tried += 1;
          if (!(c.roo < c.rsss && c.roo < c.subrr)) violations += 1;
        }
      }
    }
    progress(1);
    const checks = [checkValue(`Lemma 1: n_ROO < n_RSSS and n_ROO < n_SubRR (violations among ${tried} (k, α, ε))`, violations, 0)];
    return { panels, checks, printed, table: { columns: ['k', 'alpha', 'epsilon', 'n_roo', 'n_rsss', 'n_subrr'], rows } };
  },
};

export const experiments = [fig1, fig2, fig3, complexity];
