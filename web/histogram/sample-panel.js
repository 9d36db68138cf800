// One private sample: released through the page's privacy-budget ledger (ledger-panel.js), which draws it with the
// module's CSPRNG, records it and refuses it past the budget; the page shows the category, or why nothing was
// released, and counts the budgets spent in this page (they add up).
import { elements } from '../dom.js';
import { formatEpsilon } from '../format.js';
import { shortName } from '../mechanisms.js';

export function mountSamplePanel(store, { ledger, budgetSymbol }) {
  const { state } = store;
  const el = elements({ draw: 'draw', placeholder: 'sample-placeholder', result: 'sample-result', refused: 'sample-refused' });
  Object.assign(el, elements({ epsilon: 'sample-epsilon', spendCount: 'spend-count' }));

  async function drawSample() {
    if (!state.valid || !state.computed) return;
    if (!state.settings) return;
    const { mechanism, epsilon } = state;
    const symbol = budgetSymbol();
    el.draw.disabled = true;
    try {
      const { index, name } = await ledger.release();
      state.draws.push(epsilon);
      el.refused.hidden = true;
      el.placeholder.hidden = true;
      el.result.parentElement.hidden = false;
      el.result.textContent = name;
      el.result.dataset.index = String(index);
      el.result.dataset.mechanism = mechanism;
      el.epsilon.textContent = `(draw #${state.draws.length}, ${shortName(mechanism)}, spent ${symbol} = ${formatEpsilon(epsilon)}, recorded in the ledger)`;
      const recent = state.draws.slice(-8).map(formatEpsilon).join(', ');
      el.spendCount.textContent =
        state.draws.length === 1
          ? 'You have drawn 1 sample in this page.'
          : `You have drawn ${state.draws.length} samples in this page (ε ${state.draws.length > 8 ? '…, ' : ''}${recent}): their budgets add up.`;
    } catch (error) {
      el.refused.textContent = error.message;
      el.refused.dataset.state = error.state ?? 'error';
      el.refused.hidden = false;
    } finally {
      store.emit('controls');
    }
  }

  el.draw.addEventListener('click', drawSample);
}
