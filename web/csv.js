// Reading a histogram from CSV text (papaparse) and checking each row before anything is computed.
// Accepted: rows "name,count" (comma, semicolon or tab), with or without a header row, blank lines ignored.
import Papa from 'papaparse';
import { checkRows, clip, isPlainNumber } from './validate.js';

export { MAX_CATEGORIES, parseCount } from './validate.js';

function looksLikeHeader(fields) {
  // A first row whose count column holds a word without digits ("count", "listens", "n") is a header.
  const second = (fields[1] ?? '').trim();
  return fields.length >= 2 && second !== '' && !isPlainNumber(second) && !/\d/.test(second);
}

const DELIMITERS = [',', '\t', ';', '|'];

// Tries each delimiter and keeps the one that yields the most "name,number" rows (ties: the earlier one).
// Row index = line number: blank lines are kept here and skipped later.
function parseWithBestDelimiter(text) {
  let best = null;
  for (const delimiter of DELIMITERS) {
    const parsed = Papa.parse(text, { delimiter, skipEmptyLines: false });
    const score = parsed.data.filter((row) => row.length >= 2 && isPlainNumber(row[1])).length;
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

  // Fields are split here; names and counts are checked by the validator the table uses too (validate.js).
  const lineOf = [];
  const byLine = []; // [line, message], sorted by line at the end
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
      byLine.push([line, `Line ${line}: expected 2 fields “name,count”, found ${fields.length} (“${clip(raw.join(parsed.meta.delimiter || ','), 40)}”).`]);
      return;
    }
    lineOf.push(line);
    rows.push({ name: fields[0].trim(), count: fields[1] });
  });
  const checked = checkRows(rows, (i) => `Line ${lineOf[i]}`);
  for (const problem of checked.problems) {
    byLine.push(problem.index < 0 ? [Infinity, problem.message.replace(/^There are/, 'The CSV has')] : [lineOf[problem.index], problem.message]);
  }
  byLine.sort((a, b) => a[0] - b[0]);
  errors.push(...byLine.map(([, message]) => message));
  rows.forEach((row, i) => {
    row.count = checked.hist[i];
  });

  if (errors.length === 0 && rows.length === 0) errors.push('The CSV has no data rows: add rows like “Walk,12”.');
  return { rows, errors, header };
}
