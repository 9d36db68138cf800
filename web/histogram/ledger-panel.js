// The privacy-budget ledger panel of the histogram page: a thin view over the library's ledger (ps.ledger with the
// IndexedDB back-end, whose transactions keep two tabs of the page from over-spending; docs/analysis/ledger.md). It
// shows the recorded releases and the spent budget per purpose and lets the person set a budget. Every sample the page
// releases goes through release() here — the "Draw one private sample" button and this panel's own button alike — so
// the ledger records each one and refuses one that would exceed the budget. Composition and the budget check are the
// library's; this file only displays. A release is one draw of the histogram the page shows, with its mechanism and
// ε, and the sampler options the worker builds for them ('samplerOptions') — one cheap draw, so it runs here with the
// small client entry. Other tabs of the page hear of each release and clear (a BroadcastChannel) and show the new
// totals at once.
import { init } from 'privsample';
import { formatEpsilon } from '../format.js';

const SETTINGS_KEY = 'privsample-demo:ledger-panel';
const LEDGER_DATABASE = 'privsample-demo-ledger';
const NOTIONS = {
  ldp: { label: 'ε (local DP)', symbol: 'ε' },
  'gaussian-ldp': { label: 'μ (Gaussian local DP)', symbol: 'μ' },
  'record-dp': { label: 'ε per record (record-level DP)', symbol: 'ε' },
};

function loadSettings() {
  try {
    const saved = JSON.parse(globalThis.localStorage?.getItem(SETTINGS_KEY) ?? 'null');
    if (saved && typeof saved.purpose === 'string' && typeof saved.budget === 'string' && saved.notion in NOTIONS) return saved;
  } catch {
    // storage blocked or damaged: defaults
  }
  return { purpose: 'demo', budget: '10', notion: 'ldp' };
}

function saveSettings(settings) {
  try {
    globalThis.localStorage?.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // storage blocked: the panel still works for this visit
  }
}

/** A guarantee or a total in words: "ε = 1", "ε = 1, δ = 1e-6", "μ = 0.5", "ε = 1 per record (n = 10)". */
function describeGuarantee(g) {
  if (g.notion === 'gaussian-ldp') return `μ = ${formatEpsilon(g.mu)}`;
  let text = `ε = ${formatEpsilon(g.epsilon)}`;
  if (g.delta) text += `, δ = ${g.delta}`;
  if (g.notion === 'record-dp') text += g.records ? ` per record (n = ${g.records})` : ' per record';
  return text;
}

function element(tag, { dataset = {}, ...props } = {}, children = []) {
  const node = document.createElement(tag);
  Object.assign(node, props);
  for (const [key, value] of Object.entries(dataset)) node.dataset[key] = value;
  node.append(...children);
  return node;
}

/** A release the ledger did not make: `message` is for the person (what happened and what to do). */
class NotReleased extends Error {
  constructor(message, state, cause) {
    super(message, { cause });
    this.name = 'NotReleased';
    this.state = state; // 'refused' (the budget or its unit) or 'error'
  }
}

/**
 * Mounts the panel into #ledger-panel; returns { release(), ready }: release() draws one sample of the store's current
 * histogram, mechanism, ε and options through the ledger and resolves to { index, name, guarantee, purpose }, or
 * rejects with a NotReleased error whose message says why nothing was released.
 */
export function mountLedgerPanel(store, { worker }) {
  const { state } = store;
  const root = document.getElementById('ledger-panel');
  const settings = loadSettings();
  const $ = (testid) => root.querySelector(`[data-testid="${testid}"]`);
  root.classList.add('card', 'ledger');
  root.innerHTML = `
    <h2 id="ledger-heading">Privacy budget ledger</h2>
    <p class="note">
      Keeps a record, <strong>in this browser only</strong>, of every sample released on this page (“Draw one private
      sample” and the button below) and what it spent, and refuses a release that would go over the budget you set for
      a purpose (budgets add up: basic composition).
    </p>
    <div class="ledger-controls">
      <label>Purpose <input data-testid="ledger-purpose" type="text" maxlength="40" autocomplete="off" /></label>
      <label>Budget <input data-testid="ledger-budget" type="number" min="0" step="any" inputmode="decimal" /></label>
      <label>in <select data-testid="ledger-notion"></select></label>
      <button data-testid="ledger-release" type="button" class="primary" disabled>Release a sample</button>
    </div>
    <p data-testid="ledger-message" class="ledger-message" aria-live="polite"></p>
    <ul data-testid="ledger-spent" class="ledger-spent"></ul>
    <table data-testid="ledger-entries" class="ledger-entries">
      <caption class="muted">Recorded releases (newest first)</caption>
      <thead><tr><th scope="col">When</th><th scope="col">Purpose</th><th scope="col">Mechanism</th><th scope="col">Spent</th></tr></thead>
      <tbody></tbody>
    </table>
    <p class="note">
      Limits: clearing this site's data resets the ledger; another browser or device keeps its own; it limits what
      this page releases and proves nothing to a server.
      <button data-testid="ledger-clear" type="button" class="small-button">Clear this purpose</button>
    </p>`;
  root.setAttribute('aria-labelledby', 'ledger-heading');
  root.removeAttribute('aria-label');
  const purposeInput = $('ledger-purpose');
  const budgetInput = $('ledger-budget');
  const notionSelect = $('ledger-notion');
  const releaseButton = $('ledger-release');
  const message = $('ledger-message');
  for (const [value, { label }] of Object.entries(NOTIONS)) notionSelect.append(element('option', { value, textContent: label }));
  purposeInput.value = settings.purpose;
  budgetInput.value = settings.budget;
  notionSelect.value = settings.notion;

  let ps = null;
  let ledger = null;
  let problem = 'It is still starting.'; // why `ledger` is null, for a release asked for meanwhile
  let busy = false;

  const say = (text, state) => {
    message.textContent = text;
    message.dataset.state = state;
  };

  // The ledger for the current purpose and budget (re-made when they change; the entries stay in IndexedDB). The
  // library loads the ledger on the first ps.ledger() call, so making one is async; a later change supersedes it.
  let generation = 0;
  let ledgerMade = Promise.resolve();
  async function makeLedger() {
    const mine = ++generation;
    const purpose = purposeInput.value.trim();
    const value = budgetInput.value.trim() === '' ? NaN : Number(budgetInput.value);
    Object.assign(settings, { purpose: purposeInput.value, budget: budgetInput.value, notion: notionSelect.value });
    saveSettings(settings);
    ledger = null;
    if (!ps) return;
    const refuse = (text) => {
      problem = text;
      say(text, 'error');
    };
    if (!purpose) return refuse('Enter a purpose (a name for what the samples are for).');
    if (!Number.isFinite(value) || value < 0) return refuse('Enter a budget: a number ≥ 0.');
    const budget = notionSelect.value === 'gaussian-ldp' ? { mu: value } : { notion: notionSelect.value, epsilon: value };
    try {
      const storage = ps.ledgerStorage.indexedDB({ database: LEDGER_DATABASE });
      const made = await ps.ledger({ storage, budgets: { [purpose]: budget } });
      if (mine !== generation) return;
      ledger = made;
      if (message.dataset.state === 'error') say('', '');
    } catch (error) {
      if (mine === generation) refuse(`The budget is not valid: ${error.message}`);
    }
  }

  async function render() {
    releaseButton.disabled = !ledger || busy;
    if (!ledger) return;
    const purpose = purposeInput.value.trim();
    const spentList = $('ledger-spent');
    const rows = [];
    for (const p of await ledger.purposes()) {
      try {
        const spent = await ledger.spent(p);
        const left = p === purpose ? await ledger.remaining(p) : null;
        const budget = ledger.budgets[p];
        let text = `${p}: spent ${describeGuarantee(spent)} in ${spent.releases} release${spent.releases === 1 ? '' : 's'}`;
        if (budget) text += ` of a budget of ${describeGuarantee(budget)} (${describeGuarantee(left)} left)`;
        rows.push(element('li', { textContent: text, dataset: { purpose: p } }));
      } catch (error) {
        rows.push(element('li', { textContent: `${p}: ${error.message}`, dataset: { purpose: p } }));
      }
    }
    spentList.replaceChildren(...rows);
    const entries = [...(await ledger.entries())].reverse().slice(0, 20);
    root.querySelector('tbody').replaceChildren(
      ...entries.map((e) =>
        element('tr', { dataset: { testid: 'ledger-entry' } }, [
          element('td', { textContent: new Date(e.time).toLocaleTimeString() }),
          element('td', { textContent: e.purpose }),
          element('td', { textContent: e.mechanism }),
          element('td', { textContent: describeGuarantee(e.guarantee) }),
        ]),
      ),
    );
    root.dataset.entries = String((await ledger.entries()).length);
  }

  // The other tabs of this page: each release or clear here makes them show the new totals (they read the same
  // IndexedDB store); a tab that comes back into view reads them again too.
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(LEDGER_DATABASE) : null;
  const changedElsewhere = () => void render().catch((error) => say(error.message, 'error'));
  channel?.addEventListener('message', changedElsewhere);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') changedElsewhere();
  });

  async function release() {
    await ready;
    await ledgerMade; // a budget typed just before the click applies to this release
    if (!state.valid || !state.settings) throw new NotReleased('Not released: fix the histogram and the mechanism options first.', 'error');
    if (!ledger) throw new NotReleased(`Not released: the ledger cannot record it. ${problem}`, 'error');
    const input = { names: state.valid.names, hist: state.valid.hist, mechanism: state.mechanism, epsilon: state.epsilon, settings: state.settings };
    const purpose = purposeInput.value.trim();
    busy = true;
    releaseButton.disabled = true;
    let sampler = null;
    try {
      const { options } = await worker.call('samplerOptions', input);
      sampler = ps.sampler(input.mechanism, options);
      const index = await ledger.release(sampler, input.hist, { purpose });
      const guarantee = { ...sampler.guarantee };
      say(`Released: ${input.names[index]} (spent ${describeGuarantee(guarantee)} for “${purpose}”).`, 'released');
      message.title = '';
      return { index, name: input.names[index], guarantee, purpose };
    } catch (error) {
      let text;
      let kind = 'refused';
      if (error instanceof RangeError && /would exceed its budget/.test(error.message)) {
        const left = await ledger.remaining(purpose);
        text =
          `Not released: this sample would spend ${describeGuarantee(sampler.guarantee)}, but “${purpose}” has only ` +
          `${describeGuarantee(left)} left of its budget. Raise the budget, clear the purpose, or use a smaller ε.`;
      } else if (error instanceof RangeError && /cannot be composed/.test(error.message)) {
        text =
          `Not released: “${purpose}” counts another kind of privacy budget than this mechanism spends ` +
          `(${describeGuarantee(sampler.guarantee)}). Use another purpose or change the budget's unit.`;
      } else {
        text = `Not released: ${error.message}`;
        kind = 'error';
      }
      say(text, kind);
      message.title = error.message;
      throw new NotReleased(text, kind, error);
    } finally {
      sampler?.dispose();
      busy = false;
      await render();
      channel?.postMessage('changed');
    }
  }

  const changed = () => {
    ledgerMade = makeLedger();
    return ledgerMade.then(render).catch((error) => say(error.message, 'error'));
  };
  purposeInput.addEventListener('change', changed);
  budgetInput.addEventListener('input', changed);
  notionSelect.addEventListener('change', changed);
  releaseButton.addEventListener('click', () => void release().catch(() => {})); // the message says why
  $('ledger-clear').addEventListener('click', async () => {
    const purpose = purposeInput.value.trim();
    if (!ledger || !purpose) return;
    await ledger.clear(purpose);
    say(`Cleared the record of “${purpose}”.`, '');
    await render();
    channel?.postMessage('changed');
  });

  const ready = init()
    .then(async (loaded) => {
      ps = loaded;
      await changed();
      root.dataset.ready = 'true';
    })
    .catch((error) => {
      problem = `It could not start: ${error.message}`;
      say(`The ledger could not start: ${error.message}`, 'error');
    });
  return { release, ready };
}
