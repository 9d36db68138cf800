// Park, Asoodeh, Lee, "Exactly Minimax-Optimal Locally Differentially Private Sampling" (NeurIPS 2024), the finite
// figures: Fig. 2 (Q*_{k,ε}(·|P) beside P, §3.1) and Figs 3, 5, 6, 7 (worst-case f-divergence against ε for the
// proposed Q* and the Husain et al. uniform-reference mollifier baseline, §5.1 and App. G). Set-ups, printed values
// and errata: docs/experiments.md#minimax-fig2 and docs/experiments.md#park-figs-3-5-7-finite-worst-case; the
// mechanisms: core/mechanisms/minimax/README.md, core/mechanisms/mollifier/README.md.
// Every number comes from privsample/research: the 'minimax', 'linear' and 'mollifier' samplers' exact output pmfs,
// normalisers and closed-form worst cases, ps.divergence and ps.channelLdp. This file builds inputs and ε grids,
// takes maxima and compares with the printed digits.
import MINIMAX_GOLDEN from '../tests/golden/minimax.json' with { type: 'json' };
import { HELLINGER_ERRATUM, STATED_HELLINGER, statedHellingerPanel } from './support.mjs';

export { STATED_HELLINGER };

/** The figures' three divergences; 'hellinger' is ½Σ(√p − √q)², the plotted "Sq. Hel" (docs/errata.md#the-hellinger-convention). */
const DIVERGENCES = [
  { f: 'kl', label: 'KL' },
  { f: 'tv', label: 'TV' },
  { f: 'hellinger', label: 'Sq. Hel' },
];

/** Floating-point slack of the privacy and equality checks (rounding of the exact solvers, ~1e-16 relative). */
const SLACK = 1e-12;

/** A check row: ok when value <= limit. */
const check = (label, value, limit) => ({ label, value, limit, ok: value <= limit });

/**
 * A reference value beside ours. `paper` is the reference's decimal string: the tolerance is half a unit of its last
 * digit (plus 1e-12 for the binary rounding of the half itself). `source`: experiments/index.mjs REFERENCE_SOURCES.
 */
function printedValue(label, paper, computed, source) {
  const decimals = paper.includes('.') ? paper.length - paper.indexOf('.') - 1 : 0;
  const tolerance = 0.5 * 10 ** -decimals + 1e-12;
  const value = Number(paper);
  return { label, paper: value, computed, tolerance, source, ok: Number.isFinite(computed) && Math.abs(computed - value) <= tolerance };
}

/** The point mass on category i of k (a Float64Array: typed arrays cross into the library without a per-entry check). */
function pointMass(k, i) {
  const p = new Float64Array(k);
  p[i] = 1;
  return p;
}

/** The uniform pmf on every category but i: any clip sampler puts its floor on i. */
function uniformOff(k, i) {
  const p = new Float64Array(k).fill(1 / (k - 1));
  p[i] = 0;
  return p;
}

/**
 * The inputs that attain the largest and the smallest output probability of category 0 over all pmfs, for a clip
 * sampler with a uniform reference (Q* of Thm 3.1 and the uniform-Q0 mollifier): the point mass on 0 puts the
 * ceiling there, any pmf without mass on 0 (here uniform on the rest) the floor. Categories are alike up to
 * relabelling, so the channel over these two rows has the mechanism's exact pure ε.
 */
const extremeInputs = (k) => [pointMass(k, 0), uniformOff(k, 0)];

/** Lowest ε-grid point, highest, step: lo, lo + step, …, hi, plus the extra points, sorted, 12 digits. */
function epsilonGrid(lo, hi, step, extra = []) {
  const out = new Set(extra);
  for (let i = 0; lo + i * step <= hi + 1e-12; i += 1) out.add(Number((lo + i * step).toFixed(12)));
  return [...out].sort((a, b) => a - b);
}

// ---- Fig. 2 ---------------------------------------------------------------------------------------------------

// docs/experiments.md#minimax-fig2 (tests/golden/minimax.json "figure2"): r_P and Q*(·|P) of the authors' code (its P
// vector and exact algorithm; the paper draws the bars and prints no digits), digits kept.
const FIG2_PRINTED = {
  1: { r: '1.067912', q: ['0.280922', '0.234102', '0.187281', '0.148848', '0.148848'] },
  0.5: { r: '1.172942', q: ['0.25577', '0.21314', '0.17703', '0.17703', '0.17703'] },
  0.1: { r: '1.385805', q: ['0.21648', '0.19588', '0.19588', '0.19588', '0.19588'] },
};

async function runFig2(ps, setup, { progress } = {}) {
  const { k, P, epsilons } = setup;
  if (P.length !== k) throw new RangeError(`minimax-fig2: P has ${P.length} entries, expected k = ${k}`);
  const uniform = new Array(k).fill(1 / k);
  const inputs = [P, ...Array.from({ length: k }, (_, i) => pointMass(k, i)), ...Array.from({ length: k }, (_, i) => uniformOff(k, i))];
  const panels = [];
  const checks = [];
  const printed = [];
  const rows = [];
  const flatness = [];
  epsilons.forEach((epsilon, ei) => {
    const star = ps.sampler('minimax', { epsilon });
    const dagger = ps.sampler('linear', { epsilon });
    try {
      const q = star.distribution(P);
      const r = star.normaliser(P);
      const ref = FIG2_PRINTED[epsilon];
      panels.push({
        title: `ε = ${epsilon}`,
        kind: 'bars',
        x: { label: 'Data value x' },
        y: { label: 'Probability', log: false },
        series: [
          { label: 'Original pmf P(x)', points: P.map((p, x) => [x + 1, p]) },
          { label: `Q*_{k,ε}(x|P), ε = ${epsilon}`, points: Array.from(q, (v, x) => [x + 1, v]) },
          ...(ref ? [{ label: `Q*_{k,ε}(x|P), ε = ${epsilon} (paper: the authors' code; the paper prints no digits)`,
            points: ref.q.map((v, x) => [x + 1, Number(v)]), printed: true }] : []),
        ],
      });
      if (ref) {
        printed.push(printedValue(`r_P (ε = ${epsilon})`, ref.r, r, 'code'));
        ref.q.forEach((v, x) => printed.push(printedValue(`Q*(${x + 1}|P) (ε = ${epsilon})`, v, q[x], 'code')));
      }
      // Privacy: the channel over P, every point mass and every "no mass on x" input holds each category's
      // largest and smallest output probability over all pmfs, so its pure ε is the mechanism's (ps.channelLdp).
      const loss = ps.channelLdp(inputs.map((p) => star.distribution(p))).pureEpsilon;
      checks.push(check(`ε = ${epsilon}: channel over P and the ${2 * k} extreme inputs, pure ε (ps.channelLdp) <= ε`, loss, epsilon + SLACK));
      checks.push(check(`ε = ${epsilon}: box ratio of Q*(·|P), log(max_x Q* / min_x Q*) <= ε (ps.boxLogWidth)`,
        ps.boxLogWidth(q, new Float64Array(q.length).fill(1)), epsilon + SLACK));
      checks.push(check(`ε = ${epsilon}: r_P >= 1, the left end of its bracket (value 1 − r_P, limit 0)`, 1 - r, 0));
      // Prop. 3.4: Q*(P) is the f-projection onto the set of ε-LDP outputs, which holds the k-RR output Q†(P).
      const qDagger = dagger.distribution(P);
      let excess = -Infinity;
      for (const { f } of DIVERGENCES) excess = Math.max(excess, ps.divergence(f, P, q) - ps.divergence(f, P, qDagger));
      checks.push(check(`ε = ${epsilon}: Prop. 3.4, max over KL, TV, Sq. Hel of D_f(P‖Q*) − D_f(P‖Q†) (k-RR) <= 0`, excess, SLACK));
      flatness.push([epsilon, ps.divergence('tv', q, uniform)]);
      q.forEach((v, x) => rows.push([epsilon, x + 1, P[x], v, ref ? Number(ref.q[x]) : '', r, ref ? Number(ref.r) : '']));
    } finally {
      star.dispose();
      dagger.dispose();
    }
    progress?.((ei + 1) / epsilons.length);
  });
  // The paper's remark: Q* flattens toward uniform as ε → 0 (TV(Q*, uniform) increases with ε).
  flatness.sort((a, b) => a[0] - b[0]);
  let drop = -Infinity;
  for (let i = 1; i < flatness.length; i += 1) drop = Math.max(drop, flatness[i - 1][1] - flatness[i][1]);
  if (flatness.length > 1) checks.push(check('Q* flattens toward uniform as ε falls: max decrease of TV(Q*, uniform) between increasing ε <= 0', drop, 0));
  return {
    panels,
    checks,
    printed,
    table: { columns: ['epsilon', 'x', 'P', 'Q_star', 'Q_star_printed', 'r_P', 'r_P_printed'], rows },
  };
}

// ---- Figs 3, 5, 6, 7 --------------------------------------------------------------------------------------------

const PRINTED_EPSILONS = [0.1, 0.5, 1, 2, 5];

// docs/experiments.md#park-figs-3-5-7-finite-worst-case: proposed (Thm 3.1; tests/golden/minimax.json "risks",
// asserted in core/mechanisms/minimax/minimax_test.cpp) and baseline (App. F.1; the same file's "baseline_risks",
// asserted in core/mechanisms/mollifier/mollifier_test.cpp) at ε = 0.1, 0.5, 1, 2, 5, 4 decimals, Sq. Hel in the
// plotted ½ convention. RISK_TABLE[k][f] = [proposed, baseline], each the printed values as text (the digits shown
// are the precision the comparison allows).
const RISK_TABLE = riskTable(MINIMAX_GOLDEN);

function riskTable({ risks, baseline_risks: baseline }) {
  const table = {};
  [risks, baseline].forEach(({ epsilons, rows }, column) => {
    if (epsilons.join() !== PRINTED_EPSILONS.join()) throw new Error(`tests/golden/minimax.json: risks at ε = ${epsilons}`);
    for (const { k, f, values } of rows) ((table[k] ??= {})[f] ??= [])[column] = values.map((v) => v.toFixed(4));
  });
  return table;
}

/**
 * Figs 3, 5, 6, 7: for every ε of the grid, the closed-form worst case over P([k]) of the proposed Q*
 * ('minimax'.worstCaseRisk, Thm 3.1) and of the uniform-reference mollifier ('mollifier'.worstCaseRisk, App. F.1),
 * and the checks —
 *  - the paper's claim: proposed <= baseline at every ε of the grid and every f;
 *  - ours is the minimax risk: the 'linear' sampler (Q†, k-RR, also minimax-optimal) has the same closed form at every
 *    ε of the grid, and D_f(δ_x‖Q*(δ_x)) through ps.divergence equals it (a point mass attains it);
 *  - the baseline's closed form is attained by a point mass too (D_f(δ_x‖Q_moll(δ_x)));
 *  - privacy of both samplers: ps.channelLdp over the extreme inputs (pure ε <= ε).
 * The last three, which solve for output pmfs, run on the coarser check grid (step checkStep, and the paper's ε) so
 * that the entry stays within the closed-form budget of 200 ms.
 */
async function runRisk(ps, setup, { progress } = {}) {
  const { k, epsilonMin, epsilonMax, epsilonStep, checkStep, printedEpsilons } = setup;
  const epsilons = epsilonGrid(epsilonMin, epsilonMax, epsilonStep, printedEpsilons);
  const checked = new Set(epsilonGrid(epsilonMin, epsilonMax, checkStep, printedEpsilons));
  const table = RISK_TABLE[k];
  const point = pointMass(k, 0);
  const extremes = extremeInputs(k);
  const series = {};
  for (const { f } of DIVERGENCES) {
    series[f] = [
      { label: 'Proposed Q*', points: [] },
      { label: 'Baseline (Husain et al., uniform Q0)', points: [] },
    ];
  }
  const worst = { gap: -Infinity, attained: 0, linear: 0, baselineAttained: 0, lossStar: -Infinity, lossBaseline: -Infinity };
  const printed = [];
  const rows = [];
  epsilons.forEach((epsilon, ei) => {
    const star = ps.sampler('minimax', { epsilon });
    const dagger = ps.sampler('linear', { epsilon });
    const baseline = ps.sampler('mollifier', { epsilon });
    try {
      const onCheckGrid = checked.has(epsilon);
      const qStar = onCheckGrid ? star.distribution(point) : null;
      const qBaseline = onCheckGrid ? baseline.distribution(point) : null;
      for (const { f, label } of DIVERGENCES) {
        const ours = star.worstCaseRisk(f, k);
        const theirs = baseline.worstCaseRisk(f, k);
        series[f][0].points.push([epsilon, ours]);
        series[f][1].points.push([epsilon, theirs]);
        worst.gap = Math.max(worst.gap, ours - theirs);
        worst.linear = Math.max(worst.linear, Math.abs(dagger.worstCaseRisk(f, k) - ours) / ours);
        const attained = onCheckGrid ? ps.divergence(f, point, qStar) : '';
        const attainedBaseline = onCheckGrid ? ps.divergence(f, point, qBaseline) : '';
        if (onCheckGrid) {
          worst.attained = Math.max(worst.attained, Math.abs(attained - ours) / ours);
          worst.baselineAttained = Math.max(worst.baselineAttained, Math.abs(attainedBaseline - theirs) / theirs);
        }
        const col = PRINTED_EPSILONS.indexOf(epsilon);
        const ref = table && col >= 0 ? table[f] : null;
        if (ref) {
          printed.push(printedValue(`Proposed ${label}(k=${k}, ε=${epsilon})`, ref[0][col], ours, 'derived'));
          printed.push(printedValue(`Baseline ${label}(k=${k}, ε=${epsilon})`, ref[1][col], theirs, 'derived'));
        }
        rows.push([epsilon, f, ours, theirs, attained, attainedBaseline, ref ? Number(ref[0][col]) : '', ref ? Number(ref[1][col]) : '']);
      }
      if (onCheckGrid) {
        worst.lossStar = Math.max(worst.lossStar, ps.channelLdp(extremes.map((p) => star.distribution(p))).pureEpsilon - epsilon);
        worst.lossBaseline = Math.max(worst.lossBaseline, ps.channelLdp(extremes.map((p) => baseline.distribution(p))).pureEpsilon - epsilon);
      }
    } finally {
      star.dispose();
      dagger.dispose();
      baseline.dispose();
    }
    progress?.((ei + 1) / epsilons.length);
  });
  if (table) {
    for (const { f, label } of DIVERGENCES) {
      series[f].push(
        { label: 'Proposed (reference table: closed form, derived, 4 digits)', points: PRINTED_EPSILONS.map((e, i) => [e, Number(table[f][0][i])]), printed: true },
        { label: 'Baseline (reference table: closed form, derived, 4 digits)', points: PRINTED_EPSILONS.map((e, i) => [e, Number(table[f][1][i])]), printed: true },
      );
    }
  }
  const n = epsilons.length;
  const m = checked.size;
  const checks = [
    check(`the paper's claim: proposed <= baseline at all ${n} ε in [${epsilons[0]}, ${epsilons[n - 1]}], KL, TV, Sq. Hel (max proposed − baseline)`,
      worst.gap, 0),
    check(`ours is the minimax risk: max relative |Q† (k-RR) closed form − Q* closed form| at all ${n} ε (both minimax-optimal)`, worst.linear, 1e-10),
    check(`ours is the minimax risk: max relative |D_f(δ_1‖Q*(δ_1)) − closed form| at ${m} ε (the point mass attains it)`, worst.attained, 1e-10),
    check(`baseline closed form attained: max relative |D_f(δ_1‖Q_moll(δ_1)) − closed form| at ${m} ε`, worst.baselineAttained, 1e-10),
    check(`privacy, proposed: max over ${m} ε of (pure ε of the extreme inputs' channel, ps.channelLdp) − ε <= 0`, worst.lossStar, SLACK),
    check(`privacy, baseline: max over ${m} ε of (pure ε of the extreme inputs' channel, ps.channelLdp) − ε <= 0`, worst.lossBaseline, SLACK),
  ];
  const panels = DIVERGENCES.map(({ f, label }) => ({
    title: label,
    kind: 'lines',
    x: { label: 'Privacy budget ε', log: false },
    y: { label: 'Worst f-divergence', log: false },
    series: series[f],
  }));
  return {
    // The erratum's corrected panel: the paper's stated f = (1 − √t)² is twice the plotted ½ convention.
    panels: [...panels, statedHellingerPanel(panels)],
    checks,
    printed,
    table: {
      columns: ['epsilon', 'divergence', 'proposed', 'baseline', 'proposed_attained', 'baseline_attained', 'proposed_reference', 'baseline_reference'],
      rows,
    },
  };
}

function riskEntry(figure, k) {
  return {
    name: `minimax-fig${figure}`,
    paper: 'minimax',
    figure: `Fig. ${figure}`,
    title: `Finite space, worst-case f-divergence against ε, k = ${k}: proposed Q* (Thm 3.1) vs Husain et al. (uniform Q0)`,
    closedForm: true,
    setup: {
      k, epsilonMin: 0.1, epsilonMax: 5, epsilonStep: 0.05, checkStep: 0.5, printedEpsilons: PRINTED_EPSILONS,
      proposed: "'minimax' (Thm 3.1), worst case over P([k])",
      baseline: "'mollifier' with the uniform reference Q0 (App. F.1), worst case over P([k])",
    },
    quick: { epsilonStep: 0.1 },
    erratum: HELLINGER_ERRATUM,
    run: runRisk,
  };
}

export const experiments = [
  {
    name: 'minimax-fig2',
    paper: 'minimax',
    figure: 'Fig. 2',
    title: 'Q*_{k,ε}(·|P) beside P, k = 5, P = (0.30, 0.25, 0.20, 0.15, 0.10), ε = 1, 0.5, 0.1',
    closedForm: true,
    setup: { k: 5, P: [0.3, 0.25, 0.2, 0.15, 0.1], epsilons: [1, 0.5, 0.1], sampler: "'minimax' (Thm 3.1)" },
    quick: {},
    erratum: undefined,
    run: runFig2,
  },
  riskEntry(3, 10),
  riskEntry(5, 5),
  riskEntry(6, 20),
  riskEntry(7, 100),
];
