// Keeping the histogram page's settings on this device (keep.js): saved in localStorage after every change, and
// read back at start-up from a permalink's fragment (#s=…) or from storage. No network request.
import { $ } from '../dom.js';
import { loadSettings, saveSettings, settingsFromFragment } from '../keep.js';
import { MAX_CATEGORIES } from '../validate.js';

/** The controls kept, in the order of the saved JSON: [element id, key, a <select> (else a text field)]. */
const FIELDS = [
  ['divergence-f', 'f', true],
  ['notion', 'notion', true],
  ['delta', 'delta', false],
  ['prior-mode', 'priorMode', true],
  ['prior', 'prior', false],
  ['gamma', 'gamma', false],
  ['accountant-prior', 'accountantPrior', true],
];

export function mountPersistence(store) {
  const { state } = store;

  /** The page's settings as plain JSON (the rows as [name, count] pairs, the controls as they read). */
  function snapshot() {
    // Before the registry has filled the picker, the mechanism is the one restored (or the default).
    const mechanism = $('mechanism').value || ($('mechanism').dataset.wanted ?? $('mechanism').dataset.default);
    const out = { rows: state.rows.map((r) => [r.name, r.count]), mechanism, slider: Number($('epsilon').value) };
    for (const [id, key] of FIELDS) out[key] = $(id).value;
    return out;
  }

  function setSelect(select, value) {
    if ([...select.options].some((o) => o.value === value)) select.value = value;
  }

  /** Puts saved or linked settings into the page; anything unreadable is ignored (the example stays). */
  function apply(saved) {
    if (!saved || typeof saved !== 'object') return false;
    const rows = Array.isArray(saved.rows) ? saved.rows : [];
    if (rows.length >= 1 && rows.length <= MAX_CATEGORIES && rows.every((r) => Array.isArray(r) && r.length === 2)) {
      state.rows = rows.map(([name, count]) => ({ name: String(name), count: String(count) }));
    }
    // The picker is filled from the registry later (options.js), which selects this one if the library has it.
    if (typeof saved.mechanism === 'string') $('mechanism').dataset.wanted = saved.mechanism;
    if (Number.isFinite(saved.slider)) $('epsilon').value = String(saved.slider);
    for (const [id, key, select] of FIELDS) {
      if (typeof saved[key] !== 'string') continue;
      if (select) setSelect($(id), saved[key]);
      else $(id).value = saved[key];
    }
    state.f = $('divergence-f').value;
    state.accountantPrior = $('accountant-prior').value;
    return true;
  }

  let timer = 0;
  let restored = false; // nothing is saved before the saved settings were read
  function scheduleSave() {
    if (!restored) return;
    clearTimeout(timer);
    timer = setTimeout(() => saveSettings(snapshot()), 200);
  }

  /** Reads a permalink's settings (then drops the fragment, so a reload keeps later edits) or the saved ones. */
  function restore() {
    const linked = settingsFromFragment(location.hash);
    if (linked) {
      apply(linked);
      history.replaceState(null, '', location.href.split('#')[0]);
      $('share-status').textContent = 'Settings loaded from the link you opened.';
      $('share-status').hidden = false;
    } else {
      apply(loadSettings());
    }
    restored = true;
  }

  store.on('input', scheduleSave);
  window.addEventListener('pagehide', () => {
    if (restored) saveSettings(snapshot());
  });
  return { restore, snapshot };
}
