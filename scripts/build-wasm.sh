#!/usr/bin/env bash
# Builds the WebAssembly modules build/wasm/privsample-client.wasm (loaded by bindings/js/abi.mjs) and
# build/wasm/privsample-research.mjs (an ES module, WASM inlined) with Debian's em++. Reconfigures when the cache is missing, stale or from a failed configure.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs   # Emscripten 3.1.6's JS optimizer needs Debian's acorn (docs/toolchain.md)
if [[ ! -f build/wasm/Makefile || ! -f build/wasm/CMakeCache.txt || CMakeLists.txt -nt build/wasm/Makefile ]]; then
  rm -rf build/wasm/CMakeCache.txt build/wasm/CMakeFiles
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build build/wasm -j2 --target privsample_client_wasm privsample_ledger_wasm privsample_research_wasm
# The shipped client and ledger files and the bundled 'privsample' entry (scripts/bundle-client.mjs), when anything changed.
newest=$(ls -t build/wasm/privsample-client-glue.wasm build/wasm/privsample-ledger-glue.wasm bindings/js/privsample.mjs bindings/js/common.mjs bindings/js/abi.mjs bindings/js/load-wasm.mjs bindings/js/ledger.mjs bindings/js/ledger-storage.mjs | head -n 1)
if [[ ! -f build/bundle/privsample.mjs || "$newest" -nt build/bundle/privsample.mjs ]]; then
  node scripts/bundle-client.mjs
fi
