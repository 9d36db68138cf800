#!/usr/bin/env bash
# Builds the WebAssembly module build/wasm/privsample-wasm.mjs (one ES module, WASM inlined) with Debian's em++.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs   # Emscripten 3.1.6's JS optimizer needs Debian's acorn (TOOLCHAIN.md)
if [[ ! -f build/wasm/CMakeCache.txt ]]; then
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build build/wasm -j2
