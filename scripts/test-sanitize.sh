#!/usr/bin/env bash
# The native test suite under AddressSanitizer + UndefinedBehaviorSanitizer (clang-14, -O1), then every libFuzzer
# target of tests/fuzz/ from its committed corpus. One build (build/sanitize) serves both: the core is instrumented
# for the fuzzer too (-fsanitize=fuzzer-no-link), which the tests do not mind.
# In npm test the fuzzing is deterministic — a fixed seed and a fixed number of runs per target (FUZZ_RUNS, default
# 200000), so CI's verdict does not depend on luck; FUZZ_SECONDS=300 bash scripts/test-sanitize.sh explores instead
# (random seed, time-bounded). Add every crash input it finds to the target's corpus with the fix.
# Skipped under the sanitizers, for time only (they run in the plain suite; the same code paths run here in smaller
# tests): the MBDE training tests, the exhaustive ROO replace-one audit, and the statistical and large-k tests whose
# cost is repetition (millions of draws or solves, k = 10^6 and 10^7; the estimators' coverage grid), each several
# minutes under ASan; and the alias table build's timing test (under ASan it would time the instrumentation).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -n "${FUZZ_SECONDS:-}" ]]; then
  budget=(-max_total_time="$FUZZ_SECONDS")
  what="${FUZZ_SECONDS} s, random seed"
else
  budget=(-seed=1 -runs="${FUZZ_RUNS:-200000}" -max_total_time=300)
  what="seed 1, ${FUZZ_RUNS:-200000} runs"
fi
CXX=clang++-14 cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=Release -DPRIVSAMPLE_FUZZ=ON \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g" \
  -DCMAKE_CXX_FLAGS_RELEASE="-O1" >/dev/null
targets=$(cd tests/fuzz && ls *_fuzz.cpp | sed 's/\.cpp$//')
cmake --build build/sanitize -j2 --target privsample_tests $targets
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# One process per test case, two at a time (ctest -j2, as in the plain suite): half the wall time on CI's two cores.
heavy='^(mbde: |roo: exhaustive replace-one audit|estimate: affine estimate is unbiased for heterogeneous users'
heavy+='|draw policy: sample_point releases points|draw policy: a release reads a few words|clip_normalise: sampled first round'
heavy+='|privacy box: >= 10\^6 released|minimax: k = 10\^[67] |randomness: sample\(\) draws from distribution|coverage grid: |release table: building an alias table)'
(cd build/sanitize && ctest --output-on-failure -j2 -E "$heavy")

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=0
for target in $targets; do
  corpus="tests/fuzz/corpus/${target%_fuzz}"
  mkdir -p "$scratch/$target"
  log="$scratch/$target.log"
  if "build/sanitize/$target" "${budget[@]}" -print_final_stats=1 -artifact_prefix="$scratch/" \
      "$scratch/$target" "$corpus" >"$log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    echo "fuzz $target: $runs executions ($what) under ASan+UBSan, no finding"
  else
    failed=1
    echo "fuzz $target: FINDING — the end of its log:" >&2
    tail -n 30 "$log" >&2
  fi
done
exit "$failed"
