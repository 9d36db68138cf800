// The CSV panel: paste, open a file or load the example; a CSV that passes csv.js replaces the table's rows.
import { parseHistogramCsv } from '../csv.js';
import { $, elements, showError } from '../dom.js';

export function mountCsvPanel(table) {
  const el = elements({ input: 'csv-input', apply: 'csv-apply', example: 'csv-example' });
  Object.assign(el, elements({ file: 'csv-file', error: 'csv-error', ok: 'csv-ok' }));

  function apply() {
    el.ok.hidden = true;
    const { rows, errors, header } = parseHistogramCsv(el.input.value);
    if (errors.length) {
      showError(el.error, 'This CSV was not used (your table is unchanged):', errors);
      el.input.setAttribute('aria-invalid', 'true');
      return;
    }
    showError(el.error, '', []);
    el.input.setAttribute('aria-invalid', 'false');
    table.replaceRows(rows.map((r) => ({ name: r.name, count: String(r.count) })));
    el.ok.textContent = `Loaded ${rows.length} categor${rows.length === 1 ? 'y' : 'ies'}${
      header ? ` (header row “${header.join(', ')}” skipped)` : ''
    }.`;
    el.ok.hidden = false;
  }

  async function loadExample() {
    try {
      const response = await fetch(new URL('./example.csv', document.baseURI));
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      el.input.value = await response.text();
      showError(el.error, '', []);
      el.ok.textContent = 'Example CSV loaded into the box: press “Use this CSV”.';
      el.ok.hidden = false;
      el.input.focus();
    } catch (error) {
      showError(el.error, 'Could not load the example CSV:', [String(error.message || error)]);
    }
  }

  function openFile() {
    const file = el.file.files?.[0];
    if (!file) return;
    file.text().then(
      (text) => {
        el.input.value = text;
        apply();
        el.file.value = '';
      },
      (error) => showError(el.error, 'Could not read the file:', [String(error.message || error)]),
    );
  }

  el.apply.addEventListener('click', apply);
  el.example.addEventListener('click', loadExample);
  el.file.addEventListener('change', openFile);
  el.input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) apply();
  });
}
