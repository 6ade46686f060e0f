#!/usr/bin/env bash
# Builds and runs SOSREP Studio's demo. Until the desktop app lands, this is the headless demo:
# toy data -> SOSREP and KDE fits with automatic length scale -> scores and FD curves in demo-output/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh"
out="$root/demo-output"
mkdir -p "$out"
sosrep="$root/build/app/sosrep"
echo "== Generating two-moons training data and a test set (seeds 1 and 2) =="
"$sosrep" generate --kind moons --n 600 --seed 1 --out "$out/train.csv"
"$sosrep" generate --kind moons --n 300 --seed 2 --anomalies 0.1 --out "$out/test.csv"
for est in sosrep kde; do
    echo "== Fitting $est (length scale tuned by Fisher divergence) =="
    "$sosrep" fit --train "$out/train.csv" --test "$out/test.csv" --label-column label \
        --estimator "$est" --scores-out "$out/${est}_scores.csv" --fd-out "$out/${est}_fd.csv" \
        --trace-out "$out/${est}_trace.csv" --model-out "$out/${est}_model.json"
done
echo "== Outputs written to $out =="
ls -1 "$out"
