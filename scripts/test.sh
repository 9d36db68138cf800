#!/usr/bin/env bash
# npm test: installs what is missing, then builds and runs every test layer.
#   1. native core: Catch2 via ctest        3. JS API against the built modules (node --test), .d.ts via tsc
#   2. WebAssembly modules (em++), and the   4. clean clone → npm ci → npm pack → install in an empty folder → use
#      client's draw path read for branches
#   5. every example of examples/ against that packed tarball, and the .d.ts under the tsconfig matrix (tests/types/)
#   6. the site build (the demo with Vite, the guide and API reference with TypeDoc) and the browser end-to-end tests:
#      in depth in Debian's Chromium (playwright-core), the client entry and every page in Firefox ESR and WebKitGTK too
#   (after 1: the native suite under ASan+UBSan and each libFuzzer target for a bounded time, scripts/test-sanitize.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh

# Each step says when it started (seconds since npm test began), so a slow CI run shows which layer grew.
step() { printf '\n==== %s (at %d s)\n' "$1" "$SECONDS"; }

step "native core: build and ctest"
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/native -j2
(cd build/native && ctest --output-on-failure -j2)

step "native core under AddressSanitizer + UndefinedBehaviorSanitizer, and bounded libFuzzer runs"
bash scripts/test-sanitize.sh

step "WebAssembly modules (client and research)"
bash scripts/build-wasm.sh
# the fixed-schedule digest programs (client and research cores), for tests/js/fixed-schedule-digest.test.mjs
NODE_PATH=/usr/share/nodejs cmake --build build/wasm -j2 --target fixed_schedule_digest fixed_schedule_digest_research

step "the client module's draw path read for branches (the client linked again, with function names)"
emcmake cmake -S . -B build/wasm-named -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXE_LINKER_FLAGS=--profiling-funcs >/dev/null
NODE_PATH=/usr/share/nodejs cmake --build build/wasm-named -j2 --target privsample_client_wasm
node --test tests/wasm/

step "TypeScript declarations (tsc --noEmit on a usage file)"
npx tsc -p tests/js/tsconfig.json

step "JS API tests against the built module"
node --test tests/js/

step "npm pack from a clean clone of the committed tree, installed into an empty project"
bash tests/pack/smoke.sh

step "examples against the packed tarball (Node, Vite, React, plain HTML, worker, CDN, DuckDB) and the tsconfig matrix"
node --test tests/examples/

step "site build (demo and docs) and browser end-to-end tests (Chromium; Firefox ESR and WebKitGTK)"
bash scripts/build.sh --skip-setup
node --test tests/e2e/
printf '\n==== all test layers passed in %d s\n' "$SECONDS"
