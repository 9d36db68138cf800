// The output panels: P and Q(·|P) as bars, the divergence-versus-ε comparison with its notes, and the guarantee
// line as the library states it (sampler.guarantee). Everything shown comes from the worker's answer.
import { createBarChart, createDivergenceChart, updateBarChart, updateDivergenceChart } from '../charts.js';
import { $, elements, strong, sup } from '../dom.js';
import { formatEpsilon, formatNumber } from '../format.js';
import { DIVERGENCE_LABELS } from '../labels.js';
import { legendName, shortName } from '../mechanisms.js';

export function mountResults(store) {
  const { state } = store;
  const el = elements({ guarantee: 'guarantee', barsSummary: 'bars-summary', divSummary: 'div-summary' });
  Object.assign(el, elements({ barsMechanism: 'bars-mechanism', compareNote: 'compare-note' }));
  const barChart = createBarChart($('bar-chart'));
  const divergenceChart = createDivergenceChart($('divergence-chart'));

  function show({ request, result }) {
    const drawn = updateBarChart(barChart, {
      names: request.names,
      p: result.p,
      q: result.q,
      epsilon: result.epsilon,
      mechanism: result.mechanism,
      guarantee: result.guarantee,
      label: shortName(result.mechanism),
    });
    updateDivergenceChart(divergenceChart, result, legendName);
    showGuarantee(result.guarantee);
    el.guarantee.dataset.notion = result.guarantee.notion;
    el.guarantee.dataset.mechanism = result.mechanism;
    const short = shortName(result.mechanism);
    let summary;
    if (result.normaliser === null) summary = `Here k = ${result.k}; Q(·|P) of ${short}.`;
    else if (result.normaliser > 0) summary = `Here k = ${result.k}; ${short} uses the normaliser r_P = ${formatNumber(result.normaliser)}.`;
    else summary = `Here k = ${result.k}; P is sparse (r_P → 0): Q keeps the floor on every category outside P's support.`;
    if (drawn.others > 0)
      summary += ` The chart shows the ${drawn.labels.length - 1} largest categories of P and the other ${drawn.others} as one bar; the table lists them all.`;
    el.barsSummary.textContent = summary;
    const fl = DIVERGENCE_LABELS[result.f].symbol;
    const budget = result.guarantee.notion === 'gaussian-ldp' ? `μ = ${formatEpsilon(result.guarantee.mu)}` : `ε = ${formatEpsilon(result.epsilon)}`;
    const worst = result.current.worst === null ? result.current.worstNote : formatNumber(result.current.worst);
    el.divSummary.textContent = `Chosen: ${short} at ${budget}: your ${fl} = ${formatNumber(result.current.user)}, worst case ${worst}.`;
    showCompareNotes(result);
  }

  /** Notes under the comparison chart: mechanisms left out and worst cases that do not cover this P. */
  function showCompareNotes(result) {
    const notes = [];
    for (const s of result.curve.series) {
      const name = shortName(s.mechanism);
      if (s.skipped) notes.push(`${name} is not shown: ${s.skipped}.`);
      else if (s.worst === null) notes.push(`${name}: worst case has no closed form (only your curve is drawn).`);
      else if (s.outsideNeighbourhood)
        notes.push(`${name}: your P is not within a factor γ of the prior, so its worst case (dashed) does not cover your P.`);
    }
    if (result.guarantee.notion === 'gaussian-ldp')
      notes.push('The chart uses ε: the Gaussian (μ) variant is drawn in its pure-ε form, without a current-value marker.');
    else if (result.guarantee.notion === 'approx-ldp') notes.push('The chart draws the linear samplers in their pure-ε form (δ = 0).');
    const recordLevelShown = result.curve.series.some((s) => store.is('recordLevel', s.mechanism) && !s.skipped);
    if (store.is('recordLevel', result.mechanism) || recordLevelShown)
      notes.push('ROO curves are record-level ε-DP (n = sum of your counts), a weaker promise than LDP.');
    el.compareNote.textContent = notes.map((n) => n.charAt(0).toUpperCase() + n.slice(1)).join(' ');
    el.compareNote.hidden = notes.length === 0;
  }

  /** The guarantee line, from sampler.guarantee (the library says which notion holds, with its parameters). */
  function showGuarantee(g) {
    const e = g.epsilon === undefined ? '' : formatEpsilon(g.epsilon);
    if (g.notion === 'pure-ldp') {
      el.guarantee.replaceChildren(
        'Pure ε-local differential privacy (ε = ',
        strong(e),
        '): for any two histograms P and P′ and every category x, the probability of releasing x differs by at most a factor e',
        sup('ε'),
        ' = e',
        sup(e),
        '.',
      );
    } else if (g.notion === 'approx-ldp') {
      el.guarantee.replaceChildren(
        '(ε, δ)-local differential privacy (ε = ',
        strong(e),
        ', δ = ',
        strong(String(g.delta)),
        '): for any two histograms P and P′ and any set A of categories, Pr[A | P] ≤ e',
        sup('ε'),
        '·Pr[A | P′] + δ.',
      );
    } else if (g.notion === 'gaussian-ldp') {
      el.guarantee.replaceChildren(
        'μ-Gaussian local differential privacy (μ = ',
        strong(formatEpsilon(g.mu)),
        '): telling any two histograms apart from the sample is at least as hard as telling N(0, 1) from N(μ, 1) apart.',
      );
    } else if (g.notion === 'record-dp') {
      el.guarantee.replaceChildren(
        'ε-DP for each of your n = ',
        strong(String(g.records)),
        ' records (ε = ',
        strong(e),
        '): changing any one record changes the probability of every released category by at most a factor e',
        sup('ε'),
        '. This protects single records, not the whole histogram (it is not local DP).',
      );
    } else {
      el.guarantee.textContent = `Guarantee: ${JSON.stringify(g)}`;
    }
  }

  store.on('mechanism', () => {
    el.barsMechanism.textContent = shortName(state.mechanism);
  });
  store.on('result', show);
}
