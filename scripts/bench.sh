#!/usr/bin/env bash
# npm run bench -- <name> [args]: builds what the benchmark needs, then runs it. Names:
#   client-size     bytes per entry point and init() in Chromium         (bench/client-size.mjs)
#   client-latency  per-call latency vs rebuilding and vs plain JS        (bench/client-latency.mjs)
#   draw-timing     sample() time for very different inputs              (bench/draw-timing.mjs)
#   oracle-item-timing  an oracle encoder's time by item (bench/oracle-item-timing.mjs [old checkout])
#   client-clip     minimax distribution(): client entry vs research entry vs the 5fd3315 module (bench/client-clip.mjs)
#   side-by-side [largest k] [s/row]  native, client, research vs the papers' loop, one pass, hand-written JS, alias
#   clip-normalise | ring | mbde | simulate | accountant   native and WebAssembly C++ benchmarks (bench/*_bench.cpp;
#                   simulate also times ps.simulate through the research entry: bench/simulate.mjs)
#   clip-normalise-ab [commit] [largest k]   clip-normalise against another commit's, in one native process
#   <file>.mjs      any other JS benchmark in bench/
set -euo pipefail
cd "$(dirname "$0")/.."
name="${1:-}"
[[ -n "$name" ]] || { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
shift
bash scripts/bootstrap.sh
[[ "$name" == clip-normalise-ab ]] || bash scripts/build-wasm.sh >/dev/null  # that one is native only
case "$name" in
  clip-normalise|ring|mbde|simulate|accountant)
    target="${name//-/_}_bench"
    cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build build/native -j2 --target "$target" >/dev/null
    NODE_PATH=/usr/share/nodejs cmake --build build/wasm -j2 --target "$target" >/dev/null
    echo "== native"; "build/native/$target" "$@"
    echo "== WebAssembly (Node $(node --version))"; node "build/wasm/$target.cjs" "$@"
    if [[ "$name" == simulate ]]; then echo "== ps.simulate, research entry"; node bench/simulate.mjs "$@"; fi
    ;;
  clip-normalise-ab)
    bash scripts/bench-clip-ab.sh "$@"
    ;;
  side-by-side)
    cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build build/native -j2 --target side_by_side_bench >/dev/null
    node bench/side-by-side.mjs "$@"
    ;;
  client-clip)
    bash scripts/build-baseline.sh
    node bench/client-clip.mjs "$@"
    ;;
  *)
    file="bench/${name%.mjs}.mjs"
    [[ -f "$file" ]] || { echo "privsample: no benchmark '$name' (see npm run bench)" >&2; exit 2; }
    node "$file" "$@"
    ;;
esac
