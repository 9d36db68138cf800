// The mechanism and privacy-budget panel: the mechanism picker with its plain-language line, its options (notion
// and δ; public prior and γ) and the log-scale ε slider (epsilon.js), plus the divergence picker. The page only
// checks that the fields hold numbers; the library checks their values (δ in [0,1), γ > 1, prior length and zeros).
// The picker's entries and which rows a mechanism shows come from the registry (mechanisms.js, store.is).
import { $, elements, showError } from '../dom.js';
import { SLIDER_RANGE, epsilonFromSlider } from '../epsilon.js';
import { formatEpsilon } from '../format.js';
import { explainMechanism, fillPicker } from '../mechanisms.js';
import { parseCount } from '../validate.js';

export function mountOptions(store) {
  const { state } = store;
  const el = elements({ slider: 'epsilon', epsilonValue: 'epsilon-value', epsilonLabel: 'epsilon-label', f: 'divergence-f' });
  Object.assign(el, elements({ mechanism: 'mechanism', explain: 'mechanism-explain', optionsError: 'options-error' }));
  Object.assign(el, elements({ notionRow: 'notion-row', notion: 'notion', delta: 'delta', deltaLabel: 'delta-label' }));
  Object.assign(el, elements({ priorRow: 'prior-row', priorMode: 'prior-mode', prior: 'prior', priorLabel: 'prior-label', gamma: 'gamma' }));

  /** The slider sets ε, or μ for the Gaussian notion of the linear samplers. */
  const budgetSymbol = () => (store.is('notionBased') && el.notion.value === 'gaussian' ? 'μ' : 'ε');

  function onEpsilonInput() {
    state.epsilon = epsilonFromSlider(el.slider.value);
    const symbol = budgetSymbol();
    el.epsilonLabel.textContent = `${symbol} (logarithmic scale, ${SLIDER_RANGE.lowest} to ${SLIDER_RANGE.highest})`;
    const text = `${symbol} = ${formatEpsilon(state.epsilon)}`;
    el.epsilonValue.textContent = text;
    el.slider.setAttribute('aria-valuetext', text);
    store.emit('input');
  }

  function onMechanismChange() {
    state.mechanism = el.mechanism.value;
    el.explain.textContent = explainMechanism(state.mechanism);
    el.notionRow.hidden = !store.is('notionBased');
    el.priorRow.hidden = !store.is('priorBased');
    store.emit('mechanism');
    onEpsilonInput(); // the slider's symbol (ε or μ) may change; also asks for the update
    settingsChanged();
  }

  function readNumber(text, what, problems, input) {
    const parsed = parseCount(text);
    input?.setAttribute('aria-invalid', String(Boolean(parsed.problem)));
    if (parsed.problem) {
      problems.push(`${what}: ${parsed.problem.replace('the count', 'the value')}.`);
      return null;
    }
    return parsed.value;
  }

  function validateSettings() {
    const problems = [];
    const settings = { notion: 'pure', delta: 0, prior: 'uniform', gamma: 2 };
    if (store.is('notionBased')) {
      settings.notion = el.notion.value;
      if (settings.notion === 'approx') settings.delta = readNumber(el.delta.value, 'δ', problems, el.delta);
    }
    el.deltaLabel.hidden = !(store.is('notionBased') && el.notion.value === 'approx');
    el.priorLabel.hidden = el.priorMode.value !== 'custom';
    // The prior and γ are read whatever the mechanism: the comparison chart always draws the local sampler
    // with them. They block the page only when the chosen mechanism needs them.
    const priorProblems = [];
    settings.gamma = readNumber(el.gamma.value, 'γ', priorProblems, el.gamma);
    if (el.priorMode.value === 'custom') {
      const fields = el.prior.value.split(/[,;\s]+/).filter((t) => t !== '');
      if (fields.length === 0) {
        priorProblems.push('Prior: enter one count or probability per category, separated by commas.');
        el.prior.setAttribute('aria-invalid', 'true');
      } else {
        const values = fields.map((t, i) => readNumber(t, `Prior entry ${i + 1}`, priorProblems, null));
        el.prior.setAttribute('aria-invalid', String(values.includes(null)));
        settings.prior = values;
      }
    } else {
      el.prior.setAttribute('aria-invalid', 'false');
    }
    if (priorProblems.length) {
      if (store.is('priorBased')) problems.push(...priorProblems);
      settings.prior = 'invalid';
      settings.gamma = null;
    }
    return { problems, settings };
  }

  let timer = 0;
  function settingsChanged() {
    clearTimeout(timer);
    const { problems, settings } = validateSettings();
    showError(el.optionsError, problems.length ? 'Please fix the mechanism options:' : '', problems);
    state.settings = problems.length ? null : settings;
    if (problems.length) store.emit('clear');
    store.emit('stale');
    store.emit('input');
  }

  function scheduleSettingsChange() {
    clearTimeout(timer);
    timer = setTimeout(settingsChanged, 200);
    store.emit('stale');
  }

  el.slider.addEventListener('input', onEpsilonInput);
  el.f.addEventListener('change', () => {
    state.f = el.f.value;
    store.emit('input');
  });
  el.mechanism.addEventListener('change', onMechanismChange);
  el.notion.addEventListener('change', () => {
    onEpsilonInput();
    settingsChanged();
  });
  el.priorMode.addEventListener('change', settingsChanged);
  for (const input of [el.delta, el.gamma, el.prior]) input.addEventListener('input', scheduleSettingsChange);
  // The registry has arrived: the picker's entries, keeping the mechanism a permalink or the saved settings chose.
  store.on('kinds', () => {
    fillPicker(el.mechanism, el.mechanism.dataset.wanted ?? state.mechanism);
    onMechanismChange();
  });

  /** Checks the options as they are (at start-up, before the first update). */
  const start = () => {
    state.settings = validateSettings().settings;
    onMechanismChange();
  };
  return { budgetSymbol, start };
}
