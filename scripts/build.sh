#!/usr/bin/env bash
# Configures and builds the project in ./build (Release); shared by run.sh and test.sh.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
# Unity build: 8 sources to a translation unit. Each of ours pays again for loading the
# 265-394 MB precompiled header and for instantiating the same Eigen templates; merged, a cold
# build on 2 cores took 9.5 min instead of 15.7 (docs/reliability.md). CMake leaves the choice
# to whoever builds (configure without it for quicker rebuilds of one file); helpers in
# anonymous namespaces must have names unique within their library either way.
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON \
    -DCMAKE_UNITY_BUILD_BATCH_SIZE=8 >/dev/null
cmake --build "$root/build" --parallel "$(nproc)"
