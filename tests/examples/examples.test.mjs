// Every example of examples/, run against the packed package as a user would install it:
//   node --test tests/examples/        (PRIVSAMPLE_TARBALL=<file.tgz>; default: build/pack/*.tgz from tests/pack/smoke.sh,
//                                       else `npm pack` of this checkout)
// One consumer project gets the tarball and the examples' other dependencies (at the versions the repository pins,
// from the npm cache), and a copy of examples/. Then:
//   - the package's declarations compile under the whole tsconfig matrix (tests/types/matrix.mjs) in that project;
//   - node-esm and node-cjs run with Node and print a sample;
//   - vite-vanilla and react are built with Vite, and the built pages draw a sample in Chromium and Firefox;
//   - plain-html (direct path, and an import map allowed by its hash), worker and cdn (the package served as static
//     files from another origin, as a CDN does, with CORS) draw a sample in Chromium and Firefox under their strict
//     policies, with no error and no policy violation;
//   - duckdb stores 10^5 private reports as rows, counts them in SQL and estimates the population; the same with
//     frequency-oracle reports (OUE, subset selection, Hadamard), whose SQL counts must equal the library's.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { CONTENT_TYPES as TYPES, launch, missing, probeScript } from '../e2e/browsers.mjs';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLES = join(ROOT, 'examples');
const ROOT_PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const BROWSERS = ['chromium', 'firefox'].filter((name) => !missing(name));
const CDN = 'https://cdn.jsdelivr.net';

let work;
let app; // the consumer project: node_modules (the tarball and the examples' dependencies) and examples/

async function tarball() {
  if (process.env.PRIVSAMPLE_TARBALL) return process.env.PRIVSAMPLE_TARBALL;
  const packed = join(ROOT, 'build', 'pack');
  const found = existsSync(packed) ? readdirSync(packed).filter((f) => f.endsWith('.tgz')) : [];
  if (found.length === 1) return join(packed, found[0]);
  const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', work], { cwd: ROOT, maxBuffer: 1 << 26 });
  return join(work, stdout.trim().split('\n').at(-1));
}

/** The examples' dependencies other than privsample, each at the version the repository pins (package-lock.json). */
function dependencies() {
  const wanted = new Map();
  for (const name of readdirSync(EXAMPLES)) {
    const file = join(EXAMPLES, name, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    for (const [dep, range] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })) {
      if (dep === 'privsample') {
        assert.equal(range, `^${ROOT_PACKAGE.version}`, `examples/${name} asks for this version of privsample`);
        continue;
      }
      const pinned = ROOT_PACKAGE.devDependencies[dep];
      assert.ok(pinned, `examples/${name} depends on ${dep}, which the repository does not pin`);
      assert.equal(range, `^${pinned}`, `examples/${name}: ${dep} ${range}, the repository tests ${pinned}`);
      wanted.set(dep, pinned);
    }
  }
  wanted.set('@duckdb/node-api', ROOT_PACKAGE.devDependencies['@duckdb/node-api']); // examples/duckdb (no package.json)
  return [...wanted].map(([dep, version]) => `${dep}@${version}`);
}

// A static server of `dir`, with /node_modules/ from the consumer project (where a user's npm install puts it) and
// the probe in every page; `policy`: a header on scripts (a worker gets its policy from its script's response);
// `rewrite(text)`: applied to HTML and JavaScript (the CDN example's address → the local "CDN").
function serve(dir, { policy = null, rewrite = (text) => text, cors = false } = {}) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const path = decodeURIComponent(url.pathname);
    const send = (status, headers = {}, body = '') => {
      res.writeHead(status, { 'Cache-Control': 'no-store', ...(cors ? { 'Access-Control-Allow-Origin': '*' } : {}), ...headers });
      res.end(body);
    };
    if (path === '/__probe.js') return send(200, { 'Content-Type': TYPES['.js'] }, probeScript);
    const base = path.startsWith('/node_modules/') ? app : dir;
    let file = normalize(join(base, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(base + sep)) return send(403);
    try {
      let body = await readFile(file);
      const type = extname(file);
      if (type === '.html' || type === '.js' || type === '.mjs') {
        body = rewrite(body.toString('utf8'));
        if (type === '.html') body = body.replace(/(<meta\s+http-equiv="Content-Security-Policy"[^>]*>)/i, '$1\n<script src="/__probe.js"></script>');
      }
      send(200, { 'Content-Type': TYPES[type] ?? 'application/octet-stream', ...(policy && type !== '.html' ? { 'Content-Security-Policy': policy } : {}) }, body);
    } catch {
      send(404);
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${server.address().port}` })));
}

const closeServer = (s) => new Promise((resolve) => {
  s.server.close(resolve);
  s.server.closeAllConnections?.();
});

/** Opens `url` in each browser; waits for <output id="result" data-state> and returns what each showed. */
async function resultsIn(browsers, url) {
  const out = {};
  for (const [name, browser] of browsers) {
    const tab = await browser.newTab({ width: 900, height: 700 });
    try {
      await tab.goto(url);
      // Done, or failed: the page says so, or the probe saw an error (a blocked or unresolvable module never runs).
      await tab.waitFor(() => ['done', 'error'].includes(document.getElementById('result')?.dataset.state) || window.__probe?.errors.length > 0, { timeout: 30_000 });
      out[name] = await tab.evaluate(() => ({
        state: document.getElementById('result').dataset.state,
        text: document.getElementById('result').textContent,
        errors: window.__probe?.errors ?? null,
        violations: window.__probe?.violations ?? null,
      }));
    } finally {
      await tab.close();
    }
  }
  return out;
}

function assertShown(results, label, pattern) {
  for (const [name, r] of Object.entries(results)) {
    assert.equal(r.state, 'done', `${label} in ${name}: ${r.text}`);
    assert.match(r.text, pattern, `${label} in ${name}`);
    if (r.errors !== null) {
      assert.deepEqual(r.errors, [], `${label} in ${name}: errors`);
      assert.deepEqual(r.violations, [], `${label} in ${name}: policy violations`);
    }
  }
}

describe('the examples, against the packed package', { timeout: 600_000 }, () => {
  const browsers = new Map();
  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'privsample-examples-'));
    app = join(work, 'app');
    cpSync(EXAMPLES, join(app, 'examples'), { recursive: true });
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'privsample-examples', private: true, type: 'module' }));
    const file = await tarball();
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', file, ...dependencies()], { cwd: app, maxBuffer: 1 << 26 });
    for (const name of BROWSERS) browsers.set(name, await launch(name));
  });
  after(async () => {
    for (const browser of browsers.values()) await browser.close().catch(() => {});
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('the package installed from the tarball is this version', () => {
    const installed = JSON.parse(readFileSync(join(app, 'node_modules', 'privsample', 'package.json'), 'utf8'));
    assert.equal(installed.version, ROOT_PACKAGE.version);
  });

  test('types: the installed declarations compile under every tsconfig setting of tests/types/matrix.mjs', async (t) => {
    const { stdout } = await run(process.execPath, [join(ROOT, 'tests', 'types', 'matrix.mjs'), app], { maxBuffer: 1 << 24 });
    t.diagnostic(stdout.trim().split('\n').at(-1));
  });

  test('node-esm and node-cjs: a private sample in Node, as ES module and from require()', async () => {
    for (const [dir, file] of [['node-esm', 'index.mjs'], ['node-cjs', 'index.cjs']]) {
      const { stdout } = await run(process.execPath, [file], { cwd: join(app, 'examples', dir) });
      assert.match(stdout, /one private sample: category \d of \d/, `${dir}: ${stdout}`);
      assert.match(stdout, /"notion":"pure-ldp","epsilon":1/, dir);
    }
  });

  test('vite-vanilla and react: built with Vite (the .wasm copied as an asset), a sample in each browser', async () => {
    for (const dir of ['vite-vanilla', 'react']) {
      const root = join(app, 'examples', dir);
      await run(process.execPath, [join(app, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'error'], { cwd: root });
      const assets = readdirSync(join(root, 'dist', 'assets'));
      assert.ok(assets.some((f) => /^privsample-client.*\.wasm$/.test(f)), `${dir}: the .wasm is an asset (${assets})`);
      const site = await serve(join(root, 'dist'));
      try {
        if (dir === 'react') {
          // React renders a button: the test presses it once, as a person would.
          for (const [name, browser] of browsers) {
            const tab = await browser.newTab({ width: 900, height: 700 });
            await tab.goto(`${site.origin}/`);
            await tab.waitFor(() => document.querySelector('button') !== null);
            await tab.evaluate(() => document.querySelector('button').click());
            await tab.waitFor(() => document.getElementById('result')?.dataset.state === 'done');
            assert.match(await tab.evaluate(() => document.getElementById('result').textContent), /^(Walk|Bicycle|Bus|Train|Car)$/, `react in ${name}`);
            await tab.close();
          }
        } else {
          assertShown(await resultsIn(browsers, `${site.origin}/`), dir, /^(Walk|Bicycle|Bus|Train|Car)$/);
        }
      } finally {
        await closeServer(site);
      }
    }
  });

  test('plain-html under a strict policy: the direct path, and an import map allowed by its hash', async () => {
    const site = await serve(join(app, 'examples', 'plain-html'));
    try {
      for (const page of ['index.html', 'importmap.html']) {
        assertShown(await resultsIn(browsers, `${site.origin}/${page}`), `plain-html/${page}`, /\(privsample \d+\.\d+\.\d+, \{"notion":"pure-ldp","epsilon":1\}\)$/);
      }
    } finally {
      await closeServer(site);
    }
  });

  test('worker: the page posts its compiled module to a module worker, which draws', async () => {
    const policy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; object-src 'none'; base-uri 'none'";
    const site = await serve(join(app, 'examples', 'worker'), { policy });
    try {
      assertShown(await resultsIn(browsers, `${site.origin}/`), 'worker', /^category \d \(drawn in the worker, \{"notion":"pure-ldp","epsilon":1\}\)$/);
    } finally {
      await closeServer(site);
    }
  });

  test('cdn: the package as static files from another origin (CORS), under the page’s policy', async () => {
    // The "CDN": /npm/privsample@<version>/… is the installed package's files, sent with CORS as jsDelivr does.
    const cdn = await serve(join(app, 'node_modules'), { cors: true });
    const page = await readFile(join(app, 'examples', 'cdn', 'main.js'), 'utf8');
    assert.ok(page.includes(`${CDN}/npm/privsample@${ROOT_PACKAGE.version}/build/bundle/privsample.mjs`), 'the example pins this version');
    const cdnRoot = join(app, 'node_modules');
    const rewrite = (text) => text.replaceAll(CDN, cdn.origin).replaceAll(`/npm/privsample@${ROOT_PACKAGE.version}/`, '/privsample/');
    const site = await serve(join(app, 'examples', 'cdn'), { rewrite });
    try {
      assert.ok(existsSync(join(cdnRoot, 'privsample', 'build', 'wasm', 'privsample-client.wasm')));
      assertShown(await resultsIn(browsers, `${site.origin}/`), 'cdn', /^category \d \(privsample \d+\.\d+\.\d+ from the CDN\)$/);
    } finally {
      await closeServer(site);
      await closeServer(cdn);
    }
  });

  test('duckdb: 10^5 private reports as rows, one GROUP BY, the estimate covers the truth', async () => {
    const { runExample } = await import(pathToFileURL(join(app, 'examples', 'duckdb', 'aggregate.mjs')).href);
    const r = await runExample({ reports: 1e5, epsilon: 1, seed: 5 });
    assert.equal(r.stored, 1e5);
    const p = r.estimate.population;
    for (let x = 0; x < r.truth.length; x += 1) {
      assert.ok(p.simultaneousLower[x] <= r.truth[x] && r.truth[x] <= p.simultaneousUpper[x], `category ${x}`);
    }
  });

  test('duckdb: frequency-oracle reports as rows, the SQL counts what the library counts, the estimate covers the truth', async () => {
    const { runOracleExample } = await import(pathToFileURL(join(app, 'examples', 'duckdb', 'aggregate.mjs')).href);
    for (const oracle of ['oue', 'subset-selection', 'hadamard']) {
      // The reports use the CSPRNG (no seed): intervals at 1 − 10^-4, so a correct estimator fails this rarely.
      const r = await runOracleExample({ reports: 2e4, epsilon: 1, oracle, seed: 5, alpha: 1e-4 });
      assert.deepEqual([...r.counts], [...r.library], `${oracle}: SQL counts`);
      const e = r.estimate;
      for (let x = 0; x < r.truth.length; x += 1) {
        assert.ok(e.simultaneousLower[x] <= r.truth[x] && r.truth[x] <= e.simultaneousUpper[x], `${oracle}: item ${x}`);
      }
    }
  });
});
