// npm start / npm run dev as a contributor meets them: a busy port fails fast with what to do; the dev server
// answers with the demo page and serves the library module to it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
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
