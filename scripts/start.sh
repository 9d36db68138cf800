#!/usr/bin/env bash
# npm start: build everything, then serve the demo locally (Ctrl-C stops it).
# npm run dev (scripts/start.sh --dev): the Vite dev server with hot reload over web/, for contributors.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=preview
[[ "${1:-}" == "--dev" ]] && mode=dev
port="${PORT:-5173}"
# Checked before the build, so a busy port fails in a second with what to do, not after minutes of building.
if ! node -e '
  const server = require("node:net").createServer();
  server.once("error", () => process.exit(1));
  server.listen(Number(process.argv[1]), "127.0.0.1", () => server.close(() => process.exit(0)));
' "$port"; then
  echo "privsample: port ${port} on 127.0.0.1 is already in use (another npm start or npm run dev?)." >&2
  echo "privsample: stop that server, or choose another port:  PORT=8080 npm ${mode/preview/start}" >&2
  exit 1
fi
if [[ "$mode" == dev ]]; then
  bash scripts/bootstrap.sh --build-only
  bash scripts/build-wasm.sh
  echo "privsample: dev server with hot reload at http://127.0.0.1:${port}/ (edits in web/ reload the page)"
  exec npx vite --config web/vite.config.js --host 127.0.0.1 --port "$port" --strictPort
fi
bash scripts/build.sh
echo "privsample: serving the demo at http://127.0.0.1:${port}/"
exec npx vite preview --config web/vite.config.js --host 127.0.0.1 --port "$port" --strictPort
