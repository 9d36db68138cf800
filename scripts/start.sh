#!/usr/bin/env bash
# npm start: build everything, then serve the demo locally (Ctrl-C stops it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
port="${PORT:-5173}"
echo "privsample: serving the demo at http://127.0.0.1:${port}/"
exec npx vite preview --config web/vite.config.js --host 127.0.0.1 --port "$port" --strictPort
