// Both WebAssembly builds run the fixed schedule's arithmetic in their own way: the client module in f64x2 lanes
// (the fixed schedule, the histogram scan; its checking pass by SIMD intrinsics), the research module in f64x2 lanes
// of vector types (F̃ in the client's form, the checking pass in the native one) with integer clips on the doubles'
// bits where a scalar clip remains; the adaptive search's small-k steering pass and its validating scan of uniform boxes also have f64x2 lanes in
// the client (the research module: the scan and the closing pass, as natively). Each must give the same
// answers bit for bit as the native build (min/max): the digests of tests/digest/fixed_schedule_digest.hpp over
// 2,400 generated inputs and over 1,200 corrupted and edge-case inputs (both schedules each)
// (which must be accepted and refused alike) and over 48 uniform boxes at k = 1,000 to 65,537 (natively the adaptive
// search's passes over every mass run in f64x2 lanes there), compiled against each module's own libraries (CMake targets
// fixed_schedule_digest and fixed_schedule_digest_research).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const root = new URL('../../', import.meta.url);
const golden = JSON.parse(readFileSync(new URL('tests/golden/fixed-schedule-digest.json', root), 'utf8'));

function digestOf(target) {
  const program = new URL(`build/wasm/${target}.cjs`, root);
  if (!existsSync(program)) {
    // scripts/test.sh builds it; when the JS layer runs on its own, build it here (needs build/wasm configured)
    execFileSync('cmake', ['--build', 'build/wasm', '--target', target], {
      cwd: root,
      env: { ...process.env, NODE_PATH: '/usr/share/nodejs' },
      stdio: 'inherit',
    });
  }
  return JSON.parse(execFileSync(process.execPath, [program.pathname], { encoding: 'utf8' }));
}

for (const [target, build] of [['fixed_schedule_digest', 'the client module (f64x2 lanes)'], ['fixed_schedule_digest_research', 'the research module (f64x2 vector types)']]) {
  test(`${build} gives the golden digests (fixed schedule, adaptive search, normalized_pmf; corrupted inputs; large k), as native does`, () => {
    const wasm = digestOf(target);
    assert.equal(wasm.cases, golden.cases);
    assert.equal(wasm.rejected, golden.rejected);
    assert.equal(wasm.digest, golden.digest);
    assert.equal(wasm.adaptive, golden.adaptive);
    assert.deepEqual(wasm.corrupted, golden.corrupted);
    assert.deepEqual(wasm.large, golden.large);
  });
}
