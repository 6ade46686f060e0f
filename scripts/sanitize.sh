#!/usr/bin/env bash
# Builds the core and command-line tests with AddressSanitizer and UndefinedBehaviorSanitizer
# (clang) in ./build-asan (scripts/asan-build.sh, shared with the fuzz targets) and runs them.
# Any sanitizer report fails its test.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/asan-build.sh"
cd "$root/build-asan"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# Idle OpenMP threads sleep instead of spinning (LLVM's libomp spins 200 ms after each loop):
# with a test per core, a spinning thread takes its core from the other test.
export OMP_WAIT_POLICY=passive
# Qt Test's watchdog ends a test function after 5 min; instrumented code runs 10-40x slower
# than the release build's (tst_negativity's shuttle run: 5 s there, 100-190 s here, more on a
# slower CI machine). The watchdog is for hangs: ctest's --timeout below still bounds each test.
export QTEST_FUNCTION_TIMEOUT=900000
# source_layout reads the sources (a lint the test command runs): nothing in it to instrument.
ctest --output-on-failure --parallel "$(nproc)" --timeout 1200 -E '^source_layout$'
