#!/usr/bin/env bash
# npm run bench -- clip-normalise-ab [commit] [largest k]: bench/clip_normalise_ab.cpp, this tree's clip-normalise
# against the one of another commit (default: the parent of HEAD) in one native process. That commit's core is
# compiled once into build/ab-<commit> (every core source file of that commit, in either layout — core/src and
# core/include before the folders by layer, core/<layer>/ after — -O3 as CMake's Release, its namespace renamed by
# -Dprivsample=privsample_baseline), then linked with this tree's core (build/native).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! commit=$(git rev-parse --short "${1:-HEAD~1}^{commit}" 2>/dev/null); then
  echo "privsample: '${1:-HEAD~1}' is not a commit of this clone (a shallow clone? 'git fetch --unshallow' first)" >&2
  exit 2
fi
largest="${2:-1e6}"
dir="build/ab-$commit"
flags=(-O3 -DNDEBUG -std=c++20 -isystem /usr/include/eigen3)
if [[ ! -f "$dir/libbaseline.a" ]]; then
  rm -rf "$dir"
  mkdir -p "$dir/tree"
  git archive "$commit" core | tar -x -C "$dir/tree"
  baseline=("${flags[@]}" -Dprivsample=privsample_baseline -I"$dir/tree/core/include" -I"$dir/tree/core/src"
            -I"$dir/tree/core")
  mapfile -t sources < <(find "$dir/tree/core" -name '*.cpp' ! -name '*_test.cpp' | sort)
  for source in "${sources[@]}"; do  # two at a time
    g++ "${baseline[@]}" -c "$source" -o "$dir/$(basename "$source" .cpp).o" &
    (( $(jobs -r | wc -l) < 2 )) || wait -n
  done
  wait
  g++ "${baseline[@]}" -c bench/clip_normalise_ab_baseline.cpp -o "$dir/wrapper.o"
  ar rcs "$dir/libbaseline.a" "$dir"/*.o
  echo "privsample: built $commit's core for the A/B in $dir" >&2
fi
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/native -j2 --target privsample_core >/dev/null
g++ "${flags[@]}" -Icore bench/clip_normalise_ab.cpp "$dir/wrapper.o" "$dir/libbaseline.a" \
  build/native/libprivsample_core.a -o build/native/clip_normalise_ab
build/native/clip_normalise_ab "$commit" "$largest"
