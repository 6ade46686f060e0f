#!/usr/bin/env bash
# The cost of batch-invariant scores and data-unit log values (issue 33), side by side in one
# run: the default `sosrep fit` of shuttle's training split, and `sosrep score` of 1e6 rows,
# from a binary built before the change and one after.
#   scripts/trust_before_after.sh OLD_SOSREP NEW_SOSREP [RUNS] [OUT_DIR]
# Data: 32_shuttle split 70/30 (seed 0, the fit's 10 000-row subsample cap); the 1e6 rows to
# score are the test part resampled with a little noise (seeded), as .npz. RUNS runs each,
# alternating old and new; medians and their ratio. Also checks that both give the same
# scores up to the data-unit constant (old + sum log scale_j = new).
set -euo pipefail
py=${PYTHON:-python3} # with NumPy (Debian: python3-numpy)
old=$1 new=$2 runs=${3:-3} out=${4:-trust-before-after}
data=${SOSREP_DATA:-"$(dirname "$0")/../../shared/datasets/adbench"}
mkdir -p "$out"
if [ ! -f "$out/shuttle_train.csv" ]; then
    "$new" split --data "$data/32_shuttle.npz" --test-fraction 0.3 --seed 0 \
        --train-out "$out/shuttle_train.csv" --test-out "$out/shuttle_test.csv" >/dev/null
fi
if [ ! -f "$out/million.npz" ]; then
    "$py" - "$out" <<'EOF'
import sys, numpy as np
out = sys.argv[1]
test = np.genfromtxt(f"{out}/shuttle_test.csv", delimiter=",", names=True)
cols = [c for c in test.dtype.names if c != "y"]
x = np.column_stack([test[c] for c in cols])
rng = np.random.default_rng(0)
rows = x[rng.integers(0, len(x), 1_000_000)]
rows += rng.normal(scale=0.01, size=rows.shape) * x.std(axis=0)
np.savez(f"{out}/million.npz", X=rows)
EOF
fi
# timed NAME WHICH CMD...: the wall time of one command into $out/times.txt
timed() {
    local name=$1 which=$2
    shift 2
    local start end
    start=$(date +%s.%N)
    "$@" >"$out/${name}_${which}.json" 2>/dev/null
    end=$(date +%s.%N)
    echo "$name $which $(echo "$end - $start" | bc)" >>"$out/times.txt"
}
: >"$out/times.txt"
for _ in $(seq "$runs"); do
    for which in old new; do
        bin=${!which}
        timed fit $which "$bin" fit --train "$out/shuttle_train.csv" --label-column y \
            --model-out "$out/model_$which.json"
        timed score $which "$bin" score --model "$out/model_$which.json" \
            --data "$out/million.npz" --scores-out "$out/scores_$which.csv"
    done
done
"$py" - "$out" <<'EOF'
import json, statistics, sys
import numpy as np
out = sys.argv[1]
times = {}
for line in open(f"{out}/times.txt"):
    name, which, t = line.split()
    times.setdefault((name, which), []).append(float(t))
print("| step | old (s) | new (s) | new / old |")
print("|---|---|---|---|")
for name, what in (("fit", "default fit, shuttle training split"), ("score", "score 1e6 rows")):
    o, n = (statistics.median(times[(name, w)]) for w in ("old", "new"))
    print(f"| {what} (median of {len(times[(name, 'old')])}) | {o:.2f} | {n:.2f} | {n / o:.3f} |")
model = json.load(open(f"{out}/model_new.json"))
shift = float(np.sum(np.log(model["scaler"]["scale"])))
old = np.loadtxt(f"{out}/scores_old.csv", delimiter=",", skiprows=1, usecols=1)
new = np.loadtxt(f"{out}/scores_new.csv", delimiter=",", skiprows=1, usecols=1)
gap = np.max(np.abs((old - shift) - new))
print(f"\nsum log scale_j = {shift:.6f}; max |(old - that) - new| over 1e6 rows = {gap:.3g}")
EOF
