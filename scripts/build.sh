#!/usr/bin/env bash
# npm run build: the WebAssembly module, then the static demo site in dist/ (relative URLs: any sub-path works).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" != "--skip-setup" ]]; then
  bash scripts/bootstrap.sh
  bash scripts/build-wasm.sh
fi
npx vite build --config web/vite.config.js --logLevel warn
echo "privsample: demo built in dist/"
