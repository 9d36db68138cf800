// The README's fenced JavaScript blocks, for tests/js/readme-examples.test.mjs (Node) and tests/e2e/csp-file.e2e.mjs
// (the ```js browser blocks, in Chromium).
import { readFileSync } from 'node:fs';

const README = new URL('../../README.md', import.meta.url);

/** The README's fenced JavaScript blocks: { line, info, code } (info: the words after ```js). */
export function readmeBlocks(text = readFileSync(README, 'utf8')) {
  const blocks = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^```(js|javascript|mjs)\b(.*)$/.exec(lines[i]);
    if (!open) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !lines[end].startsWith('```')) end += 1;
    blocks.push({ line: start, info: open[2].trim(), code: lines.slice(start, end).join('\n') });
    i = end;
  }
  return blocks;
}
