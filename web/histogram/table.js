// The histogram table panel: editable rows (name, count), paged by PAGE_SIZE, the validator's message under each
// row it complains about (validate.js, the same check as the CSV path), and the P and Q(·|P) columns of the newest
// answer. Emits 'input' and 'stale' through the store; the library checks the mechanism's own rules afterwards.
import { $, elements, showError } from '../dom.js';
import { formatProbability } from '../format.js';
import { MAX_CATEGORIES, checkRows } from '../validate.js';
import { DEFAULT_HISTOGRAM, PAGE_SIZE } from './store.js';

export function mountTable(store) {
  const { state } = store;
  const el = elements({ body: 'hist-body', addRow: 'add-row', reset: 'reset', csvOk: 'csv-ok' });
  Object.assign(el, elements({ tableError: 'table-error', libraryError: 'library-error' }));
  Object.assign(el, elements({ pager: 'table-pager', pagePrev: 'page-prev', pageNext: 'page-next', pageInfo: 'page-info' }));
  const pageCount = () => Math.max(1, Math.ceil(state.rows.length / PAGE_SIZE));

  function render() {
    state.page = Math.min(state.page, pageCount() - 1);
    const first = state.page * PAGE_SIZE;
    const fragment = document.createDocumentFragment();
    state.rows.slice(first, first + PAGE_SIZE).forEach((row, offset) => fragment.append(...rowElements(row, first + offset, offset)));
    el.body.replaceChildren(fragment);
    el.addRow.disabled = state.rows.length >= MAX_CATEGORIES;
    el.pager.hidden = state.rows.length <= PAGE_SIZE;
    el.pageInfo.textContent = `Rows ${first + 1}–${Math.min(first + PAGE_SIZE, state.rows.length)} of ${state.rows.length}`;
    el.pagePrev.disabled = state.page === 0;
    el.pageNext.disabled = state.page >= pageCount() - 1;
    showRowProblems();
  }

  function textInput(value, className, label, onInput) {
    const input = document.createElement('input');
    input.type = 'text';
    input.value = value;
    input.className = className;
    input.setAttribute('data-testid', `row-${className}`);
    input.setAttribute('aria-label', label);
    input.addEventListener('input', () => onInput(input.value));
    const cell = document.createElement('td');
    cell.append(input);
    return { cell, input };
  }

  function resultCell(className) {
    const cell = document.createElement('td');
    cell.className = `num ${className}`;
    cell.setAttribute('data-testid', `row-${className}`);
    return cell;
  }

  /** One row of the table and the row under it that holds the validator's message (filled by showRowProblems). */
  function rowElements(row, index, offset) {
    const tr = document.createElement('tr');
    tr.dataset.row = String(index);
    const name = textInput(row.name, 'name', `Name of category ${index + 1}`, (value) => {
      row.name = value;
      scheduleChange();
    });
    const count = textInput(row.count, 'count', `Count of category ${index + 1}`, (value) => {
      row.count = value;
      scheduleChange();
    });
    count.input.inputMode = 'decimal';

    const removeCell = document.createElement('td');
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'remove';
    remove.textContent = '×';
    remove.title = 'Remove this category';
    remove.setAttribute('aria-label', `Remove category ${index + 1}${row.name ? ` (${row.name})` : ''}`);
    remove.setAttribute('data-testid', 'row-remove');
    remove.disabled = state.rows.length <= 1;
    remove.addEventListener('click', () => {
      state.rows.splice(index, 1);
      render();
      changed();
      const rows = el.body.querySelectorAll('input.name');
      rows[Math.min(offset, rows.length - 1)]?.focus();
    });
    removeCell.append(remove);
    tr.append(name.cell, count.cell, resultCell('p'), resultCell('q'), removeCell);

    const problemRow = document.createElement('tr');
    problemRow.className = 'row-problem';
    problemRow.hidden = true;
    const problemCell = document.createElement('td');
    problemCell.colSpan = 5;
    problemCell.id = `row-problem-${index}`;
    problemCell.setAttribute('data-testid', 'row-problem');
    problemRow.append(problemCell);
    return [tr, problemRow];
  }

  /** Marks the rows of the shown page the validator complained about, with its message next to the row. */
  function showRowProblems() {
    el.body.querySelectorAll('tr[data-row]').forEach((tr) => {
      const i = Number(tr.dataset.row);
      const problems = state.problems.get(i) ?? [];
      const fields = new Set(problems.map((p) => p.field));
      for (const field of ['name', 'count']) {
        const input = tr.querySelector(`input.${field}`);
        input.setAttribute('aria-invalid', String(fields.has(field)));
        if (fields.has(field)) input.setAttribute('aria-describedby', `row-problem-${i}`);
        else input.removeAttribute('aria-describedby');
      }
      const problemRow = tr.nextElementSibling;
      problemRow.hidden = problems.length === 0;
      problemRow.firstElementChild.textContent = problems.map((p) => p.message).join(' ');
    });
  }

  /** The P and Q(·|P) cells of the shown page, from the newest answer (— while the table cannot be computed). */
  function fillResults() {
    // Only an answer for the rows as they are now (a table just replaced waits for its own answer).
    const current = state.computed && state.last && state.last.request.generation === state.generation;
    const result = current ? state.last.result : null;
    el.body.querySelectorAll('tr[data-row]').forEach((tr) => {
      const i = Number(tr.dataset.row);
      tr.querySelector('td.p').textContent = result ? formatProbability(result.p[i]) : '—';
      tr.querySelector('td.q').textContent = result ? formatProbability(result.q[i]) : '—';
    });
  }

  function clearResults() {
    el.body.querySelectorAll('td.p, td.q').forEach((cell) => {
      cell.textContent = '—';
    });
  }

  let timer = 0;
  function scheduleChange() {
    clearTimeout(timer);
    timer = setTimeout(changed, 150);
    store.emit('stale');
  }

  /** Checks the table with the validator the CSV path uses (validate.js). */
  function validate() {
    const label = (i, name) => `Row ${i + 1}${name ? ` (“${name}”)` : ''}`;
    const { problems, names, hist } = checkRows(state.rows, label);
    state.problems = new Map();
    for (const p of problems) {
      if (p.index < 0) continue;
      if (!state.problems.has(p.index)) state.problems.set(p.index, []);
      state.problems.get(p.index).push(p);
    }
    showRowProblems();
    return { problems: problems.map((p) => p.message), names, hist };
  }

  function changed() {
    clearTimeout(timer);
    const { problems, names, hist } = validate();
    showError(el.tableError, problems.length ? 'Please fix the table:' : '', problems);
    showError(el.libraryError, '', []);
    state.valid = problems.length ? null : { names, hist };
    if (problems.length) clearResults();
    store.emit('stale');
    store.emit('input');
  }

  /** Replaces every row (CSV, reset) and shows the first page. */
  function replaceRows(rows) {
    state.rows = rows;
    state.page = 0;
    render();
    changed();
  }

  function showPage(page) {
    state.page = Math.min(pageCount() - 1, Math.max(0, page));
    render();
    fillResults();
  }

  el.addRow.addEventListener('click', () => {
    const used = new Set(state.rows.map((r) => r.name.trim()));
    let n = state.rows.length + 1;
    while (used.has(`Category ${n}`)) n += 1;
    state.rows.push({ name: `Category ${n}`, count: '1' });
    state.page = pageCount() - 1;
    render();
    changed();
    const names = el.body.querySelectorAll('input.name');
    names[names.length - 1]?.focus();
    names[names.length - 1]?.select();
  });
  el.reset.addEventListener('click', () => {
    el.csvOk.hidden = true;
    replaceRows(DEFAULT_HISTOGRAM.map((r) => ({ ...r })));
  });
  el.pagePrev.addEventListener('click', () => showPage(state.page - 1));
  el.pageNext.addEventListener('click', () => showPage(state.page + 1));
  store.on('result', fillResults);
  store.on('clear', clearResults);

  return { render, changed, replaceRows };
}
