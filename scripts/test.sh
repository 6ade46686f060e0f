#!/usr/bin/env bash
# Builds everything and runs the whole test suite through ctest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh"
cd "$root/build"
# Idle OpenMP threads sleep instead of spinning: with a test per core, a spinning thread takes
# its core from the other test.
OMP_WAIT_POLICY=passive QT_QPA_PLATFORM=offscreen \
    ctest --output-on-failure --parallel "$(nproc)" --timeout 600
