#!/usr/bin/env bash
# Installs what privsample's build and tests need, only if missing. Idempotent; fast when all is present.
#   bash scripts/bootstrap.sh               everything `npm test` needs
#   bash scripts/bootstrap.sh --build-only  what the WebAssembly module and the site need (npm start, npm run build,
#                                           npm pack): emscripten, binaryen, libeigen3-dev, cmake, make
#   Debian: emscripten (em++, Embind), binaryen (wasm-opt; emscripten depends on it too), libeigen3-dev, catch2,
#           nlohmann-json3-dev (golden files in the native tests), chromium, firefox-esr, webkit2gtk-driver and xvfb
#           (the browser tests: Chromium, Firefox ESR, WebKitGTK's MiniBrowser on a virtual screen), cmake, g++,
#           clang-14 + libclang-rt-14-dev (sanitizers and libFuzzer), ccache (a warm run recompiles only what changed)
#   npm:    the packages pinned in package-lock.json (npm ci)
# On a machine without Debian's package tools it installs nothing: it checks for the build tools and, when one is
# missing, says what to install on each platform (and where the hosted demo is), then exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."

HOSTED_DEMO=https://privsample.github.io/privsample/
build_packages=(emscripten binaryen libeigen3-dev cmake make)
test_packages=(catch2 nlohmann-json3-dev chromium firefox-esr webkit2gtk-driver xvfb g++ clang-14 libclang-rt-14-dev ccache)
debian_packages=("${build_packages[@]}")
[[ "${1:-}" == "--build-only" ]] || debian_packages+=("${test_packages[@]}")

# What the build needs, said for every platform (this script installs only on Debian and Ubuntu).
needs() {
  cat >&2 <<EOF
privsample: $1
privsample: building the WebAssembly module and the demo needs Emscripten (em++), binaryen (wasm-opt), the Eigen 3.4
            headers, CMake and make (and Node >= 20.19 with npm). On:
  Debian 12, Ubuntu:   sudo apt-get install ${build_packages[*]}
  macOS (Homebrew):    brew install emscripten binaryen eigen cmake
  Arch Linux:          sudo pacman -S emscripten binaryen eigen cmake make
  Windows:             WSL with Debian 12, then the Debian line
privsample: the project is built and tested with Debian 12's Emscripten 3.1.6; other versions may need changes.
privsample: to look at the demo without building anything: ${HOSTED_DEMO}
EOF
}

if command -v dpkg-query >/dev/null && command -v apt-get >/dev/null; then
  missing=()
  for pkg in "${debian_packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$pkg")
    fi
  done
  if ((${#missing[@]})); then
    if [[ $(id -u) -ne 0 ]]; then
      echo "privsample: missing Debian packages: ${missing[*]}" >&2
      echo "privsample: install them:  sudo apt-get update && sudo apt-get install --no-install-recommends ${missing[*]}" >&2
      echo "privsample: (as root, npm start and npm test install them themselves)" >&2
      echo "privsample: to look at the demo without building anything: ${HOSTED_DEMO}" >&2
      exit 1
    fi
    echo "privsample: installing Debian packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
else
  # Not Debian: nothing is installed; the build goes ahead only if its tools are there.
  absent=()
  for tool in em++ emcmake wasm-opt cmake make; do
    command -v "$tool" >/dev/null || absent+=("$tool")
  done
  eigen=no
  for dir in /usr/include/eigen3 /usr/local/include/eigen3 /opt/homebrew/include/eigen3; do
    [[ -f "$dir/Eigen/Core" ]] && eigen=yes
  done
  [[ $eigen == yes ]] || absent+=("the Eigen 3.4 headers")
  if ((${#absent[@]})); then
    list=$(printf '%s, ' "${absent[@]}")
    needs "this machine has no Debian package tools (apt-get, dpkg), and these are missing: ${list%, }."
    exit 1
  fi
  if [[ "${1:-}" != "--build-only" ]]; then
    echo "privsample: not Debian: the build tools are here, but npm test also needs Debian's browsers and test libraries" >&2
    echo "privsample: (chromium, firefox-esr, webkit2gtk-driver, xvfb, catch2, nlohmann-json3-dev, clang-14); expect failures" >&2
  fi
fi

# npm dependencies: reinstall only when node_modules is older than the lock file.
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "privsample: installing npm packages from package-lock.json"
  npm ci --no-audit --no-fund --loglevel=error
fi
