#!/usr/bin/env bash
# npm pack / npm publish run this first (the "prepack" script): the package ships the built WebAssembly modules,
# so build them from the sources, installing what is missing exactly as `npm test` does.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh --build-only
bash scripts/build-wasm.sh
for file in build/bundle/privsample.mjs build/bundle/common.mjs build/bundle/ledger.mjs build/wasm/privsample-client.wasm \
    build/wasm/privsample-ledger.wasm build/wasm/privsample-research.mjs; do
  [[ -s "$file" ]] || { echo "privsample: prepack: $file was not built" >&2; exit 1; }
done
