// Reading a histogram from CSV text (papaparse) and checking each row before anything is computed.
// Accepted: rows "name,count" (comma, semicolon or tab), with or without a header row, blank lines ignored.
import Papa from 'papaparse';

/** Most categories the demo's table shows (the library itself accepts up to 10^7). */
export const MAX_CATEGORIES = 1000;

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Parses one count as typed by a person: a plain decimal number (no units, no thousands separators).
 * Returns { value } or { problem } with a short human explanation.
 */
export function parseCount(text) {
  const t = String(text).trim();
  if (t === '') return { problem: 'the count is empty' };
  if (!NUMBER.test(t)) return { problem: `the count “${clip(t)}” is not a number` };
  const value = Number(t);
  if (!Number.isFinite(value)) return { problem: `the count “${clip(t)}” is too large` };
  return { value };
}

function clip(text, n = 24) {
  return text.length > n ? `${text.slice(0, n)}…` : text;
}

function looksLikeHeader(fields) {
  // A first row whose count column holds a word without digits ("count", "listens", "n") is a header.
  const second = (fields[1] ?? '').trim();
  return fields.length >= 2 && second !== '' && !NUMBER.test(second) && !/\d/.test(second);
}

const DELIMITERS = [',', '\t', ';', '|'];

// Tries each delimiter and keeps the one that yields the most "name,number" rows (ties: the earlier one).
// Row index = line number: blank lines are kept here and skipped later.
function parseWithBestDelimiter(text) {
  let best = null;
  for (const delimiter of DELIMITERS) {
    const parsed = Papa.parse(text, { delimiter, skipEmptyLines: false });
    const score = parsed.data.filter((row) => row.length >= 2 && NUMBER.test(String(row[1]).trim())).length;
    if (!best || score > best.score) best = { score, parsed };
  }
  return best.parsed;
}

/**
 * @returns {{ rows: {name: string, count: number}[], errors: string[], header: string[] | null }}
 *   rows are only meaningful when errors is empty.
 */
export function parseHistogramCsv(text) {
  const errors = [];
  const rows = [];
  let header = null;
  if (!text || !text.trim()) return { rows, errors: ['The CSV is empty: paste rows like “Walk,12”.'], header };

  const parsed = parseWithBestDelimiter(text.replace(/^\uFEFF/, ''));
  for (const e of parsed.errors) {
    const where = Number.isInteger(e.row) ? `Line ${e.row + 1}: ` : '';
    errors.push(`${where}${e.message}.`);
  }

  const firstLineOf = new Map();
  let dataLine = 0;
  parsed.data.forEach((raw, index) => {
    const line = index + 1;
    const fields = raw.map((f) => String(f));
    // Trailing empty fields ("Walk,12,") are harmless.
    while (fields.length > 0 && fields[fields.length - 1].trim() === '') fields.pop();
    if (fields.length === 0) return; // blank line
    dataLine += 1;
    if (dataLine === 1 && looksLikeHeader(fields)) {
      header = fields;
      return;
    }
    if (fields.length !== 2) {
      errors.push(`Line ${line}: expected 2 fields “name,count”, found ${fields.length} (“${clip(raw.join(parsed.meta.delimiter || ','), 40)}”).`);
      return;
    }
    const name = fields[0].trim();
    const count = parseCount(fields[1]);
    if (name === '') {
      errors.push(`Line ${line}: the category name is empty.`);
    } else if (firstLineOf.has(name)) {
      errors.push(`Line ${line}: category “${clip(name)}” appears again (first on line ${firstLineOf.get(name)}).`);
    } else {
      firstLineOf.set(name, line);
    }
    if (count.problem) {
      errors.push(`Line ${line}: ${count.problem}.`);
    } else if (count.value < 0) {
      errors.push(`Line ${line}: the count ${fields[1].trim()} is negative; counts must be ≥ 0.`);
    }
    rows.push({ name, count: count.value });
  });

  if (errors.length === 0 && rows.length === 0) errors.push('The CSV has no data rows: add rows like “Walk,12”.');
  if (rows.length > MAX_CATEGORIES) errors.push(`The CSV has ${rows.length} categories; this demo shows at most ${MAX_CATEGORIES}.`);
  return { rows, errors, header };
}
