#!/usr/bin/env bash
# npm run reproduce -- <name>|all|list [--quick] [--out DIR] [--no-chart]: installs what is missing (bootstrap),
# builds the WebAssembly modules, then runs the registry's experiments (scripts/reproduce.mjs) through the public API.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/build-wasm.sh >/dev/null
exec node scripts/reproduce.mjs "$@"
