#!/usr/bin/env bash
# npm run reproduce -- <name> [--quick]: installs what is missing, builds the WebAssembly module, then runs the
# reproduction (scripts/reproduce.mjs) through the public JS API.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/build-wasm.sh >/dev/null
exec node scripts/reproduce.mjs "$@"
