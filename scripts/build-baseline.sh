#!/usr/bin/env bash
# The baseline of bench/client-clip.mjs: the single WebAssembly module every user downloaded before the client entry
# existed (commit 5fd3315: the whole core at -O3 in one build/wasm/privsample-wasm.mjs), built from this repository's
# own history into build/baseline-5fd3315.
set -euo pipefail
cd "$(dirname "$0")/.."
commit=5fd3315
dir="build/baseline-$commit"
[[ -f "$dir/build/wasm/privsample-wasm.mjs" ]] && exit 0
if ! git cat-file -e "$commit^{commit}" 2>/dev/null; then
  echo "privsample: commit $commit is not in this clone's history (a shallow clone?): 'git fetch --unshallow' first" >&2
  exit 1
fi
rm -rf "$dir"
git clone -q --no-checkout . "$dir"
git -C "$dir" checkout -q "$commit"
# What that commit's scripts/build-wasm.sh runs, limited to the one module's target (no tests, no npm packages).
(cd "$dir" && export NODE_PATH=/usr/share/nodejs && emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null 2>&1 &&
  cmake --build build/wasm -j2 --target privsample_wasm >/dev/null)
echo "privsample: built the baseline module of $commit ($(stat -c %s "$dir/build/wasm/privsample-wasm.mjs") bytes) in $dir" >&2
