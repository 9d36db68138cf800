// The accountant panel: the chosen mechanism's guarantee in every notion (LDP, what an observer learns in bits,
// capacity, LIP, the LMIDP paper's bounds and its Theorem 2(a) erratum) with the δ(ε′) chart. The numbers come from
// ps.accountant and ps.lmidp in the worker; this file formats them.
import { createAccountantChart, updateAccountantChart } from '../charts.js';
import { $, elements, showError, sup } from '../dom.js';
import { formatEpsilon, formatNumber, formatProbability } from '../format.js';
import { shortName } from '../mechanisms.js';

/** A number of bits for the accountant panel. */
const bits = (value) => `${formatNumber(value)} bit${value === 1 ? '' : 's'}`;

export function mountAccountant(store) {
  const { state } = store;
  const el = elements({ list: 'accountant-list', prior: 'accountant-prior', error: 'accountant-error', note: 'accountant-note' });
  Object.assign(el, elements({ mechanism: 'accountant-mechanism', inputs: 'accountant-inputs', erratum: 'acc-erratum' }));
  Object.assign(el, elements({ ldp: 'acc-ldp', ldpExplain: 'acc-ldp-explain', mi: 'acc-mi', miExplain: 'acc-mi-explain' }));
  Object.assign(el, elements({ capacity: 'acc-capacity', lip: 'acc-lip', bounds: 'acc-bounds', boundsExplain: 'acc-bounds-explain' }));
  const chart = createAccountantChart($('accountant-chart'));

  function show({ result }) {
    const acc = result.accountant;
    el.inputs.textContent = store.is('recordLevel', result.mechanism)
      ? `all n = ${result.records} records on one of the k = ${result.k} categories`
      : `k = ${result.k} point masses`;
    if (acc && acc.unavailable) {
      showUnavailable(acc.unavailable);
      return;
    }
    el.note.hidden = true;
    if (!acc || acc.error) {
      showFailure(acc ? acc.error : 'no result');
      return;
    }
    showError(el.error, '', []);
    el.list.hidden = false;
    const pick = [25, 50, 75].filter((i) => i < acc.epsilons.length);
    const deltas = pick.map((i) => `δ(${formatEpsilon(acc.epsilons[i])}) = ${formatNumber(acc.ldp.delta[i])}`).join(', ');
    const pure = Number.isFinite(acc.ldp.pureEpsilon);
    el.ldp.textContent = pure ? `pure ε = ${formatEpsilon(acc.ldp.pureEpsilon)}` : 'no pure ε (only (ε′, δ) pairs)';
    el.ldp.dataset.value = String(acc.ldp.pureEpsilon);
    const group = store.is('recordLevel', result.mechanism)
      ? ` Here between two users whose n = ${result.records} records all fall on one category vs. another (group privacy).`
      : '';
    el.ldpExplain.replaceChildren(
      'No observer of the sample can tell any two users apart by more than a factor e',
      sup('ε'),
      `${pure ? '' : ' (except with probability δ)'}. ${pure ? 'Below the pure ε, with probability δ' : 'At smaller ε′'}: ${deltas}.${group}`,
    );
    const share = acc.entropy > 0 ? ` (${((100 * acc.mutualInformation) / acc.entropy).toFixed(1)}%)` : '';
    el.mi.textContent = `leaks ${bits(acc.mutualInformation)} of H(X) = ${bits(acc.entropy)}${share}`;
    const source =
      acc.priorKind === 'own' ? 'your histogram P' : store.is('priorBased', result.mechanism) ? 'the public prior P0' : 'the uniform prior';
    el.miExplain.textContent = `I(X;Y): if your item X is drawn from ${source}, the released sample Y reveals this much of the H(X) bits it takes to name it.`;
    const lower = formatNumber(acc.capacity.lower);
    const upper = formatNumber(acc.capacity.upper);
    el.capacity.textContent = `${lower === upper ? upper : `${lower} – ${upper}`} bits (of log₂ k = ${formatNumber(Math.log2(acc.k))})`;
    el.lip.textContent = Number.isFinite(acc.lip.pureEpsilon) ? `ε = ${formatEpsilon(acc.lip.pureEpsilon)}` : 'no pure ε';
    const curveBound = acc.capacity.boundFromLdpCurve === null ? '' : `, ≤ ${bits(acc.capacity.boundFromLdpCurve)} from its δ curve`;
    el.bounds.textContent = `capacity ≤ ${bits(acc.capacity.boundFromPureLdp)} from the pure ε${curveBound}`;
    const lipBound =
      acc.mutualInformationBoundFromLipCurve === null
        ? ''
        : ` Theorem 2(b), from the LIP curve: I(X;Y) ≤ ${bits(acc.mutualInformationBoundFromLipCurve)} (actual ${bits(acc.mutualInformation)}).`;
    el.boundsExplain.textContent = `What the paper's bounds promise from LDP alone, against the actual capacity ${upper} bits: they are loose.${lipBound}`;
    el.erratum.textContent = `Erratum: Theorem 2(a) of the paper, as printed, would bound the LIP δ at ε′ = ${acc.erratum.epsilon} by ${formatNumber(
      acc.erratum.asPrinted,
    )} from I(X;Y) alone; that statement is false (a Gaussian mechanism breaks it). The corrected bound, which needs the prior's smallest mass (${formatProbability(
      acc.pMin,
    )}), gives ${formatNumber(acc.erratum.corrected)}; it is the dashed orange curve.`;
    el.erratum.hidden = false;
    el.list.dataset.report = JSON.stringify(
      {
        mechanism: result.mechanism,
        epsilon: result.epsilon,
        k: acc.k,
        priorKind: acc.priorKind,
        ldpEpsilon: acc.ldp.pureEpsilon,
        lipEpsilon: acc.lip.pureEpsilon,
        mutualInformation: acc.mutualInformation,
        entropy: acc.entropy,
        capacityLower: acc.capacity.lower,
        capacityUpper: acc.capacity.upper,
        boundFromPureLdp: acc.capacity.boundFromPureLdp,
        boundFromLdpCurve: acc.capacity.boundFromLdpCurve,
      },
      (_key, value) => (typeof value === 'number' && !Number.isFinite(value) ? String(value) : value),
    );
    updateAccountantChart(chart, acc);
  }

  function hide() {
    el.list.hidden = true;
    el.erratum.hidden = true;
    delete el.list.dataset.report;
  }

  /** The accountant is not computed for this size: a plain note (not an error), the rest of the page works. */
  function showUnavailable(message) {
    showError(el.error, '', []);
    el.note.textContent = message;
    el.note.hidden = false;
    hide();
    updateAccountantChart(chart, { error: message });
  }

  /** The accountant could not run (a rejected input): say why, keep the rest of the page. */
  function showFailure(message) {
    el.note.hidden = true;
    showError(el.error, 'The accountant cannot be shown:', [message]);
    hide();
    updateAccountantChart(chart, { error: message });
  }

  el.prior.addEventListener('change', () => {
    state.accountantPrior = el.prior.value;
    store.emit('stale');
    store.emit('input');
  });
  store.on('mechanism', () => {
    el.mechanism.textContent = shortName(state.mechanism);
    el.prior.querySelector('option[value="public"]').textContent = store.is('priorBased') ? 'the public prior P0' : 'a public prior (uniform)';
  });
  store.on('result', show);
  store.on('rejected', ({ error }) => showFailure(`the mechanism rejected the input (${error.name}: ${error.message})`));
}
