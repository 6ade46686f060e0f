#!/usr/bin/env bash
# Time and result of the default `sosrep fit` from two binaries, side by side in one run
# (the Nystroem preconditioner after issue 25).
#   scripts/fit_before_after.sh OLD_SOSREP NEW_SOSREP [RUNS] [OUT_DIR]
# Data: a seeded 60 000-row sample of skin (the training part of a 75 000-row draw) (RUNS runs each, alternating old and new; median),
# then all of shuttle and all of skin (one run each). Prints a Markdown table: seconds, the
# ratio, kernel products of the sweep and of the final fit, l and AUC-ROC. All of skin takes
# about 7 minutes with the old binary, 2.5 with the new, on 2 cores.
set -euo pipefail
old=$1 new=$2 runs=${3:-3} out=${4:-fit-before-after}
data=${SOSREP_DATA:-"$(dirname "$0")/../../shared/datasets/adbench"}
mkdir -p "$out"
if [ ! -f "$out/skin60k_train.csv" ]; then
    "$new" split --data "$data/33_skin.npz" --subsample 75000 --test-fraction 0.2 --seed 0 \
        --train-out "$out/skin60k_train.csv" --test-out "$out/skin60k_test.csv" >/dev/null
fi
# run NAME WHICH BIN ARGS...: one fit, its wall time and summary line into $out
run() {
    local name=$1 which=$2 bin=$3
    shift 3
    local start end
    start=$(date +%s.%N)
    "$bin" fit "$@" 2>/dev/null | tail -1 >"$out/${name}_${which}_$(date +%s%N).json"
    end=$(date +%s.%N)
    echo "$name $which $(echo "$end - $start" | bc)" >>"$out/times.txt"
}
: >"$out/times.txt"
rm -f "$out"/*.json
for _ in $(seq "$runs"); do
    for which in old new; do
        run skin60k $which "${!which}" --train "$out/skin60k_train.csv" --label-column y
    done
done
for set in 32_shuttle 33_skin; do
    for which in old new; do
        run "$set" $which "${!which}" --train "$data/$set.npz"
    done
done
python3 - "$out" <<'EOF'
import glob, json, statistics, sys
out = sys.argv[1]
times = {}
for line in open(f"{out}/times.txt"):
    name, which, t = line.split()
    times.setdefault((name, which), []).append(float(t))
print("| data | old (s) | new (s) | new / old | sweep products old -> new | final fit products old -> new | l old, new | AUC-ROC old, new |")
print("|---|---|---|---|---|---|---|---|")
for name in ("skin60k", "32_shuttle", "33_skin"):
    fits = {w: [json.load(open(f)) for f in sorted(glob.glob(f"{out}/{name}_{w}_*.json"))] for w in ("old", "new")}
    t = {w: statistics.median(times[(name, w)]) for w in ("old", "new")}
    o, n = fits["old"][0], fits["new"][0]
    print(f"| {name} ({o['n_train']} rows, median of {len(times[(name, 'old')])}) | {t['old']:.2f} | {t['new']:.2f} | "
          f"{t['new'] / t['old']:.3f} | {o['sweep_kernel_products']} -> {n['sweep_kernel_products']} | "
          f"{o['kernel_products']} -> {n['kernel_products']} | {o['length_scale']:.6g}, {n['length_scale']:.6g} | "
          f"{o.get('auc_roc', float('nan')):.6f}, {n.get('auc_roc', float('nan')):.6f} |")
EOF
