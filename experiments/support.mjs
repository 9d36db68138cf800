// Small helpers shared by the experiment files (the registry format: experiments/index.mjs). No mathematics here:
// every number of a result comes from the privsample/research API; these only build result records, compare
// numbers with limits and keep running maxima (aggregation). Other files may ADD exports at the end, never change
// the existing ones.

/** The papers' three divergences; 'hellinger' is ½Σ(√p − √q)², the papers' plotted "Sq. Hel". */
export const DIVERGENCES = Object.freeze([
  Object.freeze({ f: 'kl', label: 'KL' }),
  Object.freeze({ f: 'tv', label: 'TV' }),
  Object.freeze({ f: 'hellinger', label: 'Sq. Hel' }),
]);

/** Relative slack of the bound and privacy checks: floating-point rounding only. */
export const RELATIVE_SLACK = 1e-9;

/** A check (privacy or bound): ok when value <= limit·(1 + RELATIVE_SLACK), unless `ok` is given. */
export function checkAtMost(label, value, limit, ok = value <= limit + RELATIVE_SLACK * Math.abs(limit)) {
  return { label, value, limit, ok };
}

/**
 * A reference value beside ours: ok when |computed − paper| <= abs + rel·|paper|. `source` says where the reference
 * comes from (experiments/index.mjs REFERENCE_SOURCES: 'printed', 'figure', 'code' or 'derived').
 */
export function printedValue(label, paper, computed, { abs = 0, rel = 0, source } = {}) {
  return { label, paper, computed, source, ok: Number.isFinite(computed) && Math.abs(computed - paper) <= abs + rel * Math.abs(paper) };
}

/** A 'lines' or 'bars' series over category labels x (numbers) and values y; nulls are left out. */
export function seriesOf(label, xs, ys, extra = {}) {
  const points = [];
  xs.forEach((x, i) => {
    if (ys[i] !== null && ys[i] !== undefined && Number.isFinite(ys[i])) points.push([x, ys[i]]);
  });
  return { label, points, ...extra };
}

/**
 * The exact pure LDP ε* of the channel whose rows are the given output distributions (ps.channelLdp: the core's
 * max over cells and pairs of rows of log(q_i/q_j)).
 */
export const channelEpsilon = (ps, rows) => ps.channelLdp(rows).pureEpsilon;

/** Point masses on a few cells (first, middle, last) of `cells`: adversarial inputs of a privacy check. */
export function pointMasses(cells) {
  return [0, Math.floor(cells / 2), cells - 1].map((at) => {
    const e = new Float64Array(cells);
    e[at] = 1;
    return e;
  });
}

/** β grid of the Gaussian-LDP checks: δ of the outputs' channel against the notion's profile δ_μ(β). */
export const GAUSSIAN_CHECK_BETAS = Object.freeze([0, 0.25, 0.5, 1, 2, 4]);
/** How many outputs enter a Gaussian-LDP check (the exact LDP curve is quadratic in the rows). */
export const GAUSSIAN_CHECK_ROWS = 10;

/**
 * One continuous figure of the papers (Park Fig. 4, Ghoukasian Figs 4 and 10): for every budget, the clients of
 * that budget's seed (ps.seededRandomMixtures), each sampler's exact output pmf on every client, the worst (max over
 * clients) of each divergence beside the sampler's closed-form worst case R, and a privacy check of the outputs
 * computed by the core:
 *   notion 'pure':     ε* of the channel of the outputs (clients, plus point masses when `anyInput`) <= ε;
 *   notion 'gaussian': δ of the channel of the first GAUSSIAN_CHECK_ROWS outputs <= δ_μ(β) on GAUSSIAN_CHECK_BETAS.
 * samplers: [{ key, label, notion, anyInput, make(budget) → continuous sampler }]; budgetSymbol names the budget.
 * progress(fraction) after every client of every sampler. Returns rows
 *   { budget, sampler, f, measured, bound, worstClient, privacy: { label, value, limit } } (privacy on the f = 'kl' row).
 */
export function continuousFigure(ps, { budgets, seeds, clients, grid, clientDensity, samplers, budgetSymbol, progress = () => {} }) {
  const rows = [];
  const total = budgets.length * samplers.length * clients;
  let done = 0;
  budgets.forEach((budget, b) => {
    const densities = ps.seededRandomMixtures({ seed: seeds[b], count: clients }).map((m) => clientDensity(grid, m));
    for (const sampler of samplers) {
      const s = sampler.make(budget);
      const worst = Object.fromEntries(DIVERGENCES.map(({ f }) => [f, { value: -Infinity, client: -1 }]));
      const outputs = [];
      densities.forEach((p, j) => {
        const q = s.distribution(p);
        outputs.push(q);
        for (const { f } of DIVERGENCES) {
          const d = ps.divergence(f, p, q);
          if (d > worst[f].value) worst[f] = { value: d, client: j };
        }
        done += 1;
        progress(done / total);
      });
      let privacy;
      if (sampler.notion === 'gaussian') {
        const channel = ps.channelLdp(outputs.slice(0, GAUSSIAN_CHECK_ROWS), GAUSSIAN_CHECK_BETAS);
        let excess = -Infinity;
        GAUSSIAN_CHECK_BETAS.forEach((beta, i) => {
          excess = Math.max(excess, channel.delta[i] - ps.privacyProfile({ mu: budget }, beta));
        });
        privacy = {
          label: `${sampler.label} ${budgetSymbol} = ${budget}: δ of the outputs' channel <= δ_${budgetSymbol}(β) at β = ${GAUSSIAN_CHECK_BETAS.join(', ')} (max excess)`,
          value: excess, limit: 0,
        };
      } else {
        const extra = sampler.anyInput ? pointMasses(grid.cells).map((e) => s.distribution(e)) : [];
        privacy = {
          label: `${sampler.label} ${budgetSymbol} = ${budget}: pure ε* of the outputs' channel (${clients} clients${sampler.anyInput ? ' + 3 point masses' : ''}) <= ${budgetSymbol}`,
          value: channelEpsilon(ps, [...outputs, ...extra]), limit: budget,
        };
      }
      for (const { f } of DIVERGENCES) {
        rows.push({ budget, sampler: sampler.key, f, measured: worst[f].value, bound: s.worstCaseRisk(f), worstClient: worst[f].client,
          ...(f === 'kl' ? { privacy } : {}) });
      }
    }
  });
  return rows;
}

/** The checks of continuousFigure's rows: measured <= R for each sampler and f over every budget, and the privacy checks. */
export function continuousChecks(rows, samplers) {
  const checks = [];
  for (const { key, label } of samplers) {
    for (const { f, label: fLabel } of DIVERGENCES) {
      const mine = rows.filter((r) => r.sampler === key && r.f === f && Number.isFinite(r.bound));
      if (mine.length === 0) continue;
      const excess = Math.max(...mine.map((r) => r.measured - r.bound * (1 + RELATIVE_SLACK)));
      checks.push(checkAtMost(`${label} ${fLabel}: worst over the clients <= closed-form R at every budget (max excess)`, excess, 0, excess <= 0));
    }
  }
  for (const r of rows) if (r.privacy) checks.push(checkAtMost(r.privacy.label, r.privacy.value, r.privacy.limit));
  return checks;
}

/** The three divergence panels (bars over the budgets): each sampler's measured worst and its bound R. */
export function continuousPanels(rows, samplers, budgets, xLabel) {
  return DIVERGENCES.map(({ f, label }) => ({
    title: label,
    kind: 'bars',
    x: { label: xLabel },
    y: { label: `worst ${label} over the clients`, log: false },
    series: samplers.flatMap(({ key, label: sLabel }) => {
      const pick = (field) => budgets.map((b) => rows.find((r) => r.budget === b && r.sampler === key && r.f === f)?.[field] ?? null);
      const measured = seriesOf(`${sLabel} (measured worst)`, budgets, pick('measured'));
      const bound = seriesOf(`${sLabel} (closed-form R)`, budgets, pick('bound'));
      return bound.points.length ? [measured, bound] : [measured];
    }),
  }));
}

/** The CSV table of continuousFigure's rows. */
export function continuousTable(rows, budgetName) {
  return {
    columns: [budgetName, 'divergence', 'sampler', 'measured_worst', 'bound_R', 'worst_client', 'privacy_check', 'privacy_value', 'privacy_limit'],
    rows: rows.map((r) => [r.budget, r.f, r.sampler, r.measured, Number.isFinite(r.bound) ? r.bound : '', r.worstClient,
      r.privacy?.label ?? '', r.privacy?.value ?? '', r.privacy?.limit ?? '']),
  };
}

// ---- the Hellinger convention (docs/errata.md#the-hellinger-convention) --------------------------------------------

/** The corrected panel's title: squared Hellinger with the f both papers state. */
export const STATED_HELLINGER = 'Sq. Hel as the paper defines it (f = (1 − √t)²)';

/**
 * The erratum of every figure that draws a "Sq. Hel" panel: both papers (Park et al., Ghoukasian et al.) define
 * the squared Hellinger distance with f(t) = (1 − √t)² but plot the code's f(t) = 1 − √t.
 */
export const HELLINGER_ERRATUM = 'Sq. Hel: the paper defines the squared Hellinger distance with f(t) = (1 − √t)² ' +
  '(maximum 2) but its code, and so its plotted panel, uses f(t) = 1 − √t, i.e. ½Σ(√p − √q)² (maximum 1). We draw ' +
  'the plotted ½ convention (the library\'s \'hellinger\') as "Sq. Hel", and beside it the corrected panel for the ' +
  'stated f, on which every value doubles (Σ(√p − √q)² = 2 · ½Σ(√p − √q)², a change of units, not a new ' +
  'computation). See docs/errata.md#the-hellinger-convention.';

/**
 * The corrected panel of the erratum: a copy of the panel titled 'Sq. Hel' among `panels` with every value doubled
 * (the stated f is twice the plotted one), titled STATED_HELLINGER.
 */
export function statedHellingerPanel(panels) {
  const plotted = panels.find((p) => p.title === 'Sq. Hel');
  if (!plotted) throw new RangeError('statedHellingerPanel: no panel titled "Sq. Hel"');
  return {
    ...plotted,
    title: STATED_HELLINGER,
    y: { ...plotted.y, label: 'Worst Sq. Hel, f = (1 − √t)²' },
    series: plotted.series.map((s) => ({ ...s, points: s.points.map(([x, y]) => [x, 2 * y]) })),
  };
}
