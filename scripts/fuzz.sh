#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan, UBSan) in ./build-fuzz and runs each for SECONDS
# (default 60), starting from the seed corpus in tests/data/fuzz/<target>. Inputs that crash
# are kept in build-fuzz/findings/<target>/ and make the script fail.
#   scripts/fuzz.sh [SECONDS] [TARGET...]     e.g. scripts/fuzz.sh 600 npz_reader
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(csv_reader npz_reader model_file project_file expression_parser)
"$root/scripts/install-deps.sh" --sanitizers
build="$root/build-fuzz"
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSOSREP_FUZZ=ON -DSOSREP_BUILD_GUI=OFF -DSOSREP_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}")
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
status=0
for t in "${targets[@]}"; do
    corpus="$build/corpus/$t"
    findings="$build/findings/$t"
    mkdir -p "$corpus" "$findings"
    seeds="$root/tests/data/fuzz/${t%%_*}"
    echo "== fuzz_$t for ${seconds}s (seeds: ${seeds#$root/}) =="
    if ! "$build/tests/fuzz/fuzz_$t" "$corpus" "$seeds" -max_total_time="$seconds" \
        -rss_limit_mb=4096 -timeout=60 -artifact_prefix="$findings/" -print_final_stats=1 \
        2>"$build/fuzz_$t.log"; then
        echo "fuzz_$t FOUND A PROBLEM: see $build/fuzz_$t.log and $findings/"
        tail -n 40 "$build/fuzz_$t.log"
        status=1
    else
        grep -E "stat::number_of_executed_units|cov:" "$build/fuzz_$t.log" | tail -n 2
    fi
done
exit $status
