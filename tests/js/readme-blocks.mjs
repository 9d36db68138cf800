// The README's fenced JavaScript blocks, for tests/js/readme-examples.test.mjs (Node) and tests/e2e/csp-file.e2e.mjs
// (the ```js browser blocks, in Chromium), and how a block runs as written (README's and the guide's alike).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

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

/** What a block says it prints: `console.log(…); // expected` lines, in order. */
export function statedOutput(code) {
  return code
    .split('\n')
    .map((line) => /console\.log\(.*\)\S*\s*\/\/\s*(.+)$/.exec(line))
    .filter(Boolean)
    .map((m) => m[1].trim());
}

/**
 * A fresh folder whose node_modules/privsample links to this repository, so that 'privsample' and
 * 'privsample/research' resolve through package.json's "exports" as for an npm user; remove() deletes it.
 */
export function exampleFolder(prefix) {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(folder, 'node_modules'));
  symlinkSync(fileURLToPath(new URL('../../', import.meta.url)), join(folder, 'node_modules', 'privsample'), 'dir');
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

const run = promisify(execFile);

/**
 * Runs a block as written, as `file` in `folder`: a ```js browser block is only parsed (node --check); any other must
 * exit 0 with nothing on stderr and print the lines it states. `name` names the block in messages.
 */
export async function runBlock(folder, file, block, name) {
  const path = join(folder, file);
  writeFileSync(path, `${block.code}\n`);
  if (block.info === 'browser') {
    await run(process.execPath, ['--check', path], { cwd: folder });
    return;
  }
  const { stdout, stderr } = await run(process.execPath, [path], { cwd: folder, timeout: 120_000, maxBuffer: 1 << 24 });
  assert.equal(stderr, '', `${name} wrote to stderr`);
  const stated = statedOutput(block.code);
  if (stated.length) assert.deepEqual(stdout.trim().split('\n'), stated, `${name}: printed lines`);
}
