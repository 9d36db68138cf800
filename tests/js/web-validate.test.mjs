// The demo's one validator of a typed histogram (web/validate.js), shared by the editable table and the CSV path
// (web/csv.js): the same words for the same mistake, whichever way the histogram came in.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseHistogramCsv } from '../../web/csv.js';
import { MAX_CATEGORIES, checkCount, checkRows } from '../../web/validate.js';

const row = (i, name) => `Row ${i + 1}${name ? ` (“${name}”)` : ''}`;

test('a negative count: the table and the CSV say the same thing, in words', () => {
  const table = checkRows([{ name: 'Walk', count: '9' }, { name: 'Bus', count: '-2' }], row);
  assert.deepEqual(table.problems, [{ index: 1, field: 'count', message: 'Row 2 (“Bus”): the count -2 is negative: counts must be non-negative numbers.' }]);
  const csv = parseHistogramCsv('Walk,9\nBus,-2\n');
  assert.deepEqual(csv.errors, ['Line 2: the count -2 is negative: counts must be non-negative numbers.']);
});

test('non-numbers, empty and duplicate names, too many rows', () => {
  const { problems } = checkRows(
    [
      { name: 'A', count: 'abc' },
      { name: '', count: '1' },
      { name: 'A', count: '' },
      { name: 'B', count: '1e999' },
    ],
    row,
  );
  assert.deepEqual(
    problems.map((p) => p.message),
    [
      'Row 1 (“A”): the count “abc” is not a number.',
      'Row 2: the category name is empty.',
      'Row 3 (“A”): the name “A” is already used by row 1.',
      'Row 3 (“A”): the count is empty.',
      'Row 4 (“B”): the count “1e999” is too large.',
    ],
  );
  const many = Array.from({ length: MAX_CATEGORIES + 1 }, (_, i) => ({ name: `c${i}`, count: '1' }));
  assert.match(checkRows(many, row).problems.at(-1).message, /There are 1001 categories; this demo shows at most 1000/);
  const csv = parseHistogramCsv(many.map((r) => `${r.name},${r.count}`).join('\n'));
  assert.deepEqual(csv.errors, ['The CSV has 1001 categories; this demo shows at most 1000.']);
});

test('valid rows give names and numbers; zero, -0 and probabilities are fine', () => {
  const { problems, names, hist } = checkRows([{ name: ' Walk ', count: ' 0.5 ' }, { name: 'Car', count: '-0' }, { name: 'Bus', count: '0' }], row);
  assert.deepEqual(problems, []);
  assert.deepEqual(names, ['Walk', 'Car', 'Bus']);
  assert.deepEqual(hist, [0.5, -0, 0]);
  assert.deepEqual(checkCount('12'), { value: 12 });
  assert.deepEqual(parseHistogramCsv('name,count\nWalk,12\n').rows, [{ name: 'Walk', count: 12 }]);
});
