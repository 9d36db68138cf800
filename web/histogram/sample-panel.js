// One private sample: the worker draws it with the module's CSPRNG; the page shows the category and counts the
// budgets spent in this page (they add up).
import { $, elements } from '../dom.js';
import { formatEpsilon } from '../format.js';
import { shortName } from '../labels.js';

export function mountSamplePanel(store, { worker, budgetSymbol }) {
  const { state } = store;
  const el = elements({ draw: 'draw', placeholder: 'sample-placeholder', result: 'sample-result' });
  Object.assign(el, elements({ epsilon: 'sample-epsilon', spendCount: 'spend-count' }));

  async function drawSample() {
    if (!state.valid || !state.computed) return;
    if (!state.settings) return;
    const { names, hist } = state.valid;
    const { epsilon, mechanism } = state;
    const symbol = budgetSymbol();
    el.draw.disabled = true;
    try {
      const { index } = await worker.call('sample', { hist, epsilon, mechanism, settings: state.settings });
      state.draws.push(epsilon);
      el.placeholder.hidden = true;
      el.result.parentElement.hidden = false;
      el.result.textContent = names[index];
      el.result.dataset.index = String(index);
      el.result.dataset.mechanism = mechanism;
      el.epsilon.textContent = `(draw #${state.draws.length}, ${shortName(mechanism)}, spent ${symbol} = ${formatEpsilon(epsilon)})`;
      const recent = state.draws.slice(-8).map(formatEpsilon).join(', ');
      el.spendCount.textContent =
        state.draws.length === 1
          ? 'You have drawn 1 sample in this page.'
          : `You have drawn ${state.draws.length} samples in this page (ε ${state.draws.length > 8 ? '…, ' : ''}${recent}): their budgets add up.`;
    } catch (error) {
      store.emit('rejected', { error, request: { names, mechanism } });
    } finally {
      store.emit('controls');
    }
  }

  el.draw.addEventListener('click', drawSample);
}
