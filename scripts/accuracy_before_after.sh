#!/usr/bin/env bash
# Accuracy held across a change (issue 25): the same l and AUC-ROC from two `sosrep` binaries.
#   scripts/accuracy_before_after.sh OLD_SOSREP NEW_SOSREP [OUT_DIR]
# Runs `sosrep adbench` (the 24 shared ADBench sets, seeds 42 and 43, the default anomaly rule
# and purpose=density) and the 2-D toys (6 kinds x 3 seeds, 1000 rows with 5 % anomalies, a
# stratified 70/30 split, `sosrep fit` with each purpose) with both, then prints how many runs
# agree and the per-dataset table. About 15 minutes per binary on 2 cores.
set -euo pipefail
old=$1 new=$2 out=${3:-accuracy-before-after}
data=${SOSREP_DATA:-"$(dirname "$0")/../../shared/datasets/adbench"}
mkdir -p "$out/toys"
for kind in gmm moons rings square cosine blocks; do
    for seed in 1 2 3; do
        "$new" generate --kind $kind -n 1000 --seed $seed --anomalies 0.05 --out "$out/toys/$kind$seed.csv" >/dev/null
        "$new" split --data "$out/toys/$kind$seed.csv" --label-column label --stratify --seed $seed \
            --train-out "$out/toys/${kind}${seed}_train.csv" --test-out "$out/toys/${kind}${seed}_test.csv" >/dev/null
    done
done
for which in old new; do
    bin=${!which}
    "$bin" adbench --data-dir "$data" --seeds 42,43 --estimators "sosrep,sosrep:purpose=density" \
        --table-out "$out/$which.csv" >/dev/null 2>&1
    : > "$out/toys_$which.tsv"
    for kind in gmm moons rings square cosine blocks; do
        for seed in 1 2 3; do
            for purpose in density anomaly; do
                "$bin" fit --train "$out/toys/${kind}${seed}_train.csv" --test "$out/toys/${kind}${seed}_test.csv" \
                    --label-column label --purpose $purpose 2>/dev/null | tail -1 |
                    python3 -c "import sys, json; d = json.load(sys.stdin); print('$kind $seed $purpose %.10g %.10f' % (d['length_scale'], d['auc_roc']))" \
                    >> "$out/toys_$which.tsv"
            done
        done
    done
done
if diff -q "$out/toys_old.tsv" "$out/toys_new.tsv" >/dev/null; then
    echo "toys: $(wc -l < "$out/toys_new.tsv") fits, the same l and AUC-ROC (10 digits)"
else
    echo "toys: differences:"; diff "$out/toys_old.tsv" "$out/toys_new.tsv" || true
fi
python3 - "$out/old.csv" "$out/new.csv" <<'PY'
import csv, sys, collections
def load(p):
    return {(r['dataset'], r['seed'], r['method']): r for r in csv.DictReader(open(p))}
old, new = load(sys.argv[1]), load(sys.argv[2])
keys = sorted(set(old) & set(new))
same = sum(old[k]['length_scale'] == new[k]['length_scale'] for k in keys)
dauc = [abs(float(old[k]['auc_roc']) - float(new[k]['auc_roc'])) for k in keys]
print(f"adbench: {len(keys)} runs, l equal in {same}, largest |AUC-ROC change| {max(dauc):.1e}")
by = collections.defaultdict(list)
for k in keys:
    by[k[0]].append(k)
print("| dataset | l (mean of seeds) before / after | AUC-ROC anomaly rule before / after | AUC-ROC density rule before / after |")
print("|---|---|---|---|")
for ds, ks in sorted(by.items()):
    def mean(rows, col, method):
        v = [float(rows[k][col]) for k in ks if k[2] == method]
        return sum(v) / len(v)
    print(f"| {ds[:-4]} | {mean(old, 'length_scale', 'sosrep'):.4g} / {mean(new, 'length_scale', 'sosrep'):.4g} "
          f"| {mean(old, 'auc_roc', 'sosrep'):.4f} / {mean(new, 'auc_roc', 'sosrep'):.4f} "
          f"| {mean(old, 'auc_roc', 'sosrep:purpose=density'):.4f} / {mean(new, 'auc_roc', 'sosrep:purpose=density'):.4f} |")
PY
