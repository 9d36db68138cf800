// The client module's passes in WebAssembly SIMD lanes (the fixed schedule, the histogram scan) give the same answers
// bit for bit as the native build and the research module (scalar lanes): the digest of
// tests/digest/fixed_schedule_digest.hpp over 2,400 generated inputs, compiled against the client module's own
// libraries (CMake target fixed_schedule_digest).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const root = new URL('../../', import.meta.url);
const program = new URL('build/wasm/fixed_schedule_digest.cjs', root);
const golden = JSON.parse(readFileSync(new URL('tests/golden/fixed-schedule-digest.json', root), 'utf8'));

test('SIMD lanes: the client WebAssembly gives the golden digest (fixed schedule, normalized_pmf), as native does', () => {
  if (!existsSync(program)) {
    // scripts/test.sh builds it; when the JS layer runs on its own, build it here (needs build/wasm configured)
    execFileSync('cmake', ['--build', 'build/wasm', '--target', 'fixed_schedule_digest'], {
      cwd: root,
      env: { ...process.env, NODE_PATH: '/usr/share/nodejs' },
      stdio: 'inherit',
    });
  }
  const wasm = JSON.parse(execFileSync(process.execPath, [program.pathname], { encoding: 'utf8' }));
  assert.equal(wasm.cases, golden.cases);
  assert.equal(wasm.rejected, golden.rejected);
  assert.equal(wasm.digest, golden.digest);
});
