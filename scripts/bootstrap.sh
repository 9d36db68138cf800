#!/usr/bin/env bash
# Installs what privsample's build and tests need, only if missing. Idempotent; fast when all is present.
#   Debian: emscripten (em++, Embind), binaryen (wasm-opt; emscripten depends on it too), libeigen3-dev, catch2,
#           nlohmann-json3-dev (golden files in the native tests), chromium, firefox-esr, webkit2gtk-driver and xvfb
#           (the browser tests: Chromium, Firefox ESR, WebKitGTK's MiniBrowser on a virtual screen), cmake, g++,
#           clang-14 + libclang-rt-14-dev (sanitizers and libFuzzer), ccache (a warm run recompiles only what changed)
#   npm:    the packages pinned in package-lock.json (npm ci)
set -euo pipefail
cd "$(dirname "$0")/.."

debian_packages=(emscripten binaryen libeigen3-dev catch2 nlohmann-json3-dev chromium firefox-esr webkit2gtk-driver xvfb cmake g++ make
  clang-14 libclang-rt-14-dev ccache)
missing=()
for pkg in "${debian_packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]})); then
  cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
  if [[ $(id -u) -ne 0 ]]; then
    echo "privsample: missing Debian packages: ${missing[*]}" >&2
    echo "privsample: run as root:  $cmd" >&2
    exit 1
  fi
  echo "privsample: installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm dependencies: reinstall only when node_modules is older than the lock file.
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "privsample: installing npm packages from package-lock.json"
  npm ci --no-audit --no-fund --loglevel=error
fi
