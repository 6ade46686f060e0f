#!/usr/bin/env bash
# Configures and builds ./build-asan: clang with AddressSanitizer and UndefinedBehaviorSanitizer,
# and libFuzzer's coverage instrumentation, so one build serves both the sanitizer tests
# (sanitize.sh) and the fuzz targets (fuzz.sh): the core is compiled once for both.
#   scripts/asan-build.sh [TARGET...]     (no target: everything)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh" --sanitizers
build="$root/build-asan"
# Line tables are all a sanitizer report needs to name file and line; full debug information
# took a fifth of this build's time (on 2 cores: 549 s with line tables only, 10.5 min before).
# -O1, as the sanitizers' own documentation advises: on 2 cores this build took 513 s against
# 591 s at -O2, and the sanitizer tests 365 s against 358 s (one run each, side by side).
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
    -DSOSREP_SANITIZE=ON -DSOSREP_FUZZ=ON -DSOSREP_BUILD_GUI=OFF >/dev/null
if [ $# -gt 0 ]; then
    cmake --build "$build" --parallel "$(nproc)" --target "$@"
else
    cmake --build "$build" --parallel "$(nproc)"
fi
