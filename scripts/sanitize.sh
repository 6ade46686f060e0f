#!/usr/bin/env bash
# Builds the core and command-line tests with AddressSanitizer and UndefinedBehaviorSanitizer
# (clang) in ./build-asan and runs them. Any sanitizer report fails its test.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh" --sanitizers
build="$root/build-asan"
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSOSREP_SANITIZE=ON -DSOSREP_BUILD_GUI=OFF >/dev/null
cmake --build "$build" --parallel "$(nproc)"
cd "$build"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --output-on-failure --parallel "$(nproc)" --timeout 1200
