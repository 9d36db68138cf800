#!/usr/bin/env bash
# npm pack → install the tarball into an empty folder → a script there imports it and privatizes a histogram.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tarball=$(npm pack --silent --pack-destination "$work" | tail -n 1)
echo "packed $tarball ($(du -h "$work/$tarball" | cut -f1))"
mkdir "$work/app"
cd "$work/app"
cat > package.json <<'JSON'
{ "name": "privsample-smoke", "version": "1.0.0", "private": true, "type": "module" }
JSON
npm install --no-audit --no-fund --loglevel=error "../$tarball" >/dev/null
cat > smoke.mjs <<'JS'
import assert from 'node:assert/strict';
import { init } from 'privsample';

const ps = await init();
const sampler = ps.sampler('minimax', { epsilon: 1 });
const q = sampler.distribution([1, 0, 0, 0, 0]);
assert.ok(Math.abs(q[0] - 0.404610) < 1e-6 && Math.abs(q[1] - 0.148848) < 1e-6, `Q* of a point mass is k-RR: ${q}`);
const x = sampler.sample([12, 30, 7]);
assert.ok(Number.isInteger(x) && x >= 0 && x < 3, `sample ${x} is a category index`);
assert.throws(() => sampler.distribution([1, -2]), RangeError);
console.log(`smoke: privsample ${ps.version} from the tarball: Q*(δ0) = [${Array.from(q, (v) => v.toFixed(6)).join(', ')}], one private sample = ${x}`);
JS
node smoke.mjs
# The installed package ships exactly what it needs.
test -f node_modules/privsample/bindings/js/privsample.d.ts
test -f node_modules/privsample/build/wasm/privsample-wasm.mjs
echo "1 passed, 0 failed"
