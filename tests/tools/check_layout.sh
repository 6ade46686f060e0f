#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The house rules a reader relies on, checked on the source tree: every C++ source opens with a
# one-line comment that says what it holds (after the licence line), no source file is over 700
# lines, core/ includes no Qt, the command line and the Python extension include nothing of ui/,
# and within ui/ no include runs from a lower folder to a higher one.
#   check_layout.sh SOURCE_DIR
set -uo pipefail
cd "${1:?usage: check_layout.sh SOURCE_DIR}" || exit 2
failures=0
fail() { echo "$1"; failures=$((failures + 1)); }

mapfile -t sources < <(find app core ui tests -name '*.h' -o -name '*.cpp' | grep -v '^tests/data/' | sort)
for f in "${sources[@]}"; do
    opening=$(grep -v -e '^[[:space:]]*$' -e 'SPDX-License-Identifier' "$f" | head -n 1)
    [[ "$opening" == //* ]] || fail "$f: no opening comment saying what the file holds"
    lines=$(wc -l < "$f")
    ((lines <= 700)) || fail "$f: $lines lines (at most 700)"
done
grep -rln --include='*.h' --include='*.cpp' -E '#include <Q|#include "Q|#include <qcustomplot' core \
    | while read -r f; do echo "$f: core/ includes Qt"; done | grep . && failures=$((failures + 1))
grep -rln -E '#include "ui/' app/cli app/python \
    | while read -r f; do echo "$f: includes ui/ (the command line and Python use core/ only)"; done \
    | grep . && failures=$((failures + 1))

# ui/ runs one way, as docs/architecture.md draws it: the session and controllers
# (ui/controller) know no view; the views (ui/panels, ui/plots) know no window or project file
# (the files at ui/'s top). No include from a lower folder to a higher one.
grep -rn -E '#include "ui/(panels/|plots/|[a-z_]+\.h")' ui/controller \
    | while read -r line; do echo "$line: a controller includes a view or the window"; done \
    | grep . && failures=$((failures + 1))
grep -rn -E '#include "ui/[a-z_]+\.h"' ui/panels ui/plots \
    | while read -r line; do echo "$line: a view includes the window's layer"; done \
    | grep . && failures=$((failures + 1))

echo "${#sources[@]} source files checked, $failures problem(s)"
((failures == 0))
