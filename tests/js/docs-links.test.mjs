// The proofs live in docs/ and, for each mechanism, in its folder (core/mechanisms/<name>/README.md): every
// `docs/….md#section` or `core/….md#section` citation in the tree must name a page and a section that exist, every
// relative link between the pages must resolve, the source files and tests the pages name must exist, and no comment may cite the paper specs that live outside the repository (shared/spec/*.md, "spec §…"); in the
// experiments' files (shown on the reproductions page) no line at all may.
// Needs no build: it reads the source tree.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE_DIRS = ['core', 'bindings', 'tests', 'bench', 'scripts', 'web', 'examples', 'docs', 'public', 'experiments'];
const SKIP_DIRS = new Set(['node_modules', 'build', 'dist', 'corpus', '.git']);
const EXTENSIONS = /\.(cpp|hpp|h|c|mjs|js|cjs|ts|md|sh|html|css|json|txt)$/;

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (EXTENSIONS.test(name)) out.push(path);
  }
  return out;
}

function sourceFiles() {
  const files = [join(root, 'README.md'), join(root, 'CMakeLists.txt')];
  for (const dir of SOURCE_DIRS) if (existsSync(join(root, dir))) walk(join(root, dir), files);
  return files.filter((file) => file !== fileURLToPath(import.meta.url));
}

// GitHub's heading anchors: lower case, punctuation dropped (letters, digits, spaces, '-' and '_' kept), spaces to
// '-', a repeated anchor gets -1, -2, ….
function anchorsOf(markdown) {
  const anchors = new Set();
  const seen = new Map();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1].replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\\/g, '');
    const base = text.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

const anchorCache = new Map();
function checkTarget(file, target, anchor, where, problems) {
  if (!existsSync(target) || !statSync(target).isFile()) {
    problems.push(`${where}: ${relative(root, target)} does not exist`);
    return;
  }
  if (!anchor) return;
  if (!anchorCache.has(target)) anchorCache.set(target, anchorsOf(readFileSync(target, 'utf8')));
  if (!anchorCache.get(target).has(anchor)) problems.push(`${where}: ${relative(root, target)} has no section #${anchor}`);
}

const files = sourceFiles();

const isPage = (file) => file.endsWith('.md') && (file.startsWith(join(root, 'docs') + '/') || file.startsWith(join(root, 'core') + '/'));

test('every docs/….md and core/….md citation in the tree names an existing page and section', () => {
  const problems = [];
  let citations = 0;
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const match of line.matchAll(/(?<![\w/.-])((?:docs|core)\/[\w./-]+\.md)(?:#([\w-]+))?/g)) {
        citations += 1;
        checkTarget(file, join(root, match[1]), match[2], `${relative(root, file)}:${i + 1}`, problems);
      }
    });
  }
  assert.deepEqual(problems, []);
  assert.ok(citations >= 150, `only ${citations} page citations found: the scan is not reading the tree`);
});

test('relative links between the docs pages resolve, sections included', () => {
  const problems = [];
  const pages = files.filter(isPage);
  assert.ok(pages.length >= 20, `only ${pages.length} pages under docs/ and core/`);
  for (const page of pages) {
    const text = readFileSync(page, 'utf8');
    for (const match of text.matchAll(/\]\(([^)\s]*)\)/g)) {
      const [path, anchor] = match[1].split('#');
      if (/^[a-z]+:/.test(path)) continue; // external URL
      const target = path === '' ? page : resolve(dirname(page), path);
      checkTarget(page, target, anchor, relative(root, page), problems);
    }
  }
  assert.deepEqual(problems, []);
});

test('the source files and tests each docs page names exist', () => {
  const problems = [];
  let named = 0;
  for (const page of files.filter(isPage)) {
    for (const match of readFileSync(page, 'utf8').matchAll(/`((?:core|bindings|tests|bench|scripts|web)\/[\w./-]+)`/g)) {
      named += 1;
      if (!existsSync(join(root, match[1]))) problems.push(`${relative(root, page)}: ${match[1]} does not exist`);
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(named >= 50, `only ${named} source paths named in the pages`);
});

// The text of a line that is comment: after `//` (not a URL's `://`), or a whole line of a block comment.
function commentOf(line, file) {
  if (file.endsWith('.sh') || file.endsWith('CMakeLists.txt')) {
    const at = line.indexOf('#');
    return at >= 0 ? line.slice(at) : '';
  }
  const trimmed = line.trimStart();
  if (trimmed.startsWith('*') || trimmed.startsWith('/*')) return trimmed;
  const at = line.search(/(?<!:)\/\//);
  return at >= 0 ? line.slice(at) : '';
}

// The registry's files (experiments/) and their tests (tests/js/experiments-*.test.mjs).
const isExperimentFile = (file) => file.startsWith(join(root, 'experiments') + '/') || /\/tests\/js\/experiments-[^/]*\.test\.mjs$/.test(file);

test('nothing cites the paper specs outside the repository', () => {
  const specFile = /shared\/spec\/|(?:minimax-ldp-sampling|local-minimax-sampling|local-mi-privacy|reveal-or-obscure)\.md/;
  // "spec §2.6", "local spec 6", "Specs: … §", "the spec's table", "the spec prints", "spec: …" — not a variable named spec.
  const specSection = /\b(?:local |minimax )?spec\s*(?:§|\d)|\bspecs?\b[^.;]*§|\bthe specs\b|\bthe spec (?:prints|says|suggests|verified|reports|switches|gives)\b|\bspec's\b|\bspecs?:(?!\s*\{)/i;
  const problems = [];
  let experimentFiles = 0;
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    // The experiments' labels and errata are shown on the reproductions page: there, strings count as well as comments.
    const everyLine = isExperimentFile(file);
    if (everyLine) experimentFiles += 1;
    lines.forEach((line, i) => {
      const where = `${relative(root, file)}:${i + 1}`;
      if (specFile.test(line)) problems.push(`${where}: ${line.trim()}`);
      else if (everyLine && /\bspecs?\b/i.test(line)) problems.push(`${where}: ${line.trim()}`);
      // "spec §…" in code too (assertion messages): it names nothing a reader of the repository has.
      else if (/\bspecs? §/i.test(line)) problems.push(`${where}: ${line.trim()}`);
      // and test names, which a reader sees in every report
      else if (/\bTEST_CASE\(|\btest\(/.test(line) && specSection.test(line)) problems.push(`${where}: ${line.trim()}`);
      else if (!file.endsWith('.md') && specSection.test(commentOf(line, file))) problems.push(`${where}: ${line.trim()}`);
    });
  }
  assert.deepEqual(problems, []);
  assert.ok(experimentFiles >= 8, `only ${experimentFiles} experiment files scanned`);
});

test('the checks above can fail: a missing section and a spec citation are caught', () => {
  const problems = [];
  checkTarget('x', join(root, 'docs', 'README.md'), 'no-such-section', 'probe', problems);
  checkTarget('x', join(root, 'docs', 'no-such-page.md'), undefined, 'probe', problems);
  assert.equal(problems.length, 2);
  assert.ok(anchorsOf('# A `b` (c)\n## Case B: sparse support\n## Case B: sparse support\n').has('case-b-sparse-support-1'));
  assert.match(commentOf('  x = 1;  // see spec §2.6', 'a.cpp'), /spec §2\.6/);
  assert.equal(commentOf('// the spec\'s table', 'a.cpp').match(/\bspec's\b/)?.[0], "spec's");
  assert.equal(commentOf('const url = "https://example.org";', 'a.mjs'), '');
  assert.ok(isExperimentFile(join(root, 'experiments', 'roo.mjs')) && isExperimentFile(join(root, 'tests', 'js', 'experiments-roo.test.mjs')));
  assert.ok(!isExperimentFile(join(root, 'tests', 'js', 'api.test.mjs')));
});

// README is the npm page too, where relative links lead nowhere: every link is an in-page anchor or absolute,
// and the links into this repository name files that exist.
test('README links work on the npm page: anchors or absolute URLs, repository links to existing files', () => {
  const REPO = 'https://github.com/privsample/privsample/blob/main/';
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const problems = [];
  let repoLinks = 0;
  for (const [, target] of readme.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (target.startsWith('#')) continue;
    if (!/^https?:\/\//.test(target)) {
      problems.push(`relative link ${target}`);
      continue;
    }
    if (target.startsWith(REPO)) {
      repoLinks += 1;
      const [path, anchor] = target.slice(REPO.length).split('#');
      checkTarget('README.md', join(root, path), path.endsWith('.md') ? anchor : undefined, `README.md → ${target}`, problems);
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(repoLinks >= 3, `only ${repoLinks} links into the repository`);
});
