// npm start / npm run dev as a contributor meets them: a busy port fails fast with what to do; the dev server
// answers with the demo page and serves the library module to it; a machine without Debian's package tools (or
// without root) is told what to install and where the hosted demo is.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function run(args, env) {
  return new Promise((resolve) => {
    const child = spawn('bash', ['scripts/start.sh', ...args], { cwd: root, env: { ...process.env, ...env }, detached: true });
    let output = '';
    const done = (code) => {
      try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
      resolve({ code, output });
    };
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => { output += chunk; });
    child.on('exit', (code) => resolve({ code, output }));
    setTimeout(() => done('timeout'), 120_000).unref();
  });
}

test('npm start on a busy port says which port and how to choose another, before building', async () => {
  const busy = createServer();
  await new Promise((resolve) => busy.listen(0, '127.0.0.1', resolve));
  const { port } = busy.address();
  const started = Date.now();
  const { code, output } = await run([], { PORT: String(port) });
  busy.close();
  assert.equal(code, 1);
  assert.match(output, new RegExp(`port ${port} on 127.0.0.1 is already in use`));
  assert.match(output, /PORT=8080 npm start/);
  assert.ok(Date.now() - started < 20_000, 'fails before building');
});

test('npm run dev serves the demo with hot reload (Vite dev server)', async () => {
  const port2 = await freePort();
  const child = spawn('bash', ['scripts/start.sh', '--dev'], { cwd: root, env: { ...process.env, PORT: String(port2) }, detached: true });
  try {
    let page = '';
    for (let attempt = 0; attempt < 120 && !page.includes('privsample'); attempt += 1) {
      await new Promise((r) => setTimeout(r, 500));
      page = await fetch(`http://127.0.0.1:${port2}/`).then((r) => r.text()).catch(() => '');
    }
    assert.match(page, /privsample/i, 'the demo page');
    assert.match(page, /@vite\/client/, 'with Vite\'s hot-reload client');
    const library = await fetch(`http://127.0.0.1:${port2}/@fs${root}bindings/js/privsample.mjs`).then((r) => r.status);
    assert.equal(library, 200, 'the library module is served to the page');
  } finally {
    process.kill(-child.pid, 'SIGTERM');
  }
});

/**
 * A PATH of a machine that is not Debian (or has no root): the basic tools and Node, plus `fakes` — scripts named as
 * commands (dpkg-query, apt-get, id) — and nothing else (no em++, no cmake).
 */
function foreignPath(fakes = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'privsample-path-'));
  for (const tool of ['bash', 'env', 'id', 'grep', 'cat', 'dirname', 'uname', 'printf', 'sed', 'head', 'ls', 'node', 'npm']) {
    const found = execFileSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
    if (found && !(tool in fakes)) symlinkSync(found, join(dir, tool));
  }
  for (const [name, body] of Object.entries(fakes)) writeFileSync(join(dir, name), `#!/bin/bash\n${body}\n`, { mode: 0o755 });
  return dir;
}

test('npm start without Debian\'s package tools says what to install on each platform and where the hosted demo is', async () => {
  const path = foreignPath();
  try {
    const { code, output } = await run([], { PATH: path, PORT: String(await freePort()) });
    assert.equal(code, 1);
    assert.match(output, /no Debian package tools \(apt-get, dpkg\), and these are missing: em\+\+, emcmake, wasm-opt, cmake, make/);
    assert.match(output, /Debian 12, Ubuntu: +sudo apt-get install emscripten binaryen libeigen3-dev cmake make/);
    assert.match(output, /macOS \(Homebrew\): +brew install emscripten binaryen eigen cmake/);
    assert.match(output, /Windows: +WSL with Debian 12/);
    assert.match(output, /the demo without building anything: https:\/\/privsample\.github\.io\/privsample\//);
  } finally {
    rmSync(path, { recursive: true, force: true });
  }
});

test('npm start on Debian without root names the packages it needs for the build, with sudo, and the hosted demo', async () => {
  // dpkg-query reports every package missing; id says a normal user; apt-get must not be run.
  const path = foreignPath({ 'dpkg-query': 'exit 1', 'apt-get': 'echo "apt-get ran" >&2; exit 3', id: 'echo 1000' });
  try {
    const { code, output } = await run([], { PATH: path, PORT: String(await freePort()) });
    assert.equal(code, 1);
    assert.match(output, /missing Debian packages: emscripten binaryen libeigen3-dev cmake make$/m, 'only what the build needs');
    assert.match(output, /sudo apt-get update && sudo apt-get install --no-install-recommends emscripten binaryen libeigen3-dev cmake make/);
    assert.match(output, /https:\/\/privsample\.github\.io\/privsample\//);
    assert.doesNotMatch(output, /apt-get ran/);
  } finally {
    rmSync(path, { recursive: true, force: true });
  }
});
