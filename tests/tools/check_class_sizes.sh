#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sizes a reader can hold in mind (issue 49), checked with universal-ctags on the source tree:
# no class or struct of ui/ declares more than 40 methods (signals included) or 25 data members
# or has its methods defined in more than 2 .cpp files; no function of core/, ui/ or app/ is
# over 80 lines but the ones named below (docs/architecture.md says why each is whole).
#   check_class_sizes.sh SOURCE_DIR
set -uo pipefail
cd "${1:?usage: check_class_sizes.sh SOURCE_DIR}" || exit 2
if ! ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
    echo "universal-ctags is needed (scripts/install-deps.sh installs it)"
    exit 1
fi
long_allowed="PYBIND11_MODULE build evaluateExponential makeTuningOptions planBackend"

classes=$(ctags --languages=C++ --fields=+nKZ --c++-kinds=+p -R -f - ui | awk -F'\t' '
{ kind = $4; scope = "";
  for (i = 5; i <= NF; i++) if ($i ~ /^scope:(class|struct):/) { scope = $i; sub(/^scope:(class|struct):/, "", scope) }
  if (scope == "") next
  cls = scope
  if (kind == "prototype" || (kind == "function" && $2 ~ /\.h$/)) methods[cls]++
  if (kind == "member") members[cls]++
  if (kind == "function" && $2 ~ /\.cpp$/ && !((cls, $2) in seen)) { seen[cls, $2] = 1; files[cls]++ }
  known[cls] = 1
}
END {
  for (c in known) {
    if (methods[c] > 40) printf "class %s: %d methods (at most 40)\n", c, methods[c]
    if (members[c] > 25) printf "class %s: %d data members (at most 25)\n", c, members[c]
    if (files[c] > 2) printf "class %s: methods in %d .cpp files (at most 2)\n", c, files[c]
  }
}')
long=$(ctags --languages=C++ --fields=+ne -R -f - --c++-kinds=f core ui app | awk -F'\t' -v allowed="$long_allowed" '
BEGIN { n = split(allowed, a, " "); for (i = 1; i <= n; i++) ok[a[i]] = 1 }
{ l = e = ""; for (i = 1; i <= NF; i++) { if ($i ~ /^line:/) l = substr($i, 6); if ($i ~ /^end:/) e = substr($i, 5) }
  if (l != "" && e != "" && e - l + 1 > 80 && !($1 in ok)) printf "%s %s: %d lines (at most 80)\n", $2, $1, e - l + 1 }')
problems=$(printf '%s\n%s\n' "$classes" "$long" | grep -c .)
printf '%s\n%s\n' "$classes" "$long" | grep .
echo "classes of ui/ and functions of core/, ui/, app/ checked, $problems problem(s)"
((problems == 0))
