// Small DOM helpers shared by the pages: element lookup, the error box (a title and a list of lines), and the
// inline elements the guarantee sentences use. No mathematics.

export const $ = (id) => document.getElementById(id);

/** The elements of a panel by id: elements({ draw: 'draw', result: 'sample-result' }) → { draw: <button>, … }. */
export const elements = (ids) => Object.fromEntries(Object.entries(ids).map(([key, id]) => [key, $(id)]));

/** Fills an error box with a title and up to 12 lines (hidden when there are none). */
export function showError(container, title, lines) {
  if (!lines.length) {
    container.hidden = true;
    container.replaceChildren();
    return;
  }
  const parts = [];
  if (title) {
    const p = document.createElement('p');
    p.className = 'error-title';
    p.textContent = title;
    parts.push(p);
  }
  const list = document.createElement('ul');
  const shown = lines.slice(0, 12);
  for (const line of shown) {
    const li = document.createElement('li');
    li.textContent = line;
    list.append(li);
  }
  if (lines.length > shown.length) {
    const li = document.createElement('li');
    li.textContent = `… and ${lines.length - shown.length} more.`;
    list.append(li);
  }
  parts.push(list);
  container.replaceChildren(...parts);
  container.hidden = false;
}

export function strong(text) {
  const node = document.createElement('strong');
  node.textContent = text;
  return node;
}

export function sup(text) {
  const node = document.createElement('sup');
  node.textContent = text;
  return node;
}

/** The page's status line (data-state: loading | ready | error). */
export function showStatus(element, state, text) {
  element.dataset.state = state;
  element.textContent = text;
}
