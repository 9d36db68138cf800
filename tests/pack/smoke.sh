#!/usr/bin/env bash
# What a publisher does, from the committed tree only: clone it into an empty folder, npm ci, npm pack (prepack
# builds the WebAssembly there from the sources), then install the tarball into an empty consumer project and use
# both entries as a user would: privatize a histogram, draw with the CSPRNG and with a seed, require() it.
# The tarball is kept as build/pack/privsample-<version>.tgz: the examples' test (tests/examples/) installs that one.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

git clone --quiet --no-hardlinks . "$work/clone"
echo "cloned $(git -C "$work/clone" rev-parse --short HEAD) (committed tree only) into an empty folder"
cd "$work/clone"
npm ci --no-audit --no-fund --loglevel=error >/dev/null
tarball=$(npm pack --silent --pack-destination "$work" --loglevel=error | tail -n 1)
listing=$(npm pack --dry-run --json --ignore-scripts --loglevel=error)
echo "packed $tarball ($(du -h "$work/$tarball" | cut -f1)) in the clean clone"
rm -rf "$repo/build/pack"
mkdir -p "$repo/build/pack"
cp "$work/$tarball" "$repo/build/pack/"

# The tarball ships exactly the package: its modules, types, README and LICENSE, nothing from the build tree.
node - "$listing" <<'JS'
const [{ files }] = JSON.parse(process.argv[2]);
const paths = files.map((f) => f.path).sort();
const required = [
  'LICENSE', 'README.md', 'package.json',
  'bindings/js/privsample.mjs', 'bindings/js/privsample.d.ts', 'bindings/js/research.mjs', 'bindings/js/research.d.ts',
  'bindings/js/abi.mjs', 'bindings/js/common.mjs', 'bindings/js/ledger.mjs', 'bindings/js/ledger-storage.mjs', 'bindings/js/load-wasm.mjs',
  'bindings/js/privsample.d.cts', 'bindings/js/research.d.cts', 'bindings/js/require.cjs', 'bindings/js/research-require.cjs',
  'bindings/js/require-esm.cjs',
  'build/bundle/privsample.mjs', 'build/bundle/common.mjs', 'build/bundle/ledger.mjs',
  'build/wasm/privsample-client.wasm', 'build/wasm/privsample-ledger.wasm',
  'build/wasm/privsample-research.mjs',
];
const missing = required.filter((p) => !paths.includes(p));
const extra = paths.filter((p) => !required.includes(p));
if (missing.length || extra.length) {
  console.error(`npm pack lists ${paths.join(', ')}\nmissing: ${missing.join(', ') || '-'}\nunexpected: ${extra.join(', ') || '-'}`);
  process.exit(1);
}
const size = (p) => files.find((f) => f.path === p).size;
for (const wasm of ['build/wasm/privsample-client.wasm', 'build/wasm/privsample-ledger.wasm']) {
  if (size(wasm) < 10000) throw new Error(`the packed ${wasm} is implausibly small`);
}
console.log(`npm pack --dry-run lists the ${paths.length} expected files`);
JS

mkdir "$work/app"
cd "$work/app"
cat > package.json <<'JSON'
{ "name": "privsample-smoke", "version": "1.0.0", "private": true, "type": "module" }
JSON
npm install --no-audit --no-fund --loglevel=error "../$tarball" >/dev/null
cat > smoke.mjs <<'JS'
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { init } from 'privsample';
import { init as initResearch } from 'privsample/research';

// Every golden vector of the repository's tests (tests/golden/*.json), through the installed package.
const goldenFile = (name) => JSON.parse(readFileSync(`${process.env.PRIVSAMPLE_GOLDEN_DIR}/${name}`, 'utf8'));
const golden = goldenFile('minimax.json');
const ps = await init();
for (const { p, epsilon, q: want } of golden.qstar.vectors) {
  const q = ps.sampler('minimax', { epsilon }).distribution(p);
  want.forEach((v, i) => assert.ok(Math.abs(q[i] - v) <= golden.qstar.tolerance + 1e-12, `Q*(${p}) at ε = ${epsilon}: ${q}`));
}
const clip = goldenFile('clip-samplers.json');
const local = ps.sampler('local', { epsilon: clip.local.epsilon, prior: clip.local.prior, gamma: clip.local.gamma });
const mollifier = ps.sampler('mollifier', { epsilon: clip.mollifier.epsilon });
for (const [sampler, { vectors, tolerance }] of [[local, clip.local], [mollifier, clip.mollifier]]) {
  for (const { label, p, q: want } of vectors) {
    const q = sampler.distribution(p);
    want.forEach((v, i) => assert.ok(Math.abs(q[i] - v) <= tolerance + 1e-12, `${sampler.mechanism} Q(${label}): ${q}`));
  }
}
const sampler = ps.sampler('minimax', { epsilon: 1 });
const q = sampler.distribution([1, 0, 0, 0, 0]);
const x = sampler.sample([12, 30, 7]);
assert.ok(Number.isInteger(x) && x >= 0 && x < 3, `CSPRNG sample ${x} is a category index`);
const seeded = sampler.sampleMany([12, 30, 7], 1000, { seed: 7 });
assert.deepEqual(seeded, sampler.sampleMany([12, 30, 7], 1000, { seed: 7 }), 'a seed reproduces its draws');
assert.ok(seeded.every((v) => v < 3));
const secure = sampler.sampleMany([12, 30, 7], 1000);
assert.notDeepEqual(secure, sampler.sampleMany([12, 30, 7], 1000), 'CSPRNG draws differ between calls');
assert.throws(() => sampler.distribution([1, -2]), { name: 'RangeError', message: /hist\[1\] = -2/ });
// The privacy-budget ledger (its module loaded on this first use): one release fits a budget of 1.5, the second
// (1 + 1) is refused.
const ledger = await ps.ledger({ budgets: { smoke: { epsilon: 1.5 } } });
assert.ok(Number.isInteger(await ledger.release(sampler, [12, 30, 7], { purpose: 'smoke' })));
await assert.rejects(ledger.release(sampler, [12, 30, 7], { purpose: 'smoke' }), { name: 'RangeError', message: /budget epsilon = 1\.5/ });
sampler.dispose();

const research = await initResearch();
const report = research.accountant(research.sampler('linear', { epsilon: 1 }), { k: 4 });
assert.ok(Math.abs(report.ldp.pureEpsilon - 1) < 1e-9, `k-RR is exactly 1-LDP: ${report.ldp.pureEpsilon}`);

const require = createRequire(import.meta.url);
const required = require('privsample');
assert.equal((await required.init()).version, ps.version, 'require() gives the same module');
console.log(`smoke: privsample ${ps.version} from the tarball: Q*(δ0) = [${Array.from(q, (v) => v.toFixed(6)).join(', ')}], one private sample = ${x}`);
JS
PRIVSAMPLE_GOLDEN_DIR="$work/clone/tests/golden" node smoke.mjs
test -f node_modules/privsample/bindings/js/privsample.d.ts

# A bundler (Vite, as in a user's web app) copies the .wasm as an asset and the built page refers to it.
mkdir web
cat > web/index.html <<'HTML'
<!doctype html><script type="module" src="./main.js"></script>
HTML
cat > web/main.js <<'JS'
import { init } from 'privsample';
const ps = await init();
document.title = String(ps.sampler('minimax', { epsilon: 1 }).sample([1, 2, 3]));
JS
node "$work/clone/node_modules/vite/bin/vite.js" build web --outDir ../dist --emptyOutDir --logLevel error
# Two assets: the client module and the ledger's, which the page fetches only when it calls ps.ledger().
for name in privsample-client privsample-ledger; do
  wasm_asset=$(find dist -name "$name*.wasm" | head -n 1)
  [[ -n "$wasm_asset" ]] || { echo "vite build of a consumer app emitted no $name .wasm asset" >&2; ls -R dist >&2; exit 1; }
  grep -q "$(basename "$wasm_asset")" dist/assets/*.js || { echo "the bundled app does not refer to $wasm_asset" >&2; exit 1; }
  echo "a Vite app bundles privsample with its .wasm asset ($(basename "$wasm_asset"), $(stat -c %s "$wasm_asset") bytes)"
done
echo "1 passed, 0 failed"
