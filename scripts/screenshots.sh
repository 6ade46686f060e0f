#!/usr/bin/env bash
# Re-makes the README's screenshots with the app itself (off screen): every view of the demo at
# 1600x1000 into docs/screenshots/, the same views at 1280x720 into docs/screenshots/small/,
# and the special cases (kernel SoS, a detector, the negativity experiment, the ratio view).
# Needs a build (scripts/build.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
studio="$root/build/app/sosrep-studio"
sosrep="$root/build/app/sosrep"
out="$root/docs/screenshots"
mkdir -p "$out/small"
export QT_QPA_PLATFORM=offscreen
names=(density optimizer fisher_divergence scores compare)
for tab in 0 1 2 3 4; do
    extra=()
    if [ "$tab" = 3 ]; then
        extra=(--contamination 0.1) # the Scores view with its outlier flags
    fi
    "$studio" --demo --tab "$tab" "${extra[@]}" --size 1600x1000 \
        --screenshot "$out/${names[$tab]}.png"
    "$studio" --demo --tab "$tab" "${extra[@]}" --size 1280x720 \
        --screenshot "$out/small/${names[$tab]}.png"
done
"$studio" --demo --negativity --tab 1 --size 1280x720 --screenshot "$out/optimizer_negativity.png"
"$studio" --demo --compare iforest --tab 4 --size 1600x1000 --screenshot "$out/compare_iforest.png"
"$studio" --demo --estimator sos-mmd --compare kde --tab 4 --size 1600x1000 \
    --screenshot "$out/compare_sos_mmd.png"
"$studio" --demo --estimator sos-mmd --compare kde --tab 1 --size 1600x1000 \
    --screenshot "$out/optimizer_sos_mmd.png"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$sosrep" generate --kind shift --n 1000 --seed 3 --out "$tmp/shift.csv" > /dev/null
"$studio" "$tmp/shift.csv" --tab 5 --ratio-split label=1 --size 1600x1000 \
    --screenshot "$out/ratio.png"
"$studio" "$tmp/shift.csv" --tab 5 --ratio-split label=1 --size 1280x720 \
    --screenshot "$out/small/ratio.png"
# The 1-D views: one column (two bumps, two labelled outliers), and a marginal for d > 2.
"$sosrep" generate --kind gmm --n 600 --seed 4 --anomalies 0.02 --out "$tmp/gmm.csv" > /dev/null
cut -d, -f1,3 "$tmp/gmm.csv" > "$tmp/one_column.csv"
"$studio" "$tmp/one_column.csv" --tab 0 --size 1280x720 --screenshot "$out/density_1d.png"
wine="$root/../shared/datasets/adbench/45_wine.npz"
if [[ -f "$wine" ]]; then
    "$studio" "$wine" --marginal x1 --tab 0 --size 1280x720 \
        --screenshot "$out/density_marginal.png"
fi
# Issue 38's views at both sizes: per-class densities (hue) over the map and along one column,
# the map's linear and iso-proportion colourings, and the empty Ratio view.
for size in 1280x720 1600x1000; do
    "$studio" --demo --hue label --size "$size" --screenshot "$out/hue_$size.png"
    "$studio" "$tmp/one_column.csv" --estimator kde --hue label --size "$size" \
        --screenshot "$out/hue_1d_$size.png"
    for scale in linear proportion; do
        "$studio" --demo --color-scale "$scale" --size "$size" \
            --screenshot "$out/density_${scale}_$size.png"
    done
    "$studio" --demo --tab 5 --size "$size" --screenshot "$out/ratio_empty_$size.png"
done
for size in 1280x720 1600x1000; do
    "$studio" --demo --joint --size "$size" --screenshot "$out/joint_$size.png"
done
# A text hue (seaborn's usual species= column): the gmm rows' site, named by where they lie.
awk -F, 'NR == 1 { print $1 "," $2 ",site"; next }
         { print $1 "," $2 "," ($2 < 0 ? "south" : ($1 < 0 ? "west" : "east")) }' \
    "$tmp/gmm.csv" > "$tmp/sites.csv"
for size in 1280x720 1600x1000; do
    "$studio" "$tmp/sites.csv" --hue site --size "$size" --screenshot "$out/hue_text_$size.png"
done
shuttle="$root/../shared/datasets/adbench/32_shuttle.npz"
if [[ -f "$shuttle" ]]; then
    for size in 1280x720 1600x1000; do
        "$studio" "$shuttle" --pairplot --size "$size" --screenshot "$out/pairplot_shuttle_$size.png"
    done
fi
# Row names (a text id column) in the Scores table, and the FD title under an l multiplier.
awk -F, 'NR == 1 { print "sample," $0; next } { printf "\"item %d, lot %d\",%s\n", NR - 1, (NR - 1) % 7, $0 }' \
    "$tmp/gmm.csv" > "$tmp/named.csv"
for size in 1280x720 1600x1000; do
    "$studio" "$tmp/named.csv" --tab 3 --contamination 0.05 --size "$size" \
        --screenshot "$out/scores_row_names_$size.png"
    "$studio" --demo --bw-adjust 1.5 --tab 2 --size "$size" \
        --screenshot "$out/fd_bw_adjust_$size.png"
done
# Several estimators' ROC curves on the Scores view's panel, the threshold's point marked.
for size in 1280x720 1600x1000; do
    "$studio" --demo --roc-with kde,iforest,lof,ecod --contamination 0.05 --size "$size" \
        --screenshot "$out/roc_overlay_$size.png"
done
# Several curves on the 1-D view's axis: this model at other length scales and a KDE.
for size in 1280x720 1600x1000; do
    "$studio" "$tmp/one_column.csv" --overlay 'l*0.5,l*4,kde' --size "$size" \
        --screenshot "$out/overlay_1d_$size.png"
done
