#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan, UBSan) in ./build-asan (scripts/asan-build.sh,
# shared with the sanitizer tests) and runs each for SECONDS (default 60), as many at a time as
# the machine has cores, starting from the seed corpus in tests/data/fuzz/<target>. Inputs that
# crash are kept in build-asan/findings/<target>/ and make the script fail.
#   scripts/fuzz.sh [SECONDS] [TARGET...]     e.g. scripts/fuzz.sh 600 npz_reader
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] ||
    targets=(csv_reader npz_reader model_file project_file expression_parser cli_options)
build="$root/build-asan"
"$root/scripts/asan-build.sh" $(printf 'fuzz_%s ' "${targets[@]}")
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

# One target's run; its exit status is the finding.
fuzz_one() {
    local t="$1" corpus="$build/corpus/$1" findings="$build/findings/$1"
    mkdir -p "$corpus" "$findings"
    "$build/tests/fuzz/fuzz_$t" "$corpus" "$root/tests/data/fuzz/${t%%_*}" \
        -max_total_time="$seconds" -rss_limit_mb=4096 -timeout=60 \
        -artifact_prefix="$findings/" -print_final_stats=1 2>"$build/fuzz_$t.log"
}

# Each target uses one core: run them side by side, a batch of $(nproc) at a time.
status=0
batch=$(nproc)
for ((i = 0; i < ${#targets[@]}; i += batch)); do
    pids=()
    for t in "${targets[@]:i:batch}"; do
        fuzz_one "$t" &
        pids+=($!)
    done
    for k in "${!pids[@]}"; do
        t="${targets[i + k]}"
        echo "== fuzz_$t for ${seconds}s (seeds: tests/data/fuzz/${t%%_*}) =="
        if ! wait "${pids[$k]}"; then
            echo "fuzz_$t FOUND A PROBLEM: see $build/fuzz_$t.log and $build/findings/$t/"
            tail -n 40 "$build/fuzz_$t.log"
            status=1
        else
            grep -E "stat::number_of_executed_units|cov:" "$build/fuzz_$t.log" | tail -n 2
        fi
    done
done
exit $status
