#!/usr/bin/env bash
# npm run build: the WebAssembly module, then the static site in dist/ (relative URLs: any sub-path works): the demo's
# pages, and in dist/docs/ the guide (docs/guide/*.md) with the API reference generated from bindings/js/*.d.ts
# (TypeDoc, typedoc.json; a broken link or an undocumented reference fails the build).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" != "--skip-setup" ]]; then
  bash scripts/bootstrap.sh --build-only
  bash scripts/build-wasm.sh
fi
npx vite build --config web/vite.config.js --logLevel warn
npx typedoc --logLevel Warn
echo "privsample: demo built in dist/, the guide and API reference in dist/docs/"
