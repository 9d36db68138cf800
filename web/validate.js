// The one check of a histogram typed by a person, shared by the editable table (main.js) and the CSV path (csv.js):
// names present and distinct, counts written as plain non-negative numbers, at most MAX_CATEGORIES rows.
// It only reads what was typed (is it a number, is it written with a minus sign): every value rule of a
// mechanism (whole counts for ROO, a prior's zeros, …) stays in the library, which the page calls afterwards.

/** Most categories the demo's table shows (the library itself accepts up to 10^7). */
export const MAX_CATEGORIES = 1000;

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** True when text is a plain decimal number (no units, no thousands separators). */
export function isPlainNumber(text) {
  return NUMBER.test(String(text).trim());
}

export function clip(text, n = 24) {
  return text.length > n ? `${text.slice(0, n)}…` : text;
}

/**
 * Parses one count as typed by a person: a plain decimal number (no units, no thousands separators).
 * Returns { value } or { problem } with a short human explanation (no sign check: see checkCount).
 */
export function parseCount(text) {
  const t = String(text).trim();
  if (t === '') return { problem: 'the count is empty' };
  if (!NUMBER.test(t)) return { problem: `the count “${clip(t)}” is not a number` };
  const value = Number(t);
  if (!Number.isFinite(value)) return { problem: `the count “${clip(t)}” is too large` };
  return { value };
}

/** A count of the histogram: parseCount, and a count typed with a minus sign is refused in words. */
export function checkCount(text) {
  const parsed = parseCount(text);
  if (parsed.problem) return parsed;
  if (String(text).trim().startsWith('-') && parsed.value !== 0) {
    return { problem: `the count ${String(text).trim()} is negative: counts must be non-negative numbers` };
  }
  return parsed;
}

/**
 * Checks rows { name, count: string | number } of a histogram.
 * where(i) names row i for a person ("Row 3 (“Bus”)", "Line 4").
 * @returns {{ problems: { index: number, field: 'name' | 'count' | null, message: string }[], names: string[], hist: number[] }}
 *   names and hist are only meaningful when problems is empty.
 */
export function checkRows(rows, where) {
  const problems = [];
  const firstIndex = new Map();
  const names = [];
  const hist = [];
  rows.forEach((row, i) => {
    const name = String(row.name ?? '').trim();
    if (!name) {
      problems.push({ index: i, field: 'name', message: `${where(i, name)}: the category name is empty.` });
    } else if (firstIndex.has(name)) {
      const first = firstIndex.get(name);
      problems.push({ index: i, field: 'name', message: `${where(i, name)}: the name “${clip(name)}” is already used by ${where(first, '').toLowerCase()}.` });
    } else {
      firstIndex.set(name, i);
    }
    const count = checkCount(row.count);
    if (count.problem) problems.push({ index: i, field: 'count', message: `${where(i, name)}: ${count.problem}.` });
    names.push(name);
    hist.push(count.value);
  });
  if (rows.length > MAX_CATEGORIES) {
    problems.push({ index: -1, field: null, message: `There are ${rows.length} categories; this demo shows at most ${MAX_CATEGORIES}.` });
  }
  return { problems, names, hist };
}
